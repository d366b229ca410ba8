"""The observation vector: exact values in known situations, and its documentation.

Expected vectors are written out by hand from the named slices of
:mod:`goldrush_env.gold.encoder`, never by calling the encoder, so a wrong offset,
owner or scale shows up as a mismatch. Tables follow the house style of
``test_rules.py``: a few cards under test plus :data:`BACKGROUND`, twelve
cards nobody flips that keep more than ten cards and a dynamite on the table
(no Gold Rush, no D3 stalemate).
"""

from __future__ import annotations


import numpy as np
import pytest

import goldrush_env
import goldrush_env.gold.aec
from goldrush_env.gold.cards import (
    CATEGORY_NAMES,
    COLOUR,
    DYNAMITE,
    EMPTY,
    IS_GOLD,
    VALUE,
    category_table,
    parse_card,
)
from goldrush_env.gold.encoder import LAYOUT, OBSERVATION_SIZE, PLANES, SHAPES, SLICES, describe
from goldrush_env.gold.variants import OBSERVATION_TYPES, PAIR_LAYOUT, pair_features
from goldrush_env.gold.engine import colour_owners
from goldrush_env.gold.view import UNKNOWN
from conftest import BACKGROUND, POSITIONS, layout

def new_env(cards: dict[int, str], players: int = 2, first_player: int = 0, **options) -> goldrush_env.gold.raw_env:
    env = goldrush_env.gold.raw_env(num_players=players, **{**POSITIONS, **options})
    env.reset(seed=0, options={"layout": layout(cards), "first_player": first_player})
    return env


def observation(env, seat: int) -> np.ndarray:
    return env.observe(f"player_{seat}")["observation"]


def plane(vector: np.ndarray, category: str) -> np.ndarray:
    """The 64-position card plane of ``category`` inside ``vector`` (a writable view)."""
    return vector[SLICES["cards"]].reshape(SHAPES["cards"])[CATEGORY_NAMES.index(category)]


def table_part(occupied: set[int], known: dict[int, str]) -> np.ndarray:
    """A zero vector with the empty and unknown planes of a table and the card planes of ``known``.

    ``occupied``: positions holding a card; ``known``: position -> category the
    observer sees there. Everything else (standing, unseen) is left at 0.
    """
    vector = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    for position in range(64):
        if position not in occupied:
            vector[SLICES["empty"]][position] = 1.0
        elif position not in known:
            vector[SLICES["unknown"]][position] = 1.0
    for position, category in known.items():
        plane(vector, category)[position] = 1.0
    return vector


def set_unseen(vector: np.ndarray, counts: dict[str, int]) -> None:
    for category, count in counts.items():
        vector[SLICES["unseen"]][CATEGORY_NAMES.index(category)] = count / 7


# --- exact vectors in known situations ---------------------------------------------------------------

# Seat 0 owns colours 0 and 1, seat 1 owns 2 and 3 (D1). M22 is seat 1's miner; M14 is seat 0's.
SMALL = {0: "M22", 1: "G4", 9: "M14", 10: "G2"}
ON_TABLE = set(SMALL) | set(BACKGROUND)
BACKGROUND_UNSEEN = {"gold_1": 2, "gold_2": 3, "gold_3": 3, "gold_4": 2, "dynamite": 2}


def test_known_vectors_after_a_turn_that_does_nothing():
    """Seat 0 flips M22 (seat 1's miner) and G4: nothing happens; both seats' vectors are exact."""
    env = new_env(SMALL, max_turns=50)
    env.step(0)
    env.step(1)

    me = table_part(ON_TABLE, {0: "miner_opponent_1_2", 1: "gold_4"})
    me[SLICES["seats"]] = [1, 1, 0, 0, 0]
    me[SLICES["to_play"]] = [0, 1, 0, 0, 0]  # seat 1 is relative seat 1 for seat 0
    me[SLICES["phase"]] = [1, 0, 0]
    me[SLICES["cards_left"]] = 16 / 64
    me[SLICES["turn"]] = 1 / 50
    # Face down and unknown to seat 0: M14 (its own miner), G2 at 10 and the background.
    set_unseen(me, {**BACKGROUND_UNSEEN, "gold_2": 4, "miner_me_4": 1})
    assert np.array_equal(observation(env, 0), me)

    other = table_part(ON_TABLE, {0: "miner_me_2", 1: "gold_4"})
    other[SLICES["seats"]] = [1, 1, 0, 0, 0]
    other[SLICES["to_play"]] = [1, 0, 0, 0, 0]  # seat 1 itself is to play
    other[SLICES["phase"]] = [1, 0, 0]
    other[SLICES["cards_left"]] = 16 / 64
    other[SLICES["turn"]] = 1 / 50
    set_unseen(other, {**BACKGROUND_UNSEEN, "gold_2": 4, "miner_opponent_1_4": 1})
    assert np.array_equal(observation(env, 1), other)


def test_known_vectors_between_the_two_flips_of_a_turn():
    """After the first flip only: the card is face up and known to all, and the phase is the second flip."""
    env = new_env(SMALL, max_turns=50)
    env.step(0)

    me = table_part(ON_TABLE, {0: "miner_opponent_1_2"})
    me[SLICES["face_up"]][0] = 1.0
    me[SLICES["seats"]] = [1, 1, 0, 0, 0]
    me[SLICES["to_play"]] = [1, 0, 0, 0, 0]
    me[SLICES["phase"]] = [0, 1, 0]
    me[SLICES["cards_left"]] = 16 / 64
    me[SLICES["turn"]] = 0.0
    set_unseen(me, {**BACKGROUND_UNSEEN, "gold_2": 4, "gold_4": 3, "miner_me_4": 1})
    assert np.array_equal(observation(env, 0), me)

    other = table_part(ON_TABLE, {0: "miner_me_2"})
    other[SLICES["face_up"]][0] = 1.0
    other[SLICES["seats"]] = [1, 1, 0, 0, 0]
    other[SLICES["to_play"]] = [0, 1, 0, 0, 0]  # seat 0 plays after seat 1
    other[SLICES["phase"]] = [0, 1, 0]
    other[SLICES["cards_left"]] = 16 / 64
    set_unseen(other, {**BACKGROUND_UNSEEN, "gold_2": 4, "gold_4": 3, "miner_opponent_1_4": 1})
    assert np.array_equal(observation(env, 1), other)


def test_known_vectors_after_a_strike():
    """Seat 1 flips M14 and G2: seat 0's miner strikes, both cards leave, seat 0 scores 2 with one gold card."""
    env = new_env(SMALL, max_turns=50)
    for position in (0, 1, 9, 10):
        env.step(position)
    assert env.game.scores == (2, 0)

    on_table = ON_TABLE - {9, 10}
    me = table_part(on_table, {0: "miner_opponent_1_2", 1: "gold_4"})
    me[SLICES["scores"]] = [2 / 60, 0, 0, 0, 0]
    me[SLICES["gold_cards"]] = [1 / 24, 0, 0, 0, 0]
    me[SLICES["seats"]] = [1, 1, 0, 0, 0]
    me[SLICES["to_play"]] = [1, 0, 0, 0, 0]
    me[SLICES["phase"]] = [1, 0, 0]
    me[SLICES["cards_left"]] = 14 / 64
    me[SLICES["turn"]] = 2 / 50
    set_unseen(me, BACKGROUND_UNSEEN)
    assert np.array_equal(observation(env, 0), me)

    other = table_part(on_table, {0: "miner_me_2", 1: "gold_4"})
    other[SLICES["scores"]] = [0, 2 / 60, 0, 0, 0]  # seat 0 is relative seat 1 for seat 1
    other[SLICES["gold_cards"]] = [0, 1 / 24, 0, 0, 0]
    other[SLICES["seats"]] = [1, 1, 0, 0, 0]
    other[SLICES["to_play"]] = [0, 1, 0, 0, 0]
    other[SLICES["phase"]] = [1, 0, 0]
    other[SLICES["cards_left"]] = 14 / 64
    other[SLICES["turn"]] = 2 / 50
    set_unseen(other, BACKGROUND_UNSEEN)
    assert np.array_equal(observation(env, 1), other)


def test_turn_slice_is_zero_without_a_turn_limit():
    """With max_turns=None the ``turn`` entry stays 0 however many turns are played."""
    env = new_env(SMALL, max_turns=None)
    env.step(0)
    env.step(1)
    assert env.game.turn == 1
    assert observation(env, 0)[SLICES["turn"]].tolist() == [0.0]


def test_gold_rush_phase():
    """In the Gold Rush the phase is the third one-hot entry."""
    cards = dict(zip(range(10), "G1 G2 G3 G4 M02 M13 M24 M35 M42 D".split()))
    env = goldrush_env.gold.raw_env(num_players=2, **POSITIONS)
    env.reset(seed=0, options={"layout": " ".join(cards.get(p, "-") for p in range(64))})
    assert env.game.gold_rush
    for seat in (0, 1):
        assert observation(env, seat)[SLICES["phase"]].tolist() == [0.0, 0.0, 1.0]


# --- relative seats and owners -------------------------------------------------------------------------


def test_three_players_scores_and_turn_are_relative_to_the_observer():
    """Seat 1 sees seat 2 as relative seat 1 and seat 0 as relative seat 2."""
    cards = {0: "M04", 1: "G1", 2: "M24", 3: "G3"}
    env = new_env(cards, players=3)
    for position in (0, 1, 2, 3):  # seat 0: M04 strikes G1 for seat 0; seat 1: M24 strikes G3 for seat 2
        env.step(position)
    assert (env.game.scores, env.game.gold_cards, env.game.current_player) == ((1, 0, 3), (1, 0, 1), 2)
    expected = {  # observer: (scores, gold cards, to_play) in relative order
        0: ([1, 0, 3, 0, 0], [1, 0, 1, 0, 0], [0, 0, 1, 0, 0]),
        1: ([0, 3, 1, 0, 0], [0, 1, 1, 0, 0], [0, 1, 0, 0, 0]),
        2: ([3, 1, 0, 0, 0], [1, 1, 0, 0, 0], [1, 0, 0, 0, 0]),
    }
    for seat, (scores, golds, to_play) in expected.items():
        vector = observation(env, seat)
        assert np.array_equal(vector[SLICES["scores"]], np.array(scores, dtype=np.float32) / 60)
        assert np.array_equal(vector[SLICES["gold_cards"]], np.array(golds, dtype=np.float32) / 24)
        assert vector[SLICES["to_play"]].tolist() == to_play
        assert vector[SLICES["seats"]].tolist() == [1, 1, 1, 0, 0]


def test_three_players_miner_categories_are_relative_to_the_observer():
    """Miners are named by their owner relative to the observer; colours 3 and 4 are unowned with 3 players."""
    cards = {0: "M05", 1: "M25", 2: "M33", 3: "M43", 4: "M13", 5: "G4"}
    env = new_env(cards, players=3)
    for position in (0, 1, 2, 3, 4, 5):  # three turns that do nothing: equal miners twice, a weak miner
        env.step(position)
    assert env.game.cards_left == 18
    expected = {
        0: {0: "miner_me_5", 1: "miner_opponent_2_5", 4: "miner_opponent_1_3"},
        1: {0: "miner_opponent_2_5", 1: "miner_opponent_1_5", 4: "miner_me_3"},
        2: {0: "miner_opponent_1_5", 1: "miner_me_5", 4: "miner_opponent_2_3"},
    }
    for seat, miners in expected.items():
        vector = observation(env, seat)
        known = {**miners, 2: "miner_unowned_3", 3: "miner_unowned_3", 5: "gold_4"}
        for position, category in known.items():
            column = vector[SLICES["cards"]].reshape(SHAPES["cards"])[:, position]
            assert np.flatnonzero(column).tolist() == [CATEGORY_NAMES.index(category)], (seat, position)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_category_table_names_owners_relative_to_each_seat(players):
    """category_table against the owner rule written out by name, for every seat and card."""
    owners = colour_owners(players)
    table = category_table(players, owners)
    for seat in range(players):
        for card in range(25):
            assert CATEGORY_NAMES[table[seat][card]] == category_name(seat, card, players)
    if players == 2:
        assert CATEGORY_NAMES[table[0][parse_card("M45")]] == "miner_unowned_5"
        assert CATEGORY_NAMES[table[1][parse_card("M02")]] == "miner_opponent_1_2"


def category_name(seat: int, card: int, players: int) -> str:
    """The category of ``card`` seen from ``seat``, by the rules of the docstring, independent of the encoder."""
    if IS_GOLD[card]:
        return f"gold_{VALUE[card]}"
    if card == DYNAMITE:
        return "dynamite"
    owner = colour_owners(players)[COLOUR[card]]
    if owner < 0:
        who = "unowned"
    elif owner == seat:
        who = "me"
    else:
        who = f"opponent_{(owner - seat) % players}"
    return f"miner_{who}_{VALUE[card]}"


# --- the documented layout ------------------------------------------------------------------------------

PAIRS = OBSERVATION_TYPES["pairs"]


def test_slices_are_contiguous_and_match_the_layout():
    """Slices follow LAYOUT in order, without gaps, from 0 to OBSERVATION_SIZE; shapes give their sizes."""
    assert [name for name, _, _ in LAYOUT] == list(SLICES) == list(SHAPES)
    offset = 0
    for name, shape, _ in LAYOUT:
        assert SLICES[name].start == offset, name
        assert SLICES[name].stop - SLICES[name].start == int(np.prod(shape)), name
        offset = SLICES[name].stop
    assert offset == OBSERVATION_SIZE == 2102
    assert SHAPES["cards"] == (len(CATEGORY_NAMES), 64) == (29, 64)
    assert PLANES == ("empty", "unknown", "face_up") + CATEGORY_NAMES
    assert len(set(CATEGORY_NAMES)) == 29


def test_observation_space_has_the_encoder_size():
    env = goldrush_env.gold.raw_env(num_players=3, **POSITIONS)
    space = env.observation_space("player_0")["observation"]
    assert space.shape == (OBSERVATION_SIZE,)
    assert space.dtype == np.float32
    assert env.observation_space("player_0")["action_mask"].shape == (64,)


def test_index_table_is_in_the_env_docstring():
    """The generated tables appear verbatim in the AEC module docstring."""
    assert OBSERVATION_TYPES["plain"].index_table() in goldrush_env.gold.aec.__doc__
    assert OBSERVATION_TYPES["pairs"].index_table() in goldrush_env.gold.aec.__doc__


def test_the_pair_planes_parsed_back_follow_the_plain_vector():
    rows = docstring_index_rows(goldrush_env.gold.aec.__doc__, table=1)
    assert [row[1] for row in rows] == [name for name, _, _ in PAIR_LAYOUT]
    assert rows[0][0][0] == OBSERVATION_SIZE and rows[-1][0][1] == PAIRS.size - 1
    for (first, last), name, shape, _ in rows:
        assert (first, last + 1) == (PAIRS.slices[name].start, PAIRS.slices[name].stop)


def test_docstring_table_parsed_back_matches_the_slices():
    """Read the docstring's index table row by row: ranges, names, shapes and meanings equal the encoder's."""
    rows = docstring_index_rows(goldrush_env.gold.aec.__doc__)
    assert [row[1] for row in rows] == list(SLICES)
    for (first, last), name, shape, meaning in rows:
        assert (first, last + 1) == (SLICES[name].start, SLICES[name].stop), name
        assert shape == SHAPES[name], name
        assert meaning == dict((n, m) for n, _, m in LAYOUT)[name]
    assert rows[-1][0][1] == OBSERVATION_SIZE - 1


def docstring_index_rows(doc: str, table: int = 0) -> list[tuple[tuple[int, int], str, tuple[int, ...], str]]:
    """The rows of the ``table``-th Markdown table whose header starts with ``| Index |``."""
    lines = doc.splitlines()
    header = [i for i, line in enumerate(lines) if line == "| Index | Name | Shape | Meaning |"][table]
    assert lines[header + 1] == "|---|---|---|---|"
    rows = []
    for line in lines[header + 2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        first, last = map(int, cells[0].split("-"))
        rows.append(((first, last), cells[1].strip("`"), tuple(int(s) for s in cells[2].split("x")), cells[3]))
    return rows


# --- random play: range and card counting -----------------------------------------------------------------


def category_counts_unseen(env, seat: int) -> list[int]:
    """Per category: face-down cards whose place ``seat`` does not have in view, from the table and its view."""
    players = env.game.num_players
    counts = [0] * len(CATEGORY_NAMES)
    view = env.view(seat)
    for position, card in enumerate(env.game.table):
        if card != EMPTY and view.cards[position] == UNKNOWN:
            counts[CATEGORY_NAMES.index(category_name(seat, card, players))] += 1
    return counts


def check_observation(env, seat: int) -> None:
    """The vector is in the space, its board agrees with the seat's view, and ``unseen`` counts exactly."""
    players = env.game.num_players
    agent = f"player_{seat}"
    observed = env.observe(agent)
    vector = observed["observation"]
    assert vector.dtype == np.float32 and vector.shape == (OBSERVATION_SIZE,)
    assert 0.0 <= vector.min() and vector.max() <= 1.0
    assert env.observation_space(agent).contains(observed)

    view = env.view(seat)
    board = vector[:SLICES["cards"].stop].reshape(len(PLANES), 64)
    for position, card in enumerate(view.cards):
        column = board[3:, position]
        assert board[0, position] == (card == EMPTY)
        assert board[1, position] == (card == UNKNOWN)
        assert board[2, position] == (position == env.game.face_up)
        if card >= 0:
            assert np.flatnonzero(column).tolist() == [CATEGORY_NAMES.index(category_name(seat, card, players))]
        else:
            assert not column.any()

    expected = category_counts_unseen(env, seat)
    assert np.rint(vector[SLICES["unseen"]] * 7).astype(int).tolist() == expected
    assert np.array_equal(vector[SLICES["unseen"]], np.array(expected, dtype=np.float32) / np.float32(7))


def play_random_game(env, seed: int, check) -> int:
    """Reset with ``seed`` and play legal flips drawn from a seeded generator, calling ``check`` after each."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    check()
    steps = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        check()
    return steps


MEMORIES = {
    "perfect": dict(memory="perfect"),
    "human": dict(memory="human"),  # the defaults: forget_prob 0.1, capacity 12
    "human-uncapped": dict(memory="human", forget_prob=0.3, memory_capacity=None),
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("memory", list(MEMORIES))
def test_random_games_stay_in_the_space_and_count_unseen_cards(players, memory):
    """Every seat's observation after every flip of three random games: range, board and unseen counts."""
    env = goldrush_env.gold.raw_env(num_players=players, **MEMORIES[memory], **POSITIONS)
    for game in range(3):
        steps = play_random_game(env, 1000 * players + game,
                                 lambda: [check_observation(env, seat) for seat in range(players)])
        assert steps > 0 and env.game.is_finished


def test_a_random_game_with_a_small_capacity_that_evicts_a_dying_card():
    """Regression: a seeded game (3 players, capacity 5) in which a full memory once evicted a card being removed."""
    env = goldrush_env.gold.raw_env(num_players=3, memory="human", forget_prob=0.2, memory_capacity=5, **POSITIONS)
    play_random_game(env, 3005, lambda: [check_observation(env, seat) for seat in range(3)])


def test_unseen_counts_survive_a_duel_that_removes_the_oldest_remembered_card():
    """Capacity 1: remember M03, then a new M25 beats it in a duel; the counts must not go negative."""
    env = new_env({0: "M25", 1: "G4", 2: "M03"}, memory="human", forget_prob=0.0, memory_capacity=1)
    for position in (1, 2):  # G4 and M03: nothing; each seat now remembers only M03 (seen last)
        env.step(position)
    assert all(env.view(seat).known_positions() == {2: parse_card("M03")} for seat in (0, 1))
    for position in (0, 2):  # M25 then M03: duel, M03 leaves
        env.step(position)
    assert env.game.table[2] == EMPTY and env.game.history[-1].outcome.value == "duel"
    for seat in (0, 1):
        check_observation(env, seat)


# --- describe ------------------------------------------------------------------------------------------------


def describe_after_a_strike_and_a_face_up_card() -> tuple[goldrush_env.gold.raw_env, list[str], list[str]]:
    """Seat 0 strikes with the unowned M45 (positions 2, 3 leave); seat 1 turns up its own M22 at 0."""
    env = new_env({0: "M22", 1: "G4", 2: "M45", 3: "G2"})
    for position in (2, 3, 0):
        env.step(position)
    return env, describe(observation(env, 0)).splitlines(), describe(observation(env, 1)).splitlines()


def grid_row(*cells: str) -> str:
    return "".join(cell.rjust(5) for cell in cells)


def test_describe_draws_the_grid_as_the_seat_knows_it():
    """``?`` unknown, ``.`` empty, ``*`` face up, short owner-relative names for known cards."""
    env, rows0, rows1 = describe_after_a_strike_and_a_face_up_card()
    assert len(rows0) == len(rows1) == 8 + 6
    assert rows0[0] == grid_row("*O12", "?", ".", ".", ".", ".", ".", ".")
    assert rows0[1:6] == [grid_row(*"." * 8)] * 5
    assert rows0[6] == grid_row(".", ".", ".", ".", "?", "?", "?", "?")
    assert rows0[7] == grid_row(*"?" * 8)
    assert rows1[0] == grid_row("*M2", "?", ".", ".", ".", ".", ".", ".")
    env.step(1)  # G4: nothing, both cards back face down and remembered
    assert describe(observation(env, 0)).splitlines()[0] == grid_row("O12", "G4", *"." * 6)
    assert describe(observation(env, 1)).splitlines()[0] == grid_row("M2", "G4", *"." * 6)


def test_describe_lists_the_standing_after_the_grid():
    """The standing lines follow the grid, in the observer's relative order, with their values."""
    _, _, rows1 = describe_after_a_strike_and_a_face_up_card()
    standing = {}
    for line in rows1[8:]:
        name, values = line.split(": ")
        standing[name] = [float(value) for value in values.strip("[]").split(", ")]
    assert list(standing) == ["scores", "gold_cards", "to_play", "phase", "cards_left", "turn"]
    assert standing["to_play"] == [1.0, 0.0, 0.0, 0.0, 0.0]
    assert standing["phase"] == [0.0, 1.0, 0.0]
    assert standing["scores"] == pytest.approx([0, 0.033, 0, 0, 0], abs=1e-6)
    assert standing["gold_cards"] == pytest.approx([0, 0.042, 0, 0, 0], abs=1e-6)
    assert standing["cards_left"] == pytest.approx([0.219], abs=1e-6)
    assert standing["turn"] == pytest.approx([0.005], abs=1e-6)


def test_describe_prints_the_standing_rounded_to_three_decimals():
    """The standing is printed with at most three decimals, as the rounding intends."""
    _, _, rows1 = describe_after_a_strike_and_a_face_up_card()
    assert rows1[8:] == ["scores: [0.0, 0.033, 0.0, 0.0, 0.0]", "gold_cards: [0.0, 0.042, 0.0, 0.0, 0.0]",
                         "to_play: [1.0, 0.0, 0.0, 0.0, 0.0]", "phase: [0.0, 1.0, 0.0]",
                         "cards_left: [0.219]", "turn: [0.005]"]


def test_describe_names_unowned_miners_and_dynamite():
    """With 3 players an unowned miner is ``U<value>``, seat 2's miner ``O2<value>`` for seat 0, dynamite ``D``."""
    env = new_env({0: "M43", 1: "M32", 2: "M24", 3: "G4"}, players=3)
    for position in (0, 1, 2, 3):  # duel: M43 (unowned) beats M32; then M24 and G4 strike for seat 2
        env.step(position)
    env.step(62)  # seat 2 turns up a background dynamite
    rows = describe(observation(env, 0)).splitlines()
    assert rows[0] == grid_row("U3", ".", ".", ".", ".", ".", ".", ".")
    assert rows[7] == grid_row("?", "?", "?", "?", "?", "?", "*D", "?")


# --- the "pairs" option -------------------------------------------------------------------------------------


def test_pair_planes_in_a_known_position():
    """Seat 1 watches seat 0 turn G3 and G4 (nothing happens), then seat 0's M04 face up: for seat 1, turning
    the G3 or G4 second would give seat 0 that gold, and the G3 and the G4 make nothing together."""
    env = goldrush_env.gold.raw_env(num_players=2, action="positions", observation="pairs")
    env.reset(options={"layout": layout({0: "M04", 1: "G3", 4: "G4", 9: "M25"})})
    env.step(1)
    env.step(4)
    env.step(0)
    observation = env.observe("player_1")["observation"]
    assert observation.shape == (PAIRS.size,)
    best, face_up = observation[PAIRS.slices["pair_best"]] * 4, observation[PAIRS.slices["pair_face_up"]] * 4
    assert best[0] == -3  # seat 0's miner of 4 with the G3 (-3) or the G4 (-4): the better for seat 1 is -3
    assert best[1] == 0 and best[4] == 0  # each gold with the other makes nothing, better than feeding seat 0
    assert face_up[1] == -3 and face_up[4] == -4 and face_up[0] == 0
    assert not best[9] and not face_up[9]  # the M25 was never seen
    mine = env.observe("player_0")["observation"]  # for seat 0 the same cards pay it
    assert mine[PAIRS.slices["pair_face_up"]][4] * 4 == 4 and mine[PAIRS.slices["pair_best"]][0] * 4 == 4


def test_pair_planes_are_read_off_the_plain_vector_only():
    """The same plain vector gives the same planes whatever the hidden table: nothing unseen leaks in."""
    env = goldrush_env.gold.raw_env(num_players=2, **POSITIONS)
    env.reset(seed=3)
    plain = env.observe("player_0")["observation"]
    features = pair_features(plain[None])
    assert features.shape == (1, 2 * 64) and not features.any()  # nothing known yet, nothing to pair
    rng = np.random.default_rng(3)
    seen = []
    for _ in range(30):
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))
        seen.append(env.observe("player_1")["observation"])
    plain = seen[-1]
    # A batch is its rows: rows with a face-up card (every other one) and rows without, in any order.
    batch = np.stack(seen[::-1])
    assert sum(row[SLICES["face_up"]].any() for row in batch) >= 10
    together = pair_features(batch)
    assert together.dtype == np.float32
    assert np.array_equal(together, np.concatenate([pair_features(row[None]) for row in batch]))
    with_pairs = goldrush_env.gold.raw_env(num_players=2, action="positions", observation="pairs")
    with_pairs.reset(seed=3)
    for position in [event.position for event in env.game.history]:
        with_pairs.step(position)
    full = with_pairs.observe("player_1")["observation"]
    assert np.array_equal(full[:OBSERVATION_SIZE], plain)
    assert np.array_equal(full[OBSERVATION_SIZE:], pair_features(plain[None])[0])


@pytest.mark.parametrize("num_players", [3, 5])  # with 3 players colours 3 and 4 are unowned; with 5 none is
def test_the_pair_planes_count_gold_as_the_engine_pays_it(num_players):
    """For every two categories of card, the pair plane at one card (the other its only partner) is the gold the
    observing seat gains (negative: another seat gains) when it turns the two: what the engine pays, read off a
    game in which seat 0 turns them."""
    from goldrush_env.gold.cards import BOX_COUNT, card_code
    from goldrush_env.gold.engine import Game

    category = category_table(num_players, colour_owners(num_players))[0]
    cards_of: dict[int, list[int]] = {}
    for card, kind in enumerate(category):
        cards_of.setdefault(kind, []).append(card)
    checked = 0
    for a, firsts in cards_of.items():
        for b, seconds in cards_of.items():
            first = firsts[0]
            second = next((card for card in seconds if card != first or BOX_COUNT[card] > 1), None)
            if second is None:
                continue  # one card of this category in the box: it cannot be turned with itself
            game = Game(num_players, layout({0: card_code(first), 1: card_code(second), **BACKGROUND}))
            game.step(0)
            event = game.step(1)
            paid = VALUE[first if IS_GOLD[first] else second] if event.receiver is not None else 0
            expected = paid if event.receiver in (0, None) else -paid
            plain = np.zeros((1, OBSERVATION_SIZE), dtype=np.float32)
            planes = plain[0, SLICES["cards"]].reshape(len(CATEGORY_NAMES), 64)
            planes[a, 0] = planes[b, 1] = 1
            assert pair_features(plain)[0, 0] * 4 == expected, (CATEGORY_NAMES[a], CATEGORY_NAMES[b])
            checked += 1
    assert checked >= len(cards_of) ** 2 - 5  # all but a category of one card with itself (miners of 5)
