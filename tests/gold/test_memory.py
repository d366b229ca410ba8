"""Memory models: perfect recall, the human forgetting model, and how the observations follow them.

Unit tests drive :class:`HumanMemory` directly; the rest play the AEC
environment (custom tables with the :data:`BACKGROUND` of ``test_rules.py``,
or seeded random games) and compare each seat's memory with what its
observation shows.
"""

from __future__ import annotations

import numpy as np
import pytest

import goldrush_env
import goldrush_env.gold
from goldrush_env.gold.cards import CATEGORY_NAMES, COLOUR, DYNAMITE, EMPTY, IS_GOLD, VALUE, parse_card
from goldrush_env.gold.encoder import PLANES, SHAPES, SLICES
from goldrush_env.gold.engine import Game, colour_owners
from goldrush_env.gold.memory import HumanMemory, PerfectMemory
from goldrush_env.gold.view import UNKNOWN
from conftest import POSITIONS, feed, flippable, layout

def observation(env, seat: int) -> np.ndarray:
    return env.observe(f"player_{seat}")["observation"]


def board(vector: np.ndarray) -> np.ndarray:
    """The board planes of a vector: (32, 64), in the order of PLANES."""
    return vector[:SLICES["cards"].stop].reshape(len(PLANES), 64)


def category(seat: int, card: int, players: int) -> int:
    """The index in CATEGORY_NAMES of ``card`` seen from ``seat``, written out from the documented rule."""
    if IS_GOLD[card]:
        name = f"gold_{VALUE[card]}"
    elif card == DYNAMITE:
        name = "dynamite"
    else:
        owner = colour_owners(players)[COLOUR[card]]
        who = "unowned" if owner < 0 else "me" if owner == seat else f"opponent_{(owner - seat) % players}"
        name = f"miner_{who}_{VALUE[card]}"
    return CATEGORY_NAMES.index(name)


def in_view(env, seat: int) -> set[int]:
    return set(np.flatnonzero(env.one.known(seat)).tolist())


def remembered(env, seat: int) -> dict[int, int]:
    """What ``seat`` remembers face down in ``env``'s compiled game: position -> card (the face-up card aside)."""
    record = env.one.record
    return {p: int(record["table"][p]) for p in np.flatnonzero(record["memo"][seat] >= 0).tolist()
            if p != record["face_up"]}


def play_random(env, seed: int, check=lambda: None, action_seed: int | None = None) -> list[int]:
    """Reset with ``seed``, flip legal positions drawn from a seeded generator to the end; returns the flips."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed if action_seed is None else action_seed)
    check()
    flips = []
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        position = int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
        env.step(position)
        flips.append(position)
        check()
    return flips


# --- perfect recall ---------------------------------------------------------------------------------------


def check_recall(env, remembered: dict[int, str], removed: set[int]) -> None:
    """Every seat sees each remembered card at its place with its identity, and nothing where cards left."""
    players = env.game.num_players
    for seat in range(players):
        planes = board(observation(env, seat))
        for position, code in remembered.items():
            assert planes[1, position] == 0, (seat, position)  # not unknown
            expected = np.zeros(SHAPES["cards"][0])
            expected[category(seat, parse_card(code), players)] = 1
            assert np.array_equal(planes[3:, position], expected), (seat, position)
        for position in removed:
            assert planes[0, position] == 1 and not planes[1:, position].any(), (seat, position)


def test_perfect_recall_keeps_flipped_cards_until_they_leave():
    """A card flipped back face down appears in every perfect-recall observation at its position with its
    identity, and disappears when removed (4 players, each seat checked, miners by relative owner)."""
    env = goldrush_env.gold.raw_env(num_players=4, memory="perfect", **POSITIONS)
    env.reset(seed=0, options={"layout": layout({0: "G2", 1: "G3", 2: "M15", 3: "M22", 4: "D"})})
    env.step(0)
    env.step(1)  # seat 0: two golds, nothing
    check_recall(env, {0: "G2", 1: "G3"}, set())
    env.step(2)
    env.step(3)  # seat 1: M15 beats M22, which leaves
    check_recall(env, {0: "G2", 1: "G3", 2: "M15"}, {3})
    # M15 is seat 1's miner: each seat names it by seat 1's place relative to itself.
    for seat, name in enumerate(["miner_opponent_1_5", "miner_me_5", "miner_opponent_3_5", "miner_opponent_2_5"]):
        assert board(observation(env, seat))[3 + CATEGORY_NAMES.index(name), 2] == 1
    env.step(0)
    env.step(4)  # seat 2: the remembered G2 with dynamite, both leave
    check_recall(env, {1: "G3", 2: "M15"}, {0, 3, 4})
    env.step(52)
    env.step(53)  # seat 3: two golds, nothing; the old memories stay
    check_recall(env, {1: "G3", 2: "M15", 52: "G1", 53: "G1"}, {0, 3, 4})
    assert all(remembered(env, seat) == {1: parse_card("G3"), 2: parse_card("M15"), 52: 0, 53: 0}
               for seat in range(4))


@pytest.mark.parametrize("players", [3, 4])
def test_perfect_recall_in_random_play(players):
    """After every flip of a random game, each seat knows exactly the cards ever revealed that are still on the
    table (and the face-up one), each with its identity; removed positions are empty with no card plane."""
    env = goldrush_env.gold.raw_env(num_players=players, memory="perfect", **POSITIONS)

    def check():
        table = env.game.table
        revealed = {event.position for event in env.game.history}
        known = {p: table[p] for p in revealed if table[p] != EMPTY}
        removed = {p for p in revealed if table[p] == EMPTY}
        for seat in range(players):
            face_down = {p: c for p, c in known.items() if p != env.game.face_up}
            assert remembered(env, seat) == face_down
            assert in_view(env, seat) == set(known)
            planes = board(observation(env, seat))
            for position, card in known.items():
                assert planes[1, position] == 0
                assert np.flatnonzero(planes[3:, position]).tolist() == [category(seat, card, players)]
            for position in removed:
                assert planes[0, position] == 1 and not planes[1:, position].any()

    assert len(play_random(env, 40 + players, check)) > 40


# --- HumanMemory, directly ---------------------------------------------------------------------------------


def human(forget_prob: float = 0.0, capacity: int | None = None, seed: int = 0) -> HumanMemory:
    return HumanMemory(forget_prob, capacity, np.random.default_rng(seed))


def test_capacity_evicts_the_card_seen_longest_ago():
    """A full memory drops its oldest sighting; seeing a remembered card again makes it the newest."""
    memory = human(capacity=3)
    assert [memory.see(position, position) for position in (10, 11, 12)] == [(), (), ()]
    assert memory.see(13, 13) == (10,)
    assert list(memory.known) == [11, 12, 13]
    assert memory.see(11, 11) == ()  # refreshed, nothing new to hold
    assert list(memory.known) == [12, 13, 11]
    assert memory.see(14, 14) == (12,)  # 12 is now the oldest, not 11
    assert memory.known == {13: 13, 11: 11, 14: 14}
    assert memory.end_turn() == ()  # forget_prob 0


def test_capacity_zero_remembers_nothing():
    memory = human(forget_prob=0.5, capacity=0)
    assert memory.see(5, 7) == (5,)
    assert memory.see(6, 8) == (6,)
    assert memory.known == {}
    assert memory.end_turn() == ()
    assert memory.known == {}


def test_forget_prob_one_forgets_all_but_this_turns_cards():
    """forget_prob=1: at the end of a turn every card not seen during it is forgotten; this turn's stay."""
    memory = human(forget_prob=1.0)
    memory.see(1, 0)
    memory.see(2, 3)
    assert memory.end_turn() == ()  # both seen this turn
    memory.see(3, 4)
    memory.see(1, 0)  # seen again: stays
    assert memory.end_turn() == (2,)
    assert memory.known == {3: 4, 1: 0}
    assert memory.end_turn() == (3, 1)  # a turn in which nothing was seen
    assert memory.known == {}


def test_remove_drops_a_card():
    memory = human(capacity=2)
    memory.see(1, 0)
    memory.see(2, 0)
    memory.remove(1)
    memory.remove(40)  # never seen: nothing happens
    assert memory.known == {2: 0}
    assert memory.see(3, 1) == ()  # room again after the removal
    assert memory.known == {2: 0, 3: 1}


def test_forget_prob_is_the_chance_per_turn():
    """Of 1000 cards not seen during a turn, about forget_prob of them are forgotten at its end."""
    memory = human(forget_prob=0.3, seed=5)
    for position in range(1000):
        memory.see(position, 0)
    assert memory.end_turn() == ()
    forgotten = memory.end_turn()
    assert 240 < len(forgotten) < 360
    assert len(memory.known) == 1000 - len(forgotten)
    assert set(memory.known).isdisjoint(forgotten)


def random_flips(players: int, seed: int) -> tuple[Game, list[int]]:
    """A shuffled game and the flips of one random playthrough of it."""
    game = Game.new(players, seed)
    rng = np.random.default_rng(seed)
    flips = []
    replay = game.copy()
    while not replay.is_finished:
        flips.append(int(rng.choice(flippable(replay))))
        replay.step(flips[-1])
    return game, flips


def test_no_forgetting_and_no_capacity_is_perfect_memory():
    """forget_prob=0, capacity=None: after every flip of a random game it knows exactly what PerfectMemory knows."""
    game, flips = random_flips(3, seed=11)
    perfect, forgetful = PerfectMemory(), human(forget_prob=0.0, capacity=None)
    for position in flips:
        feed([perfect, forgetful], game, [position])
        assert forgetful.known == perfect.known
    assert game.is_over and len(flips) > 40


def test_no_forgetting_and_no_capacity_gives_perfect_memory_observations():
    """The same in the environment: identical observations for every seat after every flip."""
    perfect = goldrush_env.gold.raw_env(num_players=3, memory="perfect", **POSITIONS)
    forgetful = goldrush_env.gold.raw_env(num_players=3, memory="human", forget_prob=0.0, memory_capacity=None,
                                          **POSITIONS)
    flips = play_random(perfect, 12)
    forgetful.reset(seed=12)
    perfect.reset(seed=12)
    for position in flips:
        perfect.step(position)
        forgetful.step(position)
        for seat in range(3):
            assert np.array_equal(observation(perfect, seat), observation(forgetful, seat))
    assert perfect.game.is_over


def test_same_seed_same_forgetting_and_forgotten_positions_are_reported():
    """Two memories with one seed forget the same cards at the same calls; what each call returns is exactly
    what left ``known``; another seed forgets differently."""
    game, flips = random_flips(2, seed=3)
    calls: list[list[tuple]] = [[], [], []]

    def record(index, kind, before, after, forgotten):
        assert len(set(forgotten)) == len(forgotten)
        assert set(forgotten) == before - after, kind
        calls[index].append((kind, forgotten))

    feed([human(0.2, 3, seed=1), human(0.2, 3, seed=1), human(0.2, 3, seed=2)], game, flips, record)
    assert calls[0] == calls[1]
    assert calls[0] != calls[2]
    assert sum(len(forgotten) for kind, forgotten in calls[0] if kind == "end_turn") > 5
    assert sum(len(forgotten) for kind, forgotten in calls[0] if kind == "see") > 5


# --- forgetting in the environment ------------------------------------------------------------------------


def test_two_seats_can_remember_differently():
    """forget_prob=0.5: the seats' memories part ways, and so do their observations at those places."""
    env = goldrush_env.gold.raw_env(num_players=2, memory="human", forget_prob=0.5, memory_capacity=None, **POSITIONS)
    differences = []

    def check():
        only = in_view(env, 0) ^ in_view(env, 1)
        if not only:
            return
        differences.append(len(only))
        observations = [board(observation(env, seat)) for seat in (0, 1)]
        for position in only:
            knower = 0 if position in in_view(env, 0) else 1
            knows, forgot = observations[knower], observations[1 - knower]
            card = env.game.table[position]
            assert knows[1, position] == 0 and knows[3 + category(knower, card, 2), position] == 1
            assert forgot[1, position] == 1 and not forgot[3:, position].any()
            assert env.view(knower).cards[position] == card and env.view(1 - knower).cards[position] == UNKNOWN

    play_random(env, 21, check)
    assert len(differences) > 10


def test_perfect_memory_seats_know_the_same_places():
    """memory='perfect': at every step all seats know the same positions."""
    env = goldrush_env.gold.raw_env(num_players=3, memory="perfect", **POSITIONS)

    def check():
        assert in_view(env, 0) == in_view(env, 1) == in_view(env, 2)
        assert remembered(env, 0) == remembered(env, 1) == remembered(env, 2)

    play_random(env, 22, check)



def consistency_check(env, capacity: int):
    """A check: each seat has in view exactly its remembered cards and the face-up card, within capacity."""
    def check():
        face_up = env.game.face_up
        for seat in range(len(env.possible_agents)):
            known = remembered(env, seat)
            assert in_view(env, seat) == set(known) | ({face_up} if face_up is not None else set()), seat
            assert len(known) <= capacity
    return check


@pytest.mark.parametrize("players, seed", [(players, 1000 * players + game)
                                           for players in (2, 3, 4, 5) for game in range(4)])
def test_view_matches_memory_at_every_step(players, seed):
    """Random play, forget_prob=0.2, capacity 5: the positions in view are the remembered ones plus the face-up
    card. (Games 4003, 5000 and 5003 once showed a remembered card as unknown.)"""
    env = goldrush_env.gold.raw_env(num_players=players, memory="human", forget_prob=0.2, memory_capacity=5,
                                    **POSITIONS)
    assert len(play_random(env, seed, consistency_check(env, 5))) > 0


def test_a_card_seen_again_when_it_is_the_oldest_stays_in_view():
    """Capacity 1: remember G2; next turn flip a new G1 then that G2: the seat remembers G2 and must see it."""
    env = goldrush_env.gold.raw_env(num_players=2, memory="human", forget_prob=0.0, memory_capacity=1, **POSITIONS)
    env.reset(seed=0, options={"layout": layout({1: "G1", 3: "G2"})})
    env.step(1)
    env.step(3)  # G1, G2: nothing; each seat holds only G2 (seen last)
    assert [remembered(env, seat) for seat in (0, 1)] == [{3: 1}, {3: 1}]
    env.step(52)
    env.step(3)  # seat 1: G1, then G2 again
    assert [remembered(env, seat) for seat in (0, 1)] == [{3: 1}, {3: 1}]
    for seat in (0, 1):
        assert in_view(env, seat) == {3}
        assert board(observation(env, seat))[3 + CATEGORY_NAMES.index("gold_2"), 3] == 1


# --- seeding ------------------------------------------------------------------------------------------------


def record_game(env, seed: int, action_seed: int = 0) -> list[list[np.ndarray]]:
    """Every seat's observation after every flip of a random game on ``reset(seed=seed)``."""
    players = env.game.num_players if env.game else len(env.possible_agents)
    history = []
    play_random(env, seed, lambda: history.append([observation(env, s) for s in range(players)]),
                action_seed=action_seed)
    return history


def same_history(first, second) -> bool:
    return len(first) == len(second) and all(
        np.array_equal(a, b) for step_a, step_b in zip(first, second) for a, b in zip(step_a, step_b))


def test_same_seed_same_observations_with_human_memory():
    """reset(seed=s) twice, the same flips: identical observations for every seat, on the same or a new env."""
    options = dict(num_players=3, memory="human", forget_prob=0.3, memory_capacity=6, **POSITIONS)
    env = goldrush_env.gold.raw_env(**options)
    first = record_game(env, seed=8)
    again = record_game(env, seed=8)
    fresh = record_game(goldrush_env.gold.raw_env(**options), seed=8)
    assert len(first) > 40
    assert same_history(first, again) and same_history(first, fresh)


def test_another_seed_deals_another_table_and_forgets_otherwise():
    """A different seed deals a different table; on one fixed layout it changes only the forgetting."""
    env = goldrush_env.gold.raw_env(num_players=3, memory="human", forget_prob=0.3, memory_capacity=6, **POSITIONS)
    env.reset(seed=8)
    table = env.game.table
    env.reset(seed=9)
    assert env.game.table != table

    fixed = Game.new(3, 4).table
    histories = []
    for seed in (8, 9):
        env.reset(seed=seed, options={"layout": list(fixed)})
        rng = np.random.default_rng(0)
        history = []
        while not env.terminations[env.agent_selection]:
            env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
            history.append([observation(env, s) for s in range(3)])
        histories.append(history)
    assert len(histories[0]) == len(histories[1])  # the same flips: the game does not depend on memory
    assert not same_history(*histories)
