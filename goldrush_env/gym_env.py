"""The Gymnasium environment: one learning agent at one seat, the others played by policies.

``gymnasium.make("goldrush_env:GoldRush-v0", ...)`` or ``GoldRushEnv(...)``.
The learner holds one seat (fixed, or drawn each episode with
``seat="random"``); the opponents' flips happen inside :meth:`step`, so each
step returns the learner's next observation and *its* reward, losses
included. Observations are the flat vector of the AEC environment
(:mod:`goldrush_env.aec` documents it); the legal positions come from
:meth:`GoldRushEnv.action_masks` (what sb3-contrib's MaskablePPO calls) and
``info["action_mask"]`` (both bool). Game options are those of
:class:`~goldrush_env.config.EnvConfig`, with the same defaults.

A flip the rules forbid (an empty or face-up position) ends the episode
with reward -1 and ``info["illegal_action"]`` saying why, after a warning,
as PettingZoo's ``env()`` does for classic games; ``illegal_action="raise"``
raises :class:`~goldrush_env.errors.IllegalFlipError` instead. An action
outside ``Discrete(64)`` always raises.

## Version History

* v0: first release.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np

from goldrush_env.aec import raw_env
from goldrush_env.cards import NUM_POSITIONS
from goldrush_env.errors import GoldRushError, IllegalFlipError
from goldrush_env.policy import Policy, RandomPolicy


class GoldRushEnv(gym.Env):
    """Gold for one learner. ``opponents``: ``None`` (uniformly random legal flips),
    one policy for every other seat, or one policy per other seat, in seat order
    after the learner's. ``seat``: the learner's seat, or ``"random"``.
    ``illegal_action``: ``"terminate"`` (end the episode with -1) or ``"raise"``."""

    metadata = {"render_modes": list(raw_env.metadata["render_modes"]), "render_fps": 2}

    def __init__(self, opponents: Policy | Sequence[Policy] | None = None, seat: int | str = 0,
                 illegal_action: str = "terminate", **config: Any) -> None:
        self.game_env = raw_env(**config)
        self.config = self.game_env.config
        n = self.config.num_players
        if not (seat == "random" or isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n):
            raise GoldRushError(f"seat={seat!r} is not allowed: expected 'random' or a seat from 0 to {n - 1}")
        self.set_opponents(opponents)
        if illegal_action not in ("terminate", "raise"):
            raise GoldRushError(f"illegal_action={illegal_action!r} is not allowed: expected 'terminate' or 'raise'")
        self.illegal_action = illegal_action
        self.seat_option = seat
        self.seat = 0 if seat == "random" else seat
        self.render_mode = self.config.render_mode
        self.observation_space = self.game_env.observation_space(self.game_env.possible_agents[0])["observation"]
        self.action_space = gym.spaces.Discrete(NUM_POSITIONS)
        self._agent = self.game_env.possible_agents[self.seat]
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
            raise GoldRushError(f"opponents must be None, one policy, or {n - 1} policies with reset() and act(), "
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
        self._ended = self.game_env.game.is_finished
        return self._observe()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        game_env = self.game_env
        if self._ended:
            raise GoldRushError("the episode has ended (or never began): call reset() first")
        if not self.action_space.contains(action):
            raise IllegalFlipError(f"action {action!r} is not in the action space Discrete({NUM_POSITIONS})")
        try:
            game_env.step(action)  # the learner's flip
        except IllegalFlipError as error:
            if self.illegal_action == "raise":
                raise
            gym.logger.warn(f"illegal action ends the episode with reward -1: {error}")
            self._ended = True
            observation, info = self._observe()
            info["illegal_action"] = str(error)
            return observation, -1.0, True, False, info
        self._play_opponents()
        reward = float(game_env._cumulative_rewards[self._agent])
        game = game_env.game
        self._ended = game.is_finished
        observation, info = self._observe()
        return observation, reward, game.is_over, game.is_truncated, info

    def _play_opponents(self) -> None:
        game_env, game = self.game_env, self.game_env.game
        while not game.is_finished and game.current_player != self.seat:
            seat = game.current_player
            game_env.step(self._policies[seat].act(game_env.view(seat)))

    def action_masks(self) -> np.ndarray:
        """The learner's legal positions as a bool array of 64."""
        return self.game_env.action_mask(self._agent).astype(bool)

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        """The learner's observation and info (with its action mask, and the result once the game ends)."""
        observed = self.game_env.observe(self._agent)
        info = {"action_mask": observed["action_mask"].astype(bool), "seat": self.seat}
        game = self.game_env.game
        if game.is_finished:
            info.update(scores=game.scores, winners=game.winners)
        return observed["observation"], info

    def render(self) -> str | np.ndarray | None:
        return self.game_env.render()

    def close(self) -> None:
        self.game_env.close()
