"""PettingZoo's standard checks for classic games, in one wrapper layer.

PettingZoo wraps every classic game's ``env()`` in three layers:
``TerminateIllegalWrapper`` (an illegal move ends the game: the mover gets
the illegal reward, everyone else 0), ``AssertOutOfBoundsWrapper`` (an action
outside the action space fails an assertion) and ``OrderEnforcingWrapper``
(nothing may be used before ``reset()``). Each layer forwards every attribute
read (``agent_selection``, ``terminations``, ``rewards`` ...) to the layer
below through ``__getattr__``, and a step of a learner's loop reads dozens of
them: for Gold, whose own step is cheap, the three layers cost about twice
the game itself (``python benchmarks/bench.py`` profiles an ``env()`` step).

:class:`ClassicChecks` makes the same checks in one layer and reads the
environment's attributes directly. It is an ``OrderEnforcingWrapper``, so
``agent_iter()`` and ``isinstance`` tests behave as with the standard chain;
``tests/test_wrappers.py`` plays the two side by side, illegal moves and
misuse included, and compares everything they return.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

_BEFORE_RESET = frozenset({"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents",
                           "agents"})


def _forwarded(name: str) -> property:
    """A read-only attribute of the wrapped environment, refused before ``reset()``."""

    def read(self: "ClassicChecks") -> Any:
        if not self._has_reset and name in _BEFORE_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    return property(read, doc=f"The wrapped environment's ``{name}``.")


class ClassicChecks(OrderEnforcingWrapper):
    """Order enforcing, action bounds and illegal-move termination around ``env``.

    ``env`` must have a ``Discrete`` action space and ``is_legal(action)``,
    whether the agent to play may take ``action`` now, as
    :class:`goldrush_env.gold.aec.raw_env` has: that is the entry of the action
    mask ``TerminateIllegalWrapper`` would read from the observation.
    """

    def __init__(self, env: AECEnv, illegal_reward: float = -1) -> None:
        super().__init__(env)
        self._raw = env
        self._illegal_value = illegal_reward
        self._terminated = False  # ended by an illegal move
        self._num_actions = int(env.action_space(env.possible_agents[0]).n)

    agents = _forwarded("agents")
    agent_selection = _forwarded("agent_selection")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")
    possible_agents = _forwarded("possible_agents")

    @property
    def num_agents(self) -> int:
        if not self._has_reset:
            raise AttributeError("num_agents cannot be accessed before reset")
        return len(self._raw.agents)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._terminated = False
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection  # refused before reset, as by the standard chain
        raw = self._raw
        observation = raw.observe(agent) if observe else None
        return (observation, raw._cumulative_rewards[agent], raw.terminations[agent], raw.truncations[agent],
                raw.infos[agent])

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        raw = self._raw
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        # AssertOutOfBoundsWrapper: None only for a dead agent, otherwise an action of the space.
        in_bounds = (type(action) is int and 0 <= action < self._num_actions) \
            or raw.action_space(agent).contains(action)
        assert (action is None and dead) or in_bounds, "action is not in action space"
        if self._terminated and dead:
            raw._was_dead_step(action)
        elif not dead and not raw.is_legal(action):
            # TerminateIllegalWrapper: the game ends, the mover gets the illegal reward.
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.truncations, 0)
            raw.rewards[agent] = float(self._illegal_value)
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._terminated = True
        else:
            raw.step(action)

    def __str__(self) -> str:
        return str(self._raw)
