"""Learn Gold from its own games at any table size: a value network and a one-turn expectimax (the player
``selfplay``).

    python -m goldrush_train.gold.selfplay --table quarter --seed 0 --ship           # selfplay_2p_quarter.npz
    python -m goldrush_train.gold.selfplay --seed 0 --ship                           # selfplay_2p_full.npz
    python -m goldrush_train.gold.selfplay --num-players 3 --seed 0 --ship           # selfplay_3p_full.npz

From the rules alone, like TD-Gammon: the network starts from random weights and plays every seat of every game
itself, choosing each flip by the one-turn search of :mod:`goldrush_agents.gold.turns` (the exact odds of the
unseen cards, the network valuing the states where the next seat is to move, a win share per seat). The games are
played a batch at a time in compiled code, the network valuing all their leaves together. Every decision becomes
a training example:

* its value target is the TD(lambda) return, a win share per seat: the search's value of the decision, mixed
  with lambda of the next decision's return, the last one with the game's result (1 for the winner, shared on a
  tie, 0 for the others);
* its policy target is the move the search found best (what ``selfplay[depth=0]``, the network alone, plays).

A share of moves (``--explore``) is drawn from the search's values instead (a softmax at ``--temperature``), so
that the games visit more than one line; targets are the search's values either way. No scripted player is
anywhere in the loop: the evaluations against ``greedy`` during the run play the real engine and only report.
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.cards import TABLES
from goldrush_env.streams import seed_streams

from goldrush_agents.gold.selfplay import TABLE_MODELS, Network, shipped_model
from goldrush_agents.gold.turns import Games, Search, num_actions, num_features, rules, shares, write_features
from goldrush_train.cli import (TRAIN_EXTRA, check_counts, check_numbers, command, minutes, open_run_dir, parse_args,
                                ship)


@dataclass
class SelfPlay:
    """Train a ``selfplay`` network by self-play (module docstring)."""

    table: str = "full"
    """The table the games are dealt: full, half or quarter."""
    num_players: int = 2
    seed: int = 0
    """Seeds the network's first weights, the deals, the exploration and the evaluations."""
    games: int = 100_000
    """Self-play games in all."""
    batch: int = 256
    """Games played at once; the network trains after each batch."""
    replay: float = 1.0
    """Training samples drawn per decision played (gradient steps per batch: this times its decisions, over
    ``batch_size``)."""
    batch_size: int = 512
    buffer: int = 500_000
    """Decisions kept for training (the newest)."""
    width: int = 128
    """Units in each of the two hidden layers."""
    learning_rate: float = 1e-3
    lam: float = 0.7
    """TD(lambda): how much of a decision's value target is the next decision's return rather than its search."""
    explore: float = 0.3
    """Share of moves drawn from the softmax of the search's values rather than the best."""
    temperature: float = 0.05
    """The softmax's temperature, in win share."""
    eval_every: int = 20_000
    """Games between evaluations against greedy (through the real engine)."""
    eval_games: int = 200
    final_games: int = 2_000
    """Games of the final evaluation against greedy, with the search and without."""
    torch_threads: int = 1
    run_dir: str = ""
    """A new or empty folder; empty: runs/selfplay-NUMp-TABLE-sSEED-YYYYmmdd-HHMMSS."""
    ship: bool = False
    """Copy the final model to the package's model for the table size (agents/gold/models/selfplay_Np_TABLE.npz)."""

    def check(self) -> None:
        """Refuse values that cannot work, naming them."""
        if self.table not in TABLES:
            raise GoldrushEnvError(f"--table must be one of {list(TABLES)}, got {self.table!r}")
        check_int("--num-players", self.num_players, 2, 5)
        check_counts(self, "games", "batch", "batch_size", "buffer", "width", "eval_every", "eval_games",
                     "final_games", "torch_threads")
        check_numbers(self, "lam", "explore", low=0, high=1)
        check_numbers(self, "learning_rate", "temperature", "replay", above=0)
        if self.ship and self.table not in TABLE_MODELS[self.num_players]:
            raise GoldrushEnvError(f"--ship: at {self.num_players} players the package ships models for the tables "
                                   f"{list(TABLE_MODELS[self.num_players])}, not {self.table!r}")


# --- self-play games, a batch at a time ---------------------------------------------------------------------------

@dataclass
class Batch:
    """The decisions of a batch of self-play games: feature rows, value targets (a win share per seat, seats from
    the mover) and the best moves."""

    features: np.ndarray
    targets: np.ndarray
    moves: np.ndarray
    games: np.ndarray
    """Per decision, its game in the batch."""
    seats: np.ndarray
    """Per decision, the seat to move (by number)."""
    results: np.ndarray
    """Per game, each seat's share of the result (seats by number)."""
    turns: np.ndarray


def _absolute(values: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Rows of values with seats counted from ``seats[i]`` turned to seats by number."""
    n = values.shape[1]
    out = np.empty_like(values)
    np.put_along_axis(out, (seats[:, None] + np.arange(n)) % n, values, axis=1)
    return out


def play_batch(search: Search, table: str, first_seats: np.ndarray, streams: np.ndarray, explore: float,
               temperature: float, lam: float) -> Batch:
    """Self-play games dealt on ``table``, one per first seat, to their end; returns their decisions and targets."""
    n = search.num_players
    games = Games.new(table, n, first_seats)
    b = len(first_seats)
    table_rules = rules(n)
    steps: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    while not games.done.all():
        active = np.flatnonzero(~games.done)
        x = np.zeros((b, num_features(n)), np.float32)
        write_features(games, table_rules, x)
        option_values, option_mover = search.options(games)
        best = np.nanargmax(option_mover[active], axis=1)
        values = option_values[active, best]
        steps.append((active, x[active], values, best, games.seat[active].copy()))
        search.play(games, option_mover, streams, explore, temperature)
    results = np.zeros((b, n))
    for g in range(b):  # the finished games' standings, seats from the last mover, then by number
        share = np.zeros(n)
        shares(games.scores[g], games.golds[g], share)
        results[g] = _absolute(share[None], games.seat[g:g + 1])[0]
    following = results.copy()
    targets = []
    for active, _, values, _, seats in reversed(steps):  # TD(lambda), seats by number, back to the mover's frame
        following[active] = (1 - lam) * _absolute(values, seats) + lam * following[active]
        rows = (seats[:, None] + np.arange(n)) % n
        targets.append(np.take_along_axis(following[active], rows, axis=1))
    targets.reverse()
    return Batch(np.concatenate([s[1] for s in steps]), np.concatenate(targets).astype(np.float32),
                 np.concatenate([s[3] for s in steps]), np.concatenate([s[0] for s in steps]),
                 np.concatenate([s[4] for s in steps]), results, games.turn.copy())


# --- the network ------------------------------------------------------------------------------------------------------

def make_net(width: int, num_players: int):
    """The torch network: two tanh layers of ``width`` units, a value head (a logit per seat) and a policy head."""
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layer0 = nn.Linear(num_features(num_players), width)
            self.layer1 = nn.Linear(width, width)
            self.value = nn.Linear(width, num_players)
            self.policy = nn.Linear(width, num_actions(num_players))

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = torch.tanh(self.layer1(torch.tanh(self.layer0(x))))
            return self.value(h), self.policy(h)

    return Net()


def export(net: Any, table: str, num_players: int) -> dict[str, np.ndarray]:
    """The model file's arrays (what :class:`goldrush_agents.gold.selfplay.Network` reads)."""
    arrays = {name: tensor.detach().cpu().numpy().astype(np.float32) for name, tensor in net.state_dict().items()}
    arrays["config.num_players"] = np.array(num_players)
    arrays["config.table"] = np.array(table)
    return arrays


class NumpyValue:
    """The network's value head as the player computes it (:meth:`goldrush_agents.gold.selfplay.Network.value`, in
    numpy), refreshed from the torch network after each batch: the self-play games value their leaves with it."""

    def __init__(self, net: Any, num_players: int) -> None:
        self.num_players = num_players
        self.refresh(net)

    def refresh(self, net: Any) -> None:
        self.network = Network.of_arrays(export(net, "full", self.num_players), "the network in training")

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.network.value(x)


# --- the run ----------------------------------------------------------------------------------------------------------

def evaluate(model: Path, opponent: str, games: int, seed: int, args: SelfPlay, depth: int = 1) -> dict[str, Any]:
    """``model`` (played by ``selfplay[depth=...]``) alone against ``opponent`` on the real engine, seats rotated."""
    from goldrush_train.win_shares import evaluate as play

    row = play(f"selfplay[path='{model}',depth={depth}]", [opponent], num_players=args.num_players, games=games,
               seed=seed, table=args.table)[0]
    return {"opponent": opponent, "depth": depth, "games": row.games, "win_share": row.win_share,
            "low": row.low, "high": row.high, "opponent_alone": row.opponent_alone}


def train(args: SelfPlay) -> dict[str, Any]:
    """The run of ``args`` (module docstring); returns its summary, also written to the run folder."""
    import torch

    args.check()

    started = time.perf_counter()
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    n = args.num_players
    run_dir = open_run_dir(args.run_dir, f"runs/selfplay-{n}p-{args.table}-s{args.seed}", args)
    rng = np.random.default_rng(args.seed)
    streams = seed_streams(args.seed, args.batch)
    net = make_net(args.width, n)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    value = NumpyValue(net, n)
    search = Search(n, TABLES[args.table].rush_at, value)
    xs = np.zeros((args.buffer, num_features(n)), dtype=np.float32)
    targets = np.zeros((args.buffer, n), dtype=np.float32)
    moves = np.zeros(args.buffer, dtype=np.int64)
    stored, cursor, played, next_evaluation = 0, 0, 0, args.eval_every
    evaluation_seconds, playing_seconds = 0.0, 0.0
    curve = []
    log = (run_dir / "progress.jsonl").open("w")
    model_path = run_dir / "model.npz"

    def save() -> None:
        np.savez(model_path, **export(net, args.table, n))

    while played < args.games:
        count = min(args.batch, args.games - played)
        playing = time.perf_counter()
        batch = play_batch(search, args.table, (played + np.arange(count)) % n, streams[:count], args.explore,
                           args.temperature, args.lam)
        playing_seconds += time.perf_counter() - playing
        played += count
        for start in range(0, len(batch.moves), args.buffer):  # into the ring buffer
            rows = (cursor + np.arange(min(args.buffer, len(batch.moves) - start))) % args.buffer
            take = slice(start, start + len(rows))
            xs[rows], targets[rows], moves[rows] = batch.features[take], batch.targets[take], batch.moves[take]
            cursor = (rows[-1] + 1) % args.buffer
            stored = min(stored + len(rows), args.buffer)
        losses = []
        for _ in range(math.ceil(args.replay * len(batch.moves) / args.batch_size)):
            rows = rng.integers(stored, size=args.batch_size)
            v, logits = net(torch.from_numpy(xs[rows]))
            value_loss = -(torch.from_numpy(targets[rows]) * torch.log_softmax(v, dim=1)).sum(dim=1).mean()
            policy_loss = torch.nn.functional.cross_entropy(logits, torch.from_numpy(moves[rows]))
            loss = value_loss + policy_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append((value_loss.item(), policy_loss.item()))
        value.refresh(net)
        if played >= next_evaluation or played == args.games:
            next_evaluation += args.eval_every
            save()
            evaluating = time.perf_counter()
            point = {"games": played, "seconds": round(evaluating - started, 1),
                     "training_seconds": round(evaluating - started - evaluation_seconds, 1),
                     "games_per_second": round(played / playing_seconds, 1),
                     "turns": float(batch.turns.mean()),
                     "value_loss": float(np.mean([a for a, _ in losses])),
                     "policy_loss": float(np.mean([b for _, b in losses])),
                     "evaluations": [evaluate(model_path, "greedy", args.eval_games, args.seed + 1_000_000 + played,
                                              args, depth) for depth in (1, 0)]}
            evaluation_seconds += time.perf_counter() - evaluating
            curve.append(point)
            log.write(json.dumps(point) + "\n")
            log.flush()
            shares = ", ".join(f"greedy{'' if e['depth'] else ' (network alone)'} {e['win_share']:.3f}"
                               for e in point["evaluations"])
            print(f"selfplay: {played} games ({point['games_per_second']} a second), "
                  f"{minutes(point['seconds'])}: {shares}", flush=True)
    save()
    training_seconds = time.perf_counter() - started - evaluation_seconds
    final = [evaluate(model_path, "greedy", args.final_games, args.seed + 2_000_000, args, depth) for depth in (1, 0)]
    summary = {"args": dataclasses.asdict(args), "games": played, "seconds": round(time.perf_counter() - started, 1),
               "training_seconds": round(training_seconds, 1), "games_per_second": round(played / playing_seconds, 1),
               "curve": curve, "final": final}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    for e in final:
        print(f"selfplay: final, {'with the search' if e['depth'] else 'network alone'} alone against greedy: "
              f"{e['win_share']:.3f} [{e['low']:.3f}, {e['high']:.3f}] over {e['games']} games (fair share "
              f"{1 / n:.3f})", flush=True)
    if args.ship:
        ship(model_path, shipped_model(n, args.table), "selfplay: shipped {model} as {to}")
    print(f"selfplay: {played} games in {minutes(summary['seconds'])} ({minutes(training_seconds)} without the "
          f"evaluations), outputs in {run_dir}/", flush=True)
    return summary


@command("goldrush_train.gold.selfplay", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    return train(parse_args(SelfPlay, argv, "goldrush_train.gold.selfplay"))


if __name__ == "__main__":
    main()
