"""Version 1's defaults and ids, the retired version 0 ids, and the two tutorials that the defaults must serve.

The tutorials run here at a budget of seconds (their figures at full budget are in docs/libraries.md); what is
tested is that they run and that their evaluation reads the game, not the rewards. The tutorials are scripts of
examples/ (examples/pettingzoo_tutorial.py, examples/gymnasium_tutorial.py), not of the package.
"""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pettingzoo
import pytest

import goldrush_env
import goldrush_env.gold
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.games import RetiredId

from conftest import example

V0 = {"action": "positions", "observation": "plain", "reward": "win"}


def test_version_1_defaults_are_kinds_of_card_and_the_score_reward():
    env = goldrush_env.gold.env()
    env.reset(seed=0)
    config = env.unwrapped.config
    assert (config.action, config.observation, config.reward) == ("kinds", "kinds", "score")
    assert env.action_space("player_0").n == 30
    assert env.observation_space("player_0")["observation"].shape == (173,)
    assert env.metadata["name"] == "gold_v1"


def test_the_gymnasium_learner_sits_at_a_random_seat_by_default():
    env = gym.make("goldrush_env:Gold-v1")
    seats = {env.reset(seed=seed)[1]["seat"] for seed in range(20)}
    assert seats == {0, 1}
    assert env.action_space.n == 30 and env.observation_space.shape == (173,)


@pytest.mark.parametrize("new, old", [("Gold-v1", "GoldRush-v0"), ("GoldHalf-v1", "GoldRushHalf-v0"),
                                      ("GoldQuarter-v1", "GoldRushQuarter-v0")])
def test_a_retired_gymnasium_id_refuses_naming_its_successor_and_the_old_options(new, old):
    words = rf"{old} is retired; use {new}, which has other defaults.*action='positions', observation='plain', " \
            r"reward='win', seat=0: pass these"
    with pytest.raises(GoldrushEnvError, match=words):
        gym.make(f"goldrush_env:{old}")
    with pytest.raises(GoldrushEnvError, match=words):
        gym.make_vec(f"goldrush_env:{old}", num_envs=2, vectorization_mode="vector_entry_point")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new id makes version 1 without a word
        made = gym.make(f"goldrush_env:{new}", action="positions", observation="plain", reward="win", seat=0)
    assert made.observation_space.shape == (2102,) and made.action_space.n == 64  # version 0, from its options


def test_the_retired_pettingzoo_id_refuses_naming_its_successor():
    with pytest.raises(GoldrushEnvError, match="goldrush_env/gold-v0 is retired; use goldrush_env/gold-v1"):
        pettingzoo.make("aec", "goldrush_env/gold-v0", num_players=3)
    assert pettingzoo.make("aec", "goldrush_env/gold-v1").unwrapped.config.action == "kinds"


def test_a_retired_id_names_its_registry():
    with pytest.raises(GoldrushEnvError, match="registry is 'gymnasium' or 'pettingzoo', got 'ray'"):
        RetiredId("X-v0", "ray", "X-v1", "changed")


# --- the tutorials ---------------------------------------------------------------------------------------------

sb3_contrib = pytest.importorskip("sb3_contrib")


@pytest.fixture(scope="module")
def pettingzoo_model():
    pettingzoo_tutorial = example("pettingzoo_tutorial")

    return pettingzoo_tutorial.train_action_mask(goldrush_env.gold, steps=256, seed=0)


def test_pettingzoo_tutorial_runs_as_a_command(capsys):
    pettingzoo_tutorial = example("pettingzoo_tutorial")

    results = pettingzoo_tutorial.main(["--steps", "128", "--games", "2", "--opponents", "sample,random"])
    assert [row["opponent"] for row in results] == ["sample", "random"]
    assert all(0 <= row["low"] <= row["win_share"] <= row["high"] <= 1 for row in results)
    assert "against random:" in capsys.readouterr().out


def test_pettingzoo_tutorial_refuses_an_unknown_opponent_before_training(capsys):
    pettingzoo_tutorial = example("pettingzoo_tutorial")

    with pytest.raises(SystemExit):
        pettingzoo_tutorial.main(["--opponents", "sample,nobody"])
    assert "unknown agent 'nobody'" in capsys.readouterr().err


@pytest.mark.parametrize("opponent", ["sample", "random"])
def test_pettingzoo_tutorial_evaluation_reads_the_game_whatever_the_reward(pettingzoo_model, opponent):
    """The games are the same under either reward (the model reads the same observations, every generator is
    seeded), so the wins must be too; under the win reward they are also what the final rewards say."""
    pettingzoo_tutorial = example("pettingzoo_tutorial")

    games = 6
    by_score = pettingzoo_tutorial.eval_action_mask(pettingzoo_model, goldrush_env.gold, games, opponent)
    by_win = pettingzoo_tutorial.eval_action_mask(pettingzoo_model, goldrush_env.gold, games, opponent, reward="win")
    assert by_score == by_win
    env, from_rewards = goldrush_env.gold.env(reward="win"), 0.0
    for i in range(games):  # the same games once more, read the tutorial's way: valid with ±1 rewards only
        env.reset(seed=i)
        rewards = _replay(env, pettingzoo_model, learner=env.possible_agents[i % 2], opponent=opponent, seed=i)
        from_rewards += (rewards[env.possible_agents[i % 2]] + 1) / 2
    assert by_win["win_share"] == pytest.approx(from_rewards / games)


def _replay(env, model, learner: str, opponent: str, seed: int) -> dict[str, float]:
    """Play one game of the tutorial's evaluation on ``env`` and return each agent's reward at the end."""
    from goldrush_agents import make_agent

    player = None if opponent == "sample" else make_agent(opponent, seed=0)
    for agent in env.possible_agents:
        env.action_space(agent).seed(seed)
    if player is not None:
        player.reset(seed=seed)
    played = env if player is None else env.unwrapped
    finals = {}
    for agent in played.agent_iter():
        observation, reward, termination, truncation, _ = played.last()
        if termination or truncation:
            finals = dict(played.rewards)
            break
        if agent == learner:
            played.step(int(model.predict(observation["observation"], action_masks=observation["action_mask"],
                                         deterministic=True)[0]))
        elif player is not None:
            played.step_from_view(player.act(played.view(agent)))
        else:
            played.step(env.action_space(agent).sample(observation["action_mask"]))
    return finals


def test_gymnasium_tutorial_runs_and_its_evaluation_reads_the_game(capsys):
    gymnasium_tutorial = example("gymnasium_tutorial")

    result = gymnasium_tutorial.main(["--steps", "128", "--games", "2"])
    assert 0 <= result["win_share"] <= 1 and "against random:" in capsys.readouterr().out
    model = sb3_contrib.MaskablePPO("MlpPolicy", gym.make("goldrush_env:Gold-v1"), seed=0)
    by_score = gymnasium_tutorial.evaluate(model, gym.make("goldrush_env:Gold-v1"), games=6)
    by_win = gymnasium_tutorial.evaluate(model, gym.make("goldrush_env:Gold-v1", reward="win"), games=6)
    assert by_score == by_win
    env, returns = gym.make("goldrush_env:Gold-v1", reward="win"), []
    for game in range(6):  # the same games read from the ±1 rewards, which only the win reward makes
        observation, info = env.reset(seed=1 + game)
        done, total = False, 0.0
        while not done:
            action, _ = model.predict(observation, action_masks=info["action_mask"], deterministic=True)
            observation, reward, terminated, truncated, info = env.step(action)
            total, done = total + reward, terminated or truncated
        returns.append(total)
    assert by_win["win_share"] == pytest.approx(np.mean([(r + 1) / 2 for r in returns]))


def test_a_retired_ids_refusal_pickles_for_subprocess_vector_envs():
    import pickle

    spec = gym.spec("GoldRush-v0")
    for maker in (spec.entry_point, spec.vector_entry_point):
        with pytest.raises(GoldrushEnvError, match="GoldRush-v0 is retired"):
            pickle.loads(pickle.dumps(maker))()


@pytest.mark.parametrize("module", ["pettingzoo_tutorial", "gymnasium_tutorial"])
@pytest.mark.parametrize("option, words", [("nonsense", "--option must be NAME=VALUE, got 'nonsense'"),
                                           ("reward=gold", "reward='gold' is not allowed"),
                                           ("colour=red", "unknown option(s) ['colour']")])
def test_the_tutorials_refuse_a_bad_option_before_training(module, option, words, capsys):
    with pytest.raises(SystemExit):
        example(module).main(["--option", option])
    assert words in capsys.readouterr().err
