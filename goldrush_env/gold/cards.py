"""The cards of *Gold* and the facts of the game, declared once.

A card is a small int, an index into the lookup tables below, so that the
engine's inner loop only does list indexing:

| ids | cards | code |
|---|---|---|
| 0..3 | gold worth 1..4 | ``G1`` .. ``G4`` |
| 4 | dynamite | ``D`` |
| 5..24 | miner of colour c, value v | ``M<c><v>``, id 5 + 4c + (v - 2) |

An empty position of a layout is :data:`EMPTY` (``-1``, code ``-``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from goldrush_env.checks import is_int
from goldrush_env.errors import LayoutError

# --- facts of the game -------------------------------------------------------

NUM_POSITIONS = 64
"""Positions 0..63 of the table, read as an 8x8 grid row by row (D7)."""
GRID_SIZE = 8
MIN_PLAYERS = 2
MAX_PLAYERS = 5
NUM_COLOURS = 5
GOLD_RUSH_THRESHOLD = 10
"""The rush begins at the start of a turn with this many cards or fewer."""
DEFAULT_MAX_TURNS = 200
"""The environments' turn limit (D4). Random play ends in 50-90 turns; the
limit only stops seats that stall by flipping cards known to do nothing."""
GOLD_VALUES = (1, 2, 3, 4)
MINER_VALUES = (2, 3, 4, 5)
TOTAL_GOLD = 60

# --- card ids -----------------------------------------------------------------

EMPTY = -1
NUM_CARD_TYPES = 25
DYNAMITE = 4
_FIRST_MINER = 5


def gold(value: int) -> int:
    """The id of a gold card worth ``value`` (1..4)."""
    if value not in GOLD_VALUES:
        raise ValueError(f"gold value {value!r} is not one of {GOLD_VALUES}")
    return value - 1


def miner(colour: int, value: int) -> int:
    """The id of the miner of ``colour`` (0..4) with ``value`` (2..5)."""
    if colour not in range(NUM_COLOURS):
        raise ValueError(f"miner colour {colour!r} is not in 0..{NUM_COLOURS - 1}")
    if value not in MINER_VALUES:
        raise ValueError(f"miner value {value!r} is not one of {MINER_VALUES}")
    return _FIRST_MINER + 4 * colour + (value - 2)


# Lookup tables indexed by card id: whether it is gold or a miner, its value
# (gold value, miner strength, 0 for dynamite), its colour (-1 unless a miner), its code.
IS_GOLD: tuple[bool, ...] = (True,) * 4 + (False,) * (NUM_CARD_TYPES - 4)
IS_MINER: tuple[bool, ...] = (False,) * _FIRST_MINER + (True,) * (NUM_CARD_TYPES - _FIRST_MINER)
VALUE: tuple[int, ...] = (1, 2, 3, 4, 0) + MINER_VALUES * NUM_COLOURS
COLOUR: tuple[int, ...] = (-1,) * 5 + tuple(c for c in range(NUM_COLOURS) for _ in MINER_VALUES)
CODE: tuple[str, ...] = tuple(
    f"G{VALUE[c]}" if IS_GOLD[c] else "D" if c == DYNAMITE else f"M{COLOUR[c]}{VALUE[c]}"
    for c in range(NUM_CARD_TYPES)
)

_BY_CODE = {code: card for card, code in enumerate(CODE)}
_BY_CODE["-"] = EMPTY

# --- kinds of card ----------------------------------------------------------------
# A card's kind is all the rules can tell of it: gold of a value, dynamite, or a miner of a value working for a
# seat or for nobody. Two cards of one kind act alike wherever they lie, so a player may reason about kinds
# instead of cards. Kinds are numbered as card ids are, gold 1-4 then dynamite (0-4), then the miners by seat
# (5 + 4 * seat + value - 2), nobody's after the seats; how seats are counted is what tells the two tables below
# apart.


def _kind(card: int, seat: int, nobody: int) -> int:
    """The kind of ``card`` working for ``seat`` (-1: nobody, numbered as seat ``nobody``)."""
    if not IS_MINER[card]:
        return card
    return _FIRST_MINER + len(MINER_VALUES) * (nobody if seat < 0 else seat) + VALUE[card] - MINER_VALUES[0]


def card_kinds(num_players: int, owners: Sequence[int]) -> tuple[int, ...]:
    """Per card id, its kind at a table of ``num_players`` whose colours work for ``owners`` (per colour, a seat
    or -1: :func:`goldrush_env.gold.engine.colour_owners`), seats by number and nobody's miners after them:
    ``5 + 4 * (num_players + 1)`` kinds, the numbering of the searches over kinds."""
    return tuple(_kind(card, owners[COLOUR[card]], num_players) for card in range(NUM_CARD_TYPES))


_OWNERS = ["me"] + [f"opponent_{k}" for k in range(1, MAX_PLAYERS)] + ["unowned"]
CATEGORY_NAMES: tuple[str, ...] = tuple(
    [f"gold_{v}" for v in GOLD_VALUES] + ["dynamite"]
    + [f"miner_{owner}_{v}" for owner in _OWNERS for v in MINER_VALUES]
)
"""The 29 categories: a card's kind as one seat sees it, seats counted from that seat (``me``, then
``opponent_k`` for the k-th seat to play after it) and nobody's miners (``unowned``) after :data:`MAX_PLAYERS`
seats, so that a category means the same at any table and from any seat (the observation's card planes)."""
NUM_CATEGORIES = len(CATEGORY_NAMES)


def category_table(num_players: int, owners: Sequence[int]) -> list[list[int]]:
    """``table[seat][card]``: the category of a card as seen from ``seat`` (:data:`CATEGORY_NAMES`), at a table of
    ``num_players`` whose colours work for ``owners``."""
    return [[_kind(card, -1 if owners[COLOUR[card]] < 0 else (owners[COLOUR[card]] - seat) % num_players,
                   MAX_PLAYERS) for card in range(NUM_CARD_TYPES)]
            for seat in range(num_players)]


# How many of each card the box holds (69 cards less the 5 mine entrances).
BOX_COUNT: tuple[int, ...] = (5, 7, 7, 5, 5) + (2, 2, 2, 1) * NUM_COLOURS
assert sum(BOX_COUNT) == NUM_POSITIONS
assert sum(VALUE[c] * BOX_COUNT[c] for c in range(4)) == TOTAL_GOLD


def _counts(codes: str) -> tuple[int, ...]:
    """Card counts per id from codes such as ``"G1 G2 G2 M03"``."""
    counts = [0] * NUM_CARD_TYPES
    for code in codes.split():
        counts[CODE.index(code)] += 1
    return tuple(counts)


@dataclass(frozen=True)
class TableSize:
    """A table to deal: the cards of a box, laid on the first positions of the grid, and the number of cards
    at or below which the rush begins."""

    name: str
    counts: tuple[int, ...]
    """How many of each card id the box holds."""
    rush_at: int
    """The rush begins at the start of a turn with this many cards or fewer on the table."""

    @property
    def num_cards(self) -> int:
        return sum(self.counts)

    def box(self) -> list[int]:
        """The cards of the box, in id order."""
        return [card for card in range(NUM_CARD_TYPES) for _ in range(self.counts[card])]


TABLES: dict[str, TableSize] = {
    "full": TableSize("full", BOX_COUNT, GOLD_RUSH_THRESHOLD),
    "half": TableSize("half", _counts("G1 G1 G2 G2 G2 G3 G3 G3 G4 G4 D D "
                                      + " ".join(f"M{c}{v}" for c in range(NUM_COLOURS) for v in (2, 3, 4, 5))), 5),
    "quarter": TableSize("quarter", _counts("G1 G2 G2 G3 G4 D "
                                            + " ".join(f"M{c}{v}" for c in range(NUM_COLOURS) for v in (3, 4))), 3),
}
"""The tables a game can be dealt: the full box of 64 cards (the game), and two smaller ones in about its
proportions of gold, miners and dynamite, laid on the first rows of the grid, for curricula and quick
experiments. ``half``: 32 cards, ten gold (2, 3, 3 and 2 of values 1 to 4: 25 points), a miner of each strength
2 to 5 in every colour, two dynamite; the rush at 5 cards. ``quarter``: 16 cards, five gold (values 1, 2, 2,
3, 4: 12 points), miners of strength 3 and 4 in every colour, one dynamite; the rush at 3 cards."""
assert [t.num_cards for t in TABLES.values()] == [64, 32, 16]
assert all(c <= b for t in TABLES.values() for c, b in zip(t.counts, BOX_COUNT))


def table_size(name: str) -> TableSize:
    """The table called ``name``, refused by name if there is none."""
    try:
        return TABLES[name]
    except (KeyError, TypeError):
        raise LayoutError(f"table={name!r} is not allowed: expected one of {list(TABLES)}") from None


def parse_card(code: str) -> int:
    """The card id of a code such as ``"G3"``, ``"D"``, ``"M25"`` or ``"-"`` (empty)."""
    try:
        return _BY_CODE[code]
    except (KeyError, TypeError):
        raise LayoutError(
            f"unknown card code {code!r}: expected G1..G4, D, M<colour 0-4><value 2-5> "
            f"or '-' for an empty position"
        ) from None


def card_code(card: int) -> str:
    """The code of a card id (``"G3"``, ``"M25"``, ``"D"``; ``"-"`` for :data:`EMPTY`)."""
    return "-" if card == EMPTY else CODE[card]


def full_box() -> list[int]:
    """All 64 cards of the box, in id order."""
    return [card for card in range(NUM_CARD_TYPES) for _ in range(BOX_COUNT[card])]


def parse_layout(layout: str | Sequence[str] | Sequence[int]) -> list[int]:
    """Check a table layout and return it as 64 card ids (:data:`EMPTY` for a gap).

    ``layout`` is 64 codes (a sequence, or one string of whitespace-separated
    codes, handy for writing the 8x8 grid as eight lines) or 64 card ids. A
    layout may leave positions empty but may not hold more cards of a kind
    than the box has (D8).
    """
    if isinstance(layout, str):
        layout = layout.split()
    try:
        items = list(layout)
    except TypeError:
        raise LayoutError(f"a layout is a sequence of {NUM_POSITIONS} card codes, got {layout!r}") from None
    cards = [_layout_entry(item) for item in items]
    if len(cards) != NUM_POSITIONS:
        raise LayoutError(f"a layout has exactly {NUM_POSITIONS} positions (use '-' for empty ones), got {len(cards)}")
    counts = [0] * (NUM_CARD_TYPES + 1)
    for card in cards:
        counts[card] += 1  # EMPTY (-1) lands in the extra last slot, which is never checked
    too_many = [f"{counts[card]} x {CODE[card]} (the box has {BOX_COUNT[card]})"
                for card in range(NUM_CARD_TYPES) if counts[card] > BOX_COUNT[card]]
    if too_many:
        raise LayoutError("layout holds more cards than the box: " + ", ".join(too_many))
    return cards


def _layout_entry(item: Any) -> int:
    if type(item) is int and EMPTY <= item < NUM_CARD_TYPES:
        return item
    if isinstance(item, str):
        return parse_card(item)
    if not is_int(item):
        raise LayoutError(f"layout entry {item!r} is neither a card code nor a card id")
    card = int(item)
    if not EMPTY <= card < NUM_CARD_TYPES:
        raise LayoutError(f"unknown card id {card}: expected {EMPTY} (empty) to {NUM_CARD_TYPES - 1}")
    return card


COLUMNS = "abcdefgh"
"""The columns' letters: a square is named by its column and its row, ``a1`` (position 0) to ``h8`` (63)."""


def square_name(position: int) -> str:
    """``a1`` for position 0 ... ``h8`` for position 63 (column letter, row number)."""
    row, column = divmod(position, GRID_SIZE)
    return f"{COLUMNS[column]}{row + 1}"


def parse_square(name: str) -> int:
    """The position of a square name such as ``"c4"`` (case-insensitive)."""
    text = name.strip().lower()
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "12345678":
        raise ValueError(f"square {name!r} is not a column a-h followed by a row 1-8, e.g. 'c4'")
    return (int(text[1]) - 1) * GRID_SIZE + COLUMNS.index(text[0])
