"""How fast goldrush-env plays, against PettingZoo's connect_four_v3 ``env()`` measured in the same run.

Every case plays uniformly random legal moves (read from the action mask, the
engine's own for the engine alone), as a learner loop would, and is timed
over whole games with dealing included:

* the engine alone (``Game``): flips per second;
* the AEC ``env()`` and ``raw_env``: steps per second, reading ``env.last()``
  (the observation) every step; ``env()`` also with 4 players and human memory;
* the second game, Gold Rush for the piecepack: its AEC ``env()`` with 3 and 4
  players, steps per second;
* the Gymnasium env with a random and a greedy opponent, with version 0's
  options and over kinds: learner steps per second (each also plays the
  opponents' flips; these opponents play on the compiled kernel);
* the batched engine (the compiled kernel) on 8,192 games: flips per second,
  games dealt afresh as they end;
* the vector env (4,096 games, the learner's actions drawn from its masks in
  numpy every step): learner steps per second with the default kinds action
  and observation against random, greedy and expert opponents, with the plain
  2,102-float observation against random and greedy opponents, and at 4
  players with human memory.

Each is printed as the median of the repeats (min, max) and as a ratio to
connect_four. Then the peak memory of each case (traced by tracemalloc in a
separate short run, so it does not slow the timings) and profiles of where
an ``env()`` step spends its time, Gold's and Gold Rush's. It asserts
nothing: these machines are shared and noisy, so read the ratios.

    python benchmarks/bench.py            # about four minutes
    python benchmarks/bench.py --quick    # a few seconds, for CI
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import resource
import statistics
import time
import tracemalloc
from typing import Any, Callable

import numpy as np
from pettingzoo.classic import connect_four_v3

import goldrush_env
import goldrush_env.gold
from goldrush_agents.gold.batched import batched_policy
from goldrush_env.gold.batched import BatchedGames, random_in_masks
from goldrush_env.gold.engine import Game
from goldrush_env.piecepack import aec as piecepack_aec
from goldrush_env.gold.vector import GoldVectorEnv

V0 = {"action": "positions", "observation": "plain", "reward": "win"}
"""Gold's version 0 defaults, which the figures the docs quote were measured with; the cases marked "kinds (v1
defaults)" measure what the environments do when given no option."""


def aec_steps(make: Callable[[], object], steps: int, seed: int) -> float:
    """Random legal actions through an AEC env, reading ``last()`` every step, as a learner loop does."""
    env = make()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        for _ in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            done += 1
        env.reset()
    return done / (time.perf_counter() - start)


def engine_flips(steps: int, seed: int) -> float:
    """Random legal flips through ``Game`` alone, two players; draws made up front."""
    rng = np.random.default_rng(seed)
    draws = rng.random(steps + 200).tolist()
    flips = 0
    start = time.perf_counter()
    while flips < steps:
        game = Game.new(2, rng)
        while not game.is_over:
            legal = np.flatnonzero(game.legal_mask())
            game.step(int(legal[int(draws[flips] * len(legal))]))
            flips += 1
    return flips / (time.perf_counter() - start)


def gym_steps(steps: int, seed: int, opponents: str, **options: Any) -> float:
    from goldrush_agents import make_agent

    env = goldrush_env.gold.GoldEnv(opponents=make_agent(opponents, seed=seed), **options)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        legal = np.flatnonzero(env.action_masks())
        _, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
        if terminated or truncated:
            env.reset()
    return steps / (time.perf_counter() - start)


def batched_flips(steps: int, seed: int, num_games: int = 8192) -> float:
    games = BatchedGames(num_games, 2)
    rng = np.random.default_rng(seed)
    games.reset(seed=seed)
    games.step(games.random_positions(rng))  # the first step compiles the kernel (or loads it from the cache)
    flips = 0
    start = time.perf_counter()
    while flips < steps:
        finished = games.is_finished
        if finished.any():
            games.reset(games=finished)
        flips += int((games.step(games.random_positions(rng)).outcome >= 0).sum())
    return flips / (time.perf_counter() - start)


def vector_steps(steps: int, seed: int, opponents: str, num_envs: int = 4096, **options: Any) -> float:
    env = GoldVectorEnv(num_envs, opponents=batched_policy(opponents), autoreset_mode="same_step", **options)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    env.step(random_in_masks(env.action_masks(), rng.random(num_envs)))  # compiled (or loaded) before the clock
    done = 0
    start = time.perf_counter()
    while done < steps:
        env.step(random_in_masks(env.action_masks(), rng.random(num_envs)))
        done += num_envs
    return done / (time.perf_counter() - start)


def cases(steps: int, batch_steps: int) -> dict[str, tuple[str, Callable[[int], float]]]:
    """Name -> (unit, run(seed) -> rate)."""
    table = {
        "connect_four_v3 env() (reference)": ("steps", lambda s: aec_steps(connect_four_v3.env, steps, s)),
        "engine alone (Game), 2 players": ("flips", lambda s: engine_flips(5 * steps, s)),
        "AEC env(), 2 players": ("steps", lambda s: aec_steps(lambda: goldrush_env.gold.env(**V0), steps, s)),
        "AEC raw_env, 2 players": ("steps", lambda s: aec_steps(lambda: goldrush_env.gold.raw_env(**V0), steps, s)),
        "AEC env() over kinds (v1 defaults), 2 players": ("steps", lambda s: aec_steps(
            goldrush_env.gold.env, steps, s)),
        "AEC env(), 4 players, human memory": ("steps", lambda s: aec_steps(
            lambda: goldrush_env.gold.env(num_players=4, memory="human", **V0), steps, s)),
        "piecepack AEC env(), 3 players": ("steps", lambda s: aec_steps(
            lambda: piecepack_aec.env(num_players=3), steps // 2, s)),
        "piecepack AEC env(), 4 players": ("steps", lambda s: aec_steps(
            lambda: piecepack_aec.env(num_players=4), steps // 2, s)),
        "Gymnasium env, random opponent": ("steps", lambda s: gym_steps(steps, s, "random", seat=0, **V0)),
        "Gymnasium env, greedy opponent": ("steps", lambda s: gym_steps(steps // 2, s, "greedy", seat=0, **V0)),
        "Gymnasium env over kinds (v1 defaults), random opponent": ("steps", lambda s: gym_steps(steps, s, "random")),
        "Gymnasium env over kinds (v1 defaults), greedy opponent": ("steps", lambda s: gym_steps(steps, s, "greedy")),
        "batched engine, 8192 games": ("flips", lambda s: batched_flips(4 * batch_steps, s)),
    }
    kinds = {"action": "kinds", "observation": "kinds"}
    plain = {"action": "positions", "observation": "plain"}
    for observation, opponents, share in (("kinds", "random", 1), ("kinds", "greedy", 2), ("kinds", "expert", 4),
                                          ("plain", "random", 2), ("plain", "greedy", 4)):
        options = kinds if observation == "kinds" else plain
        name = f"vector env, 4096 games, {observation}, {opponents} opponents"
        table[name] = ("steps", lambda s, o=opponents, k=share, x=options: vector_steps(batch_steps // k, s, o, **x))
    table["vector env, 4096 games, kinds, 4 players, human memory"] = ("steps", lambda s: vector_steps(
        batch_steps // 2, s, "random", num_players=4, memory="human", **kinds))
    return table


def peak_memory(run: Callable[[int], float]) -> float:
    """MiB at the peak of Python and numpy allocations during one run."""
    tracemalloc.start()
    try:
        run(0)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def profile_env_step(steps: int, make: Callable[[], object] = lambda: goldrush_env.gold.env(**V0),
                     label: str = "env()") -> str:
    """The functions where a step of the AEC env ``make`` builds (Gold's ``env()`` by default) spends its own time,
    with their shares."""
    profiler = cProfile.Profile()
    profiler.enable()
    aec_steps(make, steps, 0)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=io.StringIO())
    total = stats.total_tt
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:12]
    lines = [f"profile of {steps:,} {label} steps with last() and a random legal action "
             f"(own time per function, {total:.2f} s under the profiler):"]
    for (filename, line, name), (_, calls, own, _, _) in rows:
        where = filename.split("site-packages/")[-1].split("/work/main/")[-1]
        lines.append(f"  {100 * own / total:5.1f}%  {calls:>8,} calls  {name} ({where}:{line})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20_000, help="steps per repeat of the single-game cases")
    parser.add_argument("--batch-steps", type=int, default=2_000_000,
                        help="learner steps per repeat of the fastest vector env case (the batched engine: 4 times as "
                             "many flips)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="tiny runs, 1 repeat (checks that it works)")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="run only the cases whose name holds TEXT (and the reference), without the memory and "
                             "profile sections; may be given more than once")
    args = parser.parse_args(argv)
    if args.quick:
        args.steps, args.batch_steps, args.repeats = 1_000, 40_000, 1

    table = cases(args.steps, args.batch_steps)
    if args.only:
        first = next(iter(table))
        table = {name: case for name, case in table.items()
                 if name == first or any(text in name for text in args.only)}
    print(f"random legal play, median of {args.repeats} repeats (min, max); ratio to connect_four_v3 env()")
    reference = None
    for name, (unit, run) in table.items():
        samples = [run(args.seed + r) for r in range(args.repeats)]
        median = statistics.median(samples)
        reference = reference or median
        print(f"  {name:<54} {median:>12,.0f} {unit}/s  (min {min(samples):,.0f}, max {max(samples):,.0f})"
              f"  x{median / reference:.2f}", flush=True)
    if args.only:
        return

    small = cases(max(args.steps // 10, 200), max(args.batch_steps // 20, 20_000))
    print("\npeak memory traced during a short run of each case (Python and numpy allocations):")
    for name, (_, run) in small.items():
        print(f"  {name:<54} {peak_memory(run):8.1f} MiB", flush=True)
    print(f"  whole process, maximum resident set: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    print()
    print(profile_env_step(args.steps))
    print()
    print(profile_env_step(args.steps, lambda: piecepack_aec.env(num_players=3), "Gold Rush env() (3 players)"))


if __name__ == "__main__":
    main()
