"""The held-out curve of the warm start (train/gold/holdout.py) and the figures it reads
(goldrush_train.gold.decisions.score)."""

import pytest

pytest.importorskip("torch")

from goldrush_env.errors import GoldrushEnvError  # noqa: E402
from goldrush_train.gold.holdout import curve, main  # noqa: E402
from goldrush_train.gold.decisions import collect, pretrain, save, score  # noqa: E402
from goldrush_train.gold.network import GoldNet  # noqa: E402


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("decisions")
    return [str(save(collect(1, teacher="ismcts[iterations=10]", seed=seed, workers=1), folder / f"d{seed}.npz"))
            for seed in (1, 2)]


def test_pretrain_reports_each_epoch_and_the_moves_it_matches(files):
    from goldrush_train.gold.decisions import load

    data, seen = load(files[0]), []
    last = pretrain(GoldNet(width=8, context=4), data, epochs=3, seed=0,
                    after_epoch=lambda epoch, stats: seen.append((epoch, dict(stats))))
    assert [epoch for epoch, _ in seen] == [1, 2, 3] and seen[-1][1] == last
    # The teacher's flip is always one its move stands for, so a match is at least as common as an agreement.
    assert all(0 <= stats["agreement"] <= stats["matches"] <= 1 for _, stats in seen)


def _indexed(data):
    """``data`` with each decision's index written into its first observation feature (for a copy to look up)."""
    indexed = dict(data, observations=data["observations"].copy())
    indexed["observations"][:, 0] = range(len(indexed["actions"]))
    return indexed


def _score_a_perfect_copy(data, **kwargs):
    """score() of a network whose logits are the log of ``data``'s own targets, and its exact returns."""
    import torch

    class Copy(torch.nn.Module):
        def forward(self, observation):
            index = [int(i) for i in observation[:, 0]]
            targets = torch.as_tensor(data["targets"][index])
            return torch.log(targets.clamp_min(1e-30)), torch.as_tensor(data["returns"][index])

    return score(Copy(), _indexed(data), **kwargs)


def test_score_of_a_perfect_copy_has_no_excess(files):
    from goldrush_train.gold.decisions import load

    figures = _score_a_perfect_copy(load(files[0]), batch_size=7)
    assert figures["excess"] == pytest.approx(0, abs=1e-4) and figures["matches"] == figures["move_matches"] == 1
    assert figures["value_error"] == 0 and figures["cross_entropy"] > 0


def test_a_copy_of_the_visit_shares_plays_the_teachers_move_by_move_not_by_position(files):
    from goldrush_train.gold.decisions import load

    figures = _score_a_perfect_copy(load(*files, target="visits"))
    # "An unknown card" spreads its share thin over many positions: the single most likely position often
    # misses the move the search played, the most likely move (the search plays its most visited) seldom does.
    assert figures["excess"] == pytest.approx(0, abs=1e-4)
    assert figures["matches"] < 0.95 < figures["move_matches"]


def test_a_copy_of_a_teacher_that_records_only_its_flip_plays_its_move_by_move():
    import numpy as np

    from goldrush_agents.gold.trained import best_moves

    data = collect(2, teacher="expert", seed=3, workers=1)  # the expert records the position it flipped, no more
    figures = _score_a_perfect_copy(data)
    assert figures["matches"] == figures["move_matches"] == 1
    # Played by move, the copy flips the first of the positions it cannot tell apart (the expert picked one of
    # many unknown cards at random): on the teacher's move, though often not the teacher's own position.
    logits = np.where(data["masks"], np.log(np.maximum(data["targets"], 1e-30)), -np.inf)
    flipped = best_moves(_indexed(data)["observations"], logits)
    assert (data["targets"][np.arange(len(flipped)), flipped] > 0).mean() < 0.5


def test_the_curve_scores_held_out_games_every_few_epochs(files, capsys):
    rows = curve([files[0]], [files[1]], epochs=3, every=2, width=8, context=4)
    assert [row["epoch"] for row in rows] == [2, 3]
    for row in rows:
        assert 0 <= row["holdout_matches"] <= 1 and 0 <= row["holdout_move_matches"] <= 1
        assert row["holdout_excess"] >= -1e-4
        assert row["holdout_cross_entropy"] >= row["holdout_excess"] and row["holdout_value_error"] >= 0
    assert "held out:" in capsys.readouterr().out
    # Same seed, same curve.
    again = main(["--fit", files[0], "--holdout", files[1], "--epochs", "3", "--every", "2", "--width", "8",
                  "--context", "4"])
    assert [{k: v for k, v in row.items() if k != "seconds"} for row in again] == \
        [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


def test_the_held_out_figures_are_the_fitted_networks_score_on_the_held_out_games(files):
    """Rebuilt here from the library: the same network, fitted the same way, scored on the held-out games, gives
    the curve's last row; scored on the fitted games it does not (a curve scoring the wrong games fails)."""
    import torch

    from goldrush_train.gold.decisions import load

    [row] = curve([files[0]], [files[1]], epochs=2, every=2, width=8, context=4, seed=5)
    torch.manual_seed(5)
    net = GoldNet(width=8, context=4)
    fitted = pretrain(net, load(files[0], target="visits"), epochs=2, lr=2e-3, seed=5)
    assert row["loss"] == fitted["loss"]
    held_out, seen = score(net, load(files[1], target="visits")), score(net, load(files[0], target="visits"))
    assert {key: row[f"holdout_{key}"] for key in held_out} == held_out
    assert held_out["cross_entropy"] != seen["cross_entropy"]


@pytest.mark.parametrize("bad, message", [({"epochs": 0}, "--epochs must be an int >= 1, got 0"),
                                          ({"every": -2}, "--every must be an int >= 1, got -2")])
def test_bad_arguments_are_refused(files, bad, message):
    with pytest.raises(GoldrushEnvError, match=message):
        curve([files[0]], [files[1]], **bad)


def test_a_file_both_fitted_and_held_out_is_refused(files):
    with pytest.raises(GoldrushEnvError, match="both fitted and held out"):
        curve(files, [files[1]], epochs=1)


def test_the_target_chooses_what_is_fitted_and_scored(files):
    shares = curve([files[0]], [files[1]], epochs=1, width=8, context=4)  # the visit shares, as goldrush_train.gold.ppo
    moves = main(["--fit", files[0], "--holdout", files[1], "--epochs", "1", "--width", "8", "--context", "4",
                  "--target", "move"])
    assert shares[0]["loss"] != moves[0]["loss"]
    assert shares[0]["holdout_cross_entropy"] != moves[0]["holdout_cross_entropy"]
    with pytest.raises(GoldrushEnvError, match=r"target must be one of \['move', 'visits'\], got 'shares'"):
        curve([files[0]], [files[1]], epochs=1, target="shares")
    with pytest.raises(SystemExit):
        main(["--fit", files[0], "--holdout", files[1], "--target", "shares"])
