"""The public state of a 2-player game of Gold with perfect memory, and its rules over kinds of card.

With perfect memory every flip is public (D9), so both seats know the same things and the game is one of perfect
information with chance, played on the *public state*:

* per *kind* of card, how many lie face down remembered and how many lie where nobody has seen them. A kind is a
  gold of a value, dynamite, or a miner of a value working for a seat or for nobody
  (:func:`goldrush_env.gold.cards.card_kinds`): two cards of one kind act alike under the rules wherever they
  lie, and every unseen position is as likely as any other to hold each unseen card, so positions do not matter;
* whose turn it is, the face-up first card of a normal turn (its kind), the rush;
* seat 0's lead over seat 1 in points and in gold cards (only the differences decide the winner, D5).

Here the rules are restated over kinds (:data:`PAIRS`) for the exact solver (:mod:`~goldrush_agents.gold.optimal`),
which plays through :class:`TurnSearch`, one turn of expectimax with its exact values at the leaves;
``tests/gold/test_public.py`` plays random games on the engine and checks every step against them. The public
state at every table size, compiled, is :mod:`~goldrush_agents.gold.turns` (what ``selfplay`` plays).

*Relative* kinds see the table from one seat: the miners of "seat 0" are the seat's own and those of "seat 1" the
other's (:data:`RELATIVE`: the permutation that turns seat 1's view into that frame, its own inverse).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.cards import COLOUR, DYNAMITE, IS_GOLD, IS_MINER, NUM_CARD_TYPES, TABLES, VALUE, card_kinds
from goldrush_env.gold.engine import _PAIR, colour_owners
from goldrush_env.gold.view import UNKNOWN, PlayerView

from goldrush_agents.gold.turns import lead_share, stalemate

_OWNERS = colour_owners(2)
KIND_OF_CARD: tuple[int, ...] = card_kinds(2, _OWNERS)
"""Per card id, its kind at a 2-player table."""
NUM_KINDS = max(KIND_OF_CARD) + 1
"""Gold 1-4 (kinds 0-3), dynamite (4), and a miner of value 2-5 for seat 0 (5-8), seat 1 (9-12) or nobody (13-16)."""
CARD_OF_KIND: tuple[int, ...] = tuple(KIND_OF_CARD.index(kind) for kind in range(NUM_KINDS))
"""A card id of each kind."""

GOLD_VALUE = np.array([VALUE[c] if IS_GOLD[c] else 0 for c in CARD_OF_KIND], dtype=np.int64)
"""Per kind: the gold's value, 0 for the rest."""
MINER_VALUE = np.array([VALUE[c] if IS_MINER[c] else 0 for c in CARD_OF_KIND], dtype=np.int64)
"""Per kind: the miner's strength, 0 for the rest."""
MINER_OWNER = np.array([_OWNERS[COLOUR[c]] if IS_MINER[c] else -1 for c in CARD_OF_KIND], dtype=np.int64)
"""Per kind: the seat a miner works for, -1 for an unowned miner and for the rest."""
IS_DYNAMITE = np.array([c == DYNAMITE for c in CARD_OF_KIND])


def _relative() -> np.ndarray:
    """Per kind: the same kind with seats 0 and 1 swapped."""
    out = np.arange(NUM_KINDS)
    for kind in range(NUM_KINDS):
        if MINER_OWNER[kind] >= 0:
            out[kind] = next(k for k in range(NUM_KINDS)
                             if MINER_OWNER[k] == 1 - MINER_OWNER[kind] and MINER_VALUE[k] == MINER_VALUE[kind])
    return out


RELATIVE = _relative()


class Pair(NamedTuple):
    """What turning a card of one kind, then one of another, does in a normal turn."""

    first_stays: bool
    second_stays: bool
    gold: int
    """Points struck (0: none)."""
    receiver: int
    """Who takes them: seat 0 or 1, or -1 for the seat to move (an unowned miner)."""


def _pair(a: int, b: int) -> Pair | None:
    """The rules engine's pair table (the one home of the pair outcomes) read for a card of each kind."""
    _, first_leaves, second_leaves, gold_card, colour = _PAIR[CARD_OF_KIND[a] * NUM_CARD_TYPES + CARD_OF_KIND[b]]
    if not first_leaves and not second_leaves and gold_card < 0:
        return None
    struck = gold_card >= 0
    return Pair(not first_leaves, not second_leaves, VALUE[gold_card] if struck else 0,
                _OWNERS[colour] if struck else -1)


PAIRS: tuple[tuple[Pair | None, ...], ...] = tuple(tuple(_pair(a, b) for b in range(NUM_KINDS)) for a in range(NUM_KINDS))
"""``PAIRS[a][b]``: what turning kind ``a`` then kind ``b`` does, ``None`` for nothing (the same either way round)."""


class PublicState(NamedTuple):
    """The public state of a 2-player game with perfect memory."""

    known: tuple[int, ...]
    """Per kind: remembered cards face down (the face-up card not counted)."""
    unseen: tuple[int, ...]
    """Per kind: cards nobody has seen."""
    mover: int
    lead: int
    """Seat 0's points less seat 1's."""
    cards_lead: int
    """Seat 0's gold cards less seat 1's."""
    face_up: int
    """The kind of the face-up first card, -1 if none."""
    rush: bool

    @classmethod
    def of(cls, view: PlayerView) -> "PublicState":
        """The public state a 2-player view shows (with perfect memory, either seat's view gives the same)."""
        if view.num_players != 2:
            raise GoldrushEnvError(f"the public state is defined for 2 players, got a view of {view.num_players}")
        if view.current_player is None:
            raise GoldrushEnvError("the game is over: it has no seat to move")
        known = [0] * NUM_KINDS
        face_up = -1
        for position, card in enumerate(view.cards):
            if position == view.face_up:
                if card < 0:
                    raise GoldrushEnvError(f"inconsistent view: the face-up card at {position} is not shown")
                face_up = KIND_OF_CARD[card]
            elif card >= 0:
                known[KIND_OF_CARD[card]] += 1
        unseen = [0] * NUM_KINDS
        for card in range(NUM_CARD_TYPES):
            unseen[KIND_OF_CARD[card]] += view.unseen[card]
        if sum(unseen) != sum(card == UNKNOWN for card in view.cards):
            raise GoldrushEnvError("inconsistent view: the unseen cards do not match the positions nobody can place")
        return cls(tuple(known), tuple(unseen), int(view.current_player), view.scores[0] - view.scores[1],
                   view.gold_cards[0] - view.gold_cards[1], face_up, bool(view.gold_rush))


def is_stalemate(counts: np.ndarray) -> np.ndarray:
    """D3 per row of ``counts`` ``(n, NUM_KINDS)`` (cards on the table per kind): no pair can remove a card
    (:func:`goldrush_agents.gold.turns.stalemate`, row by row); one row gives a bool."""
    counts = np.asarray(counts, dtype=np.int64)
    if counts.ndim == 1:
        return bool(stalemate(counts, GOLD_VALUE, MINER_VALUE))
    return np.array([stalemate(row, GOLD_VALUE, MINER_VALUE) for row in counts], dtype=bool)




def table_counts(table: str) -> np.ndarray:
    """Cards per kind in the box of ``table`` (:data:`~goldrush_env.gold.cards.TABLES`), at a 2-player table."""
    counts = np.zeros(NUM_KINDS, dtype=np.int64)
    for card, count in enumerate(TABLES[table].counts):
        counts[KIND_OF_CARD[card]] += count
    return counts


class PublicGame:
    """A 2-player game played on its public state: the rules of :mod:`goldrush_env.gold.engine` over kinds, with an
    unseen card's kind drawn when it is turned. What the self-play learner plays, much faster than positions.

    ``counts``: the box per kind (every card unseen at the start); ``rush_at``: the cards left when the rush begins."""

    def __init__(self, counts: np.ndarray, rush_at: int, first_player: int = 0) -> None:
        self.known = np.zeros(NUM_KINDS, dtype=np.int64)
        self.unseen = np.array(counts, dtype=np.int64)
        self.rush_at = rush_at
        self.mover = first_player
        self.lead = 0
        self.cards_lead = 0
        self.face_up = -1
        self.turn = 0
        self.rush = False
        self.rush = self._rush_begins()

    @property
    def cards(self) -> int:
        """Cards on the table, the face-up one included."""
        return int(self.known.sum() + self.unseen.sum()) + (self.face_up >= 0)

    @property
    def state(self) -> PublicState:
        return PublicState(tuple(self.known.tolist()), tuple(self.unseen.tolist()), self.mover, self.lead,
                           self.cards_lead, self.face_up, self.rush)

    def _rush_begins(self) -> bool:
        counts = self.known + self.unseen
        return self.rush or counts.sum() <= self.rush_at or bool(is_stalemate(counts))

    def draw(self, rng: np.random.Generator) -> int:
        """The kind of an unseen card turned now, drawn from ``rng`` with its odds."""
        total = self.unseen.sum()
        if not total:
            raise GoldrushEnvError("no unseen card is left to turn")
        return int(np.searchsorted(np.cumsum(self.unseen), rng.random() * total, side="right"))

    def flip(self, kind: int, unseen: bool = False) -> None:
        """Turn a card of ``kind`` (absolute): a remembered one, or with ``unseen`` one nobody had seen (its kind
        as :meth:`draw` or the engine revealed it)."""
        counts = self.unseen if unseen else self.known
        if not 0 <= kind < NUM_KINDS or counts[kind] < 1:
            raise GoldrushEnvError(f"no {'unseen' if unseen else 'remembered'} card of kind {kind} lies face down")
        counts[kind] -= 1
        sign = 1 if self.mover == 0 else -1
        if self.rush:
            gold = int(GOLD_VALUE[kind])
            self.lead += sign * gold
            self.cards_lead += sign * (gold > 0)
            self.mover, self.turn = 1 - self.mover, self.turn + 1
        elif self.face_up < 0:
            self.face_up = kind
        else:
            first, pair = self.face_up, PAIRS[self.face_up][kind]
            if pair is None:
                self.known[first] += 1
                self.known[kind] += 1
            else:
                self.known[first] += pair.first_stays
                self.known[kind] += pair.second_stays
                if pair.gold:
                    to = 1 if (self.mover if pair.receiver < 0 else pair.receiver) == 0 else -1
                    self.lead += to * pair.gold
                    self.cards_lead += to
            self.face_up, self.mover, self.turn = -1, 1 - self.mover, self.turn + 1
            self.rush = self._rush_begins()



# --- one turn of search over the public state (the exact solver's play) ---------------------------------------

UNKNOWN_ACTION = NUM_KINDS
"""The action "an unseen card"; actions 0..16 are relative kinds."""

# --- the rules of a turn in the mover's frame (seat 0 is the mover) ------------------------------------------------

_STAY_A = np.zeros((NUM_KINDS, NUM_KINDS), dtype=np.int64)
_STAY_B = np.zeros((NUM_KINDS, NUM_KINDS), dtype=np.int64)
_GAIN = np.zeros((NUM_KINDS, NUM_KINDS), dtype=np.int64)
"""Points the mover gains (negative: the other seat gains) by turning kind a then kind b."""
_CARDS_GAIN = np.zeros((NUM_KINDS, NUM_KINDS), dtype=np.int64)
for _a in range(NUM_KINDS):
    for _b in range(NUM_KINDS):
        _pair = PAIRS[_a][_b]
        if _pair is None:
            _STAY_A[_a, _b] = _STAY_B[_a, _b] = 1
            continue
        _STAY_A[_a, _b], _STAY_B[_a, _b] = _pair.first_stays, _pair.second_stays
        if _pair.gold:  # an unowned miner's gold goes to whoever turns it
            sign = -1 if _pair.receiver == 1 else 1
            _GAIN[_a, _b], _CARDS_GAIN[_a, _b] = sign * _pair.gold, sign
_EYE = np.eye(NUM_KINDS, dtype=np.int64)


standing = lead_share
"""The mover's win share if the game ended now (D5), from its lead in points and in gold cards:
:func:`goldrush_agents.gold.turns.lead_share`."""


class Frame(NamedTuple):
    """A decision in the mover's frame."""

    known: np.ndarray
    unseen: np.ndarray
    face_up: int
    lead: int
    cards_lead: int
    rush: bool


def frame_of(state: PublicState) -> Frame:
    """``state`` seen from the seat to move (its miners are "seat 0")."""
    known, unseen = np.array(state.known, dtype=np.int64), np.array(state.unseen, dtype=np.int64)
    face_up, lead, cards_lead = state.face_up, state.lead, state.cards_lead
    if state.mover == 1:
        known, unseen, lead, cards_lead = known[RELATIVE], unseen[RELATIVE], -lead, -cards_lead
        face_up = int(RELATIVE[face_up]) if face_up >= 0 else -1
    return Frame(known, unseen, face_up, lead, cards_lead, state.rush)


class Options(NamedTuple):
    """The moves of one decision and their values to the mover."""

    actions: np.ndarray
    """Relative kinds, or :data:`UNKNOWN_ACTION`."""
    values: np.ndarray


class TurnSearch:
    """The one-turn expectimax of the module docstring, for a table whose rush starts at ``rush_at`` cards.

    ``evaluate(known, unseen, lead, cards_lead, rush)`` values states at the start of a turn, given in the frame of
    the seat to move there (arrays ``(n, 17)`` and ``(n,)``), as that seat's win share; the search calls it only
    for games not yet decided. """

    def __init__(self, evaluate, rush_at: int) -> None:
        self.evaluate = evaluate
        self.rush_at = rush_at

    def _leaf_values(self, known: np.ndarray, unseen: np.ndarray, lead: np.ndarray, cards_lead: np.ndarray
                     ) -> np.ndarray:
        """The mover's value of states ``(n, 17)`` where the other seat is next to move (mover's frame)."""
        gold_left = (known + unseen) @ GOLD_VALUE
        cards = known.sum(axis=1) + unseen.sum(axis=1)
        out = standing(lead, cards_lead)
        decided = (gold_left < np.abs(lead)) | (gold_left == 0)
        out = np.where(gold_left < np.abs(lead), (lead > 0).astype(np.float64), out)
        rows = np.flatnonzero(~decided & (cards > 0))
        if len(rows):
            k, u = known[rows][:, RELATIVE], unseen[rows][:, RELATIVE]
            rush = (cards[rows] <= self.rush_at) | is_stalemate(k + u)
            out[rows] = 1.0 - self.evaluate(k, u, -lead[rows], -cards_lead[rows], rush)
        return out

    def seconds(self, known: np.ndarray, unseen: np.ndarray, first: int, lead: int, cards_lead: int) -> Options:
        """The options for the second flip once a card of kind ``first`` is up; ``known``/``unseen`` without it."""
        return self._seconds_many(known, unseen, np.array([first]), None, lead, cards_lead)[0]

    def _seconds_many(self, known: np.ndarray, unseen: np.ndarray, firsts: np.ndarray, from_unseen: bool | None,
                      lead: int, cards_lead: int) -> list[Options]:
        """:meth:`seconds` for several first kinds at once. ``from_unseen``: whether the first card leaves the
        unseen cards or the remembered ones (``None``: it is already up, out of both)."""
        m = len(firsts)
        base_k = np.repeat(known[None], m, axis=0)
        base_u = np.repeat(unseen[None], m, axis=0)
        if from_unseen is True:
            base_u -= _EYE[firsts]
        elif from_unseen is False:
            base_k -= _EYE[firsts]
        rows_k, rows_u, rows_lead, rows_cl, index = [], [], [], [], []
        for i, a in enumerate(firsts):
            stay_a = _STAY_A[a][:, None] * _EYE[a][None, :]  # (b, kind): the first card back, per second kind
            for source in (0, 1):  # the second card remembered, or unseen
                counts = base_k[i] if source == 0 else base_u[i]
                bs = np.flatnonzero(counts)
                if not len(bs):
                    continue
                k = base_k[i][None] + stay_a[bs] + _STAY_B[a, bs][:, None] * _EYE[bs]
                u = np.repeat(base_u[i][None], len(bs), axis=0)
                if source == 0:
                    k -= _EYE[bs]
                else:
                    u -= _EYE[bs]
                rows_k.append(k)
                rows_u.append(u)
                rows_lead.append(lead + _GAIN[a, bs])
                rows_cl.append(cards_lead + _CARDS_GAIN[a, bs])
                index.append((i, source, bs))
        values = self._leaf_values(np.concatenate(rows_k), np.concatenate(rows_u), np.concatenate(rows_lead),
                                   np.concatenate(rows_cl))
        out: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in range(m)]
        start = 0
        for i, source, bs in index:
            v = values[start:start + len(bs)]
            start += len(bs)
            if source == 0:
                out[i].append((bs, v))
            else:
                weights = base_u[i][bs]
                out[i].append((np.array([UNKNOWN_ACTION]), np.array([weights @ v / weights.sum()])))
        return [Options(np.concatenate([a for a, _ in o]), np.concatenate([v for _, v in o])) for o in out]

    def firsts(self, known: np.ndarray, unseen: np.ndarray, lead: int, cards_lead: int) -> Options:
        """The options for the first flip of a normal turn."""
        actions, values = [], []
        remembered = np.flatnonzero(known)
        if len(remembered):
            for a, o in zip(remembered, self._seconds_many(known, unseen, remembered, False, lead, cards_lead)):
                actions.append(a)
                values.append(o.values.max())
        drawn = np.flatnonzero(unseen)
        if len(drawn):
            best = np.array([o.values.max() for o in self._seconds_many(known, unseen, drawn, True, lead,
                                                                          cards_lead)])
            weights = unseen[drawn]
            actions.append(UNKNOWN_ACTION)
            values.append(weights @ best / weights.sum())
        return Options(np.array(actions), np.array(values))

    def rush(self, known: np.ndarray, unseen: np.ndarray, lead: int, cards_lead: int) -> Options:
        """The options for a flip of the rush."""
        rows_k, rows_u, gains, index = [], [], [], []
        for source in (0, 1):
            counts = known if source == 0 else unseen
            ks = np.flatnonzero(counts)
            if not len(ks):
                continue
            k = np.repeat(known[None], len(ks), axis=0)
            u = np.repeat(unseen[None], len(ks), axis=0)
            (k if source == 0 else u)[np.arange(len(ks)), ks] -= 1
            rows_k.append(k)
            rows_u.append(u)
            gains.append(GOLD_VALUE[ks])
            index.append((source, ks))
        gain = np.concatenate(gains)
        values = self._leaf_values(np.concatenate(rows_k), np.concatenate(rows_u), lead + gain,
                                   cards_lead + (gain > 0))
        actions, out, start = [], [], 0
        for source, ks in index:
            v = values[start:start + len(ks)]
            start += len(ks)
            if source == 0:
                actions.append(ks)
                out.append(v)
            else:
                actions.append(np.array([UNKNOWN_ACTION]))
                out.append(np.array([unseen[ks] @ v / unseen[ks].sum()]))
        return Options(np.concatenate(actions), np.concatenate(out))

    def options(self, frame: Frame) -> Options:
        """The moves open at ``frame`` and their values to the mover."""
        if frame.rush:
            return self.rush(frame.known, frame.unseen, frame.lead, frame.cards_lead)
        if frame.face_up >= 0:
            return self.seconds(frame.known, frame.unseen, frame.face_up, frame.lead, frame.cards_lead)
        return self.firsts(frame.known, frame.unseen, frame.lead, frame.cards_lead)


__all__ = ["CARD_OF_KIND", "GOLD_VALUE", "IS_DYNAMITE", "KIND_OF_CARD", "MINER_OWNER", "MINER_VALUE", "NUM_KINDS",
           "PAIRS", "Frame", "Options", "Pair", "PublicGame", "PublicState", "RELATIVE", "TurnSearch",
           "UNKNOWN_ACTION", "frame_of", "is_stalemate", "standing", "table_counts"]
