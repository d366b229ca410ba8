"""Many games of *Gold* at once, their state held in numpy arrays and stepped by the compiled kernel.

:class:`BatchedGames` plays ``num_games`` games side by side with the rules
of :class:`goldrush_env.gold.engine.Game`, one flip per game per :meth:`step`.
It exists for throughput (vectorized environments, fast tournaments against
scripted players, benchmarks), so it keeps only what the rules need: no
history and no event objects. Each step returns a :class:`FlipBatch`, the
public record of every game's flip as arrays, from which observations are
updated; ``tests/gold/test_batched.py`` replays the shared rule vectors and random
seeded games through both engines and compares every outcome and score.

The step is :mod:`goldrush_env.gold.kernel`'s, compiled by numba: a loop over
the games on all cores, no Python per game. Each game deals from its own
generator (``rng``), so the same seed deals the same games however many
threads run them.

Arrays are indexed ``[game]`` or ``[game, position]`` / ``[game, seat]``;
positions are 0..63 (D7), card ids those of :mod:`goldrush_env.gold.cards`,
:data:`~goldrush_env.gold.cards.EMPTY` (-1) for no card. A finished game (over, or
truncated by ``max_turns``, D4) takes no more flips until it is reset; its
entry of ``positions`` is ignored, as are those of games left out by
``step(positions, where=mask)``.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

import numpy as np

from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError, IllegalFlipError
from goldrush_env.gold import kernel
from goldrush_env.gold.cards import (
    BOX_COUNT,
    DEFAULT_MAX_TURNS,
    EMPTY,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_CARD_TYPES,
    NUM_POSITIONS,
    parse_layout,
    table_size,
)
from goldrush_env.gold.config import EnvConfig
from goldrush_env.gold.engine import Game, colour_owners
from goldrush_env.gold.kernel import NO_FLIP, OUTCOMES
from goldrush_env.streams import seed_streams

__all__ = ["BatchedGames", "FlipBatch", "OUTCOMES", "NO_FLIP", "random_in_masks"]


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
        >>> games = BatchedGames(4, 2)
        >>> games.reset(seed=0)
        >>> flips = games.step(games.random_positions(np.random.default_rng(0)))
        >>> [OUTCOMES[code].value for code in flips.outcome]
        ['first', 'first', 'first', 'first']
    """

    def __init__(self, num_games: int, num_players: int, *, max_turns: int | None = DEFAULT_MAX_TURNS,
                 table: str = "full", memory: str = "perfect", forget_prob: float = 0.1,
                 memory_capacity: int | None = 12) -> None:
        num_games = check_int("num_games", num_games, 1)
        num_players = check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
        max_turns = check_int("max_turns", max_turns, 1, none="no limit")
        size = table_size(table)
        config = EnvConfig.from_kwargs(num_players=num_players, table=table, max_turns=max_turns, memory=memory,
                                       forget_prob=forget_prob, memory_capacity=memory_capacity)
        self.num_games, self.num_players, self.max_turns = num_games, num_players, max_turns
        self.table_name = size.name
        """The table shuffled games are dealt (:data:`~goldrush_env.gold.cards.TABLES`)."""
        self.rush_at = size.rush_at
        """The rush begins at the start of a turn with this many cards or fewer."""
        self.box = np.array(size.box(), dtype=np.int8)
        """The cards a shuffled deal lays."""
        self.owners = np.array(colour_owners(num_players), dtype=np.int8)
        self.constants = kernel.constants(config)
        """The kernel's :data:`~goldrush_env.gold.kernel.CONSTANTS` of these games: the seats' memories as
        ``memory`` says (with ``forget_prob`` and ``memory_capacity`` for ``"human"``), as the environments'."""
        self.limit = int(self.constants[0]["limit"])
        """``max_turns`` as the kernel takes it (a turn count no game reaches where there is no limit)."""
        self.state = kernel.new_games(num_games)
        """The games, :data:`~goldrush_env.gold.kernel.GAME` records; the attributes below are views of them."""
        games, seats = self.state, slice(0, num_players)
        self.table, self.initial, self.face_up = games["table"], games["initial"], games["face_up"]
        self.current_player, self.first_player, self.turn = games["current_player"], games["first_player"], \
            games["turn"]
        self.gold_rush, self.gold_rush_from_turn = games["gold_rush"], games["rush_from"]
        self.scores, self.gold_cards = games["scores"][:, seats], games["gold_cards"][:, seats]
        self.cards_left, self.rng, self.memo = games["cards_left"], games["rng"][:, 0], games["memo"][:, seats]
        self._players = kernel.players()
        self._turns = kernel.new_turns(num_games)
        self._nothing = np.empty((num_games, 0), dtype=np.float32), np.empty((num_games, 0), dtype=bool)
        self._seeded = False
        self._arange = np.arange(num_games)

    # --- starting games -------------------------------------------------------------

    def seed(self, seed: int | None) -> None:
        """Reseed every game's generator (``None``: fresh entropy)."""
        self.rng[:] = seed_streams(seed, self.num_games)
        self._seeded = True

    def reset(self, seed: int | None = None, *, layouts: Any = None, first_player: int | Sequence[int] = 0,
              games: Any = None) -> None:
        """Deal new games: all of them, or those picked by ``games`` (indices or a bool mask).

        ``layouts``: ``None`` shuffles the box of the table (each game from its own generator: every game's
        is seeded by ``seed`` if given, else carried on from the last seeded reset), else one layout per
        game reset (64 codes or card ids each, as :class:`~goldrush_env.gold.engine.Game` takes, or an int
        array of shape (k, 64)). ``first_player``: one seat, or one per game reset. Everything is checked
        before any game changes.
        """
        picked = self._pick(games)
        k = len(picked)
        tables = None if layouts is None else _check_layouts(layouts, k)
        first = np.broadcast_to(np.asarray(first_player), (k,)) if np.ndim(first_player) == 0 \
            else np.asarray(first_player)
        if first.shape != (k,) or first.dtype.kind not in "iu" or not np.all((0 <= first) & (first < self.num_players)):
            raise GoldrushEnvError(f"first_player must be a seat from 0 to {self.num_players - 1} (or one per game "
                                   f"reset, {k}), got {first_player!r}")
        if seed is not None or not self._seeded:
            self.seed(seed)
        first = first.astype(np.int8)
        if tables is None:
            kernel.deal(self.state, self.constants, picked, first)
        else:
            kernel.lay(self.state, self.constants, picked, tables, first)

    def _pick(self, games: Any) -> np.ndarray:
        if games is None:
            return self._arange
        picked = np.asarray(games)
        if picked.dtype == bool:
            if picked.shape != (self.num_games,):
                raise GoldrushEnvError(f"a bool mask of games must have shape ({self.num_games},), got {picked.shape}")
            return np.flatnonzero(picked)
        if picked.ndim != 1 or picked.dtype.kind not in "iu" or np.any((picked < 0) | (picked >= self.num_games)):
            raise GoldrushEnvError(f"games must be indices from 0 to {self.num_games - 1} or a bool mask, got "
                                   f"{games!r}")
        return picked.astype(np.int64)

    # --- the state ------------------------------------------------------------------------

    @property
    def is_over(self) -> np.ndarray:
        """bool per game: the last card has left the table."""
        return self.cards_left == 0

    @property
    def is_truncated(self) -> np.ndarray:
        """bool per game: the turn limit (D4) stopped it before it was over."""
        return (self.turn >= self.limit) & (self.cards_left > 0)

    @property
    def is_finished(self) -> np.ndarray:
        """bool per game: over or truncated; it takes no more flips."""
        return (self.cards_left == 0) | (self.turn >= self.limit)

    def legal_mask(self) -> np.ndarray:
        """bool (num_games, 64): the positions each game's player may flip now (none once finished)."""
        mask = self.table >= 0
        mask[self._arange, np.maximum(self.face_up, 0)] &= self.face_up < 0
        mask[self.is_finished] = False
        return mask

    def known(self) -> np.ndarray:
        """bool (num_games, 64): the cards on the table that the seat to play in each game sees or remembers."""
        out = np.empty((self.num_games, NUM_POSITIONS), dtype=bool)
        kernel.known_to_play(self.state, out)
        return out

    def leaders(self) -> np.ndarray:
        """bool (num_games, num_players): the seats that would win now (D5): most points, then most gold cards."""
        out = np.zeros((self.num_games, MAX_PLAYERS), dtype=bool)
        kernel.leaders_of(self.state, self.constants, out)
        return out[:, :self.num_players]

    def random_positions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal position per game (-1 where the game has finished)."""
        out = np.empty(self.num_games, dtype=np.int64)
        kernel.random_positions(self.state, self.constants, rng.random(self.num_games), out)
        return out

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
                raise GoldrushEnvError(f"where must be a bool mask of shape ({self.num_games},), got {where!r}")
            active &= where
        positions = positions.astype(np.int64, copy=False)
        player = self.current_player.copy()
        turns = self._turns
        turns["active"] = active
        turns["action"] = np.where(active, positions, -1)
        with kernel.threads_for(self.num_games):
            bad = kernel.advance(self.state, self.constants, self._players, turns, *self._nothing, self._nothing[0])
        if bad >= 0:
            self.check_flips(positions, active)  # raises, naming the game
        return FlipBatch(
            outcome=np.where(active, turns["outcome"], NO_FLIP).astype(np.int8),
            position=np.where(active, positions, -1), card=np.where(active, turns["card"], EMPTY).astype(np.int8),
            player=player, receiver=np.where(active, turns["receiver"], -1).astype(np.int8),
            partner=np.where(active, turns["partner"], -1).astype(np.int8), partner_left=active & turns["partner_left"],
            card_left=active & turns["card_left"], rush_begins=active & turns["rush_begins"])

    def check_flips(self, positions: np.ndarray, active: np.ndarray) -> None:
        """Raise :class:`~goldrush_env.errors.IllegalFlipError` naming the first game whose flip is illegal."""
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
            raise GoldrushEnvError(f"layouts must have shape ({k}, {NUM_POSITIONS}) (one per game reset), "
                                   f"got {layouts.shape}")
        if np.any((layouts < EMPTY) | (layouts >= NUM_CARD_TYPES)):
            bad = int(layouts[(layouts < EMPTY) | (layouts >= NUM_CARD_TYPES)][0])
            raise GoldrushEnvError(f"unknown card id {bad} in layouts: expected {EMPTY} (empty) to "
                                   f"{NUM_CARD_TYPES - 1}")
        counts = np.stack([(layouts == card).sum(axis=1) for card in range(NUM_CARD_TYPES)], axis=1)
        over = np.argwhere(counts > np.array(BOX_COUNT))
        if len(over):
            game, card = over[0]
            parse_layout(layouts[game].tolist())  # raises the engine's error, naming the card
        return layouts.astype(np.int8)
    try:
        rows = list(layouts)
    except TypeError:
        raise GoldrushEnvError(f"layouts must be one layout per game reset ({k}), got {layouts!r}") from None
    if len(rows) != k:
        raise GoldrushEnvError(f"layouts must be one layout per game reset ({k}), got {len(rows)}")
    return np.array([parse_layout(row) for row in rows], dtype=np.int8).reshape(k, NUM_POSITIONS)
