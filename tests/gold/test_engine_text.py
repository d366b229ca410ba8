"""What the reference engine says about a game besides its rules: the cards a seat knows, the positions on the
table, a record's test, and its texts for people (the table as a grid, an event's line), pinned word for word."""

import pytest

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.cards import parse_card
from goldrush_env.gold.engine import Game, is_record
from conftest import layout_of

SMALL = layout_of({0: "M14", 1: "G3", 2: "G1", 3: "D", 4: "M22", 5: "G2", 6: "M33", 7: "G4",
                   8: "M05", 9: "G2", 10: "M42", 11: "G1"})
EMPTY_ROW = "    -" * 8


def test_every_seat_knows_every_flipped_card_still_on_the_table():
    game = Game(3, SMALL)
    assert game.known_to(0) == {} and game.on_table() == list(range(12))
    game.step(0)  # M14, face up
    assert game.known_to(2) == {0: parse_card("M14")}
    game.step(4)  # M22: a duel, the weaker M22 leaves
    assert game.on_table() == [0, 1, 2, 3] + list(range(5, 12))
    assert [game.known_to(seat) for seat in range(3)] == [{0: parse_card("M14")}] * 3
    game.step(1)  # G3, face up
    game.step(0)  # M14 strikes G3: both leave
    assert game.known_to(1) == {} and game.on_table() == [2, 3] + list(range(5, 12))
    with pytest.raises(GoldrushEnvError, match="seat must be an int from 0 to 2, got 3"):
        game.known_to(3)


def test_the_table_as_text():
    game = Game(2, SMALL)
    assert str(game).splitlines() == [
        "  M14   G3   G1    D  M22   G2  M33   G4",
        "  M05   G2  M42   G1    -    -    -    -",
        *[EMPTY_ROW] * 6,
        "turn 0, seat 0 to play, scores (0, 0)"]
    event = game.step(0)
    assert event.describe() == "turn 0, seat 0 flips M14 at a1: first"
    assert str(game).splitlines()[0] == "[M14]   G3   G1    D  M22   G2  M33   G4"
    assert game.step(4).describe() == "turn 0, seat 0 flips M22 at e1: duel"
    assert str(game).splitlines()[0] == "  M14   G3   G1    D    -   G2  M33   G4"
    assert str(game).splitlines()[-1] == "turn 1, seat 1 to play, scores (0, 0)"
    game.step(1)  # a card of two letters face up: its brackets right-aligned in the cell too
    assert str(game).splitlines()[0] == "  M14 [G3]   G1    D    -   G2  M33   G4"


def test_the_status_line_in_the_rush_at_the_end_and_at_the_turn_limit():
    game = Game(2, SMALL, rush_at=11)
    game.step(0)
    event = game.step(4)  # a card leaves: 11 left, the rush begins
    assert event.rush_begins and event.describe() == "turn 0, seat 0 flips M22 at e1: duel (the Gold Rush begins)"
    assert str(game).splitlines()[-1] == "turn 1, seat 1 to play, scores (0, 0), Gold Rush"
    while not game.is_over:
        game.step(game.on_table()[0])
    assert str(game).splitlines()[-1] == f"game over after {game.turn} turns, scores {game.scores}"
    short = Game(2, SMALL, max_turns=1)
    short.step(2)
    short.step(11)  # two G1s: nothing, and the turn limit
    assert str(short).splitlines()[-1] == "truncated at the turn limit (1 turns), scores (0, 0)"


def test_a_record_is_known_by_its_format():
    record = Game(2, SMALL).to_record()
    assert is_record(record)
    assert not is_record({**record, "format": "goldrush-game/2"})
    assert not is_record({key: value for key, value in record.items() if key != "format"})
    assert not is_record([record]) and not is_record("goldrush-game/1")
