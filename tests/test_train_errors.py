"""A user's mistakes with the training scripts: one line on stderr naming the value, exit status 2, no traceback,
nothing left behind; and running a command twice never needs a folder deleted by hand."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")
pytest.importorskip("tyro")

from goldrush_agents.gold.trained import SHIPPED_MODEL  # noqa: E402
from goldrush_env.games import names  # noqa: E402
from goldrush_train import evaluate  # noqa: E402
from goldrush_train.gold import holdout, imitation, ppo, recipe  # noqa: E402
from goldrush_train.cli import new_run_dir  # noqa: E402
from goldrush_train.gold.decisions import collect, save  # noqa: E402
from conftest import example  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TINY = ["--num-envs", "2", "--vec-env", "dummy", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1",
        "--width", "8", "--context", "4", "--eval-games", "2", "--final-games", "2", "--eval-agents", "random,greedy",
        "--imitation-games", "2", "--imitation-epochs", "1", "--total-timesteps", "0"]
UNKNOWN = "unknown agent {!r}: expected one of ['expert', 'greedy', 'ismcts', 'optimal', 'random', 'selfplay']"


def refused(main, argv, capsys):
    """The line with which ``main`` refuses ``argv``: exit status 2, one line on stderr, no traceback."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    error = capsys.readouterr().err
    assert stop.value.code == 2, error
    assert len(error.splitlines()) == 1 and "Traceback" not in error, error
    return error.strip()


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """An empty working folder, as on a fresh clone: the scripts' default folders go under it."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def corrupt(tmp_path_factory):
    path = tmp_path_factory.mktemp("files") / "corrupt.npz"
    path.write_text("not a model")
    return str(path)


@pytest.mark.parametrize("argv, message", [
    (["nowhere.npz"], "MODEL: no model file at 'nowhere.npz'"),
    (["taught", "--agents", "wizard"], "--agents: " + UNKNOWN.format("wizard")),
    (["taught", "--players", "7"], "--players must be 2 to 5 for Gold, got 7"),
    (["taught", "--game", "piecepack", "--players", "2"], "--players must be 3 or 4 for Gold Rush (piecepack), got 2"),
    (["taught", "--game", "chess"], f"--game must be one of {names()}, got 'chess'"),
    (["taught", "--game", "piecepack", "--option", "memory=human"],
     "--option, with --game piecepack: unknown option(s) ['memory']"),
    (["taught", "--option", "memory"], "--option must be NAME=VALUE, got 'memory'"),
    (["taught", "--game", "piecepack", "--agents", "greedy"], "--agents: unknown agent 'greedy'"),
    (["taught", "--games", "0"], "--games must be an int >= 1, got 0"),
    (["taught", "--agents", "taught"], "--agents names the model itself, 'taught'"),
    (["ppo"], "MODEL: the entrant 'ppo' was renamed 'taught' in 0.3.0"),
    (["taught", "--agents", "greedy,ppo[choose=move]"], "--agents: the entrant 'ppo' was renamed 'taught'"),
])
def test_evaluate_mistakes(workdir, capsys, argv, message):
    assert refused(evaluate.main, argv, capsys).startswith(f"python -m goldrush_train.evaluate: {message}")


@pytest.mark.parametrize("argv, message", [
    (["--num-players", "9"], "--num-players must be an int from 2 to 5, got 9"),
    (["--curriculum", "grady"], "--curriculum: " + UNKNOWN.format("grady")),
    (["--curriculum", ""], "--curriculum needs at least one agent name, got ''"),
    (["--eval-agents", "random,wizard"], "--eval-agents: " + UNKNOWN.format("wizard")),
    (["--teacher", "expret"], "--teacher: " + UNKNOWN.format("expret")),
    (["--init-from", "nowhere.npz"], "--init-from: no model file at 'nowhere.npz'"),
    (["--init-from", str(SHIPPED_MODEL)], f"--init-from '{SHIPPED_MODEL}' has --width 64 --context 32, this run "
                                          "--width 8 --context 4: give the model's"),
    (["--imitation-data", "nowhere.npz"], "--imitation-data 'nowhere.npz' is not a file"),
    (["--anchor-data", "nowhere.npz"], "--anchor-data 'nowhere.npz' is not a file"),
    (["--resume", "runs/nothing"], "cannot resume 'runs/nothing': there is no such folder"),
])
def test_ppo_mistakes_leave_nothing_behind(workdir, capsys, argv, message):
    argv = argv if argv[0] == "--resume" else TINY + argv
    assert refused(ppo.main, argv, capsys).startswith(f"python -m goldrush_train.gold.ppo: {message}")
    assert list(workdir.iterdir()) == []


def test_a_corrupt_model_to_start_from_is_refused(workdir, capsys, corrupt):
    assert refused(ppo.main, TINY + ["--init-from", corrupt], capsys) == (
        f"python -m goldrush_train.gold.ppo: --init-from: '{corrupt}' is not a .npz model: the file is not a numpy "
        "archive")
    assert list(workdir.iterdir()) == []


def test_a_mistake_is_caught_before_the_environment_workers_start(tmp_path):
    # The default --vec-env subproc: an unknown agent used to fail once in every worker process.
    result = subprocess.run([sys.executable, "-m", "goldrush_train.gold.ppo", "--curriculum", "grady"], cwd=tmp_path,
                            capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"python -m goldrush_train.gold.ppo: --curriculum: {UNKNOWN.format('grady')}, " \
                            "'taught' or 'scratch' (the shipped models), a model file (.npz, .zip) or " \
                            "'package.module:Class' (the players of Gold)\n"
    assert list(tmp_path.iterdir()) == []


def test_resume_says_what_is_missing(workdir, capsys):
    run = Path("runs/stopped")
    run.mkdir(parents=True)
    assert refused(ppo.main, ["--resume", str(run)], capsys).endswith(
        "cannot resume 'runs/stopped': it holds no args.json, so no run of goldrush_train.gold.ppo was started there")
    (run / "args.json").write_text(json.dumps({"seed": 0}))  # stopped before its first checkpoint
    assert refused(ppo.main, ["--resume", str(run)], capsys).endswith(
        "cannot resume 'runs/stopped': it holds no checkpoint yet (the run stopped before step 25,000, its first): "
        "start a new run instead")
    (run / "args.json").write_text(json.dumps({"seed": 0, "colour": "red"}))
    assert refused(ppo.main, ["--resume", str(run)], capsys).endswith(
        "its args.json holds arguments this version does not know: ['colour']")
    # The saved arguments are the run's: one given beside --resume would be ignored, so it is refused.
    assert refused(ppo.main, ["--resume", str(run), "--total-timesteps", "5", "--seed", "3"], capsys).endswith(
        "--resume continues a run with the arguments it was started with (its args.json); leave out --seed, "
        "--total-timesteps, or start a new run")


def test_a_named_folder_that_is_not_empty_is_refused(workdir, capsys):
    (workdir / "mine").mkdir()
    (workdir / "mine" / "notes.txt").write_text("x")
    assert refused(ppo.main, TINY + ["--run-dir", "mine"], capsys) == (
        "python -m goldrush_train.gold.ppo: --run-dir 'mine' is not empty: continue it with --resume mine, or choose "
        "another --run-dir (or leave it out for a new folder)")
    assert [p.name for p in (workdir / "mine").iterdir()] == ["notes.txt"]


def test_two_default_runs_write_two_new_folders(workdir, capsys):
    first = ppo.main(TINY)
    out = capsys.readouterr().out
    second = ppo.main(TINY)
    folders = sorted((workdir / "runs").iterdir())
    assert len(folders) == 2 and all(f.name.startswith("ppo-") for f in folders)
    assert {first["model"], second["model"]} == {f"runs/{f.name}/model.npz" for f in folders}
    assert out.startswith(f"run folder: {Path(first['model']).parent}\n")
    assert f"outputs in {Path(first['model']).parent}/" in out and "total wall time" in out
    assert "warm start: epoch 1/1, loss" in out and "warm start: 2/2 games" in out
    assert json.loads((workdir / first["model"]).with_name("args.json").read_text())["run_dir"] == \
        str(Path(first["model"]).parent)


def test_a_new_run_folder_never_takes_a_used_name(workdir, monkeypatch):
    monkeypatch.setattr("time.strftime", lambda fmt: "20250102-030405")
    assert new_run_dir("runs/ppo") == Path("runs/ppo-20250102-030405")
    Path("runs/ppo-20250102-030405").mkdir(parents=True)
    assert new_run_dir("runs/ppo") == Path("runs/ppo-20250102-030405-2")
    Path("runs/ppo-20250102-030405-2").mkdir()
    assert new_run_dir("runs/ppo") == Path("runs/ppo-20250102-030405-3")


RECIPE = ["--teacher", "ismcts[iterations=10]", "--search-seeds", "2", "--search-games", "1", "--expert-games", "0",
          "--search-epochs", "1", "--width", "8", "--context", "4", "--games", "2", "--agents", "random",
          "--workers", "1"]


@pytest.mark.parametrize("argv, message", [
    (["--teacher", "mcts"], "--teacher: " + UNKNOWN.format("mcts")),
    (["--agents", "random,wizard"], "--agents: " + UNKNOWN.format("wizard")),
    (["--search-games", "0"], "--search-games must be an int >= 1, got 0"),
    (["--extra-data", "nowhere.npz"], "--extra-data 'nowhere.npz' is not a file"),
])
def test_recipe_mistakes_leave_nothing_behind(workdir, capsys, argv, message):
    assert refused(recipe.main, RECIPE + argv, capsys).startswith(f"python -m goldrush_train.gold.recipe: {message}")
    assert list(workdir.iterdir()) == []


def test_the_recipe_names_a_new_folder_and_refuses_an_unreadable_data_file(workdir, capsys):
    (workdir / "runs").mkdir()
    (workdir / "runs" / "ismcts-2.npz").write_text("half a file")
    with pytest.raises(SystemExit) as stop:
        recipe.main(RECIPE + ["--seed", "3"])
    captured = capsys.readouterr()
    assert stop.value.code == 2 and captured.out.startswith("recipe: the model will be in runs/recipe-s3-")
    assert captured.err == ("python -m goldrush_train.gold.recipe: runs/ismcts-2.npz is not a readable data file: "
                            "move it away, and the recipe collects it again\n")
    assert [p.name for p in (workdir / "runs").iterdir()] == ["ismcts-2.npz"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    return [str(save(collect(1, teacher="greedy", seed=seed, workers=1), folder / f"d{seed}.npz"))
            for seed in (1, 2)]


@pytest.mark.parametrize("argv, message", [
    (["--fit", "nowhere.npz", "--holdout", "{1}"], "--fit: no data file at 'nowhere.npz'"),
    (["--fit", "{0}", "--holdout", "{corrupt}"], "--holdout: '{corrupt}' is not a data file"),
    (["--fit", "{0}", "--holdout", "{1}", "--epochs", "0"], "--epochs must be an int >= 1, got 0"),
    (["--fit", "{0}", "--holdout", "{1}", "--threads", "-1"], "--threads must be an int >= 0 (0: torch's choice), got -1"),
])
def test_holdout_mistakes(capsys, data, corrupt, argv, message):
    argv = [a.format(*data, corrupt=corrupt) for a in argv]
    assert refused(holdout.main, argv, capsys).startswith(
        f"python -m goldrush_train.gold.holdout: {message.format(corrupt=corrupt)}")


@pytest.mark.parametrize("argv, message", [
    (["--teacher", "wizard"], "--teacher: " + UNKNOWN.format("wizard")),
    (["--student", "nowhere.npz"], "--student: no model file at 'nowhere.npz'"),
    (["--num-players", "7"], "--num-players must be an int from 2 to 5, got 7"),
    (["--games", "0"], "--games must be an int >= 1, got 0"),
    (["--out", "."], "--out '.' is a folder: name the .npz file to write"),
])
def test_imitation_mistakes(workdir, capsys, argv, message):
    argv = argv if "--out" in argv else argv + ["--out", "data.npz"]
    assert refused(imitation.main, argv, capsys).startswith(f"python -m goldrush_train.gold.imitation: {message}")
    assert list(workdir.iterdir()) == []


@pytest.mark.parametrize("main, name, module", [(ppo.main, "ppo", "sb3_contrib"), (recipe.main, "recipe", "torch"),
                                                (holdout.main, "holdout", "torch")])
def test_a_missing_extra_is_named(capsys, monkeypatch, main, name, module):
    monkeypatch.setitem(sys.modules, module, None)  # as if it were not installed: importing it fails
    assert refused(main, [], capsys) == (f"goldrush_train.gold.{name} needs the 'train' extra: pip install -e "
                                         f"\".[train]\" in the repository's folder (missing: {module})")


def test_a_missing_library_names_its_extra(capsys, monkeypatch):
    tianshou_stock = example("tianshou_stock")

    monkeypatch.setitem(sys.modules, "tianshou", None)
    assert refused(tianshou_stock.main, [], capsys) == (
        "examples/tianshou_stock.py needs the 'train,tianshou' extra: pip install -e "
        "\".[train,tianshou]\" in the repository's folder (missing: tianshou)")


def test_a_missing_extra_is_named_before_the_script_imports_it(tmp_path):
    # goldrush_train.evaluate's own module names tyro; run afresh without it, it still says what to install.
    hide = "import runpy, sys; sys.modules['tyro'] = None; sys.argv[0] = 'x'; " \
           "runpy.run_module('goldrush_train.evaluate', run_name='__main__')"
    result = subprocess.run([sys.executable, "-c", hide, "ppo"], cwd=tmp_path, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert result.returncode == 2 and result.stderr == (
        "goldrush_train.evaluate needs the 'train' extra: pip install -e \".[train]\" in the repository's folder "
        "(missing: tyro)\n")


def test_a_saved_data_file_is_never_half_written(tmp_path, monkeypatch):
    data = collect(1, teacher="greedy", seed=1, workers=1)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(np, "savez_compressed", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save(data, tmp_path / "d.npz")
    assert list(tmp_path.iterdir()) == []
