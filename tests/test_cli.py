"""The goldrush command line, driven end to end as a user would."""

import io
import json
import re
import subprocess
import sys

import pytest

from goldrush_agents.cli import build_parser, main
from goldrush_env.games import specs

from conftest import typist


def goldrush(*args, stdin=""):
    """``goldrush args`` as a user types it, in a process of its own. Each command runs so at least once here; the
    other checks run it in this process (``run``, ``main``), which spares starting Python for each."""
    return subprocess.run([sys.executable, "-m", "goldrush_agents.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=300)


def run(*argv, read=None):
    """Run a command in-process, as ``goldrush`` would (``read`` answers play's prompts); its stdout as a string."""
    args = build_parser().parse_args(list(argv))
    out = io.StringIO()
    assert args.run(args, out=out, **({"read": read} if read else {})) == 0
    return out.getvalue()


def refused(capsys, *argv):
    """The exit status and stderr of ``goldrush argv`` in this process (a bad option: argparse exits)."""
    try:
        status = main(list(argv))
    except SystemExit as stop:
        status = stop.code
    return status, capsys.readouterr().err


@pytest.mark.parametrize("command", ["play", "watch", "replay", "tournament", "serve"])
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0 and "usage: goldrush " + command in capsys.readouterr().out


def test_watch_saves_a_game_that_replays_exactly(tmp_path):
    record = tmp_path / "game.json"
    watched = goldrush("watch", "--agents", "greedy,expert,random", "--seed", "5", "--save", str(record))
    assert watched.returncode == 0, watched.stderr
    assert "seat 0 greedy, seat 1 expert, seat 2 random" in watched.stdout
    assert "seed" not in watched.stdout  # a seed given is not repeated back
    replayed = goldrush("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.splitlines() == watched.stdout.splitlines()[:-1]  # the same game, flip by flip
    data = json.loads(record.read_text())
    assert data["players"] == ["greedy", "expert", "random"] and len(data["events"]) == len(data["flips"])


def test_replay_refuses_a_tampered_or_missing_record(tmp_path, capsys):
    record = tmp_path / "game.json"
    run("watch", "--agents", "greedy,random", "--save", str(record))
    data = json.loads(record.read_text())
    data["events"][1] = "duel" if data["events"][1] != "duel" else "nothing"
    record.write_text(json.dumps(data))
    status, error = refused(capsys, "replay", str(record))
    assert status == 2 and "flip #1 replays as" in error
    status, error = refused(capsys, "replay", str(tmp_path / "none.json"))
    assert status == 2
    assert error == f"goldrush replay: there is no file {str(tmp_path / 'none.json')!r}\n"


@pytest.mark.parametrize("content, complaint", [
    ('{"players": [1', "is not a game record: a record is JSON, and this file stops being JSON at line 1, column 15"),
    (b"\xff\xfe\x00binary", "cannot read {!r}: it is not a text file"),
    ("[1, 2]", f"is not a record of any game here ({', '.join(game.title for game in specs())})"),
])
def test_replay_says_in_words_why_a_file_is_no_record(tmp_path, capsys, content, complaint):
    path = tmp_path / "game.json"
    path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content)
    assert main(["replay", str(path)]) == 2
    said = capsys.readouterr().err
    assert said.startswith("goldrush replay: ") and "Expecting" not in said and "codec" not in said
    assert complaint.format(str(path)) in said


def test_play_reprompts_on_bad_input_and_quits_cleanly():
    result = goldrush("play", "--opponents", "greedy", "--seed", "1", stdin="zz\nc4\nc4\nd4\n\nq\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "zz is not a square: columns a-h, rows 1-8" in out
    assert "c4 is already face up: choose a face-down card" in out and "position" not in out
    assert "you (seat 0) flips" in out and "greedy (seat 1) flips" in out
    assert out.rstrip().endswith("bye")


def test_play_a_whole_game_to_the_end(tmp_path):
    squares = [f"{c}{r}" for r in range(1, 9) for c in "abcdefgh"]
    # Offer every square in turn, over and over: illegal ones are refused, the game goes on to its end.
    record = tmp_path / "mine.json"
    out = run("play", "--opponents", "random", "--memory-mode", "real", "--save", str(record),
              read=typist(squares * 60))
    assert any(line in out for line in ("you win!", "you lose", "a shared victory"))
    assert "game over" in run("replay", str(record))


def test_bad_arguments_give_clear_errors(capsys):
    status, error = refused(capsys, "watch", "--agents", "greedy")
    assert status == 2 and "--agents needs 2 to 5 names" in error
    status, error = refused(capsys, "play", "--players", "3", "--opponents", "greedy,expert,random")
    assert status == 2
    assert ("--opponents needs one name for both opponents of a 3-player game, or 2 names (one per opponent), "
            "got 3: ['greedy', 'expert', 'random']") in error
    status, error = refused(capsys, "tournament", "--agents", "greedy,wizard", "--games", "2")
    assert status == 2 and "unknown agent 'wizard'" in error
    status, error = refused(capsys, "tournament", "--agents", "greedy,ismcts[iterations=-1]", "--games", "2")
    assert status == 2 and "iterations must be an int >= 1, got -1" in error


def test_an_entrant_takes_options_on_the_command_line():
    out = run("watch", "--agents", "ismcts[iterations=5,horizon=0],greedy", "--seed", "1")
    assert "ismcts[iterations=5,horizon=0] (seat 0) flips" in out


def test_tournament_command_writes_its_outputs(tmp_path):
    result = goldrush("tournament", "--agents", "random,greedy", "--games", "8", "--no-progress",
                      "--out", str(tmp_path), "--match")
    assert result.returncode == 0, result.stderr
    assert "win rate" in result.stdout and "pairings (2 players" in result.stdout
    assert (tmp_path / "results.json").exists() and (tmp_path / "chart.png").exists()


def test_batched_tournament_command(tmp_path, capsys):
    out = run("tournament", "--agents", "random,greedy,taught", "--games", "20", "--no-progress", "--batched",
              "--out", str(tmp_path))
    assert "greedy vs taught" in out and len((tmp_path / "games.csv").read_text().splitlines()) == 1 + 60
    status, error = refused(capsys, "tournament", "--agents", "random,greedy", "--games", "2", "--batched",
                            "--memory", "human")
    assert status != 0 and "perfect memory" in error


def test_play_against_the_shipped_model_and_watch_it():
    from goldrush_agents.gold.trained import SHIPPED_MODEL

    if not SHIPPED_MODEL.is_file():
        pytest.fail(f"the package ships no model at {SHIPPED_MODEL}")
    played = run("play", "--opponents", "taught", "--seed", "2", read=typist(["a1", "b1", "q"]))
    assert "taught (seat 1) flips" in played
    assert "seat 0 taught, seat 1 expert" in run("watch", "--agents", "taught,expert", "--seed", "3")


def test_play_against_the_model_learned_from_scratch():
    out = run("play", "--opponents", "scratch", "--seed", "2", read=typist(["a1", "b1", "q"]))
    assert "scratch (seat 1) flips" in out


# --- the rough edges a new user meets, mostly checked in-process (fast) --------------------------------------------


def printed_seed(text):
    match = re.match(r"seed (\d+): replay this deal with --seed (\d+)\n", text)
    assert match and match[1] == match[2], text[:200]
    return int(match[1])


def test_watch_without_a_seed_deals_afresh_and_prints_a_seed_that_replays_it(tmp_path):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    one = run("watch", "--agents", "greedy,random", "--save", str(first))
    two = run("watch", "--agents", "greedy,random", "--save", str(second))
    seed_one, seed_two = printed_seed(one), printed_seed(two)
    assert seed_one != seed_two
    deal_one, deal_two = json.loads(first.read_text()), json.loads(second.read_text())
    assert deal_one["layout"] != deal_two["layout"]
    assert (deal_one["seed"], deal_two["seed"]) == (seed_one, seed_two)  # the record keeps the seed too
    again = run("watch", "--agents", "greedy,random", "--seed", str(seed_one))
    assert again.splitlines() == one.splitlines()[1:-1]  # the same game, less the seed and the 'saved' lines


def test_tournament_keeps_a_fixed_default_seed(capsys):
    assert build_parser().parse_args(["tournament", "--agents", "greedy,random"]).seed == 0
    assert build_parser().parse_args(["watch", "--agents", "greedy,random"]).seed is None
    assert build_parser().parse_args(["play"]).seed is None
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "(default: 0, so that a tournament gives the same results every time it is run)" in help_text


def test_watch_prints_who_owns_each_colour_once():
    out = run("watch", "--agents", "greedy,random,random", "--seed", "2")
    assert out.splitlines()[1] == "miners  seat 0: colour 0; seat 1: colour 1; seat 2: colour 2; unowned: 3+4"
    assert out.count("miners  ") == 1


SECONDS = "argument --delay: expected a number of seconds >= 0, got"


@pytest.mark.parametrize("argv, complaint", [
    (["watch", "--agents", "greedy,random", "--delay", "-1"], f"{SECONDS} '-1'"),
    (["watch", "--agents", "greedy,random", "--delay", "nan"], f"{SECONDS} 'nan'"),
    (["replay", "game.json", "--delay", "-0.5"], f"{SECONDS} '-0.5'"),
    (["tournament", "--agents", "greedy,random", "--games", "0"], "argument --games: expected an int >= 1, got 0"),
    (["tournament", "--agents", "greedy,random", "--games", "-3"], "argument --games: expected an int >= 1, got -3"),
    (["tournament", "--agents", "greedy,random", "--workers", "0"], "argument --workers: expected an int >= 1, got 0"),
    (["watch", "--agents", "greedy,random", "--max-turns", "0"], "argument --max-turns: expected an int >= 1, got 0"),
    (["play", "--max-turns", "-5"], "argument --max-turns: expected an int >= 1, got -5"),
    (["play", "--max-turns", "ten"], "argument --max-turns: expected an int >= 1, got 'ten'"),
    (["watch", "--agents", "greedy,random", "--seed", "-1"], "argument --seed: expected an int >= 0, got -1"),
])
def test_bad_numbers_are_refused_when_the_options_are_read(argv, complaint, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert f"goldrush {argv[0]}: error: {complaint}\n" in capsys.readouterr().err


@pytest.mark.parametrize("argv, complaint", [
    (["play", "--seat", "2"], "--seat must be a seat from 0 to 1, got 2"),
    (["play", "--players", "3", "--seat", "-1"], "--seat must be a seat from 0 to 2, got -1"),
    (["play", "--players", "2", "--opponents", "greedy,expert"],
     "--opponents needs one name for the opponent of a 2-player game, got 2: ['greedy', 'expert']"),
    (["play", "--players", "5", "--opponents", "greedy,expert"],
     "--opponents needs one name for all 4 opponents of a 5-player game, or 4 names (one per opponent), "
     "got 2: ['greedy', 'expert']"),
])
def test_play_refuses_bad_seats_and_opponents_in_one_line(argv, complaint, capsys):
    assert main(argv) == 2
    assert capsys.readouterr().err == f"goldrush play: {complaint}\n"


@pytest.mark.parametrize("command", ["play", "watch"])
def test_players_is_checked_the_same_way_in_play_and_watch(command, capsys):
    assert main([command, "--players", "7", "--agents" if command == "watch" else "--opponents", "random"]) == 2
    assert capsys.readouterr().err == f"goldrush {command}: --players must be 2 to 5 for Gold, got 7\n"


def test_watch_seats_one_name_at_every_seat_of_players(capsys):
    assert "seat 0 random, seat 1 random, seat 2 random" in run("watch", "--players", "3", "--agents", "random",
                                                                "--seed", "2")
    assert main(["watch", "--players", "3", "--agents", "random,greedy"]) == 2
    assert "--players 3 but --agents names 2 seats" in capsys.readouterr().err


def test_help_is_plain_text_with_no_markup(capsys):
    texts = {"": goldrush("--help").stdout}  # as a user sees it
    for command in ("play", "watch", "replay", "tournament", "serve"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        texts[command] = capsys.readouterr().out
    for command, text in texts.items():
        assert text.startswith("usage: goldrush") and not re.search(r"``|:mod:|:func:|:class:", text), command


def test_a_negative_delay_gives_no_traceback():
    result = goldrush("watch", "--agents", "greedy,random", "--delay", "-1")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == ("goldrush watch: error: argument --delay: "
                                              "expected a number of seconds >= 0, got '-1'")


@pytest.mark.parametrize("suffix, complaint", [(".zip", "is not a MaskablePPO checkpoint"),
                                               (".npz", "is not a .npz model")])
def test_a_corrupt_model_file_gives_one_clean_line(tmp_path, suffix, complaint):
    bad = tmp_path / f"bad{suffix}"
    bad.write_bytes(b"these are not the weights you are looking for" * 20)
    result = goldrush("watch", "--agents", f"{bad},greedy", "--seed", "1")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"goldrush watch: {str(bad)!r} {complaint}")
    assert len(result.stderr.splitlines()) == 1, result.stderr


def test_module_demo_says_what_it_is_and_ends_once(capsys):
    from goldrush_env.__main__ import main as demo

    assert demo(["--players", "3", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("A game of Gold between 3 seats that act at random")
    assert "seed 0" in out.splitlines()[0] and "seat 2: flip " in out and "flips" in out  # the move, then the event
    assert out.count("game over after") == 1
    assert out.rstrip().splitlines()[-1].startswith("game over after")
    with pytest.raises(SystemExit) as stop:
        demo(["--seed", "-1"])
    assert stop.value.code == 2 and "argument --seed: expected an int >= 0, got -1" in capsys.readouterr().err
