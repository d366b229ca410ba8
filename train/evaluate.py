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
from typing import Annotated, Any, Callable, Literal, Sequence

from goldrush_agents import split_entrants
from goldrush_agents.tournament import run_tournament
from goldrush_env.gold.cards import MAX_PLAYERS, MIN_PLAYERS
from goldrush_env.errors import GoldRushError
from goldrush_train.cli import check_agent, check_agents, command

try:  # the Args annotations name it; main() says which extra to install when it is missing
    import tyro
except ModuleNotFoundError:
    tyro = None


@dataclass
class Row:
    """The model against one opponent."""

    opponent: str
    games: int
    win_share: float
    low: float
    high: float
    fair_share: float
    model_points: float
    opponent_points: float


def evaluate(model: str, opponents: Sequence[str], num_players: int = 2, games: int = 200, seed: int = 0,
             workers: int | None = None, progress: bool = False, on_row: Callable[[Row], None] | None = None,
             **config: Any) -> list[Row]:
    """Play ``model`` against each of ``opponents`` (``games`` games each) and return one :class:`Row` per opponent
    (also given to ``on_row``, if given, as soon as it is played)."""
    rows = []
    for index, opponent in enumerate(opponents):
        result = run_tournament([model, opponent], num_players=num_players, games=games, seed=seed + index,
                                workers=workers, progress=progress, **config)
        pairing = next(p for p in result.pairings if p.alone == model)
        mine, theirs = result.standings[model], result.standings[opponent]
        low, high = pairing.interval
        rows.append(Row(opponent, pairing.games, pairing.win_share, low, high, 1 / num_players,
                        mine.score / mine.games, theirs.score / theirs.games))
        if on_row is not None:
            on_row(rows[-1])
    return rows


def table(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table."""
    lines = ["| opponent | games | win share | 95% CI | fair share | points (model : opponent) |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r.opponent} | {r.games} | {r.win_share:.3f} | [{r.low:.3f}, {r.high:.3f}] | "
                     f"{r.fair_share:.3f} | {r.model_points:.1f} : {r.opponent_points:.1f} |")
    return "\n".join(lines)


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
