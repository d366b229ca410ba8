"""A warm start for PPO: teach the policy network to copy a teacher first.

:func:`collect` plays seeded games between copies of a teacher (the expert
by default) and records, for every decision, the observation, the legal
mask, the flip chosen, the teacher's move as a distribution over positions
(for a teacher with a ``decide(view)`` method, such as ``ismcts``, the move
spread evenly over the positions it stands for, every unknown one for "an
unknown card"; for the others the flip itself) and the return that
followed (the seat's points gained from then on against the others', the
sum of the ``"score"`` reward to the end). :func:`pretrain` fits the
network's logits to those targets (cross-entropy over legal positions) and
its value to the returns. PPO then starts from a player of roughly the
teacher's strength instead of a random one, which on two CPU cores saves
most of a training budget.

A search teacher costs seconds a game, so its decisions are collected once
and saved (:func:`save`, :func:`load`), from the command line::

    python -m train.imitation --teacher ismcts --games 100 --seed 1 --out runs/ismcts-1.npz

and given to ``python -m train.ppo --imitation-data FILE...``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from agents import make_agent
from goldrush_env.aec import raw_env
from goldrush_env.cards import NUM_POSITIONS
from goldrush_env.errors import GoldRushError
from goldrush_env.encoder import OBSERVATION_SIZE


FIELDS = ("observations", "masks", "actions", "targets", "returns")
"""What a decision records; the arrays of a data set, one row per decision."""


def _play(job: tuple[str, int, int, dict[str, Any]]) -> tuple[np.ndarray, ...]:
    teacher, num_players, seed, config = job
    env = raw_env(num_players=num_players, **config)
    env.reset(seed=seed, options={"first_player": seed % num_players})
    seeds = np.random.SeedSequence(seed).spawn(num_players)
    players = [make_agent(teacher, seed=int(s.generate_state(1)[0])) for s in seeds]
    game = env.game
    observations, masks, actions, targets, seats, standing = [], [], [], [], [], []
    while not game.is_finished:
        seat = game.current_player
        view = env.view(seat)
        decide = getattr(players[seat], "decide", None)
        if decide is None:
            position = players[seat].act(view)
            policy = np.zeros(NUM_POSITIONS, np.float32)
            policy[position] = 1.0
        else:
            decision = decide(view)
            position, policy = decision.position, decision.move
        targets.append(policy)
        observations.append(view.observation)
        masks.append(view.action_mask.astype(bool))
        actions.append(position)
        seats.append(seat)
        standing.append(_relative(game.scores, seat))
        env.step(position)
    final = [_relative(game.scores, seat) for seat in range(num_players)]
    returns = np.array([final[seat] - before for seat, before in zip(seats, standing)], np.float32) / 10.0
    return (np.array(observations, np.float32), np.array(masks), np.array(actions, np.int64),
            np.array(targets, np.float32), returns)


def _relative(scores: tuple[int, ...], seat: int) -> float:
    others = [s for k, s in enumerate(scores) if k != seat]
    return scores[seat] - sum(others) / len(others)


def collect(games: int, num_players: int = 2, teacher: str = "expert", seed: int = 0, workers: int | None = None,
            **config: Any) -> dict[str, np.ndarray]:
    """Decisions of ``games`` seeded games of ``teacher`` against itself (the arrays named in :data:`FIELDS`)."""
    jobs = [(teacher, num_players, seed * 1_000_003 + game, config) for game in range(games)]
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        parts = [_play(job) for job in jobs]
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_play, jobs, chunksize=max(1, games // (workers * 8)))
    data = {key: np.concatenate([part[i] for part in parts]) for i, key in enumerate(FIELDS)}
    assert data["observations"].shape[1] == OBSERVATION_SIZE and data["masks"].shape[1] == NUM_POSITIONS
    return data


def save(data: dict[str, np.ndarray], path: str | Path, **about: Any) -> Path:
    """Write a data set to ``path`` (.npz), with ``about`` (teacher, games, seed...) kept beside the arrays."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **data, about=np.array(json.dumps(about)))
    return path


def load(*paths: str | Path, num_players: int | None = None) -> dict[str, np.ndarray]:
    """Read data sets written by :func:`save` and join them. Refuses (:class:`GoldRushError`, a ValueError) a
    file that lacks one of :data:`FIELDS`, whose observations do not have this version's size, or (given
    ``num_players``) whose games had another number of players."""
    parts = []
    for path in paths:
        with np.load(path) as stored:
            missing = [key for key in FIELDS if key not in stored]
            if missing:
                raise GoldRushError(f"{path} is not an imitation data set: it lacks {missing}")
            part = {key: stored[key] for key in FIELDS}
            about = json.loads(str(stored["about"])) if "about" in stored else {}
        if num_players is not None and about.get("num_players", num_players) != num_players:
            raise GoldRushError(f"{path} holds games of {about['num_players']} players, not {num_players}")
        if part["observations"].shape[1:] != (OBSERVATION_SIZE,) or part["targets"].shape[1:] != (NUM_POSITIONS,):
            raise GoldRushError(f"{path} holds observations of size {part['observations'].shape[1:]}, this version "
                                f"encodes {OBSERVATION_SIZE}")
        parts.append(part)
    if not parts:
        raise GoldRushError("load needs at least one file")
    return {key: np.concatenate([part[key] for part in parts]) for key in FIELDS}


def _compare(net: Any, obs: Any, masks: Any, targets: Any) -> tuple[Any, Any, Any, Any]:
    """The network's most likely legal flips, its cross-entropy against the teacher's moves, whether each of
    those flips is one the move stands for, and its values (torch tensors, one entry per decision)."""
    import torch

    logits, values = net(obs)
    logits = logits.masked_fill(~masks, -1e9)
    best = logits.argmax(dim=1)
    cross = -(targets * torch.log_softmax(logits, dim=1)).sum(dim=1)
    hits = targets.gather(1, best.unsqueeze(1)).squeeze(1) > 0
    return best, cross, hits, values


def pretrain(net: Any, data: dict[str, np.ndarray], epochs: int = 3, batch_size: int = 512, lr: float = 1e-3,
             seed: int = 0, after_epoch: Callable[[int, dict[str, float]], None] | None = None) -> dict[str, float]:
    """Fit ``net`` (a :class:`train.network.GoldNet`) to the teacher's targets and returns.

    Returns the last epoch's mean loss, the share of the teacher's flips that are the network's most likely
    ones (``agreement``) and the share of decisions where the network's most likely flip is one the teacher's
    move stands for (``matches``: any unknown card, when the teacher chose "an unknown card").
    ``after_epoch(epoch, stats)``, if given, is called after each epoch (counted from 1) with those figures.
    """
    import torch

    generator = torch.Generator().manual_seed(seed)
    obs = torch.as_tensor(data["observations"])
    masks = torch.as_tensor(data["masks"])
    actions = torch.as_tensor(data["actions"])
    targets = torch.as_tensor(data["targets"])
    returns = torch.as_tensor(data["returns"])
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    stats: dict[str, float] = {}
    for epoch in range(1, epochs + 1):
        order = torch.randperm(len(actions), generator=generator)
        total_loss = agree = matches = 0.0
        for start in range(0, len(order), batch_size):
            index = order[start:start + batch_size]
            best, cross, hits, values = _compare(net, obs[index], masks[index], targets[index])
            value_loss = torch.nn.functional.mse_loss(values, returns[index])
            loss = cross.mean() + 0.5 * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += float(loss.detach()) * len(index)
            agree += float((best == actions[index]).sum())
            matches += float(hits.sum())
        stats = {"loss": total_loss / len(order), "agreement": agree / len(order), "matches": matches / len(order)}
        if after_epoch is not None:
            after_epoch(epoch, stats)
    return stats


def score(net: Any, data: dict[str, np.ndarray], batch_size: int = 4096) -> dict[str, float]:
    """How well ``net`` copies the decisions in ``data`` without fitting them (e.g. games kept out of the fit).

    ``cross_entropy``: against the teacher's move, over legal flips; ``excess``: the same less the move's own
    entropy (0 for a perfect copy: what is left to learn); ``matches``: as in :func:`pretrain`;
    ``value_error``: the mean squared error of the value against the returns.
    """
    import torch

    totals = np.zeros(4)
    with torch.no_grad():
        for start in range(0, len(data["actions"]), batch_size):
            part = slice(start, start + batch_size)
            targets = torch.as_tensor(data["targets"][part])
            _, cross, hits, values = _compare(net, torch.as_tensor(data["observations"][part]),
                                              torch.as_tensor(data["masks"][part]), targets)
            entropy = -(targets * torch.log(targets.clamp_min(1e-12))).sum(dim=1)
            error = (values - torch.as_tensor(data["returns"][part])) ** 2
            totals += [float(cross.sum()), float((cross - entropy).sum()), float(hits.sum()), float(error.sum())]
    totals /= len(data["actions"])
    return dict(zip(("cross_entropy", "excess", "matches", "value_error"), totals.tolist()))


def main(argv: Sequence[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(prog="python -m train.imitation",
                                     description="Collect a teacher's decisions for the warm start of train.ppo.")
    parser.add_argument("--teacher", default="ismcts", help="the agent copied, against itself (default: ismcts)")
    parser.add_argument("--games", type=int, default=100, help="games to play (default: 100)")
    parser.add_argument("--num-players", type=int, default=2, help="players per game (default: 2)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the deals and the teachers (default: 0)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    parser.add_argument("--memory", default="perfect", choices=["perfect", "human"],
                        help="the players' memory model (default: perfect)")
    parser.add_argument("--out", required=True, help="the .npz file to write")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    if not 2 <= args.num_players <= 5:
        parser.error(f"--num-players must be 2 to 5, got {args.num_players}")
    if args.workers is not None and args.workers < 1:
        parser.error(f"--workers must be >= 1, got {args.workers}")
    start = time.perf_counter()
    data = collect(args.games, num_players=args.num_players, teacher=args.teacher, seed=args.seed,
                   workers=args.workers, memory=args.memory)
    path = save(data, args.out, teacher=args.teacher, games=args.games, num_players=args.num_players,
                seed=args.seed, memory=args.memory)
    print(f"{len(data['actions']):,} decisions of {args.games} games of {args.teacher} in "
          f"{time.perf_counter() - start:.0f} s: {path}")
    return path


if __name__ == "__main__":
    main()
