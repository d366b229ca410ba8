"""The vector environment is many single environments: observations, rewards and ends
are compared with ``GoldEnv`` replaying the same games, and the batched
observations with the AEC environment's for every seat after every flip."""

import gymnasium as gym
import numpy as np
import pytest

import goldrush_env
import goldrush_env.gold
from goldrush_env.gold.batched import BatchedGames, random_in_masks
from goldrush_env.errors import GoldrushEnvError, IllegalFlipError
from goldrush_agents.gold.batched import batched_mix, batched_policy
from goldrush_env.gold import kernel
from goldrush_env.gold.vector import BatchedRandom, GoldVectorEnv

from conftest import POSITIONS, VERSION_0, aec_twins, follow, replays_as_recorded


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_batched_observations_equal_the_aec_environments_for_every_seat(num_players):
    count = 12
    games = BatchedGames(count, num_players)
    games.reset(seed=num_players)
    envs = aec_twins(games)
    known = np.zeros((count, 64), dtype=bool)
    out = np.zeros((count, goldrush_env.gold.encoder.OBSERVATION_SIZE), dtype=np.float32)
    rng = np.random.default_rng(num_players)
    compared = 0
    while True:
        for seat in range(num_players):
            seats = np.full(count, seat)
            kernel.observe(games.state, games.constants, seats, np.arange(count), kernel.OBS_PLAIN, out)
            for g, env in enumerate(envs):
                assert np.array_equal(out[g], env.observe(f"player_{seat}")["observation"]), (g, seat)
                compared += 1
        if games.is_finished.all():
            break
        flips = games.step(games.random_positions(rng))
        follow(envs, known, flips)
    assert compared > 1000


class Recorder:
    """A batched policy that plays another and writes down every flip it makes, per game layout
    (into ``flips``, which several recorders may share)."""

    def __init__(self, policy, flips=None):
        self.policy, self.flips = policy, {} if flips is None else flips

    def reset(self, seed=None):
        if hasattr(self.policy, "reset"):
            self.policy.reset(seed)

    def act(self, games, known, where, rng):
        positions = self.policy.act(games, known, where, rng)
        for g in np.flatnonzero(where & ~games.is_finished):
            self.flips.setdefault((g, games.initial[g].tobytes()), []).append(int(positions[g]))
        return positions


class Replay:
    """A single-game policy replaying the recorded flips of one episode's opponents."""

    def __init__(self, flips):
        self.flips = iter(flips)

    def reset(self, seed=None):
        pass

    def act(self, view):
        return next(self.flips)


def play_and_record(num_envs, steps, seed, **kwargs):
    """Random learner flips in a vector env; returns finished episodes with everything they showed."""
    spec = kwargs.pop("opponents", "random")
    flips = {}
    if isinstance(spec, dict):
        opponents = {Recorder(batched_policy(name), flips): weight for name, weight in spec.items()}
    else:
        opponents = Recorder(batched_policy(spec), flips)
    env = GoldVectorEnv(num_envs, opponents=opponents, autoreset_mode="same_step", **kwargs)
    observations, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    running = [dict(layout=env.games.initial[e].copy(), seat=int(info["seat"][e]), actions=[],
                    observations=[observations[e]], masks=[info["action_mask"][e]], rewards=[], ends=[], env=e)
               for e in range(num_envs)]
    episodes = []
    for _ in range(steps):
        actions = random_in_masks(env.action_masks(), rng.random(num_envs))
        observations, rewards, terminated, truncated, info = env.step(actions)
        for e, episode in enumerate(running):
            episode["actions"].append(int(actions[e]))
            episode["rewards"].append(float(rewards[e]))
            episode["ends"].append((bool(terminated[e]), bool(truncated[e])))
            if terminated[e] or truncated[e]:
                episode["observations"].append(info["final_obs"][e])
                episode["final_scores"] = info["final_info"]["scores"][e].tolist()
                episode["opponents"] = flips.pop((e, episode["layout"].tobytes()), [])
                episodes.append(episode)
                running[e] = episode = dict(layout=env.games.initial[e].copy(), seat=int(info["seat"][e]),
                                            actions=[], observations=[], masks=[], rewards=[], ends=[], env=e)
            episode["observations"].append(observations[e])
            episode["masks"].append(info["action_mask"][e])
    return episodes


@pytest.mark.parametrize("kwargs", [
    dict(num_players=2),
    dict(num_players=3, reward="score"),
    dict(num_players=5, seat=2, max_turns=40),
    dict(num_players=2, seat=0, max_turns=1),  # every game cut short after its first turn
    dict(num_players=2, opponents="greedy", reward="score"),
    dict(num_players=4, opponents="greedy"),
    dict(num_players=2, opponents="expert"),
    dict(num_players=3, opponents="taught", reward="score"),
    dict(num_players=3, opponents={"random": 1, "greedy": 2, "expert": 1}),
    dict(num_players=2, opponents="greedy", observation="pairs", reward="score"),
    dict(num_players=3, table="quarter"),
    dict(num_players=2, table="half", opponents="expert", observation="pairs"),
])
def test_episodes_replay_exactly_in_the_single_environment(kwargs):
    seed = len(kwargs) + kwargs["num_players"]
    # Positions: the single environment flips what the vector environment flipped (an action that is a kind of
    # card leaves the position to each environment's own generator).
    kwargs = {**VERSION_0, **kwargs}
    episodes = play_and_record(6, 160, seed=seed, **kwargs)
    assert len(episodes) >= 6
    for episode in episodes:
        replay(episode, kwargs)


def test_games_past_the_kernels_first_chunk_replay_exactly():
    """The kernel plays a batch in chunks of 64 games: those of the second chunk replay as the first's do."""
    kwargs = {**VERSION_0, "num_players": 2, "table": "quarter"}
    late = [episode for episode in play_and_record(70, 40, seed=9, **kwargs) if episode["env"] >= 64]
    assert len(late) >= 6
    for episode in late:
        replay(episode, kwargs)


def replay(episode, kwargs):
    """Play a recorded episode again in ``GoldEnv`` and require that it shows what the vector env showed."""
    options = {k: v for k, v in kwargs.items()
               if k in ("num_players", "action", "reward", "max_turns", "table", "observation")}
    n = options["num_players"]
    single = goldrush_env.gold.GoldEnv(opponents=[Replay(episode["opponents"])] * (n - 1), seat=episode["seat"],
                                       **options)
    observation, info = single.reset(seed=0, options={"layout": episode["layout"].tolist()})
    assert np.array_equal(observation, episode["observations"][0])
    assert np.array_equal(info["action_mask"].astype(bool), episode["masks"][0])
    terminated, truncated, info = replays_as_recorded(single, episode)
    assert terminated or truncated
    assert list(info["scores"]) == episode["final_scores"]


def test_learner_always_has_the_move_and_the_same_seed_repeats():
    def run(seed):
        env = GoldVectorEnv(8, num_players=3, opponents=batched_policy("greedy"), autoreset_mode="same_step")
        observations, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace = [observations]
        for _ in range(120):
            masks = env.action_masks()
            assert masks.any(axis=1).all() and np.array_equal(masks, info["action_mask"])
            assert (env.games.current_player == env.seats).all()
            observations, rewards, terminated, truncated, info = env.step(
                random_in_masks(masks, rng.random(8)))
            trace.append(observations)
        return np.array(trace)

    assert np.array_equal(run(4), run(4))
    assert not np.array_equal(run(4), run(5))


def test_win_rewards_and_random_seats():
    env = GoldVectorEnv(32, num_players=2, opponents=BatchedRandom(), **VERSION_0)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    seats, totals = set(), []
    for _ in range(300):
        seats.update(env.seats.tolist())
        _, rewards, terminated, truncated, info = env.step(random_in_masks(env.action_masks(), rng.random(32)))
        done = terminated | truncated
        assert np.all(rewards[~done] == 0)
        for e in np.flatnonzero(done):
            winners = info["final_info"]["winners"][e]
            mine = winners[info["final_info"]["seat"][e]]
            assert rewards[e] == (1.0 if mine and winners.sum() == 1 else 0.0 if mine else -1.0)
            totals.append(rewards[e])
    assert seats == {0, 1} and len(totals) > 50


def test_bad_use_is_refused_by_name():
    with pytest.raises(GoldrushEnvError, match="memory='sometimes' is not allowed"):
        GoldVectorEnv(2, memory="sometimes")
    with pytest.raises(GoldrushEnvError, match="build other players with goldrush_agents.gold.batched.batched_policy\\(.greedy.\\)"):
        GoldVectorEnv(2, opponents="greedy")
    with pytest.raises(GoldrushEnvError, match="unknown agent 'nobody'"):
        batched_policy("nobody")
    with pytest.raises(GoldrushEnvError, match="opponents=3 is not allowed"):
        GoldVectorEnv(2, opponents=3)
    with pytest.raises(GoldrushEnvError, match="weights >= 0 with a positive sum"):
        GoldVectorEnv(2, opponents={"random": 0})
    with pytest.raises(GoldrushEnvError, match="seat=3 is not allowed"):
        GoldVectorEnv(2, seat=3)
    with pytest.raises(GoldrushEnvError, match="unknown option"):
        GoldVectorEnv(2, colour="red")
    env = GoldVectorEnv(2, num_players=2, seat=0, **VERSION_0)
    with pytest.raises(GoldrushEnvError, match="call reset"):
        env.step(np.zeros(2, dtype=np.int64))
    env.reset(seed=0)
    env.step(np.array([5, 6]))
    before = env.games.table.copy()
    with pytest.raises(IllegalFlipError, match="game 1: position 6 is already face up"):
        env.step(np.array([7, 6]))
    with pytest.raises(IllegalFlipError, match="actions must be 2 ints"):
        env.step(np.array([7]))
    assert np.array_equal(env.games.table, before)


def test_opponents_drawn_from_a_mix_play_their_seats():
    env = GoldVectorEnv(64, num_players=3, opponents=batched_mix({"random": 1, "greedy": 3}))
    env.reset(seed=2)
    seats_of = env.entrants[np.arange(64)[:, None], (env.seats[:, None] + np.array([1, 2])) % 3]
    share = (seats_of == 1).mean()
    assert 0.6 < share < 0.9  # about 3 in 4 opponent seats are greedy
    env.set_opponents("random")
    assert env.opponent_names == ["random"]
    env.set_opponents(batched_mix({"greedy": 1, "taught": 1}))
    assert env.opponent_names == ["greedy", "taught"]  # the shipped model of the table's size, by its entrant name


def test_opponents_that_join_between_resets_play_from_the_env_seed():
    def tables_after_a_change_of_mix(seed):
        env = GoldVectorEnv(8, opponents="random")
        env.reset(seed=seed)
        env.set_opponents(batched_mix({"expert": 1}))  # the expert has a generator of its own
        actions = np.random.default_rng(0)
        for _ in range(30):
            legal = env.action_masks()
            env.step(np.array([actions.choice(np.flatnonzero(row)) for row in legal]))
        return env.games.table.copy()

    np.testing.assert_array_equal(tables_after_a_change_of_mix(4), tables_after_a_change_of_mix(4))


def test_registered_as_the_vector_entry_point_of_the_gymnasium_id():
    import gymnasium as gym

    env = gym.make_vec("goldrush_env:Gold-v1", num_envs=16, vectorization_mode="vector_entry_point",
                       num_players=3, reward="score", **POSITIONS)
    assert isinstance(env.unwrapped, GoldVectorEnv) and env.num_envs == 16
    observations, info = env.reset(seed=0)
    assert observations.shape == (16, goldrush_env.gold.encoder.OBSERVATION_SIZE) and info["action_mask"].shape == (16, 64)
    assert env.unwrapped.config.num_players == 3 and env.unwrapped.config.reward == "score"


def test_next_step_autoreset_spends_one_step_on_the_reset():
    """Gymnasium's default mode: the step that ends a game returns its last observation; the next step
    ignores the action, deals afresh and returns the new game's first observation with nothing else."""
    same = GoldVectorEnv(16, opponents="random", autoreset_mode="same_step")
    env = GoldVectorEnv(16, opponents="random", **VERSION_0)
    assert env.metadata["autoreset_mode"] is gym.vector.AutoresetMode.NEXT_STEP
    assert same.metadata["autoreset_mode"] is gym.vector.AutoresetMode.SAME_STEP
    assert GoldVectorEnv.metadata["autoreset_mode"] is gym.vector.AutoresetMode.NEXT_STEP  # the class unchanged
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    ended, resets = 0, 0
    pending = np.zeros(16, dtype=bool)
    for _ in range(400):
        actions = random_in_masks(env.action_masks(), rng.random(16))
        actions[pending] = 99  # not read: those sub-environments are being dealt afresh
        observations, rewards, terminated, truncated, info = env.step(actions)
        done = terminated | truncated
        assert "final_obs" not in info
        # A reset step: reward 0, not done, a new game waiting for the learner with legal flips.
        assert np.all(rewards[pending] == 0) and not done[pending].any()
        assert info["action_mask"][pending].any(axis=1).all()
        assert np.all(env.games.turn[pending] <= env.config.num_players)
        # The step that ends a game: its last observation, a mask that allows action 0 alone (which the next
        # step ignores, so that a sampler always has something to draw), the final scores in final_info.
        assert (info["action_mask"][done] == (np.arange(64) == 0)).all()
        assert np.array_equal(env.action_masks(), info["action_mask"])
        if done.any():
            assert np.array_equal(info["_final_info"], done)
            assert np.array_equal(info["final_info"]["scores"][done], env.games.scores[done])
            assert np.all(observations[done, 2063:2071] == 0)  # no one to play, no phase
        resets += int(pending.sum())
        ended += int(done.sum())
        pending = done
    assert ended > 30 and resets > 30
    with pytest.raises(GoldrushEnvError, match="autoreset_mode='disabled' is not allowed"):
        GoldVectorEnv(2, autoreset_mode="disabled")


def test_next_step_and_same_step_end_the_first_games_alike():
    """From one seed the two modes deal and play the same games up to the first end (after it, the deals
    draw from the generator at different steps)."""
    def first_end(mode):
        env = GoldVectorEnv(6, opponents="random", autoreset_mode=mode)
        env.reset(seed=11)
        rng = np.random.default_rng(0)
        for step in range(1000):
            _, rewards, terminated, truncated, info = env.step(random_in_masks(env.action_masks(), rng.random(6)))
            done = terminated | truncated
            if done.any():
                return step, done.tolist(), info["final_info"]["scores"][done].tolist(), rewards.tolist()

    assert first_end("next_step") == first_end("same_step")


def test_gymnasiums_vector_wrappers_run_on_it():
    """NormalizeObservation, NormalizeReward and RecordEpisodeStatistics accept the env from make_vec as it
    comes (they refuse same-step autoreset) and count whole episodes."""
    from gymnasium.wrappers.vector import NormalizeObservation, NormalizeReward, RecordEpisodeStatistics

    env = gym.make_vec("goldrush_env:Gold-v1", num_envs=8, vectorization_mode="vector_entry_point",
                       reward="score")
    env = RecordEpisodeStatistics(NormalizeReward(NormalizeObservation(env)))
    observations, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    lengths = []
    for _ in range(300):
        actions = random_in_masks(env.unwrapped.action_masks(), rng.random(8))
        observations, rewards, terminated, truncated, info = env.step(actions)
        assert np.isfinite(observations).all() and np.isfinite(rewards).all()
        if "episode" in info:
            lengths += info["episode"]["l"][info["_episode"]].tolist()
    assert len(lengths) > 10 and min(lengths) >= 20  # a learner makes 20 flips or more in a game of Gold
    assert abs(float(observations.mean())) < 1.0  # normalised
    with pytest.raises((AssertionError, ValueError)):  # the check differs between Gymnasium versions
        NormalizeObservation(GoldVectorEnv(2, autoreset_mode="same_step"))
