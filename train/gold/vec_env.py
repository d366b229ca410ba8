"""Stable-Baselines3's ``VecEnv`` interface over the batched vector environment.

``BatchedVecEnv(num_envs, opponents=..., **options)`` lets SB3 (and
sb3-contrib's MaskablePPO, through ``env_method("action_masks")``) collect
experience from :class:`goldrush_env.gold.vector.GoldVectorEnv`: all games in
one process, stepped together, opponents played inside. It follows SB3's
conventions: ``reset()`` returns the observations only, a finished game is
reset at once and its last observation is in
``infos[i]["terminal_observation"]``, with ``"TimeLimit.truncated"`` set for
a game stopped by the turn limit. ``env_method("set_mix", mix)`` changes the
opponent mix, as with :class:`goldrush_train.gold.opponents.OpponentMix` in subprocesses.
Wrap it in ``VecMonitor`` for episode statistics.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from goldrush_agents.gold.batched import batched_mix
from goldrush_env.gold.vector import GoldVectorEnv


class BatchedVecEnv(VecEnv):
    """``num_envs`` games in one :class:`~goldrush_env.gold.vector.GoldVectorEnv`, for SB3."""

    def __init__(self, num_envs: int, opponents: Any = "random", seat: int | str = "random",
                 **options: Any) -> None:
        self.venv = GoldVectorEnv(num_envs, opponents=batched_mix(opponents), seat=seat, autoreset_mode="same_step",
                                  **options)
        self.render_mode = None
        super().__init__(num_envs, self.venv.single_observation_space, self.venv.single_action_space)
        self._actions: np.ndarray | None = None

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        observations, info = self.venv.reset(seed=seed)
        self._reset_seeds()
        self.reset_infos = [{"seat": int(seat)} for seat in info["seat"]]
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).astype(np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
        observations, rewards, terminated, truncated, info = self.venv.step(self._actions)
        done = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(done):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            infos[i]["scores"] = info["final_info"]["scores"][i]
        return observations, rewards, done, infos

    def action_masks(self) -> np.ndarray:
        return self.venv.action_masks()

    def set_mix(self, mix: dict[str, float]) -> None:
        self.venv.set_opponents(batched_mix(mix))

    def close(self) -> None:
        self.venv.close()

    # --- SB3's per-environment access, answered for the whole batch ---------------------

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        envs = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in envs]
        if method_name == "set_mix":
            if len(envs) != self.num_envs:
                raise ValueError("set_mix applies to every game of the batch: call it without indices")
            self.set_mix(*method_args, **method_kwargs)
            return [None] * len(envs)
        raise AttributeError(f"BatchedVecEnv has no per-environment method {method_name!r} "
                             "(it answers 'action_masks' and 'set_mix')")

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        if attr_name == "action_masks":
            value: Any = self.action_masks
        elif attr_name == "render_mode":
            value = None
        else:
            value = getattr(self.venv, attr_name)  # AttributeError for an unknown one, as has_attr expects
        return [value] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"BatchedVecEnv does not set {attr_name!r} per environment")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs
