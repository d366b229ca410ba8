"""The games a server holds, of every game it serves, counted against its :class:`~goldrush_agents.web.limits.Limits`
before any work is done for a new one, and kept in its :class:`~goldrush_agents.web.database.Database` as each is
answered, so that a restarted server holds them again (:meth:`Store.restore`)."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Callable

from goldrush_env.errors import excerpt

from goldrush_agents.web.database import Database
from goldrush_agents.web.game import Plan, Session, WebGame
from goldrush_agents.web.inputs import AgentSpec, WebError
from goldrush_agents.web.limits import Limits


class Store:
    """The games held, of every game served, keyed by random ids: those in play, counted against the limits, and
    those ended, kept a short while for their state and record. Each game is written to ``database`` before its
    answer is sent."""

    def __init__(self, limits: Limits, clock: Callable[[], float], database: Database | None = None) -> None:
        self.limits = limits
        self.clock = clock
        self.database = Database() if database is None else database
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
            self.database.drop(key)
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

    def admit(self, session: Session, plan: Plan) -> None:
        """Hold and keep a game made by ``plan`` after :meth:`reserve`."""
        self.release(session.client)
        self.database.add(session, plan)
        with self._lock:
            session.last_used = self.clock()
            self.live[session.id] = session
        self.settle(session)

    def settle(self, session: Session) -> None:
        """Keep a game as it is about to be answered; one that has just ended leaves the count of games in play."""
        if session.env is None:
            return
        if not session.finished:
            self.database.save(session)
            return
        winners = session.game.result().winners
        session.end(self.clock())
        self.database.finish(session, winners)
        with self._lock:
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
        self.database.drop(game_id)

    def is_closing(self) -> bool:
        return self.closing

    def restore(self, games: dict[str, WebGame]) -> list[str]:
        """Hold again what the database kept of a server that stopped: every game in play, rebuilt from its seed,
        its agents' specs and its actions, and the finished games still within ``ended_seconds`` of their end.
        A game in play gets what was left of its idle time. Returns what could not be rebuilt (a game no longer
        installed, a model file gone, rules that refuse a kept action), each in a line; those stay in the
        database, for a server that can."""
        problems = []
        now, limits = self.clock(), self.limits
        for row in self.database.in_play():
            if row["idle"] > limits.idle_seconds:
                self.database.drop(row["id"])
                continue
            try:
                session = _rebuilt(games, row)
            except Exception as error:  # noqa: BLE001 - said, and the game kept for a server that can
                problems.append(f"game {row['id']} of {row['game']!r} could not be rebuilt: {error}")
                continue
            session.last_used = now - row["idle"]
            self.live[session.id] = session
            if session.finished:  # its end was not written (the write failed, and its answer with it)
                self.settle(session)
        for row in self.database.ended(limits.ended_seconds, limits.max_games):
            if row["game"] not in games:
                continue
            plan = _plan(row)
            self.ended[row["id"]] = Session(
                row["id"], row["client"], games[row["game"]], None, plan.names, {}, row["seed"],
                row["plan"]["seed_given"], dict(plan.options), plan.searches, seat=plan.seat, person=row["person"],
                final=row["final"], ended_at=now - row["age"], player=row["player"])
        return problems


def _plan(row: dict) -> Plan:
    kept = row["plan"]
    players = [None if p is None else AgentSpec(*p) for p in kept["players"]]
    return Plan(players, row["seed"] if kept["seed_given"] else None, kept["options"], seat=kept["seat"],
                person=row["person"], name=row["player"])


def _rebuilt(games: dict[str, WebGame], row: dict) -> Session:
    """A kept game in play, as it was last answered: dealt again, its agents remade, its actions replayed."""
    if row["game"] not in games:
        raise WebError(f"this server has no game {row['game']!r}")
    session = games[row["game"]].deal(_plan(row), row["id"], row["client"], row["seed"])
    for action in row["actions"]:
        session.play(action)
    return session


__all__ = ["Store"]
