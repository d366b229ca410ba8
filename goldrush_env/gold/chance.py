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

import copy
from typing import Any, Callable

import numpy as np

from goldrush_env.chance import CHANCE, TERMINAL, ChanceGame, Position
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.aec import raw_env
from goldrush_env.gold.cards import (
    CODE, DEFAULT_MAX_TURNS, EMPTY, IS_GOLD, MAX_PLAYERS, MIN_PLAYERS, NUM_CARD_TYPES, NUM_POSITIONS, TABLES, VALUE,
    square_name,
)
from goldrush_env.gold.config import EnvConfig, MEMORIES
from goldrush_env.gold.encoder import OBSERVATION_SIZE, SLICES, describe
from goldrush_env.gold.engine import Game
from goldrush_env.gold.memory import HumanMemory
from goldrush_env.aec_base import SCORE_REWARD_SCALE
from goldrush_env.options import REWARDS

KEEP, FORGET = 0, 1
"""The outcomes of a forgetting node."""


class _ChanceMemory(HumanMemory):
    """A human memory whose forgetting is left to chance nodes: :meth:`end_turn` forgets nothing and lists, in
    :attr:`fading`, the cards that may be forgotten now."""

    def __init__(self, capacity: int | None) -> None:
        super().__init__(0.0, capacity, rng=None)
        self.fading: list[int] = []

    def end_turn(self) -> tuple[int, ...]:
        self.fading = [position for position in self.known if position not in self._seen_this_turn]
        self._seen_this_turn.clear()
        return ()


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
    """A node of :class:`GoldChance`: the environment, which cards have been decided, and the chance to come."""

    def __init__(self, game: GoldChance) -> None:
        super().__init__(game)
        config = game.config
        env = raw_env(num_players=config.num_players, table=config.table, memory=config.memory,
                      reward=config.reward, max_turns=config.max_turns, forget_prob=config.forget_prob,
                      memory_capacity=config.memory_capacity, observation="plain", action="positions")
        # The box in id order: a placeholder for the cards no one has seen, which chance decides as they are turned.
        env.reset(options={"layout": game.box + [EMPTY] * (NUM_POSITIONS - len(game.box))})
        if config.memory == "human":
            env.memories = [_ChanceMemory(config.memory_capacity) for _ in range(config.num_players)]
        self.env = env
        self.undecided = [card != EMPTY for card in env.game.table]
        """Per position: a card lies there that no one has seen, not decided yet."""
        self.flip: int | None = None
        """A position turned for the first time, waiting for chance to decide its card."""
        self.fading: list[tuple[int, int]] = []
        """``(seat, position)`` of each card that may be forgotten, first to be decided first."""
        self.totals = [0.0] * config.num_players

    # --- the node ----------------------------------------------------------------------------------------------

    @property
    def player(self) -> int:
        if self.flip is not None or self.fading:
            return CHANCE
        game = self.env.game
        return TERMINAL if game.is_finished else game.current_player

    def legal_actions(self) -> list[int]:
        if self.player == CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        if self.player == TERMINAL:
            return []
        return np.flatnonzero(self.env.game.legal_mask()).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.flip is not None:
            counts = [0] * NUM_CARD_TYPES
            for card, undecided in zip(self.env.game.table, self.undecided):
                if undecided:
                    counts[card] += 1
            total = sum(counts)
            return [(card, count / total) for card, count in enumerate(counts) if count]
        if self.fading:
            p = self.game.config.forget_prob
            return [(outcome, q) for outcome, q in ((KEEP, 1.0 - p), (FORGET, p)) if q > 0]
        raise GoldrushEnvError("chance_outcomes() is asked at a node where a seat acts or the game has ended")

    def apply_legal(self, action: int) -> None:
        if self.player != CHANCE:
            self.rewards = [0.0] * self.game.num_players
        if self.flip is not None:
            position, self.flip = self.flip, None
            table = self.env.game.table
            source = next(p for p in range(NUM_POSITIONS) if self.undecided[p] and table[p] == action)
            if source != position:
                self.env.game.exchange(position, source)
            self.undecided[position] = False
            self._turn(position)
        elif self.fading:
            seat, position = self.fading.pop(0)
            if action == FORGET:
                memory = self.env.memories[seat]
                del memory.known[position]
                self.env.encoder.hide(seat, position, self.env.game.table[position])
        elif self.undecided[action]:
            self.flip = action
        else:
            self._turn(action)

    def _turn(self, position: int) -> None:
        """The seat to act turns the card at ``position``, decided by now."""
        env = self.env
        seat = env.game.current_player
        turn = env.game.turn
        env.step(position)
        paid = [env.rewards[agent] for agent in env.possible_agents]
        self.rewards = [total + reward for total, reward in zip(self.rewards, paid)]
        self.totals = [total + reward for total, reward in zip(self.totals, paid)]
        if isinstance(env.memories[seat], _ChanceMemory) and env.game.turn > turn:
            fading = [(s, p) for s, memory in enumerate(env.memories) for p in memory.fading]
            for memory in env.memories:
                memory.fading = []
            if not env.game.is_finished and self.game.config.forget_prob > 0:
                self.fading = fading

    def returns(self) -> list[float]:
        return list(self.totals)

    # --- what seats know ---------------------------------------------------------------------------------------

    def observation(self, seat: int) -> np.ndarray:
        self._check_seat(seat)
        return self.env.observe(self.env.possible_agents[seat])["observation"]

    def knowledge_text(self, seat: int) -> str:
        vector = self.observation(seat)
        unseen = [round(float(x) * 7) for x in vector[SLICES["unseen"]]]
        return f"seat {seat}\n{describe(vector)}\nunseen: {unseen}"

    def public_text(self) -> str:
        game = self.env.game
        cards = []
        for position, card in enumerate(game.table):
            if card == EMPTY:
                cards.append(".")
            elif position == game.face_up or (self.game.perfect_information and not self.undecided[position]):
                cards.append(CODE[card] + ("*" if position == game.face_up else ""))
            else:
                cards.append("?")
        lines = [" ".join(cell.rjust(4) for cell in cards[row * 8:(row + 1) * 8]) for row in range(8)]
        to_play = "chance" if self.player == CHANCE else ("-" if self.player == TERMINAL else self.player)
        lines.append(f"turn {game.turn}, to play {to_play}, scores {list(game.scores)}, gold cards "
                     f"{list(game.gold_cards)}, gold rush {game.gold_rush}")
        return "\n".join(lines)

    def private_text(self, seat: int) -> str:
        self._check_seat(seat)
        if self.game.perfect_information:
            return ""
        known = self.env.memories[seat].known
        return " ".join(f"{square_name(p)}={CODE[known[p]]}" for p in sorted(known) if p != self.env.game.face_up)

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
        new = copy.deepcopy(self)
        env, game = new.env, new.env.game
        known = env.memories[seat].known
        hidden = [p for p in game.on_table() if p not in known and p != game.face_up]
        before = game.table
        cards = [before[p] for p in hidden]
        for i in range(len(cards) - 1, 0, -1):
            j = min(int(uniform() * (i + 1)), i)
            cards[i], cards[j] = cards[j], cards[i]
        layout = list(before)
        for position, card in zip(hidden, cards):
            layout[position] = card
        # A game that starts here (its history is not this one's, whose turned cards may now differ).
        env.game = Game.from_position(
            game.num_players, layout, current_player=game.current_player, scores=game.scores,
            gold_cards=game.gold_cards, turn=game.turn, face_up=game.face_up, gold_rush=game.gold_rush,
            max_turns=game.max_turns, rush_at=game.rush_at)
        for other, memory in enumerate(env.memories):
            for position in [p for p in hidden if p in memory.known]:
                env.encoder.hide(other, position, before[position])
                memory.known[position] = layout[position]
                env.encoder.show(other, position, layout[position])
        return new


__all__ = ["GoldChance", "GoldPosition", "KEEP", "FORGET"]
