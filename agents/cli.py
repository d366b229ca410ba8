"""``goldrush``: play Gold in the terminal, watch agents, replay saved games, run tournaments.

    goldrush play --players 2 --opponents expert
    goldrush watch --agents greedy,expert --seed 3
    goldrush replay game.json
    goldrush tournament --agents random,greedy,expert --players 2 --games 2000
    goldrush serve --open

``serve`` plays, watches and replays in the browser (:mod:`goldrush_agents.web`, the ``web`` extra).
Every other command also plays the second game, Gold Rush for the piecepack, with ``--game piecepack``
(:mod:`goldrush_agents.piecepack_cli`); ``replay`` knows a piecepack record by itself.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import secrets
from dataclasses import replace
import sys
import time
from pathlib import Path
from typing import Any, Sequence, TextIO

from goldrush_env.gold.aec import raw_env
from goldrush_env.gold.cards import EMPTY, GOLD_RUSH_THRESHOLD, MAX_PLAYERS, MIN_PLAYERS, TABLES, card_code
from goldrush_env.gold.config import EnvConfig
from goldrush_env.gold.engine import Game, colour_owners
from goldrush_env.errors import GoldRushError, IllegalFlipError
from goldrush_env.gold.render import legend, ownership, parse_square, square_name, to_text
from goldrush_env.gold.view import UNKNOWN, PlayerView

from goldrush_agents import AGENTS, make_agent, split_entrants
from goldrush_agents.arena import play_game


def _names(text: str) -> list[str]:
    return split_entrants(text)


def _event_line(event, names: Sequence[str]) -> str:
    who = names[event.player] if names else f"seat {event.player}"
    card, square = card_code(event.card), square_name(event.position)
    text = f"turn {event.turn:>3}  {who} (seat {event.player}) flips {card:>3} at {square}"
    if event.outcome.value != "first":
        text += f": {event.label}"
    if event.rush_begins:
        text += "  -- the Gold Rush begins"
    return text


def _save(record: dict[str, Any], path: str | None, out: TextIO) -> None:
    if path:
        Path(path).write_text(json.dumps(record, indent=1))
        print(f"game saved to {path}", file=out)


def _config(args: argparse.Namespace) -> dict[str, Any]:
    return {"memory": args.memory, "max_turns": args.max_turns, "table": args.table}


def _seed(args: argparse.Namespace, out: TextIO) -> int:
    """The seed given with --seed, or else a fresh one from the system's entropy, printed so the game can be
    played again."""
    if args.seed is not None:
        return args.seed
    seed = secrets.randbelow(10 ** 9)  # from the system's entropy: a new deal each run; short enough to retype
    print(f"seed {seed}: replay this deal with --seed {seed}", file=out)
    return seed


# --- watch / replay --------------------------------------------------------------------


def cmd_watch(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    if args.game == "piecepack":
        from goldrush_agents import piecepack_cli

        piecepack_cli.refuse_gold_options(args, _GOLD_DEFAULTS)
        _save(piecepack_cli.watch(args, _seed(args, out), out), args.save, out)
        return 0
    names = _names(args.agents)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise GoldRushError(f"--agents needs {MIN_PLAYERS} to {MAX_PLAYERS} names (one per seat), got {names}")
    seed = _seed(args, out)
    result = play_game([make_agent(name) for name in names], seed, names=names, **_config(args))
    _print_game(result.record, out, delay=args.delay)
    _save(result.record, args.save, out)
    return 0


def _print_game(record: dict[str, Any], out: TextIO, delay: float = 0.0) -> Game:
    """Replay a record flip by flip, printing each event, and check it against the recorded outcomes."""
    game = Game(record["num_players"], record["layout"], first_player=record["first_player"],
                rush_at=record.get("rush_at", GOLD_RUSH_THRESHOLD),
                max_turns=record["max_turns"])
    names = record.get("players") or [f"seat {s}" for s in range(game.num_players)]
    print(f"Gold, {game.num_players} players: " + ", ".join(f"seat {s} {n}" for s, n in enumerate(names)), file=out)
    print("miners  " + ownership(colour_owners(game.num_players)), file=out)
    recorded = record.get("events")
    for index, position in enumerate(record["flips"]):
        event = game.flip(position)
        if recorded is not None and recorded[index] != event.label:
            raise GoldRushError(f"flip #{index} replays as {event.label!r} but the record says {recorded[index]!r}")
        print(_event_line(event, names), file=out)
        if delay:
            time.sleep(delay)
    ending = "game over" if game.is_over else "stopped at the turn limit" if game.is_truncated else "unfinished"
    print(f"{ending} after {game.turn} turns; scores " +
          ", ".join(f"{names[s]} {game.scores[s]} ({game.gold_cards[s]} cards)" for s in range(game.num_players)) +
          "; winner" + ("s " if len(game.winners) > 1 else " ") +
          ", ".join(names[s] for s in game.winners), file=out)
    return game


def cmd_replay(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    from goldrush_agents import piecepack_cli

    try:
        text = Path(args.file).read_text()
    except OSError as error:
        raise GoldRushError(f"cannot read a game record from {args.file!r}: {error}") from None
    piecepack = piecepack_cli.read_record(text, args.file)
    if piecepack is not None:
        piecepack_cli.print_record(piecepack, out, delay=args.delay)
        return 0
    record = json.loads(text)
    data = {key: record[key] for key in ("format", "num_players", "first_player", "max_turns", "rush_at", "layout",
                                         "flips", "start")
            if key in record}
    original = Game.from_dict(data)  # validates the record as a whole first
    replayed = _print_game(record, out, delay=args.delay)
    assert replayed == original
    return 0


# --- tournament --------------------------------------------------------------------------


def cmd_tournament(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    from goldrush_agents.tournament import run_tournament

    if args.records and not args.out:
        raise GoldRushError("--records writes into the --out folder: give --out too")

    if args.game == "piecepack":
        from goldrush_agents import piecepack_cli

        piecepack_cli.refuse_gold_options(args, _GOLD_DEFAULTS)
        args.players = 3 if args.players is None else args.players
        result = run_tournament(_names(args.agents), num_players=args.players, games=args.games, seed=args.seed,
                                workers=args.workers, progress=not args.no_progress, game="piecepack")
    else:
        args.players = 2 if args.players is None else args.players
        result = run_tournament(_names(args.agents), num_players=args.players, games=args.games, seed=args.seed,
                                workers=args.workers, match_mode=args.match, progress=not args.no_progress,
                                batched=args.batched, **_config(args))
    print(result.table(), file=out)
    if args.out:
        for path in result.save(args.out, records=args.records):
            print(f"wrote {path}{'/ (one record per game)' if path.is_dir() else ''}", file=out)
    return 0


# --- play ------------------------------------------------------------------------------


HELP_ANSWERS = ("?", "help", "h")
QUIT_ANSWERS = ("q", "quit", "exit")


def cmd_play(args: argparse.Namespace, out: TextIO = sys.stdout, read=input) -> int:
    """A person at one seat against agents, in the terminal."""
    if args.game == "piecepack":
        from goldrush_agents import piecepack_cli

        piecepack_cli.refuse_gold_options(args, _GOLD_DEFAULTS)
        args.players = 3 if args.players is None else args.players
        args.opponents = args.opponents or "economist"
        record = piecepack_cli.play(args, _seed(args, out), out, read=read)
        if record is not None:
            _save(record, args.save, out)
        return 0
    args.players = 2 if args.players is None else args.players
    args.opponents = args.opponents or "expert"
    opponents = _opponents(args.opponents, args.players)
    if not 0 <= args.seat < args.players:
        raise GoldRushError(f"--seat must be a seat from 0 to {args.players - 1}, got {args.seat}")
    print(f"Gold: you are seat {args.seat} of {args.players}; type a square such as c4 to flip it, "
          "? for the card codes and the rules, q to quit.", file=out)
    seed = _seed(args, out)
    env = raw_env(num_players=args.players, **_config(args))
    env.reset(seed=seed)
    names = opponents[:args.seat] + ["you"] + opponents[args.seat:]
    agents = {s: make_agent(name, seed=seed + s) for s, name in enumerate(names) if s != args.seat}
    game = env.game
    shown_from = 0  # in "real" memory mode: the events the person may still see
    while not game.is_finished:
        seat = game.current_player
        if seat != args.seat:
            env.step(agents[seat].act(env.view(seat)))
            print(_event_line(game.history[-1], names), file=out)
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
                return 0
            if answer.lower() in HELP_ANSWERS:
                print(legend(args.players, TABLES[args.table].rush_at), file=out)
                continue
            position, problem = check_square(answer, view)
            if problem is None:
                try:
                    env.step(position)
                    break
                except IllegalFlipError as error:  # not expected: check_square knows every reason
                    problem = f"{square_name(position)} cannot be flipped now ({error})"
            print(f"  {problem}", file=out)
        print(_event_line(game.history[-1], names), file=out)
        if game.face_up is None:  # the turn is over: from now on "real" memory shows it and what follows
            shown_from = len(game.history) - (1 if game.history[-1].partner is None else 2)
    print(to_text(env.view(args.seat)), file=out)
    won = args.seat in game.winners
    print("you win!" if won and len(game.winners) == 1 else "a shared victory" if won else "you lose", file=out)
    _save(dict(game.to_dict(), players=names, seed=seed, config=_config(args),
               events=[e.label for e in game.history]), args.save, out)
    return 0


def _opponents(text: str, players: int) -> list[str]:
    """One name for every opponent, or one name per opponent."""
    names, others = _names(text), players - 1
    if len(names) == 1:
        return names * others
    if len(names) == others:
        return names
    if others == 1:
        wanted = f"one name for the opponent of a {players}-player game"
    else:
        wanted = (f"one name for {'both' if others == 2 else f'all {others}'} opponents of a {players}-player game, "
                  f"or {others} names (one per opponent)")
    raise GoldRushError(f"--opponents needs {wanted}, got {len(names)}: {names}")


def check_square(answer: str, view: PlayerView) -> tuple[int | None, str | None]:
    """The position the person typed and why it cannot be flipped (None if it can), in the board's terms."""
    if not answer:
        return None, "type a square such as c4, ? for help, or q to quit"
    try:
        position = parse_square(answer)
    except ValueError:
        return None, f"{answer} is not a square: columns a-h, rows 1-8, e.g. c4 (? for help)"
    square = square_name(position)
    if position == view.face_up:
        return position, f"{square} is already face up: choose a face-down card"
    if view.cards[position] == EMPTY:
        return position, f"{square} is empty (its card has left the game): choose a face-down card"
    return position, None


def forget_all_but(view: PlayerView, positions: set[int | None]) -> PlayerView:
    """The view with only ``positions`` known: the 'real memory' mode of ``goldrush play``."""
    cards = tuple(card if card < 0 or p in positions else UNKNOWN for p, card in enumerate(view.cards))
    return replace(view, cards=cards)


# --- serve ---------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Serve the web page of ``goldrush_agents.web`` (play, watch, replay in the browser) until Ctrl-C."""
    if not 0 <= args.port <= 65535:
        raise GoldRushError(f"--port must be from 0 to 65535, got {args.port}")
    try:
        import starlette  # noqa: F401 - the web extra, asked for by name so that a missing one is named
        import uvicorn  # noqa: F401

        from goldrush_agents.web import create_app, serve
    except ImportError as error:
        raise GoldRushError(f"goldrush serve needs Starlette and uvicorn ({error}): "
                            "pip install 'goldrush-env[web]'") from None
    limits = {name: getattr(args, name) for name in ("max_games", "max_games_per_client", "move_seconds")
              if getattr(args, name) is not None}
    app = create_app(models=args.model or (), **limits)  # refuses a model file that cannot be played, before listening
    url = f"http://{args.host}:{args.port}/"
    print(f"Gold in the browser at {url} (Ctrl-C stops the server)", file=out, flush=True)
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, (url,)).start()  # once the server listens
    serve(app, args.host, args.port, out=out)
    return 0


# --- the parser ------------------------------------------------------------------------


def _at_least(low: int):
    """An argparse type: an int >= ``low``, refused with a message naming the value."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an int >= {low}, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected an int >= {low}, got {value}")
        return value
    return parse


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds >= 0, got {text!r}")
    return value


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


GAMES = ("gold", "piecepack")
_GOLD_DEFAULTS = {"max_turns": EnvConfig().max_turns, "memory": EnvConfig().memory, "table": EnvConfig().table}


def build_parser() -> argparse.ArgumentParser:
    defaults = EnvConfig()
    parser = argparse.ArgumentParser(prog="goldrush", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)

    def game_options(sub: argparse.ArgumentParser, seed_help: str, seed: int | None = None) -> None:
        sub.add_argument("--memory", default=defaults.memory, choices=["perfect", "human"],
                         help="every seat's memory model, the person's board included (default: %(default)s)")
        sub.add_argument("--max-turns", type=_at_least(1), default=defaults.max_turns,
                         help="turn limit; the game is then truncated (default: %(default)s)")
        sub.add_argument("--seed", type=_at_least(0), default=seed, help=seed_help)
        sub.add_argument("--table", default=defaults.table, choices=list(TABLES),
                         help="the table dealt: the full game's 64 cards, or a smaller one of 32 (half) or 16 "
                              "(quarter) cards (default: %(default)s)")
        sub.add_argument("--game", choices=GAMES, default="gold",
                         help="gold (default), or piecepack: Gold Rush for the piecepack, 3-4 players, whose "
                              "agents are random and economist")

    fresh_seed = ("seeds the deal and the agents: the same seed, the same game (default: a fresh deal each time, "
                  "its seed printed)")

    agents_help = (f"agent names ({', '.join(AGENTS)}), 'ppo' or 'scratch' (the shipped trained models), "
                   "model files (.npz, .zip) or package.module:Class paths, comma-separated")
    play = commands.add_parser("play", help="play against agents in the terminal")
    play.add_argument("--players", type=int, default=None, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                      help="2 to 5 (default 2); the piecepack game: 3 or 4 (default 3)")
    play.add_argument("--opponents", default=None, help=f"one name for all, or one per seat; {agents_help} "
                      "(default expert); the piecepack game: economist (default) or random")
    play.add_argument("--seat", type=int, default=0, help="your seat (seat 0 starts)")
    play.add_argument("--memory-mode", choices=["perfect", "real"], default="perfect",
                      help="perfect: the board shows every card you have seen; real: only the cards "
                           "flipped since your last turn")
    play.add_argument("--save", help="save the game record (JSON) to this file")
    game_options(play, fresh_seed)
    play.set_defaults(run=cmd_play)

    watch = commands.add_parser("watch", help="print a game between agents, flip by flip")
    watch.add_argument("--agents", required=True, help=f"one per seat: {agents_help}")
    watch.add_argument("--delay", type=_delay, default=0.0, help="seconds between flips")
    watch.add_argument("--save", help="save the game record (JSON) to this file")
    game_options(watch, fresh_seed)
    watch.set_defaults(run=cmd_watch)

    replay = commands.add_parser("replay", help="replay a saved game record, checking every outcome")
    replay.add_argument("file")
    replay.add_argument("--delay", type=_delay, default=0.0, help="seconds between flips")
    replay.set_defaults(run=cmd_replay)

    tournament = commands.add_parser("tournament", help="rank agents over many seeded games")
    tournament.add_argument("--agents", required=True, help=agents_help)
    tournament.add_argument("--players", type=int, default=None, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                            help="2 to 5 (default 2); the piecepack game: 3 or 4 (default 3)")
    tournament.add_argument("--games", type=_at_least(1), default=200,
                            help="games per pairing (default: %(default)s)")
    tournament.add_argument("--workers", type=_at_least(1), default=None, help="processes (default: all cores)")
    tournament.add_argument("--match", action="store_true", help="also score blocks of n games as matches (D6)")
    tournament.add_argument("--out", help="folder for results.json, standings.csv, games.csv and chart.png")
    tournament.add_argument("--records", action="store_true",
                            help="with --out: also each game's record, games/game-00001.json ..., which goldrush "
                                 "replay and the Replay tab of goldrush serve read")
    tournament.add_argument("--no-progress", action="store_true", help="no progress bar")
    tournament.add_argument("--batched", action="store_true",
                            help="play all games at once on the batched engine (same deals; fast for random, "
                                 "greedy and trained models; perfect memory only)")
    game_options(tournament, "seeds the deals and the agents (default: %(default)s, so that a tournament "
                             "gives the same results every time it is run)", seed=0)
    tournament.set_defaults(run=cmd_tournament)

    serve = commands.add_parser("serve", help="play, watch and replay in the browser (needs the web extra)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    serve.add_argument("--port", type=_at_least(0), default=8000, help="port (default: %(default)s)")
    serve.add_argument("--open", action="store_true", help="open the page in the web browser")
    serve.add_argument("--model", action="append", metavar="FILE",
                       help="a trained model file (.npz, .zip) the page may name as a player, by this path; "
                            "repeat for more (a page cannot name other files)")
    serve.add_argument("--max-games", type=_at_least(1), metavar="N",
                       help="games in play at once, all clients together (default: 1000)")
    serve.add_argument("--max-games-per-client", type=_at_least(1), metavar="N",
                       help="games in play at once from one client address (default: 50)")
    serve.add_argument("--move-seconds", type=_positive_seconds, metavar="S",
                       help="the time budget of a search player's move (default: 1)")
    serve.set_defaults(run=cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except GoldRushError as error:
        print(f"goldrush {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (goldrush watch ... | head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so that the exit's flush cannot fail
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
