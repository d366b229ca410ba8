"""One install line everywhere.

The package is not on PyPI: it installs from a clone of the repository, ``pip install -e .``, and an extra as
``pip install -e ".[train]"`` (PyTorch first, ``pip install torch==...``). The READMEs, the pages of docs/ and
the code's messages (its errors say what to install) all write it so, name only extras that pyproject.toml
defines, and the home page's table of extras lists each of them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from goldrush_env.errors import install_line

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])
PAGES = [ROOT / "README.md", ROOT / "examples" / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
CODE = sorted(path for folder in ("goldrush_env", "agents", "train", "examples", "benchmarks", "docs")
              for path in (ROOT / folder).rglob("*.py"))
PIP = re.compile(r"""pip install ((?:-e )?(?:"[^"]*"|'[^']*'|[^\s"'`]+))""")
OURS = re.compile(r'-e "\.\[([^\]"]*)\]"')


def wrong_lines(text: str) -> list[str]:
    """The ``pip install`` lines of ``text`` that install this package or its extras in another form, or name an
    extra pyproject.toml does not define. Other packages (``pip install mutmut``, a plug-in's folder) are not
    ours to check."""
    wrong = []
    for argument in PIP.findall(text.replace('\\"', '"').replace("\\'", "'")):
        extras = OURS.fullmatch(argument)
        if extras:  # (a placeholder, in install_line's f-string, is checked where the code names the extras)
            unknown = [name for name in extras.group(1).split(",")
                       if name not in EXTRAS and not re.fullmatch(r"\{\w+\}", name)]
            if unknown:
                wrong.append(f"pip install {argument}: no extra {', '.join(unknown)} in pyproject.toml")
        elif argument == "-e ." or re.fullmatch(r"torch==[\d.]+", argument):
            continue
        elif "goldrush" in argument or "[" in argument or argument.lstrip("-e '\"").startswith("."):
            wrong.append(f'pip install {argument}: not the one form, pip install -e ".[EXTRA]"')
    return wrong


def named_extras(path: Path) -> list[str]:
    """The extras ``path``'s code names in calls: ``install_line("train")`` and ``command(..., extra="train")``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            values = [node.args[0]] if name == "install_line" and node.args else []
            values += [keyword.value for keyword in node.keywords if name == "command" and keyword.arg == "extra"]
            found += [value.value for value in values if isinstance(value, ast.Constant)]
    return found


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=relative)
def test_the_pages_install_with_the_one_line(page):
    assert wrong_lines(page.read_text()) == []


@pytest.mark.parametrize("path", [path for path in CODE if "pip install" in path.read_text()
                                  or "install_line" in path.read_text()], ids=relative)
def test_the_code_says_the_one_line(path):
    """Its docstrings and messages, and the extras its messages name through install_line."""
    assert wrong_lines(path.read_text()) == []
    assert [extra for extras in named_extras(path) for extra in extras.split(",") if extra not in EXTRAS] == []


def test_the_message_line_is_the_docs_line():
    assert install_line("train,tianshou") == 'pip install -e ".[train,tianshou]" in the repository\'s folder'
    assert wrong_lines(install_line("web")) == []


def test_the_lines_are_found_and_checked():
    """Not vacuous: the pages hold the lines, and a wrong form or extra is caught."""
    assert sum(len(PIP.findall(page.read_text())) for page in PAGES) >= 8
    assert {"train", "web"} <= {extra for path in CODE for extras in named_extras(path) for extra in extras.split(",")}
    assert wrong_lines('''pip install "goldrush-env[web]" and pip install -e .[train] and pip install -e '.[fast]'
                       and `pip install -e ".[gpu]"` and pip install -e ".[train]" and pip install mutmut''') == [
        'pip install "goldrush-env[web]": not the one form, pip install -e ".[EXTRA]"',
        'pip install -e .[train]: not the one form, pip install -e ".[EXTRA]"',
        "pip install -e '.[fast]': not the one form, pip install -e \".[EXTRA]\"",
        'pip install -e ".[gpu]": no extra gpu in pyproject.toml']


def test_the_home_page_lists_every_extra():
    """docs/index.md's table of extras: one row per extra of pyproject.toml, each with what it adds and what
    needs it."""
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|$", (ROOT / "docs" / "index.md").read_text(), flags=re.M)
    assert sorted(name for name, _, _ in rows) == sorted(EXTRAS)
    assert all(adds.strip() and used.strip() for _, adds, used in rows)
