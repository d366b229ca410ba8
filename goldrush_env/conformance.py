"""The checks a game must pass to plug in, for the author of a game package to run on their own (as pgx offers its
``api_test``): ``check_game("nim")`` plays the game through its rules, its environments and its ids, and raises
an ``AssertionError`` that says what a game must do wherever it does not.

Each check is also a function of its own, taking the game's :class:`~goldrush_env.games.GameSpec`:

* :func:`check_rules`: the game protocol (:class:`goldrush_env.protocol.Rules`) at every number of players: whole
  random games end with a result, records are plain JSON that replay, copies are independent, ``known_to`` refuses
  a seat that is not at the table, any seat may start (``new(num_players, seed, first_player=seat)``);
* :func:`check_determinism`: a seed deals the same game, and an illegal action (out of range, or one the rules
  forbid now) raises the rules' :class:`~goldrush_env.errors.GoldrushEnvError` and changes nothing;
* :func:`check_observations`: ``observe(known)`` is a flat float32 vector of one fixed length, its values in
  [0, 1], at every step and every number of players (the environments' observation space is made from it);
* :func:`check_environments`: PettingZoo's ``api_test`` and ``seed_test`` on the game's AEC environment at every
  number of players, its PettingZoo id, and Gymnasium's checker on each of its Gymnasium ids.

The test suite runs ``check_game`` on every game of the registry (``tests/test_games.py``), the plug-ins of
``tests/plugins/`` among them.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.games import GameSpec, spec
from goldrush_env.protocol import Result, Rules

MAX_STEPS = 100_000
"""A random game that has not ended after this many actions is taken not to end."""


def _spec(game: str | GameSpec) -> GameSpec:
    return game if isinstance(game, GameSpec) else spec(game)


def random_game(game: str | GameSpec, num_players: int, seed: int, visit: Any = None) -> tuple[Rules, int]:
    """A whole game played at random through the rules alone; ``visit(game)``, if given, is called before every
    action and at the end. Returns the game and the actions taken."""
    rules = _spec(game).load("rules")
    state = rules.new(num_players, seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not state.is_finished:
        if visit is not None:
            visit(state)
        mask = state.legal_mask()
        assert mask.dtype == bool and mask.ndim == 1, f"legal_mask() must be a 1-d bool array, got {mask.dtype}"
        assert mask.any(), f"a game in play must have a legal action (turn {state.turn})"
        state.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        assert steps < MAX_STEPS, f"a random game took {MAX_STEPS:,} actions without ending"
    if visit is not None:
        visit(state)
    return state, steps


def check_rules(game: str | GameSpec) -> None:
    """The game protocol at every number of players (the module docstring)."""
    game = _spec(game)
    for num_players in range(game.min_players, game.max_players + 1):
        state, steps = random_game(game, num_players, seed=num_players)
        assert isinstance(state, Rules), f"{type(state).__name__} lacks a part of goldrush_env.protocol.Rules"
        assert state.num_players == num_players, f"num_players is {state.num_players}, not {num_players}"
        assert steps >= state.turn > 0, f"turn must count the moves made ({steps}), got {state.turn}"
        result = state.result()
        assert isinstance(result, Result), f"result() must be a goldrush_env.protocol.Result, got {result!r}"
        assert len(result.scores) == len(result.tiebreak) == num_players, f"one score a seat: {result}"
        assert result.winners and all(result.scores[s] == max(result.scores) for s in result.winners), \
            f"the winners must be among the highest scores: {result}"
        assert state.is_over or state.is_truncated, "is_finished must mean is_over or is_truncated"
        for first in range(num_players):  # tournaments rotate the start
            started = type(state).new(num_players, 5, first_player=first).current_player
            assert started == first, f"new(..., first_player={first}) must let seat {first} start, got {started}"
        again = type(state).from_record(json.loads(json.dumps(state.to_record())))
        assert again.result() == result and again.is_finished, "from_record(to_record()) must replay the game"
        copy = state.copy()
        assert copy is not state and copy.result() == result, "copy() must give an equal, separate game"
        try:
            state.known_to(num_players)
        except GoldrushEnvError:
            pass
        else:
            raise AssertionError(f"known_to({num_players}) must raise GoldrushEnvError: no such seat")
        fresh = type(state).new(num_players, 5)
        before, copy = fresh.to_record(), fresh.copy()
        copy.step(int(np.flatnonzero(copy.legal_mask())[0]))
        assert fresh.to_record() == before, "a step of a copy() must leave the original as it was"


def check_determinism(game: str | GameSpec) -> None:
    """The same seed deals the same game; an illegal action raises GoldrushEnvError and changes nothing."""
    game = _spec(game)
    rules = game.load("rules")
    first, second = (rules.new(game.default_players, 7) for _ in range(2))
    assert first.to_record() == second.to_record(), "new(num_players, seed) must deal the same game for one seed"
    first.step(int(np.flatnonzero(first.legal_mask())[0]))
    mask = first.legal_mask()
    refused = [len(mask), -1, *np.flatnonzero(~mask)[:1].tolist()]  # out of range, and one the rules forbid now
    before = first.to_record()
    for action in refused:
        try:
            first.step(action)
        except GoldrushEnvError:
            pass
        else:
            raise AssertionError(f"step({action}) must raise GoldrushEnvError: it is not legal now")
        assert first.to_record() == before, f"the refused step({action}) changed the game"


def check_observations(game: str | GameSpec) -> None:
    """``observe(known)``: one fixed length, float32, values in [0, 1], for every seat at every step."""
    game = _spec(game)
    if not game.observe:
        return  # a game with environments of its own observes there
    observe = game.load("observe")
    lengths: set[int] = set()

    def visit(state: Rules) -> None:
        for seat in range(state.num_players):
            vector = np.asarray(observe(state.known_to(seat)))
            assert vector.ndim == 1 and vector.dtype == np.float32, \
                f"observe() must give a flat float32 vector, got shape {vector.shape} and dtype {vector.dtype}"
            assert ((vector >= 0) & (vector <= 1)).all(), "observe()'s values must lie in [0, 1]"
            lengths.add(len(vector))

    for num_players in range(game.min_players, game.max_players + 1):
        random_game(game, num_players, seed=11 + num_players, visit=visit)
    assert len(lengths) == 1, f"observe() must give one length at every step and number of players, got {lengths}"


def check_environments(game: str | GameSpec, cycles: int = 100) -> None:
    """PettingZoo's and Gymnasium's own checks on the game's environments and ids."""
    import gymnasium
    import pettingzoo
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test

    game = _spec(game)
    for num_players in range(game.min_players, game.max_players + 1):
        api_test(game.env(num_players=num_players), num_cycles=cycles)
        seed_test(lambda **options: game.env(num_players=num_players, **options), num_cycles=cycles)
        made = pettingzoo.make("aec", game.pettingzoo_id or f"goldrush_env/{game.name}-v0", num_players=num_players)
        made.reset(seed=0)
        assert made.num_agents == num_players, f"the PettingZoo id made {made.num_agents} agents, not {num_players}"
    for gym_id in game.gym_ids:
        env = gymnasium.make(gym_id)
        env.unwrapped.action_space.seed(0)  # the checker steps with samples of the whole space: the same ones always
        with warnings.catch_warnings():  # an illegal sample ends its episode, with a notice that is no finding here
            warnings.filterwarnings("ignore", message=".*illegal action ends the episode")
            check_env(env.unwrapped, skip_render_check=True)
        _, info = env.reset(seed=1)
        assert info["action_mask"].any(), f"{gym_id}'s reset must give a mask with a legal action"


def check_game(game: str | GameSpec, cycles: int = 100) -> None:
    """Every check of this module on ``game`` (a name in the registry, or a spec)."""
    game = _spec(game)
    check_rules(game)
    check_determinism(game)
    check_observations(game)
    check_environments(game, cycles)


__all__ = ["check_determinism", "check_environments", "check_game", "check_observations", "check_rules",
           "random_game"]
