"""goldrush-env: Reiner Knizia's card game *Gold*, and *Gold Rush* for the piecepack, as reinforcement-learning
environments.

Each game is a plug-in package (:mod:`goldrush_env.gold`, :mod:`goldrush_env.piecepack`, or one installed from
elsewhere) with its rules engine, its PettingZoo AEC environment (``goldrush_env.gold.env()``) and its Gymnasium
environment; :mod:`goldrush_env.games` is the registry that finds them. Beside them stand the modules every game
shares: the game protocol (:mod:`~goldrush_env.protocol`), the policy protocol (:mod:`~goldrush_env.policy`), the
environments' common bases (:mod:`~goldrush_env.aec_base`, :mod:`~goldrush_env.learner`) and the environments
a game gets from its rules alone (:mod:`~goldrush_env.rules_env`), their options (:mod:`~goldrush_env.options`),
wrappers, the window and the errors.

Every game's Gymnasium and PettingZoo ids are registered on import (``gymnasium.make("Gold-v1")``,
``gymnasium.make("GoldRushPiecepack-v0")``, ``pettingzoo.make("goldrush_env/gold-v1")``).
"""

from goldrush_env.errors import GoldrushEnvError, IllegalFlipError, LayoutError, UnknownOptionError
from goldrush_env.games import GameSpec, register_all, spec, specs
from goldrush_env.policy import Policy, RandomPolicy
from goldrush_env.protocol import Result, Rules

__version__ = "0.3.0"

register_all()

__all__ = ["Policy", "RandomPolicy", "Rules", "Result", "GameSpec", "spec", "specs", "GoldrushEnvError",
           "IllegalFlipError", "LayoutError", "UnknownOptionError", "__version__"]
