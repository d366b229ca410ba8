"""Who the learner plays: a curriculum of scripted players and a league of its own past selves.

:class:`OpponentMix` wraps :class:`~goldrush_env.gold.gym_env.GoldEnv` and, at
every reset, draws each opponent seat from a weighted mix of entrants (agent
names or model files), with its own seeded generator. The training script
changes the mix between rollouts through ``VecEnv.env_method("set_mix", ...)``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from goldrush_agents import make_agent
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.gym_env import GoldEnv
from goldrush_env.policy import Policy

SCRIPTED_SHARE = 0.3
"""Share of games against the curriculum stages already passed (so the learner does not forget them)."""


def opponent_mix(curriculum: list[str], stage: int, league: list[str], self_play: float) -> dict[str, float]:
    """The opponent weights at curriculum ``stage``: mostly the current stage's player, some of the earlier
    ones, and a ``self_play`` share spread over the league's snapshots (if any)."""
    if not 0 <= stage < len(curriculum):
        raise GoldrushEnvError(f"curriculum stage {stage} is out of range for {curriculum}")
    passed = curriculum[:stage]
    mix = {curriculum[stage]: 1.0 - SCRIPTED_SHARE if passed else 1.0}
    for name in passed:
        mix[name] = mix.get(name, 0.0) + SCRIPTED_SHARE / len(passed)
    if league and self_play > 0:
        mix = {name: weight * (1.0 - self_play) for name, weight in mix.items()}
        for path in league:
            mix[path] = mix.get(path, 0.0) + self_play / len(league)
    return mix


class OpponentMix(gym.Wrapper):
    """A GoldEnv whose opponents are drawn from a weighted mix at every reset."""

    def __init__(self, env: GoldEnv, mix: dict[str, float], seed: int) -> None:
        super().__init__(env)
        self.rng = np.random.default_rng(seed)
        self._policy_seeds = np.random.default_rng([seed, 1])
        """Seeds each opponent as it is made. The env reseeds its opponents only on a reset given a seed (the
        first): a player that joins later, when the mix changes, plays from this seed."""
        self._cache: dict[str, Policy] = {}
        self.names: list[str] = []
        self.set_mix(mix)

    def set_mix(self, mix: dict[str, float]) -> None:
        weights = np.array(list(mix.values()), dtype=float)
        if not mix or (weights < 0).any() or weights.sum() <= 0:
            raise GoldrushEnvError(f"an opponent mix needs weights >= 0 with a positive sum, got {mix!r}")
        for name in mix:
            self._policy(name)  # load now: a bad entrant fails here, not in the middle of a rollout
        self.mix_names = list(mix)
        self.mix_weights = weights / weights.sum()
        self._cache = {name: policy for name, policy in self._cache.items() if name in mix}

    def _policy(self, name: str) -> Policy:
        if name not in self._cache:
            self._cache[name] = make_agent(name, seed=int(self._policy_seeds.integers(2**63)))
        return self._cache[name]

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict]:
        count = self.env.unwrapped.config.num_players - 1
        picks = self.rng.choice(len(self.mix_names), size=count, p=self.mix_weights)
        self.names = [self.mix_names[i] for i in picks]
        self.env.unwrapped.set_opponents([self._policy(name) for name in self.names])
        observation, info = self.env.reset(**kwargs)
        info["opponents"] = list(self.names)
        return observation, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()
