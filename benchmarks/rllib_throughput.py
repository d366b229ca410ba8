"""RLlib PPO throughput: env steps per second with 1 and 2 env runners, beside the SB3 training script's.

Each case builds ``examples/rllib_ppo.py``'s PPO (its default network and update: a 256x256 tanh MLP,
minibatches of 256, 4 epochs) with the same batch of env steps per iteration, runs one iteration to warm
up, then times ``--iterations`` more: the whole iteration (sampling and update, what a run gets), and
sampling alone (a batch collected by the env runners, no update). An env step is one flip of any seat,
every one of them chosen by the shared policy and learned from.

For comparison, ``goldrush_train.gold.ppo``'s setup (SB3 MaskablePPO, its GoldNet, 8 games in subprocesses
against ``greedy``) timed as ``benchmarks/bench_end_to_end.py`` times it: its steps are the learner's
flips only (the opponents' are played inside the environment), so the two count different things.

    python benchmarks/rllib_throughput.py                  # 1 and 2 env runners, 4,000-step batches, and SB3
    python benchmarks/rllib_throughput.py --runners 0,1,2 --sb3-steps 0

Prints medians over the timed iterations; asserts nothing. The machine's load is printed first: the
figures are only as quiet as the machine was.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path


def rllib_rates(runners: int, args: argparse.Namespace) -> tuple[list[float], list[float]]:
    """Env steps per second of whole iterations and of sampling alone, one figure per timed iteration."""
    from ray.rllib.execution.rollout_ops import synchronous_parallel_sample

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))  # not installed: its scripts by name
    from rllib_ppo import Args, make_config

    config = make_config(Args(num_env_runners=runners, num_envs_per_env_runner=args.envs_per_runner,
                              train_batch_size=args.batch, seed=args.seed))
    algo = config.build_algo()
    try:
        lifetime = algo.train()["env_runners"]["num_env_steps_sampled_lifetime"]  # warm-up: start-up costs
        whole, sampling = [], []
        for _ in range(args.iterations):
            start = time.perf_counter()
            now = algo.train()["env_runners"]["num_env_steps_sampled_lifetime"]
            whole.append((now - lifetime) / (time.perf_counter() - start))
            lifetime = now
        for _ in range(args.iterations):  # after the iterations: what is sampled here adds to RLlib's counts
            start = time.perf_counter()
            episodes = synchronous_parallel_sample(worker_set=algo.env_runner_group, max_env_steps=args.batch,
                                                   _uses_new_env_runners=True)
            sampling.append(sum(episode.env_steps() for episode in episodes) / (time.perf_counter() - start))
        return whole, sampling
    finally:
        algo.stop()


def sb3_rate(steps: int, seed: int) -> float:
    """Learner steps per second of goldrush_train.gold.ppo's setup, as benchmarks/bench_end_to_end.py times it."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_end_to_end import steps_per_second

    return steps_per_second("subproc", 8, "greedy", steps, seed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runners", default="1,2", help="env runner counts to time, comma-separated (0: sample "
                                                         "in this process)")
    parser.add_argument("--iterations", type=int, default=3, help="timed iterations per case, after one warm-up")
    parser.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    parser.add_argument("--envs-per-runner", type=int, default=4, help="games each env runner plays at once")
    parser.add_argument("--sb3-steps", type=int, default=5 * 2048,
                        help="steps of the SB3 comparison (goldrush_train.gold.ppo's setup); 0: none")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    counts = [int(part) for part in args.runners.split(",")]

    import ray

    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load} (1, 5, 15 min) before the run", flush=True)
    ray.init(address="local", num_cpus=max([os.cpu_count() or 1, *counts]), include_dashboard=False,
             log_to_driver=False)
    try:
        print(f"RLlib PPO (examples/rllib_ppo.py), {args.batch:,} env steps per iteration, "
              f"{args.envs_per_runner} games per env runner; median of {args.iterations} iterations (min, max)")
        for runners in counts:
            whole, sampling = rllib_rates(runners, args)
            print(f"  --num-env-runners {runners}: {statistics.median(whole):>6,.0f} env steps/s per iteration "
                  f"({min(whole):,.0f}, {max(whole):,.0f}); sampling alone {statistics.median(sampling):>6,.0f} "
                  f"({min(sampling):,.0f}, {max(sampling):,.0f})", flush=True)
    finally:
        ray.shutdown()
    if args.sb3_steps:
        rate = sb3_rate(args.sb3_steps, args.seed)
        print(f"SB3 MaskablePPO (goldrush_train.gold.ppo's setup, 8 games in subprocesses vs greedy, "
              f"{args.sb3_steps:,} steps): {rate:,.0f} learner steps/s", flush=True)
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average {load} after the run", flush=True)


if __name__ == "__main__":
    main()
