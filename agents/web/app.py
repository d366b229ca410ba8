"""The Starlette app of ``goldrush serve``, built by looping over the registry of games: the index page, each
game's page, and one JSON API with the same routes for every game under ``/api/<game>/``.

Requests are read and checked in the event loop (:mod:`goldrush_agents.web.inputs`), counted against the limits
(:class:`~goldrush_agents.web.store.Store`), and only then do agents move, in worker threads: games with a search
player on a few threads of their own, the rest on others, so a crowd of searches cannot hold up a quick game.
One request per game runs at a time; the others for that game wait without holding a thread. Each game is written
to the server's store (:mod:`goldrush_agents.web.database`) before its answer is sent, so a restarted server goes on
with every game.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Sequence, TextIO

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from goldrush_env.errors import GoldrushEnvError, excerpt
from goldrush_env.games import specs

from goldrush_agents import make_agent, players_of
from goldrush_agents.web import inputs
from goldrush_agents.web.database import MEMORY, Database
from goldrush_agents.web.game import STATIC, Plan, Session, WebGame
from goldrush_agents.web.inputs import WebError
from goldrush_agents.web.limits import Limits
from goldrush_agents.web.store import Store
SECURITY_HEADERS = [
    # Scripts and styles come only from the server's own files: text a record smuggles into the page cannot run.
    (b"content-security-policy", b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 b"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class Workers:
    """Threads that move agents, with a bound on the requests that may wait for them."""

    def __init__(self, threads: int, waiting: int, name: str) -> None:
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix=name)
        self.bound = threads + waiting
        self.busy = 0

    async def run(self, work: Callable[..., Any], *args: Any) -> Any:
        if self.busy >= self.bound:
            raise WebError(f"the server is busy: {self.busy} requests are moving agents or waiting to; try again in "
                           "a few seconds", 503, retry_after=5)
        self.busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, work, *args)
        finally:
            self.busy -= 1


def web_parts(models: Sequence[str] = ()) -> dict[str, WebGame]:
    """Every game of the registry as the server plays it: its players package's web part (the module ``web``, whose
    ``WEB`` is a :class:`~goldrush_agents.web.game.WebGame`), or else the plain one. ``models``: trained model
    files, each offered to the games whose trained player reads it (a file that no game can play is refused)."""
    offered: dict[str, list[str]] = {game.name: [] for game in specs()}
    for path in models:
        if not isinstance(path, str) or not path:
            raise GoldrushEnvError(f"a model to offer is the path of a model file, got {excerpt(path)}")
        problems = []
        for game in specs():
            suffixes = players_of(game.name).model_files
            if not suffixes or not path.endswith(suffixes):
                continue
            try:
                make_agent(path, game=game.name)
            except GoldrushEnvError as error:
                problems.append(f"{game.title}: {error}")
            else:
                offered[game.name].append(path)
        if not any(path in paths for paths in offered.values()):
            suffixes = sorted({suffix for game in specs() for suffix in players_of(game.name).model_files})
            raise GoldrushEnvError(f"no game can play the model {excerpt(path)} (model files: {', '.join(suffixes)})"
                                + "".join(f"; {problem}" for problem in problems))
    parts = {}
    for game in specs():
        players = players_of(game.name)
        module = players.part("web")
        kind = WebGame if module is None else module.WEB
        parts[game.name] = kind(game, players, tuple(offered[game.name]))
    return parts


def create_app(models: Sequence[str] = (), *, store_path: str | os.PathLike = MEMORY,
               clock: Callable[[], float] = time.monotonic, **limits: Any) -> Starlette:
    """The web app of ``goldrush serve`` (docs/web.md): the index page at ``/``, each game's page at ``/<game>``,
    and the JSON API of every game under ``/api/<game>/``, the same routes for every game of the registry.

    ``models``: trained model files the pages may name as players, by these paths, beside each game's own players;
    each is loaded here, so a file that cannot be played is refused before the server starts. ``store_path``: the
    SQLite file that keeps the games, records and ratings (:class:`~goldrush_agents.web.database.Database`): the
    games it holds in play go on (``app.state.restored`` says what could not), or ``":memory:"``, the default,
    to keep nothing past the app. ``limits``: any of :class:`~goldrush_agents.web.limits.Limits` by name
    (``max_games=100``, ``idle_seconds=600``, ...). ``clock`` (seconds) is there for tests.
    """
    bounds = Limits.of(**limits)
    parts = web_parts(models)
    store = Store(bounds, clock, Database(store_path))
    restored = store.restore(parts)
    searching = Workers(bounds.search_workers, bounds.max_waiting, "goldrush-search")
    quick = Workers(bounds.quick_workers, bounds.max_waiting, "goldrush-quick")

    def workers(session_or_plan: Any) -> Workers:
        return searching if session_or_plan.searches else quick

    def part(request: Request) -> WebGame:
        name = request.path_params["game"]
        if name not in parts:
            raise WebError(f"no game {excerpt(name, 40)} on this server: the games are {list(parts)}", 404)
        return parts[name]

    def session(request: Request, kind: str | None = None) -> Session:
        return store.get(request.path_params["game_id"], part(request).name, kind)

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def page(request: Request) -> FileResponse:
        return FileResponse(part(request).page)

    async def games(request: Request) -> JSONResponse:
        return JSONResponse({"games": [{"game": web.name, "title": web.spec.title, "page": f"/{web.name}",
                                        "players": web.spec.players_text} for web in parts.values()]})

    async def agents(request: Request) -> JSONResponse:
        return JSONResponse(part(request).info(bounds))

    async def start(request: Request, plan: Plan, web: WebGame) -> JSONResponse:
        client = request.client.host if request.client else "unknown"
        store.reserve(client)
        try:
            made = await workers(plan).run(web.start, plan, client, store.is_closing)
        except BaseException:
            store.release(client)
            raise
        state = made.state()
        store.admit(made, plan)
        return JSONResponse({"id": made.id, "events": state["events"] if made.seat is not None else [],
                             "state": state})

    async def create_game(request: Request) -> JSONResponse:
        web = part(request)
        return await start(request, web.plan_game(await inputs.read_json(request, bounds), bounds), web)

    async def create_watch(request: Request) -> JSONResponse:
        web = part(request)
        return await start(request, web.plan_watch(await inputs.read_json(request, bounds), bounds), web)

    async def get_state(request: Request, kind: str) -> JSONResponse:
        held = session(request, kind)
        async with held.lock:
            return JSONResponse({"id": held.id, "state": held.state()})

    async def get_game(request: Request) -> JSONResponse:
        return await get_state(request, "play")

    async def get_watch(request: Request) -> JSONResponse:
        return await get_state(request, "watch")

    def answer(held: Session, work: Callable[..., Any], *args: Any) -> Any:
        result = work(*args)
        store.settle(held)  # written before the answer is sent
        return result

    async def move(held: Session, work: Callable[..., Any], *args: Any) -> JSONResponse:
        async with held.lock:
            result = await workers(held).run(answer, held, work, *args, store.is_closing)
        return JSONResponse(result)

    async def act(request: Request) -> JSONResponse:
        held = session(request, "play")
        body = inputs.fields(await inputs.read_json(request, bounds), {"action": None})
        if body["action"] is None:
            raise WebError("action is missing: one of the state's legal actions")
        return await move(held, held.act, held.web.read_action(body["action"]))

    async def step_watch(request: Request) -> JSONResponse:
        held = session(request, "watch")
        inputs.fields(await inputs.read_json(request, bounds), {})
        return await move(held, held.step)

    async def game_record(request: Request) -> JSONResponse:
        held = session(request)
        async with held.lock:
            return JSONResponse(held.record())

    async def delete_game(request: Request) -> JSONResponse:
        store.remove(request.path_params["game_id"], part(request).name)
        return JSONResponse({"deleted": request.path_params["game_id"]})

    async def replay_record(request: Request) -> JSONResponse:
        web = part(request)
        return JSONResponse(await quick.run(web.replay, await inputs.read_json(request, bounds), bounds))

    async def rated(request: Request) -> JSONResponse:
        return JSONResponse(store.database.ratings())

    async def refused(request: Request, error: Exception) -> JSONResponse:
        status = error.status if isinstance(error, WebError) else 400
        retry = getattr(error, "retry_after", None)
        return JSONResponse({"error": str(error)}, status_code=status,
                            headers=None if retry is None else {"Retry-After": str(retry)})

    async def failed(request: Request, error: Exception) -> JSONResponse:
        # The message may hold what the server knows and the client must not (a card, an agent's memory): it goes
        # to the server's log (which the server's middleware writes with the traceback), not to the client.
        return JSONResponse({"error": "the server failed on this request: its log has the details"}, status_code=500)

    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        detail = error.detail
        if error.status_code == 404:
            detail = f"no such page or API route: {request.method} {excerpt(request.url.path, 80)}"
        elif error.status_code == 405:
            detail = f"{request.method} is not allowed on {excerpt(request.url.path, 80)}"
        return JSONResponse({"error": detail}, status_code=error.status_code)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        store.closing = True  # agents stop between moves; work not yet begun is dropped
        for pool in (searching, quick):
            pool.pool.shutdown(wait=False, cancel_futures=True)

    routes = [
        Route("/", index),
        *[Mount(f"/static/{name}", StaticFiles(directory=web.static), name=f"static-{name}")
          for name, web in parts.items() if web.static is not None],
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/games", games),
        Route("/api/ratings", rated),
        Route("/api/{game}/agents", agents),
        Route("/api/{game}/games", create_game, methods=["POST"]),
        Route("/api/{game}/games/{game_id}", get_game, methods=["GET"]),
        Route("/api/{game}/games/{game_id}", delete_game, methods=["DELETE"]),
        Route("/api/{game}/games/{game_id}/act", act, methods=["POST"]),
        Route("/api/{game}/games/{game_id}/record", game_record, methods=["GET"]),
        Route("/api/{game}/watch", create_watch, methods=["POST"]),
        Route("/api/{game}/watch/{game_id}", get_watch, methods=["GET"]),
        Route("/api/{game}/watch/{game_id}/step", step_watch, methods=["POST"]),
        Route("/api/{game}/replay", replay_record, methods=["POST"]),
        Route("/{game}", page),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={GoldrushEnvError: refused, HTTPException: http_error, Exception: failed})
    app.add_middleware(_SecurityHeaders)
    app.state.store = store
    app.state.restored = restored
    app.state.limits = bounds
    app.state.games = parts
    return app


class _SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every response."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        private = scope["path"].startswith("/api/")  # a seat's knowledge: kept in no cache

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                extra = [*SECURITY_HEADERS, *([(b"cache-control", b"no-store")] if private else [])]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def serve(app: Starlette, host: str, port: int, grace_seconds: float = 3.0, out: TextIO = sys.stdout) -> None:
    """Run ``app`` under uvicorn until SIGINT or SIGTERM. At the signal the server stops taking connections and its
    agents stop between moves (a request in flight gets 503, "shutting down"); requests get ``grace_seconds`` to
    finish, then the server says on ``out`` what it kept (in a store file) or dropped, stops, and passes the signal
    on, as uvicorn does."""
    store = app.state.store

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            store.closing = True
            super().handle_exit(sig, frame)

        async def shutdown(self, sockets: Any = None) -> None:
            await super().shutdown(sockets)
            database = store.database
            fate = f"kept in {database.path}" if database.in_file else "dropped"
            print(f"stopped: {len(store.live)} games in play and {len(store.ended)} finished ones {fate}", file=out,
                  flush=True)

    Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                          timeout_graceful_shutdown=grace_seconds)).run()


__all__ = ["create_app", "serve", "web_parts", "Workers", "SECURITY_HEADERS"]
