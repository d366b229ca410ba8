"""Invariants of the piecepack engine under random legal play (hypothesis)."""

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.components import CLAIM_ROUNDS, MARKERS, NUM_PLOTS, NUM_ROUNDS, TRADE_ROUTE, WAREHOUSE
from goldrush_env.piecepack.engine import _PHASE_ACTIONS, Game, Phase

SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.sampled_from([3, 4])
QUICK = settings(max_examples=30, deadline=None)


def play(game, seed, check=lambda game: None):
    """Random legal play to the end. END actions are drawn less often, so the economy moves a little."""
    rng = np.random.default_rng(seed)
    while not game.is_over:
        legal = game.legal_actions()
        assert legal, f"no legal action at {game.phase}"
        busy = [a for a in legal if a not in (312, 485)] if rng.random() < 0.7 else []
        game.step(int(rng.choice(busy or legal)))
        check(game)
    return game


def check_holdings(game):
    assert all(units >= 0 for held in game.holdings for units in held)
    assert all(0 <= markers <= MARKERS for markers in game.markers)


@QUICK
@given(PLAYERS, SEEDS, SEEDS)
def test_holdings_never_go_negative_and_every_game_ends_after_round_nine(players, seed, policy):
    game = play(Game.new(players, seed), policy, check_holdings)
    assert game.round == NUM_ROUNDS and [r["round"] for r in game.rounds] == list(range(1, 10))
    assert len(game.to_record()["dice"]) == NUM_ROUNDS
    assert game.winners() and set(game.winners()) <= set(range(players))


@QUICK
@given(PLAYERS, SEEDS, SEEDS)
def test_claims_fill_the_field_on_schedule(players, seed, policy):
    game = play(Game.new(players, seed), policy)
    last = CLAIM_ROUNDS[players]
    for snapshot in game.rounds:
        assert sum(owner >= 0 for owner in snapshot["owners"]) == min(24, players * min(snapshot["round"], last))
    assert all(owner >= 0 for owner in game.owner)
    assert sum(game.markers) == players * MARKERS - 24


@QUICK
@given(PLAYERS, SEEDS, SEEDS)
def test_same_seed_same_game_and_records_round_trip(players, seed, policy):
    first = play(Game.new(players, seed), policy).to_record()
    assert play(Game.new(players, seed), policy).to_record() == first
    assert Game.from_record(first).to_record() == first


@settings(max_examples=15, deadline=None)
@given(PLAYERS, SEEDS, SEEDS)
def test_mask_matches_the_stated_reasons_and_copies_are_independent(players, seed, policy):
    game = Game.new(players, seed)
    rng = np.random.default_rng(policy)
    while not game.is_over:
        mask = game.legal_mask()
        assert mask.any() and not mask[[a for a in range(488) if a not in _PHASE_ACTIONS[game.phase]]].any()
        for action in _PHASE_ACTIONS[game.phase]:
            assert mask[action] == (game.why_illegal(action) is None), (game.phase, action)
        if rng.random() < 0.05:  # a copy plays on alone and draws the same dice
            twin = game.copy()
            action = int(rng.choice(np.flatnonzero(mask)))
            before = game.to_record()
            twin.step(action)
            assert game.to_record() == before
            game.step(action)
            assert twin.to_record() == game.to_record()
        else:
            game.step(int(rng.choice(np.flatnonzero(mask))))
    assert game.phase is Phase.GAME_OVER


KEEN = {A.MARKET_ROLL, *range(A.TRADE_ROUTE, A.MARKET_ROLL), *range(A.UPGRADE, A.END_DEVELOPMENT),
        *range(A.BUILD + NUM_PLOTS * TRADE_ROUTE, A.BUILD + NUM_PLOTS * (WAREHOUSE + 1))}
"""The Market, Trade Routes, upgrades and the scoring buildings: what random play from thin holdings never reaches."""


def test_the_mask_agrees_with_the_reasons_in_rich_economies():
    """From holdings of 12 of everything, taking those actions half the time they are legal, the mask must still
    match :meth:`Game.why_illegal` at every step (of four games, which between them reach each kind)."""
    reached = set()
    for players, seed in [(3, 0), (3, 1), (4, 2), (4, 3)]:
        game = Game.new(players, seed)
        for held in game.holdings:
            held[:] = [12, 12, 12, 12]
        rng = np.random.default_rng(seed)
        while not game.is_over:
            mask = game.legal_mask()
            for action in _PHASE_ACTIONS[game.phase]:
                assert mask[action] == (game.why_illegal(action) is None), (game.phase, action)
            legal = np.flatnonzero(mask)
            keen = [int(a) for a in legal if a in KEEN]
            reached.update(keen)
            game.step(int(rng.choice(keen)) if keen and rng.random() < 0.5 else int(rng.choice(legal)))
    assert A.MARKET_ROLL in reached and any(A.TRADE_ROUTE <= a < A.MARKET_ROLL for a in reached) \
        and any(A.UPGRADE <= a < A.END_DEVELOPMENT for a in reached)


def test_dealt_dice_are_fair_six_sided_dice():
    """A game dealt from a seed rolls its four production dice from the generator: over many deals every face
    (0-5, 0 the Null) comes up on every die, about equally often, and no other."""
    faces = Counter()
    for seed in range(600):
        faces.update(enumerate(Game.new(3, seed=seed).dice))  # round 1's roll (A2)
    assert set(faces) == {(die, face) for die in range(4) for face in range(6)}
    assert min(faces.values()) > 600 / 6 * 0.7
