"""The compiled greedy player makes, in every position, the flip the single-game greedy makes.

Positions come from random games (2-5 players) at every phase: first and
second flips, and the rush. For each, ``GreedyAgent`` is asked with the
game's stream (a :class:`~goldrush_env.gold.kernel.Stream` at the state the
compiled player starts from) as its generator: it must choose the same
position and leave the stream where the compiled player leaves it, so every
tie-break and exploration draw is the same.
"""

import numpy as np
import pytest

from goldrush_agents.gold.batched import BatchedGreedy, batched_policy
from goldrush_agents.gold.greedy import GreedyAgent
from goldrush_env.gold.batched import BatchedGames
from goldrush_env.gold.kernel import Stream

from conftest import VERSION_0, aec_twins, follow


def lockstep(player, compiled, num_players, seed, count=24):
    """Play random batched games, asking ``compiled`` (a KernelPlayer) and ``player`` (its Python reference,
    handed each game's stream) in every position; returns the phases compared."""
    games = BatchedGames(count, num_players)
    games.reset(seed=seed)
    envs = aec_twins(games)
    known = np.zeros((count, 64), dtype=bool)
    play_rng = np.random.default_rng(100 + seed)
    phases = {"first": 0, "second": 0, "rush": 0}
    while not games.is_finished.all():
        playing = ~games.is_finished
        streams = games.rng.copy()
        chosen = compiled.act(games, games.known(), playing, None)
        for g in np.flatnonzero(playing):
            player.rng = Stream(streams[g])
            expected = player.act(envs[g].view(int(games.current_player[g])))
            assert chosen[g] == expected, (g, int(chosen[g]), expected)
            assert player.rng.state == int(games.rng[g]), g  # the same draws, no more, no fewer
            phases["rush" if games.gold_rush[g] else "first" if games.face_up[g] < 0 else "second"] += 1
        # Play on with random flips half the time, so positions are varied (and the player's own the rest).
        positions = np.where(play_rng.random(count) < 0.5, chosen, games.random_positions(play_rng))
        follow(envs, known, games.step(positions))
    return phases


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_compiled_greedy_flips_what_greedy_flips(num_players):
    phases = lockstep(GreedyAgent(), BatchedGreedy(), num_players, seed=10 + num_players)
    assert min(phases.values()) > 50, phases


def test_only_games_asked_for_get_a_flip():
    games = BatchedGames(4, 2)
    games.reset(seed=0)
    positions = BatchedGreedy().act(games, np.zeros((4, 64), dtype=bool), np.array([True, False, True, False]),
                                    np.random.default_rng(0))
    assert positions[1] == positions[3] == -1 and positions[0] >= 0 and positions[2] >= 0


def test_greedy_opponents_beat_random_ones_in_the_vector_env():
    """A random learner wins far less often against greedy than against random opponents."""
    from goldrush_env.gold.batched import random_in_masks
    from goldrush_env.gold.vector import GoldVectorEnv

    rates = {}
    for opponents in ("random", "greedy"):
        env = GoldVectorEnv(64, num_players=2, opponents=batched_policy(opponents), **VERSION_0)
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        results = []
        while len(results) < 200:
            _, rewards, terminated, truncated, _ = env.step(random_in_masks(env.action_masks(), rng.random(64)))
            results.extend(rewards[terminated | truncated].tolist())
        rates[opponents] = np.mean(np.array(results) > 0)
    assert 0.35 < rates["random"] < 0.65
    assert rates["greedy"] < 0.1


@pytest.mark.parametrize("num_players", [2, 4])
def test_per_game_views_are_the_aec_environments_views(num_players):
    from goldrush_agents.gold.batched import PerGame
    from goldrush_agents.gold.random_agent import RandomAgent

    count = 6
    games = BatchedGames(count, num_players)
    games.reset(seed=num_players)
    envs = aec_twins(games)
    known = np.zeros((count, 64), dtype=bool)
    adapter, rng = PerGame(RandomAgent(seed=0)), np.random.default_rng(0)
    compared = 0
    while not games.is_finished.all():
        rows = np.flatnonzero(~games.is_finished)
        for row, view in zip(rows, adapter.views(games, games.known(), rows)):
            expected = envs[row].view(int(games.current_player[row]))
            for field in expected.__dataclass_fields__:
                mine, theirs = getattr(view, field), getattr(expected, field)
                if isinstance(theirs, np.ndarray):
                    assert np.array_equal(mine, theirs) and mine.dtype == theirs.dtype, field
                else:
                    assert mine == theirs, field
            compared += 1
        flips = games.step(adapter.act(games, games.known(), ~games.is_finished, rng))
        follow(envs, known, flips)
    assert compared > 300
