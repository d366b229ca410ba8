"""The experiments behind entries of the experiments log (experiments/), each run as the script it is, at a tiny
size: it still runs on today's code, prints its figure in the form the log quotes, and refuses bad arguments. Each
script runs once as a process of its own; its other runs call its main() in this process."""

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from goldrush_agents.tournament import wilson_interval

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"
FLIP_CHOICES = "2026-11-23-flip-choices/flip_choices.py"
LEAD_SPREAD = "2026-11-25-lead-spread/lead_spread.py"
ORACLE = "2026-11-25-oracle/oracle.py"
SEARCH_AB = "2026-12-08-search-rules/search_ab.py"


def run(script: str, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXPERIMENTS / script), *argv], capture_output=True, text=True)


def ran(script: str, *argv: str) -> str:
    done = run(script, *argv)
    assert done.returncode == 0, done.stderr
    return done.stdout


def main_of(script: str):
    """The script's main(argv), loaded from its file."""
    spec = importlib.util.spec_from_file_location(f"_experiment_{Path(script).stem}", EXPERIMENTS / script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main


def refused_here(capsys, script: str, *argv: str) -> str:
    """What the script says on stderr as it refuses ``argv`` with exit status 2 (in this process)."""
    with pytest.raises(SystemExit) as stop:
        main_of(script)(list(argv))
    assert stop.value.code == 2
    return capsys.readouterr().err


def test_every_experiment_is_run_here():
    scripts = {path.relative_to(EXPERIMENTS).as_posix() for path in EXPERIMENTS.rglob("*.py")}
    assert scripts == {FLIP_CHOICES, LEAD_SPREAD, ORACLE, SEARCH_AB}


def test_search_ab_times_two_copies_of_the_search(capsys):
    turns = str(Path(__file__).resolve().parent.parent / "agents" / "gold" / "turns.py")
    lines = ran(SEARCH_AB, turns, turns, "--games", "2", "--repeats", "1").splitlines()
    assert [line.split(":")[0] for line in lines] == ["2 players, 2 games, depth 1", "4 players, 2 games, depth 1",
                                                      "2 players, 1 games, depth 2"]
    assert all(float(re.search(r"after/before ([\d.]+)", line).group(1)) > 0 for line in lines)
    assert "--games must be at least 1, got 0" in refused_here(capsys, SEARCH_AB, turns, turns, "--games", "0")


def test_flip_choices_compares_a_player_with_the_expert(capsys):
    out = ran(FLIP_CHOICES, "--agent", "greedy", "--games", "1", "--seed", "3")
    first, second = re.search(r"first flips: (\d+); greedy differs from expert in (\d+)", out).groups(), \
        re.search(r"second flips: (\d+); greedy differs from expert in (\d+)", out).groups()
    assert int(first[0]) > 10 and int(second[0]) > 10  # a whole game's decisions, both flips of a turn
    assert 0 < int(first[1]) + int(second[1]) < int(first[0]) + int(second[0])  # greedy is not the expert
    assert "--games must be at least 1, got 0" in refused_here(capsys, FLIP_CHOICES, "--games", "0")


def test_lead_spread_prints_the_spread_by_gold_left_and_pooled(capsys):
    lines = ran(LEAD_SPREAD, "--games", "3", "--seed", "4").splitlines()
    header = re.fullmatch(r"expert,greedy: 3 games, (\d+) states \(seed 4, \d+ s\)", lines[0])
    assert header and int(header.group(1)) > 3 * 20  # a state for every flip of every game
    rows = [line.split() for line in lines[2:-1]]
    assert rows and sum(int(row[1]) for row in rows) <= int(header.group(1))  # a bucket of fewer than 2 is left out
    assert all(float(row[2]) >= 0 and float(row[3]) >= 0 for row in rows)
    pooled = re.fullmatch(r"pooled s = ([\d.]+)", lines[-1])
    assert pooled and 0.5 < float(pooled.group(1)) < 3  # 1.32 over 600 games (WIN_SPREAD = 1.3)
    for argv, message in ([["--games", "0"], "--games must be >= 1, got 0"],
                          [["--players", "greedy"], "--players must name two entrants, got 'greedy'"]):
        assert message in refused_here(capsys, LEAD_SPREAD, *argv)


def test_the_oracle_shown_every_card_wins_where_the_same_player_blind_does_not(capsys):
    shares = {}
    for flag in ("", "--blind"):
        argv = ["--player", "greedy", "--games", "12", "--workers", "1", *([flag] if flag else [])]
        if flag:  # the control in this process
            main_of(ORACLE)(argv)
            out = capsys.readouterr().out
        else:
            out = ran(ORACLE, *argv)
        seen = "blind" if flag else "shown every card"
        found = re.match(rf"greedy \({seen}\) vs greedy: ([\d.]+) \[([\d.]+), ([\d.]+)\] over 12 games, "
                         r"points ([\d.]+) : ([\d.]+)", out)
        assert found, out
        share, low, high, mine, theirs = map(float, found.groups())
        assert (low, high) == pytest.approx(wilson_interval(share * 12, 12), abs=0.0006)  # printed to 3 places
        shares[seen] = share, mine, theirs
    # Shown every card greedy wins all 12 by far; blind, on the same deals, 9 (when written): what it is shown
    # makes the difference.
    assert shares["shown every card"][0] == 1.0 and shares["shown every card"][1] > 2 * shares["shown every card"][2]
    assert shares["blind"][0] < 0.8
    assert "--games must be >= 1, got 0" in refused_here(capsys, ORACLE, "--games", "0")
