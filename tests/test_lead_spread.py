"""benchmarks/lead_spread.py: how far a 2-player lead moves with the gold left on the table."""

import subprocess
import sys
from pathlib import Path

from agents import make_agent
from agents.arena import play_game
from benchmarks.lead_spread import play
from goldrush_env.engine import Game

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = str(ROOT / "benchmarks" / "lead_spread.py")


def test_a_game_gives_each_flip_its_gold_left_and_how_far_the_lead_moved_after_it():
    states = play(("expert", "greedy"), seed=5, first_player=1)
    # The arena seeds its players the same way, so it plays the same game; replay its record flip by flip.
    record = play_game([make_agent("expert"), make_agent("greedy")], seed=5, first_player=1).record
    game = Game.from_dict({**record, "flips": []})
    before = []
    for position in record["flips"]:
        before.append((game.gold_on_table, game.scores[0] - game.scores[1]))
        game.flip(position)
    final = game.scores[0] - game.scores[1]
    assert game.is_finished and game.gold_on_table == 0
    assert before[0][1] == 0 and before[0][0] >= sum(game.scores) > 0  # some gold may go with dynamite
    assert states == [(gold, final - lead) for gold, lead in before]


def test_the_script_prints_the_pooled_spread_and_refuses_bad_arguments():
    out = subprocess.run([sys.executable, SCRIPT, "--games", "3"], capture_output=True, text=True, check=True).stdout
    assert out.startswith("expert,greedy: 3 games, ") and "pooled s = " in out
    for argv, message in ([["--games", "0"], "--games must be >= 1, got 0"],
                          [["--players", "greedy"], "--players must name two entrants, got 'greedy'"]):
        bad = subprocess.run([sys.executable, SCRIPT, *argv], capture_output=True, text=True)
        assert bad.returncode == 2 and message in bad.stderr
