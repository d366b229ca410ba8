"""End to end: what the batched engine gains in training and in tournaments.

Training: MaskablePPO steps per second with each way of running the
environments. Each case builds the training script's model (train/gold/ppo.py defaults: the
GoldNet policy, 4 epochs, batch 512) on ``goldrush_train.gold.ppo.make_vec_env`` and times
``learn()`` over the same number of steps, with the same rollout size (2,048
steps) whatever the number of games, so the PPO updates cost the same and
only the collection differs. The first case, the Gymnasium env in
subprocesses (how the PPO runs of the experiments log trained), is the reference of the
ratios.

The stock CleanRL loop (``examples/cleanrl_stock.py`` with its
defaults: kinds of card, 2 players, random opponents) end to end: training
steps per second of a whole run, rollouts, updates and its evaluation (400
games against random and greedy) included.

Tournaments: games per second of ``run_tournament`` on worker processes (all
cores) and ``batched=True`` (one process), same fixtures.

Prints the median of the repeats; it asserts nothing.

    python benchmarks/bench_end_to_end.py                       # training against greedy
    python benchmarks/bench_end_to_end.py --opponents expert    # expert is played game by game in every case
    python benchmarks/bench_end_to_end.py --quick               # a few seconds, for CI (smaller cases)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROLLOUT = 2048


def steps_per_second(vec_env: str, num_envs: int, opponents: str, steps: int, seed: int,
                     rollout: int = ROLLOUT) -> float:
    import torch
    from sb3_contrib import MaskablePPO

    from goldrush_train.gold.network import MaskableGoldPolicy
    from goldrush_train.gold.ppo import Args, make_vec_env

    args = Args(vec_env=vec_env, num_envs=num_envs, n_steps=rollout // num_envs, seed=seed)
    torch.set_num_threads(args.threads)  # as train/gold/ppo.py: one with subprocesses, every core otherwise
    venv = make_vec_env(args, {opponents: 1.0})
    try:
        model = MaskablePPO(MaskableGoldPolicy, venv, n_steps=args.n_steps, batch_size=args.batch_size,
                            n_epochs=args.n_epochs, seed=seed, device="cpu", verbose=0)
        start = time.perf_counter()
        model.learn(total_timesteps=steps)
        return model.num_timesteps / (time.perf_counter() - start)
    finally:
        venv.close()


def cleanrl_steps_per_second(steps: int, seed: int) -> float:
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))  # not installed: its scripts by name
    import cleanrl_stock

    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        cleanrl_stock.main(["--total-timesteps", str(steps), "--eval-every", str(steps), "--seed", str(seed),
                            "--run-dir", folder])
        return steps / (time.perf_counter() - start)


def tournament_games_per_second(entrants: list[str], games: int, batched: bool, seed: int) -> float:
    from goldrush_agents.tournament import run_tournament

    start = time.perf_counter()
    result = run_tournament(entrants, num_players=2, games=games, seed=seed, batched=batched)
    return len(result.results) / (time.perf_counter() - start)


def tournaments(args: argparse.Namespace) -> None:
    print(f"\ntournaments, 2 players, {args.games} games per pairing x {args.repeats} repeats (median, min, max)")
    for entrants in (["random", "greedy"], ["random", "greedy", "taught"]):
        rates = {}
        for batched in (False, True):
            samples = [tournament_games_per_second(entrants, args.games, batched, args.seed + r)
                       for r in range(args.repeats)]
            rates[batched] = statistics.median(samples)
            how = "batched=True, one process" if batched else "worker processes, all cores"
            print(f"  {','.join(entrants):<22} {how:<28} {rates[batched]:>7,.0f} games/s  "
                  f"(min {min(samples):,.0f}, max {max(samples):,.0f})  x{rates[batched] / rates[False]:.2f}",
                  flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opponents", default="greedy", help="the opponents' entrant (goldrush_agents.make_agent name)")
    parser.add_argument("--steps", type=int, default=5 * ROLLOUT, help="training steps per repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=1000, help="tournament games per pairing")
    parser.add_argument("--cleanrl-steps", type=int, default=16 * 8192, help="steps of each CleanRL run")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: one rollout of 512 steps, 2 environments in subprocesses (each one a "
                             "fresh interpreter) instead of 8, one repeat, 20 tournament games")
    args = parser.parse_args(argv)
    rollout, cases = ROLLOUT, [("subproc", 8), ("batched", 8), ("batched", 64)]
    if args.quick:
        rollout, cases = 512, [("subproc", 2), ("batched", 8), ("batched", 64)]
        args.steps, args.repeats, args.games, args.cleanrl_steps = rollout, 1, 20, 8192

    print(f"MaskablePPO training against {args.opponents}, {args.steps:,} steps x {args.repeats} repeats, "
          f"rollouts of {rollout} steps (median, min, max)")
    reference = None
    for vec_env, num_envs in cases:
        samples = [steps_per_second(vec_env, num_envs, args.opponents, args.steps, args.seed + r, rollout)
                   for r in range(args.repeats)]
        median = statistics.median(samples)
        reference = reference or median
        print(f"  --vec-env {vec_env:<8} --num-envs {num_envs:<3} {median:>8,.0f} steps/s  "
              f"(min {min(samples):,.0f}, max {max(samples):,.0f})  x{median / reference:.2f}", flush=True)
    samples = [cleanrl_steps_per_second(args.cleanrl_steps, args.seed + r) for r in range(args.repeats)]
    print(f"\nCleanRL's stock loop end to end (its defaults), {args.cleanrl_steps:,} steps x {args.repeats} repeats:"
          f" {statistics.median(samples):,.0f} steps/s (min {min(samples):,.0f}, max {max(samples):,.0f})", flush=True)
    tournaments(args)


if __name__ == "__main__":
    main()

