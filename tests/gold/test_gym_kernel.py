"""GoldEnv's compiled path is the AEC path's game, step for step.

Where every opponent has a compiled form and nothing is rendered, :class:`GoldEnv` plays its game on the kernel.
Each test episode is played there with random learner actions, then again on the AEC path (the same players
asked in Python through :class:`conftest.InPython`), every one of them drawing from the game's own stream
(:class:`GameStream`), as the compiled players do: ``RandomPolicy``, ``GreedyAgent`` and ``ExpertAgent`` draw
from it what the compiled players draw, and the compiled game draws from it where the learner's kind of card turns
a position. Every observation, mask, reward, end, info and view must be equal, ``game_env`` must hold the flips
made, and the stream must end where the kernel's did.
"""

import dataclasses
import warnings

import numpy as np
import pytest
from gymnasium.utils import seeding

from goldrush_agents.gold.expert import ExpertAgent
from goldrush_agents.gold.greedy import GreedyAgent
from goldrush_env import RandomPolicy
from goldrush_env.errors import GoldrushEnvError, IllegalFlipError
from goldrush_env.gold import GoldEnv
from goldrush_env.gold.engine import Game
from goldrush_env.streams import Stream
from goldrush_env.gold.variants import ACTION_TYPES
from conftest import BACKGROUND, POSITIONS, VERSION_0, InPython, layout_of

PLAYERS = {"random": RandomPolicy, "greedy": GreedyAgent, "expert": ExpertAgent}


class GameStream(Stream):
    """A :class:`~goldrush_env.streams.Stream` whose state is the game's own, in the compiled game's record."""

    def __init__(self, record):
        self.record = record

    @property
    def state(self):
        return int(self.record["rng"][0])

    @state.setter
    def state(self, value):
        self.record["rng"][0] = value


class Drawing(InPython):
    """A player asked in Python that draws from the game's stream of ``env``'s AEC environment."""

    def __init__(self, player, env):
        super().__init__(player)
        self.record = env.game_env.one.record

    def reset(self, seed=None):
        super().reset(seed)
        self.player.rng = GameStream(self.record)


def in_python(env, players):
    """``env`` with ``players`` asked in Python, drawing from its game's stream (from its next reset)."""
    env.set_opponents([Drawing(player, env) for player in players])
    return env


@pytest.fixture(autouse=True)
def quiet_illegal_action_warnings():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*illegal action ends the episode")
        yield


def dealt(seed, num_players, seat, table="full"):
    """What ``reset(seed=seed)`` deals on either path: the env's generator draws the learner's seat (if random),
    the opponents' seeds and the game's seed; the game's generator deals the table, as the AEC environment
    does, and then seeds the kernel's stream. Returns the table and the stream's first state."""
    rng = seeding.np_random(seed)[0]
    if seat == "random":
        rng.integers(num_players)
    rng.integers(0, 2**63, size=num_players - 1)
    game_rng = seeding.np_random(int(rng.integers(0, 2**63)))[0]
    game = Game.new(num_players, game_rng, table=table)
    return game.table, int(game_rng.integers(0, 2**64, dtype=np.uint64))


def same_info(a, b):
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], np.ndarray):
            assert a[key].dtype == b[key].dtype and np.array_equal(a[key], b[key]), key
        else:
            assert a[key] == b[key] and type(a[key]) is type(b[key]), key


def same_view(a, b):
    for field in dataclasses.fields(a):
        x, y = getattr(a, field.name), getattr(b, field.name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y), field.name
        else:
            assert x == y, field.name


def play_on_kernel(opponents, seat, seeds, options):
    """One episode per seed of random learner actions on the kernel path, with everything it showed."""
    env = GoldEnv(opponents=[PLAYERS[name]() for name in opponents], seat=seat, **options)
    rng = np.random.default_rng(len(seeds))
    episodes = []
    for seed in seeds:
        observation, info = env.reset(seed=seed)
        assert env.on_kernel
        episode = dict(seed=seed, seat=env.seat, actions=[], shown=[(observation, info, env.view())], rewards=[],
                       ends=[])
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            observation, reward, terminated, truncated, info = env.step(action)
            episode["actions"].append(action)
            episode["shown"].append((observation, info, env.view()))
            episode["rewards"].append(reward)
            episode["ends"].append((terminated, truncated))
            done = terminated or truncated
        game = env.game_env.game  # the AEC environment, brought to the kernel's game
        assert (game.scores, game.winners) == (info["scores"], info["winners"])
        assert game.is_truncated == truncated and len(game.history) == len(env._game.log)
        episode.update(layout=game.initial_layout, stream=int(env._game.record["rng"][0]))
        episodes.append(episode)
    return episodes


def replay_on_aec(episode, opponents, seat, options):
    """``episode`` again on the AEC path (the same seed, so the same seat, deal and stream), its opponents drawing
    from the game's stream; returns its ends."""
    env = in_python(GoldEnv(seat=seat, **options), [PLAYERS[name]() for name in opponents])
    observation, info = env.reset(seed=episode["seed"])
    assert not env.on_kernel and env.seat == episode["seat"]
    assert env.game_env.game.initial_layout == episode["layout"]
    shown = [(observation, info, env.view())]
    for action in episode["actions"]:
        observation, reward, terminated, truncated, info = env.step(action)
        shown.append((observation, info, env.view()))
        t = len(shown) - 2
        assert reward == episode["rewards"][t] and type(reward) is float, t
        assert (terminated, truncated) == episode["ends"][t], t
    for t, ((a, info_a, view_a), (b, info_b, view_b)) in enumerate(zip(episode["shown"], shown)):
        assert a.dtype == b.dtype and np.array_equal(a, b), t
        same_info(info_a, info_b)
        same_view(view_a, view_b)
    assert len(shown) == len(episode["shown"])
    assert int(env.game_env.one.record["rng"][0]) == episode["stream"]  # every draw of the game was the kernel's
    return episode["ends"][-1]


@pytest.mark.parametrize("opponents, seat, options", [
    (["random"], "random", dict(**POSITIONS)),
    (["greedy"], 0, dict(**VERSION_0)),
    (["expert", "greedy"], "random", dict(num_players=3, action="positions", observation="pairs")),
    (["greedy", "random", "expert"], 2, dict(num_players=4, max_turns=25)),
    (["greedy"] * 4, "random", dict(num_players=5, memory="human", forget_prob=0.0, memory_capacity=6,
                                    table="half")),
    (["expert"], 1, dict(table="quarter", max_turns=None, reward="win")),
    (["random", "greedy"], 1, dict(num_players=3, max_turns=None)),
], ids=["random-positions", "greedy-v0", "mix-pairs", "four-truncated", "five-human", "expert-kinds",
        "no-limit"])
def test_the_kernel_path_plays_the_aec_paths_episodes(opponents, seat, options):
    seeds = range(4)
    ends = [replay_on_aec(episode, opponents, seat, options)
            for episode in play_on_kernel(opponents, seat, seeds, options)]
    if options.get("max_turns") == 25:
        assert all(ends == (False, True) for ends in ends)  # the turn limit stopped every game
    else:
        assert all(ends == (True, False) for ends in ends)


def test_a_game_without_a_turn_limit_keeps_every_flip():
    env = GoldEnv(num_players=5, max_turns=None, seat=0)  # a game longer than the log first made for it
    rng = np.random.default_rng(0)
    env.reset(seed=1)
    flips = []
    done = False
    while not done:
        kind = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, _, terminated, truncated, info = env.step(kind)
        flips.append(info["position"])
        done = terminated or truncated
    history = env.game_env.game.history
    assert len(history) > 64 and [event.position for event in history if event.player == 0] == flips


@pytest.mark.parametrize("options", [{}, dict(num_players=4, table="quarter", **POSITIONS)])
def test_a_seed_deals_the_same_table_and_seat_on_both_paths(options):
    n = options.get("num_players", 2)
    kernel_env = GoldEnv(**options)
    aec_env = GoldEnv(opponents=InPython(RandomPolicy()), **options)
    seats = set()
    for seed in range(12):
        for reset_options in (None, {"first_player": n - 1}, {"layout": list(dealt(seed + 50, n, 0)[0])}):
            first, info_k = kernel_env.reset(seed=seed, options=reset_options)
            second, info_a = aec_env.reset(seed=seed, options=reset_options)
            assert kernel_env.on_kernel and not aec_env.on_kernel
            dealt_k, dealt_a = kernel_env.game_env.game, aec_env.game_env.game
            assert dealt_k.initial_layout == dealt_a.initial_layout
            assert dealt_k.first_player == dealt_a.first_player
            assert kernel_env.seat == aec_env.seat == info_k["seat"] == info_a["seat"]
            if reset_options is None:
                assert dealt_k.initial_layout == dealt(seed, n, "random", options.get("table", "full"))[0]
            if kernel_env.seat == dealt_k.first_player:  # nothing flipped yet: the same first observation
                assert np.array_equal(first, second)
                same_info(info_k, info_a)
            seats.add(kernel_env.seat)
    assert seats == set(range(n))


class Wary(RandomPolicy):
    """A random player with its own rule: no compiled form."""

    def act(self, view):
        return int(np.flatnonzero(view.action_mask)[-1])


class Careful(GreedyAgent):
    """A greedy player that may play otherwise: no compiled form."""


@pytest.mark.parametrize("make", [
    lambda: GoldEnv(opponents=InPython(GreedyAgent())),
    lambda: GoldEnv(render_mode="ansi"),
    lambda: GoldEnv(num_players=3, opponents=[RandomPolicy(), InPython(RandomPolicy())]),
    lambda: GoldEnv(opponents=Wary()),
    lambda: GoldEnv(opponents=Careful()),
], ids=["python-player", "rendering", "one-of-two", "random-subclass", "greedy-subclass"])
def test_the_aec_path_plays_what_the_kernel_cannot(make):
    env = make()
    _, info = env.reset(seed=0)
    assert not env.on_kernel
    before = len(env.game_env.game.history)
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "illegal_action" not in info and len(env.game_env.game.history) > before  # game_env plays the game
    if env.render_mode == "ansi":
        assert isinstance(env.render(), str)


def test_set_opponents_changes_the_path_at_the_next_reset():
    env = GoldEnv(opponents=GreedyAgent(), num_players=3)
    env.reset(seed=0)
    assert env.on_kernel
    env.set_opponents([ExpertAgent(), InPython(ExpertAgent())])
    assert env.on_kernel  # the episode under way goes on as it began
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    env.reset(seed=1)
    assert not env.on_kernel
    aec = env.game_env
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    env.set_opponents([ExpertAgent(), RandomPolicy()])
    env.reset(seed=2)
    assert env.on_kernel and env.game_env is aec  # one AEC environment: it plays, or it is replayed into


def test_a_kernel_player_must_be_a_kernel_player():
    class Odd(RandomPolicy):
        def act(self, view):
            return super().act(view)

        def kernel_player(self):
            return "greedy"

    with pytest.raises(GoldrushEnvError, match=r"kernel_player\(\) returned 'greedy': expected a KernelPlayer or None"):
        GoldEnv(opponents=Odd())


TABLE = layout_of({**BACKGROUND, 0: "G1", 5: "M22", 9: "D", 30: "M33"})
NEVER = ACTION_TYPES["kinds"].names.index("miner_opponent_3_5")  # no such seat at a table of two


def both_paths(**options):
    """The same env on the kernel path and on the AEC path, the learner first to play at seat 0 of ``TABLE``,
    every random choice of both drawn from one stream."""
    kernel_env = GoldEnv(seat=0, **options)
    aec_env = in_python(GoldEnv(seat=0, **options), [RandomPolicy()])
    for env in (kernel_env, aec_env):
        env.reset(seed=0, options={"layout": TABLE})
    assert kernel_env.on_kernel and not aec_env.on_kernel
    return kernel_env, aec_env


def same_step(kernel_env, aec_env, action):
    """``action`` on both paths: the same answers, or the same error."""
    answers = []
    for env in (kernel_env, aec_env):
        try:
            answers.append(env.step(action))
        except GoldrushEnvError as error:
            answers.append(error)
    a, b = answers
    if isinstance(a, GoldrushEnvError):
        assert type(a) is type(b) and str(a) == str(b)
        return a
    assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]
    same_info(a[4], b[4])
    return a


@pytest.mark.parametrize("illegal_action", ["terminate", "raise"])
@pytest.mark.parametrize("options, moves, words", [
    (VERSION_0, [20], "position 20 is empty: its card has left the table"),
    (VERSION_0, [9, 0, 9], "position 9 is empty: its card has left the table"),  # the dynamite took it
    (VERSION_0, [9, 9], "position 9 is already face up (the first card of this turn)"),
    ({}, [29, 29, 29, NEVER],
     f"kind {NEVER} (miner_opponent_3_5) cannot be turned now: no legal position holds such a card"),
], ids=["empty", "gone", "face-up", "kind"])
def test_illegal_actions_are_refused_alike(illegal_action, options, moves, words):
    kernel_env, aec_env = both_paths(illegal_action=illegal_action, **options)
    *legal, illegal = moves
    for action in legal:
        same_step(kernel_env, aec_env, action)
    answer = same_step(kernel_env, aec_env, illegal)
    if illegal_action == "raise":
        assert isinstance(answer, IllegalFlipError) and str(answer) == words
        same_step(kernel_env, aec_env, int(np.flatnonzero(kernel_env.action_masks())[0]))  # the game goes on
    else:
        assert answer[1:4] == (-1.0, True, False) and answer[4]["illegal_action"] == words
        assert "call reset() first" in str(same_step(kernel_env, aec_env, 0))


def test_misuse_is_refused_on_the_kernel_path_as_before():
    env = GoldEnv()
    with pytest.raises(GoldrushEnvError, match="call reset"):
        env.step(0)
    with pytest.warns(UserWarning, match=r"ignores the unknown options \['colour'\]"):
        env.reset(seed=0, options={"colour": "red"})
    assert env.on_kernel
    with pytest.raises(GoldrushEnvError, match="first_player"):
        env.reset(seed=0, options={"first_player": 2})
    with pytest.raises(GoldrushEnvError):
        env.reset(seed=0, options={"layout": ["G1"] * 64})
    env.reset(seed=0)
    for action in (30, -1, 1.5, "0"):
        with pytest.raises(IllegalFlipError, match="not in the action space Discrete"):
            env.step(action)
    env.step(np.int64(int(np.flatnonzero(env.action_masks())[0])))  # a numpy int is an action
    with pytest.warns(UserWarning, match="without a render_mode"):  # as on the AEC path
        assert env.render() is None


def test_human_memory_forgets_on_the_kernel_path():
    """Forgetting draws from the game's stream there, so no lockstep with the AEC path: its effects instead."""
    env = GoldEnv(memory="human", forget_prob=0.5, memory_capacity=4, seat=0, **POSITIONS)
    rng = np.random.default_rng(0)
    forgot = False
    for seed in range(3):
        env.reset(seed=seed)
        assert env.on_kernel
        done = False
        while not done:
            view = env.view()
            known = set(view.known_positions()) - {view.face_up}
            assert len(known) <= 4  # the capacity
            forgot |= len(known) < len(set(env.game_env.game.known_to(0)) - {view.face_up})
            _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = terminated or truncated
    assert forgot


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_the_kernels_win_reward_is_the_aec_paths_for_every_standing(num_players):
    """reward="win" as the AEC path pays it (+1 a sole winner, 0 each of several, -1 the others), the winners being
    those with most points and, among them, most gold cards (D5), over standings full of ties of both kinds."""
    from goldrush_env.gold import kernel
    from goldrush_env.gold.config import EnvConfig

    rng = np.random.default_rng(num_players)
    games, turns = kernel.new_games(1), kernel.new_turns(1)
    consts = kernel.constants(EnvConfig(num_players=num_players, reward="win"))
    game, turn = games[0], turns[0]
    game["cards_left"] = 0  # over: the win is paid
    ties = 0
    for _ in range(300):
        gold_cards = rng.integers(0, 4, size=num_players)  # none at all too: a game may end with no gold won
        scores = gold_cards + rng.integers(0, 2, size=num_players) * (gold_cards > 0)  # ties are common
        best = max(zip(scores.tolist(), gold_cards.tolist()))
        winners = [s for s in range(num_players) if (scores[s], gold_cards[s]) == best]
        ties += len(winners) > 1
        game["scores"][:num_players], game["gold_cards"][:num_players] = scores, gold_cards
        for seat in range(num_players):
            expected = (1.0 if len(winners) == 1 else 0.0) if seat in winners else -1.0
            turn["seat"], turn["reward"] = seat, 0.0
            kernel._pay(game, consts[0], turn)
            assert turn["reward"] == expected, (scores, gold_cards, seat)
    assert 10 < ties < 290  # both kinds of ending were tried
