"""The PettingZoo AEC environment: conformance, rewards, illegal moves, truncation, seeding."""

import warnings

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import goldrush_env
import goldrush_env.gold
from goldrush_env.gold.config import EnvConfig
from goldrush_env.errors import GoldrushEnvError, IllegalFlipError
from conftest import BACKGROUND, POSITIONS, VERSION_0, flippable, layout_of, unpaced

PLAYERS = [2, 3, 4, 5]
MEMORIES = ["perfect", "human"]


@pytest.fixture(autouse=True)
def quiet_options_warning():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="reset\\(\\) ignores the unknown options")
        yield


@pytest.mark.parametrize("memory", MEMORIES)
@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_api_test(num_players, memory):
    api_test(goldrush_env.gold.env(num_players=num_players, memory=memory), num_cycles=400)


@pytest.mark.parametrize("memory", MEMORIES)
@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_seed_test(num_players, memory):
    seed_test(lambda **kw: goldrush_env.gold.env(num_players=num_players, memory=memory, **kw), num_cycles=300)


@pytest.mark.parametrize("memory", MEMORIES)
@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_render_test(num_players, memory):
    render_test(lambda render_mode=None: unpaced(goldrush_env.gold.env(num_players=num_players, memory=memory,
                                                                  render_mode=render_mode)))


def test_metadata_and_agents():
    env = goldrush_env.gold.env(num_players=4, **POSITIONS)
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert env.metadata["name"] == "gold_v1"
    assert env.metadata["is_parallelizable"] is False
    assert set(env.metadata["render_modes"]) == {"ansi", "rgb_array", "human"}
    assert env.metadata["render_fps"] > 0
    assert env.action_space("player_0").n == 64
    assert env.observation_space("player_0")["action_mask"].dtype == np.int8


def test_registered_in_pettingzoo():
    env = pettingzoo.make("aec", "goldrush_env/gold-v1", num_players=3)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


def play(env, positions):
    for position in positions:
        env.step(position)


def test_a_normal_turn_is_two_actions_by_the_same_agent_and_the_rush_one():
    env = goldrush_env.gold.raw_env(num_players=2, **POSITIONS)
    env.reset(options={"layout": layout_of({0: "G2", 1: "G3", **BACKGROUND})})
    assert env.agent_selection == "player_0"
    env.step(0)
    assert env.agent_selection == "player_0"
    first = env.observe("player_0")
    assert first["action_mask"][0] == 0 and first["action_mask"][1] == 1
    assert first["observation"][goldrush_env.gold.encoder.SLICES["face_up"]][0] == 1.0
    env.step(1)
    assert env.agent_selection == "player_1"

    env.reset(options={"layout": layout_of({0: "G2", 1: "G3", 2: "M05"})})  # three cards: the Gold Rush
    env.step(0)
    assert env.agent_selection == "player_1"


def test_masks_are_int8_and_zero_for_agents_not_acting():
    env = goldrush_env.gold.env(num_players=3, **POSITIONS)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(60):
        for agent in env.agents:
            observed = env.observe(agent)
            assert observed["action_mask"].dtype == np.int8
            assert observed["observation"].dtype == np.float32
            assert env.observation_space(agent).contains(observed)
            if agent != env.agent_selection:
                assert not observed["action_mask"].any()
        mask = env.observe(env.agent_selection)["action_mask"]
        assert mask.sum() == len(flippable(env.unwrapped.game))
        env.step(int(rng.choice(np.flatnonzero(mask))))


# --- rewards ---------------------------------------------------------------------------


def finish(env, positions):
    play(env, positions)
    return {agent: env._cumulative_rewards[agent] for agent in env.possible_agents}


def test_win_reward_goes_to_the_winner_even_when_the_loser_moves_last():
    env = goldrush_env.gold.raw_env(num_players=2, **VERSION_0)
    env.reset(options={"layout": layout_of({0: "G4", 1: "G1", 2: "M05", 3: "G2"})})
    # Gold Rush from the start: seat 0 takes 4, seat 1 takes 1, seat 0 discards, seat 1 takes 2.
    rewards = finish(env, [0, 1, 2, 3])
    assert env.game.scores == (4, 3)
    assert rewards == {"player_0": 1.0, "player_1": -1.0}
    assert all(env.terminations.values()) and not any(env.truncations.values())
    _, reward, termination, _, _ = env.last()
    assert termination and reward == rewards[env.agent_selection]


def test_a_shared_victory_is_a_draw_between_the_winners():
    env = goldrush_env.gold.raw_env(num_players=3, **VERSION_0)
    env.reset(options={"layout": layout_of({0: "G3", 1: "G3", 2: "G1"})})
    assert finish(env, [0, 1, 2]) == {"player_0": 0.0, "player_1": 0.0, "player_2": -1.0}


def test_a_sole_winner_among_three():
    env = goldrush_env.gold.raw_env(num_players=3, **VERSION_0)
    env.reset(options={"layout": layout_of({0: "G1", 1: "G4", 2: "G2"})})
    assert finish(env, [0, 1, 2]) == {"player_0": -1.0, "player_1": 1.0, "player_2": -1.0}


def test_score_reward_credits_the_seat_that_received_the_gold():
    env = goldrush_env.gold.raw_env(num_players=2, reward="score", **POSITIONS)
    env.reset(options={"layout": layout_of({0: "M25", 1: "G3", **BACKGROUND})})
    env.step(0)
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    env.step(1)  # seat 0 flips seat 1's miner: the gold goes to seat 1
    assert env.game.scores == (0, 3)
    assert env.rewards == pytest.approx({"player_0": -0.3, "player_1": 0.3})
    assert env.agent_selection == "player_1"
    _, reward, *_ = env.last()  # player_1 collects it when it acts next
    assert reward == pytest.approx(0.3)


def test_score_reward_sums_to_the_score_difference_and_is_zero_sum_in_two_players():
    env = goldrush_env.gold.env(num_players=2, reward="score")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        _, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        mask = env.observe(agent)["action_mask"]
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(mask))))
    scores = env.unwrapped.game.scores
    assert totals["player_0"] == pytest.approx((scores[0] - scores[1]) / 10)
    assert totals["player_0"] + totals["player_1"] == pytest.approx(0.0)


def test_three_player_score_reward_is_own_gain_minus_mean_of_the_others():
    env = goldrush_env.gold.raw_env(num_players=3, reward="score", **POSITIONS)
    env.reset(options={"layout": layout_of({0: "M14", 1: "G3", **BACKGROUND})})
    play(env, [0, 1])  # seat 0 flips seat 1's miner (colour 1): gold 3 to seat 1
    assert env.rewards == pytest.approx({"player_0": -0.15, "player_1": 0.3, "player_2": -0.15})


def test_turn_limit_truncates_and_rewards_the_standing():
    env = goldrush_env.gold.raw_env(num_players=2, max_turns=2, **VERSION_0)
    env.reset(options={"layout": layout_of({0: "M03", 1: "G2", 2: "G1", 3: "G4", **BACKGROUND})})
    rewards = finish(env, [0, 1, 2, 3])  # seat 0 strikes 2 gold; seat 1 flips two golds (nothing)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.game.is_truncated
    assert rewards == {"player_0": 1.0, "player_1": -1.0}


# --- illegal moves ---------------------------------------------------------------------


def test_raw_env_refuses_an_illegal_flip_and_changes_nothing():
    env = goldrush_env.gold.raw_env(num_players=2, **POSITIONS)
    env.reset(options={"layout": layout_of({0: "G2", 1: "G3", **BACKGROUND})})
    env.step(0)
    before = env.observe("player_0")
    with pytest.raises(IllegalFlipError, match="position 0 is already face up"):
        env.step(0)
    with pytest.raises(IllegalFlipError, match="position 7 is empty"):
        env.step(7)
    with pytest.raises(IllegalFlipError, match="position 64 is out of range"):
        env.step(64)
    after = env.observe("player_0")
    assert np.array_equal(before["observation"], after["observation"])
    assert env.agent_selection == "player_0" and len(env.game.history) == 1


def test_wrapped_env_ends_the_game_on_an_illegal_flip():
    env = goldrush_env.gold.env(num_players=3, **POSITIONS)
    env.reset(options={"layout": layout_of({0: "G2", 1: "G3", **BACKGROUND})})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(9)  # an empty position
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0}


def test_observe_before_reset_is_refused():
    with pytest.raises(GoldrushEnvError, match="call reset\\(\\) first"):
        goldrush_env.gold.raw_env().observe("player_0")


# --- seeding and options ------------------------------------------------------------------


def rollout(env, seed, steps=150):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for _ in range(steps):
        if env.game.is_finished:
            break
        observations = [env.observe(agent)["observation"] for agent in env.possible_agents]
        trace.append(np.concatenate(observations))
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    return trace


def test_same_seed_reproduces_table_and_forgetting():
    make = lambda: goldrush_env.gold.raw_env(num_players=3, memory="human", forget_prob=0.3)  # noqa: E731
    first, second = rollout(make(), 11), rollout(make(), 11)
    assert len(first) == len(second) and all(np.array_equal(a, b) for a, b in zip(first, second))
    other = rollout(make(), 12)
    assert not all(np.array_equal(a, b) for a, b in zip(first, other))


def test_reset_options_layout_and_first_player():
    env = goldrush_env.gold.raw_env(num_players=3)
    env.reset(options={"layout": layout_of({5: "G2", 6: "D"}), "first_player": 2})
    assert env.agent_selection == "player_2"
    assert env.game.cards_left == 2
    with pytest.warns(UserWarning, match="ignores the unknown options \\['colour'\\]"):
        env.reset(seed=0, options={"colour": "red"})


@pytest.mark.parametrize("options, text", [
    ({"num_players": 6}, "num_players=6"),
    ({"reward": "points"}, "reward='points'"),
    ({"memory": "goldfish"}, "memory='goldfish'"),
    ({"forget_prob": 1.5}, "forget_prob=1.5"),
    ({"memory_capacity": -1}, "memory_capacity=-1"),
    ({"max_turns": 0}, "max_turns=0"),
    ({"render_mode": "svg"}, "render_mode='svg'"),
    ({"render_view": 3}, "render_view=3"),
    ({"players": 3}, "unknown option\\(s\\) \\['players'\\]"),
])
def test_bad_options_are_refused_by_name(options, text):
    with pytest.raises(GoldrushEnvError, match=text):
        goldrush_env.gold.raw_env(**options)


def test_one_source_of_defaults():
    env = goldrush_env.gold.raw_env()
    assert env.config == EnvConfig()
    assert goldrush_env.gold.GoldEnv().config == EnvConfig()
