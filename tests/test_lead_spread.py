"""benchmarks/lead_spread.py: how far a 2-player lead moves with the gold left on the table."""

import subprocess
import sys
from pathlib import Path

import pytest

from goldrush_agents import make_agent
from goldrush_agents.arena import play_game
from benchmarks.lead_spread import play
from goldrush_env.gold.cards import EMPTY, IS_GOLD, VALUE, parse_card
from goldrush_env.gold.engine import Game

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = str(ROOT / "benchmarks" / "lead_spread.py")


def test_a_game_gives_each_flip_its_gold_left_and_how_far_the_lead_moved_after_it():
    states = play(("expert", "greedy"), seed=5, first_player=1)
    # The same game from the arena, counted by hand from its deal and its events: the gold that each flip
    # removes leaves the count, and goes to the seat that receives it.
    result = play_game([make_agent("expert"), make_agent("greedy")], seed=5, first_player=1)
    game = Game.from_dict(result.record)
    deal = [parse_card(code) for code in result.record["layout"]]
    gold_of = [VALUE[card] if card != EMPTY and IS_GOLD[card] else 0 for card in deal]
    gold, lead, before = sum(gold_of), 0, []
    for event in game.history:
        before.append((gold, lead))
        taken = sum(gold_of[position] for position in event.removed)
        gold -= taken
        if event.receiver is not None:
            lead += taken if event.receiver == 0 else -taken
    assert game.is_finished and gold == 0 and lead == result.scores[0] - result.scores[1]
    assert states == [(left, lead - then) for left, then in before]
    assert len(states) > 20 and any(change != 0 for _, change in states)


def test_the_pooled_spread_is_the_root_mean_square_of_each_change_over_its_scale(capsys):
    """The figure behind WIN_SPREAD, recomputed from its definition over the same games: each state's lead
    change squared over (gold left + 0.5), averaged over every state of every game, square-rooted."""
    import math

    import numpy as np

    from benchmarks.lead_spread import main

    pooled = main(["--games", "3", "--seed", "4"])
    seeds = np.random.SeedSequence(4).generate_state(3, dtype=np.uint64) >> np.uint64(1)
    states = [state for i, seed in enumerate(seeds) for state in play(("expert", "greedy"), int(seed), i % 2)]
    expected = math.sqrt(sum(change ** 2 / (gold + 0.5) for gold, change in states) / len(states))
    assert pooled == pytest.approx(expected, rel=1e-12) and 0.5 < pooled < 3
    assert capsys.readouterr().out.splitlines()[-1] == f"pooled s = {expected:.2f}"


def test_the_script_prints_the_pooled_spread_and_refuses_bad_arguments():
    out = subprocess.run([sys.executable, SCRIPT, "--games", "3"], capture_output=True, text=True, check=True).stdout
    assert out.startswith("expert,greedy: 3 games, ") and "pooled s = " in out
    for argv, message in ([["--games", "0"], "--games must be >= 1, got 0"],
                          [["--players", "greedy"], "--players must name two entrants, got 'greedy'"]):
        bad = subprocess.run([sys.executable, SCRIPT, *argv], capture_output=True, text=True)
        assert bad.returncode == 2 and message in bad.stderr
