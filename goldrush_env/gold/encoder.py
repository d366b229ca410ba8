"""The plain observation vector of one seat, built from named slices, and its two fillers.

Everything is from the observing seat's point of view: other seats are
numbered relative to it (the observer is relative seat 0, the next seat to
play after it is 1, ...), and miners are told apart by whose they are (*me*,
*opponent k*, *unowned*), not by colour, so one policy can play any seat.

The card planes and ``unseen`` count cards by category, a card's kind as the
seat sees it (:data:`~goldrush_env.gold.cards.CATEGORY_NAMES`, 29):
``gold_1..gold_4``, ``dynamite``, then miners of value 2..5 owned by
relative seat 0 (me), 1, 2, 3, 4, and unowned (4 values x 6 owners).

:class:`ObservationEncoder` keeps the vectors of every seat of one game,
updating the board part (32 planes of 64 positions) as cards are revealed,
remembered, forgotten and removed, and writing the public standing when a
seat's observation is read; the compiled kernel (:mod:`goldrush_env.gold.kernel`)
writes the same vectors for a batch of games. Every other observation
type is read off this vector (:mod:`goldrush_env.gold.variants`).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from goldrush_env.gold.cards import (
    CATEGORY_NAMES,
    EMPTY,
    MAX_PLAYERS,
    NUM_CATEGORIES,
    NUM_POSITIONS,
    TOTAL_GOLD,
    category_table,
)
from goldrush_env.layout import slices_of

UNSEEN_SCALE = 7
"""``unseen`` counts are divided by this (the most cards of one category in the box)."""
MAX_GOLD_CARDS = 24

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
    ("phase", (3,), "one-hot: first flip of a normal turn, second flip, rush flip"),
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


class ObservationEncoder:
    """The observation vectors of all seats of one game, kept up to date event by event."""

    def __init__(self, num_players: int, owners: Sequence[int], max_turns: int | None) -> None:
        self.num_players = num_players
        self.max_turns = max_turns
        self.category = category_table(num_players, owners)
        self.buffers = np.zeros((num_players, OBSERVATION_SIZE), dtype=np.float32)
        self._views()
        # Whether each seat has each position in view (seen now or remembered),
        # and how many cards of each category it cannot place (kept exact as ints).
        self.shown = [[False] * NUM_POSITIONS for _ in range(num_players)]
        self.unseen_counts = [[0] * NUM_CATEGORIES for _ in range(num_players)]
        # The standing slices with only ``seats`` filled in, copied and completed by fill_standing.
        template = [0.0] * (_STANDING.stop - _STANDING.start)
        template[_AT["seats"]: _AT["seats"] + num_players] = [1.0] * num_players
        self._standing_template = template

    def _views(self) -> None:
        """``board`` and ``unseen``: views of parts of ``buffers``, by which they are written."""
        self.board = self.buffers[:, _BOARD].reshape(self.num_players, len(PLANES), NUM_POSITIONS)
        self.unseen = self.buffers[:, SLICES["unseen"]]

    def __getstate__(self) -> dict:
        # A copy or a pickle holds the buffers alone: copied views would no longer write into them.
        state = dict(self.__dict__)
        del state["board"], state["unseen"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._views()

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
        ``phase`` is 0 (first flip), 1 (second flip), 2 (the rush) or ``None``.
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
    short = [_short_name(name) for name in CATEGORY_NAMES]
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


def _short_name(category: str) -> str:
    """``G3``, ``D``, ``M4`` (my miner of 4), ``O14`` (the next seat's), ``U2`` (unowned)."""
    if not category.startswith("miner_"):
        return "D" if category == "dynamite" else "G" + category[-1]
    owner, value = category[len("miner_"):].rsplit("_", 1)
    return owner[0].upper() + (owner[-1] if owner.startswith("opponent") else "") + value
