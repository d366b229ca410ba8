"""Gold Rush's search player and the sampled games it searches (``Game.sample``)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import numpy as np
import pytest

from goldrush_agents import make_agent
from goldrush_agents.arena import play_game
from goldrush_agents.piecepack import view_of
from goldrush_agents.piecepack.economist import PiecepackEconomist
from goldrush_agents.piecepack.idle import Idle
from goldrush_agents.piecepack.search import POLICIES, PiecepackSearch, builder_action, idle_action, outcome
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.components import NUM_PLOTS, WAREHOUSE
from goldrush_env.piecepack.engine import Game, Phase

from conftest import ROOT

CEILING = str(ROOT / "benchmarks" / "piecepack_ceiling.py")


def random_states(games: int, seed: int):
    """(game, seat) at random points of random games of 3 and 4 players."""
    rng = np.random.default_rng(seed)
    for g in range(games):
        game = Game.new(3 + g % 2, seed + g)
        while not game.is_over:
            legal = np.flatnonzero(game.legal_mask())
            game.step(int(legal[rng.integers(len(legal))]))
            if not game.is_over and rng.random() < 0.2:
                yield game, int(rng.integers(game.num_players))


def test_a_sampled_game_agrees_with_everything_the_seat_knows_and_plays_on():
    checked = differs = 0
    for game, seat in random_states(12, 0):
        known = game.known_to(seat)
        sample = Game.sample(known, np.random.default_rng(checked))
        assert sample.known_to(seat) == known
        assert sample.public_state() == game.public_state()
        assert (sample.legal_mask() == game.legal_mask()).all()
        hidden = [p for p in range(NUM_PLOTS) if p not in known["identities"] and p not in known["face_up"]]
        differs += any(sample.tile(p) != game.tile(p) for p in hidden)
        while not sample.is_over:  # it plays on to the end by the rules, from any decision point
            sample.step(idle_action(sample))
        checked += 1
    assert checked > 100 and differs > checked // 2


def test_the_search_is_seeded_and_refuses_bad_options():
    game = Game.new(3, 5)
    while game.phase.value != "claim":
        game.step(idle_action(game))
    view = view_of(game, game.current_player)
    actions = {make_agent("search[rollouts=2]", game="piecepack", seed=7).act(view) for _ in range(3)}
    assert len(actions) == 1 and view.action_mask[actions.pop()]
    for spec, message in (("search[rollouts=0]", "rollouts must be an int from 1 to 256, got 0"),
                          ("search[policy='greedy']",
                           r"policy must be one of \['idle', 'builder', 'self', 'economist'\], got 'greedy'"),
                          ("search[score_weight=2]", "score_weight must be a number from 0 to 1, got 2"),
                          ("search[halvings=7]", "halvings must be an int from 0 to 6, got 7"),
                          ("search[halvings=True]", "halvings must be an int from 0 to 6, got True")):
        with pytest.raises(GoldrushEnvError, match=message):
            make_agent(spec, game="piecepack")


class _Scripted(PiecepackSearch):
    """A search whose rollouts are scripted: action a is worth a / 1000 in every sampled game; each is counted."""

    def _game(self, known, seed):
        return Game.new(3, seed % 1000)

    def _rollout(self, game, seat, action, seed):
        self.tried[action] = self.tried.get(action, 0) + 1
        return action / 1000


@pytest.mark.parametrize("halvings", [0, 1, 3])
def test_sequential_halving_plays_the_better_half_on_with_twice_the_games(halvings):
    game = Game.new(3, 5)
    while game.phase is not Phase.CLAIM:
        game.step(idle_action(game))
    view = view_of(game, game.current_player)
    legal = np.flatnonzero(view.action_mask)  # the free plots: 24 actions
    search = _Scripted(seed=1, rollouts=4, halvings=halvings)
    search.tried = {}
    assert search.act(view) == legal[-1]  # the best action survives every halving and is taken
    # Every action plays 4 games, the better half (rounded up) 4 more, the better half of those 8 more, and so on:
    # an action dropped after stage k has played 4 << k games in all.
    left, expected = len(legal), {}
    for stage in range(halvings + 1):
        for action in legal[len(legal) - left:]:
            expected[int(action)] = 4 << stage
        left = (left + 1) // 2
    assert search.tried == expected


def test_the_idle_player_reads_from_its_view_what_the_search_s_idle_rollouts_take():
    """The yardsticks' idle players (goldrush_agents.piecepack.idle) and the search's idle rollouts, which read the
    game itself, are one policy: the same action at every decision of random games."""
    idle, checked = Idle(), 0
    for game, _ in random_states(12, 3):
        action = idle.act(view_of(game, game.current_player))
        assert action == idle_action(game) and game.legal_mask()[action], game.phase
        checked += 1
    assert checked > 200


def test_the_search_wins_alone_more_often_than_the_economist_against_idle_players():
    """On the same 24 deals (3 players, the lone seat turning round), the search with 4 rollouts an action wins
    alone more often than the economist does against players who never act. Its rollouts run compiled, the same
    rule on other dice (test_piecepack_kernel.py holds the two equal on the same dice), some twenty times faster."""
    sole = {}
    for name in ("economist", "search[rollouts=4,compiled=True]"):
        sole[name] = 0
        for i in range(24):
            seat = i % 3
            lineup = [make_agent(name, game="piecepack") if s == seat else Idle() for s in range(3)]
            result = play_game(lineup, 100 + i, game="piecepack")
            sole[name] += result.winners == (seat,)
    assert sole["search[rollouts=4,compiled=True]"] > sole["economist"], sole  # measured: 11 against 6


def test_the_builder_builds_an_eight_point_building_when_it_can_and_is_idle_otherwise():
    game = Game.new(3, 2)
    while game.phase is not Phase.DEVELOPMENT_TURN:
        game.step(idle_action(game))
    seat = game.current_player
    assert builder_action(game) == A.END_DEVELOPMENT  # 2 Food and 2 Energy pay for no 8-point building
    plot = game.owner.index(seat)
    game.holdings[seat] = [2, 1, 1, 0]  # FFEO: a Warehouse, the cheapest 8-point building
    assert builder_action(game) == A.build(WAREHOUSE, plot)
    game.step(A.build(WAREHOUSE, plot))
    game.holdings[seat] = [2, 1, 1, 0]
    assert builder_action(game) == A.END_DEVELOPMENT  # never over an 8-point building of its own


@pytest.mark.parametrize("policy", POLICIES)
def test_every_rollout_policy_plays_to_the_end_and_values_the_searching_seat(policy):
    game = Game.new(4, 9)
    while not (game.phase is Phase.DEVELOPMENT_TURN and game.round == 8):
        game.step(idle_action(game))
    seat = game.current_player
    search = PiecepackSearch(seed=3, policy=policy, score_weight=0.5)
    value = search._rollout(game.copy(), seat, A.END_DEVELOPMENT, 11)
    played = game.copy()
    played.step(A.END_DEVELOPMENT)
    players = [PiecepackEconomist(11 + s) for s in range(4)]
    while not played.is_over:  # the same rollout by hand, to see whose outcome it returns
        mover = played.current_player
        if policy == "idle" or policy in ("builder", "self") and mover != seat:
            played.step(idle_action(played))
        elif policy == "builder":
            played.step(builder_action(played))
        else:
            played.step(players[mover].act(view_of(played, mover)))
    assert value == outcome(played, seat, 0.5)


def test_the_clairvoyant_ceiling_plays_and_refuses_bad_arguments(capsys):
    """One run as a user types it; the refusals in this process (a Python start each would cost more than they
    check)."""
    played = subprocess.run([sys.executable, CEILING, "--players", "3", "--games", "2", "--rollouts", "1",
                             "--policy", "builder"], check=False, capture_output=True, text=True)
    assert played.returncode == 0, played.stderr
    assert "| 3 | 1 | builder | 0.01 | 2 |" in played.stdout
    spec = importlib.util.spec_from_file_location("piecepack_ceiling", CEILING)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    for argv, message in ((["--players", "5"], "--players must be 3 or 4, got 5"),
                          (["--games", "0"], "--games must be at least 1, got 0"),
                          (["--seed", "-1"], "--seed must be 0 or more, got -1"),
                          (["--rollouts", "300"], "--rollouts must be from 1 to 256, got 300"),
                          (["--policy", "greedy"], "--policy must be one of ['idle', 'builder', 'self', 'economist']"),
                          (["--score-weight", "2"], "--score-weight must be from 0 to 1, got 2.0")):
        with pytest.raises(SystemExit) as refused:
            script.main(argv)
        assert refused.value.code == 2 and message in capsys.readouterr().err
