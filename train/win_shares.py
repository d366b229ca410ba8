"""Evaluating a player: its win share against scripted players, seats and start player rotated.

Each opponent is a separate head-to-head run of the tournament harness
(:func:`goldrush_agents.tournament.run_tournament`): the player alone against
a field of that opponent, with seeded deals, so a run is reproducible. The
win share comes with its Wilson 95% interval, the fair share (1/n) and the
mean points of each side; with three or more players, also the other
direction: one seat of the opponent alone against the player in every other
seat (the tournament plays both). ``python -m goldrush_train.evaluate`` runs it from
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
    opponent_alone: float | None = None
    """With 3 or more players: the opponent's win share alone against the model in every other seat (an equal
    player's is the fair share too); None with 2."""
    opponent_alone_low: float | None = None
    opponent_alone_high: float | None = None


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
        other = next((p for p in result.pairings if p.alone == opponent), None)  # none with 2 players
        reverse = () if other is None else (other.win_share, *other.interval)
        rows.append(Row(opponent, pairing.games, pairing.win_share, low, high, 1 / num_players,
                        mine.score / mine.games, theirs.score / theirs.games, *reverse))
        if on_row is not None:
            on_row(rows[-1])
    return rows


def table(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table (with 3 or more players, the opponent alone against the model as well)."""
    both = any(r.opponent_alone is not None for r in rows)
    lines = ["| opponent | games | win share | 95% CI | fair share | points (model : opponent) |"
             + (" opponent alone | 95% CI |" if both else ""),
             "|---|---|---|---|---|---|" + ("---|---|" if both else "")]
    for r in rows:
        line = (f"| {r.opponent} | {r.games} | {r.win_share:.3f} | [{r.low:.3f}, {r.high:.3f}] | "
                f"{r.fair_share:.3f} | {r.model_points:.1f} : {r.opponent_points:.1f} |")
        if r.opponent_alone is not None:
            line += f" {r.opponent_alone:.3f} | [{r.opponent_alone_low:.3f}, {r.opponent_alone_high:.3f}] |"
        lines.append(line)
    return "\n".join(lines)
