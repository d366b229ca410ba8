"""The registry of games: every game is a plug-in that declares itself, and everything above asks the registry.

A game is a package that publishes a :class:`GameSpec` under the entry point group :data:`GROUP`, as pytest and
Gymnasium plug-ins publish theirs. The two games of this distribution declare themselves the same way, in
``pyproject.toml``::

    [project.entry-points."goldrush_env.games"]
    gold = "goldrush_env.gold:GAME"
    piecepack = "goldrush_env.piecepack:GAME"

Everything above the games (the registered Gymnasium and PettingZoo ids, tournaments, the ``goldrush`` command,
the web server, training) loops over :func:`specs` or looks a game up with :func:`spec`, and never compares a
game's name. A game's modules are imported only when something of them is asked for, as ``pgx.make`` does; a game
package may be imported before or after ``goldrush_env``. Adding a game: docs/adding-a-game.md.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
from dataclasses import dataclass, field
from typing import Any

from goldrush_env.checks import is_int
from goldrush_env.errors import GoldrushEnvError

GROUP = "goldrush_env.games"
"""The entry point group a game declares itself in: ``name = "package.module:GAME"``."""
DEFAULT_GAME = "gold"
"""The game played when none is named (``goldrush play``, ``make_agent("greedy")``)."""


@dataclass(frozen=True)
class RetiredId:
    """An id its game has retired: it stays in the registry only to refuse, with an error that names its successor,
    what changed, and the options that give the old behaviour."""

    id: str
    """The old id, as ``gymnasium.make`` or ``pettingzoo.make`` takes it."""
    registry: str
    """``"gymnasium"`` or ``"pettingzoo"``."""
    successor: str
    """The id that replaces it."""
    changed: str
    """What the successor does differently, in a sentence."""
    options: dict[str, Any] = field(default_factory=dict)
    """The options that make the old id's environment from the successor."""

    def __post_init__(self) -> None:
        if self.registry not in ("gymnasium", "pettingzoo"):
            raise GoldrushEnvError(f"a RetiredId's registry is 'gymnasium' or 'pettingzoo', got {self.registry!r}")

    @property
    def message(self) -> str:
        options = ", ".join(f"{name}={value!r}" for name, value in self.options.items())
        return (f"{self.id} is retired; use {self.successor}, which {self.changed}. {self.id} was {self.successor} "
                f"with {options}: pass these to keep its behaviour.")


def _refuse_retired(retired: RetiredId, *args: Any, **options: Any) -> Any:
    """The entry point of a retired id: it makes nothing and says what to use (a module-level function, so that a
    ``functools.partial`` of it pickles as Gymnasium's registry may need)."""
    raise GoldrushEnvError(retired.message)


@dataclass(frozen=True)
class GameSpec:
    """What a game says of itself. Entry points are ``"module:name"`` strings, loaded when asked for (:meth:`load`).

    A game needs only its rules (:mod:`goldrush_env.protocol`), ``observe`` and ``text``: its PettingZoo and
    Gymnasium environments are then :mod:`goldrush_env.rules_env`'s, built from the rules alone. A game with more to
    say (a memory model, other observations) names environments of its own in ``aec``, ``raw_aec`` and ``gym``.
    """

    name: str
    """The game's name, as users type it (``goldrush play --game gold``) and as its entry point is named."""
    title: str
    """Its name for people."""
    min_players: int
    max_players: int
    default_players: int
    rules: str
    """The rules engine, a class that follows :class:`goldrush_env.protocol.Rules`."""
    text: str = ""
    """``text(known) -> str``: what a seat knows (``Rules.known_to(seat)``) as text for people (needed unless the
    game names its own environments and web part)."""
    observe: str = ""
    """``observe(known) -> numpy.ndarray``: what a seat knows as a flat float32 vector of values in [0, 1], the
    observation of :mod:`goldrush_env.rules_env`'s environments (needed unless the game names its own)."""
    picture: str = ""
    """``picture(known) -> numpy.ndarray``: what a seat knows as an RGB picture (uint8, H x W x 3), if the game
    draws one (``render_mode="rgb_array"``)."""
    action_text: str = ""
    """``action_text(action, known) -> str``: an action in words for the seat about to take it; without it an
    action reads ``action 3``."""
    aec: str = ""
    """``env(**options)``: the game's own PettingZoo AEC environment, wrapped (default: :func:`rules_env.env`)."""
    raw_aec: str = ""
    """Its AEC environment class unwrapped (``view(seat)`` gives the view players read)."""
    gym: str = ""
    """Its own Gymnasium environment: one learner, the other seats played by policies."""
    vector: str = ""
    """The batched vector environment, if the game has one (``gymnasium.make_vec`` uses it)."""
    pettingzoo_id: str = ""
    """The id in PettingZoo's registry (``pettingzoo.make``); default ``goldrush_env/<name>-v0``."""
    gym_ids: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each Gymnasium id of the game and the options it registers (the defaults live in the game's config)."""
    retired_ids: tuple[RetiredId, ...] = ()
    """Ids the game has moved on from, each registered to refuse with an error that names its successor."""
    public_actions: bool = False
    """Whether every action is seen by every seat as it is taken: then the web API lists the moves of a played
    game as its events, each said from what the person's seat knew before it. A game with actions some seat does
    not see leaves it False, and its played games list none (watched games and replays list every move)."""
    is_record: str = ""
    """``is_record(data) -> bool``: whether a JSON record is of this game (default: its ``"game"`` key names it,
    as the records that :func:`goldrush_agents.arena.play_game` writes do)."""
    record_names: str = "names"
    """The key of a record that lists who played (the name of each seat)."""
    tiebreak: str = ""
    """What breaks a tie of scores (:attr:`goldrush_env.protocol.Result.tiebreak`), as a column name."""
    match: str = ""
    """``match_winners(scores_of_games)``, if the game scores a match of several games."""
    chance: str = ""
    """The game with its chance made explicit, a :class:`goldrush_env.chance.ChanceGame` subclass, if the game
    offers one (:mod:`goldrush_env.openspiel` makes an OpenSpiel game of it)."""

    def __post_init__(self) -> None:
        for name in ("name", "title", "rules"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise GoldrushEnvError(f"a GameSpec's {name} must be a non-empty string, got {getattr(self, name)!r}")
        if not self.name.isidentifier():
            raise GoldrushEnvError(f"a game's name is a Python identifier (users type it), got {self.name!r}")
        counts = (self.min_players, self.default_players, self.max_players)
        if not all(is_int(n) for n in counts) or not 1 <= self.min_players <= self.default_players <= self.max_players:
            raise GoldrushEnvError(f"{self.name}: players must be ints with 1 <= min_players <= default_players <= "
                                   f"max_players, got {counts}")
        if not self.aec and not (self.observe and self.text):
            raise GoldrushEnvError(f"{self.name}: a game without environments of its own needs observe and text, the "
                                   "functions that make a seat's observation vector and its text")
        _announce(self)

    def load(self, entry: str) -> Any:
        """The object an entry point names (``spec.load("rules")``), its module imported now; None where the game
        names none."""
        target = getattr(self, entry)
        if not target:
            return None
        module, _, name = target.partition(":")
        return getattr(importlib.import_module(module), name)

    @property
    def own_environments(self) -> bool:
        """Whether the game brings its own environments (else :mod:`goldrush_env.rules_env`'s serve it)."""
        return bool(self.aec)

    def env(self, **options: Any) -> Any:
        """The game's PettingZoo AEC environment, with PettingZoo's checks for classic games."""
        if self.aec:
            return self.load("aec")(**options)
        from goldrush_env import rules_env

        return rules_env.env(game=self.name, **options)

    def raw_env(self, **options: Any) -> Any:
        """The game's AEC environment unwrapped: ``view(seat)`` is what a player reads, ``game`` the rules."""
        if self.raw_aec:
            return self.load("raw_aec")(**options)
        from goldrush_env import rules_env

        return rules_env.raw_env(game=self.name, **options)

    def describe_action(self, action: int, known: Any) -> str:
        """``action`` in words for the seat that knows ``known`` (:attr:`action_text`)."""
        return self.load("action_text")(action, known) if self.action_text else f"action {action}"

    def moves(self, record: dict, viewer: int | None = None) -> list[tuple[int, int, str]] | None:
        """Each move of a record of this game, in order: the seat that moved, its action, and the action in words
        as ``viewer`` knew the game just before it (None: as the seat that moved knew it). Read where the record
        lists its actions under ``"actions"`` and ``from_record`` replays the first of them; None for a record that
        does not."""
        actions = record.get("actions") if isinstance(record, dict) else None
        if not isinstance(actions, list):
            return None
        game = self.load("rules").from_record({**record, "actions": []})
        moves = []
        for action in actions:
            seat = game.current_player
            moves.append((seat, action, self.describe_action(action, game.known_to(seat if viewer is None
                                                                                    else viewer))))
            game.step(action)
        return moves

    def owns_record(self, data: Any) -> bool:
        """Whether ``data`` is a record of this game (:attr:`is_record`)."""
        if self.is_record:
            return bool(self.load("is_record")(data))
        return isinstance(data, dict) and data.get("game") == self.name

    @property
    def players_text(self) -> str:
        """The numbers of players in words: ``"2 to 5"``, ``"3 or 4"``, ``"2"``."""
        if self.max_players == self.min_players:
            return str(self.min_players)
        joint = "or" if self.max_players == self.min_players + 1 else "to"
        return f"{self.min_players} {joint} {self.max_players}"

    def check_players(self, num_players: Any, what: str = "num_players") -> int:
        """``num_players`` if this game seats that many, else an error naming the range."""
        if not is_int(num_players, self.min_players, self.max_players):
            raise GoldrushEnvError(f"{what} must be {self.players_text} for {self.title}, got {num_players!r}")
        return int(num_players)


# --- discovery -------------------------------------------------------------------------------------------

_found: dict[str, importlib.metadata.EntryPoint] | None = None
_loaded: dict[str, GameSpec] = {}
_waiting: set[str] = set()
"""Games whose package was still being imported when the registry first asked for them (a game package imported
before ``goldrush_env``): each is registered when its :class:`GameSpec` is made."""


def _entries() -> dict[str, importlib.metadata.EntryPoint]:
    global _found
    if _found is None:
        found: dict[str, importlib.metadata.EntryPoint] = {}
        for entry in group_entries(GROUP):
            if entry.name in found and found[entry.name].value != entry.value:
                raise GoldrushEnvError(f"two installed packages declare the game {entry.name!r}: "
                                       f"{found[entry.name].value!r} and {entry.value!r}")
            found[entry.name] = entry
        _found = found
    return _found


def group_entries(group: str) -> list[importlib.metadata.EntryPoint]:
    """The entry points of ``group`` of every distribution on the path. Unlike ``entry_points(group=...)``, which
    reads only the first distribution of each name, this also reads past a stale copy of a distribution's metadata
    (an editable install leaves one in its source folder, which comes first on the path when Python runs there)."""
    return [entry for distribution in importlib.metadata.distributions()
            for entry in distribution.entry_points if entry.group == group]


def names() -> list[str]:
    """The names of the games installed: the default game first, then the others in alphabetical order."""
    return sorted(_entries(), key=lambda name: (name != DEFAULT_GAME, name))


def _importing(module_name: str) -> bool:
    module = sys.modules.get(module_name)
    return module is not None and bool(getattr(getattr(module, "__spec__", None), "_initializing", False))


def spec(name: str) -> GameSpec:
    """The game called ``name``; an unknown name is refused with the names there are."""
    if name in _loaded:
        return _loaded[name]
    entries = _entries()
    if not isinstance(name, str) or name not in entries:
        known = names()
        if not known:
            raise GoldrushEnvError(f"unknown game {name!r}: no game is installed (the games declare themselves as "
                                   f"entry points of the group {GROUP!r}; install goldrush-env with pip)")
        raise GoldrushEnvError(f"unknown game {name!r}: the games are {known}")
    entry = entries[name]
    if _importing(entry.module):
        raise GoldrushEnvError(f"the game {name!r} is asked for while its package {entry.module} is still being "
                               "imported")
    game = entry.load()
    if not isinstance(game, GameSpec) or game.name != name:
        raise GoldrushEnvError(f"the entry point {entry.value!r} of the game {name!r} must be a GameSpec named "
                               f"{name!r}, got {game!r:.80}")
    _add(game)
    return game


def specs() -> list[GameSpec]:
    """Every game, the default first (:func:`names`)."""
    return [spec(name) for name in names()]


def register_all() -> None:
    """Register every installed game's Gymnasium and PettingZoo ids (``import goldrush_env`` does it). A game whose
    package is being imported now, because it imported ``goldrush_env`` first, is registered when its spec is made."""
    for name, entry in _entries().items():
        if name in _loaded:
            continue
        if _importing(entry.module):
            _waiting.add(name)
        else:
            spec(name)


def _announce(game: GameSpec) -> None:
    """A spec has just been made: register it if the registry was waiting for it."""
    if game.name in _waiting and game.name not in _loaded:
        _waiting.discard(game.name)
        _add(game)


def _add(game: GameSpec) -> None:
    import gymnasium
    import pettingzoo

    _loaded[game.name] = game
    for gym_id, kwargs in game.gym_ids.items():  # the defaults live in each game's config, not in its ids
        if gym_id in gymnasium.registry:
            continue
        if game.gym:
            gymnasium.register(gym_id, entry_point=game.gym, vector_entry_point=game.vector or None, kwargs=kwargs)
        else:
            gymnasium.register(gym_id, entry_point="goldrush_env.rules_env:GymEnv",
                               kwargs={"game": game.name, **kwargs})
    pettingzoo_id = game.pettingzoo_id or f"goldrush_env/{game.name}-v0"
    if pettingzoo_id not in pettingzoo.aec_registry:
        if game.aec:
            pettingzoo.register("aec", pettingzoo_id, entry_point=game.aec)
        else:
            pettingzoo.register("aec", pettingzoo_id, entry_point="goldrush_env.rules_env:env",
                                kwargs={"game": game.name})
    for retired in game.retired_ids:
        _add_retired(game, retired, gymnasium, pettingzoo)


def _add_retired(game: GameSpec, retired: RetiredId, gymnasium: Any, pettingzoo: Any) -> None:
    """Register ``retired`` under its old id, to refuse with its message."""
    from functools import partial

    refuse = partial(_refuse_retired, retired)
    if retired.registry == "gymnasium":
        if retired.id not in gymnasium.registry:
            gymnasium.register(retired.id, entry_point=refuse, vector_entry_point=refuse)
    elif retired.id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", retired.id, entry_point=refuse)


__all__ = ["GROUP", "DEFAULT_GAME", "GameSpec", "RetiredId", "names", "spec", "specs", "register_all",
           "group_entries"]
