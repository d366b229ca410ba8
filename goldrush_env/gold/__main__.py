"""``python -m goldrush_env.gold`` (or ``python -m goldrush_env``): deal a seeded table and print a game of random
flips, event by event."""

from __future__ import annotations

import argparse

import numpy as np

from goldrush_env.gold.cards import MAX_PLAYERS, MIN_PLAYERS
from goldrush_env.gold.engine import Game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m goldrush_env.gold", description=__doc__)
    parser.add_argument("--players", type=int, default=2, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1))
    parser.add_argument("--seed", type=int, default=0,
                        help="seeds the deal and the random flips (default: %(default)s)")
    parser.add_argument("--max-turns", type=int, default=None, help="turn limit (D4); none by default")
    args = parser.parse_args(argv)
    if args.seed < 0:
        parser.error(f"argument --seed: expected an int >= 0, got {args.seed}")
    if args.max_turns is not None and args.max_turns < 1:
        parser.error(f"argument --max-turns: expected an int >= 1, got {args.max_turns}")

    print(f"A game of Gold between {args.players} seats that flip at random (each flip drawn uniformly from the "
          f"legal ones), seed {args.seed}.\nThe whole table is shown, hidden cards included; positions are "
          "numbered 0-63 row by row.", end="\n\n")
    rng = np.random.default_rng(args.seed)
    game = Game.shuffled(args.players, rng, max_turns=args.max_turns)
    print(game, end="\n\n")
    while not game.is_finished:
        legal = game.legal_positions()
        print(game.flip(legal[rng.integers(len(legal))]).describe())
    print()
    print(game)  # its last line says how the game ended and the scores
    winners = ", ".join(str(seat) for seat in game.winners)
    print(f"gold cards {game.gold_cards}; {'winners: seats' if len(game.winners) > 1 else 'winner: seat'} {winners}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
