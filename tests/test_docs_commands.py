"""Every path a docs command names exists today.

A command in a ``bash`` block of README.md, examples/README.md or a page in ``docs/``, or quoted inline in the
experiments log, names scripts, modules and files of this repository; each must exist, so that the command runs
as written (a module must be found by ``importlib.util.find_spec``). What a command creates is not looked for: anything
under ``runs/`` (every script's run folder), the value of an output option (``--run-dir``, ``--out``,
``--save`` ...), the target of a ``>`` redirection. Nor is a path at another commit (git's ``REV:PATH``).
The commands are not run here (a training run takes minutes to hours); tests/test_docs.py parses the
arguments of the pages' commands, except the log's.
"""

from __future__ import annotations

import glob
import importlib.util
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "examples" / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
LOG = ROOT / "docs" / "experiments.md"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", flags=re.DOTALL | re.MULTILINE)
INLINE = re.compile(r"`((?:python3? |goldrush |\.venv/bin/|git )[^`\n]*)`")
"""A command quoted inline in prose: it starts with a program of ours, or git."""

SEPARATORS = {";", "&&", "||", "|", "&"}
OUTPUT_OPTIONS = {"--run-dir", "--data-dir", "--out", "--output", "--save", "--site-dir", "-d", "-o"}
"""Options whose value a command writes, not reads."""
CREATED = ("runs/", ".venv/", "site/", "/", "~", "$", "http://", "https://")
"""Beginnings of a word that is not a path of the repository: the run folders and the virtualenv a command
makes, the built site, absolute paths, variables and addresses."""
MODULE = re.compile(r"goldrush_(?:env|agents|train)(?:\.\w+)*")
PATH = re.compile(r"(?:\./)?([\w.-]+)(?:/[\w.*{},-]*)+")
FOLDERS = {entry.name for entry in ROOT.iterdir() if entry.is_dir()}
"""A word is taken for a path when it starts with one of the repository's folders or ends in a file's
extension; ``--pairs taught/greedy`` names two players, not a file."""
REVISION_PATH = re.compile(r"\b[0-9a-f]{7,40}:\S+")
"""``git show 584ea76:agents/models/ppo_2p.npz``: a file as it was at a commit."""


def shell_commands(text: str) -> list[str]:
    """The commands of a shell block: continuation lines joined, one entry a line."""
    return [line.strip() for line in re.sub(r"\\\n\s*", " ", text).splitlines() if line.strip()]


def documented_commands() -> list[tuple[str, str]]:
    """(where, command) for every command of the pages' bash blocks and every command the log quotes inline."""
    found = []
    for page in PAGES:
        text = page.read_text()
        for match in FENCE.finditer(text):
            if match.group(1) == "bash":
                where = f"{page.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}"
                found += [(where, command) for command in shell_commands(match.group(2))]
    text = LOG.read_text()
    prose = FENCE.sub(lambda match: "\n" * match.group(0).count("\n"), text)
    for match in INLINE.finditer(prose):
        where = f"{LOG.relative_to(ROOT)}:{prose.count(chr(10), 0, match.start()) + 1} (inline)"
        found.append((where, match.group(1)))
    return found


def named_paths(command: str) -> tuple[list[str], list[str]]:
    """The repository paths and the modules a command reads, as written."""
    lexer = shlex.shlex(REVISION_PATH.sub("", command), posix=True, punctuation_chars=";&|<>")
    lexer.whitespace_split = True
    words = list(lexer)
    paths: list[str] = []
    modules: list[str] = []
    skip_next = False
    for previous, word in zip([None] + words, words):
        if skip_next or word in SEPARATORS or word in {"<", ">", ">>"}:
            skip_next = word in {">", ">>"} or word in OUTPUT_OPTIONS
            continue
        skip_next = word in OUTPUT_OPTIONS
        if previous == "-m" and MODULE.fullmatch(word):
            modules.append(word)
            continue
        if word.startswith("-") and "=" in word:
            option, word = word.split("=", 1)
            if option in OUTPUT_OPTIONS:
                continue
        # an agent spec such as "runs/x.npz[choose=move],greedy" or "goldrush_agents.gold.ensemble:Ensemble[...]"
        for piece in re.split(r"[\[\]+=:'\"()]|,(?![^{]*\})", word):
            path = PATH.fullmatch(piece)
            if MODULE.fullmatch(piece) and "." in piece:
                modules.append(piece)
            elif (path and not piece.startswith(CREATED)
                  and (path.group(1) in FOLDERS or re.search(r"\.\w+$", piece))):
                paths.append(piece)
    return paths, modules


def _expand_braces(path: str) -> list[str]:
    match = re.search(r"\{([^{}]*)\}", path)
    if match is None:
        return [path]
    return [expanded for choice in match.group(1).split(",")
            for expanded in _expand_braces(path[:match.start()] + choice + path[match.end():])]


def missing(command: str) -> list[str]:
    """What a command names that does not exist: each repository path no file or folder answers (a pattern
    that matches none), each module that cannot be found."""
    paths, modules = named_paths(command)
    absent = [path for path in paths
              if not all(glob.glob(str(ROOT / expanded)) for expanded in _expand_braces(path))]
    return absent + [module for module in modules if importlib.util.find_spec(module) is None]


COMMANDS = documented_commands()


def test_the_docs_have_commands_to_check():
    assert len(COMMANDS) >= 150
    inline = [command for where, command in COMMANDS if where.endswith("(inline)")]
    assert len(inline) >= 10
    named = [named_paths(command) for _, command in COMMANDS]
    assert sum(len(paths) for paths, _ in named) >= 50 and sum(len(modules) for _, modules in named) >= 50


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: f"{c[0]} {c[1][:60]}")
def test_a_docs_command_names_only_what_exists(command):
    where, text = command
    assert missing(text) == [], f"{where}: {text!r} names what does not exist"


def test_the_check_finds_a_missing_script_module_or_file():
    assert missing("python benchmarks/no_such_bench.py --games 3") == ["benchmarks/no_such_bench.py"]
    assert missing("python -m goldrush_train.gold.no_such --seed 0") == ["goldrush_train.gold.no_such"]
    assert missing("goldrush tournament --agents agents/models/ppo_2p.npz,greedy") == ["agents/models/ppo_2p.npz"]
    assert missing('goldrush tournament --agents "goldrush_agents.gold.nothing:Player[x=1]",greedy') == [
        "goldrush_agents.gold.nothing"]
    assert missing("python -m goldrush_train.evaluate docs/img/none-{a,b}.png") == ["docs/img/none-{a,b}.png"]


def test_the_check_passes_what_exists_or_what_the_command_writes():
    assert missing("python benchmarks/ladder.py --players 2 --games 10") == []
    assert missing("python -m goldrush_train.gold.scratch --seed 1 --run-dir runs/scratch-s1") == []
    assert missing("python -m goldrush_train.evaluate runs/x/model.npz --agents random --out docs/new.json") == []
    assert missing("goldrush play --save docs/new-game.json && python benchmarks/bench.py > docs/bench.txt") == []
    assert missing("git show 584ea76:agents/models/ppo_2p.npz > runs/old.npz") == []
    assert missing("python -m goldrush_train.gold.curves out.png 'a=runs/s0,runs/s1' --data-dir=docs/new") == []
    assert named_paths("python -m goldrush_train.evaluate agents/gold/models/taught_2p.npz[choose=move],greedy") == (
        ["agents/gold/models/taught_2p.npz"], ["goldrush_train.evaluate"])
