"""The piecepack MaskablePPO script: a tiny run writes its model and summary, bad options are one line."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("sb3_contrib")

from goldrush_train import piecepack_ppo

TINY = ["--total-timesteps", "256", "--num-envs", "2", "--n-steps", "128", "--batch-size", "64",
        "--eval-games", "6"]


def test_a_tiny_run_writes_the_model_and_the_summary(tmp_path, capsys):
    run_dir = tmp_path / "run"
    summary = piecepack_ppo.main(TINY + ["--run-dir", str(run_dir), "--opponents", "random,economist"])
    assert (run_dir / "final.zip").is_file()
    saved = json.loads((run_dir / "summary.json").read_text())
    assert saved == json.loads(json.dumps(summary))
    lines = {(line["player"], line["opponents"]): line for line in saved["evaluations"]}
    assert set(lines) == {("model", "random"), ("model", "economist"), ("economist", "random")}
    for line in lines.values():
        assert line["games"] == 6 and line["fair_share"] == pytest.approx(1 / 3)
        assert 0 <= line["low"] <= line["win_share"] <= line["high"] <= 1
        assert {"mean_score", "mean_opponent_score"} <= set(line)
    assert saved["timesteps"] >= 256 and saved["steps_per_second"] > 0
    assert "win share" in capsys.readouterr().out


def test_the_same_seed_gives_the_same_evaluation(tmp_path):
    first, second = (piecepack_ppo.main(TINY + ["--run-dir", str(tmp_path / name), "--num-players", "4",
                                                "--no-reference", "--seed", "3"])
                     for name in ("a", "b"))
    assert first["evaluations"] == second["evaluations"]


@pytest.mark.parametrize("argv, words", [
    (["--num-players", "5"], "num_players=5"),
    (["--opponents", "random,oracle"], "'oracle'"),
    (["--total-timesteps", "0"], "--total-timesteps"),
    (["--eval-games", "-1"], "--eval-games"),
])
def test_a_bad_option_is_one_line_before_anything_starts(tmp_path, capsys, argv, words):
    run_dir = tmp_path / "run"
    with pytest.raises(SystemExit) as stop:
        piecepack_ppo.main(argv + ["--run-dir", str(run_dir)])
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("python -m goldrush_train.piecepack_ppo:") and words in error
    assert "\n" not in error and not run_dir.exists()
