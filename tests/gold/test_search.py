"""The search player (ismcts) on small budgets.

Its default budget takes seconds per game, so every test here builds it with
a few dozen to a few hundred iterations: legal flips at every table size and
memory model, reproducible play from a seed, decisions made from the view
alone, the clear moves (a sure strike, remembered gold in the Gold Rush) and
its argument checks. The card kinds its tree is built on: tests/gold/test_cards.py.
The tables here are stepped with ``step_from_view``: their flips are positions, as a player's are.
"""

import itertools
import math
import random
import re

import numpy as np
import pytest

from goldrush_agents import make_agent
from goldrush_agents.gold import AGENTS
from goldrush_agents.arena import play_game
from goldrush_agents.gold.search import SCORE_SCALE, WIN_SPREAD, ISMCTSAgent, _Node, _Table
from goldrush_env.gold.aec import raw_env
from goldrush_env.gold.cards import CODE, IS_GOLD, VALUE, card_kinds
from goldrush_env.gold.engine import Game, Outcome, colour_owners
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.policy import Policy
from goldrush_env.gold.view import UNKNOWN
from conftest import BACKGROUND, Checked, layout

SMALL = 30
"""Iterations per decision for whole games: enough to exercise the tree, cheap enough for a test."""


# --- legal play -------------------------------------------------------------------------


def flips_by_seat(result):
    """How many flips each seat made in a game played by play_game (replayed from its record)."""
    game = Game.from_record(result.record)
    counts = [0] * game.num_players
    for event in game.history:
        counts[event.player] += 1
    return counts


@pytest.mark.parametrize("memory", ["perfect", "human"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_plays_only_legal_flips(num_players, memory):
    # Search players at the even seats, scripted players between them; the last seat starts.
    others = itertools.cycle(["greedy", "expert", "random"])
    players = [Checked(ISMCTSAgent(iterations=SMALL) if seat % 2 == 0 else make_agent(next(others)))
               for seat in range(num_players)]
    result = play_game(players, seed=10 + num_players, first_player=num_players - 1, memory=memory,
                       memory_capacity=6)
    assert not result.truncated and sum(result.scores) > 0
    assert [p.moves for p in players] == flips_by_seat(result)
    assert all(p.moves > 0 for p in players[::2])


@pytest.mark.parametrize("options", [{"horizon": None, "iterations": 10}, {"horizon": 0}, {"exploration": 0},
                                     {"exploration": 3.0, "horizon": 5}, {"widening": None},
                                     {"widening": 0.2, "horizon": 2}, {"objective": "win"},
                                     {"objective": "win", "horizon": None}])
def test_other_settings_also_play_legally(options):
    search = Checked(ISMCTSAgent(**{"iterations": SMALL, **options}))
    result = play_game([make_agent("expert"), search], seed=21, memory="human", memory_capacity=6)
    assert search.moves > 0 and search.moves == flips_by_seat(result)[1]


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_opponents_played_by_the_rollout_policy_play_legally(num_players):
    players = [Checked(ISMCTSAgent(iterations=300, opponents="rollout")) if seat == 0 else make_agent("greedy")
               for seat in range(num_players)]
    result = play_game(players, seed=40 + num_players)
    assert players[0].moves > 0 and players[0].moves == flips_by_seat(result)[0]


def test_an_opponent_in_the_tree_flips_a_kind_where_it_did_before_on_that_path():
    # The rollout policy can flip either of two cards of one kind; a child's moves name positions that only hold
    # on the path that made it, so the node must keep the position it flipped first. Without that, this game
    # (game 290 of a 1,000-game evaluation) reached a simulated flip of a card already gone.
    search = Checked(ISMCTSAgent(iterations=500, opponents="rollout"))
    result = play_game([make_agent("greedy"), search], seed=6787978954213562089)
    assert search.moves == flips_by_seat(result)[1]


def test_a_single_legal_flip_is_played_at_once():
    env = raw_env(num_players=2)
    env.reset(seed=0, options={"layout": layout({37: "G2"}, background=False)})
    assert env.game.gold_rush and env.view(0).legal_actions.tolist() == [37]
    assert ISMCTSAgent(seed=0, iterations=1).act(env.view(0)) == 37


def test_it_is_registered_as_ismcts():
    assert AGENTS["ismcts"] is ISMCTSAgent
    agent = make_agent("ismcts", seed=1)
    assert isinstance(agent, ISMCTSAgent) and isinstance(agent, Policy) and agent.name == "ismcts"
    assert (agent.iterations, agent.horizon, agent.exploration) == (2000, 1, 0.7)


# --- seeds -------------------------------------------------------------------------------


def search_game(seed, iterations=20):
    return play_game([ISMCTSAgent(iterations=iterations), make_agent("expert")], seed=seed).record["flips"]


def test_the_same_seed_plays_the_same_game():
    assert search_game(4) == search_game(4)


def decisions(agent, seed, count=6):
    """The agent's first ``count`` decisions on a fixed table, with its own flips applied."""
    agent.reset(seed)
    env = raw_env(num_players=2)
    env.reset(seed=123)
    chosen = []
    while len(chosen) < count:
        seat = env.game.current_player
        position = agent.act(env.view(seat))
        chosen.append(position)
        env.step_from_view(position)
    return chosen


def test_reset_with_a_seed_replays_its_decisions():
    agent = ISMCTSAgent(iterations=SMALL)
    first = decisions(agent, seed=7)
    decisions(agent, seed=99)  # play something else in between
    assert decisions(agent, seed=7) == first
    assert decisions(ISMCTSAgent(seed=7, iterations=SMALL), seed=7) == first


def test_the_constructor_seed_fixes_the_decisions():
    def first_moves(seed):
        agent = ISMCTSAgent(seed=seed, iterations=SMALL)
        env = raw_env(num_players=3)
        env.reset(seed=5)
        moves = []
        for _ in range(8):
            moves.append(agent.act(env.view(env.game.current_player)))
            env.step_from_view(moves[-1])
        return moves

    assert first_moves(1) == first_moves(1)
    assert first_moves(1) != first_moves(2)  # checked: they differ from the very first flip (48 and 6)


def test_a_decision_depends_on_the_view_not_the_hidden_cards():
    # Two tables that differ only where nobody has looked: the views are equal, and so must be the choices.
    cards = {0: "M13", 1: "G4", 2: "G2", 3: "G1"}
    first_env = raw_env(num_players=2)
    first_env.reset(seed=0, options={"layout": layout(cards)})
    hidden = dict(BACKGROUND)  # G1 G1 G2 G2 G2 G3 G3 G3 G4 G4 D D at 52..63
    swapped = {**hidden, 52: "D", 63: "G1", 55: "G4", 60: "G2"}
    second_env = raw_env(num_players=2)
    second_env.reset(seed=0, options={"layout": layout({**cards, **swapped}, background=False)})
    for env in (first_env, second_env):
        for position in (0, 1, 2, 3):
            env.step_from_view(position)
    assert first_env.game.table != second_env.game.table
    first, second = first_env.view(0), second_env.view(0)
    assert first.cards == second.cards and first.unseen == second.unseen
    for seed in range(6):
        assert ISMCTSAgent(seed=seed, iterations=60).act(first) == ISMCTSAgent(seed=seed, iterations=60).act(second)


# --- the clear moves -----------------------------------------------------------------------


def scenario(cards, flips):
    """Two players on a small table (cards plus the conftest background) after some scripted flips."""
    env = raw_env(num_players=2)
    env.reset(seed=0, options={"layout": layout(cards), "first_player": 0})
    for position in flips:
        env.step_from_view(position)
    return env


def play_a_turn(agent, env):
    seat = env.game.current_player
    env.step_from_view(agent.act(env.view(seat)))
    assert env.game.face_up is not None and env.game.current_player == seat
    env.step_from_view(agent.act(env.view(seat)))
    return env.game.history[-1]


@pytest.mark.parametrize("seed", range(8))
def test_takes_a_strike_the_opponent_would_take_next(seed):
    # Turn 0, seat 0: the unowned M43 and a G4 (too heavy: nothing). Turn 1, seat 1: a G2 and a G1. Seat 0
    # can strike the G2 (or the G1) with the M43 now; if it waits, seat 1 takes the G2 with the same miner.
    env = scenario({0: "M43", 1: "G4", 2: "G2", 3: "G1"}, [0, 1, 2, 3])
    last = play_a_turn(ISMCTSAgent(seed=seed, iterations=200), env)
    assert (last.outcome, last.receiver) == (Outcome.STRIKE, 0)
    assert env.game.scores == (2, 0) and set(last.removed) == {0, 2}


@pytest.mark.parametrize("seed", range(8))
def test_takes_the_largest_gold_with_its_own_miner(seed):
    # Turn 0, seat 0: two golds, G4 and G1 (nothing). Turn 1, seat 1: seat 0's M05 and its own M24 duel; the M24
    # leaves. Seat 0 knows its M05 and the G4: four points, more than any card it has not seen could bring.
    env = scenario({0: "G4", 1: "G1", 2: "M05", 3: "M24"}, [0, 1, 2, 3])
    assert env.game.table[3] == -1 and env.game.scores == (0, 0)
    # 500 iterations: at 200 about one seed in eight still gambles on two unseen cards instead.
    last = play_a_turn(ISMCTSAgent(seed=seed, iterations=500), env)
    assert (last.outcome, last.receiver) == (Outcome.STRIKE, 0)
    assert env.game.scores == (4, 0) and set(last.removed) == {0, 2}


@pytest.mark.parametrize("material", [0.0, 0.3, 1.0])
def test_a_simulation_counts_the_miners_each_seat_lost(material):
    # Seat 0 duels its M05 against seat 1's M24: the M24 leaves the table and no gold moves, so the only
    # change the evaluation sees is seat 1's miner of strength 4 (seat 1, to move, has no strike to make).
    game = Game(2, layout({0: "M05", 1: "M24"}))
    agent = ISMCTSAgent(material=material)
    start = agent._standing(game)
    sim = _Table(game, {}, [], colour_owners(2), random.Random(0))
    assert [sim.flip(p) for p in (0, 1)] == [CODE.index("M05"), CODE.index("M24")]
    assert sim.miners_lost == [0, 4] and game.current_player == 1
    swing = material * 4 / SCORE_SCALE
    assert agent._evaluate(sim, start) == pytest.approx([swing, -swing])


def test_the_win_objective_reads_a_lead_against_the_gold_left():
    # The duel above again: no points have moved and seat 1, to move, has no strike, so each seat's lead is
    # the miner term alone, 0.3 * 4 = 1.2 points, read against the gold of the twelve background cards.
    game = Game(2, layout({0: "M05", 1: "M24"}))
    agent = ISMCTSAgent(objective="win")
    start = agent._standing(game)
    sim = _Table(game, {}, [], colour_owners(2), random.Random(0))
    sim.flip(0)
    sim.flip(1)
    gold = sum(VALUE[card] for card in game.table if card != -1 and IS_GOLD[card])
    assert game.gold_on_table == gold > 0
    # The model, stated as what it means: the final lead is normal around today's, with a spread of
    # WIN_SPREAD * sqrt(gold left + 0.5); a seat's value is its expected result, +1 a win, -1 a loss.
    from statistics import NormalDist

    final_lead = NormalDist(mu=1.2, sigma=WIN_SPREAD * math.sqrt(gold + 0.5))
    expected = (1 - final_lead.cdf(0)) - final_lead.cdf(0)
    assert agent._evaluate(sim, start) == pytest.approx([expected, -expected])
    assert 0 < expected < 0.5


@pytest.mark.parametrize("num_players, codes, values", [
    (2, "G4 G1", [1.0, -1.0]),
    (2, "G1 G4", [-1.0, 1.0]),
    (2, "G4 G4", [0.0, 0.0]),  # level on points and gold cards: both win, as a coin toss would give
    (3, "G4 G4 G1", [0.0, 0.0, -1.0]),
])
def test_the_win_objective_scores_a_finished_game_by_its_winners(num_players, codes, values):
    # So few cards are a Gold Rush from the start: each seat in turn takes the next gold.
    cards = dict(enumerate(codes.split()))
    game = Game(num_players, layout(cards, False))
    agent = ISMCTSAgent(objective="win")
    start = agent._standing(game)
    sim = _Table(game, {}, [], colour_owners(num_players), random.Random(0))
    for position in cards:
        sim.flip(position)
    assert game.is_finished
    assert agent._evaluate(sim, start) == values


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("horizon", [0, 1, 2])
def test_a_rollout_plays_whole_rounds_past_the_tree(num_players, horizon, monkeypatch):
    # One iteration adds the node after the first flip of the current turn, then the rollout plays on: it must
    # stop at the start of the turn `horizon` rounds later, where the same seat is about to move again.
    # The box's 35 miners fill positions 2 to 36, so that no rollout reaches the Gold Rush (played out in full).
    miners = [f"M{colour}{value}" for colour in range(5) for value in (2, 2, 3, 3, 4, 4, 5)]
    env = raw_env(num_players=num_players)
    env.reset(seed=3, options={"layout": layout({0: "G1", 1: "G2", **dict(enumerate(miners, start=2))})})
    # Two golds, then two miners of value 3, go back face down: the next seat has a choice to search (the
    # M03 could strike either gold).
    for position in (0, 1, 4, 11):
        env.step_from_view(position)
    turn, seat = env.game.turn, env.game.current_player
    assert env.game.scores == (0,) * num_players and turn == 2 and seat == 2 % num_players
    seen = []

    def recording(self, sim, start):
        seen.append((sim.game.turn, sim.game.current_player, sim.game.face_up))
        return [0.0] * num_players

    monkeypatch.setattr(ISMCTSAgent, "_evaluate", recording)
    ISMCTSAgent(seed=0, iterations=1, horizon=horizon).act(env.view(seat))
    if horizon == 0:
        assert len(seen) == 1 and seen[0][:2] == (turn, seat) and seen[0][2] is not None  # mid-turn, at the leaf
    else:
        assert seen == [(turn + horizon * num_players, seat, None)]


@pytest.mark.parametrize("widening, visits, offered", [(1.0, 2, 2), (1.0, 3, 2), (1.0, 4, 3), (1.0, 100, 6),
                                                    (0.5, 15, 2), (0.5, 16, 3), (None, 2, 6)])
def test_a_node_offers_more_moves_as_its_visits_grow(widening, visits, offered):
    # Six moves, the rollout policy's first: with widening w a node visited v times offers 1 + int(w * sqrt(v))
    # of them, in order; without widening, all six at once.
    node = _Node(0, [(kind, kind) for kind in range(6)])
    node.visits = visits
    for kind in range(6):
        node.stats[kind] = [1, 0.0]  # every move tried once and worth nothing: only the exploration term counts
    agent = ISMCTSAgent(widening=widening)
    seen = set()
    for _ in range(50):
        key, _ = agent._select(node)
        seen.add(key)
        node.stats[key][0] += 1  # a visit lowers the exploration term of that move (the node's stays put)
    assert seen == set(range(offered))


def test_an_untried_move_within_the_width_is_tried_first():
    node = _Node(0, [(kind, kind) for kind in range(6)])
    agent = ISMCTSAgent(widening=1.0)
    assert agent._select(node) == (0, 0)  # a new node: only the rollout policy's move is offered
    node.visits = 4
    assert agent._select(node) == (1, 1) and agent._select(node) == (2, 2)  # width 3: the two untried ones
    assert set(node.stats) == {0, 1, 2}


@pytest.mark.parametrize("first_known", [True, False])
def test_after_a_remembered_first_card_only_remembered_cards_are_searched(first_known):
    # Seat 0 remembers a G3 at 0 and an M04 at 1; positions 2 and 3 are unseen (an M22 and a G1 lie there).
    # Turning the G3 first and an unknown card second makes a pair the other order makes too, with a choice
    # left after the unknown card: after a remembered first card, the node offers remembered cards only.
    game = Game(2, layout({0: "G3", 1: "M04", 2: "M22", 3: "G1"}))
    kinds = card_kinds(2, colour_owners(2))
    known = {0: CODE.index("G3"), 1: CODE.index("M04")}
    sim = _Table(game, known, [3, 2], colour_owners(2), random.Random(0))
    sim.flip(0 if first_known else None)
    node = ISMCTSAgent()._node(sim, kinds, random.Random(0))
    keys = {key for key, _ in node.actions}
    if first_known:
        assert keys == {kinds[CODE.index("M04")]}
    else:  # the card turned at 2 is face up: the G3 and M04 are remembered, and one unknown card is left
        assert keys == {kinds[CODE.index("G3")], kinds[CODE.index("M04")], -1}


def test_an_unseen_card_is_drawn_uniformly_when_it_is_flipped():
    # Three unseen positions hold a G1, a G2 and a G3 in the engine's copy. The search deals them as they are
    # flipped: over many draws each order of the three cards comes up about as often (a sixth each).
    codes = {5: "G1", 6: "G2", 7: "G3"}
    game = Game(2, layout(codes))
    trials, orders = 3000, {}
    rng = random.Random(11)
    for _ in range(trials):
        sim = _Table(game.copy(), {}, [7, 6, 5], colour_owners(2), rng)
        order = tuple(CODE[sim.flip(None)] for _ in range(3))  # a first card, a second card, then the next turn
        orders[order] = orders.get(order, 0) + 1
        assert sorted(sim.game.initial_layout[p] for p in codes) == sorted(CODE.index(c) for c in codes.values())
    assert set(orders) == set(itertools.permutations(codes.values()))
    expected, spread = trials / 6, math.sqrt(trials * (1 / 6) * (5 / 6))
    assert all(abs(count - expected) < 4 * spread for count in orders.values()), orders


@pytest.mark.parametrize("remembered, offered", [
    # A G4 and a weak own miner (M02) do nothing together: turning either first is a pass, so only an
    # unknown card is offered.
    ({0: "G4", 1: "M02"}, set()),
    # Dynamite acts with anything remembered, and the G4 acts with the dynamite.
    ({0: "G4", 1: "M02", 2: "D"}, {"G4", "M02", "D"}),
    # A strong miner strikes the G4 and beats the M02: all three act with something.
    ({0: "G4", 1: "M02", 2: "M35"}, {"G4", "M02", "M35"}),
    # Two G4 do nothing together.
    ({0: "G4", 1: "G4"}, set()),
])
def test_a_first_card_that_can_only_make_nothing_is_not_searched(remembered, offered):
    game = Game(2, layout({**remembered, 10: "G1", 11: "M23"}))
    kinds = card_kinds(2, colour_owners(2))
    known = {p: CODE.index(code) for p, code in remembered.items()}
    sim = _Table(game, known, [11, 10], colour_owners(2), random.Random(0))
    node = ISMCTSAgent()._node(sim, kinds, random.Random(0))
    assert {key for key, _ in node.actions} == {kinds[CODE.index(code)] for code in offered} | {-1}


def test_a_pass_is_searched_when_no_unknown_card_is_left():
    # Eleven cards, all remembered (more than ten: no Gold Rush yet). The G4 acts with none of them, but
    # with no unknown card to turn instead, a pass may be the best move left.
    codes = ["G4", "G1", "G1", "G2", "G2", "G2", "G3", "M02", "M12", "M03", "M13"]
    game = Game(2, layout(dict(enumerate(codes)), background=False))
    assert not game.gold_rush
    kinds = card_kinds(2, colour_owners(2))
    sim = _Table(game, {p: CODE.index(code) for p, code in enumerate(codes)}, [], colour_owners(2),
                 random.Random(0))
    node = ISMCTSAgent()._node(sim, kinds, random.Random(0))
    assert {key for key, _ in node.actions} == {kinds[CODE.index(code)] for code in codes}


def test_an_unknown_second_card_stays_when_nothing_else_is_remembered():
    game = Game(2, layout({0: "G3", 2: "M22", 3: "G1"}))
    sim = _Table(game, {0: CODE.index("G3")}, [3, 2], colour_owners(2), random.Random(0))
    sim.flip(0)
    node = ISMCTSAgent()._node(sim, card_kinds(2, colour_owners(2)), random.Random(0))
    assert [key for key, _ in node.actions] == [-1]


def test_decide_plays_as_act_and_spreads_its_move_and_visits_over_positions():
    # Two agents with one seed: one acts, the other decides; they must flip alike through a whole game. The
    # move and the visit shares decide returns are distributions over the legal positions in which positions
    # the search cannot tell apart (unknown ones; remembered cards of one kind) share alike; the move is one
    # of those classes, the one holding the flip.
    env = raw_env(num_players=2)
    env.reset(seed=21)
    acting, deciding = ISMCTSAgent(seed=5, iterations=SMALL), ISMCTSAgent(seed=5, iterations=SMALL)
    kinds = card_kinds(2, colour_owners(2))
    spread = 0
    while not env.game.is_finished:
        view = env.view(env.game.current_player)
        position, move, visits = deciding.decide(view)
        assert acting.act(view) == position
        legal = np.asarray(view.action_mask, bool)
        cards = np.asarray(view.cards)
        kind_of = np.array([kinds[c] if c >= 0 else -1 for c in cards])
        classes = [legal & (cards == UNKNOWN)] + [legal & (cards >= 0) & (kind_of == kind)
                                                  for kind in set(kind_of[legal & (cards >= 0)])]
        for shares in (move, visits):
            assert shares.shape == legal.shape and shares.sum() == pytest.approx(1.0)
            assert np.all(shares[~legal] == 0) and shares[position] > 0
            for alike in classes:
                if alike.any():
                    assert np.ptp(shares[alike]) < 1e-12
        [played] = [alike for alike in classes if alike[position]]
        np.testing.assert_allclose(move, played / played.sum())
        spread += int(np.count_nonzero(visits) > np.count_nonzero(move))
        env.step_from_view(position)
    assert spread > 10, "the visits should often go to more than the move played"


RUSH_GOLDS = ["G1", "G1", "G2", "G2", "G2", "G3", "G3", "G3"]


def gold_rush_scenario(gold_at, seed=0, **config):
    # Turn 0, seat 0: a G4 and an M02 (too weak: nothing). Turn 1, seat 1: dynamite and a G1, both gone. Ten
    # cards are left, so the Gold Rush begins with seat 0, which remembers where the G4 lies.
    cards = {gold_at: "G4", 1: "M02", 2: "D", 3: "G1", **{52 + i: code for i, code in enumerate(RUSH_GOLDS)}}
    env = raw_env(num_players=2, **config)
    env.reset(seed=seed, options={"layout": layout(cards, background=False)})
    for position in (gold_at, 1, 2, 3):
        env.step_from_view(position)
    assert env.game.gold_rush and env.game.current_player == 0 and env.game.cards_left == 10
    return env


@pytest.mark.parametrize("gold_at", [0, 40])
@pytest.mark.parametrize("seed", range(5))
def test_gold_rush_takes_the_remembered_gold(gold_at, seed):
    env = gold_rush_scenario(gold_at)
    assert ISMCTSAgent(seed=seed, iterations=SMALL).act(env.view(0)) == gold_at


@pytest.mark.parametrize("horizon", [0, 1])
def test_a_rollout_plays_the_gold_rush_to_the_end(horizon, monkeypatch):
    # In the Gold Rush each turn flips one card: a horizon counted in turns would stop with cards on the table,
    # and their gold unclaimed. The rollout plays the rush out whatever the horizon.
    env = gold_rush_scenario(40)
    ends = []

    def recording(self, sim, start):
        ends.append((sim.game.is_over, sim.game.cards_left))
        return [0.0, 0.0]

    monkeypatch.setattr(ISMCTSAgent, "_evaluate", recording)
    ISMCTSAgent(seed=0, iterations=5, horizon=horizon).act(env.view(0))
    assert ends == [(True, 0)] * 5


@pytest.mark.parametrize("seed", range(3))
def test_gold_rush_takes_the_remembered_gold_with_human_memory(seed):
    env = gold_rush_scenario(0, seed=seed, memory="human", memory_capacity=6, forget_prob=0.0)
    view = env.view(0)
    assert view.cards[0] == CODE.index("G4") and view.cards[1] == CODE.index("M02")
    assert ISMCTSAgent(seed=seed, iterations=SMALL).act(view) == 0


# --- argument checks --------------------------------------------------------------------------


@pytest.mark.parametrize("argument, value", [
    ("iterations", 0), ("iterations", -5), ("iterations", True), ("iterations", 2.5), ("iterations", "100"),
    ("iterations", None),
    ("horizon", -1), ("horizon", True), ("horizon", 1.5), ("horizon", "2"),
    ("exploration", -0.1), ("exploration", True), ("exploration", "0.7"), ("exploration", math.nan),
    ("exploration", None), ("exploration", math.inf),
    ("material", -0.3), ("material", True), ("material", "0.3"), ("material", math.nan), ("material", None),
    ("material", math.inf),
    ("widening", 0), ("widening", -1.0), ("widening", True), ("widening", "1"), ("widening", math.nan),
    ("widening", math.inf),
    ("opponents", "greedy"), ("objective", "wins"), ("objective", None),
    ("seconds", 0), ("seconds", -1.0), ("seconds", True), ("seconds", "1"), ("seconds", math.nan),
    ("seconds", math.inf),
])
def test_bad_arguments_are_refused_naming_the_value(argument, value):
    with pytest.raises(GoldrushEnvError, match=re.escape(argument) + " must be .*got " + re.escape(repr(value))):
        ISMCTSAgent(**{argument: value})


def test_the_boundary_arguments_are_accepted():
    agent = ISMCTSAgent(iterations=1, horizon=0, exploration=0, material=0)
    assert (agent.iterations, agent.horizon, agent.exploration, agent.material) == (1, 0, 0.0, 0.0)
    assert ISMCTSAgent(horizon=None).horizon is None
    assert ISMCTSAgent(widening=None).widening is None and ISMCTSAgent(widening=np.float32(0.5)).widening == 0.5
    assert ISMCTSAgent(exploration=2).exploration == 2.0
    numpy_ints = ISMCTSAgent(iterations=np.int64(50), horizon=np.int32(1), exploration=np.float32(0.5))
    assert (numpy_ints.iterations, numpy_ints.horizon, numpy_ints.exploration) == (50, 1, 0.5)
    assert type(numpy_ints.iterations) is int and type(numpy_ints.horizon) is int


def test_a_time_budget_stops_the_search_with_iterations_left():
    """The per-move deadline of goldrush serve: a billion iterations, a budget of a twentieth of a second."""
    env = raw_env(num_players=3)
    env.reset(seed=2)
    player = make_agent("random", seed=2)
    for _ in range(6):  # four cards known and none face up: the search has several moves to weigh
        env.step_from_view(player.act(env.view(env.game.current_player)))
    view = env.view(env.game.current_player)
    assert view.face_up is None and sum(card >= 0 for card in view.cards) == 4
    agent = ISMCTSAgent(seed=1, iterations=10**9, seconds=0.05)
    position = agent.act(view)
    assert position in view.legal_actions
    assert 1 <= agent.simulations < 10**9
    unbudgeted = ISMCTSAgent(seed=1, iterations=40)
    unbudgeted.act(view)
    assert unbudgeted.simulations == 40 and unbudgeted.seconds is None
