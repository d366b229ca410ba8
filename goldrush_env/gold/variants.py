"""Gold's observation types and action types, registered by name: what the ``observation`` and ``action`` options
of :class:`~goldrush_env.gold.config.EnvConfig` choose.

Every observation type is read off the plain vector of :mod:`goldrush_env.gold.encoder` alone (what the seat sees
or remembers, nothing more), so the environments have the compiled game (:mod:`goldrush_env.gold.kernel`) write
plain vectors and hand them to the type (the kernel writes the kinds and pairs vectors itself too). Every action type says which
of its actions a seat may take, read off the plain vector and the mask of legal positions, and which position an
action turns. The AEC, Gymnasium and vector environments ask :func:`observation_type` and :func:`action_type` by
name and never test a name themselves.

* ``"plain"``: the vector of the encoder's index table.
* ``"pairs"``: the plain vector followed by two planes (:func:`pair_features`) that tell, at each card the seat
  knows, the gold it would gain (or give away) by turning that card with another it knows, and with the face-up
  card: a fact of two positions put at one, for networks that cannot relate two positions on their own.
* ``"kinds"``: a short vector about categories of card rather than positions, for ``action="kinds"``.
* Actions ``"positions"``: the position to flip (``Discrete(64)``).
* Actions ``"kinds"``: a category of card to turn, or :data:`UNKNOWN_ACTION`, a card the seat cannot place
  (``Discrete(30)``). Under the rules, two face-down cards of one category (a card's kind as the seat sees it,
  :data:`~goldrush_env.gold.cards.CATEGORY_NAMES`) do the same thing wherever they lie, and so, with perfect
  memory, do all the face-down cards nobody has seen: a policy over positions has to learn the same decision once
  per position, a policy over categories learns it once. The environment picks the position among those that
  realise the action, uniformly, with its seeded generator.
"""

from __future__ import annotations

from typing import Callable

import numba
import numpy as np
from gymnasium import spaces

from goldrush_env.errors import GoldrushEnvError, IllegalFlipError
from goldrush_env.gold.cards import CATEGORY_NAMES, NUM_CATEGORIES, NUM_POSITIONS, square_name
from goldrush_env.gold.encoder import LAYOUT, OBSERVATION_SIZE, SLICES, UNSEEN_SCALE
from goldrush_env.layout import Layout, markdown_table, slices_of


class ObservationType:
    """One observation option: a float32 vector of :attr:`size` values read off the plain vector.

    ``layout``: the named entries its index table shows, after the whole vector of ``extends`` if given (a type
    that adds entries to another); ``derive``: plain vectors ``(batch, 2102)`` to new vectors of this type
    ``(batch, size)`` (``None``: the plain vector itself); ``signed``: the entries in [-1, 1] (the rest are in
    [0, 1]); ``positional``: whether it speaks of positions, as a view for players that choose positions must."""

    def __init__(self, name: str, layout: Layout, derive: Callable[[np.ndarray], np.ndarray] | None, *,
                 extends: ObservationType | None = None, signed: tuple[str, ...] = (), positional: bool = True) -> None:
        self.name = name
        self.layout = tuple(layout)
        offset = extends.size if extends is not None else 0
        self.slices: dict[str, slice] = {entry: slice(offset + at.start, offset + at.stop)
                                         for entry, at in slices_of(self.layout).items()}
        self.size: int = self.slices[self.layout[-1][0]].stop
        self.signed = signed
        self.positional = positional
        self._derive = derive

    def index_table(self) -> str:
        """The layout as a Markdown table (the AEC env's docstring shows it)."""
        return markdown_table(self.layout, self.slices)

    def space(self) -> spaces.Box:
        """The space of one vector."""
        low = np.zeros(self.size, dtype=np.float32)
        for entry in self.signed:
            low[self.slices[entry]] = -1.0
        return spaces.Box(low, np.ones_like(low), dtype=np.float32)

    def from_plain(self, plain: np.ndarray) -> np.ndarray:
        """The vectors of this type ``(batch, size)``, new arrays, of plain vectors ``(batch, 2102)``."""
        return np.array(plain, dtype=np.float32) if self._derive is None else self._derive(plain)

    def seat_vector(self, plain: np.ndarray) -> np.ndarray:
        """One seat's vector of this type ``(size,)``, a new array, of its plain vector ``(2102,)``."""
        return plain.copy() if self._derive is None else self._derive(plain[None])[0]

    def __repr__(self) -> str:
        return f"ObservationType({self.name!r}, size={self.size})"


class ActionType:
    """One action option: ``Discrete(size)``, actions named :attr:`names`, each a ``noun`` ("position", "kind").

    Its methods take the seats' plain vectors (and :meth:`to_positions` their masks of legal positions too) as
    functions of no argument, called only by the types that read them: the plain vectors cost an encoding."""

    positional = True
    """Whether an action is a position; otherwise the environment picks the position and reports it
    (``info["position"]``)."""

    def __init__(self, name: str, names: tuple[str, ...], noun: str) -> None:
        self.name = name
        self.names = names
        self.noun = noun
        self.size = len(names)

    def space(self) -> spaces.Discrete:
        return spaces.Discrete(self.size)

    def masks(self, positions: np.ndarray, plain: Callable[[], np.ndarray]) -> np.ndarray:
        """The legal actions ``(batch, size)`` of seats whose legal positions are ``positions`` ``(batch, 64)``."""
        return positions

    def to_positions(self, actions: np.ndarray, positions: Callable[[], np.ndarray],
                     plain: Callable[[], np.ndarray], rng: np.random.Generator) -> np.ndarray:
        """The positions that ``actions`` ``(batch,)`` turn. An action that turns no legal position raises
        :class:`~goldrush_env.errors.IllegalFlipError` (with a ``row`` attribute: which of the batch) before
        anything is drawn, or is left for the rules to refuse."""
        return actions

    def __repr__(self) -> str:
        return f"ActionType({self.name!r}, size={self.size})"


# --- "pairs" ----------------------------------------------------------------------------------------------------

PAIR_LAYOUT: Layout = (
    ("pair_best", (NUM_POSITIONS,),
     "at a card this seat knows: the most gold it would gain (negative: give away) by turning that card "
     "with another it knows / 4"),
    ("pair_face_up", (NUM_POSITIONS,),
     "at a card this seat knows, while a first card is face up: the gold it would gain (negative: give away) "
     "by turning that card second / 4"),
)


def _category_gains() -> np.ndarray:
    """``gain[a, b]``: the gold the observer gains (negative: another seat gains) when cards of categories ``a``
    and ``b`` are turned together by the observer, / 4: a strike pays the miner's owner, the observer itself for
    an unowned miner. One extra row and column, index ``NUM_CATEGORIES``, stands for "no card known"."""
    gain = np.zeros((NUM_CATEGORIES + 1, NUM_CATEGORIES + 1), dtype=np.float32)
    for miner, name in enumerate(CATEGORY_NAMES):
        if not name.startswith("miner_"):
            continue
        owner, strength = name.rsplit("_", 1)[0][len("miner_"):], int(name.rsplit("_", 1)[1])
        sign = 1.0 if owner in ("me", "unowned") else -1.0
        for gold_value in (1, 2, 3, 4):
            if strength >= gold_value:
                gain[miner, gold_value - 1] = gain[gold_value - 1, miner] = sign * gold_value
    return gain / 4


_GAINS = _category_gains()


def _checked(plain: np.ndarray) -> np.ndarray:
    """Plain vectors as float32, checked."""
    plain = np.asarray(plain, dtype=np.float32)
    if plain.ndim != 2 or plain.shape[1] < OBSERVATION_SIZE:
        raise ValueError(f"expected plain observation vectors of shape (batch, {OBSERVATION_SIZE}), got {plain.shape}")
    return plain


def _card_planes(plain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Plain vectors as float32, checked, and their card planes ``(batch, 29, 64)`` (1 where the seat knows
    a card of that category)."""
    plain = _checked(plain)
    return plain, plain[:, SLICES["cards"]].reshape(len(plain), NUM_CATEGORIES, NUM_POSITIONS)


def pair_features(plain: np.ndarray) -> np.ndarray:
    """The :data:`PAIR_LAYOUT` planes of plain vectors ``(batch, 2102)``: ``(batch, 2 * 64)`` float32, computed
    from each vector alone."""
    plain, planes = _card_planes(plain)
    batch = plain.shape[0]
    known = planes.any(axis=1)
    category = np.where(known, planes.argmax(axis=1), NUM_CATEGORIES)  # (batch, 64)
    gains = _GAINS[category[:, :, None], category[:, None, :]]  # (batch, 64, 64)
    both = known[:, :, None] & known[:, None, :]
    both[:, np.arange(NUM_POSITIONS), np.arange(NUM_POSITIONS)] = False
    best = np.where(both, gains, -np.inf).max(axis=2)
    out = np.zeros((batch, len(PAIR_LAYOUT) * NUM_POSITIONS), dtype=np.float32)
    out[:, :NUM_POSITIONS] = np.where(np.isfinite(best), best, 0.0)
    face_up = plain[:, SLICES["face_up"]]
    rows = np.flatnonzero(face_up.any(axis=1))
    if len(rows):
        first = face_up[rows].argmax(axis=1)
        with_first = gains[rows, first]  # (rows, 64): each position turned second after the face-up card
        usable = known[rows].copy()
        usable[np.arange(len(rows)), first] = False
        out[rows, NUM_POSITIONS:] = np.where(usable, with_first, 0.0)
    return out


def _with_pairs(plain: np.ndarray) -> np.ndarray:
    plain = np.asarray(plain, dtype=np.float32)
    return np.concatenate([plain, pair_features(plain)], axis=-1)


# --- "kinds" ----------------------------------------------------------------------------------------------------

UNKNOWN_ACTION = NUM_CATEGORIES
"""``action="kinds"``'s last action: turn a card this seat cannot place (actions below it name a category)."""
_CHOICES = NUM_CATEGORIES + 1

KINDS_LAYOUT: Layout = (
    ("known", (_CHOICES,),
     "per kind, the face-down cards of that kind this seat knows, not counting the face-up one / 7; for "
     "`unknown`, the face-down cards it cannot place / 64"),
    ("face_up", (NUM_CATEGORIES,), "one-hot: the category of the face-up first card of the current turn"),
    ("pair_best", (_CHOICES,),
     "per kind this seat knows a card of: the most gold it would gain (negative: give away) by turning that card "
     "with another card it knows / 4 (0 for `unknown`)"),
    ("pair_face_up", (_CHOICES,),
     "while a first card is face up: the gold this seat would gain (negative: give away) by turning a card of "
     "that kind second / 4; for `unknown`, the mean over the cards it cannot place"),
    ("unseen", (NUM_CATEGORIES,), "per category, face-down cards this seat cannot place / 7"),
    ("standing", (SLICES["turn"].stop - SLICES["scores"].start,),
     "the plain vector's `scores`, `gold_cards`, `seats`, `to_play`, `phase`, `cards_left` and `turn`, as there"),
)
_KINDS_SLICES = slices_of(KINDS_LAYOUT)


# Offsets, for the compiled functions below, of the plain vector's entries and the kinds vector's.
_CARDS, _FACE_UP, _UNKNOWN = SLICES["cards"].start, SLICES["face_up"].start, SLICES["unknown"].start
_UNSEEN, _STANDING, _STANDING_STOP = SLICES["unseen"].start, SLICES["scores"].start, SLICES["turn"].stop
_K_KNOWN, _K_FACE_UP, _K_PAIR_BEST, _K_PAIR_FACE_UP, _K_UNSEEN, _K_STANDING = (
    _KINDS_SLICES[entry].start for entry in ("known", "face_up", "pair_best", "pair_face_up", "unseen", "standing"))
_GAINS_KNOWN = np.ascontiguousarray(_GAINS[:NUM_CATEGORIES, :NUM_CATEGORIES])

# The kinds are read off plain vectors one position at a time in compiled loops: the AEC and Gymnasium environments
# ask for one seat's at every step, where a dozen numpy calls on a batch of one cost most of the step.


@numba.njit(cache=True)
def _kinds_rows(plain, gains, out):
    """The kinds vectors of plain vectors ``(batch, >= 2102)`` into ``out`` ``(batch, size)``, zeroed."""
    for r in range(plain.shape[0]):
        row = plain[r]
        held = np.zeros(NUM_CATEGORIES, dtype=np.int64)  # the cards the seat knows per kind, face up or down
        down = np.zeros(NUM_CATEGORIES, dtype=np.int64)  # the same, face down
        up, unknown = -1, 0
        for p in range(NUM_POSITIONS):
            if row[_UNKNOWN + p] > 0:
                unknown += 1
            for kind in range(NUM_CATEGORIES):
                if row[_CARDS + kind * NUM_POSITIONS + p] > 0:
                    held[kind] += 1
                    if row[_FACE_UP + p] > 0:
                        up = kind
                    else:
                        down[kind] += 1
                    break
        for kind in range(NUM_CATEGORIES):
            out[r, _K_KNOWN + kind] = down[kind] / UNSEEN_SCALE
        out[r, _K_KNOWN + NUM_CATEGORIES] = unknown / NUM_POSITIONS
        for kind in range(NUM_CATEGORIES):
            if held[kind] == 0:
                continue
            best, found = -np.inf, False
            for other in range(NUM_CATEGORIES):
                if held[other] - (1 if other == kind else 0) > 0 and gains[kind, other] > best:
                    best, found = gains[kind, other], True
            out[r, _K_PAIR_BEST + kind] = best if found else 0.0
        if up >= 0:
            out[r, _K_FACE_UP + up] = 1.0
            total, weighted = 0.0, 0.0
            for kind in range(NUM_CATEGORIES):
                out[r, _K_PAIR_FACE_UP + kind] = gains[up, kind]
                count = np.rint(np.float64(row[_UNSEEN + kind]) * UNSEEN_SCALE)
                total += count
                weighted += count * gains[up, kind]  # whole multiples of 1/4: exact in any order
            out[r, _K_PAIR_FACE_UP + NUM_CATEGORIES] = weighted / total if total > 0 else 0.0
        for kind in range(NUM_CATEGORIES):
            out[r, _K_UNSEEN + kind] = row[_UNSEEN + kind]
        for i in range(_STANDING_STOP - _STANDING):
            out[r, _K_STANDING + i] = row[_STANDING + i]


def _kinds_vectors(plain: np.ndarray) -> np.ndarray:
    plain = _checked(plain)
    out = np.zeros((len(plain), _KINDS_SLICES["standing"].stop), dtype=np.float32)
    _kinds_rows(plain, _GAINS_KNOWN, out)
    return out


@numba.njit(cache=True)
def _action(plain, r, p):
    """The kinds action that turning position ``p`` is for the seat whose plain vector is ``plain[r]``: its card's
    kind, :data:`UNKNOWN_ACTION` for a card it cannot place, -1 for no card."""
    for kind in range(NUM_CATEGORIES):
        if plain[r, _CARDS + kind * NUM_POSITIONS + p] > 0:
            return kind
    return NUM_CATEGORIES if plain[r, _UNKNOWN + p] > 0 else -1


@numba.njit(cache=True)
def _kind_counts(plain, positions, out):
    """``out[r, action]``: how many of the legal ``positions[r]`` turn each kinds action for the seat whose plain
    vector is ``plain[r]``."""
    out[:] = 0
    for r in range(plain.shape[0]):
        for p in range(NUM_POSITIONS):
            if positions[r, p]:
                action = _action(plain, r, p)
                if action >= 0:
                    out[r, action] += 1


@numba.njit(cache=True)
def _action_counts(plain, positions, actions, out):
    """``out[r]``: how many of the legal ``positions[r]`` turn ``actions[r]`` (0 for an action out of range)."""
    for r in range(plain.shape[0]):
        out[r] = 0
        for p in range(NUM_POSITIONS):
            if positions[r, p] and _action(plain, r, p) == actions[r]:
                out[r] += 1


@numba.njit(cache=True)
def _kind_picks(plain, positions, actions, picks, out):
    """``out[r]``: the ``picks[r]``-th (from 0) of the legal ``positions[r]`` that turn ``actions[r]``."""
    for r in range(plain.shape[0]):
        left = picks[r]
        out[r] = -1
        for p in range(NUM_POSITIONS):
            if positions[r, p] and _action(plain, r, p) == actions[r]:
                if left == 0:
                    out[r] = p
                    break
                left -= 1


def kind_positions(plain: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """bool ``(batch, 30, 64)``: per ``action="kinds"`` action, the legal positions (``positions``, ``(batch, 64)``)
    turning which is that action, for seats whose plain vectors are ``plain``."""
    plain, planes = _card_planes(plain)
    out = np.empty((len(plain), _CHOICES, NUM_POSITIONS), dtype=bool)
    out[:, :NUM_CATEGORIES] = planes > 0
    out[:, UNKNOWN_ACTION] = plain[:, SLICES["unknown"]] > 0
    out &= np.asarray(positions, dtype=bool)[:, None, :]
    return out


class KindActions(ActionType):
    """``action="kinds"``: a category of card to turn, or :data:`UNKNOWN_ACTION`; the position is drawn uniformly
    among the legal ones that realise the action."""

    positional = False

    def masks(self, positions: np.ndarray, plain: Callable[[], np.ndarray]) -> np.ndarray:
        return self._counts(plain(), positions) > 0

    def _counts(self, plain: np.ndarray, positions: np.ndarray) -> np.ndarray:
        plain = _checked(plain)
        counts = np.empty((len(plain), self.size), dtype=np.int64)
        _kind_counts(plain, np.asarray(positions, dtype=bool), counts)
        return counts

    def to_positions(self, actions: np.ndarray, positions: Callable[[], np.ndarray],
                     plain: Callable[[], np.ndarray], rng: np.random.Generator) -> np.ndarray:
        actions = np.asarray(actions)
        plain_vectors, legal = _checked(plain()), np.asarray(positions(), dtype=bool)
        wanted = actions.astype(np.int64)
        count = np.empty(len(actions), dtype=np.int64)
        _action_counts(plain_vectors, legal, wanted, count)
        bad = np.flatnonzero(count == 0)
        if len(bad):
            kind = int(actions[bad[0]])
            if not 0 <= kind < self.size:
                error = IllegalFlipError(f"kind {kind} is out of range: kinds are 0 to {self.size - 1}")
            else:
                error = IllegalFlipError(f"kind {kind} ({self.names[kind]}) cannot be turned now: no legal "
                                         "position holds such a card")
            error.row = int(bad[0])  # which of the batch, for callers that name it in their own terms
            raise error
        pick = (rng.random(len(actions)) * count).astype(np.int64)
        out = np.empty(len(actions), dtype=np.int64)
        _kind_picks(plain_vectors, legal, wanted, pick, out)
        return out


# --- the registry -----------------------------------------------------------------------------------------------

_PLAIN = ObservationType("plain", LAYOUT, None)
OBSERVATION_TYPES: dict[str, ObservationType] = {
    "plain": _PLAIN,
    "pairs": ObservationType("pairs", PAIR_LAYOUT, _with_pairs, extends=_PLAIN,
                             signed=("pair_best", "pair_face_up")),
    "kinds": ObservationType("kinds", KINDS_LAYOUT, _kinds_vectors, signed=("pair_best", "pair_face_up"),
                             positional=False),
}
"""The observation types by name, in the order the options list them."""

ACTION_TYPES: dict[str, ActionType] = {
    "positions": ActionType("positions", tuple(square_name(p) for p in range(NUM_POSITIONS)), "position"),
    "kinds": KindActions("kinds", CATEGORY_NAMES + ("unknown",), "kind"),
}
"""The action types by name, the default first."""


def observation_type(name: str) -> ObservationType:
    """The observation type called ``name``, refused by name if there is none."""
    try:
        return OBSERVATION_TYPES[name]
    except (KeyError, TypeError):
        raise GoldrushEnvError(f"observation={name!r} is not allowed: expected one of {tuple(OBSERVATION_TYPES)}") \
            from None


def action_type(name: str) -> ActionType:
    """The action type called ``name``, refused by name if there is none."""
    try:
        return ACTION_TYPES[name]
    except (KeyError, TypeError):
        raise GoldrushEnvError(f"action={name!r} is not allowed: expected one of {tuple(ACTION_TYPES)}") from None


__all__ = ["ACTION_TYPES", "KINDS_LAYOUT", "OBSERVATION_TYPES", "PAIR_LAYOUT", "UNKNOWN_ACTION", "ActionType",
           "KindActions", "ObservationType", "action_type", "kind_positions", "observation_type", "pair_features"]
