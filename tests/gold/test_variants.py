"""The registry of observation and action types (:mod:`goldrush_env.gold.variants`): the environments ask it by
name, it refuses an unknown name, each type's layout and size are what the docs say, and a type registered there
is played by every environment without another line.

The values of each type are checked elsewhere: the plain and pairs vectors in tests/gold/test_encoder.py, the kinds in
tests/gold/test_kinds.py, the vector env against the single one in tests/gold/test_vector.py."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import goldrush_env.gold.aec as aec
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.aec import raw_env
from goldrush_env.gold.encoder import SLICES
from goldrush_env.gold.variants import (
    ACTION_TYPES,
    OBSERVATION_TYPES,
    ObservationType,
    action_type,
    observation_type,
)
from goldrush_env.gold.vector import GoldVectorEnv

from conftest import POSITIONS

OPTIONS = {"plain": POSITIONS, "pairs": {**POSITIONS, "observation": "pairs"},
           "kinds": {"observation": "kinds", "action": "kinds"}}


def summary_row(name: str) -> str:
    """The row ``name`` of the summary table at the top of the AEC env's docstring."""
    return next(line for line in aec.__doc__.splitlines() if line.startswith(f"| {name} |"))


def test_the_names_are_the_options():
    assert tuple(OBSERVATION_TYPES) == ("plain", "pairs", "kinds")
    assert tuple(ACTION_TYPES) == ("positions", "kinds")
    assert all(observation_type(name).name == name for name in OBSERVATION_TYPES)
    assert all(action_type(name).name == name for name in ACTION_TYPES)


@pytest.mark.parametrize("ask, bad, message", [
    (observation_type, "pixels", r"observation='pixels' is not allowed: expected one of \('plain', 'pairs', 'kinds'\)"),
    (action_type, "cards", r"action='cards' is not allowed: expected one of \('positions', 'kinds'\)"),
    (action_type, ["kinds"], r"action=\['kinds'\] is not allowed"),
])
def test_an_unknown_name_is_refused_naming_the_names_there_are(ask, bad, message):
    with pytest.raises(GoldrushEnvError, match=message):
        ask(bad)


@pytest.mark.parametrize("name", list(OBSERVATION_TYPES))
def test_each_observation_type_is_documented_and_is_the_envs_space(name):
    kind = OBSERVATION_TYPES[name]
    assert kind.index_table() in aec.__doc__
    assert str(kind.size) in summary_row("Observation shape")
    assert kind.size == kind.slices[kind.layout[-1][0]].stop
    env = raw_env(**OPTIONS[name])
    assert env.observation_type is kind
    assert env.observation_space("player_0")["observation"] == kind.space()
    vector = GoldVectorEnv(2, **OPTIONS[name])
    assert vector.observation_type is kind and vector.single_observation_space == kind.space()


@pytest.mark.parametrize("name", list(ACTION_TYPES))
def test_each_action_type_is_documented_and_is_the_envs_space(name):
    kind = ACTION_TYPES[name]
    assert f"Discrete({kind.size})" in summary_row("Action values")
    assert len(kind.names) == len(set(kind.names)) == kind.size
    env = raw_env(action=name, observation="plain")
    assert env.action_type is kind and env.action_space("player_0") == kind.space()
    assert GoldVectorEnv(2, action=name, observation="plain").single_action_space == kind.space()


@pytest.mark.parametrize("name", list(OBSERVATION_TYPES))
def test_a_batch_is_its_rows_and_a_new_array(name):
    env = raw_env(num_players=3, **POSITIONS)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    rows = []
    for _ in range(12):
        rows.append(env.observe(env.agent_selection)["observation"])
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))
    plain = np.array(rows)
    kind = OBSERVATION_TYPES[name]
    batch = kind.from_plain(plain)
    assert batch.shape == (len(rows), kind.size) and batch.dtype == np.float32
    assert np.array_equal(batch, np.concatenate([kind.from_plain(row[None]) for row in plain]))
    assert not np.shares_memory(batch, plain)
    assert kind.space().contains(batch[0])


def test_a_type_registered_is_played_by_every_environment(monkeypatch):
    """A new observation type is one entry of the registry: the AEC, Gymnasium and vector environments take it by
    name, and the single and the vector env agree on it."""
    scores = ObservationType("scores", (("scores", (5,), "points per relative seat / 60"),),
                             lambda plain: np.array(plain[:, SLICES["scores"]]))
    monkeypatch.setitem(OBSERVATION_TYPES, "scores", scores)
    env = raw_env(observation="scores", num_players=3)
    env.reset(seed=0)
    assert env.observe("player_0")["observation"].shape == (5,)
    single = gym.make("goldrush_env:Gold-v1", observation="scores", reward="score")
    observation, _ = single.reset(seed=0)
    assert observation.shape == (5,)
    vector = GoldVectorEnv(4, observation="scores", reward="score", autoreset_mode="same_step")
    observations, info = vector.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(40):
        masks = info["action_mask"]
        observations, _, _, _, info = vector.step(np.array([rng.choice(np.flatnonzero(row)) for row in masks]))
        assert observations.shape == (4, 5) and (observations[:, 2:] == 0).all() and observations.max() <= 1
    with pytest.raises(GoldrushEnvError, match=r"observation='pixels' is not allowed: expected one of \("
                                            r"'plain', 'pairs', 'kinds', 'scores'\)"):
        raw_env(observation="pixels")
