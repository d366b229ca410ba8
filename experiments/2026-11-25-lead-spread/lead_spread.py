"""How far does a 2-player lead still move before the end? The spread behind the search's ``"win"`` objective.

``ismcts[objective=win]`` turns a seat's lead part-way through a game into
a chance of winning, ``P(win) = Phi(lead / (s * sqrt(gold left + 0.5)))``,
where *gold left* is the points of gold still on the table, seen or not,
and ``s`` is ``goldrush_agents.gold.search.WIN_SPREAD``. This script measures ``s``: it
plays games between two scripted players, notes at every flip the lead of
seat 0 over seat 1 and the gold left, and compares each with the final
lead. Prints, by gold left, the number of states, the root mean square of
(final lead - lead then) and that figure over the root mean square of
``sqrt(gold left + 0.5)``; then the pooled ``s`` over every state (the
root mean square of the change over ``sqrt(gold left + 0.5)``).

    python experiments/2026-11-25-lead-spread/lead_spread.py --games 600
    python experiments/2026-11-25-lead-spread/lead_spread.py --games 600 --players expert,expert

Two players, perfect memory; game ``i`` is seeded from ``--seed``, and the
start player alternates.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from goldrush_agents import make_agent
from goldrush_agents.arena import play_game
from goldrush_env.gold.engine import Game

NUM_PLAYERS = 2


def play(specs: tuple[str, str], seed: int, first_player: int) -> list[tuple[int, float]]:
    """One game; for each flip, (gold left on the table, final lead - lead then), leads as seat 0 over seat 1."""
    record = play_game([make_agent(spec) for spec in specs], seed=seed, first_player=first_player,
                       memory="perfect").record
    game = Game.from_record({**record, "flips": [], "events": []})
    states = []
    for position in record["flips"]:
        states.append((game.gold_on_table, game.scores[0] - game.scores[1]))
        game.step(position)
    final = game.scores[0] - game.scores[1]
    return [(gold, final - lead) for gold, lead in states]


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", default="expert,greedy", help="the two entrants, seat 0 first "
                        "(default: expert,greedy)")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=0, help="seeds the deals and the players")
    args = parser.parse_args(argv)
    specs = tuple(spec.strip() for spec in args.players.split(","))
    if len(specs) != NUM_PLAYERS or not all(specs):
        parser.error(f"--players must name two entrants, got {args.players!r}")
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    for spec in specs:
        make_agent(spec)  # a bad name fails here, before any game
    seeds = np.random.SeedSequence(args.seed).generate_state(args.games, dtype=np.uint64) >> np.uint64(1)
    start = time.perf_counter()
    states = [state for i, s in enumerate(seeds) for state in play(specs, int(s), i % NUM_PLAYERS)]
    gold = np.array([g for g, _ in states], dtype=float)
    change = np.array([c for _, c in states], dtype=float)
    print(f"{args.players}: {args.games} games, {len(states)} states (seed {args.seed}, "
          f"{time.perf_counter() - start:.0f} s)")
    print(f"{'gold left':>12} {'states':>8} {'rms':>7} {'rms/sqrt(gold+0.5)':>19}")
    edges = [0, 1, 5, 10, 20, 30, 40, 60, 1000]
    for low, high in zip(edges, edges[1:]):
        inside = (gold >= low) & (gold < high)
        if inside.sum() < 2:
            continue
        spread = float(np.sqrt(np.mean(change[inside] ** 2)))
        middle = float(np.sqrt(np.mean(gold[inside] + 0.5)))
        label = f"{low}" if high == low + 1 else f"{low}-{high - 1}"
        print(f"{label:>12} {int(inside.sum()):>8} {spread:>7.2f} {spread / middle:>19.2f}")
    pooled = math.sqrt(float(np.mean(change ** 2 / (gold + 0.5))))
    print(f"pooled s = {pooled:.2f}")
    return pooled


if __name__ == "__main__":
    main()
