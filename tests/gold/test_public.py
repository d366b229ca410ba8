"""The public state (goldrush_agents.gold.public) against the engine, and the exact solver (optimal) against an
independent recursion (tests/gold/optimal_reference.py)."""

import numpy as np
import pytest

from goldrush_env.gold import raw_env
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.cards import TABLES
from goldrush_agents import make_agent
from goldrush_agents.gold.optimal import ExactTable, OptimalAgent
from goldrush_agents.gold.public import (KIND_OF_CARD, NUM_KINDS, RELATIVE, PublicGame, PublicState, TurnSearch,
                                         frame_of, is_stalemate, table_counts)

from optimal_reference import Solver


@pytest.mark.parametrize("table", list(TABLES))
def test_public_game_follows_the_engine_flip_by_flip(table):
    """Random games on the engine: each seat's view gives one public state, and PublicGame, told the kind of each
    card turned, reaches the engine's next public state at every flip, to the end."""
    env = raw_env(table=table)
    flips = 0
    for seed in range(6):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        game = PublicGame(table_counts(table), TABLES[table].rush_at, first_player=0)
        while not env.game.is_finished:
            views = [env.view(seat) for seat in range(2)]
            state = PublicState.of(views[env.game.current_player])
            assert PublicState.of(views[1 - env.game.current_player]) == state  # both seats know the same
            assert game.state == state
            mover = views[env.game.current_player]
            position = int(rng.choice(mover.legal_positions))
            remembered = mover.cards[position] >= 0
            env.step_from_view(position)
            game.flip(KIND_OF_CARD[env.game.history[-1].card], unseen=not remembered)
            flips += 1
        assert game.cards == 0
        assert np.sign(game.lead) == np.sign(env.game.scores[0] - env.game.scores[1])
    assert flips > 100


def test_relative_kinds_swap_the_seats_and_nothing_else():
    assert (RELATIVE[RELATIVE] == np.arange(NUM_KINDS)).all()
    assert (RELATIVE[:5] == np.arange(5)).all()  # gold and dynamite belong to nobody
    assert (RELATIVE[13:] == np.arange(13, 17)).all()  # nor do the unowned miners
    assert (RELATIVE[5:9] == np.arange(9, 13)).all()


def test_public_game_refuses_a_card_that_is_not_there():
    game = PublicGame(table_counts("quarter"), TABLES["quarter"].rush_at)
    with pytest.raises(GoldrushEnvError, match="no remembered card of kind 0"):
        game.flip(0)
    with pytest.raises(GoldrushEnvError, match="no unseen card of kind 5"):
        game.flip(5, unseen=True)  # the quarter table has no miner of strength 2


def _random_states(box, rng, count):
    for _ in range(count):
        known = np.array([rng.integers(0, n + 1) for n in box])
        unseen = np.array([rng.integers(0, n - k + 1) for n, k in zip(box, known)])
        lead = cards_lead = 0
        for kind in range(4):  # the gold gone: taken by either seat, or blown up
            for _ in range(box[kind] - known[kind] - unseen[kind]):
                to = rng.choice([1, -1, 0])
                lead, cards_lead = lead + to * (kind + 1), cards_lead + to
        yield known, unseen, int(rng.integers(2)), lead, cards_lead


@pytest.mark.parametrize("kinds", [(0, 1, 4, 6, 7, 11, 13), (1, 2, 3, 6, 10, 14, 15), (0, 3, 4, 7, 8, 9, 11)])
def test_exact_table_agrees_with_an_independent_recursion(kinds):
    """Small boxes cut from the quarter table (one or two cards of seven kinds): every state's value from the
    compiled bottom-up solver equals the memoized recursion's, passes and Gold Rush included."""
    box = np.zeros(NUM_KINDS, dtype=np.int64)
    box[list(kinds)] = 1
    box[kinds[1]] = 2
    exact, reference = ExactTable(box, 3), Solver(3)
    rng = np.random.default_rng(sum(kinds))
    for known, unseen, mover, lead, cards_lead in _random_states(box, rng, 300):
        expected = reference._turn(tuple(known.tolist()), tuple(unseen.tolist()), mover, lead, cards_lead)
        assert exact.value(known, unseen, mover, lead, cards_lead) == pytest.approx(expected, abs=1e-6)


def test_exact_values_see_the_seats_alike():
    """A box that is the same with the seats swapped: seat 0 moving first is worth to it what seat 1 moving first
    is worth to seat 1."""
    box = np.zeros(NUM_KINDS, dtype=np.int64)
    box[[0, 1, 2, 4, 6, 10, 13]] = 1
    box[[7, 11]] = 2
    exact = ExactTable(box, 3)
    nothing = np.zeros(NUM_KINDS, dtype=np.int64)
    assert (box[RELATIVE] == box).all()
    first = exact.value(nothing, box, 0, 0, 0)
    assert exact.value(nothing, box, 1, 0, 0) == pytest.approx(1 - first, abs=1e-6)
    assert 0 < first < 1


def test_the_search_over_exact_values_is_exact():
    """One turn of TurnSearch with the exact values at its leaves gives the exact value of the turn."""
    box = np.zeros(NUM_KINDS, dtype=np.int64)
    box[[0, 1, 4, 6, 7, 11, 13]] = 1
    exact = ExactTable(box, 3)
    rng = np.random.default_rng(3)
    checked = 0
    for known, unseen, mover, lead, cards_lead in _random_states(box, rng, 100):
        if abs(lead) > (known + unseen)[:4] @ np.arange(1, 5) or not (known + unseen).any():
            continue
        rush = known.sum() + unseen.sum() <= 3 or is_stalemate(known + unseen)
        state = PublicState(tuple(known.tolist()), tuple(unseen.tolist()), mover, lead, cards_lead, -1, rush)
        options = exact.search(mover).options(frame_of(state))
        value = exact.value(known, unseen, mover, lead, cards_lead)
        # a pass is valued as the other seat's turn at the same table, which makes the best move the turn's value
        assert options.values.max() == pytest.approx(value if mover == 0 else 1 - value, abs=1e-6)
        checked += 1
    assert checked > 50


def test_optimal_plays_the_quarter_table_only():
    env = raw_env(num_players=2)
    env.reset(seed=0)
    with pytest.raises(GoldrushEnvError, match="optimal plays 2 players on the tables \\['quarter'\\] only"):
        OptimalAgent(seed=0).act(env.view(0))
    env = raw_env(num_players=3, table="quarter")
    env.reset(seed=0)
    with pytest.raises(GoldrushEnvError, match="got 3 players"):
        make_agent("optimal", seed=0).act(env.view(0))


def test_at_the_deal_the_only_move_is_an_unseen_card():
    search = TurnSearch(lambda k, u, lead, cards_lead, rush: np.full(len(k), 0.5), 3)
    state = PublicGame(table_counts("quarter"), 3).state
    options = search.options(frame_of(state))
    assert options.actions.tolist() == [NUM_KINDS]  # only an unseen card to turn at the start
