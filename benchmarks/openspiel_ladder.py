"""OpenSpiel's bots against ours, on our games loaded in OpenSpiel (docs/openspiel.md).

One player (``--alone``) sits with ``--field`` players in the other seats; its seat turns round from game to game,
and game ``i`` draws its chance from seed ``seed + i``. Players are OpenSpiel's ``mcts`` (its MCTS bot with random
rollouts, for games of perfect information: Gold with perfect memory and ``reward="win"``), ``ismcts`` (its
information-set MCTS, for imperfect information), ``random`` (its uniform bot), or any of our entrants
(:class:`goldrush_agents.openspiel.EntrantBot`). A shared win counts 1/k. Prints the lone player's win share with
a 95% Wilson interval, its mean return, and the seconds a game took.

    python benchmarks/openspiel_ladder.py --game gold --params players=2 table=quarter reward=win \\
        --alone mcts --field greedy --games 200 --simulations 200
    python benchmarks/openspiel_ladder.py --game gold --params players=2 table=quarter memory=human \\
        --alone ismcts --field greedy --games 200 --simulations 200
    python benchmarks/openspiel_ladder.py --game piecepack --params players=3 --alone ismcts --field economist \\
        --games 30 --simulations 20
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from typing import Any

import numpy as np


def parse_params(items: list[str]) -> dict[str, Any]:
    """``["players=3", "table=quarter"]`` as OpenSpiel parameters: ints, floats and words."""
    params: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep:
            raise SystemExit(f"--params takes name=value, got {item!r}")
        for kind in (int, float):
            try:
                params[name] = kind(text)
                break
            except ValueError:
                continue
        else:
            params[name] = text
    return params


def make_bot(name: str, game: Any, seat: int, seed: int, simulations: int, rollouts: int) -> Any:
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from goldrush_agents.openspiel import EntrantBot

    rng = np.random.RandomState(seed % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rng)
    if name == "mcts":
        return mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator, random_state=rng,
                            solve=False)
    if name == "ismcts":
        return ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng)
    if name == "random":
        return pyspiel.make_uniform_random_bot(seat, seed % 2**31)
    return EntrantBot(game, seat, name, seed=seed)


def play(job: tuple[str, dict, str, str, int, int, int, int]) -> tuple[float, float, float]:
    """One game: the lone player's share of the win, its return, the seconds it took."""
    import goldrush_env.openspiel as bridge

    name, params, alone, field, seed, i, simulations, rollouts = job
    game = bridge.load(name, **params)
    n = game.num_players()
    seat = i % n
    bots = [make_bot(alone if s == seat else field, game, s, seed + 1000 * i + s, simulations, rollouts)
            for s in range(n)]
    from goldrush_agents.openspiel import play_out

    start = time.perf_counter()
    state = play_out(game.new_initial_state(), bots, np.random.default_rng(seed + i))
    winners = state.position.env.game.result().winners
    share = 1.0 / len(winners) if seat in winners else 0.0
    return share, state.returns()[seat], time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    from goldrush_agents.tournament import wilson_interval

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="gold")
    parser.add_argument("--params", nargs="*", default=[], help="OpenSpiel parameters, name=value")
    parser.add_argument("--alone", default="mcts")
    parser.add_argument("--field", default="greedy")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--simulations", type=int, default=100, help="MCTS / IS-MCTS simulations a move")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts an evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    params = parse_params(args.params)
    jobs = [(args.game, params, args.alone, args.field, args.seed, i, args.simulations, args.rollouts)
            for i in range(args.games)]
    start = time.perf_counter()
    if args.workers > 1:
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            results = pool.map(play, jobs, chunksize=1)
    else:
        results = [play(job) for job in jobs]
    shares, returns, seconds = zip(*results)
    import goldrush_env.openspiel as bridge

    n = bridge.load(args.game, **params).num_players()
    low, high = wilson_interval(sum(shares), len(shares))
    search = f", {args.simulations} simulations x {args.rollouts} rollouts" if {args.alone, args.field} & {
        "mcts", "ismcts"} else ""
    print(f"{args.game} {params}: {args.alone} alone vs {args.field}, {args.games} games{search}")
    print(f"win share {np.mean(shares):.3f} [{low:.3f}, {high:.3f}] (fair share {1 / n:.3f}), mean return "
          f"{np.mean(returns):.3f}, {np.mean(seconds):.1f} s a game, {time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
