"""Stable-Baselines3's stock setup on Gold: sb3-contrib's MaskablePPO with its default ``"MlpPolicy"``.

    python -m goldrush_train.gold.sb3_stock                                   # 1M steps, kinds of card
    python -m goldrush_train.gold.sb3_stock --action positions --observation pairs   # positions, for comparison
    python -m goldrush_train.gold.sb3_stock --total-timesteps 50000 --table quarter   # a quick look
    python -m goldrush_train.gold.sb3_stock --env tutorial-self-play --num-envs 1   # PettingZoo's SB3 tutorial pattern

Nothing here is tuned for the game: MaskablePPO's default hyperparameters and
policy (two tanh layers of 64), the Gymnasium environment made with
``gymnasium.make("goldrush_env:Gold-v1", ...)`` and only documented
options (``observation``, ``action``, ``reward``, ``table``, ``seat="random"``), eight
copies in SB3's ``DummyVecEnv``; opponents play uniformly at random, the
environment's default. Every ``eval_every`` steps the policy plays
``eval_games`` games against random and greedy, picking its most likely action
(:mod:`goldrush_train.gold.stock_harness`); ``eval.csv`` and ``curves.png`` record them,
and ``model.zip`` the policy.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal, Sequence

import gymnasium as gym
import numpy as np

from goldrush_train.cli import TRAIN_EXTRA, command, minutes, open_run_dir
from goldrush_train.gold.stock_harness import StockArgs, evaluate_at, progress_line, write_outputs


class TutorialSelfPlay(gym.Env):
    """PettingZoo's SB3 action-mask tutorial's pattern over ``goldrush_env.gold.env()``: one policy plays every seat.

    A step plays the action for the seat to move and returns the observation of the seat to move next, with the
    reward, termination and truncation of the seat that moved, as the tutorial's ``SB3ActionMaskWrapper`` does;
    :meth:`action_masks` is the mask of the seat to move."""

    def __init__(self, **options: Any) -> None:
        import goldrush_env

        self.aec = goldrush_env.gold.env(**options)
        seat = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(seat)["observation"]
        self.action_space = self.aec.action_space(seat)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        return self.aec.observe(self.aec.agent_selection)["observation"], {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        mover = self.aec.agent_selection
        self.aec.step(int(action))
        observation = self.aec.observe(self.aec.agent_selection)["observation"]
        return (observation, float(self.aec._cumulative_rewards[mover]), self.aec.terminations[mover],
                self.aec.truncations[mover], dict(self.aec.infos[mover]))

    def action_masks(self) -> np.ndarray:
        return self.aec.observe(self.aec.agent_selection)["action_mask"].astype(bool)


@dataclass
class Args(StockArgs):
    """MaskablePPO with its default MlpPolicy on Gold-v1, with documented environment options only."""

    env: Literal["gymnasium", "tutorial-self-play"] = "gymnasium"
    """``gymnasium``: the learner at one seat of Gold-v1, the others random. ``tutorial-self-play``:
    PettingZoo's SB3 tutorial pattern, one policy playing every seat of ``goldrush_env.gold.env()``."""


def train(args: Args) -> dict[str, Any]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.logger import configure

    import goldrush_env  # noqa: F401  (registers the ids)

    args.check()
    run_dir = open_run_dir(args.run_dir, "runs/sb3", args)
    torch.set_num_threads(1)
    if args.env == "gymnasium":
        env = make_vec_env("goldrush_env:Gold-v1", n_envs=args.num_envs, seed=args.seed,
                           env_kwargs=args.env_options())
    else:
        options = args.env_options()
        del options["seat"]  # every seat is the learner's
        env = make_vec_env(TutorialSelfPlay, n_envs=args.num_envs, seed=args.seed, env_kwargs=options)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    model.set_logger(configure(str(run_dir / "logs"), ["csv"]))  # SB3's own figures; else an empty folder in /tmp

    def choose(observation: Any, mask: Any) -> int:
        return int(model.predict(observation, action_masks=mask, deterministic=True)[0])

    evaluations: list[dict[str, Any]] = []
    started = time.perf_counter()
    while model.num_timesteps < args.total_timesteps:
        model.learn(min(args.eval_every, args.total_timesteps - model.num_timesteps), reset_num_timesteps=False)
        rows = evaluate_at(model.num_timesteps, choose, args)
        evaluations += rows
        print(progress_line(rows, minutes(time.perf_counter() - started)), flush=True)
    model.save(run_dir / "model.zip")
    model.logger.close()
    return write_outputs(run_dir, args, evaluations, time.perf_counter() - started, "MaskablePPO MlpPolicy")


@command("goldrush_train.gold.sb3_stock", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    import tyro

    return train(tyro.cli(Args, args=argv, prog="python -m goldrush_train.gold.sb3_stock"))


if __name__ == "__main__":
    main()
