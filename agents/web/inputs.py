"""Reading requests strictly, for every game: the body (JSON, within its size and depth), each field's type and
range, agent lists within their costs. Every refusal is a :class:`WebError` that names the value (a short excerpt
of it) and what is allowed; nothing here does any work for a game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from starlette.requests import Request

from goldrush_env.checks import check_int, is_int
from goldrush_env.errors import GoldrushEnvError, excerpt

from goldrush_agents import check_renamed, parse_spec, split_entrants
from goldrush_agents.web.limits import MAX_SEED, Limits


@dataclass(frozen=True)
class AgentRules:
    """Which of a game's players a request may name, and how. A request never names a file or an import path (it
    should not make the server read files or import modules): model files are offered by whoever starts the
    server (``goldrush serve --model``)."""

    offline: tuple[str, ...] = ()
    """Players no request may name (they cost minutes of a core or gigabytes of memory to start)."""
    options: dict[str, tuple[str, ...] | None] = field(default_factory=dict)
    """The options a request may give a player, by name: a tuple of option names, or None for any of its
    constructor's (the constructor refuses an unknown one); a player not listed gets :attr:`other_options`."""
    other_options: tuple[str, ...] | None = ()
    """The options of the players :attr:`options` does not list: none, unless a game says otherwise."""
    searches: tuple[str, ...] = ()
    """Players whose games move on the server's search workers."""
    budgeted: tuple[str, ...] = ()
    """Of the searches, those whose every move gets the server's time budget (``seconds``) and a cap on its
    ``iterations``, from the server's :class:`Limits`."""


class WebError(GoldrushEnvError):
    """A request refused: ``status`` is the HTTP status, the message says what was wrong and what is allowed."""

    def __init__(self, message: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


async def read_json(request: Request, limits: Limits) -> Any:
    """The request's JSON body (``{}`` when empty), refused unless it says it is JSON (415: a page of another site
    cannot send that without the browser asking this server first), beyond ``max_body_bytes`` (413) before it is
    all read, or beyond ``max_depth`` levels of nesting (400)."""
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind != "application/json":
        raise WebError(f"a request's body is JSON, sent with Content-Type: application/json; got "
                       f"{excerpt(kind or 'no Content-Type', 60)}", 415)
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
    return check_int(name, value, low, high, error=WebError)


def choice(name: str, value: Any, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise WebError(f"{name} must be one of {list(choices)}, got {excerpt(value)}")
    return value


def seed(value: Any) -> int | None:
    """A seed the request gives (0 to 2**63 - 1), or None for one the server will choose."""
    return None if value is None else integer("seed", value, 0, MAX_SEED)


NAME_LENGTH = 32
"""The longest name a person may give."""
NAME_MARKS = " -_."
"""What a person's name may hold besides letters and digits."""


def person_name(value: Any) -> str | None:
    """The name a person gives (1 to :data:`NAME_LENGTH` letters, digits, spaces and ``-_.``, not beginning or
    ending with a space), or None: anonymous."""
    if value is None:
        return None
    allowed = f"1 to {NAME_LENGTH} letters, digits, spaces and {NAME_MARKS.strip()!r}, or null for none"
    if not isinstance(value, str):
        raise WebError(f"name must be {allowed}, got {excerpt(value)}")
    if not 0 < len(value) <= NAME_LENGTH:
        raise WebError(f"name is {len(value):,} characters long: it must be {allowed}, got {excerpt(value)}")
    bad = next((c for c in value if not (c.isalnum() or c in NAME_MARKS)), None)
    if bad is not None:
        raise WebError(f"name holds {bad!r}: it must be {allowed}, got {excerpt(value)}")
    if value != value.strip():
        raise WebError(f"name must not begin or end with a space, got {excerpt(value)}")
    return value


@dataclass(frozen=True)
class AgentSpec:
    """A player a request named: ``name`` as the request gave it (shown to people), ``spec`` as it is built
    (with the server's time budget added to a search), and whether it searches."""

    name: str
    spec: str
    searches: bool


def agents(name: str, value: Any, game: Any, limits: Limits) -> list[AgentSpec]:
    """The players of a comma-separated string or a list of strings, each one of ``game``'s web agents (with options
    in brackets, as its :class:`AgentRules` allow, within ``limits``) or a model file the server offers for it.
    ``game`` is the :class:`~goldrush_agents.web.game.WebGame`."""
    seats = game.spec.max_players
    if isinstance(value, str):
        if len(value) > limits.max_text:
            raise WebError(f"{name} is {len(value):,} characters long, over the {limits.max_text} allowed: "
                           f"{excerpt(value)}")
        specs = _split(name, value)
    elif isinstance(value, list) and all(isinstance(item, str) for item in value):
        if len(value) > seats:
            raise WebError(f"{name} lists {len(value):,} agents: a table of {game.spec.title} has at most {seats} "
                           "seats")
        specs = [item.strip() for item in value]
        if not all(specs):
            raise WebError(f"{name} has an empty name: {excerpt(value)}")
    else:
        raise WebError(f"{name} must be a string of agent names (comma-separated) or a list of them, "
                       f"got {excerpt(value)}")
    return [_agent(name, spec, game, limits) for spec in specs]


def _split(name: str, text: str) -> list[str]:
    try:
        return split_entrants(text)
    except GoldrushEnvError as error:
        raise WebError(f"{name}: {error}") from None


def _agent(field_name: str, text: str, game: Any, limits: Limits) -> AgentSpec:
    rules: AgentRules = game.rules
    if len(text) > limits.max_text:
        raise WebError(f"an agent in {field_name} is {len(text):,} characters long, over the {limits.max_text} "
                       f"allowed: {excerpt(text)}")
    if text in game.offered:
        return AgentSpec(text, text, False)  # a model file the server offers, by its path as given
    try:
        agent, options = parse_spec(text)
        if agent not in game.agents:
            check_renamed(agent, game.agents)
    except GoldrushEnvError as error:
        raise WebError(f"{field_name}: {error}") from None
    if agent not in game.agents:
        raise WebError(f"unknown agent {excerpt(agent)} in {field_name}: the players of {game.spec.title} are "
                       f"{[*game.agents, *game.offered]}, optionally with options in brackets where a player takes "
                       "them, as in 'ismcts[iterations=200]'")
    allowed = rules.options.get(agent, rules.other_options)
    if allowed is not None and not set(options) <= set(allowed):
        what = f"the options {list(allowed)} only" if allowed else "no options"
        raise WebError(f"{excerpt(text)} in {field_name}: a request may give {agent} {what}, got {sorted(options)}")
    if agent not in rules.budgeted:
        return AgentSpec(text, text, agent in rules.searches)  # make_agent refuses a bad option when the game starts
    iterations = options.get("iterations")
    if _number(iterations) and iterations > limits.max_iterations:
        raise WebError(f"{excerpt(text)} in {field_name}: iterations={iterations!r} is over this server's limit of "
                       f"{limits.max_iterations} a move")
    if "seconds" not in options:
        options["seconds"] = limits.move_seconds
    elif options["seconds"] is None or (_number(options["seconds"]) and options["seconds"] > limits.move_seconds):
        raise WebError(f"{excerpt(text)} in {field_name}: seconds={options['seconds']!r} is over this server's time "
                       f"budget of {limits.move_seconds:g} seconds a move")
    built = f"{agent}[{','.join(f'{key}={option!r}' for key, option in options.items())}]"
    return AgentSpec(text, built, True)


def _number(value: Any) -> bool:
    """Whether an option can be compared with a limit: an int, or a float, infinity included (over any limit)."""
    return isinstance(value, float) or is_int(value)


__all__ = ["AgentRules", "WebError", "AgentSpec", "read_json", "fields", "integer", "choice", "seed", "person_name",
           "agents", "NAME_LENGTH"]
