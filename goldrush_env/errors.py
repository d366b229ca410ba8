"""The errors the package raises. All are ``ValueError`` subclasses."""

from __future__ import annotations

from typing import Any


class GoldRushError(ValueError):
    """Base class: a bad argument or an illegal action, refused before any state changed."""


class LayoutError(GoldRushError):
    """A table layout that the box cannot produce, or a card code that does not exist."""


class IllegalFlipError(GoldRushError):
    """A flip that the rules do not allow now (or the game has already ended)."""


class UnknownOptionError(GoldRushError, TypeError):
    """An environment option that does not exist. Also a ``TypeError`` worded as Python words an unexpected
    keyword argument, as libraries that probe an environment's constructor with optional keywords expect."""


def install_line(extras: str) -> str:
    """How to install the optional dependencies ``extras`` (names of pyproject.toml's extras, such as ``"web"`` or
    ``"train,tianshou"``), as an error message says it: the line the docs give, which installs from a clone of
    the repository (the package is not on PyPI)."""
    return f'pip install -e ".[{extras}]" in the repository\'s folder'


def excerpt(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters with its length named: what an error message quotes of a
    value that may be long (a request to a server may send megabytes, and the answer should not echo them)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f"{len(value):,} characters" if isinstance(value, str) else f"{len(text):,} characters as text"
    return f"{text[:limit]}... ({size})"
