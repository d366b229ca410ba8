"""Players for goldrush-env, from random to strong, in every game, all following the
:class:`goldrush_env.policy.Policy` protocol (``reset(seed)``, ``act(view)``).

Each game's players live in a package of their own, ``goldrush_agents.<game>`` (:mod:`goldrush_agents.gold`,
:mod:`goldrush_agents.piecepack`), which lists them: ``AGENTS`` (scripted players by name), ``MODELS``
(the shipped trained models by name), ``MODEL_FILES`` (the model files its trained player reads) and
``model`` (that player). :func:`make_agent` reads one grammar for all of them:
``make_agent("greedy", seed=1)`` builds a player by name (of the default game, Gold, unless ``game=`` says
otherwise); ``"ppo"`` is a shipped model, a path ending in a model file's suffix any trained model, and a
``"module:Class"`` import path any class that follows the protocol. Any of them may end in keyword arguments for
its constructor in brackets, ``"ismcts[iterations=500,horizon=2]"``: each value is read as a Python literal
(``500``, ``0.3``, ``None``, ``True``), or else kept as text.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from types import ModuleType
from typing import Any, Callable

from goldrush_env._moved import moved
from goldrush_env.errors import GoldRushError, excerpt
from goldrush_env.games import DEFAULT_GAME
from goldrush_env.games import spec as game_spec
from goldrush_env.policy import Policy

from goldrush_agents import _moved


def players_of(game: str = DEFAULT_GAME) -> ModuleType:
    """The package of ``game``'s players, ``goldrush_agents.<game>`` (a game's players live there by convention:
    docs/adding-a-game.md); an unknown game is refused with the games there are."""
    game_spec(game)
    return importlib.import_module(f"{__name__}.{game}")


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
                raise GoldRushError(f"cannot read the list {excerpt(text)}: the ']' after "
                                    f"{excerpt(text[start:i])} closes no bracket")
        elif char == "," and depth == 0:
            entrants.append(text[start:i].strip())
            start = i + 1
    if depth > 0:
        raise GoldRushError(f"cannot read the list {excerpt(text)}: the bracket of {excerpt(text[start:].strip())} "
                            "is never closed (options go in brackets: 'ismcts[iterations=500]')")
    entrants.append(text[start:].strip())
    if not text.strip():
        return []
    if not all(entrants):
        raise GoldRushError(f"empty name in the list {excerpt(text)}: names are separated by single commas")
    return entrants


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """An entrant's name and its constructor options: ``"ismcts[iterations=500]"`` gives
    ``("ismcts", {"iterations": 500})``; a name without brackets has no options."""
    if not isinstance(spec, str):
        raise GoldRushError(f"an agent is given by a string, got {excerpt(spec)}")
    if "[" not in spec and "]" not in spec:
        return spec, {}
    name, bracket, rest = spec.partition("[")
    if not bracket or not rest.endswith("]") or "[" in rest or "]" in rest[:-1] or not name:
        raise GoldRushError(f"cannot read agent {excerpt(spec)}: options go in one pair of brackets at the end, "
                            "as in 'ismcts[iterations=500,horizon=2]'")
    options: dict[str, Any] = {}
    for item in (part.strip() for part in rest[:-1].split(",")):
        if not item:
            continue
        key, equals, text = (part.strip() for part in item.partition("="))
        if not equals or not key.isidentifier():
            raise GoldRushError(f"cannot read agent {excerpt(spec)}: each option is name=value, got {excerpt(item)}")
        if key in options:
            raise GoldRushError(f"cannot read agent {excerpt(spec)}: option {excerpt(key)} is given twice")
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
            raise GoldRushError(f"agent {excerpt(spec)}: unknown option {excerpt(unknown[0])}; it takes "
                               f"{', '.join(taken) if taken else 'no options'}")
    return factory(*args, **kwargs, **options)


def make_agent(spec: str, seed: int | None = None, game: str = DEFAULT_GAME) -> Policy:
    """A player of ``game``: a name in its ``AGENTS``, a shipped model in its ``MODELS``, a model file it reads or a
    ``"package.module:Class"`` import path, each optionally followed by constructor options in brackets (see the
    module docstring)."""
    players = players_of(game)
    name, options = parse_spec(spec)
    if name in players.AGENTS:
        return _build(spec, players.AGENTS[name], options, seed=seed)
    if name in players.MODELS or name.endswith(players.MODEL_FILES):
        return _build(spec, players.model, options, players.MODELS.get(name, name), seed=seed)
    if ":" not in name:
        raise GoldRushError(f"unknown agent {excerpt(name)}: expected one of {sorted(players.AGENTS)}, "
                            f"{' or '.join(map(repr, players.MODELS))} (the shipped models), a model file "
                            f"({', '.join(players.MODEL_FILES)}) or 'package.module:Class' (the players of "
                            f"{game_spec(game).title})")
    module_name, _, class_name = name.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as error:
        raise GoldRushError(f"cannot load agent {excerpt(name)}: {error}") from None
    try:
        agent = _build(spec, factory, options, seed=seed)
    except TypeError:  # a class that takes no seed
        agent = _build(spec, factory, options)
    if not isinstance(agent, Policy):
        raise GoldRushError(f"agent {excerpt(spec)} does not follow the policy protocol (reset(seed), act(view))")
    return agent


moved(_moved.MODULES)
_DEFAULT_NAMES = ("AGENTS", "RandomAgent", "GreedyAgent", "ExpertAgent", "ISMCTSAgent")
"""The default game's players, offered here as well (0.2.0 had them here)."""


def __getattr__(name: str) -> Any:
    if name in _DEFAULT_NAMES:
        return getattr(players_of(DEFAULT_GAME), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["make_agent", "players_of", "parse_spec", "split_entrants", *_DEFAULT_NAMES]
