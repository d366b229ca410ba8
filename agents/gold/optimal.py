"""``optimal``: Gold for two players with perfect memory on the quarter table, solved exactly.

With perfect memory every flip is public (D9), so Gold is a game of perfect information with chance, played on
the public state (:mod:`goldrush_agents.gold.turns`, whose kinds and pair tables at two seats the solver reads):
per kind of card the remembered and the unseen counts, whose turn it is, the face-up card, and seat 0's lead in
points and gold cards (only the differences decide the winner, D5). :class:`ExactTable` computes
seat 0's win share (a shared win counting one half) under best play by both seats for *every* state of a
table, by expectimax over whole turns: the first flip (a remembered kind, or an unseen card, whose kind is
drawn with its odds), the second, the outcome; the rush's single flips likewise. States are filled from
the emptiest table up (fewer cards, then fewer unseen ones), so every state a turn leads to is known first; the
loop is compiled with numba (``goldrush_agents.gold._solve_numba``).

Two seats can pass the turn back and forth for ever by turning two remembered cards that do nothing; the game
then ends at the turn limit (D4) with the standing of the moment. With ``P`` and ``Q`` seat 0's value of the
best move that changes the table for seat 0 and for seat 1 at the same table, and ``T`` the standing, the
solver gives seat 0 to move ``max(P, min(Q, T))`` and seat 1 to move ``min(Q, max(P, T))``: each passes only
where the other's progress, or stalling to the limit, is worth more to it. The turn count is not part of the
state, so the values are exact for games that end before the limit.

The quarter table (16 cards) has 5,668,704 configurations; with the seat to move and every lead an undecided
game can have (points within 6, gold cards within 5), 1.6 billion float32 values, 6.5 GB, about ten minutes of
a core to compute (once per process, or once for all with a cache file). :class:`OptimalAgent` plays through
the one-turn search of :class:`~goldrush_agents.gold.turns.Search` with these exact values at its leaves, which
makes every move's value exact.
"""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path

import numpy as np

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.cards import TABLES
from goldrush_env.policy import SeatView, SeededPolicy

from goldrush_agents.gold.turns import GOLD, SHIFT, Games, Search, box, lead_share, of_view, position_of, rules

SOLVED_TABLES = ("quarter",)
"""The tables :class:`OptimalAgent` plays (the half and full tables have far too many states)."""


class ExactTable:
    """Seat 0's win share under best play from every public state of a box (``counts``: cards per kind, in seat
    0's frame) whose rush starts at ``rush_at`` cards (module docstring). ``seconds`` says how long solving
    took."""

    def __init__(self, counts: np.ndarray, rush_at: int, cache: str | Path | None = None) -> None:
        from goldrush_agents.gold._solve_numba import solve

        counts = np.asarray(counts, dtype=np.int64)
        self.box = counts
        self.kinds = np.flatnonzero(counts)
        n = counts[self.kinds]
        k = len(self.kinds)
        top = int(n.max())
        # per kind present: digit <-> (remembered, unseen) with remembered + unseen <= n
        self.digit = np.full((k, top + 1, top + 1), -1, dtype=np.int64)
        kn_of = np.zeros((k, (top + 1) * (top + 2) // 2), dtype=np.int64)
        un_of = np.zeros_like(kn_of)
        radix = np.zeros(k, dtype=np.int64)
        for i, count in enumerate(n):
            d = 0
            for known in range(count + 1):
                for unseen in range(count + 1 - known):
                    self.digit[i, known, unseen] = d
                    kn_of[i, d], un_of[i, d] = known, unseen
                    d += 1
            radix[i] = d
        self.stride = np.concatenate([[1], np.cumprod(radix)[:-1]]).astype(np.int64)
        self.num_configs = int(np.prod(radix))
        self.rules = rules(2)
        gold, strength, _, shift = self.rules.per_kind[:, self.kinds]
        first_stays, second_stays, receiver, struck = self.rules.per_pair
        total_gold = int(gold @ n)
        self.max_lead = total_gold // 2  # an undecided game: |lead| <= gold gone and <= gold left
        self.max_cards = int(n[gold > 0].sum())
        # the order: fewer cards, then fewer unseen
        index = np.arange(self.num_configs, dtype=np.int64)
        cards = np.zeros(self.num_configs, dtype=np.int64)
        unseen = np.zeros(self.num_configs, dtype=np.int64)
        for i in range(k):
            d = (index // self.stride[i]) % radix[i]
            cards += kn_of[i, d] + un_of[i, d]
            unseen += un_of[i, d]
        order = np.lexsort((unseen, cards)).astype(np.int64)
        del index, cards, unseen
        pick, seat_1 = np.ix_(self.kinds, self.kinds), np.ix_(shift, shift)
        # turns' receivers count seats from the mover: read with seat 0 and with seat 1 moving, they name the same
        # seat but where nobody's miner strikes, for whoever moves (-1)
        by_0, by_1 = receiver[pick], (receiver[seat_1] + 1) % 2
        pairs = (first_stays[pick], second_stays[pick], struck[pick], np.where(by_0 == by_1, by_0, -1))
        shape = (self.num_configs, 2, 2 * self.max_lead + 1, 2 * self.max_cards + 1)
        self.rush_at = rush_at
        self.seconds = 0.0
        if cache is not None and Path(cache).is_file():
            self.values = np.load(cache, mmap_mode="r")
            if self.values.shape != shape or self.values.dtype != np.float32:
                raise GoldrushEnvError(f"{cache} holds values of shape {self.values.shape}, not this table's {shape}: "
                                       "delete it to solve again")
            return
        self.values = np.zeros(shape, dtype=np.float32)
        started = time.perf_counter()
        solve(order, (kn_of, un_of, self.digit, self.stride), (n, gold, strength), pairs, int(rush_at),
              self.values)
        self.seconds = time.perf_counter() - started
        if cache is not None:
            Path(cache).parent.mkdir(parents=True, exist_ok=True)
            np.save(cache, self.values)

    @property
    def num_states(self) -> int:
        """Turn-start states the table holds: configurations x seat to move x (lead, gold-card lead) pairs
        (those a game can reach and leave undecided are filled; the rest stay 0 and are never read)."""
        return int(np.prod(self.values.shape))

    def value(self, known: np.ndarray, unseen: np.ndarray, mover: int, lead: int, cards_lead: int) -> float:
        """Seat 0's win share at the start of ``mover``'s turn (counts per kind, seat 0's frame)."""
        known, unseen = np.asarray(known, dtype=np.int64), np.asarray(unseen, dtype=np.int64)
        if np.any(known + unseen > self.box) or np.any(known < 0) or np.any(unseen < 0):
            raise GoldrushEnvError(f"these cards do not fit the solved box: {known.tolist()} remembered, "
                                   f"{unseen.tolist()} unseen, box {self.box.tolist()}")
        gold_left = int((known + unseen) @ self.rules.per_kind[GOLD])
        if gold_left == 0 or abs(lead) > gold_left:
            return float(lead_share(lead, cards_lead) if gold_left == 0 else lead > 0)
        if abs(lead) > self.max_lead or abs(cards_lead) > self.max_cards:
            raise GoldrushEnvError(f"lead {lead} with gold-card lead {cards_lead} cannot arise with {gold_left} points "
                                   "of gold left")
        config = int(sum(self.digit[i, known[kind], unseen[kind]] * self.stride[i]
                         for i, kind in enumerate(self.kinds)))
        return float(self.values[config, mover, lead + self.max_lead, cards_lead + self.max_cards])

    def shares(self, games: Games) -> np.ndarray:
        """Each seat's win share under best play ``(m, 2)``, seats counted from the mover, at the start of each
        game's turn (2-player :class:`~goldrush_agents.gold.turns.Games`, each in its mover's frame)."""
        shift = self.rules.per_kind[SHIFT]
        out = np.empty((len(games.seat), 2))
        for g, seat in enumerate(games.seat.tolist()):
            known, unseen = games.known[g], games.unseen[g]
            lead, cards_lead = games.scores[g, 0] - games.scores[g, 1], games.golds[g, 0] - games.golds[g, 1]
            if seat == 1:  # to seat 0's frame, the table's
                known, unseen, lead, cards_lead = known[shift], unseen[shift], -lead, -cards_lead
            v = self.value(known, unseen, seat, int(lead), int(cards_lead))
            mover = v if seat == 0 else 1.0 - v
            out[g] = mover, 1.0 - mover
        return out

    def search(self) -> Search:
        """The one-turn search of :class:`~goldrush_agents.gold.turns.Search` with these exact values at its
        leaves (:meth:`shares`)."""
        return Search(2, self.rush_at, self.shares, on_states=True)


@lru_cache(maxsize=1)
def solved(table: str, cache: str | None = None) -> ExactTable:
    """The solved ``table``, computed once per process; with ``cache`` (a ``.npy`` path) read from there, or
    solved and saved there (6.5 GB for the quarter table), so that other processes map it instead."""
    return ExactTable(box(table, 2), TABLES[table].rush_at, cache)


class OptimalAgent(SeededPolicy):
    """Best play on the quarter table, 2 players, perfect memory (module docstring): every move's exact win share,
    the best played (ties drawn from the seeded generator). The first move solves the table (minutes and 6.5 GB,
    once per process), or with ``cache`` (a ``.npy`` path) maps it from there, solving and saving it the first
    time."""

    name = "optimal"

    def __init__(self, seed: int | None = None, cache: str | None = None) -> None:
        super().__init__(seed)
        if cache is not None and not str(cache).endswith(".npy"):
            raise GoldrushEnvError(f"cache must be a path ending in .npy, got {cache!r}")
        self.cache = cache

    def act(self, view: SeatView) -> int:
        return position_of(view, self.choose(view)[0], self.rng)

    def choose(self, view: SeatView) -> tuple[int, dict[int, float]]:
        """The action played (a kind relative to the seat, or the unseen card) and every move's win share for the
        seat to move."""
        tables = [name for name in SOLVED_TABLES if TABLES[name].rush_at == view.rush_at]
        if view.num_players != 2 or not tables:
            raise GoldrushEnvError(f"optimal plays 2 players on the tables {list(SOLVED_TABLES)} only, got "
                                   f"{view.num_players} players and the rush at {view.rush_at} cards")
        _, values = solved(tables[0], self.cache).search().options(of_view(view))
        actions = np.flatnonzero(~np.isnan(values[0]))
        values = values[0, actions]
        best = np.flatnonzero(values >= values.max() - 1e-6)
        action = int(actions[best[self.rng.integers(len(best))]])
        return action, dict(zip(actions.tolist(), values.tolist()))

    def __repr__(self) -> str:
        return f"OptimalAgent(cache={self.cache!r})"
