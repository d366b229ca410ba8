"""Players for goldrush-env, from random to strong, in every game, all following the
:class:`goldrush_env.policy.Policy` protocol (``reset(seed)``, ``act(view)``).

Each game's players live in a package of its own that declares itself under the entry point group
:data:`PLAYERS_GROUP` (this distribution's: :mod:`goldrush_agents.gold`, :mod:`goldrush_agents.piecepack`), and
:func:`players_of` reads what it lists (:class:`Players`). A game with no players package still has ``random``.
:func:`make_agent` reads one grammar for all of them: ``make_agent("greedy", seed=1)`` builds a player by name
(of the default game, Gold, unless ``game=`` says otherwise); ``"taught"`` is a shipped model, a path ending in
a model file's suffix any trained model, and a ``"module:Class"`` import path any class that follows the protocol.
Any of them may end in keyword arguments for its constructor in brackets, ``"ismcts[iterations=500,horizon=2]"``:
each value is read as a Python literal (``500``, ``0.3``, ``None``, ``True``), or else kept as text.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any, Callable, Iterable

from goldrush_env.errors import GoldrushEnvError, excerpt
from goldrush_env.games import DEFAULT_GAME, group_entries
from goldrush_env.games import spec as game_spec
from goldrush_env.policy import Policy, RandomPolicy

PLAYERS_GROUP = "goldrush_agents.players"
"""The entry point group a game's players package declares itself in: ``name = "package.module"``, the game's
name and the module that lists its players."""

RENAMED: dict[str, tuple[str, str, str]] = {
    "ppo": ("taught", "0.3.0", "it is trained with a teacher, not by PPO"),
}
"""Entrant names the package has retired, in every game: the new name, the version that renamed it, and why.
Wherever a player is named, an old name is refused with an error that names the new one (:func:`check_renamed`)."""


def check_renamed(name: str, names: Iterable[str] | None = None) -> None:
    """Refuse a retired entrant name (:data:`RENAMED`) with an error that names its successor; given the ``names``
    of a game's players, only where the successor is one of them (a game that never had it hears that the name is
    unknown)."""
    if name in RENAMED and (names is None or RENAMED[name][0] in names):
        new, version, why = RENAMED[name]
        raise GoldrushEnvError(f"the entrant {name!r} was renamed {new!r} in {version} ({why}): use {new!r}")


@dataclass(frozen=True)
class Players:
    """A game's players, as its players package lists them (every name but ``AGENTS`` may be left out):

    * ``AGENTS``: the scripted players by name, weakest first (``random`` is there even if left out);
    * ``OPPONENTS``: the names a model is measured against by default (``goldrush_train.evaluate``), weakest
      first; a person plays the last of them unless told otherwise (``goldrush play``);
    * ``MODELS``: the shipped trained models by name, ``MODEL_FILES`` the suffixes of the model files its trained
      player reads, and ``model``, that player (``model(path, seed=...)``);
    * ``play_batched``: a tournament's games all at once (:func:`goldrush_agents.tournament.run_tournament`).

    The package may also hold the game's part of the ``goldrush`` command (a module ``cli``) and of the web
    server (a module ``web``), found by :meth:`part`; a game without them gets the plain ones.
    """

    game: str
    agents: dict[str, Callable[..., Any]]
    opponents: tuple[str, ...] = ("random",)
    models: dict[str, Any] = field(default_factory=dict)
    model_files: tuple[str, ...] = ()
    model: Callable[..., Any] | None = None
    play_batched: Callable[..., Any] | None = None
    package: ModuleType | None = None

    def part(self, name: str) -> ModuleType | None:
        """The players package's module ``name`` (``"cli"``, ``"web"``), or None if it has none."""
        package = self.package
        if package is None or not hasattr(package, "__path__"):
            return None
        if importlib.util.find_spec(f"{package.__name__}.{name}") is None:
            return None
        return importlib.import_module(f"{package.__name__}.{name}")


@cache
def players_of(game: str = DEFAULT_GAME) -> Players:
    """The players of ``game`` (:class:`Players`); an unknown game is refused with the games there are."""
    game_spec(game)
    entries = {entry.value for entry in group_entries(PLAYERS_GROUP) if entry.name == game}
    if len(entries) > 1:
        raise GoldrushEnvError(f"two installed packages declare the players of {game!r}: {sorted(entries)}")
    if not entries:
        return Players(game, {"random": RandomPolicy})
    package = importlib.import_module(entries.pop())
    if not isinstance(getattr(package, "AGENTS", None), dict):
        raise GoldrushEnvError(f"{package.__name__}, the players of {game!r}, must list its players in a dict AGENTS")
    agents = dict(package.AGENTS) if "random" in package.AGENTS else {"random": RandomPolicy, **package.AGENTS}
    return Players(game, agents,
                   opponents=tuple(getattr(package, "OPPONENTS", ("random",))),
                   models=dict(getattr(package, "MODELS", {})), model_files=tuple(getattr(package, "MODEL_FILES", ())),
                   model=getattr(package, "model", None), play_batched=getattr(package, "play_batched", None),
                   package=package)


def split_entrants(text: str) -> list[str]:
    """The entrants in a comma-separated list; a comma inside brackets belongs to its entrant's options
    (``"ismcts[iterations=500,horizon=2],expert"`` is two entrants). An empty text is no entrant; an empty name
    in a list (``"greedy,,expert"``) is refused, since it is more likely a typo than a wish for fewer seats, and so
    is a bracket that is never closed or closes none (``"greedy,ismcts[iterations=5"``), which would otherwise
    swallow the entrants after it."""
    entrants, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth < 0:
                raise GoldrushEnvError(f"cannot read the list {excerpt(text)}: the ']' after "
                                       f"{excerpt(text[start:i])} closes no bracket")
        elif char == "," and depth == 0:
            entrants.append(text[start:i].strip())
            start = i + 1
    if depth > 0:
        raise GoldrushEnvError(f"cannot read the list {excerpt(text)}: the bracket of {excerpt(text[start:].strip())} "
                               "is never closed (options go in brackets: 'ismcts[iterations=500]')")
    entrants.append(text[start:].strip())
    if not text.strip():
        return []
    if not all(entrants):
        raise GoldrushEnvError(f"empty name in the list {excerpt(text)}: names are separated by single commas")
    return entrants


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """An entrant's name and its constructor options: ``"ismcts[iterations=500]"`` gives
    ``("ismcts", {"iterations": 500})``; a name without brackets has no options."""
    if not isinstance(spec, str):
        raise GoldrushEnvError(f"an agent is given by a string, got {excerpt(spec)}")
    if "[" not in spec and "]" not in spec:
        return spec, {}
    name, bracket, rest = spec.partition("[")
    if not bracket or not rest.endswith("]") or "[" in rest or "]" in rest[:-1] or not name:
        raise GoldrushEnvError(f"cannot read agent {excerpt(spec)}: options go in one pair of brackets at the end, "
                               "as in 'ismcts[iterations=500,horizon=2]'")
    options: dict[str, Any] = {}
    for item in (part.strip() for part in rest[:-1].split(",")):
        if not item:
            continue
        key, equals, text = (part.strip() for part in item.partition("="))
        if not equals or not key.isidentifier():
            raise GoldrushEnvError(f"cannot read agent {excerpt(spec)}: each option is name=value, got {excerpt(item)}")
        if key in options:
            raise GoldrushEnvError(f"cannot read agent {excerpt(spec)}: option {excerpt(key)} is given twice")
        try:
            options[key] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            options[key] = text
    return name, options


def _build(spec: str, factory: Callable[..., Any], options: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
    """``factory(*args, **kwargs, **options)``, refusing an option the factory does not take."""
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        parameters = None
    if options and parameters is not None \
            and not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        taken = [name for name, p in parameters.items() if name not in kwargs and p.kind in (
            inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)][len(args):]
        unknown = [key for key in options if key not in taken]
        if unknown:
            raise GoldrushEnvError(f"agent {excerpt(spec)}: unknown option {excerpt(unknown[0])}; it takes "
                               f"{', '.join(taken) if taken else 'no options'}")
    return factory(*args, **kwargs, **options)


def make_agent(spec: str, seed: int | None = None, game: str = DEFAULT_GAME) -> Policy:
    """A player of ``game``: a name in its ``AGENTS``, a shipped model in its ``MODELS``, a model file it reads or a
    ``"package.module:Class"`` import path, each optionally followed by constructor options in brackets (see the
    module docstring). A retired name (:data:`RENAMED`) is refused with an error that names its successor."""
    players = players_of(game)
    name, options = parse_spec(spec)
    if name in players.agents:
        return _build(spec, players.agents[name], options, seed=seed)
    if players.model is not None and (name in players.models or name.endswith(players.model_files)):
        return _build(spec, players.model, options, players.models.get(name, name), seed=seed)
    if ":" not in name:
        check_renamed(name, [*players.agents, *players.models])
        models = (f", {' or '.join(map(repr, players.models))} (the shipped models), a model file "
                  f"({', '.join(players.model_files)})") if players.model is not None else ""
        raise GoldrushEnvError(f"unknown agent {excerpt(name)}: expected one of {sorted(players.agents)}{models} or "
                               f"'package.module:Class' (the players of {game_spec(game).title})")
    module_name, _, class_name = name.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as error:
        raise GoldrushEnvError(f"cannot load agent {excerpt(name)}: {error}") from None
    try:
        agent = _build(spec, factory, options, seed=seed)
    except TypeError:  # a class that takes no seed
        agent = _build(spec, factory, options)
    if not isinstance(agent, Policy):
        raise GoldrushEnvError(f"agent {excerpt(spec)} does not follow the policy protocol (reset(seed), act(view))")
    return agent


__all__ = ["make_agent", "players_of", "Players", "PLAYERS_GROUP", "RENAMED", "check_renamed", "parse_spec",
           "split_entrants"]
