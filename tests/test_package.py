"""The shape of the package: dependencies point one way, the rules core imports no RL library."""

import ast
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from goldrush_agents.tournament import wilson_interval

ROOT = Path(__file__).parent.parent


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


LAYERS = {"goldrush_env": "goldrush_env", "agents": "goldrush_agents", "train": "goldrush_train",
          "examples": "examples", "benchmarks": "benchmarks", "experiments": "experiments"}
"""Each folder of the repository and the name it is imported by, from the bottom layer up: a layer may import
the layers before it, never one after it."""
ORDER = list(LAYERS.values())
SOURCES = [(folder, path) for folder in LAYERS for path in sorted((ROOT / folder).rglob("*.py"))]


@pytest.mark.parametrize(("folder", "path"), SOURCES, ids=lambda v: str(v.relative_to(ROOT)) if isinstance(v, Path)
                         else None)
def test_dependencies_point_one_way(folder, path):
    imported = imported_modules(path)
    level = ORDER.index(LAYERS[folder])
    assert not imported & set(ORDER[level + 1:]), f"{path.relative_to(ROOT)} imports a layer above its own"
    # The folders' own names are not what is installed: importing them would load a second copy.
    assert not imported & {"agents", "train"}, f"{path.relative_to(ROOT)} imports a folder, not a package"


EXAMPLES = ROOT / "examples"
EXAMPLE_SCRIPTS = sorted(path for path in EXAMPLES.glob("*.py") if 'if __name__ == "__main__":' in path.read_text())
"""The scripts of ``examples/`` (its other files are what they share, imported by name, as ``stock_harness``)."""
PRODUCT = [path for folder in ("goldrush_env", "agents", "train") for path in sorted((ROOT / folder).rglob("*.py"))]
"""The installed packages' sources."""


def test_the_product_imports_no_example():
    """``examples/`` is not installed: the scripts there run as ``python examples/NAME.py`` and import each other by
    name, so no module of the installed packages may import one (nor ``examples``)."""
    names = {path.stem for path in EXAMPLES.glob("*.py")} | {"examples"}
    assert {"stock_harness", "sb3_stock", "rllib_ppo", "openspiel_learner"} <= names
    assert [str(path.relative_to(ROOT)) for path in PRODUCT if imported_modules(path) & names] == []


@pytest.mark.parametrize("script", EXAMPLE_SCRIPTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_each_example_runs_as_a_script_from_the_repository(script):
    """Run as the docs write it, ``python examples/NAME.py --help`` from the repository's folder: its imports of
    its neighbours resolve (Python puts the script's folder on ``sys.path``) and it names itself so."""
    relative = script.relative_to(ROOT).as_posix()
    done = subprocess.run([sys.executable, relative, "--help"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert f"usage: python {relative}" in done.stdout or f"usage: {script.name}" in done.stdout, done.stdout[:300]


def test_every_example_is_run_by_a_test():
    """Each script of ``examples/`` runs at a tiny size somewhere in the tests (examples/README.md says so)."""
    tests = "\n".join(path.read_text() for path in (ROOT / "tests").rglob("test_*.py"))
    assert len(EXAMPLE_SCRIPTS) >= 8
    assert [path.name for path in EXAMPLE_SCRIPTS if f'example("{path.stem}")' not in tests] == []


TRAIN = ROOT / "train"
TRAIN_GAMES = sorted(path.name for path in TRAIN.iterdir() if (path / "__init__.py").is_file())
"""The folders of ``train/`` that hold a game's training (``goldrush_train.<game>``)."""


def imported_names(path: Path) -> set[str]:
    """The full name of every module ``path`` imports (``from a.b import c`` gives ``a.b`` and ``a.b.c``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.update([node.module] + [f"{node.module}.{alias.name}" for alias in node.names])
    return names


def other_games_training(path: Path, own: str | None) -> list[str]:
    """The modules of another game's training folder than ``own`` (None: any game's) that ``path`` imports."""
    others = tuple(f"goldrush_train.{game}" for game in TRAIN_GAMES if game != own)
    return sorted(name for name in imported_names(path)
                  if name in others or name.startswith(tuple(f"{other}." for other in others)))


@pytest.mark.parametrize("path", sorted(TRAIN.rglob("*.py")), ids=lambda path: str(path.relative_to(ROOT)))
def test_a_games_training_leans_only_on_its_own_folder_and_the_shared_top(path):
    """Within ``train/`` the layers are the top (what every game shares) and a folder per game above it: the top
    imports no game's folder, and a game's folder no other game's."""
    parts = path.relative_to(TRAIN).parts
    assert other_games_training(path, parts[0] if len(parts) > 1 else None) == []


def test_the_training_layer_check_sees_a_crossing(tmp_path):
    assert {"gold", "piecepack"} <= set(TRAIN_GAMES)
    bad = tmp_path / "bad.py"
    bad.write_text("from goldrush_train.win_shares import evaluate\n\ndef f():\n    from goldrush_train import gold\n")
    assert other_games_training(bad, "piecepack") == ["goldrush_train.gold"]
    assert other_games_training(bad, "gold") == []
    assert other_games_training(bad, None) == ["goldrush_train.gold"]


def test_the_layer_check_sees_a_crossing(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy\nfrom goldrush_train.gold.network import GoldNet\n\n"
                   "def f():\n    import benchmarks.bench\n")
    assert imported_modules(bad) == {"numpy", "goldrush_train", "benchmarks"}


RL_LIBRARIES = {"gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "ray", "tianshou", "torchrl"}


def package_modules(path: Path) -> set[Path]:
    """The files of ``goldrush_env`` that ``path`` imports, directly or through each other (the package's
    ``__init__`` modules are not followed: each game's loads nothing but its spec)."""
    seen, todo = set(), [path]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for node in ast.walk(ast.parse(current.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] == "goldrush_env" and len(parts) > 1:
                    target = ROOT.joinpath(*parts).with_suffix(".py")
                    if target.is_file():
                        todo.append(target)
    return seen


def rules_modules() -> list[Path]:
    """The rules modules of this distribution's games (a plug-in's are its own affair)."""
    from goldrush_env.games import specs

    paths = [Path(importlib.util.find_spec(game.rules.partition(":")[0]).origin) for game in specs()]
    return [path for path in paths if ROOT in path.parents]


@pytest.mark.parametrize("rules", rules_modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_each_games_rules_import_no_rl_library(rules):
    """A game's rules engine and every module of the package it imports, transitively (its box, its errors, the
    game protocol); Gold's match scoring (D6) too."""
    modules = package_modules(rules)
    assert len(modules) >= 3
    for path in modules:
        assert not imported_modules(path) & RL_LIBRARIES, path.relative_to(ROOT)
    assert not imported_modules(ROOT / "goldrush_env" / "gold" / "match.py") & RL_LIBRARIES


def test_the_wheel_installs_names_of_its_own(tmp_path):
    """No top-level ``agents`` or ``train`` in the wheel: other distributions own such names."""
    source = tmp_path / "source"  # built from a copy: a build writes build/ and *.egg-info/ beside the sources
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "runs", "site", "*.egg-info",
                                                                "__pycache__", ".pytest_cache"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(tmp_path), str(source)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")} == {
        "goldrush_env", "goldrush_agents", "goldrush_train"}
    assert {"goldrush_agents/gold/models/taught_2p.npz",
            "goldrush_agents/piecepack/models/piecepack_3p.npz"} <= set(names)
    # Each game's training folder is a package of its own in pyproject.toml's list: a folder left out of it
    # would be missing from the wheel.
    assert {f"goldrush_train/{game}/__init__.py" for game in TRAIN_GAMES} <= set(names)


def test_the_package_says_the_version_pyproject_gives():
    import goldrush_env

    (version,) = re.findall(r'^version = "(.+)"$', (ROOT / "pyproject.toml").read_text(), re.MULTILINE)
    assert goldrush_env.__version__ == version


def test_demo_prints_a_whole_game():
    out = subprocess.run([sys.executable, "-m", "goldrush_env", "--players", "3", "--seed", "4"],
                         capture_output=True, text=True, check=True).stdout
    assert "turn 0, seat 0 flips" in out
    assert out.count("game over after") == 1 and re.search(r"; (winner: seat|winners: seats) [0-2]", out)


def test_benchmark_runs_in_quick_mode():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--quick"],
                         capture_output=True, text=True, check=True).stdout
    for case in ("connect_four_v3 env() (reference)", "engine alone (Game)", "AEC env(), 2 players",
                 "AEC raw_env, 2 players", "Gymnasium env, greedy opponent", "batched engine, 8192 games",
                 "vector env, 4096 games, kinds, greedy opponents", "vector env, 4096 games, kinds, expert opponents",
                 "vector env, 4096 games, kinds, 4 players, human memory"):
        assert out.count(case) == 2, case  # once timed, once in the memory table
    assert "maximum resident set" in out and "profile of 1,000 env() steps" in out
    assert "profile of 1,000 Gold Rush env() (3 players) steps" in out
    # The figures, not only their labels: each rate lies within its min and max, and its ratio is the rate over
    # the reference's, as printed (to the rounding of the printed figures).
    timed = re.findall(r"^  (.+?)\s+([\d,]+) (?:steps|flips)/s  \(min ([\d,]+), max ([\d,]+)\)  x([\d.]+)$", out,
                       flags=re.M)
    assert len(timed) >= 7
    number = lambda text: float(text.replace(",", ""))  # noqa: E731
    reference = number(timed[0][1])
    assert timed[0][0].endswith("(reference)") and timed[0][4] == "1.00" and reference > 0
    for case, rate, low, high, ratio in timed:
        assert 0 < number(low) <= number(rate) <= number(high), case
        exact = number(rate) / reference  # the rates are printed to the unit: allow their rounding, and the ratio's
        slack = exact * (0.5 / number(rate) + 0.5 / reference) + 0.005
        assert float(ratio) == pytest.approx(exact, abs=slack), case


def test_end_to_end_benchmark_runs_in_quick_mode():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_end_to_end.py"), "--quick"],
                         capture_output=True, text=True, check=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    assert "--vec-env subproc  --num-envs 2" in out and "--vec-env batched  --num-envs 64" in out  # the quick cases
    assert "random,greedy,taught" in out and "batched=True, one process" in out
    assert re.search(r"CleanRL's stock loop end to end \(its defaults\), 8,192 steps x 1 repeats: [\d,]+ steps/s", out)


def test_ladder_benchmark_runs_in_quick_mode():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ladder.py"), "--quick", "--workers", "1"],
                         capture_output=True, text=True, check=True).stdout
    assert "| 2 | greedy | random | 20 |" in out and "| 2 | expert | greedy | 20 |" in out
    rows = re.findall(r"^\| 2 \| (\w+) \| (\w+) \| 20 \| ([\d.]+) \| \[([\d.]+), ([\d.]+)\] \| 0.500 \| (yes|no) \|",
                      out, flags=re.M)
    assert len(rows) == 2
    for stronger, weaker, share, low, high, significant in rows:  # each row's interval and verdict from its share
        expected = wilson_interval(float(share) * 20, 20)
        assert (float(low), float(high)) == pytest.approx(expected, abs=0.0006), (stronger, weaker)
        assert significant == ("yes" if float(low) > 0.5 else "no")
    assert float(rows[0][2]) > 0.8  # greedy beats random nearly always


def test_selfplay_speed_benchmark_prints_games_a_second_per_table_size():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "selfplay_speed.py"), "--players", "2", "5",
                          "--games", "4", "--reference-games", "1", "--repeats", "1"],
                         capture_output=True, text=True, check=True).stdout
    reference = float(re.search(r"one 2-player game at a time \(a batch of one\): ([\d.]+) games/s", out).group(1))
    rows = re.findall(r"^\| (\d) \| ([\d.]+) \| ([\d.]+) \|$", out, flags=re.M)
    assert [row[0] for row in rows] == ["2", "5"]
    for _, speed, ratio in rows:  # every figure is printed to 0.1: the ratio lies between those the roundings allow
        speed, ratio = float(speed), float(ratio)
        low, high = (speed - 0.05) / (reference + 0.05), (speed + 0.05) / max(reference - 0.05, 1e-9)
        assert low - 0.05 <= ratio <= high + 0.05, (speed, reference, ratio)


def test_piecepack_step_parts_benchmark_prints_each_part_and_the_ratios():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "piecepack_step_parts.py"), "--games", "2",
                          "--steps", "200", "--repeats", "1"], capture_output=True, text=True, check=True).stdout
    parts = re.findall(r"^  ((?:rules|and ).*?)\s+([\d.]+) us a step$", out, flags=re.M)
    assert [name for name, _ in parts] == ["rules", "and the kernel's step", "and the mask", "and the observation"]
    rates = re.findall(r"^  (.+?)\s+([\d.]+) us a step\s+([\d,]+) steps/s  x([\d.]+)$", out, flags=re.M)
    assert [name for name, *_ in rates] == ["connect_four_v3 env() (reference)", "env()",
                                            "env(), the observation a fixed vector"]
    reference = float(rates[0][2].replace(",", ""))
    for _, micros, rate, ratio in rates:
        rate = float(rate.replace(",", ""))
        assert float(micros) == pytest.approx(1e6 / rate, rel=0.01)
        assert float(ratio) == pytest.approx(rate / reference, abs=0.01)
    with pytest.raises(subprocess.CalledProcessError):
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "piecepack_step_parts.py"), "--games", "0"],
                       capture_output=True, check=True)


def test_move_time_benchmark_times_each_player_of_either_game():
    for argv, names in ((["--games", "1", "--agents", "greedy,random"], ["greedy", "random"]),
                        (["--game", "piecepack", "--players", "4", "--games", "1", "--agents", "taught,random"],
                         ["taught", "random"])):
        out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "move_time.py"), *argv],
                             capture_output=True, text=True, check=True).stdout
        rows = re.findall(r"^\| (\S+) \| (\d+) \| ([\d.]+) \|$", out, flags=re.M)
        assert [name for name, *_ in rows] == names and all(int(moves) > 10 for _, moves, _ in rows), out


def test_web_load_benchmark_plays_whole_games_through_the_server():
    pytest.importorskip("uvicorn")  # goldrush serve's web extra
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "web_load.py"), "--clients", "2", "--table",
                          "quarter"], capture_output=True, text=True, check=True, timeout=120).stdout
    found = re.search(r"^2 games against greedy on the quarter table: ([\d,]+) requests in ", out, flags=re.M)
    assert found and int(found.group(1).replace(",", "")) > 2 * 4, out  # a new game, flips and reads for each
    assert out.rstrip().endswith("errors: 0"), out


def test_the_main_job_benchmark_finds_the_readmes_command():
    command = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "main_job.py"), "--print-command"],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert command.startswith("python3 -m venv .venv && .venv/bin/pip install torch==2.13.0 && ")
    assert command.endswith(" && .venv/bin/python -m goldrush_train.gold.scratch")


def test_the_shared_cores_benchmark_prints_both_speeds_and_their_ratio():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "shared_cores.py"), "--steps", "2048"],
                         capture_output=True, text=True, check=True, timeout=600).stdout
    assert out.startswith("threads: torch ")
    assert re.search(r"^alone: [\d,]+ steps/s; beside 1 busy process\(es\): [\d,]+ steps/s, \d+% of its speed alone$",
                     out, flags=re.M), out


def test_the_mutation_run_names_test_files_that_exist():
    """tests/mutation.py names each target's test modules by their path under tests/: a test file that moves or
    is renamed must move there too, or its target would run no test."""
    from mutation import TARGETS

    named = {module for _, modules, _ in TARGETS.values() for module in modules}
    assert len(named) >= 15
    assert sorted(module for module in named if not (ROOT / "tests" / f"{module}.py").is_file()) == []


def test_the_mutation_run_makes_the_kernel_plain_python(tmp_path):
    """The gold-kernel target mutates the kernel as Python: mutmut skips decorated functions, and numpy's int8
    scalars would overflow where numba computes on int64."""
    from mutation import AS_PYTHON, TARGETS, as_python

    assert AS_PYTHON <= set(TARGETS) and TARGETS["gold-kernel"][0] == ["goldrush_env/gold/kernel.py"]
    module = tmp_path / "module.py"
    module.write_text("import numba\nimport numpy as np\n\n\n@numba.njit(cache=True, parallel=True)\n"
                      "def f(x):\n    return np.zeros(3, dtype=np.int8) + np.int32(x)\n")
    as_python(module)
    text = module.read_text()
    assert "@numba" not in text and "np.int8" not in text and "np.int32" not in text and "def f(x):" in text
    kernel = (ROOT / "goldrush_env" / "gold" / "kernel.py").read_text()
    assert kernel.count("@numba.njit") >= 40  # every compiled function is written so, and none is missed
    assert all(line.startswith("@numba.njit") for line in kernel.splitlines() if "@numba" in line)
