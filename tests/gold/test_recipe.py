"""The shipped model's recipe (train/gold/recipe.py) at a tiny budget."""

import hashlib
import json
import shlex

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")
tyro = pytest.importorskip("tyro")

from goldrush_agents.gold.trained import TrainedPolicy  # noqa: E402
from goldrush_env.errors import GoldrushEnvError  # noqa: E402
from goldrush_train.gold.decisions import collect, load, save  # noqa: E402
from goldrush_train.gold.ppo import main as ppo_main  # noqa: E402
from goldrush_train.gold.recipe import Recipe, main, run  # noqa: E402

TEACHER = "ismcts[iterations=10]"
TINY = ["--teacher", TEACHER, "--search-seeds", "2", "--search-games", "1", "--expert-games", "2",
        "--expert-epochs", "1", "--search-epochs", "2", "--width", "8", "--context", "4", "--games", "2",
        "--agents", "random", "--workers", "1"]


@pytest.fixture
def fits_here(monkeypatch):
    """The recipe's fits (``python -m goldrush_train.gold.ppo`` in a process of its own) run in this process: the
    same command, without a fresh interpreter importing torch for each. Call it to switch; the first test's first
    fit stays a real process, whose weights the in-process ppo.main must match."""
    def run_here(label, module, argv):
        assert module == "goldrush_train.gold.ppo"
        print(f"{label}: {shlex.join(['python', '-m', module, *argv])}", flush=True)
        ppo_main(list(argv))

    return lambda: monkeypatch.setattr("goldrush_train.gold.recipe.run_script", run_here)


def test_the_recipe_collects_once_then_fits_and_evaluates(tmp_path, capsys, monkeypatch, fits_here):
    data = tmp_path / "data"
    summary = main(["--run-dir", str(tmp_path / "a"), "--data-dir", str(data)] + TINY)  # fitted in its own process
    fits_here()
    path = data / "ismcts-2.npz"
    with np.load(path) as stored:
        assert json.loads(str(stored["about"])) == {"teacher": TEACHER, "games": 1, "num_players": 2, "seed": 2,
                                                    "memory": "perfect"}
    games, search = summary["imitation"]["phases"]
    assert games["source"] == "2 games of expert" and search["source"] == str(path) and search["decisions"] > 0
    assert (games["epochs"], search["epochs"]) == (1, 2)
    assert summary["steps"] == 0 and [r["opponent"] for r in summary["final_evaluation"]] == ["random"]
    assert summary["recipe"]["seed"] == 0
    assert json.loads((tmp_path / "a" / "summary.json").read_text())["recipe"]["search_seeds"] == [2]

    # Another seed of the recipe reuses the search data instead of collecting it again; --ship copies its model.
    written = path.stat().st_mtime_ns
    capsys.readouterr()
    monkeypatch.setattr("goldrush_train.gold.recipe.SHIP_PATH", tmp_path / "package" / "taught_2p.npz")
    main(["--run-dir", str(tmp_path / "b"), "--data-dir", str(data), "--seed", "1", "--ship"] + TINY)
    assert "already collected" in capsys.readouterr().out and path.stat().st_mtime_ns == written
    assert (tmp_path / "package" / "taught_2p.npz").read_bytes() == (tmp_path / "b" / "model.npz").read_bytes()

    # The recipe is goldrush_train.gold.ppo's warm start with no PPO: the same command gives the same weights.
    ppo_main(["--run-dir", str(tmp_path / "ppo"), "--imitation-games", "2", "--imitation-epochs", "1",
              "--imitation-data", str(path), "--imitation-data-epochs", "2", "--imitation-target", "visits",
              "--total-timesteps", "0", "--width", "8", "--context", "4",
              "--final-games", "2", "--eval-agents", "random", "--num-envs", "2", "--vec-env", "dummy",
              "--torch-threads", "2"])
    with np.load(tmp_path / "a" / "model.npz") as recipe, np.load(tmp_path / "ppo" / "model.npz") as ppo:
        assert recipe.files == ppo.files
        for name in recipe.files:
            np.testing.assert_array_equal(recipe[name], ppo[name])

    # With --expert-games 0 the search data is the whole fit.
    alone = main(["--run-dir", str(tmp_path / "alone"), "--data-dir", str(data)] + TINY + ["--expert-games", "0"])
    [search] = alone["imitation"]["phases"]
    assert search["source"] == str(path) and search["epochs"] == 2

    # The search's visit shares are fitted by default; --target move fits the moves played, as the models shipped
    # before did. Either plays its most likely move unless --play-by position says otherwise, as those played.
    moves = main(["--run-dir", str(tmp_path / "moves"), "--data-dir", str(data)] + TINY
                 + ["--expert-games", "0", "--target", "move", "--play-by", "position"])
    assert (alone["args"]["imitation_target"], moves["args"]["imitation_target"]) == ("visits", "move")
    assert (alone["args"]["play_by"], moves["args"]["play_by"]) == ("move", "position")
    assert TrainedPolicy(tmp_path / "alone" / "model.npz").choose == "move"
    assert TrainedPolicy(tmp_path / "moves" / "model.npz").choose == "position"
    with np.load(tmp_path / "alone" / "model.npz") as shares, np.load(tmp_path / "moves" / "model.npz") as played:
        assert not np.array_equal(shares["logit.weight"], played["logit.weight"])  # other targets, other weights

    # --extra-data files are fitted with the search data, in the same phase.
    extra = data / "more.npz"
    save(collect(1, teacher=TEACHER, seed=5, workers=1), extra, teacher=TEACHER)
    more = main(["--run-dir", str(tmp_path / "more"), "--data-dir", str(data), "--extra-data", str(extra)] + TINY
                + ["--expert-games", "0"])
    [search] = more["imitation"]["phases"]
    assert search["source"] == f"{path}, {extra}" and search["decisions"] == len(load(path, extra)["actions"])

    # A data file that holds other games is refused by name, before anything is trained.
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["--run-dir", str(tmp_path / "c"), "--data-dir", str(data)] + TINY + ["--search-games", "3"])
    assert "ismcts-2.npz holds other games than this recipe needs" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize("bad, message", [
    (["--search-games", "0"], "--search-games must be an int >= 1, got 0"),
    (["--search-epochs", "0"], "--search-epochs must be an int >= 1, got 0"),
    (["--expert-games", "-1"], r"--expert-games must be an int >= 0 \(0: none\), got -1"),
    (["--search-seeds", "3", "3"], r"--search-seeds repeats a seed: \[3, 3\]"),
    (["--workers", "-1"], "--workers must be an int >= 0"),
    (["--torch-threads", "0"], "--torch-threads must be an int >= 1, got 0"),
    (["--teacher", "ismcts[iterations=10"], "cannot read agent 'ismcts\\[iterations=10'"),
    (["--teacher", "mcts"], "unknown agent 'mcts'"),
    (["--dagger-seeds", "4", "4"], r"--dagger-seeds repeats a seed: \[4, 4\]"),
    (["--dagger-seeds", "4", "--dagger-opponents", ""], "--dagger-opponents needs at least one agent name, got ''"),
    (["--dagger-seeds", "4", "--dagger-opponents", ","], "--dagger-opponents: empty name in the list ','"),
    (["--agents", "random,wizard"], "--agents: unknown agent 'wizard'"),
    (["--dagger-seeds", "4", "--dagger-opponents", "greedy,nobody"], "unknown agent 'nobody'"),
    (["--dagger-games", "0"], "--dagger-games must be an int >= 1, got 0"),
    (["--extra-data", "nowhere.npz"], r"--extra-data 'nowhere\.npz' is not a file"),
])
def test_bad_arguments_are_refused(tmp_path, bad, message):
    with pytest.raises(GoldrushEnvError, match=message):
        run(tyro.cli(Recipe, args=["--run-dir", str(tmp_path / "run"), "--data-dir", str(tmp_path)] + TINY + bad))
    assert list(tmp_path.iterdir()) == []


def test_a_used_run_folder_is_refused_before_collecting(tmp_path, capsys):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "something").write_text("x")
    with pytest.raises(SystemExit) as stop:
        main(["--run-dir", str(tmp_path / "run"), "--data-dir", str(tmp_path / "data")] + TINY)
    assert stop.value.code == 2 and "is not empty" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()


def test_dagger_fits_a_student_collects_its_games_once_and_refits(tmp_path, capsys, fits_here):
    fits_here()
    data = tmp_path / "data"
    dagger = ["--expert-games", "0", "--dagger-seeds", "7", "--dagger-games", "2", "--dagger-opponents", "random"]
    summary = main(["--run-dir", str(tmp_path / "a"), "--data-dir", str(data)] + TINY + dagger)
    student, path = data / "dagger-student.npz", data / "dagger-7.npz"
    # The student is the recipe without DAgger, seed 0, fitted in its own folder beside the data.
    alone = main(["--run-dir", str(tmp_path / "alone"), "--data-dir", str(data)] + TINY + ["--expert-games", "0"])
    assert student.read_bytes() == (tmp_path / "alone" / "model.npz").read_bytes()
    [fit] = data.glob("dagger-student-*/summary.json")  # fitted in a new folder of its own
    with np.load(path) as stored:
        about = json.loads(str(stored["about"]))
    assert about["student"] == str(student) and about["opponents"] == ["random"] and about["games"] == 2
    assert about["student_sha256"] == hashlib.sha256(student.read_bytes()).hexdigest()
    search = data / "ismcts-2.npz"
    [phase] = summary["imitation"]["phases"]
    assert phase["source"] == f"{search}, {path}"
    assert phase["decisions"] == len(load(search, path)["actions"]) > len(load(search)["actions"])
    assert alone["imitation"]["phases"][0]["decisions"] == len(load(search)["actions"])
    # The DAgger data are the student's games labelled by the search: collect() gives the same.
    again = collect(2, teacher=TEACHER, seed=7, workers=1, student=str(student), opponents=["random"])
    np.testing.assert_array_equal(load(path)["observations"], again["observations"])

    # Another seed reuses the student and its games.
    capsys.readouterr()
    main(["--run-dir", str(tmp_path / "b"), "--data-dir", str(data), "--seed", "1"] + TINY + dagger)
    out = capsys.readouterr().out
    assert f"dagger: {path} (already collected)" in out and "fitting the student" not in out

    # Games played by another student, or whose student is gone, are refused by name before any fit.
    student.write_bytes(b"other weights")
    recipe = tyro.cli(Recipe, args=["--run-dir", str(tmp_path / "c"), "--data-dir", str(data)] + TINY + dagger)
    with pytest.raises(GoldrushEnvError, match=r"dagger-7\.npz holds other games than this recipe needs"):
        run(recipe)
    student.unlink()
    with pytest.raises(GoldrushEnvError, match=r"the DAgger files are there but not the model that played them"):
        run(recipe)
    assert not (tmp_path / "c").exists()
