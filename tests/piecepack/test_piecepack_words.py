"""Gold Rush in the rule sheet's words (goldrush_env.piecepack.words): every choice and every log line says it
without the engine's names, paid choices say their price, production shows plot by plot, and the words for a seat
never depend on pieces it has not seen."""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest
from conftest import DATA
from test_piecepack_noninterference import hidden_from
from goldrush_agents.cli import build_parser

from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.components import (
    BUILD_COST,
    BUILDINGS,
    COLUMNS,
    FARM,
    GOLD_MINE,
    NUM_PLOTS,
    PRODUCTION,
    RESOURCES,
    WAREHOUSE,
    WINDMILL,
)
from goldrush_env.piecepack.encoder import observation_vector
from goldrush_env.piecepack.engine import Event, Game, Phase
from goldrush_env.piecepack.render import to_text
from goldrush_env.piecepack.words import (
    EVENT_KINDS,
    PHASE_WORDS,
    action_words,
    cost_words,
    event_words,
    production,
    relative_names,
)

with open(DATA / "piecepack_vectors.jsonl") as handle:
    RECORDS = [json.loads(line) for line in handle if line.strip()]
HANDMADE = [record for record in RECORDS if "about" in record]

ENGINE_NAME = re.compile(r"[A-Z]{2,}|_|=|\+\d")
"""What only the engine writes: an ALL_CAPS kind (``OFFER``, ``END_FREE_TRADE``), ``key=value``, ``+1``."""


def replay(record: dict, upto: int | None = None) -> Game:
    game = Game(record["players"], record["tiles"], record["coins"], record["start"], record["dice"],
                record["market_rolls"])
    for action in record["actions"][:upto]:
        game.step(action)
    return game


def positions() -> list[Game]:
    """Real positions at every decision point: the first time each phase comes up in each handmade vector (the
    Warehouse, the Market, the Trade Route and offers among them) and in three random-play vectors."""
    found = []
    for record in HANDMADE + RECORDS[12:15]:
        game = replay(record, 0)
        seen = set()
        for action in record["actions"]:
            if game.phase not in seen:
                seen.add(game.phase)
                found.append(game.copy())
            game.step(action)
    return found


POSITIONS = positions()


def test_the_positions_reach_every_decision_point():
    assert {game.phase for game in POSITIONS} == set(Phase) - {Phase.GAME_OVER}
    assert any(game.known_to(game.current_player)["identities"] for game in POSITIONS)


def test_every_action_of_every_position_has_words_without_an_engine_name():
    checked = 0
    for game in POSITIONS:
        known = game.known_to(game.current_player)
        names = [f"Player {chr(65 + s)}" for s in range(game.num_players)]
        for action in range(A.NUM_ACTIONS):
            for words in (action_words(action, known), action_words(action, known, names)):
                assert words and not ENGINE_NAME.search(words), (action, A.describe(action), words)
                checked += 1
    assert checked == 2 * A.NUM_ACTIONS * len(POSITIONS)


def test_the_words_of_some_choices():
    game = replay(HANDMADE[0], 0)
    seat = game.current_player
    known = game.known_to(seat)
    left, right = (seat + 1) % 4, (seat - 1) % 4
    assert action_words(A.offer(1, 0, 1, 1, 1), known) == \
        f"Offer the player on your left (seat {left}) 1 Food for 1 Energy"
    assert action_words(A.offer(3, 0, 2, 2, 1), known) == \
        f"Offer the player on your right (seat {right}) 2 Food for 1 Ore"
    assert action_words(A.offer(2, 3, 1, 0, 2), known).startswith("Offer the player across the table")
    assert action_words(A.offer(1, 0, 1, 1, 1), known, ["Ann", "Bo", "Cy", "Di"]) == \
        f"Offer {['Ann', 'Bo', 'Cy', 'Di'][left]} 1 Food for 1 Energy"
    assert action_words(A.END_FREE_TRADE, known) == "End your Free Trade turn"
    assert action_words(A.END_DEVELOPMENT, known) == "End your Development turn"
    assert action_words(A.claim(14), known) == "Claim plot 14 (row 2, col 2)"
    assert action_words(A.build(FARM, 14), known) == "Build a Farm on plot 14 (row 2, col 2) for 1 Food"
    assert action_words(A.build(GOLD_MINE, 3), known).endswith("for 2 Food and 2 Ore")
    assert action_words(A.build(WAREHOUSE, 3), known).endswith("for 2 Food, 1 Energy and 1 Ore")
    assert action_words(A.trade_route(2, 0), known) == "Use your Trade Route: 3 Ore to the bank for 1 Food"
    with pytest.raises(ValueError, match="names must name each of the 4 seats"):
        action_words(A.offer(1, 0, 1, 1, 1), known, ["Ann", "Bo"])


def test_build_and_upgrade_choices_say_their_price():
    for game in POSITIONS:
        known = game.known_to(game.current_player)
        for building, cost in enumerate(BUILD_COST):
            for plot in range(NUM_PLOTS):
                words = action_words(A.build(building, plot), known)
                assert words.startswith(f"Build a {BUILDINGS[building]} on plot {plot} ")
                assert words.endswith(f" for {cost_words(cost)}")
        for plot in range(NUM_PLOTS):
            assert action_words(A.upgrade(plot), known).endswith(" for 1 Energy and 1 Gold")
        for action in range(A.ASSAY_TILE, A.OPTIMIZE_TILE):
            assert " for 1 Food: you alone see its " in action_words(action, known)
        for action in range(A.OPTIMIZE_TILE, A.BUILD):
            assert " for 1 Energy and 1 Ore" in action_words(action, known)


def test_replacing_and_upgrading_name_what_stands():
    record, replaced = HANDMADE[9], None  # a level-2 Farm replaced by a Windmill
    game = replay(record, 0)
    for action in record["actions"]:
        if game.phase is Phase.DEVELOPMENT_TURN and A.decode(action).kind == "BUILD":
            _, plot = A.decode(action).args
            if game.building[plot] >= 0:
                replaced = action_words(action, game.known_to(game.current_player)), game.building[plot], plot
                level = game.level[plot]
                break
        game.step(action)
    words, standing, plot = replaced
    old = f"level-{level} {BUILDINGS[standing]}" if level else BUILDINGS[standing]
    assert f"on plot {plot} (row {plot // COLUMNS}, col {plot % COLUMNS}) in place of its {old} for " in words
    known = game.known_to(game.current_player)
    assert action_words(A.upgrade(plot), known) == (f"Upgrade the {BUILDINGS[standing]} on plot {plot} (row "
                                                    f"{plot // COLUMNS}, col {plot % COLUMNS}) from level {level} to "
                                                    f"{level + 1} for 1 Energy and 1 Gold")


def test_answers_the_market_and_the_warehouse_say_what_they_do():
    answered = sold = sheltered = 0
    for game in POSITIONS:
        known = game.known_to(game.current_player)
        if game.phase is Phase.OFFER_RESPONSE:
            offerer, _, give, a, take, b = game.pending_offer
            words = action_words(A.ACCEPT, known)
            assert words.startswith("Accept the offer of the player on your ") and f"seat {offerer})" in words
            assert words.endswith(f"you get {a} {RESOURCES[give]} and give {b} {RESOURCES[take]}")
            answered += 1
        if game.phase is Phase.MARKET_SELL:
            assert action_words(A.market_sell(5), known) == \
                f"Sell 5 Food to the bank for 5 Gold (the Market dice add up to {game.market_sum})"
            sold += 1
        if game.phase in (Phase.WAREHOUSE_FOOD, Phase.WAREHOUSE_ENERGY):
            stock = "Food" if game.phase is Phase.WAREHOUSE_FOOD else "Energy"
            assert action_words(A.WAREHOUSE_PROTECT, known) == \
                f"Shelter your {stock} from spoilage in your Warehouse for 1 Energy"
            assert action_words(A.WAREHOUSE_DECLINE, known).startswith(f"Leave your {stock} unsheltered")
            sheltered += 1
    assert answered and sold and sheltered


# --- the log ---------------------------------------------------------------------------------------------------------

def random_game(players: int, seed: int) -> Game:
    rng = np.random.default_rng(seed)
    game = Game.new(players, seed)
    while not game.is_over:
        game.step(int(rng.choice(game.legal_actions())))
    return game


def test_the_events_of_whole_games_read_without_an_engine_name():
    kinds = set()
    games = [replay(record) for record in RECORDS] + [random_game(3 + seed % 2, seed) for seed in range(4)]
    for game in games:
        for names in (None, ["you", "Bo", "Cy", "Di"][:game.num_players], relative_names(1, game.num_players)):
            for event in game.events:
                words = event_words(event, names)
                assert words and not ENGINE_NAME.search(words), (event, words)
                kinds.add(event.kind)
    assert kinds == EVENT_KINDS - {"claim_skipped"}  # P28's skip never happens under P29


def test_the_words_of_some_events():
    names = ["you", "Bo", "Cy"]
    assert event_words(Event("roll", None, {"dice": (4, 2, 2, 5)})) == \
        "The production dice show Moon 4, Sun 2, Arms 2, Crown 5"
    assert event_words(Event("roll", None, {"dice": (0, 3, 0, 1)})) == \
        "The production dice show Moon Null, Sun 3, Arms Null, Crown 1: Food spoils"
    assert event_words(Event("claim", 0, {"plot": 3}), names) == "You claim plot 3 (row 0, col 3)"
    assert event_words(Event("claim", 1, {"plot": 3}), names) == "Bo claims plot 3 (row 0, col 3)"
    assert event_words(Event("produce", 2, {"plot": 14, "resource": "Ore", "units": 2}), names) == \
        "Plot 14 (row 2, col 2) yields 2 Ore for Cy"
    assert event_words(Event("offer", 1, {"target": 0, "give": "Food", "give_units": 1, "take": "Energy",
                                          "take_units": 2}), names) == "Bo offers you 1 Food for 2 Energy"
    assert event_words(Event("decline", 0, {"offerer": 1}), names) == "You decline the offer of Bo"
    assert event_words(Event("accept", 2, {"offerer": 0}), names) == "Cy accepts your offer"
    assert event_words(Event("assay", 1, {"piece": NUM_PLOTS + 14}), names) == \
        "Bo assays the Arms coin of plot 14 (row 2, col 2)"
    assert event_words(Event("build", 0, {"plot": 5, "building": "Windmill", "replaced": "Farm"}), names) == \
        "You build a Windmill on plot 5 (row 0, col 5) for 2 Food, replacing a Farm"
    assert event_words(Event("spoil", 1, {"resource": "Food", "before": 5, "after": 1}), names) == \
        "Food spoils for Bo: 5 down to 1"
    assert event_words(Event("game_over", None, {"scores": [3, 3, 0], "winners": [0, 1]}), names) == \
        "The game is over. Scores: you 3, Bo 3, Cy 0. You and Bo share the victory"
    with pytest.raises(ValueError, match="unknown event kind 'bribe'"):
        event_words(Event("bribe", 0), names)
    with pytest.raises(ValueError, match="names seat 3"):
        event_words(Event("claim", 3, {"plot": 0}), names)


def test_event_words_tell_no_face_down_piece():
    """Every piece that stayed face down all game dealt elsewhere (the same actions, the same dice): every event
    reads the same, so no log line tells what lies face down, assayed or not."""
    rng = np.random.default_rng(3)
    for record in HANDMADE + RECORDS[12:20]:
        game = replay(record)
        tiles, coins = list(record["tiles"]), list(record["coins"])
        down = [p for p in range(NUM_PLOTS) if not game.face_up[p]]
        for place, source in zip(down, rng.permutation(down)):
            tiles[place] = record["tiles"][source]
        for row in range(NUM_PLOTS // COLUMNS):
            down = [p for p in range(row * COLUMNS, (row + 1) * COLUMNS) if not game.face_up[NUM_PLOTS + p]]
            for place, source in zip(down, rng.permutation(down)):
                coins[place] = record["coins"][source]
        twin = replay(dict(record, tiles=tiles, coins=coins))
        assert [event_words(e) for e in twin.events] == [event_words(e) for e in game.events]


# --- privacy of the choices --------------------------------------------------------------------------------------

def test_the_words_for_a_seat_ignore_the_pieces_it_has_not_seen():
    rng = np.random.default_rng(7)
    compared = told = 0
    for record in HANDMADE + RECORDS[12:16]:
        actions = record["actions"]
        for turns in sorted({len(actions) // 3, len(actions) // 2, len(actions) - 1}):
            game = replay(record, turns)
            for seat in range(game.num_players):
                twin = replay(hidden_from(game, seat, rng, record), turns)
                if twin.public_state() != game.public_state():
                    continue  # the swap changed what everybody sees (a face-up piece's production): nothing to compare
                known, twin_known = game.known_to(seat), twin.known_to(seat)
                words = [action_words(action, known) for action in range(A.NUM_ACTIONS)]
                assert [action_words(action, twin_known) for action in range(A.NUM_ACTIONS)] == words
                compared += 1
                told += any("you assayed it" in line for line in words)
    assert compared >= 30 and told  # and the seat's own assays do show in its words


def test_words_read_only_the_knowledge_they_are_given():
    """The public view (no seat, no identities) and a seat's view of the same position differ only in what that
    seat assayed."""
    for game in POSITIONS:
        seat = game.current_player
        public = dict(game.public_state(), seat=None, identities={})
        mine = game.known_to(seat)
        for action in range(A.NUM_ACTIONS):
            if not mine["identities"]:
                assert action_words(action, public) == action_words(action, mine)
            else:
                assert "you assayed it" not in action_words(action, public)


# --- production on the board -------------------------------------------------------------------------------------

def test_production_gives_each_plot_what_the_round_yielded():
    checked = 0
    for record in RECORDS[:40]:
        game = replay(record, 0)
        for action in [None, *record["actions"]]:
            events = game.events if action is None else game.step(action)
            if not any(event.kind == "roll" for event in events) or game.phase.value.startswith("warehouse"):
                continue
            made = production(game.known_to(game.current_player))
            produced = {e.data["plot"]: (RESOURCES.index(e.data["resource"]), e.data["units"])
                        for e in events if e.kind == "produce"}
            assert {plot: y for plot, y in enumerate(made) if y is not None and y[1]} == produced
            assert all((y is None) == (game.building[plot] not in PRODUCTION) for plot, y in enumerate(made))
            checked += 1
    assert checked > 100


def test_production_is_public_and_leaves_the_observations_as_they_were():
    game = replay(RECORDS[20], 150)
    known = game.known_to(0)
    assert known["produced"] == game.public_state()["produced"] == game.known_to(1)["produced"]
    without = {key: value for key, value in known.items() if key != "produced"}
    assert np.array_equal(observation_vector(known), observation_vector(without))  # the encoder never reads it
    assert Game.sample(known, np.random.default_rng(0)).known_to(0) == known


def test_a_building_put_up_after_the_roll_shows_no_production():
    game = Game.new(3, seed=0)
    while game.phase is not Phase.DEVELOPMENT_TURN:
        game.step(game.legal_actions()[0])  # the lowest plot claimed, every turn ended
    seat = game.current_player
    plot = game.owner.index(seat)
    game.step(A.build(WINDMILL, plot))
    assert production(game.known_to(seat))[plot] is None
    text = to_text(game.known_to(seat))
    assert f"round 1/9, {PHASE_WORDS['development_turn']}, seat {seat} to act" in text


# --- the terminal ----------------------------------------------------------------------------------------------------

def test_the_terminal_game_lists_choices_and_the_log_in_words():
    args = build_parser().parse_args(["play", "--game", "piecepack", "--seed", "4", "--players", "3",
                                      "--opponents", "random"])
    out = io.StringIO()

    def read(prompt):
        listed = re.findall(r"^\s+(\d+)  ", out.getvalue(), flags=re.MULTILINE)
        return listed[-1]  # the last of the latest list: ending a phase

    assert args.run(args, out=out, read=read) == 0
    lines = out.getvalue().splitlines()
    choices = [line for line in lines if re.match(r"^\s+\d+  ", line)]
    log = [line for line in lines if line.startswith("Round ") or re.match(r"^  [A-Z]", line)]
    assert choices and any(line.startswith("Round 9 of 9 begins") for line in log)
    assert not [line for line in choices + log if ENGINE_NAME.search(line.split("  ", 2)[-1])]
    assert any(line.endswith("End your Development turn") for line in choices)
