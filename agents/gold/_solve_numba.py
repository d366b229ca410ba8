"""The exact solver's inner loop, compiled with numba (see :mod:`goldrush_agents.gold.optimal`).

Every table configuration (per kind present: remembered and unseen counts) has an index, a mixed-radix number
of one digit per kind. The values ``V[config, mover, lead, cards_lead]`` (seat 0's win share at the start of
``mover``'s turn, with seat 0 ``lead`` points and ``cards_lead`` gold cards ahead, offset by ``max_lead`` and
``max_cards``) are filled in order of fewer cards, then fewer unseen ones, so that every state a turn can lead
to is done before it. A lead larger than the gold left decides the game and is not stored.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from goldrush_agents.gold.turns import lead_share as _standing
from goldrush_agents.gold.turns import stalemate


@njit(cache=True)
def _look(values, c, mover, lead, cards_lead, gold_left, max_lead, max_cards):
    """Seat 0's value at a turn start, decided games computed rather than read."""
    if gold_left == 0:
        return _standing(lead, cards_lead)
    if lead > gold_left:
        return 1.0
    if -lead > gold_left:
        return 0.0
    return values[c, mover, lead + max_lead, cards_lead + max_cards]


@njit(cache=True)
def solve(order, configs, kinds, pairs, rush_at, values):
    """Fill ``values`` (configs x 2 x (2 max_lead + 1) x (2 max_cards + 1), float32) in ``order``. ``configs``:
    ``(kn_of, un_of, digit, stride)``, per kind and digit the remembered and unseen counts, their inverse, and each
    kind's stride in a configuration's index; ``kinds``: arrays per kind present, ``(n, gold, miner)``: counts,
    gold values (0 if not gold), miner strengths (0 if not a miner; dynamite has neither); ``pairs``: per pair of kinds
    (first, second), ``(stay_a, stay_b, strike, receiver)``: whether each card goes back face down, the gold's value
    struck (0 if none), and who takes it (0, 1, or -1 for the mover)."""
    kn_of, un_of, digit, stride = configs
    n, gold, miner = kinds
    stay_a, stay_b, strike, receiver = pairs
    num_kinds = len(n)
    max_lead = (values.shape[2] - 1) // 2
    max_cards = (values.shape[3] - 1) // 2
    kn = np.zeros(num_kinds, np.int64)
    un = np.zeros(num_kinds, np.int64)
    progress = np.zeros((2, values.shape[2], values.shape[3]), np.float64)
    for c in order:
        rest = c
        cards = 0
        unseen = 0
        gold_left = 0
        gold_gone = 0
        cards_gone = 0
        for k in range(num_kinds - 1, -1, -1):
            d = rest // stride[k]
            rest -= d * stride[k]
            kn[k] = kn_of[k, d]
            un[k] = un_of[k, d]
            cards += kn[k] + un[k]
            unseen += un[k]
            gold_left += gold[k] * (kn[k] + un[k])
            if gold[k] > 0:
                gold_gone += gold[k] * (n[k] - kn[k] - un[k])
                cards_gone += n[k] - kn[k] - un[k]
        if gold_left == 0:
            continue  # every such state is decided and read by _look
        bound = min(gold_gone, gold_left, max_lead)
        cbound = min(cards_gone, max_cards)
        rush = cards <= rush_at or stalemate(kn + un, gold, miner)
        can_pass = False
        for lead in range(-bound, bound + 1):
            for cl in range(-cbound, cbound + 1):
                for mover in range(2):
                    nxt = 1 - mover
                    sign = 1.0 if mover == 0 else -1.0  # each mover maximizes sign * value
                    first_best = -np.inf
                    chance_a = 0.0
                    if rush:
                        for a in range(num_kinds):
                            for source in range(2):
                                count = kn[a] if source == 0 else un[a]
                                if count == 0:
                                    continue
                                if source == 0:
                                    c2 = c + (digit[a, kn[a] - 1, un[a]] - digit[a, kn[a], un[a]]) * stride[a]
                                else:
                                    c2 = c + (digit[a, kn[a], un[a] - 1] - digit[a, kn[a], un[a]]) * stride[a]
                                to = 1 if mover == 0 else -1
                                lead2 = lead + to * gold[a]
                                cl2 = cl + (to if gold[a] > 0 else 0)
                                v = _look(values, c2, nxt, lead2, cl2, gold_left - gold[a], max_lead, max_cards)
                                if source == 0:
                                    first_best = max(first_best, sign * v)
                                else:
                                    chance_a += count * v
                        if unseen:
                            first_best = max(first_best, sign * chance_a / unseen)
                        progress[mover, lead + max_lead, cl + max_cards] = sign * first_best
                        continue
                    for a in range(num_kinds):
                        for source_a in range(2):
                            count_a = kn[a] if source_a == 0 else un[a]
                            if count_a == 0:
                                continue
                            kn_a0 = kn[a]
                            un_a0 = un[a]
                            if source_a == 0:
                                kn[a] -= 1
                            else:
                                un[a] -= 1
                            second_best = -np.inf
                            chance_b = 0.0
                            for b in range(num_kinds):
                                for source_b in range(2):
                                    count_b = kn[b] if source_b == 0 else un[b]
                                    if count_b == 0:
                                        continue
                                    if source_a == 0 and source_b == 0 and stay_a[a, b] and stay_b[a, b]:
                                        can_pass = True
                                        continue  # a pass: the equilibrium below
                                    kn_b0 = kn[b]
                                    un_b0 = un[b]
                                    if source_b == 0:
                                        kn[b] -= 1
                                    else:
                                        un[b] -= 1
                                    kn[a] += stay_a[a, b]
                                    kn[b] += stay_b[a, b]
                                    if a == b:
                                        c2 = c + (digit[a, kn[a], un[a]] - digit[a, kn_a0, un_a0]) * stride[a]
                                    else:
                                        c2 = (c + (digit[a, kn[a], un[a]] - digit[a, kn_a0, un_a0]) * stride[a]
                                              + (digit[b, kn[b], un[b]] - digit[b, kn_b0, un_b0]) * stride[b])
                                    kn[a] -= stay_a[a, b]
                                    kn[b] -= stay_b[a, b]
                                    if source_b == 0:
                                        kn[b] += 1
                                    else:
                                        un[b] += 1
                                    lead2 = lead
                                    cl2 = cl
                                    lost = 0
                                    if not stay_a[a, b]:
                                        lost += gold[a]
                                    if not stay_b[a, b]:
                                        lost += gold[b]
                                    if strike[a, b] > 0:
                                        r = receiver[a, b]
                                        if r < 0:
                                            r = mover
                                        to = 1 if r == 0 else -1
                                        lead2 += to * strike[a, b]
                                        cl2 += to
                                    v = _look(values, c2, nxt, lead2, cl2, gold_left - lost, max_lead, max_cards)
                                    if source_b == 0:
                                        second_best = max(second_best, sign * v)
                                    else:
                                        chance_b += count_b * v
                            left_unseen = unseen - source_a
                            if left_unseen:
                                second_best = max(second_best, sign * chance_b / left_unseen)
                            if source_a == 0:
                                kn[a] += 1
                                first_best = max(first_best, second_best)
                            else:
                                un[a] += 1
                                chance_a += count_a * second_best
                    if unseen:
                        first_best = max(first_best, chance_a / unseen)
                    progress[mover, lead + max_lead, cl + max_cards] = sign * first_best
                p0 = progress[0, lead + max_lead, cl + max_cards]
                p1 = progress[1, lead + max_lead, cl + max_cards]
                if can_pass and not rush:
                    s = _standing(lead, cl)
                    values[c, 0, lead + max_lead, cl + max_cards] = max(p0, min(p1, s))
                    values[c, 1, lead + max_lead, cl + max_cards] = min(p1, max(p0, s))
                else:
                    values[c, 0, lead + max_lead, cl + max_cards] = p0
                    values[c, 1, lead + max_lead, cl + max_cards] = p1
