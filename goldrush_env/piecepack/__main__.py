"""``python -m goldrush_env.piecepack`` (or ``python -m goldrush_env --game piecepack``): deal a seeded game and
print a game of random legal actions, event by event."""

from __future__ import annotations

import argparse

import numpy as np

from goldrush_env.piecepack.actions import describe
from goldrush_env.piecepack.components import MAX_PLAYERS, MIN_PLAYERS
from goldrush_env.piecepack.engine import Game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m goldrush_env.piecepack", description=__doc__)
    parser.add_argument("--players", type=int, default=MIN_PLAYERS, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1))
    parser.add_argument("--seed", type=int, default=0,
                        help="seeds the deal, the dice and the random actions (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.seed < 0:
        parser.error(f"argument --seed: expected an int >= 0, got {args.seed}")

    print(f"A game of Gold Rush on the piecepack between {args.players} seats that act at random (each action "
          f"drawn uniformly from the legal ones), seed {args.seed}.", end="\n\n")
    rng = np.random.default_rng(args.seed)
    game = Game.new(args.players, rng)
    for event in game.events:
        print(event.describe())
    while not game.is_finished:
        seat, legal = game.current_player, game.legal_actions()
        action = legal[rng.integers(len(legal))]
        print(f"seat {seat} chooses {describe(action)}")
        for event in game.step(action):
            print(f"  {event.describe()}")
    scores, winners, _ = game.result()
    print(f"\ngame over, scores {list(scores)}; "
          f"{'winners: seats' if len(winners) > 1 else 'winner: seat'} {', '.join(map(str, winners))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
