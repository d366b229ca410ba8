"""Bad input is refused with an error naming the value and what was allowed, and changes nothing."""

import re

import numpy as np
import pytest

from goldrush_env.gold.cards import parse_card, parse_layout
from goldrush_env.gold.engine import Game
from goldrush_env.errors import GoldrushEnvError, IllegalFlipError, LayoutError
from conftest import layout_of

SMALL = layout_of({0: "M14", 1: "G3", 2: "G1", 3: "D", 4: "M22", 5: "G2", 6: "M33", 7: "G4",
                   8: "M05", 9: "G2", 10: "M42", 11: "G1"})


def test_errors_are_value_errors():
    assert issubclass(LayoutError, GoldrushEnvError)
    assert issubclass(IllegalFlipError, GoldrushEnvError)
    assert issubclass(GoldrushEnvError, ValueError)


@pytest.mark.parametrize("num_players", [0, 1, 6, -2, 2.0, "3", None, True])
def test_player_count_outside_two_to_five(num_players):
    with pytest.raises(GoldrushEnvError, match=re.escape(repr(num_players))) as info:
        Game(num_players, SMALL)
    assert "2 to 5" in str(info.value)
    with pytest.raises(GoldrushEnvError, match=re.escape(repr(num_players))):
        Game.new(num_players, seed=0)


def test_numpy_player_count_is_accepted():
    assert Game(np.int64(3), SMALL).num_players == 3


@pytest.mark.parametrize("first_player", [-1, 3, 1.0, "0"])
def test_first_player_must_be_a_seat(first_player):
    with pytest.raises(GoldrushEnvError, match=re.escape(repr(first_player))) as info:
        Game(3, SMALL, first_player=first_player)
    assert "0 to 2" in str(info.value)


@pytest.mark.parametrize("max_turns", [0, -5, 2.5, "10"])
def test_turn_limit_must_be_positive(max_turns):
    with pytest.raises(GoldrushEnvError, match=re.escape(repr(max_turns))):
        Game(2, SMALL, max_turns=max_turns)


@pytest.mark.parametrize("code", ["G5", "G0", "M55", "M61", "M21", "X", "", "g1", "d", "M2"])
def test_unknown_card_code(code):
    with pytest.raises(LayoutError, match=re.escape(repr(code))) as info:
        parse_card(code)
    assert "G1..G4" in str(info.value)
    layout = list(SMALL)
    layout[20] = code
    with pytest.raises(LayoutError, match=re.escape(repr(code))):
        Game(2, layout)


@pytest.mark.parametrize("length", [0, 1, 63, 65, 128])
def test_layout_of_the_wrong_length(length):
    with pytest.raises(LayoutError, match=f"exactly 64 positions .*got {length}"):
        Game(2, ["-"] * length)


@pytest.mark.parametrize("layout", [None, 5, 3.14])
def test_layout_that_is_not_a_sequence(layout):
    with pytest.raises(LayoutError, match=re.escape(repr(layout))):
        parse_layout(layout)


@pytest.mark.parametrize("entry", [25, -2, 1.5, True, b"G1"])
def test_layout_entry_that_is_no_card(entry):
    layout = list(SMALL)
    layout[30] = entry
    with pytest.raises(LayoutError, match=re.escape(str(entry)) if not isinstance(entry, bytes) else "b'G1'"):
        Game(2, layout)


@pytest.mark.parametrize("code,count,box", [("D", 6, 5), ("G2", 8, 7), ("M05", 2, 1), ("M33", 3, 2), ("G4", 6, 5)])
def test_layout_with_more_cards_than_the_box(code, count, box):
    with pytest.raises(LayoutError, match=f"{count} x {code} \\(the box has {box}\\)"):
        Game(2, layout_of({position: code for position in range(count)}))


def test_full_box_is_accepted_and_one_more_card_is_not():
    game = Game.new(2, seed=1)
    assert game.cards_left == 64
    layout = [code for code in game.to_record()["layout"]]
    layout[0] = "G1" if layout[0] != "G1" else "G2"  # now one card too many of that kind
    with pytest.raises(LayoutError, match="more cards than the box"):
        Game(2, layout)


def _refused(game: Game, position, error_text: str) -> None:
    before = game.copy()
    saved = game.to_record()
    with pytest.raises(IllegalFlipError, match=error_text):
        game.step(position)
    assert game == before
    assert game.to_record() == saved


@pytest.mark.parametrize("position", [-1, 64, 100, -64])
def test_flip_out_of_range(position):
    _refused(Game(2, SMALL), position, f"position {position} is out of range: positions are 0 to 63")


@pytest.mark.parametrize("position", ["3", 2.5, None, True, [3]])
def test_flip_of_something_that_is_not_a_position(position):
    _refused(Game(2, SMALL), position, "position must be an int from 0 to 63, got " + re.escape(repr(position)))


def test_numpy_positions_are_accepted():
    game = Game(2, SMALL)
    assert game.step(np.int64(1)).position == 1


def test_flip_of_an_empty_position():
    game = Game(2, SMALL)
    _refused(game, 40, "position 40 is empty")


def test_flip_of_a_removed_position():
    game = Game(2, SMALL)
    game.step(0)  # M14: colour 1, seat 0's miner
    game.step(1)  # G3: struck, both leave
    assert game.table[0] == game.table[1] == -1
    _refused(game, 0, "position 0 is empty: its card has left the table")


def test_flip_of_the_face_up_first_card():
    game = Game(2, SMALL)
    game.step(5)
    _refused(game, 5, "position 5 is already face up")


def test_flip_after_the_game_is_over():
    game = Game(2, layout_of({7: "G2", 9: "M13"}))
    game.step(7)
    game.step(9)
    assert game.is_over
    _refused(game, 7, "cannot flip position 7: the game is over")
    _refused(game, 3, "cannot flip position 3: the game is over")


def test_flip_after_truncation():
    game = Game(2, SMALL, max_turns=1)
    game.step(2)
    game.step(5)  # two golds: nothing, the turn ends and the limit is reached
    assert game.is_truncated
    _refused(game, 2, "truncated at the turn limit of 1")


def test_saved_game_that_is_not_one():
    with pytest.raises(GoldrushEnvError, match="expected format 'goldrush-game/1', got 'other'"):
        Game.from_record({"format": "other"})
    with pytest.raises(GoldrushEnvError, match="got 'list'"):
        Game.from_record([])
    data = Game(2, SMALL).to_record()
    del data["flips"]
    with pytest.raises(GoldrushEnvError, match=r"lacks the keys \['flips'\]"):
        Game.from_record(data)


def test_saved_game_with_an_illegal_flip_names_it():
    data = Game(2, SMALL).to_record()
    data["flips"] = [0, 1, 0]
    with pytest.raises(IllegalFlipError, match="flip #2: position 0 is empty"):
        Game.from_record(data)


def test_saved_events_are_checked_against_the_replay():
    """A record's "events" (written by to_record) must be what its flips replay as, label by label."""
    game = Game(2, SMALL)
    for position in (0, 1, 2, 3):
        game.step(position)
    data = game.to_record()
    assert data["events"] == [event.label for event in game.history] and len(data["events"]) == 4
    assert Game.from_record(data) == game
    data["events"][2] = "strike" if data["events"][2] != "strike" else "nothing"
    said, played = data["events"][2], game.history[2].label
    with pytest.raises(GoldrushEnvError, match=re.escape(f"flip #2 replays as {played!r} but the record says "
                                                         f"{said!r}")):
        Game.from_record(data)
    for wrong in (data["events"][:3], "strike"):
        data["events"] = wrong
        with pytest.raises(GoldrushEnvError, match=re.escape(f"the record's events must be a list of 4 outcome labels, "
                                                          f"one per flip, got {wrong!r}")):
            Game.from_record(data)


def test_position_zero_is_a_position_and_numpy_ints_are_ints():
    game = Game(2, SMALL)
    assert game.card_at(0) == game.card_at(np.int64(0)) == game.table[0]
    event = game.step(np.int64(0))
    assert event.position == 0 and type(event.position) is int and game.face_up == 0
    for bad in (-1, 64):
        with pytest.raises(IllegalFlipError, match=f"position {bad} is out of range: positions are 0 to 63"):
            game.card_at(bad)
