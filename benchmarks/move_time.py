"""Time per move of Gold players: each plays a few 2-player games against greedy, and the seconds each of its own
moves took are averaged (wall clock, one process; the machine's load counts, so compare players of one run).

    python benchmarks/move_time.py --agents selfplay,selfplay[depth=0],ismcts --games 3
"""

from __future__ import annotations

import argparse
import time

from goldrush_agents import make_agent, split_entrants
from goldrush_env.gold import raw_env


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", default="selfplay,selfplay[depth=0],ismcts", help="players, comma-separated")
    parser.add_argument("--games", type=int, default=3, help="games per player (seeds 0, 1, ...)")
    parser.add_argument("--table", default="full")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    env = raw_env(num_players=2, table=args.table)
    print("| player | moves | ms a move |")
    print("|---|---|---|")
    for name in split_entrants(args.agents):
        player, greedy = make_agent(name, seed=0), make_agent("greedy", seed=1)
        seconds, moves = 0.0, 0
        for seed in range(args.games):
            env.reset(seed=seed)
            while not env.game.is_finished:
                seat = env.game.current_player
                view = env.view(seat)
                if seat == seed % 2:
                    started = time.perf_counter()
                    position = player.act(view)
                    seconds += time.perf_counter() - started
                    moves += 1
                else:
                    position = greedy.act(view)
                env.step_from_view(position)
        print(f"| {name} | {moves} | {1000 * seconds / moves:.1f} |", flush=True)


if __name__ == "__main__":
    main()
