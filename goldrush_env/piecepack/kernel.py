"""Gold Rush's compiled observation and mask: the rules, the legal mask, every seat's observation and the global
state of one game, run by numba on a flat array of ints.

:class:`~goldrush_env.piecepack.engine.Game` is the reference, written to be read; the environments play this
compiled form (:class:`goldrush_env.piecepack.single.SingleGame`), so that a step, its mask and its observations
cost compiled calls rather than many small pieces of Python, and make the readable game only when it is read. Tests
play games through both and require the same state, mask, observations and global state at every step
(``tests/piecepack/test_piecepack_kernel.py``): the observations are the encoder's
(:mod:`goldrush_env.piecepack.encoder`) to the bit.

A game is one ``int32`` array laid out by :data:`FIELDS` (:func:`state_of` builds it from a ``Game``). Nothing
here draws a die: :func:`step` is handed the sum of a MARKET_ROLL's roll, and when an action ends a round it stops
once the new round's Mines are powered (A1) and returns 1; the caller hands it the production roll (A2), with
:func:`roll`, which runs the round on to its first decision. Compiled functions are cached on
disk, so only the first use on a machine pays for compilation.
"""

from __future__ import annotations

import numba
import numpy as np

from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.components import (
    ASSAY_COST,
    BUILD_COST,
    CLAIM_ROUNDS,
    ENERGY,
    FOOD,
    GOLD,
    GOLD_MINE,
    MARKERS,
    MARKET,
    MARKET_COST,
    MAX_LEVEL,
    MAX_OFFERS,
    MAX_PLAYERS,
    MINE,
    NUM_PIECES,
    NUM_PLOTS,
    NUM_ROUNDS,
    OPTIMIZE_COST,
    ORE,
    TRADE_ROUTE,
    TRADE_ROUTE_RATE,
    UPGRADE_COST,
    WAREHOUSE,
)
from goldrush_env.piecepack.encoder import (
    HOLDING_SCALE,
    MAX_LOGGED_OFFERS,
    MAX_MARKET_SUM,
    MIN_MARKET_SUM,
    NUM_RANKS,
    OBSERVATION_SIZE,
    OFFER_SIZE,
    PHASES,
    SCORE_SCALE,
    SLICES,
)
from goldrush_env.piecepack.engine import Game, Phase

FIELDS = (
    ("players", 1), ("round", 1), ("start", 1), ("phase", 1), ("current", 1), ("pos", 1), ("market_sum", 1),
    ("logged", 1), ("dice", 4), ("pending", 6), ("face_up", NUM_PIECES), ("owner", NUM_PLOTS),
    ("building", NUM_PLOTS), ("level", NUM_PLOTS), ("assayed", NUM_PIECES), ("suit", NUM_PIECES),
    ("rank", NUM_PIECES), ("holdings", 4 * MAX_PLAYERS), ("markers", MAX_PLAYERS), ("market_used", MAX_PLAYERS),
    ("offers_made", MAX_PLAYERS), ("warehouse", 2 * MAX_PLAYERS), ("powered", NUM_PLOTS),
    ("offer_log", 7 * MAX_LOGGED_OFFERS),
)
"""The state array's fields in order, with their lengths. ``phase`` is the place of the :class:`Phase` in
:data:`PHASES`; ``current`` is -1 once the game is over; ``pos`` is the engine's place in the seat order;
``market_sum``, ``dice`` and ``pending`` are -1 (every entry) where the game's are ``None``;
``warehouse[2 seat + resource]`` is -1 (not asked), 0 (declined) or 1 (protected); ``holdings[4 seat + resource]``;
``suit`` and ``rank`` are each piece's (the truth: the state is the engine's, never a seat's); ``offer_log`` holds
``logged`` entries of 7 (offerer, target, X, a, Y, b, accepted), the rest zero."""
_AT = dict(zip([name for name, _ in FIELDS], np.cumsum([0] + [size for _, size in FIELDS[:-1]]).tolist()))
STATE_LENGTH = sum(size for _, size in FIELDS)

(_N, _ROUND, _START, _PHASE, _CUR, _POS, _MSUM, _LOGGED, _DICE, _PEND, _FACE_UP, _OWNER, _BUILDING, _LEVEL,
 _ASSAYED, _SUIT, _RANK, _HOLD, _MARKERS, _MUSED, _OFFERS, _WARE, _POWERED, _LOG) = (_AT[name] for name, _ in FIELDS)

(_WAREHOUSE_FOOD, _WAREHOUSE_ENERGY, _FREE_TRADE_TURN, _OFFER_RESPONSE, _MARKET_SELL, _CLAIM, _DEVELOPMENT_TURN,
 _GAME_OVER) = (PHASES.index(phase) for phase in (Phase.WAREHOUSE_FOOD, Phase.WAREHOUSE_ENERGY,
                                                  Phase.FREE_TRADE_TURN, Phase.OFFER_RESPONSE, Phase.MARKET_SELL,
                                                  Phase.CLAIM, Phase.DEVELOPMENT_TURN, Phase.GAME_OVER))
_CLAIM_ROUNDS = np.array([CLAIM_ROUNDS.get(n, 0) for n in range(MAX_PLAYERS + 1)], dtype=np.int64)
_BUILD_COST = np.array(BUILD_COST, dtype=np.int64)
_ASSAY_COST, _OPTIMIZE_COST, _UPGRADE_COST, _MARKET_COST = (np.array(cost, dtype=np.int64) for cost in
                                                           (ASSAY_COST, OPTIMIZE_COST, UPGRADE_COST, MARKET_COST))
_SCORING_BUILDING = np.array([b in (TRADE_ROUTE, MARKET, WAREHOUSE) for b in range(7)], dtype=np.bool_)
_O = {name: SLICES[name].start for name in SLICES}  # where each slice of an observation starts
(_O_PLAYERS, _O_ROUND, _O_PHASE, _O_TO_PLAY, _O_START, _O_CLAIMS, _O_OWNER, _O_BUILDING, _O_LEVEL, _O_COIN_SUIT,
 _O_TILE_UP, _O_COIN_UP, _O_TILE_SUIT, _O_TILE_RANK, _O_COIN_RANK, _O_TILE_ASSAYED, _O_COIN_ASSAYED, _O_SEATS,
 _O_HOLDINGS, _O_MARKERS, _O_SCORES, _O_MUSED, _O_OFFERS, _O_DICE, _O_POWERED, _O_WARE, _O_MSUM, _O_PENDING,
 _O_LOG) = (_O[name] for name in ("players", "round", "phase", "to_play", "start", "claims_this_round", "owner",
                                  "building", "level", "coin_suit", "tile_face_up", "coin_face_up", "tile_suit",
                                  "tile_rank", "coin_rank", "tile_assayed", "coin_assayed", "seats", "holdings",
                                  "markers", "scores", "market_used", "offers_made", "dice", "powered", "warehouse",
                                  "market_sum", "pending_offer", "offer_log"))


def state_of(game: Game) -> np.ndarray:
    """The state array of ``game`` as it stands (at any decision point, or over)."""
    s = np.zeros(STATE_LENGTH, dtype=np.int32)
    n = game.num_players
    s[_N], s[_ROUND], s[_START], s[_PHASE] = n, game.round, game.start, PHASES.index(game.phase)
    s[_CUR] = -1 if game.current_player is None else game.current_player
    s[_POS] = game._pos
    s[_MSUM] = -1 if game.market_sum is None else game.market_sum
    s[_DICE:_DICE + 4] = -1
    if game.dice is not None:
        s[_DICE:_DICE + 4] = game.dice
    s[_PEND:_PEND + 6] = -1
    if game.pending_offer is not None:
        s[_PEND:_PEND + 6] = game.pending_offer
    s[_FACE_UP:_FACE_UP + NUM_PIECES] = game.face_up
    s[_OWNER:_OWNER + NUM_PLOTS] = game.owner
    s[_BUILDING:_BUILDING + NUM_PLOTS] = game.building
    s[_LEVEL:_LEVEL + NUM_PLOTS] = game.level
    s[_ASSAYED:_ASSAYED + NUM_PIECES] = game.assayed
    pieces = [game.piece(piece) for piece in range(NUM_PIECES)]
    s[_SUIT:_SUIT + NUM_PIECES] = [suit for suit, _ in pieces]
    s[_RANK:_RANK + NUM_PIECES] = [rank for _, rank in pieces]
    s[_HOLD:_HOLD + 4 * n] = [units for holding in game.holdings for units in holding]
    s[_MARKERS:_MARKERS + n] = game.markers
    s[_MUSED:_MUSED + n] = game.market_used
    s[_OFFERS:_OFFERS + n] = game.offers_made
    s[_WARE:_WARE + 2 * MAX_PLAYERS] = -1
    for seat, answers in enumerate(game.warehouse):
        for resource, protect in enumerate(answers):
            if protect is not None:
                s[_WARE + 2 * seat + resource] = protect
    for plot in game.powered:
        s[_POWERED + plot] = 1
    s[_LOGGED] = len(game.offer_log)
    for k, entry in enumerate(game.offer_log):
        s[_LOG + 7 * k:_LOG + 7 * k + 7] = entry
    return s


# --- the rules ---------------------------------------------------------------------------------------------------

@numba.njit(cache=True, inline="always")
def _owns(s, seat, building):
    for plot in range(NUM_PLOTS):
        if s[_OWNER + plot] == seat and s[_BUILDING + plot] == building:
            return True
    return False


@numba.njit(cache=True, inline="always")
def _affords(s, seat, cost):
    h = _HOLD + 4 * seat
    return s[h] >= cost[0] and s[h + 1] >= cost[1] and s[h + 2] >= cost[2] and s[h + 3] >= cost[3]


@numba.njit(cache=True, inline="always")
def _pay(s, seat, cost):
    for resource in range(4):
        s[_HOLD + 4 * seat + resource] -= cost[resource]


@numba.njit(cache=True, inline="always")
def _ask(s, phase, pos):
    s[_PHASE], s[_POS] = phase, pos
    s[_CUR] = (s[_START] + pos) % s[_N]


@numba.njit(cache=True, inline="always")
def _value(s, piece, in_suit):
    """val(x, S) of §2.3 (``engine.piece_value``)."""
    suit, rank = s[_SUIT + piece], s[_RANK + piece]
    if not s[_FACE_UP + piece]:
        return 1 if piece < NUM_PLOTS or suit == in_suit else 0
    if rank == 0:
        return 1
    return rank if suit == in_suit else 0


@numba.njit(cache=True)
def _ask_development(s, pos):
    """The next Development turn from ``pos``, or the round's end: 1 if a production roll is needed next."""
    n = s[_N]
    if pos < n:
        _ask(s, _DEVELOPMENT_TURN, pos)
        return 0
    if s[_ROUND] == NUM_ROUNDS:
        s[_PHASE], s[_CUR] = _GAME_OVER, -1
        return 0
    s[_START] = (s[_START] - 1) % n
    s[_ROUND] += 1
    for seat in range(MAX_PLAYERS):
        s[_MUSED + seat] = 0
        s[_OFFERS + seat] = 0
        s[_WARE + 2 * seat] = -1
        s[_WARE + 2 * seat + 1] = -1
    s[_MSUM] = -1
    s[_LOGGED] = 0
    s[_DICE:_DICE + 4] = -1
    s[_PEND:_PEND + 6] = -1
    s[_POWERED:_POWERED + NUM_PLOTS] = 0
    s[_LOG:_LOG + 7 * MAX_LOGGED_OFFERS] = 0
    # A1: Gold Mines before Mines, each in plot order, while the owner has Energy (P16).
    for p in range(n):
        seat = (s[_START] + p) % n
        for kind in (GOLD_MINE, MINE):
            for plot in range(NUM_PLOTS):
                if s[_OWNER + plot] == seat and s[_BUILDING + plot] == kind and s[_HOLD + 4 * seat + ENERGY] >= 1:
                    s[_HOLD + 4 * seat + ENERGY] -= 1
                    s[_POWERED + plot] = 1
    return 1


@numba.njit(cache=True)
def _ask_claim(s, pos):
    n = s[_N]
    open_plot = False
    for plot in range(NUM_PLOTS):
        if s[_OWNER + plot] < 0:
            open_plot = True
    while pos < n:
        if s[_MARKERS + (s[_START] + pos) % n] > 0 and open_plot:
            _ask(s, _CLAIM, pos)
            return 0
        pos += 1  # P28
    return _ask_development(s, 0)


@numba.njit(cache=True)
def _ask_free_trade(s, pos):
    if pos < s[_N]:
        _ask(s, _FREE_TRADE_TURN, pos)
        return 0
    if s[_ROUND] <= _CLAIM_ROUNDS[s[_N]]:
        return _ask_claim(s, 0)
    return _ask_development(s, 0)


@numba.njit(cache=True)
def _spoil_and_produce(s):
    n = s[_N]
    for pos in range(n):  # A4 (P18)
        seat = (s[_START] + pos) % n
        for resource in (FOOD, ENERGY):
            at = _HOLD + 4 * seat + resource
            if s[_DICE + resource] == 0 and s[_WARE + 2 * seat + resource] != 1 and s[at] > 1:
                s[at] = 1
    for plot in range(NUM_PLOTS):  # A5, all at once
        building = s[_BUILDING + plot]
        if building < 0 or building > GOLD_MINE:
            continue
        roll = s[_DICE + building]
        if building <= ENERGY and roll == 0 or building >= MINE and not s[_POWERED + plot]:
            continue
        units = 0
        for piece in (plot, NUM_PLOTS + plot):
            value = _value(s, piece, building)
            if 0 < value and roll <= value + s[_LEVEL + plot]:
                units += 1
        s[_HOLD + 4 * s[_OWNER + plot] + building] += units


@numba.njit(cache=True)
def _ask_warehouse(s, pos, resource):
    """A3: the next Warehouse question from seat-order position ``pos``, or spoilage, production and Free Trade."""
    n = s[_N]
    food_spoils, energy_spoils = s[_DICE + FOOD] == 0, s[_DICE + ENERGY] == 0
    while pos < n:
        seat = (s[_START] + pos) % n
        if (food_spoils or energy_spoils) and _owns(s, seat, WAREHOUSE):
            energy = s[_HOLD + 4 * seat + ENERGY]
            if resource == FOOD and food_spoils and energy >= 1:
                _ask(s, _WAREHOUSE_FOOD, pos)
                return
            if energy_spoils and energy >= 1:
                _ask(s, _WAREHOUSE_ENERGY, pos)
                return
        pos, resource = pos + 1, FOOD
    _spoil_and_produce(s)
    _ask_free_trade(s, 0)  # never needs a roll: the round has just begun


@numba.njit(cache=True)
def roll(s, moon, sun, arms, crown):
    """Hand a round its production roll (A2), once :func:`step` has returned 1, and run it on to its first
    decision."""
    s[_DICE], s[_DICE + 1], s[_DICE + 2], s[_DICE + 3] = moon, sun, arms, crown
    _ask_warehouse(s, 0, FOOD)


@numba.njit(cache=True)
def step(s, action, market_sum):
    """Take ``action``, legal now (the caller checks it against :func:`legal_mask`), for the seat to act.
    ``market_sum``: the sum of the Market roll if ``action`` is MARKET_ROLL. Returns 1 if the action ended a
    round that the game goes on from (the next round's production roll is due: :func:`roll`), else 0."""
    seat, phase, n = s[_CUR], s[_PHASE], s[_N]
    h = _HOLD + 4 * seat
    if phase == _WAREHOUSE_FOOD or phase == _WAREHOUSE_ENERGY:
        resource = FOOD if phase == _WAREHOUSE_FOOD else ENERGY
        protect = action == A.WAREHOUSE_PROTECT
        if protect:
            s[h + ENERGY] -= 1
        s[_WARE + 2 * seat + resource] = 1 if protect else 0
        if resource == FOOD:
            _ask_warehouse(s, s[_POS], ENERGY)
        else:
            _ask_warehouse(s, s[_POS] + 1, FOOD)
        return 0
    if phase == _CLAIM:
        s[_OWNER + action] = seat
        s[_MARKERS + seat] -= 1
        return _ask_claim(s, s[_POS] + 1)
    if phase == _DEVELOPMENT_TURN:
        if action == A.END_DEVELOPMENT:
            return _ask_development(s, s[_POS] + 1)
        plot = action % NUM_PLOTS
        if action < A.OPTIMIZE_TILE:  # ASSAY
            _pay(s, seat, _ASSAY_COST)
            s[_ASSAYED + action - A.ASSAY_TILE] |= 1 << seat
        elif action < A.BUILD:  # OPTIMIZE
            _pay(s, seat, _OPTIMIZE_COST)
            s[_FACE_UP + action - A.OPTIMIZE_TILE] = 1
        elif action < A.UPGRADE:
            building = (action - A.BUILD) // NUM_PLOTS
            _pay(s, seat, _BUILD_COST[building])
            s[_BUILDING + plot], s[_LEVEL + plot] = building, 0
        else:
            _pay(s, seat, _UPGRADE_COST)
            s[_LEVEL + plot] += 1
        return 0
    if phase == _OFFER_RESPONSE:
        offerer, target, give, a, take, b = (s[_PEND], s[_PEND + 1], s[_PEND + 2], s[_PEND + 3], s[_PEND + 4],
                                             s[_PEND + 5])
        accepted = action == A.ACCEPT
        if accepted:
            s[_HOLD + 4 * offerer + give] -= a
            s[_HOLD + 4 * target + give] += a
            s[_HOLD + 4 * target + take] -= b
            s[_HOLD + 4 * offerer + take] += b
        at = _LOG + 7 * s[_LOGGED]
        for k in range(6):
            s[at + k] = s[_PEND + k]
        s[at + 6] = 1 if accepted else 0
        s[_LOGGED] += 1
        s[_PEND:_PEND + 6] = -1
        s[_PHASE], s[_CUR] = _FREE_TRADE_TURN, offerer
        return 0
    if phase == _MARKET_SELL:
        k = action - A.MARKET_SELL
        s[h + FOOD] -= k
        s[h + GOLD] += k
        s[_PHASE] = _FREE_TRADE_TURN
        return 0
    if action == A.END_FREE_TRADE:
        return _ask_free_trade(s, s[_POS] + 1)
    if action == A.MARKET_ROLL:
        _pay(s, seat, _MARKET_COST)
        s[_MUSED + seat] = 1
        s[_MSUM] = market_sum
        s[_PHASE] = _MARKET_SELL
        return 0
    if action >= A.TRADE_ROUTE:
        give, y = divmod(action - A.TRADE_ROUTE, 3)
        s[h + give] -= TRADE_ROUTE_RATE
        s[h + (y if y < give else y + 1)] += 1
        return 0
    d, rest = divmod(action - A.OFFER, 48)  # OFFER
    give, rest = divmod(rest, 12)
    y, rest = divmod(rest, 4)
    a, b = divmod(rest, 2)
    target = (seat + d + 1) % n
    s[_OFFERS + seat] += 1
    s[_PEND], s[_PEND + 1], s[_PEND + 2], s[_PEND + 3] = seat, target, give, a + 1
    s[_PEND + 4], s[_PEND + 5] = (y if y < give else y + 1), b + 1
    s[_PHASE], s[_CUR] = _OFFER_RESPONSE, target
    return 0


@numba.njit(cache=True)
def legal_mask(s, out):
    """Write into ``out`` (bool, 488) the actions the seat to act may take now (all False once over)."""
    out[:] = False
    phase, seat, n = s[_PHASE], s[_CUR], s[_N]
    if phase == _GAME_OVER:
        return
    h = _HOLD + 4 * seat
    if phase == _WAREHOUSE_FOOD or phase == _WAREHOUSE_ENERGY:
        out[A.WAREHOUSE_PROTECT] = out[A.WAREHOUSE_DECLINE] = True
    elif phase == _CLAIM:
        for plot in range(NUM_PLOTS):
            out[plot] = s[_OWNER + plot] < 0
    elif phase == _OFFER_RESPONSE:
        out[A.ACCEPT] = (s[_HOLD + 4 * s[_PEND] + s[_PEND + 2]] >= s[_PEND + 3]
                         and s[h + s[_PEND + 4]] >= s[_PEND + 5])
        out[A.DECLINE] = True
    elif phase == _MARKET_SELL:
        for k in range(min(s[_MSUM], s[h + FOOD]) + 1):
            out[A.MARKET_SELL + k] = True
    elif phase == _DEVELOPMENT_TURN:
        out[A.END_DEVELOPMENT] = True
        bit = 1 << seat
        assay, optimize, upgrade = (_affords(s, seat, _ASSAY_COST), _affords(s, seat, _OPTIMIZE_COST),
                                    _affords(s, seat, _UPGRADE_COST))
        for plot in range(NUM_PLOTS):
            owner = s[_OWNER + plot]
            if assay and (owner == -1 or owner == seat):
                for piece in (plot, NUM_PLOTS + plot):
                    if not s[_FACE_UP + piece] and not s[_ASSAYED + piece] & bit:
                        out[A.ASSAY_TILE + piece] = True
            if owner != seat:
                continue
            if optimize:
                for piece in (plot, NUM_PLOTS + plot):
                    if not s[_FACE_UP + piece]:
                        out[A.OPTIMIZE_TILE + piece] = True
            building = s[_BUILDING + plot]
            for kind in range(7):
                if kind != building and _affords(s, seat, _BUILD_COST[kind]):
                    out[A.BUILD + NUM_PLOTS * kind + plot] = True
            if upgrade and 0 <= building <= GOLD_MINE and s[_LEVEL + plot] < MAX_LEVEL:
                out[A.UPGRADE + plot] = True
    else:  # FREE_TRADE_TURN
        out[A.END_FREE_TRADE] = True
        if _owns(s, seat, MARKET) and not s[_MUSED + seat] and _affords(s, seat, _MARKET_COST):
            out[A.MARKET_ROLL] = True
        if _owns(s, seat, TRADE_ROUTE):
            for give in range(4):
                if s[h + give] >= TRADE_ROUTE_RATE:
                    for y in range(3):
                        out[A.TRADE_ROUTE + 3 * give + y] = True
        if s[_OFFERS + seat] < MAX_OFFERS:
            for d in range(1, n):
                t = _HOLD + 4 * ((seat + d) % n)
                for give in range(4):
                    for take in range(4):
                        if take == give:
                            continue
                        y = take if take < give else take - 1
                        for a in range(min(s[h + give], 2)):
                            for b in range(min(s[t + take], 2)):
                                out[A.OFFER + 48 * (d - 1) + 12 * give + 4 * y + 2 * a + b] = True


@numba.njit(cache=True)
def scores(s, out):
    """Write into ``out`` every seat's score now (§5): Ore + 3 Gold + 8 per Trade Route, Market and Warehouse."""
    for seat in range(s[_N]):
        out[seat] = s[_HOLD + 4 * seat + ORE] + 3 * s[_HOLD + 4 * seat + GOLD]
    for plot in range(NUM_PLOTS):
        building = s[_BUILDING + plot]
        if building >= 0 and _SCORING_BUILDING[building]:
            out[s[_OWNER + plot]] += 8


# --- what a seat sees ----------------------------------------------------------------------------------------------

@numba.njit(cache=True, inline="always")
def _offer(out, at, s, entry, shift, n):
    """One offer's one-hot fields (``encoder.OFFER_FIELDS``) from ``at``: the six ints of ``s`` from ``entry``."""
    out[at + (s[entry] - shift) % n] = 1
    out[at + 4 + (s[entry + 1] - shift) % n] = 1
    out[at + 8 + s[entry + 2]] = 1
    out[at + 12 + s[entry + 3] - 1] = 1
    out[at + 14 + s[entry + 4]] = 1
    out[at + 18 + s[entry + 5] - 1] = 1


@numba.njit(cache=True)
def observe(s, seat, out):
    """Write into ``out`` (float32, 1443, zero there) ``seat``'s observation, ``encoder.observation_of``'s; with
    ``seat`` -1, the global state (``encoder.state_vector``: every piece, absolute seats)."""
    n = s[_N]
    shift = 0 if seat < 0 else seat
    bit = 0 if seat < 0 else 1 << seat
    out[_O_PLAYERS + n - 3] = 1
    out[_O_ROUND + s[_ROUND] - 1] = 1
    out[_O_PHASE + s[_PHASE]] = 1
    if s[_CUR] >= 0:
        out[_O_TO_PLAY + (s[_CUR] - shift) % n] = 1
    out[_O_START + (s[_START] - shift) % n] = 1
    if s[_ROUND] <= _CLAIM_ROUNDS[n]:
        out[_O_CLAIMS] = 1
    points = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for plot in range(NUM_PLOTS):
        owner, building, level = s[_OWNER + plot], s[_BUILDING + plot], s[_LEVEL + plot]
        out[_O_OWNER + NUM_PLOTS * (MAX_PLAYERS if owner < 0 else (owner - shift) % n) + plot] = 1
        if building >= 0:
            out[_O_BUILDING + NUM_PLOTS * building + plot] = 1
            if _SCORING_BUILDING[building]:
                points[owner] += 8
        if level:
            out[_O_LEVEL + plot] = level / MAX_LEVEL
        out[_O_COIN_SUIT + NUM_PLOTS * s[_SUIT + NUM_PLOTS + plot] + plot] = 1
        for piece in (plot, NUM_PLOTS + plot):
            face_up, assayed = s[_FACE_UP + piece], s[_ASSAYED + piece]
            if face_up or seat < 0 or assayed & bit:
                rank = s[_RANK + piece]
                if piece < NUM_PLOTS:
                    out[_O_TILE_SUIT + NUM_PLOTS * s[_SUIT + piece] + plot] = 1
                    out[_O_TILE_RANK + NUM_PLOTS * rank + plot] = 1
                else:
                    out[_O_COIN_RANK + NUM_PLOTS * rank + plot] = 1
            plane = _O_TILE_ASSAYED if piece < NUM_PLOTS else _O_COIN_ASSAYED
            if face_up:
                out[(_O_TILE_UP if piece < NUM_PLOTS else _O_COIN_UP) + plot] = 1
            for other in range(n):
                if assayed >> other & 1:
                    out[plane + NUM_PLOTS * ((other - shift) % n) + plot] = 1
    for other in range(n):
        r = (other - shift) % n
        h = _HOLD + 4 * other
        out[_O_SEATS + r] = 1
        for resource in range(4):
            units = s[h + resource]
            out[_O_HOLDINGS + 4 * r + resource] = units / HOLDING_SCALE if units < HOLDING_SCALE else 1.0
        out[_O_MARKERS + r] = s[_MARKERS + other] / MARKERS
        p = points[other] + s[h + ORE] + 3 * s[h + GOLD]
        out[_O_SCORES + r] = p / SCORE_SCALE if p < SCORE_SCALE else 1.0
        out[_O_MUSED + r] = s[_MUSED + other]
        out[_O_OFFERS + r] = s[_OFFERS + other] / MAX_OFFERS
        for resource in range(2):
            answer = s[_WARE + 2 * other + resource]
            if answer >= 0:
                out[_O_WARE + 4 * r + 2 * resource + (0 if answer else 1)] = 1
    if s[_DICE] >= 0:
        for die in range(4):
            out[_O_DICE + NUM_RANKS * die + s[_DICE + die]] = 1
    for plot in range(NUM_PLOTS):
        if s[_POWERED + plot]:
            out[_O_POWERED + plot] = 1
    if s[_MSUM] >= 0:
        out[_O_MSUM + s[_MSUM] - MIN_MARKET_SUM] = 1
    if s[_PEND] >= 0:
        _offer(out, _O_PENDING, s, _PEND, shift, n)
    for k in range(s[_LOGGED]):
        row = _O_LOG + (OFFER_SIZE + 1) * k
        _offer(out, row, s, _LOG + 7 * k, shift, n)
        if s[_LOG + 7 * k + 6]:
            out[row + OFFER_SIZE] = 1


def observation(s: np.ndarray, seat: int) -> np.ndarray:
    """A new observation vector of ``seat`` (-1: the global state) from the state array ``s``."""
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    observe(s, seat, out)
    return out


CURRENT = _CUR
"""Where the state array holds the seat to act (-1 once the game is over)."""


def holdings(s: np.ndarray, resource: int) -> list[int]:
    """Every seat's units of ``resource`` in the state array ``s``."""
    return [int(s[_HOLD + 4 * seat + resource]) for seat in range(s[_N])]


def exchange(s: np.ndarray, a: int, b: int) -> None:
    """Swap the identities of pieces ``a`` and ``b`` in the state array ``s`` (checked by the caller)."""
    for field in (_SUIT, _RANK):
        s[field + a], s[field + b] = s[field + b], s[field + a]


assert MAX_MARKET_SUM - MIN_MARKET_SUM + 1 == SLICES["market_sum"].stop - SLICES["market_sum"].start
assert OFFER_SIZE == 20 and MAX_PLAYERS == 4  # _offer's field offsets: 4 + 4 + 4 + 2 + 4 + 2
