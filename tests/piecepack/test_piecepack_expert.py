"""The piecepack expert-iteration script: a tiny run writes a model the numpy player plays as the network, every
round's figures, and games that do not depend on the number of workers; bad options are one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("torch")

from goldrush_train.piecepack import expert

TINY = ["--games", "3", "--eval-games", "4", "--epochs", "2", "--rollouts", "2", "--hidden", "16", "--workers", "1"]


def test_a_tiny_run_writes_the_model_and_every_round(tmp_path, capsys, monkeypatch):
    import torch
    from goldrush_agents import make_agent
    from goldrush_agents import piecepack as players

    from goldrush_env.piecepack.engine import Game

    shipped = tmp_path / "shipped.npz"
    monkeypatch.setattr(players, "shipped_model", lambda num_players: shipped)
    run_dir = tmp_path / "run"
    summary = expert.main(TINY + ["--rounds", "2", "--num-players", "3", "--run-dir", str(run_dir), "--ship"])
    saved = json.loads((run_dir / "summary.json").read_text())
    assert saved == json.loads(json.dumps(summary)) and [r["round"] for r in saved["rounds"]] == [1, 2]
    first, second = saved["rounds"]
    assert first["decisions"] == first["new_decisions"] > 3 * 20  # every decision of at least one seat a game
    assert second["decisions"] == first["decisions"] + second["new_decisions"]
    for row in saved["rounds"]:
        assert 0 <= row["low"] <= row["win_share"] <= row["high"] <= 1
        assert 0.3 < row["agreement_fitted"] <= 1  # far above chance: about 1 legal action in 10
    assert shipped.read_bytes() == (run_dir / "model.npz").read_bytes() == (run_dir / "round-2.npz").read_bytes()
    assert (run_dir / "round-1.npz").read_bytes() != shipped.read_bytes()
    assert capsys.readouterr().out.count("alone among economists") == 2

    net = expert.network(16)
    net.load_state_dict(torch.load(run_dir / "network.pt"))
    player = make_agent(str(run_dir / "model.npz"), game="piecepack")
    game = Game.new(3, seed=5)
    for _ in range(30):
        view = players.view_of(game, game.current_player)
        with torch.no_grad():
            expected = net(torch.as_tensor(view.observation[None, :]))[0].numpy()
        np.testing.assert_allclose(player.logits(view.observation), expected, rtol=1e-4, atol=1e-5)
        game.step(player.act(view))


def test_the_games_are_the_same_with_any_number_of_workers_and_label_the_search_s_choices():
    args = expert.Args(games=3, rollouts=2, workers=1, num_players=4)
    one = expert.collect(args, None, 0)
    two = expert.collect(expert.Args(games=3, rollouts=2, workers=2, num_players=4), None, 0)
    assert one.keys() == two.keys() and all(np.array_equal(one[key], two[key]) for key in one)
    assert (one["best"] <= one["masks"]).all() and one["best"].any(axis=1).all()  # legal, at least one each
    assert (one["best"].sum(axis=1) > 1).any()  # the search's ties are kept


@pytest.mark.parametrize("argv, words", [
    (["--num-players", "5"], "--num-players must be an int from 3 to 4"),
    (["--rounds", "0"], "--rounds must be an int >= 1"),
    (["--self-play", "1.5"], "--self-play"),
    (["--rollouts", "300"], "--rollouts must be an int from 1 to 256"),
])
def test_a_bad_option_is_one_line_before_anything_starts(tmp_path, capsys, argv, words):
    run_dir = tmp_path / "run"
    with pytest.raises(SystemExit) as stop:
        expert.main(argv + ["--run-dir", str(run_dir)])
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("python -m goldrush_train.piecepack.expert:") and words in error
    assert "\n" not in error and not run_dir.exists()
