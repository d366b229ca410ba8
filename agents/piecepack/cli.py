"""Gold Rush (piecepack) at the ``goldrush`` command: a game printed event by event, and a person's game in the
terminal (the board as the seat knows it, then the legal actions by number), both in the rule sheet's words
(:mod:`goldrush_env.piecepack.words`).

:mod:`goldrush_agents.cli` parses the command line and hands the game's part to this module (every game's
players package has one, with the same names): :data:`OPTIONS`, :func:`config`, :func:`print_record` and
:func:`play`. Records are those of §9 (docs/piecepack-rules.md), which ``Game.from_record`` replays anywhere.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Sequence, TextIO

from goldrush_env.piecepack.engine import Event, Game
from goldrush_env.piecepack.render import to_text
from goldrush_env.piecepack.words import action_words, event_words

from goldrush_agents import make_agent
from goldrush_agents.piecepack import view_of

OPTIONS: list[tuple[str, dict[str, Any], tuple[str, ...]]] = []
"""The game's own options of the commands: none (its environment's options are its rules)."""


def config(args: argparse.Namespace) -> dict[str, Any]:
    """The environment's options the command line gives: none."""
    return {}


def _seat_names(names: Sequence[str]) -> list[str]:
    """How the log names each seat: ``"economist (seat 1)"`` (two seats may play the same agent), ``"you"``."""
    return [name if name == "you" or name == f"seat {seat}" else f"{name} (seat {seat})"
            for seat, name in enumerate(names)]


def _print_events(events: Sequence[Event], names: Sequence[str], out: TextIO) -> None:
    """Each event as a line of the log, a round's opening unindented as its heading. The end of the game is left to
    the caller's last line."""
    for event in events:
        if event.kind != "game_over":
            print(("" if event.kind == "round" else "  ") + event_words(event, names), file=out)


def print_record(record: dict[str, Any], out: TextIO, delay: float = 0.0) -> Game:
    """Replay a record action by action, printing what each action did and what followed (production, spoilage,
    the next round) in the rule sheet's words; the stored rounds and final result are checked against the replay."""
    Game.from_record(record)  # the whole record checked first: a wrong one prints nothing
    game = Game(record["players"], record["tiles"], record["coins"], record["start"], record["dice"],
                record.get("market_rolls", ()))
    names = list(record.get("names") or [f"seat {s}" for s in range(game.num_players)])
    print(f"Gold Rush (piecepack), {game.num_players} players: "
          + ", ".join(f"seat {s} {n}" for s, n in enumerate(names)), file=out)
    shown = _seat_names(names)
    _print_events(game.events, shown, out)
    for action in record["actions"]:
        _print_events(game.step(action), shown, out)
        if delay:
            time.sleep(delay)
    scores = game.scores()
    print("game over; scores " + ", ".join(f"{names[s]} {scores[s]}" for s in range(game.num_players))
          + "; winner" + ("s " if len(game.winners()) > 1 else " ") + ", ".join(names[s] for s in game.winners()),
          file=out)
    return game


def play(args: argparse.Namespace, names: list[str], seed: int, out: TextIO, read=input) -> dict[str, Any] | None:
    """A person at seat ``args.seat`` (``names[seat]`` is ``"you"``) against agents: the board as the seat knows
    it, then the legal actions by number; the game's record, or None if the person quit."""
    agents = {s: make_agent(name, seed=seed + s, game="piecepack") for s, name in enumerate(names)
              if s != args.seat}
    game = Game.new(len(names), seed)
    shown = _seat_names(names)
    print(f"Gold Rush (piecepack): you are seat {args.seat} of {len(names)}; type an action's number, "
          "l to list your actions again, q to quit.", file=out)
    _print_events(game.events, shown, out)
    while not game.is_over:
        seat = game.current_player
        if seat != args.seat:
            _print_events(game.step(agents[seat].act(view_of(game, seat))), shown, out)
            continue
        legal = [int(a) for a in game.legal_actions()]
        known = game.known_to(seat)
        print(to_text(known), file=out)
        _list(legal, known, out)
        while True:
            try:
                answer = read("your action> ").strip().lower()
            except EOFError:
                answer = "q"
            if answer in ("q", "quit", "exit"):
                print("bye", file=out)
                return None
            if answer in ("l", "?", "list"):
                _list(legal, known, out)
                continue
            if answer.isdigit() and int(answer) in legal:
                break
            print(f"  {answer!r} is not one of your actions now: type its number (l lists them)", file=out)
        _print_events(game.step(int(answer)), shown, out)
    print(to_text(game.known_to(args.seat)), file=out)
    won = args.seat in game.winners()
    print("you win!" if won and len(game.winners()) == 1 else "a shared victory" if won else "you lose", file=out)
    return dict(game.to_record(), names=names, seed=seed)


def _list(legal: Sequence[int], known: dict[str, Any], out: TextIO) -> None:
    for action in legal:
        print(f"  {action:>3}  {action_words(action, known)}", file=out)


__all__ = ["OPTIONS", "config", "print_record", "play"]
