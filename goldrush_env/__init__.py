"""goldrush-env: Reiner Knizia's card game *Gold*, and *Gold Rush* for the piecepack, as reinforcement-learning
environments.

Each game is a package of its own (:mod:`goldrush_env.gold`, :mod:`goldrush_env.piecepack`) with its rules
engine, its PettingZoo AEC environment (``goldrush_env.gold.env()``, ``goldrush_env.piecepack.env()``) and its
Gymnasium environment; :mod:`goldrush_env.games` lists them. Beside them stand the modules every game shares:
the game protocol (:mod:`~goldrush_env.protocol`), the policy protocol (:mod:`~goldrush_env.policy`), the
environments' common bases (:mod:`~goldrush_env.aec_base`, :mod:`~goldrush_env.learner`), their options
(:mod:`~goldrush_env.options`), wrappers, the window and the errors.

Every game's Gymnasium and PettingZoo ids are registered on import (``gymnasium.make("GoldRush-v0")``,
``gymnasium.make("GoldRushPiecepack-v0")``). The names of the default game, *Gold*, are here too:
``goldrush_env.env()`` is its AEC environment and ``goldrush_env.Game`` its rules.
"""

from importlib import import_module

import gymnasium
import pettingzoo

from goldrush_env import _moved
from goldrush_env.errors import GoldRushError, IllegalFlipError, LayoutError, UnknownOptionError
from goldrush_env.games import DEFAULT_GAME, GAMES, GameSpec, spec, specs
from goldrush_env.policy import Policy, RandomPolicy
from goldrush_env.protocol import Result, Rules

__version__ = "0.2.0"

for _game in specs():
    for _id, _kwargs in _game.gym_ids.items():  # the defaults live in each game's config, not in its ids
        if _id not in gymnasium.registry:
            gymnasium.register(_id, entry_point=_game.gym, vector_entry_point=_game.vector, kwargs=_kwargs)
    if hasattr(pettingzoo, "register") and _game.pettingzoo_id not in getattr(pettingzoo, "aec_registry", {}):
        pettingzoo.register("aec", _game.pettingzoo_id, entry_point=_game.aec)

_DEFAULT = spec(DEFAULT_GAME)
GYM_ID = next(iter(_DEFAULT.gym_ids))
"""The default game's main Gymnasium id (``GoldRush-v0``)."""
GYM_TABLE_IDS = {kwargs["table"]: gym_id for gym_id, kwargs in _DEFAULT.gym_ids.items() if "table" in kwargs}
"""Gold's smaller tables as Gymnasium ids of their own (``table="half"``, ``"quarter"`` of ``GoldRush-v0``)."""
PETTINGZOO_ID = _DEFAULT.pettingzoo_id

_DEFAULT_NAMES = ("env", "raw_env", "EnvConfig", "GoldRushEnv", "GoldRushVectorEnv", "BatchedGames", "Game",
                  "FlipEvent", "Outcome", "PlayerView")
"""Names of the default game's package offered here as well (``goldrush_env.env()``, ``goldrush_env.Game``)."""

_moved.moved(_moved.MODULES)


def __getattr__(name: str):
    if name in _DEFAULT_NAMES:
        return getattr(import_module(GAMES[DEFAULT_GAME]), name)
    if name in _moved.NAMES:
        return _moved.NAMES[name]
    raise AttributeError(f"module 'goldrush_env' has no attribute {name!r}")


__all__ = [*_DEFAULT_NAMES, "Policy", "RandomPolicy", "Rules", "Result", "GameSpec", "GAMES", "spec", "specs",
           "GoldRushError", "IllegalFlipError", "LayoutError", "UnknownOptionError", "GYM_ID", "GYM_TABLE_IDS",
           "PETTINGZOO_ID", *_moved.NAMES, "__version__"]
