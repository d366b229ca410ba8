"""``goldrush``: play in the terminal, watch agents, replay saved games, run tournaments, serve the browser page.

:data:`DESCRIPTION` is what ``goldrush --help`` says, with examples. Every game of the registry plays with
``--game NAME`` (Gold by default); ``replay`` knows each game's records by themselves. The game's own part (its
options, how a game is printed, a person's turn at the prompt) is the module ``cli`` of its players package, or
else the plain part of :mod:`goldrush_agents.cli.plain`; ``serve`` is :mod:`goldrush_agents.web`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import secrets
import sys
from pathlib import Path
from typing import Any, Sequence, TextIO

from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError, install_line
from goldrush_env.games import DEFAULT_GAME, GameSpec, names, spec, specs

from goldrush_agents import make_agent, players_of, split_entrants
from goldrush_agents.arena import play_game

COMMANDS_WITH_GAMES = ("play", "watch", "tournament")

DESCRIPTION = """\
play in the terminal, watch agents, replay saved games, run tournaments, serve the browser page

  goldrush play --players 2 --opponents expert
  goldrush watch --agents greedy,expert --seed 3
  goldrush replay game.json
  goldrush tournament --agents random,greedy,expert --players 2 --games 2000
  goldrush play --game piecepack
  goldrush serve --open

Each game plays with --game NAME (Gold by default); replay knows each game's
records by themselves. 'goldrush COMMAND --help' lists a command's options."""
"""What ``goldrush --help`` says: plain text, for a terminal."""


def game_cli(game: str) -> Any:
    """A game's part of the command line: the module ``cli`` of its players package, or else the plain part made
    from the game protocol (:class:`~goldrush_agents.cli.plain.PlainPart`)."""
    from goldrush_agents.cli.plain import PlainPart

    return players_of(game).part("cli") or PlainPart(spec(game))


def _game_options(args: argparse.Namespace, fill_players: bool = True) -> tuple[GameSpec, Any]:
    """The game asked for, its part of the command line, and its own options' values on ``args`` (defaults
    filled in, ``--players`` too unless ``fill_players`` is false). An option of another game given a value is
    refused by name."""
    rules = spec(args.game)
    part = game_cli(args.game)
    own = {flag for flag, _, commands in part.OPTIONS if args.command in commands}
    for other in specs():
        for flag, _, commands in game_cli(other.name).OPTIONS:
            dest = flag.lstrip("-").replace("-", "_")
            if args.command in commands and flag not in own and getattr(args, dest, None) is not None:
                raise GoldrushEnvError(f"{flag} is an option of {other.title}; leave it out with --game {args.game}")
    for flag, settings, commands in part.OPTIONS:
        dest = flag.lstrip("-").replace("-", "_")
        if args.command in commands and getattr(args, dest) is None:
            setattr(args, dest, settings["default"])
    if getattr(args, "players", 0) is None and fill_players:
        args.players = rules.default_players
    if getattr(args, "players", None) is not None:
        rules.check_players(args.players, "--players")
    return rules, part


def _save(record: dict[str, Any], path: str | None, out: TextIO) -> None:
    if path:
        Path(path).write_text(json.dumps(record, indent=1))
        print(f"game saved to {path}", file=out)


def _seed(args: argparse.Namespace, out: TextIO) -> int:
    """The seed given with --seed, or else a fresh one from the system's entropy, printed so the game can be
    played again."""
    if args.seed is not None:
        return args.seed
    seed = secrets.randbelow(10 ** 9)  # from the system's entropy: a new deal each run; short enough to retype
    print(f"seed {seed}: replay this deal with --seed {seed}", file=out)
    return seed


def _checked(names: list[str], game: str) -> list[str]:
    for name in dict.fromkeys(names):
        make_agent(name, game=game)  # refuses an unknown name before anything is played
    return names


# --- watch / replay --------------------------------------------------------------------


def cmd_watch(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    rules, part = _game_options(args, fill_players=False)
    names = split_entrants(args.agents)
    if args.players is not None and len(names) == 1:  # one name for every seat
        names *= args.players
    elif args.players is not None and len(names) != args.players:
        raise GoldrushEnvError(f"--players {args.players} but --agents names {len(names)} seats ({args.agents!r}): "
                               "give one name for every seat, or one per seat")
    if not rules.min_players <= len(names) <= rules.max_players:
        raise GoldrushEnvError(f"--agents needs {rules.players_text} names (one per seat) for {rules.title}, got "
                               f"{names}")
    _checked(names, args.game)
    seed = _seed(args, out)
    result = play_game([make_agent(name, game=args.game) for name in names], seed, game=args.game, names=names,
                       **part.config(args))
    part.print_record(result.record, out, delay=args.delay)
    _save(result.record, args.save, out)
    return 0


def cmd_replay(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    try:
        text = Path(args.file).read_text()
    except FileNotFoundError:
        raise GoldrushEnvError(f"there is no file {args.file!r}") from None
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) and error.strerror else "it is not a text file"
        raise GoldrushEnvError(f"cannot read {args.file!r}: {why}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise GoldrushEnvError(f"{args.file!r} is not a game record: a record is JSON, and this file stops being "
                               f"JSON at line {error.lineno}, column {error.colno}") from None
    for rules in specs():
        if rules.owns_record(record):
            game_cli(rules.name).print_record(record, out, delay=args.delay)
            return 0
    raise GoldrushEnvError(f"{args.file!r} is not a record of any game here ({', '.join(s.title for s in specs())})")


# --- tournament --------------------------------------------------------------------------


def cmd_tournament(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    from goldrush_agents.tournament import run_tournament

    if args.records and not args.out:
        raise GoldrushEnvError("--records writes into the --out folder: give --out too")
    _, part = _game_options(args)
    result = run_tournament(split_entrants(args.agents), num_players=args.players, games=args.games, seed=args.seed,
                            workers=args.workers, match_mode=args.match, progress=not args.no_progress,
                            batched=args.batched, game=args.game, **part.config(args))
    print(result.table(), file=out)
    if args.out:
        for path in result.save(args.out, records=args.records):
            print(f"wrote {path}{'/ (one record per game)' if path.is_dir() else ''}", file=out)
    return 0


# --- play ------------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace, out: TextIO = sys.stdout, read=input) -> int:
    """A person at one seat against agents, in the terminal."""
    _, part = _game_options(args)
    default = players_of(args.game).opponents[-1]
    opponents = _checked(_opponents(args.opponents or default, args.players), args.game)
    check_int("--seat", args.seat, 0, args.players - 1, what="a seat")
    seed = _seed(args, out)
    names = opponents[:args.seat] + ["you"] + opponents[args.seat:]
    record = part.play(args, names, seed, out, read=read)
    if record is not None:
        _save(record, args.save, out)
    return 0


def _opponents(text: str, players: int) -> list[str]:
    """One name for every opponent, or one name per opponent."""
    names, others = split_entrants(text), players - 1
    if len(names) == 1:
        return names * others
    if len(names) == others:
        return names
    if others == 1:
        wanted = f"one name for the opponent of a {players}-player game"
    else:
        wanted = (f"one name for {'both' if others == 2 else f'all {others}'} opponents of a {players}-player game, "
                  f"or {others} names (one per opponent)")
    raise GoldrushEnvError(f"--opponents needs {wanted}, got {len(names)}: {names}")


# --- serve ---------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Serve the web page of ``goldrush_agents.web`` (play, watch, replay in the browser) until Ctrl-C."""
    check_int("--port", args.port, 0, 65535)
    try:
        import starlette  # noqa: F401 - the web extra, asked for by name so that a missing one is named
        import uvicorn  # noqa: F401

        from goldrush_agents.web import create_app, serve
    except ImportError as error:
        raise GoldrushEnvError(f"goldrush serve needs Starlette and uvicorn ({error}), of the 'web' extra: "
                               f"{install_line('web')}") from None
    from goldrush_agents.web.database import default_path

    limits = {name: getattr(args, name) for name in ("max_games", "max_games_per_client", "move_seconds")
              if getattr(args, name) is not None}
    store_path = default_path() if args.store is None else args.store
    # refuses a model file that cannot be played, or a store it cannot use, before listening
    app = create_app(models=args.model or (), store_path=store_path, **limits)
    url = f"http://{args.host}:{args.port}/"
    store = app.state.store
    if store.database.in_file:
        print(f"games kept in {store_path}: {len(store.live)} in play go on", file=out)
    for problem in app.state.restored:
        print(f"goldrush serve: {problem}", file=sys.stderr)
    print(f"{', '.join(game.title for game in specs())} in the browser at {url} (Ctrl-C stops the server)", file=out,
          flush=True)
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, (url,)).start()  # once the server listens
    serve(app, args.host, args.port, out=out)
    return 0


# --- the parser ------------------------------------------------------------------------


def at_least(low: int):
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


def _seconds(zero: bool):
    """An argparse type: a finite number of seconds, > 0 (or >= 0 with ``zero``), refused naming the value."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value < 0 or value == 0 and not zero:
            raise argparse.ArgumentTypeError(f"expected a number of seconds {'>=' if zero else '>'} 0, got {text!r}")
        return value
    return parse


_delay = _seconds(zero=True)
_positive_seconds = _seconds(zero=False)


def _agents_help() -> str:
    games = []
    for rules in specs():
        players = players_of(rules.name)
        files = f" or model files ({', '.join(players.model_files)})" if players.model_files else ""
        games.append(f"{rules.title}: {', '.join([*players.agents, *players.models])}{files}")
    return f"agent names ({'; '.join(games)}) or package.module:Class paths, comma-separated"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="goldrush", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    titles = "; ".join(f"{r.name}: {r.title}, {r.min_players}-{r.max_players} players (default "
                       f"{r.default_players})" for r in specs())

    def game_options(sub: argparse.ArgumentParser, command: str, seed_help: str, seed: int | None = None) -> None:
        sub.add_argument("--game", choices=names(), default=DEFAULT_GAME,
                         help=f"the game ({titles}); default %(default)s")
        sub.add_argument("--seed", type=at_least(0), default=seed, help=seed_help)
        registered = set()
        for rules in specs():
            for flag, settings, commands in game_cli(rules.name).OPTIONS:
                if command in commands and flag not in registered:
                    registered.add(flag)
                    help_text = f"{settings['help']} ({rules.title} only; default: {settings['default']})"
                    sub.add_argument(flag, **{**settings, "default": None, "help": help_text})

    fresh_seed = ("seeds the deal and the agents: the same seed, the same game (default: a fresh deal each time, "
                  "its seed printed)")
    agents_help = _agents_help()
    players_help = "the number of players (default: the game's, see --game)"

    play = commands.add_parser("play", help="play against agents in the terminal")
    play.add_argument("--players", type=int, default=None, help=players_help)
    defaults = ", ".join(f"{players_of(r.name).opponents[-1]} in {r.title}" for r in specs())
    play.add_argument("--opponents", default=None,
                      help=f"one name for all, or one per seat (default: {defaults}); {agents_help}")
    play.add_argument("--seat", type=int, default=0,
                      help="your seat (who starts is the game's rule: seat 0 in Gold, drawn in Gold Rush)")
    play.add_argument("--save", help="save the game record (JSON) to this file")
    game_options(play, "play", fresh_seed)
    play.set_defaults(run=cmd_play)

    watch = commands.add_parser("watch", help="print a game between agents, move by move")
    watch.add_argument("--agents", required=True, help=f"one per seat, or one for every seat with --players: "
                                                       f"{agents_help}")
    watch.add_argument("--players", type=int, default=None,
                       help="the number of players (default: one per name in --agents)")
    watch.add_argument("--delay", type=_delay, default=0.0, help="seconds between moves")
    watch.add_argument("--save", help="save the game record (JSON) to this file")
    game_options(watch, "watch", fresh_seed)
    watch.set_defaults(run=cmd_watch)

    replay = commands.add_parser("replay", help="replay a saved game record, checking every outcome")
    replay.add_argument("file", help="a record that goldrush play/watch --save or tournament --records wrote "
                                     "(of any game: it is known by itself)")
    replay.add_argument("--delay", type=_delay, default=0.0, help="seconds between moves")
    replay.set_defaults(run=cmd_replay)

    tournament = commands.add_parser("tournament", help="rank agents over many seeded games")
    tournament.add_argument("--agents", required=True, help=agents_help)
    tournament.add_argument("--players", type=int, default=None, help=players_help)
    tournament.add_argument("--games", type=at_least(1), default=200,
                            help="games per pairing (default: %(default)s)")
    tournament.add_argument("--workers", type=at_least(1), default=None, help="processes (default: all cores)")
    with_matches = ", ".join(r.title for r in specs() if r.match)
    tournament.add_argument("--match", action="store_true",
                            help=f"also score blocks of n games as matches (games whose rules have them: "
                                 f"{with_matches})")
    tournament.add_argument("--out", help="folder for results.json, standings.csv, games.csv and chart.png")
    tournament.add_argument("--records", action="store_true",
                            help="with --out: also each game's record, games/game-00001.json ..., which goldrush "
                                 "replay and the Replay tab of goldrush serve read")
    tournament.add_argument("--no-progress", action="store_true", help="no progress bar")
    batched = ", ".join(r.title for r in specs() if players_of(r.name).play_batched is not None)
    tournament.add_argument("--batched", action="store_true",
                            help=f"play all games at once (games whose players can: {batched}; the same deals; fast "
                                 "for random, greedy and trained models; perfect memory only)")
    game_options(tournament, "tournament", "seeds the deals and the agents (default: %(default)s, so that a "
                                           "tournament gives the same results every time it is run)", seed=0)
    tournament.set_defaults(run=cmd_tournament)

    serve = commands.add_parser("serve", help="play, watch and replay the games in the browser (needs the web extra)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    serve.add_argument("--port", type=at_least(0), default=8000, help="port (default: %(default)s)")
    serve.add_argument("--open", action="store_true", help="open the page in the web browser")
    serve.add_argument("--model", action="append", metavar="FILE",
                       help="a trained model file (.npz, .zip) the page may name as a player, by this path; "
                            "repeat for more (a page cannot name other files)")
    serve.add_argument("--max-games", type=at_least(1), metavar="N",
                       help="games in play at once, all clients together (default: 1000)")
    serve.add_argument("--max-games-per-client", type=at_least(1), metavar="N",
                       help="games in play at once from one client address (default: 50)")
    serve.add_argument("--move-seconds", type=_positive_seconds, metavar="S",
                       help="the time budget of a search player's move (default: 1)")
    serve.add_argument("--store", metavar="PATH",
                       help="the SQLite file that keeps the games in play, finished records and ratings, so that a "
                            "restarted server goes on with every game (default: goldrush/server.sqlite3 in "
                            "$XDG_DATA_HOME, else ~/.local/share; ':memory:' keeps nothing)")
    serve.set_defaults(run=cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except GoldrushEnvError as error:
        print(f"goldrush {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (goldrush watch ... | head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so that the exit's flush cannot fail
        return 1


__all__ = ["main", "build_parser", "at_least", "cmd_play", "cmd_watch", "cmd_replay", "cmd_tournament", "cmd_serve",
           "game_cli"]
