"""The main job's speed on a machine it shares: alone, then beside busy processes.

Runs the README's main job (``python -m goldrush_train.gold.scratch``) for ``--steps`` learner steps with no
evaluation on the way, first alone, then while ``--busy`` processes spin beside it (each keeps one core busy), and
prints its training speed (steps a second, rollouts and updates) in each, and the second as a share of the first.
Run it at two commits (a ``git worktree`` with ``PYTHONPATH`` pointing at it) to compare them. It asserts nothing.

    python benchmarks/shared_cores.py                  # 300,000 steps, one busy process beside the second run
    python benchmarks/shared_cores.py --steps 1000000 --busy 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def spin(stop: multiprocessing.Event) -> None:
    while not stop.is_set():
        sum(range(10_000))


def job_speed(steps: int, busy: int) -> tuple[float, str]:
    """The main job's steps a second over ``steps`` steps beside ``busy`` spinning processes, and its threads line."""
    stop = multiprocessing.Event()
    spinners = [multiprocessing.Process(target=spin, args=(stop,), daemon=True) for _ in range(busy)]
    for spinner in spinners:
        spinner.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            done = subprocess.run([sys.executable, "-m", "goldrush_train.gold.scratch", "--total-timesteps", str(steps),
                                   "--eval-every", "0", "--final-games", "10", "--run-dir", str(Path(folder) / "run")],
                                  capture_output=True, text=True, check=True)
    finally:
        stop.set()
        for spinner in spinners:
            spinner.join()
    speeds = re.findall(r"([\d,]+) steps/s", done.stdout)
    threads = next((line for line in done.stdout.splitlines() if line.startswith("threads:")), "threads: not said")
    return float(speeds[-1].replace(",", "")), threads


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300_000, help="learner steps of each run (default: 300,000)")
    parser.add_argument("--busy", type=int, default=1, help="busy processes beside the second run (default: 1)")
    args = parser.parse_args(argv)
    alone, threads = job_speed(args.steps, 0)
    shared, _ = job_speed(args.steps, args.busy)
    print(threads)
    print(f"alone: {alone:,.0f} steps/s; beside {args.busy} busy process(es): {shared:,.0f} steps/s, "
          f"{shared / alone:.0%} of its speed alone")


if __name__ == "__main__":
    main()
