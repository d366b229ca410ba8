"""Two versions of the self-play search (``goldrush_agents.gold.turns``), timed turn about in one process: whole
games on the full table, every flip searched one turn (and, in a third case, two turns) ahead, the leaves valued
by a constant so that only the search is timed. Prints each version's median seconds per case and the ratio.

    git show 819244b:agents/gold/turns.py > /tmp/turns_before.py
    python experiments/2026-12-08-search-rules/search_ab.py /tmp/turns_before.py agents/gold/turns.py
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def load(path: str, name: str, folder: str):
    """``path`` as the module ``name``, from a copy in ``folder``: numba caches a module's compiled functions beside
    its file, so a copy keeps them apart from those of the module that file is (which could not read them)."""
    copy = Path(folder) / f"{name}.py"
    shutil.copyfile(path, copy)
    spec = importlib.util.spec_from_file_location(name, copy)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba's cache and the NamedTuples find the module by name
    spec.loader.exec_module(module)
    return module


def seconds(turns, num_players: int, games: int, depth: int) -> float:
    """Seconds to play ``games`` self-play games to their end with ``turns``' search."""
    from goldrush_env.gold.cards import TABLES
    from goldrush_env.streams import seed_streams

    search = turns.Search(num_players, TABLES["full"].rush_at, lambda rows: np.full((len(rows), num_players),
                                                                                     1.0 / num_players))
    batch, streams = turns.Games.new("full", num_players, np.arange(games) % num_players), seed_streams(0, games)
    started = time.perf_counter()
    while not batch.done.all():
        _, mover = search.options(batch, depth)
        search.play(batch, mover, streams, 0.3, 0.05)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", help="a copy of turns.py")
    parser.add_argument("after", help="another")
    parser.add_argument("--games", type=int, default=256, help="games a batch (a quarter of them in the two-turn case)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    for name in ("games", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    folder = tempfile.mkdtemp(prefix="search_ab_")
    versions = [load(path, f"_turns_{i}", folder) for i, path in enumerate((args.before, args.after))]
    cases = [(2, args.games, 1), (4, args.games, 1), (2, max(1, args.games // 32), 2)]
    for turns in versions:  # compile both before timing
        for players, _, depth in cases:
            seconds(turns, players, 2, depth)
    times = [[[] for _ in cases] for _ in versions]
    for _ in range(args.repeats):
        for v, turns in enumerate(versions):
            for c, (players, games, depth) in enumerate(cases):
                times[v][c].append(seconds(turns, players, games, depth))
    for c, (players, games, depth) in enumerate(cases):
        before, after = (statistics.median(times[v][c]) for v in range(2))
        print(f"{players} players, {games} games, depth {depth}: before {before:.2f} s, after {after:.2f} s, "
              f"after/before {after / before:.2f}")
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
