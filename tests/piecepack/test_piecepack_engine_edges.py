"""The Gold Rush engine at its edges: what the vectors and scenarios never reach, each case written after a
mutation run (docs/testing.md) showed that no test noticed a change there.

The setup, the refusals and the records word for word; a seat out of markers skipped at the Stake Claim (P28,
which the schedule of P29 never brings about, so the test takes the markers away); two Warehouses asked in
turn; a single unit that does not spoil; what a round's production lists; a replaced Farm; an offer its offerer
can no longer pay; the Market's dice drawn from a seed; copies, samples and what a seat can name.
"""

import numpy as np
import pytest

from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.components import FARM, FOOD, GOLD_MINE, MARKET, ORE, WAREHOUSE, WINDMILL, code_of
from goldrush_env.piecepack.engine import Game, Phase, is_record
from goldrush_env.piecepack.errors import IllegalActionError, PiecepackError, SetupError
from test_piecepack_rules import (COINS, QUIET, TILES, free_trade_game, new_game, place, produce_round2,
                                  to_last_development)
from test_piecepack_search import random_states


def kinds(events):
    return [event.describe() for event in events]


def refused(error, message, call):
    """``call()`` raises exactly ``error`` (not a subclass or parent) with exactly ``message``."""
    with pytest.raises(Exception) as raised:
        call()
    assert type(raised.value) is error and str(raised.value) == message


def test_a_new_game_s_public_state_in_full():
    assert new_game().public_state() == {
        "players": 3, "round": 1, "phase": "free_trade_turn", "start": 0, "current_player": 0,
        "claims_this_round": True, "owners": [-1] * 24, "buildings": [-1] * 24, "levels": [0] * 24,
        "coin_suits": [1] * 6 + [0] * 6 + [2] * 6 + [3] * 6, "face_up": {}, "assayed_by": [[]] * 48,
        "holdings": [[2, 2, 0, 0]] * 3, "markers": [8] * 3, "market_used": [False] * 3, "offers_made": [0] * 3,
        "dice": (5, 5, 5, 5), "powered": [], "warehouse": [[None, None]] * 3, "market_sum": None,
        "pending_offer": None, "offer_log": [], "produced": []}


def test_impossible_setups_are_refused_word_for_word():
    dice = [QUIET] * 9
    refused(SetupError, "tiles must hold each of the 24 pieces once: M1, M2 missing",
            lambda: Game(3, ["M0", "M0", "M0"] + TILES[3:], COINS, 0, dice))
    refused(SetupError, "coins must hold each of the 24 pieces once: S1 missing",
            lambda: Game(3, TILES, ["S0", "S0"] + COINS[2:], 0, dice))
    arms_in_row_1 = COINS[:6] + ["A0"] + COINS[7:12] + ["M0"] + COINS[13:]
    refused(SetupError, "coins[6] is A0, of the Arms, but row 1 holds the Moons (P6)",
            lambda: Game(3, TILES, arms_in_row_1, 0, dice))
    refused(SetupError, "rng must be None or a numpy.random.Generator, got 5",
            lambda: Game(3, TILES, COINS, 0, dice, rng=5))
    refused(SetupError, "dice[0] must be 4 ints from 0 to 5, got 5", lambda: Game(3, TILES, COINS, 0, [5] + dice[1:]))
    for players in (2, 5):
        refused(SetupError, f"num_players must be 3 or 4 (P1), got {players}", lambda: Game.new(players, 0))


def test_records_are_refused_word_for_word_and_need_only_their_setup():
    refused(SetupError, "a record is a dict, got int", lambda: Game.from_record(5))
    refused(SetupError, "the record has no players, tiles, coins, start, dice", lambda: Game.from_record({}))
    game = to_last_development(new_game())
    game.step(A.END_DEVELOPMENT)
    record = game.to_record()
    assert len(record["rounds"]) == 1
    refused(PiecepackError, "the record stores 2 rounds, its actions play 1",
            lambda: Game.from_record({**record, "rounds": record["rounds"] * 2}))
    setup = {key: record[key] for key in ("players", "tiles", "coins", "start", "dice")}
    assert Game.from_record(setup).to_record() == new_game().to_record()  # no actions, rounds or Market rolls
    assert is_record(record) and is_record(setup)
    assert not any(is_record(data) for data in ([], {"tiles": TILES}, {"coins": COINS}, "tiles coins"))


def test_a_dealt_game_s_record_replays_with_an_rng_for_the_rolls_to_come():
    game = Game.new(3, 7)
    for _ in range(5):
        game.step(int(np.flatnonzero(game.legal_mask())[0]))
    record = game.to_record()
    assert len(record["dice"]) == 1  # the rolls to come are not drawn yet
    with pytest.raises(SetupError, match="dice must hold 9 production rolls"):
        Game.from_record(record)
    replayed = Game.from_record(record, rng=np.random.default_rng(1))
    assert replayed.to_record() == record
    while not replayed.is_over:
        replayed.step(int(np.flatnonzero(replayed.legal_mask())[-1]))


def test_a_record_is_a_copy_of_the_rounds():
    game = to_last_development(new_game())
    game.step(A.END_DEVELOPMENT)
    record = game.to_record()
    record["rounds"][0]["holdings"][0][0] = 99
    assert game.rounds[0]["holdings"][0][0] != 99


def test_a_seat_s_knowledge_is_refused_for_a_seat_that_is_not_there():
    game = new_game()
    for seat in (3, -1):
        refused(PiecepackError, f"seat must be an int from 0 to 2, got {seat}", lambda: game.known_to(seat))
    known = game.known_to(1)
    assert known["seat"] == 1 and type(known["seat"]) is int


def test_illegal_actions_are_named_word_for_word():
    game = new_game()
    opening = "is not legal for seat 0 at free_trade_turn in round 1"
    not_here = "it is not an action of the free_trade_turn decision point"
    refused(IllegalActionError, f"action 0 (CLAIM(plot 0)) {opening}: {not_here}", lambda: game.step(0))
    refused(IllegalActionError, f"action 487 (WAREHOUSE_DECLINE) {opening}: {not_here}", lambda: game.step(487))
    refused(IllegalActionError, f"action 'x' ('x') {opening}: an action is an int from 0 to 487",
            lambda: game.step("x"))
    market = free_trade_game([[5, 3, 0, 0], [2, 2, 0, 0], [2, 2, 0, 0]], buildings=[(9, MARKET)])
    refused(PiecepackError, "MARKET_ROLL needs a Market roll, and this game has no roll left (no rng was given to "
            "draw one)", lambda: market.step(A.MARKET_ROLL))
    while not game.is_over:
        to_last_development(game).step(A.END_DEVELOPMENT)
    assert game.why_illegal(A.END_DEVELOPMENT) == "the game is over"
    mask = game.legal_mask()
    assert mask.dtype == bool and mask.shape == (488,) and not mask.any()


def test_a_seat_out_of_markers_is_skipped_at_the_stake_claim():
    """P28: a seat with no marker left, or with no plot free, is skipped. P29's schedule never brings it about
    (24 plots = 3 x 8 = 4 x 6 markers), so the markers are taken away here."""
    game = new_game()
    game.step(A.END_FREE_TRADE)
    game.step(A.END_FREE_TRADE)
    game.markers[0] = game.markers[2] = 0
    assert kinds(game.step(A.END_FREE_TRADE)) == ["seat 2: end_free_trade", "seat 0: claim_skipped"]
    assert (game.phase, game.current_player) == (Phase.CLAIM, 1)
    assert kinds(game.step(23)) == ["seat 1: claim (plot=23)", "seat 2: claim_skipped"]
    assert (game.phase, game.current_player) == (Phase.DEVELOPMENT_TURN, 0)

    full = new_game()  # markers left, but no plot free
    full.owner = [1] * 24
    full.step(A.END_FREE_TRADE)
    full.step(A.END_FREE_TRADE)
    assert kinds(full.step(A.END_FREE_TRADE))[1:] == [f"seat {seat}: claim_skipped" for seat in range(3)]
    assert full.phase is Phase.DEVELOPMENT_TURN


@pytest.mark.parametrize("round2, questions", [
    ((0, 5, 5, 5), [(Phase.WAREHOUSE_FOOD, 0), (Phase.WAREHOUSE_FOOD, 1)]),
    ((0, 0, 5, 5), [(Phase.WAREHOUSE_FOOD, 0), (Phase.WAREHOUSE_ENERGY, 0), (Phase.WAREHOUSE_FOOD, 1),
                    (Phase.WAREHOUSE_ENERGY, 1)]),
])
def test_two_warehouses_are_asked_in_seat_order(round2, questions):
    def setup(game):
        for seat, plot in ((0, 9), (1, 10)):
            place(game, seat, plot, WAREHOUSE)
            game.holdings[seat] = [5, 3, 0, 0]
    game = produce_round2(start=1, round2=round2, setup=setup)
    asked = []
    while game.phase in (Phase.WAREHOUSE_FOOD, Phase.WAREHOUSE_ENERGY):
        asked.append((game.phase, game.current_player))
        game.step(A.WAREHOUSE_PROTECT)
    assert asked == questions and game.phase is Phase.FREE_TRADE_TURN


def test_a_single_unit_does_not_spoil_and_production_is_listed_plot_by_plot():
    def setup(game):
        place(game, 0, 9, FARM)
        place(game, 1, 10, WINDMILL)
        game.holdings[0] = [1, 2, 0, 0]
    game = produce_round2(round2=(0, 5, 5, 5), setup=setup)
    assert kinds(e for e in game.events if e.kind == "spoil") == [  # round 1's dice spoil nothing
        "seat 2: spoil (resource=Food, before=2, after=1)", "seat 1: spoil (resource=Food, before=2, after=1)"]
    assert game.public_state()["produced"] == [(9, FARM, 0), (10, WINDMILL, 0)]
    game = produce_round2(round2=(1, 1, 5, 5), setup=setup)
    assert game.public_state()["produced"] == [(9, FARM, 2), (10, WINDMILL, 1)]


def test_replacing_a_farm_names_it():
    game = to_last_development(new_game())
    seat = game.current_player
    place(game, seat, 3, FARM)
    game.holdings[seat] = [3, 5, 0, 0]
    [event] = game.step(A.build(WINDMILL, 3))
    assert event.data == {"plot": 3, "building": "Windmill", "replaced": "Farm"}


def test_an_offer_its_offerer_can_no_longer_pay_cannot_be_accepted():
    """Cannot happen in play (P44 is checked at the offer, and nothing moves before the answer): the holdings are
    changed here to reach the check."""
    game = free_trade_game([[2, 2, 2, 0], [2, 2, 2, 0], [2, 2, 2, 0]])
    game.step(A.offer(1, ORE, 1, FOOD, 1))
    assert (game.phase, game.current_player) == (Phase.OFFER_RESPONSE, 1)
    game.holdings[0][ORE] = 0
    assert game.why_illegal(A.ACCEPT) == "the holdings no longer cover the offer"
    assert game.why_illegal(A.DECLINE) is None
    game.holdings[0][ORE] = 2
    game.holdings[1][FOOD] = 0
    assert game.why_illegal(A.ACCEPT) == "the holdings no longer cover the offer"
    game.holdings[1][FOOD] = 2
    game.step(A.ACCEPT)
    assert game.public_state()["pending_offer"] is None and game.holdings[0] == [3, 2, 1, 0]


def test_market_dice_drawn_from_a_seed_are_two_fair_six_sided_dice():
    faces = np.zeros((2, 7), dtype=int)
    for seed in range(600):
        game = to_last_development(Game(3, TILES, COINS, 1, [QUIET] * 9, rng=np.random.default_rng(seed)))
        place(game, 0, 9, MARKET)
        game.holdings[0] = [5, 3, 0, 0]
        game.step(A.END_DEVELOPMENT)
        [event] = game.step(A.MARKET_ROLL)
        roll = event.data["dice"]
        assert len(roll) == 2 and event.data["sum"] == sum(roll) == game.market_sum
        for die, face in enumerate(roll):
            faces[die, face] += 1
    assert (faces[:, 0] == 0).all()
    assert ((faces[:, 1:] > 60) & (faces[:, 1:] < 140)).all(), faces  # 100 expected; 60 and 140 are 4 sd away


def test_a_copy_is_the_same_game_and_goes_its_own_way():
    game = produce_round2(round2=(1, 1, 5, 5), setup=lambda game: place(game, 0, 9, FARM))
    copy = game.copy()
    assert copy.public_state() == game.public_state() and copy.to_record() == game.to_record()
    before = game.to_record(), game.public_state(), len(game.events)
    while not copy.is_over:
        copy.step(int(np.flatnonzero(copy.legal_mask())[-1]))
    assert (game.to_record(), game.public_state(), len(game.events)) == before


def test_what_each_seat_can_name_and_the_result():
    rng = np.random.default_rng(3)
    game = Game.new(4, 3)
    assayed = 0
    while not game.is_over:
        for seat in range(4):
            known = game.known_to(seat)
            named = {**known["face_up"], **known["identities"]}
            assayed += len(known["identities"])
            assert game.identified_by(seat) == [(piece, *game.piece(piece)) for piece in sorted(named)]
            assert all(code_of(suit, rank) == named[piece] for piece, suit, rank in game.identified_by(seat))
        legal = np.flatnonzero(game.legal_mask())
        assays = [a for a in legal if A.decode(int(a))[0].startswith("ASSAY")]
        game.step(int(rng.choice(assays if assays and rng.random() < 0.5 else legal)))
    assert assayed > 0
    result = game.result()
    assert result.scores == tuple(game.scores()) and result.winners == tuple(game.winners())
    assert result.tiebreak == tuple(holding[FOOD] for holding in game.holdings)


def test_a_development_refusal_lists_everything_lacking():
    game = to_last_development(new_game())
    seat = game.current_player
    game.holdings[seat] = [1, 0, 0, 0]
    plot = game.owner.index(seat)
    assert game.why_illegal(A.build(GOLD_MINE, plot)) == "cannot pay 2 Food (holds 1), 2 Ore (holds 0)"


def test_a_sampled_game_goes_on_as_the_game_does_until_the_next_roll():
    """The last legal action never turns a piece face up (it ends a turn, declines, claims the last free plot or
    sells), so until the next round's dice both games must ask the same seats the same questions. (A sample taken
    while an offer waited for its answer once gave the offerer a second Free Trade turn.)"""
    compared = 0
    for game, seat in random_states(16, 40):
        real, sample = game.copy(), Game.sample(game.known_to(seat), np.random.default_rng(compared))
        while not real.is_over and real.round == game.round:
            assert (sample.phase, sample.current_player) == (real.phase, real.current_player)
            assert (sample.legal_mask() == real.legal_mask()).all()
            action = int(np.flatnonzero(real.legal_mask())[-1])
            real.step(action)
            sample.step(action)
            compared += 1
    assert compared > 1000


def test_a_game_sampled_while_a_market_roll_is_sold_keeps_the_roll():
    game = free_trade_game([[5, 3, 0, 0], [2, 2, 0, 0], [2, 2, 0, 0]], buildings=[(9, MARKET)], market=[(3, 4)])
    game.step(A.MARKET_ROLL)
    for seat in range(3):
        sample = Game.sample(game.known_to(seat), np.random.default_rng(seat))
        assert sample.public_state() == game.public_state() and sample.market_sum == 7
        assert (sample.legal_mask() == game.legal_mask()).all()
