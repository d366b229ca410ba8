"""Players of *Gold* (``goldrush_env.gold``), from random to a tree search and trained models.

Each follows the policy protocol: ``reset(seed=None)`` and ``act(view) -> int``, reading the
:class:`~goldrush_env.policy.SeatView` of its seat (what it sees and remembers) and returning a position to
flip. ``goldrush_agents.make_agent("greedy", seed=1)`` builds one by name (Gold is the default game).

* ``random``, ``greedy``, ``expert``: scripted players (:mod:`~goldrush_agents.gold.random_agent`,
  :mod:`~goldrush_agents.gold.greedy`, :mod:`~goldrush_agents.gold.expert`), weakest first;
* ``ismcts``: determinized Monte-Carlo tree search (:mod:`~goldrush_agents.gold.search`);
* ``taught``: the shipped model for the game's number of players, 2 to 5, trained with a teacher, and
  ``scratch``, learned with none (:mod:`~goldrush_agents.gold.trained`); a ``.npz`` or MaskablePPO ``.zip`` plays by
  its path.

:mod:`~goldrush_agents.gold.batched` plays many games at once on the batched engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goldrush_agents.gold.expert import ExpertAgent
from goldrush_agents.gold.greedy import GreedyAgent
from goldrush_agents.gold.random_agent import RandomAgent
from goldrush_agents.gold.optimal import OptimalAgent
from goldrush_agents.gold.search import ISMCTSAgent
from goldrush_agents.gold.selfplay import SelfPlayAgent
from goldrush_agents.gold.trained import ModelSizeWarning, Shipped, TrainedPolicy, shipped_model

AGENTS: dict[str, Callable[..., Any]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "expert": ExpertAgent,
    "ismcts": ISMCTSAgent,
    "selfplay": SelfPlayAgent,
    "optimal": OptimalAgent,
}
"""The scripted players by name, weakest first (the ladder in ``docs/agents.md`` measures each against the one
below it)."""
OPPONENTS = ("random", "greedy", "expert")
"""What a model is measured against by default, weakest first; a person plays ``expert`` unless told otherwise."""
MODELS: dict[str, Shipped] = {"taught": Shipped("taught"), "scratch": Shipped("scratch")}
"""The shipped models by name, each the model of the game's number of players (:func:`shipped_model`, chosen game
by game): ``taught``, trained with a teacher, and ``scratch``, learned with none."""
MODEL_FILES = (".npz", ".zip")
"""Model files this game's trained player reads (a ``.zip`` is a MaskablePPO checkpoint, read with torch)."""
model = TrainedPolicy
"""The trained player: ``model(path, seed=..., deterministic=..., choose=...)``."""


def play_batched(*args: Any, **kwargs: Any) -> Any:
    """A tournament's games all at once on the batched engine (:func:`goldrush_agents.gold.batched.play_fixtures`)."""
    from goldrush_agents.gold.batched import play_fixtures

    return play_fixtures(*args, **kwargs)


__all__ = ["AGENTS", "OPPONENTS", "MODELS", "MODEL_FILES", "model", "play_batched", "RandomAgent", "GreedyAgent",
           "ExpertAgent",
           "ISMCTSAgent", "TrainedPolicy", "ModelSizeWarning", "Shipped", "shipped_model"]
