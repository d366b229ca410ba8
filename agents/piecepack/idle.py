"""The idle player: the do-nothing baseline of Gold Rush (see :class:`Idle`), and its compiled form, which plays
the search's rollouts on Gold Rush's compiled state (:func:`idle_rollouts`)."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.components import FOOD, MAX_PLAYERS, NUM_PLOTS
from goldrush_env.piecepack.kernel import (_CLAIM, _DEVELOPMENT_TURN, _FREE_TRADE_TURN, _GAME_OVER, _HOLD,
                                           _MARKET_SELL, _N, _OFFER_RESPONSE, _OWNER, _PHASE, roll, scores, step)
from goldrush_env.streams import below

PASSES = (A.END_DEVELOPMENT, A.END_FREE_TRADE, A.DECLINE, A.WAREHOUSE_DECLINE)
"""The actions that end a decision without doing anything, tried in this order."""


class Idle:
    """Ends its turns, declines every offer and claims the lowest free plot: whenever a pass is legal it
    passes, otherwise it takes the legal action of lowest index. Deterministic, so it takes no seed.

    Doing nothing is strong in this game (docs/piecepack-rules.md §10: the last Food never spoils and Food
    breaks ties), which makes idle players the field that ``benchmarks/piecepack_ladder.py`` and
    ``benchmarks/piecepack_ceiling.py`` measure the other players against."""

    name = "idle"

    def __init__(self, seed: int | None = None) -> None:
        pass  # deterministic: a seed (which make_agent gives every player) changes nothing

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, view: Any) -> int:
        return next((a for a in PASSES if view.action_mask[a]), int(view.action_mask.argmax()))


# --- compiled: the search's rollouts ------------------------------------------------------------------------------

@numba.njit(cache=True)
def _idle_action(s):
    """:class:`Idle` on the compiled state (``goldrush_agents.piecepack.search.idle_action``): the pass of the
    decision point, the lowest free plot at a claim, the sale of nothing at the Market."""
    phase = s[_PHASE]
    if phase == _CLAIM:
        for plot in range(NUM_PLOTS):
            if s[_OWNER + plot] < 0:
                return plot
    if phase == _MARKET_SELL:
        return A.MARKET_SELL
    if phase == _FREE_TRADE_TURN:
        return A.END_FREE_TRADE
    if phase == _DEVELOPMENT_TURN:
        return A.END_DEVELOPMENT
    if phase == _OFFER_RESPONSE:
        return A.DECLINE
    return A.WAREHOUSE_DECLINE


@numba.njit(cache=True)
def _outcome(s, seat, score_weight):
    """``search.outcome``: the seat's win share (1/k of k winners: top score, then most Food) plus
    ``score_weight`` times its score."""
    n = s[_N]
    points = np.zeros(MAX_PLAYERS, dtype=np.int64)
    scores(s, points)
    best = points[:n].max()
    most, winners, won = -1, 0, False
    for other in range(n):
        if points[other] == best:
            most = max(most, s[_HOLD + 4 * other + FOOD])
    for other in range(n):
        if points[other] == best and s[_HOLD + 4 * other + FOOD] == most:
            winners += 1
            won = won or other == seat
    return (1.0 / winners if won else 0.0) + score_weight * points[seat]


@numba.njit(cache=True)
def idle_rollouts(samples, streams, actions, seat, score_weight, out):
    """For each action ``actions[j]``, legal in every state ``samples[i]``, write into ``out[j]`` the sum over
    the samples of ``seat``'s outcome when the action is taken and every seat then plays idle to the end: the
    search's rollouts. Sample ``i``'s production rolls (moon, sun, arms, crown) come from the SplitMix stream
    ``streams[i]`` (:mod:`goldrush_env.streams`), the same for every action."""
    for j in range(actions.shape[0]):
        total = 0.0
        for i in range(samples.shape[0]):
            s = samples[i].copy()
            rng = streams[i:i + 1].copy()
            action = actions[j]
            while True:
                if step(s, action, 0):
                    roll(s, below(rng, 0, 6), below(rng, 0, 6), below(rng, 0, 6), below(rng, 0, 6))
                if s[_PHASE] == _GAME_OVER:
                    break
                action = _idle_action(s)
            total += _outcome(s, seat, score_weight)
        out[j] = total
