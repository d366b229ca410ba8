"""The public state at every table size (goldrush_agents.gold.turns) against the engine, flip by flip, and its
one-turn search against a plain recursion written here from the engine's pair rules."""

import numpy as np
import pytest

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold import raw_env
from goldrush_env.gold.cards import EMPTY, GOLD_RUSH_THRESHOLD, IS_GOLD, NUM_CARD_TYPES, TABLES, VALUE
from goldrush_env.gold.engine import _PAIR, Game, colour_owners
from goldrush_env.streams import seed_streams
from goldrush_agents.gold.turns import (Games, Search, count_leaves, num_features, num_kinds, of_view, relative_kinds,
                                        rules, start_turns, write_features)

from test_kernel_edges import near_stalemate

SIZES = [2, 3, 4, 5]


def uniform(n):
    return lambda x: np.full((len(x), n), 1 / n)


def state_of(games, g=0):
    return tuple(tuple(np.atleast_1d(array[g]).tolist()) for array in games)


@pytest.mark.parametrize("num_players", SIZES)
@pytest.mark.parametrize("table", list(TABLES))
def test_the_public_state_follows_the_engine_flip_by_flip(num_players, table):
    """Random games on the engine: every seat's view gives the same public state, the deal gives Games.new's, and
    Search.flip, told the kind of each card turned, reaches the engine's next state at every flip (rush, turn
    and scores seen from the seat to move), to the same end and result."""
    n = num_players
    env = raw_env(num_players=n, table=table)
    search = Search(n, TABLES[table].rush_at, uniform(n))
    flips = 0
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        games = Games.new(table, n, [env.game.current_player])
        while not env.game.is_finished:
            states = {state_of(of_view(env.view(seat))) for seat in range(n)}
            assert states == {state_of(games)}
            mover = env.view(env.game.current_player)
            position = int(rng.choice(mover.legal_actions))
            remembered = mover.cards[position] >= 0
            env.step_from_view(position)
            kind = relative_kinds(n, mover.current_player)[env.game.history[-1].card]
            search.flip(games, 0, kind if remembered else num_kinds(n), kind)
            flips += 1
        assert games.done[0]
        seat = int(games.seat[0])
        assert [int(games.scores[0, j]) for j in range(n)] == [env.game.scores[(seat + j) % n] for j in range(n)]
    assert flips > 80


@pytest.mark.parametrize("num_players", SIZES)
def test_the_rush_begins_where_the_rules_engine_begins_it(num_players):
    """D3 and the threshold on tables laid near a stalemate (few kinds of card left), after every random flip."""
    rng = np.random.default_rng(num_players)
    box = [card for card in range(NUM_CARD_TYPES) for _ in range(TABLES["full"].counts[card])]
    rushes = 0
    for _ in range(40):
        layout = near_stalemate(np.array(box), rng)
        game = Game(num_players, layout, rush_at=GOLD_RUSH_THRESHOLD)
        kinds = relative_kinds(num_players, 0)
        games = Games.new("full", num_players, [0])
        games.unseen[0] = 0
        for card in layout:
            if card != EMPTY:
                games.unseen[0, kinds[card]] += 1
        start_turns(games, rules(num_players), GOLD_RUSH_THRESHOLD)
        seen = set()
        search = Search(num_players, GOLD_RUSH_THRESHOLD, uniform(num_players))
        while not game.is_finished:
            assert bool(games.rush[0]) == game.gold_rush
            rushes += game.gold_rush
            position = int(rng.choice(np.flatnonzero(game.legal_mask())))
            mover = game.current_player
            event = game.step(position)
            kind = relative_kinds(num_players, mover)[event.card]
            search.flip(games, 0, kind if position in seen else num_kinds(num_players), kind)
            seen.add(position)
        assert games.done[0]
    assert rushes > 20


def test_a_flip_of_a_card_that_is_not_there_is_refused_and_changes_nothing():
    games = Games.new("quarter", 3, [0])
    before = state_of(games)
    search = Search(3, TABLES["quarter"].rush_at, uniform(3))
    with pytest.raises(GoldrushEnvError, match="game 0 has no remembered card of kind 0 to turn"):
        search.flip(games, 0, 0, 0)
    with pytest.raises(GoldrushEnvError, match="game 0 has no unseen card of kind 5 to turn"):
        search.flip(games, 0, num_kinds(3), 5)  # the quarter table has no miner of strength 2
    assert state_of(games) == before


def test_bad_values_are_refused_by_name():
    from goldrush_agents.gold.turns import box

    with pytest.raises(GoldrushEnvError, match="num_players must be an int from 2 to 5, got 6"):
        rules(6)
    with pytest.raises(GoldrushEnvError, match=r"table='tiny' is not allowed: expected one of \['full', 'half', 'quarter'\]"):
        box("tiny", 2)
    env = raw_env(num_players=2, table="quarter")
    env.reset(seed=0)
    while not env.game.is_finished:
        env.step_from_view(env.view(env.game.current_player).legal_actions[0])
    with pytest.raises(GoldrushEnvError, match="the game is over: it has no seat to move"):
        of_view(env.view(0))
    search = Search(2, TABLES["quarter"].rush_at, uniform(2))
    for depth in (0, 3, 1.0):
        with pytest.raises(GoldrushEnvError, match=f"depth must be an int from 1 to 2, got {depth!r}"):
            search.options(Games.new("quarter", 2, np.array([0])), depth)


# --- the search against a plain recursion ----------------------------------------------------------------------------

def decode(features, n):
    """The state a feature row shows, or each of a batch of rows (counts, points and gold cards are written
    exactly)."""
    k = num_kinds(n)
    at = 3 * k
    return (np.rint(features[..., :k] * 4).astype(int), np.rint(features[..., k:2 * k] * 4).astype(int),
            np.rint(features[..., at:at + n] * 20).astype(int),
            np.rint(features[..., at + n:at + 2 * n] * 10).astype(int))


def made_up_value(n, seed):
    """A fixed value function of a state (known, unseen, points, gold cards; the mover's frame), or of a batch of
    states row by row: a softmax of random weights, so that every leaf has its own value."""
    k = num_kinds(n)
    w = np.random.default_rng(seed).normal(size=(n, 2 * k + 2 * n)) * 0.3

    def value(known, unseen, scores, golds):
        z = np.concatenate([known, unseen, scores, golds], axis=-1) @ w.T
        z = np.exp(z - z.max(axis=-1, keepdims=True))
        return z / z.sum(axis=-1, keepdims=True)

    return value


class Recursion:
    """One turn of expectimax written plainly: the pair rules from the engine's table of card pairs (a card of each
    kind standing for the kind), frames turned seat by seat here, and exact values where no gold is left or a
    lead cannot be closed."""

    def __init__(self, n, value):
        self.n, self.value = n, value
        kinds = relative_kinds(n, 0)
        self.k = num_kinds(n)
        self.card = {kind: card for card, kind in enumerate(kinds)}
        self.gold = [VALUE[self.card[kind]] if kind in self.card and IS_GOLD[self.card[kind]] else 0
                     for kind in range(self.k)]
        self.owners = colour_owners(n)
        self.next_kind = {kind: relative_kinds(n, 1)[card] for kind, card in self.card.items()}
        """A kind in the next seat's frame."""

    def pair(self, a, b):
        _, first_leaves, second_leaves, gold, colour = _PAIR[self.card[a] * NUM_CARD_TYPES + self.card[b]]
        receiver = None
        if gold >= 0:
            owner = self.owners[colour]
            receiver = 0 if owner < 0 else owner  # the mover is seat 0 of its frame
        return not first_leaves, not second_leaves, receiver, VALUE[gold] if gold >= 0 else 0

    def result(self, scores, golds):
        best = max(zip(scores, golds))
        winners = [j for j in range(self.n) if (scores[j], golds[j]) == best]
        return np.array([1 / len(winners) if j in winners else 0.0 for j in range(self.n)])

    def leaf(self, known, unseen, scores, golds):
        left = sum(g * (a + b) for g, a, b in zip(self.gold, known, unseen))
        if left == 0:
            return self.result(scores, golds)
        leader = int(np.argmax(scores))
        if all(scores[leader] - scores[j] > left for j in range(self.n) if j != leader):
            return np.eye(self.n)[leader]
        nk, nu = np.zeros(self.k, int), np.zeros(self.k, int)
        for kind in range(self.k):
            if known[kind] or unseen[kind]:
                nk[self.next_kind[kind]] += known[kind]
                nu[self.next_kind[kind]] += unseen[kind]
        turned = [scores[(j + 1) % self.n] for j in range(self.n)], [golds[(j + 1) % self.n] for j in range(self.n)]
        there = self.value(nk, nu, np.array(turned[0]), np.array(turned[1]))
        return np.array([there[(j - 1) % self.n] for j in range(self.n)])

    def second(self, known, unseen, scores, golds, a):
        """Per option after the first card ``a``: its value vector."""
        out = {}
        for source in ("known", "unseen"):
            counts = known if source == "known" else unseen
            total = sum(unseen)
            mean = np.zeros(self.n)
            for b in range(self.k):
                if not counts[b]:
                    continue
                k2, u2, s2, g2 = list(known), list(unseen), list(scores), list(golds)
                (k2 if source == "known" else u2)[b] -= 1
                first_stays, second_stays, receiver, points = self.pair(a, b)
                k2[a] += first_stays
                k2[b] += second_stays
                if receiver is not None:
                    s2[receiver] += points
                    g2[receiver] += 1
                v = self.leaf(k2, u2, s2, g2)
                if source == "known":
                    out[b] = v
                else:
                    mean += v * unseen[b] / total
            if source == "unseen" and total:
                out[self.k] = mean
        return out

    def rush(self, known, unseen, scores, golds):
        out, total, mean = {}, sum(unseen), np.zeros(self.n)
        for source in ("known", "unseen"):
            for c in range(self.k):
                counts = known if source == "known" else unseen
                if not counts[c]:
                    continue
                k2, u2, s2, g2 = list(known), list(unseen), list(scores), list(golds)
                (k2 if source == "known" else u2)[c] -= 1
                s2[0] += self.gold[c]
                g2[0] += self.gold[c] > 0
                v = self.leaf(k2, u2, s2, g2)
                if source == "known":
                    out[c] = v
                else:
                    mean += v * unseen[c] / total
        if total:
            out[self.k] = mean
        return out

    def options(self, known, unseen, face_up, scores, golds, rush):
        if rush:
            return self.rush(known, unseen, scores, golds)
        if face_up >= 0:
            return self.second(known, unseen, scores, golds, face_up)
        out, total, mean = {}, sum(unseen), np.zeros(self.n)
        for source in ("known", "unseen"):
            for a in range(self.k):
                counts = known if source == "known" else unseen
                if not counts[a]:
                    continue
                k2, u2 = list(known), list(unseen)
                (k2 if source == "known" else u2)[a] -= 1
                seconds = self.second(k2, u2, scores, golds, a)
                best = max(seconds.values(), key=lambda v: v[0])
                if source == "known":
                    out[a] = best
                else:
                    mean += best * unseen[a] / total
        if total:
            out[self.k] = mean
        return out


@pytest.mark.parametrize("num_players", SIZES)
def test_the_search_agrees_with_a_plain_recursion(num_players):
    """Along games that explore at random (quarter and half tables), every option's value vector from the
    compiled search equals the recursion's, with one made-up value function at the leaves of both."""
    n = num_players
    value = made_up_value(n, seed=n)
    recursion = Recursion(n, value)
    checked = 0
    for table in ("quarter", "half"):
        search = Search(n, TABLES[table].rush_at, lambda x: value(*decode(x, n)))  # a batch at once: quick
        games = Games.new(table, n, np.arange(4) % n)
        streams = seed_streams(n, 4)
        step = 0
        while not games.done.all():
            option_values, option_mover = search.options(games)
            for g in np.flatnonzero(~games.done):
                if step % 3 == 0 or games.rush[g]:
                    want = recursion.options(games.known[g].tolist(), games.unseen[g].tolist(), int(games.face_up[g]),
                                             games.scores[g].tolist(), games.golds[g].tolist(), bool(games.rush[g]))
                    assert sorted(want) == np.flatnonzero(~np.isnan(option_mover[g])).tolist()
                    for option, v in want.items():
                        np.testing.assert_allclose(option_values[g, option], v, atol=1e-9)
                        assert option_mover[g, option] == pytest.approx(v[0], abs=1e-9)
                    checked += 1
            search.play(games, option_mover, streams, explore=1.0, temperature=10.0)
            step += 1
    assert checked > 50


def test_features_of_a_state_and_of_the_same_state_a_seat_on_agree():
    """A leaf's feature row (written from the next seat's side) equals the row of that state once the frame is
    turned: the compiled frame turn of a finished turn, and write_features of the state it reaches."""
    n = 3
    games = Games.new("full", n, [0])
    search = Search(n, TABLES["full"].rush_at, uniform(n))
    seen = []

    def record(x):
        seen.append(x.copy())
        return np.full((len(x), n), 1 / n)

    search.evaluate = record
    search.flip(games, 0, num_kinds(n), 0)  # a gold 1 up: every second card is a leaf
    search.options(games)
    leaves = seen[-1]
    # the second card unseen and a gold 2: the leaves list remembered kinds (none) then unseen kinds in order
    order = np.flatnonzero(games.unseen[0])
    row = leaves[list(order).index(1)]
    search.flip(games, 0, num_kinds(n), 1)
    x = np.zeros((1, num_features(n)), np.float32)
    write_features(games, rules(n), x)
    np.testing.assert_array_equal(row, x[0])


class TwoTurns(Recursion):
    """:class:`Recursion` whose leaves are valued by the next seat's own turn of it, that seat taking its best."""

    def __init__(self, n, value, rush_at):
        super().__init__(n, value)
        self.rush_at = rush_at
        self.rush_now = False
        self.valued = {}
        """Leaf values by state: a leaf is reached again and again (the same cards in another order, the same
        state at a later decision), and the plain recursion would value it each time."""

    def stalemate(self, counts):
        """D3: no dynamite, at most one strength of miner, and every miner weaker than every gold."""
        present = [self.card[kind] for kind in range(self.k) if counts[kind]]
        miners = {VALUE[card] for card in present if not IS_GOLD[card] and VALUE[card] > 0}
        golds = [VALUE[card] for card in present if IS_GOLD[card]]
        dynamite = any(not IS_GOLD[card] and VALUE[card] == 0 for card in present)
        return not dynamite and len(miners) <= 1 and (not miners or not golds or max(miners) < min(golds))

    def leaf(self, known, unseen, scores, golds):
        key = (tuple(known), tuple(unseen), tuple(scores), tuple(golds), self.deep, self.rush_now)
        if key not in self.valued:
            self.valued[key] = self.deeper_leaf(known, unseen, scores, golds)
        return self.valued[key]

    def deeper_leaf(self, known, unseen, scores, golds):
        exact = Recursion.leaf(self, known, unseen, scores, golds)
        if not self.deep:
            return exact
        left = sum(g * (a + b) for g, a, b in zip(self.gold, known, unseen))
        leader = int(np.argmax(scores))
        if left == 0 or all(scores[leader] - scores[j] > left for j in range(self.n) if j != leader):
            return exact
        nk, nu = np.zeros(self.k, int), np.zeros(self.k, int)
        for kind in range(self.k):
            if known[kind] or unseen[kind]:
                nk[self.next_kind[kind]] += known[kind]
                nu[self.next_kind[kind]] += unseen[kind]
        counts = [a + b for a, b in zip(known, unseen)]
        rush = self.rush_now or sum(counts) <= self.rush_at or self.stalemate(counts)
        turned = [scores[(j + 1) % self.n] for j in range(self.n)], [golds[(j + 1) % self.n] for j in range(self.n)]
        self.deep = False
        best = max(self.options(nk.tolist(), nu.tolist(), -1, *turned, rush).values(), key=lambda v: v[0])
        self.deep = True
        return np.array([best[(j - 1) % self.n] for j in range(self.n)])

    def two_turns(self, known, unseen, face_up, scores, golds, rush):
        self.deep, self.rush_now = True, rush
        try:
            return self.options(known, unseen, face_up, scores, golds, rush)
        finally:
            self.deep = False


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_two_turns_of_search_agree_with_the_recursion_one_turn_deeper(num_players):
    """depth=2: each leaf valued by the next seat's best option of its own one-turn search, against the
    recursion; on decisions of few leaves (late in quarter-table games), so that the plain recursion is quick."""
    n = num_players
    value = made_up_value(n, seed=10 + n)
    rush_at = TABLES["quarter"].rush_at
    recursion = TwoTurns(n, value, rush_at)
    recursion.deep = False
    search = Search(n, rush_at, lambda x: value(*decode(x, n)))
    games = Games.new("quarter", n, np.arange(6) % n)
    streams = seed_streams(20 + n, 6)
    checked = 0
    while not games.done.all():
        counts = np.zeros(len(games.done), np.int64)
        count_leaves(games.known, games.unseen, games.face_up, games.rush, games.done, counts)
        check = np.flatnonzero(~games.done & (counts <= 30))
        if len(check):  # only when a game is small enough to check; then the whole batch, big games too
            option_values, option_mover = search.options(games, depth=2)
        for g in check:
            want = recursion.two_turns(games.known[g].tolist(), games.unseen[g].tolist(), int(games.face_up[g]),
                                       games.scores[g].tolist(), games.golds[g].tolist(), bool(games.rush[g]))
            assert sorted(want) == np.flatnonzero(~np.isnan(option_mover[g])).tolist()
            for option, v in want.items():
                np.testing.assert_allclose(option_values[g, option], v, atol=1e-9)
            checked += 1
        search.play(games, search.options(games)[1], streams, explore=1.0, temperature=10.0)
    assert checked > 20
