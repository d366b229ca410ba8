"""Trained models for every game: reading a model file, and plain networks run in numpy.

A model is a ``.npz`` of named weight arrays (the training scripts write one with the network's ``config.*``
beside them); a MaskablePPO ``.zip`` checkpoint is read too when torch is installed. Each game's trained player
(``goldrush_agents.<game>.trained``) builds its network from these weights.
"""

from __future__ import annotations

import io
import warnings
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from goldrush_env.errors import GoldrushEnvError, install_line


class ModelSizeWarning(UserWarning):
    """A model is playing at a number of players it was not trained for."""


def warn_size(path: Path, trained_for: int, playing: int) -> None:
    """Warn that the model at ``path``, trained for ``trained_for`` players, is playing a ``playing``-player game
    (from the caller's caller: the player asked to act)."""
    warnings.warn(f"{str(path)!r} was trained for {trained_for} players and is playing a {playing}-player game: "
                  f"it plays on, below its level (the package's model for {playing} players is the entrant 'taught')",
                  ModelSizeWarning, stacklevel=3)


def load_weights(path: str | Path) -> dict[str, Any]:
    """The network weights in a ``.npz`` model or a MaskablePPO ``.zip`` checkpoint."""
    path = Path(path)
    if not path.is_file():
        raise GoldrushEnvError(f"no model file at {str(path)!r}")
    if path.suffix == ".npz":
        if not zipfile.is_zipfile(path):
            raise GoldrushEnvError(f"{str(path)!r} is not a .npz model: the file is not a numpy archive")
        try:
            with np.load(path) as data:
                return {name: data[name] for name in data.files}
        except (OSError, ValueError, zipfile.BadZipFile) as error:
            raise GoldrushEnvError(f"{str(path)!r} is not a readable .npz model: {error}") from None
    if path.suffix == ".zip":
        return _weights_in_checkpoint(path)
    raise GoldrushEnvError(f"unknown model format {path.suffix!r} for {str(path)!r}: expected .npz or .zip")


_NET_PREFIX = "mlp_extractor.net."
"""Where :class:`goldrush_train.gold.network.MaskableGoldPolicy` keeps the network in its state dict."""


def _weights_in_checkpoint(path: Path) -> dict[str, Any]:
    """The network's weights in a MaskablePPO ``.zip``, read from its ``policy.pth`` with torch alone.

    Reading the state dict, not unpickling the model, keeps players free of the
    training code (``goldrush_train`` builds on this package, not the other way).
    """
    try:
        import torch
    except ImportError:
        raise GoldrushEnvError(f"loading the MaskablePPO checkpoint {str(path)!r} needs torch, of the 'train' extra "
                               f"({install_line('train')}), or play its .npz model instead") from None
    try:
        with zipfile.ZipFile(path) as archive, archive.open("policy.pth") as handle:
            state = torch.load(io.BytesIO(handle.read()), map_location="cpu", weights_only=True)
    except (zipfile.BadZipFile, KeyError, RuntimeError, EOFError) as error:
        raise GoldrushEnvError(f"{str(path)!r} is not a MaskablePPO checkpoint of this package: {error}") from None
    weights = {name[len(_NET_PREFIX):]: tensor.numpy() for name, tensor in state.items()
               if name.startswith(_NET_PREFIX)}
    if not weights:
        raise GoldrushEnvError(f"{str(path)!r} holds a policy without the GoldNet network "
                               f"(no weights named {_NET_PREFIX}*): it was not trained by goldrush_train.gold.ppo")
    return weights


_CONTROLLER = None


def one_blas_thread():
    """A context in which numpy's BLAS uses one thread.

    The matrices are tiny: with several threads per process (and a process
    per core in tournaments) BLAS spends its time waiting for its threads,
    20 times slower than one thread on a loaded two-core machine.
    """
    global _CONTROLLER
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=1, user_api="blas")


def tanh_mlp_layers(weights: dict[str, Any]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (weight, bias) pairs of a plain MLP in ``weights``: linear layers ``actor.0``, ``actor.2``, ... (the
    odd indices are the tanh between them, as in a torch ``Sequential``), weights transposed for ``x @ w``."""
    layers, index = [], 0
    while f"actor.{index}.weight" in weights:
        layers.append((np.asarray(weights[f"actor.{index}.weight"], np.float32).T.copy(),
                       np.asarray(weights[f"actor.{index}.bias"], np.float32)))
        index += 2
    if not layers:
        raise GoldrushEnvError("not an MLP model: it has no weights named actor.0.weight")
    return layers


def tanh_mlp(layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> np.ndarray:
    """The output of :func:`tanh_mlp_layers`' network for ``x``: each layer linear, tanh between them."""
    for k, (weight, bias) in enumerate(layers):
        x = x @ weight + bias
        if k < len(layers) - 1:
            x = np.tanh(x)
    return x


__all__ = ["load_weights", "tanh_mlp_layers", "tanh_mlp", "one_blas_thread"]
