"""The public state of Gold with perfect memory at any table size, and a one-turn expectimax over it, compiled
by numba over a batch of games: the players' one model of the public state. ``selfplay`` plays on it, its learner
plays against itself on it, and the exact solver (:mod:`~goldrush_agents.gold.optimal`) solves the 2-seat game
over its kinds and pair tables and plays through its search.

With perfect memory every flip is public (D9): all seats know the same things, and the game is one of perfect
information with chance, played on the *public state*. Here that state is kept **in the frame of the seat to
move**, so that one network serves every seat:

* ``known[g, kind]`` and ``unseen[g, kind]``: per kind of card, the cards face down that everyone remembers and
  those nobody has seen. Kinds are :func:`goldrush_env.gold.cards.card_kinds`' with seats counted from the
  mover: gold 1-4 (0-3), dynamite (4), the miners of the seat ``j`` places after the mover (``5 + 4j`` to
  ``8 + 4j`` for strengths 2-5), nobody's miners last. Two cards of a kind act alike wherever they lie, and every
  position nobody has seen is as likely as any other to hold each unseen card, so positions do not matter;
* ``face_up[g]``: the kind of a normal turn's first card, -1 before it;
* ``scores[g, j]`` and ``golds[g, j]``: points and gold cards of the seat ``j`` places after the mover;
* ``rush[g]``, ``turn[g]`` (turns played), ``seat[g]`` (the mover's seat number), ``done[g]``.

A decision is one flip. Its options are the kinds remembered face down (which position of the kind is turned does
not matter) and *unseen* (numbered ``num_kinds``), a card nobody has seen, whose kind is a chance outcome with the
odds of the unseen counts. The search looks over the rest of the turn (the second flip after a first one, and the
chance of each unseen card) to the states where the next seat is to move, its *leaves*. A leaf where the game is
over or decided (no gold left, or a lead no remaining gold can close) has its exact value; the others are valued by
a function of their feature rows (:func:`write_features`), a network, giving each seat's win share. Values are
vectors, a win share per seat (max-n): each seat picks what is best for itself, chance averages. The batch's leaves
are listed by :func:`expand`, valued all together, and backed up by :func:`options`; :func:`play` picks each game's
move and plays it. :class:`Search` does the three for a batch.

``tests/gold/test_turns.py`` plays random games on the engine at every table size and checks these states flip
by flip against it, and the search (one turn and two) against a plain recursion.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numba
import numpy as np

from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.cards import (GOLD_VALUES, IS_GOLD, MAX_PLAYERS, MIN_PLAYERS, NUM_CARD_TYPES, TABLES,
                                     VALUE, card_kinds)
from goldrush_env.gold.engine import _PAIR, colour_owners
from goldrush_env.streams import uniform as _uniform
from goldrush_env.gold.view import UNKNOWN
from goldrush_env.policy import SeatView

MAX_TURNS = 200
"""Turns after which a game is cut short and read from its standing (the environments' limit, D4)."""
CHUNK_ROWS = 100_000
"""The most leaves a two-turn search values at once (its memory: about 50 MB at 5 players)."""
GOLD_KINDS = len(GOLD_VALUES)


def num_kinds(num_players: int) -> int:
    """Kinds of card at a table of ``num_players``: gold 1-4, dynamite, four strengths of miner per seat and for
    nobody."""
    return 5 + 4 * (num_players + 1)


def num_features(num_players: int) -> int:
    """Length of a feature row (:func:`write_features`)."""
    return 3 * num_kinds(num_players) + 4 * num_players + 4


def num_actions(num_players: int) -> int:
    """Options of a flip: a kind, or an unseen card (numbered ``num_kinds``)."""
    return num_kinds(num_players) + 1


GOLD, STRENGTH, OWNER, SHIFT = range(4)
"""The rows of :attr:`Rules.per_kind`."""
FIRST_STAYS, SECOND_STAYS, RECEIVER, STRUCK = range(4)
"""The rows of :attr:`Rules.per_pair`."""


class Rules(NamedTuple):
    """The rules over kinds at one table size (:func:`rules`), as the two arrays the compiled functions read."""

    num_players: int
    per_kind: np.ndarray
    """``[row, kind]``: ``GOLD``, the gold's value (0 for the rest); ``STRENGTH``, the miner's strength (0 for the
    rest); ``OWNER``, the seat (counted from the mover) a miner works for, -1 for nobody's and for the rest;
    ``SHIFT``, the same kind in the next seat's frame."""
    per_pair: np.ndarray
    """``[row, a, b]``, after a normal turn flips kind ``a`` then ``b``: ``FIRST_STAYS`` and ``SECOND_STAYS``,
    whether each card goes back face down (1) or not (0); ``RECEIVER``, the seat (counted from the mover) that
    takes the gold struck, -1 when none is; ``STRUCK``, the points struck."""


@functools.cache
def rules(num_players: int) -> Rules:
    """The arrays of :class:`Rules` for a table of ``num_players``: the engine's table of card pairs
    (:func:`goldrush_env.gold.engine.pair_outcome`'s), read for a card of each kind, with seats counted from the
    mover (seat 0 of the frame)."""
    check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
    k = num_kinds(num_players)
    owners = colour_owners(num_players)
    kinds = card_kinds(num_players, owners)
    per_kind, per_pair = np.zeros((4, k), np.int64), np.zeros((4, k, k), np.int64)
    gold, strength, owner, shift = per_kind
    first_stays, second_stays, receiver, struck = per_pair
    owner[:], first_stays[:], second_stays[:], receiver[:] = -1, 1, 1, -1
    for card, kind in enumerate(kinds):
        gold[kind] = VALUE[card] if IS_GOLD[card] else 0
    for kind in range(5, k):  # every miner kind, including those no card of this table size has
        seat = (kind - 5) // 4
        strength[kind] = 2 + (kind - 5) % 4
        owner[kind] = seat if seat < num_players else -1
    card_of = {kind: card for card, kind in enumerate(kinds)}  # a card of each kind the table has
    for a, first in card_of.items():
        for b, second in card_of.items():  # the engine's pair table, read for a card of each kind
            _, first_leaves, second_leaves, gold_card, colour = _PAIR[first * NUM_CARD_TYPES + second]
            first_stays[a, b], second_stays[a, b] = not first_leaves, not second_leaves
            if gold_card >= 0:  # struck for the miner's owner, or for the mover (seat 0) if nobody owns it
                receiver[a, b], struck[a, b] = max(owners[colour], 0), VALUE[gold_card]
    shift[:] = np.arange(k)
    shift[5:5 + 4 * num_players] = (np.arange(4 * num_players) - 4) % (4 * num_players) + 5
    return Rules(num_players, per_kind, per_pair)


def box(table: str, num_players: int) -> np.ndarray:
    """Cards per kind of ``table``'s box at a table of ``num_players`` (the same from every seat)."""
    if table not in TABLES:
        raise GoldrushEnvError(f"table={table!r} is not allowed: expected one of {list(TABLES)}")
    counts = np.zeros(num_kinds(num_players), np.int64)
    for card, kind in enumerate(card_kinds(num_players, colour_owners(num_players))):
        counts[kind] += TABLES[table].counts[card]
    return counts


class Games(NamedTuple):
    """A batch of games on the public state (module docstring), each row one game."""

    known: np.ndarray
    unseen: np.ndarray
    face_up: np.ndarray
    scores: np.ndarray
    golds: np.ndarray
    rush: np.ndarray
    turn: np.ndarray
    seat: np.ndarray
    done: np.ndarray

    @classmethod
    def new(cls, table: str, num_players: int, first_seats: np.ndarray) -> "Games":
        """Games at their deal, every card unseen, seat ``first_seats[g]`` to move first."""
        first_seats = np.asarray(first_seats, dtype=np.int64)
        n, k = len(first_seats), num_kinds(num_players)
        games = cls(np.zeros((n, k), np.int64), np.repeat(box(table, num_players)[None], n, axis=0),
                    np.full(n, -1, np.int64), np.zeros((n, num_players), np.int64),
                    np.zeros((n, num_players), np.int64), np.zeros(n, np.bool_), np.zeros(n, np.int64),
                    first_seats.copy(), np.zeros(n, np.bool_))
        start_turns(games, rules(num_players), TABLES[table].rush_at)
        return games


# --- the rules, compiled -----------------------------------------------------------------------------------------
# D3 and D5 in the public state's form, for every number of seats: the one home of each in goldrush_agents (the
# exact solver's kernel, goldrush_agents.gold._solve_numba, uses these too); tests/gold/test_rule_homes.py holds
# them to the rules engine's and the kernel's.

@numba.njit(cache=True)
def stalemate(counts, gold, strength):
    """D3 on the cards per kind (any list of kinds: a kind with neither gold nor strength is dynamite): no
    dynamite, at most one strength of miner, and (with gold and miners both there) every miner weaker than every
    gold."""
    weakest_gold, miner_strength = 99, 0
    for kind in range(len(counts)):
        if counts[kind] == 0:
            continue
        if gold[kind] > 0:
            weakest_gold = min(weakest_gold, gold[kind])
        elif strength[kind] > 0:
            if miner_strength and miner_strength != strength[kind]:
                return False
            miner_strength = strength[kind]
        else:
            return False  # dynamite
    return miner_strength == 0 or weakest_gold == 99 or miner_strength < weakest_gold


@numba.vectorize(["float64(int64, int64)"], cache=True)
def lead_share(lead, cards_lead):
    """D5 between two seats: the first one's win share with ``lead`` points and ``cards_lead`` gold cards more
    than the second (1, 0, or 0.5 for a tie). A ufunc: numpy arrays or numbers, and compiled code."""
    if lead != 0:
        return 1.0 if lead > 0 else 0.0
    if cards_lead != 0:
        return 1.0 if cards_lead > 0 else 0.0
    return 0.5


@numba.njit(cache=True)
def _rush_begins(known, unseen, per_kind, rush_at):
    counts = known + unseen
    return counts.sum() <= rush_at or stalemate(counts, per_kind[GOLD], per_kind[STRENGTH])


@numba.njit(cache=True)
def _start_turn(games, g, per_kind, rush_at):
    """At the start of game ``g``'s turn: whether it is over (no cards, or the turn limit), and the rush."""
    known, unseen = games.known[g], games.unseen[g]
    if known.sum() + unseen.sum() == 0 or games.turn[g] >= MAX_TURNS:
        games.done[g] = True
    elif not games.rush[g]:
        games.rush[g] = _rush_begins(known, unseen, per_kind, rush_at)


@numba.njit(cache=True)
def start_turns(games: Games, t: Rules, rush_at: int) -> None:
    """Mark each game over, or in the rush, as its turn starts."""
    for g in range(len(games.done)):
        _start_turn(games, g, t.per_kind, rush_at)


@numba.njit(cache=True)
def shares(scores, golds, out):
    """Each seat's win share of a finished game (D5: most points, then most gold cards; a tie shares): the seats
    that :func:`lead_share` puts behind no other share the win."""
    n = len(scores)
    winners = 0
    for j in range(n):
        out[j] = 1.0
        for i in range(n):
            if lead_share(scores[j] - scores[i], golds[j] - golds[i]) < 0.5:
                out[j] = 0.0
                break
        winners += out[j] > 0
    for j in range(n):
        out[j] /= winners


@numba.njit(cache=True)
def _decided(known, unseen, scores, golds, gold, out):
    """Whether the game's result is settled whatever is still turned (no gold left, or one seat ahead by more than
    the gold left); if so, writes the seats' shares into ``out``."""
    left = 0
    for kind in range(len(gold)):
        left += gold[kind] * (known[kind] + unseen[kind])
    if left == 0:
        shares(scores, golds, out)
        return True
    n = len(scores)
    best = 0
    for j in range(1, n):
        if scores[j] > scores[best]:
            best = j
    for j in range(n):
        if j != best and scores[best] - scores[j] <= left:
            return False
    for j in range(n):
        out[j] = 1.0 if j == best else 0.0
    return True


# --- features ------------------------------------------------------------------------------------------------------

@numba.njit(cache=True)
def _features(known, unseen, face_up, scores, golds, rush, perm, rot, per_kind, out, row):
    """The feature row of a state given in one seat's frame, written for the seat ``rot`` places later (kinds
    through ``perm``). The row: known and unseen per kind (/4), the face-up kind (one-hot), per seat its points
    (/20), gold cards (/10) and lead over the best other seat (/10), the gold left (/20), the cards left (/32),
    the unseen cards (/32), the rush, and per seat the most gold it could strike on its turn with two remembered
    cards (/4). Seats are counted from the row's mover."""
    k, n = len(known), len(scores)
    gold, strength, owner = per_kind[GOLD], per_kind[STRENGTH], per_kind[OWNER]
    for j in range(out.shape[1]):
        out[row, j] = 0.0
    left, cards, hidden = 0, 0, 0
    for kind in range(k):
        out[row, perm[kind]] = known[kind] / 4.0
        out[row, k + perm[kind]] = unseen[kind] / 4.0
        left += gold[kind] * (known[kind] + unseen[kind])
        cards += known[kind] + unseen[kind]
        hidden += unseen[kind]
    if face_up >= 0:
        out[row, 2 * k + perm[face_up]] = 1.0
        cards += 1
    at = 3 * k
    for j in range(n):
        to = (j - rot) % n
        other = -1
        for i in range(n):
            if i != j and (other < 0 or scores[i] > other):
                other = scores[i]
        out[row, at + to] = scores[j] / 20.0
        out[row, at + n + to] = golds[j] / 10.0
        out[row, at + 2 * n + to] = (scores[j] - other) / 10.0
    at += 3 * n
    out[row, at] = left / 20.0
    out[row, at + 1] = cards / 32.0
    out[row, at + 2] = hidden / 32.0
    out[row, at + 3] = 1.0 if rush else 0.0
    at += 4
    for j in range(n):  # the strongest remembered miner that would strike for seat j on its turn, then the gold
        reach = 0
        for kind in range(k):
            if known[kind] > 0 and strength[kind] > reach and (owner[kind] == j or owner[kind] < 0):
                reach = strength[kind]
        best = 0
        for kind in range(GOLD_KINDS):
            if known[kind] > 0 and reach >= gold[kind] > best:
                best = gold[kind]
        out[row, at + (j - rot) % n] = best / 4.0


@numba.njit(cache=True)
def write_features(games: Games, t: Rules, out: np.ndarray) -> None:
    """The feature row of each game not over, from its mover's side, into ``out[g]``."""
    identity = np.arange(games.known.shape[1])
    for g in range(len(games.done)):
        if not games.done[g]:
            _features(games.known[g], games.unseen[g], games.face_up[g], games.scores[g], games.golds[g],
                      games.rush[g], identity, 0, t.per_kind, out, g)


# --- the search ---------------------------------------------------------------------------------------------------

@numba.njit(cache=True)
def _count_leaves(known, unseen, face_up, rush):
    """How many leaves one decision's search lists."""
    kinds_known, kinds_unseen = 0, 0
    for kind in range(len(known)):
        kinds_known += known[kind] > 0
        kinds_unseen += unseen[kind] > 0
    if rush or face_up >= 0:
        return kinds_known + kinds_unseen
    total = 0
    for kind in range(len(known)):  # a first card, then every second one still face down
        for source in range(2):
            if (known[kind] if source == 0 else unseen[kind]) > 0:
                second_known = kinds_known - (source == 0 and known[kind] == 1)
                second_unseen = kinds_unseen - (source == 1 and unseen[kind] == 1)
                total += second_known + second_unseen
    return total


@numba.njit(cache=True)
def count_leaves(known, unseen, face_up, rush, done, out):
    """Leaves per game (0 for a game over) into ``out``."""
    for g in range(len(done)):
        out[g] = 0 if done[g] else _count_leaves(known[g], unseen[g], face_up[g], rush[g])


@numba.njit(cache=True, inline="always")
def _next_frame(known, unseen, scores, golds, shift, to_known, to_unseen, to_scores, to_golds):
    """A state's counts and standing, given in the mover's frame, written in the next seat's (the destinations
    must not be the sources)."""
    for kind in range(len(known)):
        to_known[shift[kind]] = known[kind]
        to_unseen[shift[kind]] = unseen[kind]
    n = len(scores)
    for j in range(n):
        to_scores[(j - 1) % n] = scores[j]
        to_golds[(j - 1) % n] = golds[j]


@numba.njit(cache=True)
def _leaf(known, unseen, scores, golds, rush, rush_at, per_kind, feats, fixed, exact, row, states):
    """A state where the next seat is to move, given in the mover's frame: its exact value into ``fixed[row]``
    (seats from the mover) with ``exact[row]``, or its feature row from the next seat's side into ``feats`` and,
    if ``states`` has rows, the state itself in that seat's frame (``Games``' first arrays and ``rush``)."""
    if _decided(known, unseen, scores, golds, per_kind[GOLD], fixed[row]):
        exact[row] = True
        for j in range(feats.shape[1]):
            feats[row, j] = 0.0
        return
    exact[row] = False
    rush = rush or _rush_begins(known, unseen, per_kind, rush_at)
    _features(known, unseen, -1, scores, golds, rush, per_kind[SHIFT], 1, per_kind, feats, row)
    leaf_known, leaf_unseen, leaf_scores, leaf_golds, leaf_rush = states
    if len(leaf_rush) > row:
        _next_frame(known, unseen, scores, golds, per_kind[SHIFT], leaf_known[row], leaf_unseen[row],
                    leaf_scores[row], leaf_golds[row])
        leaf_rush[row] = rush


@numba.njit(cache=True, inline="always")
def _take(known, unseen, source, kind, count):
    """Take ``count`` cards of ``kind`` off the remembered counts (``source`` 0) or the unseen ones (1); a negative
    count puts them back."""
    if source == 0:
        known[kind] -= count
    else:
        unseen[kind] -= count


@numba.njit(cache=True)
def _turn_end(known, scores, golds, a, b, per_pair, sign):
    """Apply the pair ``a`` then ``b`` (both already taken off the table) to the counts (``sign`` -1: undo it)."""
    known[a] += sign * per_pair[FIRST_STAYS, a, b]
    known[b] += sign * per_pair[SECOND_STAYS, a, b]
    struck = per_pair[STRUCK, a, b]
    if struck > 0:
        scores[per_pair[RECEIVER, a, b]] += sign * struck
        golds[per_pair[RECEIVER, a, b]] += sign


@numba.njit(cache=True)
def expand(games, offsets, rush_at, t, feats, fixed, exact, states):
    """List every game's leaves from ``offsets[g]`` on (:func:`count_leaves`'s counts, summed): for each, its exact
    value or its feature row (and its state, into ``states`` if they have the rows). The order: for
    a first flip, each first option (remembered kinds, then unseen kinds) followed by each second; for a second
    flip or the rush, remembered kinds then unseen ones."""
    known, unseen, face_up, scores, golds = games.known, games.unseen, games.face_up, games.scores, games.golds
    rush, done = games.rush, games.done
    per_kind, per_pair = t.per_kind, t.per_pair
    gold = per_kind[GOLD]
    k = known.shape[1]
    for g in range(len(done)):
        if done[g]:
            continue
        row = offsets[g]
        kn, un = known[g].copy(), unseen[g].copy()
        sc, go = scores[g].copy(), golds[g].copy()
        if rush[g]:
            for source in range(2):
                for c in range(k):
                    if (kn[c] if source == 0 else un[c]) == 0:
                        continue
                    _take(kn, un, source, c, 1)
                    sc[0] += gold[c]
                    go[0] += gold[c] > 0
                    _leaf(kn, un, sc, go, True, rush_at, per_kind, feats, fixed, exact, row, states)
                    row += 1
                    sc[0] -= gold[c]
                    go[0] -= gold[c] > 0
                    _take(kn, un, source, c, -1)
            continue
        firsts = 1 if face_up[g] >= 0 else 2
        for source_a in range(firsts):
            for a in range(k):
                if face_up[g] >= 0:
                    if a != face_up[g]:
                        continue
                elif (kn[a] if source_a == 0 else un[a]) == 0:
                    continue
                else:
                    _take(kn, un, source_a, a, 1)
                for source_b in range(2):
                    for b in range(k):
                        if (kn[b] if source_b == 0 else un[b]) == 0:
                            continue
                        _take(kn, un, source_b, b, 1)  # turn the pair, list the leaf, and turn it back
                        _turn_end(kn, sc, go, a, b, per_pair, 1)
                        _leaf(kn, un, sc, go, False, rush_at, per_kind, feats, fixed, exact, row, states)
                        _turn_end(kn, sc, go, a, b, per_pair, -1)
                        _take(kn, un, source_b, b, -1)
                        row += 1
                if face_up[g] < 0:
                    _take(kn, un, source_a, a, -1)


@numba.njit(cache=True)
def _better(value, best, have):
    return not have or value > best + 1e-12


@numba.njit(cache=True)
def _seconds(kn, un, values, row, best, out):
    """Back up one first card's seconds from ``values[row:]``: the best remembered second or the unseen chance
    (whichever gives the mover most) into ``best``; per option, the mover's value into ``out`` (remembered
    kinds, then the unseen chance at ``out[-1]``, NaN where there is no such option). Returns the next row."""
    k, n = len(kn), values.shape[1]
    have = False
    for c in range(k):
        out[c] = np.nan
        if kn[c] == 0:
            continue
        out[c] = values[row, 0]
        if _better(values[row, 0], best[0], have):
            best[:] = values[row]
            have = True
        row += 1
    hidden = un.sum()
    out[k] = np.nan
    if hidden:
        mean = np.zeros(n)
        for c in range(k):
            if un[c]:
                mean += values[row] * (un[c] / hidden)
                row += 1
        out[k] = mean[0]
        if _better(mean[0], best[0], have):
            best[:] = mean
    return row


@numba.njit(cache=True)
def _options(kn, un, face_up, rush, values, row, option_values, option_mover):
    """Back up one decision: per option (a kind, or ``k`` for an unseen card) its value vector into
    ``option_values`` and the mover's share into ``option_mover`` (NaN: no such option)."""
    k, n = len(kn), values.shape[1]
    option_mover[:] = np.nan
    if rush or face_up >= 0:
        hidden = un.sum()
        mean = np.zeros(n)
        for source in range(2):
            for c in range(k):
                if (kn[c] if source == 0 else un[c]) == 0:
                    continue
                if source == 0:
                    option_values[c] = values[row]
                    option_mover[c] = values[row, 0]
                else:
                    mean += values[row] * (un[c] / hidden)
                row += 1
        if hidden:
            option_values[k] = mean
            option_mover[k] = mean[0]
        return
    seconds = np.empty(k + 1)
    best = np.zeros(n)
    hidden = un.sum()
    mean = np.zeros(n)
    for source in range(2):
        for a in range(k):
            if (kn[a] if source == 0 else un[a]) == 0:
                continue
            _take(kn, un, source, a, 1)
            row = _seconds(kn, un, values, row, best, seconds)
            _take(kn, un, source, a, -1)
            if source == 0:
                option_values[a] = best
                option_mover[a] = best[0]
            else:
                mean += best * (un[a] / hidden)
    if hidden:
        option_values[k] = mean
        option_mover[k] = mean[0]


@numba.njit(cache=True)
def options(known, unseen, face_up, rush, done, offsets, values, option_values, option_mover):
    """Every game's options from its leaves' values (``values[r, j]``: seat ``j`` counted from
    the decision's mover)."""
    for g in range(len(done)):
        if not done[g]:
            _options(known[g].copy(), unseen[g].copy(), face_up[g], rush[g], values, offsets[g],
                     option_values[g], option_mover[g])


@numba.njit(cache=True)
def _draw(counts, rng, g):
    """A kind drawn with the odds of ``counts`` from game ``g``'s stream."""
    x = _uniform(rng, g) * counts.sum()
    for kind in range(len(counts)):
        x -= counts[kind]
        if x < 0:
            return kind
    for kind in range(len(counts) - 1, -1, -1):
        if counts[kind]:
            return kind
    return -1


@numba.njit(cache=True)
def _flip(games, g, action, kind, rush_at, t):
    """Game ``g``'s mover turns a card of ``kind`` (remembered, or unseen when ``action`` is the unseen option)."""
    known, unseen, face_up, scores, golds, rush = (games.known, games.unseen, games.face_up, games.scores,
                                                   games.golds, games.rush)
    gold = t.per_kind[GOLD]
    k = known.shape[1]
    if action == k:
        unseen[g, kind] -= 1
    else:
        known[g, kind] -= 1
    if not rush[g] and face_up[g] < 0:
        face_up[g] = kind
        return
    if rush[g]:
        scores[g, 0] += gold[kind]
        golds[g, 0] += gold[kind] > 0
    else:
        _turn_end(known[g], scores[g], golds[g], face_up[g], kind, t.per_pair, 1)
        face_up[g] = -1
    # the next seat moves: turn the frame one seat on
    _next_frame(known[g].copy(), unseen[g].copy(), scores[g].copy(), golds[g].copy(), t.per_kind[SHIFT], known[g],
                unseen[g], scores[g], golds[g])
    games.seat[g] = (games.seat[g] + 1) % scores.shape[1]
    games.turn[g] += 1
    _start_turn(games, g, t.per_kind, rush_at)


@numba.njit(cache=True)
def play(games, option_mover, rng, explore, temperature, rush_at, t, out_action, out_kind):
    """Every game not over plays one flip: the option best for its mover (the first of equals), or with chance
    ``explore`` one drawn with weights ``exp(value / temperature)``; an unseen card's kind is drawn with its odds.
    The option and the kind turned go to ``out_action`` and ``out_kind`` (-1 for a game over)."""
    k = games.known.shape[1]
    for g in range(len(games.done)):
        out_action[g] = out_kind[g] = -1
        if games.done[g]:
            continue
        values = option_mover[g]
        action, top = -1, -1.0
        for c in range(k + 1):
            if not np.isnan(values[c]) and (action < 0 or values[c] > top + 1e-12):
                action, top = c, values[c]
        if explore > 0 and _uniform(rng, g) < explore:
            total = 0.0
            for c in range(k + 1):
                if not np.isnan(values[c]):
                    total += np.exp((values[c] - top) / temperature)
            x = _uniform(rng, g) * total
            for c in range(k + 1):
                if not np.isnan(values[c]):
                    x -= np.exp((values[c] - top) / temperature)
                    if x < 0:
                        action = c
                        break
        kind = _draw(games.unseen[g], rng, g) if action == k else action
        out_action[g], out_kind[g] = action, kind
        _flip(games, g, action, kind, rush_at, t)


# --- the Python face -----------------------------------------------------------------------------------------------

def relative_kinds(num_players: int, mover: int) -> tuple[int, ...]:
    """Per card id, its kind in the frame of seat ``mover``."""
    owners = tuple(-1 if o < 0 else (o - mover) % num_players for o in colour_owners(num_players))
    return card_kinds(num_players, owners)


def of_view(view: SeatView) -> Games:
    """The public state a view shows, as a batch of one game (with perfect memory every seat's view gives the
    same); refused if the game is over."""
    if view.current_player is None:
        raise GoldrushEnvError("the game is over: it has no seat to move")
    n, mover = view.num_players, view.current_player
    kinds = relative_kinds(n, mover)
    games = Games(np.zeros((1, num_kinds(n)), np.int64), np.zeros((1, num_kinds(n)), np.int64),
                  np.full(1, -1, np.int64), np.zeros((1, n), np.int64), np.zeros((1, n), np.int64),
                  np.array([view.gold_rush]), np.array([view.turn], np.int64), np.array([mover], np.int64),
                  np.zeros(1, np.bool_))
    for position, card in enumerate(view.cards):
        if card < 0:
            continue
        if position == view.face_up:
            games.face_up[0] = kinds[card]
        else:
            games.known[0, kinds[card]] += 1
    for card, count in enumerate(view.unseen):
        games.unseen[0, kinds[card]] += count
    if games.unseen.sum() != sum(card == UNKNOWN for card in view.cards):
        raise GoldrushEnvError("inconsistent view: the unseen cards do not match the positions nobody can place")
    for j in range(n):
        games.scores[0, j] = view.scores[(mover + j) % n]
        games.golds[0, j] = view.gold_cards[(mover + j) % n]
    return games


def position_of(view: SeatView, option: int, rng: np.random.Generator) -> int:
    """A legal position of ``view`` realising ``option`` (a kind in the frame of the seat to move, or
    ``num_kinds`` for an unseen card), drawn from ``rng``."""
    legal = view.legal_actions.tolist()
    if option == num_kinds(view.num_players):
        choices = [p for p in legal if view.cards[p] < 0]
    else:
        kinds = relative_kinds(view.num_players, view.current_player)
        choices = [p for p in legal if view.cards[p] >= 0 and kinds[view.cards[p]] == option]
    if not choices:
        raise GoldrushEnvError(f"option {option} has no legal position in this view")
    return int(choices[rng.integers(len(choices))])


class Search:
    """The one-turn expectimax of the module docstring over a batch of games at a table of ``num_players`` whose
    rush begins at ``rush_at`` cards. ``evaluate`` maps feature rows ``(m, num_features)`` (float32) to each
    seat's win share ``(m, num_players)``, seats counted from the row's mover: a network's value head. With
    ``on_states`` it is given the leaves' states instead (:class:`Games`, each at the start of the next seat's
    turn, in its frame), as the exact solver (:mod:`~goldrush_agents.gold.optimal`) reads its table."""

    def __init__(self, num_players: int, rush_at: int, evaluate, on_states: bool = False) -> None:
        self.rules = rules(num_players)
        self.num_players = num_players
        self.rush_at = int(rush_at)
        self.evaluate = evaluate
        self.on_states = on_states

    def options(self, games: Games, depth: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """Per game and option (a kind in the mover's frame, or an unseen card at ``num_kinds``): its value to each
        seat ``(b, options, num_players)``, seats from the mover, and its value to the mover ``(b, options)``;
        NaN where a game has no such option (or is over). ``depth`` 2 values each leaf by the next seat's own
        one-turn search (its best option for itself) instead of by ``evaluate``: two turns of lookahead."""
        check_int("depth", depth, 1, 2)
        t, n = self.rules, self.num_players
        b, k = games.known.shape
        counts = np.zeros(b, np.int64)
        count_leaves(games.known, games.unseen, games.face_up, games.rush, games.done, counts)
        offsets = np.zeros(b, np.int64)
        np.cumsum(counts[:-1], out=offsets[1:])
        rows = int(counts.sum())
        keep = rows if depth == 2 or self.on_states else 0
        feats = np.empty((rows, num_features(n)), np.float32)
        values, exact = np.zeros((rows, n)), np.zeros(rows, np.bool_)
        leaves = Games(np.zeros((keep, k), np.int64), np.zeros((keep, k), np.int64), np.full(keep, -1, np.int64),
                       np.zeros((keep, n), np.int64), np.zeros((keep, n), np.int64), np.zeros(keep, np.bool_),
                       np.zeros(keep, np.int64), np.zeros(keep, np.int64), np.zeros(keep, np.bool_))
        expand(games, offsets, self.rush_at, t, feats, values, exact, (leaves.known, leaves.unseen, leaves.scores,
                                                                      leaves.golds, leaves.rush))
        if keep:
            leaves.seat[:], leaves.turn[:] = np.repeat((games.seat + 1) % n, counts), np.repeat(games.turn + 1, counts)
        need = np.flatnonzero(~exact)
        if len(need) and depth == 1:  # valued from the next seat's side: seat j there is seat j + 1 from the mover
            given = Games(*(array[need] for array in leaves)) if self.on_states else feats[need]
            values[need] = np.roll(np.asarray(self.evaluate(given), dtype=np.float64), 1, axis=1)
        elif len(need):  # the next seat's searches, a chunk of at most CHUNK_ROWS leaves of theirs at a time
            inner = np.zeros(len(need), np.int64)
            count_leaves(leaves.known[need], leaves.unseen[need], leaves.face_up[need], leaves.rush[need],
                         exact[need], inner)
            starts = np.flatnonzero(np.diff(np.cumsum(inner) // CHUNK_ROWS, prepend=-1))
            for start, stop in zip(starts, [*starts[1:], len(need)]):
                chunk = need[start:stop]
                deeper, mover = self.options(Games(*(array[chunk] for array in leaves)), depth=1)
                best = np.nanargmax(mover, axis=1)
                values[chunk] = np.roll(deeper[np.arange(len(chunk)), best], 1, axis=1)
        option_values, option_mover = np.full((b, k + 1, n), np.nan), np.full((b, k + 1), np.nan)
        options(games.known, games.unseen, games.face_up, games.rush, games.done, offsets, values, option_values,
                option_mover)
        return option_values, option_mover

    def play(self, games: Games, option_mover: np.ndarray, rng: np.ndarray, explore: float = 0.0,
             temperature: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """Every game not over plays one flip chosen from ``option_mover`` (:func:`play`), drawing from its stream
        ``rng[g]``; returns the options taken and the kinds turned (-1 for games over)."""
        actions, kinds = np.full(len(games.done), -1, np.int64), np.full(len(games.done), -1, np.int64)
        play(games, option_mover, rng, float(explore), float(temperature), self.rush_at, self.rules, actions, kinds)
        return actions, kinds

    def flip(self, games: Games, g: int, action: int, kind: int) -> None:
        """Game ``g``'s mover turns a card of ``kind`` in its frame: a remembered one, or an unseen one when
        ``action`` is ``num_kinds`` (unseen); refused if no such card lies face down."""
        k = games.known.shape[1]
        counts = games.unseen if action == k else games.known
        if games.done[g] or not (0 <= kind < k and counts[g, kind] > 0) or action not in (kind, k):
            raise GoldrushEnvError(f"game {g} has no {'unseen' if action == k else 'remembered'} card of kind {kind} "
                                   f"to turn")
        _flip(games, g, action, kind, self.rush_at, self.rules)


__all__ = ["CHUNK_ROWS", "MAX_TURNS", "Games", "Rules", "Search", "box", "count_leaves", "expand", "num_actions",
           "num_features", "num_kinds", "of_view", "options", "play", "position_of", "relative_kinds", "rules",
           "lead_share", "shares", "stalemate", "start_turns", "write_features"]
