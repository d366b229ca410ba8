"""Scripted agents: legal moves always, the right move where it is unambiguous, and the protocol."""

import functools
import re

import numpy as np
import pytest

from goldrush_agents import make_agent, parse_spec, split_entrants
from goldrush_agents.gold import AGENTS
from goldrush_agents.arena import play_game
from goldrush_agents.gold.expert import ExpertAgent
from goldrush_agents.gold.greedy import GreedyAgent
from goldrush_agents.gold.search import ISMCTSAgent
from goldrush_env.gold.aec import raw_env
from goldrush_env.gold.engine import Outcome
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.policy import Policy
from conftest import POSITIONS, VERSION_0, Checked, layout

SCRIPTED = [GreedyAgent, ExpertAgent]
SEARCH = functools.partial(ISMCTSAgent, iterations=300)  # a small budget: these tables are small
FAST = [name for name in AGENTS if name not in ("ismcts", "optimal")]
"""The players of every size and table, quick enough here (ismcts at its default budget: tests/gold/test_search.py;
optimal, the quarter table only: tests/gold/test_public.py)."""


@pytest.mark.parametrize("memory", ["perfect", "human"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_every_agent_plays_only_legal_flips(num_players, memory):
    names = FAST
    for game in range(3):
        lineup = [names[(game + seat) % len(names)] for seat in range(num_players)]
        players = [Checked(make_agent(name)) for name in lineup]
        result = play_game(players, seed=100 * num_players + game, memory=memory, memory_capacity=6)
        assert result.turns > 0 and sum(p.moves for p in players) == len(result.record["flips"])


def setup(cards, flips, first_player=0, **config):
    """An env on a small table after some scripted flips."""
    env = raw_env(num_players=2, **{**POSITIONS, **config})
    env.reset(seed=0, options={"layout": layout(cards), "first_player": first_player})
    for position in flips:
        env.step(position)
    return env


@pytest.mark.parametrize("agent", SCRIPTED)
def test_takes_the_sure_strike(agent):
    # Seat 0 saw its M13 and a G4 (too heavy); seat 1 showed a G2 and a G1. Seat 0 now strikes the G2.
    for seed in range(10):
        env = setup({0: "M13", 1: "G4", 2: "G2", 3: "G1"}, [0, 1, 2, 3])
        player = agent(seed=seed)
        env.step(player.act(env.view(0)))
        env.step(player.act(env.view(0)))
        last = env.game.history[-1]
        assert (last.outcome, last.receiver) == (Outcome.STRIKE, 0)
        assert env.game.scores == (2, 0)


@pytest.mark.parametrize("agent", SCRIPTED)
def test_does_not_feed_a_known_gold_to_an_opponents_known_miner(agent):
    # Seat 1's M23 is known at position 0. Seat 0 turns up a G2: flipping 0 now would give seat 1 the gold.
    for seed in range(10):
        env = setup({0: "M23", 1: "G4", 2: "G1", 3: "G1", 4: "G2"}, [0, 1, 2, 3, 4])
        assert env.game.face_up == 4
        assert agent(seed=seed).act(env.view(0)) != 0


def test_greedy_duels_an_opponents_known_miner():
    # Turn 0, seat 0: seat 1's M24 and M34 (equal: nothing). Turn 1, seat 1: seat 0's M05 and M15 (nothing).
    # Seat 0 knows no gold, so its best sure gain is a duel that removes one of seat 1's miners.
    for seed in range(10):
        env = setup({0: "M24", 1: "M34", 2: "M05", 3: "M15"}, [0, 1, 2, 3])
        player = GreedyAgent(seed=seed)
        env.step(player.act(env.view(0)))
        env.step(player.act(env.view(0)))
        last = env.game.history[-1]
        assert last.outcome is Outcome.DUEL
        assert len(last.removed) == 1 and last.removed[0] in (0, 1)  # one of seat 1's miners, none of seat 0's


def test_greedy_blows_up_an_opponents_known_miner():
    # Turn 0, seat 0: seat 1's M23 and a G4 (too heavy: nothing). Turn 1, seat 1: two golds. Turn 2: seat 0
    # turns up a dynamite (dynamite never goes back face down, so it is only ever known face up).
    env = setup({0: "M23", 1: "G4", 2: "D"}, [0, 1, 52, 53, 2])
    assert env.game.face_up == 2
    assert GreedyAgent(seed=0).act(env.view(0)) == 0  # and pairs it with seat 1's known M23


@pytest.mark.parametrize("agent", SCRIPTED + [SEARCH])
def test_gold_rush_takes_remembered_gold_first(agent):
    # Twelve cards. Turn 0, seat 0: G4 + M02, nothing (the G4 is now known). Turn 1, seat 1: dynamite + G1,
    # both gone: ten cards left, so the Gold Rush begins with seat 0, who should take the known G4.
    cards = {0: "G4", 1: "M02", 2: "D", 3: "G1", **{52 + i: code for i, code in enumerate(
        "G1 G1 G2 G2 G2 G3 G3 G3".split())}}
    for seed in range(5):
        env = raw_env(num_players=2, **POSITIONS)
        env.reset(seed=0, options={"layout": layout(cards, background=False)})
        for position in (0, 1, 2, 3):
            env.step(position)
        assert env.game.gold_rush and env.game.current_player == 0
        assert agent(seed=seed).act(env.view(0)) == 0


@pytest.mark.parametrize("name", FAST)
def test_agents_follow_the_protocol_and_replay_with_a_seed(name):
    agent = make_agent(name, seed=3)
    assert isinstance(agent, Policy)
    first = play_game([make_agent(name), make_agent("random")], seed=8)
    second = play_game([make_agent(name), make_agent("random")], seed=8)
    assert first.record["flips"] == second.record["flips"]


def test_make_agent_by_import_path_and_errors():
    assert isinstance(make_agent("goldrush_agents.gold.greedy:GreedyAgent", seed=1), GreedyAgent)
    with pytest.raises(GoldrushEnvError, match="unknown agent 'grandmaster'"):
        make_agent("grandmaster")
    with pytest.raises(GoldrushEnvError, match="cannot load agent 'goldrush_agents.nothing:Agent'"):
        make_agent("goldrush_agents.nothing:Agent")
    with pytest.raises(GoldrushEnvError, match="does not follow the policy protocol"):
        make_agent("collections:OrderedDict")


def test_options_in_brackets_reach_the_constructor():
    agent = make_agent("ismcts[iterations=50, horizon=None,exploration=0.5]", seed=3)
    assert (agent.iterations, agent.horizon, agent.exploration) == (50, None, 0.5)
    assert make_agent("goldrush_agents.gold.search:ISMCTSAgent[material=0]").material == 0.0
    assert make_agent("taught[deterministic=False]").deterministic is False
    assert parse_spec("expert") == ("expert", {}) and parse_spec("greedy[]") == ("greedy", {})
    assert parse_spec("x[a=1,b=two,c='3',d=True]") == ("x", {"a": 1, "b": "two", "c": "3", "d": True})
    # The same seed gives the same player with or without options spelled out at their defaults.
    flips = [play_game([make_agent(spec, seed=5), make_agent("greedy")], seed=2).record["flips"]
             for spec in ("ismcts[iterations=20]", "ismcts[iterations=20,horizon=1,exploration=0.7]")]
    assert flips[0] == flips[1]


@pytest.mark.parametrize("spec, message", [
    ("ismcts[iterations=50", "options go in one pair of brackets at the end"),
    ("ismcts[iterations=50]x", "options go in one pair of brackets at the end"),
    ("[iterations=50]", "options go in one pair of brackets at the end"),
    ("ismcts[iterations]", "each option is name=value, got 'iterations'"),
    ("ismcts[=3]", "each option is name=value, got '=3'"),
    ("ismcts[iterations=5,iterations=6]", "option 'iterations' is given twice"),
    ("ismcts[budget=5]",
     "unknown option 'budget'; it takes iterations, horizon, exploration, material, widening, opponents, objective, seconds$"),
    ("ismcts[opponents=greedy]", "opponents must be 'search' or 'rollout', got 'greedy'"),
    ("greedy[seed=5]", "unknown option 'seed'; it takes no options"),
    ("taught[path='x.npz']", "unknown option 'path'; it takes deterministic, choose$"),
    ("ismcts[iterations=0]", "iterations must be an int >= 1, got 0"),
    ("wizard[level=9]", "unknown agent 'wizard'"),
])
def test_bad_options_are_refused_by_name(spec, message):
    with pytest.raises(GoldrushEnvError, match=message):
        make_agent(spec)


def test_entrant_lists_split_outside_brackets():
    assert split_entrants("ismcts[iterations=500,horizon=2], expert,greedy") == [
        "ismcts[iterations=500,horizon=2]", "expert", "greedy"]
    assert split_entrants("") == [] and split_entrants("a/b,c[x=1,y=2]/d") == ["a/b", "c[x=1,y=2]/d"]


@pytest.mark.parametrize("text", ["greedy,,expert", "greedy,", ",greedy", "greedy, ,expert"])
def test_an_empty_name_in_a_list_is_refused(text):
    with pytest.raises(GoldrushEnvError, match=f"empty name in the list {re.escape(repr(text))}"):
        split_entrants(text)


@pytest.mark.parametrize("text, words", [
    ("greedy,ismcts[iterations=5", "the bracket of 'ismcts[iterations=5' is never closed"),
    ("greedy,random,taught[deterministic=False", "the bracket of 'taught[deterministic=False' is never closed"),
    ("ismcts[iterations=5", "the bracket of 'ismcts[iterations=5' is never closed"),
    ("greedy],expert", "the ']' after 'greedy' closes no bracket"),
    ("ismcts[iterations=5]],expert", "the ']' after 'ismcts[iterations=5]' closes no bracket"),
])
def test_an_unbalanced_bracket_in_a_list_is_refused_by_name(text, words):
    """An unclosed bracket once swallowed the entrants after it ('greedy,ismcts[iterations=5' read as one)."""
    with pytest.raises(GoldrushEnvError, match=re.escape(words)):
        split_entrants(text)


def test_errors_quote_a_long_value_as_a_short_excerpt():
    with pytest.raises(GoldrushEnvError) as error:
        make_agent("x" * 100_000)
    assert len(str(error.value)) < 400 and "100,000 characters" in str(error.value)
    with pytest.raises(GoldrushEnvError) as error:
        split_entrants("greedy," + "y" * 50_000 + "[")
    assert len(str(error.value)) < 400 and "50,008 characters" in str(error.value)


def test_play_game_names_the_agent_that_flips_illegally():
    class Stubborn:
        name = "stubborn"

        def reset(self, seed=None):
            pass

        def act(self, view):
            return 99

    with pytest.raises(GoldrushEnvError, match="stubborn \\(seat 0\\) made an illegal move: position 99"):
        play_game([Stubborn(), make_agent("random")], seed=0)


def test_small_ladder_greedy_beats_random_and_expert_beats_random():
    from goldrush_agents.tournament import run_tournament

    result = run_tournament(["greedy", "random"], games=40, seed=7, workers=1)
    (pairing,) = result.pairings
    assert pairing.alone == "greedy" and pairing.interval[0] > 0.5  # measured: 40 wins of 40, from 0.91
    result = run_tournament(["expert", "random"], games=20, seed=7, workers=1)
    assert result.pairings[0].interval[0] > 0.5  # measured: 20 wins of 20, from 0.84


@pytest.mark.parametrize("name", ["greedy", "expert"])
def test_scripted_agents_are_gymnasium_opponents(name):
    from goldrush_env.gold import GoldEnv

    env = GoldEnv(num_players=3, opponents=[make_agent(name), make_agent(name)], seat="random",
                      memory="human", **VERSION_0)
    rng = np.random.default_rng(0)
    for episode in range(2):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            position = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(position)
            done = terminated or truncated
        assert reward in (-1.0, 0.0, 1.0) and "illegal_action" not in info
