"""A second exact solver of the 2-player public state, for tests: a memoized recursion over whole turns.

goldrush_agents.gold.optimal fills a table of every state bottom-up in compiled code; this one recurses from a
state, in plain Python, with its own pair rules read off the card facts, and its own reading of the stalling
equilibrium: with ``P`` the mover's best move that changes the table, ``Q`` the other seat's (both seen from seat
0) and ``T`` the standing, seat 0 to move gets ``max(P, min(Q, T))`` and seat 1 ``min(Q, max(P, T))``. It is
fast enough for boxes of a few cards only (tests/gold/test_public.py compares the two there).
"""

from __future__ import annotations

from typing import NamedTuple


from goldrush_env.gold.cards import DYNAMITE, IS_GOLD, IS_MINER, VALUE, COLOUR, card_kinds
from goldrush_env.gold.engine import colour_owners

_KINDS = card_kinds(2, colour_owners(2))
NUM_KINDS = max(_KINDS) + 1
"""Kinds of card at a 2-player table: gold 1-4, dynamite, and a miner of a value for seat 0, seat 1 or nobody."""
_CARD_OF_KIND = [_KINDS.index(kind) if kind in _KINDS else -1 for kind in range(NUM_KINDS)]
_OWNERS = colour_owners(2)


def _kind_facts(kind: int) -> tuple[int, int, int]:
    """(gold value or 0, miner value or 0, the seat a miner works for: 0, 1, -1 for nobody or not a miner)."""
    card = _CARD_OF_KIND[kind]
    if card < 0:
        return 0, 0, -1
    if IS_GOLD[card]:
        return VALUE[card], 0, -1
    if IS_MINER[card]:
        return 0, VALUE[card], _OWNERS[COLOUR[card]]
    return 0, 0, -1


_FACTS = [_kind_facts(kind) for kind in range(NUM_KINDS)]
_GOLD_VALUE = [facts[0] for facts in _FACTS]


class _Pair(NamedTuple):
    first_leaves: bool
    second_leaves: bool
    gold: int
    """Points struck (0: none)."""
    receiver: int
    """Who takes them: 0 or 1, or -1 for the seat to move (an unowned miner)."""


def _pair(a: int, b: int) -> _Pair | None:
    """What turning a card of kind ``a`` then one of kind ``b`` does; ``None``: nothing."""
    ca, cb = _CARD_OF_KIND[a], _CARD_OF_KIND[b]
    if ca == DYNAMITE or cb == DYNAMITE:
        return _Pair(True, True, 0, -1)
    (ga, ma, oa), (gb, mb, ob) = _FACTS[a], _FACTS[b]
    if ma and mb:
        return None if ma == mb else _Pair(ma < mb, mb < ma, 0, -1)
    if ga and gb:
        return None
    gold, strength, owner = (ga, mb, ob) if ga else (gb, ma, oa)
    return _Pair(True, True, gold, owner) if strength >= gold else None


_PAIRS = [[_pair(a, b) if _CARD_OF_KIND[a] >= 0 and _CARD_OF_KIND[b] >= 0 else None for b in range(NUM_KINDS)]
          for a in range(NUM_KINDS)]


def _standing(lead: int, cards_lead: int) -> float:
    """Seat 0's win share if the game ended now (D5)."""
    if lead or cards_lead:
        return 1.0 if (lead, cards_lead) > (0, 0) else 0.0
    return 0.5


def _minus(counts: tuple[int, ...], kind: int) -> tuple[int, ...]:
    return counts[:kind] + (counts[kind] - 1,) + counts[kind + 1:]


def _plus(counts: tuple[int, ...], kind: int) -> tuple[int, ...]:
    return counts[:kind] + (counts[kind] + 1,) + counts[kind + 1:]


class Solver:
    """Exact values of public states (seat 0's win share under best play), memoized.

    ``rush_at``: the Gold Rush begins at the start of a turn with this many cards or fewer (the table's,
    :data:`~goldrush_env.gold.cards.TABLES`)."""

    def __init__(self, rush_at: int) -> None:
        self.rush_at = rush_at
        self._turns: dict[tuple, float] = {}
        self._seconds: dict[tuple, float] = {}
        self._progress: dict[tuple, float] = {}

    @property
    def states(self) -> int:
        """How many states have been solved: turn starts, second flips, and progress values of passing states."""
        return len(self._turns) + len(self._seconds) + len(self._progress)

    # --- values -------------------------------------------------------------------------------------

    # --- the recursion --------------------------------------------------------------------------------

    def _is_rush(self, known: tuple[int, ...], unseen: tuple[int, ...]) -> bool:
        """Whether a turn starting with these cards on the table is in the Gold Rush (a table size or D3)."""
        counts = [k + u for k, u in zip(known, unseen)]
        if sum(counts) <= self.rush_at:
            return True
        miners, golds = set(), set()
        for kind, count in enumerate(counts):
            if count:
                gold, miner, _ = _FACTS[kind]
                if _CARD_OF_KIND[kind] == DYNAMITE:
                    return False
                if miner:
                    miners.add(miner)
                elif gold:
                    golds.add(gold)
        if len(miners) > 1:
            return False
        return not miners or not golds or min(miners) < min(golds)

    @staticmethod
    def _chance(unseen: tuple[int, ...], then) -> float:
        """The mean of ``then(kind, unseen less that card)`` over the unseen cards."""
        total = sum(unseen)
        return sum(count * then(kind, _minus(unseen, kind)) for kind, count in enumerate(unseen) if count) / total

    def _turn(self, known: tuple[int, ...], unseen: tuple[int, ...], mover: int, lead: int, cards_lead: int) -> float:
        """Seat 0's value at the start of ``mover``'s turn."""
        gold_left = sum(_GOLD_VALUE[k] * (known[k] + unseen[k]) for k in range(NUM_KINDS))
        if gold_left < abs(lead) or gold_left == 0:  # decided (an empty table too)
            return _standing(lead, cards_lead) if gold_left == 0 else float(lead > 0)
        key = (known, unseen, mover, lead, cards_lead)
        value = self._turns.get(key)
        if value is not None:
            return value
        best = max if mover == 0 else min
        if self._is_rush(known, unseen):
            options = [self._rush_flip(k, _minus(known, k), unseen, mover, lead, cards_lead)
                       for k in range(NUM_KINDS) if known[k]]
            if sum(unseen):
                options.append(self._chance(unseen, lambda k, rest: self._rush_flip(k, known, rest, mover, lead,
                                                                                     cards_lead)))
            value = best(options)
        else:
            progress = self._best_progress(known, unseen, mover, lead, cards_lead)
            if self._can_pass(known):
                other = self._best_progress(known, unseen, 1 - mover, lead, cards_lead)
                stall = _standing(lead, cards_lead)
                if mover == 0:
                    value = max(progress, min(other, stall))
                else:
                    value = min(progress, max(other, stall))
            else:
                value = progress
        self._turns[key] = value
        return value

    @staticmethod
    def _can_pass(known: tuple[int, ...]) -> bool:
        """Whether two remembered cards do nothing together (turning them passes the turn)."""
        kinds = [k for k in range(NUM_KINDS) if known[k]]
        return any(_PAIRS[a][b] is None and (a != b or known[a] > 1) for a in kinds for b in kinds)

    def _best_progress(self, known: tuple[int, ...], unseen: tuple[int, ...], mover: int, lead: int,
                       cards_lead: int) -> float:
        """Seat 0's value of ``mover``'s best turn that changes the table (or what is known of it)."""
        key = (known, unseen, mover, lead, cards_lead)
        value = self._progress.get(key)
        if value is not None:
            return value
        best = max if mover == 0 else min
        options = [self._second(_minus(known, a), unseen, a, mover, lead, cards_lead, True)
                   for a in range(NUM_KINDS) if known[a]]
        if sum(unseen):
            options.append(self._chance(unseen, lambda a, rest: self._second(known, rest, a, mover, lead, cards_lead,
                                                                             False)))
        options = [o for o in options if o is not None]
        value = best(options)
        self._progress[key] = value
        return value

    def _second(self, known: tuple[int, ...], unseen: tuple[int, ...], first: int, mover: int, lead: int,
                cards_lead: int, progress_only: bool) -> float | None:
        """Seat 0's value once ``first`` is face up (``known`` and ``unseen`` without it). ``progress_only``: leave
        out the remembered seconds that pass the turn with nothing changed (``None`` if nothing else is left)."""
        key = (known, unseen, first, mover, lead, cards_lead, progress_only)
        value = self._seconds.get(key)
        if value is not None:
            return value
        best = max if mover == 0 else min
        options = []
        for b in range(NUM_KINDS):
            if known[b]:
                if progress_only and _PAIRS[first][b] is None:
                    continue
                options.append(self._outcome(first, b, _minus(known, b), unseen, mover, lead, cards_lead))
        if sum(unseen):
            options.append(self._chance(unseen, lambda b, rest: self._outcome(first, b, known, rest, mover, lead,
                                                                              cards_lead)))
        if not options:
            return None
        value = best(options)
        self._seconds[key] = value
        return value

    def _outcome(self, a: int, b: int, known: tuple[int, ...], unseen: tuple[int, ...], mover: int, lead: int,
                 cards_lead: int) -> float:
        """Seat 0's value after ``a`` then ``b`` were turned (both out of ``known`` and ``unseen``)."""
        pair = _PAIRS[a][b]
        if pair is None:
            return self._turn(_plus(_plus(known, a), b), unseen, 1 - mover, lead, cards_lead)
        if pair.gold:
            receiver = mover if pair.receiver < 0 else pair.receiver
            sign = 1 if receiver == 0 else -1
            lead, cards_lead = lead + sign * pair.gold, cards_lead + sign
        if not pair.first_leaves:
            known = _plus(known, a)
        if not pair.second_leaves:
            known = _plus(known, b)
        return self._turn(known, unseen, 1 - mover, lead, cards_lead)

    def _rush_flip(self, kind: int, known: tuple[int, ...], unseen: tuple[int, ...], mover: int, lead: int,
                   cards_lead: int) -> float:
        """Seat 0's value after ``mover`` turned a card of ``kind`` in the Gold Rush."""
        gold = _GOLD_VALUE[kind]
        if gold:
            sign = 1 if mover == 0 else -1
            lead, cards_lead = lead + sign * gold, cards_lead + sign
        return self._turn(known, unseen, 1 - mover, lead, cards_lead)
