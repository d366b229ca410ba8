"""``search``: a Monte Carlo search of Gold Rush over the dice and the pieces the seat has not seen.

At a Stake Claim and at each action of a Development turn, the two decision points where an economy is made,
the player tries every legal action on ``rollouts`` games sampled from what its seat knows
(:meth:`Game.sample <goldrush_env.piecepack.engine.Game.sample>`: the pieces it has not identified dealt at random
from those it has not seen, the dice to come drawn), plays each on to the end with a fixed rollout policy, and
takes the action with the best mean outcome for its seat: its share of the win (shared wins split), plus a
hundredth of its final score (``score_weight``) to tell apart what the win share ties. Every action is tried on
the same sampled games (common random numbers), so the comparison is between actions, not between samples.
Elsewhere (Free Trade, offers, the Market, the Warehouse) it plays as the economist.

More rollouts make it stronger and slower. ``halvings`` spends them where they decide (sequential halving):
after ``rollouts`` games an action, the better half of the actions play as many games again on new samples,
the better half of those twice as many more, and so on ``halvings`` times, so that the last few are compared
over ``rollouts * 2**halvings`` games each at about a third of the cost (``halvings=3`` with 8 rollouts: 64 games
for the finalists, about three times the time of the plain search).

The rollout policy is ``"idle"`` by default: every seat then does nothing more (ends its turns, declines,
claims the lowest free plot), while production, upkeep and spoilage run on, so an action is judged by what it
makes without any further decision. In the other policies the searching seat plays on (and the other seats
stay idle, but in the last):

* ``"builder"``: the seat builds an 8-point building (the cheapest it can pay) in each Development turn it can,
  so that saving towards one counts; about a quarter slower than ``"idle"``;
* ``"self"``: the seat plays on as the economist, so that a Mine, a Farm or an assay is judged by the economy
  it starts (about five times slower than ``"idle"``);
* ``"economist"``: the economist in every seat (slower still).

With ``compiled=True`` (idle rollouts only) the rollouts run in the compiled kernel
(:func:`goldrush_agents.piecepack.idle.idle_rollouts`), about 25 times faster a decision; each sampled game's dice
then come from a SplitMix stream (:mod:`goldrush_env.streams`) rather than numpy's generator, so the choices are
those of the same rule on other dice (tests hold the two equal on the same dice).

Against players who never act (benchmarks/piecepack_ladder.py, 3 players, 1,000 games), the default won alone
0.44 of the games and ``search[policy='builder',score_weight=0.2]`` 0.45 (docs/piecepack.md);
benchmarks/piecepack_ceiling.py shows what the same search reaches when it sees the true pieces and dice. No
network is trained here: the search improves on its rollout policy directly (the shipped ``taught`` for 3 players
is a network fitted to this player's decisions).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from goldrush_env.checks import check_int, check_number
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack import kernel
from goldrush_env.piecepack.components import MARKET, NUM_PLOTS, SCORING, TRADE_ROUTE, WAREHOUSE
from goldrush_env.piecepack.engine import Game, Phase
from goldrush_env.policy import SeededPolicy

from goldrush_agents.piecepack.economist import PiecepackEconomist
from goldrush_agents.piecepack.idle import idle_rollouts

SEARCHED = (Phase.CLAIM, Phase.DEVELOPMENT_TURN)
"""The decision points the search plays; the economist plays the others."""
POLICIES = ("idle", "builder", "self", "economist")
"""The rollout policies, fastest first (see the module docstring)."""
_PASS = {Phase.FREE_TRADE_TURN: A.END_FREE_TRADE, Phase.DEVELOPMENT_TURN: A.END_DEVELOPMENT,
         Phase.OFFER_RESPONSE: A.DECLINE, Phase.WAREHOUSE_FOOD: A.WAREHOUSE_DECLINE,
         Phase.WAREHOUSE_ENERGY: A.WAREHOUSE_DECLINE}


def idle_action(game: Game) -> int:
    """What a seat that does nothing takes: the pass of the decision point, the lowest free plot at a claim,
    the smallest sale at the Market (a sale is owed once rolled; an idle seat never rolls)."""
    phase = game.phase
    if phase is Phase.CLAIM:
        return game.owner.index(-1)
    if phase is Phase.MARKET_SELL:
        return int(np.flatnonzero(game.legal_mask())[0])
    return _PASS[phase]


class _View(NamedTuple):
    """What the economist reads of a seat's view in a rollout: no observation vector to encode."""

    seat: int
    knowledge: dict
    action_mask: np.ndarray


_SCORING_BUILDS = [A.build(b, p) for b in (WAREHOUSE, TRADE_ROUTE, MARKET) for p in range(NUM_PLOTS)]


def builder_action(game: Game) -> int:
    """An idle seat that builds an 8-point building in its Development turn whenever it can pay for one (the
    cheapest first: Warehouse, Trade Route, Market), never over an 8-point building."""
    if game.phase is Phase.DEVELOPMENT_TURN:
        mask = game.legal_mask()
        for action in _SCORING_BUILDS:
            if mask[action] and game.building[(action - A.BUILD) % NUM_PLOTS] not in SCORING:
                return action
    return idle_action(game)


def outcome(game: Game, seat: int, score_weight: float = 0.01) -> float:
    """The seat's win share (1/k of k winners) plus ``score_weight`` times its score."""
    winners = game.winners()
    return (1.0 / len(winners) if seat in winners else 0.0) + score_weight * game.scores()[seat]


class PiecepackSearch(SeededPolicy):
    """The search player of the module docstring. ``rollouts``: sampled games per action tried (1 to 256);
    ``policy``: the rollout policy, one of :data:`POLICIES`; ``score_weight``: what a point of final score
    adds to a rollout's win share (0 to 1); ``halvings``: rounds of sequential halving (0 to 6; 0, the default,
    tries every action on ``rollouts`` games and no more); ``compiled``: the idle rollouts in the kernel."""

    name = "search"

    def __init__(self, seed: int | None = None, rollouts: int = 8, policy: str = "idle",
                 score_weight: float = 0.01, halvings: int = 0, compiled: bool = False) -> None:
        rollouts = check_int("rollouts", rollouts, 1, 256)
        if policy not in POLICIES:
            raise GoldrushEnvError(f"policy must be one of {list(POLICIES)}, got {policy!r}")
        score_weight = check_number("score_weight", score_weight, 0, 1)
        if compiled not in (False, True) or compiled and policy != "idle":
            raise GoldrushEnvError(f"compiled must be False or True, and True only with policy='idle', got "
                                   f"{compiled!r} with policy={policy!r}")
        super().__init__(seed)
        halvings = check_int("halvings", halvings, 0, 6)
        self.rollouts, self.policy, self.score_weight, self.halvings = rollouts, policy, score_weight, halvings
        self.compiled = bool(compiled)
        self.economist = PiecepackEconomist(seed)

    def __repr__(self) -> str:
        return (f"PiecepackSearch(rollouts={self.rollouts}, policy={self.policy!r}, "
                f"score_weight={self.score_weight!r}, halvings={self.halvings!r}, compiled={self.compiled!r})")

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.economist.reset(None if seed is None else seed + 1)

    def act(self, view: Any) -> int:
        known = view.knowledge
        legal = np.flatnonzero(view.action_mask)
        if Phase(known["phase"]) not in SEARCHED or len(legal) == 1:
            return self.economist.act(view)
        batch = self.rollouts
        totals = np.zeros(len(legal))
        for stage in range(self.halvings + 1):
            totals += self.values(known, legal, self.rng.integers(2**63, size=batch))
            if stage == self.halvings or len(legal) == 1:
                break
            # Sequential halving: the better half (ties in a random order) goes on, with as many games again.
            order = self.rng.permutation(len(legal))
            keep = np.sort(order[np.argsort(-totals[order], kind="stable")[:(len(legal) + 1) // 2]])
            legal, totals, batch = legal[keep], totals[keep], self.rollouts << stage
        best = np.flatnonzero(totals >= totals.max() - 1e-9)
        return int(legal[best[self.rng.integers(len(best))]])

    def values(self, known: dict, legal: np.ndarray, seeds: np.ndarray) -> np.ndarray:
        """The sum over one sampled game per seed of the outcome of each action of ``legal`` (every action is
        played on its own copy of each game, the dice generator too: common random numbers)."""
        seat = known["seat"]
        if self.compiled:  # the same rollouts in the kernel, the dice from a SplitMix stream per seed
            samples = np.stack([kernel.state_of(self._game(known, int(seed))) for seed in seeds])
            out = np.zeros(len(legal))
            idle_rollouts(samples, seeds.astype(np.uint64), legal.astype(np.int64), seat, self.score_weight,
                                 out)
            return out
        samples = [(self._game(known, int(seed)), int(seed)) for seed in seeds]
        return np.array([sum(self._rollout(sample.copy(), seat, int(action), seed) for sample, seed in samples)
                         for action in legal])

    def _game(self, known: dict, seed: int) -> Game:
        """The game a rollout plays on: one sampled from what the seat knows, its dice drawn from ``seed``."""
        return Game.sample(known, np.random.default_rng(seed))

    def _rollout(self, game: Game, seat: int, action: int, seed: int) -> float:
        """``action`` on ``game`` (a sampled game, played on), then the rollout policy to the end. Every action
        here is legal (from the mask, or a pass), so the game takes it without asking the rules again."""
        game.step_legal(action)
        if self.policy == "idle":
            while not game.is_over:
                game.step_legal(idle_action(game))
        elif self.policy == "builder":
            while not game.is_over:
                game.step_legal(builder_action(game) if game.current_player == seat else idle_action(game))
        else:
            players = [PiecepackEconomist(seed + s) for s in range(game.num_players)]
            while not game.is_over:
                mover = game.current_player
                if self.policy == "self" and mover != seat:
                    game.step_legal(idle_action(game))
                else:
                    game.step_legal(players[mover].act(_View(mover, game.known_to(mover), game.legal_mask())))
        return outcome(game, seat, self.score_weight)


__all__ = ["POLICIES", "SEARCHED", "PiecepackSearch", "builder_action", "idle_action", "outcome"]
