"""How modules lean on each other: Gold's environment modules import each other without a cycle (a lazy import
inside a function counts: it is a cycle all the same), and the rules side of the Gold players (the public model of
the rules, what a seat knows, the exact solver's kernel) imports no player."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conftest import ROOT

GOLD = ROOT / "goldrush_env" / "gold"


def _skips_type_checking(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:`` (annotations only, never run)."""
    nodes, todo = [], [tree]
    while todo:
        node = todo.pop()
        nodes.append(node)
        for child in ast.iter_child_nodes(node):
            test = child.test if isinstance(child, ast.If) else None
            if test is not None and "TYPE_CHECKING" in ast.unparse(test):
                todo.extend(child.orelse)
                continue
            todo.append(child)
    return nodes


def imports_within(path: Path, package: str, folder: Path) -> set[str]:
    """The modules of ``package`` (whose files are in ``folder``) that ``path`` imports, anywhere in it."""
    found = set()
    for node in _skips_type_checking(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            if name.startswith(package + "."):
                module = name[len(package) + 1:].split(".")[0]
                if (folder / f"{module}.py").is_file():
                    found.add(module)
    return found


def cycle(folder: Path, package: str, skip: frozenset[str] = frozenset()) -> list[str] | None:
    """A cycle of imports among the modules of ``folder`` (its ``__init__`` and ``skip`` aside), or None."""
    graph = {path.stem: imports_within(path, package, folder) - {path.stem} - skip
             for path in sorted(folder.glob("*.py")) if path.stem != "__init__" and path.stem not in skip}
    state: dict[str, str] = {}

    def visit(module: str, trail: list[str]) -> list[str] | None:
        state[module] = "open"
        for other in sorted(graph[module]):
            if state.get(other) == "open":
                return trail[trail.index(other):] + [module, other] if other in trail else [module, other]
            if other not in state:
                found = visit(other, trail + [module])
                if found:
                    return found
        state[module] = "done"
        return None

    for module in graph:
        if module not in state:
            found = visit(module, [])
            if found:
                return found
    return None


def test_golds_modules_import_each_other_without_a_cycle():
    assert cycle(GOLD, "goldrush_env.gold") is None


def test_the_cycle_check_sees_a_lazy_cycle(tmp_path):
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "a.py").write_text("from pkg.b import x\n")
    (folder / "b.py").write_text("def f():\n    from pkg import a\n")
    (folder / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import y\n")
    assert cycle(folder, "pkg") in (["a", "b", "a"], ["b", "a", "b"])
    (folder / "b.py").write_text("from pkg.c import z\n")
    assert cycle(folder, "pkg") is None  # an import for annotations only is no cycle


RULES_SIDE = ["turns", "knowledge", "_solve_numba"]
"""The players' package's rules in the public state's form (turns is their home, which the others read)."""


@pytest.mark.parametrize("module", RULES_SIDE)
def test_the_rules_side_of_the_players_imports_no_player(module):
    """What these modules need of the game comes from goldrush_env and from each other; the players build on them,
    never the reverse."""
    tree = ast.parse((ROOT / "agents" / "gold" / f"{module}.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    rules_side = {f"goldrush_agents.gold.{name}" for name in RULES_SIDE}
    assert not {name for name in imported if name.split(".")[0] == "goldrush_agents" and name not in rules_side}
