"""The Gymnasium environment of *Gold Rush* (piecepack): one learner at one seat, the others played by policies.

``gymnasium.make("GoldRushPiecepack-v0", ...)`` or ``PiecepackEnv(...)``.
The learner holds one seat (fixed, or drawn each episode with
``seat="random"``); the other seats' actions happen inside :meth:`step`, so
each step returns the learner's next observation and *its* reward, paid
during the others' actions included. Observations are the seat's flat
vector of the AEC environment (:mod:`goldrush_env.piecepack.aec` documents
it); the legal actions come from :meth:`PiecepackEnv.action_masks` (what
sb3-contrib's MaskablePPO calls) and ``info["action_mask"]`` (both bool, 488).
Game options are those of :class:`~goldrush_env.piecepack.aec.PiecepackConfig`,
with the same defaults.

Opponents are policies with ``reset(seed)`` and ``act(view) -> int``, where
``view`` is a :class:`~goldrush_env.piecepack.aec.PiecepackView` (``seat``,
``knowledge = game.known_to(seat)``, a bool ``action_mask`` and the seat's
``observation``); the default, :class:`goldrush_env.policy.RandomPolicy`,
takes a uniformly random legal action from its own seeded generator.

An action the rules forbid now ends the episode with reward -1 and
``info["illegal_action"]`` saying why, after a warning, as PettingZoo's
``env()`` does for classic games; ``illegal_action="raise"`` raises
:class:`~goldrush_env.piecepack.errors.IllegalActionError` instead. An action
outside ``Discrete(488)`` always raises.

## Version History

* v0: first release.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from goldrush_env.piecepack.actions import NUM_ACTIONS
from goldrush_env.piecepack.aec import PiecepackView, raw_env
from goldrush_env.piecepack.errors import IllegalActionError, PiecepackError
from goldrush_env.policy import Policy, RandomPolicy

__all__ = ["PiecepackEnv", "PiecepackView"]


class PiecepackEnv(gym.Env):
    """*Gold Rush* (piecepack) for one learner. ``opponents``: ``None`` (uniformly random legal actions), one
    policy for every other seat, or one policy per other seat, in seat order after the learner's. ``seat``: the
    learner's seat, or ``"random"``. ``illegal_action``: ``"terminate"`` (end the episode with -1) or
    ``"raise"``. Other options go to :class:`~goldrush_env.piecepack.aec.PiecepackConfig`."""

    metadata = {"render_modes": list(raw_env.metadata["render_modes"]), "render_fps": 2}

    def __init__(self, opponents: Policy | Sequence[Policy] | None = None, seat: int | str = 0,
                 illegal_action: str = "terminate", **options: Any) -> None:
        self.game_env = raw_env(**options)
        self.config = self.game_env.config
        n = self.config.num_players
        if not (seat == "random" or isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n):
            raise PiecepackError(f"seat={seat!r} is not allowed: expected 'random' or a seat from 0 to {n - 1}")
        if illegal_action not in ("terminate", "raise"):
            raise PiecepackError(f"illegal_action={illegal_action!r} is not allowed: expected 'terminate' or "
                                 f"'raise'")
        self.set_opponents(opponents)
        self.illegal_action = illegal_action
        self.seat_option = seat
        self.seat = 0 if seat == "random" else seat
        self.render_mode = self.config.render_mode
        self.observation_space = self.game_env.observation_space(self.game_env.possible_agents[0])["observation"]
        self.action_space = gym.spaces.Discrete(NUM_ACTIONS)
        self._agent = self.game_env.possible_agents[self.seat]
        self._policies: dict[int, Policy] = {}
        self._ended = True

    def set_opponents(self, opponents: Policy | Sequence[Policy] | None) -> None:
        """Replace the opponents from the next :meth:`reset` on (same forms as the constructor's argument)."""
        n = self.config.num_players
        if opponents is None:
            opponents = [RandomPolicy() for _ in range(n - 1)]
        elif isinstance(opponents, Policy):
            opponents = [opponents] * (n - 1)
        opponents = list(opponents)
        if len(opponents) != n - 1 or not all(isinstance(p, Policy) for p in opponents):
            raise PiecepackError(f"opponents must be None, one policy, or {n - 1} policies with reset() and act(), "
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
        self._ended = self.game_env.game.is_over
        return self._observe()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        game_env = self.game_env
        if self._ended:
            raise PiecepackError("the episode has ended (or never began): call reset() first")
        if not self.action_space.contains(action):
            raise IllegalActionError(f"action {action!r} is not in the action space Discrete({NUM_ACTIONS})")
        try:
            game_env.step(int(action))  # the learner's action
        except IllegalActionError as error:
            if self.illegal_action == "raise":
                raise
            gym.logger.warn(f"illegal action ends the episode with reward -1: {error}")
            self._ended = True
            observation, info = self._observe()
            info["illegal_action"] = str(error)
            return observation, -1.0, True, False, info
        self._play_opponents()
        reward = float(game_env._cumulative_rewards[self._agent])
        self._ended = game_env.game.is_over
        observation, info = self._observe()
        return observation, reward, self._ended, False, info

    def _play_opponents(self) -> None:
        game_env, game = self.game_env, self.game_env.game
        while not game.is_over and game.current_player != self.seat:
            seat = game.current_player
            game_env.step(self._policies[seat].act(game_env.view(seat)))

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool array of 488."""
        return self.game_env.action_mask(self._agent)

    def view(self) -> PiecepackView:
        """The learner's :class:`~goldrush_env.piecepack.aec.PiecepackView` (for scripted play or debugging)."""
        return self.game_env.view(self.seat)

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        """The learner's observation and info (with its action mask, and the result once the game is over)."""
        game_env, game = self.game_env, self.game_env.game
        info: dict[str, Any] = {"action_mask": game_env.action_mask(self._agent), "seat": self.seat}
        if game.is_over:
            info.update(scores=game.scores(), winners=game.winners())
        return game_env.observe(self._agent)["observation"], info

    def render(self) -> str | np.ndarray | None:
        return self.game_env.render()

    def close(self) -> None:
        self.game_env.close()
