"""Training scripts on tiny budgets: train, checkpoint, get killed, resume, evaluate, write outputs."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from goldrush_agents import make_agent  # noqa: E402
from goldrush_agents.arena import play_game  # noqa: E402
from goldrush_agents.gold.trained import (BOARD_SIZE, SHIPPED_MODEL, GoldNetNumpy, ModelSizeWarning,  # noqa: E402
                                          TrainedPolicy)
from goldrush_env.gold.cards import NUM_POSITIONS  # noqa: E402
from goldrush_env.gold.encoder import OBSERVATION_SIZE, PLANES  # noqa: E402
from goldrush_env.errors import GoldrushEnvError  # noqa: E402
from goldrush_train.win_shares import evaluate  # noqa: E402
from goldrush_train.gold.network import GoldNet, export_weights  # noqa: E402
from goldrush_train.gold.opponents import opponent_mix  # noqa: E402
from goldrush_train.gold.ppo import main  # noqa: E402
from conftest import ROOT, VERSION_0, Checked  # noqa: E402

TINY = ["--num-envs", "2", "--vec-env", "dummy", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1",
        "--width", "8", "--context", "4", "--eval-games", "2", "--final-games", "2",
        "--eval-agents", "random,greedy", "--snapshot-every", "256", "--league-size", "2",
        "--imitation-games", "2", "--imitation-epochs", "1", "--torch-threads", "1"]
"""A run of seconds. One torch thread: beside the other tests' processes (pytest -n), a fit on every core waits on
its busiest one and takes many times as long (--torch-threads' note)."""


def test_numpy_network_matches_torch():
    torch.manual_seed(0)
    net = GoldNet(width=16, context=8)
    observations = np.random.default_rng(1).random((6, OBSERVATION_SIZE)).astype(np.float32)
    logits, values = net(torch.as_tensor(observations))
    np_logits, np_values = GoldNetNumpy(export_weights(net, 2)).forward(observations)
    assert np_logits.shape == (6, 64) and np_values.shape == (6,)
    np.testing.assert_allclose(np_logits, logits.detach().numpy(), atol=1e-5)
    np.testing.assert_allclose(np_values, values.detach().numpy(), atol=1e-5)


def test_opponent_mix_follows_the_curriculum_and_the_league():
    assert opponent_mix(["random", "greedy"], 0, [], 0.2) == {"random": 1.0}
    mix = opponent_mix(["random", "greedy", "expert"], 2, ["a.npz", "b.npz"], 0.2)
    assert mix["expert"] == pytest.approx(0.56) and mix["random"] == pytest.approx(0.12)
    assert mix["a.npz"] == pytest.approx(0.1) and sum(mix.values()) == pytest.approx(1.0)
    with pytest.raises(GoldrushEnvError, match="stage 3"):
        opponent_mix(["random"], 3, [], 0.0)


def test_an_opponent_that_joins_the_mix_later_plays_from_a_seed():
    from goldrush_env.gold.gym_env import GoldEnv
    from goldrush_train.gold.opponents import OpponentMix

    def state_of_a_greedy_that_joined(seed):
        """The random state of a greedy player made when the mix changed, after it played a few games."""
        env = OpponentMix(GoldEnv(num_players=2), {"random": 1.0}, seed=seed)
        env.reset(seed=seed)
        env.set_mix({"greedy": 1.0})  # as a promotion does, between resets given no seed
        for _ in range(3):
            env.reset()
        return env._policy("greedy").rng.integers(2**32, size=4).tolist()

    # Without a seed of its own it drew one from the system: a run with promotions did not repeat itself.
    assert state_of_a_greedy_that_joined(5) == state_of_a_greedy_that_joined(5)
    assert state_of_a_greedy_that_joined(5) != state_of_a_greedy_that_joined(6)


def refused(argv, capsys):
    """The one line on stderr with which main() refuses ``argv`` (exit status 2)."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    error = capsys.readouterr().err
    assert stop.value.code == 2 and len(error.splitlines()) == 1, error
    return error


@pytest.mark.parametrize("bad, message", [(["--total-timesteps", "-1"], "--total-timesteps must be an int >= 0"),
                                          (["--promote-at", "1.5"], "--promote-at must be a number from 0 to 1, got 1.5"),
                                          (["--num-players", "6"], "--num-players must be an int from 2 to 5, got 6"),
                                          (["--ship", "--num-players", "3"], "--ship is for the 2-player"),
                                          (["--imitation-data-epochs", "-1"],
                                           "--imitation-data-epochs must be an int >= 0, got -1"),
                                          (["--imitation-data", "nowhere.npz"],
                                           "--imitation-data 'nowhere.npz' is not a file")])
def test_bad_arguments_are_refused(tmp_path, capsys, bad, message):
    assert message in refused(["--run-dir", str(tmp_path / "run")] + TINY + bad, capsys)
    assert not (tmp_path / "run").exists()


def test_a_used_run_folder_is_not_overwritten(tmp_path, capsys):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "something").write_text("x")
    assert "is not empty: continue it with --resume" in refused(["--run-dir", str(tmp_path / "run")] + TINY, capsys)
    assert "cannot resume" in refused(["--resume", str(tmp_path / "run")], capsys)
    assert [p.name for p in (tmp_path / "run").iterdir()] == ["something"]


def test_tiny_run_writes_every_output(tmp_path):
    run = tmp_path / "run"
    summary = main(["--run-dir", str(run), "--total-timesteps", "512", "--eval-every", "256",
                    "--checkpoint-every", "256", "--num-players", "3"] + TINY)
    assert summary["steps"] >= 512
    [phase] = summary["imitation"]["phases"]
    assert summary["imitation"]["decisions"] == phase["decisions"] > 0 and 0 <= phase["agreement"] <= 1
    for name in ("args.json", "state.json", "summary.json", "eval.csv", "curves.png", "final.zip", "model.npz"):
        assert (run / name).is_file(), name
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["step_000000256.zip", "step_000000512.zip"]
    assert len(list((run / "league").iterdir())) == 2  # league_size
    assert list((run / "logs").glob("events.out.tfevents.*")), "no TensorBoard log"
    rows = (run / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("step,opponent") and len(rows) == 1 + 2 * 2  # two evaluations, two opponents
    assert [r["opponent"] for r in summary["final_evaluation"]] == ["random", "greedy"]
    # The final model plays legal flips from every seat of a 3-player game.
    for seat in range(3):
        players = [make_agent("random") for _ in range(3)]
        players[seat] = Checked(TrainedPolicy(run / "model.npz"))
        play_game(players, seed=seat)
    # The model plays by its most likely move (the default --play-by); by position, the MaskablePPO checkpoint
    # and the numpy export choose the same flips.
    assert TrainedPolicy(run / "model.npz").choose == "move" and 0 <= phase["move_matches"] <= 1
    view_source = TrainedPolicy(run / "model.npz", choose="position"), TrainedPolicy(run / "final.zip")
    with pytest.warns(ModelSizeWarning, match=r"model.npz' was trained for 3 players and is playing a 2-player game"):
        result = play_game([view_source[0], make_agent("random")], seed=4)
    replay = play_game([view_source[1], make_agent("random")], seed=4)  # a .zip records no size: no warning
    assert result.record["flips"] == replay.record["flips"]


KILLED_AT_THE_FIRST_CHECKPOINT = """
import os, signal, sys
from goldrush_train.gold import ppo
save = ppo.RunState.save
def save_then_die(state):
    save(state)
    if state.checkpoint:  # the first checkpoint is on disk: the process dies as at a power cut, nothing flushed
        os.kill(os.getpid(), signal.SIGKILL)
ppo.RunState.save = save_then_die
ppo.main(sys.argv[1:])
"""
"""``python -m goldrush_train.gold.ppo``, killed (SIGKILL) the moment its first checkpoint is saved: where it stops
depends on the run alone, never on how quickly a test could see the checkpoint and kill it."""


def test_killed_run_resumes_from_its_last_checkpoint(tmp_path, capsys):
    run = tmp_path / "run"
    command = [sys.executable, "-c", KILLED_AT_THE_FIRST_CHECKPOINT, "--run-dir", str(run), "--total-timesteps",
               "1024", "--eval-every", "256", "--checkpoint-every", "256"] + TINY
    process = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert process.returncode == -signal.SIGKILL, process.stderr
    state_file = run / "state.json"
    state = json.loads(state_file.read_text())
    checkpoint_step = int(Path(state["checkpoint"]).stem.split("_")[1])
    assert checkpoint_step < 1024 and not (run / "final.zip").exists()

    capsys.readouterr()
    main(["--resume", str(run)])  # in this process: the killed one was the command's own
    assert f"resuming {run} at step {checkpoint_step:,}" in capsys.readouterr().out
    summary = json.loads((run / "summary.json").read_text())
    assert 1024 <= summary["steps"] < 1024 + 128  # one rollout of 2 x 64 at most past the target
    steps = [int(line.split(",")[0]) for line in (run / "eval.csv").read_text().splitlines()[1:]]
    # Evaluations (one line per evaluation agent, random and greedy) before and after the kill, none twice or lost.
    assert steps == [step for step in (256, 512, 768, 1024) for _ in ("random", "greedy")]
    assert (run / "model.npz").is_file()


def test_a_run_from_before_play_by_resumes_playing_as_it_did(tmp_path):
    run = tmp_path / "run"
    main(["--run-dir", str(run)] + TINY + ["--total-timesteps", "128", "--eval-every", "128",
                                           "--checkpoint-every", "128"])
    assert TrainedPolicy(run / "model.npz").choose == "move"
    saved = json.loads((run / "args.json").read_text())
    del saved["play_by"]  # as written before the option: a model without visit shares played by position
    (run / "args.json").write_text(json.dumps(saved))
    summary = main(["--resume", str(run)])
    assert summary["args"]["play_by"] == "position" and TrainedPolicy(run / "model.npz").choose == "position"


def test_a_run_repeats_itself_from_its_seed(tmp_path):
    """The main job's promise at a small budget: warm start, PPO in subprocesses (as the default --vec-env),
    curriculum, league and evaluations give the same weights and figures again from the same seed."""
    argv = TINY + ["--vec-env", "subproc", "--total-timesteps", "512", "--eval-every", "256",
                   "--checkpoint-every", "512", "--final-games", "6", "--seed", "3"]
    first, again = (main(argv + ["--run-dir", str(tmp_path / name)]) for name in ("first", "again"))
    assert first["final_evaluation"] == again["final_evaluation"] and first["steps"] == again["steps"] >= 512
    assert first["imitation"]["phases"][0]["loss"] == again["imitation"]["phases"][0]["loss"]
    with np.load(tmp_path / "first" / "model.npz") as one, np.load(tmp_path / "again" / "model.npz") as two:
        assert one.files == two.files and all(np.array_equal(one[name], two[name]) for name in one.files)
    other = main(argv[:-1] + ["4", "--run-dir", str(tmp_path / "other")])  # a check that can fail: seeds differ
    with np.load(tmp_path / "first" / "model.npz") as one, np.load(tmp_path / "other" / "model.npz") as three:
        assert not all(np.array_equal(one[name], three[name]) for name in one.files)


def test_evaluation_is_reproducible_with_a_seed(tmp_path):
    torch.manual_seed(0)
    path = tmp_path / "model.npz"
    np.savez(path, **export_weights(GoldNet(width=8, context=4), 2))
    first = evaluate(str(path), ["random", "greedy"], games=6, seed=3, workers=1)
    again = evaluate(str(path), ["random", "greedy"], games=6, seed=3, workers=1)
    assert first == again and [r.games for r in first] == [6, 6]


@pytest.mark.parametrize("num_players", [2, 3])
def test_shipped_model_plays_legal_flips_from_every_seat(num_players):
    assert SHIPPED_MODEL.is_file(), f"the package ships no model at {SHIPPED_MODEL}"
    for seat in range(num_players):
        players = [make_agent("greedy") for _ in range(num_players)]
        players[seat] = Checked(make_agent("taught"))
        result = play_game(players, seed=10 + seat)
        assert result.turns > 0


def test_model_files_are_checked():
    with pytest.raises(GoldrushEnvError, match="no model file"):
        TrainedPolicy("nowhere/model.npz")
    with pytest.raises(GoldrushEnvError, match="not a GoldNet model"):
        GoldNetNumpy({"globals.weight": np.zeros((2, 2))})


class FixedLogits:
    """Stands in for a network: the same logits for every observation."""

    def __init__(self, logits):
        self.logits = np.asarray(logits, np.float32)

    def forward(self, observations):
        return np.tile(self.logits, (len(observations), 1)), np.zeros(len(observations), np.float32)


def test_the_most_likely_move_pools_the_positions_it_stands_for():
    # Five unknown cards and one remembered gold 4 are legal; the gold is the single most likely position.
    observation = np.zeros(OBSERVATION_SIZE, np.float32)
    board = observation[:BOARD_SIZE].reshape(len(PLANES), NUM_POSITIONS)
    board[PLANES.index("unknown"), :5] = 1
    board[PLANES.index("gold_4"), 10] = 1
    mask = np.zeros(NUM_POSITIONS, bool)
    mask[[0, 1, 2, 3, 4, 10]] = True
    for gold, by_move in ((1.0, 0), (2.0, 10)):  # unknown: 5 x e^0 against e^1, then against e^2
        logits = np.full(NUM_POSITIONS, 5.0)  # illegal positions are never chosen, however likely
        logits[mask] = 0.0
        logits[10] = gold
        policy = TrainedPolicy(SHIPPED_MODEL, choose="position")
        policy.net = FixedLogits(logits)
        assert policy.act_batch(observation[None], mask[None])[0] == 10
        policy.choose = "move"
        assert policy.act_batch(observation[None], mask[None])[0] == by_move
    # The positions of one move look the same to the network: rounding in their logits does not pick among them.
    logits = np.zeros(NUM_POSITIONS)
    logits[[1, 3]] = 1e-6, 2e-6  # unknown cards: five of them against the gold's one
    policy.net = FixedLogits(logits)
    assert policy.act_batch(observation[None], mask[None])[0] == 0


def test_a_model_file_says_how_it_plays(tmp_path):
    weights = export_weights(GoldNet(width=8, context=4), 2)
    np.savez(tmp_path / "plain.npz", **weights)
    np.savez(tmp_path / "moves.npz", **weights, **{"config.choose": np.array("move")})
    np.savez(tmp_path / "odd.npz", **weights, **{"config.choose": np.array("card")})
    assert TrainedPolicy(tmp_path / "plain.npz").choose == "position"
    assert TrainedPolicy(tmp_path / "moves.npz").choose == "move"
    assert TrainedPolicy(tmp_path / "moves.npz", choose="position").choose == "position"
    assert make_agent(f"{tmp_path / 'plain.npz'}[choose=move]").choose == "move"
    with pytest.raises(GoldrushEnvError, match=r"choose must be None or one of \['position', 'move'\], got 'moves'"):
        TrainedPolicy(tmp_path / "plain.npz", choose="moves")
    with pytest.raises(GoldrushEnvError, match=r"odd\.npz' says to choose by 'card'"):
        TrainedPolicy(tmp_path / "odd.npz")


def test_evaluate_command_prints_and_saves_its_table(tmp_path, capsys):
    from goldrush_train.evaluate import main as evaluate_main

    torch.manual_seed(0)
    path = tmp_path / "model.npz"
    np.savez(path, **export_weights(GoldNet(width=8, context=4), 2))
    rows = evaluate_main([str(path), "--agents", "random", "--games", "4", "--workers", "1",
                          "--out", str(tmp_path / "eval.json")])
    printed = capsys.readouterr().out
    assert "| random | 4 |" in printed and len(rows) == 1
    saved = json.loads((tmp_path / "eval.json").read_text())
    assert saved["rows"][0]["games"] == 4 and saved["args"]["model"] == str(path)


def test_evaluate_command_plays_the_game_it_is_given(capsys):
    from goldrush_train.evaluate import main as evaluate_main

    [row] = evaluate_main(["economist", "--game", "piecepack", "--agents", "random", "--games", "6", "--workers", "1"])
    assert row.games == 6 and row.fair_share == pytest.approx(1 / 3)  # Gold Rush seats 3 by default
    assert row.win_share > 0.5 and row.model_points > row.opponent_points  # the economist is no random player
    assert "(Gold Rush (piecepack), 3 players, seed 0" in capsys.readouterr().out


def test_a_trained_model_is_a_gymnasium_opponent(tmp_path):
    from goldrush_env.gold import GoldEnv

    torch.manual_seed(0)
    path = tmp_path / "model.npz"
    np.savez(path, **export_weights(GoldNet(width=8, context=4), 2))
    env = GoldEnv(num_players=3, opponents=TrainedPolicy(path), seat="random")
    _, info = env.reset(seed=0)
    done, rng = False, np.random.default_rng(0)
    while not done:
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = terminated or truncated
    assert "illegal_action" not in info and sorted(info["winners"]) == list(info["winners"])


def test_batched_vec_env_follows_sb3_conventions():
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import VecMonitor

    from goldrush_train.gold.vec_env import BatchedVecEnv

    venv = VecMonitor(BatchedVecEnv(4, opponents={"random": 1, "greedy": 1}, num_players=2, **VERSION_0))
    venv.seed(7)
    observations = venv.reset()
    assert observations.shape == (4, OBSERVATION_SIZE) and is_masking_supported(venv)
    rng, finished, episodes = np.random.default_rng(0), 0, []
    while finished < 6:
        masks = get_action_masks(venv)
        assert masks.shape == (4, 64) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        observations, rewards, dones, infos = venv.step(actions)
        for done, info in zip(dones, infos):
            if done:
                finished += 1
                assert info["terminal_observation"].shape == (OBSERVATION_SIZE,)
                assert info["TimeLimit.truncated"] is False and "episode" in info  # VecMonitor's statistics
                episodes.append(info["episode"]["r"])
    assert set(np.round(episodes, 6)) <= {-1.0, 0.0, 1.0}  # "win" rewards, summed by VecMonitor
    venv.env_method("set_mix", {"greedy": 1.0})
    assert venv.unwrapped.venv.opponent_names == ["greedy"]
    with pytest.raises(AttributeError, match="no per-environment method 'render'"):
        venv.env_method("render")


def test_tiny_batched_run_trains_and_evaluates(tmp_path, capsys):
    run = tmp_path / "run"
    tiny = [a if a != "dummy" else "batched" for a in TINY]
    summary = main(["--run-dir", str(run)] + tiny + ["--total-timesteps", "256", "--eval-every", "128",
                                                     "--checkpoint-every", "128", "--self-play", "0.5",
                                                     "--snapshot-every", "128"])
    assert summary["steps"] >= 256 and (run / "model.npz").is_file()
    assert len((run / "eval.csv").read_text().splitlines()) == 1 + 2 * 2
    assert len(list((run / "league").iterdir())) == 2  # snapshots played through the batched model adapter
    assert "--vec-env batched plays with perfect memory" in refused(["--run-dir", str(tmp_path / "other"),
                                                                     "--memory", "human"] + tiny, capsys)


def test_a_run_can_start_from_saved_weights(tmp_path, capsys):
    torch.manual_seed(1)
    start = tmp_path / "start.npz"
    np.savez(start, **export_weights(GoldNet(width=8, context=4), 2))
    run = tmp_path / "run"
    main(["--run-dir", str(run)] + TINY + ["--imitation-games", "0", "--init-from", str(start),
                                           "--total-timesteps", "128", "--eval-every", "128",
                                           "--checkpoint-every", "128", "--learning-rate", "1e-12"])
    with np.load(start) as before, np.load(run / "model.npz") as after:
        for name in before.files:  # a vanishing step size: PPO barely moves the loaded weights
            np.testing.assert_allclose(after[name], before[name], atol=1e-6)
    error = refused(["--run-dir", str(tmp_path / "other")] + TINY + ["--width", "16", "--init-from", str(start)],
                    capsys)
    assert f"--init-from '{start}' has --width 8 --context 4, this run --width 16 --context 4" in error


def test_a_warm_start_fits_saved_decisions_after_the_games(tmp_path, monkeypatch):
    # With no PPO steps the run saves and evaluates the warm start alone.
    import torch
    from goldrush_train.gold.decisions import collect, save

    data = tmp_path / "search.npz"
    save(collect(1, teacher="ismcts[iterations=10]", seed=2, workers=1), data)
    run = tmp_path / "run"
    threads = []
    monkeypatch.setattr(torch, "set_num_threads", threads.append)
    summary = main(["--run-dir", str(run)] + TINY + ["--imitation-data", str(data), "--imitation-data-epochs", "2",
                                                     "--imitation-target", "move", "--total-timesteps", "0",
                                                     "--torch-threads", "1", "--play-by", "position"])
    assert threads and set(threads) == {1}  # the warm start too keeps to an explicit --torch-threads
    games, saved = summary["imitation"]["phases"]
    assert games["source"] == "2 games of expert" and saved["source"] == str(data)
    assert (games["epochs"], saved["epochs"]) == (1, 2)
    assert summary["imitation"]["decisions"] == games["decisions"] + saved["decisions"]
    assert summary["steps"] == 0 and [r["opponent"] for r in summary["final_evaluation"]] == ["random", "greedy"]
    assert (run / "model.npz").is_file() and not (run / "checkpoints").exists()
    with np.load(run / "model.npz") as model:
        assert "config.choose" not in model.files  # --play-by position: read as models written before the option
    shares = tmp_path / "shares"
    summary = main(["--run-dir", str(shares)] + TINY + ["--imitation-games", "0", "--imitation-data", str(data),
                                                        "--total-timesteps", "0"])
    assert summary["args"]["imitation_target"] == "visits"  # the default
    [fitted] = summary["imitation"]["phases"]
    assert fitted["decisions"] == saved["decisions"]
    assert TrainedPolicy(shares / "model.npz").choose == "move"  # fitted to visit shares: played by move
    # ... so the warm start reports how often its most likely move is the teacher's, as the model plays.
    assert 0 <= fitted["move_matches"] <= 1 and "move_matches" not in saved


def test_an_anchor_keeps_ppo_fitting_the_teachers_decisions(tmp_path, capsys):
    from goldrush_train.gold.decisions import collect, load, save, score

    data = save(collect(2, teacher="expert", seed=8, workers=1), tmp_path / "expert.npz")
    decisions = load(data, num_players=2, target="move")
    start = tmp_path / "start.npz"
    torch.manual_seed(2)
    np.savez(start, **export_weights(GoldNet(width=8, context=4), 2))

    def cross_entropy_after(coef, name):
        run = tmp_path / name
        main(["--run-dir", str(run)] + TINY + ["--imitation-games", "0", "--init-from", str(start),
                                               "--total-timesteps", "1024", "--eval-every", "1024",
                                               "--checkpoint-every", "1024", "--learning-rate", "3e-3",
                                               "--n-epochs", "8", "--anchor-data", str(data),
                                               "--anchor-coef", str(coef)])
        net = GoldNet(width=8, context=4)
        with np.load(run / "model.npz") as weights:
            net.load_state_dict({k: torch.as_tensor(weights[k]) for k in weights.files if not k.startswith("config")})
        return score(net, decisions)["cross_entropy"], run

    anchored, run = cross_entropy_after(5.0, "anchored")
    free, _ = cross_entropy_after(0.0, "free")
    assert anchored < free - 0.2  # the same PPO steps from the same weights, but fitting the expert's flips too
    logged = (run / "logs" / "progress.csv").read_text().splitlines()
    assert "train/anchor_cross_entropy" in logged[0].split(",")
    assert "--anchor-coef must be a finite number >= 0, got -1.0" in \
        refused(["--run-dir", str(tmp_path / "bad")] + TINY + ["--anchor-coef", "-1"], capsys)
    assert "--anchor-data 'nowhere.npz' is not a file" in \
        refused(["--run-dir", str(tmp_path / "bad")] + TINY + ["--anchor-data", "nowhere.npz"], capsys)
    assert not (tmp_path / "bad").exists()
