"""The global state of a game of Gold as one flat vector: the whole truth, for centralised critics.

:meth:`goldrush_env.gold.aec.raw_env.state` returns it and ``state_space`` is its
:class:`~gymnasium.spaces.Box`. Unlike an observation it is not any seat's
view: every card on the table is shown, seats are absolute (seat 0 is
``player_0``) and miners keep their colours, with the colours' owners given
alongside; what each seat knows (its memory) is included, so a critic can
judge what the players can act on. It is meant for training only (a
centralised critic, MAPPO-style); a policy that reads it at play time cheats.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from gymnasium import spaces

from goldrush_env.gold.cards import EMPTY, MAX_PLAYERS, NUM_CARD_TYPES, NUM_COLOURS, NUM_POSITIONS, TOTAL_GOLD
from goldrush_env.gold.encoder import MAX_GOLD_CARDS
from goldrush_env.layout import markdown_table, slices_of

STATE_LAYOUT: tuple[tuple[str, tuple[int, ...], str], ...] = (
    ("cards", (NUM_CARD_TYPES + 1, NUM_POSITIONS),
     "one-hot per position: plane 0 where it holds no card, plane 1 + c where card id c lies "
     "(`goldrush_env.gold.cards`: `G1`..`G4`, `D`, then `M<colour><value>`), face down or up"),
    ("face_up", (NUM_POSITIONS,), "1 at the face-up first card of the current turn"),
    ("known", (MAX_PLAYERS, NUM_POSITIONS), "per seat: 1 where that seat sees or remembers the card (0 for seats "
                                            "not in the game)"),
    ("colour_owner", (NUM_COLOURS, MAX_PLAYERS + 1), "per miner colour, one-hot: the seat owning it, or unowned "
                                                      "(last column)"),
    ("scores", (MAX_PLAYERS,), "points per seat / 60"),
    ("gold_cards", (MAX_PLAYERS,), "gold cards per seat / 24"),
    ("seats", (MAX_PLAYERS,), "1 for each seat in the game"),
    ("to_play", (MAX_PLAYERS,), "the seat to flip (all 0 once the game has ended)"),
    ("phase", (3,), "one-hot: first flip of a normal turn, second flip, rush flip (all 0 once ended)"),
    ("cards_left", (1,), "cards on the table / 64"),
    ("turn", (1,), "completed turns / turn limit (0 without a limit)"),
)
"""The state vector's named slices, in order: (name, shape, meaning)."""

STATE_SLICES: dict[str, slice] = slices_of(STATE_LAYOUT)
STATE_SIZE: int = STATE_SLICES[STATE_LAYOUT[-1][0]].stop


def state_box() -> spaces.Box:
    """The space of the state vector: float32 values in [0, 1]."""
    return spaces.Box(0.0, 1.0, (STATE_SIZE,), np.float32)


def state_index_table() -> str:
    """The state vector's layout as a Markdown table (it is in the AEC env's docstring)."""
    return markdown_table(STATE_LAYOUT, STATE_SLICES)


def state_vector(table: Sequence[int], face_up: int | None, known: Sequence[Sequence[bool]],
                 owners: Sequence[int], scores: Sequence[int], gold_cards: Sequence[int], to_play: int | None,
                 phase: int | None, cards_left: int, turn: int, max_turns: int | None) -> np.ndarray:
    """The state vector of a game (see :data:`STATE_LAYOUT`): ``table`` holds the card id at each position
    (``EMPTY`` where none); ``known[seat][p]`` whether that seat knows the card at ``p``; ``owners[c]`` the
    seat owning colour ``c`` (-1: unowned); ``to_play`` and ``phase`` are None once the game has ended."""
    out = np.zeros(STATE_SIZE, dtype=np.float32)
    cards = np.asarray(table, dtype=np.int64)
    planes = out[STATE_SLICES["cards"]].reshape(NUM_CARD_TYPES + 1, NUM_POSITIONS)
    planes[np.where(cards == EMPTY, 0, cards + 1), np.arange(NUM_POSITIONS)] = 1.0
    if face_up is not None:
        out[STATE_SLICES["face_up"].start + face_up] = 1.0
    n = len(scores)
    seen = out[STATE_SLICES["known"]].reshape(MAX_PLAYERS, NUM_POSITIONS)
    seen[:n] = np.asarray(known, dtype=bool) & (cards != EMPTY)
    owner_planes = out[STATE_SLICES["colour_owner"]].reshape(NUM_COLOURS, MAX_PLAYERS + 1)
    owner_planes[np.arange(NUM_COLOURS), [MAX_PLAYERS if o < 0 else o for o in owners]] = 1.0
    for name, values, scale in (("scores", scores, TOTAL_GOLD), ("gold_cards", gold_cards, MAX_GOLD_CARDS)):
        start = STATE_SLICES[name].start
        out[start: start + n] = np.asarray(values, dtype=np.float32) / scale
    out[STATE_SLICES["seats"].start: STATE_SLICES["seats"].start + n] = 1.0
    if to_play is not None:
        out[STATE_SLICES["to_play"].start + to_play] = 1.0
    if phase is not None:
        out[STATE_SLICES["phase"].start + phase] = 1.0
    out[STATE_SLICES["cards_left"].start] = cards_left / NUM_POSITIONS
    out[STATE_SLICES["turn"].start] = turn / max_turns if max_turns else 0.0
    return out
