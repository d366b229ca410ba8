"""Kinds of card (:func:`goldrush_env.gold.cards.card_kinds`): cards the rules cannot tell apart share a kind, and
a category (:func:`goldrush_env.gold.cards.category_table`, the observation's planes) is a kind as one seat sees it.
"""

import itertools

import pytest

from goldrush_env.gold.cards import (
    CATEGORY_NAMES,
    CODE,
    COLOUR,
    DYNAMITE,
    IS_GOLD,
    IS_MINER,
    NUM_CARD_TYPES,
    VALUE,
    card_kinds,
    category_table,
)
from goldrush_env.gold.engine import colour_owners


def kinds_at(num_players):
    return {CODE[card]: kind for card, kind in enumerate(card_kinds(num_players, colour_owners(num_players)))}


def test_two_player_kinds():
    kind = kinds_at(2)
    # Seat 0 owns colours 0 and 1, seat 1 owns 2 and 3, colour 4 is unowned.
    for value in (2, 3, 4, 5):
        assert kind[f"M0{value}"] == kind[f"M1{value}"]
        assert kind[f"M2{value}"] == kind[f"M3{value}"]
        assert len({kind[f"M0{value}"], kind[f"M2{value}"], kind[f"M4{value}"]}) == 3
    assert kind["M03"] != kind["M04"] and kind["M23"] != kind["M25"]
    assert len({kind["G1"], kind["G2"], kind["G3"], kind["G4"], kind["D"]}) == 5
    assert sorted(set(kind.values())) == list(range(17))  # numbered densely: the public model's arrays


def test_three_player_unowned_colours_share_a_kind():
    kind = kinds_at(3)
    # Seats 0..2 own colours 0..2; colours 3 and 4 are unowned and work for whoever flips them.
    assert kind["M34"] == kind["M44"] and kind["M32"] == kind["M42"]
    assert kind["M34"] != kind["M24"] != kind["M14"] != kind["M04"]
    assert kind["M34"] != kind["M35"]


def identity(card, owners):
    """What the rules see in a card: gold by value, dynamite, a miner by value and the seat it works for."""
    if IS_MINER[card]:
        return ("miner", VALUE[card], owners[COLOUR[card]])
    return ("dynamite",) if card == DYNAMITE else ("gold", VALUE[card])


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_kinds_tell_apart_exactly_what_the_rules_tell_apart(num_players):
    owners = colour_owners(num_players)
    kinds = card_kinds(num_players, owners)
    assert len(kinds) == NUM_CARD_TYPES
    for a, b in itertools.combinations(range(NUM_CARD_TYPES), 2):
        assert (kinds[a] == kinds[b]) == (identity(a, owners) == identity(b, owners)), (CODE[a], CODE[b])
    golds = [kinds[card] for card in range(NUM_CARD_TYPES) if IS_GOLD[card]]
    assert len(set(golds)) == 4
    expected_miner_kinds = 4 * (num_players + (1 if -1 in owners else 0))
    assert len({kinds[card] for card in range(NUM_CARD_TYPES) if IS_MINER[card]}) == expected_miner_kinds


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_a_category_is_a_kind_seen_from_a_seat(num_players):
    """From every seat, two cards share a category exactly when they share a kind; seen from seat 0 the numbers
    agree too, but for nobody's miners, which come after all five seats as categories."""
    owners = colour_owners(num_players)
    kinds = card_kinds(num_players, owners)
    table = category_table(num_players, owners)
    for seat in range(num_players):
        for a, b in itertools.combinations(range(NUM_CARD_TYPES), 2):
            assert (table[seat][a] == table[seat][b]) == (kinds[a] == kinds[b]), (seat, CODE[a], CODE[b])
    for card in range(NUM_CARD_TYPES):
        if not (IS_MINER[card] and owners[COLOUR[card]] < 0):
            assert table[0][card] == kinds[card], CODE[card]
        else:
            assert CATEGORY_NAMES[table[0][card]] == f"miner_unowned_{VALUE[card]}"
