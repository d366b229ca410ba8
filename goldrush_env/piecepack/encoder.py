"""The flat vectors of *Gold Rush* on a piecepack: one seat's observation, and the global state.

An observation encodes exactly what one seat knows (PIECEPACK.md §7): the
dictionary :meth:`Game.known_to(seat) <goldrush_env.piecepack.engine.Game.known_to>`
returns, which is the public state plus the identities of the face-down
pieces this seat has assayed, and nothing else. The encoder never reads the
game itself, so it cannot leak another seat's assay or a hidden piece.
Seats are relative to the observer (relative seat 0 is the observer, 1 the
next seat clockwise, ...), so one policy can play any seat.

The state (:func:`state_vector`) is the whole truth for centralised critics:
every piece's identity, absolute seats (seat 0 is ``player_0``). It has the
same slices as an observation; only their meaning differs (see
:data:`STATE_LAYOUT`).

Plot-indexed planes run over the 24 plots ``p = 6 row + col`` (row 0 at the
bottom, PIECEPACK.md §1.2). Counts that have no upper bound in the rules
(holdings, scores) are divided by a scale and clipped at 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from goldrush_env.encoder import markdown_table, slices_of
from goldrush_env.piecepack.components import (
    GOLD,
    MARKERS,
    MAX_LEVEL,
    MAX_OFFERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_BUILDINGS,
    NUM_PIECES,
    NUM_PLOTS,
    NUM_ROUNDS,
    ORE,
    RANKS,
    SCORING,
    parse_code,
)
from goldrush_env.piecepack.engine import Phase

HOLDING_SCALE = 20
"""Holdings are divided by this and clipped at 1 (a holding of 20 or more reads 1)."""
SCORE_SCALE = 100
"""Scores (§5) are divided by this and clipped at 1."""
PHASES = tuple(Phase)
"""The decision points in the order of the ``phase`` one-hot; the last is the end of the game."""
NUM_RANKS = len(RANKS)
NUM_SUITS = 4
MIN_MARKET_SUM, MAX_MARKET_SUM = 2, 12
MAX_LOGGED_OFFERS = MAX_OFFERS * MAX_PLAYERS
"""Offers one round can hold: 3 per player (P22)."""
OFFER_FIELDS = (("offerer", MAX_PLAYERS), ("target", MAX_PLAYERS), ("give", 4), ("give_units", 2), ("take", 4),
                ("take_units", 2))
"""One offer as one-hot fields, in the order of ``pending_offer``: offerer, target, X, a (1-2), Y, b (1-2)."""
OFFER_SIZE = sum(size for _, size in OFFER_FIELDS)


def _layout(relative: bool) -> tuple[tuple[str, tuple[int, ...], str], ...]:
    seat = "relative seat" if relative else "seat"
    known = "where this seat knows it (face up, or face down and assayed by this seat)" if relative \
        else "face up or down (the truth)"
    return (
        ("players", (2,), "one-hot: 3 or 4 players"),
        ("round", (NUM_ROUNDS,), "one-hot: round 1-9"),
        ("phase", (len(PHASES),), ("one-hot decision point: warehouse_food, warehouse_energy, free_trade_turn, "
                                   "offer_response, market_sell, claim, development_turn, game_over")),
        ("to_play", (MAX_PLAYERS,), f"{seat} to act (all 0 once the game is over)"),
        ("start", (MAX_PLAYERS,), f"{seat} of the start player"),
        ("claims_this_round", (1,), "1 if this round has a Stake Claim phase (P29)"),
        ("owner", (MAX_PLAYERS + 1, NUM_PLOTS), f"per plot, one-hot: the owning {seat}, or unoccupied (last row)"),
        ("building", (NUM_BUILDINGS, NUM_PLOTS), ("per plot, one-hot building type (Farm, Windmill, Mine, Gold Mine, "
                                                  "Trade Route, Market, Warehouse); all 0: none")),
        ("level", (NUM_PLOTS,), f"per plot, upgrade level / {MAX_LEVEL}"),
        ("coin_suit", (NUM_SUITS, NUM_PLOTS), ("per plot, one-hot suit of its coin (Moons, Suns, Arms, Crowns), "
                                               "always public")),
        ("tile_face_up", (NUM_PLOTS,), "1 where the tile is face up"),
        ("coin_face_up", (NUM_PLOTS,), "1 where the coin is face up"),
        ("tile_suit", (NUM_SUITS, NUM_PLOTS), f"per plot, one-hot suit of the tile {known}"),
        ("tile_rank", (NUM_RANKS, NUM_PLOTS), f"per plot, one-hot rank 0-5 (0: Null) of the tile {known}"),
        ("coin_rank", (NUM_RANKS, NUM_PLOTS), f"per plot, one-hot rank 0-5 of the coin {known}"),
        ("tile_assayed", (MAX_PLAYERS, NUM_PLOTS), f"per {seat}: 1 where that seat has assayed the tile (public)"),
        ("coin_assayed", (MAX_PLAYERS, NUM_PLOTS), f"per {seat}: 1 where that seat has assayed the coin (public)"),
        ("seats", (MAX_PLAYERS,), f"1 for each {seat} in the game"),
        ("holdings", (MAX_PLAYERS, 4), f"per {seat}: Food, Energy, Ore, Gold / {HOLDING_SCALE}, clipped at 1"),
        ("markers", (MAX_PLAYERS,), f"per {seat}: ownership markers left / {MARKERS}"),
        ("scores", (MAX_PLAYERS,), f"per {seat}: score now (§5) / {SCORE_SCALE}, clipped at 1"),
        ("market_used", (MAX_PLAYERS,), f"per {seat}: 1 if it has used a Market this round"),
        ("offers_made", (MAX_PLAYERS,), f"per {seat}: offers made this Free Trade phase / {MAX_OFFERS}"),
        ("dice", (4, NUM_RANKS), "per production die (Moon, Sun, Arms, Crown): one-hot face 0-5 of this round"),
        ("powered", (NUM_PLOTS,), "1 at the plots whose Mine or Gold Mine was powered this round"),
        ("warehouse", (MAX_PLAYERS, 2, 2), (f"per {seat}, for Food then Energy: one-hot protect, decline "
                                            "(all 0: not asked this round)")),
        ("market_sum", (MAX_MARKET_SUM - MIN_MARKET_SUM + 1,), ("one-hot: the last Market sum N (2-12) rolled "
                                                                 "this round; all 0: none")),
        ("pending_offer", (OFFER_SIZE,), (f"the offer awaiting an answer, one-hot fields: offerer ({seat}, 4), "
                                          "target (4), resource given X (4), a = 1-2 (2), resource asked Y (4), "
                                          "b = 1-2 (2); all 0: none")),
        ("offer_log", (MAX_LOGGED_OFFERS, OFFER_SIZE + 1),
         "this round's answered offers in order, each as `pending_offer` then 1 if accepted; all 0: no such offer"),
    )


LAYOUT = _layout(relative=True)
"""The observation's named slices, in order: (name, shape, meaning)."""
SLICES: dict[str, slice] = slices_of(LAYOUT)
SHAPES: dict[str, tuple[int, ...]] = {name: shape for name, shape, _ in LAYOUT}
OBSERVATION_SIZE: int = SLICES[LAYOUT[-1][0]].stop

STATE_LAYOUT = _layout(relative=False)
"""The state's named slices: the observation's, with absolute seats and every identity."""
STATE_SLICES: dict[str, slice] = slices_of(STATE_LAYOUT)
STATE_SIZE: int = STATE_SLICES[STATE_LAYOUT[-1][0]].stop
assert STATE_SIZE == OBSERVATION_SIZE  # one encoder fills both: only the meanings differ
PUBLIC_ASSAYS = ("tile_assayed", "coin_assayed")
"""The slices an assay by another seat changes in an observation (with the assayer's Food in ``holdings``)."""


def index_table() -> str:
    """The observation's layout as a Markdown table (it is in the AEC env's docstring)."""
    return markdown_table(LAYOUT, SLICES)


def state_index_table() -> str:
    """The state's layout as a Markdown table (it is in the AEC env's docstring)."""
    return markdown_table(STATE_LAYOUT, STATE_SLICES)


def observation_vector(knowledge: dict[str, Any]) -> np.ndarray:
    """The observation of the seat ``knowledge["seat"]`` from what it knows, ``Game.known_to(seat)``."""
    return _encode(knowledge, knowledge["seat"])


def truth(game: Any) -> dict[str, Any]:
    """What an all-seeing viewer knows: ``game.public_state()`` with ``seat`` None and the ``identities`` of
    every face-down piece (the form of ``Game.known_to``)."""
    known = game.public_state()
    known["seat"] = None
    known["identities"] = {piece: game.tile(piece) if piece < NUM_PLOTS else game.coin(piece - NUM_PLOTS)
                           for piece in range(NUM_PIECES) if not game.face_up[piece]}
    return known


def state_vector(game: Any) -> np.ndarray:
    """The global state of a :class:`~goldrush_env.piecepack.engine.Game`: :func:`truth` encoded with absolute
    seats."""
    return _encode(truth(game), None)


def split(vector: np.ndarray, state: bool = False) -> dict[str, np.ndarray]:
    """The named slices of an observation (or, with ``state``, of a state) in their shapes, for reading."""
    layout, slices = (STATE_LAYOUT, STATE_SLICES) if state else (LAYOUT, SLICES)
    return {name: vector[slices[name]].reshape(shape) for name, shape, _ in layout}


def _encode(known: dict[str, Any], observer: int | None) -> np.ndarray:
    n = known["players"]
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    at = split(out)  # views into ``out``

    def seat(s: int) -> int:
        return s if observer is None else (s - observer) % n

    at["players"][n - MIN_PLAYERS] = 1
    at["round"][known["round"] - 1] = 1
    phase = Phase(known["phase"])
    at["phase"][PHASES.index(phase)] = 1
    if known["current_player"] is not None:
        at["to_play"][seat(known["current_player"])] = 1
    at["start"][seat(known["start"])] = 1
    at["claims_this_round"][0] = known["claims_this_round"]

    plots = np.arange(NUM_PLOTS)
    owners = np.array([MAX_PLAYERS if o < 0 else seat(o) for o in known["owners"]])
    at["owner"][owners, plots] = 1
    buildings = np.array(known["buildings"])
    built = buildings >= 0
    at["building"][buildings[built], plots[built]] = 1
    at["level"][:] = np.array(known["levels"]) / MAX_LEVEL
    at["coin_suit"][known["coin_suits"], plots] = 1
    for piece, code in list(known["face_up"].items()) + list(known["identities"].items()):
        suit, rank = parse_code(code)
        if piece < NUM_PLOTS:
            at["tile_suit"][suit, piece] = 1
            at["tile_rank"][rank, piece] = 1
        else:
            at["coin_rank"][rank, piece - NUM_PLOTS] = 1
    for piece in known["face_up"]:
        if piece < NUM_PLOTS:
            at["tile_face_up"][piece] = 1
        else:
            at["coin_face_up"][piece - NUM_PLOTS] = 1
    for piece, seats in enumerate(known["assayed_by"]):
        plane, plot = ("tile_assayed", piece) if piece < NUM_PLOTS else ("coin_assayed", piece - NUM_PLOTS)
        for s in seats:
            at[plane][seat(s), plot] = 1

    order = [seat(s) for s in range(n)]
    at["seats"][order] = 1
    at["holdings"][order] = np.minimum(np.array(known["holdings"]) / HOLDING_SCALE, 1)
    at["markers"][order] = np.array(known["markers"]) / MARKERS
    at["scores"][order] = np.minimum(np.array(scores_of(known)) / SCORE_SCALE, 1)
    at["market_used"][order] = known["market_used"]
    at["offers_made"][order] = np.array(known["offers_made"]) / MAX_OFFERS

    if known["dice"] is not None:
        at["dice"][np.arange(4), list(known["dice"])] = 1
    at["powered"][list(known["powered"])] = 1
    for s, choices in enumerate(known["warehouse"]):
        for resource, protect in enumerate(choices):
            if protect is not None:
                at["warehouse"][seat(s), resource, 0 if protect else 1] = 1
    if known["market_sum"] is not None:
        at["market_sum"][known["market_sum"] - MIN_MARKET_SUM] = 1
    if known["pending_offer"] is not None:
        _offer(at["pending_offer"], known["pending_offer"], seat)
    for row, entry in zip(at["offer_log"], known["offer_log"]):
        _offer(row[:OFFER_SIZE], entry[:6], seat)
        row[OFFER_SIZE] = entry[6]
    return out


def _offer(out: np.ndarray, offer: Sequence[int], seat: Any) -> None:
    offerer, target, give, a, take, b = offer
    at = 0
    for (_, size), value in zip(OFFER_FIELDS, (seat(offerer), seat(target), give, a - 1, take, b - 1)):
        out[at + value] = 1
        at += size


def scores_of(known: dict[str, Any]) -> list[int]:
    """§5's scores from public facts (what ``Game.scores`` computes), so the encoder needs no game."""
    points = [h[ORE] + 3 * h[GOLD] for h in known["holdings"]]
    for owner, building in zip(known["owners"], known["buildings"]):
        if building in SCORING:
            points[owner] += 8
    return points
