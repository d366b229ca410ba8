"""A long command is never silent for long: goldrush_train.cli.Heartbeat.

The heartbeat reads the time from ``time.perf_counter``; these tests hand it a clock that moves only when the test
moves it, so what it prints depends on the silences the test makes, never on how busy the machine is. A wait for a
line ends when the line is there.
"""

import sys
import time

import pytest

import goldrush_train.cli
from goldrush_train.cli import Heartbeat, Ticker, doing, silent_for

PATIENCE = 60.0
"""Seconds of real time a test waits for the heartbeat's thread to print a line it is due to print."""


class Clock:
    """A ``time`` module whose ``perf_counter`` stands still until :meth:`advance` moves it."""

    def __init__(self):
        self.now = 1000.0

    def perf_counter(self):
        return self.now

    def strftime(self, *args):
        return time.strftime(*args)

    def advance(self, seconds):
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(goldrush_train.cli, "time", clock)
    return clock


def wait_for_lines(capsys, seen, count, starting):
    """Read what is printed into ``seen`` until it holds ``count`` lines that start with ``starting``."""
    deadline = time.monotonic() + PATIENCE
    while sum(line.startswith(starting) for line in seen) < count:
        assert time.monotonic() < deadline, (starting, seen)
        time.sleep(0.01)
        seen.extend(capsys.readouterr().out.splitlines())
    return [line for line in seen if line.startswith(starting)]


def test_a_silent_phase_gets_a_line_saying_what_it_does(capsys, clock):
    outer = sys.stdout
    seen = []
    with Heartbeat(every=0.1):
        doing("warm start: fitting, epoch 3/16")
        clock.advance(0.15)
        fitting = wait_for_lines(capsys, seen, 1, "warm start: fitting, epoch 3/16  (")
        clock.advance(0.15)  # the line just printed restarted the silence: a second one comes after it
        fitting = wait_for_lines(capsys, seen, 2, "warm start: fitting, epoch 3/16  (")
        counter = iter(range(100))
        doing(lambda: f"PPO: step {next(counter)} of 100")  # a function is asked again at each line
        for count in (1, 2):
            clock.advance(0.15)
            steps = wait_for_lines(capsys, seen, count, "PPO: step ")
    assert sys.stdout is outer  # put back as it was
    assert all(line.endswith(" since the start)") for line in fitting)
    assert len(steps) == 2 and len(set(steps)) == 2


def test_what_the_command_prints_itself_counts_as_a_line(capsys, clock):
    with Heartbeat(every=2.0):
        doing("should not be said")
        for _ in range(20):  # forty seconds in all, never two without a line
            print("a line of its own")
            clock.advance(1.9)
            time.sleep(0.005)  # the heartbeat's thread gets its chances to look
        out = capsys.readouterr().out
        assert "should not be said" not in out and out.count("a line of its own") == 20
        clock.advance(2.0)  # now two seconds with nothing printed: the heartbeat speaks
        wait_for_lines(capsys, [], 1, "should not be said  (")


def test_a_ticker_tells_the_heartbeat_how_far_it_is(capsys, clock):
    with Heartbeat(every=0.1):
        ticker = Ticker("collect", 10, every=60)
        ticker.update(3)  # too soon for a line of the ticker's own
        clock.advance(0.2)
        wait_for_lines(capsys, [], 1, "collect: 3/10 games  (")


def test_doing_without_a_heartbeat_does_nothing(capsys):
    doing("nothing to tell")
    assert capsys.readouterr().out == ""


def test_silent_for_counts_from_the_last_line_printed(clock):
    assert silent_for() is None  # no heartbeat runs
    with Heartbeat(every=60):
        clock.advance(0.3)
        assert silent_for() == pytest.approx(0.3)
        print("a line")
        assert silent_for() == 0
    assert silent_for() is None
