"""What the training scripts share as commands: a mistake is one line, a rerun gets a new folder.

:func:`command` makes a script's ``main(argv)`` behave as the ``goldrush`` CLI
does: a missing optional dependency names the extra to install, and a
:class:`~goldrush_env.errors.GoldrushEnvError` (a bad value, a missing file) is
printed as one line on stderr that names the script (``python -m goldrush_train.gold.ppo: <message>``),
with exit status 2 and no traceback; :func:`check_agent` makes every agent
named by an option before any work starts. The scripts' functions (``train``,
``run``, ``evaluate``, ``curve``...) still raise, for code that calls them.

:func:`new_run_dir` names the fresh folder of a run given no ``--run-dir``,
so that running a command twice never needs a folder deleted by hand.
:class:`Ticker` prints a progress line every few seconds of a long loop;
:class:`Heartbeat` keeps a whole command from going silent: whenever nothing
has been printed for a while, it prints what the command is doing.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from goldrush_agents import make_agent, split_entrants
from goldrush_env.checks import check_int, check_number
from goldrush_env.errors import GoldrushEnvError, install_line
from goldrush_env.games import DEFAULT_GAME

Main = Callable[..., Any]

TRAIN_EXTRA = ("tyro", "torch", "stable_baselines3", "sb3_contrib", "matplotlib", "tensorboard")
"""The modules of the ``train`` extra (pyproject.toml), as imported."""


def fail(message: str, status: int = 2) -> None:
    """Print ``message`` on stderr as one line and exit with ``status``."""
    print(message, file=sys.stderr, flush=True)
    raise SystemExit(status)


def missing_modules(modules: Sequence[str]) -> list[str]:
    """Those of ``modules`` that cannot be imported (found without importing them)."""
    missing = []
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a parent package missing, or a module blocked in sys.modules
            found = False
        if not found:
            missing.append(name)
    return missing


def command(name: str, needs: Sequence[str] = (), extra: str = "train") -> Callable[[Main], Main]:
    """Make ``main(argv)`` the command ``python -m name`` (or ``python name`` where ``name`` is a script's path, such
    as ``examples/sb3_stock.py``): first check that the modules in ``needs`` (of the extras named by ``extra``, such
    as ``"train,tianshou"``) are installed, then run it; a :class:`GoldrushEnvError` becomes one line on stderr and
    exit status 2, Ctrl-C exit status 130."""
    program = f"python {name}" if name.endswith(".py") else f"python -m {name}"

    def decorate(main: Main) -> Main:
        @functools.wraps(main)
        def run(argv: Sequence[str] | None = None) -> Any:
            missing = missing_modules(needs)
            if missing:
                fail(f"{name} needs the '{extra}' extra: {install_line(extra)} (missing: {', '.join(missing)})")
            try:
                return main(argv)
            except GoldrushEnvError as error:
                fail(f"{program}: {error}")
            except KeyboardInterrupt:
                fail(f"{program}: interrupted", status=130)
            except BrokenPipeError:  # e.g. --help | head: the reader left, nothing to report
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                raise SystemExit(1) from None

        return run

    return decorate


def check_counts(args: Any, *names: str, least: int = 1) -> None:
    """Refuse, by its option's name (``--total-timesteps`` for ``total_timesteps``), any of the fields ``names``
    of ``args`` that is not an int >= ``least``."""
    for name in names:
        check_int(f"--{name.replace('_', '-')}", getattr(args, name), least)


def check_numbers(args: Any, *names: str, low: float | None = None, high: float | None = None,
                  above: float | None = None) -> None:
    """Refuse, by its option's name, any of the fields ``names`` of ``args`` that is not a finite number from
    ``low`` to ``high`` and greater than ``above`` (:func:`~goldrush_env.checks.check_number`)."""
    for name in names:
        check_number(f"--{name.replace('_', '-')}", getattr(args, name), low, high, above=above)


def check_agent(option: str, spec: str, game: str = DEFAULT_GAME) -> None:
    """Make the agent ``spec`` of ``game`` once, here: a misspelt one is refused now, by the option that named it,
    and not in a worker process minutes later."""
    try:
        make_agent(spec, seed=0, game=game)
    except GoldrushEnvError as error:
        raise GoldrushEnvError(f"{option}: {error}") from None


def check_agents(option: str, text: str, game: str = DEFAULT_GAME) -> list[str]:
    """The agents of ``game`` that ``text`` names (comma-separated, at least one), each checked by
    :func:`check_agent`."""
    try:
        names = split_entrants(text)
    except GoldrushEnvError as error:
        raise GoldrushEnvError(f"{option}: {error}") from None
    if not names:
        raise GoldrushEnvError(f"{option} needs at least one agent name, got {text!r}")
    for name in names:
        check_agent(option, name, game)
    return names


def env_options(items: Sequence[str], flag: str = "--option") -> dict[str, Any]:
    """Environment options given on the command line as ``NAME=VALUE``, each value read as a Python literal or else
    kept as text (``max_turns=80`` is an int, ``memory=human`` the text ``"human"``)."""
    options: dict[str, Any] = {}
    for item in items:
        name, equals, text = (part.strip() for part in item.partition("="))
        if not equals or not name.isidentifier():
            raise GoldrushEnvError(f"{flag} must be NAME=VALUE, got {item!r}")
        try:
            options[name] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            options[name] = text
    return options


def add_option_argument(parser: Any, example: str) -> None:
    """``--option NAME=VALUE`` (repeatable) on an argparse ``parser``: an option of the environment."""
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help=f"an option of the environment ({example}); repeat for more")


def parsed_env_options(parser: Any, items: Sequence[str], check: Callable[..., Any]) -> dict[str, Any]:
    """:func:`env_options` of ``items``, refused through ``parser.error`` (naming what is wrong) unless
    ``check(**options)`` (the environment's constructor, say) takes them."""
    try:
        options = env_options(items)
    except GoldrushEnvError as error:
        parser.error(str(error))
    try:
        check(**options)
    except GoldrushEnvError as error:
        parser.error(f"--option: {error}")
    return options


def new_run_dir(prefix: str | Path) -> Path:
    """A folder name no run has taken yet: ``PREFIX-YYYYmmdd-HHMMSS`` (local time), with ``-2``, ``-3``, ...
    added when that one exists. The folder is not created."""
    base = f"{prefix}-{time.strftime('%Y%m%d-%H%M%S')}"
    path, count = Path(base), 1
    while path.exists():
        count += 1
        path = Path(f"{base}-{count}")
    return path


def refuse_used_folder(run_dir: Path, option: str = "--run-dir", resumable: bool = False) -> None:
    """Refuse (by name) a run folder that is a file, or a folder that already holds something."""
    if run_dir.exists() and not run_dir.is_dir():
        raise GoldrushEnvError(f"{option} {str(run_dir)!r} is a file, not a folder: choose another {option}")
    if run_dir.is_dir() and any(run_dir.iterdir()):
        hint = f"continue it with --resume {run_dir}, or " if resumable else ""
        raise GoldrushEnvError(f"{option} {str(run_dir)!r} is not empty: {hint}choose another {option} "
                               f"(or leave it out for a new folder)")


def run_script(label: str, module: str, argv: Sequence[str]) -> None:
    """Run the training script ``python -m module argv`` in a process of its own, after printing its command line
    after ``label:`` (so that the step can be rerun alone); a failure is raised by name."""
    import shlex
    import subprocess

    print(f"{label}: {shlex.join(['python', '-m', module, *argv])}", flush=True)
    finished = subprocess.run([sys.executable, "-m", module, *argv], check=False)
    if finished.returncode != 0:
        raise GoldrushEnvError(f"the {label} (python -m {module}, above) stopped with exit status "
                               f"{finished.returncode}")


def open_run_dir(run_dir: str | None, prefix: str, args: Any) -> Path:
    """The run folder: ``run_dir``, refused if used, or a fresh dated ``prefix-YYYYmmdd-HHMMSS``; made, with the
    run's arguments in ``args.json``, and announced."""
    import dataclasses
    import json

    path = Path(run_dir) if run_dir else new_run_dir(prefix)
    refuse_used_folder(path)
    path.mkdir(parents=True, exist_ok=True)
    (path / "args.json").write_text(json.dumps(dataclasses.asdict(args), indent=1))
    print(f"run folder: {path}", flush=True)
    return path


def ship(model: Path, to: Path, line: str = "shipped as {to}") -> None:
    """Copy a run's ``model`` into the package as the shipped model ``to`` (what ``--ship`` does), and say so:
    ``line``, with ``{model}`` and ``{to}`` filled in."""
    import shutil

    to.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(model, to)
    print(line.format(model=model, to=to), flush=True)


def write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """Write ``rows`` (dicts with the same keys, such as a run's evaluations) to ``path`` as CSV, with a header
    line; nothing if there are none."""
    if rows:
        keys = list(rows[0])
        path.write_text("\n".join([",".join(keys)] + [",".join(str(row[k]) for k in keys) for row in rows]) + "\n")


def parse_args(cls: type, argv: Sequence[str] | None, name: str) -> Any:
    """``argv`` read by tyro into the dataclass ``cls``, for the command ``python -m name`` (its ``--help``)."""
    import tyro

    return tyro.cli(cls, args=argv, prog=f"python -m {name}")


def minutes(seconds: float) -> str:
    """A duration for a person: ``42 s``, ``3.5 min``, ``1.2 h``."""
    if seconds < 100:
        return f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


class Ticker:
    """Prints ``label: DONE/TOTAL UNIT, TIME`` at most every ``every`` seconds while a loop runs, and once at
    the end, so a long step is never silent and a short one prints one line."""

    def __init__(self, label: str, total: int, unit: str = "games", every: float = 10.0) -> None:
        self.label, self.total, self.unit, self.every = label, total, unit, every
        self.start = self.last = time.perf_counter()

    def update(self, done: int) -> None:
        doing(f"{self.label}: {done:,}/{self.total:,} {self.unit}")
        now = time.perf_counter()
        if done >= self.total or now - self.last >= self.every:
            self.last = now
            print(f"{self.label}: {done:,}/{self.total:,} {self.unit}, {minutes(now - self.start)}", flush=True)


class _Stamped:
    """A text stream that notes when something was last written to it."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.last = time.perf_counter()

    def write(self, text: str) -> int:
        if text:
            self.last = time.perf_counter()
        return self.stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


_BEATING: list[Heartbeat] = []


class Heartbeat:
    """While a command runs (``with Heartbeat():``), a line ``DOING (TIME since the start)`` whenever ``every``
    seconds pass with nothing printed on standard output: a long phase (a fit, a policy update, an evaluation on
    a busy machine) is never silent for long. What the command is doing, with its figures, is set with :func:`doing`
    (a text, or a function giving one, called at each line); anything the command prints counts as a line."""

    def __init__(self, every: float = 15.0) -> None:
        self.every = every
        self.doing: str | Callable[[], str] = "starting"
        self.started = time.perf_counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="heartbeat", daemon=True)
        self._stdout: Any = None

    def __enter__(self) -> Heartbeat:
        self._stdout, sys.stdout = sys.stdout, _Stamped(sys.stdout)
        _BEATING.append(self)
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()
        _BEATING.remove(self)
        sys.stdout = self._stdout

    def _beat(self) -> None:
        while not self._stop.wait(min(1.0, self.every / 4)):
            out = sys.stdout
            if isinstance(out, _Stamped) and time.perf_counter() - out.last >= self.every:
                doing = self.doing() if callable(self.doing) else self.doing
                print(f"{doing}  ({minutes(time.perf_counter() - self.started)} since the start)", flush=True)


def silent_for() -> float | None:
    """Seconds since the running :class:`Heartbeat` last saw a line printed (None if none runs): a command's own
    progress lines can wait on it, so that they and the heartbeat's never come in pairs."""
    out = sys.stdout
    if not _BEATING or not isinstance(out, _Stamped):
        return None
    return time.perf_counter() - out.last


def doing(what: str | Callable[[], str]) -> None:
    """Say what the command is doing, for the running :class:`Heartbeat`'s lines (nothing if none runs)."""
    if _BEATING:
        _BEATING[-1].doing = what
