"""The vector environment's compiled opponents play as the Python players in the single environment.

A :class:`GoldVectorEnv` plays random learner flips against compiled
``greedy``, ``expert`` or a mix of both. Every episode of each of its games is
then played again in :class:`goldrush_env.gold.GoldEnv` against
``GreedyAgent`` and ``ExpertAgent``, all of them handed one
:class:`~goldrush_env.streams.Stream` standing for the game's stream, which
runs on from one episode to the next as the vector env's does: each deal is
redone from it (the layout and the learner's seat must come out the same, and
the mix's draw says which player holds each seat), then the learner's flips are
replayed and the opponents choose their own. The single environment must show
the same observations, masks, rewards and ends at every step, and the stream
must end where the vector env's is: who plays when, the seats, the mix, the
rewards and the autoreset of the compiled loop are the single environment's.
"""

import numpy as np
import pytest

import goldrush_env.gold
from goldrush_agents.gold.batched import batched_mix
from goldrush_agents.gold.expert import ExpertAgent
from goldrush_agents.gold.greedy import GreedyAgent
from goldrush_env.gold.batched import random_in_masks
from goldrush_env.gold.cards import EMPTY, NUM_POSITIONS
from goldrush_env.streams import Stream
from goldrush_env.gold.vector import GoldVectorEnv
from conftest import InPython, replays_as_recorded

OPTIONS = dict(action="positions", observation="plain", reward="score")
PLAYERS = {"greedy": GreedyAgent, "expert": ExpertAgent}


def play(opponents, num_envs, steps, seed, seat, **options):
    """Random learner flips in a vector env with compiled ``opponents``; returns the env (its streams where the
    last step left them), each game's stream before its first deal, and each game's episodes (the last one
    unfinished)."""
    env = GoldVectorEnv(num_envs, opponents=batched_mix(opponents), autoreset_mode="same_step", seat=seat,
                        **OPTIONS, **options)
    env.reset(seed=seed)
    start = env.games.rng.copy()
    observations, info = env.reset()  # deals every game afresh from the streams just read
    rng = np.random.default_rng(seed)

    def begin(e, observation, mask):
        return dict(layout=env.games.initial[e].tolist(), seat=int(info["seat"][e]), actions=[],
                    observations=[observation], masks=[mask], rewards=[], ends=[], scores=None)

    episodes = [[begin(e, observations[e], info["action_mask"][e])] for e in range(num_envs)]
    for _ in range(steps):
        actions = random_in_masks(env.action_masks(), rng.random(num_envs))
        observations, rewards, terminated, truncated, info = env.step(actions)
        for e in range(num_envs):
            episode = episodes[e][-1]
            episode["actions"].append(int(actions[e]))
            episode["rewards"].append(float(rewards[e]))
            episode["ends"].append((bool(terminated[e]), bool(truncated[e])))
            if terminated[e] or truncated[e]:
                episode["observations"].append(info["final_obs"][e])
                episode["scores"] = info["final_info"]["scores"][e].tolist()
                episodes[e].append(begin(e, observations[e], info["action_mask"][e]))
            else:
                episode["observations"].append(observations[e])
                episode["masks"].append(info["action_mask"][e])
    return env, start, episodes


def deal(stream, box):
    """The vector env's deal from ``stream``: the box shuffled (Fisher-Yates) onto the first positions."""
    table = list(box) + [EMPTY] * (NUM_POSITIONS - len(box))
    for i in range(len(box) - 1, 0, -1):
        j = stream.integers(i + 1)
        table[i], table[j] = table[j], table[i]
    return table


def replay(env, start, episodes, opponents, seat, **options):
    """Play a game's ``episodes`` again in the single environment with the Python players on one stream
    starting at ``start``; returns the number of finished episodes compared and the stream's state at the end."""
    n = env.config.num_players
    names = list(opponents) if isinstance(opponents, dict) else [opponents]
    weights = np.array(list(opponents.values()), dtype=float) if isinstance(opponents, dict) else np.ones(1)
    cumulative = np.cumsum(weights / weights.sum())
    stream = Stream(start)
    finished = 0
    for episode in episodes:
        assert deal(stream, env.games.box) == episode["layout"]
        if seat == "random":
            assert stream.integers(n) == episode["seat"]
        else:
            assert episode["seat"] == seat
        entrant = [0] * n
        if len(names) > 1:
            draws = [stream.random() for _ in range(n)]
            entrant = [next((i for i, c in enumerate(cumulative) if u < c), len(names) - 1) for u in draws]
        players = [PLAYERS[names[entrant[(episode["seat"] + k) % n]]]() for k in range(1, n)]
        for player in players:
            player.rng = stream
        single = goldrush_env.gold.GoldEnv(opponents=[InPython(player) for player in players], seat=episode["seat"],
                                           **OPTIONS, **options)
        observation, info = single.reset(options={"layout": episode["layout"]})
        assert not single.on_kernel  # the Python players, asked flip by flip
        assert np.array_equal(observation, episode["observations"][0])
        assert np.array_equal(info["action_mask"], episode["masks"][0])
        terminated, truncated, info = replays_as_recorded(single, episode)
        if episode["scores"] is not None:
            assert terminated or truncated
            assert list(info["scores"]) == episode["scores"]
            finished += 1
    return finished, stream.state


@pytest.mark.parametrize("opponents, seat, options", [
    ("greedy", "random", dict(num_players=3)),
    ("greedy", 1, dict(num_players=2, table="half")),
    ("expert", "random", dict(num_players=2)),
    ("expert", 2, dict(num_players=4, max_turns=30)),
    ({"greedy": 1, "expert": 1}, "random", dict(num_players=3)),
    ({"greedy": 1, "expert": 1}, 0, dict(num_players=5)),
])
def test_compiled_opponents_play_as_the_python_players_in_the_single_env(opponents, seat, options):
    num_envs = 4
    # The turn limit of 30 ends episodes soon: 60 steps finish 16 of them (the other cases 12 to 25 in 150 steps),
    # each replayed with the Python expert, the cost here.
    steps = 60 if options.get("max_turns") else 150
    env, start, episodes = play(opponents, num_envs, steps, seed=options["num_players"], seat=seat, **options)
    finished = 0
    for e in range(num_envs):
        compared, state = replay(env, start[e], episodes[e], opponents, seat, **options)
        # Through the unfinished last episode, the stream has run on to where the vector env's is now.
        assert state == int(env.games.rng[e])
        finished += compared
    assert finished >= 6

