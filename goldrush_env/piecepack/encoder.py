"""The flat vectors of *Gold Rush* on a piecepack: one seat's observation, and the global state.

An observation encodes exactly what one seat knows (docs/piecepack-rules.md §7): the
dictionary :meth:`Game.known_to(seat) <goldrush_env.piecepack.engine.Game.known_to>`
returns, which is the public state plus the identities of the face-down
pieces this seat has assayed, and nothing else (:func:`observation_vector`
reads that dictionary alone, so it cannot leak another seat's assay or a
hidden piece). The environments use :class:`Observer`, which computes the
same vector faster, from the game's public fields and
:meth:`Game.identified_by(seat) <goldrush_env.piecepack.engine.Game.identified_by>`,
and keeps what changes seldom between steps; tests check that the two agree
for every seat at every step of many games, and that pieces a seat has not
seen do not change what it observes. Seats are relative to the observer
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

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from goldrush_env.layout import markdown_table, slices_of
from goldrush_env.piecepack.actions import END_DEVELOPMENT
from goldrush_env.piecepack.components import (
    BOX,
    COLUMNS,
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
    ROW_SUIT,
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


def observation_of(game: Any, seat: int) -> np.ndarray:
    """``observation_vector(game.known_to(seat))``, computed without building that dictionary: from the game's
    public fields and :meth:`Game.identified_by(seat) <goldrush_env.piecepack.engine.Game.identified_by>`, the
    pieces this seat can name, which are all it reads of the pieces. A test checks that the two agree for every
    seat at every step of many games. :class:`Observer` keeps most of it from step to step."""
    out = _board(game, seat)
    _draw_round(out, game, seat, 0)
    _fill_table(out, game, seat)
    return out


class Observer:
    """Every seat's :func:`observation_of` one game, step after step, as an environment asks for them.

    Most of an observation changes seldom, so it is kept per seat and brought up to date: the board's part
    (owners, buildings, levels, the pieces the seat can name, who assayed what), which only claims and
    Development actions change (the actions below ``END_DEVELOPMENT``; the plot each touched is drawn again),
    and the round's dice, powered Mines and answered offers, which a round only adds to. The rest (holdings,
    scores, whose turn ...) is written afresh every time. The game must change only through
    :meth:`Game.step <goldrush_env.piecepack.engine.Game.step>` while it is observed."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self._kept: dict[int, list] = {}  # seat: [its kept part, the turn, round and offers logged it is drawn at]

    def __call__(self, seat: int) -> np.ndarray:
        game = self.game
        history, log = game.history, game.offer_log
        kept = self._kept.get(seat)
        if kept is None:
            board = _board(game, seat)
            _draw_round(board, game, seat, 0)
            kept = self._kept[seat] = [board, len(history), game.round, len(log)]
        elif kept[1] < len(history):
            board = kept[0]
            touched = {action for action in history[kept[1]:] if action < END_DEVELOPMENT}
            if touched:
                claims = [plot for plot in touched if plot < NUM_PLOTS]  # a claim only fills in the owner
                rows = _OWNER_ROWS[game.num_players][seat]
                board[[rows[-1] + plot for plot in claims]] = 0
                board[[rows[game.owner[plot]] + plot for plot in claims]] = 1
                for plot in {_PLOT_OF[action] for action in touched if action >= NUM_PLOTS}:
                    _redraw_plot(board, game, seat, plot)
            if kept[2] != game.round:
                board[_ROUND_CELLS] = 0
                _draw_round(board, game, seat, 0)
            elif kept[3] < len(log):
                _draw_round(board, game, seat, kept[3])
            kept[1:] = len(history), game.round, len(log)
        out = kept[0].copy()
        _fill_table(out, game, seat)
        return out


def _board(game: Any, seat: int) -> np.ndarray:
    """A new observation vector holding the board's part of ``seat``'s observation, and its static fields."""
    n = game.num_players
    at = _AT
    ones = [at["players"] + n - MIN_PLAYERS]
    rows = _OWNER_ROWS[n][seat]
    ones += [rows[owner] + plot for plot, owner in enumerate(game.owner)]
    building_at = at["building"]
    ones += [building_at + NUM_PLOTS * building + plot for plot, building in enumerate(game.building) if building >= 0]
    ones += _COIN_SUITS
    face_up = game.face_up
    for piece, suit, rank in game.identified_by(seat):
        ones += _IDENTITY[piece][suit][rank]
        if face_up[piece]:
            ones.append(_FACE_UP[piece])
    assays = _ASSAYS[n][seat]
    for piece, bits in enumerate(game.assayed):
        if bits:
            ones += assays[piece][bits]
    ones += _SEATS[n]
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    out.put(ones, 1)
    level_at = at["level"]
    for plot, level in enumerate(game.level):
        if level:
            out[level_at + plot] = level / MAX_LEVEL
    return out


def _redraw_plot(out: np.ndarray, game: Any, seat: int, plot: int) -> None:
    """Draw one plot's cells of the board's part of ``seat``'s observation again (:func:`_board` draws them all)."""
    n = game.num_players
    out[_PLOT_CELLS[plot]] = 0
    owner, building = game.owner[plot], game.building[plot]
    ones = [_OWNER_ROWS[n][seat][owner] + plot]
    if building >= 0:
        ones.append(_AT["building"] + NUM_PLOTS * building + plot)
    bit, assays = 1 << seat, _ASSAYS[n][seat]
    for piece in (plot, NUM_PLOTS + plot):
        if game.face_up[piece] or game.assayed[piece] & bit:
            suit, rank = game.piece(piece)
            ones += _IDENTITY[piece][suit][rank]
            if game.face_up[piece]:
                ones.append(_FACE_UP[piece])
        ones += assays[piece][game.assayed[piece]]
    out.put(ones, 1)
    out[_AT["level"] + plot] = game.level[plot] / MAX_LEVEL


def _fill_table(out: np.ndarray, game: Any, seat: int) -> None:
    """Write into ``out`` (zero there) the fields of ``seat``'s observation that are not the board's."""
    n = game.num_players
    rel = _RELATIVE[n][seat]
    ones = [_ROUND_AT + game.round - 1, _PHASE_AT[game.phase], _START_AT + rel[game.start]]
    if game.current_player is not None:
        ones.append(_TO_PLAY_AT + rel[game.current_player])
    if game.claims_this_round:
        ones.append(_CLAIMS_AT)
    # holdings, markers, scores, market_used and offers_made lie side by side: one row of 32, by relative seat
    order, pad, scaled = _ORDER[n][seat], _PAD[n], _SCALED
    holdings = [game.holdings[s] for s in order]
    if _SCORING.isdisjoint(game.building):  # no 8-point building: the scores are Ore + 3 Gold (Game.scores)
        points = [holding[ORE] + 3 * holding[GOLD] for holding in holdings]
    else:
        scores = game.scores()
        points = [scores[s] for s in order]
    markers, used, offers = game.markers, game.market_used, game.offers_made
    out[_PER_SEAT] = ([scaled[units] if units < HOLDING_SCALE else 1.0 for holding in holdings for units in holding]
                      + pad * 4 + [markers[s] / MARKERS for s in order] + pad
                      + [p / SCORE_SCALE if p < SCORE_SCALE else 1.0 for p in points] + pad
                      + [float(used[s]) for s in order] + pad + [offers[s] / MAX_OFFERS for s in order] + pad)
    for r, s in enumerate(order):
        food, energy = game.warehouse[s]
        if food is not None:
            ones.append(_WAREHOUSE_AT + 4 * r + (0 if food else 1))
        if energy is not None:
            ones.append(_WAREHOUSE_AT + 4 * r + (2 if energy else 3))
    if game.market_sum is not None:
        ones.append(_MARKET_SUM_AT + game.market_sum - MIN_MARKET_SUM)
    if game.pending_offer is not None:
        ones += _offer_cells(_PENDING_AT, game.pending_offer, seat, n)
    out.put(ones, 1)


def _draw_round(out: np.ndarray, game: Any, seat: int, logged: int) -> None:
    """Draw this round's dice, powered Mines and the answered offers from entry ``logged`` on into ``out``."""
    ones = [_POWERED_AT + plot for plot in game.powered] if logged == 0 else []
    if logged == 0 and game.dice is not None:
        ones += _DICE[game.dice]
    n = game.num_players
    for k in range(logged, len(game.offer_log)):
        ones += _offer_cells(_LOG_AT + k * (OFFER_SIZE + 1), game.offer_log[k], seat, n)
    out.put(ones, 1)


@functools.lru_cache(maxsize=1 << 14)
def _offer_cells(start: int, entry: tuple, seat: int, n: int) -> tuple[int, ...]:
    """The cells set by one offer (a ``pending_offer``, or an ``offer_log`` entry with its answer) from ``start``:
    the same few offers come up again and again, so they are remembered."""
    ones: list[int] = []
    _offer(ones, start, entry[:6], seat, n)
    if len(entry) > 6 and entry[6]:
        ones.append(start + OFFER_SIZE)
    return tuple(ones)


_RELATIVE = {n: [[(s - observer) % n for s in range(n)] for observer in range(n)]
             for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
"""``_RELATIVE[n][observer][seat]``: the seat's number relative to the observer."""
_ORDER = {n: [[(observer + r) % n for r in range(n)] for observer in range(n)] for n in _RELATIVE}
"""``_ORDER[n][observer]``: the seats in the order of their numbers relative to the observer."""
_PAD = {n: [0.0] * (MAX_PLAYERS - n) for n in _RELATIVE}
"""Zeros for the seats a table of ``n`` lacks, in each per-seat field."""
_SCORING = frozenset(SCORING)
_OWNER_ROWS = {n: [[_AT["owner"] + NUM_PLOTS * ((owner - observer) % n) for owner in range(n)]
                   + [_AT["owner"] + NUM_PLOTS * MAX_PLAYERS] for observer in range(n)] for n in _RELATIVE}
"""``_OWNER_ROWS[n][observer][owner]``: where the ``owner`` plane's row for that owner starts; the last entry,
which the engine's owner -1 indexes, is the row of unoccupied plots."""
_COIN_SUITS = [_AT["coin_suit"] + NUM_PLOTS * ROW_SUIT[plot // COLUMNS] + plot for plot in range(NUM_PLOTS)]
"""The coin-suit plane, the same in every game: each row's coins are of one suit (P6)."""
_IDENTITY = [[[(_AT["tile_suit"] + NUM_PLOTS * suit + piece, _AT["tile_rank"] + NUM_PLOTS * rank + piece)
               if piece < NUM_PLOTS else (_AT["coin_rank"] + NUM_PLOTS * rank + piece - NUM_PLOTS,)
               for rank in RANKS] for suit in range(NUM_SUITS)] for piece in range(NUM_PIECES)]
"""``_IDENTITY[piece][suit][rank]``: the indices set where a seat knows that piece to be that (suit, rank)."""
_FACE_UP = [_AT["tile_face_up"] + piece if piece < NUM_PLOTS else _AT["coin_face_up"] + piece - NUM_PLOTS
            for piece in range(NUM_PIECES)]
_ASSAYS = {n: [[[tuple(_AT["tile_assayed" if piece < NUM_PLOTS else "coin_assayed"]
                       + NUM_PLOTS * ((s - observer) % n) + piece % NUM_PLOTS for s in range(n) if bits >> s & 1)
                 for bits in range(1 << n)] for piece in range(NUM_PIECES)] for observer in range(n)]
           for n in _RELATIVE}
"""``_ASSAYS[n][observer][piece][bits]``: the indices set where the seats of the bit set ``bits`` assayed the piece."""
_SCALED = [units / HOLDING_SCALE for units in range(HOLDING_SCALE)]
_SEATS = {n: list(range(_AT["seats"], _AT["seats"] + n)) for n in _RELATIVE}
_PLOT_OF = [action % NUM_PLOTS for action in range(END_DEVELOPMENT)]
"""The plot a claim or Development action touches (their index formulas all end in ``+ p``, with blocks of 24)."""
_PLOT_CELLS = [np.array([SLICES[name].start + NUM_PLOTS * row + plot
                         for name in ("owner", "building", "level", "tile_face_up", "coin_face_up", "tile_suit",
                                      "tile_rank", "coin_rank", "tile_assayed", "coin_assayed")
                         for row in range(int(np.prod(SHAPES[name][:-1])))])
               for plot in range(NUM_PLOTS)]
"""Each plot's cells of the board's planes (all but the coin suit, which never changes)."""
_PER_SEAT = slice(SLICES["holdings"].start, SLICES["offers_made"].stop)
"""Holdings, markers, scores, market_used and offers_made: side by side in the layout, written as one row."""
assert [SLICES[name].start - _PER_SEAT.start for name in ("markers", "scores", "market_used", "offers_made")] \
    == [16, 20, 24, 28] and _PER_SEAT.stop - _PER_SEAT.start == 32  # as _fill_table writes them: 4 seats each
_ROUND_AT, _START_AT, _TO_PLAY_AT, _CLAIMS_AT, _WAREHOUSE_AT, _POWERED_AT, _MARKET_SUM_AT, _PENDING_AT, _LOG_AT = (
    _AT[name] for name in ("round", "start", "to_play", "claims_this_round", "warehouse", "powered", "market_sum",
                           "pending_offer", "offer_log"))
_PHASE_AT = {phase: _AT["phase"] + index for index, phase in enumerate(PHASES)}
_DICE = {faces: [_AT["dice"] + die * NUM_RANKS + face for die, face in enumerate(faces)]
         for faces in np.ndindex(*(NUM_RANKS,) * 4)}
"""The cells of each of the 6^4 production rolls."""
_ROUND_CELLS = np.r_[SLICES["dice"], SLICES["powered"], SLICES["offer_log"]]


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
