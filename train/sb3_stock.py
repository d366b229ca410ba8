"""Stable-Baselines3's stock setup on Gold: sb3-contrib's MaskablePPO with its default ``"MlpPolicy"``.

    python -m goldrush_train.sb3_stock                                   # 1M steps, pairs observation
    python -m goldrush_train.sb3_stock --observation plain               # the plain observation, for comparison
    python -m goldrush_train.sb3_stock --action kinds --observation kinds   # actions that name kinds of card
    python -m goldrush_train.sb3_stock --total-timesteps 50000 --table quarter   # a quick look

Nothing here is tuned for the game: MaskablePPO's default hyperparameters and
policy (two tanh layers of 64), the Gymnasium environment made with
``gymnasium.make("goldrush_env:GoldRush-v0", ...)`` and only documented
options (``observation``, ``action``, ``reward``, ``table``, ``seat="random"``), eight
copies in SB3's ``DummyVecEnv``; opponents play uniformly at random, the
environment's default. Every ``eval_every`` steps the policy plays
``eval_games`` games against random and greedy, picking its most likely flip;
``eval.csv`` and ``curves.png`` record them, and ``model.zip`` the policy.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from typing import Any, Literal, Sequence

from goldrush_env.errors import GoldRushError
from goldrush_train.cli import TRAIN_EXTRA, command, minutes, open_run_dir


@dataclass
class Args:
    """MaskablePPO with its default MlpPolicy on GoldRush-v0, with documented environment options only."""

    run_dir: str | None = None
    """Folder for the model and the evaluations; it must be new or empty. Default: runs/sb3-YYYYmmdd-HHMMSS."""
    seed: int = 0
    """Seeds the network, the environments and the evaluation deals."""
    total_timesteps: int = 1_000_000
    """Learner decisions to train for."""
    observation: Literal["plain", "pairs", "kinds"] = "pairs"
    """The environment's observation option (``"kinds"`` needs ``--action kinds``)."""
    action: Literal["positions", "kinds"] = "positions"
    """The environment's action option: a position to flip, or a kind of card."""
    reward: Literal["score", "win"] = "score"
    """The environment's reward option."""
    table: str = "full"
    """The table the learner plays and is evaluated on."""
    num_envs: int = 8
    """Environments in SB3's DummyVecEnv."""
    eval_every: int = 100_000
    """Steps between evaluations."""
    eval_games: int = 200
    """Games against each evaluation agent."""
    eval_agents: str = "random,greedy"
    """The agents the policy is evaluated against."""

    def check(self) -> None:
        from goldrush_env.gold.cards import TABLES

        for name in ("total_timesteps", "num_envs", "eval_every", "eval_games"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise GoldRushError(f"--{name.replace('_', '-')} must be an int >= 1, got {value!r}")
        if self.table not in TABLES:
            raise GoldRushError(f"--table {self.table!r} is not a table: expected one of {list(TABLES)}")
        if self.observation == "kinds" and self.action != "kinds":
            raise GoldRushError("--observation kinds needs --action kinds (it says nothing about positions)")


def evaluate(model: Any, args: Args, agent: str, seed: int) -> float:
    """The win share (shared wins split) of ``model``'s most likely flips against ``agent`` on a random seat."""
    import gymnasium as gym

    from goldrush_agents import make_agent

    env = gym.make("goldrush_env:GoldRush-v0", observation=args.observation, action=args.action, reward=args.reward,
                   table=args.table, seat="random", opponents=make_agent(agent, seed=seed))
    share = 0.0
    for game in range(args.eval_games):
        observation, info = env.reset(seed=seed + game)
        done = False
        while not done:
            action, _ = model.predict(observation, action_masks=info["action_mask"], deterministic=True)
            observation, _, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        winners = info["winners"]
        share += (env.unwrapped.seat in winners) / len(winners)
    return share / args.eval_games


def train(args: Args) -> dict[str, Any]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.logger import configure

    import goldrush_env  # noqa: F401  (registers the ids)
    from goldrush_agents import split_entrants
    from goldrush_agents.tournament import wilson_interval
    from goldrush_train.plots import plot

    args.check()
    run_dir = open_run_dir(args.run_dir, "runs/sb3", args)
    torch.set_num_threads(1)
    env = make_vec_env("goldrush_env:GoldRush-v0", n_envs=args.num_envs, seed=args.seed,
                       env_kwargs=dict(observation=args.observation, action=args.action, reward=args.reward,
                                       table=args.table, seat="random"))
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    model.set_logger(configure(str(run_dir / "logs"), ["csv"]))  # SB3's own figures; else an empty folder in /tmp
    evaluations: list[dict[str, Any]] = []
    started = time.perf_counter()
    while model.num_timesteps < args.total_timesteps:
        model.learn(min(args.eval_every, args.total_timesteps - model.num_timesteps), reset_num_timesteps=False)
        for index, agent in enumerate(split_entrants(args.eval_agents)):
            share = evaluate(model, args, agent, seed=args.seed * 1_000_003 + 10_000 * index)
            low, high = wilson_interval(share * args.eval_games, args.eval_games)
            evaluations.append({"step": model.num_timesteps, "opponent": agent, "games": args.eval_games,
                                "win_share": share, "low": low, "high": high, "fair_share": 0.5})
        print(f"step {model.num_timesteps:>10,}  " + "  ".join(
            f"{e['opponent']} {e['win_share']:.3f}" for e in evaluations if e["step"] == model.num_timesteps)
            + f"  ({minutes(time.perf_counter() - started)})", flush=True)
    model.save(run_dir / "model.zip")
    model.logger.close()
    (run_dir / "eval.csv").write_text("\n".join(
        ["step,opponent,games,win_share,low,high"]
        + [f"{e['step']},{e['opponent']},{e['games']},{e['win_share']},{e['low']},{e['high']}" for e in evaluations])
        + "\n")
    plot(evaluations, [], run_dir / "curves.png",
         f"MaskablePPO MlpPolicy, {args.action}, {args.observation}, seed {args.seed}")
    summary = {"args": dataclasses.asdict(args), "seconds": time.perf_counter() - started, "evaluations": evaluations}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"outputs in {run_dir}/")
    return summary


@command("goldrush_train.sb3_stock", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    import tyro

    return train(tyro.cli(Args, args=argv, prog="python -m goldrush_train.sb3_stock"))


if __name__ == "__main__":
    main()
