"""What would seeing every card be worth? A player told the whole table, against a scripted one.

Not an agent anyone could play fairly: it asks how far above its opponent
*any* player could stand in this game, where much of a result is the deal.
The oracle seat is shown every face-down card (its view holds the true
table, nothing unseen); the other seat plays as usual, with perfect memory.
``--blind`` plays the same player on the same deals told only what it saw,
the control the oracle's figure is read against.

    python experiments/2026-11-25-oracle/oracle.py --player ismcts --opponent greedy --games 500
    python experiments/2026-11-25-oracle/oracle.py --player ismcts --opponent greedy --games 500 --blind

Two players. Games are seeded one by one (``--seed``), the oracle's seat and
the start player rotate over each block of four games, and a shared win
counts 1/k. Prints the win share with its 95% Wilson interval and the mean
points of each side.

The search player (``ismcts``) makes a sensible oracle: with every card
known it still searches the flips of both seats, its rollouts playing a
quick greedy policy on the whole table. A scripted player told everything
is not one: with no unknown card left it falls back on flipping remembered
cards at random.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import time
from typing import Sequence

import numpy as np

from goldrush_agents import make_agent
from goldrush_agents.tournament import wilson_interval
from goldrush_env.gold.aec import raw_env
from goldrush_env.gold.cards import NUM_CARD_TYPES
from goldrush_env.errors import IllegalFlipError
from goldrush_env.policy import Policy

NUM_PLAYERS = 2


def play(players: Sequence[Policy], seat: int, seed: int, first_player: int, *, blind: bool = False
         ) -> tuple[float, int, int]:
    """One 2-player game, ``players[s]`` at seat ``s``, ``seat`` shown every card (unless ``blind``).

    Returns ``seat``'s win (1, 1/k of a win shared by k, or 0) and the points of ``seat`` and of the other seat.
    """
    env = raw_env(num_players=NUM_PLAYERS, memory="perfect")
    env.reset(seed=seed, options={"first_player": first_player})
    for player, player_seed in zip(players, np.random.SeedSequence(seed).spawn(NUM_PLAYERS)):
        player.reset(seed=int(player_seed.generate_state(1)[0]))
    game = env.game
    nothing_unseen = (0,) * NUM_CARD_TYPES
    while not game.is_finished:
        mover = game.current_player
        view = env.view(mover)
        if mover == seat and not blind:
            view = dataclasses.replace(view, knowledge=dataclasses.replace(
                view.knowledge, cards=tuple(game.table), unseen=nothing_unseen))
        position = players[mover].act(view)
        try:
            env.step_from_view(position)
        except IllegalFlipError as error:
            raise IllegalFlipError(f"seat {mover} made an illegal flip: {error}") from None
    winners = game.winners
    win = 1 / len(winners) if seat in winners else 0.0
    return win, game.scores[seat], game.scores[1 - seat]


def _play(job: tuple[int, int, str, str, bool]) -> tuple[float, int, int]:
    """Game ``index`` of a run: the oracle's seat and the start player rotate over each block of four."""
    index, seed, player_spec, opponent_spec, blind = job
    first_player, seat = index % NUM_PLAYERS, (index // NUM_PLAYERS) % NUM_PLAYERS
    players = [make_agent(player_spec) if s == seat else make_agent(opponent_spec) for s in range(NUM_PLAYERS)]
    return play(players, seat, seed, first_player, blind=blind)


def main(argv: list[str] | None = None) -> tuple[float, float, float]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--player", default="ismcts", help="the entrant shown every card (default: ismcts)")
    parser.add_argument("--opponent", default="greedy", help="the entrant it plays against (default: greedy)")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0, help="seeds the deals and the players")
    parser.add_argument("--blind", action="store_true", help="the control: the player told only what it saw")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    make_agent(args.player), make_agent(args.opponent)  # a bad name fails here, before any worker starts
    seeds = np.random.SeedSequence(args.seed).generate_state(args.games, dtype=np.uint64) >> np.uint64(1)
    jobs = [(i, int(s), args.player, args.opponent, args.blind) for i, s in enumerate(seeds)]
    start = time.perf_counter()
    workers = args.workers or multiprocessing.cpu_count()
    if workers == 1:
        results = [_play(job) for job in jobs]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            results = pool.map(_play, jobs, chunksize=1)
    wins = sum(r[0] for r in results)
    share = wins / args.games
    low, high = wilson_interval(wins, args.games)
    mine = sum(r[1] for r in results) / args.games
    theirs = sum(r[2] for r in results) / args.games
    who = f"{args.player} ({'blind' if args.blind else 'shown every card'})"
    print(f"{who} vs {args.opponent}: {share:.3f} [{low:.3f}, {high:.3f}] over {args.games} games, "
          f"points {mine:.1f} : {theirs:.1f} (seed {args.seed}, {time.perf_counter() - start:.0f} s)")
    return share, low, high


if __name__ == "__main__":
    main()
