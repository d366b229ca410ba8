"""``goldrush serve``: Gold in the browser. Play against the agents, watch them play, replay a saved record.

:func:`create_app` builds a Starlette app: one page (``web_static/index.html``, plain HTML, CSS and
JavaScript, nothing fetched from elsewhere) and a small JSON API under ``/api``.

The server holds the truth. A game played by a person lives here, and what is sent to the page is the
person's seat's knowledge only: the cards it sees or remembers (with ``memory="real"``, only the cards
flipped since its last turn began, as ``goldrush play --memory-mode real``), never the hidden table and
never another seat's memory. Watched games and replays have no person at the table and show every card.

Each game has its own seeded generators (the deal and every agent come from its seed), its own lock, and
is dropped once no request has touched it for ``idle_seconds`` (30 minutes by default). Agents move in a
worker thread, so a slow search player does not stall the other games.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from goldrush_env.aec import raw_env
from goldrush_env.cards import IS_GOLD, MAX_PLAYERS, MIN_PLAYERS, NUM_POSITIONS, TABLES, VALUE, card_code
from goldrush_env.config import EnvConfig
from goldrush_env.engine import SERIAL_FORMAT, FlipEvent, Game, Outcome, colour_owners
from goldrush_env.errors import GoldRushError
from goldrush_env.render import parse_square, square_name
from goldrush_env.view import UNKNOWN

from goldrush_agents import AGENTS, make_agent, parse_spec, split_entrants
from goldrush_agents.cli import check_square, forget_all_but

IDLE_SECONDS = 1800
"""A game no request has touched for this long (30 minutes) is dropped."""
MAX_GAMES = 1000
"""At most this many games are held at once; a new one beyond it is refused until others end or idle out."""
WEB_AGENTS = (*AGENTS, "ppo", "scratch")
"""The opponents the page may ask for, each optionally with options in brackets (``ismcts[iterations=200]``).
A page cannot name a file or an import path (it should not make the server read files or import modules):
model files are offered by whoever starts the server, ``create_app(models=...)`` (``goldrush serve --model``)."""
MEMORY_MODES = ("perfect", "real")
COLOUR_NAMES = ("red", "blue", "purple", "orange", "grey")
"""The miner colours 0-4 as the page draws them (the colours of :mod:`goldrush_env.render`)."""
PERSON = "you"
STATIC = Path(__file__).parent / "web_static"


class WebError(GoldRushError):
    """A request refused: ``status`` is the HTTP status, the message says what was wrong and what is allowed."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


# --- reading requests --------------------------------------------------------------------


def _fields(body: Any, allowed: dict[str, Any]) -> dict[str, Any]:
    """The body's fields over the defaults of ``allowed``; an unknown field or a body that is not an object
    is refused."""
    if not isinstance(body, dict):
        raise WebError(f"the request body must be a JSON object, got {type(body).__name__}")
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise WebError(f"unknown field {unknown[0]!r}: the fields are {sorted(allowed)}")
    return {**allowed, **body}


def _int(name: str, value: Any, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        wanted = f"an int from {low} to {high}" if high is not None else f"an int >= {low}"
        raise WebError(f"{name} must be {wanted}, got {value!r}")
    return value


def _choice(name: str, value: Any, choices: tuple[str, ...] | list[str]) -> str:
    if value not in choices:
        raise WebError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value


def _seed(value: Any) -> int:
    """The seed asked for, or a fresh one (sent back in the state, so that the deal can be played again)."""
    return secrets.randbelow(10 ** 9) if value is None else _int("seed", value, 0)


def _names(name: str, value: Any, allowed: Sequence[str]) -> list[str]:
    """Agent specs from a comma-separated string or a list of strings, each one of ``allowed`` (the web agents,
    with options in brackets, and the model files the server offers)."""
    if isinstance(value, str):
        names = split_entrants(value)
    elif isinstance(value, list) and all(isinstance(item, str) for item in value):
        names = [item.strip() for item in value]
    else:
        raise WebError(f"{name} must be a string of agent names (comma-separated) or a list of them, got {value!r}")
    for spec in names:
        if spec in allowed:
            continue  # a model file the server offers, by its path as given
        agent, _ = parse_spec(spec)
        if agent not in WEB_AGENTS:
            raise WebError(f"unknown agent {agent!r} in {name}: expected one of {list(allowed)}, the agents "
                           "optionally with options in brackets, as in 'ismcts[iterations=200]'")
    return names  # make_agent refuses a bad option by name when the game is made


def _position(value: Any) -> int:
    """A position from 0 to 63, or a square name such as ``"c4"``."""
    if isinstance(value, str):
        try:
            return parse_square(value)
        except ValueError:
            raise WebError(f"position {value!r} is not a square: columns a-h, rows 1-8, e.g. 'c4'") from None
    return _int("position", value, 0, NUM_POSITIONS - 1)


async def _body(request: Request) -> Any:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as error:
        raise WebError(f"the request body is not valid JSON: {error}") from None


# --- what is sent to the page ------------------------------------------------------------


def _card_words(card: int) -> str:
    code = card_code(card)
    if IS_GOLD[card]:
        return f"gold {VALUE[card]}"
    if code == "D":
        return "dynamite"
    colour = COLOUR_NAMES[int(code[1])]
    return f"{'an' if colour[0] in 'aeiou' else 'a'} {colour} miner {code[2]}"


def event_json(event: FlipEvent, index: int, names: list[str], first_card: int | None) -> dict[str, Any]:
    """One flip as the page shows it: where, which card, what it did, who gained what, and a line of text."""
    who = names[event.player]
    gained = 0
    if event.outcome is Outcome.STRIKE:
        gained = VALUE[first_card if IS_GOLD[first_card] else event.card]
    elif event.outcome is Outcome.RUSH_GOLD:
        gained = VALUE[event.card]
    receiver = None if event.receiver is None else names[event.receiver]
    square = square_name(event.position)
    text = f"{who} flip{'' if who == PERSON else 's'} {_card_words(event.card)} at {square}"
    outcome = event.outcome
    if outcome is Outcome.STRIKE:
        text += f": strike! {receiver} gain{'' if receiver == PERSON else 's'} {gained} gold"
    elif outcome is Outcome.DUEL:
        weaker = first_card if event.partner in event.removed else event.card
        text += f": duel, the weaker miner ({_card_words(weaker)}) leaves the game"
    elif outcome is Outcome.DYNAMITE:
        text += ": dynamite! both cards leave the game"
    elif outcome is Outcome.NOTHING:
        text += ": nothing happens, both cards go back face down"
    elif outcome is Outcome.RUSH_GOLD:
        text += f": {receiver} take{'' if receiver == PERSON else 's'} {gained} gold"
    elif outcome is Outcome.RUSH_DISCARD:
        text += ": it leaves the game"
    if event.rush_begins:
        text += ". The Gold Rush begins!"
    return {
        "index": index, "turn": event.turn, "player": event.player, "name": who,
        "position": event.position, "square": square, "card": card_code(event.card),
        "outcome": outcome.value, "label": event.label, "receiver": event.receiver, "gained": gained,
        "removed": list(event.removed), "partner": event.partner, "rush_begins": event.rush_begins, "text": text,
    }


def events_json(game: Game, names: list[str], start: int = 0) -> list[dict[str, Any]]:
    """The game's flips from ``start`` on (they were all public when made)."""
    history = game.history
    return [event_json(history[i], i, names, history[i - 1].card if history[i].partner is not None else None)
            for i in range(start, len(history))]


def _standing(game: Game, names: list[str]) -> dict[str, Any]:
    """What everyone at the table knows: the standing, whose turn, the Gold Rush, the result."""
    return {
        "num_players": game.num_players, "names": names, "owners": list(colour_owners(game.num_players)),
        "scores": list(game.scores), "gold_cards": list(game.gold_cards),
        "current_player": None if game.is_finished else game.current_player,
        "face_up": game.face_up, "turn": game.turn, "max_turns": game.max_turns,
        "cards_left": game.cards_left, "gold_rush": game.gold_rush, "rush_at": game.rush_at,
        "finished": game.is_finished, "over": game.is_over, "truncated": game.is_truncated,
        "winners": list(game.winners),
    }


def open_state(game: Game, names: list[str]) -> dict[str, Any]:
    """The state with every card shown, for watched games and replays (no person is playing)."""
    return {**_standing(game, names), "cards": [card_code(card) for card in game.table],
            "legal": game.legal_positions()}


# --- games held by the server ------------------------------------------------------------


@dataclass
class Session:
    """One game on the server: a person against agents (``seat`` set), or agents only (``seat`` None)."""

    id: str
    env: raw_env
    names: list[str]
    agents: dict[int, Any]
    seed: int
    config: dict[str, Any]
    seat: int | None = None
    memory: str = "perfect"
    shown_from: int = 0
    """With ``memory="real"``: the first event the person may still see (the start of its last turn)."""
    last_used: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def game(self) -> Game:
        return self.env.game

    @property
    def kind(self) -> str:
        return "watch" if self.seat is None else "play"

    def state(self) -> dict[str, Any]:
        """What the page may know now: the person's knowledge in a played game, everything in a watched one."""
        game = self.game
        header = {"id": self.id, "mode": self.kind, "seed": self.seed, **self.config}
        if self.seat is None:
            return {**header, **open_state(game, self.names), "events": events_json(game, self.names)}
        view = self.env.view(self.seat)
        if self.memory == "real":
            recent = {event.position for event in game.history[self.shown_from:]} | {view.face_up}
            view = forget_all_but(view, recent)
        cards = ["?" if card == UNKNOWN else card_code(card) for card in view.cards]
        start = self.shown_from if self.memory == "real" else 0
        return {**header, **_standing(game, self.names), "seat": self.seat, "memory": self.memory,
                "cards": cards, "legal": view.legal_positions, "your_turn": view.current_player == self.seat,
                "events": events_json(game, self.names, start)}

    def advance(self, until_person: bool) -> None:
        """Let the agents flip: until the person's turn (or the end), or one flip in a watched game."""
        game = self.game
        while not game.is_finished and game.current_player != self.seat:
            seat = game.current_player
            self.env.step(self.agents[seat].act(self.env.view(seat)))
            if not until_person:
                return

    def record(self) -> dict[str, Any]:
        """The record ``goldrush play --save`` writes, which ``goldrush replay`` and the Replay tab read."""
        game = self.game
        return dict(game.to_dict(), players=self.names, seed=self.seed, config=self.env_config(),
                    events=[event.label for event in game.history])

    def env_config(self) -> dict[str, Any]:
        return {"memory": "perfect", "max_turns": self.config["max_turns"], "table": self.config["table"]}


class Store:
    """The games in play, keyed by random ids; a game idle for ``idle_seconds`` is dropped. ``agents``: what a
    request may name as a player."""

    def __init__(self, idle_seconds: float, clock: Callable[[], float], max_games: int,
                 agents: Sequence[str] = WEB_AGENTS) -> None:
        self.agents = tuple(agents)
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.max_games = max_games
        self.sessions: dict[str, Session] = {}
        self.lock = threading.Lock()

    def _prune(self) -> None:
        now = self.clock()
        for key in [key for key, s in self.sessions.items() if now - s.last_used > self.idle_seconds]:
            del self.sessions[key]

    def add(self, session: Session) -> None:
        with self.lock:
            self._prune()
            if len(self.sessions) >= self.max_games:
                raise WebError(f"the server holds {self.max_games} games, its limit: try again when some have "
                               f"ended (an idle game is dropped after {self.idle_seconds:g} seconds)", 503)
            session.last_used = self.clock()
            self.sessions[session.id] = session

    def get(self, game_id: str, kind: str | None = None) -> Session:
        """The game ``game_id`` (of ``kind``, "play" or "watch", if given), refused with 404 if there is none."""
        with self.lock:
            self._prune()
            session = self.sessions.get(game_id)
            if session is None or kind not in (None, session.kind):
                raise WebError(f"no {'watched ' if kind == 'watch' else ''}game {game_id!r} on this server: it has "
                               f"ended, was never made, or was dropped after {self.idle_seconds:g} seconds "
                               "without a request", 404)
            session.last_used = self.clock()
            return session

    def remove(self, game_id: str) -> None:
        with self.lock:
            self._prune()
            if self.sessions.pop(game_id, None) is None:
                raise WebError(f"no game {game_id!r} on this server", 404)


# --- the actions behind the routes (run in worker threads) -------------------------------

_DEFAULTS = EnvConfig()


def _game_options(fields: dict[str, Any]) -> dict[str, Any]:
    return {"table": _choice("table", fields["table"], list(TABLES)),
            "max_turns": _int("max_turns", fields["max_turns"], 1)}


def new_game(store: Store, body: Any) -> dict[str, Any]:
    """A person against agents: ``players`` (2-5), ``opponents`` (one spec for all, or one per opponent),
    ``seat``, ``memory`` (perfect or real), ``seed``, ``table``, ``max_turns``."""
    fields = _fields(body, {"players": 2, "opponents": "expert", "seat": 0, "memory": "perfect", "seed": None,
                            "table": _DEFAULTS.table, "max_turns": _DEFAULTS.max_turns})
    players = _int("players", fields["players"], MIN_PLAYERS, MAX_PLAYERS)
    seat = _int("seat", fields["seat"], 0, players - 1)
    memory = _choice("memory", fields["memory"], MEMORY_MODES)
    options = _game_options(fields)
    opponents = _names("opponents", fields["opponents"], store.agents)
    others = players - 1
    if len(opponents) == 1:
        opponents *= others
    elif len(opponents) != others:
        raise WebError(f"opponents needs one agent for all {others} opponents or one per opponent ({others}), "
                       f"got {len(opponents)}: {opponents}")
    seed = _seed(fields["seed"])
    names = opponents[:seat] + [PERSON] + opponents[seat:]
    session = _session(names, seed, options, seat=seat, memory=memory)
    session.advance(until_person=True)
    store.add(session)
    return {"id": session.id, "events": events_json(session.game, names), "state": session.state()}


def new_watch(store: Store, body: Any) -> dict[str, Any]:
    """A game between agents (``agents``: one spec per seat), advanced a flip at a time by :func:`step`."""
    fields = _fields(body, {"agents": None, "seed": None, "table": _DEFAULTS.table,
                            "max_turns": _DEFAULTS.max_turns})
    if fields["agents"] is None:
        raise WebError(f"agents is missing: one agent per seat ({MIN_PLAYERS} to {MAX_PLAYERS}), e.g. 'greedy,expert'")
    names = _names("agents", fields["agents"], store.agents)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise WebError(f"agents needs {MIN_PLAYERS} to {MAX_PLAYERS} agents (one per seat), got {len(names)}: {names}")
    options = _game_options(fields)
    session = _session(names, _seed(fields["seed"]), options)
    store.add(session)
    return {"id": session.id, "events": [], "state": session.state()}


def _session(names: list[str], seed: int, options: dict[str, Any], seat: int | None = None,
             memory: str = "perfect") -> Session:
    env = raw_env(num_players=len(names), **options)
    env.reset(seed=seed)
    if seat is None:  # seeded as goldrush watch seeds them (arena.play_game), so that a seed gives the same game
        agents = {s: make_agent(name) for s, name in enumerate(names)}
        for s, player_seed in enumerate(np.random.SeedSequence(seed).spawn(len(names))):
            agents[s].reset(seed=int(player_seed.generate_state(1)[0]))
    else:  # as goldrush play seeds them
        agents = {s: make_agent(name, seed=seed + s) for s, name in enumerate(names) if s != seat}
    return Session(secrets.token_urlsafe(12), env, names, agents, seed, options, seat=seat, memory=memory)


def flip(store: Store, game_id: str, body: Any) -> dict[str, Any]:
    """The person flips ``position``; the agents then play until it is the person's turn again."""
    session = store.get(game_id, "play")
    fields = _fields(body, {"position": None})
    if fields["position"] is None:
        raise WebError("position is missing: a square such as 'c4' or a position from 0 to 63")
    position = _position(fields["position"])
    with session.lock:
        game = session.game
        if game.is_finished:
            raise WebError("the game is over: start a new one", 409)
        view = session.env.view(session.seat)
        _, problem = check_square(square_name(position), view)
        if problem is not None:
            raise WebError(problem, 409)
        before = len(game.history)
        session.env.step(position)
        if game.face_up is None:  # the person's turn is over: real memory keeps it and what follows
            session.shown_from = len(game.history) - (1 if game.history[-1].partner is None else 2)
        session.advance(until_person=True)
        return {"id": session.id, "events": events_json(game, session.names, before), "state": session.state()}


def state(store: Store, game_id: str, kind: str) -> dict[str, Any]:
    """The page's state of a game, once its agents (if moving) are done."""
    session = store.get(game_id, kind)
    with session.lock:
        return {"id": session.id, "state": session.state()}


def step(store: Store, game_id: str) -> dict[str, Any]:
    """One flip of a watched game."""
    session = store.get(game_id, "watch")
    with session.lock:
        game = session.game
        if game.is_finished:
            raise WebError("the game is over: start a new one", 409)
        before = len(game.history)
        session.advance(until_person=False)
        return {"id": session.id, "events": events_json(game, session.names, before), "state": session.state()}


def record(store: Store, game_id: str) -> dict[str, Any]:
    """The record of a watched game, or of a played one once it has ended (before, it would give away the
    hidden table)."""
    session = store.get(game_id)
    with session.lock:
        if session.seat is not None and not session.game.is_finished:
            raise WebError("the record of a game is given once it has ended: it holds the whole deal", 409)
        return session.record()


def replay(body: Any) -> dict[str, Any]:
    """Every state of a recorded game (the JSON ``goldrush play --save`` writes), from the deal to its last flip,
    each recorded outcome checked."""
    if not isinstance(body, dict):
        raise WebError(f"a record is a JSON object, got {type(body).__name__}")
    if body.get("format") != SERIAL_FORMAT:
        raise WebError(f"not a record of a game of Gold: expected format {SERIAL_FORMAT!r}, got "
                       f"{body.get('format')!r} (records of the piecepack game replay with 'goldrush replay')")
    flips = body.get("flips")
    if not isinstance(flips, list):
        raise WebError(f"the record's flips must be a list of positions, got {flips!r}")
    data = {key: body[key] for key in ("format", "num_players", "first_player", "max_turns", "rush_at", "layout",
                                       "start") if key in body}
    game = Game.from_dict({**data, "flips": []})
    names = body.get("players")
    if not (isinstance(names, list) and len(names) == game.num_players and all(isinstance(n, str) for n in names)):
        names = [f"seat {s}" for s in range(game.num_players)]
    recorded = body.get("events")
    frames = [open_state(game, names)]
    for index, position in enumerate(flips):
        try:
            event = game.flip(position)
        except GoldRushError as error:
            raise WebError(f"flip #{index} of the record cannot be played: {error}") from None
        if isinstance(recorded, list) and index < len(recorded) and recorded[index] != event.label:
            raise WebError(f"flip #{index} replays as {event.label!r} but the record says {recorded[index]!r}")
        frames.append(open_state(game, names))
    return {"mode": "replay", "names": names, "num_players": game.num_players, "seed": body.get("seed"),
            "events": events_json(game, names), "frames": frames}


# --- the app -------------------------------------------------------------------------------


def create_app(idle_seconds: float = IDLE_SECONDS, *, models: Sequence[str] = (),
               clock: Callable[[], float] = time.monotonic, max_games: int = MAX_GAMES) -> Starlette:
    """The web app of ``goldrush serve``: the page at ``/`` and the JSON API under ``/api`` (docs/web.md).

    ``idle_seconds``: a game no request has touched for this long is dropped. ``models``: trained model files
    (``.npz``, ``.zip``) the page may name as players, by these paths, beside :data:`WEB_AGENTS`; each is loaded
    once here, so a file that cannot be played is refused before the server starts. ``clock`` (seconds) is there
    for tests; ``max_games`` bounds the games held at once.
    """
    for path in models:
        if not isinstance(path, str) or not path.endswith((".npz", ".zip")):
            raise GoldRushError(f"a model to offer is the path of a .npz or .zip file, got {path!r}")
        make_agent(path)
    store = Store(idle_seconds, clock, max_games, agents=(*WEB_AGENTS, *models))

    async def page(request: Request) -> HTMLResponse:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    async def agents(request: Request) -> JSONResponse:
        return JSONResponse({"agents": list(store.agents), "tables": list(TABLES), "memory": list(MEMORY_MODES),
                             "idle_seconds": store.idle_seconds})

    async def create_game(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(new_game, store, await _body(request)))

    async def get_game(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(state, store, request.path_params["game_id"], "play"))

    async def flip_card(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(flip, store, request.path_params["game_id"],
                                                    await _body(request)))

    async def game_record(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(record, store, request.path_params["game_id"]))

    async def delete_game(request: Request) -> JSONResponse:
        store.remove(request.path_params["game_id"])
        return JSONResponse({"deleted": request.path_params["game_id"]})

    async def create_watch(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(new_watch, store, await _body(request)))

    async def get_watch(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(state, store, request.path_params["game_id"], "watch"))

    async def step_watch(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(step, store, request.path_params["game_id"]))

    async def replay_record(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(replay, await _body(request)))

    async def refused(request: Request, error: Exception) -> JSONResponse:
        status = error.status if isinstance(error, WebError) else 400
        return JSONResponse({"error": str(error)}, status_code=status)

    async def failed(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"error": f"the server failed: {type(error).__name__}: {error}"}, status_code=500)

    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        detail = error.detail
        if error.status_code == 404:
            detail = f"no such page or API route: {request.method} {request.url.path}"
        elif error.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
        return JSONResponse({"error": detail}, status_code=error.status_code)

    routes = [
        Route("/", page),
        Route("/api/agents", agents),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game, methods=["GET"]),
        Route("/api/games/{game_id}", delete_game, methods=["DELETE"]),
        Route("/api/games/{game_id}/flip", flip_card, methods=["POST"]),
        Route("/api/games/{game_id}/record", game_record, methods=["GET"]),
        Route("/api/watch", create_watch, methods=["POST"]),
        Route("/api/watch/{game_id}", get_watch, methods=["GET"]),
        Route("/api/watch/{game_id}/step", step_watch, methods=["POST"]),
        Route("/api/replay", replay_record, methods=["POST"]),
    ]
    app = Starlette(routes=routes, exception_handlers={GoldRushError: refused, HTTPException: http_error,
                                                          Exception: failed})
    app.state.store = store
    return app


__all__ = ["create_app", "IDLE_SECONDS", "MAX_GAMES", "WEB_AGENTS", "WebError", "event_json", "open_state"]
