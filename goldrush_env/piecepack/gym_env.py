"""The Gymnasium environment of *Gold Rush* (piecepack): one learner at one seat, the others played by policies.

``gymnasium.make("GoldRushPiecepack-v0", ...)`` or ``PiecepackEnv(...)``.
The learner holds one seat (fixed, or drawn each episode with
``seat="random"``); the other seats' actions happen inside :meth:`step`, so
each step returns the learner's next observation and *its* reward, paid
during the others' actions included. Observations are the seat's flat
vector of the AEC environment (:mod:`goldrush_env.piecepack.aec` documents
it); the legal actions come from :meth:`PiecepackEnv.action_masks` (what
sb3-contrib's MaskablePPO calls) and ``info["action_mask"]`` (both bool, 488;
at the observation that ends a game, action 0 alone, so that a vector
wrapper's sampler can draw the action its autoreset ignores). Game options are those of :class:`~goldrush_env.piecepack.aec.PiecepackConfig`,
with the same defaults.

Opponents are policies with ``reset(seed)`` and ``act(view) -> int``, where
``view`` is a :class:`~goldrush_env.policy.SeatView` (``seat``,
``knowledge = game.known_to(seat)``, a bool ``action_mask`` and the seat's
``observation``); the default, :class:`goldrush_env.policy.RandomPolicy`,
takes a uniformly random legal action from its own seeded generator.

An action the rules forbid now ends the episode with reward -1 and
``info["illegal_action"]`` saying why, after a warning, as PettingZoo's
``env()`` does for classic games; ``illegal_action="raise"`` raises
:class:`~goldrush_env.piecepack.errors.IllegalActionError` instead. An action
outside ``Discrete(488)`` always raises.

## Version History

* v0: first release.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from goldrush_env.learner import OneLearnerEnv
from goldrush_env.piecepack.aec import raw_env
from goldrush_env.piecepack.errors import IllegalActionError, PiecepackError
from goldrush_env.policy import Policy

__all__ = ["PiecepackEnv"]


class PiecepackEnv(OneLearnerEnv):
    """*Gold Rush* (piecepack) for one learner. ``opponents``: ``None`` (uniformly random legal actions), one
    policy for every other seat, or one policy per other seat, in seat order after the learner's. ``seat``: the
    learner's seat, or ``"random"``. ``illegal_action``: ``"terminate"`` (end the episode with -1) or
    ``"raise"``. Other options go to :class:`~goldrush_env.piecepack.aec.PiecepackConfig`."""

    metadata = {"render_modes": list(raw_env.metadata["render_modes"]), "render_fps": 2}
    error = PiecepackError
    illegal_error = IllegalActionError

    def __init__(self, opponents: Policy | Sequence[Policy] | None = None, seat: int | str = 0,
                 illegal_action: str = "terminate", **options: Any) -> None:
        super().__init__(raw_env(**options), opponents, seat, illegal_action)
