"""``env()``'s one-layer checks behave as PettingZoo's three standard wrappers do.

Both are driven side by side with the same actions — legal flips, illegal
flips, actions outside the space, ``None``, steps after the end — and every
result, exception and warning is compared.
"""

import logging
import warnings

import numpy as np
import pytest
from pettingzoo.utils import wrappers

import goldrush_env
import goldrush_env.gold
from goldrush_env.wrappers import ClassicChecks
from conftest import POSITIONS


def standard_chain(**kwargs):
    """What ``env()`` would be with PettingZoo's wrappers, as its classic games build it."""
    wrapped = wrappers.TerminateIllegalWrapper(goldrush_env.gold.raw_env(**kwargs), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))


def outcome(call):
    """What a call returned, or the type and text of what it raised, with any warnings it gave
    (PettingZoo's EnvLogger warns through ``logging``, the environments through ``warnings``)."""
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logger = logging.getLogger("pettingzoo.utils.env_logger")
    logger.addHandler(handler)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = ("ok", call())
            except Exception as error:  # noqa: BLE001 - the exception is what is compared
                result = ("raised", type(error).__name__, str(error))
    finally:
        logger.removeHandler(handler)
    return result, [str(w.message) for w in caught] + [record.getMessage() for record in records]


def same(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b) and np.asarray(a).dtype == np.asarray(b).dtype
    return a == b and type(a) is type(b)


def state(env):
    """A snapshot (the environment mutates these dicts in place)."""
    return (list(env.agents), env.agent_selection, dict(env.rewards), dict(env._cumulative_rewards),
            dict(env.terminations), dict(env.truncations), {k: dict(v) for k, v in env.infos.items()})


def test_env_is_one_order_enforcing_layer_over_the_raw_env():
    env = goldrush_env.gold.env()
    assert isinstance(env, ClassicChecks) and isinstance(env, wrappers.OrderEnforcingWrapper)
    assert isinstance(env.unwrapped, goldrush_env.gold.raw_env) and env.env is env.unwrapped
    assert str(env) == str(standard_chain()) == "gold_v1"


@pytest.mark.parametrize("name", ["agents", "agent_selection", "rewards", "terminations", "truncations", "infos",
                                  "num_agents"])
def test_attributes_before_reset_are_refused_alike(name):
    ours, theirs = outcome(lambda: getattr(goldrush_env.gold.env(), name)), outcome(lambda: getattr(standard_chain(), name))
    assert ours == theirs and ours[0][0] == "raised" and ours[0][1] == "AttributeError"


@pytest.mark.parametrize("call", [lambda e: e.step(0), lambda e: e.observe("player_0"), lambda e: e.last(),
                                  lambda e: e.agent_iter()])
def test_calls_before_reset_are_refused_alike(call):
    ours, theirs = outcome(lambda: call(goldrush_env.gold.env())), outcome(lambda: call(standard_chain()))
    assert ours == theirs and ours[0][0] == "raised"


def drive(env, actions_of):
    """Play ``env`` to its end (and a little past), recording everything; ``actions_of(step, mask)`` picks."""
    log = []
    for step in range(400):
        observed = outcome(lambda: env.last())
        log.append(("last", observed, state(env) if env.agents else None))
        mask = observed[0][1][0]["action_mask"] if observed[0][0] == "ok" else None
        action = actions_of(step, mask, env)
        log.append(("step", action, outcome(lambda: env.step(action)), state(env) if env.agents else None))
        if not env.agents:
            log.append(("after", outcome(lambda: env.step(0))))
            break
    return log


def mixed_actions(seed, illegal_at):
    """Legal flips, with actions outside the space (64, -1, 3.5) and ``None`` for a live agent at
    fixed steps, and an illegal flip (an empty or face-up position) at step ``illegal_at``."""
    rng = np.random.default_rng(seed)
    misuse = {3: 64, 6: None, 9: -1, 12: 3.5}

    def pick(step, mask, env):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            return None
        if step in misuse:
            return misuse[step]
        if step == illegal_at:
            return int(np.flatnonzero(mask == 0)[0])
        legal = np.flatnonzero(mask)
        return int(legal[rng.integers(len(legal))])

    return pick


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("illegal_at", [20, 1000])  # the second never comes: the game runs to its end
@pytest.mark.parametrize("kwargs", [dict(num_players=2), dict(num_players=3, reward="score"),
                                    dict(num_players=4, memory="human", max_turns=30)])
def test_games_with_misuse_run_identically(seed, illegal_at, kwargs):
    ours, theirs = goldrush_env.gold.env(**kwargs), standard_chain(**kwargs)
    ours.reset(seed=seed)
    theirs.reset(seed=seed)
    log_ours = drive(ours, mixed_actions(seed, illegal_at))
    log_theirs = drive(theirs, mixed_actions(seed, illegal_at))
    assert len(log_ours) == len(log_theirs)
    for mine, standard in zip(log_ours, log_theirs):
        assert same(mine, standard), (mine, standard)
    steps = [entry for entry in log_ours if entry[0] == "step"]
    assert sum(entry[2][0][0] == "raised" for entry in steps) == 4  # the four misuses were refused
    ended_illegally = any("Illegal move" in text for entry in steps for text in entry[2][1])
    assert ended_illegally == (illegal_at == 20)
    assert log_ours[-1][0] == "after" and "step() called after all agents" in log_ours[-1][1][1][0]


def test_an_illegal_flip_ends_the_game_alike_and_reset_starts_afresh():
    logs = []
    for env in (goldrush_env.gold.env(num_players=3, **POSITIONS), standard_chain(num_players=3, **POSITIONS)):
        env.reset(seed=5)
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        events = [outcome(lambda: env.step(env.unwrapped.game.face_up)), state(env)]  # the face-up card again
        for _ in env.possible_agents:  # each finished agent's one step, and no more (a bound, should one be refused)
            if env.agents:
                events.append((outcome(lambda: env.step(None)), state(env) if env.agents else None))
        assert not env.agents
        env.reset(seed=6)
        events.append(state(env))
        logs.append(events)
    assert same(logs[0], logs[1])
    assert logs[0][1][2] == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0}  # rewards at the illegal flip


def test_agent_iter_is_order_enforced_alike():
    for env in (goldrush_env.gold.env(), standard_chain()):
        env.reset(seed=0)
        iterator = iter(env.agent_iter())
        next(iterator)
        with pytest.raises(AssertionError, match="need to call step"):
            next(iterator)
