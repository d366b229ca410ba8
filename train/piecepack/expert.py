"""Expert iteration for *Gold Rush* on a piecepack: a network fitted, round after round, to what the search does in
the positions of its own games.

    python -m goldrush_train.piecepack.expert --num-players 4 --seed 0            # the shipped 4-player model
    python -m goldrush_train.piecepack.expert --num-players 3 --seed 0
    python -m goldrush_train.piecepack.expert --rounds 1 --games 20 --eval-games 10   # a quick look

Each round plays ``--games`` games in which every seat is, each game anew, the network (with probability
``--self-play``) or an economist, and labels every decision of the network's seats with the teacher's choice: the
search (``search[compiled=True,rollouts=R]``: at a claim and in a Development turn every legal action tried on R
games sampled from what the seat knows, idle play to the end, in the compiled kernel) and, at the other decision
points, the economist, as the search itself plays there. In the first round the teacher's choices are also the
moves played (a copy of the search, as ``goldrush_train.piecepack.ppo --teacher search`` makes); from the second
on the network plays its own moves (the search's, a ``--teacher-moves`` share of the time), so that it learns what
the search would do in the positions it reaches itself rather than only in the search's (DAgger). The network
(tanh layers of ``--hidden`` units, observation to 488 logits) is fitted to every round's decisions so far: the
cross-entropy of the legal actions against the search's best (its ties shared). After each round it plays
``--eval-games`` games alone among economists, seats and start rotated.

The search does not call the network: each round improves on the network's positions, not on its values. Games
are played in ``--workers`` processes, each game from its own seed, so the workers change the time alone.
``model.npz`` is the last round's network as the numpy player's file (``make_agent(path, game="piecepack")``, the
entrant ``taught`` once shipped with ``--ship``), ``round-K.npz`` each round's, ``summary.json`` the figures of every
round.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from goldrush_train.cli import (TRAIN_EXTRA, check_counts, check_numbers, command, minutes, open_run_dir, parse_args,
                                ship)

from goldrush_env.checks import check_int, check_number


@dataclass
class Args:
    """Expert iteration: a network fitted to the search's choices in the positions of its own games."""

    run_dir: str | None = None
    """Folder for the model and the figures; it must be new or empty. Default: runs/piecepack-expert-YYYYmmdd-HHMMSS."""
    seed: int = 0
    """Seeds the network, the games, the players and the evaluation deals."""
    num_players: int = 4
    """Seats at the table, 3 or 4."""
    rounds: int = 4
    """Rounds of play, label and fit."""
    games: int = 2000
    """Games a round."""
    self_play: float = 0.5
    """The chance that a seat other than the first network seat of a game is the network too (else an economist);
    every game has at least one network seat."""
    teacher_moves: float = 0.2
    """From the second round on, the share of the network seats' moves that are the teacher's."""
    rollouts: int = 32
    """The teacher's sampled games per legal action."""
    hidden: int = 256
    """Units of each of the network's two hidden layers."""
    epochs: int = 6
    """Passes over all the decisions so far after each round."""
    batch_size: int = 512
    learning_rate: float = 1e-3
    eval_games: int = 200
    """Games alone among economists after each round."""
    workers: int = 2
    """Processes that play the games."""
    ship: bool = False
    """Copy model.npz into the package as the shipped model for --num-players (the entrant taught)."""

    def check(self) -> None:
        """Refuse a bad value by its option, before anything starts."""
        check_int("--num-players", self.num_players, 3, 4)
        check_counts(self, "rounds", "games", "hidden", "epochs", "batch_size", "eval_games", "workers")
        check_numbers(self, "self_play", "teacher_moves", low=0, high=1)
        check_number("--learning-rate", self.learning_rate, 1e-6, 1)
        check_int("--rollouts", self.rollouts, 1, 256)


_LAYERS: list | None = None
"""The network a worker's games play this round (None in the first round, where the teacher moves)."""


def _set_layers(layers: list | None) -> None:
    global _LAYERS
    _LAYERS = layers


def play(job: tuple) -> dict[str, np.ndarray]:
    """One game of a round from its seed alone, the network :data:`_LAYERS`: every network seat's observations,
    legal masks and the teacher's best actions (a bool row of 488 each)."""
    from goldrush_agents import make_agent
    from goldrush_agents.piecepack.search import SEARCHED, PiecepackSearch
    from goldrush_agents.weights import tanh_mlp

    from goldrush_env.piecepack.actions import NUM_ACTIONS
    from goldrush_env.piecepack.aec import raw_env
    from goldrush_env.piecepack.engine import Phase

    num_players, self_play, teacher_moves, rollouts, seed = job
    layers = _LAYERS
    rng = np.random.default_rng(seed)
    network_seats = [seat == 0 or rng.random() < self_play for seat in range(num_players)]
    network_seats = list(np.roll(network_seats, int(rng.integers(num_players))))  # the sure one at any seat
    economists = [make_agent("economist", game="piecepack", seed=int(rng.integers(2**63)))
                  for _ in range(num_players)]
    teacher = PiecepackSearch(seed=int(rng.integers(2**63)), rollouts=rollouts, compiled=True)
    env = raw_env(num_players=num_players)
    env.reset(seed=seed)
    observations, masks, best = [], [], []
    while not env.game.is_over:
        seat = env.game.current_player
        view = env.view(seat)
        if not network_seats[seat]:
            env.step(economists[seat].act(view))
            continue
        mask = np.asarray(view.action_mask, bool)
        legal = np.flatnonzero(mask)
        chosen = np.zeros(NUM_ACTIONS, bool)
        if Phase(view.knowledge["phase"]) in SEARCHED and len(legal) > 1:
            totals = teacher.values(view.knowledge, legal, teacher.rng.integers(2**63, size=rollouts))
            chosen[legal[totals >= totals.max() - 1e-9]] = True
        else:
            chosen[economists[seat].act(view)] = True
        observation = view.observation
        observations.append(observation)
        masks.append(mask)
        best.append(chosen)
        if layers is None or rng.random() < teacher_moves:
            options = np.flatnonzero(chosen)
            action = int(options[rng.integers(len(options))])
        else:
            action = int(np.where(mask, tanh_mlp(layers, observation), -np.inf).argmax())
        env.step(action)
    return {"observations": np.asarray(observations, np.float32), "masks": np.asarray(masks, bool),
            "best": np.asarray(best, bool)}


def collect(args: Args, layers: list | None, round_index: int) -> dict[str, np.ndarray]:
    """The games of one round, in ``--workers`` processes."""
    jobs = [(args.num_players, args.self_play, args.teacher_moves, args.rollouts,
             args.seed * 1_000_003 + 100_000 * (round_index + 1) + game) for game in range(args.games)]
    if args.workers > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(args.workers, _set_layers, (layers,)) as pool:
            games = pool.map(play, jobs, chunksize=8)
    else:
        _set_layers(layers)
        games = [play(job) for job in jobs]
    return {name: np.concatenate([game[name] for game in games]) for name in games[0]}


def network(hidden: int) -> Any:
    import torch

    from goldrush_env.piecepack.actions import NUM_ACTIONS
    from goldrush_env.piecepack.encoder import OBSERVATION_SIZE

    return torch.nn.Sequential(torch.nn.Linear(OBSERVATION_SIZE, hidden), torch.nn.Tanh(),
                               torch.nn.Linear(hidden, hidden), torch.nn.Tanh(), torch.nn.Linear(hidden, NUM_ACTIONS))


def fit(net: Any, data: dict[str, np.ndarray], args: Args, rng: np.random.Generator) -> dict[str, float]:
    """``--epochs`` passes of Adam over ``data``: cross-entropy of the masked logits against the teacher's best
    actions, shared among ties. A twentieth of the decisions, drawn afresh each round, is held out of this fit
    (from the second round on, some of them were fitted in an earlier round); returns how often the network's most
    likely legal action is one of the teacher's best, on the fitted decisions (the first 50,000) and on those held
    out."""
    import torch

    order = rng.permutation(len(data["best"]))
    held, fitted = order[:len(order) // 20], order[len(order) // 20:]
    observations = torch.as_tensor(data["observations"])
    masks = torch.as_tensor(data["masks"])
    targets = torch.as_tensor(data["best"], dtype=torch.float32)
    targets = targets / targets.sum(dim=1, keepdim=True)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    net.train()
    for _ in range(args.epochs):
        rng.shuffle(fitted)
        for start in range(0, len(fitted), args.batch_size):
            rows = torch.as_tensor(fitted[start:start + args.batch_size])
            logits = net(observations[rows]).masked_fill(~masks[rows], -1e9)
            loss = -(targets[rows] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    net.eval()

    def agreement(rows: np.ndarray) -> float:
        with torch.no_grad():
            rows_t = torch.as_tensor(rows)
            chosen = net(observations[rows_t]).masked_fill(~masks[rows_t], -1e9).argmax(dim=1)
            return float(torch.as_tensor(data["best"])[rows_t, chosen].float().mean())

    return {"decisions": len(order), "agreement_fitted": agreement(fitted[:50_000]),
            "agreement_held_out": agreement(held)}


def layers_of(net: Any) -> list[tuple[np.ndarray, np.ndarray]]:
    """The network as ``goldrush_agents.weights.tanh_mlp`` plays it: (weight, bias) of each linear layer."""
    linears = [layer for layer in net if hasattr(layer, "weight")]
    return [(layer.weight.detach().numpy().T.copy(), layer.bias.detach().numpy().copy()) for layer in linears]


def export(net: Any, path: Path, num_players: int) -> None:
    """The network as a ``.npz`` the numpy player reads: linear layers ``actor.0``, ``actor.2``, ``actor.4``."""
    weights = {}
    for k, (weight, bias) in enumerate(layers_of(net)):
        weights[f"actor.{2 * k}.weight"], weights[f"actor.{2 * k}.bias"] = weight.T, bias
    np.savez(path, **weights, **{"config.game": "piecepack", "config.num_players": num_players})


def train(args: Args) -> dict[str, Any]:
    import torch
    from goldrush_train.win_shares import evaluate

    args.check()
    run_dir = open_run_dir(args.run_dir, "runs/piecepack-expert", args)
    torch.manual_seed(args.seed)
    torch.set_num_threads(max(1, args.workers))
    rng = np.random.default_rng(args.seed)
    net = network(args.hidden)
    data: dict[str, list[np.ndarray]] = {"observations": [], "masks": [], "best": []}
    rounds = []
    for round_index in range(args.rounds):
        started = time.perf_counter()
        layers = None if round_index == 0 else layers_of(net)
        played = collect(args, layers, round_index)
        for name, rows in played.items():
            data[name].append(rows)
        play_seconds = time.perf_counter() - started
        started = time.perf_counter()
        fitted = fit(net, {name: np.concatenate(rows) for name, rows in data.items()}, args, rng)
        fit_seconds = time.perf_counter() - started
        export(net, run_dir / f"round-{round_index + 1}.npz", args.num_players)
        shutil.copyfile(run_dir / f"round-{round_index + 1}.npz", run_dir / "model.npz")
        [row] = evaluate(str(run_dir / "model.npz"), ["economist"], num_players=args.num_players,
                         games=args.eval_games, seed=args.seed * 1_000_003 + 7_000_000, workers=args.workers,
                         game="piecepack")
        rounds.append({"round": round_index + 1, "new_decisions": len(played["best"]), **fitted,
                       "play_seconds": play_seconds, "fit_seconds": fit_seconds, "win_share": row.win_share,
                       "low": row.low, "high": row.high, "score": row.model_points,
                       "economist_score": row.opponent_points})
        print(f"round {round_index + 1}: {len(played['best']):,} new decisions ({minutes(play_seconds)}), fitted "
              f"on {fitted['decisions']:,} ({minutes(fit_seconds)}): the search's choice "
              f"{fitted['agreement_fitted']:.1%} ({fitted['agreement_held_out']:.1%} held out); alone among "
              f"economists {row.win_share:.3f} [{row.low:.3f}, {row.high:.3f}] of {args.eval_games}, score "
              f"{row.model_points:.2f} vs {row.opponent_points:.2f}", flush=True)
        torch.save(net.state_dict(), run_dir / "network.pt")
    summary = {"args": dataclasses.asdict(args), "rounds": rounds}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    if args.ship:
        from goldrush_agents.piecepack import shipped_model

        ship(run_dir / "model.npz", shipped_model(args.num_players))
    print(f"outputs in {run_dir}/")
    return summary


@command("goldrush_train.piecepack.expert", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    return train(parse_args(Args, argv, "goldrush_train.piecepack.expert"))


if __name__ == "__main__":
    main()
