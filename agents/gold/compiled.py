"""The compiled forms of ``greedy`` and ``expert``, and the kernel's step compiled with them.

Gold's compiled game (:mod:`goldrush_env.gold.kernel`) plays the seats a caller does not play with a *choose*
function; :func:`choose` is this package's: the kernel's random player, :func:`_greedy` (:data:`GREEDY`) and
:func:`_expert` (:data:`EXPERT`), which make the flips :class:`goldrush_agents.gold.greedy.GreedyAgent` and
:class:`goldrush_agents.gold.expert.ExpertAgent` make (read those modules for their rules), their random choices
drawn from each game's stream. :data:`ENGINE` is the kernel's step compiled with them, which the environments take
from the players (:class:`goldrush_env.gold.vector.KernelPlayer`'s ``engine``). ``tests/gold/test_batched_agents.py``
plays each in lockstep with its Python player, flip for flip.

Each reads ``players.worth[seat, t, a, b]``, :meth:`goldrush_agents.gold.knowledge.Knowledge.pair_value` of cards
``a`` and ``b`` for ``seat`` when gold up to ``t`` is threatened (``goldrush_agents.gold.batched.worth_tables``), and
expert its constants from ``players.params[EXPERT]`` (:data:`EXPERT_PARAMS`).
"""

from __future__ import annotations

from types import SimpleNamespace

import numba
import numpy as np

from goldrush_env.gold.cards import DYNAMITE, IS_GOLD, IS_MINER, NUM_CARD_TYPES, NUM_POSITIONS, VALUE
from goldrush_env.gold.kernel import _PAIR_FIRST_LEAVES, RANDOM, advance_with, choose_all_with, choose_random
from goldrush_env.streams import below as _below

GREEDY, EXPERT = 1, 2
"""The programs of :func:`choose` beside the kernel's :data:`~goldrush_env.gold.kernel.RANDOM`."""
EXPERT_PARAMS = ("opponent_weight", "own_chance_weight", "tie", "compensated_sum")
"""The constants ``params[EXPERT]`` holds, in this order (:func:`goldrush_agents.gold.batched.expert_params` takes
them from :mod:`goldrush_agents.gold.expert`): how much the next seat's strike counts against the seat, the share
of its own seat's strike that counts for it, how near the best a flip must score to be among the best, and whether
Python's ``sum()`` compensates its rounding (Neumaier's sum, from Python 3.12), so the expectations add as the
Python player's do, to the last bit."""
_X_WEIGHT, _X_OWN, _X_TIE, _X_COMPENSATED = range(len(EXPERT_PARAMS))

_IS_GOLD = np.array(IS_GOLD, dtype=np.bool_)
_IS_MINER = np.array(IS_MINER, dtype=np.bool_)
_VALUE = np.array(VALUE, dtype=np.int64)
_KNOWN_AT, _KNOWN_CARD, _UNKNOWN_AT, _PICKS = range(4)  # the rows of the scratch space


@numba.njit(cache=True)
def _scan(game, seat, scratch):
    """The legal positions split as ``Knowledge`` splits them for ``seat``: remembered (position and card, in
    position order) and unknown. Returns their counts."""
    k, u = 0, 0
    for p in range(NUM_POSITIONS):
        card = game.table[p]
        if card < 0 or p == game.face_up:
            continue
        if game.memo[seat, p] >= 0:
            scratch[_KNOWN_AT, k] = p
            scratch[_KNOWN_CARD, k] = card
            k += 1
        else:
            scratch[_UNKNOWN_AT, u] = p
            u += 1
    return k, u


@numba.njit(cache=True)
def _rush_choice(game, scratch, k, u):
    """The scripted players' rush: the most valuable remembered gold (the highest position among equals), then
    a card it cannot place, then anything."""
    known_at, known_card = scratch[_KNOWN_AT], scratch[_KNOWN_CARD]
    best, choice = -1, -1
    for i in range(k):
        card = known_card[i]
        if _IS_GOLD[card] and _VALUE[card] * 100 + known_at[i] > best:
            best, choice = _VALUE[card] * 100 + known_at[i], known_at[i]
    if choice >= 0:
        return choice
    if u > 0:
        return scratch[_UNKNOWN_AT, _below(game.rng, 0, u)]
    return known_at[_below(game.rng, 0, k)]


@numba.njit(cache=True)
def _threat(card_owner, seat, known_card, k):
    """The strongest remembered miner that does not work for ``seat`` (0: none): gold up to it is threatened."""
    t = 0
    for i in range(k):
        card = known_card[i]
        if _IS_MINER[card] and card_owner[card] != seat and _VALUE[card] > t:
            t = _VALUE[card]
    return t


@numba.njit(cache=True)
def _greedy(game, consts, seat, worth, scratch):
    """``GreedyAgent``'s flip for ``seat``; ``worth[seat, t, a, b]`` is its ``pair_value`` when gold up to ``t`` is
    threatened."""
    k, u = _scan(game, seat, scratch)
    if game.gold_rush:
        return _rush_choice(game, scratch, k, u)
    known_at, known_card, unknown_at, picks = scratch[_KNOWN_AT], scratch[_KNOWN_CARD], scratch[_UNKNOWN_AT], \
        scratch[_PICKS]
    card_owner = consts.card_owner
    t = _threat(card_owner, seat, known_card, k)
    if game.face_up < 0:
        best, choice = 0.0, -1
        for i in range(k):
            for j in range(i + 1, k):
                value = worth[seat, t, known_card[i], known_card[j]]
                if value > best:
                    best, choice = value, known_at[i]
        if choice >= 0:
            return choice
        if u > 0:
            return unknown_at[_below(game.rng, 0, u)]
        return known_at[_below(game.rng, 0, k)]
    up = game.table[game.face_up]
    best = 0.0
    for i in range(k):
        value = worth[seat, t, up, known_card[i]]
        if value > best:
            best = value
    if best > 0:
        count = 0
        for i in range(k):
            if worth[seat, t, up, known_card[i]] == best:
                picks[count] = known_at[i]
                count += 1
        return picks[_below(game.rng, 0, count)]
    risky = up == DYNAMITE or (_IS_MINER[up] and card_owner[up] >= 0 and card_owner[up] != seat)
    safe = 0
    for i in range(k):
        if worth[seat, t, up, known_card[i]] == 0.0:
            picks[safe] = known_at[i]
            safe += 1
    if u > 0 and not (risky and safe > 0):
        return unknown_at[_below(game.rng, 0, u)]
    if safe > 0:
        return picks[_below(game.rng, 0, safe)]
    top, choice = -1e18, -1
    for i in range(k):  # max((value, position)): the best worth, the highest position among equals
        value = worth[seat, t, up, known_card[i]]
        if value >= top:
            top, choice = value, known_at[i]
    return choice


# Expert's two StrikeOutlooks in one mask of the known cards: golds by value (bit v - 1), the miners the next seat
# can use (theirs: bit v + 2) and those of the seat itself (mine: bit v + 6). _STRIKE[golds | miners << 4]: the
# best gold worth no more than the strongest miner (0: none). _STAYS[a, b]: all bits if a stays after b, else none
# (read off the rules' pair table: expert's own _stays says the same).
_STAYS = np.where(_PAIR_FIRST_LEAVES.reshape(NUM_CARD_TYPES, NUM_CARD_TYPES), 0, -1).astype(np.int64)


def _strike(index: int) -> int:
    golds, miners = index & 0xF, index >> 4
    strongest = max((m for m in range(2, 6) if miners >> (m - 2) & 1), default=0)
    return max((v for v in range(1, min(strongest, 4) + 1) if golds >> (v - 1) & 1), default=0)


_STRIKE = np.array([_strike(index) for index in range(256)], dtype=np.int64)
_HELD, _SLOT, _ADD, _LAST, _COUNT = range(5)  # the rows of _expert's cards array


@numba.njit(cache=True, inline="always")
def _turn_value(pair_value, a, a_known, b, b_known, known, cards, weight, own):
    """``ExpertAgent.turn_value`` of cards ``a`` and ``b`` (``*_known``: its position is among the known cards,
    which it leaves for the turn); ``known``: the StrikeOutlooks' mask of the known cards, ``pair_value``:
    ``worth[seat, t]``."""
    if a_known:
        known &= ~cards[_LAST, a]
    if b_known:
        known &= ~cards[_LAST, b]
    known |= cards[_ADD, a] & _STAYS[a, b]
    known |= cards[_ADD, b] & _STAYS[b, a]
    theirs = _STRIKE[known & 0xFF]
    mine = _STRIKE[(known & 0xF) | ((known >> 4) & 0xF0)]
    return pair_value[a, b] - weight * theirs + own * mine


@numba.njit(cache=True, inline="always")
def _add(total, lost, x, first, compensated):
    """One more term of Python's ``sum()`` of floats (from 0): plain, or compensated as CPython 3.12 on does.
    Returns the running total and the rounding lost so far."""
    if first:
        return 0.0 + x, 0.0
    t = total + x
    if compensated:
        if abs(total) >= abs(x):
            lost += (total - t) + x
        else:
            lost += (x - t) + total
    return t, lost


@numba.njit(cache=True, inline="always")
def _sum(total, lost):
    if lost != 0.0 and np.isfinite(lost):
        return total + lost
    return total


@numba.njit(cache=True)
def _expectation(pair_value, a, a_known, odds, unseen, kinds, known, cards, weight, own, compensated):
    """``sum(p * turn_value(a, ..., card, None) for card, p in enumerate(odds) if p)``: ``a`` with an unknown
    card (``unseen[:kinds]``: the cards with odds, in order)."""
    total, lost = 0.0, 0.0
    for i in range(kinds):
        card = unseen[i]
        x = odds[card] * _turn_value(pair_value, a, a_known, card, False, known, cards, weight, own)
        total, lost = _add(total, lost, x, i == 0, compensated)
    return _sum(total, lost)


@numba.njit(cache=True)
def _expert(game, consts, seat, players, scratch):
    """``ExpertAgent``'s flip for ``seat``, its sums added in its order and its ties drawn from the game's stream;
    ``worth[seat, t, a, b]`` is its ``pair_value`` (which asks only whether gold up to ``t`` is threatened: the
    positions it leaves out hold the pair, no miner)."""
    k, u = _scan(game, seat, scratch)
    if game.gold_rush:
        return _rush_choice(game, scratch, k, u)
    known_at, known_card, unknown_at, picks = scratch[_KNOWN_AT], scratch[_KNOWN_CARD], scratch[_UNKNOWN_AT], \
        scratch[_PICKS]
    params = players.params[EXPERT]
    weight, own, tie = params[_X_WEIGHT], params[_X_OWN], params[_X_TIE]
    compensated = params[_X_COMPENSATED] != 0.0
    card_owner = consts.card_owner
    pair_value = players.worth[seat, _threat(card_owner, seat, known_card, k)]
    following = (seat + 1) % consts.num_players
    # Per card id: how many are known, its bit's index in the mask (-1: none) and the bit, the bit it takes away
    # when it leaves as the last known of its value (two of one value never leave together: two golds, or two
    # miners of one strength, both stay); and per bit index, how many known cards have it.
    cards = np.zeros((5, NUM_CARD_TYPES), dtype=np.int64)
    unseen = np.empty(NUM_CARD_TYPES, dtype=np.int64)  # the cards an unknown position may hold, in order
    odds = np.zeros(NUM_CARD_TYPES)
    value = np.zeros(NUM_CARD_TYPES)  # the score of flipping a known card, by id
    for card in range(NUM_CARD_TYPES):
        v, slot = _VALUE[card], -1
        if _IS_GOLD[card]:
            slot = v - 1
        elif _IS_MINER[card] and (card_owner[card] == following or card_owner[card] == -1):
            slot = v + 2
        elif _IS_MINER[card] and card_owner[card] == seat:
            slot = v + 6
        cards[_SLOT, card] = slot
        cards[_ADD, card] = 1 << slot if slot >= 0 else 0
    known = 0
    for i in range(k):
        card = known_card[i]
        cards[_HELD, card] += 1
        if cards[_SLOT, card] >= 0:
            known |= cards[_ADD, card]
            cards[_COUNT, cards[_SLOT, card]] += 1
    for card in range(NUM_CARD_TYPES):
        if cards[_SLOT, card] >= 0 and cards[_COUNT, cards[_SLOT, card]] == 1:
            cards[_LAST, card] = cards[_ADD, card]
    for i in range(u):
        odds[game.table[unknown_at[i]]] += 1.0
    kinds = 0
    for card in range(NUM_CARD_TYPES):
        if odds[card] > 0.0:
            odds[card] /= u
            unseen[kinds] = card
            kinds += 1
    held = cards[_HELD]
    expected = 0.0
    if game.face_up < 0:
        for a in range(NUM_CARD_TYPES):  # best_second of each known card
            if held[a] == 0:
                continue
            best, found = 0.0, False
            for b in range(NUM_CARD_TYPES):
                if held[b] > (1 if b == a else 0):
                    x = _turn_value(pair_value, a, True, b, True, known, cards, weight, own)
                    if not found or x > best:
                        best, found = x, True
            if u > 0:
                x = _expectation(pair_value, a, True, odds, unseen, kinds, known, cards, weight, own, compensated)
                if not found or x > best:
                    best = x
            value[a] = best
        if u > 0:  # an unknown first card: best_second of each card it may be, in expectation
            total, lost = 0.0, 0.0
            for i in range(kinds):
                a = unseen[i]
                best = _expectation(pair_value, a, False, odds, unseen, kinds, known, cards, weight, own, compensated)
                for b in range(NUM_CARD_TYPES):
                    if held[b] > 0:
                        x = _turn_value(pair_value, a, False, b, True, known, cards, weight, own)
                        if x > best:
                            best = x
                total, lost = _add(total, lost, odds[a] * best, i == 0, compensated)
            expected = _sum(total, lost)
    else:
        up = game.table[game.face_up]
        for b in range(NUM_CARD_TYPES):
            if held[b] > 0:
                value[b] = _turn_value(pair_value, up, False, b, True, known, cards, weight, own)
        if u > 0:
            expected = _expectation(pair_value, up, False, odds, unseen, kinds, known, cards, weight, own, compensated)
    # best(): every flip within the tolerance of the top, known positions first, each in position order.
    top = expected if u > 0 else -np.inf
    for i in range(k):
        top = max(top, value[known_card[i]])
    least = top - tie
    count = 0
    for i in range(k):
        if value[known_card[i]] >= least:
            picks[count] = known_at[i]
            count += 1
    if u > 0 and expected >= least:
        for i in range(u):
            picks[count] = unknown_at[i]
            count += 1
    return picks[_below(game.rng, 0, count)]


@numba.njit(cache=True)
def choose(program, game, consts, seat, players, scratch):
    """Program ``program``'s flip for ``seat``: the kernel's choose function with this package's players."""
    if program == GREEDY:
        return _greedy(game, consts, seat, players.worth, scratch)
    if program == EXPERT:
        return _expert(game, consts, seat, players, scratch)
    return choose_random(program, game, consts, seat, players, scratch)


@numba.njit(cache=True, parallel=True)
def advance(games, consts, players, turns, observations, masks, final_obs):
    """:func:`goldrush_env.gold.kernel.advance` with this package's players."""
    return advance_with(games, consts, players, turns, observations, masks, final_obs, choose)


@numba.njit(cache=True)
def advance_one(games, consts, players, turns, observations, masks, final_obs):
    """:func:`goldrush_env.gold.kernel.advance_one` with this package's players."""
    return advance_with(games, consts, players, turns, observations, masks, final_obs, choose)


@numba.njit(cache=True, parallel=True)
def choose_all(program, games, consts, players, where, out):
    """:func:`goldrush_env.gold.kernel.choose_all` with this package's players."""
    choose_all_with(program, games, consts, players, where, out, choose)


ENGINE = SimpleNamespace(name="goldrush_agents.gold.compiled", advance=advance, advance_one=advance_one,
                         choose_all=choose_all, programs=(RANDOM, GREEDY, EXPERT))
"""The kernel's step with this package's players, as the environments take it from a
:class:`~goldrush_env.gold.vector.KernelPlayer`."""
