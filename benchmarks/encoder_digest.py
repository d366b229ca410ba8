"""A fingerprint of the piecepack observation encoder: change its code, check that its vectors did not change.

Plays ``--games`` seeded games (3 and 4 players in turn, each seat the economist or random) and encodes, at
every decision, every seat's observation and the global state. Prints how many vectors it encoded, the
SHA-256 of all of them in order, and the encoder's time per observation. Run it before and after a change
to the encoder (for an older commit, from a checkout of it: ``PYTHONPATH=path/to/checkout python
benchmarks/encoder_digest.py``); equal digests mean bitwise the same vectors.

    python benchmarks/encoder_digest.py --games 120
"""

from __future__ import annotations

import argparse
import hashlib
import time

from goldrush_agents import make_agent
from goldrush_agents.piecepack import view_of

from goldrush_env.piecepack.encoder import observation_vector, state_vector
from goldrush_env.piecepack.engine import Game


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=120, help="seeded games to encode (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    digest, observations, states, seconds = hashlib.sha256(), 0, 0, 0.0
    for g in range(args.games):
        n = 3 + g % 2
        game = Game.new(n, seed=g)
        players = [make_agent("economist" if (g + s) % 2 else "random", seed=g * 10 + s, game="piecepack")
                   for s in range(n)]
        while True:
            knowledge = [game.known_to(s) for s in range(n)]
            started = time.perf_counter()
            vectors = [observation_vector(known) for known in knowledge]
            seconds += time.perf_counter() - started
            vectors.append(state_vector(game))
            for vector in vectors:
                digest.update(vector.tobytes())
            observations, states = observations + n, states + 1
            if game.is_over:
                break
            game.step(players[game.current_player].act(view_of(game, game.current_player)))
    result = {"games": args.games, "observations": observations, "states": states, "sha256": digest.hexdigest(),
              "us_per_observation": seconds / observations * 1e6}
    print(f"{args.games} games: {observations:,} observations and {states:,} states, sha256 {result['sha256']}; "
          f"{result['us_per_observation']:.1f} us per observation")
    return result


if __name__ == "__main__":
    main()
