"""Gold at the ``goldrush`` command: its options, a game printed flip by flip, and a person's game in the terminal.

:mod:`goldrush_agents.cli` parses the command line and hands the game's part to this module (every game's
players package has one, with the same names): :data:`OPTIONS`, :func:`config`, :func:`print_record` and
:func:`play`.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Sequence, TextIO

from goldrush_env.errors import IllegalFlipError
from goldrush_env.gold.aec import raw_env
from goldrush_env.gold.cards import TABLES, card_code
from goldrush_env.gold.config import EnvConfig
from goldrush_env.gold.engine import Game, colour_owners
from goldrush_env.gold.render import check_square, legend, ownership, square_name, to_text
from goldrush_env.gold.view import forget_all_but

from goldrush_agents import make_agent
from goldrush_agents.cli import at_least

_DEFAULTS = EnvConfig()
OPTIONS: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    ("--memory", {"default": _DEFAULTS.memory, "choices": ["perfect", "human"],
                  "help": "what every seat remembers, the agents' and yours: perfect, every card seen; human, a "
                          "model of a person's forgetting"}, ("play", "watch", "tournament")),
    ("--max-turns", {"default": _DEFAULTS.max_turns, "type": at_least(1),
                     "help": "turn limit; the game is then truncated"}, ("play", "watch", "tournament")),
    ("--table", {"default": _DEFAULTS.table, "choices": list(TABLES),
                 "help": "the table dealt: the full game's 64 cards, or a smaller one of 32 (half) or 16 (quarter) "
                         "cards"}, ("play", "watch", "tournament")),
    ("--memory-mode", {"default": "perfect", "choices": ["perfect", "real"],
                       "help": "what your board prints, whatever --memory says: perfect, every card you "
                               "remember; real, only the cards flipped since your last turn, so that you play from "
                               "your own memory"}, ("play",)),
]
"""Gold's own options of the commands: flag, argparse settings (the default is Gold's), the commands taking it."""
HELP_ANSWERS = ("?", "help", "h")
QUIT_ANSWERS = ("q", "quit", "exit")


def config(args: argparse.Namespace) -> dict[str, Any]:
    """The environment's options the command line gives (:class:`~goldrush_env.gold.config.EnvConfig`)."""
    return {"memory": args.memory, "max_turns": args.max_turns, "table": args.table}


def event_line(event: Any, names: Sequence[str]) -> str:
    who = names[event.player] if names else f"seat {event.player}"
    card, square = card_code(event.card), square_name(event.position)
    text = f"turn {event.turn:>3}  {who} (seat {event.player}) flips {card:>3} at {square}"
    if event.outcome.value != "first":
        text += f": {event.label}"
    if event.rush_begins:
        text += "  -- the Gold Rush begins"
    return text


def print_record(record: dict[str, Any], out: TextIO, delay: float = 0.0) -> Game:
    """Replay a record flip by flip, printing each event; the whole record (each recorded outcome too) is checked
    first, so a wrong one prints nothing."""
    Game.from_record(record)
    game = Game.from_record({**record, "flips": [], "events": []})
    names = record.get("players") or [f"seat {s}" for s in range(game.num_players)]
    print(f"Gold, {game.num_players} players: " + ", ".join(f"seat {s} {n}" for s, n in enumerate(names)), file=out)
    print("miners  " + ownership(colour_owners(game.num_players)), file=out)
    for position in record["flips"]:
        print(event_line(game.step(position), names), file=out)
        if delay:
            time.sleep(delay)
    ending = "game over" if game.is_over else "stopped at the turn limit" if game.is_truncated else "unfinished"
    print(f"{ending} after {game.turn} turns; scores " +
          ", ".join(f"{names[s]} {game.scores[s]} ({game.gold_cards[s]} cards)" for s in range(game.num_players)) +
          "; winner" + ("s " if len(game.winners) > 1 else " ") +
          ", ".join(names[s] for s in game.winners), file=out)
    return game


def play(args: argparse.Namespace, names: list[str], seed: int, out: TextIO, read=input) -> dict[str, Any] | None:
    """A person at seat ``args.seat`` (``names[seat]`` is ``"you"``) against agents, in the terminal; the game's
    record, or None if the person quit."""
    seat_of_person = args.seat
    print(f"Gold: you are seat {seat_of_person} of {len(names)}; type a square such as c4 to flip it, "
          "? for the card codes and the rules, q to quit.", file=out)
    env = raw_env(num_players=len(names), **config(args))
    env.reset(seed=seed)
    agents = {s: make_agent(name, seed=seed + s) for s, name in enumerate(names) if s != seat_of_person}
    game = env.game
    shown_from = 0  # in "real" memory mode: the events the person may still see
    while not game.is_finished:
        seat = game.current_player
        if seat != seat_of_person:
            env.step_from_view(agents[seat].act(env.view(seat)))
            print(event_line(game.history[-1], names), file=out)
            continue
        view = env.view(seat)
        if args.memory_mode == "real":
            recent = {e.position for e in game.history[shown_from:]} | {view.face_up}
            view = forget_all_but(view, recent)
        print(to_text(view), file=out)
        while True:
            try:
                answer = read("your flip> ").strip()
            except EOFError:
                answer = "q"
            if answer.lower() in QUIT_ANSWERS:
                print("bye", file=out)
                return None
            if answer.lower() in HELP_ANSWERS:
                print(legend(len(names), TABLES[args.table].rush_at), file=out)
                continue
            position, problem = check_square(answer, view)
            if problem is None:
                try:
                    env.step_from_view(position)
                    break
                except IllegalFlipError as error:  # not expected: check_square knows every reason
                    problem = f"{square_name(position)} cannot be flipped now ({error})"
            print(f"  {problem}", file=out)
        print(event_line(game.history[-1], names), file=out)
        if game.face_up is None:  # the turn is over: from now on "real" memory shows it and what follows
            shown_from = len(game.history) - (1 if game.history[-1].partner is None else 2)
    print(to_text(env.view(seat_of_person)), file=out)
    won = seat_of_person in game.winners
    print("you win!" if won and len(game.winners) == 1 else "a shared victory" if won else "you lose", file=out)
    return dict(game.to_record(), players=names, seed=seed, config=config(args))


__all__ = ["OPTIONS", "config", "event_line", "print_record", "play"]
