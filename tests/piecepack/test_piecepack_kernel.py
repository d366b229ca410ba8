"""The compiled kernel plays in lockstep with the engine: after every action of many games (3 and 4 players, rich
and thin economies, keen and random choices) its state array is the game's, its mask is ``Game.legal_mask()``, its
observation of every seat is the encoder's ``observation_vector(game.known_to(seat))`` and its global state is
``state_vector(game)``, to the bit."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack import kernel
from goldrush_env.piecepack.aec import raw_env
from goldrush_env.piecepack.components import MARKET, NUM_PLOTS, TRADE_ROUTE, WAREHOUSE
from goldrush_env.piecepack.encoder import observation_vector, state_vector
from goldrush_env.piecepack.engine import Game, Phase
from goldrush_env.streams import Stream

from goldrush_agents.piecepack.idle import idle_rollouts

KEEN = {A.MARKET_ROLL, *(A.UPGRADE + plot for plot in range(NUM_PLOTS)),
        *(A.BUILD + NUM_PLOTS * building + plot for building in (MARKET, WAREHOUSE, TRADE_ROUTE)
          for plot in range(NUM_PLOTS))}
"""Actions taken whenever allowed, half the time: the buildings and rolls thin random economies rarely reach."""


def assert_in_step(game: Game, state: np.ndarray, mask: np.ndarray) -> None:
    np.testing.assert_array_equal(state, kernel.state_of(game))
    kernel.legal_mask(state, mask)
    np.testing.assert_array_equal(mask, game.legal_mask())
    for seat in range(game.num_players):
        np.testing.assert_array_equal(kernel.observation(state, seat), observation_vector(game.known_to(seat)))
    np.testing.assert_array_equal(kernel.observation(state, -1), state_vector(game))


def play_both(game: Game, state: np.ndarray, action: int) -> None:
    game.step(action)
    if kernel.step(state, action, game.market_sum or 0):
        kernel.roll(state, *game.dice)


@pytest.mark.parametrize("num_players", [3, 4])
def test_the_kernel_follows_the_engine_step_for_step(num_players):
    rng = np.random.default_rng(num_players)
    mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
    reached = Counter()
    for seed in range(10):
        game = Game.new(num_players, seed)
        if seed % 2:  # rich seats: Markets, Warehouses, Trade Routes and upgrades
            for holding in game.holdings:
                holding[:] = [12, 12, 12, 12]
        state = kernel.state_of(game)
        while True:
            assert_in_step(game, state, mask)
            reached[game.phase] += 1
            reached.update(trade_route=any(A.TRADE_ROUTE <= a < A.MARKET_ROLL for a in np.flatnonzero(mask)),
                           powered=bool(game.powered), spoiled=game.dice is not None and 0 in game.dice[:2])
            if game.is_over:
                break
            legal = np.flatnonzero(mask)
            keen = [action for action in legal if action in KEEN]
            play_both(game, state, int(rng.choice(keen) if keen and rng.random() < 0.5 else rng.choice(legal)))
    assert set(Phase) <= set(reached), reached  # every decision point, the Warehouse questions and Markets too
    assert all(reached[key] for key in ("trade_route", "powered", "spoiled")), reached


def test_a_sampled_game_loads_and_plays_on_in_step():
    """A game the search samples (mid-round, an offer waiting for its answer) is a state like any other."""
    rng = np.random.default_rng(7)
    mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
    game = Game.new(3, 7)
    while game.phase is not Phase.OFFER_RESPONSE:
        legal = game.legal_actions()
        offers = [a for a in legal if A.OFFER <= a < A.ACCEPT]
        game.step(offers[0] if offers else int(rng.choice(legal)))
    sampled = Game.sample(game.known_to(1), rng)
    state = kernel.state_of(sampled)
    while not sampled.is_over:
        assert_in_step(sampled, state, mask)
        play_both(sampled, state, int(rng.choice(np.flatnonzero(mask))))
    assert_in_step(sampled, state, mask)


def test_the_env_plays_the_engine_s_game():
    """The env hands every action to both: its records replay, and its observations (and its views') are the
    encoder's."""
    env = raw_env(num_players=4)
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        while not env.game.is_over:
            agent = env.agent_selection
            seat = env.agent_name_mapping[agent]
            observed = env.observe(agent)
            np.testing.assert_array_equal(observed["observation"], observation_vector(env.game.known_to(seat)))
            for other in range(env.game.num_players):  # a player's view carries the same encoding
                np.testing.assert_array_equal(env.view(other).observation,
                                              observation_vector(env.game.known_to(other)))
            np.testing.assert_array_equal(observed["action_mask"], env.game.legal_mask().astype(np.int8))
            env.step(int(rng.choice(np.flatnonzero(observed["action_mask"]))))
        replayed = Game.from_record(env.game.to_record())
        assert replayed.history == env.game.history and replayed.final() == env.game.final()
        np.testing.assert_array_equal(env.state(), state_vector(replayed))


def test_sync_takes_a_position_set_up_by_hand():
    env = raw_env()
    env.reset(seed=4)
    env.game.holdings[env.game.current_player][:] = [0, 9, 0, 0]
    env.sync()
    seat = env.game.current_player
    np.testing.assert_array_equal(env.observe(f"player_{seat}")["observation"],
                                  observation_vector(env.game.known_to(seat)))
    np.testing.assert_array_equal(env.action_mask(f"player_{seat}"), env.game.legal_mask())


def test_compiled_rollouts_are_the_search_s_rollouts_with_the_same_dice():
    """``idle_rollouts`` sums what ``PiecepackSearch._rollout`` (idle policy) scores on the same sampled
    games when those games roll the dice of the SplitMix streams the kernel reads."""
    from goldrush_agents.piecepack.search import SEARCHED, PiecepackSearch

    search, rng, checked = PiecepackSearch(seed=1), np.random.default_rng(0), 0
    for seed in range(4):
        game = Game.new(3 + seed % 2, seed)
        while not game.is_over:
            legal = np.flatnonzero(game.legal_mask())
            if game.phase in SEARCHED and len(legal) > 1 and rng.random() < 0.25:
                seat, seeds = game.current_player, rng.integers(2**63, size=3)
                samples = [Game.sample(game.known_to(seat), np.random.default_rng(int(s))) for s in seeds]
                out = np.zeros(len(legal))
                idle_rollouts(np.stack([kernel.state_of(sample) for sample in samples]), seeds.astype(np.uint64),
                              legal, seat, 0.01, out)
                expected = np.zeros(len(legal))
                for j, action in enumerate(legal):
                    for sample, s in zip(samples, seeds):
                        copy, stream = sample.copy(), Stream(int(s))
                        copy._dice_queue = [tuple(stream.integers(6) for _ in range(4)) for _ in range(9)]
                        expected[j] += search._rollout(copy, seat, int(action), 0)
                np.testing.assert_allclose(out, expected)
                checked += 1
            game.step(int(rng.choice(legal)))
    assert checked > 20


def test_the_compiled_search_plays_whole_games_and_its_option_is_checked():
    from goldrush_agents import make_agent
    from goldrush_agents.arena import play_game

    from goldrush_env.errors import GoldrushEnvError

    result = play_game([make_agent("search[compiled=True]", game="piecepack"),
                        make_agent("economist", game="piecepack"), make_agent("random", game="piecepack")], 5,
                       game="piecepack")
    assert Game.from_record(result.record).is_over
    with pytest.raises(GoldrushEnvError, match="compiled must be False or True, and True only with policy='idle'"):
        make_agent("search[compiled=True,policy='builder']", game="piecepack")


@pytest.mark.parametrize("num_players", [3, 4])
def test_the_environment_steps_the_kernel_alone_and_its_game_is_the_engine_s(num_players):
    """Random play through the environment never steps the readable game; read, it is the game the engine plays from
    the same seed with the same actions (the same dice drawn from the same generator), and a caller holding it sees
    the game go on."""
    env, rng = raw_env(num_players=num_players), np.random.default_rng(num_players)
    for seed in range(3):
        env.reset(seed=seed)
        held, actions = env.game, []
        engine = Game.new(num_players, np.random.default_rng(np.random.SeedSequence(seed)))
        while not env.one.is_over:
            action = int(rng.choice(np.flatnonzero(env.one.mask)))
            if rng.random() < 0.5 and KEEN & set(np.flatnonzero(env.one.mask)):
                action = min(KEEN & set(np.flatnonzero(env.one.mask)))
            env.step(action)
            actions.append(action)
        assert held.seen is None  # never stepped: nobody read it
        for action in actions:
            engine.step(action)
        assert held.to_record() == engine.to_record() and held.seen == (len(actions), len(env.one.dice),
                                                                         len(env.one.markets))
        assert env.game.winners() == env.one.winners() == engine.winners()
        assert env.game.scores() == env.one.scores()
