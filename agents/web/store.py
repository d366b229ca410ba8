"""The games a server holds, of every game it serves, counted against its :class:`~goldrush_agents.web.limits.Limits`
before any work is done for a new one."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Callable

from goldrush_env.errors import excerpt

from goldrush_agents.web.game import Session
from goldrush_agents.web.inputs import WebError
from goldrush_agents.web.limits import Limits


class Store:
    """The games held, of every game served, keyed by random ids: those in play, counted against the limits, and
    those ended, kept a short while for their state and record."""

    def __init__(self, limits: Limits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = clock
        self.live: dict[str, Session] = {}
        self.ended: dict[str, Session] = {}
        """In the order they ended (the oldest is dropped first)."""
        self.starting: Counter[str] = Counter()
        """Per client: games being made now (counted against the caps while their agents move)."""
        self.closing = False
        self._lock = threading.Lock()

    def _prune(self) -> None:
        now, limits = self.clock(), self.limits
        for key in [key for key, s in self.live.items() if now - s.last_used > limits.idle_seconds]:
            del self.live[key]
        for key in [key for key, s in self.ended.items() if now - s.ended_at > limits.ended_seconds]:
            del self.ended[key]
        for key in list(self.ended)[:max(0, len(self.ended) - limits.max_games)]:
            del self.ended[key]

    def reserve(self, client: str) -> None:
        """Count a game about to be made for ``client``, or refuse it (503 when the server is full, 429 when the
        client has its share), before any work is done for it. :meth:`admit` or :meth:`release` follows."""
        limits = self.limits
        with self._lock:
            self._prune()
            if self.closing:
                raise WebError("the server is shutting down", 503)
            if len(self.live) + sum(self.starting.values()) >= limits.max_games:
                raise WebError(f"the server has {limits.max_games} games in play, its limit: try again in a minute "
                               f"(a game leaves the count when it ends, is deleted, or has no request for "
                               f"{limits.idle_seconds:g} seconds)", 503, retry_after=60)
            mine = sum(1 for s in self.live.values() if s.client == client) + self.starting[client]
            if mine >= limits.max_games_per_client:
                raise WebError(f"you have {mine} games in play on this server, the most one client may have: finish "
                               f"or delete one (DELETE /api/GAME/games/ID), or wait until one has had no request for "
                               f"{limits.idle_seconds:g} seconds", 429, retry_after=60)
            self.starting[client] += 1

    def release(self, client: str) -> None:
        with self._lock:
            self.starting[client] -= 1
            if not self.starting[client]:
                del self.starting[client]

    def admit(self, session: Session) -> None:
        """Hold a game made after :meth:`reserve`."""
        self.release(session.client)
        with self._lock:
            session.last_used = self.clock()
            self.live[session.id] = session
        self.settle(session)

    def settle(self, session: Session) -> None:
        """Move a game that has just ended out of the count of games in play."""
        if session.env is None or not session.finished:
            return
        with self._lock:
            session.end(self.clock())
            if self.live.pop(session.id, None) is not None:
                self.ended[session.id] = session
            self._prune()

    def get(self, game_id: str, game: str, kind: str | None = None) -> Session:
        """The game ``game_id`` of ``game`` (and of ``kind``, "play" or "watch", if given), refused with 404 if
        there is none."""
        with self._lock:
            self._prune()
            session = self.live.get(game_id) or self.ended.get(game_id)
            if session is None or kind not in (None, session.kind) or session.web.name != game:
                raise WebError(f"no {'watched ' if kind == 'watch' else ''}game {excerpt(game_id, 40)} on this "
                               f"server: it was never made, was deleted, or was dropped ({self._dropped})", 404)
            session.last_used = self.clock()
            return session

    @property
    def _dropped(self) -> str:
        limits = self.limits
        return (f"a game in play after {limits.idle_seconds:g} seconds without a request, a finished one "
                f"{limits.ended_seconds:g} seconds after its end")

    def remove(self, game_id: str, game: str) -> None:
        with self._lock:
            self._prune()
            session = self.live.get(game_id) or self.ended.get(game_id)
            if session is None or session.web.name != game:
                raise WebError(f"no game {excerpt(game_id, 40)} of {game!r} on this server", 404)
            self.live.pop(game_id, None)
            self.ended.pop(game_id, None)

    def is_closing(self) -> bool:
        return self.closing


__all__ = ["Store"]
