"""The policy protocol: anything that picks an action from what one seat knows.

Scripted players, trained models and people all implement it, so each can
sit at any seat of an AEC environment or be an opponent inside a Gymnasium
environment. In *Gold* a policy reads a :class:`~goldrush_env.view.PlayerView`
(the structured view, with the flat ``observation`` and ``action_mask`` in
it) and returns a legal position to flip; in the piecepack game it reads a
:class:`~goldrush_env.piecepack.aec.PiecepackView` (``knowledge``,
``action_mask``, ``observation``) and returns a legal action of the 488.
Both views have ``action_mask``, all that :class:`RandomPolicy` reads.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from goldrush_env.view import PlayerView


@runtime_checkable
class Policy(Protocol):
    def reset(self, seed: int | None = None) -> None:
        """Start a new game; ``seed`` (if given) reseeds any randomness of the policy."""

    def act(self, view: PlayerView) -> int:
        """A legal action (``view.action_mask[action]`` is set): in Gold, the position to flip."""


class SeededPolicy:
    """A base for policies with their own generator, which ``reset(seed)`` reseeds."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)


class RandomPolicy(SeededPolicy):
    """A uniformly random legal action (in Gold, a position to flip), from its own generator."""

    def act(self, view: PlayerView) -> int:
        legal = np.flatnonzero(view.action_mask)
        return int(legal[self.rng.integers(len(legal))])
