"""Collect a teacher's decisions for the warm start of PPO: a data set for ``goldrush_train.gold.ppo``.

A warm start teaches the policy network to copy a teacher first: PPO then
starts from a player of roughly the teacher's strength instead of a random
one, which on two CPU cores saves most of a training budget. What a data
set records, and how a network is fitted to it, is in
:mod:`goldrush_train.gold.decisions`. A search teacher costs seconds a game, so
its decisions are collected once and saved, from the command line::

    python -m goldrush_train.gold.imitation --teacher ismcts --games 100 --seed 1 --out runs/ismcts-1.npz

and given to ``python -m goldrush_train.gold.ppo --imitation-data FILE...``.

A copy sees only the states its teacher's own games lead to. With
``--student`` (DAgger) the copy plays instead, one seat against scripted
opponents, and the teacher labels the states the copy's play leads to::

    python -m goldrush_train.gold.imitation --teacher ismcts --student runs/recipe48-0/model.npz \
        --opponents greedy,expert --games 100 --seed 101 --out runs/dagger-101.npz
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Sequence

from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_train.cli import check_agent, check_agents, command
from goldrush_train.gold.decisions import collect, file_digest, save


@command("goldrush_train.gold.imitation")
def main(argv: Sequence[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(
        prog="python -m goldrush_train.gold.imitation",
        description="Collect a teacher's decisions for the warm start of goldrush_train.gold.ppo.")
    parser.add_argument("--teacher", default="ismcts", help="the agent copied, against itself (default: ismcts)")
    parser.add_argument("--games", type=int, default=100, help="games to play (default: 100)")
    parser.add_argument("--num-players", type=int, default=2, help="players per game (default: 2)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the deals and the teachers (default: 0)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    parser.add_argument("--memory", default="perfect", choices=["perfect", "human"],
                        help="the players' memory model (default: perfect)")
    parser.add_argument("--student", default=None,
                        help="an agent (e.g. a model file) that plays one seat while the teacher labels its "
                             "decisions (default: none, the teacher plays every seat)")
    parser.add_argument("--opponents", default="greedy,expert",
                        help="with --student: the fields it plays against, in turn (default: greedy,expert)")
    parser.add_argument("--out", required=True, help="the .npz file to write")
    args = parser.parse_args(argv)
    check_int("--games", args.games, 1)
    check_int("--num-players", args.num_players, 2, 5)
    if args.workers is not None:
        check_int("--workers", args.workers, 1)
    if Path(args.out).is_dir():
        raise GoldrushEnvError(f"--out {args.out!r} is a folder: name the .npz file to write")
    # A misspelt agent fails here, not in a worker after minutes of search.
    check_agent("--teacher", args.teacher)
    opponents: list[str] = []
    if args.student is not None:
        check_agent("--student", args.student)
        opponents = check_agents("--opponents", args.opponents)
    start = time.perf_counter()
    print(f"collecting {args.games} games of {args.teacher}...", flush=True)
    data = collect(args.games, num_players=args.num_players, teacher=args.teacher, seed=args.seed,
                   workers=args.workers, student=args.student, opponents=opponents, memory=args.memory,
                   progress="collect")
    about = {} if args.student is None else {"student": args.student, "opponents": opponents,
                                              "student_sha256": file_digest(args.student)}
    path = save(data, args.out, teacher=args.teacher, games=args.games, num_players=args.num_players,
                seed=args.seed, memory=args.memory, **about)
    print(f"{len(data['actions']):,} decisions of {args.games} games of {args.teacher} in "
          f"{time.perf_counter() - start:.0f} s: {path}")
    return path


if __name__ == "__main__":
    main()
