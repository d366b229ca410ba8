"""The piecepack environments: PettingZoo and Gymnasium conformance, privacy, rewards, illegal moves, docs."""

import json
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test, state_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from goldrush_env.errors import UnknownOptionError
from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack import aec
from goldrush_env.piecepack.components import NUM_PLOTS, parse_code
from goldrush_env.piecepack.encoder import (
    OBSERVATION_SIZE,
    PUBLIC_ASSAYS,
    SLICES,
    STATE_SIZE,
    split,
)
from goldrush_env.piecepack.engine import Phase
from goldrush_env.piecepack.errors import IllegalActionError, PiecepackError
from goldrush_env.piecepack.gym_env import PiecepackEnv
from conftest import DATA, unpaced

PLAYERS = [3, 4]


@pytest.fixture(autouse=True)
def quiet_options_warning():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="reset\\(\\) ignores the unknown options")
        yield


def records() -> list[dict]:
    with open(DATA / "piecepack_vectors.jsonl") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def setup_of(record: dict) -> dict:
    """A record's setup and random outcomes, without its actions."""
    return {key: record[key] for key in ("players", "tiles", "coins", "start", "dice", "market_rolls")}


# --- conformance ---------------------------------------------------------------------


@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_api_test(num_players):
    api_test(aec.env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_seed_test(num_players):
    seed_test(lambda **kw: aec.env(num_players=num_players, **kw), num_cycles=200)


@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_state_test(num_players):
    """All three parts, the parallel one on PettingZoo's own turn-based conversion; no warning either."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state_test(aec.env(num_players=num_players), turn_based_aec_to_parallel(aec.env(num_players=num_players)),
                   num_cycles=200)


@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_render_test(num_players):
    render_test(lambda render_mode=None: unpaced(aec.env(num_players=num_players, render_mode=render_mode)))


@pytest.mark.parametrize("num_players", PLAYERS)
def test_gymnasium_and_sb3_env_checkers(num_players):
    warnings.filterwarnings("ignore", message=".*illegal action ends the episode")  # the checkers act at random
    check_env(PiecepackEnv(num_players=num_players, seat="random"), skip_render_check=True)
    sb3_check_env(PiecepackEnv(num_players=num_players))


def test_metadata_spaces_and_config():
    env = aec.env(num_players=4)
    env.reset(seed=0)
    assert env.possible_agents == [f"player_{seat}" for seat in range(4)]
    assert env.metadata["name"] == "gold_rush_piecepack_v0"
    assert set(env.metadata["render_modes"]) == {"ansi", "rgb_array", "human"}
    assert env.action_space("player_0").n == 488
    space = env.observation_space("player_0")
    assert space["observation"].shape == (OBSERVATION_SIZE,) and space["action_mask"].dtype == np.int8
    assert env.unwrapped.state_space.shape == (STATE_SIZE,)
    with pytest.raises(UnknownOptionError, match="max_rounds"):
        aec.raw_env(max_rounds=9)
    with pytest.raises(PiecepackError, match="num_players=5"):
        aec.raw_env(num_players=5)
    with pytest.raises(PiecepackError, match="reward='gold'"):
        PiecepackEnv(reward="gold")


# --- privacy -------------------------------------------------------------------------


def _assaying_game(env, seed):
    """Play ``env`` (raw) with random legal actions, assaying whenever possible in Development; yield each assay
    as (actor, piece, observations before, observations after)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    game = env.game
    while not game.is_over:
        legal = np.flatnonzero(env.one.mask)
        assays = legal[(legal >= A.ASSAY_TILE) & (legal < A.OPTIMIZE_TILE)]
        action = int(rng.choice(assays if len(assays) and rng.random() < 0.7 else legal))
        if A.ASSAY_TILE <= action < A.OPTIMIZE_TILE:
            actor = game.current_player
            before = {seat: env.observe(f"player_{seat}")["observation"] for seat in range(game.num_players)}
            env.step(action)
            after = {seat: env.observe(f"player_{seat}")["observation"] for seat in range(game.num_players)}
            yield actor, action - A.ASSAY_TILE, before, after
        else:
            env.step(action)


@pytest.mark.parametrize("num_players", PLAYERS)
def test_an_assay_shows_only_to_its_actor(num_players):
    env = aec.raw_env(num_players=num_players)
    checked = 0
    for seed in range(3):
        for actor, piece, before, after in _assaying_game(env, seed):
            checked += 1
            plot = piece % NUM_PLOTS
            for seat in range(num_players):
                old, new = before[seat].copy(), after[seat].copy()
                # What changes for everyone: the public "who assayed what" and the actor's Food (1 paid).
                rel = (actor - seat) % num_players
                plane = PUBLIC_ASSAYS[piece >= NUM_PLOTS]
                assert split(new)[plane][rel, plot] == 1
                food = SLICES["holdings"].start + 4 * rel
                assert new[food] <= old[food]
                for vector in (old, new):
                    for name in PUBLIC_ASSAYS:
                        vector[SLICES[name]] = 0
                    vector[food] = 0
                if seat != actor:
                    assert np.array_equal(old, new), (seed, actor, seat, piece)
                else:  # the actor alone now sees the piece's identity
                    suit, rank = parse_code(env.game.tile(plot) if piece < NUM_PLOTS else env.game.coin(plot))
                    mine = split(after[seat])
                    if piece < NUM_PLOTS:
                        assert mine["tile_suit"][suit, plot] == 1 and mine["tile_rank"][rank, plot] == 1
                    else:
                        assert mine["coin_rank"][rank, plot] == 1
                    assert split(before[seat])["tile_rank" if piece < NUM_PLOTS else "coin_rank"][:, plot].sum() == 0
    assert checked >= 10


def test_the_state_holds_every_identity_and_no_observation_does():
    env = aec.raw_env(num_players=3)
    env.reset(seed=5)
    state = split(env.state(), state=True)
    assert state["tile_rank"].sum() == NUM_PLOTS and state["coin_rank"].sum() == NUM_PLOTS
    for agent in env.possible_agents:
        seen = split(env.observe(agent)["observation"])
        assert seen["tile_rank"].sum() == 0 and seen["coin_rank"].sum() == 0
        assert np.array_equal(seen["coin_suit"], state["coin_suit"])  # the coins' suits are public


# --- rewards -------------------------------------------------------------------------


def _replay(env, record):
    """Play a record's actions through ``env`` (wrapped) from its setup; the sum of each agent's rewards."""
    env.reset(seed=0, options={"record": setup_of(record)})
    totals = dict.fromkeys(env.possible_agents, 0.0)
    actions = iter(record["actions"])
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last(observe=False)
        totals[agent] += reward
        env.step(None if terminated or truncated else next(actions))
    return totals


REWARD_RECORDS = [3, 11, 14, 15, 19, 22, 0, 33]
"""Sole winners (3, 11: the §8.19 tie broken by Food, 14, 15, 19, 22) and co-winners (0, 33)."""


@pytest.mark.parametrize("index", REWARD_RECORDS)
def test_win_rewards_match_the_winners(index):
    record = records()[index]
    env = aec.env(num_players=record["players"])
    totals = _replay(env, record)
    winners = record["final"]["winners"]
    assert env.unwrapped.game.winners() == winners
    for seat, agent in enumerate(env.possible_agents):
        expected = (1.0 if len(winners) == 1 else 0.0) if seat in winners else -1.0
        assert totals[agent] == expected


@pytest.mark.parametrize("index", REWARD_RECORDS)
def test_score_rewards_sum_to_the_final_score_difference(index):
    record = records()[index]
    n = record["players"]
    env = aec.env(num_players=n, reward="score")
    totals = _replay(env, record)
    scores = record["final"]["scores"]
    for seat, agent in enumerate(env.possible_agents):
        mean_others = (sum(scores) - scores[seat]) / (n - 1)
        assert totals[agent] == pytest.approx(aec.SCORE_REWARD_SCALE * (scores[seat] - mean_others))


def test_a_record_option_replays_its_actions():
    record = records()[14]
    env = aec.raw_env(num_players=3)
    env.reset(options={"record": record})
    assert env.game.is_over and env.game.final() == record["final"]
    assert all(env.terminations.values()) and env.infos["player_0"]["winners"] == record["final"]["winners"]
    with pytest.raises(PiecepackError, match="3-player"):
        env.reset(options={"record": records()[0]})


def test_the_gym_reward_reaches_the_learner():
    """Over an episode the learner collects its own final win reward, whoever made the last move."""
    for seed in range(4):
        env = PiecepackEnv(num_players=3, seat=seed % 3, reward="score")
        observation, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total, done = 0.0, False
        while not done:
            observation, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            total += reward
            assert not truncated and observation.shape == (OBSERVATION_SIZE,)
        scores, seat = info["scores"], env.seat
        assert total == pytest.approx(aec.SCORE_REWARD_SCALE * (scores[seat] - (sum(scores) - scores[seat]) / 2))


# --- illegal actions -----------------------------------------------------------------


def test_raw_env_refuses_an_illegal_action_and_env_ends_the_game_with_minus_one():
    raw = aec.raw_env(num_players=3)
    raw.reset(seed=1)
    assert raw.game.phase is Phase.FREE_TRADE_TURN
    illegal = A.claim(0)
    assert not raw.is_legal(illegal)
    with pytest.raises(IllegalActionError, match="CLAIM"):
        raw.step(illegal)

    env = aec.env(num_players=3)
    env.reset(seed=1)
    actor = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[actor] == -1 and all(r == 0 for a, r in env.rewards.items() if a != actor)


def test_gym_env_illegal_action_terminates_or_raises():
    env = PiecepackEnv(num_players=3)
    env.reset(seed=2)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, reward, terminated, _, info = env.step(illegal)
    assert reward == -1 and terminated and "illegal_action" in info
    strict = PiecepackEnv(num_players=3, illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_opponents_see_a_view_of_their_own_knowledge():
    class Recorder:
        def __init__(self):
            self.views = []
            self.rng = np.random.default_rng(0)

        def reset(self, seed=None):
            pass

        def act(self, view):
            self.views.append(view)
            return int(self.rng.choice(np.flatnonzero(view.action_mask)))

    recorder = Recorder()
    env = PiecepackEnv(opponents=recorder, num_players=4, seat=2)
    env.reset(seed=3)
    for _ in range(30):
        if env.step(int(np.flatnonzero(env.action_masks())[-1]))[2]:
            break
    assert recorder.views
    for view in recorder.views:
        assert view.seat != 2 and view.knowledge["seat"] == view.seat
        assert view.action_mask.dtype == bool and view.action_mask.any()
        assert view.observation.shape == (OBSERVATION_SIZE,)


def test_render_ansi_and_rgb_show_the_viewers_knowledge():
    env = aec.raw_env(num_players=3, render_mode="ansi", render_view="all")
    env.reset(seed=4)
    text = env.render()
    bottom = next(line for line in text.splitlines() if line.startswith("r0"))
    assert "round 1/9" in text and bottom.split()[1].startswith(env.game.tile(0).lower())
    env = aec.raw_env(num_players=3, render_mode="ansi", render_view="public")
    env.reset(seed=4)
    assert "??" in env.render() and "viewer: public" in env.render()
    picture = aec.raw_env(num_players=4, render_mode="rgb_array")
    picture.reset(seed=4)
    frame = picture.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3


# --- the encoder ---------------------------------------------------------------------


def test_a_known_position_gives_a_known_vector():
    """Record 0's setup (4 players, start seat 2) seen from seat 3: seats relative, the deal's public facts."""
    env = aec.raw_env(num_players=4)
    env.reset(options={"record": setup_of(records()[0])})
    game = env.game
    assert game.start == 2 and game.current_player == 2 and game.phase is Phase.FREE_TRADE_TURN
    seen = split(env.observe("player_3")["observation"])
    assert seen["players"].tolist() == [0, 1] and seen["round"][0] == 1 and seen["round"].sum() == 1
    assert seen["phase"].tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
    assert seen["to_play"].tolist() == [0, 0, 0, 1] and seen["start"].tolist() == [0, 0, 0, 1]  # seat 2 is 3 after 3
    assert seen["owner"][4].all() and not seen["owner"][:4].any() and not seen["building"].any()
    assert seen["coin_suit"].argmax(axis=0).tolist() == [1] * 6 + [0] * 6 + [2] * 6 + [3] * 6  # P6
    assert not seen["tile_suit"].any() and not seen["tile_face_up"].any() and not seen["coin_face_up"].any()
    assert seen["seats"].tolist() == [1, 1, 1, 1] and seen["markers"].tolist() == [1, 1, 1, 1]
    moved = [[h[r] for r in range(4)] for h in game.holdings]  # after round 1's production and spoilage
    assert np.allclose(seen["holdings"] * 20, [moved[(3 + k) % 4] for k in range(4)])
    assert seen["dice"].argmax(axis=1).tolist() == list(game.dice) and seen["dice"].sum() == 4
    assert not seen["pending_offer"].any() and not seen["offer_log"].any() and not seen["market_sum"].any()


def test_an_offer_is_encoded_from_each_seats_side():
    env = aec.raw_env(num_players=3)
    env.reset(seed=0)
    game = env.game
    offerer = game.current_player
    action = A.offer(1, 0, 1, 1, 1)  # give the next seat 1 Food for 1 Energy
    assert env.is_legal(action)
    env.step(action)
    for seat in range(3):
        offer = split(env.observe(f"player_{seat}")["observation"])["pending_offer"]
        rel = (offerer - seat) % 3
        # offerer (0-3), target (4-7), X = Food (8-11), a = 1 (12-13), Y = Energy (14-17), b = 1 (18-19)
        assert np.flatnonzero(offer).tolist() == [rel, 4 + (rel + 1) % 3, 8, 12, 15, 18]
    env.step(A.DECLINE)
    logged = split(env.observe(f"player_{offerer}")["observation"])["offer_log"]
    assert np.flatnonzero(logged[0]).tolist() == [0, 5, 8, 12, 15, 18] and logged[0, -1] == 0
    assert not logged[1:].any()


def test_same_seed_same_gym_rollout():
    def rollout():
        env = PiecepackEnv(num_players=4, seat="random")
        observation, _ = env.reset(seed=11)
        rng = np.random.default_rng(0)
        seen, done = [observation], False
        while not done:
            observation, reward, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            seen.append(np.append(observation, reward))
        return seen

    first, second = rollout(), rollout()
    assert len(first) == len(second) and all(np.array_equal(a, b) for a, b in zip(first, second))


def test_maskable_ppo_trains_a_few_steps():
    """sb3-contrib's MaskablePPO reads ``action_masks()``: a tiny budget runs end to end, and with illegal actions
    raising, every action it takes, learning or playing, is one the mask allowed."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = PiecepackEnv(num_players=3, reward="score", illegal_action="raise")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(128)
    assert model.num_timesteps >= 128
    observation, _ = env.reset(seed=1)
    done, steps = False, 0
    while not done:
        action, _ = model.predict(observation, action_masks=env.action_masks())
        observation, _, done, truncated, _ = env.step(int(action))
        steps += 1
    assert steps > 10 and not truncated


def test_registered_in_gymnasium_and_pettingzoo():
    import gymnasium as gym
    import pettingzoo

    import goldrush_env  # noqa: F401 - the import registers every game's ids

    env = gym.make("GoldRushPiecepack-v0", num_players=4)
    observation, info = env.reset(seed=0)
    assert observation.shape == env.observation_space.shape and info["action_mask"].shape == (488,)
    assert env.unwrapped.game_env.game.num_players == 4
    game = pettingzoo.make("aec", "goldrush_env/piecepack-v0", num_players=3)
    game.reset(seed=0)
    assert game.possible_agents == ["player_0", "player_1", "player_2"]
