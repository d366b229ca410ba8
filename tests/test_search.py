"""The search player (ismcts) on small budgets: legal flips, seeding, its argument checks, card kinds."""

import pytest

from agents import make_agent
from agents.arena import play_game
from agents.search import ISMCTSAgent, card_kinds
from goldrush_env.cards import CODE
from goldrush_env.errors import GoldRushError
from conftest import Checked


@pytest.mark.parametrize("memory", ["perfect", "human"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_plays_only_legal_flips(num_players, memory):
    search = Checked(ISMCTSAgent(iterations=8))
    players = [search] + [make_agent("greedy") for _ in range(num_players - 1)]
    result = play_game(players, seed=num_players, first_player=num_players - 1, memory=memory, memory_capacity=6)
    assert search.moves > 0 and result.turns > 0


def test_same_seed_same_game():
    def game(seed):
        return play_game([ISMCTSAgent(iterations=10), make_agent("expert")], seed=seed).record["flips"]

    assert game(4) == game(4)


def code(kind_cards):
    return sorted(CODE[card] for card in kind_cards)


def test_cards_the_rules_cannot_tell_apart_share_a_kind():
    kinds = card_kinds(2)
    by_kind = {}
    for card, kind in enumerate(kinds):
        by_kind.setdefault(kind, []).append(card)
    groups = [code(cards) for cards in by_kind.values()]
    assert ["M05", "M15"] in groups  # seat 0 owns colours 0 and 1
    assert ["M25", "M35"] in groups and ["M45"] in groups  # colour 4 is unowned, alone
    assert all(len(g) == 1 for g in groups if g[0][0] in "GD")  # gold by value, dynamite
    three = card_kinds(3)
    assert three[CODE.index("M34")] == three[CODE.index("M44")] != three[CODE.index("M24")]  # unowned share


@pytest.mark.parametrize("argument, value", [("iterations", 0), ("iterations", True), ("iterations", 2.5),
                                             ("horizon", -1), ("exploration", -0.1)])
def test_bad_arguments_are_refused(argument, value):
    with pytest.raises(GoldRushError, match=f"{argument} must be .*got {value!r}"):
        ISMCTSAgent(**{argument: value})
