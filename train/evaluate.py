"""Evaluate a trained model (or any entrant) against scripted players, seats and start player rotated.

    python -m goldrush_train.evaluate agents/gold/models/ppo_2p.npz --agents random,greedy,expert --games 2000

Each opponent is a separate head-to-head run of the tournament harness
(:func:`goldrush_agents.tournament.run_tournament`): the model alone against a field
of that opponent, with seeded deals, so a run is reproducible. Prints the
win share with its Wilson 95% interval against the fair share (1/n), and the
mean points of each side.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated, Literal, Sequence

from goldrush_agents import split_entrants
from goldrush_env.gold.cards import MAX_PLAYERS, MIN_PLAYERS
from goldrush_env.errors import GoldRushError
from goldrush_train.cli import check_agent, check_agents, command
from goldrush_train.evaluation import Row, evaluate, table  # noqa: F401  (moved in 0.3.0; here for one version)

try:  # the Args annotations name it; main() says which extra to install when it is missing
    import tyro
except ModuleNotFoundError:
    tyro = None


@dataclass
class Args:
    """Evaluate a model (or any entrant) against scripted players, seats and start player rotated: its win share
    with a 95% interval against the fair share, and the mean points of each side."""

    model: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="MODEL")]
    """The entrant to evaluate: a model file (.npz or MaskablePPO .zip), 'ppo' or 'scratch' (the shipped models) or an agent name."""
    agents: str = "random,greedy,expert"
    """Opponents, comma-separated (names, model files or package.module:Class)."""
    players: int = 2
    """Players per game (2 to 5)."""
    games: int = 2000
    """Games against each opponent."""
    seed: int = 0
    """Seeds the deals and the players."""
    workers: int | None = None
    """Processes to play on (default: all cores)."""
    memory: Literal["perfect", "human"] = "perfect"
    """Memory model of every seat."""
    out: str | None = None
    """Also write the rows to this JSON file."""


    def check(self) -> None:
        """Refuse values that cannot work, naming them, before any game is played."""
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise GoldRushError(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {self.players}")
        if self.games < 1:
            raise GoldRushError(f"--games must be an int >= 1, got {self.games}")
        if self.workers is not None and self.workers < 1:
            raise GoldRushError(f"--workers must be an int >= 1 (leave it out for every core), got {self.workers}")
        check_agent("MODEL", self.model)
        opponents = check_agents("--agents", self.agents)
        if self.model in opponents:
            raise GoldRushError(f"--agents names the model itself, {self.model!r}: it needs other opponents")
        if self.out is not None and Path(self.out).is_dir():
            raise GoldRushError(f"--out {self.out!r} is a folder: name the JSON file to write")


@command("goldrush_train.evaluate", needs=("tyro",))
def main(argv: Sequence[str] | None = None) -> list[Row]:
    args = tyro.cli(Args, args=argv, prog="python -m goldrush_train.evaluate")
    args.check()
    start = time.perf_counter()
    rows = evaluate(args.model, split_entrants(args.agents), num_players=args.players,
                    games=args.games, seed=args.seed, workers=args.workers, progress=True, memory=args.memory)
    print(table(rows))
    print(f"({args.players} players, {args.memory} memory, seed {args.seed}, {time.perf_counter() - start:.0f} s)")
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"args": asdict(args), "rows": [asdict(r) for r in rows]}, indent=2))
    return rows


if __name__ == "__main__":
    main()
