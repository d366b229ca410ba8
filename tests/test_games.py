"""One house for the games: the registry, the game protocol every rules engine follows, and the shared layer
that never asks which game it runs.

Everything here loops over the registry (:func:`goldrush_env.games.specs`), so a game added to it is tested
the same way at once.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import goldrush_env
from goldrush_env.errors import GoldRushError
from goldrush_env.games import GAMES, spec, specs
from goldrush_env.protocol import Result, Rules

ROOT = Path(__file__).parent.parent
GAME_SPECS = specs()
IDS = [game.name for game in GAME_SPECS]


def random_game(game_spec, num_players: int, seed: int):
    """A whole game played at random through the protocol alone."""
    rules = game_spec.load("rules")
    game = rules.new(num_players, seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not game.is_finished:
        mask = game.legal_mask()
        assert mask.dtype == bool and mask.any(), "a game in play has a legal action"
        game.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    return game, steps


@pytest.mark.parametrize("game_spec", GAME_SPECS, ids=IDS)
def test_every_rules_engine_follows_the_protocol(game_spec):
    for num_players in range(game_spec.min_players, game_spec.max_players + 1):
        game, steps = random_game(game_spec, num_players, seed=num_players)
        assert isinstance(game, Rules) and game.num_players == num_players and steps > 10
        result = game.result()
        assert isinstance(result, Result) and len(result.scores) == num_players
        assert result.winners and all(result.scores[s] == max(result.scores) for s in result.winners)
        assert game.is_over or game.is_truncated
        again = type(game).from_record(json.loads(json.dumps(game.to_record())))  # a record is plain JSON
        assert again.result() == result and again.is_finished
        copy = game.copy()
        assert copy.result() == result and copy is not game
        with pytest.raises(GoldRushError):
            game.known_to(num_players)


@pytest.mark.parametrize("game_spec", GAME_SPECS, ids=IDS)
def test_a_seed_deals_the_same_game_and_an_illegal_action_changes_nothing(game_spec):
    rules = game_spec.load("rules")
    first, second = (rules.new(game_spec.default_players, 7) for _ in range(2))
    assert first.to_record() == second.to_record()
    first.step(int(np.flatnonzero(first.legal_mask())[0]))  # at Gold's start every card may be flipped
    illegal = int(np.flatnonzero(~first.legal_mask())[0])
    before = first.to_record()
    with pytest.raises(GoldRushError):
        first.step(illegal)
    assert first.to_record() == before


@pytest.mark.parametrize("game_spec", GAME_SPECS, ids=IDS)
def test_a_record_is_known_by_its_own_game_only(game_spec):
    game, _ = random_game(game_spec, game_spec.default_players, seed=3)
    record = game.to_record()
    for other in GAME_SPECS:
        assert other.load("is_record")(record) is (other is game_spec)
    assert not game_spec.load("is_record")([record])


@pytest.mark.parametrize("game_spec", GAME_SPECS, ids=IDS)
def test_every_game_has_its_environments_and_ids(game_spec):
    package = __import__(goldrush_env.GAMES[game_spec.name], fromlist=["env"])
    assert package.GAME is game_spec and package.env is game_spec.load("aec")  # goldrush_env.<game>.env()
    env = package.env(num_players=game_spec.default_players)
    env.reset(seed=1)
    observation, *_ = env.last()
    assert observation["action_mask"].any()
    for gym_id in game_spec.gym_ids:
        made = gymnasium.make(gym_id)
        observation, info = made.reset(seed=1)
        assert made.action_space.contains(int(np.flatnonzero(info["action_mask"])[0]))
    assert game_spec.check_players(game_spec.default_players) == game_spec.default_players
    with pytest.raises(GoldRushError, match=f"must be {game_spec.players_text} for"):
        game_spec.check_players(game_spec.max_players + 1)
    assert callable(game_spec.load("text")) and callable(game_spec.load("raw_aec"))


@pytest.mark.parametrize("game_spec", GAME_SPECS, ids=IDS)
def test_every_game_has_a_demo(game_spec, capsys):
    from goldrush_env.__main__ import main as demo

    assert demo(["--game", game_spec.name, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"A game of {game_spec.title.split(' (')[0]}") and "seed 1" in out.splitlines()[0]
    assert "winner" in out.rstrip().splitlines()[-1]
    assert demo(["--game", "chess"]) == 2
    assert "--game must be one of ['gold', 'piecepack'], got 'chess'" in capsys.readouterr().err


def test_the_registry_names_each_game_once_and_refuses_others():
    assert [game.name for game in GAME_SPECS] == list(GAMES) and goldrush_env.games.DEFAULT_GAME == IDS[0]
    with pytest.raises(GoldRushError, match=r"unknown game 'chess': the games are \['gold', 'piecepack'\]"):
        spec("chess")


def test_the_default_games_names_stay_at_the_top_of_the_package():
    assert goldrush_env.env is spec(goldrush_env.games.DEFAULT_GAME).load("aec")
    assert goldrush_env.Game is spec(goldrush_env.games.DEFAULT_GAME).load("rules")
    assert goldrush_env.PIECEPACK_GYM_ID in gymnasium.registry and goldrush_env.GYM_ID in gymnasium.registry


def test_old_module_paths_import_as_the_moved_modules_with_a_warning():
    code = ("import warnings; warnings.simplefilter('always')\n"
            "import goldrush_env.engine as old, goldrush_env.gold.engine as new\n"
            "from goldrush_env.view import PlayerView\n"
            "assert old is new and PlayerView.__module__ == 'goldrush_env.gold.view'\n"
            "print(old.Game.__name__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "Game"
    assert "goldrush_env.engine has moved to goldrush_env.gold.engine" in done.stderr
    assert "goldrush_env.view has moved to goldrush_env.gold.view" in done.stderr


def test_old_player_paths_and_names_still_work():
    code = ("import warnings; warnings.simplefilter('always')\n"
            "import goldrush_agents, goldrush_agents.search as old, goldrush_agents.gold.search as new\n"
            "from goldrush_agents.piecepack import make_piecepack_agent, play_piecepack_game\n"
            "assert old is new and goldrush_agents.AGENTS is goldrush_agents.gold.AGENTS\n"
            "players = [make_piecepack_agent(n) for n in ('economist', 'random', 'random')]\n"
            "print(sorted(play_piecepack_game(players, 3, seed=1)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['record', 'scores', 'winners']"
    assert "goldrush_agents.search has moved to goldrush_agents.gold.search" in done.stderr


# --- the shared layer never asks which game -------------------------------------------------------------

SHARED_EXEMPT = {"goldrush_env/games.py", "goldrush_env/_moved.py", "agents/_moved.py"}
"""The registry lists the games; the compatibility modules list what moved. No other shared module names one."""
GOLD_ONLY = ("agents/web/",)
"""The browser server's modules name the games they serve: Gold's page and API (``games.py``) and Gold Rush's
(``piecepack.py``) are written for each game, with the store, the limits and the request checks shared."""


def names_a_game(path: Path) -> list[str]:
    """Where a module names a game in code (docstrings aside): a string that is a game's name or a path into its
    package, or an import from a game's package."""
    games = set(GAMES)
    packages = tuple(GAMES.values()) + tuple(f"goldrush_agents.{name}" for name in GAMES)
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value in games or node.value.startswith(tuple(f"{p}." for p in packages)) \
                    or node.value in packages:
                found.append(f"line {node.lineno}: {node.value!r}")
        elif isinstance(node, ast.ImportFrom) and node.module and (
                node.module in packages or node.module.startswith(tuple(f"{p}." for p in packages))):
            found.append(f"line {node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names
                      if a.name in packages or a.name.startswith(tuple(f"{p}." for p in packages))]
    return found


def shared_modules() -> list[Path]:
    """The modules of ``goldrush_env`` and ``goldrush_agents`` (folder ``agents/``) outside the games' packages."""
    game_dirs = [ROOT.joinpath(*package.split(".")) for package in GAMES.values()]
    game_dirs += [ROOT / "agents" / name for name in GAMES]
    paths = sorted((ROOT / "goldrush_env").rglob("*.py")) + sorted((ROOT / "agents").rglob("*.py"))
    return [path for path in paths if not any(d in path.parents for d in game_dirs)
            and str(path.relative_to(ROOT)) not in SHARED_EXEMPT
            and not str(path.relative_to(ROOT)).startswith(GOLD_ONLY)]


TRAIN_SHARED = ("cli.py", "evaluation.py", "plots.py")
"""The training library's modules that serve every game (the others fit Gold's network: decisions, network,
opponents, vec_env)."""


@pytest.mark.parametrize("path", shared_modules() + [ROOT / "train" / name for name in TRAIN_SHARED],
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_no_shared_module_names_a_game(path):
    assert names_a_game(path) == []


def test_the_game_name_check_sees_a_comparison_and_an_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('"""Docstrings may say gold."""\nfrom goldrush_env.gold.engine import Game\n\n'
                   'def f(game):\n    """piecepack"""\n    return game == "piecepack"\n')
    assert names_a_game(bad) == ["line 2: from goldrush_env.gold.engine import ...", "line 6: 'piecepack'"]


def training_scripts() -> dict[str, Path]:
    """The modules of ``goldrush_train`` that run as ``python -m goldrush_train.NAME``, by module name."""
    return {f"goldrush_train.{path.stem}": path for path in sorted((ROOT / "train").glob("*.py"))
            if 'if __name__ == "__main__":' in path.read_text()}


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)  # from goldrush_train import ppo
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_no_training_script_imports_another():
    scripts = training_scripts()
    assert {"goldrush_train.ppo", "goldrush_train.recipe", "goldrush_train.imitation",
            "goldrush_train.evaluate"} <= set(scripts)
    assert "goldrush_train.decisions" not in scripts and "goldrush_train.evaluation" not in scripts
    found = {name: sorted(imported_modules(path) & (set(scripts) - {name})) for name, path in scripts.items()}
    assert {name: imports for name, imports in found.items() if imports} == {}


def test_the_script_check_sees_a_function_level_import(tmp_path):
    script = tmp_path / "x.py"
    script.write_text("def f():\n    from goldrush_train.ppo import Args\n    from goldrush_train import recipe\n")
    assert {"goldrush_train.ppo", "goldrush_train.recipe"} <= imported_modules(script)


def test_no_module_of_ours_imports_an_old_path():
    from goldrush_agents import _moved as agents_moved
    from goldrush_env import _moved as env_moved

    old = set(agents_moved.MODULES) | set(env_moved.MODULES)
    paths = [path for folder in ("goldrush_env", "agents", "train", "benchmarks")
             for path in (ROOT / folder).rglob("*.py")]
    found = {str(path.relative_to(ROOT)): sorted(imported_modules(path) & old) for path in paths}
    assert {path: modules for path, modules in found.items() if modules} == {}
