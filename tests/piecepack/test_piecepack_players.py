"""The Gold Rush (piecepack) players: legal moves only, seeded, reading only their view, and the economist
clearly ahead of random players."""

import copy
import warnings

import numpy as np
import pytest
from goldrush_agents import make_agent
from goldrush_agents.arena import play_game
from goldrush_agents.piecepack import (
    AGENTS,
    MODELS,
    PiecepackEconomist,
    PiecepackRandom,
    PiecepackTrained,
    shipped_model,
    view_of,
)
from goldrush_agents.tournament import wilson_interval
from goldrush_agents.weights import ModelSizeWarning

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.components import FOOD, ORE
from goldrush_env.piecepack.encoder import observation_vector
from goldrush_env.piecepack.engine import Game
from goldrush_env.policy import SeatView


def lineup(names, seed):
    return [make_agent(name, seed=seed + s, game="piecepack") for s, name in enumerate(names)]


def play(players, seed):
    return play_game(players, seed, game="piecepack")


class Checked:
    """A player that checks each action it takes against the mask it was shown."""

    def __init__(self, inner):
        self.inner, self.actions = inner, 0

    def reset(self, seed=None):
        self.inner.reset(seed)

    def act(self, view):
        action = self.inner.act(view)
        assert isinstance(action, int) and view.action_mask[action], (type(self.inner).__name__, action)
        self.actions += 1
        return action


@pytest.mark.parametrize("players", [3, 4])
def test_random_plays_only_legal_actions(players):
    for seed in range(50):
        game = play([Checked(PiecepackRandom()) for _ in range(players)], seed)
        assert Game.from_record(game.record).is_over  # the engine refuses any illegal action anyway


@pytest.mark.parametrize("players", [3, 4])
def test_economist_plays_only_legal_actions(players):
    for seed in range(25):
        names = ["economist" if s == seed % players else "random" for s in range(players)]
        checked = [Checked(player) for player in lineup(names, seed)]
        result = play(checked, seed)
        assert Game.from_record(result.record).final() == result.record["final"]
        assert checked[seed % players].inner.fallbacks == 0  # its own rules chose every action
    for seed in range(25):
        economists = [PiecepackEconomist() for _ in range(players)]
        play([Checked(player) for player in economists], seed)
        assert sum(player.fallbacks for player in economists) == 0


@pytest.mark.parametrize("names", [("economist", "random", "random"), ("random",) * 4])
def test_same_seed_same_game(names):
    first = play(lineup(names, 0), 7)
    again = play(lineup(names, 99), 7)  # play_game reseeds the players
    assert first.record == again.record
    other = play(lineup(names, 0), 8)
    assert other.record["actions"] != first.record["actions"]


def test_economist_reads_only_its_view():
    """Hand it views built from ``known_to`` alone, deep-copied: the game itself never reaches the player,
    and no hidden identity is in a view, so it cannot have used one."""
    economist = PiecepackEconomist(seed=0)
    for seed in range(10):
        game = Game.new(3, seed=seed)
        while not game.is_over:
            seat = game.current_player
            knowledge = copy.deepcopy(game.known_to(seat))
            for piece in knowledge["identities"]:
                assert seat in knowledge["assayed_by"][piece]  # its own assays, nothing more
            view = SeatView(seat, knowledge, game.legal_mask(), observation_vector(knowledge))
            action = economist.act(view)
            assert knowledge == game.known_to(seat), "the player changed what it was shown"
            game.step(action)


def test_economist_does_not_depend_on_what_it_cannot_see():
    """Two games that differ only in hidden tiles look the same to a seat until production tells them apart;
    while they do, the economist takes the same actions in both."""
    compared = 0
    for seed in range(5):
        record = Game.new(3, seed=seed).to_record()
        rng = np.random.default_rng(seed)
        dice, markets = rng.integers(0, 6, (9, 4)).tolist(), rng.integers(1, 7, (30, 2)).tolist()
        game = Game(3, record["tiles"], record["coins"], record["start"], dice, markets)
        hidden = Game(3, list(reversed(record["tiles"])), record["coins"], record["start"], dice, markets)
        economist = PiecepackEconomist(seed=0)
        while not game.is_over:
            view, other = view_of(game, game.current_player), view_of(hidden, hidden.current_player)
            if view.knowledge != other.knowledge:
                break
            action = economist.act(view)
            assert economist.act(other) == action
            game.step(action)
            hidden.step(action)
            compared += 1
    assert compared > 50


@pytest.mark.parametrize("players", [3, 4])
def test_economist_beats_random(players):
    games, wins = 20, 0.0
    for i in range(games):
        seat = i % players
        names = ["economist" if s == seat else "random" for s in range(players)]
        result = play(lineup(names, i), 1000 + i)
        wins += 1 / len(result.winners) if seat in result.winners else 0.0
    low, _ = wilson_interval(wins, games)
    assert low > 1 / players, (wins, games)  # measured: 20 wins of 20 at both sizes, from 0.84


def test_registry_and_unknown_name():
    assert {*AGENTS, *MODELS} == {"idle", "random", "economist", "search", "taught"}
    assert isinstance(make_agent("economist", seed=1, game="piecepack"), PiecepackEconomist)
    with pytest.raises(GoldrushEnvError, match=r"unknown agent 'greedy': expected one of "
                                             r"\['economist', 'idle', 'random', 'search'\], 'taught' "
                                             r"\(the shipped models\).*\(the players of Gold Rush \(piecepack\)\)"):
        make_agent("greedy", game="piecepack")


@pytest.mark.parametrize("players", [3, 4])
def test_the_shipped_models_play_only_legal_actions_and_beat_random(players):
    assert shipped_model(players).is_file()
    games, wins = 30, 0.0
    for i in range(games):
        seat = i % players
        names = ["taught" if s == seat else "random" for s in range(players)]
        checked = [Checked(player) for player in lineup(names, i)]
        result = play(checked, 2000 + i)
        assert checked[seat].actions > 0
        wins += 1 / len(result.winners) if seat in result.winners else 0.0
    low, _ = wilson_interval(wins, games)
    assert low > 1 / players, (wins, games)


def test_a_trained_model_plays_by_path_and_refuses_other_files(tmp_path):
    player = make_agent(str(shipped_model(3)), seed=0, game="piecepack")
    assert isinstance(player, PiecepackTrained) and player.path == shipped_model(3)
    game = Game.new(3, seed=0)
    view = view_of(game, game.current_player)
    logits = player.logits(view.observation)
    assert logits.shape == (A.NUM_ACTIONS,) and player.act(view) == int(np.where(view.action_mask, logits,
                                                                                   -np.inf).argmax())
    with pytest.raises(GoldrushEnvError, match="no model file at"):
        make_agent(str(tmp_path / "missing.npz"), game="piecepack")
    gold = tmp_path / "gold.npz"
    np.savez(gold, **{"actor.0.weight": np.zeros((64, 10), np.float32), "actor.0.bias": np.zeros(64, np.float32)})
    with pytest.raises(GoldrushEnvError, match="not a piecepack model"):
        PiecepackTrained(gold)
    small = tmp_path / "small.npz"
    np.savez(small, **{"actor.0.weight": np.zeros((488, 10), np.float32), "actor.0.bias": np.zeros(488, np.float32),
                       "config.game": "piecepack"})
    with pytest.raises(GoldrushEnvError, match=r"maps \(10, 488\).*needs \(1443, 488\)"):
        PiecepackTrained(small)


def test_a_model_at_another_size_warns_and_taught_picks_by_size():
    three = PiecepackTrained(shipped_model(3))
    assert three.num_players == 3
    with pytest.warns(ModelSizeWarning, match=r"piecepack_3p.npz' was trained for 3 players and is playing a "
                                              r"4-player game"):
        play([three] + lineup(["random"] * 3, 0), 1)
    entrant = make_agent("taught", game="piecepack")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for players in (3, 4, 3):  # one player, games of either size: the model of each
            play([entrant] + lineup(["random"] * (players - 1), 0), 2)
            assert entrant.num_players == players and entrant.path == shipped_model(players)


def decision(phase, **changes):
    """The view of seat 0 in a fresh 3-player game, with ``phase`` and the given knowledge changed, and the
    mask that phase would show."""
    game = Game.new(3, seed=0)
    knowledge = {**game.known_to(0), "phase": phase, **changes}
    mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
    if phase == "offer_response":
        mask[[A.ACCEPT, A.DECLINE]] = True
    elif phase.startswith("warehouse"):
        mask[[A.WAREHOUSE_PROTECT, A.WAREHOUSE_DECLINE]] = True
    elif phase == "claim":
        mask[[A.claim(p) for p in range(24) if knowledge["owners"][p] < 0]] = True
    return SeatView(0, knowledge, mask, observation_vector(knowledge))


def test_economist_answers_offers_by_worth():
    economist = PiecepackEconomist(seed=0)
    holdings = [[3, 2, 2, 0], [3, 2, 2, 0], [3, 2, 2, 0]]
    good = decision("offer_response", holdings=holdings, pending_offer=(1, 0, ORE, 2, FOOD, 1))
    assert economist.act(good) == A.ACCEPT  # 2 Ore for 1 Food
    bad = decision("offer_response", holdings=holdings, pending_offer=(1, 0, FOOD, 1, ORE, 2))
    assert economist.act(bad) == A.DECLINE


@pytest.mark.parametrize("food, expected", [(5, A.WAREHOUSE_PROTECT), (2, A.WAREHOUSE_DECLINE)])
def test_economist_protects_food_worth_protecting(food, expected):
    view = decision("warehouse_food", holdings=[[food, 2, 0, 0]] * 3)
    assert PiecepackEconomist(seed=0).act(view) == expected


def test_economist_claims_the_plot_it_knows_is_rich():
    """A Moons-4 tile and a Moons-5 coin it assayed on plot 9 (Moons row) make that plot its claim: a Farm
    there, once optimized, beats the face-down Mines and Gold Mines every other plot offers."""
    view = decision("claim", identities={9: "M4", 33: "M5"})
    assert PiecepackEconomist(seed=0).act(view) == A.claim(9)
    assert PiecepackEconomist(seed=0).act(decision("claim")) != A.claim(9)
