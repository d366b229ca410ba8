"""Kuhn poker with its chance made explicit (goldrush_env.chance), which OpenSpiel then plays as
``python_goldrush_kuhn``: the worked example of docs/openspiel.md.

Chance deals seat 0's card, then seat 1's from the two left, then draws who opens. Until the deal is whole the
environment holds no game of this deal; once it is, the environment plays the game the rules make from a record
of it (``Kuhn.from_record``), so the rules need no change to let chance decide what they would have drawn."""

from __future__ import annotations

import copy
from typing import Callable

import numpy as np

from goldrush_env.chance import CHANCE, TERMINAL, ChanceGame, Position
from goldrush_env.rules_env import raw_env

from kuhn_poker.rules import CARDS, Kuhn, KuhnError, action_text, observe, to_text

DEAL = 3
"""Chance's outcomes before the first bet: seat 0's card, seat 1's card, the seat that opens."""


class KuhnChance(ChanceGame):
    """Kuhn poker for 2 seats; rewards are the environments' ``reward="win"`` (+1, -1), paid at the end."""

    title = "Kuhn poker"
    PARAMETERS = {"players": 2}
    CHOICES = {"players": (2,)}

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["players"] != 2:
            raise KuhnError(f"the parameter players must be 2, got {self.params['players']!r}")
        self.num_players, self.num_actions = 2, 2
        self.max_chance_outcomes = len(CARDS)
        self.max_game_length, self.max_chance_nodes = 3, DEAL
        self.min_utility, self.max_utility, self.utility_sum = -1.0, 1.0, 0.0
        self.perfect_information, self.terminal_rewards = False, True
        self.observation_size = 13

    def new_position(self) -> KuhnPosition:
        return KuhnPosition(self)


class KuhnPosition(Position):
    def __init__(self, game: KuhnChance) -> None:
        super().__init__(game)
        self.dealt: list[int] = []
        self.env = raw_env(game="kuhn")
        self.totals = [0.0, 0.0]

    @property
    def player(self) -> int:
        if len(self.dealt) < DEAL:
            return CHANCE
        return TERMINAL if self.env.game.is_finished else self.env.game.current_player

    def legal_actions(self) -> list[int]:
        if self.player == CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        return [] if self.player == TERMINAL else np.flatnonzero(self.env.game.legal_mask()).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if len(self.dealt) < 2:
            left = [card for card in range(len(CARDS)) if card not in self.dealt]
            return [(card, 1 / len(left)) for card in left]
        if len(self.dealt) == 2:
            return [(0, 0.5), (1, 0.5)]
        raise KuhnError("chance_outcomes() is asked where a seat acts or the hand is over")

    def apply_legal(self, action: int) -> None:
        if self.player == CHANCE:
            self.dealt.append(action)
            if len(self.dealt) == DEAL:  # the environment plays the game the rules make of this deal
                self.env.reset(seed=0, options={"first_player": self.dealt[2]})
                self.env.game = Kuhn.from_record({"cards": self.dealt[:2], "first_player": self.dealt[2],
                                                  "actions": []})
            self.rewards = [0.0, 0.0]
            return
        self.env.step(action)
        self.rewards = [self.env.rewards[agent] for agent in self.env.possible_agents]
        self.totals = [total + reward for total, reward in zip(self.totals, self.rewards)]

    def returns(self) -> list[float]:
        return list(self.totals)

    # --- what seats know ---------------------------------------------------------------------------------------

    def observation(self, seat: int) -> np.ndarray:
        if len(self.dealt) == DEAL:
            return observe(self.env.game.known_to(seat))
        vector = np.zeros(self.game.observation_size, dtype=np.float32)  # the deal so far: the seat's own card
        if seat < len(self.dealt):
            vector[self.dealt[seat]] = 1
        return vector

    def knowledge_text(self, seat: int) -> str:
        if len(self.dealt) == DEAL:
            opener = "you" if self.dealt[2] == seat else "the other player"
            return f"seat {seat}, {opener} opened\n{to_text(self.env.game.known_to(seat))}"
        return f"seat {seat}\nyour card: {CARDS[self.dealt[seat]] if seat < len(self.dealt) else 'not dealt'}"

    def public_text(self) -> str:
        bets = self.env.game.bets if len(self.dealt) == DEAL else ""
        return f"dealt {min(len(self.dealt), 2)} cards; bets: {bets or 'none'}"

    def private_text(self, seat: int) -> str:
        return CARDS[self.dealt[seat]] if seat < len(self.dealt) else ""

    def action_text(self, player: int, action: int) -> str:
        if player == CHANCE:
            dealt = len(self.dealt)
            return f"seat {dealt} gets {CARDS[action]}" if dealt < 2 else f"seat {action} opens"
        return action_text(action, self.env.game.known_to(player))

    def resample(self, seat: int, uniform: Callable[[], float]) -> KuhnPosition:
        """The other seat's card redrawn from the two ``seat`` does not hold, unless a showdown showed it."""
        if self.player == CHANCE:
            raise KuhnError("resample() is asked at a chance node")
        new = copy.deepcopy(self)
        game = new.env.game
        if not game.shown_down:
            left = [card for card in range(len(CARDS)) if card != self.dealt[seat]]
            new.dealt[1 - seat] = left[min(int(uniform() * 2), 1)]
            record = {**game.to_record(), "cards": new.dealt[:2]}
            new.env.game = Kuhn.from_record(record)
        return new
