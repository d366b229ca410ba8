"""What the stock-library runs share: their environment options, their evaluations, and what they write.

``sb3_stock.py``, ``cleanrl_stock.py``, ``tianshou_stock.py`` and ``torchrl_stock.py`` (beside this file in
``examples/``) each train one library's stock setup on ``Gold-v1`` with documented environment options only; they
import this module as ``stock_harness``, which works because Python puts a script's folder on ``sys.path``. Every
``eval_every`` steps they play ``eval_games`` games against each evaluation
agent with :func:`win_share` (the learner at a random seat, picking its most
likely action; all the games at once in the vector env, the learner's network
asked once per step for all of them) and at the end write ``eval.csv``, ``curves.png`` and
``summary.json`` with :func:`write_outputs`. :class:`SB3ActionMaskWrapper` is
PettingZoo's SB3 tutorial's wrapper, which ``pettingzoo_tutorial.py`` and ``sb3_stock.py --env
tutorial-self-play`` train through.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Literal

import gymnasium
import numpy as np
import pettingzoo.utils

from goldrush_env.errors import GoldrushEnvError

Choose = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""A learner's choices in many games at once: observations ``(k, size)`` and legal-action masks ``(k, actions)``
in, ``k`` actions out."""


@dataclass
class StockArgs:
    """The options every stock run has: the environment's options, the budget, the evaluations."""

    run_dir: str | None = None
    """Folder for the model and the evaluations; it must be new or empty. Default: runs/<library>-YYYYmmdd-HHMMSS."""
    seed: int = 0
    """Seeds the network, the environments and the evaluation deals."""
    total_timesteps: int = 1_000_000
    """Learner decisions to train for."""
    observation: Literal["plain", "pairs", "kinds"] = "kinds"
    """The environment's observation option (``"kinds"`` needs ``--action kinds``)."""
    action: Literal["positions", "kinds"] = "kinds"
    """The environment's action option: a kind of card to turn, or a position."""
    reward: Literal["score", "win"] = "score"
    """The environment's reward option."""
    table: str = "full"
    """The table the learner plays and is evaluated on."""
    num_envs: int = 8
    """Games played at once in training."""
    eval_every: int = 100_000
    """Steps between evaluations."""
    eval_games: int = 400
    """Games against each evaluation agent."""
    eval_agents: str = "random,greedy"
    """The agents the policy is evaluated against."""

    def check(self) -> None:
        from goldrush_agents import split_entrants
        from goldrush_env.gold.cards import TABLES
        from goldrush_train.cli import check_agent, check_counts

        check_counts(self, "total_timesteps", "num_envs", "eval_every", "eval_games")
        if self.table not in TABLES:
            raise GoldrushEnvError(f"--table {self.table!r} is not a table: expected one of {list(TABLES)}")
        if self.observation == "kinds" and self.action != "kinds":
            raise GoldrushEnvError("--observation kinds needs --action kinds (it says nothing about positions)")
        for agent in split_entrants(self.eval_agents):
            check_agent("--eval-agents", agent)

    def env_options(self, **changes: Any) -> dict[str, Any]:
        """The keyword arguments of ``gymnasium.make("goldrush_env:Gold-v1", ...)`` for this run."""
        options = dict(observation=self.observation, action=self.action, reward=self.reward, table=self.table,
                       seat="random")
        return {**options, **changes}


def win_share(choose: Choose, args: StockArgs, agent: str, seed: int) -> float:
    """The win share (shared wins split) of ``choose`` against ``agent`` on a random seat, over the first game of
    each of ``args.eval_games`` sub-environments of a vector env seeded by ``seed``."""
    from goldrush_agents.gold.batched import batched_policy
    from goldrush_env.gold.vector import GoldVectorEnv

    options = args.env_options()
    env = GoldVectorEnv(args.eval_games, opponents=batched_policy(agent, seed=seed),
                        seat=options.pop("seat"), **options)
    observations, info = env.reset(seed=seed)
    playing = np.ones(args.eval_games, dtype=bool)
    share = 0.0
    while playing.any():
        observations, _, terminated, truncated, info = env.step(
            np.asarray(choose(observations, info["action_mask"]), dtype=np.int64))
        ended = (terminated | truncated) & playing
        for game in np.flatnonzero(ended):  # each sub-environment's first game counts, the rest are not read
            winners = info["final_info"]["winners"][game]
            share += winners[info["final_info"]["seat"][game]] / winners.sum()
        playing &= ~ended
    return share / args.eval_games


def evaluate_at(step: int, choose: Choose, args: StockArgs) -> list[dict[str, Any]]:
    """One evaluation row per agent of ``args.eval_agents``, with its Wilson interval, at training step ``step``."""
    from goldrush_agents import split_entrants
    from goldrush_agents.tournament import wilson_interval

    rows = []
    for index, agent in enumerate(split_entrants(args.eval_agents)):
        share = win_share(choose, args, agent, seed=args.seed * 1_000_003 + 10_000 * index)
        low, high = wilson_interval(share * args.eval_games, args.eval_games)
        rows.append({"step": step, "opponent": agent, "games": args.eval_games, "win_share": share, "low": low,
                     "high": high, "fair_share": 0.5})
    return rows


def next_evaluation(step: int, every: int) -> int:
    """The first step of the evaluation schedule (every ``every`` steps) after ``step``."""
    return (step // every + 1) * every


def progress_line(rows: list[dict[str, Any]], elapsed: str) -> str:
    """``step  agent share  agent share  (elapsed)`` for one evaluation."""
    return (f"step {rows[0]['step']:>10,}  " + "  ".join(f"{r['opponent']} {r['win_share']:.3f}" for r in rows)
            + f"  ({elapsed})")


def write_outputs(run_dir: Path, args: StockArgs, evaluations: list[dict[str, Any]], seconds: float,
                  title: str) -> dict[str, Any]:
    """Write ``eval.csv``, ``curves.png`` and ``summary.json`` into ``run_dir``; return the summary."""
    from goldrush_train.run_figure import plot

    (run_dir / "eval.csv").write_text("\n".join(
        ["step,opponent,games,win_share,low,high"]
        + [f"{e['step']},{e['opponent']},{e['games']},{e['win_share']},{e['low']},{e['high']}" for e in evaluations])
        + "\n")
    plot(evaluations, [], run_dir / "curves.png", f"{title}, {args.action}, {args.observation}, seed {args.seed}")
    summary = {"args": asdict(args), "seconds": seconds, "evaluations": evaluations}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"outputs in {run_dir}/")
    return summary


class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):
    """The AEC game as SB3 sees it: the observation of the seat to move next, the reward and end of the mover."""

    def reset(self, seed: int | None = None, options: dict | None = None):
        super().reset(seed, options)
        # SB3 wants one observation space and one action space, not one per agent.
        self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
        self.action_space = super().action_space(self.possible_agents[0])
        return self.observe(self.agent_selection), {}

    def step(self, action: int):
        mover = self.agent_selection
        super().step(action)
        return (self.observe(self.agent_selection), self._cumulative_rewards[mover], self.terminations[mover],
                self.truncations[mover], self.infos[mover])

    def observe(self, agent: str):
        return super().observe(agent)["observation"]

    def action_mask(self):
        return super().observe(self.agent_selection)["action_mask"]


def mask_fn(env: Any):
    """The mask sb3-contrib's ``ActionMasker`` asks the wrapped game for."""
    return env.action_mask()
