"""Evaluating a player: its win share against scripted players, seats and start player rotated.

Each opponent is a separate head-to-head run of the tournament harness
(:func:`goldrush_agents.tournament.run_tournament`): the player alone against
a field of that opponent, with seeded deals, so a run is reproducible. The
win share comes with its Wilson 95% interval, the fair share (1/n) and the
mean points of each side. ``python -m goldrush_train.evaluate`` runs it from
the command line; the training scripts evaluate their models with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from goldrush_agents.tournament import run_tournament


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
    (also given to ``on_row``, if given, as soon as it is played). ``config`` goes to
    :func:`~goldrush_agents.tournament.run_tournament`: the game (``game="piecepack"``; Gold by default) and its
    environment options."""
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
