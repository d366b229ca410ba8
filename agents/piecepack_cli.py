"""The ``goldrush`` commands for the second game (``--game piecepack``): watch, replay and play.

:mod:`goldrush_agents.cli` parses the arguments and hands them here when
``--game piecepack`` is given (``replay`` also recognises a piecepack record
by itself; ``tournament`` runs :func:`goldrush_agents.tournament.run_tournament` with
``game="piecepack"``). The players are those of :mod:`goldrush_agents.piecepack`;
records are docs/piecepack-rules.md §9's, which ``Game.from_record`` replays anywhere.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, Sequence, TextIO

from goldrush_env.errors import GoldRushError
from goldrush_env.piecepack.actions import describe
from goldrush_env.piecepack.components import MAX_PLAYERS, MIN_PLAYERS
from goldrush_env.piecepack.engine import Game
from goldrush_env.piecepack.render import to_text

from goldrush_agents import split_entrants
from goldrush_agents.piecepack import make_piecepack_agent, play_piecepack_game, view_of

GOLD_ONLY = {"memory": "perfect", "max_turns": 200, "table": "full", "match": False, "batched": False,
             "memory_mode": "perfect"}
"""Options of the Gold commands that mean nothing in the piecepack game, with their defaults."""


def refuse_gold_options(args: argparse.Namespace, defaults: dict[str, Any]) -> None:
    """Refuse, by name, a Gold-only option given a value of its own with ``--game piecepack``."""
    given = [f"--{name.replace('_', '-')}" for name in GOLD_ONLY
             if hasattr(args, name) and getattr(args, name) != defaults.get(name, GOLD_ONLY[name])]
    if given:
        raise GoldRushError(f"{', '.join(given)} belong to the game of Gold; leave them out with --game piecepack")


def _players(names: Sequence[str], what: str) -> list[str]:
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise GoldRushError(f"{what} needs {MIN_PLAYERS} or {MAX_PLAYERS} names for the piecepack game (one per "
                            f"seat), got {list(names)}")
    for name in names:
        make_piecepack_agent(name)  # refuses an unknown name before anything is played
    return list(names)


def print_record(record: dict[str, Any], out: TextIO, names: Sequence[str] | None = None, delay: float = 0.0) -> Game:
    """Replay a record action by action, printing each action and what it caused; the stored rounds and final
    result are checked against the replay."""
    Game.from_record(record)  # the whole record checked first: a wrong one prints nothing
    game = Game(record["players"], record["tiles"], record["coins"], record["start"], record["dice"],
                record.get("market_rolls", ()))
    names = list(names or record.get("names") or [f"seat {s}" for s in range(game.num_players)])
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


def watch(args: argparse.Namespace, seed: int, out: TextIO) -> dict[str, Any]:
    names = _players(split_entrants(args.agents), "--agents")
    result = play_piecepack_game([make_piecepack_agent(name) for name in names], len(names), seed)
    record = dict(result["record"], names=names, seed=seed)
    print_record(record, out, names, delay=args.delay)
    return record


def play(args: argparse.Namespace, seed: int, out: TextIO, read=input) -> dict[str, Any] | None:
    """A person at one seat against piecepack agents: the board as the seat knows it, then the legal actions
    by number; returns the game's record, or None if the person quit."""
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        raise GoldRushError(f"--players must be {MIN_PLAYERS} or {MAX_PLAYERS} for the piecepack game, got "
                            f"{args.players}")
    opponents = split_entrants(args.opponents)
    if len(opponents) == 1:
        opponents = opponents * (args.players - 1)
    if len(opponents) != args.players - 1:
        raise GoldRushError(f"--opponents needs one name, or {args.players - 1} (one per opponent), got {opponents}")
    for name in opponents:
        make_piecepack_agent(name)  # refuses an unknown name before the game starts
    if not 0 <= args.seat < args.players:
        raise GoldRushError(f"--seat must be a seat from 0 to {args.players - 1}, got {args.seat}")
    names = opponents[:args.seat] + ["you"] + opponents[args.seat:]
    agents = {s: make_piecepack_agent(name, seed=seed + s) for s, name in enumerate(names) if s != args.seat}
    game = Game.new(args.players, seed)
    print(f"Gold Rush (piecepack): you are seat {args.seat} of {args.players}; type an action's number, "
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


def read_record(text: str, source: str) -> dict[str, Any] | None:
    """The piecepack record in ``text`` (JSON), or None if it is a record of Gold."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise GoldRushError(f"cannot read a game record from {source!r}: {error}") from None
    return record if isinstance(record, dict) and "tiles" in record and "coins" in record else None
