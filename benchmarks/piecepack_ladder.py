"""The Gold Rush (piecepack) ladder: one player alone against a field of another.

The lone player (``--alone``, the economist by default) sits with the field's
players in the other seats; its seat turns round from game to game, and game
``i`` is dealt from seed ``seed + i``. A shared win counts as a fraction (1/k
for k winners). Prints the lone player's win share against its fair share 1/n
with a 95% Wilson interval, its *sole* wins (games it won alone) with theirs,
the mean scores, how often every score is 0, and games per second. The fields
(``--fields``) are random players, "idle" players
(``idle``, :class:`goldrush_agents.piecepack.idle.Idle`), which only end their turns,
decline and claim the lowest free plot (docs/piecepack-rules.md §10: doing
nothing is strong in this game, since the last Food never spoils and Food
breaks ties), and economists (for the economist alone, a sanity check: its
seats should share the wins about evenly).

    python benchmarks/piecepack_ladder.py --players 3 --games 200 --seed 0
    python benchmarks/piecepack_ladder.py --players 3 4 --games 1000
    python benchmarks/piecepack_ladder.py --players 3 4 --games 1000 --alone search --fields idle economist --workers 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import time

from goldrush_agents import make_agent
from goldrush_agents.arena import play_game
from goldrush_agents.tournament import wilson_interval


def make(name: str):
    return make_agent(name, game="piecepack")


def _game(job: tuple[str, str, int, int, int]) -> tuple[float, bool, int, float, bool]:
    alone, others, players, seed, i = job
    seat = i % players
    lineup = [make(alone if s == seat else others) for s in range(players)]
    result = play_game(lineup, seed + i, game="piecepack")
    scores, winners = result.scores, result.winners
    return (1 / len(winners) if seat in winners else 0.0, tuple(winners) == (seat,), scores[seat],
            (sum(scores) - scores[seat]) / (players - 1), not any(scores))


def play_field(alone: str, others: str, players: int, games: int, seed: int, workers: int = 1) -> dict:
    """``alone`` at seat ``i % players`` of game ``i``, ``others`` everywhere else."""
    start = time.perf_counter()
    jobs = [(alone, others, players, seed, i) for i in range(games)]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            rows = pool.map(_game, jobs, chunksize=1)
    else:
        rows = [_game(job) for job in jobs]
    wins, sole, alone_score, other_score, blank = (sum(column) for column in zip(*rows))
    return {"games": games, "win_share": wins / games, "interval": wilson_interval(wins, games),
            "sole": sole / games, "sole_interval": wilson_interval(sole, games),
            "alone_score": alone_score / games, "other_score": other_score / games, "all_zero": blank / games,
            "games_per_s": games / (time.perf_counter() - start)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4], choices=[3, 4])
    parser.add_argument("--games", type=int, default=200, help="games per line")
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt from seed + i")
    parser.add_argument("--alone", default="economist", help="the lone player (a name make_agent knows)")
    parser.add_argument("--fields", nargs="+", default=["random", "idle", "economist"],
                        help="the fields to play against, in turn")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, got {args.workers}")
    for name in (args.alone, *args.fields):
        make(name)  # an unknown name is refused before any game

    print("| players | alone | field | games | win share | 95% CI | fair share | sole wins | 95% CI "
          "| mean score (alone / field) | all scores 0 | games/s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for players in args.players:
        for others in args.fields:
            row = play_field(args.alone, others, players, args.games, args.seed, args.workers)
            low, high = row["interval"]
            sole_low, sole_high = row["sole_interval"]
            print(f"| {players} | {args.alone} | {others} | {row['games']} | {row['win_share']:.3f} | "
                  f"[{low:.3f}, {high:.3f}] | {1 / players:.3f} | {row['sole']:.3f} | [{sole_low:.3f}, "
                  f"{sole_high:.3f}] | {row['alone_score']:.2f} / {row['other_score']:.2f} | {row['all_zero']:.2f} "
                  f"| {row['games_per_s']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
