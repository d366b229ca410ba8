"""The game protocol: what every game's rules engine offers, so that the layers above never ask which game.

pgx asks four functions of a game (``init``, ``step``, ``observe``, ``legal_action_mask``); ours is about as
small. A rules engine is a class whose games are made by :meth:`Rules.new` (or rebuilt from a record), stepped
by an action index, and asked who acts, what is legal, whether the game has ended, how it stands, and what a
seat knows. Gold's :class:`~goldrush_env.gold.engine.Game` and the piecepack's
:class:`~goldrush_env.piecepack.engine.Game` both follow it.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol, runtime_checkable

import numpy as np


class Result(NamedTuple):
    """How a game stands: each seat's score, the seats that win (or would win if it ended now), and what breaks a
    tie of scores, per seat (:attr:`goldrush_env.games.GameSpec.tiebreak` names it)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    tiebreak: tuple[int, ...]


@runtime_checkable
class Rules(Protocol):
    """One game of a rules engine."""

    num_players: int

    @classmethod
    def new(cls, num_players: int, seed: int | np.random.Generator | None = None, **options: Any) -> Rules:
        """A game dealt from ``seed`` (an int always deals the same game; a Generator is advanced; None draws
        fresh entropy), with the game's own ``options``. Every game takes ``first_player=seat`` among them (who
        starts, as tournaments rotate it; without it, the game's own rule says who starts, from ``seed`` if it
        draws), so ``new(num_players, seed, first_player=None, **options)`` is the signature to write."""

    @classmethod
    def from_record(cls, record: dict) -> Rules:
        """The game a record (:meth:`to_record`) describes, replayed."""

    def to_record(self) -> dict:
        """The game as plain JSON-ready data: its deal, every random outcome, every action so far."""

    def copy(self) -> Rules:
        """An independent copy."""

    @property
    def turn(self) -> int:
        """How far the game has come: turns played (Gold counts a seat's two flips as one turn, the piecepack game
        each decision)."""

    @property
    def current_player(self) -> int | None:
        """The seat to act (None, or a seat that no longer matters, once the game has ended)."""

    def legal_mask(self) -> np.ndarray:
        """A bool per action of the game: which the current player may take now."""

    def step(self, action: int) -> Any:
        """Take ``action`` for the current player; returns what happened (the game's events). An illegal action
        raises the game's error, naming it, and changes nothing."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended by its rules."""

    @property
    def is_truncated(self) -> bool:
        """Whether a turn limit stopped it first."""

    @property
    def is_finished(self) -> bool:
        """Over or truncated: no action may follow."""

    def result(self) -> Result:
        """Each seat's score and the winners (of the finished game, or as things stand)."""

    def known_to(self, seat: int) -> Any:
        """What ``seat`` knows with perfect recall: the public state and what it alone has seen."""


__all__ = ["Rules", "Result"]
