"""Gold Rush (piecepack) at the ``goldrush`` command: a game printed action by action, and a person's game in the
terminal (the board as the seat knows it, then the legal actions by number).

:mod:`goldrush_agents.cli` parses the command line and hands the game's part to this module (every game's
players package has one, with the same names): :data:`OPTIONS`, :func:`config`, :func:`print_record` and
:func:`play`. Records are those of §9 (docs/piecepack-rules.md), which ``Game.from_record`` replays anywhere.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Sequence, TextIO

from goldrush_env.piecepack.actions import describe
from goldrush_env.piecepack.engine import Game
from goldrush_env.piecepack.render import to_text

from goldrush_agents import make_agent
from goldrush_agents.piecepack import view_of

DEFAULT_OPPONENTS = "economist"
"""Who a person plays against unless ``--opponents`` says otherwise."""
OPTIONS: list[tuple[str, dict[str, Any], tuple[str, ...]]] = []
"""The game's own options of the commands: none (its environment's options are its rules)."""


def config(args: argparse.Namespace) -> dict[str, Any]:
    """The environment's options the command line gives: none."""
    return {}


def print_record(record: dict[str, Any], out: TextIO, delay: float = 0.0) -> Game:
    """Replay a record action by action, printing each action and what it caused; the stored rounds and final
    result are checked against the replay."""
    Game.from_record(record)  # the whole record checked first: a wrong one prints nothing
    game = Game(record["players"], record["tiles"], record["coins"], record["start"], record["dice"],
                record.get("market_rolls", ()))
    names = list(record.get("names") or [f"seat {s}" for s in range(game.num_players)])
    print(f"Gold Rush (piecepack), {game.num_players} players: "
          + ", ".join(f"seat {s} {n}" for s, n in enumerate(names)), file=out)
    for action in record["actions"]:
        seat, round_ = game.current_player, game.round
        events = game.step(action)
        print(f"round {round_}  {names[seat]} (seat {seat}): {describe(action)}", file=out)
        for event in events:
            print(f"    {event.describe()}", file=out)
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
    print(f"Gold Rush (piecepack): you are seat {args.seat} of {len(names)}; type an action's number, "
          "l to list your actions again, q to quit.", file=out)
    while not game.is_over:
        seat = game.current_player
        if seat != args.seat:
            action = agents[seat].act(view_of(game, seat))
            game.step(action)
            print(f"{names[seat]} (seat {seat}): {describe(action)}", file=out)
            continue
        legal = [int(a) for a in game.legal_actions()]
        print(to_text(game.known_to(seat)), file=out)
        _list(legal, out)
        while True:
            try:
                answer = read("your action> ").strip().lower()
            except EOFError:
                answer = "q"
            if answer in ("q", "quit", "exit"):
                print("bye", file=out)
                return None
            if answer in ("l", "?", "list"):
                _list(legal, out)
                continue
            if answer.isdigit() and int(answer) in legal:
                break
            print(f"  {answer!r} is not one of your actions now: type its number (l lists them)", file=out)
        game.step(int(answer))
        print(f"you: {describe(int(answer))}", file=out)
    print(to_text(game.known_to(args.seat)), file=out)
    won = args.seat in game.winners()
    print("you win!" if won and len(game.winners()) == 1 else "a shared victory" if won else "you lose", file=out)
    return dict(game.to_record(), names=names, seed=seed)


def _list(legal: Sequence[int], out: TextIO) -> None:
    for action in legal:
        print(f"  {action:>3}  {describe(action)}", file=out)


__all__ = ["OPTIONS", "DEFAULT_OPPONENTS", "config", "print_record", "play"]
