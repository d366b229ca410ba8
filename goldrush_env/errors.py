"""The errors the package raises. All are ``ValueError`` subclasses."""

from __future__ import annotations

from typing import Any


class GoldrushEnvError(ValueError):
    """Base class of goldrush-env's errors, whichever game raises them: a bad argument or an illegal action, refused
    before any state changed."""


class LayoutError(GoldrushEnvError):
    """A table layout that the box cannot produce, or a card code that does not exist."""


class IllegalFlipError(GoldrushEnvError):
    """A flip that the rules do not allow now (or the game has already ended)."""


class UnknownOptionError(GoldrushEnvError, TypeError):
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


_RENAMED = {"GoldRushError": "GoldrushEnvError"}
"""Names this module no longer has, and the names that replace them."""


def __getattr__(name: str) -> Any:
    if name in _RENAMED:  # an import of an old name says what to use, rather than only that it is missing
        raise ImportError(f"goldrush_env.errors.{name} is now {_RENAMED[name]} (Gold Rush is the name of one of the "
                          f"games, and the base error is every game's): see the changelog")
    raise AttributeError(f"module 'goldrush_env.errors' has no attribute {name!r}")
