"""*Gold* with its chance made explicit (:mod:`goldrush_env.chance`): what :mod:`goldrush_env.openspiel` plays.

Two kinds of event are left to chance, each a node with its exact probabilities:

* **A card turned for the first time.** No card is decided before someone turns it: when a seat turns a card no one
  has seen, chance draws it from the cards no one has seen, each kind with its share of them (the cards on the
  table are public as a multiset: the box less what has left it). The game it makes is dealt exactly as a shuffled
  box; the outcome is the card's id (0..24).
* **Forgetting** (``memory="human"`` only). After each completed turn, every card a seat remembers and did not see
  that turn is forgotten with ``forget_prob``: one node per seat and card, in the order the seat saw them, outcome
  1 (forget) or 0 (keep). Only that seat learns the outcome. No node follows the last turn.

With ``memory="perfect"`` every card that has been decided is known to all: a game of perfect information with
chance. With ``memory="human"`` each seat knows only what it remembers, and forgets: imperfect information, and
imperfect recall by design.

An action is a position (0..63), as with ``action="positions"``; observations are the ``"plain"`` vectors of
:mod:`goldrush_env.gold.encoder`. Rewards are the environments' (``"score"`` each flip, ``"win"`` at the end), paid
when the flip is made, so after the chance node that decides its card when there is one.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

from goldrush_env.aec_base import SCORE_REWARD_SCALE, seat_rewards
from goldrush_env.chance import CHANCE, TERMINAL, ChanceGame, Position
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.cards import (
    CODE, DEFAULT_MAX_TURNS, EMPTY, IS_GOLD, MAX_PLAYERS, MIN_PLAYERS, NUM_CARD_TYPES, NUM_POSITIONS, TABLES, VALUE,
    square_name,
)
from goldrush_env.gold.config import EnvConfig, MEMORIES
from goldrush_env.gold import kernel
from goldrush_env.gold.encoder import OBSERVATION_SIZE, SLICES, describe
from goldrush_env.gold.engine import Outcome
from goldrush_env.gold.single import SingleGame
from goldrush_env.gold.variants import observation_type
from goldrush_env.options import REWARDS

KEEP, FORGET = 0, 1
"""The outcomes of a forgetting node."""
_PLAIN = observation_type("plain")


class GoldChance(ChanceGame):
    """Gold for 2 to 5 seats with explicit chance. Parameters: ``players``, ``table`` (``"full"``, ``"half"``,
    ``"quarter"``), ``memory`` (``"perfect"``, ``"human"``), ``reward`` (``"score"``, ``"win"``), ``max_turns`` (the
    turn limit, D4), ``forget_prob`` and ``memory_capacity`` (human memory); defaults as in our environments."""

    title = "Gold"
    PARAMETERS = {"players": EnvConfig.num_players, "table": EnvConfig.table, "memory": EnvConfig.memory,
                  "reward": EnvConfig.reward, "max_turns": DEFAULT_MAX_TURNS, "forget_prob": EnvConfig.forget_prob,
                  "memory_capacity": EnvConfig.memory_capacity}

    CHOICES = {"players": tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)), "table": tuple(TABLES), "memory": MEMORIES,
               "reward": REWARDS}

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        p = self.params
        if not isinstance(p["players"], int) or not MIN_PLAYERS <= p["players"] <= MAX_PLAYERS:
            raise GoldrushEnvError(f"the parameter players must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}, "
                                   f"got {p['players']!r}")
        # The environments' own checks, which name the option, the value and what is allowed.
        self.config = EnvConfig(num_players=p["players"], table=p["table"], memory=p["memory"], reward=p["reward"],
                                max_turns=p["max_turns"], forget_prob=float(p["forget_prob"]),
                                memory_capacity=p["memory_capacity"], observation="plain", action="positions")
        config = self.config
        n = self.num_players = config.num_players
        size = TABLES[config.table]
        self.box = size.box()
        self.num_actions = NUM_POSITIONS
        self.max_chance_outcomes = NUM_CARD_TYPES
        self.max_game_length = 2 * config.max_turns
        forgetting = config.memory == "human" and config.forget_prob > 0
        capacity = min(config.memory_capacity, size.num_cards)
        self.max_chance_nodes = size.num_cards + (config.max_turns * n * capacity if forgetting else 0)
        gold = sum(VALUE[card] for card in self.box if IS_GOLD[card])
        if config.reward == "win":
            self.min_utility, self.max_utility = -1.0, 1.0
            self.utility_sum = 0.0 if n == 2 else None  # 1 and -1, or 0 and 0; with more seats the sum varies
        else:
            self.min_utility = -SCORE_REWARD_SCALE * gold / (n - 1)
            self.max_utility = SCORE_REWARD_SCALE * gold
            self.utility_sum = 0.0
        self.perfect_information = config.memory == "perfect"
        self.terminal_rewards = config.reward == "win"
        self.observation_size = OBSERVATION_SIZE  # the "plain" vector

    def new_position(self) -> GoldPosition:
        return GoldPosition(self)


class GoldPosition(Position):
    """A node of :class:`GoldChance`: the compiled game (:attr:`env`, a :class:`~goldrush_env.gold.single.SingleGame`
    that never forgets by itself: chance decides; its ``view(seat)`` and ``game`` are an environment's), which cards
    have been decided, and the chance to come."""

    def __init__(self, game: GoldChance) -> None:
        super().__init__(game)
        config = game.config
        self.env = SingleGame(dataclasses.replace(config, forget_prob=0.0))
        # The box in id order: a placeholder for the cards no one has seen, which chance decides as they are turned.
        layout = game.box + [EMPTY] * (NUM_POSITIONS - len(game.box))
        self.env.lay(layout, 0, 0)
        self.undecided = np.array(layout) != EMPTY
        """Per position: a card lies there that no one has seen, not decided yet."""
        self.flip: int | None = None
        """A position turned for the first time, waiting for chance to decide its card."""
        self.fading: list[tuple[int, int]] = []
        """``(seat, position)`` of each card that may be forgotten, first to be decided first."""
        self.totals = [0.0] * config.num_players
        self.rewards = [0.0] * config.num_players

    def copy(self) -> GoldPosition:
        """An independent copy: the compiled game's records and the lists copied, the configured game shared."""
        new = object.__new__(GoldPosition)
        new.__dict__.update(self.__dict__)
        new.env = self.env.copy()
        new.undecided, new.fading = self.undecided.copy(), list(self.fading)
        new.totals, new.rewards = list(self.totals), list(self.rewards)
        return new

    def __deepcopy__(self, memo: dict) -> GoldPosition:
        return self.copy()

    def __getstate__(self) -> dict:
        return dict(self.__dict__)

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    # --- the node ----------------------------------------------------------------------------------------------

    @property
    def player(self) -> int:
        if self.flip is not None or self.fading:
            return CHANCE
        one = self.env
        return TERMINAL if one.is_finished else one.current_player

    def legal_actions(self) -> list[int]:
        player = self.player
        if player == CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        if player == TERMINAL:
            return []
        return self.env.flippable()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.flip is not None:
            counts = np.bincount(self.env.record["table"][self.undecided], minlength=NUM_CARD_TYPES).tolist()
            total = sum(counts)
            return [(card, count / total) for card, count in enumerate(counts) if count]
        if self.fading:
            p = self.game.config.forget_prob
            return [(outcome, q) for outcome, q in ((KEEP, 1.0 - p), (FORGET, p)) if q > 0]
        raise GoldrushEnvError("chance_outcomes() is asked at a node where a seat acts or the game has ended")

    def apply_legal(self, action: int) -> None:
        if self.player != CHANCE:
            self.rewards = [0.0] * self.game.num_players
        record = self.env.record
        if self.flip is not None:
            position, self.flip = self.flip, None
            table = record["table"]
            source = int(np.flatnonzero(self.undecided & (table == action))[0])
            if source != position:  # two cards no one has seen change places: the deal is as likely as before
                self.env.exchange(position, source)
            self.undecided[position] = False
            self._turn(position)
        elif self.fading:
            seat, position = self.fading.pop(0)
            if action == FORGET:
                record["memo"][seat, position] = -1
        elif self.undecided[action]:
            self.flip = action
        else:
            self._turn(action)

    def _turn(self, position: int) -> None:
        """The seat to act turns the card at ``position``, decided by now."""
        one, config = self.env, self.game.config
        turn_before = int(one.record["turn"])
        one.play(position, -1)
        turn = one.turn
        gains = None
        if config.reward == "score":
            gains = [0] * one.num_players
            if turn["receiver"] >= 0:
                gains[int(turn["receiver"])] = int(turn["gold"])
        paid = seat_rewards(gains, one.winners() if one.is_finished else None, config.reward, one.num_players)
        self.rewards = [total + reward for total, reward in zip(self.rewards, paid)]
        self.totals = [total + reward for total, reward in zip(self.totals, paid)]
        if config.memory == "human" and config.forget_prob > 0 and one.record["turn"] > turn_before \
                and not one.is_finished:
            # Each seat may forget each card it remembers and did not see this turn, in the order it saw them.
            seen = set()
            if turn["outcome"] in _PAIRS:
                if not turn["partner_left"]:
                    seen.add(int(turn["partner"]))
                if not turn["card_left"]:
                    seen.add(position)
            memo = one.record["memo"]
            self.fading = [(seat, p) for seat in range(one.num_players)
                           for p in sorted(np.flatnonzero(memo[seat] >= 0).tolist(), key=lambda p: memo[seat, p])
                           if p not in seen]

    def returns(self) -> list[float]:
        return list(self.totals)

    # --- what seats know ---------------------------------------------------------------------------------------

    def observation(self, seat: int) -> np.ndarray:
        self._check_seat(seat)
        return self.env.vector(seat, _PLAIN)

    def knowledge_text(self, seat: int) -> str:
        vector = self.observation(seat)
        unseen = [round(float(x) * 7) for x in vector[SLICES["unseen"]]]
        return f"seat {seat}\n{describe(vector)}\nunseen: {unseen}"

    def public_text(self) -> str:
        one = self.env
        record, face_up = one.record, one.face_up
        cards = []
        for position, card in enumerate(record["table"].tolist()):
            if card == EMPTY:
                cards.append(".")
            elif position == face_up or (self.game.perfect_information and not self.undecided[position]):
                cards.append(CODE[card] + ("*" if position == face_up else ""))
            else:
                cards.append("?")
        lines = [" ".join(cell.rjust(4) for cell in cards[row * 8:(row + 1) * 8]) for row in range(8)]
        to_play = "chance" if self.player == CHANCE else ("-" if self.player == TERMINAL else self.player)
        lines.append(f"turn {int(record['turn'])}, to play {to_play}, scores {list(one.scores)}, gold cards "
                     f"{list(one.gold_cards)}, gold rush {bool(record['gold_rush'])}")
        return "\n".join(lines)

    def private_text(self, seat: int) -> str:
        self._check_seat(seat)
        if self.game.perfect_information:
            return ""
        record = self.env.record
        known = np.flatnonzero((record["memo"][seat] >= 0) & (record["table"] >= 0)).tolist()
        return " ".join(f"{square_name(p)}={CODE[int(record['table'][p])]}" for p in known if p != self.env.face_up)

    def action_text(self, player: int, action: int) -> str:
        if player != CHANCE:
            return f"flip {square_name(action)}"
        if self.flip is not None:
            return f"{square_name(self.flip)} is {CODE[action]}"
        if self.fading:
            seat, position = self.fading[0]
            return f"seat {seat} {'forgets' if action == FORGET else 'keeps'} {square_name(position)}"
        return f"chance {action}"

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.game.num_players:
            raise GoldrushEnvError(f"seat must be an int from 0 to {self.game.num_players - 1}, got {seat!r}")

    def __str__(self) -> str:
        return self.public_text()

    # --- search ------------------------------------------------------------------------------------------------

    def resample(self, seat: int, uniform: Callable[[], float]) -> GoldPosition:
        """The cards ``seat`` cannot place, shuffled among their positions (Fisher-Yates over ``uniform()``);
        who has decided or remembers which position is kept, so other seats remember the cards now there."""
        self._check_seat(seat)
        if self.player == CHANCE:
            raise GoldrushEnvError("resample() is asked at a chance node: it draws a node where a seat acts")
        new = self.copy()
        table = new.env.record["table"]
        hidden = np.flatnonzero(~new.env.known(seat) & (table >= 0)).tolist()
        cards = [int(table[p]) for p in hidden]
        for i in range(len(cards) - 1, 0, -1):
            j = min(int(uniform() * (i + 1)), i)
            cards[i], cards[j] = cards[j], cards[i]
        for position, card in zip(hidden, cards):
            table[position] = card  # the same cards in all: the groups of D3 are unchanged
        new.env.restart_here()  # its history is not this one's, whose turned cards may now differ
        return new


_PAIRS = tuple(kernel.OUTCOMES.index(outcome)  # the outcome codes of a normal turn's second flip
               for outcome in (Outcome.STRIKE, Outcome.DUEL, Outcome.DYNAMITE, Outcome.NOTHING))


__all__ = ["GoldChance", "GoldPosition", "KEEP", "FORGET"]
