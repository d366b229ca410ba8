"""Players for goldrush-env, from random to strong, all following the
:class:`goldrush_env.policy.Policy` protocol (``reset(seed)``, ``act(view)``).

``make_agent("greedy", seed=1)`` builds one by name; a ``"module:Class"``
import path builds any class that follows the protocol.
"""

from __future__ import annotations

import importlib
from typing import Callable

from goldrush_env.errors import GoldRushError
from goldrush_env.policy import Policy

from agents.expert import ExpertAgent
from agents.greedy import GreedyAgent
from agents.random_agent import RandomAgent

AGENTS: dict[str, Callable[..., Policy]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "expert": ExpertAgent,
}
"""The scripted players by name, weakest first."""


def make_agent(spec: str, seed: int | None = None) -> Policy:
    """A player from a name in :data:`AGENTS` or a ``"package.module:Class"`` import path."""
    if spec in AGENTS:
        return AGENTS[spec](seed=seed)
    if ":" not in spec:
        raise GoldRushError(f"unknown agent {spec!r}: expected one of {sorted(AGENTS)} or 'package.module:Class'")
    module_name, _, class_name = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as error:
        raise GoldRushError(f"cannot load agent {spec!r}: {error}") from None
    try:
        agent = factory(seed=seed)
    except TypeError:
        agent = factory()
    if not isinstance(agent, Policy):
        raise GoldRushError(f"agent {spec!r} does not follow the policy protocol (reset(seed), act(view))")
    return agent


__all__ = ["AGENTS", "make_agent", "RandomAgent", "GreedyAgent", "ExpertAgent"]
