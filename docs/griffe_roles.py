"""A Griffe extension: the docstrings' reStructuredText roles become links of the documentation site.

The code's docstrings name other objects as Sphinx does (``:class:`~goldrush_env.gold.engine.Game```,
``:meth:`step```). MkDocs renders Markdown, where such a role would print as it is written; this
extension rewrites each role, before rendering, as a cross-reference ``[`Game`][goldrush_env.gold.engine.Game]``.
A name with a dot that starts with one of the packages is taken as written, so a reference to something
the site does not document fails the strict build. A short name is looked up where the docstring
stands (the class, then the module); if it is not found there, or is private, it stays code, unlinked.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|mod|func|meth|attr|data|exc|obj):`(~?)([\w.]+)(\(\))?`")
PACKAGES = ("goldrush_env", "goldrush_agents", "goldrush_train")


def _lookup(scope: griffe.Object, name: str) -> str | None:
    """The documented path of ``name`` as seen from ``scope`` and its parents, or None."""
    while scope is not None:
        try:
            found = scope[name]
        except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            scope = scope.parent
            continue
        if found.is_alias:
            try:
                return found.final_target.path
            except (griffe.AliasResolutionError, griffe.CyclicAliasError):
                return None
        return found.path
    return None


def _rewrite(obj: griffe.Object, text: str) -> str:
    def link(match: re.Match[str]) -> str:
        tilde, name, call = match.groups()
        shown = (name.rsplit(".", 1)[-1] if tilde else name) + (call or "")
        if name.split(".", 1)[0] in PACKAGES:
            target = name
        else:
            target = None if any(part.startswith("_") for part in name.split(".")) else _lookup(obj, name)
        return f"[`{shown}`][{target}]" if target else f"`{shown}`"

    return ROLE.sub(link, text)


def _objects(obj: griffe.Object):
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


class RstRoles(griffe.Extension):
    """Rewrites the roles of every docstring of a package once it is loaded."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            if obj.docstring is not None:
                obj.docstring.value = _rewrite(obj, obj.docstring.value)
