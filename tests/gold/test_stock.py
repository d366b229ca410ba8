"""The libraries' stock setups (examples/cleanrl_stock.py, tianshou_stock.py, torchrl_stock.py; sb3_stock.py is in
test_scratch.py): each runs end to end and evaluates, and CleanRL's learns."""

import json

import gymnasium as gym
import numpy as np
import pytest

import goldrush_env  # noqa: F401  (registers the ids)
from goldrush_agents.tournament import wilson_interval
from goldrush_env.errors import GoldrushEnvError

from conftest import example

cleanrl_stock, stock_harness = example("cleanrl_stock"), example("stock_harness")
pytest.importorskip("torch")


def check_rows(summary, games, agents=("random", "greedy")):
    rows = summary["evaluations"]
    assert {row["opponent"] for row in rows} == set(agents)
    for row in rows:  # a share of `games` games, shared wins split, with the Wilson interval of that share
        assert row["games"] == games and (row["win_share"] * 2 * games).is_integer()
        assert (row["low"], row["high"]) == wilson_interval(row["win_share"] * games, games)
    return rows


def test_cleanrls_loop_learns_kinds_of_card_in_seconds(tmp_path):
    """A real learning check on a fixed seed: 32k steps of the CleanRL loop (seconds on two cores) take the stock
    MLP from a coin flip to a clear win over random on the full table."""
    summary = cleanrl_stock.main(["--run-dir", str(tmp_path / "c"), "--total-timesteps", "32768", "--eval-every",
                                  "32768", "--eval-games", "200", "--eval-agents", "random", "--seed", "3"])
    (row,) = check_rows(summary, 200, agents=("random",))
    assert row["step"] == 32768 and row["low"] > 0.8, row
    assert (tmp_path / "c" / "agent.pt").is_file() and (tmp_path / "c" / "curves.png").is_file()
    assert json.loads((tmp_path / "c" / "args.json").read_text())["action"] == "kinds"


def test_cleanrls_loop_takes_position_actions_too(tmp_path):
    summary = cleanrl_stock.main(["--run-dir", str(tmp_path / "c"), "--action", "positions", "--observation", "pairs",
                                  "--num-envs", "4", "--num-steps", "16", "--num-minibatches", "2",
                                  "--total-timesteps", "128", "--eval-every", "64", "--eval-games", "2",
                                  "--table", "quarter"])
    assert sorted({row["step"] for row in check_rows(summary, 2)}) == [64, 128]


def test_tianshous_dqn_runs_and_evaluates(tmp_path):
    pytest.importorskip("tianshou")
    tianshou_stock = example("tianshou_stock")

    summary = tianshou_stock.main(["--run-dir", str(tmp_path / "t"), "--total-timesteps", "400", "--eval-every",
                                   "200", "--eval-games", "2", "--table", "quarter"])
    assert sorted({row["step"] for row in check_rows(summary, 2)}) == [200, 400]
    assert (tmp_path / "t" / "policy.pt").is_file()


def test_torchrls_ppo_runs_and_evaluates(tmp_path):
    pytest.importorskip("torchrl")
    torchrl_stock = example("torchrl_stock")

    summary = torchrl_stock.main(["--run-dir", str(tmp_path / "r"), "--total-timesteps", "128", "--frames-per-batch",
                                  "64", "--minibatch-size", "32", "--eval-every", "64", "--eval-games", "2",
                                  "--table", "quarter"])
    assert sorted({row["step"] for row in check_rows(summary, 2)}) == [64, 128]
    assert (tmp_path / "r" / "actor.pt").is_file()


def test_the_tianshou_wrapper_gives_every_game_end_the_same_info_fields():
    """Tianshou's replay buffer stores each info field at the shape it first saw; a shared win and a sole win
    must end with the same fields of the same shapes (the environment's ``winners`` lists one seat or two)."""
    ObsAndMask = example("tianshou_stock").ObsAndMask

    env = ObsAndMask(gym.make("goldrush_env:Gold-v1", table="quarter", action="kinds", observation="kinds"))
    ends, rng = {}, np.random.default_rng(0)
    for seed in range(500):
        observation, info = env.reset(seed=seed)
        done = False
        while not done:
            assert np.array_equal(observation["mask"], info["action_mask"])
            action = int(rng.choice(np.flatnonzero(observation["mask"])))
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        ends.setdefault("shared" if len(env.unwrapped.game_env.game.winners) > 1 else "sole", info)
        if len(ends) == 2:
            break
    assert set(ends) == {"shared", "sole"}, "500 random games on the quarter table had no shared win"
    shapes = [{key: np.shape(value) for key, value in info.items()} for info in ends.values()]
    assert shapes[0] == shapes[1] and "winners" not in shapes[0]


def test_stock_options_are_checked_before_any_work(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        cleanrl_stock.main(["--run-dir", str(tmp_path / "c"), "--num-envs", "3", "--num-steps", "5"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("python examples/cleanrl_stock.py: --num-minibatches")  # named as it is run
    assert "--num-minibatches 8 must divide a rollout of --num-envs 3 × --num-steps 5 steps" in err
    assert not (tmp_path / "c").exists()
    with pytest.raises(GoldrushEnvError, match="--observation kinds needs --action kinds"):
        stock_harness.StockArgs(observation="kinds", action="positions").check()
    with pytest.raises(GoldrushEnvError, match="nobody"):
        stock_harness.StockArgs(eval_agents="random,nobody").check()


def test_the_tutorial_pattern_plays_every_seat_and_rewards_the_mover():
    """PettingZoo's SB3 tutorial pattern: a step returns the observation of the seat to move next, and the reward
    and end of the seat that moved; over a game the rewards returned are what each mover earned."""
    tutorial_self_play = example("sb3_stock").tutorial_self_play

    env = tutorial_self_play(reward="win", table="quarter")
    aec = env.unwrapped
    observation, _ = env.reset(seed=4)
    rng, movers, done = np.random.default_rng(0), set(), False
    while not done:
        mover = aec.agent_selection
        movers.add(mover)
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        observation, reward, done, truncated, _ = env.step(action)
        if not done:
            assert np.array_equal(observation, aec.observe(aec.agent_selection)["observation"])
            assert np.array_equal(env.action_masks(), aec.observe(aec.agent_selection)["action_mask"])
    assert movers == set(aec.possible_agents)
    winners, seat = list(aec.game.winners), aec.possible_agents.index(mover)
    assert reward == (0.0 if len(winners) > 1 and seat in winners else 1.0 if seat in winners else -1.0)


def test_sb3_runs_the_tutorial_pattern(tmp_path):
    sb3_stock = example("sb3_stock")

    summary = sb3_stock.main(["--run-dir", str(tmp_path / "s"), "--env", "tutorial-self-play", "--num-envs", "1",
                              "--total-timesteps", "64", "--eval-every", "64", "--eval-games", "2",
                              "--table", "quarter"])
    assert len(check_rows(summary, 2)) == 2 and summary["args"]["env"] == "tutorial-self-play"
