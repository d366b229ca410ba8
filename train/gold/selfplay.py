"""Learn Gold from its own games: a value network and a one-turn expectimax (the player ``selfplay``).

    python -m goldrush_train.gold.selfplay --table quarter --seed 0 --ship  # agents/gold/models/selfplay_2p_quarter.npz
    python -m goldrush_train.gold.selfplay --table full --seed 0 --ship     # agents/gold/models/selfplay_2p_full.npz

From the rules alone, like TD-Gammon: the network starts from random weights and plays both seats of every
game itself, choosing each flip by :class:`goldrush_agents.gold.selfplay.TurnSearch` (one whole turn of
lookahead over the exact odds of the unseen cards, the network valuing the states where the other seat is next
to move). Every decision becomes a training example:

* its value target is the TD(lambda) return: the search's value of the decision, mixed with lambda of the next
  decision's return (seen from this seat), the last one with the game's result (1 win, 1/2 shared, 0 loss);
* its policy target is the move the search found best (what ``selfplay[depth=0]``, the network alone, plays).

A share of moves (``--explore``) is drawn from the search's values instead (a softmax at ``--temperature``), so
that the games visit more than one line; targets are the search's values either way. Games are played on the
public state (:mod:`goldrush_agents.gold.public`, checked step by step against the engine by the tests), with
no scripted player anywhere: the evaluations against ``greedy`` and ``random`` during the run play the real
engine and only report.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from goldrush_env.checks import check_number
from goldrush_env.errors import GoldRushError
from goldrush_env.gold.cards import TABLES

from goldrush_agents.weights import one_blas_thread
from goldrush_agents.gold.public import RELATIVE, PublicGame, table_counts
from goldrush_agents.gold.selfplay import (
    FEATURES,
    NUM_ACTIONS,
    SHIPPED,
    UNKNOWN_ACTION,
    TurnSearch,
    frame_features,
    frame_of,
    standing,
)
from goldrush_train.cli import TRAIN_EXTRA, check_counts, command, minutes, open_run_dir

MAX_TURNS = 200
"""Turns after which a self-play game is cut short and read from its standing (the environments' limit, D4)."""


@dataclass
class SelfPlay:
    """Train the ``selfplay`` network by self-play (module docstring)."""

    table: str = "full"
    """The table the games are dealt: full, half or quarter."""
    seed: int = 0
    """Seeds the network's first weights, the deals, the exploration and the evaluations."""
    games: int = 16_000
    """Self-play games in all (7 minutes on the quarter table, about an hour on the full one, a core each)."""
    games_per_round: int = 200
    """Games played between two rounds of training."""
    updates_per_round: int = 100
    """Gradient steps per round, each on a batch drawn from the buffer."""
    batch_size: int = 256
    buffer: int = 200_000
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
    eval_every: int = 4_000
    """Games between evaluations against greedy (through the real engine)."""
    eval_games: int = 200
    final_games: int = 2_000
    """Games of the final evaluation against greedy, with the search and without."""
    torch_threads: int = 1
    run_dir: str = ""
    """A new or empty folder; empty: runs/selfplay-TABLE-sSEED-YYYYmmdd-HHMMSS."""
    ship: bool = False
    """Copy the final model to the package's model for the table (agents/gold/models/selfplay_2p_TABLE.npz)."""

    def check(self) -> None:
        """Refuse values that cannot work, naming them."""
        if self.table not in TABLES:
            raise GoldRushError(f"--table must be one of {list(TABLES)}, got {self.table!r}")
        check_counts(self, "games", "games_per_round", "updates_per_round", "batch_size", "buffer", "width",
                     "eval_every", "eval_games", "final_games", "torch_threads")
        for name in ("lam", "explore"):
            check_number(f"--{name}", getattr(self, name), 0, 1)
        for name in ("learning_rate", "temperature"):
            check_number(f"--{name.replace('_', '-')}", getattr(self, name), above=0)
        if self.ship and self.table not in SHIPPED:
            raise GoldRushError(f"--ship: the package ships models for the tables {list(SHIPPED)}, not {self.table!r}")


# --- self-play games on the public state ------------------------------------------------------------------------------

def play_game(search: TurnSearch, table: str, first: int, rng: np.random.Generator, explore: float,
              temperature: float) -> tuple[list[tuple[np.ndarray, float, int, int]], float]:
    """One self-play game on the public state; returns its decisions (feature row, search value, best action,
    mover) and seat 0's result."""
    game = PublicGame(table_counts(table), TABLES[table].rush_at, first)
    decisions = []
    while game.cards and game.turn < MAX_TURNS:
        frame = frame_of(game.state)
        options = search.options(frame)
        best = int(options.actions[np.argmax(options.values)])
        decisions.append((frame_features(frame)[0], float(options.values.max()), best, game.mover))
        action = best
        if rng.random() < explore:
            weights = np.exp((options.values - options.values.max()) / temperature)
            action = int(options.actions[np.searchsorted(np.cumsum(weights), rng.random() * weights.sum(),
                                                         side="right")])
        if action == UNKNOWN_ACTION:
            game.flip(game.draw(rng), unseen=True)
        else:
            game.flip(int(RELATIVE[action]) if game.mover == 1 else action)
    return decisions, float(standing(np.array(game.lead), np.array(game.cards_lead)))


def returns(decisions: list[tuple[np.ndarray, float, int, int]], result: float, lam: float) -> np.ndarray:
    """The TD(lambda) value target of each decision, for its mover (module docstring)."""
    out = np.empty(len(decisions))
    following, following_mover = result, 0
    for i in range(len(decisions) - 1, -1, -1):
        _, value, _, mover = decisions[i]
        ahead = following if following_mover == mover else 1.0 - following
        out[i] = (1.0 - lam) * value + lam * ahead
        following, following_mover = out[i], mover
    return out


# --- the network ------------------------------------------------------------------------------------------------------

def make_net(width: int):
    """The torch network: two tanh layers of ``width`` units, a value head (a logit) and a policy head."""
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layer0 = nn.Linear(FEATURES, width)
            self.layer1 = nn.Linear(width, width)
            self.value = nn.Linear(width, 1)
            self.policy = nn.Linear(width, NUM_ACTIONS)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = torch.tanh(self.layer1(torch.tanh(self.layer0(x))))
            return self.value(h)[:, 0], self.policy(h)

    return Net()


def export(net: Any, table: str) -> dict[str, np.ndarray]:
    """The model file's arrays (what :class:`goldrush_agents.gold.selfplay.Network` reads)."""
    arrays = {name: tensor.detach().cpu().numpy().astype(np.float32) for name, tensor in net.state_dict().items()}
    arrays["config.num_players"] = np.array(2)
    arrays["config.table"] = np.array(table)
    return arrays


class NumpyValue:
    """The network's value head in numpy, refreshed from the torch network after each round (its own arithmetic
    rather than :class:`~goldrush_agents.gold.selfplay.Network`'s: a run repeats the shipped models' runs to
    the bit only with this order of operations)."""

    def __init__(self, net: Any) -> None:
        self.refresh(net)

    def refresh(self, net: Any) -> None:
        state = {k: v.detach().numpy().astype(np.float32) for k, v in net.state_dict().items()}
        self.w0, self.b0 = state["layer0.weight"].T.copy(), state["layer0.bias"]
        self.w1, self.b1 = state["layer1.weight"].T.copy(), state["layer1.bias"]
        self.wv, self.bv = state["value.weight"][0], float(state["value.bias"][0])

    def __call__(self, x: np.ndarray) -> np.ndarray:
        h = np.tanh(np.tanh(x @ self.w0 + self.b0) @ self.w1 + self.b1)
        return 1.0 / (1.0 + np.exp(-(h @ self.wv + self.bv).astype(np.float64)))


# --- the run ----------------------------------------------------------------------------------------------------------

def evaluate(model: Path, opponent: str, games: int, seed: int, table: str, depth: int = 1) -> dict[str, Any]:
    """``model`` (played by ``selfplay[depth=...]``) against ``opponent`` on the real engine, seats rotated."""
    from goldrush_train.win_shares import evaluate as play

    row = play(f"selfplay[path='{model}',depth={depth}]", [opponent], games=games, seed=seed, table=table)[0]
    return {"opponent": opponent, "depth": depth, "games": row.games, "win_share": row.win_share,
            "low": row.low, "high": row.high}


def train(args: SelfPlay) -> dict[str, Any]:
    args.check()
    with one_blas_thread():
        return _train(args)


def _train(args: SelfPlay) -> dict[str, Any]:
    import torch

    started = time.perf_counter()
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    run_dir = open_run_dir(args.run_dir, f"runs/selfplay-{args.table}-s{args.seed}", args)
    rng = np.random.default_rng(args.seed)
    net = make_net(args.width)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    value = NumpyValue(net)
    search = TurnSearch.of_network(value, TABLES[args.table].rush_at)
    xs = np.zeros((args.buffer, FEATURES), dtype=np.float32)
    targets = np.zeros(args.buffer, dtype=np.float32)
    moves = np.zeros(args.buffer, dtype=np.int64)
    stored, cursor, played, next_evaluation = 0, 0, 0, args.eval_every
    evaluation_seconds = 0.0
    curve = []
    log = (run_dir / "progress.jsonl").open("w")
    model_path = run_dir / "model.npz"

    def save() -> None:
        np.savez(model_path, **export(net, args.table))

    while played < args.games:
        for _ in range(min(args.games_per_round, args.games - played)):
            decisions, result = play_game(search, args.table, played % 2, rng, args.explore, args.temperature)
            played += 1
            target = returns(decisions, result, args.lam)
            for (x, _, best, _), t in zip(decisions, target):
                xs[cursor], targets[cursor], moves[cursor] = x, t, best
                cursor = (cursor + 1) % args.buffer
                stored = min(stored + 1, args.buffer)
        losses = []
        for _ in range(args.updates_per_round):
            rows = rng.integers(stored, size=args.batch_size)
            x = torch.from_numpy(xs[rows])
            v, logits = net(x)
            value_loss = torch.nn.functional.binary_cross_entropy_with_logits(v, torch.from_numpy(targets[rows]))
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
                     "value_loss": float(np.mean([a for a, _ in losses])),
                     "policy_loss": float(np.mean([b for _, b in losses])),
                     "evaluations": [evaluate(model_path, opponent, args.eval_games, args.seed + 1_000_000 + played,
                                              args.table, depth)
                                     for opponent, depth in (("greedy", 1), ("greedy", 0), ("random", 1))]}
            evaluation_seconds += time.perf_counter() - evaluating
            curve.append(point)
            log.write(json.dumps(point) + "\n")
            log.flush()
            shares = ", ".join(f"{e['opponent']}{'' if e['depth'] else ' (network alone)'} {e['win_share']:.3f}"
                               for e in point["evaluations"])
            print(f"selfplay: {played} games, {minutes(point['seconds'])}: {shares}", flush=True)
    save()
    training_seconds = time.perf_counter() - started - evaluation_seconds
    final = [evaluate(model_path, "greedy", args.final_games, args.seed + 2_000_000, args.table, depth)
             for depth in (1, 0)]
    summary = {"args": dataclasses.asdict(args), "games": played, "seconds": round(time.perf_counter() - started, 1),
               "training_seconds": round(training_seconds, 1), "curve": curve, "final": final}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    for e in final:
        print(f"selfplay: final, {'with the search' if e['depth'] else 'network alone'} against greedy: "
              f"{e['win_share']:.3f} [{e['low']:.3f}, {e['high']:.3f}] over {e['games']} games", flush=True)
    if args.ship:
        shutil.copyfile(model_path, SHIPPED[args.table])
        print(f"selfplay: shipped {model_path} as {SHIPPED[args.table]}", flush=True)
    print(f"selfplay: {played} games in {minutes(summary['seconds'])} ({minutes(training_seconds)} without the "
          f"evaluations), outputs in {run_dir}/", flush=True)
    return summary


@command("goldrush_train.gold.selfplay", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    import tyro

    return train(tyro.cli(SelfPlay, args=argv, prog="python -m goldrush_train.gold.selfplay"))


if __name__ == "__main__":
    main()
