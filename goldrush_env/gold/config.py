"""The options of Gold's environments, declared once.

:class:`EnvConfig` is the single source of defaults for the PettingZoo
environment, the Gymnasium environment and the ids they are registered
under: each of them builds its config with :meth:`EnvConfig.from_kwargs`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from goldrush_env.checks import is_int, is_number
from goldrush_env.gold.cards import DEFAULT_MAX_TURNS, MAX_PLAYERS, MIN_PLAYERS, TABLES
from goldrush_env.gold.variants import ACTION_TYPES, OBSERVATION_TYPES
from goldrush_env.options import RENDER_MODES, REWARDS, Options

MEMORIES = ("perfect", "human")
RENDER_VIEWS = ("active", "all")


@dataclass(frozen=True)
class EnvConfig(Options):
    """Options of a game environment. Every field has the default used everywhere."""

    num_players: int = 2
    """Seats at the table, 2 to 5."""
    table: str = "full"
    """The table dealt: ``"full"``, the game's 64 cards; ``"half"`` (32 cards) or ``"quarter"`` (16), smaller
    boxes in about the same proportions on the first rows of the grid, with the rush at 5 and 3 cards
    (:data:`goldrush_env.gold.cards.TABLES`). The spaces are the same for every table."""
    observation: str = "kinds"
    """A name of :data:`goldrush_env.gold.variants.OBSERVATION_TYPES`. ``"plain"``: the vector of
    :mod:`goldrush_env.gold.aec`'s index table. ``"pairs"``: the same vector followed by two planes that tell, at
    each card the seat knows, the gold it would gain (or give away) by turning that card with another it knows, and
    with the face-up card (:data:`goldrush_env.gold.variants.PAIR_LAYOUT`): read off what the seat knows, for
    networks that cannot relate two positions on their own. ``"kinds"``: a short vector about kinds of card rather
    than positions (:data:`goldrush_env.gold.variants.KINDS_LAYOUT`), for ``action="kinds"`` only."""
    action: str = "kinds"
    """A name of :data:`goldrush_env.gold.variants.ACTION_TYPES`. ``"positions"``: an action is the position to
    flip (``Discrete(64)``). ``"kinds"``: an action is a kind of card, "turn a card I know of this category" or
    "turn a card I do not know" (``Discrete(30)``); the environment picks the position among those that realise it
    with its seeded generator."""
    reward: str = "score"
    """``"win"``: at the end, +1 to a sole winner, 0 to each of several
    co-winners, -1 to every other seat. ``"score"``: each flip, a seat earns
    (its gold gained - the mean gold gained by the others) / 10."""
    memory: str = "perfect"
    """``"perfect"``: every seat remembers every card revealed and still on the
    table. ``"human"``: seats forget (see ``forget_prob`` and ``memory_capacity``)."""
    forget_prob: float = 0.1
    """Human memory: chance per completed turn that a seat forgets a card it did not see that turn."""
    memory_capacity: int | None = 12
    """Human memory: the most card positions a seat holds at once (``None``: no cap)."""
    max_turns: int | None = DEFAULT_MAX_TURNS
    """Turn limit (D4): the game is truncated after this many turns (``None``: no limit)."""
    render_mode: str | None = None
    """``"ansi"``, ``"rgb_array"``, ``"human"`` (the picture in a pygame window, drawn as the game is played) or ``None``."""
    render_view: str | int = "active"
    """Whose memory a rendering shows: ``"active"`` (the seat to play), a seat
    number, or ``"all"`` (every card face up, for debugging)."""

    def __post_init__(self) -> None:
        refuse = self.refuse
        if not is_int(self.num_players, MIN_PLAYERS, MAX_PLAYERS):
            refuse("num_players", f"an int from {MIN_PLAYERS} to {MAX_PLAYERS}")
        if self.table not in TABLES:
            refuse("table", f"one of {tuple(TABLES)}")
        if self.observation not in OBSERVATION_TYPES:
            refuse("observation", f"one of {tuple(OBSERVATION_TYPES)}")
        if self.action not in ACTION_TYPES:
            refuse("action", f"one of {tuple(ACTION_TYPES)}")
        if not OBSERVATION_TYPES[self.observation].positional and ACTION_TYPES[self.action].positional:
            refuse("observation", f"{_names(OBSERVATION_TYPES, True)} with action={self.action!r}: the "
                   f"{self.observation!r} observation says nothing about positions (use it with "
                   f"action={_names(ACTION_TYPES, False)})")
        if self.reward not in REWARDS:
            refuse("reward", f"one of {REWARDS}")
        if self.memory not in MEMORIES:
            refuse("memory", f"one of {MEMORIES}")
        if not is_number(self.forget_prob, 0, 1):
            refuse("forget_prob", "a probability from 0 to 1")
        if self.memory_capacity is not None and not is_int(self.memory_capacity, 0):
            refuse("memory_capacity", "None or an int >= 0")
        if self.max_turns is not None and not is_int(self.max_turns, 1):
            refuse("max_turns", "None or an int >= 1")
        if self.render_mode is not None and self.render_mode not in RENDER_MODES:
            refuse("render_mode", f"None or one of {RENDER_MODES}")
        if not (self.render_view in RENDER_VIEWS or is_int(self.render_view, 0, self.num_players - 1)):
            refuse("render_view", f"one of {RENDER_VIEWS} or a seat from 0 to {self.num_players - 1}")

    def replace(self, **changes: Any) -> "EnvConfig":
        return dataclasses.replace(self, **changes)


def _names(types: dict[str, Any], positional: bool) -> str:
    """``'plain' or 'pairs'``: the names of the registered types that do (or do not) speak of positions."""
    return " or ".join(repr(name) for name, kind in types.items() if kind.positional == positional)
