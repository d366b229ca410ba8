"""Self-play games a second: the compiled batch of :mod:`goldrush_agents.gold.turns` against one game at a time.

Each table size plays whole self-play games on the full table as ``python -m goldrush_train.gold.selfplay`` plays
them (its ``play_batch``: one turn of expectimax at every flip, the network valuing every leaf, exploration 0.3),
with the shipped ``selfplay`` model of that size (a fresh network of the same shape where none ships). The
reference, measured in the same run, is how the learner played before the batch: one 2-player game at a time,
the numpy search over kinds (:class:`goldrush_agents.gold.public.TurnSearch`) calling the same network on each
decision's leaves. Prints the median of the repeats and the ratio; it asserts nothing.

    python benchmarks/selfplay_speed.py                 # 2 to 5 players, 256 games a batch
    python benchmarks/selfplay_speed.py --players 2 --games 512 --repeats 5
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def network(num_players: int):
    """The shipped model's value head, or a fresh network's where none ships."""
    from goldrush_agents.gold.selfplay import Network, shipped_model

    path = shipped_model(num_players)
    if path.is_file():
        return Network(path).value
    import torch

    from goldrush_train.gold.selfplay import NumpyValue, make_net

    torch.manual_seed(0)
    return NumpyValue(make_net(128, num_players), num_players)


def batched(num_players: int, games: int, seed: int) -> float:
    """Games a second of one batch of ``games`` self-play games."""
    from goldrush_env.gold.cards import TABLES
    from goldrush_env.streams import seed_streams
    from goldrush_agents.gold.turns import Search
    from goldrush_train.gold.selfplay import play_batch

    search = Search(num_players, TABLES["full"].rush_at, network(num_players))
    started = time.perf_counter()
    play_batch(search, "full", np.arange(games) % num_players, seed_streams(seed, games), 0.3, 0.05, 0.7)
    return games / (time.perf_counter() - started)


def one_at_a_time(games: int, seed: int) -> float:
    """Games a second of 2-player self-play played one game at a time through the numpy search, whose leaves are
    valued by the same network (their feature rows written by the compiled code, one call per decision)."""
    from goldrush_env.gold.cards import TABLES
    from goldrush_agents.gold.public import RELATIVE, PublicGame, TurnSearch, frame_of, table_counts
    from goldrush_agents.gold.turns import Games, rules, write_features, num_features

    value = network(2)
    table_rules = rules(2)

    def evaluate(known, unseen, lead, cards_lead, rush):
        m = len(known)
        games = Games(known, unseen, np.full(m, -1), np.stack([np.maximum(lead, 0), np.maximum(-lead, 0)], axis=1),
                      np.stack([np.maximum(cards_lead, 0), np.maximum(-cards_lead, 0)], axis=1), rush,
                      np.zeros(m, np.int64), np.zeros(m, np.int64), np.zeros(m, np.bool_))
        x = np.zeros((m, num_features(2)), np.float32)
        write_features(games, table_rules, x)
        return value(x)[:, 0]

    search = TurnSearch(evaluate, TABLES["full"].rush_at)
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    for game_index in range(games):
        game = PublicGame(table_counts("full"), TABLES["full"].rush_at, game_index % 2)
        while game.cards and game.turn < 200:
            options = search.options(frame_of(game.state))
            action = int(options.actions[np.argmax(options.values)])
            if rng.random() < 0.3:
                action = int(options.actions[rng.integers(len(options.actions))])
            if action == len(RELATIVE):
                game.flip(game.draw(rng), unseen=True)
            else:
                game.flip(int(RELATIVE[action]) if game.mover == 1 else action)
    return games / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--games", type=int, default=256, help="games a batch")
    parser.add_argument("--reference-games", type=int, default=10, help="games of the one-at-a-time reference")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    for name in ("games", "reference_games", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if any(n not in (2, 3, 4, 5) for n in args.players):
        parser.error(f"--players must be from 2 to 5, got {args.players}")
    batched(2, 8, 0)  # compile (cached on disk after the first run on a machine)
    reference = statistics.median(one_at_a_time(args.reference_games, seed) for seed in range(args.repeats))
    print(f"one 2-player game at a time (numpy search): {reference:.1f} games/s")
    print("| players | games/s | x one at a time |")
    print("|---|---|---|")
    for n in args.players:
        speed = statistics.median(batched(n, args.games, seed) for seed in range(args.repeats))
        print(f"| {n} | {speed:.1f} | {speed / reference:.1f} |", flush=True)


if __name__ == "__main__":
    main()
