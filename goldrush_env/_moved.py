"""What moved in 0.3.0, when each game became a package of its own: the old paths and names, kept for one version.

This module and the registry (:mod:`goldrush_env.games`) are the only shared modules that name a game.

``moved({"goldrush_env.engine": "goldrush_env.gold.engine", ...})`` makes ``import goldrush_env.engine`` give the
module ``goldrush_env.gold.engine`` itself (the same object: its classes, its private names, what a test patches),
with a :class:`DeprecationWarning` that names the new path. Nothing is copied and no file is kept at the old path.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from types import ModuleType


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, paths: dict[str, str]) -> None:
        self.paths = paths

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if name not in self.paths:
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = self.paths[spec.name]
        warnings.warn(f"{spec.name} has moved to {new}; the old name goes in a later version", DeprecationWarning,
                      stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        pass  # the module it stands for has run already


def moved(paths: dict[str, str]) -> None:
    """Let each old module path of ``paths`` import as the module it moved to."""
    sys.meta_path.append(_Alias(dict(paths)))


MODULES = {f"goldrush_env.{module}": f"goldrush_env.gold.{module}" for module in (
    "engine", "cards", "aec", "gym_env", "encoder", "state", "memory", "view", "render", "match", "batched",
    "_batched_numba", "vector", "rllib", "config")}
"""Gold's modules lived at the top of the package before 0.3.0."""
NAMES = {"PIECEPACK_GYM_ID": "GoldRushPiecepack-v0", "PIECEPACK_PETTINGZOO_ID": "goldrush_env/piecepack-v0"}
"""Names the top of the package kept for the piecepack game: its ids (``goldrush_env.piecepack.GAME`` has them)."""

__all__ = ["moved", "MODULES", "NAMES"]
