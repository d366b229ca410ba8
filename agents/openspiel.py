"""Our players as OpenSpiel bots, so that OpenSpiel's tools can rank them beside its own (docs/openspiel.md).

:class:`EntrantBot` seats any entrant that :func:`goldrush_agents.make_agent` makes (``"greedy"``, ``"taught"``,
``"search[rollouts=16]"``, a model file...) at one seat of a game loaded through :mod:`goldrush_env.openspiel`. It
acts from that seat's view of the state, ``state.position.env.view(seat)``, which holds what the seat knows and
nothing else, exactly as in our own tournaments.
"""

from __future__ import annotations

from typing import Any

import goldrush_env.openspiel  # noqa: F401  (registers our games, or says how to install OpenSpiel)
import pyspiel

from goldrush_agents import make_agent
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.policy import Policy


class EntrantBot(pyspiel.Bot):
    """``entrant`` (a name for :func:`~goldrush_agents.make_agent`, or a :class:`~goldrush_env.policy.Policy`)
    playing seat ``player_id`` of ``game``, an OpenSpiel game of :mod:`goldrush_env.openspiel`; ``seed`` seeds it."""

    def __init__(self, game: Any, player_id: int, entrant: str | Policy, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        spec = getattr(game, "spec", None)
        if spec is None:
            raise GoldrushEnvError(f"EntrantBot plays the games of goldrush_env.openspiel, got {game}")
        if not isinstance(player_id, int) or not 0 <= player_id < game.num_players():
            raise GoldrushEnvError(f"player_id must be a seat from 0 to {game.num_players() - 1}, got {player_id!r}")
        self.player_id = player_id
        self.seed = seed
        self.policy = make_agent(entrant, seed=seed, game=spec.name) if isinstance(entrant, str) else entrant
        self.name = entrant if isinstance(entrant, str) else getattr(entrant, "name", type(entrant).__name__)

    def step(self, state: Any) -> int:
        if state.current_player() != self.player_id:
            raise GoldrushEnvError(f"{self.name} plays seat {self.player_id}, but the state's player is "
                                   f"{state.current_player()}")
        return int(self.policy.act(state.position.env.view(self.player_id)))

    def restart_at(self, state: Any) -> None:
        self.policy.reset(seed=self.seed)

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to learn: the next view says what happened."""

    def provides_policy(self) -> bool:
        return False


def play_out(state: Any, bots: list[Any], chance: Any) -> Any:
    """Play ``state`` to its end: each seat's move from its bot (``bots[seat].step(state)``), each chance outcome
    drawn with its probability from ``chance``, a ``numpy.random.Generator``. Returns the final state."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(chance.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return state


__all__ = ["EntrantBot", "play_out"]
