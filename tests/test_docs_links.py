"""Every link of the READMEs (the repository's, examples/'s) and the pages of docs/ leads somewhere, where the
pages are read.

They are read in two places: on the repository, where GitHub shows the Markdown as written, and on the built
site. So every relative link names a file that exists; every ``#anchor`` is an id of its target on the site and
on GitHub; no page leans on what only the site renders (a ``[text][ref]`` cross-reference, which GitHub prints
with its brackets); and the reference that docs/gen_reference.py writes into the pages is today's docstrings.

A page's ids are found by rendering it with Python-Markdown and the extensions of mkdocs.yml, as mkdocs does, and
reading the HTML: the ``toc`` extension slugs a heading's *rendered* text (code spans, links and emphasis gone)
and numbers a repeated one (``_1``), which ``slugify`` on the heading as written would miss, and ``attr_list``
adds the ``{#id}`` anchors. That takes a second, needs no site build, and covers README.md, which the site
does not hold. GitHub slugs a heading in its own way (each space a hyphen, no folding to ASCII), so a heading's
anchor must be both (one that ``{#id}`` gives is the site's alone). An API page (docs/api/, mkdocstrings ``:::`` directives) has as anchors the objects its
directives document. The strict site build (``mkdocs build --strict``, with mkdocs.yml's ``validation``) checks
the built pages' anchors again, the ids mkdocstrings makes included.
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
import unicodedata
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

markdown = pytest.importorskip("markdown")
yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", ROOT / "examples" / "README.md"] + sorted(DOCS.rglob("*.md"))
DIRECTIVE = re.compile(r"^::: ([\w.]+)\n((?:[ \t]+.*\n)*)", flags=re.M)
TAG = re.compile(r"<(a|img)\b([^>]*)>")
ATTRIBUTE = re.compile(r'\b(href|src|id)="([^"]*)"')


def extensions() -> tuple[list, dict]:
    """mkdocs.yml's Markdown extensions and their options, as mkdocs hands them to Python-Markdown."""
    names, configs = [], {}
    for entry in yaml.safe_load((ROOT / "mkdocs.yml").read_text())["markdown_extensions"]:
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
        names.append(name)
        if options:
            configs[name] = dict(options)
    configs.get("toc", {}).pop("permalink", None)  # the heading's own link adds nothing to check
    if "pymdownx.snippets" in configs:  # paths as mkdocs runs: from the repository's root
        configs["pymdownx.snippets"]["base_path"] = [str(ROOT / path) for path in configs["pymdownx.snippets"]
                                                     .get("base_path", ["."])]
    return names, configs


@functools.lru_cache(maxsize=None)
def rendered(page: Path) -> tuple[str, tuple[tuple[str, str], ...]]:
    """``page`` as the site's HTML, and its headings (id, rendered text), in order."""
    names, configs = extensions()
    renderer = markdown.Markdown(extensions=names, extension_configs=configs)
    html = renderer.convert(page.read_text())

    def headings(tokens):
        for token in tokens:
            yield token["id"], token["name"]
            yield from headings(token["children"])

    return html, tuple(headings(renderer.toc_tokens))


def github_slug(text: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation gone, each space a hyphen."""
    text = unicodedata.normalize("NFC", text.lower())
    return "".join("-" if char == " " else char for char in text if char in " -_" or char.isalnum())


def github_ids(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for _, heading in rendered(page)[1]:
        slug = github_slug(heading)
        found.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return found


def slugged_ids(page: Path) -> set[str]:
    """The ids the ``toc`` extension made from a heading's text (not those a ``{#id}`` gives, the site's alone)."""
    from markdown.extensions.toc import slugify

    return {id for id, heading in rendered(page)[1] if re.sub(r"_\d+$", "", id) == slugify(heading, "-")}


def site_ids(page: Path) -> set[str]:
    return {value for name, value in ATTRIBUTE.findall(rendered(page)[0]) if name == "id"}


def documented(anchor: str, page: Path) -> bool:
    """Whether ``anchor`` of an API page is an object that one of its ``:::`` directives documents: the
    directive's object, or one of its public members (of those its ``members:`` option lists, if it does)."""
    for match in DIRECTIVE.finditer(page.read_text()):
        root, options = match.group(1), match.group(2)
        if anchor != root and not anchor.startswith(root + "."):
            continue
        rest = anchor[len(root) + 1:].split(".") if anchor != root else []
        listed = re.search(r"members: \[(.*)\]", options)
        if rest and listed and rest[0] not in [name.strip() for name in listed.group(1).split(",")]:
            continue
        if any(part.startswith("_") for part in rest):
            continue
        try:
            found = importlib.import_module(root)
            for part in rest:
                found = getattr(found, part)
        except (ImportError, AttributeError):
            continue
        return True
    return False


def links(page: Path) -> list[str]:
    """The targets of ``page``'s links and pictures (Markdown's and HTML's), as the site's HTML has them."""
    html = rendered(page)[0]
    return [unquote(value) for _, attributes in TAG.findall(html)
            for name, value in ATTRIBUTE.findall(attributes) if name in ("href", "src")]


def dead_ends(page: Path) -> list[str]:
    """What is wrong with ``page``'s relative links and anchors, one line each; [] when nothing is."""
    problems = []
    for target in links(page):
        parts = urlsplit(target)
        if parts.scheme or parts.netloc:
            continue  # another site: not ours to check here
        path = (page.parent / parts.path).resolve() if parts.path else page
        if not path.exists():
            problems.append(f"{target}: no file {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
            continue
        anchor = parts.fragment
        if not anchor or path.suffix != ".md":
            if anchor:
                problems.append(f"{target}: an anchor into a file that is not a page")
            continue
        if path.parent.name == "api":
            if not documented(anchor, path):
                problems.append(f"{target}: no object {anchor!r} documented on {path.name}")
        elif anchor not in site_ids(path):
            problems.append(f"{target}: no anchor #{anchor} on {path.name} (the site's ids: "
                            f"{sorted(site_ids(path))})")
        elif anchor in slugged_ids(path) and anchor not in github_ids(path):
            problems.append(f"{target}: #{anchor} is the site's anchor, but GitHub's differs (the heading's "
                            f"GitHub slugs: {sorted(github_ids(path))})")
    return problems


def unrendered(page: Path) -> list[str]:
    """What ``page`` shows as written on GitHub but means only for the site: ``[text][ref]`` with no ``[ref]:``
    definition (autorefs' cross-reference) and mkdocstrings' ``:::`` directives."""
    html = rendered(page)[0]
    text = re.sub(r"<code>.*?</code>", "code", re.sub(r"<pre\b.*?</pre>", "", html, flags=re.S), flags=re.S)
    found = [f"[{label}][{ref}]" for label, ref in re.findall(r"\[([^\]<>\n]+)\]\[([\w.]+)\]", text)]
    found += [f"::: {name}" for name in re.findall(r"^<p>::: ([\w.]+)", html, flags=re.M)]
    return found


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_link_and_anchor_leads_somewhere(page):
    assert dead_ends(page) == []


@pytest.mark.parametrize("page", [page for page in PAGES if page.parent != DOCS / "api"], ids=page_id)
def test_a_page_shows_as_text_where_it_is_read(page):
    """GitHub renders the Markdown, not mkdocstrings: a page outside the API reference links its objects with
    plain links (to the API pages) and carries its tables as text (docs/gen_reference.py)."""
    assert unrendered(page) == []


def test_the_generated_reference_is_todays_docstrings():
    """The environments' reference in their pages is what docs/gen_reference.py writes from today's docstrings
    (run it after editing one)."""
    sys.path.insert(0, str(DOCS))
    try:
        gen_reference = importlib.import_module("gen_reference")
    finally:
        sys.path.remove(str(DOCS))
    pages = gen_reference.generated_pages()
    assert {page.name for page in pages} >= {"environment.md", "piecepack.md"}
    stale = [page.name for page in pages if gen_reference.generated(page) != page.read_text()]
    assert stale == [], "run: python docs/gen_reference.py"


def test_the_checker_finds_dead_links_and_anchors(tmp_path):
    """Not vacuous: a made-up page with a dead file, a dead anchor, a heading's anchor that only the site has, a
    missing API object and a cross-reference is refused for each, and its good links pass."""
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "engine.md").write_text("# Engine\n\n::: goldrush_env.errors\n")
    (tmp_path / "other.md").write_text("# Other\n\n## Spaces - and rewards\n\n## Setup\n\n## Setup\n\n"
                                       "## Start {#begin}\n")
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n## Here\n\n"
                    "[good](other.md#other) [first](other.md#setup) [attr](other.md#begin) [self](#here) "
                    "[api](api/engine.md#goldrush_env.errors.GoldrushEnvError)\n\n"
                    "[gone](nowhere.md) [dead](other.md#no-such-heading) [site only](other.md#spaces-and-rewards) "
                    "[repeated](other.md#setup_1) [no object](api/engine.md#goldrush_env.errors.NoSuchError) "
                    "[text][goldrush_env.errors]\n\n"
                    "`[code][not.a.link]`\n")
    problems = dead_ends(page)
    assert [problem.split(":", 1)[0] for problem in problems] == [
        "nowhere.md", "other.md#no-such-heading", "other.md#spaces-and-rewards", "other.md#setup_1",
        "api/engine.md#goldrush_env.errors.NoSuchError"]
    assert "GitHub's differs" in problems[2] and "GitHub's differs" in problems[3]
    assert unrendered(page) == ["[text][goldrush_env.errors]"]
