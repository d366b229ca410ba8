"""The flat vectors of *Gold Rush* on a piecepack: one seat's observation, and the global state.

An observation encodes exactly what one seat knows (docs/piecepack-rules.md §7): the
dictionary :meth:`Game.known_to(seat) <goldrush_env.piecepack.engine.Game.known_to>`
returns, which is the public state plus the identities of the face-down
pieces this seat has assayed, and nothing else (:func:`observation_vector`
reads that dictionary alone, so it cannot leak another seat's assay or a
hidden piece). The environments write the same vector compiled
(:func:`goldrush_env.piecepack.kernel.observe`); tests check that the two
agree for every seat at every step of many games, and that pieces a seat has
not seen do not change what it observes. Seats are relative to the observer
(relative seat 0 is the observer, 1 the next seat clockwise, ...), so one
policy can play any seat.

The state (:func:`state_vector`) is the whole truth for centralised critics:
every piece's identity, absolute seats (seat 0 is ``player_0``). It has the
same slices as an observation; only their meaning differs (see
:data:`STATE_LAYOUT`).

Plot-indexed planes run over the 24 plots ``p = 6 row + col`` (row 0 at the
bottom, docs/piecepack-rules.md §1.2). Counts that have no upper bound in the rules
(holdings, scores) are divided by a scale and clipped at 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from goldrush_env.layout import markdown_table, slices_of
from goldrush_env.piecepack.components import (
    BOX,
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


_SUIT_RANK = {code: parse_code(code) for code in BOX}
"""Each piece code's (suit, rank), looked up rather than parsed on every observation."""
_PHASE_INDEX = {phase.value: index for index, phase in enumerate(PHASES)}
"""A phase's place in the ``phase`` one-hot, by its value (a :class:`Phase` is its value, a str enum)."""
_AT = {name: SLICES[name].start for name in SLICES}
"""Where each named slice starts in the flat vector: :func:`_encode` computes flat indices in plain Python and
writes them with one numpy assignment, since a numpy call per field costs more than the fields themselves."""


def _encode(known: dict[str, Any], observer: int | None) -> np.ndarray:
    n = known["players"]
    shift = 0 if observer is None else observer
    at = _AT
    ones: list[int] = []  # flat indices set to 1
    where: list[int] = []  # flat indices set to the matching ``values``
    values: list[float] = []

    ones.append(at["players"] + n - MIN_PLAYERS)
    ones.append(at["round"] + known["round"] - 1)
    ones.append(at["phase"] + _PHASE_INDEX[known["phase"]])
    if known["current_player"] is not None:
        ones.append(at["to_play"] + (known["current_player"] - shift) % n)
    ones.append(at["start"] + (known["start"] - shift) % n)
    if known["claims_this_round"]:
        ones.append(at["claims_this_round"])

    for plot, (owner, building, level, suit) in enumerate(zip(known["owners"], known["buildings"], known["levels"],
                                                             known["coin_suits"])):
        ones.append(at["owner"] + (MAX_PLAYERS if owner < 0 else (owner - shift) % n) * NUM_PLOTS + plot)
        if building >= 0:
            ones.append(at["building"] + building * NUM_PLOTS + plot)
        if level:
            where.append(at["level"] + plot)
            values.append(level / MAX_LEVEL)
        ones.append(at["coin_suit"] + suit * NUM_PLOTS + plot)
    for pieces in (known["face_up"], known["identities"]):
        for piece, code in pieces.items():
            suit, rank = _SUIT_RANK[code]
            if piece < NUM_PLOTS:
                ones.append(at["tile_suit"] + suit * NUM_PLOTS + piece)
                ones.append(at["tile_rank"] + rank * NUM_PLOTS + piece)
            else:
                ones.append(at["coin_rank"] + rank * NUM_PLOTS + piece - NUM_PLOTS)
    for piece in known["face_up"]:
        ones.append(at["tile_face_up"] + piece if piece < NUM_PLOTS else at["coin_face_up"] + piece - NUM_PLOTS)
    for piece, seats in enumerate(known["assayed_by"]):
        for s in seats:
            plane, plot = ("tile_assayed", piece) if piece < NUM_PLOTS else ("coin_assayed", piece - NUM_PLOTS)
            ones.append(at[plane] + (s - shift) % n * NUM_PLOTS + plot)

    scores = scores_of(known)
    for s in range(n):
        r = (s - shift) % n
        ones.append(at["seats"] + r)
        for resource, amount in enumerate(known["holdings"][s]):
            where.append(at["holdings"] + 4 * r + resource)
            values.append(min(amount / HOLDING_SCALE, 1))
        where += [at["markers"] + r, at["scores"] + r, at["market_used"] + r, at["offers_made"] + r]
        values += [known["markers"][s] / MARKERS, min(scores[s] / SCORE_SCALE, 1), float(known["market_used"][s]),
                   known["offers_made"][s] / MAX_OFFERS]
        for resource, protect in enumerate(known["warehouse"][s]):
            if protect is not None:
                ones.append(at["warehouse"] + 4 * r + 2 * resource + (0 if protect else 1))

    if known["dice"] is not None:
        ones += [at["dice"] + die * NUM_RANKS + face for die, face in enumerate(known["dice"])]
    ones += [at["powered"] + plot for plot in known["powered"]]
    if known["market_sum"] is not None:
        ones.append(at["market_sum"] + known["market_sum"] - MIN_MARKET_SUM)
    if known["pending_offer"] is not None:
        _offer(ones, at["pending_offer"], known["pending_offer"], shift, n)
    for k, entry in enumerate(known["offer_log"]):
        row = at["offer_log"] + k * (OFFER_SIZE + 1)
        _offer(ones, row, entry[:6], shift, n)
        if entry[6]:
            ones.append(row + OFFER_SIZE)

    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    out[where] = values
    out.put(ones, 1)
    return out


def _offer(ones: list[int], start: int, offer: Sequence[int], shift: int, n: int) -> None:
    """Append the flat indices of one offer's one-hot fields (:data:`OFFER_FIELDS`) from ``start``."""
    offerer, target, give, a, take, b = offer
    at = start
    for (_, size), value in zip(OFFER_FIELDS, ((offerer - shift) % n, (target - shift) % n, give, a - 1, take,
                                              b - 1)):
        ones.append(at + value)
        at += size


def scores_of(known: dict[str, Any]) -> list[int]:
    """§5's scores from public facts (what ``Game.scores`` computes), so the encoder needs no game."""
    points = [h[ORE] + 3 * h[GOLD] for h in known["holdings"]]
    for owner, building in zip(known["owners"], known["buildings"]):
        if building in SCORING:
            points[owner] += 8
    return points
