"""*Gold Rush* on a piecepack in the browser: its page, and what the server sends of a game (:class:`PiecepackWeb`,
the web part the server finds among the game's players as ``WEB``).

What a played game sends is its person's seat's knowledge, ``Game.known_to(seat)``: the public state and the
pieces this seat has assayed, never another seat's assay or a face-down piece nobody showed it, and no seed the
server chose. Events are public by the rules (``Event`` carries no private fact). A watched game and a replay have
nobody at the table, so they show every piece.

Everything a person reads is in the rule sheet's words (:mod:`goldrush_env.piecepack.words`): each choice is said
from the knowledge of the seat about to take it (the person's own in a played game), with its price; each log line
from the event alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from goldrush_env.checks import is_int
from goldrush_env.errors import GoldrushEnvError, excerpt
from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.encoder import truth
from goldrush_env.piecepack.engine import Game, is_record
from goldrush_env.piecepack.words import PHASE_WORDS, action_words, event_words

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


_PLOT_KINDS = frozenset({"CLAIM", "ASSAY_TILE", "ASSAY_COIN", "OPTIMIZE_TILE", "OPTIMIZE_COIN", "UPGRADE"})


def _plot_of(action: int) -> int | None:
    """The plot an action is about (the page shows a picked plot's choices), or None."""
    kind, args = A.decode(action)
    if kind == "BUILD":
        return args[1]
    return args[0] if kind in _PLOT_KINDS else None


def legal_json(game: Game, known: dict[str, Any]) -> list[dict[str, Any]]:
    """The actions open to the seat to act, each in words from ``known``, that seat's knowledge (with its price
    where it has one), and the plot it is about."""
    return [{"action": action, "text": action_words(action, known), "plot": _plot_of(action)}
            for action in game.legal_actions()]


def _result(game: Game, known: dict[str, Any]) -> dict[str, Any]:
    """What everyone at the table knows of the standing, and the phase in the sheet's words."""
    over = game.is_over
    return {"scores": game.scores(), "over": over, "finished": over, "winners": game.winners() if over else [],
            "current_player": game.current_player, "phase_words": PHASE_WORDS[known["phase"]]}


def open_state(game: Game, names: list[str]) -> dict[str, Any]:
    """The state with every piece shown (a watched game, a replay): nobody sits at the table; the choices are said
    from what the seat to act knows."""
    legal = [] if game.is_over else legal_json(game, game.known_to(game.current_player))
    known = truth(game)
    return {"names": names, "num_players": game.num_players, "knowledge": knowledge_json(known), "legal": legal,
            **_result(game, known)}


def log_names(names: list[str]) -> list[str]:
    """How the log names each seat: by its player's name, with its seat where two seats have one name."""
    return [f"{name} (seat {seat})" if names.count(name) > 1 else name for seat, name in enumerate(names)]


def events_json(game: Game, names: list[str], start: int = 0) -> list[dict[str, Any]]:
    """The game's events from ``start`` on, each with its line of the log in the sheet's words (a person's seat,
    named ``you``, is spoken to)."""
    shown = log_names(names)
    return [{"index": index, "kind": event.kind, "seat": event.seat, "text": event_words(event, shown)}
            for index, event in enumerate(game.events[start:], start)]


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
        known = game.known_to(seat)
        mine = game.current_player == seat
        return {"names": session.names, "num_players": game.num_players, "seat": seat,
                "knowledge": knowledge_json(known), "your_turn": mine,
                "legal": legal_json(game, known) if mine else [], **_result(game, known),
                "events": events_json(game, session.names)}

    def open_state(self, game: Game, names: list[str]) -> dict[str, Any]:
        return open_state(game, names)

    def events(self, session: Session, start: int) -> list[dict[str, Any]]:
        return events_json(session.game, session.names, start)

    def moves(self, game: Game) -> int:
        """Events, not actions: an action's events are what the page is told of it."""
        return len(game.events)

    def refusal(self, session: Session, action: int) -> str | None:
        game = session.game
        reason = game.why_illegal(action)
        if reason is None:
            return None
        return f"action {action} ({action_words(action, game.known_to(session.seat))}) is not open to you now: {reason}"

    def replay(self, body: Any, limits: Limits) -> dict[str, Any]:
        """Every state of a recorded game (the JSON ``goldrush watch --game piecepack --save`` and tournaments
        write), from the deal to its last action, each with its ``log_length`` (the events up to it). The record
        is checked as ``Game.from_record`` checks it (its stored rounds and result must match the replay), its
        names and seed as well, and it holds at most :data:`MAX_ACTIONS`."""
        if not is_record(body):
            raise WebError("not a record of Gold Rush (piecepack): a record is a JSON object with tiles and coins")
        actions = body.get("actions", [])
        if not isinstance(actions, list) or not all(is_int(a) for a in actions):
            raise WebError(f"the record's actions must be a list of ints, got {excerpt(actions)}")
        if len(actions) > MAX_ACTIONS:
            raise WebError(f"the record has {len(actions):,} actions: a replay holds at most {MAX_ACTIONS:,}")
        seed = body.get("seed")
        if seed is not None:
            inputs.integer("the record's seed", seed, 0, MAX_SEED)
        try:
            Game.from_record(body)  # the whole record checked first
            game = Game.from_record({**body, "actions": [], "rounds": [], "final": None}, check=False)
        except (GoldrushEnvError, TypeError, ValueError) as error:
            raise WebError(f"the record cannot be replayed: {excerpt(str(error), 200)}") from None
        names = record_names(body.get("names"), game.num_players, limits, "names")
        # Each frame says how many of the events had happened by then: the page shows the log up to that frame.
        frames = [{**open_state(game, names), "log_length": len(game.events)}]
        for action in actions:
            game.step(action)
            frames.append({**open_state(game, names), "log_length": len(game.events)})
        return {"game": self.name, "mode": "replay", "names": names, "num_players": game.num_players, "seed": seed,
                "events": events_json(game, names), "frames": frames}


WEB = PiecepackWeb
"""Gold Rush's web part, as the server finds it."""

__all__ = ["WEB", "PiecepackWeb", "MAX_ACTIONS", "events_json", "knowledge_json", "legal_json", "log_names",
           "open_state"]
