"""Players of *Gold Rush* on a piecepack (``goldrush_env.piecepack``).

A player follows the policy protocol: ``reset(seed=None)`` and ``act(view) -> int``, where ``view`` (the AEC
environment's ``view(seat)``) has ``seat``, ``knowledge`` (what ``Game.known_to(seat)`` returns: the public
state plus this seat's own assays), ``action_mask`` (bool, 488) and ``observation``. Players read the view
alone, never the game.

* ``idle``: ends its turns and declines every offer, the do-nothing baseline
  (:class:`~goldrush_agents.piecepack.idle.Idle`); ``random``: a uniformly random legal action.
* ``economist``: a readable heuristic economy, :class:`~goldrush_agents.piecepack.economist.PiecepackEconomist`.
* ``search``: a Monte Carlo search over the dice and the pieces the seat has not seen, at the claims and the
  Development turns (:class:`~goldrush_agents.piecepack.search.PiecepackSearch`; ``search[rollouts=16]``).
* ``taught``: the shipped trained model for the game's number of players (a network fitted by expert iteration to
  the search's choices in the positions of its own games), :class:`~goldrush_agents.piecepack.trained.PiecepackTrained`;
  a ``.npz`` written by ``python -m goldrush_train.piecepack.expert`` or ``...ppo`` plays by its path.

``goldrush_agents.make_agent("economist", game="piecepack", seed=1)`` builds one by name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goldrush_env.policy import SeatView
from goldrush_env.piecepack.encoder import observation_vector
from goldrush_env.piecepack.engine import Game
from goldrush_env.policy import RandomPolicy

from goldrush_agents.piecepack.economist import PiecepackEconomist
from goldrush_agents.piecepack.idle import Idle
from goldrush_agents.piecepack.search import PiecepackSearch
from goldrush_agents.piecepack.trained import PiecepackTrained, shipped_model


class PiecepackRandom(RandomPolicy):
    """A uniformly random legal action (seeded): the bottom of the ladder."""

    name = "random"


AGENTS: dict[str, Callable[..., Any]] = {
    "idle": Idle,
    "random": PiecepackRandom,
    "economist": PiecepackEconomist,
    "search": PiecepackSearch,
}
"""The scripted players by name, weakest first."""
OPPONENTS = ("random", "economist")
"""What a model is measured against by default, weakest first; a person plays ``economist`` unless told
otherwise."""
MODELS: dict[str, Any] = {"taught": None}
"""The shipped models by name: ``taught``, the model for the game's number of players, chosen at its first move."""
MODEL_FILES = (".npz",)
"""Model files this game's trained player reads."""
model = PiecepackTrained
"""The trained player: ``model(path, seed=...)``, ``path`` None for the shipped model of each number of players."""


def view_of(game: Game, seat: int) -> SeatView:
    """The view of ``seat`` now, as the environments give it: only what that seat knows, plus the legal mask."""
    knowledge = game.known_to(seat)
    return SeatView(seat, knowledge, game.legal_mask(), observation_vector(knowledge))


__all__ = ["AGENTS", "OPPONENTS", "MODELS", "MODEL_FILES", "model", "view_of", "Idle", "PiecepackRandom",
           "PiecepackEconomist",
           "PiecepackSearch", "PiecepackTrained", "shipped_model"]
