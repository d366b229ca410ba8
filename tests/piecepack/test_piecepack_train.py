"""The piecepack MaskablePPO script: a tiny run writes its model and summary, bad options are one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from goldrush_train.piecepack import ppo

TINY = ["--total-timesteps", "256", "--num-envs", "2", "--n-steps", "128", "--batch-size", "64",
        "--eval-games", "6"]


def test_a_tiny_run_writes_the_model_and_the_summary(tmp_path, capsys):
    run_dir = tmp_path / "run"
    summary = ppo.main(TINY + ["--run-dir", str(run_dir), "--opponents", "random,economist"])
    assert (run_dir / "final.zip").is_file()
    saved = json.loads((run_dir / "summary.json").read_text())
    assert saved == json.loads(json.dumps(summary))
    lines = {(line["player"], line["opponent"]): line for line in saved["evaluations"]}
    assert set(lines) == {("model", "random"), ("model", "economist"), ("economist", "random")}
    for line in lines.values():
        assert line["games"] == 6 and line["fair_share"] == pytest.approx(1 / 3)
        assert 0 <= line["low"] <= line["win_share"] <= line["high"] <= 1
        assert {"model_points", "opponent_points"} <= set(line)
    assert saved["timesteps"] >= 256 and saved["steps_per_second"] > 0
    assert "win share" in capsys.readouterr().out


def test_imitation_copies_the_economist_and_the_export_plays_as_the_policy(tmp_path, capsys, monkeypatch):
    import torch
    from goldrush_agents import make_agent
    from goldrush_agents import piecepack as players

    from goldrush_env.piecepack.engine import Game

    shipped = tmp_path / "shipped.npz"
    monkeypatch.setattr(players, "shipped_model", lambda num_players: shipped)
    run_dir = tmp_path / "run"
    summary = ppo.main(["--imitation-games", "4", "--imitation-epochs", "3", "--total-timesteps", "0",
                                  "--eval-games", "4", "--no-reference", "--ship", "--run-dir", str(run_dir)])
    imitation = summary["imitation"]
    # A tenth held out (18 of 181 decisions when written, 0.78 of them matched): far above chance there too,
    # about 1 of 10 legal actions; a held-out share measured on nothing would be nan and fail.
    assert imitation["decisions"] > 4 * 20 and imitation["agreement_held_out"] > 0.4
    assert imitation["agreement_fitted"] > 0.5  # three passes over a few games: far above chance (1 of ~10 legal)
    assert summary["timesteps"] == 0 and "imitation:" in capsys.readouterr().out
    assert shipped.read_bytes() == (run_dir / "model.npz").read_bytes()

    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(run_dir / "final.zip", device="cpu")
    player = make_agent(str(run_dir / "model.npz"), game="piecepack")
    game = Game.new(3, seed=5)
    for _ in range(30):
        view = players.view_of(game, game.current_player)
        with torch.no_grad():
            expected = model.policy.action_net(model.policy.mlp_extractor.forward_actor(
                torch.as_tensor(view.observation[None, :])))[0].numpy()
        np.testing.assert_allclose(player.logits(view.observation), expected, rtol=1e-4, atol=1e-5)
        game.step(player.act(view))


def test_the_teacher_s_games_are_the_same_with_any_number_of_workers():
    """Each game of the search teacher comes from its own seed: two processes collect what one does, and the
    search decides otherwise than the economist at some decisions (else it would teach nothing new)."""
    args = ppo.Args(imitation_games=3, teacher="search[rollouts=1]")
    one = ppo.collect(args, ["economist"], 0.99)
    two = ppo.collect(ppo.Args(imitation_games=3, teacher="search[rollouts=1]", workers=2),
                                ["economist"], 0.99)
    assert one.keys() == two.keys() and all(np.array_equal(one[key], two[key]) for key in one)
    economist = ppo.collect(ppo.Args(imitation_games=3), ["economist"], 0.99)
    assert len(one["actions"]) > 30 and not np.array_equal(one["actions"][:30], economist["actions"][:30])


def test_the_same_seed_gives_the_same_evaluation(tmp_path):
    first, second = (ppo.main(TINY + ["--run-dir", str(tmp_path / name), "--num-players", "4",
                                                "--no-reference", "--seed", "3"])
                     for name in ("a", "b"))
    assert first["evaluations"] == second["evaluations"]


@pytest.mark.parametrize("argv, words", [
    (["--num-players", "5"], "num_players=5"),
    (["--opponents", "random,oracle"], "'oracle'"),
    (["--total-timesteps", "0"], "0 only with --imitation-games"),
    (["--imitation-games", "-2"], "--imitation-games must be an int >= 0"),
    (["--imitation-games", "2", "--imitation-epochs", "0"], "--imitation-epochs"),
    (["--eval-games", "-1"], "--eval-games"),
    (["--teacher", "search[rollouts=0]"], "--teacher: rollouts must be an int from 1 to 256"),
    (["--teacher", "oracle"], "--teacher:"),
    (["--workers", "0"], "--workers must be an int >= 1"),
])
def test_a_bad_option_is_one_line_before_anything_starts(tmp_path, capsys, argv, words):
    run_dir = tmp_path / "run"
    with pytest.raises(SystemExit) as stop:
        ppo.main(argv + ["--run-dir", str(run_dir)])
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("python -m goldrush_train.piecepack.ppo:") and words in error
    assert "\n" not in error and not run_dir.exists()
