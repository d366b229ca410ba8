"""*Gold Rush* on a piecepack in the browser: the games the server holds of it, and what it sends of them.

A :class:`PiecepackSession` is one game of 3 or 4 seats, a person against agents (``seat`` set) or agents only
(``seat`` None), held in the same :class:`~goldrush_agents.web.games.Store` as *Gold*'s games and counted against
the same limits. What a played game sends is its person's seat's knowledge, ``Game.known_to(seat)``: the public
state and the pieces this seat has assayed, never another seat's assay or a face-down piece nobody showed it, and
no seed the server chose. Events are public by the rules (``Event`` carries no private fact). A watched game and a
replay have nobody at the table, so they show every piece, as *Gold*'s do.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from goldrush_env.errors import GoldRushError, excerpt
from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.aec import raw_env
from goldrush_env.piecepack.components import MAX_PLAYERS, MIN_PLAYERS
from goldrush_env.piecepack.encoder import truth
from goldrush_env.piecepack.engine import Game, is_record

from goldrush_agents import make_agent
from goldrush_agents.piecepack import AGENTS, MODELS
from goldrush_agents.web import inputs
from goldrush_agents.web.games import AgentsMove, record_names, seats_around
from goldrush_agents.web.inputs import WebError
from goldrush_agents.web.limits import MAX_SEED, SERVER_SEEDS, Limits

GAME = "piecepack"
PERSON = "you"
WEB_AGENTS = (*AGENTS, *MODELS)
"""The players a request may name, without options. A game with ``search`` in it is moved on the server's search
workers (``search_workers``), as *Gold*'s searches are: its default search (8 rollouts of every legal action, each
to the end of the game) costs a bounded amount of work a move, about 1.5 s of a core over a whole game against
economists (docs/piecepack.md#training)."""
SEARCHES = ("search",)
"""The players whose games go to the search workers."""
MAX_ACTIONS = 2_000
"""The most actions a replayed record may hold (a game takes a few hundred; each frame of a replay is about 2 kB)."""


def knowledge_json(known: dict[str, Any]) -> dict[str, Any]:
    """``Game.known_to(seat)`` (or :func:`~goldrush_env.piecepack.encoder.truth`) as JSON: the pieces' maps keyed
    by piece id as text, tuples as lists."""
    out = dict(known)
    out["face_up"] = {str(piece): code for piece, code in known["face_up"].items()}
    out["identities"] = {str(piece): code for piece, code in known["identities"].items()}
    for key in ("dice", "pending_offer"):
        if out[key] is not None:
            out[key] = list(out[key])
    out["offer_log"] = [list(entry) for entry in known["offer_log"]]
    return out


def legal_json(game: Game) -> list[dict[str, Any]]:
    """The actions open to the seat to act, each with its words."""
    return [{"action": action, "text": A.describe(action)} for action in game.legal_actions()]


def _result(game: Game) -> dict[str, Any]:
    """What everyone at the table knows of the standing."""
    over = game.is_over
    return {"scores": game.scores(), "over": over, "winners": game.winners() if over else [],
            "current_player": game.current_player}


def open_state(game: Game, names: list[str]) -> dict[str, Any]:
    """The state with every piece shown (a watched game, a replay): nobody sits at the table."""
    return {"game": GAME, "names": names, "num_players": game.num_players, "knowledge": knowledge_json(truth(game)),
            "legal": legal_json(game), **_result(game)}


def events_json(game: Game, names: list[str], start: int = 0) -> list[dict[str, Any]]:
    """The game's events from ``start`` on, each with a line of text naming the players (with their seats where
    two have one name)."""
    out = []
    for index in range(start, len(game.events)):
        event = game.events[index]
        who = "table" if event.seat is None else names[event.seat]
        if event.seat is not None and names.count(who) > 1:
            who = f"{who} (seat {event.seat})"
        text = event.describe().replace("table" if event.seat is None else f"seat {event.seat}", who, 1)
        out.append({"index": index, "kind": event.kind, "seat": event.seat, "text": text})
    return out


@dataclass
class PiecepackSession(AgentsMove):
    """One game of Gold Rush on the server (the same interface as :class:`~goldrush_agents.web.games.Session`)."""

    id: str
    client: str
    env: raw_env | None
    names: list[str]
    agents: dict[int, Any]
    seed: int
    seed_given: bool
    seat: int | None = None
    searches: bool = False
    config: dict[str, Any] = field(default_factory=dict)
    last_used: float = 0.0
    ended_at: float | None = None
    final: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    game_name = GAME

    @property
    def finished(self) -> bool:
        return self.env is None or self.env.game.is_over

    def state(self) -> dict[str, Any]:
        """What the page may know now: the person's knowledge in a played game, everything in a watched one."""
        if self.final is not None:
            return self.final["state"]
        game = self.game
        shown = self.seed_given or self.seat is None or game.is_over  # a seed the server chose deals the pieces
        header = {"id": self.id, "mode": self.kind, "seed": self.seed if shown else None}
        if self.seat is None:
            return {**header, **open_state(game, self.names), "events": events_json(game, self.names)}
        mine = game.current_player == self.seat
        return {**header, "game": GAME, "names": self.names, "num_players": game.num_players, "seat": self.seat,
                "knowledge": knowledge_json(game.known_to(self.seat)), "your_turn": mine,
                "legal": legal_json(game) if mine else [], **_result(game), "events": events_json(game, self.names)}

    def record(self) -> dict[str, Any]:
        """The record ``goldrush watch --game piecepack --save`` writes; of a played game only once it has ended
        (before, it would give away the face-down pieces)."""
        if self.final is not None:
            return self.final["record"]
        game = self.game
        if self.seat is not None and not game.is_over:
            raise WebError("the record of a game is given once it has ended: it holds every piece", 409)
        return dict(game.to_record(), names=self.names, seed=self.seed)

    def act(self, action: int, closing: Callable[[], bool]) -> dict[str, Any]:
        """The person takes ``action``; the agents then play until it is the person's turn again."""
        game = self.game
        before = self.moves
        self.advance(until_person=True, closing=closing)  # moves an earlier request left undone (it was cut off)
        if game.is_over:
            raise WebError("the game is over: start a new one", 409)
        reason = game.why_illegal(action)
        if reason is not None:
            raise WebError(f"action {action} ({A.describe(action)}) is not open to you now: {reason}", 409)
        self.env.step(action)
        self.advance(until_person=True, closing=closing)
        return {"id": self.id, "events": self.events_since(before), "state": self.state()}

    def events_since(self, start: int) -> list[dict[str, Any]]:
        return events_json(self.game, self.names, start)

    @property
    def moves(self) -> int:
        """Events, not actions: an action's events are what the page is told of it."""
        return len(self.game.events)


@dataclass(frozen=True)
class Plan:
    """A new game as a request asked for it, every field checked; :func:`start` does the work."""

    players: list[str | None]
    """One agent per seat; None at the person's seat."""
    seed: int | None
    seat: int | None = None

    @property
    def searches(self) -> bool:
        """Whether a search player sits at the table (the game is then moved on the search workers)."""
        return any(player in SEARCHES for player in self.players)

    @property
    def names(self) -> list[str]:
        return [PERSON if player is None else player for player in self.players]


def _agents(field_name: str, value: Any, limits: Limits) -> list[str]:
    """A comma-separated string or a list of the players of :data:`WEB_AGENTS`, with no options."""
    if isinstance(value, str):
        if len(value) > limits.max_text:
            raise WebError(f"{field_name} is {len(value):,} characters long, over the {limits.max_text} allowed: "
                           f"{excerpt(value)}")
        names = [name.strip() for name in value.split(",")]
    elif isinstance(value, list) and all(isinstance(item, str) for item in value) and len(value) <= MAX_PLAYERS:
        names = [name.strip() for name in value]
    else:
        raise WebError(f"{field_name} must be a string of agent names (comma-separated) or a list of at most "
                       f"{MAX_PLAYERS}, got {excerpt(value)}")
    for name in names:
        if name not in WEB_AGENTS:
            raise WebError(f"unknown agent {excerpt(name)} in {field_name}: the players of Gold Rush (piecepack) "
                           f"are {list(WEB_AGENTS)}")
    return names


def plan_game(body: Any, limits: Limits) -> Plan:
    """A person against agents: ``players`` (3 or 4), ``opponents`` (one agent for all, or one per opponent),
    ``seat``, ``seed``."""
    body = inputs.fields(body, {"game": GAME, "players": 3, "opponents": "economist", "seat": 0, "seed": None})
    players = inputs.integer("players", body["players"], MIN_PLAYERS, MAX_PLAYERS)
    seat = inputs.integer("seat", body["seat"], 0, players - 1)
    opponents = _agents("opponents", body["opponents"], limits)
    return Plan(seats_around(opponents, players, seat, opponents), inputs.seed(body["seed"]), seat=seat)


def plan_watch(body: Any, limits: Limits) -> Plan:
    """A game between agents (``agents``: one per seat, 3 or 4), advanced an action at a time."""
    body = inputs.fields(body, {"game": GAME, "agents": None, "seed": None})
    if body["agents"] is None:
        raise WebError(f"agents is missing: one agent per seat ({MIN_PLAYERS} or {MAX_PLAYERS}), e.g. "
                       "'economist,ppo,random'")
    players = _agents("agents", body["agents"], limits)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise WebError(f"agents needs {MIN_PLAYERS} or {MAX_PLAYERS} agents (one per seat), got {len(players)}: "
                       f"{excerpt(players)}")
    return Plan(players, inputs.seed(body["seed"]))


def start(plan: Plan, client: str, closing: Callable[[], bool]) -> PiecepackSession:
    """The game of ``plan``, dealt, with its agents made and (in a played game) moved until the person's turn.
    Seeded as ``goldrush watch`` and ``goldrush play`` seed theirs."""
    seed = secrets.randbelow(SERVER_SEEDS) if plan.seed is None else plan.seed
    names = plan.names
    env = raw_env(num_players=len(names))
    env.reset(seed=seed)
    if plan.seat is None:
        agents = {s: make_agent(name, game=GAME) for s, name in enumerate(plan.players)}
        for s, player_seed in enumerate(np.random.SeedSequence(seed).spawn(len(names))):
            agents[s].reset(seed=int(player_seed.generate_state(1)[0]))
    else:
        agents = {s: make_agent(name, game=GAME, seed=seed + s) for s, name in enumerate(plan.players)
                  if name is not None}
    session = PiecepackSession(secrets.token_urlsafe(12), client, env, names, agents, seed, plan.seed is not None,
                               seat=plan.seat, searches=plan.searches)
    if plan.seat is not None:
        session.advance(until_person=True, closing=closing)
    return session


def replay(body: Any, limits: Limits) -> dict[str, Any]:
    """Every state of a recorded game (the JSON ``goldrush watch --game piecepack --save`` and tournaments write),
    from the deal to its last action. The record is checked as ``Game.from_record`` checks it (its stored rounds
    and result must match the replay), its names and seed as well, and it holds at most :data:`MAX_ACTIONS`."""
    if not is_record(body):
        raise WebError("not a record of Gold Rush (piecepack): a record is a JSON object with tiles and coins")
    actions = body.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in actions):
        raise WebError(f"the record's actions must be a list of ints, got {excerpt(actions)}")
    if len(actions) > MAX_ACTIONS:
        raise WebError(f"the record has {len(actions):,} actions: a replay holds at most {MAX_ACTIONS:,}")
    seed = body.get("seed")
    if seed is not None:
        inputs.integer("the record's seed", seed, 0, MAX_SEED)
    try:
        Game.from_record(body)  # the whole record checked first
        game = Game.from_record({**body, "actions": [], "rounds": [], "final": None}, check=False)
    except (GoldRushError, TypeError, ValueError) as error:
        raise WebError(f"the record cannot be replayed: {excerpt(str(error), 200)}") from None
    names = record_names(body.get("names"), game.num_players, limits, key="names")
    frames = [open_state(game, names)]
    for action in actions:
        game.step(action)
        frames.append(open_state(game, names))
    return {"game": GAME, "mode": "replay", "names": names, "num_players": game.num_players, "seed": seed,
            "events": events_json(game, names), "frames": frames}


def action(value: Any) -> int:
    """An action id from 0 to 487."""
    return inputs.integer("action", value, 0, A.NUM_ACTIONS - 1)


__all__ = ["MAX_ACTIONS", "WEB_AGENTS", "PiecepackSession", "Plan", "action", "events_json", "knowledge_json",
           "legal_json", "open_state", "plan_game", "plan_watch", "replay", "start"]
