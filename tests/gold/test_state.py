"""The AEC environment's global state: PettingZoo's state test, and the vector against the game it encodes."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import state_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import goldrush_env
import goldrush_env.gold
from goldrush_env.gold.cards import EMPTY, NUM_CARD_TYPES, NUM_POSITIONS
from goldrush_env.gold.state import STATE_SIZE, STATE_SLICES, state_index_table
from conftest import POSITIONS


@pytest.mark.parametrize("memory", ["perfect", "human"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_pettingzoos_state_test_passes(num_players, memory):
    """All three parts, the parallel one on PettingZoo's own turn-based conversion; no warning either."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state_test(goldrush_env.gold.env(num_players=num_players, memory=memory),
                   turn_based_aec_to_parallel(goldrush_env.gold.env(num_players=num_players, memory=memory)),
                   num_cycles=200)


def _check(env):
    """Every slice of the state against the game and the memories it should describe."""
    game, state = env.unwrapped.game, env.state()
    assert state.shape == (STATE_SIZE,) and env.state_space.contains(state)
    cards = state[STATE_SLICES["cards"]].reshape(NUM_CARD_TYPES + 1, NUM_POSITIONS)
    assert np.array_equal(cards.sum(axis=0), np.ones(NUM_POSITIONS))
    assert [int(np.argmax(cards[:, p])) - 1 if game.table[p] != EMPTY else EMPTY
            for p in range(NUM_POSITIONS)] == list(game.table)
    assert np.all(cards[0] == (np.array(game.table) == EMPTY))
    face_up = state[STATE_SLICES["face_up"]]
    assert list(np.flatnonzero(face_up)) == ([] if game.face_up is None else [game.face_up])
    known = state[STATE_SLICES["known"]].reshape(5, NUM_POSITIONS)
    for seat in range(5):
        if seat < game.num_players:
            view = env.unwrapped.view(seat)
            remembered = [card != EMPTY and card != goldrush_env.gold.view.UNKNOWN for card in view.cards]
            assert np.array_equal(known[seat].astype(bool), remembered), seat
        else:
            assert not known[seat].any()
    owners = state[STATE_SLICES["colour_owner"]].reshape(5, 6)
    assert [o if o < 5 else -1 for o in np.argmax(owners, axis=1)] == list(env.unwrapped.owners)
    n = game.num_players
    assert np.allclose(state[STATE_SLICES["scores"]][:n] * 60, game.scores)
    assert np.allclose(state[STATE_SLICES["gold_cards"]][:n] * 24, game.gold_cards)
    assert state[STATE_SLICES["seats"]].sum() == n
    to_play = state[STATE_SLICES["to_play"]]
    assert list(np.flatnonzero(to_play)) == ([] if game.is_finished else [game.current_player])
    assert state[STATE_SLICES["cards_left"]][0] * 64 == pytest.approx(game.cards_left)


@pytest.mark.parametrize("options", [dict(num_players=2), dict(num_players=4, memory="human"),
                                     dict(num_players=3, table="quarter", max_turns=None)])
def test_the_state_is_the_whole_truth_flip_by_flip(options):
    env = goldrush_env.gold.env(**options)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    _check(env)
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last(observe=False)
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(env.unwrapped.action_mask(agent)))))
        _check(env)
    assert env.unwrapped.game.is_finished
    _check(env)


def test_the_state_shows_what_no_observation_does():
    """At the deal no seat knows a card, yet the state holds the whole table; it is the same for every seat."""
    env = goldrush_env.gold.raw_env(**POSITIONS)  # the plain vector, whose cards lie at 192:2048
    env.reset(seed=0)
    state = env.state()
    assert state[STATE_SLICES["cards"]].reshape(NUM_CARD_TYPES + 1, NUM_POSITIONS)[1:].sum() == 64
    assert not state[STATE_SLICES["known"]].any()
    assert all(not env.observe(agent)["observation"][192:2048].any() for agent in env.agents)


def test_the_state_table_is_in_the_env_docstring():
    assert state_index_table() in goldrush_env.gold.aec.__doc__
    assert f"{STATE_SIZE:,} values" in goldrush_env.gold.aec.__doc__


def test_state_before_reset_is_refused():
    with pytest.raises(goldrush_env.GoldrushEnvError, match="call reset"):
        goldrush_env.gold.raw_env().state()
