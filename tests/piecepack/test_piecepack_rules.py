"""The piecepack rules scenario by scenario (PIECEPACK.md §8, the worked example of §2.5) and the refusals.

Most scenarios play round 1 with nothing but claims (each seat claims the highest free plot), stop at
the last Development turn, set the position under test directly on the game, and let the last
END_DEVELOPMENT run round 2's Production with the dice the test chose. Seat 0 is "A", seat 1 "B".
"""

import pytest

from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.components import (
    BOX,
    ENERGY,
    FARM,
    FOOD,
    GOLD,
    GOLD_MINE,
    MARKET,
    MINE,
    ORE,
    TRADE_ROUTE,
    WAREHOUSE,
    WINDMILL,
)
from goldrush_env.piecepack.engine import Game, Phase
from goldrush_env.piecepack.errors import IllegalActionError, PiecepackError, SetupError

QUIET = (5, 5, 5, 5)
"""A roll that spoils nothing and that face-down pieces (value 1) never produce on."""
TILES = list(BOX)
"""Tile of plot p: M0..M5 on row 0, S0..S5 on row 1, A0..A5 on row 2, C0..C5 on row 3."""
COINS = [f"{suit}{rank}" for suit in "SMAC" for rank in range(6)]
"""Coin of plot p: rank p % 6 of its row's suit."""


def tiles_with(placed: dict[int, str]) -> list[str]:
    """:data:`TILES` with the codes of ``placed`` moved to the plots given (by swapping)."""
    tiles = list(TILES)
    for plot, code in placed.items():
        other = tiles.index(code)
        tiles[plot], tiles[other] = tiles[other], tiles[plot]
    return tiles


def new_game(players=3, start=0, round2=QUIET, round1=QUIET, tiles=None, market=()):
    return Game(players, tiles or TILES, COINS, start, [round1, round2] + [QUIET] * 7, market)


def to_last_development(game):
    """Play on, claiming the highest free plot and ending every turn, to the last Development turn of
    this round."""
    while not (game.phase is Phase.DEVELOPMENT_TURN and game.current_player == game.seat_order()[-1]):
        if game.phase is Phase.CLAIM:
            game.step(max(p for p in range(24) if game.owner[p] < 0))
        elif game.phase is Phase.DEVELOPMENT_TURN:
            game.step(A.END_DEVELOPMENT)
        else:
            game.step(A.END_FREE_TRADE)
    return game


def place(game, seat, plot, building=None, level=0):
    game.owner[plot] = seat
    if building is not None:
        game.building[plot], game.level[plot] = building, level


def produce_round2(players=3, start=0, round2=QUIET, tiles=None, setup=lambda game: None):
    """Round 2's Production after ``setup`` changed the position at the end of round 1."""
    game = to_last_development(new_game(players, start, round2, tiles=tiles))
    setup(game)
    game.step(A.END_DEVELOPMENT)
    assert game.round == 2
    return game


def windmill_or_farm(building, tile, level, holdings=(0, 0, 0, 0)):
    """A seat-0 ``building`` at ``level`` on plot 2 (a Suns coin, face down) over a face-up ``tile``."""
    def setup(game):
        place(game, 0, 2, building, level)
        game.face_up[2] = True
        game.holdings[0] = list(holdings)
    return setup


# ---- §8.1 / §2.5 (P13): the worked example, read as a Windmill

@pytest.mark.parametrize("level, sun, energy", [
    (0, 1, 2), (0, 2, 1), (0, 3, 0), (0, 4, 0), (0, 5, 0), (0, 0, 0),
    (1, 1, 2), (1, 2, 2), (1, 3, 1), (1, 4, 0), (1, 5, 0),
])
def test_scenario_01_worked_example_windmill(level, sun, energy):
    game = produce_round2(round2=(5, sun, 5, 5), tiles=tiles_with({2: "S2"}),
                          setup=windmill_or_farm(WINDMILL, "S2", level))
    assert game.holdings[0][ENERGY] == energy


@pytest.mark.parametrize("level, moon, food", [(0, 1, 2), (0, 2, 1), (0, 3, 0), (1, 2, 2), (1, 3, 1), (1, 4, 0)])
def test_scenario_01_worked_example_mirror_farm(level, moon, food):
    def setup(game):  # plot 8 (Moons row): face-up Moons-2 tile, face-down Moons-2 coin (value 1)
        place(game, 0, 8, FARM, level)
        game.face_up[8] = True
        game.holdings[0] = [0, 0, 0, 0]
    game = produce_round2(round2=(moon, 5, 5, 5), tiles=tiles_with({8: "M2"}), setup=setup)
    assert game.holdings[0][FOOD] == food


def test_scenario_01_worked_example_energy_spoils_on_null():
    game = produce_round2(round2=(5, 0, 5, 5), tiles=tiles_with({2: "S2"}),
                          setup=windmill_or_farm(WINDMILL, "S2", 0, holdings=(3, 3, 0, 0)))
    assert game.holdings[0] == [3, 1, 0, 0]


@pytest.mark.parametrize("level", range(5))
@pytest.mark.parametrize("moon", range(6))
def test_scenario_02_literal_example_farm_on_suns_makes_nothing(moon, level):
    game = produce_round2(round2=(moon, 5, 5, 5), tiles=tiles_with({2: "S2"}),
                          setup=windmill_or_farm(FARM, "S2", level))
    assert game.holdings[0][FOOD] == 0


@pytest.mark.parametrize("level, moon, food", [(0, 1, 2), (0, 2, 0), (2, 3, 2)])
def test_scenario_03_face_down_farm(level, moon, food):
    def setup(game):  # plot 9: face-down tile, face-down Moons coin
        place(game, 0, 9, FARM, level)
        game.holdings[0] = [0, 0, 0, 0]
    assert produce_round2(round2=(moon, 5, 5, 5), setup=setup).holdings[0][FOOD] == food


def test_scenario_04_null_coin_is_wild():
    def setup(game):  # plot 0: the Suns-Null coin and a Moons-3 tile, both face up
        place(game, 0, 0, GOLD_MINE)
        game.face_up[0] = game.face_up[24] = True
        game.holdings[0] = [0, 1, 0, 0]
    game = produce_round2(round2=(5, 5, 5, 1), tiles=tiles_with({0: "M3"}), setup=setup)
    assert game.coin(0) == "S0" and game.value(24, GOLD) == 1 and game.value(0, GOLD) == 0
    assert game.holdings[0] == [0, 0, 0, 1]


def test_scenario_05_spoilage_without_a_warehouse():
    def setup(game):
        place(game, 0, 9, FARM)
        place(game, 1, 10, FARM)
        game.holdings[0], game.holdings[1] = [5, 2, 0, 0], [0, 2, 0, 0]
    game = produce_round2(round2=(0, 5, 5, 5), setup=setup)
    assert game.holdings[0][FOOD] == 1 and game.holdings[1][FOOD] == 0
    assert not [e for e in game.events if e.kind == "produce" and e.data["resource"] == "Food"]


def warehouse_game(holdings, round2):
    """Round 2 at A's Warehouse question (A owns a Warehouse; round 1 starts at seat 1, so A leads round 2)."""
    def setup(game):
        place(game, 0, 9, WAREHOUSE)
        game.holdings[0] = list(holdings)
    return produce_round2(start=1, round2=round2, setup=setup)


@pytest.mark.parametrize("choice, after", [(A.WAREHOUSE_PROTECT, [5, 2, 0, 0]), (A.WAREHOUSE_DECLINE, [1, 3, 0, 0])])
def test_scenario_06_spoilage_with_a_warehouse(choice, after):
    game = warehouse_game([5, 3, 0, 0], round2=(0, 5, 5, 5))
    assert (game.phase, game.current_player) == (Phase.WAREHOUSE_FOOD, 0)
    assert list(game.legal_actions()) == [A.WAREHOUSE_PROTECT, A.WAREHOUSE_DECLINE]
    game.step(choice)
    assert game.phase is Phase.FREE_TRADE_TURN and game.holdings[0] == after


@pytest.mark.parametrize("energy, choices, after", [
    (3, [A.WAREHOUSE_PROTECT, A.WAREHOUSE_PROTECT], [4, 1, 0, 0]),
    (3, [A.WAREHOUSE_PROTECT, A.WAREHOUSE_DECLINE], [4, 1, 0, 0]),
    (1, [A.WAREHOUSE_DECLINE, A.WAREHOUSE_PROTECT], [1, 0, 0, 0]),
    (1, [A.WAREHOUSE_PROTECT], [4, 0, 0, 0]),  # the only Energy went on Food: Energy is not asked
])
def test_scenario_07_both_spoil(energy, choices, after):
    game = warehouse_game([4, energy, 0, 0], round2=(0, 0, 5, 5))
    for choice, phase in zip(choices, [Phase.WAREHOUSE_FOOD, Phase.WAREHOUSE_ENERGY]):
        assert (game.phase, game.current_player) == (phase, 0)
        game.step(choice)
    assert game.phase is Phase.FREE_TRADE_TURN and game.holdings[0] == after


def test_scenario_08_mine_without_energy():
    def setup(game):
        place(game, 0, 5, MINE)
        place(game, 0, 20, GOLD_MINE)
        game.holdings[0] = [0, 1, 0, 0]
    game = produce_round2(round2=(5, 5, 0, 0), setup=setup)
    power = [(e.data["plot"], e.data["powered"]) for e in game.events if e.kind == "power"]
    assert power == [(20, True), (5, False)]
    assert game.powered == {20}
    assert game.holdings[0] == [0, 0, 0, 2]  # the Gold Mine's two face-down pieces on Crown Null; no Ore


def test_scenario_09_arms_null():
    def setup(game):
        place(game, 1, 14, MINE)  # face-down tile, face-down Arms coin
        place(game, 1, 1, MINE)  # Suns row, face-up Moons-4 tile
        game.face_up[1] = True
        game.holdings[1] = [0, 2, 0, 0]
    game = produce_round2(round2=(5, 5, 0, 5), tiles=tiles_with({1: "M4"}), setup=setup)
    assert game.powered == {1, 14}
    produced = {e.data["plot"]: e.data["units"] for e in game.events if e.kind == "produce"}
    assert produced == {14: 2}
    assert game.holdings[1] == [0, 0, 2, 0]


def free_trade_game(holdings, buildings=(), market=()):
    """Round 2's Free Trade with A to act (A leads round 2), after ``holdings`` and A's ``buildings`` are set."""
    game = to_last_development(new_game(start=1, market=market))
    for plot, building in buildings:
        place(game, 0, plot, building)
    for seat, held in enumerate(holdings):
        game.holdings[seat] = list(held)
    game.step(A.END_DEVELOPMENT)
    assert (game.phase, game.current_player) == (Phase.FREE_TRADE_TURN, 0)
    return game


def test_scenario_10_market():
    game = free_trade_game([[5, 3, 0, 0], [2, 2, 0, 0], [2, 2, 0, 0]], buildings=[(9, MARKET)], market=[(3, 4)])
    assert game.legal_mask()[A.MARKET_ROLL]
    events = game.step(A.MARKET_ROLL)
    assert events[0].data == {"dice": (3, 4), "sum": 7}
    assert game.holdings[0][ENERGY] == 1 and game.phase is Phase.MARKET_SELL
    assert game.legal_actions() == [A.market_sell(k) for k in range(6)]
    game.step(A.market_sell(5))
    assert game.holdings[0] == [0, 1, 0, 5]
    assert not game.legal_mask()[A.MARKET_ROLL]
    with pytest.raises(IllegalActionError, match="has used a Market this round"):
        game.step(A.MARKET_ROLL)


def test_scenario_11_trade_route():
    game = free_trade_game([[0, 3, 7, 0], [2, 2, 0, 0], [2, 2, 0, 0]], buildings=[(9, TRADE_ROUTE)])
    for _ in range(2):
        game.step(A.trade_route(ORE, FOOD))
    assert game.holdings[0] == [2, 3, 1, 0]
    mask = game.legal_mask()
    assert not any(mask[A.trade_route(ORE, y)] for y in (FOOD, ENERGY, GOLD))
    assert all(mask[A.trade_route(ENERGY, y)] for y in (FOOD, ORE, GOLD))
    with pytest.raises(PiecepackError, match="different resources"):
        A.trade_route(ORE, ORE)


def optimize_game(tiles=None, moon=4):
    """A (seat 0, last to develop in round 1) owns a Farm on plot 10 (face-down Moons-4 coin)."""
    game = to_last_development(new_game(start=1, round2=(moon, 5, 5, 5), tiles=tiles))
    assert game.current_player == 0
    place(game, 0, 10, FARM)
    game.holdings[0] = [0, 1, 1, 0]
    return game


def test_scenario_12_optimize_helps():
    game = optimize_game(moon=4)
    assert game.value(34, FOOD) == 1
    game.step(A.optimize_coin(10))
    assert game.face_up[34] and game.value(34, FOOD) == 4 and game.holdings[0] == [0, 0, 0, 0]
    game.step(A.END_DEVELOPMENT)
    assert game.holdings[0][FOOD] == 1  # the coin on Moon 4; the face-down tile needs Moon <= 1


def test_scenario_13_optimize_hurts():
    game = optimize_game(tiles=tiles_with({10: "A3"}), moon=1)
    assert game.value(10, FOOD) == 1
    game.step(A.optimize_tile(10))
    assert game.value(10, FOOD) == 0 and game.known_to(2)["face_up"][10] == "A3"
    game.step(A.END_DEVELOPMENT)
    assert game.holdings[0][FOOD] == 1  # only the coin now


def test_scenario_14_assay_privacy_and_targets():
    game = new_game(start=0)
    while game.phase is not Phase.DEVELOPMENT_TURN:  # claims: A takes 23, B 22, C 21
        game.step(max(p for p in range(24) if game.owner[p] < 0) if game.phase is Phase.CLAIM else A.END_FREE_TRADE)
    assert game.current_player == 0 and game.owner[21:] == [2, 1, 0]
    game.step(A.assay_tile(5))
    assert game.known_to(0)["identities"] == {5: TILES[5]}
    assert game.known_to(1)["identities"] == {} and game.known_to(1)["assayed_by"][5] == [0]
    assert not game.face_up[5] and all(game.value(5, suit) == 1 for suit in range(4))
    assert TILES[5] not in str(game.public_state()["face_up"])
    with pytest.raises(IllegalActionError, match="has assayed tile 5 before"):
        game.step(A.assay_tile(5))
    mask = game.legal_mask()
    assert not mask[A.assay_tile(22)] and not mask[A.assay_coin(22)] and mask[A.assay_coin(23)]
    with pytest.raises(IllegalActionError, match="owned by seat 1"):
        game.step(A.assay_coin(22))
    game.step(A.END_DEVELOPMENT)
    assert game.current_player == 1 and game.legal_mask()[A.assay_tile(5)]
    game.step(A.assay_tile(5))  # a second seat's assay of the same tile adds to the first's
    assert game.known_to(0)["identities"] == {5: TILES[5]} and game.known_to(1)["identities"] == {5: TILES[5]}
    assert game.known_to(2)["assayed_by"][5] == [0, 1] and game.known_to(2)["identities"] == {}
    game.step(A.assay_coin(3))  # a coin: the piece after the 24 tiles, at its plot
    assert game.known_to(1)["identities"] == {5: TILES[5], 24 + 3: COINS[3]}
    assert game.known_to(2)["assayed_by"][24 + 3] == [1] and not game.legal_mask()[A.assay_coin(3)]


def test_scenario_15_replacing_a_building():
    game = to_last_development(new_game())
    seat = game.current_player
    place(game, seat, 3, FARM, level=2)
    place(game, seat, 4, GOLD_MINE, level=4)
    game.holdings[seat] = [3, 5, 0, 5]
    with pytest.raises(IllegalActionError, match="already holds a Farm"):
        game.step(A.build(FARM, 3))
    with pytest.raises(IllegalActionError, match="at level 4"):
        game.step(A.upgrade(4))
    game.step(A.build(WINDMILL, 3))
    assert (game.building[3], game.level[3]) == (WINDMILL, 0) and game.holdings[seat] == [1, 5, 0, 5]


@pytest.mark.parametrize("players, last", [(4, 6), (3, 8)])
def test_scenario_16_claims_fill_the_board(players, last):
    game = new_game(players)
    while not game.is_over:
        to_last_development(game).step(A.END_DEVELOPMENT)
    claim_rounds, now = set(), 0
    for event in game.events:
        now = event.data["round"] if event.kind == "round" else now
        if event.kind == "claim":
            claim_rounds.add(now)
    assert claim_rounds == set(range(1, last + 1))
    for snapshot in game.rounds:
        assert sum(o >= 0 for o in snapshot["owners"]) == players * min(snapshot["round"], last)
    assert game.markers == ([0] * 3 if players == 3 else [2] * 4)


def test_scenario_17_start_player_rotation():
    game = new_game(4, start=2)
    while not game.is_over:
        to_last_development(game).step(A.END_DEVELOPMENT)
    starts = [event.data["start"] for event in game.events if event.kind == "round"]
    assert starts == [2, 1, 0, 3, 2, 1, 0, 3, 2]
    assert [event.seat for event in game.events if event.kind == "claim"][:4] == [2, 3, 0, 1]


def test_scenario_18_offers():
    game = free_trade_game([[2, 2, 0, 0], [0, 2, 1, 0], [2, 2, 0, 0]])
    assert not game.legal_mask()[A.offer(1, ENERGY, 1, FOOD, 1)]  # B holds no Food
    game.step(A.offer(1, FOOD, 2, ORE, 1))
    assert (game.phase, game.current_player) == (Phase.OFFER_RESPONSE, 1)
    assert game.legal_actions() == [A.ACCEPT, A.DECLINE]
    game.step(A.ACCEPT)
    assert game.holdings[0][:3] == [0, 2, 1] and game.holdings[1][:3] == [2, 2, 0]
    for _ in range(2):
        game.step(A.offer(2, ENERGY, 1, FOOD, 1))
        game.step(A.DECLINE)
    assert game.offers_made[0] == 3 and game.holdings[0] == [0, 2, 1, 0]
    mask = game.legal_mask()
    assert not mask[A.OFFER:A.ACCEPT].any() and mask[A.END_FREE_TRADE]
    with pytest.raises(IllegalActionError, match="made 3 offers"):
        game.step(A.offer(2, ENERGY, 1, FOOD, 1))
    assert [entry[-1] for entry in game.offer_log] == [True, False, False]


@pytest.mark.parametrize("food_b, winners", [(3, [1]), (2, [0, 1])])
def test_scenario_19_scoring_tie(food_b, winners):
    game = new_game()
    while game.round < 9:
        to_last_development(game).step(A.END_DEVELOPMENT)
    to_last_development(game)
    place(game, 0, 0, TRADE_ROUTE)
    place(game, 1, 1, FARM)
    game.holdings[0], game.holdings[1] = [2, 0, 4, 3], [food_b, 0, 6, 5]
    events = game.step(A.END_DEVELOPMENT)
    assert game.is_over and events[-1].kind == "game_over"
    assert game.scores()[:2] == [21, 21] and game.winners() == winners


def test_scenario_20_round_one_spoilage():
    game = new_game(round1=(5, 0, 5, 5))
    assert game.holdings == [[2, 1, 0, 0]] * 3


# ---- refusals: named, and nothing changed

def snapshot(game):
    return game.to_record(), game.public_state(), [game.known_to(s) for s in range(game.num_players)]


@pytest.mark.parametrize("action, message", [
    (A.END_DEVELOPMENT, "not an action of the free_trade_turn"),
    (A.MARKET_ROLL, "owns no Market"),
    (A.trade_route(FOOD, GOLD), "owns no Trade Route"),
    (A.offer(1, ORE, 1, FOOD, 1), "holds 0 Ore, under 1"),
    (A.offer(3, FOOD, 1, ENERGY, 1), "no seat \\+3 with 3 players"),
    (488, "int from 0 to 487"),
    (-1, "int from 0 to 487"),
    (True, "int from 0 to 487"),
    ("312", "int from 0 to 487"),
])
def test_illegal_actions_are_refused_and_change_nothing(action, message):
    game = new_game()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=message) as error:
        game.step(action)
    assert repr(action) in str(error.value) and "seat 0" in str(error.value)
    assert snapshot(game) == before


def test_development_refusals_change_nothing():
    game = to_last_development(new_game())
    seat = game.current_player
    game.holdings[seat] = [0, 0, 0, 0]
    before = snapshot(game)
    for action, message in [(A.build(FARM, 21), "cannot pay 1 Food"), (A.assay_tile(0), "cannot pay 1 Food"),
                            (A.optimize_tile(0), f"seat {seat} does not own plot 0"),
                            (A.upgrade(21), "no production building"), (A.claim(0), "not an action")]:
        with pytest.raises(IllegalActionError, match=message):
            game.step(action)
        assert snapshot(game) == before


def test_a_finished_game_refuses_every_action():
    game = new_game()
    while not game.is_over:
        to_last_development(game).step(A.END_DEVELOPMENT)
    assert not game.legal_mask().any() and game.current_player is None
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.step(A.END_DEVELOPMENT)


def test_market_roll_without_a_roll_left_is_refused():
    game = free_trade_game([[5, 3, 0, 0], [2, 2, 0, 0], [2, 2, 0, 0]], buildings=[(9, MARKET)])
    before = snapshot(game)
    with pytest.raises(PiecepackError, match="no roll left"):
        game.step(A.MARKET_ROLL)
    assert snapshot(game) == before


@pytest.mark.parametrize("change, message", [
    ({"players": 2}, "num_players must be 3 or 4"),
    ({"players": 5}, "num_players must be 3 or 4"),
    ({"tiles": TILES[:23]}, "tiles must be 24 piece codes"),
    ({"tiles": ["M0"] + TILES[1:23] + ["M0"]}, "C5 missing"),
    ({"tiles": ["X9"] + TILES[1:]}, r"tiles\[0\]: a piece code"),
    ({"coins": COINS[6:12] + COINS[:6] + COINS[12:]},
     r"coins\[0\] is M0, of the Moons, but row 0 holds the Suns \(P6\)"),
    ({"start": 3}, "start must be a seat from 0 to 2"),
    ({"dice": [QUIET] * 8}, "dice must hold 9 production rolls"),
    ({"dice": [(6, 1, 1, 1)] + [QUIET] * 8}, r"dice\[0\] must be 4 ints from 0 to 5"),
    ({"market_rolls": [(0, 3)]}, r"market_rolls\[0\] must be 2 ints from 1 to 6"),
])
def test_impossible_setups_are_refused(change, message):
    setup = {"players": 3, "tiles": TILES, "coins": COINS, "start": 0, "dice": [QUIET] * 9, "market_rolls": []}
    setup.update(change)
    with pytest.raises(SetupError, match=message):
        Game(setup["players"], setup["tiles"], setup["coins"], setup["start"], setup["dice"], setup["market_rolls"])


def test_a_dealt_game_can_be_given_its_start_player():
    drawn = Game.new(4, seed=11).to_record()
    for start in range(4):
        record = Game.new(4, seed=11, first_player=start).to_record()
        assert record["start"] == start
        assert {k: v for k, v in record.items() if k != "start"} == {k: v for k, v in drawn.items() if k != "start"}
    for start in (4, -1, 1.0, True):
        with pytest.raises(SetupError, match=rf"first_player must be None or a seat from 0 to 3, got {start!r}"):
            Game.new(4, seed=11, first_player=start)


def test_records_that_do_not_replay_are_refused():
    game = new_game()
    while not game.is_over:
        to_last_development(game).step(A.END_DEVELOPMENT)
    record = game.to_record()
    with pytest.raises(SetupError, match="has no dice"):
        Game.from_record({k: v for k, v in record.items() if k != "dice"})
    with pytest.raises(IllegalActionError, match="record action #0"):
        Game.from_record({**record, "actions": [A.END_DEVELOPMENT] + record["actions"]})
    wrong = {**record, "rounds": [{**record["rounds"][0], "holdings": [[9, 9, 9, 9]] * 3}] + record["rounds"][1:]}
    with pytest.raises(PiecepackError, match="round 1 of the record does not match"):
        Game.from_record(wrong)
    with pytest.raises(PiecepackError, match="final"):
        Game.from_record({**record, "final": {**record["final"], "winners": [2]}})
    assert Game.from_record(wrong, check=False).to_record() == record


def test_describe_and_decode():
    assert A.describe(A.build(WINDMILL, 1)) == "BUILD(Windmill, plot 1)"
    assert A.describe(A.offer(2, FOOD, 2, ORE, 1)) == "OFFER(+2: 2 Food for 1 Ore)"
    assert A.decode(A.offer(3, GOLD, 1, ENERGY, 2)) == ("OFFER", (3, GOLD, 1, ENERGY, 2))
    assert (A.OFFER, A.offer(3, GOLD, 2, ORE, 2), A.trade_route(GOLD, ORE)) == (313, 456, 470)
    assert A.describe(A.market_sell(12)) == "MARKET_SELL(12)" and A.describe(487) == "WAREHOUSE_DECLINE"


def test_the_package_loads_lazily_and_the_rules_import_no_rl_library():
    import ast
    import subprocess
    import sys
    from pathlib import Path

    import goldrush_env.piecepack as package

    code = "import sys, goldrush_env.piecepack; print('goldrush_env.piecepack.engine' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"
    rules = ("__init__", "engine", "actions", "components", "errors")  # the environments (aec, gym_env) wrap them
    for path in (Path(package.__file__).parent / f"{name}.py" for name in rules):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not [n for n in names if n.split(".")[0] in ("gymnasium", "pettingzoo", "torch")], path
