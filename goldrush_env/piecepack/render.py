"""Pictures of a game of *Gold Rush* on a piecepack as one viewer knows it: text, and RGB arrays.

Both take what a viewer knows in the form of ``Game.known_to(seat)`` (or
:func:`goldrush_env.piecepack.encoder.truth` for the all-seeing view, ``seat``
None; ``public_state()`` with no ``identities`` for what every seat sees), so
a rendering never shows more than its viewer knows.

Text: the 4 x 6 field, top row (row 3, Crowns coins) first, each plot as
``TC oBl``:

* ``T`` the tile: ``S2`` face up (suit letter, rank), ``s2`` face down and
  known to the viewer (assayed), ``??`` face down and unknown;
* ``C`` the coin, likewise, ``C?`` when only its suit (the row's) is known;
* ``o`` the owner's seat, ``.`` if unoccupied;
* ``B`` the building (``F`` Farm, ``W`` Windmill, ``M`` Mine, ``G`` Gold
  Mine, ``T`` Trade Route, ``K`` Market, ``H`` Warehouse, ``-`` none) and
  ``l`` its level (``-`` for non-production buildings).

Then one line per seat with its holdings, markers and score, the dice, and what each production building
yielded this round (``plot 14 2F (seat 1)``; 0 too, when its die or its power failed it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from goldrush_env.piecepack.components import (
    BUILDINGS,
    COLUMNS,
    NUM_PLOTS,
    PRODUCTION,
    RESOURCE_LETTERS,
    ROWS,
    SUIT_LETTERS,
    parse_code,
)
from goldrush_env.piecepack.encoder import scores_of
from goldrush_env.piecepack.words import PHASE_WORDS

BUILDING_LETTERS = "FWMGTKH"
"""One letter per building type, in the order of :data:`~goldrush_env.piecepack.components.BUILDINGS`."""
assert len(BUILDING_LETTERS) == len(BUILDINGS)


def _piece_text(known: dict[str, Any], piece: int, suit_hint: str | None) -> str:
    if piece in known["face_up"]:
        return known["face_up"][piece]
    if piece in known["identities"]:
        return known["identities"][piece].lower()
    return f"{suit_hint}?" if suit_hint else "??"


def _viewer_name(viewer: Any) -> str:
    if viewer is None:
        return "every piece"
    return f"seat {viewer}" if isinstance(viewer, int) else str(viewer)


def to_text(known: dict[str, Any]) -> str:
    """The field, the holdings and the round as text (see the module docstring for the symbols)."""
    viewer = known.get("seat")
    to_play = "" if known["current_player"] is None else f", seat {known['current_player']} to act"
    lines = [(f"Gold Rush (piecepack): round {known['round']}/9, {PHASE_WORDS[known['phase']]}{to_play}, start seat "
              f"{known['start']}; viewer: {_viewer_name(viewer)}")]
    lines.append("     " + "  ".join(f"col {c}   " for c in range(COLUMNS)).rstrip())
    for row in reversed(range(ROWS)):
        cells = []
        for col in range(COLUMNS):
            plot = 6 * row + col
            tile = _piece_text(known, plot, None)
            coin = _piece_text(known, NUM_PLOTS + plot, SUIT_LETTERS[known["coin_suits"][plot]])
            owner = known["owners"][plot]
            building = known["buildings"][plot]
            if building < 0:
                built = "--"
            else:
                level = str(known["levels"][plot]) if building in PRODUCTION else "-"
                built = BUILDING_LETTERS[building] + level
            cells.append(f"{tile}{coin} {'.' if owner < 0 else owner}{built}")
        lines.append(f"r{row}   " + "  ".join(cells))
    scores = scores_of(known)
    for seat, have in enumerate(known["holdings"]):
        flags = "".join((" *start" if seat == known["start"] else "",
                         " <to act" if seat == known["current_player"] else ""))
        stock = " ".join(f"{letter}{units}" for letter, units in zip(RESOURCE_LETTERS, have))
        lines.append(f"seat {seat}: {stock}  markers {known['markers'][seat]}  score {scores[seat]}{flags}")
    if known["dice"] is not None:
        lines.append("dice (Moon Sun Arms Crown): " + " ".join(map(str, known["dice"])))
    if known["produced"]:
        lines.append("produced this round: " + ", ".join(
            f"plot {plot} {units}{RESOURCE_LETTERS[resource]} (seat {known['owners'][plot]})"
            for plot, resource, units in known["produced"]))
    if known["pending_offer"] is not None:
        offerer, target, give, a, take, b = known["pending_offer"]
        lines.append(f"offer: seat {offerer} gives seat {target} {a}{RESOURCE_LETTERS[give]} "
                     f"for {b}{RESOURCE_LETTERS[take]}")
    if known["market_sum"] is not None:
        lines.append(f"market sum: {known['market_sum']}")
    return "\n".join(lines)


CELL = 48
"""Side of one plot in the picture, in pixels."""
SUIT_COLOURS = np.array([(120, 140, 235), (245, 190, 40), (200, 70, 60), (150, 90, 200)], dtype=np.uint8)
"""Moons blue, Suns yellow, Arms red, Crowns purple."""
SEAT_COLOURS = np.array([(70, 160, 90), (60, 120, 200), (210, 120, 50), (170, 60, 150)], dtype=np.uint8)
RESOURCE_COLOURS = SUIT_COLOURS
BACKGROUND = (30, 34, 40)
UNOCCUPIED = (90, 90, 90)
HIDDEN = (55, 55, 60)
BAR = 8
"""Height of a holdings bar; its length is 4 pixels a unit, up to a plot's width per resource."""


def _pips(image: np.ndarray, top: int, left: int, count: int, colour: tuple[int, int, int]) -> None:
    for k in range(count):
        y, x = top + 2 + 5 * (k // 3), left + 2 + 5 * (k % 3)
        image[y:y + 3, x:x + 3] = colour


def _piece(image: np.ndarray, top: int, left: int, known: dict[str, Any], piece: int, suit: int | None) -> None:
    """A piece square of 18 px: its suit colour (dim when only the viewer knows it), its rank in pips."""
    size = 18
    code = known["face_up"].get(piece) or known["identities"].get(piece)
    if code is None:
        colour = HIDDEN if suit is None else SUIT_COLOURS[suit] // 2
        image[top:top + size, left:left + size] = colour
        return
    suit, rank = parse_code(code)
    colour = SUIT_COLOURS[suit] if piece in known["face_up"] else SUIT_COLOURS[suit] // 2 + 40
    image[top:top + size, left:left + size] = colour
    _pips(image, top, left, rank, (255, 255, 255))


def to_rgb(known: dict[str, Any]) -> np.ndarray:
    """The field (4 x 6 plots) over one row of holdings bars per seat, as H x W x 3 uint8.

    A plot's border is its owner's colour (grey: unoccupied); the tile is the
    left square, the coin the right (suit colour: face up; dimmer with pips:
    face down but known to the viewer; dark: hidden); the bar below them is
    the building (white: production, with one pip per level; gold: a scoring
    building). The seat to act has a white mark left of its bars.
    """
    n = len(known["holdings"])
    width = COLUMNS * CELL
    height = ROWS * CELL + n * (4 * BAR) + 8
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = BACKGROUND
    for plot in range(NUM_PLOTS):
        row, col = divmod(plot, COLUMNS)
        top, left = (ROWS - 1 - row) * CELL, col * CELL
        owner = known["owners"][plot]
        image[top + 1:top + CELL - 1, left + 1:left + CELL - 1] = UNOCCUPIED if owner < 0 else SEAT_COLOURS[owner]
        image[top + 4:top + CELL - 4, left + 4:left + CELL - 4] = BACKGROUND
        _piece(image, top + 6, left + 5, known, plot, None)
        _piece(image, top + 6, left + 25, known, NUM_PLOTS + plot, known["coin_suits"][plot])
        building = known["buildings"][plot]
        if building >= 0:
            colour = (235, 235, 235) if building in PRODUCTION else (230, 200, 60)
            image[top + 28:top + 40, left + 5:left + 43] = colour
            if building in PRODUCTION:
                image[top + 30:top + 38, left + 7:left + 15] = RESOURCE_COLOURS[building]
                for k in range(known["levels"][plot]):
                    image[top + 31:top + 37, left + 19 + 6 * k:left + 23 + 6 * k] = (20, 20, 20)
    for seat, have in enumerate(known["holdings"]):
        top = ROWS * CELL + 6 + seat * 4 * BAR
        image[top:top + 4 * BAR - 2, 0:4] = SEAT_COLOURS[seat]
        if seat == known["current_player"]:
            image[top:top + 4 * BAR - 2, 5:8] = (255, 255, 255)
        for resource, units in enumerate(have):
            y = top + resource * BAR
            image[y:y + BAR - 2, 10:10 + min(4 * units, width - 12)] = RESOURCE_COLOURS[resource]
    return image
