"""Players for many games at once, on the batched engine.

:func:`batched_policy` turns any entrant ``goldrush_agents.make_agent`` knows into a
:class:`goldrush_env.gold.vector.BatchedPolicy`: ``greedy`` is vectorized
(:class:`BatchedGreedy`), a trained model runs its network on every game in
one batch (:class:`BatchedModel`), and any other player is asked game by game
from the same structured view it gets in the single-game environments
(:class:`PerGame`).

The ``greedy`` player, vectorized:

:class:`BatchedGreedy` follows the rules of :class:`goldrush_agents.gold.greedy.GreedyAgent`
(read that module for them) for every game of a
:class:`~goldrush_env.gold.batched.BatchedGames` in a few array operations, so the
vectorized environment can play it inside its step. The worth of each pair
of cards is taken from :meth:`goldrush_agents.gold.knowledge.Knowledge.pair_value` itself,
tabulated per seat, so the two agree to the last bit; they differ only in
the random numbers that break ties among equally good flips (a greedy
player's random choices are its own). ``tests/gold/test_batched_agents.py``
checks, position by position, that each batched flip is one the single-game
player could have made.

It plays with perfect memory (what the vector environment offers): a seat
knows every card revealed and still on the table.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from goldrush_env.errors import GoldRushError
from goldrush_env.gold.batched import BatchedGames, random_in_masks
from goldrush_env.gold.cards import COLOUR, DYNAMITE, EMPTY, IS_GOLD, IS_MINER, NUM_CARD_TYPES, NUM_POSITIONS, VALUE
from goldrush_env.gold.encoder import OBSERVATION_SIZE, BatchedObservations
from goldrush_env.gold.engine import colour_owners
from goldrush_env.policy import Policy
from goldrush_env.gold.vector import BatchedPolicy, BatchedRandom
from goldrush_env.gold.view import UNKNOWN, PlayerView

from goldrush_agents import make_agent
from goldrush_agents.arena import GameResult
from goldrush_agents.gold.knowledge import Knowledge
from goldrush_agents.gold.trained import TrainedPolicy

_NONE = NUM_CARD_TYPES  # the card id used for "no known card" in lookups
# Facts of each card id, with one more entry for _NONE.
_GOLD = np.array(IS_GOLD + (False,))
_MINER = np.array(IS_MINER + (False,))
_VALUE = np.array(VALUE + (0,))


def _greedy_tables(num_players: int) -> tuple[np.ndarray, np.ndarray]:
    """``worth[seat, t, a, b]``: :meth:`Knowledge.pair_value` of cards ``a`` and ``b`` for ``seat`` when
    the strongest known miner that does not work for it has strength ``t`` (0: none), so that gold
    worth up to ``t`` is threatened; card id 25 stands for "no card" (worth 0). And per card id
    (25 included), ``owner``: the seat a miner works for (-1 for an unowned miner or another card)."""
    owners = colour_owners(num_players)
    size = NUM_CARD_TYPES + 1
    safe, threatened = np.zeros((num_players, size, size)), np.zeros((num_players, size, size))
    for seat in range(num_players):
        view = PlayerView(seat=seat, num_players=num_players, cards=(UNKNOWN,) * NUM_POSITIONS, face_up=None,
                          owners=owners, scores=(0,) * num_players, gold_cards=(0,) * num_players,
                          current_player=seat, gold_rush=False, turn=0, max_turns=None,
                          unseen=(0,) * NUM_CARD_TYPES, action_mask=np.zeros(NUM_POSITIONS, np.int8),
                          observation=np.zeros(0, np.float32))
        knowledge = Knowledge.of(view)
        for a in range(NUM_CARD_TYPES):
            for b in range(NUM_CARD_TYPES):
                knowledge.threatened = lambda gold, exclude=(): False
                safe[seat, a, b] = knowledge.pair_value(a, b)
                knowledge.threatened = lambda gold, exclude=(): True
                threatened[seat, a, b] = knowledge.pair_value(a, b)
    gold_of_pair = np.zeros((size, size), dtype=np.int64)  # the gold of a dynamite-and-gold pair
    for a in range(NUM_CARD_TYPES):
        for b in range(NUM_CARD_TYPES):
            if (a == DYNAMITE) != (b == DYNAMITE) and (IS_GOLD[a] or IS_GOLD[b]):
                gold_of_pair[a, b] = VALUE[b] if IS_GOLD[b] else VALUE[a]
    levels = np.arange(6)[:, None, None]
    hit = (gold_of_pair[None] > 0) & (levels >= gold_of_pair[None])  # (6, 26, 26)
    worth = np.where(hit[None], threatened[:, None], safe[:, None])
    owner = np.array([owners[COLOUR[card]] if IS_MINER[card] else -1 for card in range(NUM_CARD_TYPES)] + [-1])
    return worth, owner


class BatchedGreedy:
    """``greedy`` for every game of a batch; a :class:`goldrush_env.gold.vector.BatchedPolicy`."""

    name = "greedy"

    def __init__(self) -> None:
        self._tables: dict[int, tuple[np.ndarray, ...]] = {}

    def __repr__(self) -> str:
        return "BatchedGreedy()"

    def act(self, games: BatchedGames, known: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        n = games.num_players
        if n not in self._tables:
            self._tables[n] = _greedy_tables(n)
        worth_table, owner = self._tables[n]

        rows = np.flatnonzero(where & ~games.is_finished)
        positions = np.full(games.num_games, -1, dtype=np.int64)
        if not len(rows):
            return positions
        table = games.table[rows].astype(np.int64)
        face_up = games.face_up[rows].astype(np.int64)
        seats = games.current_player[rows].astype(np.int64)
        legal = games.legal_mask()[rows]
        mine = known[rows] & legal  # Knowledge.known: legal positions whose card is known
        unknown = legal & ~known[rows]
        cards = np.where(mine, table, _NONE)  # (k, 64)
        draws = rng.random(len(rows))
        choice = np.full(len(rows), -1, dtype=np.int64)

        # Is each gold value threatened by a known miner that does not work for this seat?
        miner_value = np.where(mine & _MINER[cards], _VALUE[cards], 0)
        threat = np.where(owner[cards] == seats[:, None], 0, miner_value).max(axis=1)  # strongest such miner
        worth = worth_table[seats, threat]  # (k, 26, 26): Knowledge.pair_value for each game's seat and threats

        rush = games.gold_rush[rows]
        first_flip = ~rush & (face_up < 0)
        second_flip = ~rush & (face_up >= 0)

        # The rush: the most valuable remembered gold (the highest position among equals).
        k = np.flatnonzero(rush)
        gold_key = np.where(mine[k] & _GOLD[cards[k]], _VALUE[cards[k]] * 100 + np.arange(NUM_POSITIONS), -1)
        has_gold = gold_key.max(axis=1) >= 0
        choice[k[has_gold]] = gold_key[has_gold].argmax(axis=1)

        # First flip: the first card of the best pair with positive worth, as GreedyAgent scans
        # pairs (p < q) in position order: the lowest p that has a later q making the best worth.
        # Worth is symmetric and depends on the cards only, so the search runs over card kinds.
        k = np.flatnonzero(first_flip)
        if len(k):
            kinds = np.arange(NUM_CARD_TYPES + 1)
            pair_worth = worth[k]
            size = NUM_CARD_TYPES + 1
            held = np.bincount((np.arange(len(k))[:, None] * size + cards[k]).ravel(),
                               minlength=len(k) * size).reshape(len(k), size)
            held[:, _NONE] = 0
            present = (held[:, :, None] > 0) & (held[:, None, :] > 0) \
                & ((kinds[:, None] != kinds[None, :]) | (held[:, :, None] > 1))
            best = np.where(present, pair_worth, 0.0).max(axis=(1, 2))
            good = best > 0
            # last[b]: the highest position holding a known card of kind b (-1 if none).
            last = np.full((len(k), NUM_CARD_TYPES + 1), -1, dtype=np.int64)
            spots = np.broadcast_to(np.arange(NUM_POSITIONS), (len(k), NUM_POSITIONS))
            np.maximum.at(last, (np.repeat(np.arange(len(k)), NUM_POSITIONS), cards[k].ravel()), spots.ravel())
            last[:, _NONE] = -1
            reach = np.where(pair_worth == best[:, None, None], last[:, None, :], -1).max(axis=2)  # (k, 26)
            first_of_best = mine[k] & (np.take_along_axis(reach, cards[k], axis=1) > np.arange(NUM_POSITIONS))
            choice[k[good]] = first_of_best[good].argmax(axis=1)

        # Second flip: the best partner for the face-up card; else explore, unless that risks
        # handing something over while a harmless known card exists.
        k = np.flatnonzero(second_flip)
        if len(k):
            up_card = table[k, face_up[k]]
            scored = worth[k[:, None], up_card[:, None], cards[k]]  # (k, 64)
            scored = np.where(mine[k], scored, -np.inf)
            best = np.maximum(scored.max(axis=1), 0.0)
            good = best > 0
            choice[k[good]] = random_in_masks(scored[good] == best[good, None], draws[k[good]])
            risky = (up_card == DYNAMITE) | ((owner[up_card] >= 0) & (owner[up_card] != seats[k]))
            safe_cards = mine[k] & (scored == 0)
            has_safe = safe_cards.any(axis=1)
            explore = ~good & unknown[k].any(axis=1) & ~(risky & has_safe)
            choice[k[explore]] = random_in_masks(unknown[k[explore]], draws[k[explore]])
            careful = ~good & ~explore & has_safe
            choice[k[careful]] = random_in_masks(safe_cards[careful], draws[k[careful]])
            # Nothing known is harmless and nothing is unknown: the best worth, highest position among equals.
            last = ~good & ~explore & ~careful
            top = scored[last] == scored[last].max(axis=1, keepdims=True)
            choice[k[last]] = NUM_POSITIONS - 1 - top[:, ::-1].argmax(axis=1)

        # Otherwise: a card this seat does not know, else any legal card.
        open_rows = choice < 0
        has_unknown = unknown.any(axis=1)
        pick = open_rows & has_unknown
        choice[pick] = random_in_masks(unknown[pick], draws[pick])
        pick = open_rows & ~has_unknown
        choice[pick] = random_in_masks(legal[pick], draws[pick])
        positions[rows] = choice
        return positions


def batched_policy(spec: str | BatchedPolicy, seed: int | None = None) -> BatchedPolicy:
    """The batched form of an entrant: ``"random"``, ``"greedy"``, a trained model (``"ppo"``, a
    ``.npz``/``.zip`` file) or any other name or import path ``goldrush_agents.make_agent`` accepts
    (a :class:`BatchedPolicy` is returned as it is).

    Examples:
        >>> from goldrush_env.gold.vector import GoldVectorEnv
        >>> env = GoldVectorEnv(64, opponents={batched_policy("greedy"): 3, batched_policy("expert"): 1})
    """
    if isinstance(spec, BatchedPolicy):
        return spec
    if spec == "random":
        return BatchedRandom()
    if spec == "greedy":
        return BatchedGreedy()
    policy = make_agent(spec, seed=seed)
    if isinstance(policy, TrainedPolicy):
        return BatchedModel(policy)
    return PerGame(policy)


class _Adapter:
    """A single-game policy made batched: its name, its reseeding, and the observation vectors
    of the seats to play in the games it is asked about."""

    def __init__(self, policy: Policy, name: str) -> None:
        self.policy, self.name = policy, name
        self._encoders: dict[tuple[int, int | None], BatchedObservations] = {}

    def reset(self, seed: int | None = None) -> None:
        self.policy.reset(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.policy!r})"

    def observations(self, games: BatchedGames, known: np.ndarray, rows: np.ndarray) -> np.ndarray:
        key = (games.num_players, games.max_turns)
        if key not in self._encoders:
            self._encoders[key] = BatchedObservations(games.num_players, games.owners, games.max_turns)
        out = np.empty((len(rows), OBSERVATION_SIZE), dtype=np.float32)
        seats = games.current_player[rows].astype(np.int64)
        return self._encoders[key].fill(games, known, seats, out, rows=rows)


class BatchedModel(_Adapter):
    """A trained model choosing the flips of all games in one forward pass."""

    def __init__(self, policy: TrainedPolicy) -> None:
        super().__init__(policy, "ppo" if policy.path is None else str(policy.path))

    def act(self, games: BatchedGames, known: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        positions = np.full(games.num_games, -1, dtype=np.int64)
        rows = np.flatnonzero(where & ~games.is_finished)
        if len(rows):
            observations = self.observations(games, known, rows)
            positions[rows] = self.policy.act_batch(observations, games.legal_mask()[rows])
        return positions


class PerGame(_Adapter):
    """Any single-game policy, asked game by game with the :class:`PlayerView` of the seat to play."""

    def __init__(self, policy: Policy) -> None:
        super().__init__(policy, getattr(policy, "name", repr(policy)))

    def act(self, games: BatchedGames, known: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        positions = np.full(games.num_games, -1, dtype=np.int64)
        rows = np.flatnonzero(where & ~games.is_finished)
        if len(rows):
            for row, view in zip(rows, self.views(games, known, rows)):
                positions[row] = self.policy.act(view)
        return positions

    def views(self, games: BatchedGames, known: np.ndarray, rows: np.ndarray) -> list[PlayerView]:
        """The structured views of the seats to play in games ``rows``, as the AEC environment builds them."""
        observations = self.observations(games, known, rows)
        masks = games.legal_mask()[rows].astype(np.int8)
        owners = tuple(int(owner) for owner in games.owners)
        views = []
        for i, row in enumerate(rows):
            table = games.table[row]
            cards = np.where(table == EMPTY, EMPTY, np.where(known[row], table, UNKNOWN))
            hidden = table[(table >= 0) & ~known[row]]
            face_up = int(games.face_up[row])
            views.append(PlayerView(
                seat=int(games.current_player[row]), num_players=games.num_players, cards=tuple(cards.tolist()),
                face_up=None if face_up < 0 else face_up, owners=owners, scores=tuple(games.scores[row].tolist()),
                gold_cards=tuple(games.gold_cards[row].tolist()), current_player=int(games.current_player[row]),
                gold_rush=bool(games.gold_rush[row]), turn=int(games.turn[row]), max_turns=games.max_turns,
                unseen=tuple(np.bincount(hidden, minlength=NUM_CARD_TYPES).tolist()), action_mask=masks[i],
                observation=observations[i], rush_at=games.rush_at))
        return views


def batched_mix(opponents: str | BatchedPolicy | dict[str, float]) -> BatchedPolicy | dict[BatchedPolicy, float]:
    """An entrant or a mix ``{entrant: weight}`` with every entrant made by :func:`batched_policy`."""
    if isinstance(opponents, dict):
        return {batched_policy(name): weight for name, weight in opponents.items()}
    return batched_policy(opponents)


def play_fixtures(fixtures: Sequence[Any], num_players: int, seed: int, *, progress: bool = False,
                  **config: Any) -> list[GameResult]:
    """Play every fixture of a tournament (:class:`goldrush_agents.tournament.Fixture`) at once on the batched
    engine, each entrant choosing for all its seats together.

    Tables and start players are those :func:`goldrush_agents.arena.play_game` deals for the same fixtures (from
    each game's seed); the entrants' own random choices come from one generator seeded by ``seed``, so a run
    is reproducible but not flip-for-flip the same as the one-game-at-a-time tournament. Each game
    is replayed through :class:`~goldrush_env.gold.engine.Game` afterwards for its record.
    """
    from gymnasium.utils import seeding

    from goldrush_env.gold.cards import DEFAULT_MAX_TURNS
    from goldrush_env.gold.engine import Game
    from goldrush_env.gold.vector import step_entrants

    unknown = sorted(set(config) - {"memory", "max_turns", "table"})
    if unknown or config.get("memory", "perfect") != "perfect":
        raise GoldRushError(f"a batched tournament plays with perfect memory and takes only max_turns and table, "
                            f"got {config}")
    max_turns = config.get("max_turns", DEFAULT_MAX_TURNS)
    table = config.get("table", "full")
    names = list(dict.fromkeys(name for fixture in fixtures for name in fixture.names))
    policies = [batched_policy(name) for name in names]
    count = len(fixtures)
    layouts = np.empty((count, 64), dtype=np.int8)
    for g, fixture in enumerate(fixtures):  # the deal raw_env.reset(seed=...) makes
        layouts[g] = Game.new(num_players, seeding.np_random(fixture.seed)[0], table=table).table
    games = BatchedGames(count, num_players, max_turns=max_turns, table=table)
    games.reset(layouts=layouts, first_player=np.array([f.first_player for f in fixtures]))
    entrant_of_seat = np.array([[names.index(name) for name in fixture.names] for fixture in fixtures])
    known = np.zeros((count, 64), dtype=bool)
    rng = np.random.default_rng(seed)
    for policy, policy_seed in zip(policies, np.random.SeedSequence(seed).spawn(len(policies))):
        if hasattr(policy, "reset"):
            policy.reset(seed=int(policy_seed.generate_state(1)[0]))
    rows, steps = np.arange(count), []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=count, unit="game", desc="tournament (batched)")
    while not games.is_finished.all():
        entrant = entrant_of_seat[rows, games.current_player]
        for flips in step_entrants(games, policies, entrant, ~games.is_finished, known & (games.table >= 0), rng):
            flipped = np.flatnonzero(flips.outcome >= 0)
            known[flipped, flips.position[flipped]] = True
            steps.append(flips.position)
        if bar is not None:
            bar.update(int(games.is_finished.sum()) - bar.n)
    if bar is not None:
        bar.close()
    flips_of = np.stack(steps, axis=1) if steps else np.zeros((count, 0), dtype=np.int64)
    results = []
    for g, fixture in enumerate(fixtures):
        game = Game(num_players, layouts[g].tolist(), first_player=fixture.first_player, max_turns=max_turns,
                    rush_at=games.rush_at)
        for position in flips_of[g][flips_of[g] >= 0]:
            game.step(int(position))
        if list(game.scores) != games.scores[g].tolist():
            raise RuntimeError(f"game {g}: the batched engine and Game disagree on the scores")
        record = game.to_record()
        record.update(players=list(fixture.names), seed=fixture.seed, config=dict(config))
        results.append(GameResult(fixture.names, game.scores, game.gold_cards, game.winners, game.turn,
                                  game.is_truncated, record))
    return results
