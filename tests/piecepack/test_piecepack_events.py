"""The Gold Rush engine's events pinned word for word: every kind's line (``Event.describe`` and the log's
``event_words``) on the first time the rule vectors show it, and every event of all 112 vector games through a
digest per game, with the count of each kind over them all.

A change to what an event says, to which events a step causes, or to their order fails here. If a rule change
means to change them, print the new pins and read the difference before replacing them:

    python tests/piecepack/test_piecepack_events.py > tests/data/piecepack_events.json
"""

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from goldrush_env.piecepack.engine import Event, Game
from goldrush_env.piecepack.words import event_words

DATA = Path(__file__).resolve().parent.parent / "data"
with open(DATA / "piecepack_vectors.jsonl") as handle:
    RECORDS = [json.loads(line) for line in handle if line.strip()]

FIRST_OF_EACH_KIND = [  # (vector, Event.describe(), event_words()), in the order the vectors first show them
    (0, "table: round (round=1, start=2)", "Round 1 of 9 begins; start player: seat 2"),
    (0, "table: roll (dice=(3, 2, 4, 5))", "The production dice show Moon 3, Sun 2, Arms 4, Crown 5"),
    (0, "seat 2: end_free_trade", "seat 2 ends the Free Trade turn"),
    (0, "seat 2: claim (plot=0)", "seat 2 claims plot 0 (row 0, col 0)"),
    (0, "seat 2: build (plot=0, building=Farm, replaced=None)",
     "seat 2 builds a Farm on plot 0 (row 0, col 0) for 1 Food"),
    (0, "seat 2: end_development", "seat 2 ends the Development turn"),
    (0, "seat 0: assay (piece=23)", "seat 0 assays the tile of plot 23 (row 3, col 5)"),
    (0, "seat 2: produce (plot=0, resource=Food, units=1)", "Plot 0 (row 0, col 0) yields 1 Food for seat 2"),
    (0, "table: game_over (scores=[0, 0, 0, 0], winners=[2, 3])",
     "The game is over. Scores: seat 0 0, seat 1 0, seat 2 0, seat 3 0. seat 2 and seat 3 share the victory"),
    (1, "seat 1: spoil (resource=Energy, before=2, after=1)", "Energy spoils for seat 1: 2 down to 1"),
    (3, "seat 0: power (plot=12, powered=True)",
     "seat 0 pays 1 Energy to power the mine on plot 12 (row 2, col 0)"),
    (3, "seat 0: warehouse (resource=Food, protect=True)", "seat 0 pays 1 Energy to shelter Food in a Warehouse"),
    (3, "seat 0: optimize (piece=31, code=M1)",
     "seat 0 optimizes the Moons coin of plot 7 (row 1, col 1): face up for good, it is the Moons Ace"),
    (4, "seat 0: offer (target=1, give=Ore, give_units=1, take=Energy, take_units=1)",
     "seat 0 offers seat 1 1 Ore for 1 Energy"),
    (4, "seat 1: accept (offerer=0)", "seat 1 accepts the offer of seat 0"),
    (6, "seat 0: market_roll (dice=(3, 4), sum=7)",
     "seat 0 pays 2 Energy at a Market and rolls 3 and 4: up to 7 Food may be sold for Gold"),
    (6, "seat 0: market_sell (units=5)", "seat 0 sells 5 Food for 5 Gold at the Market"),
    (6, "seat 1: trade_route (give=Ore, take=Food)", "seat 1 trades 3 Ore for 1 Food at a Trade Route"),
    (7, "seat 2: decline (offerer=0)", "seat 2 declines the offer of seat 0"),
    (9, "seat 0: upgrade (plot=6, level=1)",
     "seat 0 upgrades the building on plot 6 (row 1, col 0) to level 1 for 1 Energy and 1 Gold"),
]


def replay(record: dict) -> list[Event]:
    """Every event of a vector game: the first round's opening ones, then each step's."""
    game = Game(record["players"], record["tiles"], record["coins"], record["start"], record["dice"],
                record["market_rolls"])
    events = list(game.events)
    for action in record["actions"]:
        events += game.step(action)
    assert events == game.events  # what the steps returned is what the game logged
    return events


def digest(events: list[Event]) -> str:
    """The SHA-256 of a game's events in full, their data's types too (``describe`` writes a str and a number
    alike)."""
    return hashlib.sha256("\n".join(f"{e.kind} {e.seat!r} {e.data!r}" for e in events).encode()).hexdigest()


def pins() -> dict:
    """The digest of each vector game's event lines and the count of each kind over all of them."""
    counts: Counter = Counter()
    digests = []
    for record in RECORDS:
        events = replay(record)
        counts.update(event.kind for event in events)
        digests.append(digest(events))
    return {"kinds": dict(sorted(counts.items())), "games": digests}


@pytest.fixture(scope="module")
def replayed():
    return [replay(record) for record in RECORDS]


def test_each_kind_of_event_says_what_it_said(replayed):
    first: dict[str, tuple[int, Event]] = {}
    for index, events in enumerate(replayed):
        for event in events:
            first.setdefault(event.kind, (index, event))
    seen = [(index, event.describe(), event_words(event)) for index, event in first.values()]
    assert seen == FIRST_OF_EACH_KIND


def test_the_events_of_every_vector_game_are_pinned(replayed):
    pinned = json.loads((DATA / "piecepack_events.json").read_text())
    counts = Counter(event.kind for events in replayed for event in events)
    assert dict(sorted(counts.items())) == pinned["kinds"]
    assert len(pinned["games"]) == len(replayed) == 112
    changed = [index for index, events in enumerate(replayed) if digest(events) != pinned["games"][index]]
    assert changed == [], f"the events of these vector games changed: {changed}"


def test_an_event_holds_only_public_facts(replayed):
    """An assay names the piece, never what it is (P33); an optimization turns the piece face up for all, so it
    names it."""
    for events in replayed:
        for event in events:
            if event.kind == "assay":
                assert set(event.data) == {"piece"}
            if event.kind == "optimize":
                assert set(event.data) == {"piece", "code"}


if __name__ == "__main__":
    json.dump(pins(), sys.stdout, indent=1)
    print()
