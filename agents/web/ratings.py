"""How people fare against the agents on ``goldrush serve``: an Elo rating of each agent against people, and of
each person who gave a name (the anonymous ones share one), per game and number of players.

Every finished game between a person and agents counts, as results between the person and each agent's seat
(the agents are not rated against each other): a winner beats a seat that did not win, and two seats that both
won, or both did not, draw. Each pair moves both ratings by ``K * (score - expected)``, the expected score
``1 / (1 + 10 ** ((theirs - mine) / 400))``, all from the ratings before the game; an agent at several seats gets
the sum. A rating starts at :data:`START`. The server keeps them in its store
(:class:`~goldrush_agents.web.database.Database`).
"""

from __future__ import annotations

from typing import Sequence

K = 32
"""How far one result moves a rating."""
START = 1500.0
"""The rating of an agent or a person before its first game."""


def expected(mine: float, theirs: float) -> float:
    """The score (1 a win, 0.5 a draw, 0 a loss) Elo expects of a player rated ``mine`` against ``theirs``."""
    return 1.0 / (1.0 + 10.0 ** ((theirs - mine) / 400.0))


def pair_score(seat: int, other: int, winners: Sequence[int]) -> float:
    """The result of ``seat`` against ``other`` in a game ``winners`` won: 1 if only ``seat`` is among them, 0 if
    only ``other`` is, a draw (0.5) if both or neither are."""
    return 0.5 + 0.5 * ((seat in winners) - (other in winners))


def game_changes(person: float, agents: dict[int, tuple[str, float]], seat: int,
                 winners: Sequence[int]) -> tuple[float, dict[str, float]]:
    """What a game adds to the rating of the person at ``seat``, rated ``person`` before it, and to each agent's
    by name (``agents``: each agent seat's name and rating before the game)."""
    mine, theirs = 0.0, {}
    for other, (name, rating) in agents.items():
        delta = K * (pair_score(seat, other, winners) - expected(person, rating))
        mine += delta
        theirs[name] = theirs.get(name, 0.0) - delta
    return mine, theirs


__all__ = ["K", "START", "expected", "pair_score", "game_changes"]
