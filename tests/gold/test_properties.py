"""Invariants of the engine over random layouts, player counts and legal flip sequences."""

import json
import random

import numpy as np
from hypothesis import given, settings, strategies as st

from goldrush_env.gold.cards import EMPTY, IS_GOLD, NUM_POSITIONS, TOTAL_GOLD, VALUE, full_box
from goldrush_env.gold.engine import Game, Outcome
from conftest import flippable

MAX_FLIPS = 100_000  # random play ends long before this; reaching it would be a bug


@st.composite
def games(draw, max_turns=st.none()):
    """A game on a random part of the box, in random places, for 2-5 players."""
    box = full_box()
    order = draw(st.permutations(range(NUM_POSITIONS)))
    keep = draw(st.lists(st.booleans(), min_size=NUM_POSITIONS, max_size=NUM_POSITIONS)
                | st.just([True] * NUM_POSITIONS))
    layout = [box[order[p]] if keep[p] else EMPTY for p in range(NUM_POSITIONS)]
    num_players = draw(st.integers(2, 5))
    first_player = draw(st.integers(0, num_players - 1))
    return Game(num_players, layout, first_player=first_player, max_turns=draw(max_turns))


def play_randomly(game: Game, rng: random.Random, check=lambda game: None) -> None:
    for _ in range(MAX_FLIPS):
        if game.is_finished:
            return
        legal = flippable(game)
        game.step(rng.choice(legal))
        check(game)
    raise AssertionError("random play did not end")


def check_invariants(game: Game) -> None:
    initial = game.initial_layout
    table = game.table
    on_table = {p for p in range(NUM_POSITIONS) if table[p] != EMPTY}
    removed = [p for event in game.history for p in event.removed]
    # Every card is on the table in its own place, or has left it exactly once.
    assert len(removed) == len(set(removed))
    assert on_table.isdisjoint(removed)
    assert on_table | set(removed) == {p for p in range(NUM_POSITIONS) if initial[p] != EMPTY}
    assert all(table[p] == initial[p] for p in on_table)
    assert game.cards_left == len(on_table)
    # Gold held is the gold that left the table, less what dynamite destroyed.
    destroyed = [p for event in game.history if event.outcome is Outcome.DYNAMITE for p in event.removed
                 if IS_GOLD[initial[p]]]
    left_table = [p for p in removed if IS_GOLD[initial[p]]]
    assert sum(game.scores) == sum(VALUE[initial[p]] for p in left_table) - sum(VALUE[initial[p]] for p in destroyed)
    assert sum(game.gold_cards) == len(left_table) - len(destroyed)
    assert sum(game.scores) <= TOTAL_GOLD
    # Legal flips are exactly the face-down cards.
    face_up = game.face_up
    if game.is_finished:
        assert flippable(game) == []
    else:
        assert flippable(game) == sorted(on_table - {face_up})
    if face_up is not None:
        assert face_up in on_table and not game.gold_rush


@settings(max_examples=150, deadline=None)
@given(games(), st.randoms(use_true_random=False))
def test_invariants_hold_at_every_step_and_random_play_ends(game, rng):
    check_invariants(game)
    rush_seen = game.gold_rush
    turns = [game.turn]

    def check(game):
        nonlocal rush_seen
        check_invariants(game)
        assert game.gold_rush or not rush_seen, "the Gold Rush never ends once begun"
        rush_seen = game.gold_rush
        assert game.turn in (turns[-1], turns[-1] + 1)
        turns.append(game.turn)

    play_randomly(game, rng, check)
    assert game.is_over
    assert game.cards_left == 0 and game.winners


@settings(max_examples=60, deadline=None)
@given(games(max_turns=st.integers(1, 40)), st.randoms(use_true_random=False))
def test_turn_limit_truncates_or_the_game_ends_first(game, rng):
    play_randomly(game, rng)
    assert game.is_over != game.is_truncated
    if game.is_truncated:
        assert game.turn == game.max_turns and game.winners == game.leaders()
    else:
        assert game.turn <= game.max_turns


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2**32 - 1))
def test_same_seed_same_game(num_players, seed):
    def play(seed):
        rng = np.random.default_rng(seed)
        game = Game.new(num_players, rng)
        while not game.is_over:
            legal = flippable(game)
            game.step(legal[rng.integers(len(legal))])
        return game

    first, second = play(seed), play(seed)
    assert first == second
    assert first.history == second.history
    assert Game.new(num_players, seed).table == Game.new(num_players, seed).table


def test_different_seeds_deal_different_tables():
    tables = {Game.new(2, seed).table for seed in range(20)}
    assert len(tables) == 20
    assert all(sorted(table) == full_box() for table in tables)


@settings(max_examples=80, deadline=None)
@given(games(max_turns=st.none() | st.integers(1, 80)), st.randoms(use_true_random=False), st.integers(0, 150))
def test_copy_and_serialisation_round_trip_exactly(game, rng, stop_after):
    for _ in range(stop_after):  # stop anywhere, mid-turn included
        if game.is_finished:
            break
        game.step(rng.choice(flippable(game)))
    snapshot = game.to_record()

    clone = game.copy()
    restored = Game.from_record(snapshot)
    from_json = Game.from_record(json.loads(json.dumps(snapshot)))
    for other in (clone, restored, from_json):
        assert other == game
        assert other.history == game.history and other.face_up == game.face_up

    # The copies are independent: playing one on leaves the original as it was.
    seed = rng.random()
    play_randomly(clone, random.Random(seed))
    assert game.to_record() == snapshot
    play_randomly(restored, random.Random(seed))
    assert restored == clone
