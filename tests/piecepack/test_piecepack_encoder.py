"""The Gold Rush observation, written again here from the game itself and the documented layout, field by field,
must equal the encoder's, for every seat at every step of random games, and the global state likewise. The
encoder reads what a seat knows (``Game.known_to``); this test reads the game's own attributes, so a field encoded
at the wrong place, for the wrong seat or with the wrong scale fails it (mutation testing found such changes that
no other test noticed)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from goldrush_agents import make_agent

from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack import aec, kernel
from goldrush_env.piecepack.aec import raw_env
from goldrush_env.piecepack.components import MARKERS, MARKET, MAX_LEVEL, MAX_OFFERS, NUM_PLOTS, WAREHOUSE
from goldrush_env.piecepack.encoder import (
    HOLDING_SCALE,
    LAYOUT,
    OBSERVATION_SIZE,
    OFFER_FIELDS,
    OFFER_SIZE,
    PHASES,
    SCORE_SCALE,
    STATE_SIZE,
    index_table,
    observation_vector,
    state_index_table,
    state_vector,
    truth,
)
from goldrush_env.piecepack.engine import Game

KEEN = {A.MARKET_ROLL, *(A.UPGRADE + plot for plot in range(NUM_PLOTS)),
        *(A.BUILD + NUM_PLOTS * building + plot for building in (MARKET, WAREHOUSE) for plot in range(NUM_PLOTS))}
"""Actions the players below take whenever they may, half the time: what economies left to themselves rarely do."""


def expected(game, seat: int, everything: bool = False) -> np.ndarray:
    """Seat ``seat``'s observation; with ``everything``, the global state (absolute seats: pass seat 0)."""
    n = game.num_players

    def rel(s):
        return (s - seat) % n

    f = {name: np.zeros(shape, np.float32) for name, shape, _ in LAYOUT}
    f["players"][n - 3] = 1
    f["round"][game.round - 1] = 1
    f["phase"][PHASES.index(game.phase)] = 1
    if game.current_player is not None:
        f["to_play"][rel(game.current_player)] = 1
    f["start"][rel(game.start)] = 1
    f["claims_this_round"][0] = game.claims_this_round
    for plot in range(NUM_PLOTS):
        owner = game.owner[plot]
        f["owner"][4 if owner < 0 else rel(owner), plot] = 1
        if game.building[plot] >= 0:
            f["building"][game.building[plot], plot] = 1
        f["level"][plot] = game.level[plot] / MAX_LEVEL
        f["coin_suit"][game.piece(NUM_PLOTS + plot)[0], plot] = 1
    for piece in range(2 * NUM_PLOTS):
        tile, plot = piece < NUM_PLOTS, piece % NUM_PLOTS
        suit, rank = game.piece(piece)
        if game.face_up[piece]:
            f["tile_face_up" if tile else "coin_face_up"][plot] = 1
        if everything or game.face_up[piece] or game.assayed[piece] >> seat & 1:
            if tile:
                f["tile_suit"][suit, plot] = f["tile_rank"][rank, plot] = 1
            else:
                f["coin_rank"][rank, plot] = 1
        for s in range(n):
            if game.assayed[piece] >> s & 1:
                f["tile_assayed" if tile else "coin_assayed"][rel(s), plot] = 1
    scores = game.scores()
    for s in range(n):
        r = rel(s)
        f["seats"][r] = 1
        f["holdings"][r] = np.minimum(np.array(game.holdings[s]) / HOLDING_SCALE, 1)
        f["markers"][r] = game.markers[s] / MARKERS
        f["scores"][r] = min(scores[s] / SCORE_SCALE, 1)
        f["market_used"][r] = game.market_used[s]
        f["offers_made"][r] = game.offers_made[s] / MAX_OFFERS
        for resource, protect in enumerate(game.warehouse[s]):
            if protect is not None:
                f["warehouse"][r, resource, 0 if protect else 1] = 1
    if game.dice is not None:
        for die, face in enumerate(game.dice):
            f["dice"][die, face] = 1
    for plot in game.powered:
        f["powered"][plot] = 1
    if game.market_sum is not None:
        f["market_sum"][game.market_sum - 2] = 1

    def offer(row, entry):
        offerer, target, give, a, take, b = entry
        start = 0
        for (_, size), value in zip(OFFER_FIELDS, (rel(offerer), rel(target), give, a - 1, take, b - 1)):
            row[start + value] = 1
            start += size

    if game.pending_offer is not None:
        offer(f["pending_offer"], game.pending_offer)
    for k, entry in enumerate(game.offer_log):
        offer(f["offer_log"][k], entry[:6])
        f["offer_log"][k, OFFER_SIZE] = entry[6]
    return np.concatenate([f[name].ravel() for name, _, _ in LAYOUT])


@pytest.mark.parametrize("num_players", [3, 4])
def test_every_field_is_what_the_game_says_for_every_seat(num_players):
    env = raw_env(num_players=num_players)
    rng = np.random.default_rng(num_players)
    reached = Counter()
    for seed in range(6):
        env.reset(seed=seed)
        game = env.game
        players = [make_agent("economist", game="piecepack", seed=seed) for _ in range(num_players)]
        if seed % 2:  # rich seats build what thin economies never reach: Markets, Warehouses, upgrades
            for holding in game.holdings:
                holding[:] = [12, 12, 12, 12]
            env.sync()
        while not game.is_over:
            for agent in env.possible_agents:
                seat = env.agent_name_mapping[agent]
                np.testing.assert_array_equal(env.observe(agent)["observation"], expected(game, seat))
            np.testing.assert_array_equal(env.state(), expected(game, 0, everything=True))
            reached.update(level=any(game.level), warehouse=any(w != [None, None] for w in map(list, game.warehouse)),
                           market=game.market_sum is not None, offer=game.pending_offer is not None,
                           answered=bool(game.offer_log), powered=bool(game.powered),
                           assayed=any(game.assayed), face_up=any(game.face_up))
            seat = game.current_player
            legal = np.flatnonzero(env.action_mask(env.agent_selection))
            keen = [action for action in legal if action in KEEN]
            if keen and rng.random() < 0.5:
                env.step(int(rng.choice(keen)))
            elif rng.random() < 0.3:  # now and then a random action, for offers and odd choices
                env.step(int(rng.choice(legal)))
            else:
                env.step(players[seat].act(env.view(seat)))
    assert all(reached[key] for key in ("level", "market", "offer", "answered", "powered", "assayed", "face_up")), \
        reached


def test_the_layout_tables_are_in_the_env_s_docstring():
    """The index tables of the env's docstring (which docs/piecepack.md is generated from) are the layout's. Here,
    not in the env's tests: the layout is built at import, and a mutation run checks what is built at import with
    this file alone."""
    assert index_table() in aec.__doc__ and state_index_table() in aec.__doc__
    assert f"`observation` ({OBSERVATION_SIZE},)" in aec.__doc__
    assert f"{STATE_SIZE:,} values" in aec.__doc__


def test_holdings_and_scores_past_their_scales_read_1():
    game = Game.new(3, 5)
    game.holdings[1] = [HOLDING_SCALE, HOLDING_SCALE + 5, 0, 40]  # 40 Gold: a score of 120
    game.holdings[2] = [0, 0, SCORE_SCALE, 0]  # a score of 100 exactly
    assert game.scores()[1:] == [SCORE_SCALE + 20, SCORE_SCALE]
    state = kernel.state_of(game)
    for seat in range(3):
        reference = expected(game, seat)
        np.testing.assert_array_equal(observation_vector(game.known_to(seat)), reference)
        np.testing.assert_array_equal(kernel.observation(state, seat), reference)
        assert reference.max() == 1.0
    np.testing.assert_array_equal(state_vector(game), expected(game, 0, everything=True))
    np.testing.assert_array_equal(kernel.observation(state, -1), expected(game, 0, everything=True))


def test_the_truth_is_a_seat_s_knowledge_with_every_identity_and_no_seat():
    game = Game.new(4, 9)
    for action in (A.END_FREE_TRADE,) * 4 + (0, 1, 2, 3):
        game.step(action)
    known = truth(game)
    assert known.keys() == game.known_to(0).keys() and known["seat"] is None
    assert {piece: code for piece, code in known["identities"].items()} == {
        piece: game.tile(piece) if piece < NUM_PLOTS else game.coin(piece - NUM_PLOTS)
        for piece in range(2 * NUM_PLOTS) if not game.face_up[piece]}
