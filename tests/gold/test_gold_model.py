"""The second model of Gold's rules (tests/gold_model.py): it replays the shared vectors, it wrote the boundary
vectors, and it agrees with the engine flip by flip on random games and random partial tables."""

import json
import random

from conftest import DATA, flippable, load_vectors
from gold_model import Model, boundary_vectors

from goldrush_env.gold.engine import Game

BOX = (["G1"] * 5 + ["G2"] * 7 + ["G3"] * 7 + ["G4"] * 5 + ["D"] * 5
       + [f"M{colour}{value}" for colour in range(5) for value in (2, 2, 3, 3, 4, 4, 5)])


def test_the_model_replays_every_shared_vector():
    vectors = load_vectors()
    for vector in vectors:
        model = Model(vector["num_players"], vector["layout"], vector["first_player"])
        outcomes = [model.flip(position) for position in vector["flips"]]
        assert outcomes == vector["outcomes"], vector["name"]
        assert model.is_over and model.expected() == vector["expected"], vector["name"]
    assert len(vectors) == 210


def test_the_boundary_vectors_are_what_the_model_writes():
    with open(DATA / "boundary_vectors.jsonl") as handle:
        stored = [json.loads(line) for line in handle if line.strip()]
    assert stored == boundary_vectors()


def test_the_boundary_vectors_play_on_at_d3s_edge():
    """Two boundary vectors start turns, with more than ten cards, at D3's edge (one miner value, equal to the
    lowest gold) and play them normally: a stalemate test written with <= instead of < fails them."""
    played_on = set()
    for vector in boundary_vectors():
        model = Model(vector["num_players"], vector["layout"], vector["first_player"])
        for position in vector["flips"]:
            if model.face_up is None and len(model.cards()) > 10 and at_the_edge(model.cards()):
                assert model.rush_from is None
                played_on.add(vector["name"])
            model.flip(position)
    assert played_on == {"d3_miner_equal_to_lowest_gold_plays_on", "d3_duel_leaves_a_miner_equal_to_the_lowest_gold"}


def random_layout(rng: random.Random) -> list[str]:
    """Part of the box at random places. Half the tables hold, with no dynamite, one or two miner values and
    only the golds from the lower value, or one below it, up, so that the stalemate rule (D3) and its edge come
    up."""
    box = BOX
    if rng.random() < 0.5:
        values = rng.sample("234", rng.choice((1, 2)))
        lowest = str(int(min(values)) - rng.randint(0, 1))
        box = [code for code in BOX
               if (code[0] == "M" and code[-1] in values) or (code[0] == "G" and code[-1] >= lowest)]
    cards = rng.sample(box, rng.randint(1, len(box)))
    layout = cards + ["-"] * (64 - len(cards))
    rng.shuffle(layout)
    return layout


def test_engine_and_model_agree_flip_by_flip():
    rng = random.Random(0)
    stalemates = edges = 0
    for _ in range(400):
        num_players, first = rng.randint(2, 5), 0
        first = rng.randrange(num_players)
        layout = random_layout(rng)
        game, model = Game(num_players=num_players, layout=layout, first_player=first), Model(num_players, layout, first)
        for _ in range(5000):
            assert game.gold_rush == (model.rush_from is not None)
            if model.face_up is None and len(model.cards()) > 10:
                stalemates += model.rush_from == model.turns
                edges += model.rush_from is None and at_the_edge(model.cards())
            legal = [p for p, code in enumerate(model.table) if code != "-" and p != model.face_up]
            assert flippable(game) == legal
            if model.is_over:
                break
            position = rng.choice(legal)
            assert game.step(position).label == model.flip(position), (layout, position)
        assert game.is_over and model.is_over
        expected = model.expected()
        assert (list(game.scores), list(game.gold_cards), list(game.winners), game.turn, game.gold_rush_from_turn) \
            == (expected["scores"], expected["gold_cards"], expected["winners"], expected["turns"],
                expected["gold_rush_from_turn"])
    assert stalemates > 0 and edges > 0  # the sample reached D3, and its edge, with more than ten cards left


def at_the_edge(cards: list[str]) -> bool:
    """No dynamite, one miner value, equal to the lowest gold: one step from a stalemate, but not one."""
    miners = {code[-1] for code in cards if code[0] == "M"}
    golds = [code[-1] for code in cards if code[0] == "G"]
    return "D" not in cards and len(miners) == 1 and bool(golds) and miners == {min(golds)}
