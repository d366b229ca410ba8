"""Time per move of players: each plays a few games against a field of one opponent, and the seconds each of its
own moves took are averaged (wall clock, one process; the machine's load counts, so compare players of one run).
The player's seat turns round from game to game; game ``i`` is dealt from seed ``i``.

    python benchmarks/move_time.py --agents selfplay,selfplay[depth=0],ismcts --games 3
    python benchmarks/move_time.py --game piecepack --players 4 --agents taught,search --against economist
"""

from __future__ import annotations

import argparse
import time

from goldrush_agents import make_agent, split_entrants

from goldrush_env.games import names, spec

AGAINST = {"gold": "greedy", "piecepack": "economist"}
"""The field each game plays against unless ``--against`` names another."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="gold", choices=names())
    parser.add_argument("--agents", default="selfplay,selfplay[depth=0],ismcts", help="players, comma-separated")
    parser.add_argument("--against", default=None, help="the field's player (default: greedy for gold, economist "
                                                        "for piecepack)")
    parser.add_argument("--players", type=int, default=None, help="seats (default: the game's default)")
    parser.add_argument("--games", type=int, default=3, help="games per player (seeds 0, 1, ...)")
    parser.add_argument("--table", default=None, help="Gold's table (full, half, quarter)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    rules = spec(args.game)
    players = rules.default_players if args.players is None else args.players
    config = {} if args.table is None else {"table": args.table}
    env = rules.raw_env(num_players=players, **config)
    against = args.against or AGAINST[args.game]
    print("| player | moves | ms a move |")
    print("|---|---|---|")
    for name in split_entrants(args.agents):
        player = make_agent(name, seed=0, game=args.game)
        field = [make_agent(against, seed=1 + s, game=args.game) for s in range(players)]
        seconds, moves = 0.0, 0
        for seed in range(args.games):
            env.reset(seed=seed)
            while not env.game.is_finished:
                seat = env.game.current_player
                view = env.view(seat)
                if seat == seed % players:
                    started = time.perf_counter()
                    action = player.act(view)
                    seconds += time.perf_counter() - started
                    moves += 1
                else:
                    action = field[seat].act(view)
                env.step_from_view(action)
        print(f"| {name} | {moves} | {1000 * seconds / moves:.2f} |", flush=True)


if __name__ == "__main__":
    main()
