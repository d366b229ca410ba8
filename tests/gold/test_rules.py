"""Rules scenarios: a small table, a few flips, the exact result.

Each test is named after the rule or decision (D1-D9, docs/rules.md) it checks. Tables are written
as ``{position: code}``; every other position is empty (D8). Most tests add
:data:`BACKGROUND`, twelve cards in the bottom rows that nobody flips, so
that the table keeps more than ten cards and a dynamite: the game stays in
the normal phase (no Gold Rush, no D3 stalemate) while the cards under test
are played.
"""

from __future__ import annotations

import pytest

from goldrush_env.gold.cards import BOX_COUNT, CODE, EMPTY, IS_GOLD, NUM_CARD_TYPES, VALUE, card_code, parse_card
from goldrush_env.gold.engine import Game, Outcome, colour_owners, pair_outcome
from goldrush_env.errors import GoldrushEnvError, IllegalFlipError, LayoutError
from conftest import flippable, layout

def new_game(cards: dict[int, str], players: int = 2, background: bool = True, **options) -> Game:
    return Game(players, layout(cards, background), **options)


def play(game: Game, *positions: int):
    return [game.step(position) for position in positions]


# --- a normal turn (D2) --------------------------------------------------------------------------


def test_a_turn_flips_two_cards_one_after_the_other():
    """D2: the first card lies face up for all to see before the same player picks the second."""
    game = new_game({0: "M14", 1: "G3"})
    first = game.step(0)
    assert (first.outcome, first.receiver, first.removed, first.partner, first.rush_begins) == \
        (Outcome.FIRST, None, (), None, False)
    assert game.face_up == 0
    assert (game.current_player, game.turn) == (0, 0)
    assert 0 not in flippable(game) and 1 in flippable(game)
    assert len(flippable(game)) == game.cards_left - 1 == 13
    second = game.step(1)
    assert second.partner == 0
    assert game.face_up is None
    assert (game.current_player, game.turn) == (1, 1)


def test_the_face_up_card_cannot_be_flipped_as_the_second_card():
    """A turn's two cards are two different cards: the face-up one is refused and nothing changes."""
    game = new_game({0: "M14", 1: "G3"})
    game.step(0)
    with pytest.raises(IllegalFlipError):
        game.step(0)
    assert (game.face_up, game.turn, len(game.history)) == (0, 0, 1)


# --- strike --------------------------------------------------------------------------------------


@pytest.mark.parametrize("miner, gold, first_player, receiver, points", [
    ("M14", "G3", 0, 0, (3, 0)),  # own miner (seat 0 owns colour 1)
    ("M25", "G4", 0, 1, (0, 4)),  # an opponent's miner gives the gold to that opponent
    ("M42", "G1", 1, 1, (0, 1)),  # colour 4 is unowned: the active player takes it
    ("M02", "G2", 1, 0, (2, 0)),  # equal values strike too
])
def test_strike_gives_the_gold_to_the_miners_owner(miner, gold, first_player, receiver, points):
    """A miner at least as strong as the gold takes it for its owner (active player if unowned); both leave."""
    game = new_game({0: gold, 1: miner}, first_player=first_player)
    event = play(game, 0, 1)[-1]
    assert (event.outcome, event.receiver, set(event.removed)) == (Outcome.STRIKE, receiver, {0, 1})
    assert game.scores == points
    assert game.gold_cards == tuple(int(seat == receiver) for seat in range(2))
    assert game.table[0] == game.table[1] == EMPTY
    assert game.cards_left == 12


@pytest.mark.parametrize("order", [(0, 1), (1, 0)], ids=["gold-first", "miner-first"])
def test_strike_does_not_depend_on_which_card_is_flipped_first(order):
    """Gold then miner, or miner then gold: the same strike."""
    game = new_game({0: "G4", 1: "M35"})
    event = play(game, *order)[-1]
    assert (event.label, set(event.removed), event.partner) == ("strike:1", {0, 1}, order[0])
    assert (game.scores, game.gold_cards) == ((0, 4), (0, 1))


def test_a_miner_weaker_than_the_gold_does_nothing():
    """Miner value below gold value: both cards go back face down in place."""
    game = new_game({0: "M12", 1: "G3"})
    event = play(game, 0, 1)[-1]
    assert (event.outcome, event.receiver, event.removed) == (Outcome.NOTHING, None, ())
    assert game.table[0] == parse_card("M12") and game.table[1] == parse_card("G3")
    assert (game.scores, game.cards_left, game.face_up, game.turn) == ((0, 0), 14, None, 1)


# --- duel, two golds, dynamite ----------------------------------------------------------------------


@pytest.mark.parametrize("first, second, loser", [
    ("M13", "M25", 0),  # different colours
    ("M25", "M13", 1),  # the stronger first
    ("M02", "M04", 0),  # the same colour fights too
    ("M43", "M32", 1),  # unowned against owned
])
def test_duel_the_weaker_miner_leaves_the_stronger_stays(first, second, loser):
    """Two miners of different values, any colours: the weaker leaves, the stronger stays in place."""
    game = new_game({0: first, 1: second})
    event = play(game, 0, 1)[-1]
    winner = 1 - loser
    assert (event.outcome, event.receiver, event.removed) == (Outcome.DUEL, None, (loser,))
    assert game.table[loser] == EMPTY
    assert game.table[winner] == parse_card((first, second)[winner])
    assert (game.scores, game.cards_left) == ((0, 0), 13)


@pytest.mark.parametrize("first, second", [("M03", "M33"), ("G2", "G4"), ("G1", "G1")],
                         ids=["equal-miners", "two-golds", "two-equal-golds"])
def test_equal_miners_or_two_golds_do_nothing(first, second):
    """Two miners of one value, or two golds: nothing happens, both stay where they were."""
    game = new_game({0: first, 1: second})
    event = play(game, 0, 1)[-1]
    assert (event.outcome, event.removed) == (Outcome.NOTHING, ())
    assert (game.table[0], game.table[1]) == (parse_card(first), parse_card(second))
    assert game.cards_left == 14


@pytest.mark.parametrize("first, second", [("D", "G4"), ("G4", "D"), ("M25", "D"), ("D", "M05"), ("D", "D")])
def test_dynamite_removes_both_cards_and_gold_is_lost(first, second):
    """At least one dynamite: both cards leave the game, and any gold among them goes to nobody."""
    game = new_game({0: first, 1: second})
    event = play(game, 0, 1)[-1]
    assert (event.outcome, event.receiver, set(event.removed)) == (Outcome.DYNAMITE, None, {0, 1})
    assert (game.scores, game.gold_cards, game.cards_left) == ((0, 0), (0, 0), 12)


def test_pair_outcome_tells_what_a_pair_does_before_it_is_turned():
    # Every ordered pair of card ids, turned in a game where both lie on the table: pair_outcome says the same.
    for first in range(NUM_CARD_TYPES):
        for second in range(NUM_CARD_TYPES):
            if first == second and BOX_COUNT[first] < 2:
                continue  # the box has one miner of value 5 per colour
            game = Game(2, layout({0: CODE[first], 1: CODE[second]}))
            game.step(0)
            assert game.step(1).outcome is pair_outcome(first, second) is pair_outcome(second, first)


@pytest.mark.parametrize("first, second, named", [(25, 0, "first"), (-1, 0, "first"), (0, "G1", "second"),
                                                   (True, 0, "first"), (0, 1.0, "second")])
def test_pair_outcome_refuses_what_is_not_a_card_id(first, second, named):
    with pytest.raises(GoldrushEnvError, match=f"{named} must be a card id from 0 to 24, got "):
        pair_outcome(first, second)


# --- D1 colours and seats -------------------------------------------------------------------------


@pytest.mark.parametrize("players, owners", [
    (2, (0, 0, 1, 1, -1)),
    (3, (0, 1, 2, -1, -1)),
    (4, (0, 1, 2, 3, -1)),
    (5, (0, 1, 2, 3, 4)),
])
def test_colour_owners(players, owners):
    """D1: two players own two colours each (colour 4 free); otherwise seat s owns colour s."""
    assert colour_owners(players) == owners


@pytest.mark.parametrize("players, colour, active, receiver", [
    (2, 1, 1, 0), (2, 2, 0, 1), (2, 3, 0, 1), (2, 4, 1, 1),
    (3, 2, 0, 2), (3, 3, 1, 1), (3, 4, 2, 2),
    (4, 3, 0, 3), (4, 4, 2, 2),
    (5, 4, 0, 4), (5, 0, 3, 0),
])
def test_strikes_follow_colour_ownership(players, colour, active, receiver):
    """D1 in play: a struck gold goes to the colour's owner, or to the active seat for a free colour."""
    game = new_game({0: f"M{colour}5", 1: "G4"}, players=players, first_player=active)
    event = play(game, 0, 1)[-1]
    assert (event.player, event.label) == (active, f"strike:{receiver}")
    assert game.scores == tuple(4 if seat == receiver else 0 for seat in range(players))


def test_seats_play_in_increasing_order_and_wrap_around():
    """Seats take turns 0, 1, ..., n-1, then 0 again, starting from the first player."""
    assert new_game({0: "G1", 1: "G2"}, players=3).current_player == 0
    game = new_game({0: "G1", 1: "G2"}, players=3, first_player=1)
    events = play(game, 0, 1, 1, 0, 0, 1, 1, 0)
    assert [event.player for event in events] == [1, 1, 2, 2, 0, 0, 1, 1]
    assert [event.turn for event in events] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert (game.turn, game.current_player) == (4, 2)


# --- Gold Rush --------------------------------------------------------------------------------------


def test_gold_rush_begins_at_the_start_of_a_turn_with_ten_cards_or_fewer():
    """12 -> 11 cards: still a normal turn; 11 -> 10: the next turn is the first Gold Rush turn."""
    rest = dict(zip(range(3, 12), "G1 G2 G3 G4 G1 G2 G3 G4 D".split()))
    game = new_game({0: "M02", 1: "M13", 2: "M25", **rest}, background=False)
    assert (game.cards_left, game.gold_rush, game.gold_rush_from_turn) == (12, False, None)
    duel = play(game, 0, 1)[-1]
    assert (duel.outcome, duel.rush_begins, game.cards_left, game.gold_rush) == (Outcome.DUEL, False, 11, False)
    first, duel = play(game, 1, 2)
    assert first.outcome is Outcome.FIRST  # 11 cards at the start of the turn: a normal turn
    assert (duel.outcome, duel.removed, duel.rush_begins) == (Outcome.DUEL, (1,), True)
    assert (game.cards_left, game.gold_rush, game.gold_rush_from_turn, game.turn) == (10, True, 2, 2)


def test_gold_rush_one_card_per_turn_gold_to_the_active_player_the_rest_discarded():
    """In the Gold Rush each turn flips one card: gold is the active player's, a miner or dynamite just leaves."""
    game = new_game(dict(enumerate("G4 M25 D G1 G2".split())), players=3, background=False, first_player=2)
    assert (game.gold_rush, game.gold_rush_from_turn) == (True, 0)
    events = play(game, 0, 1, 2, 3)
    assert [event.label for event in events] == ["rush_gold:2", "rush_discard", "rush_discard", "rush_gold:2"]
    assert [event.player for event in events] == [2, 0, 1, 2]
    assert [event.removed for event in events] == [(0,), (1,), (2,), (3,)]
    assert all(event.partner is None and not event.rush_begins for event in events)
    assert (game.scores, game.gold_cards) == ((0, 0, 5), (0, 0, 2))
    assert (game.turn, game.current_player, game.face_up, game.cards_left) == (4, 0, None, 1)


def test_a_game_dealt_with_ten_cards_or_fewer_starts_in_the_gold_rush():
    """Ten cards at the start of turn 0 is already the Gold Rush."""
    game = new_game(dict(zip(range(10), "M13 M25 G1 G2 G3 G4 G1 G2 G3 D".split())), background=False)
    assert (game.gold_rush, game.gold_rush_from_turn) == (True, 0)
    event = game.step(1)
    assert (event.label, event.removed, game.turn, game.current_player) == ("rush_discard", (1,), 1, 1)


def test_the_gold_rush_lasts_to_the_end():
    """Once begun (here by D3 with twelve golds), every turn to the last card is a one-card Gold Rush turn."""
    game = new_game(dict(enumerate("G1 G2 G3 G4".split() * 3)), background=False)
    assert (game.gold_rush, game.gold_rush_from_turn, game.cards_left) == (True, 0, 12)
    for position in range(12):
        event = game.step(position)
        assert (event.outcome, event.receiver, game.gold_rush) == (Outcome.RUSH_GOLD, position % 2, True)
    assert game.gold_rush_from_turn == 0
    assert (game.scores, game.gold_cards, game.turn, game.is_over) == ((12, 18), (6, 6), 12, True)


def test_gold_on_table_counts_the_points_of_gold_still_down():
    """Gold leaves the count as it leaves the table: taken in the Gold Rush, or lost to dynamite."""
    game = new_game(dict(enumerate("G1 G4 D G3 M13 G2".split())), background=False)
    assert (game.gold_rush, game.gold_on_table) == (True, 10)
    left = []
    for position in range(6):
        game.step(position)
        left.append(game.gold_on_table)
    assert left == [9, 5, 5, 2, 2, 0]
    game = new_game({0: "G3", 1: "D"})
    shown = sum(VALUE[card] for card in game.table if card != EMPTY and IS_GOLD[card])
    assert game.gold_on_table == shown > 3
    play(game, 0, 1)
    assert game.gold_on_table == shown - 3


# --- D3 stalemate ---------------------------------------------------------------------------------


@pytest.mark.parametrize("codes", [
    "G1 G2 G3 G4 G1 G2 G3 G4 G1 G2 G3 G4",  # only gold
    "M02 M02 M12 M12 M22 M22 M32 M32 M42 M42 G3 G4",  # one miner value, weaker than every gold
    "M03 M03 M13 M13 M23 M23 G4 G4 G4 G4 G4",  # the same with value 3 against 4s
], ids=["only-gold", "miners-2-gold-3-4", "miners-3-gold-4"])
def test_stalemate_with_more_than_ten_cards_starts_the_gold_rush_at_once(codes):
    """D3: no dynamite, one miner value, every miner weaker than every gold: no pair can act, so rush now.

    (Miners of one value alone cannot exceed ten cards with the box, so that case is only reached with gold.)
    """
    game = new_game(dict(enumerate(codes.split())), background=False)
    assert game.cards_left > 10
    assert (game.gold_rush, game.gold_rush_from_turn) == (True, 0)
    assert game.step(0).outcome in (Outcome.RUSH_GOLD, Outcome.RUSH_DISCARD)


@pytest.mark.parametrize("codes", [
    "G1 G2 G3 G4 G1 G2 G3 G4 G1 G2 D",  # a dynamite can still remove cards
    "M02 M02 M12 M12 M03 M03 G4 G4 G4 G4 G4",  # two miner values can duel
    "M02 M02 M12 M12 G2 G3 G3 G3 G4 G4 G4",  # a 2-miner can strike the G2
], ids=["dynamite", "two-miner-values", "miner-strong-enough"])
def test_no_stalemate_while_some_pair_can_still_remove_a_card(codes):
    """D3 counter-examples: more than ten cards and a possible removal keep the normal phase."""
    game = new_game(dict(enumerate(codes.split())), background=False)
    assert (game.cards_left, game.gold_rush, game.gold_rush_from_turn) == (11, False, None)
    assert game.step(0).outcome is Outcome.FIRST


def test_a_stalemate_reached_in_play_starts_the_gold_rush_next_turn():
    """D3 is checked at the start of every turn: once only gold is left (eleven cards), the rush begins."""
    golds = dict(zip(range(2, 13), "G1 G2 G3 G4 G1 G2 G3 G4 G1 G2 G3".split()))
    game = new_game({0: "D", 1: "M05", **golds}, background=False)
    assert game.gold_rush is False
    event = play(game, 0, 1)[-1]
    assert (event.outcome, event.rush_begins) == (Outcome.DYNAMITE, True)
    assert (game.cards_left, game.gold_rush, game.gold_rush_from_turn) == (11, True, 1)
    assert game.step(5).label == "rush_gold:1"


# --- D4 turn limit --------------------------------------------------------------------------------


def test_the_turn_limit_truncates_the_game():
    """D4: after max_turns completed turns the game stops, not over; the leaders so far are the winners."""
    game = new_game({0: "M14", 1: "G3", 2: "G1", 3: "G2"}, max_turns=2)
    play(game, 0, 1)
    assert (game.is_truncated, game.winners) == (False, ())
    play(game, 2, 3)
    assert (game.turn, game.is_truncated, game.is_over) == (2, True, False)
    assert flippable(game) == []
    with pytest.raises(IllegalFlipError):
        game.step(2)
    assert game.winners == game.leaders() == (0,)
    assert (game.scores, game.turn, len(game.history)) == ((3, 0), 2, 4)


def test_a_game_ending_exactly_at_the_turn_limit_is_over_not_truncated():
    """D4: the last card leaving on the limit turn ends the game normally."""
    game = new_game({0: "G1", 1: "G3"}, background=False, max_turns=2)
    play(game, 0, 1)
    assert (game.turn, game.is_over, game.is_truncated) == (2, True, False)
    assert game.winners == (1,)


def test_the_result_reads_the_leaders_in_play_and_the_winners_at_the_end():
    """D5 through the protocol's result(): the leaders while the game is in play or truncated, the winners at the
    end; the gold cards that break a tie of points come with it."""
    game = new_game({0: "G1", 1: "G1", 2: "M14", 3: "G2", 4: "G4"}, max_turns=3)
    play(game, 2, 3)  # seat 0 strikes the G2
    assert game.result() == ((2, 0), (0,), (1, 0))
    play(game, 0, 4)  # nothing
    play(game, 0, 1)  # nothing, and the limit
    assert game.is_truncated and game.result() == ((2, 0), (0,), (1, 0))
    tied = new_game({0: "G1", 1: "G2", 2: "G1"}, background=False)  # three cards: the Gold Rush
    for position in (0, 1, 2):
        tied.step(position)
    assert tied.is_over and tied.result() == ((2, 2), (0,), (2, 1))


def test_rush_at_zero_plays_the_normal_phase_to_the_last_card():
    """``rush_at`` is the number of cards at which the Gold Rush begins; 0 is allowed (no rush but D3's)."""
    game = new_game({0: "M14", 1: "G3", 2: "D", 3: "G2"}, background=False, rush_at=0)
    assert not game.gold_rush
    assert [event.outcome for event in play(game, 0, 1, 2, 3)] == [Outcome.FIRST, Outcome.STRIKE] + [
        Outcome.FIRST, Outcome.DYNAMITE]
    assert game.is_over and game.gold_rush_from_turn is None


def test_shuffled_starts_with_seat_zero_unless_told():
    assert Game.new(3, seed=1).current_player == 0
    assert Game.new(3, seed=1, first_player=2).current_player == 2
    assert Game.new(3, seed=1, first_player=2).first_player == 2


# --- D5 ranking ------------------------------------------------------------------------------------


def test_most_points_wins():
    """D5: the seat with the most points wins; no winner while the game is in play."""
    game = new_game({0: "G4", 1: "G1", 2: "G2"}, background=False)
    play(game, 0, 1)
    assert (game.is_over, game.winners, game.leaders()) == (False, (), (0,))
    game.step(2)
    assert (game.scores, game.winners) == ((6, 1), (0,))


def test_a_tie_on_points_goes_to_more_gold_cards():
    """D5: level on points, the seat holding more gold cards wins."""
    game = new_game({0: "G4", 1: "G2", 2: "D", 3: "G2"}, background=False)
    play(game, 0, 1, 2, 3)
    assert (game.scores, game.gold_cards, game.winners) == ((4, 4), (1, 2), (1,))


def test_seats_level_on_points_and_cards_all_win():
    """D5: still level after the gold-card count, several seats win together."""
    game = new_game({0: "G3", 1: "G3", 2: "G1"}, players=3, background=False)
    play(game, 0, 1, 2)
    assert (game.scores, game.gold_cards, game.winners) == ((3, 3, 1), (1, 1, 1), (0, 1))


# --- D7 / D8 layouts ------------------------------------------------------------------------------


def test_positions_read_the_grid_row_by_row():
    """D7: position = 8 * row + column, from 0 at the top left to 63 at the bottom right."""
    rows = ["G1 - - - - - - -", "M25 - - - - - - -"] + ["- - - - - - - -"] * 5 + ["- - - - - - - D"]
    game = Game(2, "\n".join(rows))
    assert {p: card_code(card) for p, card in enumerate(game.table) if card != EMPTY} == {0: "G1", 8: "M25", 63: "D"}
    assert card_code(game.step(63).card) == "D"


def test_a_layout_may_leave_positions_empty():
    """D8: gaps are allowed; only cards count, and an empty position cannot be flipped."""
    game = new_game({5: "M25", 17: "G2", 40: "D"}, background=False)
    assert (game.cards_left, flippable(game)) == (3, [5, 17, 40])
    assert game.table.count(EMPTY) == 61
    with pytest.raises(IllegalFlipError):
        game.step(6)


def test_a_layout_with_more_cards_than_the_box_is_refused():
    """D8: six dynamite where the box has five is refused, naming the card and the box's count."""
    with pytest.raises(LayoutError) as error:
        new_game(dict(enumerate(["D"] * 6)), background=False)
    message = str(error.value)
    assert "D" in message and "5" in message and "6" in message


# --- D9 events and the end ------------------------------------------------------------------------


def test_every_flip_shows_its_card_and_history_keeps_every_event_in_order():
    """D9: all flips are public: each event names its position and card, and the history keeps them all."""
    cards = {0: "M14", 1: "G3", 2: "M22", 3: "M35", 4: "D", 5: "G4", 6: "G1", 7: "G2"}
    game = new_game(cards)
    order = [0, 1, 2, 3, 5, 4, 6, 7, 3, 6]
    events = play(game, *order)
    assert [(event.position, card_code(event.card)) for event in events] == \
        [(position, cards[position]) for position in order]
    assert game.history == tuple(events)
    assert [event.label for event in events] == \
        ["first", "strike:0", "first", "duel", "first", "dynamite", "first", "nothing", "first", "strike:1"]
    assert [event.partner for event in events] == [None, 0, None, 2, None, 5, None, 6, None, 3]


def test_the_game_ends_when_the_last_card_leaves():
    """The game is over once the table is empty: nothing more may be flipped."""
    game = new_game({0: "G2", 1: "M13", 2: "G4"}, background=False)
    play(game, 0, 1)
    assert (game.is_over, game.cards_left) == (False, 1)
    last = game.step(2)
    assert (last.label, last.rush_begins) == ("rush_gold:0", False)
    assert (game.is_over, game.is_truncated, game.cards_left, flippable(game)) == (True, False, 0, [])
    assert (game.scores, game.gold_cards, game.winners) == ((6, 0), (2, 0), (0,))
    with pytest.raises(IllegalFlipError):
        game.step(2)
