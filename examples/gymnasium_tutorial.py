"""Stable-Baselines3's quick start on *Gold*: ``gymnasium.make``, MaskablePPO's ``MlpPolicy`` and its defaults.

SB3's getting-started example (make the environment, ``model.learn``, then play with ``model.predict``), with
sb3-contrib's MaskablePPO in place of PPO so that the policy only picks legal moves. Only the environment line is
ours: ``gym.make("goldrush_env:Gold-v1")``, every option at its default (two players, the learner at a random
seat, the other seat played by uniformly random legal moves). The evaluation plays fresh games and reads who won
from the game (``info["winners"]`` and ``info["seat"]`` at a game's last step), not from the rewards.
``python examples/gymnasium_tutorial.py --steps 200000 --games 400`` is the measured run
(docs/libraries.md).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium as gym
from sb3_contrib import MaskablePPO

import goldrush_env  # noqa: F401  (registers the ids)
from goldrush_agents.tournament import wilson_interval
from goldrush_train.cli import add_option_argument, parsed_env_options


def evaluate(model: MaskablePPO, env: gym.Env, games: int = 100, seed: int = 1) -> dict[str, Any]:
    """``games`` games of ``model`` (greedy) in ``env``; a sole winner wins, a shared victory counts half."""
    wins = 0.0
    for game in range(games):
        observation, info = env.reset(seed=seed + game)
        done = False
        while not done:
            action, _ = model.predict(observation, action_masks=info["action_mask"], deterministic=True)
            observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        winners = info["winners"]  # the game says who won, whatever the reward
        wins += (1.0 if len(winners) == 1 else 0.5) if info["seat"] in winners else 0.0
    low, high = wilson_interval(wins, games)
    return {"games": games, "win_share": wins / games, "low": low, "high": high}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000, help="training steps")
    parser.add_argument("--games", type=int, default=100, help="evaluation games against random")
    parser.add_argument("--seed", type=int, default=0)
    add_option_argument(parser, "version 0: action=positions, observation=plain, reward=win, seat=0")
    args = parser.parse_args(argv)
    options = parsed_env_options(parser, args.option, lambda **options: gym.make("goldrush_env:Gold-v1", **options))
    start = time.perf_counter()
    env = gym.make("goldrush_env:Gold-v1", **options)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    model.learn(total_timesteps=args.steps)
    trained = time.perf_counter() - start
    test = gym.make("goldrush_env:Gold-v1", **options)
    result = evaluate(model, test, games=args.games, seed=10_000 * (args.seed + 1))
    print(f"trained {args.steps:,} steps in {trained:.0f} s; against random: {result['win_share']:.3f} "
          f"[{result['low']:.3f}, {result['high']:.3f}] of {args.games} games")
    return result


if __name__ == "__main__":
    main()
