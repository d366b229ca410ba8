"""How fast OpenSpiel plays Gold through ``goldrush_env.openspiel``: a state's clone, and OpenSpiel's MCTSBot.

    python benchmarks/openspiel_speed.py [--clones 2000] [--games 6] [--simulations 100]

Prints the median microseconds of ``state.clone()`` of mid-game states (two players, the full table, after 20
actions), and the seconds a game of OpenSpiel's ``MCTSBot`` against itself takes (two players, the quarter table,
``--simulations`` simulations a move, one random rollout each), with the min and max over the games. Run it at two
commits on one machine to compare them; it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def mid_game(game, rng: np.random.Generator, actions: int = 20):
    state = game.new_initial_state()
    for _ in range(actions):
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def clone_micros(clones: int, seed: int) -> float:
    from goldrush_env import openspiel as bridge

    game = bridge.load("gold", players=2)
    rng = np.random.default_rng(seed)
    times = []
    for _ in range(clones // 100):
        state = mid_game(game, rng)
        start = time.perf_counter()
        for _ in range(100):
            state.clone()
        times.append((time.perf_counter() - start) / 100 * 1e6)
    return statistics.median(times)


def mcts_game_seconds(games: int, simulations: int, seed: int) -> list[float]:
    from open_spiel.python.algorithms import mcts

    from goldrush_env import openspiel as bridge

    game = bridge.load("gold", players=2, table="quarter", reward="win")
    seconds = []
    for g in range(games):
        rng = np.random.RandomState(seed + g)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator, random_state=rng)
                for _ in range(2)]
        state = game.new_initial_state()
        start = time.perf_counter()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        seconds.append(time.perf_counter() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clones", type=int, default=2000)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"state.clone(), mid-game, 2 players, full table: {clone_micros(args.clones, args.seed):.1f} us (median)")
    seconds = mcts_game_seconds(args.games, args.simulations, args.seed)
    print(f"MCTSBot, {args.simulations} simulations, 2 players, quarter table: {statistics.median(seconds):.2f} s a "
          f"game (median of {len(seconds)}; min {min(seconds):.2f}, max {max(seconds):.2f})")


if __name__ == "__main__":
    main()
