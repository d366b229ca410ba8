"""The Starlette app of ``goldrush serve``: the page, its script and style, and the JSON API under ``/api``.

Requests are read and checked in the event loop (:mod:`goldrush_agents.web.inputs`), counted against the limits
(:class:`~goldrush_agents.web.games.Store`), and only then do agents move, in worker threads: games with a search
player on a few threads of their own, the rest on others, so a crowd of searches cannot hold up a quick game.
One request per game runs at a time; the others for that game wait without holding a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from goldrush_env.gold.cards import TABLES
from goldrush_env.errors import GoldRushError, excerpt

from goldrush_agents import make_agent
from goldrush_agents.web import games, inputs, piecepack
from goldrush_agents.web.inputs import WEB_AGENTS, WebError
from goldrush_agents.web.limits import Limits

STATIC = Path(__file__).with_name("static")
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


def create_app(models: Sequence[str] = (), *, clock: Callable[[], float] = time.monotonic,
               **limits: Any) -> Starlette:
    """The web app of ``goldrush serve``: the page at ``/`` and the JSON API under ``/api`` (docs/web.md).

    ``models``: trained model files (``.npz``, ``.zip``) the page may name as players, by these paths, beside
    :data:`~goldrush_agents.web.inputs.WEB_AGENTS`; each is loaded once here, so a file that cannot be played is
    refused before the server starts. ``limits``: any of :class:`~goldrush_agents.web.limits.Limits` by name
    (``max_games=100``, ``idle_seconds=600``, ...). ``clock`` (seconds) is there for tests.
    """
    bounds = Limits.of(**limits)
    for path in models:
        if not isinstance(path, str) or not path.endswith((".npz", ".zip")):
            raise GoldRushError(f"a model to offer is the path of a .npz or .zip file, got {excerpt(path)}")
        make_agent(path)
    store = games.Store(bounds, clock, tuple(models))
    searching = Workers(bounds.search_workers, bounds.max_waiting, "goldrush-search")
    quick = Workers(bounds.quick_workers, bounds.max_waiting, "goldrush-quick")

    def workers(session_or_plan: Any) -> Workers:
        return searching if session_or_plan.searches else quick

    async def page(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def piecepack_page(request: Request) -> FileResponse:
        return FileResponse(STATIC / "piecepack.html")

    async def agents(request: Request) -> JSONResponse:
        return JSONResponse({"agents": [*WEB_AGENTS, *store.models], "tables": list(TABLES),
                             "memory": list(games.MEMORY_MODES), "limits": dataclasses.asdict(bounds)})

    async def start(request: Request, plan: games.Plan | piecepack.Plan) -> JSONResponse:
        client = request.client.host if request.client else "unknown"
        store.reserve(client)
        begin = piecepack.start if isinstance(plan, piecepack.Plan) else games.start
        try:
            session = await workers(plan).run(begin, plan, client, store.is_closing)
        except BaseException:
            store.release(client)
            raise
        state = session.state()
        store.admit(session)
        return JSONResponse({"id": session.id, "events": state["events"] if session.seat is not None else [],
                             "state": state})

    async def create_game(request: Request) -> JSONResponse:
        return await start(request, games.plan_game(await inputs.read_json(request, bounds), store.models, bounds))

    async def create_watch(request: Request) -> JSONResponse:
        return await start(request, games.plan_watch(await inputs.read_json(request, bounds), store.models, bounds))

    async def get_state(request: Request, kind: str, game: str = "gold") -> JSONResponse:
        session = store.get(request.path_params["game_id"], kind, game)
        async with session.lock:
            return JSONResponse({"id": session.id, "state": session.state()})

    async def get_game(request: Request) -> JSONResponse:
        return await get_state(request, "play")

    async def get_watch(request: Request) -> JSONResponse:
        return await get_state(request, "watch")

    async def move(session: games.Session, work: Callable[..., Any], *args: Any) -> JSONResponse:
        async with session.lock:
            result = await workers(session).run(work, *args, store.is_closing)
        store.settle(session)
        return JSONResponse(result)

    async def flip_card(request: Request) -> JSONResponse:
        session = store.get(request.path_params["game_id"], "play")
        body = inputs.fields(await inputs.read_json(request, bounds), {"position": None})
        if body["position"] is None:
            raise WebError("position is missing: a square such as 'c4' or a position from 0 to 63")
        return await move(session, session.flip, inputs.position(body["position"]))

    async def step_watch(request: Request) -> JSONResponse:
        session = store.get(request.path_params["game_id"], "watch")
        return await move(session, session.step)

    async def game_record(request: Request) -> JSONResponse:
        session = store.get(request.path_params["game_id"])
        async with session.lock:
            return JSONResponse(session.record())

    async def delete_game(request: Request) -> JSONResponse:
        store.remove(request.path_params["game_id"])
        return JSONResponse({"deleted": request.path_params["game_id"]})

    async def replay_record(request: Request) -> JSONResponse:
        return JSONResponse(await quick.run(games.replay, await inputs.read_json(request, bounds), bounds))

    # Gold Rush on a piecepack: the same store, limits and workers, under /api/piecepack.
    async def piecepack_agents(request: Request) -> JSONResponse:
        return JSONResponse({"agents": list(piecepack.WEB_AGENTS), "limits": dataclasses.asdict(bounds)})

    async def piecepack_create_game(request: Request) -> JSONResponse:
        return await start(request, piecepack.plan_game(await inputs.read_json(request, bounds), bounds))

    async def piecepack_create_watch(request: Request) -> JSONResponse:
        return await start(request, piecepack.plan_watch(await inputs.read_json(request, bounds), bounds))

    async def piecepack_get_game(request: Request) -> JSONResponse:
        return await get_state(request, "play", piecepack.GAME)

    async def piecepack_get_watch(request: Request) -> JSONResponse:
        return await get_state(request, "watch", piecepack.GAME)

    async def piecepack_act(request: Request) -> JSONResponse:
        session = store.get(request.path_params["game_id"], "play", piecepack.GAME)
        body = inputs.fields(await inputs.read_json(request, bounds), {"action": None})
        if body["action"] is None:
            raise WebError("action is missing: an action id from 0 to 487, one of the state's legal actions")
        return await move(session, session.act, piecepack.action(body["action"]))

    async def piecepack_step(request: Request) -> JSONResponse:
        session = store.get(request.path_params["game_id"], "watch", piecepack.GAME)
        return await move(session, session.step)

    async def piecepack_record(request: Request) -> JSONResponse:
        session = store.get(request.path_params["game_id"], None, piecepack.GAME)
        async with session.lock:
            return JSONResponse(session.record())

    async def piecepack_replay(request: Request) -> JSONResponse:
        return JSONResponse(await quick.run(piecepack.replay, await inputs.read_json(request, bounds), bounds))

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
        Route("/", page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
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
        Route("/piecepack", piecepack_page),
        Route("/api/piecepack/agents", piecepack_agents),
        Route("/api/piecepack/games", piecepack_create_game, methods=["POST"]),
        Route("/api/piecepack/games/{game_id}", piecepack_get_game, methods=["GET"]),
        Route("/api/piecepack/games/{game_id}", delete_game, methods=["DELETE"]),
        Route("/api/piecepack/games/{game_id}/act", piecepack_act, methods=["POST"]),
        Route("/api/piecepack/games/{game_id}/record", piecepack_record, methods=["GET"]),
        Route("/api/piecepack/watch", piecepack_create_watch, methods=["POST"]),
        Route("/api/piecepack/watch/{game_id}", piecepack_get_watch, methods=["GET"]),
        Route("/api/piecepack/watch/{game_id}/step", piecepack_step, methods=["POST"]),
        Route("/api/piecepack/replay", piecepack_replay, methods=["POST"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={GoldRushError: refused, HTTPException: http_error, Exception: failed})
    app.add_middleware(_SecurityHeaders)
    app.state.store = store
    app.state.limits = bounds
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
    finish, then the server says on ``out`` what it dropped, stops, and passes the signal on, as uvicorn does."""
    store = app.state.store

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            store.closing = True
            super().handle_exit(sig, frame)

        async def shutdown(self, sockets: Any = None) -> None:
            await super().shutdown(sockets)
            print(f"stopped: {len(store.live)} games in play and {len(store.ended)} finished ones dropped", file=out,
                  flush=True)

    Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                          timeout_graceful_shutdown=grace_seconds)).run()


__all__ = ["create_app", "serve", "Workers", "SECURITY_HEADERS"]
