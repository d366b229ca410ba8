"""The compiled greedy and expert players make, in every position, the flips the single-game players make.

Positions come from random games (2-5 players) at every phase: first and
second flips, and the rush. For each, ``GreedyAgent`` or ``ExpertAgent`` is
asked with the game's stream (a :class:`~goldrush_env.streams.Stream` at
the state the compiled player starts from) as its generator: it must choose
the same position and leave the stream where the compiled player leaves it,
so every tie-break and exploration draw is the same.
"""

import math

import numpy as np
import pytest

import goldrush_agents.gold.expert
from goldrush_agents.gold.batched import compiled_expert, compiled_greedy, batched_policy, expert_params, worth_tables
from goldrush_agents.gold.expert import ExpertAgent
from goldrush_agents.gold.greedy import GreedyAgent
from goldrush_env.gold.batched import BatchedGames
from goldrush_agents.gold.compiled import ENGINE, EXPERT, EXPERT_PARAMS
from goldrush_env.streams import Stream
from goldrush_env.gold.vector import KernelPlayer
from goldrush_env.gold.view import UNKNOWN

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
    phases = lockstep(GreedyAgent(), compiled_greedy(), num_players, seed=10 + num_players)
    assert min(phases.values()) > 50, phases


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_compiled_expert_flips_what_expert_flips(num_players):
    # Eight games: some 330 first and second flips and 76 in the rush (the Python expert is the cost).
    phases = lockstep(ExpertAgent(), compiled_expert(), num_players, seed=30 + num_players, count=8)
    assert min(phases.values()) > 50, phases


@pytest.mark.parametrize("name", ["greedy", "expert"])
@pytest.mark.parametrize("num_players", [2, 4])
def test_compiled_players_flip_as_the_python_ones_when_every_card_is_known(name, num_players):
    """Games where every seat has seen every card: no card left to explore, so the players fall back on the
    remembered ones (their least-bad pair, their ties among equal losses), which random games seldom reach."""
    from goldrush_agents.gold.batched import PerGame

    player, compiled = {"greedy": (GreedyAgent(), compiled_greedy()), "expert": (ExpertAgent(), compiled_expert())}[name]
    # A Python expert's choice costs a dozen greedy ones: six games give it some 470 choices, 30 to 40 of them where
    # every flip loses and equal losses tie.
    count = {"greedy": 12, "expert": 6}[name]
    games = BatchedGames(count, num_players)
    games.reset(seed=num_players)
    games.memo[:] = np.where(games.table[:, None] >= 0, 0, -1)  # every seat remembers, for good: perfect memory
    views, play_rng, compared = PerGame(player), np.random.default_rng(num_players), 0
    while not games.is_finished.all():
        playing = np.flatnonzero(~games.is_finished)
        streams = games.rng.copy()
        chosen = compiled.act(games, games.known(), ~games.is_finished, None)
        for g, view in zip(playing, views.views(games, games.known(), playing)):
            assert UNKNOWN not in view.cards
            player.rng = Stream(streams[g])
            assert chosen[g] == player.act(view), g
            assert player.rng.state == int(games.rng[g]), g
            compared += 1
        games.step(np.where(play_rng.random(count) < 0.5, chosen, games.random_positions(play_rng)))
    assert compared > 300


@pytest.mark.parametrize("name", ["greedy", "expert"])
def test_when_every_flip_loses_the_compiled_players_choose_as_the_python_ones(name):
    """The opponent's strongest miner lies face up and only known gold is left to flip with it: every choice
    hands the opponent gold. Greedy gives away the least, at the highest of the positions that do; expert
    weighs what each leaves the opponent next; the compiled players choose as the Python ones."""
    from goldrush_agents.gold.batched import PerGame
    from goldrush_env.gold.cards import EMPTY, gold, miner

    player, compiled = {"greedy": (GreedyAgent(), compiled_greedy()), "expert": (ExpertAgent(), compiled_expert())}[name]
    layout = [EMPTY] * 64
    layout[0] = miner(2, 5)  # seat 1's colour at two players
    for p, value in zip((3, 9, 17, 22, 30, 41, 50, 55, 60, 61, 63), (1, 2, 1, 3, 4, 1, 2, 3, 4, 2, 3)):
        layout[p] = gold(value)
    games = BatchedGames(8, 2)
    games.reset(seed=0, layouts=[layout] * 8)
    games.memo[:] = np.where(games.table[:, None] >= 0, 0, -1)
    games.step(np.zeros(8, dtype=np.int64))  # seat 0 turns the miner up
    everywhere = np.arange(8)
    streams = games.rng.copy()
    chosen = compiled.act(games, games.known(), np.ones(8, dtype=bool), None)
    for g, view in zip(everywhere, PerGame(player).views(games, games.known(), everywhere)):
        player.rng = Stream(streams[g])
        assert chosen[g] == player.act(view), g
        assert player.rng.state == int(games.rng[g]), g
    if name == "greedy":
        assert (chosen == 41).all()  # a gold worth 1, the highest of the three positions holding one


def neumaier_sum(terms):
    """Python's ``sum()`` of floats from 3.12 on (CPython's builtin_sum: plain 0 + the first term, then
    Neumaier's compensated sum)."""
    total, lost = None, 0.0
    for x in terms:
        if total is None:
            total = 0 + x
            continue
        t = total + x
        lost += (total - t) + x if abs(total) >= abs(x) else (x - t) + total
        total = t
    if total is None:
        return 0
    return total + lost if lost and math.isfinite(lost) else total


def test_compiled_expert_adds_as_either_pythons_sum_does(monkeypatch):
    """Whichever ``sum()`` the Python in use has, the compiled expert adds as it does: here ``ExpertAgent``
    adds with 3.12's compensated sum, and the kernel is told so."""
    assert neumaier_sum([1.0, 1e100, 1.0, -1e100]) == 2.0 and neumaier_sum([0.1] * 10) == 1.0
    monkeypatch.setattr(goldrush_agents.gold.expert, "sum", neumaier_sum, raising=False)

    def compensated(num_players):
        params = dict(zip(EXPERT_PARAMS, expert_params(num_players)))
        return [1.0 if name == "compensated_sum" else params[name] for name in EXPERT_PARAMS]

    expert = KernelPlayer("expert", EXPERT, worth_tables, params=compensated, engine=ENGINE)
    phases = lockstep(ExpertAgent(), expert, 3, seed=7, count=6)
    assert min(phases.values()) > 20, phases


def test_the_compiled_experts_constants_are_the_python_players():
    from goldrush_agents.gold.expert import OWN_CHANCE_WEIGHT, TIE_TOLERANCE

    for num_players, weight in ((2, 1.0), (3, 0.7), (5, 0.7)):
        params = dict(zip(EXPERT_PARAMS, compiled_expert().params(num_players)))
        assert params["opponent_weight"] == weight
        assert params["own_chance_weight"] == OWN_CHANCE_WEIGHT and params["tie"] == TIE_TOLERANCE
        assert params["compensated_sum"] == (sum([0.1] * 10) == 1.0)


def test_only_games_asked_for_get_a_flip():
    games = BatchedGames(4, 2)
    games.reset(seed=0)
    positions = compiled_greedy().act(games, np.zeros((4, 64), dtype=bool), np.array([True, False, True, False]),
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
