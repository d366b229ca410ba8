"""Players for goldrush-env, from random to strong, all following the
:class:`goldrush_env.policy.Policy` protocol (``reset(seed)``, ``act(view)``).

``make_agent("greedy", seed=1)`` builds one by name; ``"ppo"`` is the
trained model the package ships, a path ending in ``.npz`` or ``.zip`` any
trained model (:mod:`agents.trained`), and a ``"module:Class"`` import path
any class that follows the protocol.
"""

from __future__ import annotations

import importlib
from typing import Callable

from goldrush_env.errors import GoldRushError
from goldrush_env.policy import Policy

from agents.expert import ExpertAgent
from agents.greedy import GreedyAgent
from agents.random_agent import RandomAgent
from agents.search import ISMCTSAgent

AGENTS: dict[str, Callable[..., Policy]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "expert": ExpertAgent,
    "ismcts": ISMCTSAgent,
}
"""The scripted players by name, weakest first (``ismcts`` at its default budget plays about as well as
``expert``; see the README ladder)."""


def make_agent(spec: str, seed: int | None = None) -> Policy:
    """A player from a name in :data:`AGENTS` or a ``"package.module:Class"`` import path."""
    if spec in AGENTS:
        return AGENTS[spec](seed=seed)
    if spec == "ppo" or spec.endswith((".npz", ".zip")):
        from agents.trained import SHIPPED_MODEL, TrainedPolicy

        return TrainedPolicy(SHIPPED_MODEL if spec == "ppo" else spec, seed=seed)
    if ":" not in spec:
        raise GoldRushError(f"unknown agent {spec!r}: expected one of {sorted(AGENTS)}, 'ppo' (the shipped model), "
                           "a model file (.npz, .zip) or 'package.module:Class'")
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


__all__ = ["AGENTS", "make_agent", "RandomAgent", "GreedyAgent", "ExpertAgent", "ISMCTSAgent"]
