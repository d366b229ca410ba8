"""Steps per second of random legal play through the environments, against
PettingZoo's connect_four_v3 ``env()`` measured in the same run.

Each repeat plays whole games with uniformly random legal actions read from
the action mask, reading the observation every step as a learner would
(``env.last()`` in the AEC API). Prints the median of the repeats with min
and max, and the ratio to connect_four; it asserts nothing.

    python benchmarks/bench_env.py            # full run
    python benchmarks/bench_env.py --quick    # a few seconds, for CI
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

import numpy as np
from pettingzoo.classic import connect_four_v3

import goldrush_env


def aec_steps_per_second(make: Callable[[], object], steps: int, seed: int) -> float:
    env = make()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    done_steps = 0
    start = time.perf_counter()
    while done_steps < steps:
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            done_steps += 1
        env.reset()
    return done_steps / (time.perf_counter() - start)


def gym_steps_per_second(steps: int, seed: int, **config) -> float:
    env = goldrush_env.GoldRushEnv(**config)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        legal = np.flatnonzero(env.action_masks())
        _, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
        if terminated or truncated:
            env.reset()
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20_000, help="steps per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="2,000 steps, 2 repeats")
    args = parser.parse_args(argv)
    if args.quick:
        args.steps, args.repeats = 2_000, 2

    cases = {
        "connect_four_v3 env() (reference)": lambda s: aec_steps_per_second(connect_four_v3.env, args.steps, s),
        "gold env(), 2 players": lambda s: aec_steps_per_second(goldrush_env.env, args.steps, s),
        "gold raw_env, 2 players": lambda s: aec_steps_per_second(goldrush_env.raw_env, args.steps, s),
        "gold env(), 4 players, human memory": lambda s: aec_steps_per_second(
            lambda: goldrush_env.env(num_players=4, memory="human"), args.steps, s),
        "gold Gymnasium env, 2p, random opponent": lambda s: gym_steps_per_second(args.steps, s),
    }
    print(f"random legal play, {args.steps} steps x {args.repeats} repeats (median, min, max)")
    reference = None
    for name, run in cases.items():
        samples = [run(args.seed + r) for r in range(args.repeats)]
        median = statistics.median(samples)
        reference = reference or median
        print(f"  {name:<42} {median:>9,.0f} steps/s  (min {min(samples):,.0f}, max {max(samples):,.0f})"
              f"  x{median / reference:.2f}")


if __name__ == "__main__":
    main()
