"""goldrush_agents.gold.ensemble: several trained models played as one."""

import numpy as np
import pytest

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.aec import raw_env

from goldrush_agents import make_agent
from goldrush_agents.gold.ensemble import Ensemble
from goldrush_agents.gold.trained import SHIPPED_MODEL


def views(games=3):
    """Views of every decision in a few games of greedy against itself."""
    out = []
    for seed in range(games):
        env = raw_env(num_players=2)
        env.reset(seed=seed)
        player = make_agent("greedy", seed=seed)
        while not env.game.is_finished:
            view = env.view(env.game.current_player)
            out.append(view)
            env.step_from_view(player.act(view))
    return out


def test_an_ensemble_of_copies_of_one_model_plays_that_model():
    alone = make_agent("taught")
    twice = make_agent(f"goldrush_agents.gold.ensemble:Ensemble[models={SHIPPED_MODEL}+{SHIPPED_MODEL}]")
    seen = views()
    obs = np.stack([v.observation for v in seen])
    masks = np.stack([v.action_mask for v in seen]).astype(bool)
    played = twice.act_batch(obs, masks)
    assert masks[np.arange(len(seen)), played].all()
    np.testing.assert_array_equal(played, alone.act_batch(obs, masks))


def test_an_ensemble_needs_models():
    with pytest.raises(GoldrushEnvError, match=r"needs model files separated by '\+', got '\+'"):
        Ensemble("+")
    with pytest.raises(GoldrushEnvError, match="no legal position"):
        Ensemble(str(SHIPPED_MODEL)).act_batch(np.zeros((1, views(1)[0].observation.size)), np.zeros((1, 64), bool))
