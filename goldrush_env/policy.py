"""The policy protocol: anything that picks an action from what one seat knows.

Scripted players, trained models and people all implement it, so each can
sit at any seat of an AEC environment or be an opponent inside a Gymnasium
environment. A policy reads its game's view of one seat (each game's AEC
environment makes them: ``env.view(seat)``), whatever else it holds, and
returns a legal action. Every game's view has ``action_mask``, a flag per
action, and ``observation``, the seat's flat vector: all that
:class:`RandomPolicy` reads is the mask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Policy(Protocol):
    def reset(self, seed: int | None = None) -> None:
        """Start a new game; ``seed`` (if given) reseeds any randomness of the policy."""

    def act(self, view: Any) -> int:
        """A legal action (``view.action_mask[action]`` is set) for the seat whose view this is."""


@dataclass(frozen=True)
class SeatView:
    """What one seat knows at one moment, as every game's players read it: scripted players read ``knowledge``, in
    the game's own form (``known_to(seat)`` of its rules; Gold's is a
    :class:`~goldrush_env.gold.view.CardKnowledge`), learned ones ``observation``, the seat's flat vector;
    ``action_mask`` is all 0 when the seat is not to act. Where the knowledge is an object, its fields read on the
    view as well (Gold's players write ``view.cards``). ``seat`` is None in Gold's all-seeing debugging view."""

    seat: int | None
    knowledge: Any
    action_mask: np.ndarray
    observation: np.ndarray

    @property
    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.action_mask)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "knowledge":  # copy's and pickle's hooks; a field not yet set
            raise AttributeError(name)
        return getattr(self.knowledge, name)


class SeededPolicy:
    """A base for policies with their own generator, which ``reset(seed)`` reseeds."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)


class RandomPolicy(SeededPolicy):
    """A uniformly random legal action, from its own generator."""

    def act(self, view: Any) -> int:
        legal = np.flatnonzero(view.action_mask)
        return int(legal[self.rng.integers(len(legal))])
