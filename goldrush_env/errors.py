"""The errors the package raises. All are ``ValueError`` subclasses."""


class GoldRushError(ValueError):
    """Base class: a bad argument or an illegal action, refused before any state changed."""


class LayoutError(GoldRushError):
    """A table layout that the box cannot produce, or a card code that does not exist."""


class IllegalFlipError(GoldRushError):
    """A flip that the rules do not allow now (or the game has already ended)."""


class UnknownOptionError(GoldRushError, TypeError):
    """An environment option that does not exist. Also a ``TypeError`` worded as Python words an unexpected
    keyword argument, as libraries that probe an environment's constructor with optional keywords expect."""
