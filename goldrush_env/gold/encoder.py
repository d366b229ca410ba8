"""The flat observation vector of one seat, built from named slices.

Everything is from the observing seat's point of view: other seats are
numbered relative to it (the observer is relative seat 0, the next seat to
play after it is 1, ...), and miners are told apart by whose they are (*me*,
*opponent k*, *unowned*), not by colour, so one policy can play any seat.

Card categories (29), used by the card planes and by ``unseen``:
``gold_1..gold_4``, ``dynamite``, then miners of value 2..5 owned by
relative seat 0 (me), 1, 2, 3, 4, and unowned (4 values x 6 owners).

The board part (32 planes of 64 positions) is updated incrementally as cards
are revealed, remembered, forgotten and removed; the public standing is
written when a seat's observation is read.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from goldrush_env.gold.cards import (
    COLOUR,
    DYNAMITE,
    EMPTY,
    IS_GOLD,
    MAX_PLAYERS,
    MINER_VALUES,
    NUM_CARD_TYPES,
    NUM_POSITIONS,
    TOTAL_GOLD,
    VALUE,
)
from goldrush_env.layout import markdown_table, slices_of

NUM_CATEGORIES = 4 + 1 + len(MINER_VALUES) * (MAX_PLAYERS + 1)
UNSEEN_SCALE = 7
"""``unseen`` counts are divided by this (the most cards of one category in the box)."""
MAX_GOLD_CARDS = 24

_OWNERS = ["me"] + [f"opponent_{k}" for k in range(1, MAX_PLAYERS)] + ["unowned"]
CATEGORY_NAMES = tuple(
    [f"gold_{v}" for v in (1, 2, 3, 4)] + ["dynamite"]
    + [f"miner_{owner}_{v}" for owner in _OWNERS for v in MINER_VALUES]
)
PLANES = ("empty", "unknown", "face_up") + CATEGORY_NAMES
"""The board planes, each a 64-position row of the 8x8 grid (D7)."""

# Named slices of the vector: (name, shape, meaning). The board comes first,
# plane by plane; every offset below is computed from these shapes.
LAYOUT: tuple[tuple[str, tuple[int, ...], str], ...] = (
    ("empty", (NUM_POSITIONS,), "1 where the position holds no card"),
    ("unknown", (NUM_POSITIONS,), "1 where a card lies face down and this seat does not know it"),
    ("face_up", (NUM_POSITIONS,), "1 at the face-up first card of the current turn"),
    ("cards", (NUM_CATEGORIES, NUM_POSITIONS),
     "one plane per card category: 1 where this seat sees or remembers such a card"),
    ("scores", (MAX_PLAYERS,), "points per relative seat / 60"),
    ("gold_cards", (MAX_PLAYERS,), "gold cards per relative seat / 24"),
    ("seats", (MAX_PLAYERS,), "1 for each relative seat in the game"),
    ("to_play", (MAX_PLAYERS,), "relative seat of the player to flip (all 0 once the game has ended)"),
    ("phase", (3,), "one-hot: first flip of a normal turn, second flip, Gold Rush flip"),
    ("cards_left", (1,), "cards on the table / 64"),
    ("turn", (1,), "completed turns / turn limit (0 without a limit)"),
    ("unseen", (NUM_CATEGORIES,), "per category, face-down cards this seat cannot place (unseen or forgotten) / 7"),
)


SLICES: dict[str, slice] = slices_of(LAYOUT)
OBSERVATION_SIZE: int = SLICES[LAYOUT[-1][0]].stop
SHAPES: dict[str, tuple[int, ...]] = {name: shape for name, shape, _ in LAYOUT}
_BOARD = slice(0, SLICES["cards"].stop)
# The public standing (scores .. turn) is one contiguous run of the vector,
# written in one copy; _AT holds each slice's offset inside it.
_STANDING = slice(SLICES["scores"].start, SLICES["turn"].stop)
_AT = {name: SLICES[name].start - _STANDING.start for name, _, _ in LAYOUT[4:-1]}
assert list(_AT) == ["scores", "gold_cards", "seats", "to_play", "phase", "cards_left", "turn"]
_EMPTY, _UNKNOWN, _FACE_UP, _FIRST_CARD_PLANE = 0, 1, 2, 3


def category_table(num_players: int, owners: Sequence[int]) -> list[list[int]]:
    """``table[seat][card]``: the category of a card as seen from ``seat``."""
    table = []
    for seat in range(num_players):
        row = []
        for card in range(NUM_CARD_TYPES):
            if IS_GOLD[card]:
                row.append(VALUE[card] - 1)
            elif card == DYNAMITE:
                row.append(4)
            else:
                owner = owners[COLOUR[card]]
                relative = MAX_PLAYERS if owner < 0 else (owner - seat) % num_players
                row.append(5 + len(MINER_VALUES) * relative + VALUE[card] - MINER_VALUES[0])
        table.append(row)
    return table


def index_table(pairs: bool = False) -> str:
    """The vector's layout as a Markdown table (it is in the env's docstring); with ``pairs``, the planes the
    ``"pairs"`` option adds after it."""
    return markdown_table(*((PAIR_LAYOUT, PAIR_SLICES) if pairs else (LAYOUT, SLICES)))


OBSERVATIONS = ("plain", "pairs", "kinds")
"""The observation options: ``"plain"``, the vector above; ``"pairs"``, the same vector followed by
:data:`PAIR_LAYOUT`; ``"kinds"``, a short vector about kinds of card (:data:`goldrush_env.gold.kinds.KINDS_LAYOUT`),
for ``action="kinds"``."""
PAIR_LAYOUT: tuple[tuple[str, tuple[int, ...], str], ...] = (
    ("pair_best", (NUM_POSITIONS,),
     "at a card this seat knows: the most gold it would gain (negative: give away) by turning that card "
     "with another it knows / 4"),
    ("pair_face_up", (NUM_POSITIONS,),
     "at a card this seat knows, while a first card is face up: the gold it would gain (negative: give away) "
     "by turning that card second / 4"),
)
"""With ``observation="pairs"``: two more planes after ``unseen``, read off the plain vector alone (what the
seat sees or remembers, nothing more), that make "this flip completes a pair I know" a fact of the position
itself, for networks that cannot relate two positions on their own (a plain MLP)."""
PAIR_SLICES: dict[str, slice] = {name: slice(OBSERVATION_SIZE + k * NUM_POSITIONS,
                                             OBSERVATION_SIZE + (k + 1) * NUM_POSITIONS)
                                 for k, (name, _, _) in enumerate(PAIR_LAYOUT)}
PAIRS_OBSERVATION_SIZE = OBSERVATION_SIZE + len(PAIR_LAYOUT) * NUM_POSITIONS


def observation_size(observation: str) -> int:
    """The length of the vector of an observation option."""
    if observation == "kinds":
        from goldrush_env.gold.kinds import KINDS_OBSERVATION_SIZE  # the kinds module builds on this one

        return KINDS_OBSERVATION_SIZE
    return PAIRS_OBSERVATION_SIZE if observation == "pairs" else OBSERVATION_SIZE


def _category_gains() -> np.ndarray:
    """``gain[a, b]``: the gold the observer gains (negative: another seat gains) when cards of categories ``a``
    and ``b`` are turned together by the observer: a strike pays the miner's owner, the observer itself for an
    unowned miner. One extra row and column, index ``NUM_CATEGORIES``, stands for "no card known"."""
    gain = np.zeros((NUM_CATEGORIES + 1, NUM_CATEGORIES + 1), dtype=np.float32)
    for miner, name in enumerate(CATEGORY_NAMES):
        if not name.startswith("miner_"):
            continue
        owner, strength = name.rsplit("_", 1)[0][len("miner_"):], int(name.rsplit("_", 1)[1])
        sign = 1.0 if owner in ("me", "unowned") else -1.0
        for gold_value in (1, 2, 3, 4):
            if strength >= gold_value:
                gain[miner, gold_value - 1] = gain[gold_value - 1, miner] = sign * gold_value
    return gain


_GAINS = _category_gains() / 4


def pair_features(observations: np.ndarray) -> np.ndarray:
    """The :data:`PAIR_LAYOUT` planes of plain observation vectors ``(batch, OBSERVATION_SIZE)``:
    ``(batch, 2 * 64)`` float32, computed from each vector alone."""
    observations = np.asarray(observations, dtype=np.float32)
    batch = observations.shape[0]
    planes = observations[:, SLICES["cards"]].reshape(batch, NUM_CATEGORIES, NUM_POSITIONS)
    known = planes.any(axis=1)
    category = np.where(known, planes.argmax(axis=1), NUM_CATEGORIES)  # (batch, 64)
    gains = _GAINS[category[:, :, None], category[:, None, :]]  # (batch, 64, 64)
    both = known[:, :, None] & known[:, None, :]
    both[:, np.arange(NUM_POSITIONS), np.arange(NUM_POSITIONS)] = False
    best = np.where(both, gains, -np.inf).max(axis=2)
    out = np.zeros((batch, len(PAIR_LAYOUT) * NUM_POSITIONS), dtype=np.float32)
    out[:, :NUM_POSITIONS] = np.where(np.isfinite(best), best, 0.0)
    face_up = observations[:, SLICES["face_up"]]
    rows = np.flatnonzero(face_up.any(axis=1))
    if len(rows):
        first = face_up[rows].argmax(axis=1)
        with_first = gains[rows, first]  # (rows, 64): each position turned second after the face-up card
        usable = known[rows].copy()
        usable[np.arange(len(rows)), first] = False
        out[rows, NUM_POSITIONS:] = np.where(usable, with_first, 0.0)
    return out


def with_pair_features(observations: np.ndarray) -> np.ndarray:
    """Plain observation vectors with their :func:`pair_features` appended (the ``"pairs"`` option)."""
    observations = np.asarray(observations, dtype=np.float32)
    return np.concatenate([observations, pair_features(observations)], axis=-1)


class ObservationEncoder:
    """The observation vectors of all seats of one game, kept up to date event by event."""

    def __init__(self, num_players: int, owners: Sequence[int], max_turns: int | None) -> None:
        self.num_players = num_players
        self.max_turns = max_turns
        self.category = category_table(num_players, owners)
        self.buffers = np.zeros((num_players, OBSERVATION_SIZE), dtype=np.float32)
        self.board = self.buffers[:, _BOARD].reshape(num_players, len(PLANES), NUM_POSITIONS)
        self.unseen = self.buffers[:, SLICES["unseen"]]
        # Whether each seat has each position in view (seen now or remembered),
        # and how many cards of each category it cannot place (kept exact as ints).
        self.shown = [[False] * NUM_POSITIONS for _ in range(num_players)]
        self.unseen_counts = [[0] * NUM_CATEGORIES for _ in range(num_players)]
        # The standing slices with only ``seats`` filled in, copied and completed by fill_standing.
        template = [0.0] * (_STANDING.stop - _STANDING.start)
        template[_AT["seats"]: _AT["seats"] + num_players] = [1.0] * num_players
        self._standing_template = template

    def reset(self, table: Sequence[int]) -> None:
        """Start from a table on which every seat knows nothing."""
        self.buffers.fill(0.0)
        for shown, counts in zip(self.shown, self.unseen_counts):
            shown[:] = [False] * NUM_POSITIONS
            counts[:] = [0] * NUM_CATEGORIES
        on_table = np.array([card != EMPTY for card in table])
        self.board[:, _EMPTY] = ~on_table
        self.board[:, _UNKNOWN] = on_table
        for seat in range(self.num_players):
            self.buffers[seat, SLICES["seats"]][: self.num_players] = 1.0
            for card in table:
                if card != EMPTY:
                    self.unseen_counts[seat][self.category[seat][card]] += 1
            self.unseen[seat] = np.array(self.unseen_counts[seat]) / UNSEEN_SCALE

    def show(self, seat: int, position: int, card: int) -> None:
        """``seat`` now sees or remembers ``card`` at ``position``."""
        if not self.shown[seat][position]:
            self.shown[seat][position] = True
            category = self.category[seat][card]
            board = self.board[seat]
            board[_UNKNOWN, position] = 0.0
            board[_FIRST_CARD_PLANE + category, position] = 1.0
            self._count_unseen(seat, category, -1)

    def hide(self, seat: int, position: int, card: int) -> None:
        """``seat`` forgot the face-down ``card`` at ``position``."""
        if self.shown[seat][position]:
            self.shown[seat][position] = False
            category = self.category[seat][card]
            board = self.board[seat]
            board[_UNKNOWN, position] = 1.0
            board[_FIRST_CARD_PLANE + category, position] = 0.0
            self._count_unseen(seat, category, +1)

    def _count_unseen(self, seat: int, category: int, change: int) -> None:
        counts = self.unseen_counts[seat]
        counts[category] += change
        self.unseen[seat, category] = counts[category] / UNSEEN_SCALE

    def set_face_up(self, position: int, face_up: bool) -> None:
        self.board[:, _FACE_UP, position] = float(face_up)

    def remove(self, position: int, card: int) -> None:
        """The card at ``position`` left the table (it was seen by all as it went)."""
        for seat in range(self.num_players):
            self.show(seat, position, card)
            self.shown[seat][position] = False
            board = self.board[seat]
            board[_FIRST_CARD_PLANE + self.category[seat][card], position] = 0.0
            board[_EMPTY, position] = 1.0
        self.board[:, _FACE_UP, position] = 0.0

    def fill_standing(self, seat: int, scores: Sequence[int], gold_cards: Sequence[int], to_play: int | None,
                      phase: int | None, cards_left: int, turn: int) -> np.ndarray:
        """Write the public standing into ``seat``'s vector and return that vector (not a copy).

        ``to_play`` is an absolute seat (``None`` once the game has ended);
        ``phase`` is 0 (first flip), 1 (second flip), 2 (Gold Rush) or ``None``.
        """
        vector = self.buffers[seat]
        n = self.num_players
        standing = self._standing_template.copy()
        for k in range(n):
            other = seat + k - n if seat + k >= n else seat + k
            standing[_AT["scores"] + k] = scores[other] / TOTAL_GOLD
            standing[_AT["gold_cards"] + k] = gold_cards[other] / MAX_GOLD_CARDS
        if to_play is not None:
            standing[_AT["to_play"] + (to_play - seat) % n] = 1.0
        if phase is not None:
            standing[_AT["phase"] + phase] = 1.0
        standing[_AT["cards_left"]] = cards_left / NUM_POSITIONS
        standing[_AT["turn"]] = turn / self.max_turns if self.max_turns else 0.0
        vector[_STANDING] = standing
        return vector


def describe(vector: np.ndarray) -> str:
    """A readable form of one observation vector, for debugging: the grid as
    this seat knows it (``?`` unknown, ``.`` empty, ``*`` face up), then the
    standing."""
    board = vector[_BOARD].reshape(len(PLANES), NUM_POSITIONS)
    short = ["G1", "G2", "G3", "G4", "D"] + [f"{o[:1].upper()}{o[-1] if o.startswith('opp') else ''}{v}"
                                            for o in _OWNERS for v in MINER_VALUES]
    cells = []
    for position in range(NUM_POSITIONS):
        if board[_EMPTY, position]:
            cell = "."
        elif board[_UNKNOWN, position]:
            cell = "?"
        else:
            categories = np.flatnonzero(board[_FIRST_CARD_PLANE:, position])
            cell = short[categories[0]] if len(categories) else "!"
        if board[_FACE_UP, position]:
            cell = "*" + cell
        cells.append(cell.rjust(5))
    lines = ["".join(cells[row * 8:(row + 1) * 8]) for row in range(8)]
    for name in ("scores", "gold_cards", "to_play", "phase", "cards_left", "turn"):
        lines.append(f"{name}: {[round(float(x), 3) for x in vector[SLICES[name]]]}")
    return "\n".join(lines)
