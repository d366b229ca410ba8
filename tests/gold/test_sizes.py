"""Every table size: the shipped models of each number of players (``taught`` and ``scratch``), the entrants that
pick them, and ``taught``'s recipe (goldrush_train.gold.sizes)."""

import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

from goldrush_agents import make_agent
from goldrush_agents.arena import play_game
from goldrush_agents.gold.trained import (SHIPPED, SHIPPED_MODEL, ModelSizeWarning, Shipped, TrainedPolicy,
                                          shipped_model, table_sizes)
from goldrush_agents.tournament import run_tournament
from goldrush_env.errors import GoldrushEnvError

from conftest import random_views

pytest.importorskip("torch")
pytest.importorskip("tyro")

from goldrush_train.gold import sizes  # noqa: E402

SIZES = (2, 3, 4, 5)


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("num_players", SIZES)
def test_the_package_ships_a_model_for_each_size_and_says_so_in_the_file(name, num_players):
    path = shipped_model(num_players, name)
    assert path.is_file(), f"the package ships no {num_players}-player {name} model at {path}"
    with np.load(path) as weights:
        assert int(weights["config.num_players"]) == num_players


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("num_players", SIZES)
def test_each_shipped_entrant_plays_the_model_of_the_tables_size(name, num_players):
    entrant = make_agent(name)
    own = TrainedPolicy(shipped_model(num_players, name))
    seen = random_views(num_players)
    observations = np.array([v.observation for v in seen])
    masks = np.array([v.action_mask for v in seen])
    assert set(table_sizes(observations)) == {num_players}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the right size: no warning
        chosen = entrant.act_batch(observations, masks)
        np.testing.assert_array_equal(chosen, own.act_batch(observations, masks))
        assert [entrant.act(v) for v in seen[:20]] == chosen[:20].tolist()
    # A model of another size chooses differently somewhere: the entrant did pick by size.
    other = TrainedPolicy(shipped_model(3 if num_players == 2 else 2, name))
    with pytest.warns(ModelSizeWarning):
        assert (other.act_batch(observations, masks) != chosen).any()


def test_one_batch_may_hold_games_of_several_sizes():
    seen = [v for n in SIZES for v in random_views(n, games=1)[:15]]
    observations = np.array([v.observation for v in seen])
    masks = np.array([v.action_mask for v in seen])
    chosen = make_agent("taught").act_batch(observations, masks)
    alone = [TrainedPolicy(shipped_model(int(n))).act_batch(o[None], m[None])[0]
             for n, o, m in zip(table_sizes(observations), observations, masks)]
    assert chosen.tolist() == alone


def test_a_model_at_another_size_warns_once_per_size_and_plays_on():
    policy = TrainedPolicy(SHIPPED_MODEL)
    with pytest.warns(ModelSizeWarning, match=r"taught_2p.npz' was trained for 2 players and is playing a 4-player "
                                              r"game: it plays on"):
        play_game([policy] + [make_agent("greedy") for _ in range(3)], seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        play_game([policy] + [make_agent("greedy") for _ in range(3)], seed=2)  # warned already for 4
        play_game([policy, make_agent("greedy")], seed=3)  # its own size
    with pytest.warns(ModelSizeWarning, match="playing a 5-player game"):
        play_game([policy] + [make_agent("greedy") for _ in range(4)], seed=4)


def test_an_observation_of_no_known_size_is_refused_by_the_size_picking_entrant():
    [view] = random_views(2, games=1)[:1]
    blank = np.zeros((1, view.observation.size), np.float32)  # no seat in its seats slice: a vector of no game
    with pytest.raises(GoldrushEnvError, match=r"an observation of a 0-player game \(its seats slice\), not 2 to 5"):
        make_agent("taught").act_batch(blank, np.array([view.action_mask]))


@pytest.mark.parametrize("num_players, games", [(3, 100), (4, 100), (5, 300)])
def test_each_shipped_model_beats_random_clearly_at_its_size(num_players, games):
    # One taught seat against random ones on the batched engine, seats and start rotated. Greedy alone against 4
    # random players wins 0.84 of the games, random alone against 4 greedy 0.013 (the ladder, 2,000 games); a
    # model that plays its size should do about as well. At 3 and 4 players it wins 0.985 of 100 games (interval
    # from 0.94), at 5 players 0.855 of 300 (from 0.81): 300 games there, where 100 would leave the bound below 0.8.
    result = run_tournament(["taught", "random"], num_players=num_players, games=games, seed=7, batched=True)
    pairing = next(p for p in result.pairings if p.alone == "taught")
    assert pairing.games == games and pairing.interval[0] > 0.8, pairing
    field = next(p for p in result.pairings if p.alone == "random")
    assert field.interval[1] < 0.5 / num_players, field


def test_a_shipped_entrant_is_named_and_sized_as_the_package_ships_them():
    with pytest.raises(GoldrushEnvError, match=r"ships no model called 'selfplay': it ships \['taught', 'scratch'\]"):
        shipped_model(2, "selfplay")
    with pytest.raises(GoldrushEnvError, match="ships no model called 'taught2'"):
        Shipped("taught2")
    with pytest.raises(GoldrushEnvError, match="num_players must be an int from 2 to 5, got 6"):
        shipped_model(6, "scratch")
    assert repr(make_agent("scratch")).startswith("TrainedPolicy(Shipped(name='scratch')")


def test_the_recipe_refuses_bad_values_before_any_work(tmp_path):
    for options, message in (({"num_players": 2}, r"--num-players must be an int from 3 to 5 \(the 2-player model is "
                                                   r"goldrush_train.gold.recipe's\), got 2"),
                             ({"num_players": 6}, "--num-players must be an int from 3 to 5"),
                             ({"total_timesteps": 0}, "--total-timesteps must be an int >= 1"),
                             ({"start_from": str(tmp_path / "none.npz")}, "is not a file")):
        with pytest.raises(GoldrushEnvError, match=message):
            sizes.run(sizes.Sizes(run_dir=str(tmp_path / "run"), **options))
    assert not list(tmp_path.iterdir())


def test_a_tiny_run_trains_at_its_size_and_ships_where_taught_finds_it(tmp_path, monkeypatch):
    shipped = tmp_path / "taught_3p.npz"
    monkeypatch.setattr(sizes, "shipped_model", lambda n: shipped)
    run = tmp_path / "run"
    summary = sizes.main(["--num-players", "3", "--total-timesteps", "1024", "--eval-every", "1024",
                          "--eval-games", "20", "--num-envs", "16", "--final-games", "6", "--run-dir", str(run),
                          "--ship"])  # one rollout of 16 x 64 steps
    assert summary["steps"] == 1024 and summary["sizes"]["num_players"] == 3
    [row] = summary["final"]
    assert row["opponent"] == "greedy" and row["games"] == 6 and row["fair_share"] == pytest.approx(1 / 3)
    assert 0 <= row["field_alone"] <= 1  # both directions are reported
    assert shipped.read_bytes() == (run / "model.npz").read_bytes()
    with np.load(shipped) as weights:
        assert int(weights["config.num_players"]) == 3
    args = json.loads((run / "args.json").read_text())
    assert args["num_players"] == 3 and args["init_from"] == str(SHIPPED_MODEL)


def test_goldrush_watch_and_the_web_play_the_model_of_the_tables_size(tmp_path):
    record = tmp_path / "game.json"
    watched = subprocess.run([sys.executable, "-W", "error::UserWarning", "-m", "goldrush_agents.cli", "watch",
                              "--agents", "taught,greedy,greedy,greedy", "--seed", "3", "--save", str(record)],
                             capture_output=True, text=True, timeout=300)
    assert watched.returncode == 0, watched.stderr
    assert "seat 0 taught, seat 1 greedy" in watched.stdout
    own = play_game([TrainedPolicy(shipped_model(4))] + [make_agent("greedy") for _ in range(3)], 3)
    assert json.loads(record.read_text())["flips"] == own.record["flips"]

    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient

    from goldrush_agents.web import create_app

    client = TestClient(create_app())
    data = client.post("/api/gold/watch", json={"agents": "greedy,taught,greedy", "seed": 5}).json()
    watch_id = data["id"]
    while not data["state"]["finished"]:
        data = client.post(f"/api/gold/watch/{watch_id}/step", json={}).json()
    web = client.get(f"/api/gold/games/{watch_id}/record").json()
    own = play_game([make_agent("greedy"), TrainedPolicy(shipped_model(3)), make_agent("greedy")], 5)
    assert web["flips"] == own.record["flips"]


def test_evaluate_reports_both_directions_from_three_players_on(capsys):
    from goldrush_train import evaluate as evaluate_script
    from goldrush_train.win_shares import evaluate, table

    [two] = evaluate("taught", ["greedy"], num_players=2, games=4, seed=0, workers=1)
    assert two.opponent_alone is None and "opponent alone" not in table([two])
    rows = evaluate_script.main(["taught", "--agents", "greedy", "--players", "3", "--games", "6", "--batched"])
    [three] = rows
    assert three.games == 6 and 0 <= three.opponent_alone_low <= three.opponent_alone <= three.opponent_alone_high
    printed = capsys.readouterr().out
    assert "| opponent alone | 95% CI |" in printed and f"| {three.opponent_alone:.3f} |" in printed
    with pytest.raises(SystemExit):
        evaluate_script.main(["taught", "--game", "piecepack", "--agents", "economist", "--batched"])
    assert "--batched: the players of Gold Rush" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        evaluate_script.main(["taught", "--agents", "greedy", "--option", "memory=human", "--batched"])
    assert "a batched tournament plays with perfect memory" in capsys.readouterr().err


def test_scratch_ships_only_models_learned_from_scratch(tmp_path):
    from goldrush_train.gold import scratch

    for num_players in (2, 4):
        with pytest.raises(GoldrushEnvError, match="--ship is for a model learned from scratch, with no teacher: not "
                                                "one started from --init-from"):
            scratch.train(scratch.Args(run_dir=str(tmp_path / "run"), ship=True, init_from=str(SHIPPED_MODEL),
                                       observation="plain", network="goldnet", action="positions",
                                       num_players=num_players))
    assert not (tmp_path / "run").exists()
