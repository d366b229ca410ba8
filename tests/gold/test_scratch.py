"""PPO from scratch (goldrush_train.gold.scratch) and the stock SB3 setup (examples/sb3_stock.py)."""

import json

import numpy as np
import pytest
import torch

from goldrush_agents import make_agent
from goldrush_agents.arena import play_game
from goldrush_agents.gold.trained import GoldNetNumpy, MlpNumpy, TrainedPolicy
from goldrush_agents.tournament import wilson_interval
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.variants import ACTION_TYPES, OBSERVATION_TYPES, kind_positions
from goldrush_train.gold import curves, scratch
from goldrush_train.gold.network import GoldNet, export_weights

from conftest import example, random_views

sb3_stock = example("sb3_stock")

TINY = ["--num-envs", "16", "--num-steps", "16", "--num-minibatches", "2", "--update-epochs", "1",
        "--eval-games", "4", "--final-games", "4", "--torch-threads", "1"]


def observations(games: int = 3) -> np.ndarray:
    return np.array([view.observation for view in random_views(2, games)])


@pytest.mark.parametrize("options", [[], ["--network", "mlp", "--observation", "plain", "--play-by", "position"],
                                     ["--network", "mlp", "--action", "kinds", "--observation", "kinds",
                                      "--self-play", "0.5", "--snapshot-every", "256"],
                                     ["--opponents", "random,greedy", "--self-play", "0.5", "--snapshot-every", "256"],
                                     ["--observation", "pairs", "--tables", "quarter:256,half:512,full"]])
def test_a_tiny_run_writes_a_model_that_plays(tmp_path, options):
    run = tmp_path / "run"
    summary = scratch.main(["--run-dir", str(run), "--total-timesteps", "768", "--eval-every", "512", *TINY, *options])
    assert summary["steps"] == 768 and {e["opponent"] for e in summary["final"]} == {"random", "greedy"}
    assert [e["step"] for e in summary["evaluations"]] == [512, 512, 768, 768]
    for name in ("args.json", "eval.csv", "curves.png", "summary.json", "model.npz"):
        assert (run / name).is_file(), name
    result = play_game([make_agent(str(run / "model.npz"), seed=0), make_agent("greedy")], seed=1)
    assert result.turns > 0 and sum(result.scores) > 0
    curves.main([str(tmp_path / "curves.png"), f"tiny={run},{run}"])
    assert (tmp_path / "curves.png").stat().st_size > 0


def test_the_same_seed_trains_the_same_network(tmp_path):
    first = scratch.main(["--run-dir", str(tmp_path / "a"), "--total-timesteps", "512", "--eval-every", "0", *TINY])
    second = scratch.main(["--run-dir", str(tmp_path / "b"), "--total-timesteps", "512", "--eval-every", "0", *TINY])
    assert first["final"] == second["final"]
    a, b = np.load(tmp_path / "a" / "model.npz"), np.load(tmp_path / "b" / "model.npz")
    assert all(np.array_equal(a[name], b[name]) for name in a.files)


def test_the_job_says_its_threads_and_keeps_one_for_a_batch_below_the_parallel_size(tmp_path, capsys):
    """A second thread for a batch too small to share would spin for a core the job may not have (beside another
    process it cost three quarters of the job's speed: benchmarks/shared_cores.py); evaluations get them all."""
    import numba

    from goldrush_env.gold import kernel

    threads = numba.get_num_threads()
    scratch.main(["--run-dir", str(tmp_path / "a"), "--total-timesteps", "512", "--eval-every", "0", *TINY])
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("threads:"))
    assert line.startswith("threads: torch 1, the compiled games 1 (") and f"from {kernel.PARALLEL_FROM})" in line
    assert numba.get_num_threads() == threads  # the caller's setting is given back


def test_goldnet_with_pairs_plays_the_same_in_numpy_from_the_plain_vector():
    """A GoldNet trained on observation="pairs" plays anywhere: in numpy it computes the planes itself."""
    torch.manual_seed(0)
    net = GoldNet(pairs=True)
    plain = observations()
    logits, values = net(torch.as_tensor(OBSERVATION_TYPES["pairs"].from_plain(plain)))
    numpy_logits, numpy_values = GoldNetNumpy(export_weights(net, 2)).forward(plain)
    assert np.allclose(logits.detach().numpy(), numpy_logits, atol=1e-5)
    assert np.allclose(values.detach().numpy(), numpy_values, atol=1e-5)


def kinds_model(tmp_path, seed: int = 0):
    """A random CleanRL agent of action="kinds" over observation="kinds", saved as scratch saves it."""
    torch.manual_seed(seed)
    net = scratch.make_network(scratch.Args(network="mlp", action="kinds", observation="kinds"),
                               OBSERVATION_TYPES["kinds"].size, ACTION_TYPES["kinds"].size)
    return net, scratch.save_model(net, tmp_path / "kinds.npz", 2, "kinds", action="kinds")


def test_a_model_of_kinds_plays_the_same_in_numpy_from_the_plain_vector(tmp_path):
    net, path = kinds_model(tmp_path)
    plain = observations()
    logits, _ = net(torch.as_tensor(OBSERVATION_TYPES["kinds"].from_plain(plain)))
    mlp = MlpNumpy(np.load(path))
    assert mlp.kinds and np.allclose(logits.detach().numpy(), mlp.forward(plain)[0], atol=1e-5)


def test_a_model_of_kinds_turns_a_card_of_its_most_likely_legal_kind(tmp_path):
    _, path = kinds_model(tmp_path, seed=1)
    views = random_views(2, 2)
    plain = np.array([view.observation for view in views])
    masks = np.array([view.action_mask for view in views], dtype=bool)
    options = kind_positions(plain, masks)
    logits = np.where(options.any(axis=2), MlpNumpy(np.load(path)).forward(plain)[0], -np.inf)
    kinds = logits.argmax(axis=1)
    rows = np.arange(len(views))
    assert len(set(kinds)) > 3  # the choice depends on the position, so the test can tell kinds apart
    flips = TrainedPolicy(path).act_batch(plain, masks)
    assert (flips == options[rows, kinds].argmax(axis=1)).all()  # the first position of that kind
    drawn = TrainedPolicy(path, seed=0, deterministic=False).act_batch(plain, masks)
    assert masks[rows, drawn].all() and len(set(drawn)) > 1
    assert options.any(axis=1)[rows, drawn].all()  # a position of some legal kind
    again = TrainedPolicy(path, seed=0, deterministic=False).act_batch(plain, masks)
    assert (drawn == again).all()


def test_a_model_of_kinds_refuses_a_file_of_another_shape(tmp_path):
    _, path = kinds_model(tmp_path)
    arrays = dict(np.load(path))
    arrays["config.action"] = np.array("positions")
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(GoldrushEnvError, match="model has 30 outputs, the 'positions' actions of this version are 64"):
        MlpNumpy(np.load(tmp_path / "bad.npz"))
    arrays["config.action"] = np.array("cards")
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(GoldrushEnvError, match="config.action = 'cards', not one of"):
        MlpNumpy(np.load(tmp_path / "bad.npz"))
    arrays["config.action"], arrays["config.observation"] = np.array("kinds"), np.array("tiles")
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(GoldrushEnvError, match="config.observation = 'tiles', not one of"):
        MlpNumpy(np.load(tmp_path / "bad.npz"))


@pytest.mark.parametrize(("argv", "message"), [
    (["--tables", "tiny"], "--tables: 'tiny' is not a table"),
    (["--network", "goldnet"], "--action kinds --observation kinds needs --network mlp"),
    (["--network", "goldnet", "--action", "positions"], "--action positions --observation kinds needs --network mlp"),
    (["--tables", "quarter,full"], "needs the step it plays until"),
    (["--tables", "half:100,quarter:50,full"], "the steps must grow"),
    (["--num-minibatches", "3"], "--num-minibatches 3 must divide a rollout"),
    (["--opponents", "grady"], "--opponents: unknown agent 'grady'"),
    (["--gamma", "1.5"], "--gamma must be a number from 0 to 1, got 1.5"),
])
def test_mistakes_are_one_line_and_leave_nothing(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        scratch.main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "runs").exists()


def test_the_stock_sb3_setup_runs_and_evaluates(tmp_path):
    summary = sb3_stock.main(["--run-dir", str(tmp_path / "sb3"), "--total-timesteps", "256", "--num-envs", "2",
                              "--eval-every", "256", "--eval-games", "2", "--table", "quarter"])
    rows = summary["evaluations"]
    assert {row["opponent"] for row in rows} == {"random", "greedy"}
    assert len({row["step"] for row in rows}) == 1 and rows[0]["step"] >= 256  # one evaluation (SB3 rounds up)
    for row in rows:  # of 2 games each, its interval the Wilson interval of its share
        assert row["games"] == 2 and (row["win_share"] * 4).is_integer()
        assert (row["low"], row["high"]) == wilson_interval(row["win_share"] * 2, 2)
    assert (tmp_path / "sb3" / "model.zip").is_file()
    assert json.loads((tmp_path / "sb3" / "args.json").read_text())["observation"] == "kinds"


def test_the_smallest_table_is_learned_from_scratch(tmp_path):
    """A real learning check, on fixed seeds: on the 16-card table, 30k steps of PPO from scratch against random
    (seconds) take the policy from the fair share to a clear win against random (0.83 of 200 games, interval
    from 0.77, when written; 60k steps and 400 games gave 0.81 from 0.77)."""
    summary = scratch.main(["--run-dir", str(tmp_path / "q"), "--tables", "quarter", "--eval-table", "quarter",
                            "--opponents", "random", "--eval-agents", "random", "--num-envs", "64", "--num-steps",
                            "32", "--total-timesteps", "30720", "--eval-every", "0", "--final-games", "200",
                            "--seed", "1"])
    (final,) = summary["final"]
    assert final["low"] > 0.55, final


@pytest.mark.parametrize(("spec", "message"), [("runs/a", "is not a setup: expected label=run_dir"),
                                               ("label=nowhere", "'nowhere' has no summary.json")])
def test_curves_refuse_a_setup_by_name(tmp_path, capsys, spec, message):
    with pytest.raises(SystemExit) as stop:
        curves.main([str(tmp_path / "out.png"), spec])
    assert stop.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "out.png").exists()
