"""The README's main job as a new user meets it: a fresh clone, its install-and-train command, timed line by line.

Clones the repository into a temporary folder, runs the README's command
(``python3 -m venv .venv && ... && .venv/bin/python -m goldrush_train.gold.scratch``)
there with ``--load`` busy processes spinning beside it the whole time (a
shared machine; 0: idle), and notes when each line of its output arrived.
Prints the install time (until the run's ``run folder:`` line), the job's
time, the longest silence once the job has started, how many silences
passed 20 seconds, and the job's last lines (its final evaluation). The
whole output, each line with its second, goes to ``--log``. It asserts
nothing.

    python benchmarks/main_job.py                 # idle
    python benchmarks/main_job.py --load 6        # beside six busy processes
    python benchmarks/main_job.py --print-command # only the command it would run
"""

from __future__ import annotations

import argparse
import multiprocessing
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def spin(stop: multiprocessing.Event) -> None:
    while not stop.is_set():
        sum(range(10_000))


def readme_command(readme: Path) -> str:
    """The README's one-line install-and-main-job command."""
    for line in readme.read_text().splitlines():
        if line.startswith("python3 -m venv .venv") and " -m goldrush_train." in line:
            return line
    raise SystemExit(f"{readme} has no install-and-main-job command")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", type=int, default=0, help="busy processes beside the job (default: 0, idle)")
    parser.add_argument("--repo", default=str(ROOT), help="the repository to clone (default: this one)")
    parser.add_argument("--log", default=None, help="where the timed output goes (default: in the clone's folder)")
    parser.add_argument("--print-command", action="store_true",
                        help="print the command the README of --repo's working tree gives, and stop (nothing is "
                             "cloned or run)")
    args = parser.parse_args(argv)
    if args.load < 0:
        parser.error(f"--load must be >= 0, got {args.load}")
    if args.print_command:
        print(readme_command(Path(args.repo) / "README.md"))
        return

    folder = Path(tempfile.mkdtemp(prefix="main-job-"))
    subprocess.run(["git", "clone", "-q", args.repo, str(folder / "clone")], check=True)
    command = readme_command(folder / "clone" / "README.md")
    log = Path(args.log) if args.log else folder / "main_job.log"
    print(f"{command}\n(in {folder / 'clone'}, {args.load} busy processes beside it; every line in {log})",
          flush=True)

    stop = multiprocessing.Event()
    busy = [multiprocessing.Process(target=spin, args=(stop,), daemon=True) for _ in range(args.load)]
    for process in busy:
        process.start()
    lines: list[tuple[float, str]] = []
    start = time.perf_counter()
    try:
        with subprocess.Popen(["bash", "-c", command], cwd=folder / "clone", stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, bufsize=1) as job, log.open("w") as out:
            for line in job.stdout:
                lines.append((time.perf_counter() - start, line.rstrip("\n")))
                out.write(f"{lines[-1][0]:8.1f} {lines[-1][1]}\n")
                out.flush()  # the log can be followed as the job runs
        status = job.returncode
    finally:
        stop.set()
        for process in busy:
            process.join()
    total = time.perf_counter() - start

    begun = next((i for i, (_, line) in enumerate(lines) if line.startswith("run folder:")), None)
    if status != 0 or begun is None:
        raise SystemExit(f"the command stopped with exit status {status}; its output is in {log}")
    job_lines = lines[begun:] + [(total, "(end)")]
    silences = [(later - earlier, text) for (earlier, text), (later, _) in zip(job_lines, job_lines[1:])]
    longest, after = max(silences)
    print(f"install {lines[begun][0] / 60:.1f} min, job {(total - lines[begun][0]) / 60:.1f} min, "
          f"total {total / 60:.1f} min")
    print(f"{len(job_lines) - 1} lines from the job; the longest silence {longest:.1f} s (after: {after[:60]!r}); "
          f"silences over 20 s: {sum(seconds > 20 for seconds, _ in silences)}")
    print("\n".join(text for _, text in lines[-3:]))


if __name__ == "__main__":
    main()
