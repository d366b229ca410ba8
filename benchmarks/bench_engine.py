"""Random flips per second through the rules engine alone, on one core.

Each repeat deals fresh shuffled tables and plays them to the end with
uniformly random legal flips; the time includes dealing. It also times
``Game.copy()`` on mid-game positions (what search players pay per clone).
Prints the median of the repeats with min and max; it asserts nothing.

    python benchmarks/bench_engine.py            # full run
    python benchmarks/bench_engine.py --quick    # a few seconds, for CI
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from goldrush_env.engine import Game


def random_flips_per_second(num_players: int, games: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    # Draw the random numbers up front so the loop times the engine, not the generator.
    draws = rng.random(games * 200).tolist()
    start = time.perf_counter()
    flips = 0
    for _ in range(games):
        game = Game.shuffled(num_players, rng)
        while not game.is_over:
            legal = game.legal_positions()
            game.flip(legal[int(draws[flips] * len(legal))])
            flips += 1
    return flips / (time.perf_counter() - start)


def copies_per_second(games: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    positions = []
    for _ in range(games):
        game = Game.shuffled(2, rng)
        for _ in range(40):
            legal = game.legal_positions()
            game.flip(legal[rng.integers(len(legal))])
        positions.append(game)
    start = time.perf_counter()
    for game in positions:
        for _ in range(100):
            game.copy()
    return 100 * len(positions) / (time.perf_counter() - start)


def summary(samples: list[float]) -> str:
    return f"{statistics.median(samples):>11,.0f} /s  (min {min(samples):,.0f}, max {max(samples):,.0f})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="100 games, 3 repeats")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.repeats = 100, 3

    print(f"engine, random legal flips, {args.games} games x {args.repeats} repeats (median, min, max)")
    for players in (2, 3, 4, 5):
        samples = [random_flips_per_second(players, args.games, args.seed + r) for r in range(args.repeats)]
        print(f"  {players} players: {summary(samples)} flips")
    samples = [copies_per_second(max(args.games // 20, 5), args.seed + r) for r in range(args.repeats)]
    print(f"  Game.copy():{summary(samples)} copies")


if __name__ == "__main__":
    main()
