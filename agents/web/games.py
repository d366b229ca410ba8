"""The games a server holds, and what it sends of them.

A :class:`Session` is one game: a person against agents (``seat`` set) or agents only (``seat`` None). Its
:meth:`Session.state` is what the page may know: in a played game, the person's seat's knowledge only (with
``memory="real"``, only the cards flipped since its last turn began, as ``goldrush play --memory-mode real``),
never the hidden table, another seat's memory, or a seed the server chose. Once a game has ended its state and
record are kept and the rest (the environment, the agents) is let go.

The :class:`Store` holds the sessions and counts them against the :class:`~goldrush_agents.web.limits.Limits`
before any work is done for a new one. Everything here is plain and synchronous: :mod:`goldrush_agents.web.app`
runs the moves in worker threads, one request per game at a time.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from goldrush_env.gold.aec import raw_env
from goldrush_env.gold.cards import IS_GOLD, MAX_PLAYERS, MIN_PLAYERS, TABLES, VALUE, card_code
from goldrush_env.gold.config import EnvConfig
from goldrush_env.gold.engine import SERIAL_FORMAT, FlipEvent, Game, Outcome, colour_owners
from goldrush_env.errors import GoldRushError, excerpt
from goldrush_env.gold.render import check_square, square_name
from goldrush_env.gold.view import UNKNOWN, forget_all_but

from goldrush_agents import make_agent
from goldrush_agents.web import inputs
from goldrush_agents.web.inputs import AgentSpec, WebError
from goldrush_agents.web.limits import MAX_SEED, SERVER_SEEDS, Limits

MEMORY_MODES = ("perfect", "real")
COLOUR_NAMES = ("red", "blue", "purple", "orange", "grey")
"""The miner colours 0-4 as the page draws them (the colours of :mod:`goldrush_env.gold.render`)."""
PERSON = "you"
_DEFAULTS = EnvConfig()


# --- what is sent to the page ------------------------------------------------------------


def _card_words(card: int) -> str:
    code = card_code(card)
    if IS_GOLD[card]:
        return f"gold {VALUE[card]}"
    if code == "D":
        return "dynamite"
    colour = COLOUR_NAMES[int(code[1])]
    return f"{'an' if colour[0] in 'aeiou' else 'a'} {colour} miner {code[2]}"


def event_json(event: FlipEvent, index: int, names: list[str], first_card: int | None) -> dict[str, Any]:
    """One flip as the page shows it: where, which card, what it did, who gained what, and a line of text."""
    who = names[event.player]
    gained = 0
    if event.outcome is Outcome.STRIKE:
        gained = VALUE[first_card if IS_GOLD[first_card] else event.card]
    elif event.outcome is Outcome.RUSH_GOLD:
        gained = VALUE[event.card]
    receiver = None if event.receiver is None else names[event.receiver]
    square = square_name(event.position)
    text = f"{who} flip{'' if who == PERSON else 's'} {_card_words(event.card)} at {square}"
    outcome = event.outcome
    if outcome is Outcome.STRIKE:
        text += f": strike! {receiver} gain{'' if receiver == PERSON else 's'} {gained} gold"
    elif outcome is Outcome.DUEL:
        weaker = first_card if event.partner in event.removed else event.card
        text += f": duel, the weaker miner ({_card_words(weaker)}) leaves the game"
    elif outcome is Outcome.DYNAMITE:
        text += ": dynamite! both cards leave the game"
    elif outcome is Outcome.NOTHING:
        text += ": nothing happens, both cards go back face down"
    elif outcome is Outcome.RUSH_GOLD:
        text += f": {receiver} take{'' if receiver == PERSON else 's'} {gained} gold"
    elif outcome is Outcome.RUSH_DISCARD:
        text += ": it leaves the game"
    if event.rush_begins:
        text += ". The Gold Rush begins!"
    return {
        "index": index, "turn": event.turn, "player": event.player, "name": who,
        "position": event.position, "square": square, "card": card_code(event.card),
        "outcome": outcome.value, "label": event.label, "receiver": event.receiver, "gained": gained,
        "removed": list(event.removed), "partner": event.partner, "rush_begins": event.rush_begins, "text": text,
    }


def events_json(game: Game, names: list[str], start: int = 0) -> list[dict[str, Any]]:
    """The game's flips from ``start`` on (they were all public when made)."""
    history = game.history
    return [event_json(history[i], i, names, history[i - 1].card if history[i].partner is not None else None)
            for i in range(start, len(history))]


def _standing(game: Game, names: list[str]) -> dict[str, Any]:
    """What everyone at the table knows: the standing, whose turn, the Gold Rush, the result."""
    return {
        "num_players": game.num_players, "names": names, "owners": list(colour_owners(game.num_players)),
        "scores": list(game.scores), "gold_cards": list(game.gold_cards),
        "current_player": None if game.is_finished else game.current_player,
        "face_up": game.face_up, "turn": game.turn, "max_turns": game.max_turns,
        "cards_left": game.cards_left, "gold_rush": game.gold_rush, "rush_at": game.rush_at,
        "finished": game.is_finished, "over": game.is_over, "truncated": game.is_truncated,
        "winners": list(game.winners),
    }


def open_state(game: Game, names: list[str]) -> dict[str, Any]:
    """The state with every card shown, for watched games and replays (no person is playing)."""
    return {**_standing(game, names), "cards": [card_code(card) for card in game.table],
            "legal": game.legal_positions()}


# --- one game ------------------------------------------------------------------------------


class AgentsMove:
    """What every game's session does alike (Gold's :class:`Session`, Gold Rush's
    :class:`~goldrush_agents.web.piecepack.PiecepackSession`): agents move between the person's turns, and a
    finished game keeps only its last state and record. The session gives ``env``, ``agents``, ``seat``,
    ``finished``, ``moves`` (how many have been made), ``events_since(move)``, ``state()``, ``record()``,
    ``final`` and ``ended_at``."""

    @property
    def game(self) -> Any:
        if self.env is None:
            raise WebError("the game is over: start a new one", 409)
        return self.env.game

    @property
    def kind(self) -> str:
        return "watch" if self.seat is None else "play"

    def advance(self, until_person: bool, closing: Callable[[], bool]) -> None:
        """Let the agents move: until the person's turn (or the end), or one move in a watched game."""
        while not self.finished and self.env.game.current_player != self.seat:
            if closing():
                raise WebError("the server is shutting down", 503)
            seat = self.env.game.current_player
            self.env.step(self.agents[seat].act(self.env.view(seat)))
            if not until_person:
                return

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


@dataclass
class Session(AgentsMove):
    """One game on the server: a person against agents (``seat`` set), or agents only (``seat`` None)."""

    id: str
    client: str
    """The address that made it (each client has its own cap on games in play)."""
    env: raw_env | None
    names: list[str]
    agents: dict[int, Any]
    seed: int
    seed_given: bool
    """Whether the request gave the seed (then it is no secret from that client, and is echoed)."""
    config: dict[str, Any]
    searches: bool
    """Whether a search player moves in it (its moves go to the search workers)."""
    seat: int | None = None
    memory: str = "perfect"
    shown_from: int = 0
    """With ``memory="real"``: the first event the person may still see (the start of its last turn)."""
    last_used: float = 0.0
    ended_at: float | None = None
    final: dict[str, Any] | None = None
    """Once the game has ended: its last state and its record (the environment and agents are let go)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held by the request that reads or moves the game: one at a time."""
    game_name = "gold"
    """The game's name in the registry (the store holds the piecepack game's sessions too)."""

    @property
    def finished(self) -> bool:
        return self.env is None or self.env.game.is_finished

    def state(self) -> dict[str, Any]:
        """What the page may know now: the person's knowledge in a played game, everything in a watched one."""
        if self.final is not None:
            return self.final["state"]
        game = self.game
        shown = self.seed_given or self.seat is None or game.is_finished  # a seed the server chose deals the table
        header = {"id": self.id, "mode": self.kind, "seed": self.seed if shown else None, **self.config}
        if self.seat is None:
            return {**header, **open_state(game, self.names), "events": events_json(game, self.names)}
        view = self.env.view(self.seat)
        if self.memory == "real":
            recent = {event.position for event in game.history[self.shown_from:]} | {view.face_up}
            view = forget_all_but(view, recent)
        cards = ["?" if card == UNKNOWN else card_code(card) for card in view.cards]
        start = self.shown_from if self.memory == "real" else 0
        return {**header, **_standing(game, self.names), "seat": self.seat, "memory": self.memory,
                "cards": cards, "legal": view.legal_positions, "your_turn": view.current_player == self.seat,
                "events": events_json(game, self.names, start)}

    def record(self) -> dict[str, Any]:
        """The record ``goldrush play --save`` writes, which ``goldrush replay`` and the Replay tab read; of a
        played game only once it has ended (before, it would give away the hidden table)."""
        if self.final is not None:
            return self.final["record"]
        game = self.game
        if self.seat is not None and not game.is_finished:
            raise WebError("the record of a game is given once it has ended: it holds the whole deal", 409)
        return dict(game.to_dict(), players=self.names, seed=self.seed,
                    config={"memory": "perfect", **self.config}, events=[event.label for event in game.history])

    def flip(self, position: int, closing: Callable[[], bool]) -> dict[str, Any]:
        """The person flips ``position``; the agents then play until it is the person's turn again."""
        game = self.game
        before = len(game.history)
        self.advance(until_person=True, closing=closing)  # moves an earlier request left undone (it was cut off)
        if game.is_finished:
            raise WebError("the game is over: start a new one", 409)
        _, problem = check_square(square_name(position), self.env.view(self.seat))
        if problem is not None:
            raise WebError(problem, 409)
        self.env.step(position)
        if game.face_up is None:  # the person's turn is over: real memory keeps it and what follows
            self.shown_from = len(game.history) - (1 if game.history[-1].partner is None else 2)
        self.advance(until_person=True, closing=closing)
        return {"id": self.id, "events": events_json(game, self.names, before), "state": self.state()}

    def events_since(self, start: int) -> list[dict[str, Any]]:
        return events_json(self.game, self.names, start)

    @property
    def moves(self) -> int:
        return len(self.game.history)


# --- new games, checked before any work ------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """A new game as a request asked for it, every field checked; :func:`start` does the work."""

    players: list[AgentSpec | None]
    """One per seat; None at the person's seat."""
    seed: int | None
    options: dict[str, Any]
    seat: int | None = None
    memory: str = "perfect"

    @property
    def searches(self) -> bool:
        return any(player is not None and player.searches for player in self.players)

    @property
    def names(self) -> list[str]:
        return [PERSON if player is None else player.name for player in self.players]


def _options(body: dict[str, Any], limits: Limits) -> dict[str, Any]:
    return {"table": inputs.choice("table", body["table"], list(TABLES)),
            "max_turns": inputs.integer("max_turns", body["max_turns"], 1, limits.max_turns)}


def plan_game(body: Any, offered: tuple[str, ...], limits: Limits) -> Plan:
    """A person against agents: ``players`` (2-5), ``opponents`` (one spec for all, or one per opponent),
    ``seat``, ``memory`` (perfect or real), ``seed``, ``table``, ``max_turns``."""
    body = inputs.fields(body, {"players": 2, "opponents": "expert", "seat": 0, "memory": "perfect", "seed": None,
                                "table": _DEFAULTS.table, "max_turns": _DEFAULTS.max_turns})
    players = inputs.integer("players", body["players"], MIN_PLAYERS, MAX_PLAYERS)
    seat = inputs.integer("seat", body["seat"], 0, players - 1)
    memory = inputs.choice("memory", body["memory"], MEMORY_MODES)
    options = _options(body, limits)
    opponents = inputs.agents("opponents", body["opponents"], offered, limits)
    seats = seats_around(opponents, players, seat, [o.name for o in opponents])
    _two_players_only("opponents", [p for p in seats if p is not None], players)
    seed = inputs.seed(body["seed"])
    return Plan(seats, seed, options, seat=seat, memory=memory)


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


def _two_players_only(field: str, agents: list[inputs.AgentSpec], players: int) -> None:
    for agent in agents:
        name = agent.spec.partition("[")[0]
        if players != 2 and name in inputs.TWO_PLAYERS:
            raise WebError(f"{field}: {name} plays 2-player games only, got {players} players")


def plan_watch(body: Any, offered: tuple[str, ...], limits: Limits) -> Plan:
    """A game between agents (``agents``: one spec per seat), advanced a flip at a time."""
    body = inputs.fields(body, {"agents": None, "seed": None, "table": _DEFAULTS.table,
                                "max_turns": _DEFAULTS.max_turns})
    if body["agents"] is None:
        raise WebError(f"agents is missing: one agent per seat ({MIN_PLAYERS} to {MAX_PLAYERS}), e.g. 'greedy,expert'")
    players = inputs.agents("agents", body["agents"], offered, limits)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise WebError(f"agents needs {MIN_PLAYERS} to {MAX_PLAYERS} agents (one per seat), got {len(players)}: "
                       f"{excerpt([p.name for p in players])}")
    _two_players_only("agents", players, len(players))
    options = _options(body, limits)
    return Plan(players, inputs.seed(body["seed"]), options)


def start(plan: Plan, client: str, closing: Callable[[], bool]) -> Session:
    """The game of ``plan``, dealt, with its agents made and (in a played game) moved until the person's turn."""
    seed = secrets.randbelow(SERVER_SEEDS) if plan.seed is None else plan.seed
    names = plan.names
    env = raw_env(num_players=len(names), **plan.options)
    env.reset(seed=seed)
    try:
        if plan.seat is None:  # seeded as goldrush watch seeds them (arena.play_game): one seed, one game
            agents = {s: make_agent(p.spec) for s, p in enumerate(plan.players)}
            for s, player_seed in enumerate(np.random.SeedSequence(seed).spawn(len(names))):
                agents[s].reset(seed=int(player_seed.generate_state(1)[0]))
        else:  # as goldrush play seeds them
            agents = {s: make_agent(p.spec, seed=seed + s) for s, p in enumerate(plan.players) if p is not None}
    except GoldRushError as error:  # a bad option, named by the agent's constructor
        raise WebError(str(error)) from None
    session = Session(secrets.token_urlsafe(12), client, env, names, agents, seed, plan.seed is not None,
                      dict(plan.options), plan.searches, seat=plan.seat, memory=plan.memory)
    if plan.seat is not None:
        session.advance(until_person=True, closing=closing)
    return session


# --- replays ---------------------------------------------------------------------------------


def replay(body: Any, limits: Limits) -> dict[str, Any]:
    """Every state of a recorded game (the JSON ``goldrush play --save`` writes), from the deal to its last flip,
    each recorded outcome checked. Whatever the record says is checked before it is shown: names are text of
    at most ``max_text`` characters, the seed an int, the game at most ``max_turns`` turns."""
    if not isinstance(body, dict):
        raise WebError(f"a record is a JSON object, got {type(body).__name__}")
    if body.get("format") != SERIAL_FORMAT:
        raise WebError(f"not a record of a game of Gold: expected format {SERIAL_FORMAT!r}, got "
                       f"{excerpt(body.get('format'))} (records of the piecepack game replay with 'goldrush replay')")
    flips = body.get("flips")
    if not isinstance(flips, list):
        raise WebError(f"the record's flips must be a list of positions, got {excerpt(flips)}")
    turns = body.get("max_turns")
    if turns is not None:
        inputs.integer("the record's max_turns", turns, 1, limits.max_turns)
    if len(flips) > 2 * limits.max_turns:
        raise WebError(f"the record has {len(flips):,} flips: a replay holds at most {2 * limits.max_turns}")
    seed = body.get("seed")
    if seed is not None:
        inputs.integer("the record's seed", seed, 0, MAX_SEED)
    data = {key: body[key] for key in ("format", "num_players", "first_player", "max_turns", "rush_at", "layout",
                                       "start") if key in body}
    try:
        game = Game.from_dict({**data, "flips": []})
    except GoldRushError as error:
        raise WebError(f"the record's deal cannot be played: {excerpt(str(error), 200)}") from None
    names = record_names(body.get("players"), game.num_players, limits)
    recorded = body.get("events")
    if recorded is not None and not (isinstance(recorded, list) and all(isinstance(e, str) for e in recorded)):
        raise WebError(f"the record's events must be a list of outcome labels, got {excerpt(recorded)}")
    frames = [open_state(game, names)]
    for index, position in enumerate(flips):
        try:
            event = game.flip(position)
        except GoldRushError as error:
            raise WebError(f"flip #{index} of the record cannot be played: {excerpt(str(error), 200)}") from None
        if recorded is not None and index < len(recorded) and recorded[index] != event.label:
            raise WebError(f"flip #{index} replays as {event.label!r} but the record says {excerpt(recorded[index])}")
        frames.append(open_state(game, names))
    return {"mode": "replay", "names": names, "num_players": game.num_players, "seed": seed,
            "events": events_json(game, names), "frames": frames}


def record_names(names: Any, num_players: int, limits: Limits, key: str = "players") -> list[str]:
    """The player names of a record (its field ``key``), or ``seat 0``... where it has none."""
    if names is None:
        return [f"seat {s}" for s in range(num_players)]
    if not (isinstance(names, list) and len(names) == num_players
            and all(isinstance(n, str) and 0 < len(n) <= limits.max_text and n.isprintable() for n in names)):
        raise WebError(f"the record's {key} must be {num_players} names (printable text of 1 to "
                       f"{limits.max_text} characters), got {excerpt(names)}")
    return names


# --- the games held --------------------------------------------------------------------------


class Store:
    """The games held, keyed by random ids: those in play, counted against the limits, and those ended, kept a
    short while for their state and record. ``agents`` lists the model files a request may name."""

    def __init__(self, limits: Limits, clock: Callable[[], float], models: tuple[str, ...] = ()) -> None:
        self.limits = limits
        self.clock = clock
        self.models = models
        self.live: dict[str, Session] = {}
        self.ended: dict[str, Session] = {}
        """In the order they ended (the oldest is dropped first)."""
        self.starting: Counter[str] = Counter()
        """Per client: games being made now (counted against the caps while their agents move)."""
        self.closing = False
        self._lock = threading.Lock()

    def _prune(self) -> None:
        now, limits = self.clock(), self.limits
        for key in [key for key, s in self.live.items() if now - s.last_used > limits.idle_seconds]:
            del self.live[key]
        for key in [key for key, s in self.ended.items() if now - s.ended_at > limits.ended_seconds]:
            del self.ended[key]
        for key in list(self.ended)[:max(0, len(self.ended) - limits.max_games)]:
            del self.ended[key]

    def reserve(self, client: str) -> None:
        """Count a game about to be made for ``client``, or refuse it (503 when the server is full, 429 when the
        client has its share), before any work is done for it. :meth:`admit` or :meth:`release` follows."""
        limits = self.limits
        with self._lock:
            self._prune()
            if self.closing:
                raise WebError("the server is shutting down", 503)
            if len(self.live) + sum(self.starting.values()) >= limits.max_games:
                raise WebError(f"the server has {limits.max_games} games in play, its limit: try again in a minute "
                               f"(a game leaves the count when it ends, is deleted, or has no request for "
                               f"{limits.idle_seconds:g} seconds)", 503, retry_after=60)
            mine = sum(1 for s in self.live.values() if s.client == client) + self.starting[client]
            if mine >= limits.max_games_per_client:
                raise WebError(f"you have {mine} games in play on this server, the most one client may have: finish "
                               f"or delete one (DELETE /api/games/ID), or wait until one has had no request for "
                               f"{limits.idle_seconds:g} seconds", 429, retry_after=60)
            self.starting[client] += 1

    def release(self, client: str) -> None:
        with self._lock:
            self.starting[client] -= 1
            if not self.starting[client]:
                del self.starting[client]

    def admit(self, session: Session) -> None:
        """Hold a game made after :meth:`reserve`."""
        self.release(session.client)
        with self._lock:
            session.last_used = self.clock()
            self.live[session.id] = session
        self.settle(session)

    def settle(self, session: Session) -> None:
        """Move a game that has just ended out of the count of games in play."""
        if session.env is None or not session.finished:
            return
        with self._lock:
            session.end(self.clock())
            if self.live.pop(session.id, None) is not None:
                self.ended[session.id] = session
            self._prune()

    def get(self, game_id: str, kind: str | None = None, game: str = "gold") -> Session:
        """The game ``game_id`` of ``game`` (and of ``kind``, "play" or "watch", if given), refused with 404 if
        there is none."""
        with self._lock:
            self._prune()
            session = self.live.get(game_id) or self.ended.get(game_id)
            if session is None or kind not in (None, session.kind) or session.game_name != game:
                raise WebError(f"no {'watched ' if kind == 'watch' else ''}game {excerpt(game_id, 40)} on this "
                               f"server: it was never made, was deleted, or was dropped ({self._dropped})", 404)
            session.last_used = self.clock()
            return session

    @property
    def _dropped(self) -> str:
        limits = self.limits
        return (f"a game in play after {limits.idle_seconds:g} seconds without a request, a finished one "
                f"{limits.ended_seconds:g} seconds after its end")

    def remove(self, game_id: str) -> None:
        with self._lock:
            self._prune()
            if self.live.pop(game_id, None) is None and self.ended.pop(game_id, None) is None:
                raise WebError(f"no game {excerpt(game_id, 40)} on this server", 404)

    def is_closing(self) -> bool:
        return self.closing


__all__ = ["AgentsMove", "Session", "Store", "Plan", "plan_game", "plan_watch", "start", "replay", "record_names",
           "seats_around", "event_json", "events_json", "open_state", "MEMORY_MODES", "PERSON"]
