"""``python -m goldrush_env``: deal a seeded table and print a game of random flips, event by event."""

from __future__ import annotations

import argparse

import numpy as np

from goldrush_env.cards import MAX_PLAYERS, MIN_PLAYERS
from goldrush_env.engine import Game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m goldrush_env", description=__doc__)
    parser.add_argument("--players", type=int, default=2, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1))
    parser.add_argument("--seed", type=int, default=0, help="seeds the deal and the random flips")
    parser.add_argument("--max-turns", type=int, default=None, help="turn limit (D4); none by default")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    game = Game.shuffled(args.players, rng, max_turns=args.max_turns)
    print(game, end="\n\n")
    while not game.is_finished:
        legal = game.legal_positions()
        print(game.flip(legal[rng.integers(len(legal))]).describe())
    print()
    print(game)
    ending = "over" if game.is_over else "truncated at the turn limit"
    print(f"game {ending} after {game.turn} turns; gold cards {game.gold_cards}; winners {game.winners}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
