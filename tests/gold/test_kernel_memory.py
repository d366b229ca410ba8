"""Gold's compiled kernel forgets as the readable memory model does (``memory="human"``,
:class:`~goldrush_env.gold.memory.HumanMemory`), and the vector environment shows each learner what its seat
remembers.

The kernel draws a seat's forgetting from the game's stream, :class:`~goldrush_env.gold.memory.HumanMemory`
from a numpy generator of its own, so the two cannot agree draw for draw: what must agree is the
distribution. The first tests play one scripted list of flips in thousands of games of the readable engine, each
seat told what the table showed by ``conftest.feed``, and in a batch of kernel games and compare, after every flip, how often each seat remembers each card and how many
cards it remembers; without forgetting the eviction draws nothing, and the two must agree game for game.
The rest step :class:`~goldrush_env.gold.vector.GoldVectorEnv` with human memory and read its observations
and masks against the memories the kernel holds.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from scipy.stats import norm

from goldrush_agents.gold.batched import batched_policy
from goldrush_env.gold.batched import BatchedGames, random_in_masks
from goldrush_env.gold.cards import NUM_CATEGORIES, NUM_POSITIONS, category_table, parse_layout
from goldrush_env.gold.encoder import SLICES, UNSEEN_SCALE
from goldrush_env.gold.engine import Game, Outcome
from goldrush_env.gold.memory import HumanMemory
from goldrush_env.gold.variants import KINDS_LAYOUT, UNKNOWN_ACTION
from goldrush_env.gold.vector import GoldVectorEnv
from goldrush_env.layout import slices_of

from conftest import POSITIONS, feed

LAYOUT = np.array(parse_layout(("G1 G2 G3 G2 M02 D G4 G2 M13 G3 G1 M24 G2 G3 M22 G4 "
                                "M35 G1 M45 D G3 M12 G4 M03 G2 M14 G1 M33").split() + ["-"] * 36), dtype=np.int8)
"""28 cards on the first rows: gold enough for pairs that go back face down, miners and dynamite for pairs
that leave, and a rush (ten cards or fewer) before the end."""

FLIPS = (1, 20, 9, 12, 15, 3, 9, 20, 5, 18, 14, 15, 11, 23, 9, 14, 19, 8, 3, 13, 15, 9, 1, 24, 6, 9, 6, 22, 22,
         20, 10, 17, 16, 10, 9, 14, 0, 1, 3, 15, 2, 15, 3, 21, 13, 24, 25, 17, 4, 27, 6, 26, 11, 0, 13, 20, 14,
         26, 2, 12, 12, 9, 12, 7, 22, 24, 2, 6, 9, 27, 1, 24, 13, 2, 12, 15, 22, 6, 7, 20)
"""A whole game of LAYOUT, seat 0 first: 35 pairs (25 back face down, the others a strike, a duel or
dynamite), then 10 rush flips; many cards are flipped again after a few turns, so that a card is seen anew
after it was forgotten or evicted, and seen again while remembered."""

KINDS = slices_of(KINDS_LAYOUT)


def test_the_script_covers_every_way_a_memory_changes():
    game = Game(2, LAYOUT.tolist())
    outcomes, flipped, again, most = set(), set(), 0, 0
    for position in FLIPS:
        event = game.step(position)
        outcomes.add(event.outcome)
        again += position in flipped
        flipped.add(position)
    assert game.is_over
    assert outcomes >= {Outcome.FIRST, Outcome.NOTHING, Outcome.STRIKE, Outcome.DUEL, Outcome.DYNAMITE,
                        Outcome.RUSH_GOLD}
    assert again >= 40
    # Perfect memory would hold more than the capacities tested below.
    games = BatchedGames(1, 2)
    games.reset(seed=0, layouts=LAYOUT[None])
    for position in FLIPS:
        games.step(np.array([position]))
        most = max(most, int((games.memo[0, 0] >= 0).sum()))
    assert most >= 12


# --- the forgetting model, in distribution ------------------------------------------------------------------

@functools.cache
def aec_tallies(num_players: int, forget_prob: float, capacity: int | None, count: int, seed: int):
    """FLIPS in ``count`` games of the readable engine, with a :class:`HumanMemory` per seat (seeded from ``seed``,
    ``seed + 1``, ...). Returns, after each flip, how many games remember each seat's card at each position
    (flips, seats, 64), and how many games remember 0..64 cards per seat (flips, seats, 65)."""
    rows = len(FLIPS) * num_players  # one per flip and seat, in that order
    cells = np.zeros(rows * NUM_POSITIONS, dtype=np.int64)
    sizes = np.zeros(rows * (NUM_POSITIONS + 1), dtype=np.int64)
    for i in range(count):
        game = Game(num_players, LAYOUT.tolist())
        memories = [HumanMemory(forget_prob, capacity, np.random.default_rng([seed + i, seat]))
                    for seat in range(num_players)]
        # Each game's tallies as flat indices, counted once at its end: a numpy call per flip and seat would
        # cost more than the flip.
        remembered, held, row = [], [], 0
        for position in FLIPS:
            feed(memories, game, [position])
            for memory in memories:
                remembered.extend([row * NUM_POSITIONS + p for p in memory.known])
                held.append(row * (NUM_POSITIONS + 1) + len(memory.known))
                row += 1
        cells += np.bincount(remembered, minlength=len(cells))
        sizes += np.bincount(held, minlength=len(sizes))
    return (cells.reshape(len(FLIPS), num_players, NUM_POSITIONS),
            sizes.reshape(len(FLIPS), num_players, NUM_POSITIONS + 1))


def kernel_tallies(num_players: int, forget_prob: float, capacity: int | None, count: int, seed: int):
    """FLIPS in a batch of ``count`` kernel games, tallied as :func:`aec_tallies` tallies them."""
    games = BatchedGames(count, num_players, memory="human", forget_prob=forget_prob, memory_capacity=capacity)
    games.reset(seed=seed, layouts=np.tile(LAYOUT, (count, 1)))
    cells = np.zeros((len(FLIPS), num_players, NUM_POSITIONS), dtype=np.int64)
    sizes = np.zeros((len(FLIPS), num_players, NUM_POSITIONS + 1), dtype=np.int64)
    for t, position in enumerate(FLIPS):
        games.step(np.full(count, position))
        remembered = games.memo >= 0
        assert not (remembered & (games.table < 0)[:, None, :]).any()  # a card that left is not remembered
        cells[t] = remembered.sum(axis=0)
        held = remembered.sum(axis=2)
        for seat in range(num_players):
            sizes[t, seat] = np.bincount(held[:, seat], minlength=NUM_POSITIONS + 1)
    return cells, sizes


def same_distribution(a, b, count_a: int, count_b: int, alpha: float) -> list[str]:
    """Two-sided z-tests of tallies ``a`` and ``b`` (as :func:`aec_tallies` returns them): per flip, seat and
    position the share of games remembering the card (two proportions, pooled), and per flip and seat the mean
    number of cards remembered (Welch). Bonferroni over every test that can vary: the family's chance of a
    false alarm is at most ``alpha``. Returns the tests that fail, worst first."""
    (cells_a, sizes_a), (cells_b, sizes_b) = a, b
    share_a, share_b = cells_a / count_a, cells_b / count_b
    pooled = (cells_a + cells_b) / (count_a + count_b)
    varies = (pooled > 0) & (pooled < 1)
    z_cells = np.zeros(pooled.shape)
    z_cells[varies] = (share_a - share_b)[varies] / np.sqrt(
        pooled * (1 - pooled) * (1 / count_a + 1 / count_b))[varies]
    held = np.arange(NUM_POSITIONS + 1)
    mean_a, mean_b = sizes_a @ held / count_a, sizes_b @ held / count_b
    error = np.sqrt((sizes_a @ held ** 2 / count_a - mean_a ** 2) / count_a
                    + (sizes_b @ held ** 2 / count_b - mean_b ** 2) / count_b)
    spread = error > 0
    z_sizes = np.zeros(mean_a.shape)
    z_sizes[spread] = (mean_a - mean_b)[spread] / error[spread]
    # Where nothing varies in either sample, the two agree exactly (both always, or both never).
    assert np.array_equal(mean_a[~spread], mean_b[~spread])
    tests = int(varies.sum() + spread.sum())
    critical = norm.isf(alpha / (2 * tests))
    failures = [(abs(z), (f"flip {t} seat {seat} position {p}: remembered in {share_a[t, seat, p]:.3f} vs "
                          f"{share_b[t, seat, p]:.3f} of games, z = {z:.1f}"))
                for (t, seat, p), z in np.ndenumerate(z_cells) if abs(z) > critical]
    failures += [(abs(z), (f"flip {t} seat {seat}: {mean_a[t, seat]:.3f} vs {mean_b[t, seat]:.3f} cards "
                           f"remembered on average, z = {z:.1f}"))
                 for (t, seat), z in np.ndenumerate(z_sizes) if abs(z) > critical]
    return [f"{len(failures)} of {tests} tests beyond |z| = {critical:.2f}"] + [
        line for _, line in sorted(failures, reverse=True)[:10]] if failures else []


AEC_GAMES, KERNEL_GAMES, ALPHA = 3000, 20000, 1e-3
"""Some 750 to 3,000 tests vary per case, so a test fails beyond |z| = 4.8 to 5.1 (Bonferroni); under the
right kernel the largest |z| is 3.62. A share of 1/2 that differs by 0.06 between the two fails its own test
nearly nine times out of ten (the AEC games, the costly ones, bound the power: 60,000 kernel games would narrow
each test by 4% only), and the means are finer still: a kernel forgetting with 1.05 or 0.95 times forget_prob
failed every case (its largest |z| 5.3 to 8.6)."""


@pytest.mark.parametrize("num_players, forget_prob, capacity", [(2, 0.2, 4), (4, 0.3, 6), (3, 0.1, None)])
def test_the_kernel_forgets_as_the_single_environment_does(num_players, forget_prob, capacity):
    single = aec_tallies(num_players, forget_prob, capacity, AEC_GAMES, seed=1)
    compiled = kernel_tallies(num_players, forget_prob, capacity, KERNEL_GAMES, seed=2)
    if capacity is not None:  # the cap binds in both, and neither goes past it
        for sizes in (single[1], compiled[1]):
            assert not sizes[:, :, capacity + 1:].any() and sizes[:, :, capacity].sum() > 0
    assert same_distribution(single, compiled, AEC_GAMES, KERNEL_GAMES, ALPHA) == []


def test_the_comparison_tells_a_different_forgetting_apart():
    """The test above has power: the readable model forgetting twice as often fails it."""
    single = aec_tallies(2, 0.2, 4, AEC_GAMES, seed=1)
    compiled = kernel_tallies(2, 0.1, 4, KERNEL_GAMES, seed=2)
    assert len(same_distribution(single, compiled, AEC_GAMES, KERNEL_GAMES, ALPHA)) > 1


@pytest.mark.parametrize("num_players, capacity", [(2, 4), (3, 1), (4, 6), (5, 0), (2, None)])
def test_without_forgetting_the_kernel_remembers_what_the_single_environment_does(num_players, capacity):
    """With ``forget_prob=0`` nothing is drawn: the capacity evicts the card seen longest ago in both, so each
    seat's memory is the same set after every flip, in FLIPS and in seeded random games."""
    count = 6
    games = BatchedGames(count + 1, num_players, memory="human", forget_prob=0.0, memory_capacity=capacity)
    games.reset(seed=num_players)
    games.reset(layouts=LAYOUT[None], games=[count])
    references = [(Game(num_players, games.table[g].tolist()),
                   [HumanMemory(0.0, capacity, np.random.default_rng(g)) for _ in range(num_players)])
                  for g in range(count + 1)]
    rng = np.random.default_rng(num_players)
    script = iter(FLIPS)
    compared = 0
    while not games.is_finished.all():
        positions = games.random_positions(rng)
        positions[count] = next(script, -1)
        where = ~games.is_finished
        games.step(positions, where=where)
        for g in np.flatnonzero(where):
            game, memories = references[g]
            feed(memories, game, [int(positions[g])])
            for seat, memory in enumerate(memories):
                assert set(np.flatnonzero(games.memo[g, seat] >= 0)) == set(memory.known), (g, seat)
                compared += 1
    assert compared > 500


# --- the vector environment ---------------------------------------------------------------------------------

class Witness:
    """A Python opponent: checks that the knowledge the vector env hands it is what the seat to play
    remembers (or sees face up), then plays ``inner`` (a random legal flip by default)."""

    name = "witness"

    def __init__(self, inner=None) -> None:
        self.inner, self.asked = inner, 0

    def reset(self, seed=None) -> None:
        if hasattr(self.inner, "reset"):
            self.inner.reset(seed)

    def act(self, games, known, where, rng):
        rows = np.arange(games.num_games)
        expected = games.memo[rows, games.current_player] >= 0
        expected[rows, np.maximum(games.face_up, 0)] |= games.face_up >= 0
        expected &= games.table >= 0
        assert np.array_equal(known[where], expected[where])
        self.asked += int(where.sum())
        if self.inner is not None:
            return self.inner.act(games, known, where, rng)
        return random_in_masks(games.legal_mask(), rng.random(games.num_games))


def check_observations(env: GoldVectorEnv, observations: np.ndarray, masks: np.ndarray) -> None:
    """Each learner's observation and mask say what its seat remembers in the kernel's memory, no more."""
    games, n = env.games, env.num_envs
    rows = np.arange(n)
    table, face_up = games.table, games.face_up
    on_table = table >= 0
    remembered = games.memo[rows, env.seats] >= 0
    knows = remembered.copy()
    knows[rows, np.maximum(face_up, 0)] |= face_up >= 0
    assert not (remembered & ~on_table).any()
    if env.config.memory_capacity is not None:
        assert ((games.memo >= 0).sum(axis=2) <= env.config.memory_capacity).all()
    category = np.array(category_table(env.config.num_players, games.owners.tolist()))
    kind = np.where(on_table, category[env.seats[:, None], np.maximum(table, 0)], -1)  # (n, 64)
    hidden = on_table & ~knows
    unseen = np.stack([(hidden & (kind == k)).sum(axis=1) for k in range(NUM_CATEGORIES)], axis=1)
    legal = on_table.copy()
    legal[rows, np.maximum(face_up, 0)] &= face_up < 0
    if env.observation_type.name == "plain":
        assert np.array_equal(observations[:, SLICES["empty"]], ~on_table)
        assert np.array_equal(observations[:, SLICES["unknown"]], hidden)
        planes = np.zeros((n, NUM_CATEGORIES, NUM_POSITIONS), dtype=bool)
        g, p = np.nonzero(knows & on_table)
        planes[g, kind[g, p], p] = True
        assert np.array_equal(observations[:, SLICES["cards"]].reshape(n, NUM_CATEGORIES, NUM_POSITIONS), planes)
        assert np.allclose(observations[:, SLICES["unseen"]], unseen / UNSEEN_SCALE)
    else:
        down = remembered & legal
        held = np.stack([(down & (kind == k)).sum(axis=1) for k in range(NUM_CATEGORIES)], axis=1)
        known = observations[:, KINDS["known"]]
        assert np.allclose(known[:, :NUM_CATEGORIES], held / UNSEEN_SCALE)
        assert np.allclose(known[:, UNKNOWN_ACTION], hidden.sum(axis=1) / NUM_POSITIONS)
        assert np.allclose(observations[:, KINDS["unseen"]], unseen / UNSEEN_SCALE)
    # The masks: never empty; a finished game (next-step autoreset) allows action 0 alone.
    finished = games.is_finished
    assert masks.any(axis=1).all()
    assert (masks[finished] == (np.arange(masks.shape[1]) == 0)).all()
    if env.action_type.name == "positions":
        expected = legal
    else:
        expected = np.zeros((n, NUM_CATEGORIES + 1), dtype=bool)
        g, p = np.nonzero(legal & remembered)
        expected[g, kind[g, p]] = True
        expected[:, UNKNOWN_ACTION] = (legal & ~remembered).any(axis=1)
    assert np.array_equal(masks[~finished], expected[~finished])


@pytest.mark.parametrize("num_players, opponents, mode, variant, forget_prob, capacity", [
    (2, "random", "same_step", "plain", 0.2, 4),
    (3, "greedy", "next_step", "plain", 0.1, 6),
    (4, "witness", "same_step", "kinds", 0.3, 5),
    (5, "greedy", "same_step", "kinds", 0.1, None),
    (2, "expert", "next_step", "plain", 0.2, 8),
    (3, "mix", "next_step", "kinds", 0.2, 4),
])
def test_vector_observations_and_masks_are_what_the_learner_remembers(num_players, opponents, mode, variant,
                                                                      forget_prob, capacity):
    witnesses = []

    def entrant(name):
        if name in ("witness", "expert"):
            witnesses.append(Witness(batched_policy("expert", seed=0)) if name == "expert" else Witness())
            return witnesses[-1]
        return batched_policy(name)

    chosen = ({entrant("random"): 1, entrant("greedy"): 1, entrant("witness"): 1} if opponents == "mix"
              else entrant(opponents))
    options = POSITIONS if variant == "plain" else {"action": "kinds", "observation": "kinds"}
    num_envs, steps = (8, 60) if opponents == "expert" else (32, 200)
    env = GoldVectorEnv(num_envs, num_players=num_players, opponents=chosen, autoreset_mode=mode, memory="human",
                        forget_prob=forget_prob, memory_capacity=capacity, **options)
    observations, info = env.reset(seed=num_players)
    rng = np.random.default_rng(num_players)
    check_observations(env, observations, info["action_mask"])
    ends = 0
    for _ in range(steps):
        observations, _, terminated, truncated, info = env.step(random_in_masks(env.action_masks(),
                                                                                rng.random(num_envs)))
        check_observations(env, observations, info["action_mask"])
        ends += int((terminated | truncated).sum())
    assert ends > 0 or opponents == "expert"
    assert all(witness.asked > 0 for witness in witnesses)


@pytest.mark.parametrize("num_players, opponents, mode, variant", [
    (2, "random", "same_step", "plain"),
    (3, "greedy", "next_step", "kinds"),
    (4, "witness", "same_step", "kinds"),
])
def test_human_memory_that_never_forgets_is_perfect_memory(num_players, opponents, mode, variant):
    """``forget_prob=0`` and no capacity: the same games, draw for draw, as ``memory="perfect"``."""
    options = POSITIONS if variant == "plain" else {"action": "kinds", "observation": "kinds"}

    def run(**memory):
        chosen = Witness() if opponents == "witness" else batched_policy(opponents)
        env = GoldVectorEnv(24, num_players=num_players, opponents=chosen, autoreset_mode=mode, **options,
                            **memory)
        observations, info = env.reset(seed=5)
        rng = np.random.default_rng(5)
        trace = [observations, info["action_mask"]]
        for _ in range(150):
            trace += env.step(random_in_masks(env.action_masks(), rng.random(24)))[:4]
            trace.append(env.action_masks())
        return trace

    perfect = run(memory="perfect")
    human = run(memory="human", forget_prob=0.0, memory_capacity=None)
    assert len(perfect) == len(human)
    for a, b in zip(perfect, human):
        assert np.array_equal(a, b)
