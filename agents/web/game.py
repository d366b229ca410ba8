"""A game as ``goldrush serve`` serves it: :class:`WebGame`, its sessions and the plans of new ones.

:class:`WebGame` is the plain web part of any game of the registry, made from the game protocol alone
(:mod:`goldrush_env.protocol`): a seat's state is the game's text of what that seat knows (``known_to(seat)``)
and its legal actions in words, a watched game shows what every seat knows, a record is the rules' record. A
game with a page of its own subclasses it in its players package's module ``web`` (as ``WEB``) and overrides
the hooks marked below; everything else (checking requests, making agents, moving them, records, the end of a
game) is written here once, for every game.

A :class:`Session` is one game on the server: a person against agents (``seat`` set) or agents only (``seat``
None). Everything here is plain and synchronous: :mod:`goldrush_agents.web.app` runs the moves in worker
threads, one request per game at a time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable

import numpy as np

from goldrush_env.errors import GoldrushEnvError, excerpt
from goldrush_env.games import GameSpec

from goldrush_agents import Players, make_agent
from goldrush_agents.web import inputs
from goldrush_agents.web.inputs import AgentRules, AgentSpec, WebError
from goldrush_agents.web.limits import MAX_SEED, SERVER_SEEDS, Limits

STATIC = Path(__file__).with_name("static")
PERSON = "you"


@dataclass(frozen=True)
class Plan:
    """A new game as a request asked for it, every field checked; :meth:`WebGame.start` does the work."""

    players: list[AgentSpec | None]
    """One per seat; None at the person's seat."""
    seed: int | None
    options: dict[str, Any]
    """The environment's options (the game's own fields of the request)."""
    seat: int | None = None
    person: dict[str, Any] = field(default_factory=dict)
    """What the person asked of its own view (the game's person fields, e.g. Gold's memory)."""
    name: str | None = None
    """The name the person gave (its rating's, :mod:`goldrush_agents.web.ratings`), or None: anonymous."""

    @property
    def searches(self) -> bool:
        return any(player is not None and player.searches for player in self.players)

    @property
    def names(self) -> list[str]:
        return [PERSON if player is None else player.name for player in self.players]


@dataclass
class Session:
    """One game on the server, of the game :attr:`web` serves."""

    id: str
    client: str
    """The address that made it (each client has its own cap on games in play)."""
    web: WebGame
    env: Any
    """The game's AEC environment (``env.game`` the rules), until the game ends."""
    names: list[str]
    agents: dict[int, Any]
    seed: int
    seed_given: bool
    """Whether the request gave the seed (then it is no secret from that client, and is echoed)."""
    config: dict[str, Any]
    searches: bool
    """Whether a search player moves in it (its moves go to the search workers)."""
    seat: int | None = None
    person: dict[str, Any] = field(default_factory=dict)
    """The game's own values of the person's view (Gold: its memory mode, the first event it may still see)."""
    last_used: float = 0.0
    ended_at: float | None = None
    final: dict[str, Any] | None = None
    """Once the game has ended: its last state and its record (the environment and agents are let go)."""
    actions: list[int] = field(default_factory=list)
    """Every action taken, in order: with the seed they rebuild the game (:meth:`WebGame.deal`, :meth:`play`), as
    a restarted server does from its store."""
    player: str | None = None
    """The person's name, if it gave one (:attr:`Plan.name`)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held by the request that reads or moves the game: one at a time."""

    @property
    def game(self) -> Any:
        if self.env is None:
            raise WebError("the game is over: start a new one", 409)
        return self.env.game

    @property
    def kind(self) -> str:
        return "watch" if self.seat is None else "play"

    @property
    def finished(self) -> bool:
        return self.env is None or self.env.game.is_finished

    @property
    def moves(self) -> int:
        """How many entries the game's log has (what :meth:`events_since` counts)."""
        return self.web.moves(self.game)

    def events_since(self, start: int) -> list[dict[str, Any]]:
        return self.web.events(self, start)

    def advance(self, until_person: bool, closing: Callable[[], bool]) -> None:
        """Let the agents move: until the person's turn (or the end), or one move in a watched game."""
        while not self.finished and self.env.game.current_player != self.seat:
            if closing():
                raise WebError("the server is shutting down", 503)
            seat = self.env.game.current_player
            self.play(self.agents[seat].act(self.env.view(seat)))
            if not until_person:
                return

    def play(self, action: int) -> None:
        """Take ``action`` for the seat to act, and log it (:attr:`actions`)."""
        self.env.step_from_view(action)
        self.actions.append(int(action))

    def state(self) -> dict[str, Any]:
        """What the page may know now: the person's seat's knowledge in a played game, everything in a watched one;
        the seed once the game has ended or if the request gave it (a seed the server chose deals the game)."""
        if self.final is not None:
            return self.final["state"]
        game = self.game
        shown = self.seed_given or self.seat is None or game.is_finished
        header = {"id": self.id, "mode": self.kind, "game": self.web.name, "seed": self.seed if shown else None,
                  **self.config}
        if self.seat is None:
            return {**header, **self.web.open_state(game, self.names), "events": self.events_since(0)}
        return {**header, **self.web.seat_state(self)}

    def record(self) -> dict[str, Any]:
        """The game's record (which ``goldrush replay`` and the Replay tab read), once the game has ended; before, it
        is refused, played or watched (a played game's would give away what the person has not seen)."""
        if self.final is not None:
            return self.final["record"]
        if not self.game.is_finished:
            raise WebError("the record of a game is given once it has ended: it holds what no seat has seen yet", 409)
        return self.web.record(self)

    def act(self, action: int, closing: Callable[[], bool]) -> dict[str, Any]:
        """The person takes ``action``; the agents then play until it is the person's turn again."""
        game = self.game
        before = self.moves
        self.advance(until_person=True, closing=closing)  # moves an earlier request left undone (it was cut off)
        if game.is_finished:
            raise WebError("the game is over: start a new one", 409)
        problem = self.web.refusal(self, action)
        if problem is not None:
            raise WebError(problem, 409)
        self.play(action)
        self.web.after_person(self)
        self.advance(until_person=True, closing=closing)
        return {"id": self.id, "events": self.events_since(before), "state": self.state()}

    def step(self, closing: Callable[[], bool]) -> dict[str, Any]:
        """One move of a watched game."""
        if self.finished:
            raise WebError("the game is over: start a new one", 409)
        before = self.moves
        self.advance(until_person=False, closing=closing)
        return {"id": self.id, "events": self.events_since(before), "state": self.state()}

    def end(self, now: float) -> None:
        """Keep the last state and the record; let the environment and the agents go."""
        if self.final is None:
            self.final = {"state": self.state(), "record": self.record()}
            self.env, self.agents, self.ended_at = None, {}, now


def seats_around(opponents: list[Any], players: int, seat: int, names: list[str]) -> list[Any]:
    """Every seat's player for a person at ``seat`` (None there): ``opponents`` holds one for all the others, or
    one per other seat in order (``names`` are theirs, for the refusal)."""
    others = players - 1
    if len(opponents) == 1:
        opponents = opponents * others
    elif len(opponents) != others:
        wanted = ("one agent for the opponent of a 2-player game" if others == 1 else
                  f"one agent for all {others} opponents of a {players}-player game, or {others} (one per opponent)")
        raise WebError(f"opponents needs {wanted}, got {len(opponents)}: {excerpt(names)}")
    return [*opponents[:seat], None, *opponents[seat:]]


def record_names(names: Any, num_players: int, limits: Limits, key: str) -> list[str]:
    """The player names of a record (its field ``key``), or ``seat 0``... where it has none."""
    if names is None:
        return [f"seat {s}" for s in range(num_players)]
    if not (isinstance(names, list) and len(names) == num_players
            and all(isinstance(n, str) and 0 < len(n) <= limits.max_text and n.isprintable() for n in names)):
        raise WebError(f"the record's {key} must be {num_players} names (printable text of 1 to "
                       f"{limits.max_text} characters), got {excerpt(names)}")
    return names


class WebGame:
    """A game of the registry as the server plays it: the plain web part, from the protocol alone. A subclass (a
    game's own web part) overrides the hooks of the sections "the game's fields", "what is sent" and "replays"."""

    page: Path = STATIC / "plain.html"
    """The game's page, served at ``/<game>``."""
    static: Path | None = None
    """A folder of the game's own scripts and styles, served under ``/static/<game>/``."""
    rules = AgentRules()
    """Which players a request may name, with which options, and which of them search."""

    def __init__(self, spec: GameSpec, players: Players, offered: tuple[str, ...] = ()) -> None:
        self.spec = spec
        self.players = players
        self.offered = offered
        """Model files the server offers as players of this game (``goldrush serve --model``), by path."""
        self.name = spec.name

    @property
    def agents(self) -> list[str]:
        """The players a request may name by name (the offered model files aside)."""
        return [name for name in (*self.players.agents, *self.players.models) if name not in self.rules.offline]

    def info(self, limits: Limits) -> dict[str, Any]:
        """What ``GET /api/<game>/agents`` says: the game, its players, and what a request may ask."""
        spec = self.spec
        return {"game": spec.name, "title": spec.title, "agents": [*self.agents, *self.offered],
                "players": {"min": spec.min_players, "max": spec.max_players, "default": spec.default_players},
                "opponents": self.players.opponents[-1], "limits": dataclasses.asdict(limits), **self.more_info()}

    # --- the game's fields (hooks) ----------------------------------------------------------------------------

    def more_info(self) -> dict[str, Any]:
        """What :meth:`info` says of the game's own fields."""
        return {}

    def option_fields(self) -> dict[str, Any]:
        """The game's own fields of a new game, played or watched, with their defaults."""
        return {}

    def read_options(self, body: dict[str, Any], limits: Limits) -> dict[str, Any]:
        """The environment's options from those fields, each checked."""
        return {}

    def person_fields(self) -> dict[str, Any]:
        """The fields that say what the person sees of its own game (a played game only), with their defaults."""
        return {}

    def read_person(self, body: dict[str, Any]) -> dict[str, Any]:
        """The person's view options from those fields, each checked."""
        return {}

    def check_table(self, players: list[AgentSpec], num_players: int, field_name: str) -> None:
        """Refuse a player that cannot sit at a table of ``num_players``."""

    def read_action(self, value: Any) -> int:
        """The action a request names: an action index of the game."""
        return inputs.integer("action", value, 0, self.num_actions - 1)

    @cached_property
    def num_actions(self) -> int:
        return len(self.spec.load("rules").new(self.spec.default_players, 0).legal_mask())

    # --- new games ---------------------------------------------------------------------------------------------

    def plan_game(self, body: Any, limits: Limits) -> Plan:
        """A person against agents: ``players``, ``opponents`` (one for all, or one per opponent), ``seat``,
        ``seed``, the person's ``name`` (optional), and the game's own fields."""
        spec = self.spec
        body = inputs.fields(body, {"players": spec.default_players, "opponents": self.players.opponents[-1],
                                    "seat": 0, "seed": None, "name": None, **self.option_fields(),
                                    **self.person_fields()})
        players = inputs.integer("players", body["players"], spec.min_players, spec.max_players)
        seat = inputs.integer("seat", body["seat"], 0, players - 1)
        person = self.read_person(body)
        options = self.read_options(body, limits)
        opponents = inputs.agents("opponents", body["opponents"], self, limits)
        seats = seats_around(opponents, players, seat, [o.name for o in opponents])
        self.check_table([p for p in seats if p is not None], players, "opponents")
        return Plan(seats, inputs.seed(body["seed"]), options, seat=seat, person=person,
                    name=inputs.person_name(body["name"]))

    def plan_watch(self, body: Any, limits: Limits) -> Plan:
        """A game between agents (``agents``: one per seat), advanced a move at a time."""
        spec = self.spec
        body = inputs.fields(body, {"agents": None, "seed": None, **self.option_fields()})
        if body["agents"] is None:
            raise WebError(f"agents is missing: one agent per seat ({spec.players_text}), e.g. "
                           f"{','.join(self.players.opponents[-1:] * spec.min_players)!r}")
        players = inputs.agents("agents", body["agents"], self, limits)
        if not spec.min_players <= len(players) <= spec.max_players:
            raise WebError(f"agents needs {spec.players_text} agents (one per seat), got {len(players)}: "
                           f"{excerpt([p.name for p in players])}")
        self.check_table(players, len(players), "agents")
        options = self.read_options(body, limits)
        return Plan(players, inputs.seed(body["seed"]), options)

    def start(self, plan: Plan, client: str, closing: Callable[[], bool]) -> Session:
        """The game of ``plan``, dealt, with its agents made and (in a played game) moved until the person's turn.
        Seeded as ``goldrush watch`` (one seed, one game: :func:`goldrush_agents.arena.play_game`) and
        ``goldrush play`` seed theirs."""
        seed = secrets.randbelow(SERVER_SEEDS) if plan.seed is None else plan.seed
        session = self.deal(plan, secrets.token_urlsafe(12), client, seed)
        if plan.seat is not None:
            session.advance(until_person=True, closing=closing)
        return session

    def deal(self, plan: Plan, game_id: str, client: str, seed: int) -> Session:
        """The game of ``plan`` dealt by ``seed``, its agents made and seeded, before any move: :meth:`start`'s,
        and a restarted server's, which replays a kept game's actions on it (:mod:`goldrush_agents.web.store`)."""
        names = plan.names
        env = self.spec.raw_env(num_players=len(names), **plan.options)
        env.reset(seed=seed)
        try:
            if plan.seat is None:
                agents = {s: make_agent(p.spec, game=self.name) for s, p in enumerate(plan.players)}
                for s, player_seed in enumerate(np.random.SeedSequence(seed).spawn(len(names))):
                    agents[s].reset(seed=int(player_seed.generate_state(1)[0]))
            else:
                agents = {s: make_agent(p.spec, seed=seed + s, game=self.name)
                          for s, p in enumerate(plan.players) if p is not None}
        except GoldrushEnvError as error:  # a bad option, named by the agent's constructor
            raise WebError(str(error)) from None
        return Session(game_id, client, self, env, names, agents, seed, plan.seed is not None, dict(plan.options),
                       plan.searches, seat=plan.seat, person=dict(plan.person), player=plan.name)

    # --- what is sent (hooks): the privacy boundary -------------------------------------------------------

    def seat_state(self, session: Session) -> dict[str, Any]:
        """What the person's seat may know now: the game's text of ``known_to(seat)``, its legal actions in words
        when it is to act, who is to act, and the result once the game has ended."""
        game, seat = session.game, session.seat
        known = game.known_to(seat)
        mine = not game.is_finished and game.current_player == seat
        return {"names": session.names, "num_players": game.num_players, "seat": seat, "your_turn": mine,
                "text": self.spec.load("text")(known), "legal": self._legal(game, known) if mine else [],
                **self._standing(game), "events": self.events(session, 0)}

    def open_state(self, game: Any, names: list[str]) -> dict[str, Any]:
        """The state shown when nobody sits at the table (a watched game): what each seat knows, and every legal
        action of the seat to act."""
        text = self.spec.load("text")
        seat = game.current_player
        legal = [] if game.is_finished else self._legal(game, game.known_to(seat))
        return {"names": names, "num_players": game.num_players,
                "texts": [text(game.known_to(s)) for s in range(game.num_players)], "legal": legal,
                **self._standing(game)}

    def _legal(self, game: Any, known: Any) -> list[dict[str, Any]]:
        return [{"action": int(action), "text": self.spec.describe_action(int(action), known)}
                for action in np.flatnonzero(game.legal_mask())]

    def _standing(self, game: Any) -> dict[str, Any]:
        """Who is to act and, once the game has ended, how it ended."""
        finished = game.is_finished
        result = game.result() if finished else None
        return {"current_player": None if finished else game.current_player, "turn": game.turn,
                "finished": finished, "over": game.is_over, "truncated": game.is_truncated,
                "scores": list(result.scores) if result else None, "winners": list(result.winners) if result else []}

    def events(self, session: Session, start: int) -> list[dict[str, Any]]:
        """The log entries from ``start`` on, as the page shows them: in the plain part each move in the game's
        words, as the person's seat knew the game before it (the seat that moved, in a watched game), where the
        game's records list their actions (:meth:`~goldrush_env.games.GameSpec.moves`); else none. A played
        game lists them only if every action is public (:attr:`~goldrush_env.games.GameSpec.public_actions`)."""
        if session.seat is not None and not self.spec.public_actions:
            return []
        moves = self.spec.moves(session.game.to_record(), viewer=session.seat) or []
        return [{"index": index, "seat": seat, "action": int(action), "text": f"{session.names[seat]}: {text}"}
                for index, (seat, action, text) in enumerate(moves) if index >= start]

    def moves(self, game: Any) -> int:
        """How many log entries the game has now."""
        actions = game.to_record().get("actions")
        return len(actions) if isinstance(actions, list) else game.turn

    def refusal(self, session: Session, action: int) -> str | None:
        """Why the person may not take ``action`` now (None: it may)."""
        game = session.game
        if not game.legal_mask()[action]:
            words = self.spec.describe_action(action, game.known_to(session.seat))
            return f"action {action} ({words}) is not open to you now"
        return None

    def after_person(self, session: Session) -> None:
        """What the session keeps of the person's move (Gold's real memory)."""

    def record(self, session: Session) -> dict[str, Any]:
        """The game's record: the rules' own, with the game's name, who played, the seed and the options."""
        return {**session.game.to_record(), "game": self.name, self.spec.record_names: session.names,
                "seed": session.seed, "config": dict(session.config)}

    # --- replays (hook) ----------------------------------------------------------------------------------------

    def replay(self, body: Any, limits: Limits) -> dict[str, Any]:
        """A recorded game, checked by the rules: the plain part shows its last state (a game with a page of its
        own shows every state)."""
        if not self.spec.owns_record(body):
            raise WebError(f"not a record of {self.spec.title}")
        seed = body.get("seed")
        if seed is not None:
            inputs.integer("the record's seed", seed, 0, MAX_SEED)
        # The record is the client's own, so whatever a game's rules raise on it tells the client nothing it did not
        # send: any failure to replay or show it is a refusal of the record, never a 500.
        try:
            game = self.spec.load("rules").from_record(body)
            players = game.num_players
        except Exception as error:  # noqa: BLE001
            raise WebError(f"the record cannot be replayed: {excerpt(str(error), 200)}") from None
        names = record_names(body.get(self.spec.record_names), players, limits, self.spec.record_names)
        try:
            frame = self.open_state(game, names)
            moves = self.spec.moves(body) or []
        except Exception as error:  # noqa: BLE001
            raise WebError(f"the record cannot be shown: {excerpt(str(error), 200)}") from None
        events = [{"index": index, "seat": seat, "action": int(action), "text": f"{names[seat]}: {text}"}
                  for index, (seat, action, text) in enumerate(moves)]
        return {"game": self.name, "mode": "replay", "names": names, "num_players": players, "seed": seed,
                "events": events, "frames": [frame]}


__all__ = ["WebGame", "Session", "Plan", "PERSON", "STATIC", "seats_around", "record_names"]
