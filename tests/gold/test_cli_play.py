"""``goldrush play`` driven in-process with typed answers: the seed, the legend, errors named by square."""

import io
import json
import re

import pytest

import goldrush_env
import goldrush_env.gold
from goldrush_env.gold.cards import DYNAMITE, card_code
from goldrush_env.gold.render import legend, square_name
from conftest import typist
from goldrush_agents.cli import build_parser, cmd_play

EVERY_SQUARE = [f"{c}{r}" for r in range(1, 9) for c in "abcdefgh"]


def play(*argv, answers=()):
    """Play with these answers typed at the prompt (then end of input, which quits); the printed text."""
    args = build_parser().parse_args(["play", *argv])
    out = io.StringIO()
    assert cmd_play(args, out=out, read=typist(answers)) == 0
    return out.getvalue()


def test_the_start_mentions_the_help():
    out = play("--seed", "1", "--opponents", "greedy")
    assert out.splitlines()[0] == ("Gold: you are seat 0 of 2; type a square such as c4 to flip it, "
                                   "? for the card codes and the rules, q to quit.")


@pytest.mark.parametrize("answer", ["?", "help", "HELP"])
def test_a_question_mark_prints_the_legend_and_the_game_goes_on(answer):
    out = play("--seed", "1", "--opponents", "greedy", answers=[answer, "a1"])
    assert legend(2) in out
    assert "colours  seat 0: colours 0+1; seat 1: colours 2+3; unowned: 4 (with 2 players)" in out
    assert "you (seat 0) flips" in out.split(legend(2))[1]  # the prompt came back and took a square


def test_the_legend_names_the_colours_of_the_game_played():
    out = play("--players", "3", "--seed", "1", "--opponents", "greedy", answers=["?"])
    assert "colours  seat 0: colour 0; seat 1: colour 1; seat 2: colour 2; unowned: 3+4 (with 3 players)" in out
    assert legend(3) in out


def test_without_a_seed_the_deal_is_fresh_and_its_printed_seed_replays_it(tmp_path):
    answers = EVERY_SQUARE * 60  # illegal squares are refused, the game goes on to its end
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    one = play("--opponents", "random", "--save", str(first), answers=answers)
    two = play("--opponents", "random", "--save", str(second), answers=answers)
    seeds = [re.search(r"^seed (\d+): replay this deal with --seed \1$", text, re.M) for text in (one, two)]
    assert all(seeds), (one[:300], two[:300])
    seed = int(seeds[0][1])
    assert seed != int(seeds[1][1])
    record, other = json.loads(first.read_text()), json.loads(second.read_text())
    assert record["seed"] == seed and record["layout"] != other["layout"]
    replayed = tmp_path / "again.json"
    again = play("--opponents", "random", "--seed", str(seed), "--save", str(replayed), answers=answers)
    assert "replay this deal" not in again  # a seed given is not repeated back
    assert again.splitlines()[:-1] == [line for line in one.splitlines()[:-1] if not line.startswith("seed ")]
    assert json.loads(replayed.read_text()) == record


def test_illegal_squares_are_named_as_squares():
    seed = 7
    env = goldrush_env.gold.raw_env(num_players=2)
    env.reset(seed=seed)
    layout = env.game.to_record()["layout"]
    dynamite = layout.index(card_code(DYNAMITE))
    other = next(p for p in range(64) if p != dynamite)
    boom, partner = square_name(dynamite), square_name(other)
    # dynamite face up, flipped again; then its partner: both leave; after the opponent's turn, flip it again
    out = play("--seed", str(seed), "--opponents", "greedy",
               answers=[boom, boom.upper(), partner, "", "z9", "a0", "c44", boom, "q"])
    lines = [line.strip() for line in out.splitlines()]
    assert f"{boom} is already face up: choose a face-down card" in lines
    assert f"you (seat 0) flips   D at {boom}" in out and f"at {partner}: dynamite" in out
    assert "type a square such as c4, ? for help, or q to quit" in lines
    for typed in ("z9", "a0", "c44"):
        assert f"{typed} is not a square: columns a-h, rows 1-8, e.g. c4 (? for help)" in lines
    assert f"{boom} is empty (its card has left the game): choose a face-down card" in lines
    assert "position" not in out
    assert out.rstrip().endswith("bye")
