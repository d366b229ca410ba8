"""*Gold Rush* for the piecepack (PIECEPACK.md): the second game of the package.

``goldrush_env.piecepack.engine.Game`` holds the rules alone;
``goldrush_env.piecepack.actions`` the 488 action indices. Importing this
package loads nothing: the names below are fetched on first use.
"""

from importlib import import_module

_LAZY = {
    "Game": "engine", "Event": "engine", "Phase": "engine",
    "PiecepackError": "errors", "SetupError": "errors", "IllegalActionError": "errors",
    "NUM_ACTIONS": "actions", "describe": "actions", "decode": "actions",
}

__all__ = [
    "NUM_ACTIONS",
    "Event",
    "Game",
    "IllegalActionError",
    "Phase",
    "PiecepackError",
    "SetupError",
    "decode",
    "describe",
]


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(f"goldrush_env.piecepack.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'goldrush_env.piecepack' has no attribute {name!r}")
