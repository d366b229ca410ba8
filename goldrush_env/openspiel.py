"""Every game of the registry as an OpenSpiel Python game: ``import goldrush_env.openspiel`` registers them.

Each game that offers its chance made explicit (a :class:`goldrush_env.chance.ChanceGame`, named by its
:class:`~goldrush_env.games.GameSpec`) is registered under OpenSpiel's name for Python games,
``"python_goldrush_" + name``, with its options as parameters::

    import pyspiel
    import goldrush_env.openspiel

    game = pyspiel.load_game("python_goldrush_gold", {"players": 3, "table": "quarter"})
    state = game.new_initial_state()

Nothing here names a game. What a game type says of itself (perfect or imperfect information, zero-sum or not,
rewards at every step or at the end) depends on its parameters, so each loaded game carries the type of its own
parameters (``game.get_type()``); the registered type is that of the defaults. Information states and
observations are the seat's knowledge only, the vectors and the words our environments give it
(:meth:`goldrush_env.chance.Position.observation`): with Gold's ``memory="human"`` a seat forgets, so its
information state is what it remembers, not everything it once saw (the game is not one of perfect recall).

Install with ``pip install -e ".[openspiel]"`` (docs/openspiel.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from goldrush_env.errors import install_line

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError(f"goldrush_env.openspiel needs OpenSpiel: {install_line('openspiel')}") from error

from goldrush_env.chance import CHANCE, TERMINAL, ChanceGame, Position
from goldrush_env.games import GameSpec, specs

PREFIX = "python_goldrush_"
"""A game's OpenSpiel name is this and its name in our registry."""

_PLAYER_IDS = {CHANCE: int(pyspiel.PlayerId.CHANCE), TERMINAL: int(pyspiel.PlayerId.TERMINAL)}


def _game_type(spec: GameSpec, chance: ChanceGame, parameters: dict[str, Any]) -> pyspiel.GameType:
    information = pyspiel.GameType.Information
    utility = pyspiel.GameType.Utility
    if chance.utility_sum is None:
        kind = utility.GENERAL_SUM
    else:
        kind = utility.ZERO_SUM if chance.utility_sum == 0 else utility.CONSTANT_SUM
    return pyspiel.GameType(
        short_name=PREFIX + spec.name,
        long_name=f"{spec.title} (goldrush-env)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information.PERFECT_INFORMATION if chance.perfect_information
        else information.IMPERFECT_INFORMATION,
        utility=kind,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL if chance.terminal_rewards
        else pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def _game_info(chance: ChanceGame) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=chance.num_actions,
        max_chance_outcomes=chance.max_chance_outcomes,
        num_players=chance.num_players,
        min_utility=float(chance.min_utility),
        max_utility=float(chance.max_utility),
        utility_sum=None if chance.utility_sum is None else float(chance.utility_sum),
        max_game_length=chance.max_game_length,
    )


class OpenSpielState(pyspiel.State):
    """A node of one of our games, as OpenSpiel sees it: a thin shell over a :class:`goldrush_env.chance.Position`
    (:attr:`position`), which plays the game."""

    def __init__(self, game: OpenSpielGame, position: Position | None = None) -> None:
        super().__init__(game)
        # A clone makes a new initial state and then copies this attribute over: the first node is made when
        # first asked for, so that cloning never builds one only to throw it away.
        self._position = position

    @property
    def position(self) -> Position:
        """The node in our terms; ``position.env`` plays the game at this node (its ``view(seat)`` and ``game``
        are an environment's)."""
        if self._position is None:
            self._position = self.get_game().chance.new_position()
        return self._position

    def current_player(self) -> int:
        player = self.position.player
        return _PLAYER_IDS.get(player, player)

    def _legal_actions(self, player: int) -> list[int]:
        return self.position.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.position.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.position.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.position.action_text(player, action)

    def is_terminal(self) -> bool:
        return self.position.is_terminal

    def returns(self) -> list[float]:
        return self.position.returns()

    def rewards(self) -> list[float]:
        return list(self.position.rewards)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OpenSpielState:
        """A state ``player_id`` cannot tell from this one, drawn given what it knows (information-set MCTS);
        ``probability_sampler()`` gives uniform draws in [0, 1). The new state has no history."""
        return OpenSpielState(self.get_game(), self.position.resample(player_id, probability_sampler))

    def __str__(self) -> str:
        return str(self.position)


class Observer:
    """OpenSpiel's Python observer for our games: for the standard types (the seat's public and private
    information together), the seat's observation vector and its knowledge in words; for a part of it
    (``public_info`` or ``private_info`` alone), that part in words and an empty tensor."""

    def __init__(self, game: OpenSpielGame, iig_obs_type: Any, params: dict | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.private = iig_obs_type.private_info
        self.public = iig_obs_type.public_info
        self.whole = self.public and self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        size = game.chance.observation_size if self.whole else 0
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        if self.whole:
            self.tensor[:] = state.position.observation(player)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        position = state.position
        if self.whole:
            return position.knowledge_text(player)
        parts = [position.public_text()] if self.public else []
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            parts.append(position.private_text(player))
        elif self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            parts += [position.private_text(seat) for seat in range(position.game.num_players)]
        return "\n".join(parts)


class OpenSpielGame(pyspiel.Game):
    """One of our games loaded in OpenSpiel; :attr:`chance` is the configured :class:`ChanceGame`."""

    spec: GameSpec
    chance_class: type[ChanceGame]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.chance = self.chance_class(**(params or {}))
        full = dict(self.chance.params)  # the defaults with the parameters given
        super().__init__(_game_type(self.spec, self.chance, full), _game_info(self.chance), full)

    def new_initial_state(self, *args: Any) -> OpenSpielState:
        return OpenSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict | None = None) -> Observer:
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def max_chance_nodes_in_history(self) -> int:
        return self.chance.max_chance_nodes


def _register(spec: GameSpec) -> None:
    chance_class = spec.load("chance")
    name = PREFIX + spec.name
    game_class = type(f"OpenSpiel_{spec.name}", (OpenSpielGame,), {"spec": spec, "chance_class": chance_class,
                                                                     "__module__": __name__})
    if name in pyspiel.registered_names():
        return
    defaults = chance_class()
    pyspiel.register_game(_game_type(spec, defaults, dict(chance_class.PARAMETERS)), game_class)
    GAMES[spec.name] = game_class


GAMES: dict[str, type[OpenSpielGame]] = {}
"""Each registered game's :class:`OpenSpielGame` class, by our name for the game."""

for _spec in specs():
    if _spec.chance:
        _register(_spec)


def load(name: str, **params: Any) -> OpenSpielGame:
    """``pyspiel.load_game(PREFIX + name, params)``, with our names and keyword parameters."""
    return pyspiel.load_game(PREFIX + name, params)


__all__ = ["PREFIX", "GAMES", "OpenSpielGame", "OpenSpielState", "Observer", "load"]
