"""What ``goldrush serve`` keeps so that a restart loses no game: an SQLite file (Python's own :mod:`sqlite3`) of
the games in play, the finished games' records, the results of people against agents and the ratings they make
(:mod:`goldrush_agents.web.ratings`).

A game in play is kept as what rebuilds it: its plan (the players' specs, the person's seat and view options,
the environment's options), its seed and every action taken. A restarted server deals the seed again, remakes the
agents from their specs and replays the actions (:meth:`~goldrush_agents.web.game.WebGame.deal`), so each game
goes on from its last answered move. A finished game keeps its last state and its record, as the API gave them.
The file holds what no client may see (seeds the server chose, the cards nobody has turned): no route serves it,
and a new file is readable by its owner only.

Every write is a transaction committed before the request's answer is sent. The file is in WAL mode with
``synchronous=NORMAL``: a committed answer survives the server being killed (SIGKILL), though not necessarily
the machine losing power. The schema has a version (``PRAGMA user_version``); an older file is upgraded when
opened, one step of :data:`MIGRATIONS` at a time, and a newer one is refused.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from goldrush_env.errors import GoldrushEnvError

from goldrush_agents.web import ratings
from goldrush_agents.web.game import Plan, Session

MEMORY = ":memory:"
"""The store of a server that keeps nothing once it stops (``create_app``'s default, for tests)."""
IN_PLAY, ENDED, DELETED = "play", "ended", "deleted"
"""A kept game's status: in play, finished (its record kept), or finished and deleted by a client (its record and
results kept, no longer served)."""


def default_path() -> Path:
    """Where ``goldrush serve`` keeps its games unless told (``--store``): ``goldrush/server.sqlite3`` in the user's
    data folder, ``$XDG_DATA_HOME`` or else ``~/.local/share``."""
    base = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative value is ignored
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "goldrush" / "server.sqlite3"


# --- the schema, one step per version ---------------------------------------------------------------------


def _games(db: sqlite3.Connection) -> None:
    """Version 1: the games, in play and finished."""
    db.execute("""CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,          -- the registry's name of the game
        client TEXT NOT NULL,        -- the address that made it
        status TEXT NOT NULL,        -- 'play', 'ended' or 'deleted'
        plan TEXT NOT NULL,          -- JSON: players (each null or [name, spec, searches]), seat, options, seed_given
        seed INTEGER NOT NULL,
        actions TEXT NOT NULL,       -- JSON: every action taken, in order
        person TEXT NOT NULL,        -- JSON: the person's view options and what the game keeps of them
        created REAL NOT NULL,       -- wall-clock seconds
        touched REAL NOT NULL,       -- its last answered request
        ended REAL,
        final TEXT                   -- JSON: the last state and the record, once the game has ended
    )""")
    db.execute("CREATE INDEX games_by_status ON games (status, ended)")


def _ratings(db: sqlite3.Connection) -> None:
    """Version 2: the person's name, the results of people against agents, and the ratings."""
    db.execute("ALTER TABLE games ADD COLUMN player TEXT")
    db.execute("""CREATE TABLE results (
        game_id TEXT NOT NULL,
        game TEXT NOT NULL,
        players INTEGER NOT NULL,
        seat INTEGER NOT NULL,       -- an agent's seat
        agent TEXT NOT NULL,
        person TEXT NOT NULL,        -- the person's name, '' when it gave none
        score REAL NOT NULL,         -- the person's against that seat: 1, 0.5 or 0
        at REAL NOT NULL
    )""")
    db.execute("""CREATE TABLE ratings (
        game TEXT NOT NULL,
        players INTEGER NOT NULL,
        side TEXT NOT NULL,          -- 'agent' or 'person'
        name TEXT NOT NULL,          -- a person's name, '' for the anonymous ones
        rating REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (game, players, side, name)
    )""")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_games, _ratings)
"""``MIGRATIONS[v]`` upgrades a store of version ``v`` to ``v + 1`` (version 0: a new, empty file)."""
SCHEMA_VERSION = len(MIGRATIONS)


def version_of(db: sqlite3.Connection) -> int:
    return db.execute("PRAGMA user_version").fetchone()[0]


def migrate(db: sqlite3.Connection, where: str, to: int = SCHEMA_VERSION) -> int:
    """Upgrade the store ``db`` (at ``where``, for the errors) to version ``to``, a transaction a step; the version
    it had. A store newer than this code, or a database that is not a store, is refused."""
    version = version_of(db)
    if version > SCHEMA_VERSION:
        raise GoldrushEnvError(f"the store {where} has schema version {version}, newer than this goldrush-env knows "
                               f"(up to {SCHEMA_VERSION}): run a newer goldrush serve on it, or give another --store")
    if version == 0 and db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise GoldrushEnvError(f"{where} is an SQLite database but not a store of goldrush serve (it has tables and "
                               "no schema version): give another --store")
    for step in range(version, to):
        with _transaction(db):
            MIGRATIONS[step](db)
            db.execute(f"PRAGMA user_version = {step + 1}")
    return version


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


# --- the store -----------------------------------------------------------------------------------------------


class Database:
    """The store of a server: one connection, one writer at a time (a lock), each write a transaction.

    ``path``: the SQLite file (made, with its folder, if missing), or :data:`MEMORY`. The times it keeps are the
    wall clock's (:func:`time.time`), which outlives a server, not the server's own clock."""

    def __init__(self, path: str | os.PathLike = MEMORY) -> None:
        self.path = str(path)
        self.in_file = self.path != MEMORY
        new = self.in_file and not os.path.exists(self.path)
        try:
            if self.in_file:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            if new:
                os.chmod(self.path, 0o600)  # seeds and hidden cards: its owner's only
            if self.in_file:
                self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.execute("PRAGMA busy_timeout = 10000")
            self.upgraded_from = migrate(self.db, self.path)
        except (sqlite3.Error, OSError) as error:
            raise GoldrushEnvError(f"the store {self.path} cannot be used: {error}") from None
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        with self._lock, _transaction(self.db):
            yield self.db

    def _reading(self, sql: str, *args: Any) -> list[tuple]:
        with self._lock:
            return self.db.execute(sql, args).fetchall()

    # --- games -----------------------------------------------------------------------------------------

    def add(self, session: Session, plan: Plan) -> None:
        """Keep a new game, made by ``plan`` (before its first answer)."""
        kept = {"players": [None if p is None else [p.name, p.spec, p.searches] for p in plan.players],
                "seat": plan.seat, "options": plan.options, "seed_given": session.seed_given}
        now = time.time()
        with self._writing() as db:
            db.execute("INSERT INTO games (id, game, client, status, plan, seed, actions, person, created, touched, "
                       "player) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (session.id, session.web.name, session.client, IN_PLAY, _json(kept), session.seed,
                        _json(session.actions), _json(session.person), now, now, session.player))

    def save(self, session: Session) -> None:
        """Keep a game in play as it is answered: its actions and the person's view."""
        with self._writing() as db:
            db.execute(f"UPDATE games SET actions = ?, person = ?, touched = ? WHERE id = ? AND status = '{IN_PLAY}'",
                       (_json(session.actions), _json(session.person), time.time(), session.id))

    def finish(self, session: Session, winners: Sequence[int]) -> None:
        """Keep a game that has just ended (:meth:`Session.end` done): its record and last state and, if a person
        played it, its results and the ratings they change; once, whoever calls it again."""
        now = time.time()
        with self._writing() as db:
            changed = db.execute(
                f"UPDATE games SET status = '{ENDED}', actions = ?, person = ?, touched = ?, ended = ?, final = ? "
                f"WHERE id = ? AND status = '{IN_PLAY}'",
                (_json(session.actions), _json(session.person), now, now, _json(session.final), session.id)).rowcount
            if changed and session.seat is not None:
                self._rate(db, session, winners, now)

    def _rate(self, db: sqlite3.Connection, session: Session, winners: Sequence[int], now: float) -> None:
        game, players, person = session.web.name, len(session.names), session.player or ""

        def rating(side: str, name: str) -> float:
            row = db.execute("SELECT rating FROM ratings WHERE game = ? AND players = ? AND side = ? AND name = ?",
                             (game, players, side, name)).fetchone()
            return ratings.START if row is None else row[0]

        seats = {s: (name, rating("agent", name)) for s, name in enumerate(session.names) if s != session.seat}
        mine, theirs = ratings.game_changes(rating("person", person), seats, session.seat, winners)
        for seat, (agent, _) in seats.items():
            db.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (session.id, game, players, seat, agent, person,
                        ratings.pair_score(session.seat, seat, winners), now))
        for side, name, delta in [("person", person, mine), *[("agent", a, d) for a, d in theirs.items()]]:
            db.execute("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (game, players, side, name) DO "
                       "UPDATE SET rating = rating + ?, games = games + 1",
                       (game, players, side, name, ratings.START + delta, delta))

    def drop(self, game_id: str) -> None:
        """Forget a game in play (deleted, or dropped after its idle time); a finished one keeps its record and
        results, and is no longer served."""
        with self._writing() as db:
            db.execute(f"DELETE FROM games WHERE id = ? AND status = '{IN_PLAY}'", (game_id,))
            db.execute(f"UPDATE games SET status = '{DELETED}' WHERE id = ? AND status = '{ENDED}'", (game_id,))

    def in_play(self) -> list[dict[str, Any]]:
        """Every game in play, oldest first: what rebuilds it, and ``idle``, the seconds since its last answer."""
        rows = self._reading(f"SELECT id, game, client, plan, seed, actions, person, player, touched FROM games "
                             f"WHERE status = '{IN_PLAY}' ORDER BY created")
        now = time.time()
        return [{"id": i, "game": game, "client": client, "plan": json.loads(plan), "seed": seed,
                 "actions": json.loads(actions), "person": json.loads(person), "player": player,
                 "idle": now - touched}
                for i, game, client, plan, seed, actions, person, player, touched in rows]

    def ended(self, within: float, most: int) -> list[dict[str, Any]]:
        """The ``most`` games that ended last, within the last ``within`` seconds, in the order they ended: their
        plan, last state and record, and ``age``, the seconds since they ended."""
        now = time.time()
        rows = self._reading(f"SELECT id, game, client, plan, seed, person, player, ended, final FROM games "
                             f"WHERE status = '{ENDED}' AND ended >= ? ORDER BY ended DESC LIMIT ?",
                             now - within, most)
        return [{"id": i, "game": game, "client": client, "plan": json.loads(plan), "seed": seed,
                 "person": json.loads(person), "player": player, "age": now - ended, "final": json.loads(final)}
                for i, game, client, plan, seed, person, player, ended, final in reversed(rows)]

    def counts(self) -> dict[str, int]:
        """How many games the store holds, by status."""
        return dict(self._reading("SELECT status, count(*) FROM games GROUP BY status"))

    # --- ratings -----------------------------------------------------------------------------------------

    def ratings(self) -> dict[str, Any]:
        """The ratings of agents against people, and of people, per game and number of players (best first), with
        the games behind each, and how they are computed (``GET /api/ratings``)."""
        rows = self._reading("SELECT game, players, side, name, rating, games FROM ratings "
                             "ORDER BY game, players, side, rating DESC, name")
        agents = [{"game": game, "players": players, "agent": name, "rating": round(rating, 1), "games": games}
                  for game, players, side, name, rating, games in rows if side == "agent"]
        people = [{"game": game, "players": players, "name": name or None, "rating": round(rating, 1),
                   "games": games} for game, players, side, name, rating, games in rows if side == "person"]
        return {"elo": {"k": ratings.K, "start": ratings.START,
                        "counted": "every finished game of a person against agents, as a result between the person "
                                   "and each agent's seat: a winner beats a seat that did not win, both or neither "
                                   "winning is a draw"},
                "agents": agents, "people": people}

    def close(self) -> None:
        with self._lock:
            self.db.close()


__all__ = ["Database", "MEMORY", "SCHEMA_VERSION", "MIGRATIONS", "migrate", "default_path", "version_of"]
