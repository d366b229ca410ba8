"""The exact solver (goldrush_agents.gold.optimal) on the 2-seat public state of goldrush_agents.gold.turns: its
values against an independent recursion (tests/gold/optimal_reference.py), and turns' one-turn search over them.
(tests/gold/test_turns.py holds the public state itself to the engine, at every number of seats.)"""

import numpy as np
import pytest

from goldrush_env.gold import raw_env
from goldrush_env.errors import GoldrushEnvError
from goldrush_agents import make_agent
from goldrush_agents.gold.optimal import ExactTable, OptimalAgent
from goldrush_agents.gold import turns
from goldrush_agents.gold.turns import Games, Search, num_kinds, rules, start_turns

from optimal_reference import Solver

NUM_KINDS = num_kinds(2)
SHIFT = rules(2).per_kind[turns.SHIFT]
"""The next seat's frame: at two seats, the other seat's."""


def test_the_next_seat_at_two_seats_swaps_the_seats_and_nothing_else():
    assert (SHIFT[SHIFT] == np.arange(NUM_KINDS)).all()
    assert (SHIFT[:5] == np.arange(5)).all()  # gold and dynamite belong to nobody
    assert (SHIFT[13:] == np.arange(13, 17)).all()  # nor do the unowned miners
    assert (SHIFT[5:9] == np.arange(9, 13)).all()


def _games(known, unseen, mover, lead, cards_lead):
    """A turn-start state given in seat 0's frame (the solved table's), as a batch of one game in the mover's."""
    if mover == 1:
        known, unseen, lead, cards_lead = known[SHIFT], unseen[SHIFT], -lead, -cards_lead
    games = Games(known[None].copy(), unseen[None].copy(), np.full(1, -1), np.array([[max(lead, 0), max(-lead, 0)]]),
                  np.array([[max(cards_lead, 0), max(-cards_lead, 0)]]), np.zeros(1, np.bool_), np.zeros(1, np.int64),
                  np.array([mover]), np.zeros(1, np.bool_))
    start_turns(games, rules(2), 3)
    return games


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
    assert (box[SHIFT] == box).all()
    first = exact.value(nothing, box, 0, 0, 0)
    assert exact.value(nothing, box, 1, 0, 0) == pytest.approx(1 - first, abs=1e-6)
    assert 0 < first < 1


def test_the_search_over_exact_values_is_exact():
    """One turn of turns' search with the exact values at its leaves gives the exact value of the turn."""
    box = np.zeros(NUM_KINDS, dtype=np.int64)
    box[[0, 1, 4, 6, 7, 11, 13]] = 1
    exact = ExactTable(box, 3)
    rng = np.random.default_rng(3)
    checked = 0
    for known, unseen, mover, lead, cards_lead in _random_states(box, rng, 100):
        if abs(lead) > (known + unseen)[:4] @ np.arange(1, 5) or not (known + unseen).any():
            continue
        _, options = exact.search().options(_games(known, unseen, mover, lead, cards_lead))
        value = exact.value(known, unseen, mover, lead, cards_lead)
        # a pass is valued as the other seat's turn at the same table, which makes the best move the turn's value
        assert np.nanmax(options[0]) == pytest.approx(value if mover == 0 else 1 - value, abs=1e-6)
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
    search = Search(2, 3, lambda games: np.full((len(games.seat), 2), 0.5), on_states=True)
    _, options = search.options(Games.new("quarter", 2, [0]))
    assert np.flatnonzero(~np.isnan(options[0])).tolist() == [NUM_KINDS]  # only an unseen card to turn at the start
