"""A game with its chance made explicit: what game-theory libraries such as OpenSpiel search over.

Our environments draw every card, piece and die from a seeded generator, and a deal is made whole when a game
begins. Search with chance nodes (expectimax, MCTS with chance, CFR) needs the other form: a random event is a
node of the game tree, whose outcomes and exact probabilities the game lists, and an outcome is decided only when
some seat first sees it. The hidden part of a deal is therefore never fixed before it is seen: a card is drawn
when it is first turned, from the cards not yet seen, so each outcome has the probability it has at the table.

A game offers this form by naming a :class:`ChanceGame` subclass in its :class:`~goldrush_env.games.GameSpec`
(``chance = "package.module:Class"``). :mod:`goldrush_env.openspiel` turns every such game into an OpenSpiel
game without naming any of them; nothing here imports OpenSpiel.

A :class:`Position` is one node: a seat to act, chance to act (:data:`CHANCE`), or the end (:data:`TERMINAL`).
It keeps the game's own environment (:attr:`Position.env`) in step, so what a seat observes there is what our
environments give it, and any of our players can act from ``env.view(seat)``.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, ClassVar

import numpy as np

from goldrush_env.errors import GoldrushEnvError

CHANCE = -1
"""The player of a chance node (OpenSpiel's ``PlayerId.CHANCE``)."""
TERMINAL = -4
"""The player once the game has ended (OpenSpiel's ``PlayerId.TERMINAL``)."""


class Position:
    """One node of a :class:`ChanceGame`. Subclasses keep :attr:`env`, the game's raw AEC environment, in step
    with every decision and chance outcome, and say who acts, what may be done and what each seat knows."""

    env: Any
    """The game's raw AEC environment at this node (``env.game`` the rules, ``env.view(seat)`` a seat's view)."""
    rewards: list[float]
    """Each seat's rewards since the last seat's decision (zeros at the start), as OpenSpiel reads them: only at
    the nodes where a seat acts and at the end, so a reward paid at a chance node is kept until then."""

    def __init__(self, game: ChanceGame) -> None:
        self.game = game
        self.rewards = [0.0] * game.num_players

    # --- what a subclass writes --------------------------------------------------------------------------------

    @property
    def player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""
        raise NotImplementedError

    def legal_actions(self) -> list[int]:
        """The actions the seat to act may take, ascending (the chance outcomes at a chance node)."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: each outcome with its exact probability (they sum to 1), ascending."""
        raise NotImplementedError

    def apply_legal(self, action: int) -> None:
        """Take ``action``, known to be legal (:meth:`apply` has checked it), and set :attr:`rewards`. The one
        method that changes a node: a subclass writes it, callers use :meth:`apply`."""
        raise NotImplementedError

    def returns(self) -> list[float]:
        """Each seat's rewards summed since the start (its final ones once the game has ended)."""
        raise NotImplementedError

    def observation(self, seat: int) -> np.ndarray:
        """What ``seat`` knows, as the float32 vector of :attr:`ChanceGame.observation_size`."""
        raise NotImplementedError

    def knowledge_text(self, seat: int) -> str:
        """What ``seat`` knows, in words."""
        raise NotImplementedError

    def public_text(self) -> str:
        """What every seat knows, in words."""
        raise NotImplementedError

    def private_text(self, seat: int) -> str:
        """What ``seat`` alone knows, in words ("" if nothing)."""
        raise NotImplementedError

    def action_text(self, player: int, action: int) -> str:
        """``action`` of ``player`` (a seat or :data:`CHANCE`) in words."""
        raise NotImplementedError

    def resample(self, seat: int, uniform: Callable[[], float]) -> Position:
        """A node that ``seat`` cannot tell from this one (its :meth:`observation` and :meth:`knowledge_text` are
        the same), drawn with its probability given what ``seat`` knows, from ``uniform()`` draws in [0, 1)."""
        raise NotImplementedError

    # --- shared ------------------------------------------------------------------------------------------------

    @property
    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def apply(self, action: Any) -> None:
        """Take ``action`` for the seat to act, or as chance's outcome. An action that is not legal here is refused,
        naming it and the node, and changes nothing."""
        player = self.player
        if player == TERMINAL:
            raise GoldrushEnvError(f"the game has ended: no action may follow (got {action!r})")
        legal = self.legal_actions()
        if not isinstance(action, (int, np.integer)) or isinstance(action, bool) or int(action) not in legal:
            who = "chance" if player == CHANCE else f"seat {player}"
            raise GoldrushEnvError(f"action {action!r} is not legal for {who} here: the legal ones are {legal}")
        self.apply_legal(int(action))

    def draw(self, uniform: Callable[[], float]) -> int:
        """A chance outcome drawn with its probability from one ``uniform()`` draw."""
        outcomes = self.chance_outcomes()
        target, total = uniform(), 0.0
        for outcome, probability in outcomes:
            total += probability
            if target < total:
                return outcome
        return outcomes[-1][0]

    def copy(self) -> Position:
        """An independent copy."""
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict) -> Position:
        # The configured game is shared; the environment is copied whole (its own pickling would make it anew
        # from its options, without its game).
        new = object.__new__(type(self))
        for key, value in self.__dict__.items():
            if key == "game":
                new.__dict__[key] = value
            elif key == "env":
                env = object.__new__(type(value))
                env.__dict__.update(copy.deepcopy(value.__dict__, memo))
                new.__dict__[key] = env
            else:
                new.__dict__[key] = copy.deepcopy(value, memo)
        return new

    def __getstate__(self) -> dict:
        # OpenSpiel serializes a Python state by pickling its attributes: the environment goes as its attributes,
        # since its own pickling would make it anew from its options, without its game. A node with no environment
        # yet (before a game is dealt) keeps None.
        state = dict(self.__dict__)
        env = state.pop("env")
        state["env"] = None if env is None else (type(env), env.__dict__)
        return state

    def __setstate__(self, state: dict) -> None:
        env = state.pop("env")
        if env is not None:
            kind, attributes = env
            env = object.__new__(kind)
            env.__dict__.update(attributes)
        self.__dict__.update(state, env=env)

    def __str__(self) -> str:
        return self.public_text()


class ChanceGame:
    """One configured game with explicit chance: its facts (what OpenSpiel's ``GameInfo`` and ``GameType`` hold)
    and its first node. Subclasses set the class attributes and the facts in ``__init__``."""

    PARAMETERS: ClassVar[dict[str, Any]] = {}
    """Each option's name and default, as OpenSpiel parameters (ints, floats, strings, bools)."""
    CHOICES: ClassVar[dict[str, tuple]] = {}
    """The values of each option that takes few (players, table sizes, memory models...): the tests check every
    combination of them against OpenSpiel's checks."""
    title: ClassVar[str] = ""

    num_players: int
    num_actions: int
    """Actions are ``0 .. num_actions - 1``, the same indices as the game's environments."""
    max_chance_outcomes: int
    """Chance outcomes are ``0 .. max_chance_outcomes - 1``."""
    max_game_length: int
    """The most decisions of seats in one game."""
    max_chance_nodes: int
    """The most chance nodes in one game."""
    min_utility: float
    max_utility: float
    utility_sum: float | None
    """The sum of the seats' returns if it is the same in every game (0 for zero-sum), else None."""
    perfect_information: bool
    """Whether every seat knows everything that has been decided (chance not yet drawn is no one's)."""
    terminal_rewards: bool
    """Whether rewards come only at the end."""
    observation_size: int

    def __init__(self, **params: Any) -> None:
        unknown = sorted(set(params) - set(self.PARAMETERS))
        if unknown:
            raise GoldrushEnvError(f"unknown parameters {unknown} for {self.title}: the parameters are "
                                   f"{sorted(self.PARAMETERS)}")
        self.params = {**self.PARAMETERS, **params}
        for name, value in self.params.items():
            default = self.PARAMETERS[name]
            if type(value) is not type(default) and not (isinstance(default, float) and type(value) is int):
                raise GoldrushEnvError(f"the parameter {name} must be a {type(default).__name__} like its default "
                                       f"{default!r}, got {value!r}")

    def new_position(self) -> Position:
        """The first node of a game."""
        raise NotImplementedError


__all__ = ["CHANCE", "TERMINAL", "ChanceGame", "Position"]
