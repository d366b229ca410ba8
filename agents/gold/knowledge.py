"""What a scripted player can work out from its view, and how it values a pair of cards.

Everything here reads a :class:`~goldrush_env.policy.SeatView`: the cards the
seat sees or remembers, who owns which miner, and how many cards of each kind
it cannot place. Nothing reads the hidden table.
"""

from __future__ import annotations

from dataclasses import dataclass

from goldrush_env.gold.cards import DYNAMITE, IS_GOLD, IS_MINER, NUM_CARD_TYPES, VALUE
from goldrush_env.policy import SeatView

KILL_WEIGHT = 0.3
"""Worth of removing a miner, per point of its strength (the gold it could still carry)."""
EXPOSURE_WEIGHT = 0.8
"""Share of a gold's value lost when it goes back face down within reach of an opponent's known miner."""


@dataclass
class Knowledge:
    """A seat's view, sorted for decisions."""

    view: SeatView
    me: int
    known: dict[int, int]
    """Face-down positions whose card the seat knows (the face-up card excluded)."""
    unknown: list[int]
    """Legal positions whose card the seat cannot place."""
    odds: list[float]
    """Per card id: the chance that an unknown position holds that card."""
    opponent_weight: float
    """How much an opponent's gain counts against the seat (1 with two players)."""

    @classmethod
    def of(cls, view: SeatView) -> "Knowledge":
        legal = set(view.legal_actions.tolist())
        known = {p: card for p, card in enumerate(view.cards) if card >= 0 and p in legal}
        unknown = [p for p in sorted(legal) if view.cards[p] < 0]
        total = sum(view.unseen)
        odds = [count / total for count in view.unseen] if total else [0.0] * NUM_CARD_TYPES
        weight = 1.0 if view.num_players == 2 else 0.7
        return cls(view, view.seat, known, unknown, odds, weight)

    def beneficiary(self, miner: int) -> int:
        """The seat a miner carries gold to when this seat flips it (unowned: this seat)."""
        owner = self.view.owner(miner)
        return self.me if owner is None else owner

    def miner_worth(self, miner: int) -> float:
        """Signed worth of a miner staying in play: positive if it works for this seat."""
        owner = self.view.owner(miner)
        if owner is None:
            return 0.0
        sign = 1.0 if owner == self.me else -self.opponent_weight
        return sign * KILL_WEIGHT * VALUE[miner]

    def threatened(self, gold: int, exclude: tuple[int, ...] = ()) -> bool:
        """Whether a known miner an opponent could use (theirs or unowned) can carry this gold."""
        for position, card in self.known.items():
            if position in exclude or not IS_MINER[card] or VALUE[card] < VALUE[gold]:
                continue
            if self.view.owner(card) != self.me:
                return True
        return False

    def pair_value(self, first: int, second: int, positions: tuple[int, ...] = ()) -> float:
        """Immediate worth to this seat of flipping ``first`` and ``second`` together.

        Gold struck counts for whoever receives it (against the seat if an
        opponent); a miner removed counts by :meth:`miner_worth`; gold blown up
        by dynamite counts as denied if an opponent could have taken it.
        """
        if first == DYNAMITE or second == DYNAMITE:
            value = 0.0
            for card in (first, second):
                if IS_MINER[card]:
                    value -= self.miner_worth(card)
                elif IS_GOLD[card] and self.threatened(card, positions):
                    value += EXPOSURE_WEIGHT * self.opponent_weight * VALUE[card]
            return value
        if IS_MINER[first] and IS_MINER[second]:
            if VALUE[first] == VALUE[second]:
                return 0.0
            weaker = first if VALUE[first] < VALUE[second] else second
            return -self.miner_worth(weaker)
        if IS_GOLD[first] and IS_GOLD[second]:
            return 0.0
        gold, miner = (first, second) if IS_GOLD[first] else (second, first)
        if VALUE[miner] < VALUE[gold]:
            return 0.0
        receiver = self.beneficiary(miner)
        sign = 1.0 if receiver == self.me else -self.opponent_weight
        return sign * VALUE[gold]

    def expected_with_unknown(self, first: int, positions: tuple[int, ...] = ()) -> float:
        """Expected :meth:`pair_value` of ``first`` with a card from an unknown position."""
        return sum(p * self.pair_value(first, card, positions) for card, p in enumerate(self.odds) if p)
