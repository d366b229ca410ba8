"""How many torch threads the warm start should fit with, quiet and on a busy machine.

The main job's warm start (``python -m goldrush_train.gold.ppo``) fits GoldNet to
the expert's decisions. This times the same fit (the same decisions, network,
batch size and step size) with each number of torch threads, first on the
machine as it is, then with ``--load`` busy processes beside it (each spins a
core, as other jobs on a shared machine do). Each line is the median seconds
of ``--repeats`` fits of ``--epochs`` passes; the ratio is against one thread
in the same conditions. It asserts nothing.

    python benchmarks/fit_threads.py                      # 1 and 2 threads, quiet and with 6 busy processes
    python benchmarks/fit_threads.py --threads 1 2 4 --load 8 --epochs 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time


def spin(stop: multiprocessing.Event) -> None:
    while not stop.is_set():
        sum(range(10_000))


def fit_seconds(data: dict, threads: int, epochs: int, seed: int) -> float:
    import torch

    from goldrush_train.gold.decisions import pretrain
    from goldrush_train.gold.network import GoldNet

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    net = GoldNet(64, 32)
    start = time.perf_counter()
    pretrain(net, data, epochs=epochs, lr=2e-3, seed=seed)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2], help="torch thread counts to time")
    parser.add_argument("--load", type=int, default=6, help="busy processes for the loaded case (0: quiet only)")
    parser.add_argument("--games", type=int, default=100, help="expert games whose decisions are fitted")
    parser.add_argument("--epochs", type=int, default=2, help="passes per fit")
    parser.add_argument("--repeats", type=int, default=3, help="fits per case (the median is printed)")
    args = parser.parse_args(argv)

    from goldrush_train.gold.decisions import collect

    data = collect(args.games, teacher="expert", seed=0, workers=1)
    print(f"{len(data['actions']):,} decisions of {args.games} expert games, {args.epochs} passes a fit, "
          f"{os.cpu_count()} cores, median of {args.repeats}")
    cases = [("quiet", 0)] + ([(f"{args.load} busy processes", args.load)] if args.load else [])
    for label, load in cases:
        stop = multiprocessing.Event()
        busy = [multiprocessing.Process(target=spin, args=(stop,), daemon=True) for _ in range(load)]
        for process in busy:
            process.start()
        try:
            seconds = {threads: statistics.median(fit_seconds(data, threads, args.epochs, seed)
                                                  for seed in range(args.repeats))
                       for threads in args.threads}
        finally:
            stop.set()
            for process in busy:
                process.join()
        for threads, value in seconds.items():
            print(f"  {label:<20} {threads} thread{'s' if threads > 1 else ' '}  {value:6.2f} s  "
                  f"x{value / seconds[args.threads[0]]:.2f}")


if __name__ == "__main__":
    main()
