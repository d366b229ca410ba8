"""goldrush-env: Reiner Knizia's card game *Gold* as a reinforcement-learning environment.

``goldrush_env.env()`` / ``raw_env`` is the PettingZoo AEC environment;
``gymnasium.make("goldrush_env:GoldRush-v0")`` the single-agent Gymnasium one
(``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` its
batched :class:`GoldRushVectorEnv`);
``goldrush_env.engine.Game`` the rules alone.
"""

import gymnasium
import pettingzoo

from goldrush_env.aec import env, raw_env
from goldrush_env.batched import BatchedGames
from goldrush_env.config import EnvConfig
from goldrush_env.engine import FlipEvent, Game, Outcome
from goldrush_env.errors import GoldRushError, IllegalFlipError, LayoutError, UnknownOptionError
from goldrush_env.gym_env import GoldRushEnv
from goldrush_env.policy import Policy, RandomPolicy
from goldrush_env.vector import GoldRushVectorEnv
from goldrush_env.view import PlayerView

__version__ = "0.2.0"

GYM_ID = "GoldRush-v0"
PETTINGZOO_ID = "goldrush_env/gold-v0"
GYM_TABLE_IDS = {"half": "GoldRushHalf-v0", "quarter": "GoldRushQuarter-v0"}
"""The smaller tables as Gymnasium ids of their own (``table="half"``, ``"quarter"`` of ``GoldRush-v0``)."""

# Defaults live in EnvConfig: the main id registers no kwargs of its own, a smaller table only its table.
for _id, _kwargs in [(GYM_ID, {})] + [(i, {"table": t}) for t, i in GYM_TABLE_IDS.items()]:
    if _id not in gymnasium.registry:
        gymnasium.register(_id, entry_point="goldrush_env.gym_env:GoldRushEnv",
                           vector_entry_point="goldrush_env.vector:GoldRushVectorEnv", kwargs=_kwargs)
if hasattr(pettingzoo, "register") and PETTINGZOO_ID not in getattr(pettingzoo, "aec_registry", {}):
    pettingzoo.register("aec", PETTINGZOO_ID, entry_point="goldrush_env.aec:env")

PIECEPACK_GYM_ID = "GoldRushPiecepack-v0"
"""The second game, *Gold Rush* for the piecepack (:mod:`goldrush_env.piecepack`), one learner."""
PIECEPACK_PETTINGZOO_ID = "goldrush_env/piecepack-v0"
if PIECEPACK_GYM_ID not in gymnasium.registry:
    gymnasium.register(PIECEPACK_GYM_ID, entry_point="goldrush_env.piecepack.gym_env:PiecepackEnv")
if hasattr(pettingzoo, "register") and PIECEPACK_PETTINGZOO_ID not in getattr(pettingzoo, "aec_registry", {}):
    pettingzoo.register("aec", PIECEPACK_PETTINGZOO_ID, entry_point="goldrush_env.piecepack.aec:env")

__all__ = ["env", "raw_env", "EnvConfig", "GoldRushEnv", "GoldRushVectorEnv", "BatchedGames", "Game", "FlipEvent",
           "Outcome", "Policy", "RandomPolicy", "PlayerView", "GoldRushError", "IllegalFlipError", "LayoutError",
           "UnknownOptionError", "GYM_ID", "GYM_TABLE_IDS", "PETTINGZOO_ID", "PIECEPACK_GYM_ID",
           "PIECEPACK_PETTINGZOO_ID", "__version__"]
