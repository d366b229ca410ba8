"""Every game of the piecepack rule vectors (PIECEPACK.md §9), replayed action by action."""

import json

import pytest
from conftest import DATA

from goldrush_env.piecepack.engine import Game

with open(DATA / "piecepack_vectors.jsonl") as handle:
    RECORDS = [json.loads(line) for line in handle if line.strip()]
IDS = [f"{i:03d}-{r['players']}p" + ("-handmade" if "about" in r else "") for i, r in enumerate(RECORDS)]


def test_all_vectors_are_present():
    assert len(RECORDS) == 112
    assert sum("about" in r for r in RECORDS) == 12
    assert {r["players"] for r in RECORDS} == {3, 4}


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_vector_replays_exactly(record):
    game = Game(record["players"], record["tiles"], record["coins"], record["start"], record["dice"],
                record["market_rolls"])
    done = 0
    for index, action in enumerate(record["actions"]):
        assert not game.is_over, f"action #{index}: the game is already over"
        assert game.legal_mask()[action], f"action #{index} ({action}) should be legal: {game.why_illegal(action)}"
        game.step(action)
        while done < len(game.rounds):  # a round ended: its stored fields must match
            assert game.rounds[done] == record["rounds"][done], f"round {done + 1}, after action #{index}"
            done += 1
    assert game.is_over
    assert done == len(record["rounds"]) == 9
    assert game.final() == record["final"]
    assert game.scores() == record["final"]["scores"]
    assert game.winners() == record["final"]["winners"]
    assert [list(h) for h in game.holdings] == record["final"]["holdings"]


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_record_round_trip(record):
    stored = {key: value for key, value in record.items() if key != "about"}
    assert Game.from_record(record).to_record() == stored
