"""The smaller tables: dealt from their own boxes, with their own Gold Rush, in every environment."""

import json

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test

import goldrush_env
import goldrush_env.gold
from goldrush_agents.arena import play_game
from goldrush_agents import make_agent
from goldrush_env.gold.cards import BOX_COUNT, EMPTY, GOLD_RUSH_THRESHOLD, TABLES, VALUE, table_size
from goldrush_env.gold.config import EnvConfig
from goldrush_env.gold.engine import Game
from goldrush_env.errors import GoldrushEnvError
from conftest import VERSION_0, flippable


def test_each_table_is_a_part_of_the_box_in_about_its_proportions():
    assert {name: (t.num_cards, t.rush_at) for name, t in TABLES.items()} == {
        "full": (64, 10), "half": (32, 5), "quarter": (16, 3)}
    for size in TABLES.values():
        assert all(count <= limit for count, limit in zip(size.counts, BOX_COUNT))
        gold, dynamite = sum(size.counts[:4]), size.counts[4]
        miners = size.counts[5:]
        assert gold + dynamite + sum(miners) == size.num_cards
        assert len(set(sum(miners[4 * c: 4 * c + 4]) for c in range(5))) == 1  # every colour alike
        assert 0.3 <= gold / size.num_cards <= 0.4 and 0.5 <= sum(miners) / size.num_cards <= 0.65
        assert 0.12 <= size.rush_at / size.num_cards <= 0.2


@pytest.mark.parametrize("table", ["half", "quarter"])
def test_a_shuffled_game_lays_its_box_on_the_first_positions(table):
    size = TABLES[table]
    game = Game.new(2, seed=3, table=table)
    cards = game.table
    assert sorted(cards[:size.num_cards]) == size.box() and set(cards[size.num_cards:]) == {EMPTY}
    assert game.rush_at == size.rush_at and game.cards_left == size.num_cards
    assert Game.new(2, seed=3, table=table) == game
    gold = sum(VALUE[card] for card in size.box() if card < 4)
    assert game.gold_on_table == gold


def test_the_gold_rush_begins_at_the_tables_threshold():
    game = Game(2, ["G1", "G2", "G3", "G4", "D"] + ["-"] * 59, rush_at=4)
    assert not game.gold_rush  # five cards, more than four
    game.step(0)
    game.step(4)  # dynamite: both leave, three cards are left
    assert game.gold_rush and game.gold_rush_from_turn == 1
    assert Game(2, ["G1", "G2", "G3", "G4", "D"] + ["-"] * 59).gold_rush  # ten or fewer on the full table


def test_a_record_keeps_the_threshold_and_replays_exactly():
    game = Game.new(3, seed=8, table="quarter")
    rng = np.random.default_rng(0)
    while not game.is_finished:
        game.step(int(rng.choice(flippable(game))))
    record = json.loads(json.dumps(game.to_record()))
    assert record["rush_at"] == 3
    assert Game.from_record(record) == game
    assert "rush_at" not in Game.new(2, seed=1).to_record()  # full-table records stay as they were


@pytest.mark.parametrize("bad", [-1, 2.5, "3", True])
def test_a_bad_threshold_is_refused(bad):
    with pytest.raises(GoldrushEnvError, match="rush_at must be an int >= 0"):
        Game(2, ["G1"] + ["-"] * 63, rush_at=bad)


def test_an_unknown_table_is_refused_by_name():
    with pytest.raises(GoldrushEnvError, match="table='tiny' is not allowed: expected one of"):
        EnvConfig(table="tiny")
    with pytest.raises(GoldrushEnvError, match="table='tiny' is not allowed"):
        Game.new(2, seed=0, table="tiny")
    with pytest.raises(GoldrushEnvError, match="table='tiny' is not allowed"):
        table_size("tiny")


@pytest.mark.parametrize("table", ["half", "quarter"])
def test_the_pettingzoo_env_plays_a_smaller_table(table):
    api_test(goldrush_env.gold.env(num_players=3, table=table), num_cycles=200)
    env = goldrush_env.gold.raw_env(num_players=2, table=table)
    env.reset(seed=4)
    assert env.game.cards_left == TABLES[table].num_cards and env.view(0).rush_at == TABLES[table].rush_at


@pytest.mark.parametrize(("env_id", "table"), [("goldrush_env:GoldHalf-v1", "half"),
                                               ("goldrush_env:GoldQuarter-v1", "quarter")])
def test_the_gymnasium_ids_of_the_smaller_tables(env_id, table):
    env = gym.make(env_id, seat=0, **VERSION_0)
    observation, info = env.reset(seed=0)
    assert env.unwrapped.config.table == table
    assert int(info["action_mask"].sum()) in (TABLES[table].num_cards, TABLES[table].num_cards - 1)
    vector = gym.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point", **VERSION_0)
    observations, info = vector.reset(seed=0)
    assert observations.shape == (3, observation.shape[0])
    assert ((vector.unwrapped.games.initial >= 0).sum(axis=1) == TABLES[table].num_cards).all()


def test_scripted_players_and_the_search_finish_a_quarter_table():
    players = [make_agent("ismcts[iterations=50]", seed=0), make_agent("expert", seed=1)]
    result = play_game(players, seed=2, table="quarter")
    replayed = Game.from_record(result.record)
    assert replayed.is_over and replayed.rush_at == 3 and replayed.scores == result.scores
    assert GOLD_RUSH_THRESHOLD == 10
