"""A long command is never silent for long: goldrush_train.cli.Heartbeat."""

import sys
import time

from goldrush_train.cli import Heartbeat, Ticker, doing, silent_for


def test_a_silent_phase_gets_a_line_saying_what_it_does(capsys):
    outer = sys.stdout
    with Heartbeat(every=0.1):
        doing("warm start: fitting, epoch 3/16")
        time.sleep(0.6)
        counter = iter(range(100))
        doing(lambda: f"PPO: step {next(counter)} of 100")  # a function is asked again at each line
        time.sleep(0.6)
    assert sys.stdout is outer  # put back as it was
    lines = capsys.readouterr().out.splitlines()
    fitting = [line for line in lines
               if line.startswith("warm start: fitting, epoch 3/16  (") and line.endswith(" since the start)")]
    steps = [line for line in lines if line.startswith("PPO: step ")]
    assert len(fitting) >= 2 and len(steps) >= 2 and len(set(steps)) == len(steps)


def test_what_the_command_prints_itself_counts_as_a_line(capsys):
    with Heartbeat(every=2.0):
        doing("should not be said")
        end = time.perf_counter() + 0.5
        while time.perf_counter() < end:
            print("a line of its own")
            time.sleep(0.02)
    assert "should not be said" not in capsys.readouterr().out


def test_a_ticker_tells_the_heartbeat_how_far_it_is(capsys):
    with Heartbeat(every=0.1):
        ticker = Ticker("collect", 10, every=60)
        ticker.update(3)  # too soon for a line of the ticker's own
        time.sleep(0.5)
    assert "collect: 3/10 games  (" in capsys.readouterr().out


def test_doing_without_a_heartbeat_does_nothing(capsys):
    doing("nothing to tell")
    assert capsys.readouterr().out == ""


def test_silent_for_counts_from_the_last_line_printed():
    assert silent_for() is None  # no heartbeat runs
    with Heartbeat(every=60):
        time.sleep(0.3)
        assert silent_for() >= 0.3
        print("a line")
        assert silent_for() < 0.3
