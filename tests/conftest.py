import atexit
import contextlib
import importlib
import json
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import ModuleType

import hypothesis.configuration
import hypothesis.strategies
import pytest

ROOT = Path(__file__).resolve().parent.parent
"""The repository, for a test in any folder of tests/."""
EXAMPLES = ROOT / "examples"
"""The scripts that run a stock library or a tutorial on the games: not installed, each run as
``python examples/NAME.py`` (examples/README.md)."""


def example(name: str) -> ModuleType:
    """The script ``examples/NAME.py``, imported as the module ``NAME``: ``examples/`` goes first on ``sys.path``, as
    Python puts a script's folder there when it runs the script, so that the scripts' imports of each other
    (``from stock_harness import ...``) work as they do on the command line."""
    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))
    return importlib.import_module(name)


DATA = Path(__file__).parent / "data"
PLUGINS = Path(__file__).parent / "plugins"
POSITIONS = {"action": "positions", "observation": "plain"}
"""Gold's options for a test about positions and the plain vector (version 0's; version 1's defaults are kinds)."""
VERSION_0 = {**POSITIONS, "reward": "win"}
"""Gold's environment as version 0 made it by default."""


class InPython:
    """A Gold player asked in Python, flip by flip: without its ``kernel_player()``, a GoldEnv it plays in takes the
    AEC path."""

    def __init__(self, player):
        self.player = player

    def reset(self, seed=None):
        self.player.reset(seed)

    def act(self, view):
        return self.player.act(view)


def plug_in(projects: list[Path]) -> list[str]:
    """Put each project (a folder with a pyproject.toml) on the path as an installed plug-in: its folder, and the
    metadata ``pip install`` would write for it (a ``.dist-info`` with the entry points its pyproject.toml
    declares), in a temporary folder removed at the end. Returns the folders added, first on ``sys.path`` and
    on ``PYTHONPATH`` (for the processes the tests start)."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    site = Path(tempfile.mkdtemp(prefix="goldrush-plugins-"))
    atexit.register(shutil.rmtree, site, ignore_errors=True)
    folders = [str(site)]
    for project in projects:
        meta = tomllib.loads((project / "pyproject.toml").read_text())["project"]
        info = site / f"{meta['name'].replace('-', '_')}-{meta['version']}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n")
        groups = [f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items())
                  for group, entries in meta.get("entry-points", {}).items()]
        (info / "entry_points.txt").write_text("\n".join(groups))
        folders.append(str(project))
    sys.path[:0] = folders
    os.environ["PYTHONPATH"] = os.pathsep.join(folders + [p for p in [os.environ.get("PYTHONPATH")] if p])
    return folders


# The games of tests/plugins/ (Nim, Kuhn poker) are packages of their own, plugged in as an installed game would
# be, before anything imports goldrush_env: every test that loops over the registry plays them too.
PLUGIN_PATHS = plug_in(sorted(path for path in PLUGINS.iterdir() if (path / "pyproject.toml").exists()))

# Hypothesis keeps its examples and caches in a temporary folder, removed at the end, not in .hypothesis/ of the
# working folder.
_HYPOTHESIS_HOME = tempfile.mkdtemp(prefix="goldrush-hypothesis-")
atexit.register(shutil.rmtree, _HYPOTHESIS_HOME, ignore_errors=True)
hypothesis.configuration.set_hypothesis_home_dir(_HYPOTHESIS_HOME)

# OpenMP's worker threads (numba's parallel kernels, PyTorch) wait for their next task by spinning on a core by
# default: between the many small kernel calls of the tests they kept both cores busy doing nothing, and the
# tests run two at a time. Passive threads sleep instead. Read when OpenMP loads, after this line, and inherited
# by the processes the tests start.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

# render_mode="human" opens a pygame window: the tests draw it with SDL's dummy driver, headless.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture(scope="session", autouse=True)
def temporary_files_stay_in_the_tests_folder(tmp_path_factory):
    """Libraries that write to the system's temporary folder (Stable-Baselines3 makes an empty ``SB3-<time>``
    folder there for every model left without a logger) write into this session's pytest folder instead, in
    this process and in the processes the tests start. Ray gets a short folder of its own: its socket paths must
    fit in 107 bytes, which a worker's pytest folder (``.../pytest-N/popen-gwK/tmp0/ray/session_<time>/...``)
    does not leave them. The user's data folder, where ``goldrush serve`` keeps its games by default, is one in
    this session's pytest folder too."""
    folder = tmp_path_factory.mktemp("tmp")
    ray_folder = tempfile.mkdtemp(prefix="goldrush-ray-")
    saved = {name: os.environ.get(name) for name in ("TMPDIR", "RAY_TMPDIR", "XDG_DATA_HOME")}
    before = tempfile.tempdir
    tempfile.tempdir, os.environ["TMPDIR"], os.environ["RAY_TMPDIR"] = str(folder), str(folder), ray_folder
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))
    yield folder
    tempfile.tempdir = before
    for name, value in saved.items():
        if value is None:
            del os.environ[name]
        else:
            os.environ[name] = value
    shutil.rmtree(ray_folder, ignore_errors=True)


def unpaced(env):
    """``env`` with its human-mode window drawing as fast as it can (``render_fps`` 0), for tests."""
    raw = env.unwrapped.game_env if hasattr(env.unwrapped, "game_env") else env.unwrapped
    raw.metadata = {**raw.metadata, "render_fps": 0}
    return env


# --- the web server's tests ---------------------------------------------------------------------------------

SHORT = 400
"""An error body longer than this would be echoing what it was sent."""
JSON = hypothesis.strategies.recursive(
    hypothesis.strategies.none() | hypothesis.strategies.booleans() | hypothesis.strategies.integers()
    | hypothesis.strategies.floats(allow_nan=False, allow_infinity=False) | hypothesis.strategies.text(max_size=20),
    lambda children: hypothesis.strategies.lists(children, max_size=4)
    | hypothesis.strategies.dictionaries(hypothesis.strategies.text(max_size=8), children, max_size=4),
    max_leaves=12)
"""Any JSON value, small."""


def session_of(client, game_id: str):
    """The server's session of ``game_id`` (in play or ended), for a test to look behind the API."""
    store = client.app.state.store
    return store.live.get(game_id) or store.ended[game_id]


def refused(response, status: int, *words: str) -> str:
    """The response is a JSON error of ``status`` that says ``words``, and short."""
    assert response.status_code == status, (response.status_code, response.text[:SHORT])
    assert len(response.content) < SHORT, response.text[:SHORT]
    error = response.json()["error"]
    for word in words:
        assert word in error, (word, error)
    return error


def integers_in(data) -> set[int]:
    """Every int a JSON value holds, at any depth."""
    if isinstance(data, bool):
        return set()
    if isinstance(data, int):
        return {data}
    if isinstance(data, dict):
        return set().union(*map(integers_in, data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*map(integers_in, data)) if data else set()
    return set()


def fail_once(agent, error: Exception = RuntimeError("cut off")) -> None:
    """Make ``agent`` raise ``error`` at its next move, then play on as before: a request cut off while the agents
    moved (a failing agent, a server stopping)."""
    failures, act = iter([error]), agent.act

    def failing(view):
        failure = next(failures, None)
        if failure:
            raise failure
        return act(view)

    agent.act = failing


def typist(answers):
    """A ``read(prompt)`` for the play commands that types ``answers`` in turn, then ends the input (EOFError)."""
    typed = iter(answers)

    def read(prompt):
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    return read


def load_vectors(name: str = "vectors.jsonl") -> list[dict]:
    with open(DATA / name) as handle:
        return [json.loads(line) for line in handle if line.strip()]


BACKGROUND = dict(zip(range(52, 64), "G1 G1 G2 G2 G2 G3 G3 G3 G4 G4 D D".split()))
"""Twelve cards in the bottom rows that scenario tests never flip: they keep
more than ten cards and a dynamite on the table, so neither the Gold Rush nor
the D3 stalemate starts while the cards under test are played."""


def layout_of(cards: dict[int, str]) -> list[str]:
    """A 64-position layout holding ``cards`` ({position: code}) and gaps elsewhere."""
    return [cards.get(position, "-") for position in range(64)]


def layout(cards: dict[int, str], background: bool = True) -> str:
    """64 whitespace-separated codes: ``cards`` (plus :data:`BACKGROUND`), ``-`` elsewhere."""
    return " ".join(layout_of({**BACKGROUND, **cards} if background else cards))


def flippable(game) -> list[int]:
    """The positions a game of Gold lets its player flip now, ascending (the true entries of its legal mask)."""
    return [int(position) for position in game.legal_mask().nonzero()[0]]


def feed(memories, game, flips, record=None) -> None:
    """Play ``flips`` on ``game`` (the readable engine) and tell each memory (:mod:`goldrush_env.gold.memory`) what
    the table showed, as the compiled game tells its seats: after a turn's second flip (or a rush flip) the cards
    that left are removed first, then the cards that went back face down are seen, then each memory ends the turn.
    ``record(index, kind, before, after, forgotten)``, if given, hears each ``"see"`` and ``"end_turn"``."""
    from goldrush_env.gold.engine import Outcome

    for position in flips:
        event = game.step(position)
        if event.outcome is Outcome.FIRST:
            continue
        seen = [(event.position, event.card)]
        if event.partner is not None:
            seen.insert(0, (event.partner, game.initial_layout[event.partner]))
        for index, memory in enumerate(memories):
            for where, _ in seen:
                if where in event.removed:
                    memory.remove(where)
            for where, card in seen:
                if where not in event.removed:
                    before = set(memory.known)
                    forgotten = memory.see(where, card)
                    if record is not None:
                        record(index, "see", before | {where}, set(memory.known), forgotten)
            before = set(memory.known)
            forgotten = memory.end_turn()
            if record is not None:
                record(index, "end_turn", before, set(memory.known), forgotten)


def random_views(num_players: int = 2, games: int = 2) -> list:
    """The view of the seat to move at every flip of ``games`` games of random legal flips (seeds 0, 1, ...)."""
    import numpy as np

    from goldrush_env.gold import raw_env

    env = raw_env(num_players=num_players)
    seen = []
    for seed in range(games):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.game.is_finished:
            view = env.view(env.game.current_player)
            seen.append(view)
            env.step_from_view(int(rng.choice(view.legal_actions)))
    return seen


@pytest.fixture
def vectors() -> list[dict]:
    return load_vectors()


class Checked:
    """Wraps a policy and checks every position it returns against the mask it was shown."""

    def __init__(self, policy):
        self.policy, self.name, self.moves = policy, getattr(policy, "name", "policy"), 0

    def reset(self, seed=None):
        self.policy.reset(seed)

    def act(self, view):
        position = self.policy.act(view)
        assert view.action_mask[position] == 1, f"{self.name} chose illegal position {position}"
        self.moves += 1
        return position


def aec_twins(games):
    """One AEC ``raw_env`` per game of a :class:`~goldrush_env.gold.batched.BatchedGames`, dealt the same table;
    its actions are positions and its vector the plain one, as the batched games' are."""
    import goldrush_env

    envs = [goldrush_env.gold.raw_env(num_players=games.num_players, max_turns=games.max_turns, **POSITIONS)
            for _ in range(games.num_games)]
    for g, env in enumerate(envs):
        env.reset(options={"layout": games.table[g].tolist(), "first_player": int(games.current_player[g])})
    return envs


def follow(envs, known, flips):
    """Make in each twin environment the flip its batched game just made, and mark the card known."""
    import numpy as np

    for g in np.flatnonzero(flips.outcome >= 0):
        envs[g].step(int(flips.position[g]))
        known[g, flips.position[g]] = True


CHROMIUM = "/usr/bin/chromium"


def require_browser() -> None:
    """At the top of a browser test module: skip it without playwright, uvicorn or Debian's Chromium, except in
    CI, where .ci/run installs Chromium and its absence fails the run."""
    pytest.importorskip("playwright")
    pytest.importorskip("uvicorn")
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"no Chromium at {CHROMIUM}: .ci/run should have installed it", pytrace=False)
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True)


BROWSER_PATIENCE_MS = 120_000
"""How long a browser test waits for what it expects (a text shown, a button enabled) before it fails. Every wait
is on a condition and ends as soon as it holds, so this bound costs nothing when the page works; it is long
because a shared machine may take seconds to answer a request that takes milliseconds when it is idle."""


@contextlib.contextmanager
def chromium():
    """Debian's Chromium, headless, driven by Playwright; every ``expect`` waits up to :data:`BROWSER_PATIENCE_MS`
    (Playwright's default is 5 s, which a loaded machine has missed)."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=BROWSER_PATIENCE_MS)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        try:
            yield browser
        finally:
            browser.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def served(app):
    """``app`` under uvicorn on a free local port, in a thread of this process (so that tests can look at its
    store); yields the port."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


# --- a skip for a missing module fails the run where everything is installed ------------------------------------

REQUIRE_ALL = "GOLDRUSH_TESTS_REQUIRE_ALL"
"""Set (to 1) by .ci/run, which installs every extra: there a test skipped because a module could not be imported
(``pytest.importorskip``) is a broken install or a broken import, and fails the run. A user's light install leaves
it unset, and such tests skip as before."""

_IMPORT_SKIPS: list[str] = []


def _import_skip(report) -> str | None:
    if not report.skipped or not isinstance(report.longrepr, tuple):
        return None
    reason = str(report.longrepr[2])
    return reason if "could not import" in reason else None


def pytest_collectreport(report):
    reason = _import_skip(report)
    if reason:
        _IMPORT_SKIPS.append(f"{report.nodeid}: {reason}")


def pytest_runtest_logreport(report):
    reason = _import_skip(report)
    if reason:
        _IMPORT_SKIPS.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get(REQUIRE_ALL) and _IMPORT_SKIPS and session.exitstatus in (0, 5):  # passed, or nothing ran
        session.exitstatus = 1
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line(f"{REQUIRE_ALL} is set, and tests were skipped for a module that did not import:",
                                red=True)
            for line in _IMPORT_SKIPS:
                reporter.write_line(f"  {line}", red=True)


def replays_as_recorded(single, episode):
    """Play ``episode["actions"]`` in the single env ``single`` (reset on the episode's table) and require the
    observations, rewards, ends and masks (by value, whatever their dtype) the episode recorded after each;
    returns the last step's ``(terminated, truncated, info)``."""
    import numpy as np

    terminated = truncated = False
    info = {}
    for t, action in enumerate(episode["actions"]):
        observation, reward, terminated, truncated, info = single.step(action)
        assert np.array_equal(observation, episode["observations"][t + 1]), t
        assert reward == pytest.approx(episode["rewards"][t], abs=1e-6), t
        assert (terminated, truncated) == episode["ends"][t], t
        if not (terminated or truncated):
            assert np.array_equal(info["action_mask"], episode["masks"][t + 1]), t
    return terminated, truncated, info
