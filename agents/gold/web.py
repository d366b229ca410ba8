"""Gold in the browser: its page, and what the server sends of a game (:class:`GoldWeb`, the web part the server
finds among Gold's players as ``WEB``).

What a played game sends is the person's seat's knowledge only (with ``memory="real"``, only the cards flipped
since its last turn began, as ``goldrush play --memory-mode real``): never the hidden table, another seat's
memory, or a seed the server chose. Every flip is public (D9), so the log of flips is too. A watched game and a
replay have nobody at the table and show every card.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from goldrush_env.gold.cards import EMPTY, GRID_SIZE, IS_GOLD, TABLES, VALUE, card_code
from goldrush_env.gold.config import EnvConfig
from goldrush_env.gold.engine import SERIAL_FORMAT, FlipEvent, Game, Outcome, colour_owners
from goldrush_env.gold.render import check_square, parse_square, square_name
from goldrush_env.gold.view import UNKNOWN, forget_all_but
from goldrush_env.errors import GoldrushEnvError, excerpt

from goldrush_agents import parse_spec
from goldrush_agents.web import inputs
from goldrush_agents.web.game import PERSON, Session, WebGame, record_names
from goldrush_agents.web.inputs import AgentRules, AgentSpec, WebError
from goldrush_agents.web.limits import MAX_SEED, Limits

MEMORY_MODES = ("perfect", "real")
COLOUR_NAMES = ("red", "blue", "purple", "orange", "grey")
"""The miner colours 0-4 as the page draws them (the colours of :mod:`goldrush_env.gold.render`)."""
_DEFAULTS = EnvConfig()


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


def grid_rows(game: Game) -> int:
    """The rows of the grid the deal covers, which the page draws: a smaller table is laid on the first rows (the
    quarter table on 2, the half on 4). Public: everyone sees where the cards lie."""
    dealt = [p for p, card in enumerate(game.initial_layout) if card != EMPTY]
    return max(dealt, default=0) // GRID_SIZE + 1


def _standing(game: Game, names: list[str]) -> dict[str, Any]:
    """What everyone at the table knows: the standing, whose turn, the rush, the result, the rows of the table."""
    return {
        "num_players": game.num_players, "names": names, "owners": list(colour_owners(game.num_players)),
        "rows": grid_rows(game),
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
            "legal": np.flatnonzero(game.legal_mask()).tolist()}


class GoldWeb(WebGame):
    """Gold as the server plays it: its page, the table and turn limit of a new game, the person's memory, a flip
    named by its square, the event log and replays flip by flip."""

    page = Path(__file__).with_name("static") / "gold.html"
    static = Path(__file__).with_name("static")
    rules = AgentRules(offline=("optimal",), options={"selfplay": ("depth",)}, other_options=None,
                       searches=("ismcts",), budgeted=("ismcts",))
    """``optimal`` solves its table first (minutes of a core and gigabytes); ``selfplay`` may be given its
    ``depth`` only, 0 or 1 (:meth:`check_table`); every ``ismcts`` move gets the server's time budget."""

    def more_info(self) -> dict[str, Any]:
        return {"tables": list(TABLES), "memory": list(MEMORY_MODES)}

    def option_fields(self) -> dict[str, Any]:
        return {"table": _DEFAULTS.table, "max_turns": _DEFAULTS.max_turns}

    def read_options(self, body: dict[str, Any], limits: Limits) -> dict[str, Any]:
        return {"table": inputs.choice("table", body["table"], list(TABLES)),
                "max_turns": inputs.integer("max_turns", body["max_turns"], 1, limits.max_turns)}

    def person_fields(self) -> dict[str, Any]:
        return {"memory": "perfect"}

    def read_person(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"memory": inputs.choice("memory", body["memory"], MEMORY_MODES), "shown_from": 0}

    def check_table(self, players: list[AgentSpec], num_players: int, field_name: str) -> None:
        """Refuse ``selfplay[depth=2]``: its moves take up to seconds of a core at five players, with no time
        budget to stop them."""
        for player in players:
            name, options = parse_spec(player.spec)
            if name == "selfplay" and options.get("depth", 1) not in (0, 1):
                raise WebError(f"{excerpt(player.name)} in {field_name}: this server plays selfplay at depth 0 or 1, "
                               f"got {options['depth']!r}")

    def read_action(self, value: Any) -> int:
        """A position from 0 to 63, or a square name such as ``"c4"``."""
        if isinstance(value, str):
            try:
                return parse_square(value)
            except ValueError:
                raise WebError(f"action {excerpt(value)} is not a square: columns a-h, rows 1-8, e.g. 'c4'") from None
        return inputs.integer("action", value, 0, 63)

    # --- what is sent -------------------------------------------------------------------------------------

    def seat_state(self, session: Session) -> dict[str, Any]:
        game, seat = session.game, session.seat
        view = session.env.view(seat)
        memory = session.person["memory"]
        start = session.person["shown_from"] if memory == "real" else 0
        if memory == "real":
            recent = {event.position for event in game.history[start:]} | {view.face_up}
            view = forget_all_but(view, recent)
        cards = ["?" if card == UNKNOWN else card_code(card) for card in view.cards]
        return {**_standing(game, session.names), "seat": seat, "memory": memory, "cards": cards,
                "legal": view.legal_actions.tolist(), "your_turn": view.current_player == seat,
                "events": events_json(game, session.names, start)}

    def open_state(self, game: Game, names: list[str]) -> dict[str, Any]:
        return open_state(game, names)

    def events(self, session: Session, start: int) -> list[dict[str, Any]]:
        return events_json(session.game, session.names, start)

    def moves(self, game: Game) -> int:
        return len(game.history)

    def refusal(self, session: Session, action: int) -> str | None:
        return check_square(square_name(action), session.env.view(session.seat))[1]

    def after_person(self, session: Session) -> None:
        game = session.game
        if game.face_up is None:  # the person's turn is over: real memory keeps it and what follows
            session.person["shown_from"] = len(game.history) - (1 if game.history[-1].partner is None else 2)

    def record(self, session: Session) -> dict[str, Any]:
        """The record ``goldrush play --save`` writes (its environment had perfect memory: the person's memory
        mode is only what its page showed)."""
        return {**super().record(session), "config": {"memory": "perfect", **session.config}}

    def replay(self, body: Any, limits: Limits) -> dict[str, Any]:
        """Every state of a recorded game, from the deal to its last flip, each recorded outcome checked. Whatever
        the record says is checked before it is shown: names are text of at most ``max_text`` characters, the seed
        an int, the game at most ``max_turns`` turns."""
        if not isinstance(body, dict):
            raise WebError(f"a record is a JSON object, got {type(body).__name__}")
        if body.get("format") != SERIAL_FORMAT:
            raise WebError(f"not a record of a game of Gold: expected format {SERIAL_FORMAT!r}, got "
                           f"{excerpt(body.get('format'))}")
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
            game = Game.from_record({**data, "flips": []})
        except GoldrushEnvError as error:
            raise WebError(f"the record's deal cannot be played: {excerpt(str(error), 200)}") from None
        names = record_names(body.get("players"), game.num_players, limits, "players")
        recorded = body.get("events")
        if recorded is not None and not (isinstance(recorded, list) and all(isinstance(e, str) for e in recorded)):
            raise WebError(f"the record's events must be a list of outcome labels, got {excerpt(recorded)}")
        frames = [open_state(game, names)]
        for index, position in enumerate(flips):
            try:
                event = game.step(position)
            except GoldrushEnvError as error:
                raise WebError(f"flip #{index} of the record cannot be played: {excerpt(str(error), 200)}") from None
            if recorded is not None and index < len(recorded) and recorded[index] != event.label:
                raise WebError(f"flip #{index} replays as {event.label!r} but the record says "
                               f"{excerpt(recorded[index])}")
            frames.append(open_state(game, names))
        return {"game": self.name, "mode": "replay", "names": names, "num_players": game.num_players, "seed": seed,
                "events": events_json(game, names), "frames": frames}


WEB = GoldWeb
"""Gold's web part, as the server finds it."""

__all__ = ["WEB", "GoldWeb", "event_json", "events_json", "open_state", "MEMORY_MODES"]
