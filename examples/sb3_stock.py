"""Stable-Baselines3's stock setup on Gold: sb3-contrib's MaskablePPO with its default ``"MlpPolicy"``.

    python examples/sb3_stock.py                                          # 1M steps, kinds of card
    python examples/sb3_stock.py --action positions --observation pairs   # positions, for comparison
    python examples/sb3_stock.py --total-timesteps 50000 --table quarter  # a quick look
    python examples/sb3_stock.py --env tutorial-self-play --num-envs 1    # PettingZoo's SB3 tutorial pattern

Nothing here is tuned for the game: MaskablePPO's default hyperparameters and
policy (two tanh layers of 64), the Gymnasium environment made with
``gymnasium.make("goldrush_env:Gold-v1", ...)`` and only documented
options (``observation``, ``action``, ``reward``, ``table``, ``seat="random"``), eight
copies in SB3's ``DummyVecEnv``; opponents play uniformly at random, the
environment's default. Every ``eval_every`` steps the policy plays
``eval_games`` games against random and greedy, picking its most likely action
(``stock_harness.py``); ``eval.csv`` and ``curves.png`` record them,
and ``model.zip`` the policy.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal, Sequence

import gymnasium as gym

from goldrush_train.cli import TRAIN_EXTRA, command, minutes, open_run_dir

from stock_harness import SB3ActionMaskWrapper, StockArgs, evaluate_at, mask_fn, progress_line, write_outputs


def tutorial_self_play(**options: Any) -> gym.Env:
    """PettingZoo's SB3 tutorial's environment over ``goldrush_env.gold.env(**options)``: its wrapper, which plays
    every seat with one policy, and sb3-contrib's ``ActionMasker``, as
    ``pettingzoo_tutorial.py`` trains through them."""
    from sb3_contrib.common.wrappers import ActionMasker

    import goldrush_env.gold

    env = SB3ActionMaskWrapper(goldrush_env.gold.env(**options))
    env.reset()  # defines the spaces
    return ActionMasker(env, mask_fn)


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
        env = make_vec_env(tutorial_self_play, n_envs=args.num_envs, seed=args.seed, env_kwargs=options)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    model.set_logger(configure(str(run_dir / "logs"), ["csv"]))  # SB3's own figures; else an empty folder in /tmp

    def choose(observations: Any, masks: Any) -> Any:
        return model.predict(observations, action_masks=masks, deterministic=True)[0]

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


@command("examples/sb3_stock.py", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    import tyro

    return train(tyro.cli(Args, args=argv, prog="python examples/sb3_stock.py"))


if __name__ == "__main__":
    main()
