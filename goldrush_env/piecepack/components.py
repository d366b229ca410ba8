"""The facts of *Gold Rush* on a piecepack, declared once (docs/piecepack-rules.md §0-§2).

Resources and suits share one index (P2): 0 Food / Moons, 1 Energy / Suns,
2 Ore / Arms, 3 Gold / Crowns. A piece is written as its suit letter and
rank, ``"S2"`` for the Suns 2, rank 0 being the Null.
"""

from __future__ import annotations

FOOD, ENERGY, ORE, GOLD = range(4)
RESOURCES = ("Food", "Energy", "Ore", "Gold")
RESOURCE_LETTERS = "FEOG"
SUITS = ("Moons", "Suns", "Arms", "Crowns")
SUIT_LETTERS = "MSAC"
RANKS = range(6)
"""0 is the Null, then Ace (1) to 5; die faces use the same numbers."""

MIN_PLAYERS, MAX_PLAYERS = 3, 4
ROWS, COLUMNS = 4, 6
NUM_PLOTS = ROWS * COLUMNS
"""Plot ``p = 6 * row + col``, row 0 at the bottom. Piece id ``p`` is the tile of plot p, ``24 + p`` its coin."""
NUM_PIECES = 2 * NUM_PLOTS
ROW_SUIT = (1, 0, 2, 3)
"""The coin suit of each row (P6): Suns at the bottom, then Moons, Arms, Crowns."""

NUM_ROUNDS = 9
MARKERS = 8
START_STOCK = (2, 2, 0, 0)
"""Food, Energy, Ore, Gold each player starts with (P8)."""
CLAIM_ROUNDS = {3: 8, 4: 6}
"""The last round with a Stake Claim phase, by player count (P29): 3 x 8 = 4 x 6 = 24 plots."""
MAX_OFFERS = 3
"""Offers one player may make in one Free Trade phase (P22)."""
MAX_LEVEL = 4
"""The highest upgrade level of a production building (P15)."""

FARM, WINDMILL, MINE, GOLD_MINE, TRADE_ROUTE, MARKET, WAREHOUSE = range(7)
BUILDINGS = ("Farm", "Windmill", "Mine", "Gold Mine", "Trade Route", "Market", "Warehouse")
NUM_BUILDINGS = len(BUILDINGS)
PRODUCTION = (FARM, WINDMILL, MINE, GOLD_MINE)
"""Production buildings: building b produces resource b from suit b with die b."""
SCORING = (TRADE_ROUTE, MARKET, WAREHOUSE)
"""The non-production buildings, 8 points each at the end (P38)."""


def _cost(letters: str) -> tuple[int, int, int, int]:
    return tuple(letters.count(letter) for letter in RESOURCE_LETTERS)


BUILD_COST = tuple(_cost(c) for c in ("F", "FF", "FE", "FFOO", "FFFOO", "FFFFOOO", "FFEO"))
"""Cost of each building as (Food, Energy, Ore, Gold)."""
ASSAY_COST = _cost("F")
OPTIMIZE_COST = _cost("EO")
UPGRADE_COST = _cost("EG")
MARKET_COST = _cost("EE")
TRADE_ROUTE_RATE = 3
"""Units of one resource the Trade Route takes for one of another (P24)."""

BOX = tuple(f"{suit}{rank}" for suit in SUIT_LETTERS for rank in RANKS)
"""The 24 codes of the tiles, which are also the 24 codes of the coins."""


def parse_code(code: str) -> tuple[int, int]:
    """``(suit, rank)`` of a piece code such as ``"A3"``; raises ``ValueError`` for anything else."""
    if not isinstance(code, str) or code not in BOX:
        raise ValueError(f"a piece code is a suit letter of {SUIT_LETTERS!r} and a rank 0-5, got {code!r}")
    return SUIT_LETTERS.index(code[0]), int(code[1])


def code_of(suit: int, rank: int) -> str:
    """The code of a piece, e.g. ``code_of(2, 3) == "A3"``."""
    return f"{SUIT_LETTERS[suit]}{rank}"


def piece_name(piece: int) -> str:
    """``"tile 5"`` or ``"coin 5"`` for piece id 5 or 29."""
    return f"tile {piece}" if piece < NUM_PLOTS else f"coin {piece - NUM_PLOTS}"
