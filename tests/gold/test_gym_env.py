"""The Gymnasium environment: checkers, the learner's own reward, opponents, seeding, MaskablePPO."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from goldrush_env import RandomPolicy
from goldrush_env.gold import GoldEnv
from goldrush_env.gold.encoder import OBSERVATION_SIZE
from goldrush_env.errors import GoldrushEnvError, IllegalFlipError
from goldrush_env.gold.view import UNKNOWN
from conftest import POSITIONS, VERSION_0, layout_of


@pytest.fixture(autouse=True)
def quiet_illegal_action_warnings():
    # The checkers sample actions without masks; illegal ones end episodes, with a warning.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*illegal action ends the episode")
        yield


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_gymnasium_env_checker(num_players):
    check_env(gym.make("goldrush_env:Gold-v1", num_players=num_players, seat="random").unwrapped,
              skip_render_check=True)


@pytest.mark.parametrize("num_players", [2, 5])
def test_stable_baselines3_env_checker(num_players):
    sb3_check_env(GoldEnv(num_players=num_players, memory="human"))


def test_registered_id_builds_the_same_config_as_the_class():
    made = gym.make("goldrush_env:Gold-v1", **POSITIONS)
    assert made.unwrapped.config == GoldEnv(**POSITIONS).config
    assert made.observation_space.shape == (OBSERVATION_SIZE,)
    assert made.action_space.n == 64


class Scripted:
    """Flips the given positions in order (a test opponent)."""

    def __init__(self, positions):
        self.positions = list(positions)
        self.views = []

    def reset(self, seed=None):
        pass

    def act(self, view):
        self.views.append(view)
        return self.positions.pop(0)


RUSH_TABLE = layout_of({0: "G1", 1: "G4", 2: "G2", 3: "G3"})  # four golds: the Gold Rush from the start


def test_the_learner_receives_its_loss_when_the_opponent_moves_last():
    env = GoldEnv(opponents=Scripted([1, 3]), seat=0, **VERSION_0)
    _, info = env.reset(seed=0, options={"layout": RUSH_TABLE})
    _, reward, terminated, _, _ = env.step(0)  # learner takes 1, the opponent takes 4
    assert (reward, terminated) == (0.0, False)
    _, reward, terminated, truncated, info = env.step(2)  # learner takes 2, the opponent takes 3: 3 v 7
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["scores"] == (3, 7) and info["winners"] == (1,)


def test_a_learner_in_seat_one_wins_and_the_opponent_moves_first():
    opponent = Scripted([0, 2])
    env = GoldEnv(opponents=opponent, seat=1, **VERSION_0)
    observation, info = env.reset(seed=0, options={"layout": RUSH_TABLE})
    assert env.game_env.game.scores == (1, 0)  # the opponent already flipped
    assert info["action_mask"][0] == 0 and info["action_mask"].sum() == 3
    env.step(1)
    _, reward, terminated, _, _ = env.step(3)
    assert (reward, terminated) == (1.0, True)


def test_score_rewards_over_an_episode_sum_to_the_score_difference():
    env = GoldEnv(reward="score", seat=1)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    total, done = 0.0, False
    while not done:
        _, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total, done = total + reward, terminated or truncated
    scores = env.game_env.game.scores
    assert total == pytest.approx((scores[1] - scores[0]) / 10)


def test_opponents_see_only_what_they_know():
    opponent = Scripted([5])
    env = GoldEnv(opponents=opponent, seat=0, **POSITIONS)
    env.reset(seed=0, options={"layout": layout_of({0: "G1", 5: "M22", 9: "G3"})})
    env.step(9)
    view = opponent.views[0]
    assert view.seat == 1
    assert view.cards[9] == -1  # gone, and public
    assert view.cards[0] == UNKNOWN and view.cards[5] == UNKNOWN  # never flipped: hidden from it
    assert view.legal_actions.tolist() == [0, 5]


def test_illegal_actions_end_the_episode_or_raise():
    env = GoldEnv(seat=0, **VERSION_0)
    env.reset(seed=0, options={"layout": RUSH_TABLE})
    _, reward, terminated, _, info = env.step(20)
    assert (reward, terminated) == (-1.0, True) and "position 20 is empty" in info["illegal_action"]
    with pytest.raises(GoldrushEnvError, match="call reset"):
        env.step(0)
    strict = GoldEnv(illegal_action="raise", seat=0, **VERSION_0)
    strict.reset(seed=0, options={"layout": RUSH_TABLE})
    with pytest.raises(IllegalFlipError, match="position 20 is empty"):
        strict.step(20)
    with pytest.raises(IllegalFlipError, match="not in the action space"):
        strict.step(64)


@pytest.mark.parametrize("kwargs, text", [
    ({"seat": 2}, "seat=2"),
    ({"seat": "any"}, "seat='any'"),
    ({"opponents": [RandomPolicy(), RandomPolicy()]}, "opponents must be"),
    ({"opponents": "random"}, "opponents must be"),
    ({"illegal_action": "ignore"}, "illegal_action='ignore'"),
    ({"memory": "none"}, "memory='none'"),
])
def test_bad_arguments_are_refused(kwargs, text):
    with pytest.raises(GoldrushEnvError, match=text):
        GoldEnv(**kwargs)


def episode(env, seed):
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace, done = [observation], False
    while not done:
        observation, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        trace.append(observation)
        done = terminated or truncated
    return env.seat, trace, reward


def test_same_seed_same_episode_with_random_seat_and_opponents():
    make = lambda: GoldEnv(num_players=3, seat="random", memory="human")  # noqa: E731
    seat_a, trace_a, reward_a = episode(make(), 21)
    seat_b, trace_b, reward_b = episode(make(), 21)
    assert seat_a == seat_b and reward_a == reward_b and len(trace_a) == len(trace_b)
    assert all(np.array_equal(a, b) for a, b in zip(trace_a, trace_b))
    seats = {episode(make(), seed)[0] for seed in range(12)}
    assert seats == {0, 1, 2}


def test_maskable_ppo_trains_on_the_env_end_to_end():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.evaluation import evaluate_policy

    env = GoldEnv(num_players=2, seat=0, **VERSION_0)
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=2, seed=0, verbose=0)
    before = {name: tensor.clone() for name, tensor in model.policy.state_dict().items()}
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    after = model.policy.state_dict()  # two updates moved the policy's and the value's weights
    assert not all(before[name].equal(after[name]) for name in before if name.startswith("action_net"))
    assert not all(before[name].equal(after[name]) for name in before if name.startswith("value_net"))
    rewards, lengths = evaluate_policy(model, env, n_eval_episodes=2, return_episode_rewards=True)
    assert all(reward in (-1.0, 0.0, 1.0) for reward in rewards) and all(length > 10 for length in lengths)


@pytest.mark.parametrize("env_id, options, mode", [
    ("goldrush_env:Gold-v1", {}, "sync"),
    ("goldrush_env:Gold-v1", {}, "vector_entry_point"),
    ("goldrush_env:Gold-v1", {"action": "kinds", "observation": "kinds"}, "sync"),
    ("goldrush_env:Gold-v1", {"action": "kinds", "observation": "kinds"}, "vector_entry_point"),
    ("GoldRushPiecepack-v0", {}, "sync"),  # (only Gold has a vector entry point)
], ids=["gold-sync", "gold-vector", "gold-kinds-sync", "gold-kinds-vector", "piecepack-sync"])
def test_gymnasiums_vector_envs_can_always_sample_from_the_mask(env_id, options, mode):
    """The simplest client: Gymnasium's vector env in its default next-step autoreset, with episode statistics,
    drawing a random legal action from each mask, also from the mask of the observation that ends a game."""
    envs = gym.wrappers.vector.RecordEpisodeStatistics(
        gym.make_vec(env_id, num_envs=3, vectorization_mode=mode, **options))
    rng = np.random.default_rng(0)
    _, info = envs.reset(seed=0)
    ended = 0
    for _ in range(1500 if env_id.startswith("GoldRushPiecepack") else 400):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in info["action_mask"]])
        _, _, terminated, truncated, info = envs.step(actions)
        ended += int((terminated | truncated).sum())
    envs.close()
    assert ended >= 3
