"""The kernel at its edges, each case checked against a reference written here from the rules of the API rather
than against the kernel's own output: the generator in Python, the batched engine's random flips and what the seat
to play knows, the kinds vector, the compiled players in any state, the vector env's masks and observations for
every pairing of the options allowed, batches that span several of the kernel's chunks or hold one game, refused
actions, the step that deals a finished game afresh, who plays first, the rush's start (D3) against the rules
engine, and what human memory keeps at a turn's end.
"""

from __future__ import annotations

import numpy as np
import pytest
from goldrush_agents.gold.batched import PerGame, batched_policy, compiled_expert, compiled_greedy, worth_tables
from goldrush_agents.gold.expert import ExpertAgent
from goldrush_agents.gold.greedy import GreedyAgent

from goldrush_env import streams
from goldrush_env.errors import IllegalFlipError
from goldrush_env.gold import kernel
from goldrush_env.gold.batched import BatchedGames
from goldrush_env.gold.cards import DYNAMITE, EMPTY, IS_GOLD, IS_MINER, NUM_POSITIONS, VALUE
from goldrush_env.gold.encoder import OBSERVATION_SIZE
from goldrush_env.gold.engine import Game
from goldrush_env.gold.variants import ACTION_TYPES, OBSERVATION_TYPES
from goldrush_env.gold.vector import GoldVectorEnv
from goldrush_env.gold.view import UNKNOWN
from goldrush_env.streams import Stream, seed_streams

NEVER = ACTION_TYPES["kinds"].names.index("miner_opponent_3_5")  # no such seat at a table of two


def thinned(num_games: int, num_players: int, seed: int) -> BatchedGames:
    """Games dealt, then cards taken off, memories and the face-up card set at random: states of every phase, among
    them the rare ones whole games seldom reach (in every third game, each seat knows every card but one; in
    every third, two to four)."""
    rng = np.random.default_rng(seed)
    games = BatchedGames(num_games, num_players)
    games.reset(seed=seed)
    table, face_up, cards_left, memo = games.table, games.face_up, games.cards_left, games.memo
    for g in range(num_games):
        table[g, rng.random(NUM_POSITIONS) < rng.random()] = EMPTY
        present = np.flatnonzero(table[g] >= 0)
        cards_left[g] = len(present)
        face_up[g] = rng.choice(present) if len(present) > 1 and rng.random() < 0.5 else -1
        games.current_player[g] = rng.integers(num_players)
        for seat in range(num_players):
            known = present[rng.random(len(present)) < rng.random()]
            if g % 3 == 0 and len(present) > 1:
                known = np.delete(present, rng.integers(len(present)))
            elif g % 3 == 1:  # a few cards: two of one kind may be all the partners a card has
                known = rng.permutation(present)[:rng.integers(2, 5)]
            memo[g, seat, known] = 1 + rng.integers(100, size=len(known))
    return games


def test_the_stream_in_python_is_the_kernels():
    for seed in (0, 1, 2**63 + 12345, 2**64 - 1):
        state = np.array([seed], dtype=np.uint64)
        stream = Stream(seed)
        for n in (1, 2, 7, 64, 10**9):
            assert [streams.below(state, 0, n) for _ in range(50)] == [stream.integers(n) for _ in range(50)]
        drawn = [streams.uniform(state, 0) for _ in range(50)]
        assert drawn == list(stream.random(50)) and all(0.0 <= x < 1.0 for x in drawn)
        assert stream.state == int(state[0])
    assert len({Stream(seed).random() for seed in range(100)}) == 100


def test_seed_streams_are_a_seeds_own_and_spread():
    streams = seed_streams(7, 1000)
    assert streams.shape == (1000,) and streams.dtype == np.uint64
    assert np.array_equal(streams, seed_streams(7, 1000))
    assert not np.array_equal(streams, seed_streams(8, 1000))
    assert len(set(streams.tolist())) == 1000 and int(streams.max()) > 2**63  # the whole 64-bit range


@pytest.mark.parametrize("num_players", [2, 4])
def test_random_positions_number_the_legal_positions(num_players):
    games = thinned(400, num_players, seed=num_players)
    games.turn[:50] = games.limit  # 50 games stopped by the turn limit: no flip
    draws = np.random.default_rng(1).random(games.num_games)
    out = np.empty(games.num_games, dtype=np.int64)
    kernel.random_positions(games.state, games.constants, draws, out)
    for g in range(games.num_games):
        legal = [p for p in range(NUM_POSITIONS) if games.table[g, p] >= 0 and p != games.face_up[g]]
        if g < 50 or not legal:
            assert out[g] == -1
        else:
            assert out[g] == legal[int(draws[g] * len(legal))]


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_the_kernels_kinds_vectors_are_the_kinds_of_its_plain_vectors_in_any_state(num_players):
    """The kernel's kinds vector of each seat is what the kinds type reads off the kernel's plain vector."""
    games = thinned(300, num_players, seed=num_players)
    rows = np.arange(games.num_games)
    for seat in range(num_players):
        seats = np.full(games.num_games, seat, dtype=np.int64)
        plain = np.empty((games.num_games, OBSERVATION_SIZE), dtype=np.float32)
        kinds = np.empty((games.num_games, OBSERVATION_TYPES["kinds"].size), dtype=np.float32)
        for kind, out in ((kernel.OBS_PLAIN, plain), (kernel.OBS_KINDS, kinds)):
            kernel.observe(games.state, games.constants, seats, rows, kind, out)
        assert np.array_equal(kinds, OBSERVATION_TYPES["kinds"].from_plain(plain))


def test_the_seat_to_play_knows_what_it_sees_or_remembers():
    games = thinned(300, 3, seed=3)
    known = games.known()
    for g in range(games.num_games):
        seat = games.current_player[g]
        expected = [games.table[g, p] >= 0 and (p == games.face_up[g] or games.memo[g, seat, p] >= 0)
                    for p in range(NUM_POSITIONS)]
        assert known[g].tolist() == expected


def reference_masks(env: GoldVectorEnv) -> np.ndarray:
    """The learners' masks from the games as they stand: legal positions, or the kinds they hold as the seat
    knows them (read from the kernel's plain vectors, which test_vector.py compares with the AEC env's); a
    game waiting to be dealt afresh allows action 0 alone."""
    legal = env.games.legal_mask()
    if env.action_type.name == "kinds":
        plain = np.empty((env.num_envs, OBSERVATION_SIZE), dtype=np.float32)
        kernel.observe(env.games.state, env.games.constants, env.seats, np.arange(env.num_envs), kernel.OBS_PLAIN,
                       plain)
        legal = ACTION_TYPES["kinds"].masks(legal, lambda: plain)
    legal[env._pending] = False
    legal[env._pending, 0] = True
    return legal


def reference_observations(env: GoldVectorEnv) -> np.ndarray:
    plain = np.empty((env.num_envs, OBSERVATION_SIZE), dtype=np.float32)
    kernel.observe(env.games.state, env.games.constants, env.seats, np.arange(env.num_envs), kernel.OBS_PLAIN, plain)
    return OBSERVATION_TYPES[env.observation_type.name].from_plain(plain)


@pytest.mark.parametrize("observation, action, autoreset_mode", [
    ("plain", "kinds", "next_step"), ("pairs", "kinds", "same_step"), ("kinds", "kinds", "next_step"),
    ("kinds", "kinds", "same_step"), ("plain", "positions", "same_step"), ("pairs", "positions", "next_step"),
])  # the kinds observation with positions is refused (it says nothing about positions)
def test_masks_and_observations_for_every_pairing_of_the_options(observation, action, autoreset_mode):
    # 16 cards and a limit of 14 turns: games end, over or cut short, at different steps
    env = GoldVectorEnv(12, observation=observation, action=action, autoreset_mode=autoreset_mode, table="quarter",
                        max_turns=14, reward="score", opponents=batched_policy("greedy"))
    observations, info = env.reset(seed=11)
    rng, ended, dealt, both = np.random.default_rng(0), 0, 0, 0
    for _ in range(40):
        masks = reference_masks(env)
        assert np.array_equal(info["action_mask"], masks) and np.array_equal(env.action_masks(), masks)
        assert np.array_equal(observations, reference_observations(env))
        pending = env._pending.copy()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        observations, rewards, terminated, truncated, info = env.step(actions)
        # next-step autoreset: the step that deals a finished game afresh pays nothing and ends nothing
        assert not rewards[pending].any() and not (terminated | truncated)[pending].any()
        dealt += int(pending.sum())
        done = terminated | truncated
        ended += int(done.sum())
        if autoreset_mode == "same_step" and done.any():
            assert np.array_equal(info["final_obs"][~done], observations[~done])
            assert not np.array_equal(info["final_obs"][done], observations[done])
            both += int(not done.all())
    assert ended >= 12 and (dealt >= 12 if autoreset_mode == "next_step" else both >= 3)


def play_first_legal(env: GoldVectorEnv, steps: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Observations, rewards and masks of ``steps`` steps in which every learner takes its first legal action."""
    observations, info = env.reset(seed=5)
    shown = [(observations, np.zeros(env.num_envs, dtype=np.float32), info["action_mask"])]
    for _ in range(steps):
        observations, rewards, _, _, info = env.step(info["action_mask"].argmax(axis=1))
        shown.append((observations, rewards, info["action_mask"]))
        assert np.array_equal(info["action_mask"], reference_masks(env))
    return shown


@pytest.mark.parametrize("num_envs", [1, 129])
def test_a_game_plays_the_same_in_a_batch_of_any_size(num_envs):
    """Each game draws from its own stream, seeded from the env's seed in order, so the first games of a batch of
    129 (three of the kernel's chunks of 64, the last holding one game) and the game of a batch of one are those of
    a batch of 8 given the same actions."""
    options = dict(opponents=batched_policy("greedy"), autoreset_mode="same_step", reward="score")
    big = play_first_legal(GoldVectorEnv(num_envs, **options), 30)
    small = play_first_legal(GoldVectorEnv(8, **options), 30)
    rows = min(num_envs, 8)
    for (a, ra, ma), (b, rb, mb) in zip(big, small):
        assert np.array_equal(a[:rows], b[:rows]) and np.array_equal(ra[:rows], rb[:rows])
        assert np.array_equal(ma[:rows], mb[:rows])


@pytest.mark.parametrize("action, bad, words", [
    ("positions", NUM_POSITIONS, "position 64"), ("positions", -1, "position -1"),
    ("kinds", 30, "kind 30 is out of range"), ("kinds", -1, "kind -1 is out of range"),
    ("kinds", NEVER, "cannot be turned now: no legal position holds such a card"),
])
def test_an_illegal_action_is_refused_and_nothing_changes(action, bad, words):
    env = GoldVectorEnv(6, action=action, observation="plain" if action == "positions" else "kinds")
    _, info = env.reset(seed=2)
    actions = info["action_mask"].argmax(axis=1)
    actions[4] = bad
    before = [array.copy() for array in env.games.state]
    with pytest.raises(IllegalFlipError, match=rf"(game|sub-environment) 4: .*{words}"):
        env.step(actions)
    assert all(np.array_equal(a, b) for a, b in zip(before, env.games.state))


def test_a_position_whose_card_has_left_is_refused():
    env = GoldVectorEnv(64, action="positions", observation="plain")
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(30):
        gone = (env.games.initial >= 0) & (env.games.table == EMPTY) & ~env._pending[:, None]
        rows = np.flatnonzero(gone.any(axis=1))
        if len(rows):
            break
        info = env.step(np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]]))[-1]
    row = rows[0]
    actions = info["action_mask"].argmax(axis=1)
    actions[row] = np.flatnonzero(gone[row])[0]
    with pytest.raises(IllegalFlipError, match=rf"game {row}: position {actions[row]} is empty"):
        env.step(actions)



def test_a_reset_keeps_who_plays_first():
    games = BatchedGames(6, 3)
    games.reset(seed=0, first_player=[0, 1, 2, 2, 1, 0])
    layouts = games.table.copy()
    for _ in range(5):  # some turns go by: the first player stays what it was
        games.step(games.random_positions(np.random.default_rng(0)))
    assert games.first_player.tolist() == [0, 1, 2, 2, 1, 0]
    games.reset(layouts=layouts[:3], first_player=[2, 0, 1], games=[3, 4, 5])  # laid out, not dealt
    assert games.first_player.tolist() == [0, 1, 2, 2, 0, 1] and games.current_player[3:].tolist() == [2, 0, 1]


PLAYERS = {"greedy": (GreedyAgent, compiled_greedy), "expert": (ExpertAgent, compiled_expert)}
"""Each scripted player that runs in the kernel: its Python class and its compiled form."""


def same_choices(name: str, games: BatchedGames) -> tuple[np.ndarray, list]:
    """Require that player ``name`` compiled flips, in every unfinished game, what its Python self flips from the
    same view and the same stream, leaving the stream where it leaves it; returns the flips and the views."""
    player, compiled = PLAYERS[name][0](), PLAYERS[name][1]()
    playing = np.flatnonzero(~games.is_finished)
    streams = games.rng.copy()
    chosen = compiled.act(games, games.known(), ~games.is_finished, None)
    views = PerGame(player).views(games, games.known(), playing)
    for g, view in zip(playing, views):
        player.rng = Stream(streams[g])
        assert chosen[g] == player.act(view), g
        assert player.rng.state == int(games.rng[g]), g
    return chosen, views


@pytest.mark.parametrize("name", ["greedy", "expert"])
@pytest.mark.parametrize("num_players", [2, 3])
def test_the_compiled_players_choose_as_the_python_ones_with_one_card_unknown(name, num_players):
    """Every seat remembers every card but one of its own choosing, until it is turned: the players weigh a single
    unknown card, then none, states that random games reach only at their very end."""
    # The Python expert's choices cost most: five games reach some 390 states with one card unknown or none.
    count = {"greedy": 10, "expert": 5}[name]
    games = BatchedGames(count, num_players)
    games.reset(seed=20 + num_players)
    games.memo[:] = np.where(games.table[:, None] >= 0, 1, -1)
    rng = np.random.default_rng(num_players)
    for g in range(count):
        for seat in range(num_players):
            games.memo[g, seat, rng.choice(np.flatnonzero(games.table[g] >= 0))] = -1
    unknown = {0: 0, 1: 0}
    while not games.is_finished.all():
        chosen, views = same_choices(name, games)
        for view in views:
            hidden = sum(card == UNKNOWN for card in view.cards)
            if hidden in unknown:
                unknown[hidden] += 1
        games.step(np.where(rng.random(count) < 0.5, chosen, games.random_positions(rng)))
    assert min(unknown.values()) > 20, unknown


@pytest.mark.parametrize("name", ["greedy", "expert"])
@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_the_compiled_players_choose_as_the_python_ones_in_any_state(name, num_players):
    """One choice in each of many thinned states, a third of them with two to six cards left, every one known to
    every seat: there greedy often finds no good pair and must pick among known cards."""
    games = thinned(300, num_players, seed=40 + num_players)
    rng = np.random.default_rng(num_players)
    for g in range(0, games.num_games, 3):
        present = np.flatnonzero(games.table[g] >= 0)
        if len(present) > 2:
            games.table[g, rng.permutation(present)[rng.integers(2, min(7, len(present))):]] = EMPTY
        present = np.flatnonzero(games.table[g] >= 0)
        games.cards_left[g] = len(present)
        games.memo[g] = np.where(games.table[g] >= 0, 1, -1)
        if games.face_up[g] >= 0 and games.table[g, games.face_up[g]] < 0:
            games.face_up[g] = -1
    same_choices(name, games)


def test_no_card_gains_anything_turned_with_itself():
    """Why greedy's search over pairs of known cards may include a card with itself (mutation testing's
    ``range(k)`` for ``range(i + 1, k)``) and choose the same: no card's worth with itself is above 0, at any
    threat, for any seat, and a pair must be worth more than 0 to be chosen."""
    for num_players in (2, 3, 4, 5):
        worth = worth_tables(num_players)
        assert (np.diagonal(worth, axis1=2, axis2=3) <= 0).all()


def test_both_autoreset_modes_deal_the_same_games_under_human_memory():
    """Under human memory every turn draws from the game's stream (what is forgotten); a game that waits a step to
    be dealt afresh (next-step autoreset) draws nothing while it waits, so its later deals are those the
    same-step autoreset deals at once."""
    deals = {}
    for mode in ("next_step", "same_step"):
        env = GoldVectorEnv(8, num_players=3, memory="human", table="quarter", autoreset_mode=mode,
                            opponents=batched_policy("greedy"))
        _, info = env.reset(seed=6)
        layouts = [[env.games.initial[g].copy()] for g in range(8)]
        for _ in range(60):
            info = env.step(info["action_mask"].argmax(axis=1))[-1]
            for g in range(8):
                if not np.array_equal(layouts[g][-1], env.games.initial[g]):
                    layouts[g].append(env.games.initial[g].copy())
        deals[mode] = layouts
    for before, after in zip(deals["next_step"], deals["same_step"]):
        common = min(len(before), len(after))
        assert common >= 3
        assert all(np.array_equal(a, b) for a, b in zip(before[:common], after[:common]))


def near_stalemate(box: np.ndarray, rng: np.random.Generator) -> list[int]:
    """A layout of part of ``box`` with few kinds of card left: dynamite in a third of them, miners of at most two
    values, gold of some values, so that D3 (no pair could ever remove a card) holds in many."""
    miners = set(rng.choice([2, 3, 4, 5], size=rng.integers(0, 3), replace=False).tolist())
    golds = set(rng.choice([1, 2, 3, 4], size=rng.integers(0, 4), replace=False).tolist())
    dynamite = rng.random() < 1 / 3
    cards = [int(card) for card in box if (card == DYNAMITE and dynamite) or (IS_MINER[card] and VALUE[card] in miners)
             or (IS_GOLD[card] and VALUE[card] in golds)]
    cards = rng.permutation(cards)[:rng.integers(2, max(3, len(cards) + 1))].tolist()
    layout = [EMPTY] * NUM_POSITIONS
    for position, card in zip(rng.choice(NUM_POSITIONS, size=len(cards), replace=False), cards):
        layout[position] = card
    return layout


@pytest.mark.parametrize("table", ["full", "half", "quarter"])
def test_the_rush_begins_where_the_rules_engine_begins_it(table):
    """D3 and the rush threshold on tables laid near a stalemate, at the deal and after every flip of random
    games, against the rules engine: each table's threshold (10, or fewer cards on a smaller table) lets states
    through that a full table's never reaches, such as many cards of a single miner value and no gold."""
    rng = np.random.default_rng(len(table))
    count = 60
    games = BatchedGames(count, 3, table=table)
    layouts = [near_stalemate(games.box, rng) for _ in range(count)]
    games.reset(layouts=layouts)
    reference = [Game(3, layout, rush_at=games.rush_at) for layout in layouts]
    rushes = 0
    while not games.is_finished.all():
        assert games.gold_rush.tolist() == [game.gold_rush for game in reference]
        rushes += int(games.gold_rush.sum())
        positions = games.random_positions(rng)
        games.step(positions)
        for game, position in zip(reference, positions):
            if position >= 0:  # -1: the game has ended
                game.step(int(position))
    assert games.gold_rush.tolist() == [game.gold_rush for game in reference] and rushes > 0
    started = [Game(3, layout, rush_at=games.rush_at).gold_rush for layout in layouts]
    assert 10 < sum(started) < count - 10  # both outcomes at the deal, often


def test_a_turns_cards_are_never_forgotten_at_its_end():
    """Human memory with a forgetting chance of 1: at the end of every turn each seat remembers exactly the cards
    of that turn that went back face down, and nothing it saw before."""
    count = 16
    games = BatchedGames(count, 3, table="half", memory="human", forget_prob=1.0, memory_capacity=None)
    games.reset(seed=3)
    rng, turns = np.random.default_rng(0), 0
    while not games.is_finished.all():
        live = ~games.is_finished
        first, turn = games.face_up.copy(), games.turn.copy()
        positions = games.random_positions(rng)
        games.step(positions, where=live)
        for g in np.flatnonzero(live & (games.turn > turn)):
            kept = {int(p) for p in (first[g], positions[g]) if p >= 0 and games.table[g, p] >= 0}
            for seat in range(3):
                assert set(np.flatnonzero(games.memo[g, seat] >= 0).tolist()) == kept, (g, seat)
            turns += int(len(kept) > 0)
    assert turns > 100
