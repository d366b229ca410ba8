"""Many games of *Gold* at once, their state held in numpy arrays.

:class:`BatchedGames` plays ``num_games`` games side by side with the rules
of :class:`goldrush_env.gold.engine.Game`, one flip per game per :meth:`step`.
It exists for throughput (vectorized environments, fast tournaments against
scripted players, benchmarks), so it keeps only what the rules need: no
history and no event objects. Each step returns a :class:`FlipBatch`, the
public record of every game's flip as arrays, from which observations are
updated; ``tests/gold/test_batched.py`` replays the shared rule vectors and random
seeded games through both engines and compares every outcome and score.

Two backends compute the same step: ``"numpy"`` (vectorized over the games,
always available) and ``"numba"`` (a compiled loop over the games on all
cores; ``pip install -e ".[fast]"``). ``backend="auto"`` takes numba
when it is installed.

Arrays are indexed ``[game]`` or ``[game, position]`` / ``[game, seat]``;
positions are 0..63 (D7), card ids those of :mod:`goldrush_env.gold.cards`,
:data:`~goldrush_env.gold.cards.EMPTY` (-1) for no card. A finished game (over, or
truncated by ``max_turns``, D4) takes no more flips until it is reset; its
entry of ``positions`` is ignored, as are those of games left out by
``step(positions, where=mask)``.
"""

from __future__ import annotations

import importlib.util
from typing import Any, NamedTuple, Sequence

import numpy as np

from goldrush_env.gold.cards import (
    BOX_COUNT,
    DEFAULT_MAX_TURNS,
    DYNAMITE,
    EMPTY,
    IS_GOLD,
    IS_MINER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_CARD_TYPES,
    NUM_POSITIONS,
    VALUE,
    parse_layout,
    table_size,
)
from goldrush_env.gold.engine import _PAIR, Game, Outcome, colour_owners
from goldrush_env.checks import check_int
from goldrush_env.errors import GoldRushError, IllegalFlipError, install_line

__all__ = ["BatchedGames", "FlipBatch", "OUTCOMES", "NO_FLIP", "BACKENDS", "numba_available", "random_in_masks"]

OUTCOMES: tuple[Outcome, ...] = (Outcome.FIRST, Outcome.STRIKE, Outcome.DUEL, Outcome.DYNAMITE, Outcome.NOTHING,
                                 Outcome.RUSH_GOLD, Outcome.RUSH_DISCARD)
"""The outcome codes of :attr:`FlipBatch.outcome`: ``OUTCOMES[code]``."""
NO_FLIP = -1
"""The outcome code of a game that took no flip (it had finished)."""
BACKENDS = ("auto", "numpy", "numba")

_FIRST, _STRIKE, _DUEL, _DYNAMITE, _NOTHING, _RUSH_GOLD, _RUSH_DISCARD = range(len(OUTCOMES))
_CODE = {outcome: code for code, outcome in enumerate(OUTCOMES)}

# The engine's pair table, as arrays indexed by 25 * first card + second card.
_PAIR_OUTCOME = np.array([_CODE[rule[0]] for rule in _PAIR], dtype=np.int8)
_PAIR_FIRST_LEAVES = np.array([rule[1] for rule in _PAIR], dtype=bool)
_PAIR_SECOND_LEAVES = np.array([rule[2] for rule in _PAIR], dtype=bool)
_PAIR_GOLD_VALUE = np.array([VALUE[rule[3]] if rule[3] >= 0 else 0 for rule in _PAIR], dtype=np.int8)
_PAIR_COLOUR = np.array([rule[4] for rule in _PAIR], dtype=np.int8)
_IS_GOLD = np.array(IS_GOLD, dtype=bool)
_GOLD_VALUE = np.array([VALUE[card] if IS_GOLD[card] else 0 for card in range(NUM_CARD_TYPES)], dtype=np.int8)

# For the stalemate test (D3) each game counts its cards on the table in ten
# groups: 0 dynamite, 1..4 gold of value 1..4, 5..8 miners of value 2..5.
_GROUPS = 10
_GROUP = np.array([4 + VALUE[card] - 1 if IS_MINER[card] else (0 if card == DYNAMITE else VALUE[card])
                   for card in range(NUM_CARD_TYPES)], dtype=np.int64)


def numba_available() -> bool:
    """Whether the optional ``numba`` backend can be used (``pip install -e ".[fast]"``)."""
    return importlib.util.find_spec("numba") is not None


class FlipBatch(NamedTuple):
    """What one :meth:`BatchedGames.step` did in each game: arrays of ``num_games``."""

    outcome: np.ndarray
    """int8 code into :data:`OUTCOMES`; :data:`NO_FLIP` where the game took no flip."""
    position: np.ndarray
    """int64 position flipped, -1 where no flip."""
    card: np.ndarray
    """int8 card revealed (``EMPTY`` where no flip)."""
    player: np.ndarray
    """int8 seat that flipped."""
    receiver: np.ndarray
    """int8 seat that received gold, -1 for none."""
    partner: np.ndarray
    """int8 position of the first card for the second flip of a normal turn, else -1."""
    partner_left: np.ndarray
    """bool: the first card of the turn left the table."""
    card_left: np.ndarray
    """bool: the card flipped now left the table."""
    rush_begins: np.ndarray
    """bool: the rush begins with the next turn."""


class BatchedGames:
    """``num_games`` games of Gold for ``num_players`` players, stepped together.

    Examples:
        >>> games = BatchedGames(4, 2, backend="numpy")
        >>> games.reset(seed=0)
        >>> flips = games.step(games.random_positions(np.random.default_rng(0)))
        >>> [OUTCOMES[code].value for code in flips.outcome]
        ['first', 'first', 'first', 'first']
    """

    def __init__(self, num_games: int, num_players: int, *, max_turns: int | None = DEFAULT_MAX_TURNS,
                 backend: str = "auto", table: str = "full") -> None:
        num_games = check_int("num_games", num_games, 1)
        num_players = check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
        max_turns = check_int("max_turns", max_turns, 1, none="no limit")
        size = table_size(table)
        if backend not in BACKENDS:
            raise GoldRushError(f"backend={backend!r} is not allowed: expected one of {BACKENDS}")
        if backend == "numba" and not numba_available():
            raise GoldRushError(f'backend="numba" needs numba: {install_line("fast")} (or use "numpy")')
        self.backend = ("numba" if numba_available() else "numpy") if backend == "auto" else backend
        self.num_games, self.num_players, self.max_turns = num_games, num_players, max_turns
        self.table_name = size.name
        """The table shuffled games are dealt (:data:`~goldrush_env.gold.cards.TABLES`)."""
        self.rush_at = size.rush_at
        """The rush begins at the start of a turn with this many cards or fewer."""
        self._box = np.array(size.box(), dtype=np.int8)
        self._box_counts = np.bincount(_GROUP[self._box], minlength=_GROUPS).astype(np.int32)
        self._limit = np.iinfo(np.int32).max if max_turns is None else self.max_turns
        self.owners = np.array(colour_owners(self.num_players), dtype=np.int8)
        n = self.num_games
        self.table = np.full((n, NUM_POSITIONS), EMPTY, dtype=np.int8)
        """The card at each position (the hidden truth)."""
        self.initial = self.table.copy()
        """The tables as dealt."""
        self.face_up = np.full(n, -1, dtype=np.int8)
        """Position of the face-up first card of the turn, -1 for none."""
        self.current_player = np.zeros(n, dtype=np.int8)
        self.first_player = np.zeros(n, dtype=np.int8)
        self.turn = np.zeros(n, dtype=np.int32)
        """Completed turns."""
        self.gold_rush = np.zeros(n, dtype=bool)
        self.gold_rush_from_turn = np.full(n, -1, dtype=np.int32)
        """The first turn of the rush, -1 before it begins."""
        self.scores = np.zeros((n, self.num_players), dtype=np.int32)
        self.gold_cards = np.zeros((n, self.num_players), dtype=np.int32)
        self.cards_left = np.zeros(n, dtype=np.int32)
        self._counts = np.zeros((n, _GROUPS), dtype=np.int32)
        self._rng: np.random.Generator | None = None
        self._arange = np.arange(n)

    # --- starting games -------------------------------------------------------------

    def seed(self, seed: int | None) -> None:
        """Reseed the generator that deals shuffled tables (``None``: fresh entropy)."""
        self._rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None, *, layouts: Any = None, first_player: int | Sequence[int] = 0,
              games: Any = None) -> None:
        """Deal new games: all of them, or those picked by ``games`` (indices or a bool mask).

        ``layouts``: ``None`` shuffles the box of the table (with the generator
        seeded by ``seed``, or carried on from the last seeded reset), else one
        layout per game reset (64 codes or card ids each, as
        :class:`~goldrush_env.gold.engine.Game` takes, or an int array of shape
        (k, 64)). ``first_player``: one seat, or one per game reset.
        Everything is checked before any game changes.
        """
        picked = self._pick(games)
        k = len(picked)
        tables = None if layouts is None else _check_layouts(layouts, k)
        first = np.broadcast_to(np.asarray(first_player), (k,)) if np.ndim(first_player) == 0 \
            else np.asarray(first_player)
        if first.shape != (k,) or first.dtype.kind not in "iu" or not np.all((0 <= first) & (first < self.num_players)):
            raise GoldRushError(f"first_player must be a seat from 0 to {self.num_players - 1} (or one per game "
                                f"reset, {k}), got {first_player!r}")
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        if tables is None:
            tables = np.full((k, NUM_POSITIONS), EMPTY, dtype=np.int8)
            tables[:, :len(self._box)] = self._rng.permuted(np.broadcast_to(self._box, (k, len(self._box))), axis=1)
        self.table[picked] = tables
        self.initial[picked] = tables
        self.face_up[picked] = -1
        self.current_player[picked] = first
        self.first_player[picked] = first
        self.turn[picked] = 0
        self.gold_rush[picked] = False
        self.gold_rush_from_turn[picked] = -1
        self.scores[picked] = 0
        self.gold_cards[picked] = 0
        if layouts is None:  # the box of the table, far from the rush
            self.cards_left[picked] = len(self._box)
            self._counts[picked] = self._box_counts
            return
        on_table = tables >= 0
        self.cards_left[picked] = on_table.sum(axis=1)
        groups = np.where(on_table, _GROUP[tables], _GROUPS) + (_GROUPS + 1) * np.arange(k)[:, None]
        counts = np.bincount(groups.ravel(), minlength=k * (_GROUPS + 1)).reshape(k, _GROUPS + 1)[:, :_GROUPS]
        self._counts[picked] = counts
        # A table may be dealt already in the rush (ten cards or fewer, or D3).
        starts = picked[(self.cards_left[picked] > 0)
                        & ((self.cards_left[picked] <= self.rush_at) | _stalemate(counts))]
        self.gold_rush[starts] = True
        self.gold_rush_from_turn[starts] = 0

    def _pick(self, games: Any) -> np.ndarray:
        if games is None:
            return self._arange
        picked = np.asarray(games)
        if picked.dtype == bool:
            if picked.shape != (self.num_games,):
                raise GoldRushError(f"a bool mask of games must have shape ({self.num_games},), got {picked.shape}")
            return np.flatnonzero(picked)
        if picked.ndim != 1 or picked.dtype.kind not in "iu" or np.any((picked < 0) | (picked >= self.num_games)):
            raise GoldRushError(f"games must be indices from 0 to {self.num_games - 1} or a bool mask, got {games!r}")
        return picked

    # --- the state ------------------------------------------------------------------------

    @property
    def is_over(self) -> np.ndarray:
        """bool per game: the last card has left the table."""
        return self.cards_left == 0

    @property
    def is_truncated(self) -> np.ndarray:
        """bool per game: the turn limit (D4) stopped it before it was over."""
        return (self.turn >= self._limit) & (self.cards_left > 0)

    @property
    def is_finished(self) -> np.ndarray:
        """bool per game: over or truncated; it takes no more flips."""
        return (self.cards_left == 0) | (self.turn >= self._limit)

    def legal_mask(self) -> np.ndarray:
        """bool (num_games, 64): the positions each game's player may flip now (none once finished)."""
        mask = self.table >= 0
        mask[self._arange, np.maximum(self.face_up, 0)] &= self.face_up < 0
        mask[self.is_finished] = False
        return mask

    def leaders(self) -> np.ndarray:
        """bool (num_games, num_players): the seats that would win now (D5): most points, then most gold cards."""
        key = self.scores * 100 + self.gold_cards  # at most 24 gold cards, so the points decide first
        return key == key.max(axis=1, keepdims=True)

    def random_positions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal position per game (-1 where the game has finished)."""
        draws = rng.random(self.num_games)
        if self.backend == "numba":
            from goldrush_env.gold import _batched_numba

            out = np.empty(self.num_games, dtype=np.int64)
            _batched_numba.random_positions(self.table, self.face_up, self.cards_left, self.is_finished, draws, out)
            return out
        return random_in_masks(self.legal_mask(), draws)

    def to_game(self, index: int) -> Game:
        """Game ``index`` as a :class:`~goldrush_env.gold.engine.Game` (its standing now, no history)."""
        i = int(index)
        return Game.from_position(
            self.num_players, self.table[i].tolist(), current_player=int(self.current_player[i]),
            scores=self.scores[i].tolist(), gold_cards=self.gold_cards[i].tolist(), turn=int(self.turn[i]),
            face_up=None if self.face_up[i] < 0 else int(self.face_up[i]), gold_rush=bool(self.gold_rush[i]),
            max_turns=self.max_turns, rush_at=self.rush_at)

    # --- playing ----------------------------------------------------------------------------

    def step(self, positions: Any, where: np.ndarray | None = None) -> FlipBatch:
        """Flip ``positions[g]`` in every game ``g`` that has not finished
        (and, if the bool mask ``where`` is given, only where it is true).

        Raises :class:`~goldrush_env.errors.IllegalFlipError` naming the game
        and the position (and changes no game) if any of those flips is
        illegal: out of range, an empty position or the face-up card.
        """
        positions = np.asarray(positions)
        if positions.shape != (self.num_games,) or positions.dtype.kind not in "iu":
            raise IllegalFlipError(f"positions must be {self.num_games} ints (one per game), "
                                   f"got an array of shape {positions.shape} and dtype {positions.dtype}")
        active = ~self.is_finished
        if where is not None:
            where = np.asarray(where)
            if where.shape != (self.num_games,) or where.dtype != bool:
                raise GoldRushError(f"where must be a bool mask of shape ({self.num_games},), got {where!r}")
            active &= where
        positions = positions.astype(np.int64, copy=False)
        if self.backend == "numba":
            from goldrush_env.gold import _batched_numba

            if _batched_numba.first_illegal(self.table, self.face_up, positions, active) >= 0:
                self._check_flips(positions, active)  # raises, naming the game
        else:
            self._check_flips(positions, active)
        out = FlipBatch(
            outcome=np.full(self.num_games, NO_FLIP, dtype=np.int8),
            position=np.where(active, positions, -1),
            card=np.full(self.num_games, EMPTY, dtype=np.int8),
            player=self.current_player.copy(),
            receiver=np.full(self.num_games, -1, dtype=np.int8),
            partner=np.full(self.num_games, -1, dtype=np.int8),
            partner_left=np.zeros(self.num_games, dtype=bool),
            card_left=np.zeros(self.num_games, dtype=bool),
            rush_begins=np.zeros(self.num_games, dtype=bool),
        )
        if self.backend == "numba":
            _batched_numba.step(self.table, self.face_up, self.current_player, self.turn, self.gold_rush,
                                self.gold_rush_from_turn, self.scores, self.gold_cards, self.cards_left,
                                self._counts, self.owners, self.rush_at, positions, active, out.outcome, *out[2:])
        else:
            self._step_numpy(positions, active, out)
        return out

    def _check_flips(self, positions: np.ndarray, active: np.ndarray) -> None:
        out_of_range = active & ((positions < 0) | (positions >= NUM_POSITIONS))
        where = np.clip(positions, 0, NUM_POSITIONS - 1)
        empty = active & ~out_of_range & (self.table[self._arange, where] < 0)
        face_up = active & ~out_of_range & (where == self.face_up)
        for bad, why in ((out_of_range, f"is out of range: positions are 0 to {NUM_POSITIONS - 1}"),
                         (empty, "is empty"), (face_up, "is already face up")):
            if bad.any():
                game = int(np.flatnonzero(bad)[0])
                raise IllegalFlipError(f"game {game}: position {int(positions[game])} {why} "
                                       f"({int(bad.sum())} illegal flip(s) in this step; no game was changed)")

    def _step_numpy(self, positions: np.ndarray, active: np.ndarray, out: FlipBatch) -> None:
        ar = self._arange
        where = np.where(active, positions, 0)
        card = self.table[ar, where]
        player = self.current_player
        rush = active & self.gold_rush
        first = active & ~self.gold_rush & (self.face_up < 0)
        second = active & ~self.gold_rush & (self.face_up >= 0)
        partner = np.maximum(self.face_up, 0).astype(np.int64)
        partner_card = self.table[ar, partner]
        pair = np.where(second, partner_card.astype(np.int64) * NUM_CARD_TYPES + card, 0)

        outcome = out.outcome
        outcome[first] = _FIRST
        outcome[second] = _PAIR_OUTCOME[pair[second]]
        rush_gold = rush & _IS_GOLD[card]
        outcome[rush] = np.where(rush_gold[rush], _RUSH_GOLD, _RUSH_DISCARD)
        out.card[active] = card[active]

        # Gold: struck in a normal turn (to the miner's owner, or the player for an
        # unowned miner), or taken in the rush by the player.
        struck = second & (_PAIR_GOLD_VALUE[pair] > 0)
        owner = self.owners[_PAIR_COLOUR[pair]]
        receiver = np.where(struck, np.where(owner >= 0, owner, player), np.where(rush_gold, player, -1))
        value = np.where(struck, _PAIR_GOLD_VALUE[pair], np.where(rush_gold, _GOLD_VALUE[card], 0))
        got = np.flatnonzero(receiver >= 0)
        self.scores[got, receiver[got]] += value[got]
        self.gold_cards[got, receiver[got]] += 1
        out.receiver[:] = receiver

        # Cards leaving the table.
        partner_left = second & _PAIR_FIRST_LEAVES[pair]
        card_left = (second & _PAIR_SECOND_LEAVES[pair]) | rush
        for left, at, what in ((partner_left, partner, partner_card), (card_left, where, card)):
            games = np.flatnonzero(left)
            self.table[games, at[games]] = EMPTY
            self._counts[games, _GROUP[what[games]]] -= 1
        self.cards_left -= partner_left.astype(np.int32) + card_left
        out.partner[second] = self.face_up[second]
        out.partner_left[:] = partner_left
        out.card_left[:] = card_left

        # The face-up card, the end of the turn, and the rush (threshold or D3).
        self.face_up[first] = positions[first]
        self.face_up[second] = -1
        ends = rush | second
        self.turn[ends] += 1
        self.current_player[ends] = (self.current_player[ends] + 1) % self.num_players
        changed = np.flatnonzero(ends & ~self.gold_rush & (partner_left | card_left) & (self.cards_left > 0))
        begins = changed[(self.cards_left[changed] <= self.rush_at) | _stalemate(self._counts[changed])]
        self.gold_rush[begins] = True
        self.gold_rush_from_turn[begins] = self.turn[begins]
        out.rush_begins[begins] = True


def _stalemate(counts: np.ndarray) -> np.ndarray:
    """D3 per row of group counts: no pair of the cards left could ever remove a card."""
    miners = counts[:, 5:9] > 0  # by value 2..5
    golds = counts[:, 1:5] > 0  # by value 1..4
    distinct = miners.sum(axis=1)  # miner values left
    weakest_gold = np.where(golds.any(axis=1), np.argmax(golds, axis=1) + 1, 99)
    miner_value = np.argmax(miners, axis=1) + 2
    return (counts[:, 0] == 0) & ((distinct == 0) | ((distinct == 1) & (miner_value < weakest_gold)))


def random_in_masks(mask: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """Per row of a bool mask, the true position numbered ``floor(draw * number true)`` (-1 for a row
    with none): with uniform ``draws`` in [0, 1), a uniformly random legal flip per game."""
    counts = mask.sum(axis=1)
    chosen = (draws * counts).astype(np.int64)
    ranks = np.cumsum(mask, axis=1, dtype=np.int16)
    positions = np.argmax(ranks > chosen[:, None], axis=1)
    return np.where(counts > 0, positions, -1)


def _check_layouts(layouts: Any, k: int) -> np.ndarray:
    """``layouts`` as a (k, 64) int8 array of card ids, every layout checked as Game checks it (D8)."""
    if isinstance(layouts, np.ndarray) and layouts.dtype.kind in "iu":
        if layouts.shape != (k, NUM_POSITIONS):
            raise GoldRushError(f"layouts must have shape ({k}, {NUM_POSITIONS}) (one per game reset), "
                                f"got {layouts.shape}")
        if np.any((layouts < EMPTY) | (layouts >= NUM_CARD_TYPES)):
            bad = int(layouts[(layouts < EMPTY) | (layouts >= NUM_CARD_TYPES)][0])
            raise GoldRushError(f"unknown card id {bad} in layouts: expected {EMPTY} (empty) to {NUM_CARD_TYPES - 1}")
        counts = np.stack([(layouts == card).sum(axis=1) for card in range(NUM_CARD_TYPES)], axis=1)
        over = np.argwhere(counts > np.array(BOX_COUNT))
        if len(over):
            game, card = over[0]
            parse_layout(layouts[game].tolist())  # raises the engine's error, naming the card
        return layouts.astype(np.int8)
    try:
        rows = list(layouts)
    except TypeError:
        raise GoldRushError(f"layouts must be one layout per game reset ({k}), got {layouts!r}") from None
    if len(rows) != k:
        raise GoldRushError(f"layouts must be one layout per game reset ({k}), got {len(rows)}")
    return np.array([parse_layout(row) for row in rows], dtype=np.int8).reshape(k, NUM_POSITIONS)
