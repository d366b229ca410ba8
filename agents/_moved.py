"""What moved in 0.3.0, when each game's players became a package of their own: the old module paths, kept for one
version (they import as the moved modules, with a DeprecationWarning: :func:`goldrush_env._moved.moved`).

This module is the only shared module of ``goldrush_agents`` that names a game.
"""

MODULES = {
    **{f"goldrush_agents.{module}": f"goldrush_agents.gold.{module}" for module in (
        "random_agent", "greedy", "expert", "search", "trained", "knowledge", "base", "batched")},
    "goldrush_agents.piecepack_cli": "goldrush_agents.piecepack.cli",
}

__all__ = ["MODULES"]
