"""MaskablePPO on *Gold Rush* for the piecepack: one learner against scripted players.

    python -m goldrush_train.piecepack_ppo --num-players 3 --total-timesteps 200000 --seed 0
    python -m goldrush_train.piecepack_ppo --num-players 4 --opponents random,economist
    python -m goldrush_train.piecepack_ppo --total-timesteps 4096 --eval-games 20     # a quick look

sb3-contrib's MaskablePPO with its default ``"MlpPolicy"`` (two tanh layers of
64) on ``gymnasium.make("goldrush_env:GoldRushPiecepack-v0", ...)``: the
learner sits at a random seat, the legal-action mask is honoured, and every
other seat is played by one of ``--opponents`` (comma-separated; with several
names each seat draws one anew every game). At the end the policy, picking
its most likely legal action, plays ``--eval-games`` games at a random seat
against all-random and against all-economist tables; the economist plays the
same deals against random as a reference. Each line gives the win share
(a co-winner among k gets 1/k) with its 95% Wilson interval, the fair share
1/n, and the mean final scores of the player and of its opponents.
``final.zip`` holds the policy and ``summary.json`` the numbers.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from goldrush_env.errors import GoldRushError
from goldrush_env.policy import SeededPolicy
from goldrush_train.cli import TRAIN_EXTRA, command, minutes, open_run_dir


EVAL_OPPONENTS = ("random", "economist")
"""The tables the trained policy is evaluated at: every other seat played by this agent."""


@dataclass
class Args:
    """MaskablePPO with its default MlpPolicy on GoldRushPiecepack-v0 against scripted players."""

    run_dir: str | None = None
    """Folder for the model and the evaluations; it must be new or empty. Default:
    runs/piecepack-ppo-YYYYmmdd-HHMMSS."""
    seed: int = 0
    """Seeds the network, the environments, the opponents and the evaluation deals."""
    num_players: int = 3
    """Seats at the table, 3 or 4."""
    opponents: str = "random"
    """The players of the other seats while training: random, economist, or a mix such as random,economist."""
    reward: Literal["score", "win"] = "score"
    """The environment's reward option."""
    total_timesteps: int = 200_000
    """Learner decisions to train for (200,000: about 9 minutes on two cores against random)."""
    num_envs: int = 4
    """Environments stepped together."""
    vec_env: Literal["dummy", "subproc"] = "dummy"
    """SB3's DummyVecEnv (one process) or SubprocVecEnv (one process per environment)."""
    n_steps: int = 2048
    """Steps per environment in each rollout (MaskablePPO's default)."""
    batch_size: int = 256
    """Minibatch size of the updates (MaskablePPO's default is 64; 256 trains about 1.3 times as fast here)."""
    log_every: int = 50_000
    """Steps between progress lines."""
    eval_games: int = 200
    """Games against each evaluation table."""
    reference: bool = True
    """Also evaluate the economist against random on the same deals, as a yardstick."""

    def check(self) -> list[str]:
        """Refuse a bad value by its option, before anything starts; the training opponents' names."""
        from goldrush_agents.piecepack import PIECEPACK_AGENTS
        from goldrush_env.piecepack.aec import PiecepackConfig

        for name in ("total_timesteps", "num_envs", "n_steps", "batch_size", "log_every", "eval_games"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise GoldRushError(f"--{name.replace('_', '-')} must be an int >= 1, got {value!r}")
        try:
            PiecepackConfig(num_players=self.num_players, reward=self.reward)
        except GoldRushError as error:
            raise GoldRushError(f"--num-players/--reward: {error}") from None
        names = [name.strip() for name in self.opponents.split(",")]
        for name in names:
            if name not in PIECEPACK_AGENTS:
                raise GoldRushError(f"--opponents: unknown piecepack agent {name!r}: expected one or more of "
                                    f"{list(PIECEPACK_AGENTS)}, comma-separated")
        return names


class OpponentMix(SeededPolicy):
    """One seat's opponent: each game it draws one of ``names`` (from its own generator) and plays as it."""

    def __init__(self, names: Sequence[str], seed: int | None = None) -> None:
        super().__init__(seed)
        self.names = list(names)
        self.player: Any = None

    def reset(self, seed: int | None = None) -> None:
        from goldrush_agents.piecepack import make_piecepack_agent

        super().reset(seed)
        name = self.names[int(self.rng.integers(len(self.names)))]
        self.player = make_piecepack_agent(name, seed=int(self.rng.integers(2**63)))

    def act(self, view: Any) -> int:
        return self.player.act(view)


def make_env(num_players: int, reward: str, opponents: Sequence[str], seed: int) -> Any:
    """One environment: the learner at a random seat, each other seat an :class:`OpponentMix` of its own."""
    import gymnasium as gym

    import goldrush_env  # noqa: F401  (registers the ids)

    seeds = np.random.SeedSequence(seed).generate_state(num_players - 1)
    return gym.make("goldrush_env:GoldRushPiecepack-v0", num_players=num_players, reward=reward, seat="random",
                    opponents=[OpponentMix(opponents, seed=int(s)) for s in seeds])


def play(choose: Callable[[Any, np.ndarray, dict], int], num_players: int, opponent: str, games: int,
         seed: int) -> dict[str, Any]:
    """``games`` games of the player ``choose(env, observation, info) -> action`` at a random seat against
    ``opponent`` at every other seat: the win share (shared wins split), its 95% Wilson interval, the fair share
    and the mean final scores."""
    from goldrush_agents.tournament import wilson_interval

    env = make_env(num_players, "score", [opponent], seed)
    share, own, others = 0.0, [], []
    for game in range(games):
        observation, info = env.reset(seed=seed + game)
        done = False
        while not done:
            observation, _, terminated, truncated, info = env.step(choose(env, observation, info))
            done = terminated or truncated
        seat, scores, winners = info["seat"], info["scores"], info["winners"]
        share += (seat in winners) / len(winners)
        own.append(scores[seat])
        others += [score for s, score in enumerate(scores) if s != seat]
    low, high = wilson_interval(share, games)
    env.close()
    share /= games
    return {"opponents": opponent, "games": games, "win_share": share, "low": min(low, share),
            "high": max(high, share),  # the interval's float rounding can leave 1.0 just outside
            "fair_share": 1 / num_players, "mean_score": float(np.mean(own)),
            "mean_opponent_score": float(np.mean(others))}


def evaluate(model: Any, args: Args) -> list[dict[str, Any]]:
    """The policy (most likely legal action) against each of :data:`EVAL_OPPONENTS`, and, with
    ``--reference``, the economist against random on the same deals."""
    from goldrush_agents.piecepack import make_piecepack_agent

    def policy(env: Any, observation: np.ndarray, info: dict) -> int:
        action, _ = model.predict(observation, action_masks=info["action_mask"], deterministic=True)
        return int(action)

    economist = make_piecepack_agent("economist", seed=args.seed)

    def reference(env: Any, observation: np.ndarray, info: dict) -> int:
        return economist.act(env.unwrapped.view())

    players = [("model", policy, opponent) for opponent in EVAL_OPPONENTS]
    if args.reference:
        players.append(("economist", reference, "random"))
    lines = []
    for player, choose, opponent in players:
        seed = args.seed * 1_000_003 + 10_000 * EVAL_OPPONENTS.index(opponent)  # same deals for every player
        line = {"player": player, **play(choose, args.num_players, opponent, args.eval_games, seed)}
        print(f"{player:>9} vs {opponent:<9} win share {line['win_share']:.3f} "
              f"[{line['low']:.3f}, {line['high']:.3f}] (fair {line['fair_share']:.3f}), "
              f"mean score {line['mean_score']:.2f} vs {line['mean_opponent_score']:.2f}", flush=True)
        lines.append(line)
    return lines


def train(args: Args) -> dict[str, Any]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    opponents = args.check()
    run_dir = open_run_dir(args.run_dir, "runs/piecepack-ppo", args)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = make_vec_env(make_env, n_envs=args.num_envs, seed=args.seed,
                       vec_env_cls=SubprocVecEnv if args.vec_env == "subproc" else DummyVecEnv,
                       env_kwargs={"num_players": args.num_players, "reward": args.reward, "opponents": opponents,
                                   "seed": args.seed})
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch_size, seed=args.seed, verbose=0)
    started = time.perf_counter()
    while model.num_timesteps < args.total_timesteps:
        model.learn(min(args.log_every, args.total_timesteps - model.num_timesteps), reset_num_timesteps=False)
        elapsed = time.perf_counter() - started
        returns = [episode["r"] for episode in model.ep_info_buffer]
        print(f"step {model.num_timesteps:>9,}  mean return {np.mean(returns) if returns else float('nan'):+.3f}"
              f"  {model.num_timesteps / elapsed:.0f} steps/s  ({minutes(elapsed)})", flush=True)
    seconds = time.perf_counter() - started
    env.close()
    model.save(run_dir / "final.zip")
    evaluations = evaluate(model, args)
    summary = {"args": dataclasses.asdict(args), "timesteps": model.num_timesteps, "train_seconds": seconds,
               "steps_per_second": model.num_timesteps / seconds, "evaluations": evaluations}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"outputs in {run_dir}/")
    return summary


@command("goldrush_train.piecepack_ppo", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    import tyro

    return train(tyro.cli(Args, args=argv, prog="python -m goldrush_train.piecepack_ppo"))


if __name__ == "__main__":
    main()
