"""Gold's compiled kernel: the rules, the seats' memories, the observations, the masks and the scripted
opponents, run by numba over a whole batch of games with no Python per game.

Gold's rules live three times, each checked against ``../shared/rules``' replay vectors and in lockstep with
the others: readably in :mod:`goldrush_env.gold.engine` (the reference), here for speed, and in the public-state
model the searches use (``goldrush_agents.gold.public``). :class:`~goldrush_env.gold.batched.BatchedGames` and
:class:`~goldrush_env.gold.vector.GoldVectorEnv` are the Python faces of this module, with
:class:`~goldrush_env.gold.gym_env.GoldEnv`, which plays its one game here when every opponent has a compiled form
(:func:`one_learner`); nothing else calls it.

The state of a batch is a tuple of arrays, one row per game (:func:`new_state` says which). Every random choice
of a game (its deal, the position a kind of card turns, an opponent's tie-break, a seat forgetting) is drawn from
that game's own generator, ``rng[g]``, a SplitMix64 stream (:mod:`goldrush_env.streams`): the same seed gives the
same games however many threads run them. :class:`~goldrush_env.streams.Stream` is the same generator in Python,
so that a reference player handed a ``Stream`` makes the choices the compiled player makes from the same state
(``tests/gold/test_kernel.py``).

What a seat knows is ``memo[g, seat, position]``: the clock tick at which it last saw the card there, -1 if it
does not remember one (the face-up card is seen by all while it lies face up). Perfect memory never forgets;
human memory (:class:`goldrush_env.gold.memory.HumanMemory`) forgets what it has not seen in a turn with
``forget_prob`` and holds at most ``capacity`` places, the one seen longest ago going first.

Compiled functions are cached on disk, so only the first use on a machine pays for compilation
(:mod:`goldrush_env.streams` says when it happens).
"""

from __future__ import annotations

from contextlib import contextmanager

import numba
import numpy as np

from goldrush_env.gold.cards import (
    COLOUR,
    DYNAMITE,
    EMPTY,
    IS_GOLD,
    IS_MINER,
    MAX_PLAYERS,
    NUM_CARD_TYPES,
    NUM_CATEGORIES,
    NUM_POSITIONS,
    TOTAL_GOLD,
    VALUE,
)
from goldrush_env.gold.encoder import MAX_GOLD_CARDS, PLANES, SLICES, UNSEEN_SCALE
from goldrush_env.gold.engine import _PAIR, Outcome
from goldrush_env.streams import below as _below
from goldrush_env.streams import uniform as _uniform

__all__ = ["OUTCOMES", "new_state"]

OUTCOMES: tuple[Outcome, ...] = (Outcome.FIRST, Outcome.STRIKE, Outcome.DUEL, Outcome.DYNAMITE, Outcome.NOTHING,
                                 Outcome.RUSH_GOLD, Outcome.RUSH_DISCARD)
"""The outcome codes: ``OUTCOMES[code]``."""
_FIRST, _STRIKE, _DUEL, _DYNAMITE, _NOTHING, _RUSH_GOLD, _RUSH_DISCARD = range(len(OUTCOMES))
_CODE = {outcome: code for code, outcome in enumerate(OUTCOMES)}

# The engine's pair table, as arrays indexed by 25 * first card + second card.
_PAIR_OUTCOME = np.array([_CODE[rule[0]] for rule in _PAIR], dtype=np.int8)
_PAIR_FIRST_LEAVES = np.array([rule[1] for rule in _PAIR], dtype=np.bool_)
_PAIR_SECOND_LEAVES = np.array([rule[2] for rule in _PAIR], dtype=np.bool_)
_PAIR_GOLD_VALUE = np.array([VALUE[rule[3]] if rule[3] >= 0 else 0 for rule in _PAIR], dtype=np.int8)
_PAIR_COLOUR = np.array([rule[4] for rule in _PAIR], dtype=np.int8)
_IS_GOLD = np.array(IS_GOLD, dtype=np.bool_)
_IS_MINER = np.array(IS_MINER, dtype=np.bool_)
_VALUE = np.array(VALUE, dtype=np.int64)
_COLOUR = np.array(COLOUR, dtype=np.int64)
_GOLD_VALUE = np.array([VALUE[card] if IS_GOLD[card] else 0 for card in range(NUM_CARD_TYPES)], dtype=np.int8)

# For the stalemate test (D3) each game counts its cards on the table in ten
# groups: 0 dynamite, 1..4 gold of value 1..4, 5..8 miners of value 2..5.
GROUPS = 10
GROUP = np.array([4 + VALUE[card] - 1 if IS_MINER[card] else (0 if card == DYNAMITE else VALUE[card])
                  for card in range(NUM_CARD_TYPES)], dtype=np.int64)

# Offsets of the plain observation vector (goldrush_env.gold.encoder).
_P_EMPTY = SLICES["empty"].start
_P_UNKNOWN = SLICES["unknown"].start
_P_FACE_UP = SLICES["face_up"].start
_P_CARDS = SLICES["cards"].start
_P_STANDING = SLICES["scores"].start
_P_UNSEEN = SLICES["unseen"].start
_P_SIZE = SLICES["unseen"].stop
assert len(PLANES) * NUM_POSITIONS == _P_STANDING
# Offsets inside the standing: scores, gold cards, seats, to play (MAX_PLAYERS each), phase (3), cards left, turn.
_S_SCORES, _S_GOLD_CARDS, _S_SEATS, _S_TO_PLAY = (SLICES[name].start - _P_STANDING
                                                  for name in ("scores", "gold_cards", "seats", "to_play"))
_S_PHASE, _S_CARDS_LEFT, _S_TURN = (SLICES[name].start - _P_STANDING for name in ("phase", "cards_left", "turn"))
_STANDING_SIZE = SLICES["turn"].stop - _P_STANDING

# Observation and action codes (goldrush_env.gold.variants names them).
OBS_PLAIN, OBS_PAIRS, OBS_KINDS = 0, 1, 2
ACT_POSITIONS, ACT_KINDS = 0, 1
_UNKNOWN_KIND = NUM_CATEGORIES
# The kinds vector: known (30), face_up (29), pair_best (30), pair_face_up (30), unseen (29), standing.
_K_KNOWN = 0
_K_FACE_UP = _K_KNOWN + NUM_CATEGORIES + 1
_K_PAIR_BEST = _K_FACE_UP + NUM_CATEGORIES
_K_PAIR_FACE_UP = _K_PAIR_BEST + NUM_CATEGORIES + 1
_K_UNSEEN = _K_PAIR_FACE_UP + NUM_CATEGORIES + 1
_K_STANDING = _K_UNSEEN + NUM_CATEGORIES
KINDS_SIZE = _K_STANDING + _STANDING_SIZE
PAIRS_SIZE = _P_SIZE + 2 * NUM_POSITIONS

# Opponent programs: which compiled player a seat runs (EXTERNAL: a Python policy, asked between kernel calls).
EXTERNAL, RANDOM, GREEDY, EXPERT = -1, 0, 1, 2
PROGRAMS = 3
NUM_PARAMS = 8
"""The most constants a program reads (``params[program, :NUM_PARAMS]``)."""
# Why advance() stopped in a game.
LEARNER, FINISHED, WAITING = 0, 1, 2
_CHUNK = 64  # games per task of a parallel loop that needs scratch space


# --- the state -------------------------------------------------------------------------------------------------

def new_state(num_games: int, num_players: int) -> tuple[np.ndarray, ...]:
    """The arrays of a batch, in the order every kernel function takes them: ``table`` (the card at each
    position, the hidden truth), ``initial`` (the tables as dealt), ``face_up`` (-1 for none),
    ``current_player``, ``first_player``, ``turn`` (completed turns), ``gold_rush``, ``rush_from`` (the rush's
    first turn, -1 before), ``scores``, ``gold_cards``, ``cards_left``, ``counts`` (the cards on the table in
    the ten groups of D3), ``rng`` (each game's stream), ``memo`` (what each seat remembers, see the module
    docstring) and ``clock`` (each game's clock for ``memo``)."""
    n, p = num_games, num_players
    return (np.full((n, NUM_POSITIONS), EMPTY, dtype=np.int8), np.full((n, NUM_POSITIONS), EMPTY, dtype=np.int8),
            np.full(n, -1, dtype=np.int8), np.zeros(n, dtype=np.int8), np.zeros(n, dtype=np.int8),
            np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.bool_), np.full(n, -1, dtype=np.int32),
            np.zeros((n, p), dtype=np.int32), np.zeros((n, p), dtype=np.int32), np.zeros(n, dtype=np.int32),
            np.zeros((n, GROUPS), dtype=np.int32), np.zeros(n, dtype=np.uint64),
            np.full((n, p, NUM_POSITIONS), -1, dtype=np.int32), np.zeros(n, dtype=np.int32))


# --- the rules ---------------------------------------------------------------------------------------------------

@numba.njit(cache=True, inline="always")
def _stalemate(counts, g):
    """D3: no pair of the cards left in game ``g`` could ever remove a card."""
    if counts[g, 0] > 0:
        return False
    distinct, miner_value = 0, 0  # miner values left, and the last of them
    for value in range(2, 6):
        if counts[g, 4 + value - 1] > 0:
            distinct += 1
            miner_value = value
    if distinct == 0:
        return True
    if distinct > 1:
        return False
    for value in range(1, 5):
        if counts[g, value] > 0:
            return miner_value < value
    return True


@numba.njit(cache=True, inline="always")
def _finished(state, limit, g):
    return state[10][g] == 0 or state[5][g] >= limit


@numba.njit(cache=True)
def _start(state, rush_at, g):
    """Game ``g``'s derived state once its table is laid: cards left, group counts, the rush if dealt in it
    (ten cards or fewer, or D3), no memories."""
    table, counts, cards_left, memo, clock = state[0], state[11], state[10], state[13], state[14]
    left = 0
    for k in range(GROUPS):
        counts[g, k] = 0
    for p in range(NUM_POSITIONS):
        card = table[g, p]
        state[1][g, p] = card
        if card >= 0:
            left += 1
            counts[g, GROUP[card]] += 1
    cards_left[g] = left
    state[2][g] = -1
    state[5][g] = 0
    state[8][g, :] = 0
    state[9][g, :] = 0
    memo[g, :, :] = -1
    clock[g] = 0
    if left > 0 and (left <= rush_at or _stalemate(counts, g)):
        state[6][g] = True
        state[7][g] = 0
    else:
        state[6][g] = False
        state[7][g] = -1


@numba.njit(cache=True)
def _deal(state, box, rush_at, g, first):
    """Deal game ``g`` afresh: the box shuffled (Fisher-Yates, from the game's stream) onto the first
    positions, seat ``first`` to play."""
    table, rng = state[0], state[12]
    k = box.shape[0]
    for p in range(NUM_POSITIONS):
        table[g, p] = box[p] if p < k else EMPTY
    for i in range(k - 1, 0, -1):
        j = _below(rng, g, i + 1)
        card = table[g, i]
        table[g, i] = table[g, j]
        table[g, j] = card
    state[3][g] = first
    state[4][g] = first
    _start(state, rush_at, g)


@numba.njit(cache=True, inline="always")
def _remove(state, g, position, card):
    state[0][g, position] = EMPTY
    state[11][g, GROUP[card]] -= 1
    state[10][g] -= 1
    state[13][g, :, position] = -1


@numba.njit(cache=True)
def _flip(state, owners, rush_at, g, position):
    """Flip ``position`` in game ``g`` (legal, unchecked). Returns (outcome, card, receiver, partner,
    partner_left, card_left, rush_begins)."""
    table, face_up, current_player, turn, gold_rush = state[0], state[2], state[3], state[5], state[6]
    scores, gold_cards, cards_left, counts = state[8], state[9], state[10], state[11]
    num_players = scores.shape[1]
    card = table[g, position]
    player = current_player[g]
    receiver, partner, partner_left, card_left, rush_begins = -1, -1, False, False, False
    if gold_rush[g]:
        _remove(state, g, position, card)
        card_left = True
        if _IS_GOLD[card]:
            outcome = _RUSH_GOLD
            receiver = player
            scores[g, player] += _GOLD_VALUE[card]
            gold_cards[g, player] += 1
        else:
            outcome = _RUSH_DISCARD
    elif face_up[g] < 0:
        face_up[g] = position
        return _FIRST, card, -1, -1, False, False, False
    else:
        partner = face_up[g]
        partner_card = table[g, partner]
        pair = partner_card * NUM_CARD_TYPES + card
        outcome = _PAIR_OUTCOME[pair]
        value = _PAIR_GOLD_VALUE[pair]
        if value > 0:
            receiver = owners[_PAIR_COLOUR[pair]]
            if receiver < 0:
                receiver = player
            scores[g, receiver] += value
            gold_cards[g, receiver] += 1
        if _PAIR_FIRST_LEAVES[pair]:
            _remove(state, g, partner, partner_card)
            partner_left = True
        if _PAIR_SECOND_LEAVES[pair]:
            _remove(state, g, position, card)
            card_left = True
        face_up[g] = -1
    turn[g] += 1
    current_player[g] = (player + 1) % num_players
    if (partner_left or card_left) and not gold_rush[g] and cards_left[g] > 0 and (
            cards_left[g] <= rush_at or _stalemate(counts, g)):
        gold_rush[g] = True
        state[7][g] = turn[g]
        rush_begins = True
    return outcome, card, receiver, partner, partner_left, card_left, rush_begins


@numba.njit(cache=True)
def _remember(state, g, position, capacity):
    """Every seat of game ``g`` sees the card at ``position`` go back face down. Capacity ``-1``: no cap."""
    memo, clock = state[13], state[14]
    for seat in range(memo.shape[1]):
        clock[g] += 1
        memo[g, seat, position] = clock[g]
        if capacity < 0:
            continue
        while True:
            count, oldest, at = 0, 2147483647, -1
            for p in range(NUM_POSITIONS):
                tick = memo[g, seat, p]
                if tick >= 0:
                    count += 1
                    if tick < oldest:
                        oldest, at = tick, p
            if count <= capacity:
                break
            memo[g, seat, at] = -1


@numba.njit(cache=True)
def _end_turn(state, g, forget_prob, seen, also_seen):
    """Each seat forgets each remembered card it did not see this turn (at ``seen`` or ``also_seen``, -1 for
    none) with ``forget_prob``."""
    if forget_prob <= 0.0:
        return
    memo, rng = state[13], state[12]
    for seat in range(memo.shape[1]):
        for p in range(NUM_POSITIONS):
            if memo[g, seat, p] >= 0 and p != seen and p != also_seen and _uniform(rng, g) < forget_prob:
                memo[g, seat, p] = -1


@numba.njit(cache=True)
def _play(state, owners, rush_at, g, position, forget_prob, capacity):
    """Flip ``position`` in game ``g`` and bring the seats' memories up to date, as the AEC environment does:
    removals first, then every seat sees the cards that went back face down, then forgets (human memory).
    Returns the flip as :func:`_flip` does."""
    first = state[2][g]
    result = _flip(state, owners, rush_at, g, position)
    outcome, partner_left, card_left = result[0], result[4], result[5]
    if outcome == _FIRST:
        return result
    kept_first, kept_second = -1, -1  # the cards seen this turn that went back face down
    if outcome != _RUSH_GOLD and outcome != _RUSH_DISCARD:
        if not partner_left:
            kept_first = first
            _remember(state, g, first, capacity)
        if not card_left:
            kept_second = position
            _remember(state, g, position, capacity)
    _end_turn(state, g, forget_prob, kept_first, kept_second)
    return result


# --- the batched engine's entry points ---------------------------------------------------------------------------

@numba.njit(cache=True, parallel=True)
def step(state, owners, rush_at, positions, active, out_outcome, out_card, out_receiver, out_partner,
         out_partner_left, out_card_left, out_rush_begins):
    """One flip in every ``active`` game (legal, checked by the caller), memories as perfect memory keeps them."""
    for g in numba.prange(positions.shape[0]):
        if not active[g]:
            continue
        result = _play(state, owners, rush_at, g, positions[g], 0.0, -1)
        out_outcome[g], out_card[g], out_receiver[g], out_partner[g] = result[0], result[1], result[2], result[3]
        out_partner_left[g], out_card_left[g], out_rush_begins[g] = result[4], result[5], result[6]


@numba.njit(cache=True, parallel=True)
def deal(state, box, rush_at, games, first):
    """Deal games ``games`` afresh from their streams, seats ``first`` (one per game) to play."""
    for i in numba.prange(games.shape[0]):
        _deal(state, box, rush_at, games[i], first[i])


@numba.njit(cache=True, parallel=True)
def lay(state, rush_at, games, tables, first):
    """Lay the given tables in games ``games`` (checked by the caller), seats ``first`` to play."""
    for i in numba.prange(games.shape[0]):
        g = games[i]
        for p in range(NUM_POSITIONS):
            state[0][g, p] = tables[i, p]
        state[3][g] = first[i]
        state[4][g] = first[i]
        _start(state, rush_at, g)


@numba.njit(cache=True)
def first_illegal(table, face_up, positions, active):
    """The first game whose flip is illegal (out of range, empty or face up), -1 if none."""
    for g in range(table.shape[0]):
        if active[g]:
            p = positions[g]
            if p < 0 or p >= NUM_POSITIONS or table[g, p] < 0 or p == face_up[g]:
                return g
    return -1


@numba.njit(cache=True, parallel=True)
def random_positions(state, limit, draws, out):
    """Per game, the legal position numbered ``floor(draw * number legal)``; -1 once finished."""
    table, face_up, cards_left = state[0], state[2], state[10]
    for g in numba.prange(table.shape[0]):
        out[g] = -1
        if _finished(state, limit, g):
            continue
        legal = cards_left[g] - (1 if face_up[g] >= 0 else 0)
        chosen = int(draws[g] * legal)
        for p in range(NUM_POSITIONS):
            if table[g, p] >= 0 and p != face_up[g]:
                if chosen == 0:
                    out[g] = p
                    break
                chosen -= 1


# --- what a seat knows -------------------------------------------------------------------------------------------

@numba.njit(cache=True, inline="always")
def _knows(state, g, seat, p):
    """Whether ``seat`` sees or remembers the card at ``p`` (on the table) of game ``g``."""
    return p == state[2][g] or state[13][g, seat, p] >= 0


@numba.njit(cache=True)
def _write_standing(state, limit, max_turns, g, seat, out, row, at):
    """The public standing from ``seat``'s side into ``out[row, at:]`` (zeroed by the caller)."""
    scores, gold_cards = state[8], state[9]
    n = scores.shape[1]
    for k in range(n):
        other = (seat + k) % n
        out[row, at + _S_SCORES + k] = scores[g, other] / TOTAL_GOLD
        out[row, at + _S_GOLD_CARDS + k] = gold_cards[g, other] / MAX_GOLD_CARDS
        out[row, at + _S_SEATS + k] = 1.0
    if not _finished(state, limit, g):
        out[row, at + _S_TO_PLAY + (state[3][g] - seat) % n] = 1.0
        phase = 2 if state[6][g] else (0 if state[2][g] < 0 else 1)
        out[row, at + _S_PHASE + phase] = 1.0
    out[row, at + _S_CARDS_LEFT] = state[10][g] / NUM_POSITIONS
    out[row, at + _S_TURN] = state[5][g] / max_turns if max_turns > 0 else 0.0


@numba.njit(cache=True, inline="always")
def _pair_best(held, gains, kind):
    """The most a card of ``kind`` gains turned with another card the seat knows (``held``: the known cards per
    kind, the face-up one included); 0 if it knows no other."""
    best, found = -1e9, False
    for other in range(NUM_CATEGORIES):
        if held[other] - (1 if other == kind else 0) > 0 and gains[kind, other] > best:
            best, found = gains[kind, other], True
    return best if found else 0.0


@numba.njit(cache=True)
def _write_plain(state, category, gains, limit, max_turns, g, seat, out, row, pairs, counts):
    """``seat``'s plain vector of game ``g`` into ``out[row]`` (with the two pair planes if ``pairs``);
    ``counts``: scratch space, (3, 30) ints."""
    table, face_up = state[0], state[2][g]
    # _knows by hand: a call handing on the state tuple per position cost ten times the rest of the vector.
    memo = state[13]
    out[row, :] = 0.0
    unseen, held = counts[0], counts[1]
    unseen[:] = 0
    held[:] = 0
    for p in range(NUM_POSITIONS):
        card = table[g, p]
        if card < 0:
            out[row, _P_EMPTY + p] = 1.0
            continue
        kind = category[seat, card]
        if p == face_up or memo[g, seat, p] >= 0:
            out[row, _P_CARDS + kind * NUM_POSITIONS + p] = 1.0
            held[kind] += 1
        else:
            out[row, _P_UNKNOWN + p] = 1.0
            unseen[kind] += 1
    if face_up >= 0:
        out[row, _P_FACE_UP + face_up] = 1.0
    _write_standing(state, limit, max_turns, g, seat, out, row, _P_STANDING)
    for kind in range(NUM_CATEGORIES):
        out[row, _P_UNSEEN + kind] = unseen[kind] / UNSEEN_SCALE
    if not pairs:
        return
    up_kind = category[seat, table[g, face_up]] if face_up >= 0 else -1
    for p in range(NUM_POSITIONS):
        card = table[g, p]
        if card < 0 or not (p == face_up or memo[g, seat, p] >= 0):
            continue
        kind = category[seat, card]
        out[row, _P_SIZE + p] = _pair_best(held, gains, kind)
        if up_kind >= 0 and p != face_up:
            out[row, _P_SIZE + NUM_POSITIONS + p] = gains[up_kind, kind]


@numba.njit(cache=True)
def _write_kinds(state, category, gains, limit, max_turns, g, seat, out, row, counts):
    """``seat``'s kinds vector of game ``g`` into ``out[row]`` (goldrush_env.gold.variants, KINDS_LAYOUT).
    ``counts`` (scratch space, (3, 30) ints) is left holding the legal cards the seat knows per kind, and
    in its last column the legal cards it does not: the kinds mask."""
    table, face_up = state[0], state[2][g]
    out[row, :] = 0.0
    known, unseen, held = counts[0], counts[1], counts[2]
    known[:] = 0
    unseen[:] = 0
    held[:] = 0
    unknown, up_kind = 0, -1
    for p in range(NUM_POSITIONS):
        card = table[g, p]
        if card < 0:
            continue
        kind = category[seat, card]
        if p == face_up:
            up_kind = kind
            held[kind] += 1
        elif state[13][g, seat, p] >= 0:
            known[kind] += 1
            held[kind] += 1
        else:
            unknown += 1
            unseen[kind] += 1
    for kind in range(NUM_CATEGORIES):
        out[row, _K_KNOWN + kind] = known[kind] / UNSEEN_SCALE
        out[row, _K_UNSEEN + kind] = unseen[kind] / UNSEEN_SCALE
    out[row, _K_KNOWN + _UNKNOWN_KIND] = unknown / NUM_POSITIONS
    known[_UNKNOWN_KIND] = unknown
    for kind in range(NUM_CATEGORIES):
        if held[kind] > 0:
            out[row, _K_PAIR_BEST + kind] = _pair_best(held, gains, kind)
    if up_kind >= 0:
        out[row, _K_FACE_UP + up_kind] = 1.0
        total, weighted = 0, 0.0
        for kind in range(NUM_CATEGORIES):
            out[row, _K_PAIR_FACE_UP + kind] = gains[up_kind, kind]
            total += unseen[kind]
            weighted += unseen[kind] * gains[up_kind, kind]
        if total > 0:
            out[row, _K_PAIR_FACE_UP + _UNKNOWN_KIND] = weighted / total
    _write_standing(state, limit, max_turns, g, seat, out, row, _K_STANDING)


@numba.njit(cache=True)
def _write_observation(state, category, gains, limit, max_turns, g, seat, out, row, kind, counts):
    if kind == OBS_KINDS:
        _write_kinds(state, category, gains, limit, max_turns, g, seat, out, row, counts)
    else:
        _write_plain(state, category, gains, limit, max_turns, g, seat, out, row, kind == OBS_PAIRS, counts)


@numba.njit(cache=True)
def _write_mask(state, category, limit, g, seat, out, row, action):
    """``seat``'s legal actions in game ``g`` into ``out[row]``: positions, or kinds (none once finished)."""
    out[row, :] = False
    if _finished(state, limit, g):
        return
    table, face_up = state[0], state[2][g]
    for p in range(NUM_POSITIONS):
        card = table[g, p]
        if card < 0 or p == face_up:
            continue
        if action == ACT_POSITIONS:
            out[row, p] = True
        elif state[13][g, seat, p] >= 0:
            out[row, category[seat, card]] = True
        else:
            out[row, _UNKNOWN_KIND] = True


@numba.njit(cache=True)
def _kind_count(state, category, g, seat, kind):
    """How many legal positions of game ``g`` turn ``kind`` for ``seat``."""
    table, face_up = state[0], state[2][g]
    count = 0
    for p in range(NUM_POSITIONS):
        card = table[g, p]
        if card >= 0 and p != face_up and _realises(state, category, g, seat, p, card, kind):
            count += 1
    return count


@numba.njit(cache=True)
def _kind_position(state, category, g, seat, kind, count):
    """A legal position of game ``g`` turning ``kind`` for ``seat``, drawn uniformly from the game's stream;
    ``count``: how many there are (> 0)."""
    table, face_up = state[0], state[2][g]
    chosen = _below(state[12], g, count)
    for p in range(NUM_POSITIONS):
        card = table[g, p]
        if card >= 0 and p != face_up and _realises(state, category, g, seat, p, card, kind):
            if chosen == 0:
                return p
            chosen -= 1
    return -1


@numba.njit(cache=True, inline="always")
def _realises(state, category, g, seat, p, card, kind):
    if state[13][g, seat, p] >= 0:
        return kind == category[seat, card]
    return kind == _UNKNOWN_KIND


# --- the scripted players ----------------------------------------------------------------------------------------

@numba.njit(cache=True)
def _scan(state, g, seat, known_at, known_card, unknown_at):
    """The legal positions of game ``g`` split as ``Knowledge`` splits them for ``seat``: remembered (position
    and card, in position order) and unknown. Returns their counts."""
    table, face_up = state[0], state[2][g]
    k, u = 0, 0
    for p in range(NUM_POSITIONS):
        card = table[g, p]
        if card < 0 or p == face_up:
            continue
        if state[13][g, seat, p] >= 0:
            known_at[k] = p
            known_card[k] = card
            k += 1
        else:
            unknown_at[u] = p
            u += 1
    return k, u


@numba.njit(cache=True)
def _rush_choice(state, g, known_at, known_card, k, unknown_at, u):
    """The scripted players' rush: the most valuable remembered gold (the highest position among equals), then
    a card it cannot place, then anything."""
    best, choice = -1, -1
    for i in range(k):
        card = known_card[i]
        if _IS_GOLD[card] and _VALUE[card] * 100 + known_at[i] > best:
            best, choice = _VALUE[card] * 100 + known_at[i], known_at[i]
    if choice >= 0:
        return choice
    if u > 0:
        return unknown_at[_below(state[12], g, u)]
    return known_at[_below(state[12], g, k)]


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
def _greedy(state, g, seat, worth, card_owner, known_at, known_card, unknown_at, picks):
    """``goldrush_agents.gold.greedy.GreedyAgent``'s flip for ``seat`` in game ``g``; ``worth[seat, t, a, b]``
    is its ``pair_value`` when gold up to ``t`` is threatened."""
    k, u = _scan(state, g, seat, known_at, known_card, unknown_at)
    rng = state[12]
    if state[6][g]:
        return _rush_choice(state, g, known_at, known_card, k, unknown_at, u)
    t = _threat(card_owner, seat, known_card, k)
    face_up = state[2][g]
    if face_up < 0:
        best, choice = 0.0, -1
        for i in range(k):
            for j in range(i + 1, k):
                value = worth[seat, t, known_card[i], known_card[j]]
                if value > best:
                    best, choice = value, known_at[i]
        if choice >= 0:
            return choice
        if u > 0:
            return unknown_at[_below(rng, g, u)]
        return known_at[_below(rng, g, k)]
    up = state[0][g, face_up]
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
        return picks[_below(rng, g, count)]
    risky = up == DYNAMITE or (_IS_MINER[up] and card_owner[up] >= 0 and card_owner[up] != seat)
    safe = 0
    for i in range(k):
        if worth[seat, t, up, known_card[i]] == 0.0:
            picks[safe] = known_at[i]
            safe += 1
    if u > 0 and not (risky and safe > 0):
        return unknown_at[_below(rng, g, u)]
    if safe > 0:
        return picks[_below(rng, g, safe)]
    top, choice = -1e18, -1
    for i in range(k):  # max((value, position)): the best worth, the highest position among equals
        value = worth[seat, t, up, known_card[i]]
        if value >= top:
            top, choice = value, known_at[i]
    return choice


EXPERT_PARAMS = ("opponent_weight", "own_chance_weight", "tie", "compensated_sum")
"""The constants ``params[EXPERT]`` holds, in this order (``goldrush_agents.gold.batched`` takes them from
``goldrush_agents.gold.expert``): how much the next seat's strike counts against the seat, the share of its own
seat's strike that counts for it, how near the best a flip must score to be among the best, and whether Python's
``sum()`` compensates its rounding (Neumaier's sum, from Python 3.12), so the expectations add as the Python
player's do, to the last bit."""
_X_WEIGHT, _X_OWN, _X_TIE, _X_COMPENSATED = range(len(EXPERT_PARAMS))


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
def _expert(state, g, seat, worth, params, card_owner, known_at, known_card, unknown_at, picks):
    """``goldrush_agents.gold.expert.ExpertAgent``'s flip for ``seat`` in game ``g``, its sums added in its order
    and its ties drawn from the game's stream; ``worth[seat, t, a, b]`` is its ``pair_value`` (which asks only
    whether gold up to ``t`` is threatened: the positions it leaves out hold the pair, no miner)."""
    k, u = _scan(state, g, seat, known_at, known_card, unknown_at)
    if state[6][g]:
        return _rush_choice(state, g, known_at, known_card, k, unknown_at, u)
    weight, own, tie = params[EXPERT, _X_WEIGHT], params[EXPERT, _X_OWN], params[EXPERT, _X_TIE]
    compensated = params[EXPERT, _X_COMPENSATED] != 0.0
    table, face_up = state[0], state[2][g]
    pair_value = worth[seat, _threat(card_owner, seat, known_card, k)]
    following = (seat + 1) % state[8].shape[1]
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
        odds[table[g, unknown_at[i]]] += 1.0
    kinds = 0
    for card in range(NUM_CARD_TYPES):
        if odds[card] > 0.0:
            odds[card] /= u
            unseen[kinds] = card
            kinds += 1
    held = cards[_HELD]
    expected = 0.0
    if face_up < 0:
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
        up = table[g, face_up]
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
    return picks[_below(state[12], g, count)]


@numba.njit(cache=True)
def _random(state, g):
    table, face_up, rng = state[0], state[2][g], state[12]
    legal = state[10][g] - (1 if face_up >= 0 else 0)
    chosen = _below(rng, g, legal)
    for p in range(NUM_POSITIONS):
        if table[g, p] >= 0 and p != face_up:
            if chosen == 0:
                return p
            chosen -= 1
    return -1


@numba.njit(cache=True)
def _choose(program, state, g, seat, worth, params, card_owner, known_at, known_card, unknown_at, picks):
    """Program ``program``'s flip for ``seat`` in game ``g``; ``params[program]`` holds its constants."""
    if program == GREEDY:
        return _greedy(state, g, seat, worth, card_owner, known_at, known_card, unknown_at, picks)
    if program == EXPERT:
        return _expert(state, g, seat, worth, params, card_owner, known_at, known_card, unknown_at, picks)
    return _random(state, g)


@numba.njit(cache=True, parallel=True)
def choose(program, state, limit, worth, params, card_owner, where, out):
    """Program ``program``'s flip for the seat to play in every ``where`` game not finished (-1 elsewhere)."""
    for g in numba.prange(out.shape[0]):
        out[g] = -1
        if not where[g] or _finished(state, limit, g):
            continue
        known_at = np.empty(NUM_POSITIONS, dtype=np.int64)
        known_card = np.empty(NUM_POSITIONS, dtype=np.int64)
        unknown_at = np.empty(NUM_POSITIONS, dtype=np.int64)
        picks = np.empty(NUM_POSITIONS, dtype=np.int64)
        out[g] = _choose(program, state, g, state[3][g], worth, params, card_owner, known_at, known_card, unknown_at,
                         picks)


# --- the vector environment's step -------------------------------------------------------------------------------

@numba.njit(cache=True, parallel=True)
def learner_positions(state, category, limit, seats, actions, action, live, out):
    """The positions the learners' ``actions`` flip in the ``live`` games (-1 elsewhere; kinds drawn from each
    game's stream). Returns the first live game whose action is illegal, -1 if none; then no game changes, no
    stream included: the checking pass draws nothing."""
    n = actions.shape[0]
    for g in numba.prange(n):  # the check; for kinds, out[g] counts the positions the kind may turn
        out[g] = -1
        if not live[g]:
            continue
        a = actions[g]
        if action == ACT_POSITIONS:
            legal = 0 <= a < NUM_POSITIONS and state[0][g, a] >= 0 and a != state[2][g]
            out[g] = a if legal and not _finished(state, limit, g) else -2
            continue
        if a < 0 or a > _UNKNOWN_KIND or _finished(state, limit, g):
            out[g] = -2
            continue
        count = _kind_count(state, category, g, seats[g], a)
        out[g] = count if count > 0 else -2
    for g in range(n):
        if out[g] == -2:
            return g
    if action == ACT_KINDS:
        for g in numba.prange(n):
            if live[g]:
                out[g] = _kind_position(state, category, g, seats[g], actions[g], out[g])
    return -1


@numba.njit(cache=True)
def _new_deal(state, box, rush_at, g, seats, seat_option, assignment, weights):
    """Deal game ``g`` of a vector env afresh: the table, the learner's seat, the opponents from the mix."""
    _deal(state, box, rush_at, g, 0)
    n = state[8].shape[1]
    seats[g] = _below(state[12], g, n) if seat_option < 0 else seat_option
    if weights.shape[0] > 1:
        for seat in range(n):
            u = _uniform(state[12], g)
            pick = weights.shape[0] - 1
            for i in range(weights.shape[0]):
                if u < weights[i]:
                    pick = i
                    break
            assignment[g, seat] = pick
    else:
        assignment[g, :] = 0


@numba.njit(cache=True)
def _settle(state, limit, g, seat, before, reward_score, scale, rewards, terminated, truncated):
    """The learner's reward in game ``g`` since ``before`` and whether the game ended."""
    scores = state[8]
    n = scores.shape[1]
    over = state[10][g] == 0
    cut = not over and state[5][g] >= limit
    terminated[g], truncated[g] = over, cut
    if reward_score:
        total, own = 0, scores[g, seat] - before[g, seat]
        for s in range(n):
            total += scores[g, s] - before[g, s]
        rewards[g] = scale * (own - (total - own) / (n - 1))
    elif over or cut:
        top, count, mine = -1, 0, False
        for s in range(n):
            key = scores[g, s] * 100 + state[9][g, s]
            if key > top:
                top, count = key, 1
            elif key == top:
                count += 1
        mine = scores[g, seat] * 100 + state[9][g, seat] == top
        rewards[g] = (1.0 if count == 1 else 0.0) if mine else -1.0
    else:
        rewards[g] = 0.0


@numba.njit(cache=True)
def _final(state, g, seats, final_scores, final_winners, final_seat):
    scores = state[8]
    n = scores.shape[1]
    top = -1
    for s in range(n):
        top = max(top, scores[g, s] * 100 + state[9][g, s])
    for s in range(n):
        final_scores[g, s] = scores[g, s]
        final_winners[g, s] = scores[g, s] * 100 + state[9][g, s] == top
    final_seat[g] = seats[g]


@numba.njit(cache=True, parallel=True)
def advance(state, box, rush_at, owners, limit, max_turns, forget_prob, capacity, category, gains, worth, params,
            card_owner, seats, seat_option, assignment, weights, programs, envs, learner, fresh, same_step, before,
            reward_score, scale, obs_kind, action, observations, masks, rewards, terminated, truncated, final_obs,
            done, final_scores, final_winners, final_seat, status):
    """Play every ``envs`` game of a vector env until its learner is to move, it has finished (next-step
    autoreset) or a Python opponent is to move (``status``: LEARNER, FINISHED, WAITING). Where ``learner`` is
    not empty (a step's first call), each game's scores are kept in ``before`` first and the learner flips
    ``learner[g]`` (legal, or -1 for no flip). Games where ``fresh`` is 1 are dealt afresh first; ``fresh``
    becomes 2 wherever a game is dealt, and such a game's reward is 0 unless it ended in this step (a call
    after a WAITING stop goes on from there). With ``same_step``, a game that ends is settled (reward, ends,
    ``final_obs``, final scores) and dealt afresh at once. Where a game stops at the learner or finished, its
    reward, ends, observation and mask are written (and with ``same_step``, its observation again as
    ``final_obs`` if it did not end)."""
    n = envs.shape[0]
    for chunk in numba.prange((n + _CHUNK - 1) // _CHUNK):
        # The scripted players' scratch space, once per chunk of games rather than per game.
        known_at = np.empty(NUM_POSITIONS, dtype=np.int64)
        known_card = np.empty(NUM_POSITIONS, dtype=np.int64)
        unknown_at = np.empty(NUM_POSITIONS, dtype=np.int64)
        picks = np.empty(NUM_POSITIONS, dtype=np.int64)
        counts = np.empty((3, NUM_CATEGORIES + 1), dtype=np.int64)
        for g in range(chunk * _CHUNK, min(n, (chunk + 1) * _CHUNK)):
            if not envs[g]:
                continue
            if learner.shape[0] > 0:
                before[g, :] = state[8][g, :]
                if learner[g] >= 0:
                    _play(state, owners, rush_at, g, learner[g], forget_prob, capacity)
            if fresh[g] == 1:
                _new_deal(state, box, rush_at, g, seats, seat_option, assignment, weights)
                fresh[g] = 2
            while True:
                if _finished(state, limit, g):
                    if fresh[g] != 2:
                        _settle(state, limit, g, seats[g], before, reward_score, scale, rewards, terminated, truncated)
                        _final(state, g, seats, final_scores, final_winners, final_seat)
                        done[g] = True
                        if same_step:
                            _write_observation(state, category, gains, limit, max_turns, g, seats[g], final_obs, g,
                                               obs_kind, counts)
                    if not same_step:
                        status[g] = FINISHED
                        break
                    _new_deal(state, box, rush_at, g, seats, seat_option, assignment, weights)
                    fresh[g] = 2
                    continue
                player = state[3][g]
                if player == seats[g]:
                    status[g] = LEARNER
                    if not done[g]:
                        if fresh[g] == 2:
                            rewards[g] = 0.0
                            terminated[g] = False
                            truncated[g] = False
                        else:
                            _settle(state, limit, g, seats[g], before, reward_score, scale, rewards, terminated,
                                    truncated)
                    break
                program = programs[assignment[g, player]]
                if program == EXTERNAL:
                    status[g] = WAITING
                    break
                position = _choose(program, state, g, player, worth, params, card_owner, known_at, known_card,
                                   unknown_at, picks)
                _play(state, owners, rush_at, g, position, forget_prob, capacity)
            if status[g] != WAITING:
                _write_observation(state, category, gains, limit, max_turns, g, seats[g], observations, g, obs_kind,
                                   counts)
                if obs_kind == OBS_KINDS and action == ACT_KINDS:
                    # The kinds vector has just counted the mask: the legal cards per kind the seat knows.
                    finished = _finished(state, limit, g)
                    for kind in range(NUM_CATEGORIES + 1):
                        masks[g, kind] = counts[0, kind] > 0 and not finished
                else:
                    _write_mask(state, category, limit, g, seats[g], masks, g, action)
                if same_step and not done[g]:
                    final_obs[g, :] = observations[g, :]


@numba.njit(cache=True, parallel=True)
def play_positions(state, owners, rush_at, positions, where, forget_prob, capacity):
    """Flip ``positions[g]`` (legal, checked by the caller) in every ``where`` game, memories kept."""
    for g in numba.prange(positions.shape[0]):
        if where[g]:
            _play(state, owners, rush_at, g, positions[g], forget_prob, capacity)


@numba.njit(cache=True, parallel=True)
def observe(state, category, gains, limit, max_turns, seats, rows, obs_kind, out):
    """Seat ``seats[i]``'s observation of game ``rows[i]`` into ``out[i]``."""
    for i in numba.prange(rows.shape[0]):
        counts = np.empty((3, NUM_CATEGORIES + 1), dtype=np.int64)
        _write_observation(state, category, gains, limit, max_turns, rows[i], seats[i], out, i, obs_kind, counts)


@numba.njit(cache=True, parallel=True)
def known_to_play(state, out):
    """What the seat to play in each game sees or remembers: bool (games, 64)."""
    for g in numba.prange(out.shape[0]):
        seat = state[3][g]
        for p in range(NUM_POSITIONS):
            out[g, p] = state[0][g, p] >= 0 and _knows(state, g, seat, p)


# --- one game, one learner (GoldEnv's step) ----------------------------------------------------------------------

@numba.njit(cache=True)
def _win(state, g, seat):
    """The win reward of ``seat`` in game ``g`` as it stands: 1 for a sole winner, 0 for each of several, else -1."""
    scores, gold_cards = state[8], state[9]
    top, count = -1, 0
    for s in range(scores.shape[1]):
        key = scores[g, s] * 100 + gold_cards[g, s]
        if key > top:
            top, count = key, 1
        elif key == top:
            count += 1
    if scores[g, seat] * 100 + gold_cards[g, seat] != top:
        return -1.0
    return 1.0 if count == 1 else 0.0


@numba.njit(cache=True)
def _learner_flip(state, owners, rush_at, limit, forget_prob, capacity, seat, position, reward_score, scale, log,
                  reward):
    """Flip ``position`` in game 0, note it in ``log`` and return ``reward`` plus what the AEC environment pays
    ``seat`` for this flip (a seat's gain less the mean gain of the others when anyone gained, or the result once
    the game has ended), added as it adds it, flip by flip, so that the sums agree to the last bit."""
    scores = state[8]
    n = scores.shape[1]
    before = 0
    for s in range(n):
        before += scores[0, s]
    receiver = _play(state, owners, rush_at, 0, position, forget_prob, capacity)[2]
    count = log[0]
    if count + 1 < log.shape[0]:  # the caller keeps room for a step's flips; never write past the end
        log[count + 1] = position
    log[0] = count + 1
    if reward_score:
        gained = -before
        for s in range(n):
            gained += scores[0, s]
        if gained != 0:
            own = gained if receiver == seat else 0
            reward += scale * (own - (gained - own) / (n - 1))
    elif _finished(state, limit, 0):
        reward += _win(state, 0, seat)
    return reward


@numba.njit(cache=True)
def one_learner(state, owners, rush_at, limit, max_turns, forget_prob, capacity, category, gains, worth, params,
                card_owner, programs, seat, action, act_code, reward_score, scale, obs_kind, log, observation, mask):
    """Game 0 of ``state`` as :class:`~goldrush_env.gold.gym_env.GoldEnv` plays it: the learner at ``seat`` takes
    ``action`` (a position or a kind, as ``act_code`` says; -1 for none, at a reset), then ``programs[s]`` plays
    each other seat ``s`` until the learner is to play or the game has finished. Every flip is noted in ``log``
    (``log[0]`` counts them). Writes the learner's observation and mask (action 0 alone once the game has
    finished) into row 0 of ``observation`` and ``mask``. Returns the position the action turned (-1 for none;
    -2 if it is illegal: then nothing changes and nothing is drawn), the learner's reward for the step and how
    the game stands (0 in play, 1 over, 2 truncated)."""
    g = 0
    reward = 0.0
    position = -1
    if action >= 0:
        if _finished(state, limit, g) or state[3][g] != seat:
            return -2, 0.0, 0
        if act_code == ACT_POSITIONS:
            if action < NUM_POSITIONS and state[0][g, action] >= 0 and action != state[2][g]:
                position = action
        else:
            count = _kind_count(state, category, g, seat, action)
            if count > 0:
                position = _kind_position(state, category, g, seat, action, count)
        if position < 0:
            return -2, 0.0, 0
        reward = _learner_flip(state, owners, rush_at, limit, forget_prob, capacity, seat, position, reward_score,
                               scale, log, reward)
    if not _finished(state, limit, g) and state[3][g] != seat:
        known_at = np.empty(NUM_POSITIONS, dtype=np.int64)
        known_card = np.empty(NUM_POSITIONS, dtype=np.int64)
        unknown_at = np.empty(NUM_POSITIONS, dtype=np.int64)
        picks = np.empty(NUM_POSITIONS, dtype=np.int64)
        while not _finished(state, limit, g) and state[3][g] != seat:
            player = state[3][g]
            chosen = _choose(programs[player], state, g, player, worth, params, card_owner, known_at, known_card,
                             unknown_at, picks)
            reward = _learner_flip(state, owners, rush_at, limit, forget_prob, capacity, seat, chosen, reward_score,
                                   scale, log, reward)
    _write_observation(state, category, gains, limit, max_turns, g, seat, observation, 0, obs_kind,
                       np.empty((3, NUM_CATEGORIES + 1), dtype=np.int64))
    _write_mask(state, category, limit, g, seat, mask, 0, act_code)
    if not _finished(state, limit, g):
        return position, reward, 0
    mask[0, 0] = True
    return position, reward, 1 if state[10][g] == 0 else 2


PARALLEL_FROM = 512
"""Batches of fewer games run on one thread: below this, waking the other threads costs more than they save (far
more when other processes keep the cores busy)."""


@contextmanager
def threads_for(num_games: int):
    """Run the kernel calls inside on one thread if ``num_games`` is below :data:`PARALLEL_FROM`."""
    if num_games >= PARALLEL_FROM:
        yield
        return
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def card_owners(owners: np.ndarray) -> np.ndarray:
    """Per card id: the seat a miner works for, -1 for an unowned miner, -2 for any other card."""
    return np.array([owners[COLOUR[card]] if IS_MINER[card] else -2 for card in range(NUM_CARD_TYPES)],
                    dtype=np.int64)


assert MAX_PLAYERS == 5 and _P_SIZE == SLICES["unseen"].stop
