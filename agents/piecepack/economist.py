"""The economist: a readable heuristic player of the piecepack game (see :class:`PiecepackEconomist`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.components import (
    BUILD_COST,
    ENERGY,
    FOOD,
    GOLD,
    GOLD_MINE,
    MAX_LEVEL,
    MINE,
    NUM_PLOTS,
    NUM_ROUNDS,
    OPTIMIZE_COST,
    PRODUCTION,
    SCORING,
    TRADE_ROUTE_RATE,
    UPGRADE_COST,
    WAREHOUSE,
)
from goldrush_env.policy import SeededPolicy

from goldrush_agents.piecepack.features import (
    FINAL_WORTH,
    FOOD_RESERVE,
    SAME_KIND,
    WORTH,
    can_pay,
    cost_worth,
    expected_units,
    hit_chance,
    known_code,
    plot_pieces,
    value_now,
    value_optimized,
    yearly_value,
)


class PiecepackEconomist(SeededPolicy):
    """``economist``: a heuristic economy that reads only its own view.

    Rules of thumb, phase by phase (values are rough points per unit, :data:`WORTH`):

    * **Claim**: the unoccupied plot whose best production building yields most per round, judged by what
      the seat knows (face-up pieces, the coin suit of each row, its own assays: an assayed high rank counts
      at its optimized value), discounted when it already owns plots suited to the same building
      (:data:`SAME_KIND`). Ties go to the lowest plot.
    * **Development**, one action at a time, best first:

      1. build an 8-point building (Warehouse, then Trade Route, then Market: the cheapest it can pay) on its
         emptiest plot, replacing a production building only if what it would still produce is worth less;
      2. optimize a face-down piece whose assayed identity is worth more to the building on its plot;
      3. build the production building whose expected output over the rounds left beats its cost on an empty
         plot (a Farm on Moons, a Windmill on Suns, a Mine on Arms, a Gold Mine on Crowns...);
      4. upgrade a production building when the extra output over the rounds left beats Energy + Gold;
      5. assay a face-down piece under its own production building that could matter to it (a tile, or a
         coin of the building's suit) while enough rounds remain and Food allows;
      6. otherwise end the turn. It keeps one Food back (the last Food never spoils and breaks ties), and
         spends nothing on the economy in the last round but 8-point buildings.

    * **Free Trade**: it uses a Trade Route when that completes an 8-point building (or, in the last round,
      turns 3 Energy into a Gold), sells Food for Gold at its Market down to the Food it needs, makes at most
      one offer a turn (1 unit it can spare for 1 unit that completes an 8-point building, or else 1 unit it
      can spare for 2 units worth more), then ends.
    * **Offers to it**: accepted when what it gets is worth at least what it gives (in the last round, by
      score) and it keeps its Food reserve, declined otherwise.
    * **Warehouse**: protects Food when it would lose 2 or more, Energy when it would still keep more than 1
      after paying.
    """

    name = "economist"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.fallbacks = 0
        """How many times its rules gave no legal action and it fell back on a random one."""

    def act(self, view: Any) -> int:
        knowledge, mask = view.knowledge, np.asarray(view.action_mask, dtype=bool)
        phase = knowledge["phase"]
        if phase == "claim":
            choice = self.claim(knowledge, view.seat, mask)
        elif phase == "development_turn":
            choice = self.develop(knowledge, view.seat, mask)
        elif phase == "free_trade_turn":
            choice = self.trade(knowledge, view.seat, mask)
        elif phase == "offer_response":
            choice = self.answer(knowledge, view.seat, mask)
        elif phase == "market_sell":
            choice = self.sell(knowledge, view.seat, mask)
        elif phase in ("warehouse_food", "warehouse_energy"):
            choice = self.warehouse(knowledge, view.seat, phase == "warehouse_food")
        else:
            choice = None
        if choice is None or not mask[choice]:  # a safety net its rules never need (the tests count on it)
            self.fallbacks += 1
            legal = np.flatnonzero(mask)
            choice = int(legal[self.rng.integers(len(legal))])
        return int(choice)

    # ---- Stake Claim

    def claim(self, knowledge: dict, seat: int, mask: np.ndarray) -> int:
        suited = [self._suited(knowledge, p) for p in range(NUM_PLOTS) if knowledge["owners"][p] == seat]
        best = max((self._claim_worth(knowledge, p, suited), -p) for p in range(NUM_PLOTS) if mask[A.claim(p)])
        return A.claim(-best[1])

    def _suited(self, knowledge: dict, plot: int) -> int:
        """The production building worth most on ``plot``, by what this seat knows."""
        return max(PRODUCTION, key=lambda b: yearly_value(knowledge, plot, b, optimized=True))

    def _claim_worth(self, knowledge: dict, plot: int, suited: list[int]) -> float:
        building = self._suited(knowledge, plot)
        return yearly_value(knowledge, plot, building, optimized=True) / (1 + SAME_KIND * suited.count(building))

    # ---- Development

    def develop(self, knowledge: dict, seat: int, mask: np.ndarray) -> int:
        have = knowledge["holdings"][seat]
        rounds_left = NUM_ROUNDS - knowledge["round"]  # productions still to come after this turn
        mine = [p for p in range(NUM_PLOTS) if knowledge["owners"][p] == seat]
        for rule in (self._build_scoring, self._optimize, self._build_production, self._upgrade, self._assay):
            if rounds_left == 0 and rule is not self._build_scoring:
                break
            choice = rule(knowledge, have, mine, rounds_left, mask)
            if choice is not None:
                return choice
        return A.END_DEVELOPMENT

    def _remaining_worth(self, knowledge: dict, plot: int, rounds_left: int) -> float:
        building = knowledge["buildings"][plot]
        if building < 0:
            return 0.0
        if building in SCORING:
            return float("inf")  # never knocks down 8 points
        return rounds_left * max(0.0, yearly_value(knowledge, plot, building, knowledge["levels"][plot]))

    def _build_scoring(self, knowledge, have, mine, rounds_left, mask) -> int | None:
        for building in sorted(SCORING, key=lambda b: cost_worth(BUILD_COST[b])):
            options = [(self._remaining_worth(knowledge, p, rounds_left), p) for p in mine
                       if mask[A.build(building, p)]]
            if options:
                lost, plot = min(options)
                if lost < 8 - cost_worth(BUILD_COST[building], FINAL_WORTH):
                    return A.build(building, plot)
        return None

    def _spare(self, have: Sequence[int], cost: Sequence[int]) -> bool:
        """Whether paying ``cost`` still leaves the Food reserve."""
        return can_pay(have, cost) and have[FOOD] - cost[FOOD] >= FOOD_RESERVE

    def _optimize(self, knowledge, have, mine, rounds_left, mask) -> int | None:
        if not self._spare(have, OPTIMIZE_COST):
            return None
        best, choice = cost_worth(OPTIMIZE_COST), None
        for plot in mine:
            building = knowledge["buildings"][plot]
            if building not in PRODUCTION:
                continue
            level = knowledge["levels"][plot]
            for piece, start in zip(plot_pieces(plot), (A.OPTIMIZE_TILE, A.OPTIMIZE_COIN)):
                if not mask[start + plot] or known_code(knowledge, piece) is None:
                    continue
                now, later = value_now(knowledge, piece, building), value_optimized(knowledge, piece, building)
                gain = rounds_left * WORTH[building] * (
                    (hit_chance(building, later + level) if later > 0 else 0.0)
                    - (hit_chance(building, now + level) if now > 0 else 0.0))
                if gain > best:
                    best, choice = gain, start + plot
        return choice

    def _build_production(self, knowledge, have, mine, rounds_left, mask) -> int | None:
        owned = [sum(1 for p in mine if knowledge["buildings"][p] == b) for b in PRODUCTION]
        best, choice = 0.0, None
        for plot in mine:
            if knowledge["buildings"][plot] >= 0:
                continue
            for building in PRODUCTION:
                cost = BUILD_COST[building]
                if not mask[A.build(building, plot)]:
                    continue
                if not self._spare(have, cost):
                    continue
                if building in (MINE, GOLD_MINE) and have[ENERGY] - cost[ENERGY] < 1:
                    continue  # a mine it cannot power next round only burns what it cost
                gain = (rounds_left * yearly_value(knowledge, plot, building) - cost_worth(cost)) \
                    / (1 + SAME_KIND * owned[building])
                if gain > best:
                    best, choice = gain, A.build(building, plot)
        return choice

    def _upgrade(self, knowledge, have, mine, rounds_left, mask) -> int | None:
        if not self._spare(have, UPGRADE_COST):
            return None
        best, choice = cost_worth(UPGRADE_COST), None
        for plot in mine:
            building, level = knowledge["buildings"][plot], knowledge["levels"][plot]
            if building not in PRODUCTION or level >= MAX_LEVEL or not mask[A.upgrade(plot)]:
                continue
            gain = rounds_left * WORTH[building] * (expected_units(knowledge, plot, building, level + 1)
                                                    - expected_units(knowledge, plot, building, level))
            if gain > best:
                best, choice = gain, A.upgrade(plot)
        return choice

    def _assay(self, knowledge, have, mine, rounds_left, mask) -> int | None:
        if rounds_left < 3 or have[FOOD] < FOOD_RESERVE + 2:
            return None  # the Food is worth more than what it could learn
        for plot in mine:
            if knowledge["buildings"][plot] not in PRODUCTION:
                continue
            if mask[A.assay_coin(plot)] and knowledge["coin_suits"][plot] == knowledge["buildings"][plot]:
                return A.assay_coin(plot)
            if mask[A.assay_tile(plot)]:
                return A.assay_tile(plot)
        return None

    # ---- Free Trade

    def _missing(self, have: Sequence[int]) -> tuple[int, list[int]] | None:
        """The cheapest 8-point building it cannot pay yet and what it lacks for it (``None`` if it can pay
        one)."""
        lacks = []
        for building in SCORING:
            short = [max(0, c - h) for c, h in zip(BUILD_COST[building], have)]
            if sum(short) == 0:
                return None
            lacks.append((sum(short), building, short))
        _, building, short = min(lacks)
        return building, short

    def trade(self, knowledge: dict, seat: int, mask: np.ndarray) -> int:
        have = knowledge["holdings"][seat]
        last = knowledge["round"] == NUM_ROUNDS
        missing = self._missing(have)
        if mask[A.TRADE_ROUTE:A.MARKET_ROLL].any():
            choice = self._trade_route(have, missing, last, mask)
            if choice is not None:
                return choice
        if mask[A.MARKET_ROLL] and have[FOOD] > self._food_needed() + 1:
            return A.MARKET_ROLL
        if knowledge["offers_made"][seat] == 0:
            choice = self._offer(knowledge, seat, have, missing, mask) if missing is not None else None
            if choice is None:
                choice = self._bargain(seat, have, mask)
            if choice is not None:
                return choice
        return A.END_FREE_TRADE

    def _food_needed(self) -> int:
        """Food it keeps from the Market: its reserve and a Warehouse's worth."""
        return FOOD_RESERVE + BUILD_COST[WAREHOUSE][FOOD]

    def _trade_route(self, have, missing, last, mask) -> int | None:
        if missing is not None:
            building, short = missing
            cost = BUILD_COST[building]
            if sum(short) == 1:
                take = short.index(1)
                for give in range(4):
                    if give != take and mask[A.trade_route(give, take)] and \
                            have[give] - TRADE_ROUTE_RATE >= cost[give] + (FOOD_RESERVE if give == FOOD else 0):
                        return A.trade_route(give, take)
        if last and mask[A.trade_route(ENERGY, GOLD)]:
            return A.trade_route(ENERGY, GOLD)
        return None

    def _offer(self, knowledge, seat, have, missing, mask) -> int | None:
        """1 unit it can spare for the 1 unit that completes an 8-point building, to whoever holds most of it."""
        building, short = missing
        if sum(short) != 1:
            return None
        take = short.index(1)
        cost = BUILD_COST[building]
        spare = [r for r in range(4) if r != take and have[r] - 1 >= cost[r] + (FOOD_RESERVE if r == FOOD else 0)]
        n = knowledge["players"]
        for give in sorted(spare, key=lambda r: WORTH[r]):
            for offset in sorted(range(1, n), key=lambda d: -knowledge["holdings"][(seat + d) % n][take]):
                action = A.offer(offset, give, 1, take, 1)
                if mask[action]:
                    return action
        return None

    def _bargain(self, seat, have, mask) -> int | None:
        """The best offer of 1 unit it can spare for 2 units that are worth more."""
        best, choice = 0.0, None
        for give in range(4):
            if have[give] - 1 < (FOOD_RESERVE if give == FOOD else 0):
                continue
            for take in range(4):
                gain = 2 * WORTH[take] - WORTH[give]
                if take == give or gain <= best:
                    continue
                for offset in range(1, 4):
                    if mask[A.offer(offset, give, 1, take, 2)]:
                        best, choice = gain, A.offer(offset, give, 1, take, 2)
                        break
        return choice

    def answer(self, knowledge: dict, seat: int, mask: np.ndarray) -> int:
        _, _, give, a, take, b = knowledge["pending_offer"]  # the offerer gives ``a`` of ``give`` to this seat
        worth = FINAL_WORTH if knowledge["round"] == NUM_ROUNDS else WORTH
        have = knowledge["holdings"][seat]
        if take == FOOD and have[FOOD] - b < FOOD_RESERVE:
            return A.DECLINE
        return A.ACCEPT if mask[A.ACCEPT] and a * worth[give] >= b * worth[take] else A.DECLINE

    def sell(self, knowledge: dict, seat: int, mask: np.ndarray) -> int:
        have = knowledge["holdings"][seat]
        keep = FOOD_RESERVE if knowledge["round"] == NUM_ROUNDS else self._food_needed()
        k = max(0, min(knowledge["market_sum"], have[FOOD] - keep))
        return A.market_sell(k)

    # ---- Production

    def warehouse(self, knowledge: dict, seat: int, food: bool) -> int:
        have = knowledge["holdings"][seat]
        keep = have[FOOD] - 1 >= 2 if food else have[ENERGY] - 1 > 1
        return A.WAREHOUSE_PROTECT if keep else A.WAREHOUSE_DECLINE
