"""The strength ladder: each agent against the one below it, at each number of players.

For every player count, each pair of the ladder (by default greedy v random,
expert v greedy) plays a tournament: seats swapped evenly, start players
rotated, fixed seeds. Prints the win share of the stronger agent alone against
the weaker in every other seat, with a 95% Wilson interval, its fair share (1/n)
and whether the interval lies above it; then the other direction, the weaker
alone against the stronger, which an equal player would also win 1/n of (with
two players it is one less the first, and the row shows a dash).

    python benchmarks/ladder.py --players 2 --games 2000
    python benchmarks/ladder.py --players 3 4 5 --games 2000 --pairs taught/greedy --batched
    python benchmarks/ladder.py --players 2 --games 500 --pairs ismcts/expert   # the search player (slow)
    python benchmarks/ladder.py --quick          # a few seconds, for CI
"""

from __future__ import annotations

import argparse
import time

from goldrush_agents import split_entrants
from goldrush_agents.tournament import run_tournament

LADDER = "greedy/random,expert/greedy"
"""The default rungs, stronger/weaker."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing (and per direction, 3+ players)")
    parser.add_argument("--memory", default="perfect", choices=["perfect", "human"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--pairs", default=LADDER,
                        help=f"rungs to play, stronger/weaker, comma-separated (default: {LADDER})")
    parser.add_argument("--batched", action="store_true",
                        help="play each tournament on the batched engine (perfect memory; fast for random, greedy "
                             "and trained models)")
    parser.add_argument("--quick", action="store_true", help="20 games per pairing, 2 players")
    args = parser.parse_args(argv)
    rungs = [tuple(pair.split("/")) for pair in split_entrants(args.pairs)]
    if not rungs or any(len(rung) != 2 for rung in rungs):
        parser.error(f"--pairs takes stronger/weaker pairs separated by commas, got {args.pairs!r}")
    if args.quick:
        args.players, args.games = [2], 20

    print("| players | stronger | weaker | games | win share | 95% CI | fair share | significant "
          "| weaker alone | 95% CI |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for players in args.players:
        for stronger, weaker in rungs:
            start = time.perf_counter()
            result = run_tournament([stronger, weaker], num_players=players, games=args.games, seed=args.seed,
                                    workers=args.workers, memory=args.memory, batched=args.batched)
            pairing = next(p for p in result.pairings if p.alone == stronger)
            other = next((p for p in result.pairings if p.alone == weaker), None)  # none with 2 players
            low, high = pairing.interval
            fair = 1 / players
            print(f"| {players} | {stronger} | {weaker} | {pairing.games} | {pairing.win_share:.3f} | "
                  f"[{low:.3f}, {high:.3f}] | {fair:.3f} | {'yes' if low > fair else 'no'} | "
                  + ("— | — |" if other is None else
                     f"{other.win_share:.3f} | [{other.interval[0]:.3f}, {other.interval[1]:.3f}] |")
                  + f"  <!-- {time.perf_counter() - start:.0f} s -->", flush=True)


if __name__ == "__main__":
    main()
