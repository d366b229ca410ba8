"""The documentation runs as written.

Every Python block of the READMEs (the repository's, examples/'s) and of the pages in ``docs/`` is executed
and must print something; where the page shows what it prints (a ``text``
block right after it, or after one paragraph that starts "It prints"), it
must print exactly that. Every command of their shell blocks is handed to
the program it names, which parses its arguments and stops before doing
the work (a training run takes minutes to hours; the commands' behaviour
is tested elsewhere): a misspelt option, a removed flag or a wrong type
fails here. The experiments log is the exception: its commands are records
of what was run at a given commit, with placeholders such as ``--seed S``,
so only the programs they name are checked to exist. The pictures of the
docs must be what ``docs/make_pictures.py`` draws from the code today.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import re
import shlex
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import tyro

from conftest import EXAMPLES, example

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", ROOT / "examples" / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
LOG = ROOT / "docs" / "experiments.md"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", flags=re.S | re.M)
OTHER_TOOLS = {"pip", "cd", "tensorboard", "git", "mkdocs", "ray", "bash", "pytest", "venv"}
"""Commands (or ``python -m`` modules) that are not ours to parse: installing (CI runs the install), the tests
themselves, moving about, other tools."""


def blocks(language: str) -> list[tuple[Path, int, str]]:
    found = []
    for page in PAGES:
        text = page.read_text()
        for match in FENCE.finditer(text):
            if match.group(1) == language:
                found.append((page, text.count("\n", 0, match.start()) + 1, match.group(2)))
    return found


def shown_outputs() -> dict[tuple[Path, int], str]:
    """What a page shows a Python block to print: a ``text`` block right after it, or after one paragraph that
    starts "It prints" (by the block's page and line)."""
    found = {}
    for page in PAGES:
        text = page.read_text()
        fences = list(FENCE.finditer(text))
        for code, shown in zip(fences, fences[1:]):
            between = text[code.end():shown.start()].strip()
            if (code.group(1), shown.group(1)) == ("python", "text") and (
                    not between or between.startswith("It prints") and "\n\n" not in between):
                found[page, text.count("\n", 0, code.start()) + 1] = shown.group(2)
    return found


def commands(code: str) -> list[str]:
    """The commands of a shell block: continuation lines joined, comments dropped, ``&&`` chains split."""
    joined = re.sub(r"\\\n\s*", " ", code)
    found = []
    for line in joined.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        found += [part.strip() for part in line.split("&&") if part.strip()]
    return found


def block_id(block: tuple[Path, int, str]) -> str:
    return f"{block[0].relative_to(ROOT)}:{block[1]}"


def is_ours(command: str) -> bool:
    words = shlex.split(command)
    return not (Path(words[0]).name in OTHER_TOOLS or words[1:2] == ["-m"] and words[2] in OTHER_TOOLS)


PYTHON = blocks("python")
SHOWN = shown_outputs()
SHELL = [(page, line, command) for page, line, code in blocks("bash") for command in commands(code)]
OURS = [c for c in SHELL if c[0] != LOG and is_ours(c[2])]


def test_the_docs_have_examples():
    assert len(PYTHON) >= 10 and len(OURS) >= 20
    assert {page.name for page, _, _ in PYTHON} >= {"README.md", "environment.md", "gymnasium.md", "vector.md"}


@pytest.mark.parametrize("block", PYTHON, ids=block_id)
def test_python_example_runs(block, capsys):
    page, line, code = block
    with warnings.catch_warnings():  # an example that flips illegally fails, not just warns
        warnings.filterwarnings("error", message=".*illegal action ends the episode")
        exec(compile("\n" * (line) + code, str(page), "exec"), {})
    out = capsys.readouterr().out
    assert out.strip(), "an example should show its result"
    if (page, line) in SHOWN:  # the page shows what it prints: it prints that today (trailing spaces aside)
        assert _without_plugged_in_games(out) == SHOWN[page, line].strip("\n").splitlines()


def _without_plugged_in_games(out: str) -> list[str]:
    """The lines of ``out``, less those that start with the title of a game of tests/plugins/: the test session
    plugs them in (conftest.py), the reader's install does not have them."""
    from goldrush_env.games import specs

    titles = tuple(f"{game.title}:" for game in specs() if not game.rules.startswith("goldrush_env."))
    return [row.rstrip() for row in out.strip("\n").splitlines() if not (titles and row.startswith(titles))]


def test_the_pages_show_what_their_examples_print():
    """The pages that show an example's output, each example with the defaults it depends on."""
    shown = {(page.name, line) for page, line in SHOWN}
    assert {name for name, _ in shown} >= {"environment.md", "gymnasium.md", "vector.md", "index.md"}
    assert len(shown) >= 6


class Parsed(BaseException):
    """Raised in place of running a program once its arguments are parsed (a BaseException, so that no
    program's own error handling can take it for a failure)."""


def _stop_after_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    parse_args, cli = argparse.ArgumentParser.parse_args, tyro.cli

    def parse_then_stop(self, args=None, namespace=None):
        parse_args(self, args, namespace)
        raise Parsed

    def cli_then_stop(*args, **kwargs):
        cli(*args, **kwargs)
        raise Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    monkeypatch.setattr(tyro, "cli", cli_then_stop)


def _program(words: list[str]) -> tuple[object, list[str]] | None:
    """The ``main(argv)`` a command runs and its arguments; None for a command that is not ours."""
    if re.fullmatch(r"(\.venv/bin/)?goldrush", words[0]):
        from goldrush_agents.cli import main

        return main, words[1:]
    if re.fullmatch(r"(\.venv/bin/)?python3?", words[0]):
        if words[1] == "-m":
            module = importlib.import_module(words[2] if words[2] != "goldrush_env" else "goldrush_env.__main__")
            return module.main, words[3:]
        path = ROOT / words[1]
        assert path.is_file(), f"no script {words[1]}"
        if path.resolve().parent == EXAMPLES:  # with examples/ on sys.path, where its scripts find each other
            return example(path.stem).main, words[2:]
        spec = importlib.util.spec_from_file_location(f"_docs_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.main, words[2:]
    return None


@pytest.mark.parametrize("command", OURS, ids=lambda c: f"{block_id(c)} {c[2][:60]}")
def test_shell_command_parses(command, monkeypatch):
    page, line, text = command
    words = shlex.split(text)
    program = _program(words)
    assert program is not None, f"{page.name}:{line}: a command the docs test does not know: {text!r}"
    main, argv = program
    _stop_after_parsing(monkeypatch)
    with pytest.raises(Parsed):
        main(argv)


def moved_modules() -> dict[str, str]:
    """The log's table of the modules that moved after its older commands were run: the name as run, the name
    today (a module, or the script of ``examples/`` that a module left the package for)."""
    return dict(re.findall(r"^\| `(goldrush_\w+(?:\.\w+)*)` \| `(goldrush_\w+(?:\.\w+)*|examples/\w+\.py)` \|$",
                           LOG.read_text(), flags=re.M))


def test_the_experiments_log_names_programs_that_exist():
    """The log's commands stay as they were run: a module that moved since is found under the name its table of
    moves gives it today."""
    moved = moved_modules()
    assert len(moved) >= 20
    for old, new in moved.items():
        assert importlib.util.find_spec(old) is None, (old, new)
        assert (ROOT / new).is_file() if new.endswith(".py") else importlib.util.find_spec(new) is not None, (old, new)
    names = set()
    for _, _, text in (c for c in SHELL if c[0] == LOG):
        names.update(re.findall(r"python -m (goldrush_\w+(?:\.\w+)*)", text))
        names.update(re.findall(r"\b((?:benchmarks|docs|examples|experiments)/[\w/-]*\w\.py)", text))
    assert len(names) >= 5
    for name in names:
        if name.endswith(".py"):
            assert (ROOT / name).is_file(), name
        else:
            assert importlib.util.find_spec(moved.get(name, name)) is not None, name


def test_the_pictures_are_what_the_code_draws():
    result = subprocess.run([sys.executable, str(ROOT / "docs" / "make_pictures.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_docs_test_catches_a_wrong_option(monkeypatch):
    """The parse check is not vacuous: a misspelt option fails it."""
    main, argv = _program(shlex.split("goldrush tournament --agnets random,greedy"))
    _stop_after_parsing(monkeypatch)
    with pytest.raises(SystemExit):
        main(argv)


def test_the_ids_carry_the_last_version_of_each_history():
    """An id's version changes with the environment's *Version History* (docs/versions.md)."""
    from goldrush_env.gold import aec, gym_env

    for module, env_id in ((aec, "goldrush_env/gold-v1"), (gym_env, "Gold-v1")):
        history = module.__doc__.split("## Version History", 1)[1]
        versions = [int(v) for v in re.findall(r"^\* v(\d+):", history, flags=re.M)]
        assert versions and int(env_id.rsplit("-v", 1)[1]) == max(versions), (module.__name__, env_id)


def test_the_readmes_commands_run_from_the_venv_as_written():
    """After the README's install, a command runs as written only through ``.venv/bin/`` (nothing is activated):
    every command of its shell blocks, and every command it quotes inline, starts so or makes the venv."""
    readme = ROOT / "README.md"
    found = [command for page, _, code in blocks("bash") if page == readme for command in commands(code)]
    prose = FENCE.sub("", readme.read_text())
    found += [quoted for quoted in re.findall(r"`((?:python3?|goldrush|pip|\.venv/bin/)[^`\n]*)`", prose)
              if " " in quoted]
    assert len(found) >= 10  # the README is short (test_the_readme_stays_short): a handful of commands
    bare = [command for command in found if not command.startswith((".venv/bin/", "python3 -m venv .venv"))]
    assert bare == []


def test_the_readme_stays_short():
    """The README is a newcomer's first page (issue 57): what it is, install, two quick starts, a few results and
    links. What grows past it belongs on the site."""
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines <= 150, f"README.md has {lines} lines; move the rest to docs/"
