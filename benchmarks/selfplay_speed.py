"""Self-play games a second: the compiled batch of :mod:`goldrush_agents.gold.turns` against one game at a time.

Each table size plays whole self-play games on the full table as ``python -m goldrush_train.gold.selfplay`` plays
them (its ``play_batch``: one turn of expectimax at every flip, the network valuing every leaf, exploration 0.3),
with the shipped ``selfplay`` model of that size (a fresh network of the same shape where none ships). The
reference, measured in the same run, is the same search and network on one 2-player game at a time (a batch of
one): what the batch gains. Prints the median of the repeats and the ratio; it asserts nothing.

    python benchmarks/selfplay_speed.py                 # 2 to 5 players, 256 games a batch
    python benchmarks/selfplay_speed.py --players 2 --games 512 --repeats 5
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def network(num_players: int):
    """The shipped model's value head, or a fresh network's where none ships."""
    from goldrush_agents.gold.selfplay import Network, shipped_model

    path = shipped_model(num_players)
    if path.is_file():
        return Network(path).value
    import torch

    from goldrush_train.gold.selfplay import NumpyValue, make_net

    torch.manual_seed(0)
    return NumpyValue(make_net(128, num_players), num_players)


def batched(num_players: int, games: int, seed: int, batch: int | None = None) -> float:
    """Games a second of ``games`` self-play games played ``batch`` at a time (default: all in one batch)."""
    from goldrush_env.gold.cards import TABLES
    from goldrush_env.streams import seed_streams
    from goldrush_agents.gold.turns import Search
    from goldrush_train.gold.selfplay import play_batch

    batch = batch or games
    search = Search(num_players, TABLES["full"].rush_at, network(num_players))
    first_seats, streams = np.arange(games) % num_players, seed_streams(seed, games)
    started = time.perf_counter()
    for start in range(0, games, batch):
        play_batch(search, "full", first_seats[start:start + batch], streams[start:start + batch], 0.3, 0.05, 0.7)
    return games / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--games", type=int, default=256, help="games a batch")
    parser.add_argument("--reference-games", type=int, default=10, help="games of the one-at-a-time reference")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    for name in ("games", "reference_games", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if any(n not in (2, 3, 4, 5) for n in args.players):
        parser.error(f"--players must be from 2 to 5, got {args.players}")
    batched(2, 8, 0)  # compile (cached on disk after the first run on a machine)
    reference = statistics.median(batched(2, args.reference_games, seed, batch=1) for seed in range(args.repeats))
    print(f"one 2-player game at a time (a batch of one): {reference:.1f} games/s")
    print("| players | games/s | x one at a time |")
    print("|---|---|---|")
    for n in args.players:
        speed = statistics.median(batched(n, args.games, seed) for seed in range(args.repeats))
        print(f"| {n} | {speed:.1f} | {speed / reference:.1f} |", flush=True)


if __name__ == "__main__":
    main()
