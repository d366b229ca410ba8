"""What every game's PettingZoo environment shares: the agents and their spaces, the rewards, drawing and closing.

:class:`goldrush_env.gold.aec.raw_env` (Gold), :class:`goldrush_env.piecepack.aec.raw_env` (Gold Rush on the
piecepack) and :class:`goldrush_env.rules_env.raw_env` (any game, from its rules alone) subclass
:class:`TurnBasedEnv`: ``player_0``, ``player_1``, ... with a ``Dict`` observation space (the game's vector and an int8
action mask) and a ``Discrete`` action space each; the ``"win"`` and
``"score"`` rewards; ``render()`` in the modes ``"ansi"``, ``"rgb_array"`` and ``"human"`` (a pygame window).
A subclass says which picture to draw (:meth:`TurnBasedEnv.render_subject`) with which module
(:attr:`TurnBasedEnv.rendering`).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Callable

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.options import RENDER_MODES
from goldrush_env.window import Window

SCORE_REWARD_SCALE = 0.1
"""``reward="score"`` pays each seat its score gain less the mean gain of the others, times this."""


def seat_rewards(gains: Sequence[int] | None, winners: Sequence[int] | None, reward: str,
                 num_players: int) -> list[float]:
    """Each seat's reward for one step. ``gains``: every seat's score change (given with ``reward="score"``), paid
    as its gain less the mean gain of the others, times :data:`SCORE_REWARD_SCALE`. ``winners``: given once the game
    has ended; with ``reward="win"`` +1 to a sole winner, 0 to each of several, -1 to the others."""
    paid = [0.0] * num_players
    if gains is not None and any(gains):
        total, others = sum(gains), num_players - 1
        paid = [SCORE_REWARD_SCALE * (gain - (total - gain) / others) for gain in gains]
    if winners is not None and reward == "win":
        paid = [(1.0 if len(winners) == 1 else 0.0) if seat in winners else -1.0 for seat in range(num_players)]
    return paid


class TurnBasedEnv(AECEnv, EzPickle):
    """A turn-based table game as a PettingZoo AEC environment. ``kwargs`` are the options the subclass was made
    with (for pickling), ``config`` their checked form (``num_players``, ``reward``, ``render_mode``...),
    ``observation`` the space of one observation vector, ``num_actions`` the size of the action space."""

    metadata = {"render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 2}
    """What every game's environment says of itself; a subclass adds its ``name``."""
    game: Any = None
    """The game in play (None before the first ``reset()``)."""
    rendering: Any = None
    """The module that draws :meth:`render_subject`: ``to_rgb(subject)`` and ``to_text(subject)``."""

    def __init__(self, kwargs: dict[str, Any], config: Any, observation: spaces.Box, num_actions: int,
                 state_space: spaces.Box | None) -> None:
        EzPickle.__init__(self, **kwargs)
        AECEnv.__init__(self)
        self.config = config
        self.possible_agents = [f"player_{seat}" for seat in range(config.num_players)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {agent: spaces.Dict({
            "observation": observation,
            "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
        }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in self.possible_agents}
        if state_space is not None:  # a game with a global state vector for centralised critics (state())
            self.state_space = state_space
        self.render_mode = config.render_mode
        self._np_random: np.random.Generator | None = None
        self._window: Window | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _pay(self, gains: Sequence[int] | None, winners: Sequence[int] | None) -> None:
        """This step's rewards (:func:`seat_rewards`)."""
        if gains is None and winners is None:  # most steps of most games
            self.rewards = dict.fromkeys(self.agents, 0.0)
            return
        paid = seat_rewards(gains, winners, self.config.reward, len(self.possible_agents))
        self.rewards = {name: paid[seat] for seat, name in enumerate(self.possible_agents) if name in self.agents}

    def _settle(self, agent: str, game: Any, gains: Sequence[int] | None) -> None:
        """The AEC bookkeeping after the rules have taken ``agent``'s action: its reward (with ``reward="score"``
        ``gains``, each seat's score change, see :meth:`_gains`; the win at the end), the end of the game
        (terminated, or truncated by a turn limit, with :meth:`_final_info` where a game gives one), the agent to act
        next, the picture in human mode."""
        self._cumulative_rewards[agent] = 0.0
        finished = game.is_finished
        self._pay(gains, self._winners(game) if finished else None)
        if finished:
            done = dict.fromkeys(self.agents, True)
            if game.is_over:
                self.terminations = done
            else:
                self.truncations = done
            final = self._final_info()
            if final is not None:
                self.infos = {name: dict(final) for name in self.agents}
        if game.current_player is not None:
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _gains(self, game: Any, before: Sequence[int] | None) -> list[int] | None:
        """Each seat's score change since ``before`` (its scores then, None without the score reward)."""
        if before is None:
            return None
        return [after - earlier for after, earlier in zip(self._scores(game), before)]

    @staticmethod
    def _scores(game: Any) -> Sequence[int]:
        """Each seat's score now, whose changes ``reward="score"`` pays: the game's :meth:`result`'s."""
        return game.result().scores

    @staticmethod
    def _winners(game: Any) -> Sequence[int]:
        """The seats that won the game, which has ended: its :meth:`result`'s."""
        return game.result().winners

    def _final_info(self) -> dict[str, Any] | None:
        """Every agent's info once the game has ended (None: the infos stay as they are)."""
        return None

    def _result_info(self) -> dict[str, Any]:
        """A :meth:`_final_info` (and a ``reset()`` info) that a subclass may take: the game's ``scores`` and
        ``winners`` once it has ended, nothing before."""
        game = self._require_game()
        if not game.is_finished:
            return {}
        result = game.result()
        return {"scores": list(result.scores), "winners": list(result.winners)}

    def render_subject(self) -> Any:
        """What :meth:`render` draws now, in the form :attr:`rendering` takes."""
        raise NotImplementedError

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            warnings.warn("render() was called without a render_mode; pass render_mode to the constructor",
                          stacklevel=2)
            return None
        subject = self.render_subject()
        if self.render_mode == "rgb_array":
            return self.rendering.to_rgb(subject)
        if self.render_mode == "human":
            if self._window is None:
                self._window = Window(self.metadata["render_fps"])
            self._window.show(self.rendering.to_rgb(subject))
            return None
        return self.rendering.to_text(subject)

    def close(self) -> None:
        if self._window is not None:
            self._window.close()
            self._window = None

    def _deal(self, game: Any, infos: Callable[[], dict]) -> None:
        """The AEC bookkeeping of a game just dealt (``reset``): every seat in, nothing paid yet, each seat's
        ``infos()``, the player to act selected (the first seat if the game is already over), drawn in human mode."""
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: game.is_over for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: infos() for agent in self.agents}
        self.agent_selection = self.agents[0 if game.is_over else game.current_player]
        if self.render_mode == "human":
            self.render()

    def step_from_view(self, action: Any) -> None:
        """Step with an action chosen from what ``view(seat)`` shows (what scripted players and people return):
        :meth:`step` itself, unless an option gives the agents' actions another form (Gold's ``action="kinds"``)."""
        self.step(action)

    def _game_to_step(self, action: int | None) -> Any | None:
        """The game ``step(action)`` acts on, or None once PettingZoo's step for a finished agent has been taken
        (the agent removed, as every AEC environment does)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return None
        return self._require_game()

    def _require_game(self) -> Any:
        if self.game is None:
            raise GoldrushEnvError("the environment has no game yet: call reset() first")
        return self.game


def __getattr__(name: str) -> Any:
    if name == "TableEnv":  # an import of the old name says what to use, rather than only that it is missing
        raise ImportError("goldrush_env.aec_base.TableEnv is now TurnBasedEnv (a table is the cards Gold deals): "
                          "see the changelog")
    raise AttributeError(f"module 'goldrush_env.aec_base' has no attribute {name!r}")
