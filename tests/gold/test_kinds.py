"""``action="kinds"`` and ``observation="kinds"``: actions that name a kind of card, and the vector about kinds.

The kinds are checked against what a seat's view says (its cards by position), not against the kinds action's
own reading of the observation vector; a kinds player is shown to lose nothing against the same player choosing
positions; the no-leak tests of tests/gold/test_noninterference.py cover the options too.
"""

from __future__ import annotations

from statistics import NormalDist

import gymnasium as gym
import numpy as np
import pytest
from conftest import layout_of
from goldrush_agents.gold.batched import batched_policy

import goldrush_env
import goldrush_env.gold
from goldrush_env.errors import GoldrushEnvError, IllegalFlipError
from goldrush_env.gold import kernel
from goldrush_env.gold.batched import BatchedGames
from goldrush_env.gold.cards import EMPTY, category_table
from goldrush_env.gold.encoder import OBSERVATION_SIZE, SLICES
from goldrush_env.gold.variants import ACTION_TYPES, OBSERVATION_TYPES, UNKNOWN_ACTION, observation_type
from goldrush_env.gold.vector import GoldVectorEnv
from goldrush_env.gold.view import UNKNOWN

KINDS = ACTION_TYPES["kinds"]
KINDS_VECTOR = OBSERVATION_TYPES["kinds"]


def kind_by_view(view, position: int) -> int:
    """The kind turning ``position`` is, read off the view's cards and the colour owners."""
    card = view.cards[position]
    if card == UNKNOWN:
        return UNKNOWN_ACTION
    return category_table(view.num_players, view.owners)[view.seat][card]


def expected_mask(view) -> np.ndarray:
    mask = np.zeros(KINDS.size, dtype=bool)
    for position in np.flatnonzero(view.action_mask):
        mask[kind_by_view(view, position)] = True
    return mask


@pytest.mark.parametrize("options", [
    {"num_players": 2},
    {"num_players": 3, "memory": "human", "observation": "kinds"},
    {"num_players": 5, "table": "half", "observation": "pairs"},
], ids=["2p", "3p-human-kinds", "5p-half-pairs"])
def test_a_kind_is_legal_exactly_when_a_legal_position_holds_it_and_the_flip_is_one(options):
    env = goldrush_env.gold.raw_env(action="kinds", **options)
    rng = np.random.default_rng(1)
    flips = 0
    for seed in range(3):
        env.reset(seed=seed)
        while not env.game.is_finished:
            agent = env.agent_selection
            view = env.view(agent)
            mask = env.action_mask(agent).astype(bool)
            assert np.array_equal(mask, expected_mask(view)) and mask.any()
            assert np.array_equal(env.observe(agent)["action_mask"].astype(bool), mask)
            assert all(not env.action_mask(other).any() for other in env.agents if other != agent)
            kind = int(rng.choice(np.flatnonzero(mask)))
            env.step(kind)
            position = env.game.history[-1].position
            assert env.infos[agent]["position"] == position
            assert view.action_mask[position] and kind_by_view(view, position) == kind
            flips += 1
    assert flips > 150


def test_the_env_draws_among_the_positions_of_a_kind():
    """Turning "a card I do not know" at the first flip of a game may land on any card: the draw is spread."""
    landed = set()
    for seed in range(100):
        env = goldrush_env.gold.raw_env(action="kinds")
        env.reset(seed=0)  # the same deal every time; only the game's own draw differs with the stream below
        env.one.record["rng"][0] = seed
        env.step(UNKNOWN_ACTION)
        landed.add(env.game.history[-1].position)
    assert len(landed) >= 40  # 100 uniform draws over 64 cards reach 50 on average


def test_the_same_seed_gives_the_same_game():
    def play(seed):
        env = goldrush_env.gold.raw_env(action="kinds", num_players=3)
        env.reset(seed=seed)
        while not env.game.is_finished:
            mask = env.action_mask(env.agent_selection)
            env.step(int(np.flatnonzero(mask)[-1]))  # the last legal kind: "unknown" whenever it is legal
        return [event.position for event in env.game.history]

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_an_impossible_kind_is_refused_by_name_and_nothing_changes():
    env = goldrush_env.gold.raw_env(action="kinds")
    env.reset(seed=0)
    with pytest.raises(IllegalFlipError, match=r"kind 0 \(gold_1\) cannot be turned now"):
        env.step(0)  # nothing is known yet
    assert env.game.history == ()
    wrapped = goldrush_env.gold.env(action="kinds")
    wrapped.reset(seed=0)
    wrapped.step(0)  # PettingZoo's rule for classic games: an illegal move ends the game with -1
    assert wrapped.rewards["player_0"] == -1


@pytest.mark.parametrize("bad, message", [
    ({"action": "cards"}, r"action='cards' is not allowed: expected one of \('positions', 'kinds'\)"),
    ({"observation": "kinds", "action": "positions"}, r"observation='kinds' is not allowed: expected 'plain' or "
                                                      r"'pairs' with action='positions'"),
])
def test_bad_options_are_refused(bad, message):
    with pytest.raises(GoldrushEnvError, match=message):
        goldrush_env.gold.raw_env(**bad)


def test_the_spaces_follow_the_options():
    env = goldrush_env.gold.raw_env(action="kinds", observation="kinds")
    space = env.observation_space("player_0")
    assert env.action_space("player_0").n == KINDS.size == len(KINDS.names) == 30
    assert space["observation"].shape == (KINDS_VECTOR.size,) and space["action_mask"].shape == (30,)
    env.reset(seed=2)
    assert space.contains(env.observe("player_0"))
    view = env.view("player_0")
    assert view.observation.shape == (2102,) and view.action_mask.shape == (64,)  # a view is about positions


def seat_1_sees(first: str, second: str, background: list[str]):
    """Two players: seat 0 owns colours 0 and 1, seat 1 colours 2 and 3. Seat 0 turns ``first`` and ``second``
    (two golds: nothing), then seat 1 turns M04, seat 0's 4, face up. Seat 1's kinds vector, its env and the
    kinds by name."""
    env = goldrush_env.gold.raw_env(action="kinds", observation="kinds")
    layout = {0: "M04", 1: first, 2: second, 3: "M22", **dict(zip(range(52, 64), background))}
    env.reset(seed=0, options={"layout": layout_of(layout)})
    for position in (1, 2, 0):
        env.step_from_view(position)
    return env.observe("player_1")["observation"], env, dict(zip(KINDS.names, range(KINDS.size)))


def test_the_kinds_vector_reads_what_the_seat_knows():
    # Seat 0 turns G3 and G2: seat 1 knows them face down, M04 face up, and 13 cards it cannot place.
    vector, env, names = seat_1_sees("G3", "G2", ["G1", "G1", "G2", "G2", "G3", "G3", "G4", "G4", "D", "D", "M32",
                                                  "M42"])
    known = vector[KINDS_VECTOR.slices["known"]]
    assert known[names["gold_3"]] == known[names["gold_2"]] == pytest.approx(1 / 7)
    assert known[names["miner_opponent_1_4"]] == 0  # face up: not a card to turn
    assert known[UNKNOWN_ACTION] == pytest.approx(13 / 64)
    face_up = vector[KINDS_VECTOR.slices["face_up"]]
    assert face_up.argmax() == names["miner_opponent_1_4"] and face_up.sum() == 1
    best = vector[KINDS_VECTOR.slices["pair_best"]]
    assert best[names["gold_3"]] == best[names["gold_2"]] == 0  # with each other: nothing; with seat 0's 4: a loss
    assert best[names["miner_opponent_1_4"]] == pytest.approx(-2 / 4)  # every partner pays seat 0; the G2 least
    second = vector[KINDS_VECTOR.slices["pair_face_up"]]
    assert second[names["gold_2"]] == pytest.approx(-2 / 4) and second[names["gold_3"]] == pytest.approx(-3 / 4)
    # An unknown second card: the mean over the 13 seat 1 cannot place (G1 G1 G2 G2 G3 G3 G4 G4 D D M22 M32 M42).
    assert second[UNKNOWN_ACTION] == pytest.approx(-(1 + 1 + 2 + 2 + 3 + 3 + 4 + 4) / 13 / 4)
    plain = env.one.vector(1, observation_type("plain"))
    assert np.array_equal(vector[KINDS_VECTOR.slices["unseen"]], plain[SLICES["unseen"]])


def test_two_cards_of_one_kind_pair_with_each_other():
    # Seat 0 turns two G2s: seat 1 knows two of a kind, which turned together gain nothing, where turned with the
    # face-up M04 each pays seat 0.
    vector, _, names = seat_1_sees("G2", "G2", ["G1", "G1", "G3", "G3", "G3", "G4", "G4", "G4", "D", "D", "M32", "M42"])
    assert vector[KINDS_VECTOR.slices["known"]][names["gold_2"]] == pytest.approx(2 / 7)
    assert vector[KINDS_VECTOR.slices["pair_best"]][names["gold_2"]] == 0
    assert vector[KINDS_VECTOR.slices["pair_face_up"]][names["gold_2"]] == pytest.approx(-2 / 4)


def test_the_index_table_is_in_the_env_docstring():
    from goldrush_env.gold import aec

    assert KINDS_VECTOR.index_table() in aec.__doc__
    assert KINDS_VECTOR.from_plain(np.zeros((2, 2102))).shape == (2, KINDS_VECTOR.size)


def share_as_kinds(name: str, games: int, chunk: int = 200) -> tuple[float, float]:
    """``name`` choosing kinds at one seat against ``name`` choosing positions, seats and start rotated; its
    win share (a shared win counts half) and the half-width of its 95% interval.

    Each game is played in an AEC env taking kinds, and beside it in a batch of kernel games: the compiled form of
    ``name`` (which flips what the Python player flips, tests/gold/test_batched_agents.py) chooses a position for
    every game at once; at the kinds seat it is told to the env as the kind of card the seat's view shows there,
    the env draws the position among those of that kind, and the batch makes the flip the env made."""
    player = batched_policy(name)
    envs = [goldrush_env.gold.raw_env(action="kinds") for _ in range(min(chunk, games))]
    wins = 0.0
    for start in range(0, games, chunk):
        count = min(chunk, games - start)
        batch = BatchedGames(count, 2)
        batch.reset(seed=start, first_player=((start + np.arange(count)) // 2) % 2)
        kinds_seat = (start + np.arange(count)) % 2
        for g, env in enumerate(envs[:count]):
            env.reset(seed=start + g, options={"layout": batch.table[g].tolist(),
                                               "first_player": int(batch.current_player[g])})
        while not batch.is_finished.all():
            chosen = player.act(batch, batch.known(), ~batch.is_finished, None)
            for g in np.flatnonzero(~batch.is_finished):
                env, seat = envs[g], int(batch.current_player[g])
                if seat == kinds_seat[g]:
                    env.step(kind_by_view(env.view(seat), int(chosen[g])))
                    chosen[g] = env.game.history[-1].position
                else:
                    env.step_from_view(int(chosen[g]))
            batch.step(chosen)
        for g, env in enumerate(envs[:count]):
            winners = env.game.winners
            assert np.flatnonzero(batch.leaders()[g]).tolist() == list(winners)  # the twins played one game
            wins += (kinds_seat[g] in winners) / len(winners)
    share = wins / games
    return share, NormalDist().inv_cdf(0.975) * (0.25 / games) ** 0.5


@pytest.mark.parametrize("name, games", [("greedy", 600), ("expert", 200)])
def test_a_kinds_player_is_as_strong_as_the_same_player_choosing_positions(name, games):
    """With perfect memory, cards of one kind are interchangeable: telling only the kind loses nothing."""
    share, half_width = share_as_kinds(name, games)
    assert abs(share - 0.5) < half_width, (share, half_width)


def test_the_gymnasium_env_learns_over_kinds():
    from gymnasium.utils.env_checker import check_env

    env = gym.make("goldrush_env:Gold-v1", action="kinds", observation="kinds")
    check_env(env.unwrapped, skip_render_check=True)
    observation, info = env.reset(seed=0)
    assert observation.shape == (KINDS_VECTOR.size,) and info["action_mask"].shape == (30,)
    done = False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        observation, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        if not done:
            assert env.unwrapped.game_env.game.history[-1].position in range(64)
    assert np.array_equal(info["action_mask"], np.arange(30) == 0)  # the end: action 0 alone, never empty


def test_the_vector_env_takes_kinds_and_names_a_refused_one():
    env = GoldVectorEnv(8, action="kinds", observation="kinds")
    observations, info = env.reset(seed=3)
    assert observations.shape == (8, KINDS_VECTOR.size) and env.single_action_space.n == 30
    categories = np.array(category_table(2, env.games.owners.tolist()))
    rng = np.random.default_rng(0)
    flips = 0
    for _ in range(60):
        masks = info["action_mask"]
        assert masks.shape == (8, 30) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        tables, known, seats = env.games.table.copy(), env.known.copy(), env.seats.copy()
        info = env.step(actions)[-1]
        for g in np.flatnonzero(info["position"] >= 0):
            position = info["position"][g]
            kind = categories[seats[g], tables[g, position]] if known[g, position] else UNKNOWN_ACTION
            assert tables[g, position] != EMPTY and kind == actions[g]
            flips += 1
    assert flips > 300
    masks = env.action_masks()
    rows = np.flatnonzero(~masks[:, 0])  # no gold 1 to turn there: refused, naming the sub-environment
    assert len(rows)
    with pytest.raises(IllegalFlipError, match=rf"sub-environment {rows[0]}: kind 0 \(gold_1\) cannot be turned"):
        env.step(np.zeros(8, dtype=np.int64))


@pytest.mark.parametrize("autoreset_mode", ["next_step", "same_step"])
def test_the_vector_envs_kinds_masks_are_those_of_the_games_now(autoreset_mode):
    """The kernel writes the kinds vectors and masks itself: they are what the kinds type reads off the
    learners' plain vectors (which test_vector.py compares with the AEC env's)."""
    env = GoldVectorEnv(8, action="kinds", observation="kinds", autoreset_mode=autoreset_mode,
                            opponents=batched_policy("greedy"))
    observations, info = env.reset(seed=5)
    rng, ended = np.random.default_rng(1), 0
    for _ in range(150):
        plain = np.empty((8, OBSERVATION_SIZE), dtype=np.float32)  # the kernel's plain vectors (test_vector.py
        kernel.observe(env.games.state, env.games.constants, env.seats, np.arange(8), kernel.OBS_PLAIN, plain)
        fresh = KINDS.masks(env.games.legal_mask(), lambda: plain)
        fresh[env._pending, 0] = True
        assert np.array_equal(info["action_mask"], fresh) and np.array_equal(env.action_masks(), fresh)
        assert np.array_equal(observations, KINDS_VECTOR.from_plain(plain))
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in fresh])
        observations, _, terminated, truncated, info = env.step(actions)
        ended += int((terminated | truncated).sum())
    assert ended >= 8  # games ended and were dealt afresh along the way
