"""D3 (the stalemate) and D5 (who wins) have one home in each form of the rules: the rules engine's (the reference,
goldrush_env.gold.engine), the compiled game's (goldrush_env.gold.kernel) and the public state's
(goldrush_agents.gold.turns, which the exact solver uses too). Here the three agree, on every small table and on
random standings at every number of players."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from goldrush_env.gold import kernel
from goldrush_env.gold.cards import (EMPTY, MAX_PLAYERS, MIN_PLAYERS, NUM_CARD_TYPES, NUM_POSITIONS, TABLES,
                                     card_kinds)
from goldrush_env.gold.config import EnvConfig
from goldrush_env.gold.engine import Game, colour_owners

from goldrush_agents.gold.turns import GOLD, STRENGTH, lead_share, rules, shares, stalemate


BOX = TABLES["full"].counts
"""Per card, how many the box holds."""


def three_forms_of_d3(cards: tuple[int, ...], num_players: int) -> tuple[bool, bool, bool]:
    """Whether the cards on the table are a stalemate, said by the engine, the kernel and the public state."""
    layout = list(cards) + [EMPTY] * (NUM_POSITIONS - len(cards))
    engine = Game(num_players, layout, rush_at=0)._is_stalemate()
    compiled = kernel._stalemate(np.bincount(kernel.GROUP[list(cards)], minlength=kernel.GROUPS))
    kinds, table_rules = card_kinds(num_players, colour_owners(num_players)), rules(num_players)
    counts = np.bincount([kinds[card] for card in cards], minlength=table_rules.per_kind.shape[1]).astype(np.int64)
    return engine, bool(compiled), bool(stalemate(counts, *table_rules.per_kind[[GOLD, STRENGTH]]))


@pytest.mark.parametrize("num_players", [2, 5])
def test_the_three_forms_of_d3_agree_on_every_table_of_up_to_three_cards(num_players):
    found = set()
    for size in range(1, 4):
        for cards in itertools.combinations_with_replacement(range(NUM_CARD_TYPES), size):
            if any(cards.count(card) > BOX[card] for card in cards):
                continue  # not a table the box can lay
            forms = three_forms_of_d3(cards, num_players)
            assert len(set(forms)) == 1, (cards, forms)
            found.add(forms[0])
    assert found == {True, False}


def test_the_three_forms_of_d3_agree_on_random_tables():
    rng = np.random.default_rng(0)
    box = [card for card in range(NUM_CARD_TYPES) for _ in range(BOX[card])]
    for _ in range(2000):
        cards = tuple(rng.choice(box, size=rng.integers(1, 12), replace=False).tolist())
        forms = three_forms_of_d3(cards, int(rng.integers(MIN_PLAYERS, MAX_PLAYERS + 1)))
        assert len(set(forms)) == 1, (cards, forms)


def test_the_three_forms_of_d5_agree_on_random_standings():
    rng = np.random.default_rng(1)
    games = kernel.new_games(1)
    shared = set()
    for _ in range(3000):
        n = int(rng.integers(MIN_PLAYERS, MAX_PLAYERS + 1))
        golds = rng.integers(0, 3, size=n)  # small: ties are common
        scores = golds + rng.integers(0, 2, size=n) * golds  # 1 to 4 points a gold card
        game = Game(n, [0] + [EMPTY] * (NUM_POSITIONS - 1))
        game._scores, game._gold_cards = scores.tolist(), golds.tolist()  # a standing, whatever game led to it
        engine = game.leaders()
        games[0]["scores"][:n], games[0]["gold_cards"][:n] = scores, golds
        out = np.zeros(MAX_PLAYERS, dtype=np.int8)
        kernel.leaders(games[0], kernel.constants(EnvConfig(num_players=n))[0], out)
        compiled = tuple(np.flatnonzero(out[:n]).tolist())
        share = np.zeros(n)
        shares(scores.astype(np.int64), golds.astype(np.int64), share)
        public = tuple(np.flatnonzero(share).tolist())
        assert engine == compiled == public, (scores, golds, engine, compiled, public)
        assert np.allclose(share[list(public)], 1 / len(public))
        if n == 2:
            assert lead_share(scores[0] - scores[1], golds[0] - golds[1]) == share[0]
        shared.add(len(public) > 1)
    assert shared == {True, False}
