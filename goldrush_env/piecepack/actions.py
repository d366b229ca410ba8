"""The 488 actions of the piecepack game (docs/piecepack-rules.md §4) and their index formulas.

=========  ====================  =============================================
Indices    Action                Index
=========  ====================  =============================================
0-23       CLAIM(p)              p
24-47      ASSAY_TILE(p)         24 + p
48-71      ASSAY_COIN(p)         48 + p
72-95      OPTIMIZE_TILE(p)      72 + p
96-119     OPTIMIZE_COIN(p)      96 + p
120-287    BUILD(b, p)           120 + 24 b + p
288-311    UPGRADE(p)            288 + p
312        END_DEVELOPMENT
313-456    OFFER(d, X, a, Y, b)  313 + 48 (d-1) + 12 X + 4 y' + 2 (a-1) + (b-1)
457        ACCEPT
458        DECLINE
459-470    TRADE_ROUTE(X, Y)     459 + 3 X + y'
471        MARKET_ROLL
472-484    MARKET_SELL(k)        472 + k, k = 0..12
485        END_FREE_TRADE
486        WAREHOUSE_PROTECT
487        WAREHOUSE_DECLINE
=========  ====================  =============================================

``y'`` numbers the resource Y among the three that are not X: ``Y`` if
``Y < X``, else ``Y - 1``.
"""

from __future__ import annotations

from typing import NamedTuple

from goldrush_env.checks import check_int
from goldrush_env.piecepack.components import BUILDINGS, NUM_BUILDINGS, NUM_PLOTS, RESOURCES
from goldrush_env.piecepack.errors import PiecepackError

CLAIM = 0
ASSAY_TILE = 24
ASSAY_COIN = 48
OPTIMIZE_TILE = 72
OPTIMIZE_COIN = 96
BUILD = 120
UPGRADE = 288
END_DEVELOPMENT = 312
OFFER = 313
ACCEPT = 457
DECLINE = 458
TRADE_ROUTE = 459
MARKET_ROLL = 471
MARKET_SELL = 472
END_FREE_TRADE = 485
WAREHOUSE_PROTECT = 486
WAREHOUSE_DECLINE = 487
NUM_ACTIONS = 488
MAX_SELL = 12
"""The largest Market sum, so the largest MARKET_SELL(k)."""

KINDS = ("CLAIM", "ASSAY_TILE", "ASSAY_COIN", "OPTIMIZE_TILE", "OPTIMIZE_COIN", "BUILD", "UPGRADE",
         "END_DEVELOPMENT", "OFFER", "ACCEPT", "DECLINE", "TRADE_ROUTE", "MARKET_ROLL", "MARKET_SELL",
         "END_FREE_TRADE", "WAREHOUSE_PROTECT", "WAREHOUSE_DECLINE")
_STARTS = (CLAIM, ASSAY_TILE, ASSAY_COIN, OPTIMIZE_TILE, OPTIMIZE_COIN, BUILD, UPGRADE, END_DEVELOPMENT, OFFER,
           ACCEPT, DECLINE, TRADE_ROUTE, MARKET_ROLL, MARKET_SELL, END_FREE_TRADE, WAREHOUSE_PROTECT,
           WAREHOUSE_DECLINE, NUM_ACTIONS)


class Action(NamedTuple):
    """A decoded action: its kind (one of :data:`KINDS`) and its arguments, in the order of §4."""

    kind: str
    args: tuple[int, ...] = ()


def _other(x: int, y: int) -> int:
    return y if y < x else y - 1


def _check(name: str, value: int, low: int, high: int) -> int:
    return check_int(name, value, low, high, error=PiecepackError)


def _pair(x: int, y: int) -> int:
    _check("X", x, 0, 3)
    _check("Y", y, 0, 3)
    if x == y:
        raise PiecepackError(f"X and Y must be different resources, got {RESOURCES[x]} twice")
    return _other(x, y)


def claim(plot: int) -> int:
    return CLAIM + _check("plot", plot, 0, NUM_PLOTS - 1)


def assay_tile(plot: int) -> int:
    return ASSAY_TILE + _check("plot", plot, 0, NUM_PLOTS - 1)


def assay_coin(plot: int) -> int:
    return ASSAY_COIN + _check("plot", plot, 0, NUM_PLOTS - 1)


def optimize_tile(plot: int) -> int:
    return OPTIMIZE_TILE + _check("plot", plot, 0, NUM_PLOTS - 1)


def optimize_coin(plot: int) -> int:
    return OPTIMIZE_COIN + _check("plot", plot, 0, NUM_PLOTS - 1)


def build(building: int, plot: int) -> int:
    return BUILD + NUM_PLOTS * _check("building", building, 0, NUM_BUILDINGS - 1) + _check("plot", plot, 0, 23)


def upgrade(plot: int) -> int:
    return UPGRADE + _check("plot", plot, 0, NUM_PLOTS - 1)


def offer(offset: int, give: int, give_units: int, take: int, take_units: int) -> int:
    """OFFER(d, X, a, Y, b): give seat ``(me + d) % n`` ``a`` units of X for ``b`` units of Y."""
    y = _pair(give, take)
    return (OFFER + 48 * (_check("d", offset, 1, 3) - 1) + 12 * give + 4 * y
            + 2 * (_check("a", give_units, 1, 2) - 1) + _check("b", take_units, 1, 2) - 1)


def trade_route(give: int, take: int) -> int:
    """TRADE_ROUTE(X, Y): 3 X to the bank for 1 Y."""
    return TRADE_ROUTE + 3 * give + _pair(give, take)


def market_sell(k: int) -> int:
    return MARKET_SELL + _check("k", k, 0, MAX_SELL)


def decode(action: int) -> Action:
    """The :class:`Action` of an index, e.g. ``decode(145) == Action("BUILD", (1, 1))``."""
    return _DECODED[_check("action", action, 0, NUM_ACTIONS - 1)]


def _decode(action: int) -> Action:
    kind = max(i for i, start in enumerate(_STARTS) if start <= action)
    rest = action - _STARTS[kind]
    name = KINDS[kind]
    if action < BUILD or name in ("UPGRADE", "MARKET_SELL"):
        return Action(name, (rest,))
    if name == "BUILD":
        return Action(name, divmod(rest, NUM_PLOTS))
    if name == "OFFER":
        d, rest = divmod(rest, 48)
        x, rest = divmod(rest, 12)
        y, rest = divmod(rest, 4)
        a, b = divmod(rest, 2)
        return Action(name, (d + 1, x, a + 1, y if y < x else y + 1, b + 1))
    if name == "TRADE_ROUTE":
        x, y = divmod(rest, 3)
        return Action(name, (x, y if y < x else y + 1))
    return Action(name)


_DECODED = [_decode(action) for action in range(NUM_ACTIONS)]
"""Every action decoded once: the engine decodes one or two at every step."""


def describe(action: int) -> str:
    """The action in words, e.g. ``"BUILD(Windmill, plot 1)"`` or ``"OFFER(+1: 2 Food for 1 Ore)"``."""
    kind, args = decode(action)
    if kind == "BUILD":
        return f"BUILD({BUILDINGS[args[0]]}, plot {args[1]})"
    if kind == "OFFER":
        d, x, a, y, b = args
        return f"OFFER(+{d}: {a} {RESOURCES[x]} for {b} {RESOURCES[y]})"
    if kind == "TRADE_ROUTE":
        return f"TRADE_ROUTE({RESOURCES[args[0]]} -> {RESOURCES[args[1]]})"
    if kind == "MARKET_SELL":
        return f"MARKET_SELL({args[0]})"
    if args:
        return f"{kind}(plot {args[0]})"
    return kind
