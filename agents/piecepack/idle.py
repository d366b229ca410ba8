"""The idle player: the do-nothing baseline of Gold Rush (see :class:`Idle`)."""

from __future__ import annotations

from typing import Any

from goldrush_env.piecepack import actions as A

PASSES = (A.END_DEVELOPMENT, A.END_FREE_TRADE, A.DECLINE, A.WAREHOUSE_DECLINE)
"""The actions that end a decision without doing anything, tried in this order."""


class Idle:
    """Ends its turns, declines every offer and claims the lowest free plot: whenever a pass is legal it
    passes, otherwise it takes the legal action of lowest index. Deterministic, so it takes no seed.

    Doing nothing is strong in this game (docs/piecepack-rules.md §10: the last Food never spoils and Food
    breaks ties), which makes idle players the field that ``benchmarks/piecepack_ladder.py`` and
    ``benchmarks/piecepack_ceiling.py`` measure the other players against."""

    name = "idle"

    def __init__(self, seed: int | None = None) -> None:
        pass  # deterministic: a seed (which make_agent gives every player) changes nothing

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, view: Any) -> int:
        return next((a for a in PASSES if view.action_mask[a]), int(view.action_mask.argmax()))
