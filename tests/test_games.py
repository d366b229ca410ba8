"""One house for the games: the registry, the game protocol every rules engine follows, and the shared layer
that never asks which game it runs.

Everything here loops over the registry (:func:`goldrush_env.games.specs`), so a game added to it is tested
the same way at once.
"""

from __future__ import annotations

import ast
import importlib
import itertools
import re
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pettingzoo
import pytest

import goldrush_env
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.conformance import check_determinism, check_observations, check_rules, random_game
from goldrush_env.games import DEFAULT_GAME, GROUP, group_entries, names, spec, specs
from goldrush_env.protocol import Rules

ROOT = Path(__file__).parent.parent
GAME_SPECS = specs()
IDS = [game.name for game in GAME_SPECS]


@pytest.mark.parametrize("game_spec", GAME_SPECS, ids=IDS)
def test_every_rules_engine_follows_the_protocol(game_spec):
    check_rules(game_spec)
    check_observations(game_spec)


@pytest.mark.parametrize("game_spec", GAME_SPECS, ids=IDS)
def test_a_seed_deals_the_same_game_and_an_illegal_action_changes_nothing(game_spec):
    check_determinism(game_spec)


def test_the_checks_name_what_a_game_gets_wrong(monkeypatch):
    """The conformance checks fail, saying why, on a game that breaks the protocol: a seed that deals different
    games, an observation whose length changes, a copy that is the game itself, a start player not honoured."""
    nim = spec("nim")
    rules = nim.load("rules")
    new, calls = rules.new.__func__, itertools.count()

    def unseeded(cls, num_players, seed=None, first_player=None):  # each game started by the next seat
        return new(cls, num_players, first_player=next(calls) % num_players if first_player is None else first_player)

    faults = [(rules, "new", classmethod(unseeded), check_determinism, "must deal the same game for one seed"),
              (sys.modules[rules.__module__], "observe", lambda known: np.zeros(1 + next(calls) % 2, np.float32),
               check_observations, "one length at every step"),
              (rules, "copy", lambda game: game, check_rules, "copy"),
              (rules, "new", classmethod(lambda cls, num_players, seed=None, first_player=None: new(cls, num_players,
                                                                                                   seed)),
               check_rules, "must let seat")]
    for owner, name, fault, check, message in faults:
        check(nim)  # passes as the game stands
        with monkeypatch.context() as patch:
            patch.setattr(owner, name, fault)
            with pytest.raises(AssertionError, match=message):
                check(nim)


@pytest.mark.parametrize("game_spec", GAME_SPECS, ids=IDS)
def test_a_record_is_known_by_its_own_game_only(game_spec):
    game, _ = random_game(game_spec, game_spec.default_players, seed=3)
    record = game.to_record()
    from goldrush_agents.arena import play_game
    from goldrush_agents import make_agent

    players = [make_agent("random", game=game_spec.name) for _ in range(game_spec.default_players)]
    played = play_game(players, 3, game=game_spec.name).record  # the arena's record names its game
    assert played["game"] == game_spec.name
    for other in GAME_SPECS:
        assert other.owns_record(played) is (other is game_spec)
        if game_spec.is_record:  # a game that knows its records by their content knows them without the name too
            assert other.owns_record(record) is (other is game_spec)
    assert not game_spec.owns_record([record])


@pytest.mark.parametrize("game_spec", GAME_SPECS, ids=IDS)
def test_every_game_has_its_environments_and_ids(game_spec):
    env = game_spec.env(num_players=game_spec.default_players)
    env.reset(seed=1)
    observation, *_ = env.last()
    assert observation["action_mask"].any()
    raw = game_spec.raw_env(num_players=game_spec.default_players)
    raw.reset(seed=1)
    assert isinstance(raw.game, Rules) and raw.view(raw.game.current_player).action_mask.any()
    made = pettingzoo.make("aec", game_spec.pettingzoo_id or f"goldrush_env/{game_spec.name}-v0")
    made.reset(seed=1)
    assert made.observe(made.agent_selection)["action_mask"].any()
    for gym_id in game_spec.gym_ids:
        made = gymnasium.make(gym_id)
        observation, info = made.reset(seed=1)
        assert made.action_space.contains(int(np.flatnonzero(info["action_mask"])[0]))
    assert game_spec.check_players(game_spec.default_players) == game_spec.default_players
    with pytest.raises(GoldrushEnvError, match=f"must be {game_spec.players_text} for"):
        game_spec.check_players(game_spec.max_players + 1)


@pytest.mark.parametrize("game_spec", GAME_SPECS, ids=IDS)
def test_every_game_has_a_demo(game_spec, capsys):
    from goldrush_env.__main__ import main as demo

    assert demo(["--game", game_spec.name, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"A game of {game_spec.title} between") and "seed 1" in out.splitlines()[0]
    assert "winner" in out.rstrip().splitlines()[-1]
    assert demo(["--game", "chess"]) == 2
    assert f"--game must be one of {names()}, got 'chess'" in capsys.readouterr().err


def test_the_registry_names_each_game_once_and_refuses_others():
    assert names()[0] == DEFAULT_GAME and len(set(names())) == len(names()) and IDS == names()
    assert {"gold", "piecepack"} <= set(names())  # this distribution's own, declared in pyproject.toml
    with pytest.raises(GoldrushEnvError, match=rf"unknown game 'chess': the games are \{re.escape(str(names()))[1:]}"):
        spec("chess")


def test_no_compatibility_shims_remain():
    """0.3.0 dropped the import hook that let old module paths import (pre-1.0, docs/versions.md)."""
    product = [path for folder in ("goldrush_env", "agents", "train") for path in (ROOT / folder).rglob("*.py")]
    assert not [path for path in product if path.stem == "_moved"]
    assert not [path for path in product if "meta_path" in path.read_text()]
    done = subprocess.run([sys.executable, "-c", "import goldrush_env.engine"], capture_output=True, text=True)
    assert "No module named 'goldrush_env.engine'" in done.stderr
    assert not hasattr(goldrush_env, "env") and not hasattr(goldrush_env, "Game")


RETIRED_NAMES = {"GoldRushError": ("goldrush_env.errors", "GoldrushEnvError"),
                 "TableEnv": ("goldrush_env.aec_base", "TurnBasedEnv"),
                 "PlayerView": ("goldrush_env.gold.view", "SeatView")}
"""Names the product has given up, and what replaced them (the changelog says when)."""


def test_the_retired_names_are_gone_and_an_import_of_one_names_its_successor():
    product = [path for folder in ("goldrush_env", "agents", "train") for path in (ROOT / folder).rglob("*.py")]
    read = [ROOT / "README.md", *[path for path in (ROOT / "docs").rglob("*.md")
                                  if path.name not in ("experiments.md",)]]
    for old, (module, new) in RETIRED_NAMES.items():
        home = ROOT / (module.replace(".", "/") + ".py")
        left = [str(path) for path in product + read if re.search(rf"\b{old}\b", path.read_text()) and path != home]
        assert not left, f"{old} (now {new}) is still named in {left}"
        with pytest.raises(ImportError, match=f"{module}.{old} is now {new}"):
            exec(f"from {module} import {old}")


@pytest.mark.parametrize("game", ["gold", "piecepack"])
def test_a_renamed_option_value_is_refused_with_its_new_value_and_the_new_one_works(game):
    from goldrush_env.options import RENAMED_VALUES

    make = importlib.import_module(f"goldrush_env.{game}").raw_env
    for (name, old), (new, version) in RENAMED_VALUES.items():
        with pytest.raises(GoldrushEnvError, match=f"^{name}={old!r} was renamed {new!r} in {version}: use "):
            make(**{name: old})
        make(**{name: new, "render_mode": "ansi"}).reset(seed=0)
    code = [path for folder in ("goldrush_env", "agents") for path in (ROOT / folder).rglob("*.py")]
    pages = [ROOT / "README.md", *[path for path in (ROOT / "docs").rglob("*.md") if path.name != "experiments.md"]]
    for (name, old), (new, _) in RENAMED_VALUES.items():
        said = re.compile(rf"{name}=[`'\"]*{old}\b|{name}[^.]{{0,120}}?[`'\"]{old}[`'\"]")
        left = [str(path) for path in code + pages if path.name != "options.py" and said.search(path.read_text())]
        assert not left, f"{name}={old!r} (now {new!r}) is still named in {left}"


RETIRED_ENTRANTS = {"ppo": "taught"}
"""Entrant names the product has given up, and what replaced them (``goldrush_agents.RENAMED``, which every way of
naming a player reads; the changelog says when)."""
ENTRANT_SPELLINGS = (r"[`'\"]{}[`'\"\[]", r"(?<![\w.-]){}\[", r"\b{}_\d+p\b",
                     r"(?:--opponents?|--agents|--alone|--fields|--pairs|evaluate)[ =]\S*?(?<![\w.-]){}(?![\w.-])")
"""How a page names an entrant: quoted or as code, with options, by its model files, or on a command line; not
the training script that shares a name with a retired one (``goldrush_train.gold.ppo``, ``runs/ppo-...``)."""


def test_the_retired_entrant_names_are_listed_once_in_the_product():
    from goldrush_agents import RENAMED

    assert {old: new for old, (new, *_) in RENAMED.items()} == RETIRED_ENTRANTS


def test_no_list_of_players_offers_a_retired_entrant_name():
    from goldrush_agents import players_of
    from goldrush_agents.gold.trained import SHIPPED

    assert not set(RETIRED_ENTRANTS) & set(SHIPPED)
    for game in names():
        players = players_of(game)
        offered = {*players.agents, *players.models, *players.opponents}
        assert not set(RETIRED_ENTRANTS) & offered, (game, offered)
    pages = [path for path in (ROOT / "agents").rglob("static/*") if path.is_file()]
    for old, new in RETIRED_ENTRANTS.items():
        left = [str(path) for path in pages if re.search(rf"(?<![\w.-]){old}(?![\w.-])", path.read_text())]
        assert not left, f"the entrant {old!r} (now {new!r}) is still offered by {left}"


def test_no_page_names_a_retired_entrant():
    """README.md and the docs say the entrants' names of today; the experiments log keeps the names as they were
    when each entry was written."""
    pages = [ROOT / "README.md", *[path for path in (ROOT / "docs").rglob("*.md") if path.name != "experiments.md"],
             *(ROOT / "docs").rglob("*.py")]
    for old, new in RETIRED_ENTRANTS.items():
        spellings = re.compile("|".join(spelling.format(re.escape(old)) for spelling in ENTRANT_SPELLINGS))
        left = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}" for path in pages
                for number, line in enumerate(path.read_text().splitlines(), 1) if spellings.search(line)]
        assert not left, f"the entrant {old!r} (now {new!r}) is still named in:\n" + "\n".join(left)


def test_the_spellings_find_an_entrant_and_leave_the_training_script_alone():
    spellings = re.compile("|".join(spelling.format("ppo") for spelling in ENTRANT_SPELLINGS))
    for named in ('make_agent("ppo")', "`ppo`", "`ppo[choose=move]`", "agents/gold/models/ppo_2p.npz",
                  "goldrush play --opponents ppo", "--agents economist,ppo,random", "--pairs greedy/ppo",
                  "python -m goldrush_train.evaluate ppo --agents greedy"):
        assert spellings.search(named), named
    for other in ("python -m goldrush_train.gold.ppo", "`goldrush_train.gold.ppo`", "`gold.ppo`", "train/gold/ppo.py",
                  "goldrush serve --model runs/ppo-1/model.npz", "the opponents' flips", "`taught`"):
        assert not spellings.search(other), other


@pytest.mark.parametrize("game", ["gold", "piecepack"])
@pytest.mark.parametrize("old", sorted(RETIRED_ENTRANTS))
def test_a_retired_entrant_name_is_refused_with_its_new_name(game, old):
    from goldrush_agents import make_agent

    new = RETIRED_ENTRANTS[old]
    message = rf"the entrant '{old}' was renamed '{new}' in \d+\.\d+\.\d+ \(.+\): use '{new}'$"
    for spec_text in (old, f"{old}[seed=1]"):
        with pytest.raises(GoldrushEnvError, match=message):
            make_agent(spec_text, game=game)
    assert make_agent(new, game=game).name == new


def test_a_retired_entrant_name_is_refused_by_the_shipped_models_too():
    from goldrush_agents.gold.trained import Shipped, shipped_model

    for old, new in RETIRED_ENTRANTS.items():
        with pytest.raises(GoldrushEnvError, match=f"the entrant '{old}' was renamed '{new}'"):
            Shipped(old)
        with pytest.raises(GoldrushEnvError, match=f"the entrant '{old}' was renamed '{new}'"):
            shipped_model(2, old)
        assert shipped_model(2, new).is_file()


def test_a_retired_entrant_name_is_refused_on_the_command_line(capsys):
    from goldrush_agents.cli import main

    for argv in (["play", "--opponents", "ppo"], ["play", "--game", "piecepack", "--opponents", "economist,ppo"],
                 ["watch", "--agents", "greedy,ppo[choose=move]"],
                 ["tournament", "--agents", "greedy,ppo", "--games", "2", "--no-progress"]):
        try:
            status = main(argv)
        except SystemExit as stop:
            status = stop.code
        error = capsys.readouterr().err
        assert status == 2 and "the entrant 'ppo' was renamed 'taught' in 0.3.0" in error, (argv, error)


def test_a_retired_entrant_name_is_refused_by_the_web_api():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient

    from goldrush_agents.web import create_app

    client = TestClient(create_app())
    for game in ("gold", "piecepack"):
        assert not set(RETIRED_ENTRANTS) & set(client.get(f"/api/{game}/agents").json()["agents"])
        response = client.post(f"/api/{game}/games", json={"opponents": "ppo"})
        assert response.status_code == 400
        assert response.json()["error"] == ("opponents: the entrant 'ppo' was renamed 'taught' in 0.3.0 (it is "
                                            "trained with a teacher, not by PPO): use 'taught'")


def test_a_game_that_never_had_the_new_name_hears_that_the_old_one_is_unknown():
    from goldrush_agents import check_renamed

    check_renamed("ppo", ["random", "greedy"])  # no 'taught' there: make_agent says the name is unknown
    with pytest.raises(GoldrushEnvError, match="use 'taught'"):
        check_renamed("ppo", ["random", "taught"])


# --- the shared layer never asks which game -------------------------------------------------------------

SHARED_EXEMPT = {"goldrush_env/games.py"}
"""The registry names the default game. No other shared module names one."""


def game_packages() -> dict[str, Path]:
    """Every installed game's packages (the one that declares it and its players package), by module name, with
    the folder (or file) that holds each."""
    from goldrush_agents import PLAYERS_GROUP

    found = {}
    for entry in group_entries(GROUP) + group_entries(PLAYERS_GROUP):
        module = importlib.import_module(entry.module)
        path = Path(module.__file__)
        found[entry.module] = path.parent if path.name == "__init__.py" else path
    return found


def names_a_game(path: Path, extra: tuple[str, ...] = ()) -> list[str]:
    """Where a module names a game in code (docstrings aside): a string that is a game's name or a path into its
    package, or an import from a game's package (or from one of ``extra``, such as a game's training package)."""
    games = set(names())
    packages = tuple(game_packages()) + extra
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
    game_paths = list(game_packages().values())
    paths = sorted((ROOT / "goldrush_env").rglob("*.py")) + sorted((ROOT / "agents").rglob("*.py"))
    return [path for path in paths if not any(p == path or p in path.parents for p in game_paths)
            and str(path.relative_to(ROOT)) not in SHARED_EXEMPT]


TRAIN = ROOT / "train"


def train_game_folders() -> dict[str, Path]:
    """The folders of ``train/`` that hold a game's training, by package name (``goldrush_train.<game>``)."""
    return {f"goldrush_train.{path.name}": path for path in sorted(TRAIN.iterdir())
            if (path / "__init__.py").is_file()}


def test_each_folder_of_train_and_tests_is_a_game():
    """A game's training is ``train/<game>/`` and its tests ``tests/<game>/``, each folder named as the registry
    names the game; everything at the top of either serves every game (docs/adding-a-game.md, "Where things
    live"). Only the test data and the plug-in games of the tests have folders of their own."""
    folders = {path.name for path in TRAIN.iterdir() if path.is_dir() and path.name != "__pycache__"}
    assert folders == {path.name for path in train_game_folders().values()}
    assert {"gold", "piecepack"} <= folders <= set(names())
    tests = {path.name for path in (ROOT / "tests").iterdir() if path.is_dir() and path.name != "__pycache__"}
    assert tests - set(names()) == {"data", "plugins"} and {"gold", "piecepack"} <= tests


TRAIN_SHARED = sorted(TRAIN.glob("*.py"))
"""The top of ``train/``: the script and the library modules that serve every game."""


@pytest.mark.parametrize("path", shared_modules() + TRAIN_SHARED, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_shared_module_names_a_game(path):
    assert names_a_game(path, extra=tuple(train_game_folders())) == []


def test_the_game_name_check_sees_a_comparison_and_an_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('"""Docstrings may say gold."""\nfrom goldrush_env.gold.engine import Game\n\n'
                   'def f(game):\n    """piecepack"""\n    return game == "piecepack"\n'
                   'from goldrush_train.gold.network import GoldNet\n')
    assert names_a_game(bad) == ["line 2: from goldrush_env.gold.engine import ...", "line 6: 'piecepack'"]
    assert "line 7: from goldrush_train.gold.network import ..." in names_a_game(bad, extra=("goldrush_train.gold",))


def module_name(path: Path) -> str:
    """The name ``goldrush_train`` imports a file of ``train/`` by."""
    return ".".join(("goldrush_train",) + path.relative_to(TRAIN).with_suffix("").parts)


def training_scripts() -> dict[str, Path]:
    """The modules of ``goldrush_train``, at its top and in each game's folder, that run as
    ``python -m goldrush_train[.GAME].NAME``, by module name."""
    return {module_name(path): path for path in sorted(TRAIN.rglob("*.py"))
            if 'if __name__ == "__main__":' in path.read_text()}


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)  # from goldrush_train.gold import ppo
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_no_training_script_imports_another():
    scripts = training_scripts()
    assert {"goldrush_train.gold.ppo", "goldrush_train.gold.recipe", "goldrush_train.gold.imitation",
            "goldrush_train.piecepack.ppo", "goldrush_train.evaluate"} <= set(scripts)
    assert "goldrush_train.gold.decisions" not in scripts and "goldrush_train.win_shares" not in scripts
    found = {name: sorted(imported_modules(path) & (set(scripts) - {name})) for name, path in scripts.items()}
    assert {name: imports for name, imports in found.items() if imports} == {}


def listed(docstring: str, heading: str) -> set[str]:
    """The module names a package's docstring lists in its paragraph ``heading: ...``."""
    found = re.search(rf"^{heading}:(.*?)(?:\n\n|\Z)", docstring, flags=re.S | re.M)
    assert found, f"no paragraph {heading}: in the docstring"
    return set(re.findall(r"``(\w+)``", found.group(1)))


@pytest.mark.parametrize("package", [TRAIN] + list(train_game_folders().values()),
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_each_training_package_lists_its_scripts_and_its_library(package):
    """A reader tells a script from a library module by the package's docstring: it names every module of the
    folder once, as a script (it runs) or as library (it is only imported)."""
    scripts = training_scripts()
    modules = {module_name(path): path.stem for path in package.glob("*.py") if path.stem != "__init__"}
    docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text()))
    assert listed(docstring, "Scripts") == {stem for name, stem in modules.items() if name in scripts}
    assert listed(docstring, "Library") == {stem for name, stem in modules.items() if name not in scripts}


def test_the_script_check_sees_a_function_level_import(tmp_path):
    script = tmp_path / "x.py"
    script.write_text("def f():\n    from goldrush_train.gold.ppo import Args\n    from goldrush_train.gold import recipe\n")
    assert {"goldrush_train.gold.ppo", "goldrush_train.gold.recipe"} <= imported_modules(script)
