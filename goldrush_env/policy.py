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
    """What one seat knows, as most games' players read it (Gold's players read a richer view of their own):
    scripted players read ``knowledge`` (``known_to(seat)`` of the game's rules), learned ones ``observation``, the
    seat's flat vector; ``action_mask`` (bool) is all False when the seat is not to act."""

    seat: int
    knowledge: Any
    action_mask: np.ndarray
    observation: np.ndarray

    @property
    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.action_mask)


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
