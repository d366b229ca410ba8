"""*Gold Rush* on a piecepack in the browser: its page, and what the server sends of a game (:class:`PiecepackWeb`,
the web part the server finds among the game's players as ``WEB``).

What a played game sends is its person's seat's knowledge, ``Game.known_to(seat)``: the public state and the
pieces this seat has assayed, never another seat's assay or a face-down piece nobody showed it, and no seed the
server chose. Events are public by the rules (``Event`` carries no private fact). A watched game and a replay have
nobody at the table, so they show every piece.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from goldrush_env.errors import GoldRushError, excerpt
from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.encoder import truth
from goldrush_env.piecepack.engine import Game, is_record

from goldrush_agents.web import inputs
from goldrush_agents.web.game import Session, WebGame, record_names
from goldrush_agents.web.inputs import AgentRules, WebError
from goldrush_agents.web.limits import MAX_SEED, Limits

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
    return {"scores": game.scores(), "over": over, "finished": over, "winners": game.winners() if over else [],
            "current_player": game.current_player}


def open_state(game: Game, names: list[str]) -> dict[str, Any]:
    """The state with every piece shown (a watched game, a replay): nobody sits at the table."""
    return {"names": names, "num_players": game.num_players, "knowledge": knowledge_json(truth(game)),
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


class PiecepackWeb(WebGame):
    """Gold Rush as the server plays it: its page, a seat's knowledge, the actions in words, the event log and
    replays action by action."""

    page = Path(__file__).with_name("static") / "piecepack.html"
    static = Path(__file__).with_name("static")
    rules = AgentRules(searches=("search",))
    """No player takes options from a request; ``search`` moves on the search workers (its default search, 8
    rollouts of every legal action to the end of the game, costs about 1.5 s of a core over a whole game against
    economists: docs/piecepack.md#training)."""

    def seat_state(self, session: Session) -> dict[str, Any]:
        game, seat = session.game, session.seat
        mine = game.current_player == seat
        return {"names": session.names, "num_players": game.num_players, "seat": seat,
                "knowledge": knowledge_json(game.known_to(seat)), "your_turn": mine,
                "legal": legal_json(game) if mine else [], **_result(game),
                "events": events_json(game, session.names)}

    def open_state(self, game: Game, names: list[str]) -> dict[str, Any]:
        return open_state(game, names)

    def events(self, session: Session, start: int) -> list[dict[str, Any]]:
        return events_json(session.game, session.names, start)

    def moves(self, game: Game) -> int:
        """Events, not actions: an action's events are what the page is told of it."""
        return len(game.events)

    def refusal(self, session: Session, action: int) -> str | None:
        reason = session.game.why_illegal(action)
        return None if reason is None else f"action {action} ({A.describe(action)}) is not open to you now: {reason}"

    def replay(self, body: Any, limits: Limits) -> dict[str, Any]:
        """Every state of a recorded game (the JSON ``goldrush watch --game piecepack --save`` and tournaments
        write), from the deal to its last action. The record is checked as ``Game.from_record`` checks it (its
        stored rounds and result must match the replay), its names and seed as well, and it holds at most
        :data:`MAX_ACTIONS`."""
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
        names = record_names(body.get("names"), game.num_players, limits, "names")
        frames = [open_state(game, names)]
        for action in actions:
            game.step(action)
            frames.append(open_state(game, names))
        return {"game": self.name, "mode": "replay", "names": names, "num_players": game.num_players, "seed": seed,
                "events": events_json(game, names), "frames": frames}


WEB = PiecepackWeb
"""Gold Rush's web part, as the server finds it."""

__all__ = ["WEB", "PiecepackWeb", "MAX_ACTIONS", "events_json", "knowledge_json", "legal_json", "open_state"]
