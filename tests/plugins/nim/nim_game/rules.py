"""The rules of Nim, following goldrush-env's game protocol (goldrush_env.protocol.Rules)."""

from __future__ import annotations

from typing import Any

import numpy as np

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.protocol import Result

HEAPS = (3, 4, 5)
MOST = max(HEAPS)
NUM_ACTIONS = len(HEAPS) * MOST
"""Action ``heap * MOST + (stones - 1)`` takes ``stones`` from ``heap``."""
MAX_PLAYERS = 3


class NimError(GoldrushEnvError):
    """An action the rules of Nim do not allow now."""


class Nim:
    def __init__(self, num_players: int, first_player: int) -> None:
        self.num_players = num_players
        self.first_player = first_player
        self.heaps = list(HEAPS)
        self.actions: list[int] = []
        self.winner: int | None = None
        self._player = first_player

    @classmethod
    def new(cls, num_players: int, seed: int | np.random.Generator | None = None, *,
            first_player: int | None = None) -> Nim:
        if isinstance(num_players, bool) or not isinstance(num_players, int) or not 2 <= num_players <= MAX_PLAYERS:
            raise NimError(f"num_players must be 2 or 3, got {num_players!r}")
        if first_player is None:
            rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
            first_player = int(rng.integers(num_players))
        elif not 0 <= first_player < num_players:
            raise NimError(f"first_player must be a seat from 0 to {num_players - 1}, got {first_player!r}")
        return cls(num_players, first_player)

    @classmethod
    def from_record(cls, record: dict) -> Nim:
        game = cls.new(record["num_players"], first_player=record["first_player"])
        for action in record["actions"]:
            game.step(action)
        return game

    def to_record(self) -> dict:
        return {"game": "nim", "num_players": self.num_players, "first_player": self.first_player,
                "actions": list(self.actions)}

    def copy(self) -> Nim:
        return Nim.from_record(self.to_record())

    @property
    def turn(self) -> int:
        return len(self.actions)

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self._player

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    is_finished = is_over

    @property
    def is_truncated(self) -> bool:
        return False

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        if not self.is_over:
            for heap, stones in enumerate(self.heaps):
                mask[heap * MOST:heap * MOST + stones] = True
        return mask

    def step(self, action: int) -> tuple[int, int]:
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= action < NUM_ACTIONS:
            raise NimError(f"action must be an int from 0 to {NUM_ACTIONS - 1}, got {action!r}")
        if not self.legal_mask()[action]:
            raise NimError(f"action {action} ({action_text(int(action), None)}) is not legal now")
        heap, stones = divmod(int(action), MOST)
        self.heaps[heap] -= stones + 1
        self.actions.append(int(action))
        if not any(self.heaps):
            self.winner = self._player
        else:
            self._player = (self._player + 1) % self.num_players
        return heap, stones + 1

    def result(self) -> Result:
        scores = tuple(int(seat == self.winner) for seat in range(self.num_players))
        return Result(scores, tuple(s for s in range(self.num_players) if scores[s] == max(scores)),
                      (0,) * self.num_players)

    def known_to(self, seat: int) -> dict[str, Any]:
        if not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise NimError(f"seat must be from 0 to {self.num_players - 1}, got {seat!r}")
        return {"seat": seat, "num_players": self.num_players, "heaps": tuple(self.heaps),
                "to_play": self.current_player, "winner": self.winner}


def observe(known: dict[str, Any]) -> np.ndarray:
    """Each heap's size one-hot, then the seat to play counted from the viewer."""
    vector = np.zeros(len(HEAPS) * (MOST + 1) + MAX_PLAYERS, dtype=np.float32)
    for heap, stones in enumerate(known["heaps"]):
        vector[heap * (MOST + 1) + stones] = 1
    if known["to_play"] is not None:
        vector[len(HEAPS) * (MOST + 1) + (known["to_play"] - known["seat"]) % known["num_players"]] = 1
    return vector


def to_text(known: dict[str, Any]) -> str:
    heaps = "  ".join(f"{'ABC'[h]}: {'o' * n or '-'}" for h, n in enumerate(known["heaps"]))
    if known["winner"] is not None:
        return f"{heaps}\nseat {known['winner']} took the last stone and wins"
    return f"{heaps}\nseat {known['to_play']} to play (you are seat {known['seat']})"


def action_text(action: int, known: Any) -> str:
    heap, stones = divmod(action, MOST)
    return f"take {stones + 1} from heap {'ABC'[heap]}"
