"""Trained models of the piecepack game played in numpy (see :class:`PiecepackTrained`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.piecepack import actions as A
from goldrush_env.policy import SeededPolicy


def shipped_model(num_players: int) -> Path:
    """Where the package keeps its trained model for ``num_players`` (3 or 4) seats, which ``python -m
    goldrush_train.piecepack.expert --num-players N ... --ship`` writes (or ``goldrush_train.piecepack.ppo``)."""
    return Path(__file__).with_name("models") / f"piecepack_{num_players}p.npz"


class PiecepackTrained(SeededPolicy):
    """A trained policy network played in numpy: the most likely legal action.

    ``path`` is a ``.npz`` written by ``python -m goldrush_train.piecepack.expert`` or ``...ppo`` (linear layers
    ``actor.0``, ``actor.2``, ... with tanh between them, from the 1,443 observation values to the 488 logits), or
    ``None`` for the shipped model for the game's number of players, chosen at each game's first action. A file
    played at another number of players than it records (``config.num_players``) plays on with a
    :class:`~goldrush_agents.weights.ModelSizeWarning`, once per number of players.
    """

    name = "taught"

    def __init__(self, path: str | Path | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.path = None if path is None else Path(path)
        self.layers: list[tuple[np.ndarray, np.ndarray]] | None = None
        self.num_players: int | None = None
        self._warned: set[int] = set()
        self.by_size = self.path is None
        if self.path is not None:
            self.layers, self.num_players = self._load(self.path)

    @staticmethod
    def _load(path: Path) -> tuple[list[tuple[np.ndarray, np.ndarray]], int | None]:
        from goldrush_agents.weights import load_weights, tanh_mlp_layers
        from goldrush_env.piecepack.encoder import OBSERVATION_SIZE

        weights = load_weights(path)
        if str(weights.get("config.game", "")) != "piecepack":
            raise GoldrushEnvError(f"{str(path)!r} is not a piecepack model (it has no config.game = 'piecepack')")
        try:
            layers = tanh_mlp_layers(weights)
        except GoldrushEnvError as error:
            raise GoldrushEnvError(f"{str(path)!r}: {error}") from None
        shape = (layers[0][0].shape[0], layers[-1][0].shape[1])
        if shape != (OBSERVATION_SIZE, A.NUM_ACTIONS):
            raise GoldrushEnvError(f"{str(path)!r} maps {shape} (inputs, actions); this version needs "
                                   f"({OBSERVATION_SIZE}, {A.NUM_ACTIONS})")
        size = weights.get("config.num_players")
        return layers, None if size is None else int(size)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The network's 488 logits for one observation vector."""
        from goldrush_agents.weights import tanh_mlp

        return tanh_mlp(self.layers, np.asarray(observation, np.float32))

    def act(self, view: Any) -> int:
        from goldrush_agents.weights import warn_size

        players = len(view.knowledge["holdings"])
        if self.by_size and players != self.num_players:  # the shipped model for this number of players
            path = shipped_model(players)
            if not path.is_file():
                raise GoldrushEnvError(f"no shipped piecepack model for {players} players at {str(path)!r}")
            self.path, (self.layers, _), self.num_players = path, self._load(path), players
        elif self.num_players is not None and players != self.num_players and players not in self._warned:
            self._warned.add(players)
            warn_size(self.path, self.num_players, players)
        logits = np.where(np.asarray(view.action_mask, bool), self.logits(view.observation), -np.inf)
        return int(logits.argmax())

    def __repr__(self) -> str:
        return f"PiecepackTrained({None if self.path is None else str(self.path)!r})"
