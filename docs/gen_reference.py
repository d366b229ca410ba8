"""Write the environments' reference (their module docstrings) into the pages that show it, as Markdown.

A page is read in two places: on the repository, where GitHub shows its Markdown as written, and on the built
site. A mkdocstrings directive (``::: goldrush_env.gold.aec``) would fill the site's page with the docstring's
tables but prints as that one line on GitHub, so the pages carry the docstring's text itself, between two
comments::

    <!-- generated from goldrush_env.gold.aec by docs/gen_reference.py: edit the docstring, then run it -->
    ...
    <!-- end of generated text -->

The docstring stays the one source (tests check its index tables against the encoders' slices); this script
copies it, its headings one level down (its ``#`` title becomes a section of the page) and its Sphinx roles
(``:class:`goldrush_env.gold.config.EnvConfig```) made plain links to the API reference page that documents the
object. ``tests/test_docs_links.py`` fails when a page differs from what this script writes.

    python docs/gen_reference.py          # rewrite the pages
    python docs/gen_reference.py --check  # list the stale pages, exit status 1 if there are any
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
BLOCK = re.compile(r"(?P<begin><!-- generated from (?P<module>[\w.]+) by docs/gen_reference\.py: edit the docstring, "
                   r"then run it -->\n)(?P<text>.*?)(?P<end>^<!-- end of generated text -->$)", flags=re.S | re.M)
ROLE = re.compile(r":(?:class|mod|func|meth|attr|data|exc|obj):`(~?)([\w.]+)(\(\))?`")
DIRECTIVE = re.compile(r"^::: ([\w.]+)$", flags=re.M)
FENCE = re.compile(r"^(```|~~~)")
PACKAGES = ("goldrush_env", "goldrush_agents", "goldrush_train")


def api_pages() -> dict[str, str]:
    """Each object path that a ``:::`` directive of ``docs/api/`` renders, and its page (relative to docs/)."""
    return {name: page.relative_to(DOCS).as_posix() for page in sorted((DOCS / "api").glob("*.md"))
            for name in DIRECTIVE.findall(page.read_text())}


def object_path(module: str, name: str) -> str:
    """The documented path of a role's ``name`` in ``module``'s docstring: a dotted name of one of the packages as
    written, a short name as the module sees it (where it is documented under the module, as an imported name of
    the module is by a directive listing its ``members``)."""
    if name.split(".", 1)[0] in PACKAGES:
        return name
    head = name.split(".", 1)[0]
    if not hasattr(importlib.import_module(module), head):
        raise SystemExit(f"{module}'s docstring names {name!r}, which the module does not hold")
    return f"{module}.{name}"


def link(path: str, pages: dict[str, str], page: Path) -> str:
    """The link from ``page`` to the API page that documents ``path`` (its directive is the longest prefix)."""
    owners = [name for name in pages if path == name or path.startswith(name + ".")]
    if not owners:
        raise SystemExit(f"no page of docs/api/ documents {path!r} (a ::: directive of it or of a module above it)")
    target = DOCS / pages[max(owners, key=len)]
    relative = Path(*[".."] * len(page.parent.relative_to(DOCS).parts), target.relative_to(DOCS))
    return f"{relative.as_posix()}#{path}"


def markdown(module: str, page: Path, pages: dict[str, str]) -> str:
    """``module``'s docstring as the Markdown of ``page``."""
    doc = importlib.import_module(module).__doc__
    if not doc:
        raise SystemExit(f"{module} has no docstring to write into {page.name}")
    lines, fenced = [], False
    for line in inspect.cleandoc(doc).splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            line = "#" + line  # the page has its own title: the docstring's becomes a section
        lines.append(line)

    def role(match: re.Match[str]) -> str:
        tilde, name, call = match.groups()
        shown = (name.rsplit(".", 1)[-1] if tilde else name) + (call or "")
        return f"[`{shown}`]({link(object_path(module, name), pages, page)})"

    return ROLE.sub(role, "\n".join(lines)).strip() + "\n"


def generated(page: Path, pages: dict[str, str] | None = None) -> str:
    """``page``'s text with every generated part written afresh."""
    pages = api_pages() if pages is None else pages
    return BLOCK.sub(lambda m: m["begin"] + "\n" + markdown(m["module"], page, pages) + "\n" + m["end"],
                     page.read_text())


def generated_pages() -> list[Path]:
    """The pages of docs/ that hold a generated part."""
    return [page for page in sorted(DOCS.rglob("*.md")) if BLOCK.search(page.read_text())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page is not up to date")
    args = parser.parse_args(argv)
    pages, stale = api_pages(), []
    for page in generated_pages():
        text = generated(page, pages)
        if text != page.read_text():
            stale.append(page)
            if not args.check:
                page.write_text(text)
    for page in stale:
        print(f"{page.relative_to(DOCS.parent)} {'is out of date' if args.check else 'written'}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
