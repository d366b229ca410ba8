"""PettingZoo's SB3 action-mask tutorial (``sb3_connect_four_action_mask.py``) on *Gold*.

The tutorial's pattern, kept as it is: a wrapper makes the AEC game look like a single-agent Gymnasium one (a
step returns the observation of the seat to move next, with the reward and the end of the seat that moved;
``SB3ActionMaskWrapper`` of ``stock_harness.py``, which ``sb3_stock.py`` shares),
sb3-contrib's ``ActionMasker`` hands MaskablePPO the mask, one ``MaskableActorCriticPolicy`` with MaskablePPO's
defaults learns by playing every seat, and the evaluation plays it (greedy) against random legal actions. What
differs from connect four's script:

* the environment: ``env_fn = goldrush_env.gold`` with its defaults (two players);
* who won: the tutorial reads it from the last step's rewards, which only works where they are ±1; here it is
  read from the game, ``env.unwrapped.game.result().winners``, whatever the reward option;
* the learner sits at the two seats in turn (the tutorial keeps it at the second), and besides the tutorial's
  random action (``"sample"``: with kinds of card, a random *kind*) it can meet our players (``"random"``, a
  random legal flip);
* the model is seeded when it is made (the tutorial seeds it after, so its first weights are not reproducible)
  and stays in memory rather than going to a zip file.

``python examples/pettingzoo_tutorial.py --steps 100000 --games 400`` is the measured run
(docs/libraries.md); ``--steps 20480`` is the tutorial's own budget; ``--option NAME=VALUE`` changes an option
of the environment (version 0: ``action=positions``, ``observation=plain``, ``reward=win``).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from sb3_contrib.common.wrappers import ActionMasker

import goldrush_env.gold
from goldrush_env.errors import GoldrushEnvError
from goldrush_agents import make_agent
from goldrush_agents.tournament import wilson_interval
from goldrush_train.cli import add_option_argument, parsed_env_options

from stock_harness import SB3ActionMaskWrapper, mask_fn


def train_action_mask(env_fn: Any, steps: int = 10_000, seed: int = 0, **env_kwargs: Any) -> MaskablePPO:
    """One model trained to play every seat of ``env_fn.env(**env_kwargs)`` for ``steps`` steps."""
    env = SB3ActionMaskWrapper(env_fn.env(**env_kwargs))
    env.reset(seed=seed)  # defines the spaces
    env = ActionMasker(env, mask_fn)
    model = MaskablePPO(MaskableActorCriticPolicy, env, seed=seed, verbose=0)  # seeded from the start
    model.set_random_seed(seed)
    model.learn(total_timesteps=steps)
    env.close()
    return model


def eval_action_mask(model: MaskablePPO, env_fn: Any, num_games: int = 100, opponent: str = "sample",
                     **env_kwargs: Any) -> dict[str, Any]:
    """``num_games`` games of ``model`` (greedy) against ``opponent``, the model at seat ``i % 2`` in game ``i``.
    ``opponent``: ``"sample"``, the tutorial's, a legal action drawn from the action space (with the default
    ``action="kinds"``, a kind of card: a stronger player than a random flip), or a player's name (``"random"``:
    a legal position drawn uniformly; ``"greedy"``...), which plays through ``step_from_view``. Wins are read from
    the game: a sole winner wins, a shared victory counts half."""
    env = env_fn.env(**env_kwargs)
    player = None if opponent == "sample" else make_agent(opponent, seed=0)
    wins = 0.0
    for i in range(num_games):
        env.reset(seed=i)
        learner = env.possible_agents[i % 2]
        for agent in env.possible_agents:
            env.action_space(agent).seed(i)
        if player is not None:
            player.reset(seed=i)
        played = env if player is None else env.unwrapped  # a scripted player steps the bare game
        for agent in played.agent_iter():
            observation, _, termination, truncation, _ = played.last()
            if termination or truncation:
                winners = env.unwrapped.game.result().winners  # the game says who won, whatever the reward
                seat = env.possible_agents.index(learner)
                wins += (1.0 if len(winners) == 1 else 0.5) if seat in winners else 0.0
                break
            if agent == learner:
                action = int(model.predict(observation["observation"], action_masks=observation["action_mask"],
                                           deterministic=True)[0])
            elif player is not None:  # a scripted player chooses a position from its view
                played.step_from_view(player.act(played.view(agent)))
                continue
            else:
                action = env.action_space(agent).sample(observation["action_mask"])
            played.step(action)
    env.close()
    low, high = wilson_interval(wins, num_games)
    return {"opponent": opponent, "games": num_games, "win_share": wins / num_games, "low": low, "high": high}


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_480, help="training steps (the tutorial's: 20,480)")
    parser.add_argument("--games", type=int, default=100, help="evaluation games against each opponent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponents", default="sample,random",
                        help="comma-separated: 'sample' (the tutorial's, a legal action of the action space drawn "
                             "uniformly) and players' names ('random': a legal flip drawn uniformly)")
    add_option_argument(parser, "version 0: action=positions, observation=plain, reward=win")
    args = parser.parse_args(argv)
    options = parsed_env_options(parser, args.option, goldrush_env.gold.raw_env)
    opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
    for name in opponents:
        try:
            if name != "sample":
                make_agent(name)  # an unknown name is refused before the training, naming the players there are
        except GoldrushEnvError as error:
            parser.error(f"--opponents: {error}")
    env_fn, env_kwargs = goldrush_env.gold, options
    start = time.perf_counter()
    model = train_action_mask(env_fn, steps=args.steps, seed=args.seed, **env_kwargs)
    print(f"trained {args.steps:,} steps in {time.perf_counter() - start:.0f} s", flush=True)
    results = []
    for name in opponents:
        result = eval_action_mask(model, env_fn, num_games=args.games, opponent=name, **env_kwargs)
        print(f"against {name}: {result['win_share']:.3f} [{result['low']:.3f}, {result['high']:.3f}] "
              f"of {args.games} games", flush=True)
        results.append(result)
    return results


if __name__ == "__main__":
    main()
