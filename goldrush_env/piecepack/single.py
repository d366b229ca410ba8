"""One game of Gold Rush on the compiled state (:mod:`goldrush_env.piecepack.kernel`), for the AEC environment and
OpenSpiel's positions.

A :class:`SingleGame` steps the kernel's state array only. It keeps where the game started (a readable
:class:`~goldrush_env.piecepack.engine.Game`), the actions since and the rolls they consumed, so that the readable
game, the home of records, events, views and renders, is made when read (:attr:`SingleGame.live`) and brought up to
date at each later read. Dice come from the rolls queued (a record's, or a chance node's), then from ``rng``, as
the engine draws them (:func:`~goldrush_env.piecepack.engine.roll_dice`,
:func:`~goldrush_env.piecepack.engine.roll_market`): the same seed gives the same game either way.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from goldrush_env.live import LiveGame
from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack import kernel
from goldrush_env.piecepack.components import FOOD
from goldrush_env.piecepack.engine import Game, checked_rolls, roll_dice, roll_market, winners_of
from goldrush_env.piecepack.errors import PiecepackError
from goldrush_env.protocol import Result

__all__ = ["SingleGame"]


class SingleGame:
    """The readable ``game`` (at any decision point) on the kernel, drawing the rolls nobody queued from ``rng``
    (None: such a roll is refused). ``game`` becomes :attr:`live`'s readable game: its queued rolls move here, and it
    is handed every roll before it needs one. ``live``: the :class:`LiveGame` that holds ``game`` already, if any."""

    def __init__(self, game: Game, rng: np.random.Generator | None, live: LiveGame | None = None) -> None:
        self.dice, self.markets = list(game._dice_queue), list(game._market_queue)
        """The production and the Market rolls since :attr:`origin`: those used, then those queued."""
        game._dice_queue, game._market_queue = [], []
        self.origin = game.copy()
        """The readable game where :attr:`actions` start."""
        self.used_dice = self.used_markets = 0
        self.actions: list[int] = []
        """Every action since :attr:`origin`, in order."""
        self.rng = rng
        self.num_players = game.num_players
        self.state = kernel.state_of(game)
        self.mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
        """The actions the seat to act may take now."""
        kernel.legal_mask(self.state, self.mask)
        self._scores = np.zeros(self.num_players, dtype=np.int64)
        if live is None:
            live = LiveGame(self, game)
        else:
            live.follow(self)
        self.live = live

    # --- playing --------------------------------------------------------------------------------------------------

    def play(self, action: int) -> None:
        """Take ``action``, legal now by :attr:`mask` (the caller checks), and go on to the next decision."""
        market = 0
        if action == A.MARKET_ROLL:
            market = sum(self._next(self.markets, self.used_markets, roll_market, "Market"))
            self.used_markets += 1
        state = self.state
        if kernel.step(state, action, market):  # a new round: the kernel takes its production roll
            kernel.roll(state, *self._next(self.dice, self.used_dice, roll_dice, "production"))
            self.used_dice += 1
        self.actions.append(action)
        kernel.legal_mask(state, self.mask)

    def _next(self, rolls: list[tuple[int, ...]], used: int, draw: Any, what: str) -> tuple[int, ...]:
        if used == len(rolls):
            if self.rng is None:
                raise PiecepackError(f"the game needs a {what} roll, and has none left (no rng was given to draw one)")
            rolls.append(draw(self.rng))
        return rolls[used]

    def queue(self, dice: Sequence[Sequence[int]] = (), markets: Sequence[Sequence[int]] = ()) -> None:
        """Add production rolls ``[moon, sun, arms, crown]`` and Market rolls ``[a, b]`` after those queued, for a
        game whose dice are decided only when needed (:mod:`goldrush_env.piecepack.chance`); checked as
        :meth:`Game.queue_rolls <goldrush_env.piecepack.engine.Game.queue_rolls>` checks them."""
        rolls, market_rolls = checked_rolls(dice, markets, len(self.origin._dice_used), len(self.dice))
        self.dice += rolls
        self.markets += market_rolls

    def queued(self) -> bool:
        """Whether a roll is queued that no action has used yet."""
        return self.used_dice < len(self.dice) or self.used_markets < len(self.markets)

    def exchange(self, a: int, b: int) -> None:
        """Swap two face-down pieces that could lie in each other's place, as
        :meth:`Game.exchange <goldrush_env.piecepack.engine.Game.exchange>` does (which checks them, now)."""
        self.live.current().exchange(a, b)  # refuses a face-up piece or a pair that cannot swap, changing nothing
        self.origin = self.origin.copy()  # copies share their origin until one changes it
        self.origin.exchange(a, b)
        kernel.exchange(self.state, a, b)

    # --- what the game is now -------------------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        seat = int(self.state[kernel.CURRENT])
        return None if seat < 0 else seat

    @property
    def is_over(self) -> bool:
        return bool(self.state[kernel.CURRENT] < 0)

    is_finished = is_over

    def scores(self) -> list[int]:
        """Every seat's score now (§5)."""
        kernel.scores(self.state, self._scores)
        return self._scores.tolist()

    def winners(self) -> list[int]:
        """The seats that win (or would win now): top score, then most Food (P39)."""
        return list(self.result().winners)

    def result(self) -> Result:
        """:meth:`scores`, :meth:`winners` and each seat's Food, as the protocol gives them."""
        scores = self.scores()
        food = kernel.holdings(self.state, FOOD)
        return Result(tuple(scores), tuple(winners_of(scores, food)), tuple(food))

    def observation(self, seat: int) -> np.ndarray:
        """What ``seat`` knows as the observation vector (-1: the global state)."""
        return kernel.observation(self.state, seat)

    # --- the readable game ---------------------------------------------------------------------------------------

    def readable(self) -> Game:
        """The readable game at :attr:`origin` (for :class:`~goldrush_env.live.LiveGame`)."""
        return self.origin.copy()

    def catch_up(self, game: Game, seen: tuple[int, int, int] | None) -> tuple[int, int, int]:
        """Hand ``game`` the rolls and play the actions it has not had (for :class:`~goldrush_env.live.LiveGame`)."""
        actions, dice, markets = seen or (0, 0, 0)
        if dice < len(self.dice) or markets < len(self.markets):
            game.queue_rolls(self.dice[dice:], self.markets[markets:])
        for action in self.actions[actions:]:
            game.step_legal(action)
        return len(self.actions), len(self.dice), len(self.markets)

    def copy(self) -> SingleGame:
        """An independent copy; its readable game is a copy of this one's, where that has been made."""
        new = object.__new__(SingleGame)
        new.__dict__.update(self.__dict__)
        new.dice, new.markets, new.actions = list(self.dice), list(self.markets), list(self.actions)
        new.state, new.mask, new._scores = self.state.copy(), self.mask.copy(), self._scores.copy()
        new.live = LiveGame(new, self.live.current().copy(), self.live.seen) if self.live.made else LiveGame(new)
        return new
