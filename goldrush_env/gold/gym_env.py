"""The Gymnasium environment: one learning agent at one seat, the others played by policies.

``gymnasium.make("goldrush_env:Gold-v1", ...)`` or ``GoldEnv(...)``.
The learner holds one seat (drawn each episode by default, ``seat="random"``,
or fixed with ``seat=k``); the opponents' flips happen inside :meth:`step`, so each
step returns the learner's next observation and *its* reward, losses
included. Observations are the flat vector of the AEC environment
(:mod:`goldrush_env.gold.aec` documents it); the legal actions come from
:meth:`GoldEnv.action_masks` (what sb3-contrib's MaskablePPO calls) and
``info["action_mask"]`` (both bool). Game options are those of
:class:`~goldrush_env.gold.config.EnvConfig`, with the same defaults: the
learner's actions are kinds of card (``action="kinds"``,
:mod:`goldrush_env.gold.variants`) and ``info["position"]`` is the position
its last action flipped; the opponents still choose positions. At a game's
last step ``info["winners"]`` and ``info["seat"]`` say whether the learner
won, whatever the reward. The mask
of the observation that ends a game allows action 0 alone, so that a
vector wrapper's sampler can draw the action its autoreset ignores.

A flip the rules forbid (an empty or face-up position) ends the episode
with reward -1 and ``info["illegal_action"]`` saying why, after a warning,
as PettingZoo's ``env()`` does for classic games; ``illegal_action="raise"``
raises :class:`~goldrush_env.errors.IllegalFlipError` instead. An action
outside the action space always raises.

## Version History

* v1: the ids name the game (``Gold-v1``, ``GoldHalf-v1``,
  ``GoldQuarter-v1``), and the defaults are ``action="kinds"``, ``observation="kinds"``,
  ``reward="score"`` and ``seat="random"``, under which SB3's MaskablePPO
  learns as it stands (docs/libraries.md). ``GoldRush-v0``,
  ``GoldRushHalf-v0`` and ``GoldRushQuarter-v0`` still make version 0's
  environment (``action="positions", observation="plain", reward="win",
  seat=0``), with a warning, until the next release.
* v0: first release.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from goldrush_env.gold.aec import raw_env
from goldrush_env.errors import GoldRushError, IllegalFlipError
from goldrush_env.learner import OneLearnerEnv
from goldrush_env.policy import Policy


class GoldEnv(OneLearnerEnv):
    """Gold for one learner. ``opponents``: ``None`` (uniformly random legal flips),
    one policy for every other seat, or one policy per other seat, in seat order
    after the learner's. ``seat``: the learner's seat, or ``"random"``.
    ``illegal_action``: ``"terminate"`` (end the episode with -1) or ``"raise"``."""

    metadata = {"render_modes": list(raw_env.metadata["render_modes"]), "render_fps": 2}
    error = GoldRushError
    illegal_error = IllegalFlipError

    def __init__(self, opponents: Policy | Sequence[Policy] | None = None, seat: int | str = "random",
                 illegal_action: str = "terminate", **config: Any) -> None:
        super().__init__(raw_env(**config), opponents, seat, illegal_action)

    def observe_learner(self) -> tuple[np.ndarray, dict[str, Any]]:
        """:meth:`OneLearnerEnv.observe_learner <goldrush_env.learner.OneLearnerEnv.observe_learner>`, and with
        ``action="kinds"`` the position the learner's last action flipped (``info["position"]``)."""
        observation, info = super().observe_learner()
        position = self.game_env.infos[self._agent].get("position")
        if position is not None:
            info["position"] = position
        return observation, info
