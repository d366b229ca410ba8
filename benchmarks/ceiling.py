"""The ceiling on the quarter table: every player graded against the exact solution (``optimal``).

On the quarter table (16 cards), 2 players, perfect memory, ``optimal`` plays every move with its exact win
share (goldrush_agents.gold.optimal). Each player plays it and plays ``greedy``; ``optimal``'s own share against
``greedy`` is the most any player can get there. Seats swapped evenly, start players rotated, fixed seeds; 95%
Wilson intervals.

    python benchmarks/ceiling.py --games 2000 --cache runs/optimal-quarter.npy
    python benchmarks/ceiling.py --players selfplay,greedy --games 200 --cache runs/optimal-quarter.npy

The first run solves the table (several minutes) and, with ``--cache``, saves its values there (6.5 GB) for
every worker and later run to map instead of solving again.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from goldrush_agents import split_entrants
from goldrush_agents.gold.optimal import solved
from goldrush_agents.tournament import run_tournament

PLAYERS = "random,greedy,expert,ismcts,taught,scratch,selfplay[depth=0],selfplay,optimal"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", default=PLAYERS, help=f"players to grade, comma-separated (default: {PLAYERS})")
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--cache", default=None, help="a .npy file for the solved values (read if there, else written)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    started = time.perf_counter()
    table = solved("quarter", args.cache)  # before the workers start, so that they map the file
    nothing, box = np.zeros(len(table.box), dtype=np.int64), table.box
    first = table.value(nothing, box, 0, 0, 0)  # seat 0 to move at the deal: the first player's value
    print(f"<!-- quarter table: {table.num_configs:,} configurations, {table.num_states:,} values; "
          f"solved in {table.seconds:.0f} s (0: read from --cache); under best play the first player wins "
          f"{first:.5f}, the second {table.value(nothing, box, 1, 0, 0):.5f} -->")
    optimal = "optimal" if args.cache is None else f"optimal[cache='{args.cache}']"
    print("| player | against optimal | 95% CI | against greedy | 95% CI |")
    print("|---|---|---|---|---|")
    for player in split_entrants(args.players):
        cells = []
        for opponent in (optimal, "greedy"):
            entrant = optimal if player == "optimal" else player
            if entrant == opponent:
                cells.append("0.500 | — ")
                continue
            result = run_tournament([entrant, opponent], num_players=2, games=args.games, seed=args.seed,
                                    workers=args.workers, table="quarter")
            pairing = next(p for p in result.pairings if p.alone == entrant)
            low, high = pairing.interval
            cells.append(f"{pairing.win_share:.3f} | [{low:.3f}, {high:.3f}] ")
        print(f"| {player} | " + "| ".join(cells) + "|", flush=True)
    print(f"<!-- {time.perf_counter() - started:.0f} s -->")


if __name__ == "__main__":
    main()
