"""``expert``: counts cards and plays the flips with the best expected gain.

From the cards it cannot place (the deal, less what has left the table, less
what it remembers) it knows the odds of what an unknown position holds. For
the first card it weighs every remembered card and "an unknown card" by the
best second card each would allow, in expectation over the odds; for the
second card it weighs every remembered card and an unknown one against the
face-up card. A pair is worth its gold to whoever receives it (an opponent's
gain counts against it), the miners it removes (an opponent's is a gain), and
gold it blows up before an opponent can take it. A gold it reveals that goes
back face down within reach of an opponent's known miner costs most of its
value: the opponent plays next. In the rush it takes remembered gold
first, then unknown cards (the best odds of gold).
"""

from __future__ import annotations

from goldrush_env.gold.cards import IS_GOLD, IS_MINER, VALUE

from goldrush_agents.gold.base import ScriptedAgent
from goldrush_agents.gold.knowledge import Knowledge


def _stays(card: int, other: int) -> bool:
    """Whether ``card`` goes back face down after being flipped with ``other``."""
    if IS_GOLD[card]:
        return IS_GOLD[other] or IS_MINER[other] and VALUE[other] < VALUE[card]
    if IS_MINER[card]:
        return IS_GOLD[other] and VALUE[card] < VALUE[other] or IS_MINER[other] and VALUE[card] >= VALUE[other]
    return False


OWN_CHANCE_WEIGHT = 0.4
"""Share of a strike left for this seat's own known miners that counts now (the others may deny it)."""
TIE_TOLERANCE = 1e-9
"""Flips scoring this close to the best are all among the best (one is drawn)."""


Outlooks = tuple["StrikeOutlook", "StrikeOutlook"]
"""(what the next player could strike, what this seat's own miners could strike later)."""


class ExpertAgent(ScriptedAgent):
    name = "expert"

    in_kernel = True  # goldrush_agents.gold.batched.compiled_expert()

    def first_flip(self, k: Knowledge) -> int:
        threat = self.threats(k)
        scored = [(self.best_second(k, threat, card, p), p) for p, card in k.known.items()]
        if k.unknown:
            expected = sum(p * self.best_second(k, threat, card, None) for card, p in enumerate(k.odds) if p)
            scored += [(expected, p) for p in k.unknown]
        return self.best(scored)

    def second_flip(self, k: Knowledge, face_up: int) -> int:
        threat = self.threats(k)
        here = k.view.face_up
        scored = [(self.turn_value(k, threat, face_up, here, card, q), q) for q, card in k.known.items()]
        if k.unknown:
            expected = sum(p * self.turn_value(k, threat, face_up, here, card, None)
                           for card, p in enumerate(k.odds) if p)
            scored += [(expected, p) for p in k.unknown]
        return self.best(scored)

    def threats(self, k: Knowledge) -> Outlooks:
        return StrikeOutlook(k, seat=(k.me + 1) % k.view.num_players, unowned=True), \
            StrikeOutlook(k, seat=k.me, unowned=False)

    def turn_value(self, k: Knowledge, threat: Outlooks, a: int,
                   a_at: int | None, b: int, b_at: int | None) -> float:
        """Worth of flipping the pair, less what it leaves the next player to strike, plus
        a share of what it leaves for this seat's own known miners."""
        where = tuple(p for p in (a_at, b_at) if p is not None)
        stayers = [card for card, other in ((a, b), (b, a)) if _stays(card, other)]
        theirs, mine = threat
        return (k.pair_value(a, b, where) - k.opponent_weight * theirs.after(where, stayers)
                + OWN_CHANCE_WEIGHT * mine.after(where, stayers))

    def best_second(self, k: Knowledge, threat: Outlooks, first: int, first_at: int | None) -> float:
        """The best worth reachable by a second card once ``first`` is face up."""
        options = [self.turn_value(k, threat, first, first_at, card, q)
                   for q, card in k.known.items() if q != first_at]
        if any(p != first_at for p in k.unknown):
            options.append(sum(p * self.turn_value(k, threat, first, first_at, card, None)
                               for card, p in enumerate(k.odds) if p))
        return max(options, default=0.0)

    def best(self, scored: list[tuple[float, int]]) -> int:
        top = max(value for value, _ in scored)
        return self.pick([p for value, p in scored if value >= top - TIE_TOLERANCE])


class StrikeOutlook:
    """The best gold ``seat`` could strike from the known cards once this turn is over.

    Kept as counts of known golds by value and of known miners the seat can
    use (its own, and unowned ones if ``unowned``) by value, so each question
    costs a few steps.
    """

    def __init__(self, k: Knowledge, seat: int, unowned: bool) -> None:
        view = k.view
        self.known = k.known
        owners = (seat, None) if unowned else (seat,)
        self.usable_cards = {card for card in range(len(VALUE)) if IS_MINER[card] and view.owner(card) in owners}
        self.usable = {p for p, card in k.known.items() if card in self.usable_cards}
        self.golds = [0] * 5
        self.miners = [0] * 6
        for p, card in k.known.items():
            if IS_GOLD[card]:
                self.golds[VALUE[card]] += 1
            elif p in self.usable:
                self.miners[VALUE[card]] += 1

    def after(self, where: tuple[int, ...], stayers: list[int]) -> int:
        """The threat once the cards at ``where`` have been played and ``stayers`` went back face down.

        The face-up card is not among the known cards: it counts only as a stayer."""
        golds, miners = self.golds[:], self.miners[:]
        for p in where:
            card = self.known.get(p)
            if card is None:
                continue
            if IS_GOLD[card]:
                golds[VALUE[card]] -= 1
            elif p in self.usable:
                miners[VALUE[card]] -= 1
        for card in stayers:
            if IS_GOLD[card]:
                golds[VALUE[card]] += 1
            elif card in self.usable_cards:
                miners[VALUE[card]] += 1
        strongest = max((v for v in range(5, 1, -1) if miners[v]), default=0)
        return max((g for g in range(min(strongest, 4), 0, -1) if golds[g]), default=0)
