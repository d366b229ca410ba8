"""Games started from a position (Game.from_position) and rearranged copies (Game.rearranged)."""

import numpy as np
import pytest

from goldrush_env.cards import EMPTY
from goldrush_env.engine import Game
from goldrush_env.errors import GoldRushError


def played(seed, flips, num_players=2):
    game = Game.shuffled(num_players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(flips):
        game.flip(int(rng.choice(game.legal_positions())))
    return game


def position_of(game):
    return Game.from_position(game.num_players, list(game.table), current_player=game.current_player,
                              scores=game.scores, gold_cards=game.gold_cards, turn=game.turn,
                              face_up=game.face_up, gold_rush=game.gold_rush)


def same_play(a, b, seed):
    rng = np.random.default_rng(seed)
    while not a.is_finished:
        assert a.legal_positions() == b.legal_positions()
        position = int(rng.choice(a.legal_positions()))
        assert tuple(a.flip(position)) == tuple(b.flip(position))
        assert (a.scores, a.gold_cards, a.current_player, a.gold_rush, a.turn) == \
            (b.scores, b.gold_cards, b.current_player, b.gold_rush, b.turn)
    assert b.is_finished and a.winners == b.winners


@pytest.mark.parametrize("flips", [0, 9, 24, 61])  # odd counts stop mid-turn, with a card face up
@pytest.mark.parametrize("num_players", [2, 4])
def test_a_position_plays_on_exactly_like_the_game_it_came_from(flips, num_players):
    game = played(flips + num_players, flips, num_players)
    copy = position_of(game)
    assert copy.face_up == game.face_up and copy.first_player == (game.current_player - game.turn) % num_players
    same_play(game, copy, seed=flips)


def test_a_position_in_the_gold_rush_plays_on():
    game = played(3, 0)
    rng = np.random.default_rng(3)
    while not game.gold_rush:
        game.flip(int(rng.choice(game.legal_positions())))
    copy = position_of(game)
    assert copy.gold_rush and copy.gold_rush_from_turn == game.turn
    same_play(game, copy, seed=5)


def test_the_rush_begins_at_once_on_a_small_table():
    table = ["-"] * 64
    for position, code in enumerate(["G1", "G2", "M05", "M25", "D"]):
        table[position] = code
    game = Game.from_position(2, table, current_player=1, scores=[3, 0], gold_cards=[1, 0], turn=7)
    assert game.gold_rush and game.first_player == 0 and game.scores == (3, 0)


def test_saved_positions_round_trip():
    game = played(11, 17)
    copy = position_of(game)
    for position in copy.legal_positions()[:5]:
        copy.flip(position)
    data = copy.to_dict()
    assert data["start"]["turn"] == game.turn and data["start"]["face_up"] == game.face_up
    assert Game.from_dict(data) == copy
    assert Game.from_json(copy.to_json()) == copy


@pytest.mark.parametrize("change, message", [
    ({"scores": [1]}, "scores must be 2 ints"),
    ({"scores": [-1, 0]}, "scores must be 2 ints >= 0"),
    ({"scores": [True, 0]}, "scores must be 2 ints"),
    ({"scores": [5, 0], "gold_cards": [1, 0]}, "seat 0 cannot hold 5 points in 1 gold cards"),
    ({"scores": [1, 0], "gold_cards": [0, 0]}, "seat 0 cannot hold 1 points in 0 gold cards"),
    ({"scores": [60, 0], "gold_cards": [24, 0]}, "the box has 24"),
    ({"face_up": 63}, "face_up must be None or a position holding a card"),
    ({"face_up": 0, "gold_rush": True}, "no card is face up in the Gold Rush"),
    ({"current_player": 2}, "current_player must be a seat from 0 to 1"),
    ({"turn": -1}, "turn must be an int >= 0"),
    ({"gold_rush": "yes"}, "gold_rush must be a bool"),
])
def test_impossible_positions_are_refused(change, message):
    table = list(Game.shuffled(2, seed=0).table)
    table[63] = EMPTY
    arguments = {"current_player": 0, "scores": [0, 0], "gold_cards": [0, 0], **change}
    with pytest.raises(GoldRushError, match=message):
        Game.from_position(2, table, **arguments)


def test_a_position_with_too_many_cards_of_a_kind_is_refused():
    with pytest.raises(GoldRushError, match="more cards than the box"):
        Game.from_position(2, ["G4"] * 6 + ["-"] * 58, current_player=0, scores=[0, 0], gold_cards=[0, 0])


def test_rearranged_swaps_hidden_cards_and_leaves_the_original_alone():
    game = played(4, 13)
    before = game.to_dict()
    positions = [p for p in game.legal_positions()][:6]
    cards = [game.table[p] for p in positions][::-1]
    copy = game.rearranged(positions, cards)
    assert [copy.table[p] for p in positions] == cards
    assert game.to_dict() == before and copy.history == ()
    assert copy.scores == game.scores and copy.current_player == game.current_player
    assert Game.from_dict(copy.to_dict()) == copy
    rng = np.random.default_rng(0)
    while not copy.is_finished:
        copy.flip(int(rng.choice(copy.legal_positions())))
    assert sum(copy.scores) <= 60


def two_different(game, legal):
    """Two face-down positions holding different cards."""
    first = legal[0]
    return [first, next(p for p in legal if game.table[p] != game.table[first])]


@pytest.mark.parametrize("make, message", [
    (lambda g, p: (two_different(g, p), [g.table[two_different(g, p)[0]]] * 2), "only reorders"),
    (lambda g, p: ([g.face_up], [g.table[g.face_up]]), "face up"),
    (lambda g, p: ([0], [g.table[0]]) if g.table[0] == EMPTY else ([64], [0]), "out of range, empty or face up"),
    (lambda g, p: ([p[0], p[0]], [g.table[p[0]]] * 2), "got a position twice"),
    (lambda g, p: (p[:2], [g.table[p[0]]]), "one card per position"),
])
def test_rearranged_refuses_what_is_not_a_reordering(make, message):
    game = played(4, 13)
    assert game.face_up is not None
    positions, cards = make(game, game.legal_positions())
    with pytest.raises(GoldRushError, match=message):
        game.rearranged(positions, cards)
