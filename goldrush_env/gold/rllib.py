"""Gold for Ray RLlib: a ``MultiAgentEnv`` over the AEC environment, and the PPO settings for self-play.

    from goldrush_env.gold.rllib import ppo_config
    algo = ppo_config({"num_players": 2, "reward": "score"}).env_runners(num_env_runners=2).build_algo()
    algo.train()

RLlib cannot take the AEC environment as it is: its default network has no
encoder for PettingZoo's ``{"observation", "action_mask"}`` dict, and its
action-masking module (``ActionMaskingTorchRLModule``, of RLlib's examples)
reads the keys ``observations`` and ``action_mask``, the mask as floats.
:class:`GoldMultiAgentEnv` renames the key and casts the mask, and
turns the AEC cycle into RLlib's turn-based multi-agent steps:

* only the agent to play receives an observation (two steps in a row in a
  normal turn, one in the rush), so RLlib asks only it for an action;
* a reward that reaches an agent while another plays (``reward="score"``:
  a flip of someone else's miner; ``"win"``: the end) is kept and handed
  over with that agent's next observation, as PettingZoo's ``last()`` does;
* when the game ends (``terminateds``) or reaches the turn limit
  (``truncateds``), every agent receives its last observation and all
  that is still owed to it, with ``"__all__"`` set.

An agent's rewards therefore add up to what the AEC environment paid it.
Rewards paid before an agent's first observation (an opponent striking its
miner on the first turn) come with that observation; RLlib counts them in
the episode's return, not in any of the agent's steps, since no action of
that agent earned them.

:func:`ppo_config` builds RLlib's (new API stack) ``PPOConfig`` on this
environment with one policy, ``"shared"``, for every seat (self-play) and the
action-masking module; the pieces are also here on their own
(:func:`multi_agent_kwargs`, :func:`module_spec`). It turns off RLlib's check
of a new environment, which steps an action drawn from the action space with
no regard to the mask: this environment refuses an illegal flip, and with
``action="kinds"`` (the default) most kinds are illegal at the first flip. A
config built by hand needs ``.environment(..., disable_env_checking=True)`` too. The module's network is
RLlib's default MLP (tanh layers, a linear policy head), which
``examples/rllib_ppo.py`` (a script of the repository, not installed) exports to a numpy model file that
``goldrush_agents.gold.trained.TrainedPolicy`` plays. This module imports ray; the
package does not import it.
"""

from __future__ import annotations

import logging
from typing import Any, Mapping

import numpy as np
from gymnasium import spaces


class _RLlibsOwnNotices(logging.Filter):
    """Three warnings RLlib prints on every run of this module, none of which a user can act on: RLlib's
    ``ActionMaskingTorchRLModule`` (in ``ray.rllib.examples``) is built on two classes RLlib itself has deprecated,
    and RLlib announces that PPO runs on its new API stack, its default, which this module asks for. They are
    dropped by their text; every other warning still shows."""

    NOTICES = ("`ray.rllib.algorithms.ppo.torch.ppo_torch_rl_module.PPOTorchRLModule` has been deprecated",
               "`RLModule(config=[RLModuleConfig object])` has been deprecated",
               "You are running PPO on the new API stack! This is the new default behavior")

    def filter(self, record: logging.LogRecord) -> bool:
        return not any(text in record.getMessage() for text in self.NOTICES)


for _name in ("ray._common.deprecation", "ray.rllib.algorithms.algorithm_config"):
    logging.getLogger(_name).addFilter(_RLlibsOwnNotices())

from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402  (after the filter: the import itself warns)
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402
from ray.rllib.env.multi_agent_env import MultiAgentEnv  # noqa: E402
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule  # noqa: E402

from goldrush_env.gold.aec import raw_env
from goldrush_env.gold.config import EnvConfig
from goldrush_env.errors import GoldrushEnvError

POLICY = "shared"
"""The id of the one policy (RLModule) every seat plays."""

MODEL_CONFIG = {"fcnet_hiddens": [256, 256], "fcnet_activation": "tanh", "head_fcnet_hiddens": [],
                "vf_share_layers": True}
"""The network: RLlib's default MLP, written out so that a change of RLlib's defaults does not change it (the
export to numpy reads exactly this shape: tanh layers, then one linear layer to the logits)."""


class GoldMultiAgentEnv(MultiAgentEnv):
    """The Gold AEC environment as an RLlib ``MultiAgentEnv`` (see the module docstring).

    ``config`` holds the environment's options (:class:`goldrush_env.gold.config.EnvConfig`: ``num_players``,
    ``table``, ``observation``, ``reward``, ``memory``...), as RLlib's ``env_config``; an unknown one is refused
    with :class:`~goldrush_env.errors.GoldrushEnvError`. Agents are ``player_0`` ... ``player_{n-1}``; every one has
    the observation space ``Dict(observations=Box(float32), action_mask=Box(0, 1, (64,), float32))`` and the
    action space ``Discrete(64)`` (with ``action="kinds"``: 30 and ``Discrete(30)``)."""

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.env = raw_env(**dict(config or {}))  # RLlib's EnvContext is a dict with extra attributes
        self.config = self.env.config
        self.possible_agents = list(self.env.possible_agents)
        self.agents = list(self.possible_agents)
        space = spaces.Dict({"observations": self.env.observation_type.space(),
                             "action_mask": spaces.Box(0.0, 1.0, (self.env.action_type.size,), np.float32)})
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: self.env.action_space(agent) for agent in self.possible_agents}
        self._owed = dict.fromkeys(self.possible_agents, 0.0)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """A new deal (``seed``, ``options``: as the AEC environment's ``reset``); the observation of the agent to
        play."""
        self.env.reset(seed=seed, options=options)
        self._owed = dict.fromkeys(self.possible_agents, 0.0)
        agent = self.env.agent_selection
        return {agent: self.observe(agent)}, {agent: {}}

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Play the flip of the agent to play; return what the next one sees, or at the end what everyone does."""
        env = self.env
        agent = env.agent_selection
        if agent not in action_dict:
            raise GoldrushEnvError(f"it is {agent}'s turn, but the actions given are for {sorted(action_dict)}")
        env.step(int(action_dict[agent]))
        for name, reward in env.rewards.items():
            self._owed[name] += reward
        game = env.game
        if not game.is_finished:
            agent = env.agent_selection
            return {agent: self.observe(agent)}, {agent: self._pay(agent)}, {"__all__": False}, \
                {"__all__": False}, {}
        over = game.is_over  # else truncated by the turn limit
        everyone = self.possible_agents
        infos = {name: {"score": game.scores[seat], "winner": seat in game.winners}
                 for seat, name in enumerate(everyone)}
        return ({name: self.observe(name) for name in everyone}, {name: self._pay(name) for name in everyone},
                {**dict.fromkeys(everyone, over), "__all__": over},
                {**dict.fromkeys(everyone, not over), "__all__": not over}, infos)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` sees now: its observation vector and its legal flips as a float32 mask."""
        return {"observations": self.env.observe(agent)["observation"],
                "action_mask": self.env.action_mask(agent).astype(np.float32)}

    def _pay(self, agent: str) -> float:
        owed, self._owed[agent] = self._owed[agent], 0.0
        return owed

    def render(self) -> Any:
        return self.env.render()


def multi_agent_kwargs() -> dict[str, Any]:
    """``PPOConfig.multi_agent(**...)``: one policy, :data:`POLICY`, for every seat."""
    return {"policies": {POLICY}, "policy_mapping_fn": lambda agent_id, *args, **kwargs: POLICY}


def module_spec(model_config: Mapping[str, Any] | None = None) -> MultiRLModuleSpec:
    """``PPOConfig.rl_module(rl_module_spec=...)``: RLlib's ``ActionMaskingTorchRLModule`` as :data:`POLICY`, with
    :data:`MODEL_CONFIG` updated by ``model_config``."""
    return MultiRLModuleSpec(rl_module_specs={POLICY: RLModuleSpec(
        module_class=ActionMaskingTorchRLModule, model_config={**MODEL_CONFIG, **(model_config or {})})})


def ppo_config(env_config: Mapping[str, Any] | None = None, model_config: Mapping[str, Any] | None = None
               ) -> PPOConfig:
    """RLlib's ``PPOConfig`` (new API stack, torch) on :class:`GoldMultiAgentEnv` with ``env_config``, every
    seat played by the masked policy :data:`POLICY`. The options are checked here, before any worker starts
    (an unknown one raises :class:`~goldrush_env.errors.GoldrushEnvError`). Add ``.env_runners(...)``,
    ``.training(...)`` and so on, then ``.build_algo()``."""
    env_config = dict(env_config or {})
    EnvConfig.from_kwargs(**env_config)
    return (PPOConfig()
            .environment(GoldMultiAgentEnv, env_config=env_config, disable_env_checking=True)
            .multi_agent(**multi_agent_kwargs())
            .rl_module(rl_module_spec=module_spec(model_config)))


__all__ = ["GoldMultiAgentEnv", "ppo_config", "multi_agent_kwargs", "module_spec", "POLICY", "MODEL_CONFIG"]
