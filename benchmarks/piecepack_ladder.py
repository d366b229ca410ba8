"""The Gold Rush (piecepack) ladder: the economist against random players, and against itself.

One economist sits with random players in the other seats; its seat turns
round from game to game, and game ``i`` is dealt from seed ``seed + i``. A
shared win counts as a fraction (1/k for k winners). Prints the economist's
win share against its fair share 1/n with a 95% Wilson interval, the mean
scores, how often every score is 0, and games per second; then the
economist against "idle" players, which only end their turns, decline and
claim the lowest free plot (docs/piecepack-rules.md §10: doing nothing is strong in this
game, since the last Food never spoils and Food breaks ties), and economist
self-play as a sanity check (its seats should share the wins about evenly).

    python benchmarks/piecepack_ladder.py --players 3 --games 200 --seed 0
    python benchmarks/piecepack_ladder.py --players 3 4 --games 1000
"""

from __future__ import annotations

import argparse
import time

from goldrush_agents import make_agent
from goldrush_agents.arena import play_game
from goldrush_agents.tournament import wilson_interval

from goldrush_env.piecepack import actions as A

PASSES = (A.END_DEVELOPMENT, A.END_FREE_TRADE, A.DECLINE, A.WAREHOUSE_DECLINE)


class Idle:
    """The do-nothing baseline of §10 (not a registered player: a yardstick for this benchmark only)."""

    name = "idle"

    def reset(self, seed=None):
        pass

    def act(self, view):
        return next((a for a in PASSES if view.action_mask[a]), int(view.action_mask.argmax()))


def make(name: str):
    return Idle() if name == "idle" else make_agent(name, game="piecepack")


def play_field(alone: str, others: str, players: int, games: int, seed: int) -> dict:
    """``alone`` at seat ``i % players`` of game ``i``, ``others`` everywhere else."""
    wins = alone_score = other_score = blank = 0.0
    start = time.perf_counter()
    for i in range(games):
        seat = i % players
        lineup = [make(alone if s == seat else others) for s in range(players)]
        result = play_game(lineup, seed + i, game="piecepack")
        scores, winners = result.scores, result.winners
        wins += 1 / len(winners) if seat in winners else 0.0
        alone_score += scores[seat]
        other_score += (sum(scores) - scores[seat]) / (players - 1)
        blank += not any(scores)
    return {"games": games, "win_share": wins / games, "interval": wilson_interval(wins, games),
            "alone_score": alone_score / games, "other_score": other_score / games, "all_zero": blank / games,
            "games_per_s": games / (time.perf_counter() - start)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4], choices=[3, 4])
    parser.add_argument("--games", type=int, default=200, help="games per line")
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt from seed + i")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")

    print("| players | alone | field | games | win share | 95% CI | fair share | mean score (alone / field) "
          "| all scores 0 | games/s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for players in args.players:
        for alone, others in (("economist", "random"), ("economist", "idle"), ("economist", "economist")):
            row = play_field(alone, others, players, args.games, args.seed)
            low, high = row["interval"]
            print(f"| {players} | {alone} | {others} | {row['games']} | {row['win_share']:.3f} | "
                  f"[{low:.3f}, {high:.3f}] | {1 / players:.3f} | {row['alone_score']:.2f} / "
                  f"{row['other_score']:.2f} | {row['all_zero']:.2f} | {row['games_per_s']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
