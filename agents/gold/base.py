"""The base of the scripted players: a seeded generator and the rule for the rush they share."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from goldrush_env.gold.cards import IS_GOLD, VALUE
from goldrush_env.policy import SeatView, SeededPolicy

from goldrush_agents.gold.knowledge import Knowledge

if TYPE_CHECKING:
    from goldrush_env.gold.vector import KernelPlayer


class ScriptedAgent(SeededPolicy):
    """A policy (``reset(seed)``, ``act(view)``) with its own seeded generator for ties and exploration."""

    name = "scripted"
    in_kernel = False
    """Whether Gold's kernel has a compiled form of this very class, under its :attr:`name`. A subclass, which may
    play otherwise, has none whatever its parent says: :meth:`kernel_player` reads the class's own attribute."""

    def kernel_player(self) -> KernelPlayer | None:
        """This player compiled into Gold's kernel, where :class:`goldrush_env.gold.gym_env.GoldEnv` plays it inside
        its step: the same flips, its random choices drawn from the game's stream; None if it has no compiled form."""
        return compiled(self.name) if type(self).__dict__.get("in_kernel", False) else None

    def act(self, view: SeatView) -> int:
        knowledge = Knowledge.of(view)
        if view.gold_rush:
            return self.gold_rush(knowledge)
        if view.face_up is None:
            return self.first_flip(knowledge)
        return self.second_flip(knowledge, view.cards[view.face_up])

    def first_flip(self, knowledge: Knowledge) -> int:
        raise NotImplementedError

    def second_flip(self, knowledge: Knowledge, face_up: int) -> int:
        raise NotImplementedError

    def gold_rush(self, knowledge: Knowledge) -> int:
        """Remembered gold first (the biggest), then a card it cannot place, then anything."""
        golds = [(VALUE[card], p) for p, card in knowledge.known.items() if IS_GOLD[card]]
        if golds:
            return max(golds)[1]
        if knowledge.unknown:
            return self.pick(knowledge.unknown)
        return self.pick(list(knowledge.known))

    def pick(self, positions: list[int]) -> int:
        return int(positions[self.rng.integers(len(positions))])

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


@cache
def compiled(name: str) -> KernelPlayer:
    """The scripted player ``name`` compiled into Gold's kernel (:func:`goldrush_agents.gold.batched.batched_policy`),
    made once: it holds nothing of a game, so every environment may share it."""
    from goldrush_agents.gold.batched import batched_policy  # batched builds on the players: imported when asked

    return batched_policy(name)
