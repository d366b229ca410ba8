"""Data sets of a teacher's decisions, and fitting a network to them (the warm start of PPO).

:func:`collect` plays seeded games between copies of a teacher (the expert
by default) and records, for every decision, the observation, the legal
mask, the flip chosen, the teacher's move as a distribution over positions
(for a teacher with a ``decide(view)`` method, such as ``ismcts``, the move
spread evenly over the positions it stands for, every unknown one for "an
unknown card"; for the others the flip itself) and the return that
followed (the seat's points gained from then on against the others', the
sum of the ``"score"`` reward to the end). :func:`pretrain` fits the
network's logits to those targets (cross-entropy over legal positions) and
its value to the returns; :func:`score` measures a fit on decisions it did
not see. :func:`save` and :func:`load` keep a data set in a ``.npz`` file,
which ``python -m goldrush_train.gold.imitation`` writes from the command line.
"""
from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import zipfile
from pathlib import Path
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from goldrush_agents import make_agent
from goldrush_env.gold.aec import raw_env
from goldrush_env.gold.cards import NUM_POSITIONS
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.encoder import OBSERVATION_SIZE
from goldrush_train.cli import Ticker


FIELDS = ("observations", "masks", "actions", "targets", "returns")
"""What a decision records; the arrays of a data set, one row per decision."""

TARGETS = ("move", "visits")
"""What a network can be fitted to: the teacher's move (the ``targets`` array) or, in files collected since
the search's visit shares were recorded, those shares (the ``visits`` array)."""


class _Job(NamedTuple):
    """One game to record: who plays, on which deal, and (for a student) which seat it takes and against whom."""

    teacher: str
    num_players: int
    seed: int
    config: dict[str, Any]
    student: str | None = None
    seat: int = 0
    opponent: str = ""


def _play(job: _Job) -> tuple[np.ndarray, ...]:
    num_players, seed = job.num_players, job.seed
    env = raw_env(num_players=num_players, **job.config)
    env.reset(seed=seed, options={"first_player": seed % num_players})
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(num_players + 1)]
    if job.student is None:  # the teacher in every seat, every decision recorded
        players = [make_agent(job.teacher, seed=s) for s in seeds[:num_players]]
        teachers = {seat: players[seat] for seat in range(num_players)}
    else:  # the student plays one seat, the teacher only labels its decisions
        players = [make_agent(job.student if seat == job.seat else job.opponent, seed=s)
                   for seat, s in enumerate(seeds[:num_players])]
        teachers = {job.seat: make_agent(job.teacher, seed=seeds[num_players])}
    game = env.game
    observations, masks, actions, targets, visits, seats, standing = [], [], [], [], [], [], []
    while not game.is_finished:
        seat = game.current_player
        view = env.view(seat)
        played = None if job.student is None else players[seat].act(view)
        teacher = teachers.get(seat)
        if teacher is None:
            env.step_from_view(played)
            continue
        decide = getattr(teacher, "decide", None)
        if decide is None:
            position = teacher.act(view)
            policy = np.zeros(NUM_POSITIONS, np.float32)
            policy[position] = 1.0
            shares = policy
        else:
            decision = decide(view)
            position, policy, shares = decision.position, decision.move, decision.visits
        targets.append(policy)
        visits.append(shares)
        observations.append(view.observation)
        masks.append(view.action_mask.astype(bool))
        actions.append(position)
        seats.append(seat)
        standing.append(_relative(game.scores, seat))
        env.step_from_view(position if played is None else played)
    final = [_relative(game.scores, seat) for seat in range(num_players)]
    returns = np.array([final[seat] - before for seat, before in zip(seats, standing)], np.float32) / 10.0
    return (np.array(observations, np.float32).reshape(-1, OBSERVATION_SIZE),
            np.array(masks, bool).reshape(-1, NUM_POSITIONS), np.array(actions, np.int64),
            np.array(targets, np.float32).reshape(-1, NUM_POSITIONS), returns,
            np.array(visits, np.float32).reshape(-1, NUM_POSITIONS))


def _relative(scores: tuple[int, ...], seat: int) -> float:
    others = [s for k, s in enumerate(scores) if k != seat]
    return scores[seat] - sum(others) / len(others)


def collect(games: int, num_players: int = 2, teacher: str = "expert", seed: int = 0, workers: int | None = None,
            student: str | None = None, opponents: Sequence[str] = ("greedy", "expert"), progress: str | None = None,
            **config: Any) -> dict[str, np.ndarray]:
    """Decisions of ``games`` seeded games: the arrays named in :data:`FIELDS`, and ``visits``, the teacher's
    share of visits per position (for a teacher without a ``decide`` method, its flip, as in ``targets``).

    Without ``student``, ``teacher`` plays every seat against itself and each of its decisions is recorded.
    With a ``student`` (an agent spec, e.g. a model file), the student plays one seat against a field of one
    of ``opponents`` (taken in turn, game by game; the student's seat rotates too) and only its decisions
    are recorded, each labelled with the move ``teacher`` would make there; the game goes on with the
    student's flip (DAgger: the teacher's moves on the states the student's own play leads to). The returns
    are then those of the student's play.

    With ``progress`` (a label), a line ``LABEL: DONE/GAMES games, TIME`` is printed every ten seconds or so,
    and at the end.
    """
    if student is not None and not opponents:
        raise GoldrushEnvError("collect with a student needs at least one opponent")
    jobs = []
    for game in range(games):
        job = _Job(teacher, num_players, seed * 1_000_003 + game, config)
        if student is not None:
            job = job._replace(student=student, seat=(game // len(opponents)) % num_players,
                               opponent=opponents[game % len(opponents)])
        jobs.append(job)
    workers = workers or os.cpu_count() or 1
    ticker = Ticker(progress, games) if progress else None
    parts = []
    if workers == 1:
        for job in jobs:
            parts.append(_play(job))
            ticker and ticker.update(len(parts))
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for part in pool.imap(_play, jobs, chunksize=max(1, games // (workers * 8))):
                parts.append(part)
                ticker and ticker.update(len(parts))
    data = {key: np.concatenate([part[i] for part in parts]) for i, key in enumerate(FIELDS + ("visits",))}
    assert data["observations"].shape[1] == OBSERVATION_SIZE and data["masks"].shape[1] == NUM_POSITIONS
    return data


def file_digest(path: str | Path) -> str | None:
    """The SHA-256 of the file at ``path`` (e.g. a student model), or None if there is no such file (e.g. an
    agent name): a data set's record of which model played."""
    path = Path(path)
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def save(data: dict[str, np.ndarray], path: str | Path, **about: Any) -> Path:
    """Write a data set to ``path`` (.npz), with ``about`` (teacher, games, seed...) kept beside the arrays."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")  # an interrupted save leaves no half file at ``path``
    try:
        with open(partial, "wb") as handle:
            np.savez_compressed(handle, **data, about=np.array(json.dumps(about)))
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def load(*paths: str | Path, num_players: int | None = None, target: str = "move") -> dict[str, np.ndarray]:
    """Read data sets written by :func:`save` and join them (the arrays named in :data:`FIELDS`).

    ``target`` (one of :data:`TARGETS`) says what the ``targets`` array holds: the teacher's moves as stored,
    or with ``"visits"`` its shares of visits (the moves are then kept as ``moves``, which :func:`pretrain`
    and :func:`score` count matches against). Refuses (:class:`GoldrushEnvError`, a ValueError) an unknown
    ``target``, a file that lacks one of :data:`FIELDS` (or the ``visits`` asked for), whose observations do
    not have this version's size, or (given ``num_players``) whose games had another number of players.
    """
    if target not in TARGETS:
        raise GoldrushEnvError(f"target must be one of {list(TARGETS)}, got {target!r}")
    parts = []
    for path in paths:
        if not Path(path).is_file():
            raise GoldrushEnvError(f"no data file at {str(path)!r} "
                                   "(write one with python -m goldrush_train.gold.imitation)")
        try:
            stored = np.load(path)
        except (OSError, ValueError, zipfile.BadZipFile):
            stored = None
        if not isinstance(stored, np.lib.npyio.NpzFile):
            raise GoldrushEnvError(f"{str(path)!r} is not a data file of python -m goldrush_train.gold.imitation: "
                                   "it is not a .npz archive")
        with stored:
            missing = [key for key in FIELDS if key not in stored]
            if missing:
                raise GoldrushEnvError(f"{path} is not an imitation data set: it lacks {missing}")
            if target == "visits" and "visits" not in stored:
                raise GoldrushEnvError(f"{path} holds no visit shares (it was collected before they were recorded): "
                                       "collect it again with python -m goldrush_train.gold.imitation, or fit the "
                                       "moves")
            part = {key: stored[key] for key in FIELDS}
            if target == "visits":  # fit the shares, but keep the moves to count matches against
                part["moves"], part["targets"] = part["targets"], stored["visits"]
            about = json.loads(str(stored["about"])) if "about" in stored else {}
        if num_players is not None and about.get("num_players", num_players) != num_players:
            raise GoldrushEnvError(f"{path} holds games of {about['num_players']} players, not {num_players}")
        if part["observations"].shape[1:] != (OBSERVATION_SIZE,) or part["targets"].shape[1:] != (NUM_POSITIONS,):
            raise GoldrushEnvError(f"{path} holds observations of size {part['observations'].shape[1:]}, this version "
                                   f"encodes {OBSERVATION_SIZE}")
        parts.append(part)
    if not parts:
        raise GoldrushEnvError("load needs at least one file")
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def compare(net: Any, obs: Any, masks: Any, targets: Any, moves: Any) -> tuple[Any, Any, Any, Any]:
    """The network's logits (-1e9 at illegal positions), its cross-entropy against the targets, whether each
    most likely legal flip is one the teacher's move stands for, and its values (torch tensors, one row per
    decision)."""
    import torch

    logits, values = net(obs)
    logits = logits.masked_fill(~masks, -1e9)
    cross = -(targets * torch.log_softmax(logits, dim=1)).sum(dim=1)
    hits = moves.gather(1, logits.argmax(dim=1).unsqueeze(1)).squeeze(1) > 0
    return logits, cross, hits, values


def pretrain(net: Any, data: dict[str, np.ndarray], epochs: int = 3, batch_size: int = 512, lr: float = 1e-3,
             seed: int = 0, after_epoch: Callable[[int, dict[str, float]], None] | None = None,
             after_batch: Callable[[int, int, int], None] | None = None) -> dict[str, float]:
    """Fit ``net`` (a :class:`goldrush_train.gold.network.GoldNet`) to the teacher's targets (its moves, or its visit
    shares: see :func:`load`) and the returns.

    Returns the last epoch's mean loss, the share of the teacher's flips that are the network's most likely
    ones (``agreement``) and the share of decisions where the network's most likely flip is one the teacher's
    move stands for (``matches``: any unknown card, when the teacher chose "an unknown card").
    ``after_epoch(epoch, stats)``, if given, is called after each epoch (counted from 1) with those figures, and
    ``after_batch(epoch, batches done, batches in the epoch)`` after each batch.
    """
    import torch

    generator = torch.Generator().manual_seed(seed)
    obs = torch.as_tensor(data["observations"])
    masks = torch.as_tensor(data["masks"])
    actions = torch.as_tensor(data["actions"])
    targets = torch.as_tensor(data["targets"])
    moves = torch.as_tensor(data.get("moves", data["targets"]))
    returns = torch.as_tensor(data["returns"])
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    stats: dict[str, float] = {}
    for epoch in range(1, epochs + 1):
        order = torch.randperm(len(actions), generator=generator)
        total_loss = agree = matches = 0.0
        for start in range(0, len(order), batch_size):
            index = order[start:start + batch_size]
            logits, cross, hits, values = compare(net, obs[index], masks[index], targets[index], moves[index])
            value_loss = torch.nn.functional.mse_loss(values, returns[index])
            loss = cross.mean() + 0.5 * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += float(loss.detach()) * len(index)
            agree += float((logits.argmax(dim=1) == actions[index]).sum())
            matches += float(hits.sum())
            if after_batch is not None:
                after_batch(epoch, start // batch_size + 1, -(-len(order) // batch_size))
        stats = {"loss": total_loss / len(order), "agreement": agree / len(order), "matches": matches / len(order)}
        if after_epoch is not None:
            after_epoch(epoch, stats)
    return stats


def score(net: Any, data: dict[str, np.ndarray], batch_size: int = 4096) -> dict[str, float]:
    """How well ``net`` copies the decisions in ``data`` without fitting them (e.g. games kept out of the fit).

    ``cross_entropy``: against the targets (the teacher's move, or its visit shares), over legal flips;
    ``excess``: the same less the targets' own entropy (0 for a perfect copy: what is left to learn);
    ``matches``: as in :func:`pretrain` (the network's most likely *position*); ``move_matches``: how often
    the first position of its most likely *move*, the flip a model plays with ``choose="move"``
    (:func:`goldrush_agents.gold.trained.best_move`), is on the teacher's move (:func:`same_move`): the figure to read for a
    model played by move, whose most likely position is often not on its most likely move;
    ``value_error``: the mean squared error of the value against the returns.
    """
    import torch

    from goldrush_agents.gold.trained import best_moves

    totals = np.zeros(5)
    with torch.no_grad():
        for start in range(0, len(data["actions"]), batch_size):
            part = slice(start, start + batch_size)
            observations, masks = data["observations"][part], data["masks"][part]
            targets = torch.as_tensor(data["targets"][part])
            moves = data.get("moves", data["targets"])[part]
            logits, cross, hits, values = compare(net, torch.as_tensor(observations), torch.as_tensor(masks),
                                                   targets, torch.as_tensor(moves))
            logits = np.where(masks, logits.numpy(), -np.inf)
            move_hits = same_move(observations, best_moves(observations, logits), moves)
            entropy = -(targets * torch.log(targets.clamp_min(1e-12))).sum(dim=1)
            error = (values - torch.as_tensor(data["returns"][part])) ** 2
            totals += [float(cross.sum()), float((cross - entropy).sum()), float(hits.sum()), float(move_hits.sum()),
                       float(error.sum())]
    totals /= len(data["actions"])
    return dict(zip(("cross_entropy", "excess", "matches", "move_matches", "value_error"), totals.tolist()))


def same_move(observations: np.ndarray, chosen: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """Whether each ``chosen`` position is on the teacher's move (``moves``, a row of weights over positions per
    decision): a position the move stands for, or one the network cannot tell from such a position (the same
    board features: every unknown card, remembered cards of one kind). A teacher without ``decide`` records
    only the position it flipped, one of several equivalent ones; a model played by move flips the first."""
    from goldrush_agents.gold.trained import BOARD_SIZE, PLANES

    boards = np.asarray(observations)[:, :BOARD_SIZE].reshape(len(chosen), PLANES, NUM_POSITIONS)
    hits = np.empty(len(chosen), bool)
    for i, (board, position, move) in enumerate(zip(boards, chosen, moves)):
        on_move = np.flatnonzero(move > 0)
        hits[i] = (board[:, on_move] == board[:, [position]]).all(axis=0).any()
    return hits
