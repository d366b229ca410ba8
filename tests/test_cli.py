"""The goldrush command line, driven end to end as a user would."""

import json
import subprocess
import sys

import pytest


def goldrush(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "goldrush_agents.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("command", ["play", "watch", "replay", "tournament"])
def test_every_command_has_help(command):
    result = goldrush(command, "--help")
    assert result.returncode == 0 and "usage: goldrush " + command in result.stdout


def test_watch_saves_a_game_that_replays_exactly(tmp_path):
    record = tmp_path / "game.json"
    watched = goldrush("watch", "--agents", "greedy,expert,random", "--seed", "5", "--save", str(record))
    assert watched.returncode == 0, watched.stderr
    assert "seat 0 greedy, seat 1 expert, seat 2 random" in watched.stdout
    replayed = goldrush("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.splitlines()[1:] == watched.stdout.splitlines()[1:-1]  # the same game, flip by flip
    data = json.loads(record.read_text())
    assert data["players"] == ["greedy", "expert", "random"] and len(data["events"]) == len(data["flips"])


def test_replay_refuses_a_tampered_or_missing_record(tmp_path):
    record = tmp_path / "game.json"
    assert goldrush("watch", "--agents", "greedy,random", "--save", str(record)).returncode == 0
    data = json.loads(record.read_text())
    data["events"][1] = "duel" if data["events"][1] != "duel" else "nothing"
    record.write_text(json.dumps(data))
    result = goldrush("replay", str(record))
    assert result.returncode == 2 and "flip #1 replays as" in result.stderr
    missing = goldrush("replay", str(tmp_path / "none.json"))
    assert missing.returncode == 2 and "cannot read a game record" in missing.stderr


def test_play_reprompts_on_bad_input_and_quits_cleanly():
    result = goldrush("play", "--opponents", "greedy", "--seed", "1", stdin="zz\nc4\nc4\nd4\n\nq\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "square 'zz' is not a column a-h followed by a row 1-8" in out
    assert "position 26 is already face up" in out
    assert "you (seat 0) flips" in out and "greedy (seat 1) flips" in out
    assert out.rstrip().endswith("bye")


def test_play_a_whole_game_to_the_end(tmp_path):
    squares = [f"{c}{r}" for r in range(1, 9) for c in "abcdefgh"]
    # Offer every square in turn, over and over: illegal ones are refused, the game goes on to its end.
    answers = "\n".join(squares * 60) + "\n"
    record = tmp_path / "mine.json"
    result = goldrush("play", "--opponents", "random", "--memory-mode", "real", "--save", str(record), stdin=answers)
    assert result.returncode == 0, result.stderr
    assert any(line in result.stdout for line in ("you win!", "you lose", "a shared victory"))
    assert goldrush("replay", str(record)).returncode == 0


def test_bad_arguments_give_clear_errors():
    result = goldrush("watch", "--agents", "greedy")
    assert result.returncode == 2 and "--agents needs 2 to 5 names" in result.stderr
    result = goldrush("play", "--players", "3", "--opponents", "greedy,expert,random")
    assert result.returncode == 2 and "--opponents needs 1 or 2 names" in result.stderr
    result = goldrush("tournament", "--agents", "greedy,wizard", "--games", "2")
    assert result.returncode == 2 and "unknown agent 'wizard'" in result.stderr
    result = goldrush("tournament", "--agents", "greedy,ismcts[iterations=-1]", "--games", "2")
    assert result.returncode == 2 and "iterations must be an int >= 1, got -1" in result.stderr


def test_an_entrant_takes_options_on_the_command_line():
    result = goldrush("watch", "--agents", "ismcts[iterations=5,horizon=0],greedy", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert "ismcts[iterations=5,horizon=0] (seat 0) flips" in result.stdout


def test_tournament_command_writes_its_outputs(tmp_path):
    result = goldrush("tournament", "--agents", "random,greedy", "--games", "8", "--no-progress",
                      "--out", str(tmp_path), "--match")
    assert result.returncode == 0, result.stderr
    assert "win rate" in result.stdout and "pairings (2 players" in result.stdout
    assert (tmp_path / "results.json").exists() and (tmp_path / "chart.png").exists()


def test_batched_tournament_command(tmp_path):
    result = goldrush("tournament", "--agents", "random,greedy,ppo", "--games", "20", "--no-progress",
                      "--batched", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "greedy vs ppo" in result.stdout and len((tmp_path / "games.csv").read_text().splitlines()) == 1 + 60
    refused = goldrush("tournament", "--agents", "random,greedy", "--games", "2", "--batched", "--memory", "human")
    assert refused.returncode != 0 and "perfect memory" in refused.stderr


def test_play_against_the_shipped_model_and_watch_it():
    from goldrush_agents.trained import SHIPPED_MODEL

    if not SHIPPED_MODEL.is_file():
        pytest.fail(f"the package ships no model at {SHIPPED_MODEL}")
    result = goldrush("play", "--opponents", "ppo", "--seed", "2", stdin="a1\nb1\nq\n")
    assert result.returncode == 0, result.stderr
    assert "ppo (seat 1) flips" in result.stdout
    watched = goldrush("watch", "--agents", "ppo,expert", "--seed", "3")
    assert watched.returncode == 0 and "seat 0 ppo, seat 1 expert" in watched.stdout
