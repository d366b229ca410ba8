"""Reading requests strictly: the body within its size and depth, each field's type and range, agent lists
within their costs. Every refusal is a :class:`WebError` that names the value (a short excerpt of it) and what is
allowed; nothing here does any work for a game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

from starlette.requests import Request

from goldrush_env.gold.cards import MAX_PLAYERS, NUM_POSITIONS
from goldrush_env.errors import GoldRushError, excerpt
from goldrush_env.gold.render import parse_square

from goldrush_agents import parse_spec, split_entrants
from goldrush_agents.gold import AGENTS, MODELS
from goldrush_agents.web.limits import MAX_SEED, Limits

OFFLINE = ("optimal",)
"""Players no request may name: ``optimal`` solves its table first, minutes of a core and gigabytes of memory."""
WEB_AGENTS = tuple(name for name in (*AGENTS, *MODELS) if name not in OFFLINE)
"""The players a request may name, each optionally with options in brackets (``ismcts[iterations=200]``).
A request cannot name a file or an import path (it should not make the server read files or import modules):
model files are offered by whoever starts the server, ``create_app(models=...)`` (``goldrush serve --model``)."""
WEB_OPTIONS = {"selfplay": ("depth",)}
"""The options a request may give these players (the others would name files)."""
TWO_PLAYERS = ("selfplay",)
"""Players of 2-player games only."""
SEARCHES = ("ismcts",)
"""The players whose moves cost what their options say: each gets a time budget a move (``seconds``) and a
cap on its ``iterations``, from the server's :class:`Limits`."""


class WebError(GoldRushError):
    """A request refused: ``status`` is the HTTP status, the message says what was wrong and what is allowed."""

    def __init__(self, message: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


async def read_json(request: Request, limits: Limits) -> Any:
    """The request's JSON body (``{}`` when empty), refused beyond ``max_body_bytes`` (413) before it is all read,
    or beyond ``max_depth`` levels of nesting (400)."""
    declared = request.headers.get("content-length")
    if declared is not None and not declared.isdigit():
        raise WebError(f"Content-Length must be a number of bytes, got {excerpt(declared)}")
    if declared is not None and int(declared) > limits.max_body_bytes:
        raise WebError(f"the request body is {int(declared):,} bytes: at most {limits.max_body_bytes:,} are read", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limits.max_body_bytes:
            raise WebError(f"the request body is over {limits.max_body_bytes:,} bytes, the most that is read", 413)
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw, parse_constant=_not_json)
    except RecursionError:
        value = None
    except (ValueError, UnicodeDecodeError) as error:
        raise WebError(f"the request body is not valid JSON: {excerpt(str(error), 120)}") from None
    else:
        if _depth(value) <= limits.max_depth:
            return value
    raise WebError(f"the request body nests deeper than {limits.max_depth} levels of arrays and objects")


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and dicts (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def fields(body: Any, defaults: dict[str, Any]) -> dict[str, Any]:
    """The body's fields over ``defaults``; an unknown field or a body that is not an object is refused."""
    if not isinstance(body, dict):
        raise WebError(f"the request body must be a JSON object, got {type(body).__name__}")
    unknown = sorted(set(body) - set(defaults))
    if unknown:
        raise WebError(f"unknown field {excerpt(unknown[0])}: the fields are {sorted(defaults)}")
    return {**defaults, **body}


def integer(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise WebError(f"{name} must be an int from {low} to {high}, got {excerpt(value)}")
    return value


def choice(name: str, value: Any, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise WebError(f"{name} must be one of {list(choices)}, got {excerpt(value)}")
    return value


def seed(value: Any) -> int | None:
    """A seed the request gives (0 to 2**63 - 1), or None for one the server will choose."""
    return None if value is None else integer("seed", value, 0, MAX_SEED)


def position(value: Any) -> int:
    """A position from 0 to 63, or a square name such as ``"c4"``."""
    if isinstance(value, str):
        try:
            return parse_square(value)
        except ValueError:
            raise WebError(f"position {excerpt(value)} is not a square: columns a-h, rows 1-8, e.g. 'c4'") from None
    return integer("position", value, 0, NUM_POSITIONS - 1)


@dataclass(frozen=True)
class AgentSpec:
    """A player a request named: ``name`` as the request gave it (shown to people), ``spec`` as it is built
    (with the server's time budget added to a search), and whether it searches."""

    name: str
    spec: str
    searches: bool


def agents(name: str, value: Any, offered: Sequence[str], limits: Limits) -> list[AgentSpec]:
    """The players of a comma-separated string or a list of strings, each a web agent (with options in brackets,
    within ``limits``) or a model file the server offers."""
    if isinstance(value, str):
        if len(value) > limits.max_text:
            raise WebError(f"{name} is {len(value):,} characters long, over the {limits.max_text} allowed: "
                           f"{excerpt(value)}")
        specs = _split(name, value)
    elif isinstance(value, list) and all(isinstance(item, str) for item in value):
        if len(value) > MAX_PLAYERS:
            raise WebError(f"{name} lists {len(value):,} agents: a table has at most {MAX_PLAYERS} seats")
        specs = [item.strip() for item in value]
        if not all(specs):
            raise WebError(f"{name} has an empty name: {excerpt(value)}")
    else:
        raise WebError(f"{name} must be a string of agent names (comma-separated) or a list of them, "
                       f"got {excerpt(value)}")
    return [_agent(name, spec, offered, limits) for spec in specs]


def _split(name: str, text: str) -> list[str]:
    try:
        return split_entrants(text)
    except GoldRushError as error:
        raise WebError(f"{name}: {error}") from None


def _agent(field: str, text: str, offered: Sequence[str], limits: Limits) -> AgentSpec:
    if len(text) > limits.max_text:
        raise WebError(f"an agent in {field} is {len(text):,} characters long, over the {limits.max_text} allowed: "
                       f"{excerpt(text)}")
    if text in offered:
        return AgentSpec(text, text, False)  # a model file the server offers, by its path as given
    try:
        agent, options = parse_spec(text)
    except GoldRushError as error:
        raise WebError(f"{field}: {error}") from None
    if agent not in WEB_AGENTS and agent not in offered:
        raise WebError(f"unknown agent {excerpt(agent)} in {field}: expected one of {[*WEB_AGENTS, *offered]}, "
                       "optionally with options in brackets, as in 'ismcts[iterations=200]'")
    allowed = WEB_OPTIONS.get(agent)
    if allowed is not None and not set(options) <= set(allowed):
        raise WebError(f"{excerpt(text)} in {field}: a request may give {agent} the options {list(allowed)} only, "
                       f"got {sorted(options)}")
    if agent not in SEARCHES:
        return AgentSpec(text, text, False)  # make_agent refuses a bad option by name when the game is made
    iterations = options.get("iterations")
    if _number(iterations) and iterations > limits.max_iterations:
        raise WebError(f"{excerpt(text)} in {field}: iterations={iterations!r} is over this server's limit of "
                       f"{limits.max_iterations} a move")
    if "seconds" not in options:
        options["seconds"] = limits.move_seconds
    elif options["seconds"] is None or (_number(options["seconds"]) and options["seconds"] > limits.move_seconds):
        raise WebError(f"{excerpt(text)} in {field}: seconds={options['seconds']!r} is over this server's time "
                       f"budget of {limits.move_seconds:g} seconds a move")
    built = f"{agent}[{','.join(f'{key}={option!r}' for key, option in options.items())}]"
    return AgentSpec(text, built, True)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


__all__ = ["WEB_AGENTS", "WEB_OPTIONS", "OFFLINE", "TWO_PLAYERS", "SEARCHES", "WebError", "AgentSpec", "read_json", "fields", "integer", "choice", "seed",
           "position", "agents"]
