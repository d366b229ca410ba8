"""Pictures of a game as one seat knows it: text for terminals, RGB arrays for videos.

Both take a :class:`~goldrush_env.policy.SeatView`, so a rendering never
shows more than the viewer knows (the all-seeing view, ``seat=None``, shows
every card). Squares are named by column letter and row number, ``a1`` (top
left, position 0) to ``h8`` (bottom right, position 63).
"""

from __future__ import annotations

import numpy as np

from typing import Sequence

from goldrush_env.gold.cards import (
    COLOUR, COLUMNS, DYNAMITE, EMPTY, GOLD_RUSH_THRESHOLD, GOLD_VALUES, GRID_SIZE, IS_GOLD, MINER_VALUES, NUM_COLOURS,
    NUM_POSITIONS, VALUE, card_code, parse_square, square_name,
)
from goldrush_env.gold.engine import colour_owners
from goldrush_env.gold.view import UNKNOWN
from goldrush_env.policy import SeatView


def action_text(position: int, known: object = None) -> str:
    """An action in words: the square it flips (``"flip c4"``)."""
    return f"flip {square_name(position)}"


def check_square(answer: str, view: SeatView) -> tuple[int | None, str | None]:
    """The position a person typed (``"c4"``) and why it cannot be flipped now (None if it can), in the board's
    terms: what ``goldrush play`` and ``goldrush serve`` tell a person."""
    if not answer:
        return None, "type a square such as c4, ? for help, or q to quit"
    try:
        position = parse_square(answer)
    except ValueError:
        return None, f"{answer} is not a square: columns a-h, rows 1-8, e.g. c4 (? for help)"
    square = square_name(position)
    if position == view.face_up:
        return position, f"{square} is already face up: choose a face-down card"
    if view.cards[position] == EMPTY:
        return position, f"{square} is empty (its card has left the game): choose a face-down card"
    return position, None


def ownership(owners: Sequence[int]) -> str:
    """Who owns which miner colour, e.g. ``"seat 0: colours 0+1; seat 1: colours 2+3; unowned: 4"``.

    ``owners[c]`` is the seat owning colour ``c`` (``-1``: nobody), as
    :func:`~goldrush_env.gold.engine.colour_owners` gives it.
    """
    parts = []
    for seat in range(max(owners) + 1):
        colours = [str(c) for c in range(NUM_COLOURS) if owners[c] == seat]
        parts.append(f"seat {seat}: colour{'s' if len(colours) > 1 else ''} {'+'.join(colours)}")
    unowned = [str(c) for c in range(NUM_COLOURS) if owners[c] < 0]
    if unowned:
        parts.append(f"unowned: {'+'.join(unowned)}")
    return "; ".join(parts)


def legend(num_players: int, rush_at: int = GOLD_RUSH_THRESHOLD) -> str:
    """What the card codes, the board's symbols and the event words mean, and what a turn does.

    The help of ``goldrush play``; kept beside :func:`to_text` so that the
    symbols it explains are the ones drawn.
    """
    gold_low, gold_high = GOLD_VALUES[0], GOLD_VALUES[-1]
    low, high = MINER_VALUES[0], MINER_VALUES[-1]
    return "\n".join([
        "Cards",
        f"  G{gold_low}..G{gold_high}   gold worth {gold_low} to {gold_high} points",
        f"  M<c><s>  a miner of colour c (0-{NUM_COLOURS - 1}) and strength s ({low}-{high}): "
        "M13 is colour 1, strength 3",
        "  D        dynamite",
        f"  colours  {ownership(colour_owners(num_players))} (with {num_players} players)",
        "Board",
        "  a1..h8   the squares: column letter, then row number (a1 is top left)",
        "  ??       a face-down card you do not know (never seen, or forgotten)",
        "  G3       a face-down card you remember",
        "  [G3]     the card lying face up: the first card of this turn",
        "  .        an empty square: its card has left the game",
        "A turn: flip two face-down cards, one after the other (everyone sees both), then",
        "  strike   gold and a miner at least as strong: the gold goes to the miner's owner (to the",
        "           flipper if nobody owns the colour), and the miner leaves",
        "  duel     two miners of different strength: the weaker leaves",
        "  dynamite dynamite and any card: both leave",
        "  nothing  anything else: both go back face down where they were",
        f"Gold Rush: once {rush_at} or fewer cards are left, one card a turn; gold goes to whoever",
        "  flips it (rush_gold), any other card just leaves (rush_discard).",
        "In the event lines, strike:1 and rush_gold:1 name the seat that gets the gold.",
        "When the table is empty, most points wins (a tie: most gold cards).",
    ])


def to_text(view: SeatView) -> str:
    """The 8x8 grid with what the viewer knows, then the standing and whose turn it is.

    ``??`` a face-down card the viewer cannot place; ``G3`` a card it
    remembers face down; ``[G3]`` the face-up card; ``.`` an empty square.
    """
    who = "every card shown" if view.seat is None else f"seat {view.seat}'s memory"
    lines = [f"Gold, {who}", "     " + "".join(c.center(6) for c in COLUMNS)]
    for row in range(GRID_SIZE):
        cells = []
        for position in range(row * GRID_SIZE, (row + 1) * GRID_SIZE):
            card = view.cards[position]
            text = "." if card == EMPTY else "??" if card == UNKNOWN else card_code(card)
            cells.append((f"[{text}]" if position == view.face_up else text).center(6))
        lines.append(f"  {row + 1}  " + "".join(cells).rstrip())
    lines.append("miners  " + ownership(view.owners))
    lines.append("scores  " + "  ".join(f"seat {s}: {view.scores[s]} ({view.gold_cards[s]} cards)"
                                         for s in range(view.num_players)))
    limit = f"/{view.max_turns}" if view.max_turns else ""
    cards_left = sum(card != EMPTY for card in view.cards)
    if view.current_player is None:
        status = "game over" if cards_left == 0 else "stopped at the turn limit"
    else:
        flip = "Gold Rush flip" if view.gold_rush else "second card" if view.is_second_flip else "first card"
        status = f"seat {view.current_player} to play ({flip})"
    lines.append(f"turn {view.turn}{limit}, {cards_left} cards left, {status}")
    return "\n".join(lines)


# --- pictures -------------------------------------------------------------------------

CARD_W, CARD_H, GAP, MARGIN, BAR_H = 44, 60, 6, 14, 64
FELT = (28, 92, 52)
SLOT = (22, 74, 42)
BACK = (112, 70, 38)
BACK_STRIPE = (140, 94, 56)
GOLD_FACE = (236, 194, 48)
INK = (40, 28, 16)
WHITE = (245, 245, 240)
DYNAMITE_FACE = (190, 36, 30)
HIGHLIGHT = (255, 236, 90)
MINER_COLOURS = ((205, 62, 62), (62, 112, 212), (150, 82, 192), (236, 142, 40), (190, 190, 190))

# A 3x5 pixel font for the few characters the pictures need.
_FONT = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001001010010",
    "8": "111101111101111", "9": "111101111001111", "G": "111100101101111", "M": "101111111101101",
    "D": "110101101101110", "T": "111010010010010", "R": "110101110101101", "U": "101101101101111",
    "S": "111100111001111", "H": "101101111101101", "/": "001001010100100", " ": "000000000000000",
}


def _text(image: np.ndarray, x: int, y: int, text: str, colour: tuple[int, int, int], scale: int) -> None:
    for char in text:
        glyph = _FONT[char]
        for index, bit in enumerate(glyph):
            if bit == "1":
                gy, gx = divmod(index, 3)
                image[y + gy * scale: y + (gy + 1) * scale, x + gx * scale: x + (gx + 1) * scale] = colour
        x += 4 * scale


def _card_face(image: np.ndarray, x: int, y: int, card: int) -> None:
    cell = image[y: y + CARD_H, x: x + CARD_W]
    if IS_GOLD[card]:
        cell[:] = GOLD_FACE
        _text(image, x + 4, y + 4, "G", INK, 2)
        _text(image, x + CARD_W // 2 - 6, y + 18, str(VALUE[card]), INK, 4)
        for nugget in range(VALUE[card]):  # one dot per nugget along the bottom
            nx = x + 6 + nugget * 9
            image[y + CARD_H - 10: y + CARD_H - 4, nx: nx + 6] = INK
    elif card == DYNAMITE:
        cell[:] = DYNAMITE_FACE
        image[y + 16: y + CARD_H - 8, x + CARD_W // 2 - 6: x + CARD_W // 2 + 6] = (120, 20, 16)  # the stick
        image[y + 8: y + 16, x + CARD_W // 2 - 1: x + CARD_W // 2 + 2] = HIGHLIGHT  # its fuse
        _text(image, x + 4, y + 4, "D", WHITE, 2)
    else:
        cell[:] = MINER_COLOURS[COLOUR[card]]
        ink = INK if sum(MINER_COLOURS[COLOUR[card]]) > 500 else WHITE  # dark text on the pale colour
        _text(image, x + 4, y + 4, "M", ink, 2)
        _text(image, x + CARD_W - 12, y + 4, str(COLOUR[card]), ink, 2)
        _text(image, x + CARD_W // 2 - 6, y + 20, str(VALUE[card]), ink, 4)


def _card_back(image: np.ndarray, x: int, y: int) -> None:
    cell = image[y: y + CARD_H, x: x + CARD_W]
    cell[:] = BACK
    rows, cols = np.indices((CARD_H, CARD_W))
    cell[(rows + cols) % 10 < 3] = BACK_STRIPE


def _frame(image: np.ndarray, x: int, y: int, colour: tuple[int, int, int], width: int) -> None:
    image[y - width: y + CARD_H + width, x - width: x] = colour
    image[y - width: y + CARD_H + width, x + CARD_W: x + CARD_W + width] = colour
    image[y - width: y, x - width: x + CARD_W + width] = colour
    image[y + CARD_H: y + CARD_H + width, x - width: x + CARD_W + width] = colour


def to_rgb(view: SeatView) -> np.ndarray:
    """A picture of the table as the viewer knows it (uint8, H x W x 3).

    Unknown face-down cards show their striped back; remembered face-down
    cards show their face with a dark bar at the top; the face-up card has a
    yellow frame; empty squares are darker slots. Below the grid, one panel a
    seat: its colours, its score, its gold cards, and a white line under the
    seat to play.
    """
    width = 2 * MARGIN + GRID_SIZE * CARD_W + (GRID_SIZE - 1) * GAP
    height = 2 * MARGIN + GRID_SIZE * CARD_H + (GRID_SIZE - 1) * GAP + BAR_H
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = FELT
    for position in range(NUM_POSITIONS):
        row, column = divmod(position, GRID_SIZE)
        x, y = MARGIN + column * (CARD_W + GAP), MARGIN + row * (CARD_H + GAP)
        card = view.cards[position]
        if card == EMPTY:
            image[y: y + CARD_H, x: x + CARD_W] = SLOT
        elif card == UNKNOWN:
            _card_back(image, x, y)
        else:
            _card_face(image, x, y, card)
            if position == view.face_up:
                _frame(image, x, y, HIGHLIGHT, 3)
            elif view.seat is not None:  # remembered, lying face down
                image[y: y + 3, x: x + CARD_W] = INK

    top = height - MARGIN - BAR_H + 8
    panel = (width - 2 * MARGIN) // view.num_players
    for seat in range(view.num_players):
        x = MARGIN + seat * panel
        for k, colour in enumerate(c for c in range(NUM_COLOURS) if view.owners[c] == seat):
            image[top: top + 14, x + k * 16: x + k * 16 + 12] = MINER_COLOURS[colour]
        _text(image, x, top + 20, f"{view.scores[seat]}", GOLD_FACE, 4)
        _text(image, x + 44, top + 24, f"{view.gold_cards[seat]}", WHITE, 2)
        if seat == view.current_player:
            image[top + 44: top + 48, x: x + panel - 10] = WHITE
    if view.gold_rush:
        _text(image, width - MARGIN - 56, top, "RUSH", HIGHLIGHT, 3)
    return image
