"""The plain observation vector of one seat, built from named slices.

Everything is from the observing seat's point of view: other seats are
numbered relative to it (the observer is relative seat 0, the next seat to
play after it is 1, ...), and miners are told apart by whose they are (*me*,
*opponent k*, *unowned*), not by colour, so one policy can play any seat.

The card planes and ``unseen`` count cards by category, a card's kind as the
seat sees it (:data:`~goldrush_env.gold.cards.CATEGORY_NAMES`, 29):
``gold_1..gold_4``, ``dynamite``, then miners of value 2..5 owned by
relative seat 0 (me), 1, 2, 3, 4, and unowned (4 values x 6 owners).

The compiled game (:mod:`goldrush_env.gold.kernel`) writes these vectors,
for one game or a batch, from the named slices here; every other
observation type is read off this vector (:mod:`goldrush_env.gold.variants`).
"""

from __future__ import annotations

import numpy as np

from goldrush_env.gold.cards import (
    CATEGORY_NAMES,
    MAX_PLAYERS,
    NUM_CATEGORIES,
    NUM_POSITIONS,
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
_EMPTY, _UNKNOWN, _FACE_UP, _FIRST_CARD_PLANE = 0, 1, 2, 3


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
