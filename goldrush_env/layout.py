"""Flat vectors with named parts, for every game's encoders: a layout is a sequence of ``(name, shape, meaning)``
entries in order; :func:`slices_of` gives each its slice, :func:`markdown_table` the index table the docs show."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Layout = Sequence[tuple[str, tuple[int, ...], str]]


def slices_of(layout: Layout) -> dict[str, slice]:
    """Each named entry's slice of a flat vector laid out as ``layout``, ``(name, shape, meaning)`` in order."""
    slices, offset = {}, 0
    for name, shape, _ in layout:
        size = int(np.prod(shape))
        slices[name] = slice(offset, offset + size)
        offset += size
    return slices


def markdown_table(layout: Layout, slices: dict[str, slice]) -> str:
    """A vector's layout (``(name, shape, meaning)`` entries at ``slices``) as a Markdown index table."""
    rows = [(f"{slices[name].start}-{slices[name].stop - 1}", f"`{name}`", "x".join(map(str, shape)), meaning)
            for name, shape, meaning in layout]
    lines = ["| Index | Name | Shape | Meaning |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


__all__ = ["Layout", "slices_of", "markdown_table"]
