"""Privacy by non-interference, for Gold: what a seat has not seen cannot change what it observes (Gold Rush's:
tests/piecepack/test_piecepack_noninterference.py).

These tests do not ask the environment what a seat knows. They deal a table,
play some turns, then deal it again with the cards no flip has shown yet
shuffled among their places (the same cards, elsewhere), replay the same
turns and require every seat to observe exactly the same: observation
vector, legal mask and view. Any way a hidden card reaches an observation
(written in at reset, revealed with a neighbour, counted where it lies) makes
some shuffle change it.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import goldrush_env
import goldrush_env.gold
from goldrush_env.gold.cards import EMPTY
from conftest import POSITIONS


def _play(options: dict, layout: list[int], seed: int, actions: list[int]):
    env = goldrush_env.gold.raw_env(**options)
    env.reset(seed=seed, options={"layout": layout})
    for action in actions:
        env.step(action)
    return env


def _seen_by_seats(env) -> dict[str, tuple]:
    """Everything each seat is given: observation, mask and view (its fields, arrays as lists)."""
    seen = {}
    for agent in env.possible_agents:
        observed = env.observe(agent)
        view = dataclasses.asdict(env.view(agent))
        seen[agent] = (observed["observation"].tolist(), observed["action_mask"].tolist(),
                       {key: value.tolist() if isinstance(value, np.ndarray) else value for key, value in view.items()})
    return seen


def _random_turns(options: dict, seed: int, rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """A dealt table and the flips of one random game on it."""
    dealer = goldrush_env.gold.raw_env(**options)
    dealer.reset(seed=seed)
    layout, actions = list(dealer.game.table), []
    env = _play(options, layout, seed, [])  # dealt as the replays are, so that kinds draw the same positions
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        action = int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection))))
        actions.append(action)
        env.step(action)
    return layout, actions


OPTIONS = [
    {"num_players": 2, **POSITIONS},
    {"num_players": 3, "memory": "human", **POSITIONS},
    {"num_players": 4, "action": "positions", "observation": "pairs"},
    {"num_players": 5, "memory": "human", "action": "positions", "observation": "pairs"},
    {"num_players": 2, "table": "half", **POSITIONS},
    {"num_players": 3, "table": "quarter", "memory": "human", **POSITIONS},
    {"num_players": 2, "action": "kinds", "observation": "kinds"},
    {"num_players": 3, "memory": "human", "action": "kinds", "observation": "kinds"},
    {"num_players": 4, "action": "kinds", "observation": "pairs"},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_cards_never_shown_do_not_change_what_any_seat_observes(options):
    rng = np.random.default_rng(len(options) * 7 + options["num_players"])
    checked = 0
    for game in range(3):
        seed = 100 * game + options["num_players"]
        layout, actions = _random_turns(options, seed, rng)
        for turns in sorted({0, 1, 7, len(actions) // 3, len(actions) // 2, len(actions) - 1}):
            env = _play(options, layout, seed, actions[:turns])
            shown = {event.position for event in env.game.history}  # the actions may be kinds, not positions
            hidden = [p for p, card in enumerate(layout) if card != EMPTY and p not in shown]
            cards = [layout[p] for p in hidden]
            if len(set(cards)) < 2:
                continue  # nothing to shuffle that would change a card
            for _ in range(2):
                shuffled = list(layout)
                for position, card in zip(hidden, rng.permutation(cards)):
                    shuffled[position] = int(card)
                if shuffled == layout:
                    continue
                twin = _play(options, shuffled, seed, actions[:turns])
                assert _seen_by_seats(twin) == _seen_by_seats(env), (game, turns)
                checked += 1
    assert checked >= 20


def test_the_check_sees_a_hidden_card_that_leaks():
    """The test's own power: an observation that also showed one face-down card (the lowest-numbered one, as a
    leak at reset would) differs between shuffles of the hidden cards."""
    options = {"num_players": 2, **POSITIONS}  # the actions are the positions flipped
    layout, actions = _random_turns(options, 5, np.random.default_rng(5))

    hidden = [p for p, card in enumerate(layout) if card != EMPTY and p not in set(actions[:3])]

    def leaky(env):
        return {agent: (*value, env.game.table[hidden[0]]) for agent, value in _seen_by_seats(env).items()}

    env = _play(options, layout, 5, actions[:3])
    swapped = list(layout)
    first, other = hidden[0], next(p for p in hidden if layout[p] != layout[hidden[0]])
    swapped[first], swapped[other] = layout[other], layout[first]
    twin = _play(options, swapped, 5, actions[:3])
    assert _seen_by_seats(twin) == _seen_by_seats(env) and leaky(twin) != leaky(env)
