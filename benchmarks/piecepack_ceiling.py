"""A clairvoyant yardstick for the Gold Rush search against idle players.

The clairvoyant is the ``search`` player (agents/piecepack/search.py) with one
thing changed: instead of sampling the pieces its seat has not seen and the
dice to come, it plays its rollouts on copies of the *true* game
(``Game.copy`` copies the dice generator too, so every rollout sees the real
pieces and the real future dice). It cheats, so it is no registered player:
it only measures how much of the idle target (sole wins, mean score) a
search of this kind could reach at all, given the deals and the dice.

It is not a true upper bound: it still judges one action at a time by the
rollout policy's future, and a cleverer plan can beat that. With a
deterministic rollout policy (``idle``, ``builder``) every rollout of an
action on the true game repeats the first, so ``--rollouts`` changes the
time and, through the player's random generator, only which of equally
valued actions it takes; it is there to time the clairvoyant like the search
it shadows.

It sits alone, at seat ``i % players`` of game ``i``, dealt from seed
``seed + i`` as in benchmarks/piecepack_ladder.py (the same deals, so the
two tables compare), with idle players in the other seats, and prints its
win share, its sole wins with a 95% Wilson interval, its mean score and the
time per game.

    python benchmarks/piecepack_ceiling.py --players 3 --games 200 --rollouts 8
    python benchmarks/piecepack_ceiling.py --players 3 4 --games 1000 --rollouts 16 --policy builder --score-weight 0.2
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from goldrush_agents.piecepack.idle import Idle
from goldrush_agents.piecepack.search import POLICIES, PiecepackSearch
from goldrush_agents.tournament import wilson_interval
from goldrush_env.piecepack.aec import raw_env
from goldrush_env.piecepack.engine import Game


class Clairvoyant(PiecepackSearch):
    """The search, rolling out on copies of the true game :attr:`game` (set before each game)."""

    name = "clairvoyant"
    game: Game

    def _game(self, known: dict, seed: int) -> Game:
        return self.game.copy()


def play(players: int, games: int, seed: int, rollouts: int, policy: str, score_weight: float) -> dict:
    """The clairvoyant at seat ``i % players`` of game ``i`` (seed ``seed + i``), idle players elsewhere."""
    start = time.perf_counter()
    wins = sole = score = 0.0
    for i in range(games):
        seat = i % players
        env = raw_env(num_players=players)
        env.reset(seed=seed + i)
        lone = Clairvoyant(rollouts=rollouts, policy=policy, score_weight=score_weight)
        lineup = [lone if s == seat else Idle() for s in range(players)]
        for player, player_seed in zip(lineup, np.random.SeedSequence(seed + i).spawn(players)):
            player.reset(seed=int(player_seed.generate_state(1)[0]))
        lone.game = env.game
        while not env.game.is_finished:
            mover = env.game.current_player
            env.step(lineup[mover].act(env.view(mover)))
        winners, points = env.game.winners(), env.game.scores()
        wins += 1 / len(winners) if seat in winners else 0.0
        sole += winners == [seat]
        score += points[seat]
    return {"win_share": wins / games, "sole": sole / games, "sole_interval": wilson_interval(sole, games),
            "score": score / games, "s_per_game": (time.perf_counter() - start) / games}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[3], help="3 or 4, one line each")
    parser.add_argument("--games", type=int, default=200, help="games per line")
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt from seed + i")
    parser.add_argument("--rollouts", type=int, default=8, help="rollouts per action tried (1 to 256)")
    parser.add_argument("--policy", default="idle", help=f"the rollout policy, one of {list(POLICIES)}")
    parser.add_argument("--score-weight", type=float, default=0.01, help="what a point adds to a win share (0 to 1)")
    args = parser.parse_args(argv)
    for players in args.players:
        if players not in (3, 4):
            parser.error(f"--players must be 3 or 4, got {players}")
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    if args.seed < 0:
        parser.error(f"--seed must be 0 or more, got {args.seed}")
    if not 1 <= args.rollouts <= 256:
        parser.error(f"--rollouts must be from 1 to 256, got {args.rollouts}")
    if args.policy not in POLICIES:
        parser.error(f"--policy must be one of {list(POLICIES)}, got {args.policy!r}")
    if not 0 <= args.score_weight <= 1:
        parser.error(f"--score-weight must be from 0 to 1, got {args.score_weight}")

    print("| players | rollouts | policy | score weight | games | win share | sole wins | 95% CI | mean score "
          "| s/game |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for players in args.players:
        row = play(players, args.games, args.seed, args.rollouts, args.policy, args.score_weight)
        low, high = row["sole_interval"]
        print(f"| {players} | {args.rollouts} | {args.policy} | {args.score_weight:g} | {args.games} | "
              f"{row['win_share']:.3f} | {row['sole']:.3f} | [{low:.3f}, {high:.3f}] | {row['score']:.2f} | "
              f"{row['s_per_game']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
