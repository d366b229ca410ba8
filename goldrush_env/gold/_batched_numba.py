"""The numba backend of :mod:`goldrush_env.gold.batched`: one compiled loop over the games.

Imported only when numba is installed and the backend is asked for. The
step is the numpy backend's, written per game; the games are split over the
machine's cores (``prange``). Compiled functions are cached on disk, so only
the first use on a machine pays for compilation.
"""

from __future__ import annotations

import sys

import numba
import numpy as np

from goldrush_env.gold.batched import (
    _FIRST,
    _GOLD_VALUE,
    _GROUP,
    _IS_GOLD,
    _PAIR_COLOUR,
    _PAIR_FIRST_LEAVES,
    _PAIR_GOLD_VALUE,
    _PAIR_OUTCOME,
    _PAIR_SECOND_LEAVES,
    _RUSH_DISCARD,
    _RUSH_GOLD,
)
from goldrush_env.gold.cards import EMPTY, NUM_CARD_TYPES, NUM_POSITIONS


@numba.njit(cache=True, inline="always")
def _stalemate(counts: np.ndarray) -> bool:
    """D3 for one game's group counts (see ``batched._stalemate``)."""
    if counts[0] > 0:
        return False
    distinct, miner_value = 0, 0  # miner values left, and the last of them
    for value in range(2, 6):
        if counts[4 + value - 1] > 0:
            distinct += 1
            miner_value = value
    if distinct == 0:
        return True
    if distinct > 1:
        return False
    for value in range(1, 5):
        if counts[value] > 0:
            return miner_value < value
    return True


@numba.njit(cache=True, inline="always")
def _remove(table, counts, cards_left, g, position, card):
    """The card at ``position`` of game ``g`` leaves the table."""
    table[g, position] = EMPTY
    counts[g, _GROUP[card]] -= 1
    cards_left[g] -= 1


@numba.njit(cache=True, parallel=True)
def step(table, face_up, current_player, turn, gold_rush, rush_from, scores, gold_cards, cards_left, counts, owners,
         rush_at, positions, active, out_outcome, out_card, out_player, out_receiver, out_partner, out_partner_left,
         out_card_left, out_rush_begins):
    num_players = scores.shape[1]
    for g in numba.prange(table.shape[0]):
        if not active[g]:
            continue
        position = positions[g]
        card = table[g, position]
        player = current_player[g]
        out_card[g] = card
        ends = True
        left = False
        if gold_rush[g]:
            _remove(table, counts, cards_left, g, position, card)
            out_card_left[g] = True
            if _IS_GOLD[card]:
                out_outcome[g] = _RUSH_GOLD
                out_receiver[g] = player
                scores[g, player] += _GOLD_VALUE[card]
                gold_cards[g, player] += 1
            else:
                out_outcome[g] = _RUSH_DISCARD
        elif face_up[g] < 0:
            face_up[g] = position
            out_outcome[g] = _FIRST
            ends = False
        else:
            partner = face_up[g]
            partner_card = table[g, partner]
            pair = partner_card * NUM_CARD_TYPES + card
            out_outcome[g] = _PAIR_OUTCOME[pair]
            out_partner[g] = partner
            value = _PAIR_GOLD_VALUE[pair]
            if value > 0:
                receiver = owners[_PAIR_COLOUR[pair]]
                if receiver < 0:
                    receiver = player
                out_receiver[g] = receiver
                scores[g, receiver] += value
                gold_cards[g, receiver] += 1
            if _PAIR_FIRST_LEAVES[pair]:
                _remove(table, counts, cards_left, g, partner, partner_card)
                out_partner_left[g] = True
                left = True
            if _PAIR_SECOND_LEAVES[pair]:
                _remove(table, counts, cards_left, g, position, card)
                out_card_left[g] = True
                left = True
            face_up[g] = -1
        if ends:
            turn[g] += 1
            current_player[g] = (player + 1) % num_players
            if left and not gold_rush[g] and cards_left[g] > 0 and (
                    cards_left[g] <= rush_at or _stalemate(counts[g])):
                gold_rush[g] = True
                rush_from[g] = turn[g]
                out_rush_begins[g] = True


@numba.njit(cache=True, parallel=True)
def random_positions(table, face_up, cards_left, finished, draws, out):
    """Per game, the legal position numbered ``floor(draw * number legal)``; -1 once finished."""
    for g in numba.prange(table.shape[0]):
        out[g] = -1
        if finished[g]:
            continue
        legal = cards_left[g] - (1 if face_up[g] >= 0 else 0)
        chosen = int(draws[g] * legal)
        for p in range(NUM_POSITIONS):
            if table[g, p] >= 0 and p != face_up[g]:
                if chosen == 0:
                    out[g] = p
                    break
                chosen -= 1


@numba.njit(cache=True)
def first_illegal(table, face_up, positions, active):
    """The first game whose flip is illegal (out of range, empty or face up), -1 if none."""
    for g in range(table.shape[0]):
        if active[g]:
            p = positions[g]
            if p < 0 or p >= NUM_POSITIONS or table[g, p] < 0 or p == face_up[g]:
                return g
    return -1


def _is_cached(function) -> bool:
    """Whether numba's on-disk cache holds compiled code of ``function`` for this source (its index is keyed by
    the source file's stamp); False if that cannot be told."""
    try:
        return bool(function._cache._cache_file._load_index())
    except Exception:  # numba's cache internals differ between versions: assume a compilation is coming
        return False


def _cache_dir(function) -> str:
    try:
        return function._cache._cache_path
    except AttributeError:
        return "numba's cache directory"


if not all(_is_cached(f) for f in (step, random_positions, first_illegal)):
    # Numba caches next to this file, or, where an installed package cannot write, in the user's cache
    # directory (~/.cache/numba on Linux; NUMBA_CACHE_DIR overrides both).
    print("goldrush_env: compiling the numba backend of the batched engine, once (seconds, up to a minute on a busy "
          f"machine); it is cached in {_cache_dir(step)}", file=sys.stderr, flush=True)
