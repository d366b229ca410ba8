"""Players of Nim: random, and the winning strategy of the nim-sum."""

from __future__ import annotations

from functools import reduce
from operator import xor

import numpy as np

from goldrush_env.policy import RandomPolicy, SeededPolicy

from nim_game.rules import MOST


class Perfect(SeededPolicy):
    """Leaves heaps whose sizes XOR to zero when it can (a win at two players), else takes one stone at random."""

    def act(self, view) -> int:
        heaps = view.knowledge["heaps"]
        total = reduce(xor, heaps)
        for heap, stones in enumerate(heaps):
            if total and stones ^ total < stones:
                return heap * MOST + (stones - (stones ^ total)) - 1
        legal = np.flatnonzero(view.action_mask)
        return int(legal[self.rng.integers(len(legal))])


AGENTS = {"random": RandomPolicy, "perfect": Perfect}
OPPONENTS = ("random", "perfect")
