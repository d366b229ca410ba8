"""The registry of games: one line per game, and what each game says of itself.

Each game is a package beside the shared modules (``goldrush_env/gold/``, ``goldrush_env/piecepack/``) that
declares a :class:`GameSpec` named ``GAME`` in its ``__init__``. :data:`GAMES` lists the packages; everything
above (the registered Gymnasium and PettingZoo ids, tournaments, the ``goldrush`` command, the web server,
training) loops over :func:`specs` or looks a game up with :func:`spec`, and never compares a game's name.
A game's modules are imported only when something of them is asked for, as ``pgx.make`` does.

Adding a game: docs/adding-a-game.md.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from goldrush_env.errors import GoldRushError

GAMES: dict[str, str] = {
    "gold": "goldrush_env.gold",
    "piecepack": "goldrush_env.piecepack",
}
"""Each game's name (as users type it: ``goldrush play --game gold``) and its package. The first is the
default game."""


@dataclass(frozen=True)
class GameSpec:
    """What a game says of itself. Entry points are ``"module:name"`` strings, loaded by :meth:`load`."""

    name: str
    """The game's key in :data:`GAMES`."""
    title: str
    """Its name for people."""
    min_players: int
    max_players: int
    default_players: int
    rules: str
    """The rules engine, a class that follows :class:`goldrush_env.protocol.Rules`."""
    aec: str
    """``env(**options)``: the PettingZoo AEC environment, wrapped."""
    raw_aec: str
    """The AEC environment class unwrapped (``view(seat)`` gives the view its players read)."""
    gym: str
    """The Gymnasium environment: one learner, the other seats played by policies."""
    pettingzoo_id: str
    gym_ids: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each Gymnasium id of the game and the options it registers (the defaults live in the game's config)."""
    vector: str | None = None
    """The batched vector environment, if the game has one (``gymnasium.make_vec`` uses it)."""
    text: str = ""
    """``to_text(...)``: the game as text for people."""
    is_record: str = ""
    """``is_record(data) -> bool``: whether a JSON record is of this game."""
    record_names: str = "players"
    """The key of a record that lists who played (the name of each seat)."""
    tiebreak: str = ""
    """What breaks a tie of scores (:attr:`goldrush_env.protocol.Result.tiebreak`), as a column name."""
    match: str = ""
    """``match_winners(scores_of_games)``, if the game scores a match of several games."""

    def load(self, entry: str) -> Any:
        """The object an entry point names, its module imported now."""
        module, _, name = getattr(self, entry).partition(":")
        return getattr(importlib.import_module(module), name)

    @property
    def players_text(self) -> str:
        """The numbers of players in words: ``"2 to 5"``, ``"3 or 4"``."""
        joint = "or" if self.max_players == self.min_players + 1 else "to"
        return f"{self.min_players} {joint} {self.max_players}"

    def check_players(self, num_players: Any, what: str = "num_players") -> int:
        """``num_players`` if this game seats that many, else an error naming the range."""
        if isinstance(num_players, bool) or not isinstance(num_players, int) \
                or not self.min_players <= num_players <= self.max_players:
            raise GoldRushError(f"{what} must be {self.players_text} for {self.title}, got {num_players!r}")
        return num_players


def spec(name: str) -> GameSpec:
    """The game called ``name``; an unknown name is refused with the names there are."""
    if name not in GAMES:
        raise GoldRushError(f"unknown game {name!r}: the games are {list(GAMES)}")
    game = importlib.import_module(GAMES[name]).GAME
    if game.name != name:
        raise GoldRushError(f"{GAMES[name]} declares the game {game.name!r}, registered as {name!r}")
    return game


def specs() -> list[GameSpec]:
    """Every game, the default first."""
    return [spec(name) for name in GAMES]


DEFAULT_GAME = next(iter(GAMES))


__all__ = ["GAMES", "DEFAULT_GAME", "GameSpec", "spec", "specs"]
