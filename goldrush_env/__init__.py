"""goldrush-env: Reiner Knizia's card game *Gold* as a reinforcement-learning environment."""

from goldrush_env.engine import FlipEvent, Game, Outcome
from goldrush_env.errors import GoldRushError, IllegalFlipError, LayoutError

__version__ = "0.1.0"

__all__ = ["Game", "FlipEvent", "Outcome", "GoldRushError", "IllegalFlipError", "LayoutError", "__version__"]
