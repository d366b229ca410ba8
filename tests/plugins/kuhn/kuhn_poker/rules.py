"""The rules of two-player Kuhn poker, following goldrush-env's game protocol (goldrush_env.protocol.Rules).

Action 0 passes (a check, or a fold facing a bet), action 1 bets (a bet, or a call). The betting ends after
pass-pass, bet-call (a showdown: the higher card takes the pot) or a fold. A seat knows its own card, the bets,
and the other card only if it is shown down.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.protocol import Result

CARDS = "JQK"
PASS, BET = 0, 1
ENDINGS = {"pp": 1, "bb": 2, "pbb": 2, "bp": 1, "pbp": 1}
"""The betting sequences that end a hand, with what the winner takes from the loser."""


class KuhnError(GoldrushEnvError):
    """An action the rules do not allow now."""


class Kuhn:
    num_players = 2

    def __init__(self, cards: tuple[int, int], first_player: int) -> None:
        self.cards = cards
        self.first_player = first_player
        self.bets = ""

    @classmethod
    def new(cls, num_players: int, seed: int | np.random.Generator | None = None, *,
            first_player: int | None = None) -> Kuhn:
        if num_players != 2:
            raise KuhnError(f"Kuhn poker is for 2 players, got {num_players!r}")
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        deck = rng.permutation(len(CARDS))
        if first_player is None:
            first_player = int(rng.integers(2))
        elif first_player not in (0, 1):
            raise KuhnError(f"first_player must be 0 or 1, got {first_player!r}")
        return cls((int(deck[0]), int(deck[1])), first_player)

    @classmethod
    def from_record(cls, record: dict) -> Kuhn:
        game = cls(tuple(record["cards"]), record["first_player"])
        for action in record["actions"]:
            game.step(action)
        return game

    def to_record(self) -> dict:
        return {"game": "kuhn", "cards": list(self.cards), "first_player": self.first_player,
                "actions": [PASS if bet == "p" else BET for bet in self.bets]}

    def copy(self) -> Kuhn:
        return Kuhn.from_record(self.to_record())

    @property
    def turn(self) -> int:
        return len(self.bets)

    @property
    def is_over(self) -> bool:
        return self.bets in ENDINGS

    is_finished = is_over

    @property
    def is_truncated(self) -> bool:
        return False

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else (self.first_player + len(self.bets)) % 2

    @property
    def shown_down(self) -> bool:
        return self.bets in ("pp", "bb", "pbb")

    def legal_mask(self) -> np.ndarray:
        return np.array([not self.is_over] * 2)

    def step(self, action: int) -> str:
        if self.is_over:
            raise KuhnError("the hand is over")
        if action not in (PASS, BET) or isinstance(action, bool):
            raise KuhnError(f"action must be 0 (pass) or 1 (bet), got {action!r}")
        self.bets += "pb"[action]
        return self.bets

    def result(self) -> Result:
        if not self.is_over:
            return Result((0, 0), (0, 1), (0, 0))
        stake = ENDINGS[self.bets]
        if self.shown_down:
            winner = 0 if self.cards[0] > self.cards[1] else 1
        else:  # the last to act folded
            winner = (self.first_player + len(self.bets)) % 2
        scores = tuple(stake if seat == winner else -stake for seat in range(2))
        return Result(scores, (winner,), (0, 0))

    def known_to(self, seat: int) -> dict[str, Any]:
        if seat not in (0, 1) or isinstance(seat, bool):
            raise KuhnError(f"seat must be 0 or 1, got {seat!r}")
        return {"seat": seat, "card": self.cards[seat], "bets": self.bets, "first_player": self.first_player,
                "to_play": self.current_player,
                "other_card": self.cards[1 - seat] if self.shown_down else None}


def observe(known: dict[str, Any]) -> np.ndarray:
    """Own card one-hot (3), each of up to three bets one-hot (3 x 2), whether this seat opened (1), the other card
    one-hot once shown (3)."""
    vector = np.zeros(13, dtype=np.float32)
    vector[known["card"]] = 1
    for index, bet in enumerate(known["bets"]):
        vector[3 + 2 * index + (bet == "b")] = 1
    vector[9] = known["first_player"] == known["seat"]
    if known["other_card"] is not None:
        vector[10 + known["other_card"]] = 1
    return vector


def to_text(known: dict[str, Any]) -> str:
    words = {"p": "pass", "b": "bet"}
    bets = ", ".join(words[bet] for bet in known["bets"]) or "none yet"
    lines = [f"your card: {CARDS[known['card']]}", f"bets: {bets}"]
    if known["other_card"] is not None:
        lines.append(f"the other card: {CARDS[known['other_card']]}")
    if known["to_play"] is not None:
        lines.append("your turn" if known["to_play"] == known["seat"] else "the other player's turn")
    return "\n".join(lines)


def action_text(action: int, known: Any) -> str:
    facing_bet = known is not None and known["bets"].endswith("b")
    return ("fold" if facing_bet else "check") if action == PASS else ("call" if facing_bet else "bet")
