"""A warm start for PPO: teach the policy network to copy a scripted player first.

:func:`collect` plays seeded games between copies of a scripted player (the
expert by default) and records, for every decision, the observation, the
legal mask, the flip chosen and the return that followed (the seat's points
gained from then on against the others', the sum of the ``"score"`` reward
to the end). :func:`pretrain` fits the network's logits to the flips
(cross-entropy over legal positions) and its value to the returns. PPO then
starts from a player of roughly the teacher's strength instead of a random
one, which on two CPU cores saves most of a training budget.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

import numpy as np

from agents import make_agent
from goldrush_env.aec import raw_env
from goldrush_env.cards import NUM_POSITIONS
from goldrush_env.encoder import OBSERVATION_SIZE


def _play(job: tuple[str, int, int, dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    teacher, num_players, seed, config = job
    env = raw_env(num_players=num_players, **config)
    env.reset(seed=seed, options={"first_player": seed % num_players})
    seeds = np.random.SeedSequence(seed).spawn(num_players)
    players = [make_agent(teacher, seed=int(s.generate_state(1)[0])) for s in seeds]
    game = env.game
    observations, masks, actions, seats, standing = [], [], [], [], []
    while not game.is_finished:
        seat = game.current_player
        view = env.view(seat)
        position = players[seat].act(view)
        observations.append(view.observation)
        masks.append(view.action_mask.astype(bool))
        actions.append(position)
        seats.append(seat)
        standing.append(_relative(game.scores, seat))
        env.step(position)
    final = [_relative(game.scores, seat) for seat in range(num_players)]
    returns = np.array([final[seat] - before for seat, before in zip(seats, standing)], np.float32) / 10.0
    return np.array(observations, np.float32), np.array(masks), np.array(actions, np.int64), returns


def _relative(scores: tuple[int, ...], seat: int) -> float:
    others = [s for k, s in enumerate(scores) if k != seat]
    return scores[seat] - sum(others) / len(others)


def collect(games: int, num_players: int = 2, teacher: str = "expert", seed: int = 0, workers: int | None = None,
            **config: Any) -> dict[str, np.ndarray]:
    """Decisions of ``games`` seeded games of ``teacher`` against itself: observations, masks, actions, returns."""
    jobs = [(teacher, num_players, seed * 1_000_003 + game, config) for game in range(games)]
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        parts = [_play(job) for job in jobs]
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_play, jobs, chunksize=max(1, games // (workers * 8)))
    data = {key: np.concatenate([part[i] for part in parts]) for i, key in
            enumerate(("observations", "masks", "actions", "returns"))}
    assert data["observations"].shape[1] == OBSERVATION_SIZE and data["masks"].shape[1] == NUM_POSITIONS
    return data


def pretrain(net: Any, data: dict[str, np.ndarray], epochs: int = 3, batch_size: int = 512, lr: float = 1e-3,
             seed: int = 0) -> dict[str, float]:
    """Fit ``net`` (a :class:`train.network.GoldNet`) to the teacher's flips and returns; returns the last
    epoch's mean loss and the share of flips it copies exactly."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    obs = torch.as_tensor(data["observations"])
    masks = torch.as_tensor(data["masks"])
    actions = torch.as_tensor(data["actions"])
    returns = torch.as_tensor(data["returns"])
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    stats: dict[str, float] = {}
    for _ in range(epochs):
        order = torch.randperm(len(actions), generator=generator)
        total_loss = agree = 0.0
        for start in range(0, len(order), batch_size):
            index = order[start:start + batch_size]
            logits, values = net(obs[index])
            logits = logits.masked_fill(~masks[index], -1e9)
            policy_loss = torch.nn.functional.cross_entropy(logits, actions[index])
            value_loss = torch.nn.functional.mse_loss(values, returns[index])
            loss = policy_loss + 0.5 * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += float(loss.detach()) * len(index)
            agree += float((logits.argmax(dim=1) == actions[index]).sum())
        stats = {"loss": total_loss / len(order), "agreement": agree / len(order)}
    return stats
