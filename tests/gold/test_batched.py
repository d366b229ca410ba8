"""The batched engine plays exactly the games the single-game engine plays.

Every rule vector is replayed through it, and random seeded games are
played in batches side by side with :class:`Game`, state compared after
every flip (the compiled kernel).
"""

import os
import subprocess
import sys

import numba
import numpy as np
import pytest

from goldrush_env.gold.batched import NO_FLIP, OUTCOMES, BatchedGames
from goldrush_env.gold.cards import EMPTY, NUM_POSITIONS, TABLES, parse_layout
from goldrush_env.gold.engine import Game
from goldrush_env.errors import GoldrushEnvError, IllegalFlipError

from conftest import BACKGROUND, flippable, layout_of

def label(flips, g):
    outcome = OUTCOMES[flips.outcome[g]].value
    return outcome if flips.receiver[g] < 0 else f"{outcome}:{flips.receiver[g]}"


def test_every_rule_vector_replays_exactly(vectors):
    # The vectors of each player count side by side in one batch, each game flipping only while its vector has
    # flips left: a step per flip of the longest, not per flip of every vector.
    for num_players in sorted({vector["num_players"] for vector in vectors}):
        group = [vector for vector in vectors if vector["num_players"] == num_players]
        games = BatchedGames(len(group), num_players)
        games.reset(layouts=[vector["layout"] for vector in group],
                    first_player=[vector["first_player"] for vector in group])
        outcomes = [[] for _ in group]
        for t in range(max(len(vector["flips"]) for vector in group)):
            where = np.array([t < len(vector["flips"]) for vector in group])
            flips = games.step(np.array([vector["flips"][t] if t < len(vector["flips"]) else 0 for vector in group]),
                               where)
            for g in np.flatnonzero(where):
                outcomes[g].append(label(flips, g))
        for g, vector in enumerate(group):
            expected = vector["expected"]
            assert outcomes[g] == vector["outcomes"], vector["name"]
            assert games.scores[g].tolist() == expected["scores"], vector["name"]
            assert games.gold_cards[g].tolist() == expected["gold_cards"], vector["name"]
            assert games.turn[g] == expected["turns"], vector["name"]
            rush_from = games.gold_rush_from_turn[g]
            assert (None if rush_from < 0 else rush_from) == expected["gold_rush_from_turn"], vector["name"]
            if games.is_finished[g]:
                assert np.flatnonzero(games.leaders()[g]).tolist() == expected["winners"], vector["name"]


def assert_same_state(games, g, game):
    assert games.table[g].tolist() == list(game.table)
    assert games.face_up[g] == (-1 if game.face_up is None else game.face_up)
    assert games.current_player[g] == game.current_player
    assert games.turn[g] == game.turn
    assert games.gold_rush[g] == game.gold_rush
    assert games.gold_rush_from_turn[g] == (-1 if game.gold_rush_from_turn is None else game.gold_rush_from_turn)
    assert games.scores[g].tolist() == list(game.scores)
    assert games.gold_cards[g].tolist() == list(game.gold_cards)
    assert games.cards_left[g] == game.cards_left
    assert games.is_over[g] == game.is_over and games.is_truncated[g] == game.is_truncated
    legal = set(flippable(game))
    assert games.legal_mask()[g].tolist() == [p in legal for p in range(NUM_POSITIONS)]


def play_side_by_side(games, singles, rng):
    """Random legal flips in every game of the batch and in its single-game twin, compared flip by flip."""
    while not games.is_finished.all():
        positions = games.random_positions(rng)
        before = games.current_player.copy()
        flips = games.step(positions)
        for g, game in enumerate(singles):
            if game.is_finished:
                assert positions[g] == -1 and flips.outcome[g] == NO_FLIP
                continue
            event = game.step(int(positions[g]))
            assert OUTCOMES[flips.outcome[g]] is event.outcome
            assert flips.card[g] == event.card and flips.player[g] == event.player == before[g]
            assert (None if flips.receiver[g] < 0 else flips.receiver[g]) == event.receiver
            assert (None if flips.partner[g] < 0 else flips.partner[g]) == event.partner
            removed = (flips.partner[g],) * bool(flips.partner_left[g]) + (positions[g],) * bool(flips.card_left[g])
            assert removed == event.removed
            assert flips.rush_begins[g] == event.rush_begins
            assert_same_state(games, g, game)
    for g, game in enumerate(singles):
        assert np.flatnonzero(games.leaders()[g]).tolist() == list(game.winners)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_random_games_match_the_single_engine_flip_by_flip(num_players):
    games = BatchedGames(48, num_players)
    games.reset(seed=num_players, first_player=np.arange(48) % num_players)
    singles = [Game(num_players, games.table[g].tolist(), first_player=g % num_players) for g in range(48)]
    play_side_by_side(games, singles, np.random.default_rng(num_players))


@pytest.mark.parametrize("table", ["half", "quarter"])
def test_smaller_tables_match_the_single_engine_flip_by_flip(table):
    size = TABLES[table]
    games = BatchedGames(32, 2, table=table)
    games.reset(seed=5)
    assert (games.cards_left == size.num_cards).all() and (games.table[:, size.num_cards:] == EMPTY).all()
    for row in games.table:
        assert np.bincount(row[:size.num_cards], minlength=len(size.counts)).tolist() == list(size.counts)
    singles = [Game(2, games.table[g].tolist(), rush_at=size.rush_at) for g in range(32)]
    play_side_by_side(games, singles, np.random.default_rng(5))
    assert all(game.gold_rush_from_turn is not None for game in singles if game.is_over)


def test_turn_limit_truncates_as_the_engine_does():
    games = BatchedGames(16, 3, max_turns=7)
    games.reset(seed=1)
    singles = [Game(3, games.table[g].tolist(), max_turns=7) for g in range(16)]
    play_side_by_side(games, singles, np.random.default_rng(1))
    assert games.is_truncated.all() and (games.turn == 7).all()


def test_small_tables_start_in_the_gold_rush_or_reach_it_by_stalemate():
    layouts = [
        layout_of({0: "G1", 1: "M02", 2: "G3"}),  # ten cards or fewer: the rush from turn 0
        layout_of({**BACKGROUND, 0: "M02", 1: "G3"} | {p: "-" for p in (62, 63)}),  # no dynamite: D3 at once?
        layout_of(BACKGROUND),
    ]
    games = BatchedGames(3, 2)
    games.reset(layouts=layouts)
    singles = [Game(2, layout) for layout in layouts]
    for g, game in enumerate(singles):
        assert_same_state(games, g, game)
    play_side_by_side(games, singles, np.random.default_rng(0))


def test_resetting_some_games_leaves_the_others_alone():
    games = BatchedGames(6, 2)
    games.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(9):
        games.step(games.random_positions(rng))
    kept = {name: getattr(games, name)[[1, 3, 4, 5]].copy() for name in ("table", "scores", "turn", "face_up")}
    games.reset(games=np.array([True, False, True, False, False, False]), first_player=[1, 0])
    for name, before in kept.items():
        assert np.array_equal(getattr(games, name)[[1, 3, 4, 5]], before)
    assert games.turn[[0, 2]].tolist() == [0, 0] and games.current_player[[0, 2]].tolist() == [1, 0]
    assert sorted(games.table[0].tolist()) == sorted(parse_layout(Game.new(2, 0).table))


def test_same_seed_same_tables_whatever_the_threads():
    first, second = BatchedGames(5, 2), BatchedGames(5, 2)
    first.reset(seed=11)
    second.reset(seed=11)
    assert np.array_equal(first.table, second.table)
    second.reset(seed=12)
    assert not np.array_equal(first.table, second.table)
    # Each game deals from its own stream: one thread deals what two do.
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        alone = BatchedGames(5, 2)
        alone.reset(seed=11)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(alone.table, first.table)


def test_an_illegal_flip_is_refused_by_game_and_position_and_nothing_changes():
    games = BatchedGames(3, 2)
    games.reset(layouts=[layout_of({0: "G2", 1: "G3", **BACKGROUND})] * 3)
    games.step([0, 0, 0])
    table, face_up = games.table.copy(), games.face_up.copy()
    with pytest.raises(IllegalFlipError, match="game 1: position 0 is already face up"):
        games.step([1, 0, 1])
    with pytest.raises(IllegalFlipError, match="game 2: position 9 is empty"):
        games.step([1, 1, 9])
    with pytest.raises(IllegalFlipError, match="game 0: position 64 is out of range"):
        games.step([64, 1, 1])
    with pytest.raises(IllegalFlipError, match="positions must be 3 ints"):
        games.step([1, 1])
    with pytest.raises(IllegalFlipError, match="positions must be 3 ints"):
        games.step([1.0, 1.0, 1.0])
    assert np.array_equal(games.table, table) and np.array_equal(games.face_up, face_up)


@pytest.mark.parametrize("kwargs, text", [
    (dict(num_games=0, num_players=2), "num_games must be an int >= 1"),
    (dict(num_games=2, num_players=6), "num_players must be an int from 2 to 5"),
    (dict(num_games=2, num_players=2, max_turns=0), "max_turns must be None"),
])
def test_bad_arguments_are_refused_by_name(kwargs, text):
    with pytest.raises(GoldrushEnvError, match=text):
        BatchedGames(**kwargs)


@pytest.mark.parametrize("kwargs, text", [
    (dict(layouts=[["G1"] * 64] * 2), "layout holds more cards than the box: 64 x G1"),
    (dict(layouts=np.zeros((2, 64), dtype=np.int64)), "64 x G1"),
    (dict(layouts=np.full((2, 64), 30)), "unknown card id 30"),
    (dict(layouts=np.zeros((3, 64), dtype=np.int64)), "layouts must have shape \\(2, 64\\)"),
    (dict(layouts=[["-"] * 64]), "one layout per game reset \\(2\\), got 1"),
    (dict(first_player=2), "first_player must be a seat from 0 to 1"),
    (dict(first_player=[0, 1, 0]), "first_player must be a seat"),
    (dict(games=[5]), "games must be indices from 0 to 1"),
    (dict(games=np.array([True])), "a bool mask of games must have shape \\(2,\\)"),
])
def test_bad_resets_are_refused_and_change_nothing(kwargs, text):
    games = BatchedGames(2, 2)
    games.reset(seed=0)
    table = games.table.copy()
    with pytest.raises(GoldrushEnvError, match=text):
        games.reset(seed=99, **kwargs)
    assert np.array_equal(games.table, table)
    games.reset(games=[0])  # the refused reset did not reseed the dealer either
    twin = BatchedGames(2, 2)
    twin.reset(seed=0)
    twin.reset(games=[0])
    assert np.array_equal(games.table, twin.table)


def test_to_game_continues_like_the_batch():
    games = BatchedGames(4, 3)
    games.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(31):
        games.step(games.random_positions(rng))
    singles = [games.to_game(g) for g in range(4)]
    play_side_by_side(games, singles, rng)


def test_the_first_numba_compilation_is_announced_once(tmp_path):
    """A process that has to compile says so in one line naming the cache; the next one, finding the cache,
    says nothing, and neither does one that only imports the kernel with nothing cached (it compiles nothing)."""
    importing = "import goldrush_env.gold.kernel, goldrush_env.piecepack.kernel"
    playing = ("import numpy as np; from goldrush_env.gold.batched import BatchedGames; "
               "g = BatchedGames(4, 2); g.reset(seed=0); "
               "g.step(g.random_positions(np.random.default_rng(0)))")
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True)
            for code in (importing, playing, playing)]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
    said = [[line for line in run.stderr.splitlines() if line.startswith("goldrush_env: compiling")] for run in runs]
    assert said[0] == [], runs[0].stderr
    assert len(said[1]) == 1 and str(tmp_path) in said[1][0], runs[1].stderr
    assert said[2] == [], runs[2].stderr
