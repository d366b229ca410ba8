"""Our environments in other libraries, beyond docs/libraries.md's examples (which tests/test_docs.py runs)."""

import gymnasium as gym
import pytest

import goldrush_env
import goldrush_env.gold
from goldrush_env.errors import GoldrushEnvError, UnknownOptionError
from goldrush_env.gold.variants import OBSERVATION_TYPES


def test_an_unknown_option_is_a_type_error_in_pythons_words():
    """Libraries probe a constructor with optional keywords and catch Python's TypeError (TorchRL's GymEnv
    passes ``frameskip=``); ours is that TypeError and still a GoldrushEnvError naming the options."""
    for make in (goldrush_env.gold.env, goldrush_env.gold.raw_env, lambda **kw: gym.make("goldrush_env:Gold-v1", **kw),
                 lambda **kw: goldrush_env.gold.GoldVectorEnv(2, **kw)):
        with pytest.raises(UnknownOptionError, match="got an unexpected keyword argument 'frameskip'") as caught:
            make(frameskip=4)
        assert isinstance(caught.value, TypeError) and isinstance(caught.value, GoldrushEnvError)
        assert "the options are ['num_players'" in str(caught.value)


def test_torchrls_gymenv_makes_the_registered_id():
    pytest.importorskip("torchrl")
    from torchrl.envs import GymEnv

    env = GymEnv("goldrush_env:Gold-v1", action="positions", observation="pairs", categorical_action_encoding=True)
    # TorchRL's rollout draws actions from the whole action space, so one may name a card already taken: that ends
    # the episode (illegal_action="terminate"), in about 3 rollouts of 100. Going on past it keeps the length.
    data = env.rollout(3, break_when_any_done=False)
    assert data["observation"].shape == (3, OBSERVATION_TYPES["pairs"].size)  # the option reached it
