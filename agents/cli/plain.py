"""The ``goldrush`` command's part for a game that brings none of its own (no ``cli`` module among its players):
made from the game protocol alone. A game is printed as its result, and a person plays from the game's text of
what the seat knows, choosing an action by its number."""

from __future__ import annotations

import argparse
import time
from typing import Any, TextIO

from goldrush_env.games import GameSpec

from goldrush_agents import make_agent

QUIT_ANSWERS = ("q", "quit", "exit")


class PlainPart:
    """The game's part of the command line (the names every game's ``cli`` module has): :attr:`OPTIONS`,
    :meth:`config`, :meth:`print_record` and :meth:`play`."""

    OPTIONS: list[tuple[str, dict[str, Any], tuple[str, ...]]] = []
    """No options of its own: its environments take none beyond the number of players."""

    def __init__(self, game: GameSpec) -> None:
        self.game = game

    def config(self, args: argparse.Namespace) -> dict[str, Any]:
        return {}

    def _result(self, game: Any, names: list[str]) -> str:
        result = game.result()
        ending = "game over" if game.is_over else "stopped at the turn limit"
        return (f"{ending} after {game.turn} turns; scores " +
                ", ".join(f"{names[s]} {result.scores[s]}" for s in range(game.num_players)) +
                "; winner" + ("s " if len(result.winners) > 1 else " ") + ", ".join(names[s] for s in result.winners))

    def print_record(self, record: dict[str, Any], out: TextIO, delay: float = 0.0) -> Any:
        """The record replayed by the rules (a wrong one is refused), each move in the game's words (where the
        record lists its actions: :meth:`~goldrush_env.games.GameSpec.moves`) and its result printed."""
        game = self.game.load("rules").from_record(record)
        names = list(record.get(self.game.record_names) or [f"seat {s}" for s in range(game.num_players)])
        print(f"{self.game.title}, {game.num_players} players: " +
              ", ".join(f"seat {s} {n}" for s, n in enumerate(names)), file=out)
        for seat, _, text in self.game.moves(record) or ():
            print(f"{names[seat]} (seat {seat}): {text}", file=out, flush=True)
            time.sleep(delay)
        print(self._result(game, names), file=out)
        return game

    def play(self, args: argparse.Namespace, names: list[str], seed: int, out: TextIO,
             read=input) -> dict[str, Any] | None:
        """A person at seat ``args.seat`` against agents: the game's text of what the seat knows, then the legal
        actions by number; the game's record, or None if the person quit."""
        spec, person = self.game, args.seat
        env = spec.raw_env(num_players=len(names))
        env.reset(seed=seed)
        agents = {s: make_agent(name, seed=seed + s, game=spec.name) for s, name in enumerate(names) if s != person}
        text, game = spec.load("text"), env.game
        print(f"{spec.title}: you are seat {person} of {len(names)}; type an action's number, q to quit.", file=out)
        while not game.is_finished:
            seat = game.current_player
            known = game.known_to(seat)
            if seat != person:
                action = agents[seat].act(env.view(seat))
                print(f"{names[seat]} (seat {seat}): {spec.describe_action(action, known)}", file=out)
                env.step_from_view(action)
                continue
            print(text(known), file=out)
            legal = [int(a) for a in game.legal_mask().nonzero()[0]]
            for action in legal:
                print(f"  {action:>3}  {spec.describe_action(action, known)}", file=out)
            while True:
                try:
                    answer = read("your action> ").strip().lower()
                except EOFError:
                    answer = "q"
                if answer in QUIT_ANSWERS:
                    print("bye", file=out)
                    return None
                if answer.isdigit() and int(answer) in legal:
                    break
                print(f"  {answer!r} is not one of your actions now: type its number", file=out)
            env.step_from_view(int(answer))
        print(text(game.known_to(person)), file=out)
        print(self._result(game, names), file=out)
        return {**game.to_record(), "game": spec.name, spec.record_names: names, "seed": seed}


__all__ = ["PlainPart"]
