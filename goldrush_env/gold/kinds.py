"""Actions that name a kind of card rather than a position (``action="kinds"``), and the observation that suits
them (``observation="kinds"``).

Under the rules, two face-down cards of one category as a seat sees it (:data:`~goldrush_env.gold.encoder.
CATEGORY_NAMES`: ``gold_3``, ``miner_me_4``, ``miner_opponent_1_2``...) do the same thing wherever they lie, and
so, with perfect memory, do all the face-down cards nobody has seen. A policy over positions has to learn the
same decision once per position; a policy over kinds learns it once. There are :data:`NUM_KINDS` actions: turn a
card this seat knows of category ``k`` (``k`` < 29), or turn a card it does not know (:data:`UNKNOWN_KIND`). The
environment picks the position among those that realise the action, uniformly, with its seeded generator.

Everything here reads the seat's plain observation vector and its mask of legal positions, nothing else, so it
tells nothing the seat does not know.
"""

from __future__ import annotations

import numpy as np

from goldrush_env.errors import IllegalFlipError
from goldrush_env.gold.cards import NUM_POSITIONS
from goldrush_env.gold.encoder import (
    _GAINS,
    CATEGORY_NAMES,
    NUM_CATEGORIES,
    OBSERVATION_SIZE,
    SLICES,
    UNSEEN_SCALE,
)
from goldrush_env.layout import markdown_table, slices_of

ACTIONS = ("positions", "kinds")
"""The action options: ``"positions"`` (``Discrete(64)``, the default) and ``"kinds"`` (``Discrete(30)``)."""
KIND_NAMES: tuple[str, ...] = CATEGORY_NAMES + ("unknown",)
NUM_KINDS = len(KIND_NAMES)
UNKNOWN_KIND = NUM_CATEGORIES
"""The action "turn a card I do not know"."""

KINDS_LAYOUT: tuple[tuple[str, tuple[int, ...], str], ...] = (
    ("known", (NUM_KINDS,),
     "per kind, the face-down cards of that kind this seat knows, not counting the face-up one / 7; for "
     "`unknown`, the face-down cards it cannot place / 64"),
    ("face_up", (NUM_CATEGORIES,), "one-hot: the category of the face-up first card of the current turn"),
    ("pair_best", (NUM_KINDS,),
     "per kind this seat knows a card of: the most gold it would gain (negative: give away) by turning that card "
     "with another card it knows / 4 (0 for `unknown`)"),
    ("pair_face_up", (NUM_KINDS,),
     "while a first card is face up: the gold this seat would gain (negative: give away) by turning a card of "
     "that kind second / 4; for `unknown`, the mean over the cards it cannot place"),
    ("unseen", (NUM_CATEGORIES,), "per category, face-down cards this seat cannot place / 7"),
    ("standing", (SLICES["turn"].stop - SLICES["scores"].start,),
     "the plain vector's `scores`, `gold_cards`, `seats`, `to_play`, `phase`, `cards_left` and `turn`, as there"),
)
"""``observation="kinds"``: a short vector about kinds of card, read off the plain vector alone."""
KINDS_SLICES: dict[str, slice] = slices_of(KINDS_LAYOUT)
KINDS_OBSERVATION_SIZE: int = KINDS_SLICES["standing"].stop


def index_table() -> str:
    """The ``"kinds"`` observation's layout as a Markdown table (it is in the env's docstring)."""
    return markdown_table(KINDS_LAYOUT, KINDS_SLICES)


def _planes(plain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    plain = np.asarray(plain, dtype=np.float32)
    if plain.ndim != 2 or plain.shape[1] < OBSERVATION_SIZE:
        raise ValueError(f"expected plain observation vectors of shape (batch, {OBSERVATION_SIZE}), got {plain.shape}")
    cards = plain[:, SLICES["cards"]].reshape(len(plain), NUM_CATEGORIES, NUM_POSITIONS) > 0
    return plain, cards


def kind_positions(plain: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """bool ``(batch, NUM_KINDS, 64)``: for each kind, the legal positions (``masks``, ``(batch, 64)``) turning
    which is that action, read off the plain vectors ``(batch, 2102)``."""
    plain, cards = _planes(plain)
    out = np.empty((len(plain), NUM_KINDS, NUM_POSITIONS), dtype=bool)
    out[:, :NUM_CATEGORIES] = cards
    out[:, UNKNOWN_KIND] = plain[:, SLICES["unknown"]] > 0
    out &= np.asarray(masks, dtype=bool)[:, None, :]
    return out


def kind_masks(plain: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """bool ``(batch, NUM_KINDS)``: the kinds some legal position realises."""
    return kind_positions(plain, masks).any(axis=2)


def choose_positions(plain: np.ndarray, masks: np.ndarray, kinds: np.ndarray, rng: np.random.Generator
                     ) -> np.ndarray:
    """The positions the actions ``kinds`` ``(batch,)`` turn: one drawn uniformly from ``rng`` among the legal
    positions of each kind. A kind no legal position realises raises
    :class:`~goldrush_env.errors.IllegalFlipError` naming it (its ``row`` attribute says which of the batch),
    before anything is drawn."""
    kinds = np.asarray(kinds)
    rows = np.arange(len(kinds))
    in_range = (kinds >= 0) & (kinds < NUM_KINDS)
    options = kind_positions(plain, masks)[rows, np.where(in_range, kinds, 0)] & in_range[:, None]
    count = options.sum(axis=1)
    bad = np.flatnonzero(count == 0)
    if len(bad):
        kind = kinds[bad[0]]
        if not in_range[bad[0]]:
            error = IllegalFlipError(f"kind {int(kind)} is out of range: kinds are 0 to {NUM_KINDS - 1}")
        else:
            error = IllegalFlipError(f"kind {int(kind)} ({KIND_NAMES[int(kind)]}) cannot be turned now: no legal "
                                     "position holds such a card")
        error.row = int(bad[0])  # which of the batch, for callers that name it in their own terms
        raise error
    pick = (rng.random(len(kinds)) * count).astype(np.int64)
    return (options.cumsum(axis=1) > pick[:, None]).argmax(axis=1)


def kinds_observations(plain: np.ndarray) -> np.ndarray:
    """The ``"kinds"`` vectors (:data:`KINDS_LAYOUT`) of plain observation vectors ``(batch, 2102)``."""
    plain, cards = _planes(plain)
    batch = len(plain)
    out = np.zeros((batch, KINDS_OBSERVATION_SIZE), dtype=np.float32)
    face_up = plain[:, SLICES["face_up"]] > 0
    down = cards & ~face_up[:, None, :]
    out[:, KINDS_SLICES["known"]][:, :NUM_CATEGORIES] = down.sum(axis=2) / UNSEEN_SCALE
    unknown = plain[:, SLICES["unknown"]] > 0
    out[:, KINDS_SLICES["known"].start + UNKNOWN_KIND] = unknown.sum(axis=1) / NUM_POSITIONS
    up = (cards & face_up[:, None, :]).any(axis=2)  # (batch, 29): the face-up card's category
    out[:, KINDS_SLICES["face_up"]] = up

    held = cards.sum(axis=2)  # cards this seat knows on the table, face up or down, per category
    gains = _GAINS[:NUM_CATEGORIES, :NUM_CATEGORIES]
    partner = (held[:, None, :] - np.eye(NUM_CATEGORIES, dtype=np.int64)[None]) > 0  # another card of b besides a
    best = np.where(partner, gains[None], -np.inf).max(axis=2)
    best = np.where((held > 0) & np.isfinite(best), best, 0.0)
    out[:, KINDS_SLICES["pair_best"].start: KINDS_SLICES["pair_best"].start + NUM_CATEGORIES] = best

    rows = np.flatnonzero(up.any(axis=1))
    if len(rows):
        first = up[rows].argmax(axis=1)
        start = KINDS_SLICES["pair_face_up"].start
        out[rows, start: start + NUM_CATEGORIES] = gains[first]
        unseen = plain[rows, SLICES["unseen"]]
        total = unseen.sum(axis=1)
        mean = np.where(total > 0, (unseen * gains[first]).sum(axis=1) / np.maximum(total, 1e-9), 0.0)
        out[rows, start + UNKNOWN_KIND] = mean
    out[:, KINDS_SLICES["unseen"]] = plain[:, SLICES["unseen"]]
    out[:, KINDS_SLICES["standing"]] = plain[:, SLICES["scores"].start: SLICES["turn"].stop]
    return out


__all__ = [
    "ACTIONS",
    "KINDS_LAYOUT",
    "KINDS_OBSERVATION_SIZE",
    "KINDS_SLICES",
    "KIND_NAMES",
    "NUM_KINDS",
    "UNKNOWN_KIND",
    "choose_positions",
    "index_table",
    "kind_masks",
    "kind_positions",
    "kinds_observations",
]
