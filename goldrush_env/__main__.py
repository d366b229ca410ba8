"""``python -m goldrush_env [--game NAME] [--players N] [--seed S]``: a game of any installed game, every seat
acting at random, printed move by move from the game protocol alone (:mod:`goldrush_env.protocol`).

Each move is the action in the game's words (its spec's ``action_text``) and, where the rules' ``step`` returns
events that describe themselves (a ``describe()`` method), what it caused.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.games import DEFAULT_GAME, names, spec


def _described(events: object) -> list[str]:
    events = events if isinstance(events, (list, tuple)) and not hasattr(events, "describe") else [events]
    return [event.describe() for event in events if hasattr(event, "describe")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m goldrush_env", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=DEFAULT_GAME, help="the game (default: %(default)s)")
    parser.add_argument("--players", type=int, default=None, help="the number of players (default: the game's)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the deal and the random moves (default: 0)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.game not in names():
        print(f"python -m goldrush_env: --game must be one of {names()}, got {args.game!r}", file=sys.stderr)
        return 2
    game_spec = spec(args.game)
    players = game_spec.default_players if args.players is None else args.players
    try:
        game_spec.check_players(players, "--players")
    except GoldrushEnvError as error:
        print(f"python -m goldrush_env: {error}", file=sys.stderr)
        return 2
    if args.seed < 0:
        parser.error(f"argument --seed: expected an int >= 0, got {args.seed}")
    print(f"A game of {game_spec.title} between {players} seats that act at random (each action drawn uniformly "
          f"from the legal ones), seed {args.seed}.", end="\n\n")
    rng = np.random.default_rng(args.seed)
    game = game_spec.load("rules").new(players, rng)
    while not game.is_finished:
        seat = game.current_player
        legal = np.flatnonzero(game.legal_mask())
        action = int(legal[rng.integers(len(legal))])
        print(f"seat {seat}: {game_spec.describe_action(action, game.known_to(seat))}")
        for line in _described(game.step(action)):
            print(f"  {line}")
    scores, winners, _ = game.result()
    ending = "game over" if game.is_over else "stopped at the turn limit"
    print(f"\n{ending} after {game.turn} turns, scores {list(scores)}; "
          f"{'winners: seats' if len(winners) > 1 else 'winner: seat'} {', '.join(map(str, winners))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
