"""The environments a game gets from its rules alone: a PettingZoo AEC environment and a one-learner Gymnasium
environment, for any game of the registry that does not bring its own.

They ask the game's :class:`~goldrush_env.games.GameSpec` for three things: its rules engine (a class following
:class:`goldrush_env.protocol.Rules`), ``observe(known)``, which turns what a seat knows (``known_to(seat)``) into
a flat vector of values in [0, 1], and ``text(known)``, the same as text for people (``render_mode="ansi"``;
``picture(known)``, if the game has one, gives ``"rgb_array"`` and ``"human"``). Everything else (agents,
spaces, rewards, the action mask, illegal moves, seeding, the start player) is done here once, so a new game's
environments are one line of its spec.

``env(game="nim", num_players=2)`` is the AEC environment with PettingZoo's checks for classic games,
``raw_env`` the bare one (an illegal action raises the rules' error); ``GymEnv(game="nim")`` is the Gymnasium one
(its opponents are policies, random by default). The registry registers both under the game's ids.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from goldrush_env.aec_base import TurnBasedEnv
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.games import GameSpec, spec
from goldrush_env.learner import OneLearnerEnv
from goldrush_env.options import RENDER_MODES, REWARDS, Options
from goldrush_env.policy import Policy, SeatView
from goldrush_env.wrappers import ClassicChecks


@dataclass(frozen=True)
class RulesConfig(Options):
    """Options of the environments built from a game's rules alone."""

    game: str
    """The game's name in the registry."""
    num_players: int | None = None
    """Seats at the table (default: the game's default number)."""
    reward: str = "win"
    """``"win"``: at the end, +1 to a sole winner, 0 to each of several, -1 to every other seat. ``"score"``:
    whenever scores change, (own change - mean change of the others) x
    :data:`~goldrush_env.aec_base.SCORE_REWARD_SCALE`."""
    render_mode: str | None = None
    """``"ansi"`` (the game's text), or ``"rgb_array"`` and ``"human"`` for a game that draws pictures."""

    def __post_init__(self) -> None:
        game = spec(self.game)
        if game.own_environments:
            raise GoldrushEnvError(f"{game.title} has environments of its own: use {game.aec.replace(':', '.')}()")
        if self.num_players is None:
            object.__setattr__(self, "num_players", game.default_players)
        game.check_players(self.num_players)
        if self.reward not in REWARDS:
            self.refuse("reward", f"one of {REWARDS}")
        modes = render_modes(game)
        if self.render_mode is not None and self.render_mode not in modes:
            self.refuse("render_mode", f"None or one of {modes}")


def render_modes(game: GameSpec) -> list[str]:
    """The render modes of a game's environments: text always, pictures if the game draws them."""
    return list(RENDER_MODES) if game.picture else ["ansi"]


class raw_env(TurnBasedEnv):
    """A game's AEC environment built from its rules (see the module docstring); an illegal action raises."""

    def __init__(self, game: str, **options: Any) -> None:
        config = RulesConfig.from_kwargs(game=game, **options)
        self.spec = spec(game)
        self.rules = self.spec.load("rules")
        self._observe = self.spec.load("observe")
        self.rendering = SimpleNamespace(to_text=self.spec.load("text"), to_rgb=self.spec.load("picture"))
        sample = self.rules.new(config.num_players, 0)
        size = len(self._vector(sample, 0))
        self._num_actions = len(sample.legal_mask())
        super().__init__({"game": game, **options}, config, spaces.Box(0.0, 1.0, (size,), np.float32),
                         self._num_actions, None)
        self.metadata = {**TurnBasedEnv.metadata, "name": f"{game}_v0", "render_modes": render_modes(self.spec)}
        self._mask = np.zeros(self._num_actions, dtype=bool)
        self._last_seat = 0

    def _vector(self, game: Any, seat: int) -> np.ndarray:
        vector = np.asarray(self._observe(game.known_to(seat)), dtype=np.float32)
        if vector.ndim != 1:
            raise GoldrushEnvError(f"{self.spec.name}'s observe() must give a flat vector, got shape {vector.shape}")
        return vector

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        options = dict(options or {})
        first_player = options.pop("first_player", None)
        if options:
            warnings.warn(f"reset() ignores the unknown options {sorted(options)}; the option is 'first_player'",
                          stacklevel=2)
        deal = {} if first_player is None else {"first_player": first_player}
        self.game = game = self.rules.new(self.config.num_players, self._np_random, **deal)
        self._mask = game.legal_mask()
        self._last_seat = 0 if game.current_player is None else game.current_player
        self._deal(game, self._final_info)

    def step(self, action: int | None) -> None:
        agent, game = self.agent_selection, self._game_to_step(action)
        if game is None:
            return
        before = self._scores(game) if self.config.reward == "score" else None
        self._last_seat = game.current_player
        game.step(action)  # the rules refuse an illegal action, naming it, before anything changes
        self._mask = game.legal_mask()
        self._settle(agent, game, self._gains(game, before))

    _final_info = TurnBasedEnv._result_info

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = self.action_mask(agent).astype(np.int8)
        return {"observation": self._vector(self.game, self.agent_name_mapping[agent]), "action_mask": mask}

    def action_mask(self, agent: str) -> np.ndarray:
        """The bool mask of the actions ``agent`` may take now (all False if it is not to act)."""
        game = self._require_game()
        acting = not game.is_finished and self.agent_name_mapping[agent] == game.current_player
        return self._mask.copy() if acting else np.zeros(self._num_actions, dtype=bool)

    def is_legal(self, action: int) -> bool:
        """Whether the agent to act may take ``action`` now."""
        game = self._require_game()
        return not game.is_finished and 0 <= int(action) < self._num_actions and bool(self._mask[action])

    def view(self, agent: str | int) -> SeatView:
        """The :class:`~goldrush_env.policy.SeatView` of an agent (name or seat)."""
        seat = self.agent_name_mapping[agent] if isinstance(agent, str) else int(agent)
        game = self._require_game()
        return SeatView(seat, game.known_to(seat), self.action_mask(self.possible_agents[seat]),
                        self._vector(game, seat))

    def render_subject(self) -> Any:
        """What the seat to act knows (once the game has ended, the seat that moved last)."""
        game = self._require_game()
        return game.known_to(self._last_seat if game.is_finished else game.current_player)


def env(game: str, **options: Any) -> AECEnv:
    """A game's AEC environment built from its rules, with PettingZoo's checks for classic games (order
    enforcing, action bounds, an illegal move ends the game with -1), in one layer."""
    return ClassicChecks(raw_env(game=game, **options), illegal_reward=-1)


class GymEnv(OneLearnerEnv):
    """A game for one learner at ``seat`` (or ``"random"``), built from its rules; ``opponents``: None (uniformly
    random legal actions), one policy for every other seat, or one per other seat in seat order after the
    learner's; ``illegal_action``: ``"terminate"`` (the episode ends with -1) or ``"raise"``. Other options go to
    :class:`RulesConfig`. ``info["action_mask"]`` and :meth:`action_masks` give the learner's legal actions."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, game: str, opponents: Policy | Sequence[Policy] | None = None, seat: int | str = 0,
                 illegal_action: str = "terminate", **options: Any) -> None:
        super().__init__(raw_env(game=game, **options), opponents, seat, illegal_action)
        self.metadata = {"render_modes": self.game_env.metadata["render_modes"], "render_fps": 2}


__all__ = ["env", "raw_env", "GymEnv", "RulesConfig", "render_modes"]
