"""What a seat of the piecepack game knows, read as values: what a piece is worth, the chance it produces, what
a building is expected to yield a round. The economist (:mod:`~goldrush_agents.piecepack.economist`) decides with
them; they read a seat's knowledge (``Game.known_to(seat)``), never the game."""

from __future__ import annotations

from collections.abc import Sequence

from goldrush_env.piecepack.components import ENERGY, FOOD, GOLD_MINE, MINE, NUM_PLOTS, parse_code
from goldrush_env.piecepack.engine import piece_value

WORTH = (1.0, 1.0, 3.0, 3.0)
"""Rough points a unit of Food, Energy, Ore, Gold is worth while the economy runs. Gold scores 3; Ore scores 1
but is the scarce part of every 8-point building, so it counts like Gold; Food and Energy score nothing but
build and power everything."""
FINAL_WORTH = (0.1, 0.0, 1.0, 3.0)
"""What a unit is worth once nothing more can be built: its score (Food only breaks ties)."""
FOOD_RESERVE = 1
"""Food kept back from spending on the economy: the last Food never spoils and breaks ties."""
SAME_KIND = 1.0
"""How much each plot it owns already suited to a building lowers the claim worth of another such plot, so
that it claims a mix (Moons for Farms, Suns for Windmills, Arms for Mines...) rather than one row."""


def known_code(knowledge: dict, piece: int) -> str | None:
    """The identity of ``piece`` if this seat knows it: face up, or face down and assayed by it."""
    return knowledge["face_up"].get(piece) or knowledge["identities"].get(piece)


def value_now(knowledge: dict, piece: int, suit: int) -> int:
    """val(x, S) of §2.3 as everyone sees it: face-up pieces by their code, face-down by the rules."""
    code = knowledge["face_up"].get(piece)
    if code is not None:
        return piece_value(*parse_code(code), True, piece < NUM_PLOTS, suit)
    if piece < NUM_PLOTS:
        return 1  # a face-down tile is worth 1 in every suit
    return 1 if knowledge["coin_suits"][piece - NUM_PLOTS] == suit else 0


def value_optimized(knowledge: dict, piece: int, suit: int) -> int:
    """What the piece would be worth face up, if this seat knows its identity; else its value now."""
    code = known_code(knowledge, piece)
    if code is None:
        return value_now(knowledge, piece, suit)
    return piece_value(*parse_code(code), True, piece < NUM_PLOTS, suit)


def hit_chance(building: int, value: int) -> float:
    """The chance one piece of ``value`` produces a unit (§2.4): Food and Energy on 1..value (0 spoils),
    Ore and Gold on 0..value."""
    if value <= 0:
        return 0.0
    faces = value if building in (FOOD, ENERGY) else value + 1
    return min(faces, 6) / 6


def plot_pieces(plot: int) -> tuple[int, int]:
    """The two pieces of ``plot``: its tile and its coin."""
    return plot, NUM_PLOTS + plot


def expected_units(knowledge: dict, plot: int, building: int, level: int = 0, *, optimized: bool = False) -> float:
    """Expected units per round of ``building`` at ``level`` on ``plot`` (before paying power)."""
    value = value_optimized if optimized else value_now
    return sum(hit_chance(building, value(knowledge, x, building) + level) if value(knowledge, x, building) > 0
               else 0.0 for x in plot_pieces(plot))


def yearly_value(knowledge: dict, plot: int, building: int, level: int = 0, *, optimized: bool = False) -> float:
    """Expected worth per round of a production building, less the Energy a mine burns."""
    power = WORTH[ENERGY] if building in (MINE, GOLD_MINE) else 0.0
    return expected_units(knowledge, plot, building, level, optimized=optimized) * WORTH[building] - power


def cost_worth(cost: Sequence[int], worth: Sequence[float] = WORTH) -> float:
    """What ``cost`` (units of Food, Energy, Ore, Gold) is worth at ``worth`` a unit."""
    return sum(units * w for units, w in zip(cost, worth))


def can_pay(have: Sequence[int], cost: Sequence[int]) -> bool:
    """Whether ``have`` holds at least ``cost``, resource by resource."""
    return all(h >= c for h, c in zip(have, cost))
