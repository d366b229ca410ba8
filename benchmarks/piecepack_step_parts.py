"""Where a Gold Rush ``env()`` step goes: its parts timed one by one, against connect_four_v3 in the same run.

The same random games (3 players, random legal actions drawn beforehand) are replayed through each layer, adding
one part at a time, as ``env()`` takes them:

* the rules alone (``Game.step_legal``);
* and the compiled copy of the game following it (``kernel.step``, with the production roll of a new round);
* and the legal mask (``kernel.legal_mask``), as the environment asks for it every step;
* and the acting seat's observation (``kernel.observation``, as ``env.last()`` asks for it);
* the whole AEC ``env()`` as ``benchmarks/bench.py`` plays it (random legal actions read from the mask,
  ``last()`` every step), and the same ``env()`` with the observation replaced by a copy of a fixed vector: what a
  step would cost if the observation cost nothing.

Each part's cost is the difference between two rows. A deterministic profiler (``bench.py``'s) charges its own
overhead to every call, so it understates the parts made of few calls; the differences here do not. Prints the
median of the repeats in microseconds a step and steps a second with the ratio to connect_four; asserts nothing.

    python benchmarks/piecepack_step_parts.py              # about 15 seconds
    python benchmarks/piecepack_step_parts.py --games 4 --repeats 1
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

import numpy as np
from pettingzoo.classic import connect_four_v3

from goldrush_env.piecepack import aec, kernel
from goldrush_env.piecepack.actions import NUM_ACTIONS
from goldrush_env.piecepack.encoder import OBSERVATION_SIZE
from goldrush_env.piecepack.engine import Game


def aec_steps(make, steps: int, seed: int) -> float:
    """``benchmarks/bench.py``'s loop (random legal actions read from the mask, ``last()`` every step)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench import aec_steps as loop

    return loop(make, steps, seed)


def random_games(games: int, seed: int) -> list[tuple[int, list[int]]]:
    """(seed, actions) of ``games`` random 3-player games."""
    rng = np.random.default_rng(seed)
    played = []
    for g in range(games):
        game, actions = Game.new(3, seed + g), []
        while not game.is_over:
            legal = np.flatnonzero(game.legal_mask())
            actions.append(int(legal[rng.integers(len(legal))]))
            game.step(actions[-1])
        played.append((seed + g, actions))
    return played


PARTS = ("rules", "and the kernel's step", "and the mask", "and the observation")


def replay(played: list[tuple[int, list[int]]], parts: int) -> float:
    """Microseconds a step to deal and replay the games through the first ``parts`` of :data:`PARTS`."""
    steps = sum(len(actions) for _, actions in played)
    mask = np.zeros(NUM_ACTIONS, dtype=bool)
    started = time.perf_counter()
    for seed, actions in played:
        game = Game.new(3, seed)
        state = kernel.state_of(game) if parts > 1 else None
        for action in actions:
            if parts > 2:
                kernel.legal_mask(state, mask)
            if parts > 3:
                kernel.observation(state, game.current_player)
            game.step_legal(action)
            if parts > 1 and kernel.step(state, action, game.market_sum or 0):
                kernel.roll(state, *game.dice)
    return 1e6 * (time.perf_counter() - started) / steps


def env_steps(steps: int, seed: int, observe: bool) -> float:
    """Steps a second of the AEC ``env()`` (``bench.py``'s loop); without ``observe``, every observation is a copy
    of a fixed vector."""
    if observe:
        return aec_steps(lambda: aec.env(num_players=3), steps, seed)
    fixed = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    with mock.patch.object(kernel, "observation", lambda state, seat: fixed.copy()):
        return aec_steps(lambda: aec.env(num_players=3), steps, seed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="random games replayed through the parts")
    parser.add_argument("--steps", type=int, default=20_000, help="steps of each env() case a repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for name in ("games", "steps", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")

    played = random_games(args.games, args.seed)
    print(f"Gold Rush, 3 players: {sum(len(a) for _, a in played):,} steps of {args.games} random games, "
          f"median of {args.repeats} repeats")
    for parts, name in enumerate(PARTS, 1):
        micros = statistics.median(replay(played, parts) for _ in range(args.repeats))
        print(f"  {name:<44} {micros:8.2f} us a step")
    reference = statistics.median(aec_steps(connect_four_v3.env, args.steps, args.seed + r)
                                  for r in range(args.repeats))
    print(f"  {'connect_four_v3 env() (reference)':<44} {1e6 / reference:8.2f} us a step  "
          f"{reference:10,.0f} steps/s  x1.00")
    for name, observe in (("env()", True), ("env(), the observation a fixed vector", False)):
        rate = statistics.median(env_steps(args.steps, args.seed + r, observe) for r in range(args.repeats))
        print(f"  {name:<44} {1e6 / rate:8.2f} us a step  {rate:10,.0f} steps/s  x{rate / reference:.2f}")


if __name__ == "__main__":
    main()
