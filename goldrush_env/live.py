"""The readable game of an environment that plays on a compiled one: made when read, and kept up to date.

Gold's and Gold Rush's environments step a compiled form of their game (a kernel's records). The readable engine's
game, the home of records, events, views and renders, is made only when someone reads it, and brought up to date at
each later read, so that a caller holding it sees the game go on (:class:`LiveGame`).
"""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["LiveGame", "Source"]


class Source(Protocol):
    """What a :class:`LiveGame` is made from: the compiled game's start and what has happened since."""

    def readable(self) -> Any:
        """The readable game at the start of what the source has recorded."""

    def catch_up(self, game: Any, seen: Any) -> Any:
        """Bring ``game`` up to date from ``seen`` (what it has been given so far, None at first) and return what it
        has been given now."""


class LiveGame:
    """The readable game of a :class:`Source`, made when first read and brought up to date at each later read. It
    answers everything the readable game does, and an attribute set on it is set on that game; a change made
    through it does not reach the compiled game (the environments say how to hand one over)."""

    __slots__ = ("_source", "_game", "_seen")

    def __init__(self, source: Source, game: Any = None, seen: Any = None) -> None:
        object.__setattr__(self, "_game", game)  # None: made when first read
        self.follow(source, seen)

    def follow(self, source: Source, seen: Any = None) -> None:
        """Read ``source`` from now on, where the game made so far (if any) has been given ``seen`` of it."""
        object.__setattr__(self, "_source", source)
        object.__setattr__(self, "_seen", seen)

    @property
    def seen(self) -> Any:
        """What the game made so far has been given of its source."""
        return self._seen

    def current(self) -> Any:
        """The readable game, up to date."""
        game = self._game
        if game is None:
            game = self._source.readable()
            object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_seen", self._source.catch_up(game, self._seen))
        return game

    @property
    def made(self) -> bool:
        """Whether the readable game has been made."""
        return self._game is not None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in LiveGame.__slots__:  # copy's and pickle's hooks; slots not yet set
            raise AttributeError(name)
        return getattr(self.current(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.current(), name, value)

    def __getstate__(self) -> tuple[Any, Any, Any]:
        return self._source, self._game, self._seen

    def __setstate__(self, state: tuple[Any, Any, Any]) -> None:
        for name, value in zip(LiveGame.__slots__, state):
            object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        return self.current() == (other.current() if isinstance(other, LiveGame) else other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.current())

    def __str__(self) -> str:
        return str(self.current())
