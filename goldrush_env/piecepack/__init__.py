"""*Gold Rush* for the piecepack, for 3 or 4 players (rules: docs/piecepack-rules.md, decisions P1-P46).

``goldrush_env.piecepack.engine.Game`` holds the rules alone;
``goldrush_env.piecepack.actions`` the 488 action indices;
``goldrush_env.piecepack.kernel`` the same game compiled, which writes the environments' masks and observations;
``goldrush_env.piecepack.env()`` is the PettingZoo AEC environment (:mod:`~goldrush_env.piecepack.aec`) and
:class:`~goldrush_env.piecepack.gym_env.PiecepackEnv` the Gymnasium one. Importing this package loads none of
them: the names below are fetched on first use.
"""

from importlib import import_module

from goldrush_env.games import GameSpec

GAME = GameSpec(
    name="piecepack", title="Gold Rush (piecepack)", min_players=3, max_players=4, default_players=3,
    rules="goldrush_env.piecepack.engine:Game",
    aec="goldrush_env.piecepack.aec:env", raw_aec="goldrush_env.piecepack.aec:raw_env",
    gym="goldrush_env.piecepack.gym_env:PiecepackEnv", pettingzoo_id="goldrush_env/piecepack-v0",
    gym_ids={"GoldRushPiecepack-v0": {}},
    text="goldrush_env.piecepack.render:to_text", picture="goldrush_env.piecepack.render:to_rgb",
    action_text="goldrush_env.piecepack.words:action_words",
    is_record="goldrush_env.piecepack.engine:is_record", tiebreak="food",
    chance="goldrush_env.piecepack.chance:PiecepackChance",
)
"""The piecepack game in the registry of games (:mod:`goldrush_env.games`; pyproject.toml declares it)."""

_LAZY = {
    "Game": "engine", "Event": "engine", "Phase": "engine",
    "PiecepackError": "errors", "SetupError": "errors", "IllegalActionError": "errors",
    "NUM_ACTIONS": "actions", "describe": "actions", "decode": "actions",
    "env": "aec", "raw_env": "aec", "PiecepackConfig": "aec", "PiecepackEnv": "gym_env",
}

__all__ = ["GAME", *_LAZY]  # every lazy name is public


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(f"goldrush_env.piecepack.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'goldrush_env.piecepack' has no attribute {name!r}")
