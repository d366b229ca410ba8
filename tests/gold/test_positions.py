"""Games started part-way through play: Game.from_position, Game.rearranged, Game.exchange and their saved form.

A position copied out of a real game must play on exactly like the game it
came from; an impossible position must be refused with an error naming the
bad value; a rearranged copy swaps hidden cards and nothing else, and so does
Game.exchange, for two cards nobody has seen.
"""

import json
import re

import numpy as np
import pytest

from goldrush_env.gold.cards import BOX_COUNT, EMPTY, IS_GOLD, VALUE, parse_card
from goldrush_env.gold.engine import Game, Outcome
from goldrush_env.errors import GoldrushEnvError, IllegalFlipError, LayoutError
from conftest import flippable, layout_of


# --- helpers -------------------------------------------------------------------------


def advance(game, rng, flips):
    """Flip ``flips`` random legal positions (fewer if the game ends first)."""
    for _ in range(flips):
        if game.is_finished:
            break
        game.step(int(rng.choice(flippable(game))))
    return game


def advance_until(game, rng, done):
    while not done(game):
        assert not game.is_finished, "the game ended before the wanted moment"
        game.step(int(rng.choice(flippable(game))))
    return game


def through_json(game):
    """The game rebuilt from its record sent through JSON text."""
    return Game.from_record(json.loads(json.dumps(game.to_record())))


def standing(game):
    return {"current_player": game.current_player, "scores": game.scores, "gold_cards": game.gold_cards,
            "turn": game.turn, "face_up": game.face_up, "gold_rush": game.gold_rush}


def copy_position(game, **overrides):
    """The game's current position rebuilt from public facts plus the hidden table."""
    return Game.from_position(game.num_players, list(game.table),
                              **{**standing(game), "max_turns": game.max_turns, **overrides})


def public_state(game):
    return (game.scores, game.gold_cards, game.current_player, game.turn, game.gold_rush, game.face_up,
            game.cards_left, game.is_over, game.is_finished, game.winners, flippable(game))


def play_both(original, copy, seed):
    """Flip the same random positions in both games to the end; every event and standing must agree."""
    rng = np.random.default_rng(seed)
    flips = 0
    assert public_state(copy) == public_state(original)
    while not original.is_finished:
        position = int(rng.choice(flippable(original)))
        expected, got = original.step(position), copy.step(position)
        assert got == expected, f"flip {flips} at {position}: {got} != {expected}"
        assert got.turn == expected.turn and got.rush_begins == expected.rush_begins
        assert public_state(copy) == public_state(original)
        flips += 1
    assert copy.is_finished and copy.winners == original.winners and copy.table == original.table
    return flips


# --- a copied position plays on like the original --------------------------------------


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
@pytest.mark.parametrize("flips", [0, 1, 10, 33])
def test_a_copied_position_continues_exactly_like_the_game(num_players, flips):
    rng = np.random.default_rng(1000 * num_players + flips)
    game = advance(Game.new(num_players, seed=rng), rng, flips)
    assert (game.face_up is not None) == (flips % 2 == 1)  # odd counts stop between the two flips of a turn
    assert not game.gold_rush
    copy = copy_position(game)
    assert copy.history == () and copy.table == game.table and copy.face_up == game.face_up
    assert play_both(game, copy, seed=flips) > 0


@pytest.mark.parametrize("num_players", [2, 3, 5])
@pytest.mark.parametrize("extra", [0, 3])
def test_a_copied_gold_rush_position_continues_exactly_like_the_game(num_players, extra):
    rng = np.random.default_rng(num_players)
    game = advance_until(Game.new(num_players, seed=num_players), rng, lambda g: g.gold_rush)
    started = game.turn
    advance(game, rng, extra)
    if game.is_finished:
        pytest.skip("the rush ended too soon for this seed")
    copy = copy_position(game)
    assert copy.gold_rush and copy.face_up is None
    # The position cannot tell when the rush began: the copy dates it from the turn it starts at.
    assert copy.gold_rush_from_turn == game.turn and game.gold_rush_from_turn == started
    assert play_both(game, copy, seed=extra) > 0


def test_a_copy_taken_as_the_rush_is_announced_matches_the_game():
    rng = np.random.default_rng(8)
    game = Game.new(3, seed=8)
    advance_until(game, rng, lambda g: g.history and g.history[-1].rush_begins)
    copy = copy_position(game)
    assert copy.gold_rush and copy.gold_rush_from_turn == game.gold_rush_from_turn == game.turn
    play_both(game, copy, seed=2)


def test_a_copy_keeps_the_turn_limit():
    rng = np.random.default_rng(4)
    game = advance(Game.new(2, seed=4, max_turns=12), rng, 15)  # 15 flips: turn 7, second flip due
    copy = copy_position(game)
    assert copy.max_turns == 12
    play_both(game, copy, seed=4)
    assert game.is_truncated and copy.is_truncated and copy.turn == 12


def test_the_original_is_not_touched_by_playing_the_copy():
    rng = np.random.default_rng(5)
    game = advance(Game.new(2, seed=5), rng, 21)
    before = game.to_record()
    copy = copy_position(game)
    advance(copy, rng, 30)
    assert game.to_record() == before and game.table != copy.table


# --- what from_position decides by itself ----------------------------------------------


def small_table(codes, start=0):
    return layout_of({start + i: code for i, code in enumerate(codes)})


@pytest.mark.parametrize("cards", [10, 3, 1])
def test_the_rush_begins_at_once_on_a_table_of_ten_or_fewer(cards):
    codes = ["G1", "G2", "M05", "M25", "D", "G3", "M14", "G4", "M33", "D"][:cards]
    game = Game.from_position(2, small_table(codes, start=20), current_player=1, scores=[3, 2],
                              gold_cards=[1, 1], turn=7)
    assert game.gold_rush and game.gold_rush_from_turn == 7
    event = game.step(20)  # a G1: in the rush it goes to the player who flips it
    assert (event.outcome, event.receiver, event.turn) == (Outcome.RUSH_GOLD, 1, 7)
    assert game.scores == (3, 3) and game.turn == 8 and game.face_up is None


def test_eleven_cards_with_dynamite_are_no_rush():
    codes = ["G1", "G2", "M05", "M25", "D", "G3", "M14", "G4", "M33", "D", "G2"]
    game = Game.from_position(2, small_table(codes), current_player=0, scores=[0, 0], gold_cards=[0, 0], turn=4)
    assert not game.gold_rush and game.gold_rush_from_turn is None
    assert game.step(0).outcome is Outcome.FIRST and game.face_up == 0


def test_a_stalemate_table_starts_the_rush_at_once():
    # Twelve cards, no dynamite, miners of one value only, all weaker than every gold (D3).
    codes = ["G3", "G3", "G4", "G4", "G3", "G4", "M02", "M12", "M22", "M32", "G3", "G4"]
    game = Game.from_position(3, small_table(codes), current_player=2, scores=[0, 0, 0], gold_cards=[0, 0, 0],
                              turn=30)
    assert game.cards_left == 12 and game.gold_rush and game.gold_rush_from_turn == 30


def test_gold_rush_true_is_kept_on_a_large_table():
    table = list(Game.new(2, seed=6).table)
    game = Game.from_position(2, table, current_player=0, scores=[0, 0], gold_cards=[0, 0], turn=3, gold_rush=True)
    assert game.cards_left == 64 and game.gold_rush and game.gold_rush_from_turn == 3
    event = game.step(10)
    assert event.outcome in (Outcome.RUSH_GOLD, Outcome.RUSH_DISCARD) and event.removed == (10,)
    assert game.turn == 4 and game.current_player == 1 and game.table[10] == EMPTY


def test_gold_rush_false_on_a_large_table_is_a_normal_turn():
    game = Game.from_position(2, list(Game.new(2, seed=6).table), current_player=1, scores=[0, 0],
                              gold_cards=[0, 0], turn=3)
    assert not game.gold_rush and game.step(10).outcome is Outcome.FIRST


@pytest.mark.parametrize("num_players, current_player, turn, first_player", [
    (2, 0, 0, 0), (2, 1, 0, 1), (2, 1, 7, 0), (3, 1, 5, 2), (4, 0, 9, 3), (5, 4, 4, 0), (5, 2, 101, 1),
])
def test_the_first_player_is_worked_out_from_the_turn(num_players, current_player, turn, first_player):
    table = list(Game.new(num_players, seed=0).table)
    zeros = [0] * num_players
    game = Game.from_position(num_players, table, current_player=current_player, scores=zeros, gold_cards=zeros,
                              turn=turn)
    assert game.first_player == first_player and game.current_player == current_player and game.turn == turn
    assert game.to_record()["first_player"] == first_player


def test_the_standing_is_taken_as_given():
    table = list(Game.new(4, seed=2).table)
    taken = [p for p, card in enumerate(table) if IS_GOLD[card] and p != 17][:6]  # the six gold cards held
    for position in taken:
        table[position] = EMPTY
    game = Game.from_position(4, table, current_player=3, scores=[4, 0, 9, 1], gold_cards=[2, 0, 3, 1], turn=11,
                              face_up=17)
    assert game.scores == (4, 0, 9, 1) and game.gold_cards == (2, 0, 3, 1)
    assert game.face_up == 17 and 17 not in flippable(game) and taken[0] not in flippable(game)
    assert game.cards_left == 58 and game.history == () and game.leaders() == (2,)
    event = game.step(flippable(game)[0])
    assert event.partner == 17 and event.turn == 11 and event.player == 3 and game.turn == 12


# --- impossible positions are refused ------------------------------------------------


def position_arguments(**change):
    table = list(Game.new(2, seed=0).table)
    table[63] = EMPTY
    return {"num_players": 2, "layout": table, "current_player": 0, "scores": [0, 0], "gold_cards": [0, 0],
            **change}


@pytest.mark.parametrize("change, named", [
    ({"scores": [1]}, "[1]"),
    ({"scores": [1, 2, 3]}, "[1, 2, 3]"),
    ({"scores": [-1, 0], "gold_cards": [1, 0]}, "[-1, 0]"),
    ({"scores": [True, 0], "gold_cards": [1, 0]}, "[True, 0]"),
    ({"scores": [1.0, 0], "gold_cards": [1, 0]}, "[1.0, 0]"),
    ({"scores": 5}, "5"),
    ({"gold_cards": [0, -2]}, "[0, -2]"),
    ({"gold_cards": [0, False]}, "[0, False]"),
    ({"scores": [5, 0], "gold_cards": [1, 0]}, "5 points in 1 gold cards"),
    ({"scores": [0, 1], "gold_cards": [0, 0]}, "1 points in 0 gold cards"),
    ({"scores": [0, 2], "gold_cards": [0, 3]}, "2 points in 3 gold cards"),
    ({"scores": [20, 20], "gold_cards": [10, 10]}, "20 gold cards held and 24 on the table"),
    ({"face_up": 63}, "got 63"),
    ({"face_up": 64}, "got 64"),
    ({"face_up": -1}, "got -1"),
    ({"face_up": True}, "got True"),
    ({"face_up": 2.0}, "got 2.0"),
    ({"face_up": 0, "gold_rush": True}, "face_up=0"),
    ({"current_player": 2}, "got 2"),
    ({"current_player": -1}, "got -1"),
    ({"current_player": True}, "got True"),
    ({"current_player": "1"}, "got '1'"),
    ({"turn": -1}, "got -1"),
    ({"turn": 1.5}, "got 1.5"),
    ({"turn": False}, "got False"),
    ({"gold_rush": "yes"}, "got 'yes'"),
    ({"gold_rush": 1}, "got 1"),
    ({"num_players": 6}, "got 6"),
])
def test_impossible_positions_are_refused_naming_the_value(change, named):
    arguments = position_arguments(**change)
    with pytest.raises(GoldrushEnvError, match=re.escape(named)) as info:
        Game.from_position(**arguments)
    name = next(iter(change)) if len(change) == 1 else None
    if name in ("scores", "gold_cards", "face_up", "current_player", "turn", "gold_rush", "num_players"):
        assert name in str(info.value)  # the message names the argument as well as the value


def test_the_box_limit_counts_gold_held_and_on_the_table():
    # The table below holds 24 - 1 = 23 gold cards: one more held card fits, two do not.
    arguments = position_arguments()
    assert sum(IS_GOLD[card] for card in arguments["layout"] if card != EMPTY) in (23, 24)
    table = list(arguments["layout"])
    gold_at = next(p for p, card in enumerate(table) if card != EMPTY and IS_GOLD[card])
    table[gold_at] = EMPTY
    on_table = sum(IS_GOLD[card] for card in table if card != EMPTY)
    spare = 24 - on_table
    # The held cards are the gold off the table, so they hold its points.
    off_table = sum(VALUE[card] * (BOX_COUNT[card] - table.count(card)) for card in range(4))
    Game.from_position(**{**arguments, "layout": table, "scores": [off_table, 0], "gold_cards": [spare, 0]})
    with pytest.raises(GoldrushEnvError, match=f"{spare + 1} gold cards held and {on_table} on the table"):
        Game.from_position(**{**arguments, "layout": table, "scores": [spare, 1], "gold_cards": [spare, 1]})


def test_a_face_up_card_is_refused_when_the_rush_would_begin():
    # Ten cards: the rush begins at once, so a face-up first card cannot be part of the position.
    codes = ["G1", "G2", "M05", "M25", "D", "G3", "M14", "G4", "M33", "D"]
    with pytest.raises(GoldrushEnvError, match="face_up=2"):
        Game.from_position(2, small_table(codes), current_player=0, scores=[0, 0], gold_cards=[0, 0], face_up=2)


@pytest.mark.parametrize("codes, named", [
    (["G4"] * 6, "6 x G4"),
    (["D"] * 6, "6 x D"),
    (["M25"] * 2, "2 x M25"),
    (["M03"] * 3, "3 x M03"),
])
def test_a_layout_with_too_many_cards_of_a_kind_is_refused(codes, named):
    with pytest.raises(LayoutError, match=re.escape(named)) as info:
        Game.from_position(2, small_table(codes), current_player=0, scores=[0, 0], gold_cards=[0, 0])
    assert isinstance(info.value, GoldrushEnvError) and "more cards than the box" in str(info.value)


# --- rearranged copies ----------------------------------------------------------------


def mid_game(seed=4, flips=13, num_players=2):
    rng = np.random.default_rng(seed)
    return advance(Game.new(num_players, seed=seed), rng, flips)


def reversal(game, count):
    """``count`` legal positions and their cards in reverse order (a reordering with real swaps)."""
    positions = flippable(game)[:count]
    cards = [game.table[p] for p in positions][::-1]
    assert cards != [game.table[p] for p in positions]
    return positions, cards


def test_rearranged_swaps_the_cards_and_keeps_the_rest():
    game = mid_game()
    assert game.face_up is not None
    positions, cards = reversal(game, 8)
    copy = game.rearranged(positions, cards)
    assert [copy.table[p] for p in positions] == cards
    untouched = [p for p in range(64) if p not in positions]
    assert [copy.table[p] for p in untouched] == [game.table[p] for p in untouched]
    assert standing(copy) == standing(game) and copy.max_turns == game.max_turns
    assert flippable(copy) == flippable(game) and copy.history == ()
    assert copy.initial_layout == copy.table  # the copy's "deal" is the position it starts from
    assert copy.first_player == (game.current_player - game.turn) % game.num_players


def test_rearranged_leaves_the_original_alone():
    game = mid_game()
    before, table, history = game.to_record(), game.table, game.history
    copy = game.rearranged(*reversal(game, 10))
    advance(copy, np.random.default_rng(1), 40)
    assert game.to_record() == before and game.table == table and game.history == history


def test_rearranged_plays_like_a_position_built_on_the_same_table():
    game = mid_game(seed=9, flips=26)
    copy = game.rearranged(*reversal(game, 12))
    twin = copy_position(copy)
    play_both(copy, twin, seed=9)  # every flip legal and the same as from_position would give


def test_rearranged_continues_the_turn_numbering():
    game = mid_game(seed=2, flips=19)
    copy = game.rearranged(*reversal(game, 4))
    event = copy.step(flippable(copy)[-1])
    assert event.turn == game.turn and event.partner == game.face_up and copy.turn == game.turn + 1


def test_rearranged_round_trips_through_its_record():
    game = mid_game()
    copy = game.rearranged(*reversal(game, 6))
    data = copy.to_record()
    assert data["start"] == {"scores": list(game.scores), "gold_cards": list(game.gold_cards), "turn": game.turn,
                             "current_player": game.current_player, "face_up": game.face_up, "gold_rush": False}
    assert Game.from_record(data) == copy
    advance(copy, np.random.default_rng(3), 7)
    assert Game.from_record(copy.to_record()) == copy
    assert through_json(copy) == copy


def test_rearranged_with_nothing_to_move_is_a_fresh_copy():
    game = mid_game()
    copy = game.rearranged([], [])
    assert copy.table == game.table and copy.history == () and standing(copy) == standing(game)


def test_rearranged_in_the_gold_rush_round_trips():
    rng = np.random.default_rng(3)
    game = advance_until(Game.new(2, seed=3), rng, lambda g: g.gold_rush)
    advance(game, rng, 2)
    copy = game.rearranged(*reversal(game, 4))
    assert copy.gold_rush_from_turn == game.turn  # the copy counts the rush from its own start
    assert Game.from_record(copy.to_record()) == copy


def test_rearranged_takes_numpy_ints_and_refuses_odd_cards():
    game = Game.new(2, seed=5)
    positions = flippable(game)[:2]
    cards = [game.table[p] for p in positions][::-1]
    copy = game.rearranged(np.array(positions), np.array(cards))
    assert [copy.table[p] for p in positions] == cards and all(type(c) is int for c in copy.table)
    with pytest.raises(GoldrushEnvError, match="only reorders"):
        game.rearranged(positions, [cards[0], "G1"])


def test_rearranged_in_the_gold_rush_plays_on():
    rng = np.random.default_rng(3)
    game = advance_until(Game.new(2, seed=3), rng, lambda g: g.gold_rush)
    advance(game, rng, 2)
    copy = game.rearranged(*reversal(game, 4))
    restored = Game.from_record(copy.to_record())
    assert copy.gold_rush and restored.gold_rush and restored.table == copy.table
    while not copy.is_finished:
        position = flippable(copy)[0]
        assert copy.step(position) == restored.step(position)
    assert restored.is_over and restored.scores == copy.scores


def two_different(game):
    legal = flippable(game)
    first = legal[0]
    return [first, next(p for p in legal if game.table[p] != game.table[first])]


def empty_position(game):
    return next(p for p in range(64) if game.table[p] == EMPTY)


@pytest.mark.parametrize("make, message", [
    # The same number of cards but not the same cards.
    (lambda g: (two_different(g), [g.table[two_different(g)[0]]] * 2), "only reorders"),
    (lambda g: ([flippable(g)[0]], [(g.table[flippable(g)[0]] + 1) % 25]), "only reorders"),
    # Positions that hold no face-down card.
    (lambda g: ([g.face_up], [g.table[g.face_up]]), "position {} is out of range, empty or face up"),
    (lambda g: ([empty_position(g)], [parse_card("G1")]), "position {} is out of range, empty or face up"),
    (lambda g: ([64], [0]), "position 64 is out of range"),
    (lambda g: ([-1], [0]), "position -1 is out of range"),
    # A position twice, or counts that do not match.
    (lambda g: ([flippable(g)[0]] * 2, [g.table[flippable(g)[0]]] * 2), "got a position twice"),
    (lambda g: (flippable(g)[:2], [g.table[flippable(g)[0]]]), "2 positions and 1 cards"),
    (lambda g: (flippable(g)[:1], [g.table[flippable(g)[0]]] * 3), "1 positions and 3 cards"),
])
def test_rearranged_refuses_what_is_not_a_reordering(make, message):
    game = mid_game()
    assert game.face_up is not None and EMPTY in game.table
    before = game.to_record()
    positions, cards = make(game)
    with pytest.raises(GoldrushEnvError, match=re.escape(message.format(positions[0]))):
        game.rearranged(positions, cards)
    assert game.to_record() == before


# --- exchanging two face-down cards -------------------------------------------------------


def unrevealed(game):
    """Face-down positions no flip of the game's history has shown."""
    shown = {event.position for event in game.history}
    return [p for p in flippable(game) if p not in shown]


def test_exchange_swaps_two_cards_and_the_record_still_replays():
    game = mid_game(seed=6, flips=15)
    a, b = two_different_unrevealed(game)
    table, standing_before = game.table, standing(game)
    game.exchange(a, b)
    assert game.table[a] == table[b] and game.table[b] == table[a]
    assert all(game.table[p] == table[p] for p in range(64) if p not in (a, b))
    assert standing(game) == standing_before
    assert Game.from_record(game.to_record()) == game  # the deal it records now holds the swapped cards
    advance(game, np.random.default_rng(2), 30)
    assert Game.from_record(game.to_record()) == game


def two_different_unrevealed(game):
    hidden = unrevealed(game)
    first = hidden[0]
    return first, next(p for p in hidden if game.table[p] != game.table[first])


def test_exchange_of_a_position_with_itself_changes_nothing():
    game = mid_game()
    before = game.to_record()
    game.exchange(unrevealed(game)[0], unrevealed(game)[0])
    assert game.to_record() == before


def test_exchange_takes_numpy_ints():
    game = mid_game(seed=6, flips=15)
    a, b = two_different_unrevealed(game)
    cards = game.table[a], game.table[b]
    game.exchange(np.int64(a), np.int32(b))
    assert (game.table[b], game.table[a]) == cards and all(type(c) is int for c in game.table)


@pytest.mark.parametrize("pick, message", [
    (lambda g: g.face_up, "position {} is out of range, empty or face up"),
    (empty_position, "position {} is out of range, empty or face up"),
    (lambda g: 64, "position 64 is out of range"),
    (lambda g: -1, "position -1 is out of range"),
    (lambda g: "a1", "position 'a1' is out of range"),
    # A card shown by a flip and put back face down: moving it would contradict the record.
    (lambda g: next(e.position for e in g.history if g.table[e.position] != EMPTY and e.position != g.face_up),
     "cannot move a card this game has revealed: position {}"),
])
def test_exchange_refuses_a_card_that_is_not_face_down_and_unseen(pick, message):
    game = mid_game()
    assert game.face_up is not None and EMPTY in game.table
    position = pick(game)
    before = game.to_record()
    for pair in ((position, unrevealed(game)[0]), (unrevealed(game)[0], position)):
        with pytest.raises(GoldrushEnvError, match=re.escape(message.format(position))):
            game.exchange(*pair)
        assert game.to_record() == before


# --- saving games that started from a position ------------------------------------------


def test_a_game_from_a_position_round_trips_through_json():
    game = mid_game(seed=11, flips=17)
    copy = copy_position(game)
    advance(copy, np.random.default_rng(11), 4)
    assert len(copy.history) == 4 and copy.face_up is not None  # 17 + 4 flips: mid-turn again
    restored = through_json(copy)
    assert restored == copy and restored.history == copy.history
    data = copy.to_record()
    assert data["start"] == {"scores": list(game.scores), "gold_cards": list(game.gold_cards), "turn": game.turn,
                             "current_player": game.current_player, "face_up": game.face_up, "gold_rush": False}
    assert data["flips"] == [event.position for event in copy.history]
    play_both(copy, restored, seed=11)


def test_a_gold_rush_position_round_trips_through_json():
    rng = np.random.default_rng(12)
    game = advance_until(Game.new(3, seed=12), rng, lambda g: g.gold_rush)
    copy = copy_position(game)
    advance(copy, rng, 2)
    restored = through_json(copy)
    assert restored == copy and restored.gold_rush_from_turn == game.turn


def test_a_position_keeps_its_turn_limit_and_threshold_through_json():
    game = Game.from_position(2, Game.new(2, seed=5).table, current_player=1, scores=(0, 0), gold_cards=(0, 0),
                              turn=3, max_turns=9, rush_at=12)
    restored = through_json(game)
    assert (restored.max_turns, restored.rush_at, restored.turn, restored == game) == (9, 12, 3, True)


def test_a_position_starts_at_turn_zero_unless_told():
    game = Game.from_position(2, Game.new(2, seed=5).table, current_player=1, scores=(0, 0), gold_cards=(0, 0))
    assert (game.turn, game.first_player) == (0, 1)


def test_rearranged_keeps_the_first_player():
    game = advance(Game.new(3, seed=7, first_player=2), np.random.default_rng(7), 9)
    assert game.turn % 3 != 0
    copy = game.rearranged(*reversal(game, 4))
    assert copy.first_player == game.first_player == 2


def test_only_games_from_a_position_carry_a_start():
    game = mid_game()
    assert "start" not in game.to_record()
    assert "start" in copy_position(game).to_record()


@pytest.mark.parametrize("start, message", [
    ([1, 2], "'start' must be a position"),
    ({"current_player": 0}, "bad 'start' position"),
    ({"current_player": 0, "scores": [0, 0], "gold_cards": [0, 0], "colour": 3}, "bad 'start' position"),
    ({"current_player": 5, "scores": [0, 0], "gold_cards": [0, 0]}, "current_player must be a seat"),
])
def test_a_bad_saved_start_is_refused(start, message):
    data = copy_position(mid_game()).to_record()
    data["start"] = start
    with pytest.raises(GoldrushEnvError, match=re.escape(message)):
        Game.from_record(data)


def test_a_saved_position_with_a_flip_it_cannot_make_is_refused():
    data = copy_position(mid_game()).to_record()
    data["flips"] = [data["start"]["face_up"]]  # the face-up card cannot be flipped again
    with pytest.raises(IllegalFlipError, match="flip #0"):
        Game.from_record(data)


def test_held_points_must_fit_the_gold_left_off_the_table():
    # All five 4-point cards lie on the table: held gold is worth at most 3 a card.
    table = layout_of({**{p: "G4" for p in range(5)}, 5: "M02", 6: "M13", 7: "D"})
    Game.from_position(2, table, current_player=0, scores=[3, 0], gold_cards=[1, 0])
    with pytest.raises(GoldrushEnvError, match="1 gold cards held worth 4 points in all: the gold not on the table "
                                            "allows 1 to 3 points in 1 cards"):
        Game.from_position(2, table, current_player=0, scores=[4, 0], gold_cards=[1, 0])
    with pytest.raises(GoldrushEnvError, match="allows 2 to 6 points in 2 cards"):
        Game.from_position(2, table, current_player=0, scores=[4, 3], gold_cards=[1, 1])


def test_rearranged_refuses_a_position_that_is_not_an_int_and_names_odd_cards():
    from goldrush_env.gold.cards import NUM_CARD_TYPES, card_code

    game = Game.new(2, seed=5)
    positions = flippable(game)[:2]
    cards = [game.table[p] for p in positions][::-1]
    with pytest.raises(GoldrushEnvError, match=r"position 1\.0 is out of range, empty or face up"):
        game.rearranged([1.0, positions[1]], cards)
    there = [card_code(game.table[p]) for p in positions]
    with pytest.raises(GoldrushEnvError, match=re.escape(
            f"rearranged() only reorders the cards at the positions given: {there} "
            f"cannot become {[card_code(0), NUM_CARD_TYPES]}")) as refused:
        game.rearranged(positions, [0, NUM_CARD_TYPES])
    assert str(refused.value).startswith("rearranged() only reorders")
