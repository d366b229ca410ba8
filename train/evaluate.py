"""Evaluate a trained model (or any entrant) against scripted players, seats and start player rotated.

    python -m goldrush_train.evaluate agents/gold/models/taught_2p.npz --agents random,greedy,expert --games 2000
    python -m goldrush_train.evaluate taught --game piecepack --players 4 --agents random,economist --games 400
    python -m goldrush_train.evaluate taught --players 5 --agents greedy --games 2000 --batched

Each opponent is a separate head-to-head run of the tournament harness
(:func:`goldrush_agents.tournament.run_tournament`): the model alone against a field
of that opponent, with seeded deals, so a run is reproducible. Prints the
win share with its Wilson 95% interval against the fair share (1/n), and the
mean points of each side; with three or more players, also one opponent
alone against the model.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated, Any, Sequence

from goldrush_agents import players_of, split_entrants
from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.games import DEFAULT_GAME, names, spec
from goldrush_train.cli import check_agent, check_agents, command, env_options
from goldrush_train.win_shares import Row, evaluate, table

try:  # the Args annotations name it; main() says which extra to install when it is missing
    import tyro
except ModuleNotFoundError:
    tyro = None


@dataclass
class Args:
    """Evaluate a model (or any entrant) against scripted players, seats and start player rotated: its win share
    with a 95% interval against the fair share, and the mean points of each side."""

    model: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="MODEL")]
    """The entrant to evaluate: a model file (.npz or MaskablePPO .zip), 'taught' or 'scratch' (the shipped
    models) or an agent name."""
    agents: str | None = None
    """Opponents, comma-separated (names, model files or package.module:Class); default: the game's own
    (Gold: random,greedy,expert), the model itself left out."""
    game: str = DEFAULT_GAME
    """The game, by its name in the registry (``goldrush tournament --help`` lists them)."""
    players: int | None = None
    """Players per game (default: the game's default number)."""
    games: int = 2000
    """Games against each opponent."""
    seed: int = 0
    """Seeds the deals and the players."""
    workers: int | None = None
    """Processes to play on (default: all cores)."""
    option: tuple[str, ...] = ()
    """An option of the game's environment, NAME=VALUE (Gold: memory=human, table=half); repeat for more."""
    batched: bool = False
    """Play all games at once, for a game whose players can (Gold's batched engine: perfect memory; fast with
    random, greedy and trained models, in one process: --workers is then unused)."""
    out: str | None = None
    """Also write the rows to this JSON file."""

    @property
    def options(self) -> dict[str, Any]:
        """The game's environment options given with --option, each value read as a Python literal or else kept
        as text (``max_turns=80`` is an int, ``memory=human`` the text ``"human"``)."""
        return env_options(self.option)

    def check(self) -> None:
        """Refuse values that cannot work, naming them, before any game is played."""
        if self.game not in names():
            raise GoldrushEnvError(f"--game must be one of {names()}, got {self.game!r}")
        game = spec(self.game)
        if self.agents is None:
            self.agents = ",".join(name for name in players_of(self.game).opponents if name != self.model)
        if self.players is None:
            self.players = game.default_players
        game.check_players(self.players, "--players")
        options = self.options
        try:  # one table, dealt here: an option the game does not take is refused before any game is played
            game.raw_env(num_players=self.players, **options)
        except GoldrushEnvError as error:
            raise GoldrushEnvError(f"--option, with --game {self.game}: {error}") from None
        if self.batched and players_of(self.game).play_batched is None:
            raise GoldrushEnvError(f"--batched: the players of {game.title} cannot play many games at once")
        check_int("--games", self.games, 1)
        if self.workers is not None:
            check_int("--workers", self.workers, 1, note="leave it out for every core")
        check_agent("MODEL", self.model, self.game)
        opponents = check_agents("--agents", self.agents, self.game)
        if self.model in opponents:
            raise GoldrushEnvError(f"--agents names the model itself, {self.model!r}: it needs other opponents")
        if self.out is not None and Path(self.out).is_dir():
            raise GoldrushEnvError(f"--out {self.out!r} is a folder: name the JSON file to write")


@command("goldrush_train.evaluate", needs=("tyro",))
def main(argv: Sequence[str] | None = None) -> list[Row]:
    args = tyro.cli(Args, args=argv, prog="python -m goldrush_train.evaluate")
    args.check()
    start = time.perf_counter()
    rows = evaluate(args.model, split_entrants(args.agents), num_players=args.players, games=args.games,
                    seed=args.seed, workers=args.workers, progress=True, game=args.game, batched=args.batched,
                    **args.options)
    print(table(rows))
    options = "".join(f", {name}={value}" for name, value in args.options.items())
    print(f"({spec(args.game).title}, {args.players} players{options}, seed {args.seed}, "
          f"{time.perf_counter() - start:.0f} s)")
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"args": asdict(args), "rows": [asdict(r) for r in rows]}, indent=2))
    return rows


if __name__ == "__main__":
    main()
