"""``goldrush ... --game piecepack``: watch, replay, tournament and play for the second game, in-process."""

import csv
import io
import json
import re

import pytest

from conftest import typist
from goldrush_agents.cli import build_parser, main
from goldrush_env.piecepack.engine import Game


def run(*argv, answers=None):
    """The command's exit code and printed text; ``answers`` are typed at play's prompt (then end of input)."""
    args = build_parser().parse_args(list(argv))
    out = io.StringIO()
    if answers is None:
        return args.run(args, out=out), out.getvalue()
    return args.run(args, out=out, read=typist(answers)), out.getvalue()


def test_watch_saves_a_record_that_replays_as_it_was_watched(tmp_path):
    path = tmp_path / "game.json"
    code, watched = run("watch", "--game", "piecepack", "--agents", "economist,random,random", "--seed", "3",
                        "--save", str(path))
    assert code == 0
    assert watched.startswith("Gold Rush (piecepack), 3 players: seat 0 economist, seat 1 random, seat 2 random")
    record = json.loads(path.read_text())
    game = Game.from_record(record)  # a record of §9, with the names beside it
    assert game.is_over and record["names"] == ["economist", "random", "random"]
    code, replayed = run("replay", str(path))  # known as a piecepack record without --game
    assert code == 0
    assert replayed.splitlines() == watched.splitlines()[:-1]  # the same game, action by action
    assert f"scores economist {game.scores()[0]}" in replayed


def test_replay_refuses_a_tampered_record(tmp_path):
    path = tmp_path / "game.json"
    assert run("watch", "--game", "piecepack", "--agents", "random,random,random", "--seed", "1",
               "--save", str(path))[0] == 0
    record = json.loads(path.read_text())
    record["final"]["scores"][0] += 5
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 2


def test_tournament_rates_the_entrants_over_every_seat_and_start(tmp_path):
    code, text = run("tournament", "--game", "piecepack", "--agents", "economist,random", "--games", "6",
                     "--players", "3", "--workers", "1", "--no-progress", "--out", str(tmp_path), "--records")
    assert code == 0
    assert "pairings (3 players" in text and " gold " not in text.splitlines()[0]
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["game"] == "piecepack"
    standings = {row["name"]: row for row in saved["standings"]}
    assert standings["economist"]["games"] + standings["random"]["games"] == 2 * 6 * 3  # both directions
    assert standings["economist"]["rating"] > standings["random"]["rating"]
    with open(tmp_path / "games.csv") as handle:
        starts = {row["first_player"] for row in csv.DictReader(handle)}
    assert starts == {"0", "1", "2"}
    records = sorted((tmp_path / "games").iterdir())
    assert len(records) == 2 * 6 and f"wrote {tmp_path / 'games'}/ (one record per game)" in text
    code, replayed = run("replay", str(records[0]))  # a piecepack record, known without --game
    assert code == 0 and "game over; scores economist" in replayed


def test_play_lists_the_actions_and_takes_a_number():
    code, text = run("play", "--game", "piecepack", "--seed", "2", "--seat", "0", answers=["999", "l"])
    assert code == 0
    assert "you are seat 0 of 3" in text and "'999' is not one of your actions now" in text
    listed = re.findall(r"^\s+(\d+)  ", text, flags=re.M)
    assert listed and text.rstrip().endswith("bye")


def test_a_whole_game_played_at_the_prompt(tmp_path):
    """Always the first action listed: the game runs to its end and saves a record that replays."""
    path = tmp_path / "mine.json"
    args = build_parser().parse_args(["play", "--game", "piecepack", "--seed", "4", "--players", "4",
                                      "--opponents", "random", "--save", str(path)])
    out = io.StringIO()

    def read(prompt):
        listed = re.findall(r"^\s+(\d+)  ", out.getvalue(), flags=re.M)
        return listed[-1]  # the last action of the latest list: ending a phase, which is always there

    assert args.run(args, out=out, read=read) == 0
    assert re.search(r"you win!|a shared victory|you lose", out.getvalue())
    assert Game.from_record(json.loads(path.read_text())).is_over


@pytest.mark.parametrize(("argv", "message"), [
    (["tournament", "--game", "piecepack", "--agents", "economist,expert"],
     "unknown agent 'expert': expected one of ['economist', 'idle', 'random', 'search']"),
    (["tournament", "--game", "piecepack", "--agents", "random", "--players", "2"],
     "--players must be 3 or 4 for Gold Rush (piecepack), got 2"),
    (["watch", "--game", "piecepack", "--agents", "random,random"], "needs 3 or 4 names"),
    (["watch", "--game", "piecepack", "--agents", "random,random,random", "--table", "half"],
     "--table is an option of Gold; leave it out with --game piecepack"),
    (["tournament", "--game", "piecepack", "--agents", "random,economist", "--batched"],
     "the players of Gold Rush (piecepack) cannot play many games at once"),
    (["play", "--game", "piecepack", "--opponents", "economist,random,random"],
     "--opponents needs one name for both opponents of a 3-player game, or 2 names"),
])
def test_mistakes_are_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
