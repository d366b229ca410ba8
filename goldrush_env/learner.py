"""What every one-learner Gymnasium environment shares: the learner's seat, the opponents, ``step()`` and what
the learner is shown.

:class:`goldrush_env.gold.gym_env.GoldEnv` (Gold), :class:`goldrush_env.piecepack.gym_env.PiecepackEnv`
(Gold Rush on the piecepack) and :class:`goldrush_env.rules_env.GymEnv` (any game, from its rules) subclass
:class:`OneLearnerEnv` over their PettingZoo ``raw_env``: the learner holds one seat, every other seat is played by
a policy inside :meth:`~OneLearnerEnv.step`, and an illegal action ends the episode with -1 (or raises). A subclass
only names its errors and its environment, unless its game shows the learner more (Gold's chosen position).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from goldrush_env.checks import is_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.policy import Policy, RandomPolicy


def never_empty(mask: np.ndarray) -> np.ndarray:
    """``mask`` (bool), or where it allows nothing (the game has ended) one that allows action 0 alone: a sampler
    can always draw from it, and the action is never taken (a step after the end raises; Gymnasium's vector
    autoreset ignores the action sent at the step after a game ended)."""
    if not mask.any():
        mask = mask.copy()
        mask[0] = True
    return mask


class OneLearnerEnv(gym.Env):
    """One learner at ``seat`` (an int, or ``"random"``: drawn each episode) of ``game_env``, a PettingZoo AEC
    ``raw_env``; ``opponents``: ``None`` (uniformly random legal actions), one policy for every other seat, or
    one policy per other seat, in seat order after the learner's; ``illegal_action``: ``"terminate"`` or
    ``"raise"``. Subclasses set :attr:`error` and :attr:`illegal_error`."""

    error: type[GoldrushEnvError] = GoldrushEnvError
    """What a misuse raises (an unknown option value, a step after the end)."""
    illegal_error: type[GoldrushEnvError] = GoldrushEnvError
    """What ``game_env.step`` raises for an action the rules forbid now."""

    def __init__(self, game_env: Any, opponents: Policy | Sequence[Policy] | None, seat: int | str,
                 illegal_action: str) -> None:
        self.game_env = game_env
        self.config = game_env.config
        n = self.config.num_players
        if not (seat == "random" or is_int(seat, 0, n - 1)):
            raise self.error(f"seat={seat!r} is not allowed: expected 'random' or a seat from 0 to {n - 1}")
        if illegal_action not in ("terminate", "raise"):
            raise self.error(f"illegal_action={illegal_action!r} is not allowed: expected 'terminate' or 'raise'")
        self.set_opponents(opponents)
        self.illegal_action = illegal_action
        self.seat_option = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.render_mode = self.config.render_mode
        first = game_env.possible_agents[0]
        self.observation_space = game_env.observation_space(first)["observation"]
        self.action_space = gym.spaces.Discrete(game_env.action_space(first).n)
        self._agent = game_env.possible_agents[self.seat]
        self._policies: dict[int, Policy] = {}
        self._ended = True

    def set_opponents(self, opponents: Policy | Sequence[Policy] | None) -> None:
        """Replace the opponents from the next :meth:`reset` on (same forms as the constructor's argument).

        Training scripts use it to change the opponent mix between episodes.
        """
        n = self.config.num_players
        if opponents is None:
            opponents = [RandomPolicy() for _ in range(n - 1)]
        elif isinstance(opponents, Policy):
            opponents = [opponents] * (n - 1)
        opponents = list(opponents)
        if len(opponents) != n - 1 or not all(isinstance(p, Policy) for p in opponents):
            raise self.error(f"opponents must be None, one policy, or {n - 1} policies with reset() and act(), "
                             f"got {opponents!r}")
        self.opponents = opponents

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        n = self.config.num_players
        if self.seat_option == "random":
            self.seat = int(self.np_random.integers(n))
        self._agent = self.game_env.possible_agents[self.seat]
        others = [(self.seat + k) % n for k in range(1, n)]
        self._policies = dict(zip(others, self.opponents))
        opponent_seeds = self.np_random.integers(0, 2**63, size=n - 1)
        for policy, opponent_seed in zip(self.opponents, opponent_seeds):
            policy.reset(seed=int(opponent_seed) if seed is not None else None)
        self.game_env.reset(seed=int(self.np_random.integers(0, 2**63)), options=options)
        self._play_opponents()
        self._ended = self.finished()
        return self.observe_learner()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._ended:
            raise self.error("the episode has ended (or never began): call reset() first")
        if not self.action_space.contains(action):
            raise self.illegal_error(f"action {action!r} is not in the action space Discrete({self.action_space.n})")
        try:
            self.game_env.step(int(action))  # the learner's action
        except self.illegal_error as error:
            if self.illegal_action == "raise":
                raise
            gym.logger.warn(f"illegal action ends the episode with reward -1: {error}")
            self._ended = True
            observation, info = self.observe_learner()
            info["illegal_action"] = str(error)
            return observation, -1.0, True, False, info
        self._play_opponents()
        reward = float(self.game_env._cumulative_rewards[self._agent])
        self._ended = self.finished()
        truncated = self.truncated()
        observation, info = self.observe_learner()
        return observation, reward, self._ended and not truncated, truncated, info

    def _play_opponents(self) -> None:
        game_env = self.game_env
        while not self.finished() and game_env.game.current_player != self.seat:
            seat = game_env.game.current_player
            game_env.step_from_view(self._policies[seat].act(game_env.view(seat)))

    def finished(self) -> bool:
        """Whether the game allows no further action (over, or stopped)."""
        return self.game_env.game.is_finished

    def truncated(self) -> bool:
        """Whether the game was stopped before its end (a turn limit)."""
        return self.game_env.game.is_truncated

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool array (what sb3-contrib's MaskablePPO calls); once the game has
        ended, action 0 alone (:func:`never_empty`)."""
        return never_empty(np.asarray(self.game_env.action_mask(self._agent), dtype=bool))

    def view(self) -> Any:
        """The learner's view, as its game's players read it (for scripted play or debugging)."""
        return self.game_env.view(self.seat)

    def observe_learner(self) -> tuple[np.ndarray, dict[str, Any]]:
        """The learner's observation and info: its bool action mask, its seat, and once the game has finished the
        scores and winners (:meth:`goldrush_env.protocol.Rules.result`)."""
        observed = self.game_env.observe(self._agent)
        info: dict[str, Any] = {"action_mask": never_empty(observed["action_mask"].astype(bool)), "seat": self.seat}
        game = self.game_env.game
        if game.is_finished:
            scores, winners, _ = game.result()
            info.update(scores=scores, winners=winners)
        return observed["observation"], info

    def render(self) -> str | np.ndarray | None:
        return self.game_env.render()

    def close(self) -> None:
        self.game_env.close()
