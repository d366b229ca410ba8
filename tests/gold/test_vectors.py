"""Every game of the shared rule vectors, and of the boundary vectors our second model wrote, replayed flip by
flip."""

import pytest
from conftest import flippable, load_vectors

from goldrush_env.gold.engine import Game

VECTORS = load_vectors()
BOUNDARY = load_vectors("boundary_vectors.jsonl")


def test_all_vectors_are_present():
    assert len(VECTORS) == 210
    assert len({vector["name"] for vector in VECTORS}) == 210


@pytest.mark.parametrize("vector", VECTORS + BOUNDARY, ids=[vector["name"] for vector in VECTORS + BOUNDARY])
def test_vector_replays_exactly(vector):
    game = Game(num_players=vector["num_players"], layout=vector["layout"], first_player=vector["first_player"])
    for index, (position, outcome) in enumerate(zip(vector["flips"], vector["outcomes"], strict=True)):
        assert position in flippable(game), f"flip #{index} at {position} should be legal"
        assert game.step(position).label == outcome, f"flip #{index} at {position}"
    expected = vector["expected"]
    assert game.is_over
    assert list(game.scores) == expected["scores"]
    assert list(game.gold_cards) == expected["gold_cards"]
    assert list(game.winners) == expected["winners"]
    assert game.turn == expected["turns"]
    assert game.gold_rush_from_turn == expected["gold_rush_from_turn"]
    assert [event.label for event in game.history] == vector["outcomes"]
