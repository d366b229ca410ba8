"""What one request, one client and the whole server may cost: the limits of ``goldrush serve``, in one place.

:class:`Limits` holds every bound with its default; ``create_app(**limits)`` and ``goldrush serve`` override them
by name. docs/web.md lists them for users.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from goldrush_env.checks import check_int, check_number
from goldrush_env.errors import GoldrushEnvError

MAX_SEED = 2**63 - 1
"""The largest seed a request may give (the seeds of :mod:`numpy.random` take any int; the bound keeps them small)."""
SERVER_SEEDS = 2**53
"""A seed the server chooses is below this: the largest range a browser's numbers hold exactly, and far too many
seeds to try one by one against the flips seen (a seed deals the whole table, so a guessed seed is a leaked deal;
the server's choice is sent only once its game has ended)."""


@dataclass(frozen=True)
class Limits:
    """The bounds of a server. Each is checked before any work is done for the request it refuses."""

    max_games: int = 1000
    """Games in play at once, from all clients (a finished game no longer counts)."""
    max_games_per_client: int = 50
    """Games in play at once from one client address."""
    idle_seconds: float = 1800
    """A game in play that no request has touched for this long (30 minutes) is dropped."""
    ended_seconds: float = 300
    """A finished game is kept this long (5 minutes) after its last flip, for its state and its record, then
    dropped; at most ``max_games`` finished games are kept, the oldest dropped first."""
    move_seconds: float = 1.0
    """The time budget of a search player's move (``ismcts[seconds=...]``): a request may ask for less, not
    more. Every search the server runs has one."""
    max_iterations: int = 10_000
    """The most simulations a search player (``ismcts[iterations=...]``) may be given a move."""
    max_turns: int = 1000
    """The largest turn limit (``max_turns``) of a game or a replayed record."""
    max_body_bytes: int = 65_536
    """The largest request body (a record of a whole game is a few kilobytes)."""
    max_depth: int = 8
    """How deeply a request's JSON may nest (a record nests two levels)."""
    max_text: int = 400
    """The longest agent list or name a request may give, in characters."""
    search_workers: int = 2
    """Threads that move games with a search player; more such requests wait their turn."""
    quick_workers: int = 4
    """Threads that move games of the quick players (everything but the searches)."""
    max_waiting: int = 64
    """Requests that may wait for a thread of either kind; beyond them a request is refused (503)."""

    def __post_init__(self) -> None:
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            if item.type == "int":
                check_int(f"limit {item.name}", value, 1)
            else:
                check_number(f"limit {item.name}", value, above=0, what="a finite number of seconds")

    @classmethod
    def of(cls, **overrides: object) -> "Limits":
        """The defaults with ``overrides`` by name; an unknown name is refused with the names there are."""
        names = [item.name for item in dataclasses.fields(cls)]
        unknown = sorted(set(overrides) - set(names))
        if unknown:
            raise GoldrushEnvError(f"unknown limit {unknown[0]!r}: the limits are {names}")
        return cls(**overrides)


__all__ = ["Limits", "MAX_SEED", "SERVER_SEEDS"]
