"""Train a MaskablePPO agent for Gold, with a curriculum of scripted opponents and a self-play league.

    python -m goldrush_train.gold.ppo                               # a short demonstration run (minutes)
    python -m goldrush_train.gold.ppo --total-timesteps 2000000     # a longer run
    python -m goldrush_train.gold.ppo --resume runs/ppo-DATE-TIME   # continue a run that was stopped
    python -m goldrush_train.gold.ppo --help                        # every argument

The default run is a short demonstration of the whole pipeline (a warm start
on 500 expert games, 150k PPO steps, 400 evaluation games against each
scripted player): 6.5 minutes on an idle two-core machine, 23 with six busy
processes beside it (docs/experiments.md has the timings). It is not the shipped model
(``agents/gold/models/taught_2p.npz``), which is stronger and whose recipe is
``python -m goldrush_train.gold.recipe --seed 0 --ship``. Each run writes
into a new folder, ``runs/ppo-YYYYmmdd-HHMMSS`` unless ``--run-dir`` names
another (new or empty) one; the folder is printed at the start and at the end.

One file, one dataclass of arguments. First a warm start
(:mod:`goldrush_train.gold.decisions`): the network learns to copy the expert's flips from
``imitation_games`` games, which brings it near the expert's strength in a
few minutes, then, if given, the decisions saved in ``imitation_data`` files
(e.g. of the search player, collected once with ``python -m goldrush_train.gold.imitation``).
Then PPO: the learner plays the Gymnasium
environment from a random seat against opponents drawn at every episode from
a mix (:mod:`goldrush_train.gold.opponents`): the curriculum's current stage (random, then
greedy, then expert by default), a share of the stages already passed, and a
``self_play`` share of frozen snapshots of itself (the league). The stage
moves on when an evaluation shows a win share of ``promote_at`` against it.
With ``anchor_data`` every PPO gradient step also fits a batch of a
teacher's saved decisions, which keeps the policy near the copy it started
from.

Every ``eval_every`` steps the policy (deterministic, masks honoured) plays
``eval_games`` against each scripted player; results go to TensorBoard, to
``eval.csv`` and to the console. Every ``checkpoint_every`` steps the model and
the run's state (curriculum stage, league, evaluations) are saved, so
``--resume RUN_DIR`` continues from the last checkpoint with the same step
count. At the end: ``final.zip`` (MaskablePPO), ``model.npz`` (the weights,
which :class:`goldrush_agents.gold.trained.TrainedPolicy` plays with numpy alone), a final
evaluation, ``summary.json`` and ``curves.png``.

Every argument is checked (agent names, files, counts) before the run folder
is made, so a mistake stops the command with one line and leaves nothing
behind.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal, Sequence

import numpy as np

from goldrush_agents import split_entrants
from goldrush_agents.gold.trained import SHIPPED_MODEL
from goldrush_env.checks import check_int, check_number
from goldrush_env.errors import GoldrushEnvError
from goldrush_train.cli import (TRAIN_EXTRA, Heartbeat, check_agent, check_agents, check_counts, check_numbers, command,
                                doing, minutes, new_run_dir, parse_args, refuse_used_folder, ship, silent_for,
                                write_csv)
from goldrush_train.run_figure import plot

SHIP_PATH = SHIPPED_MODEL
"""Where ``--ship`` copies the final model: the model the package ships, wherever it is installed."""

PROGRESS_EVERY = 15.0
"""Seconds between the progress lines of PPO (evaluations print lines of their own)."""


PLAIN_POSITIONS = {"action": "positions", "observation": "plain"}
"""The environment's options this recipe learns on (the shipped models' inputs and outputs): a position to flip,
seen in the plain vector, not the kinds of card of the environment's defaults."""


RETURNS = {"score": "score reward: points ahead of the others' mean, / 10",
           "win": "win reward: +1 a sole win, 0 a shared one, -1 a loss"}
"""What a game's return is, by reward: the progress lines say it beside the mean."""


@dataclass
class Args:
    """Train a MaskablePPO agent for Gold: a warm start copying the expert, PPO against a curriculum of scripted
    players and a league of its own snapshots, then an evaluation table. The defaults are a short demonstration
    of that whole pipeline (6.5 minutes on an idle two-core machine, longer on a busy one), not the shipped model:
    that one is stronger, and python -m goldrush_train.gold.recipe --seed 0 --ship is its recipe."""

    run_dir: str | None = None
    """Folder for checkpoints, logs, evaluations and the final model; it must be new or empty. Default: a new
    folder runs/ppo-YYYYmmdd-HHMMSS."""
    resume: str | None = None
    """Continue the run in this folder from its last checkpoint, with the arguments it was started with (its
    args.json; no other argument is taken with --resume)."""
    seed: int = 0
    """Seeds everything: network initialisation, environments, opponents, evaluation deals."""
    num_players: int = 2
    """Players per game (2 to 5); the learner takes a random seat each episode."""
    total_timesteps: int = 150_000
    """Learner decisions of PPO (the default is a short run; the longer runs of docs/experiments.md used 300k). 0: no PPO, the
    warm start alone is saved and evaluated (to see what it gives)."""
    init_from: str | None = None
    """Start PPO from these network weights (a .npz model, e.g. the shipped agents/gold/models/taught_2p.npz, or a
    .zip checkpoint) instead of random ones; use it with --imitation-games 0 to fine-tune a model."""
    imitation_games: int = 500
    """Warm start: games of the teacher against itself whose flips the network copies before PPO (0: none)."""
    imitation_epochs: int = 16
    """Passes over the teacher's decisions."""
    imitation_lr: float = 2e-3
    """Adam step size of the warm start."""
    teacher: str = "expert"
    """The player the warm start copies in --imitation-games games against itself."""
    imitation_data: tuple[str, ...] = ()
    """Decisions saved by ``python -m goldrush_train.gold.imitation`` (.npz files, e.g. of the ismcts search), fitted
    after the --imitation-games ones with the same step size."""
    imitation_data_epochs: int = 0
    """Passes over the --imitation-data decisions; 0: as many as --imitation-epochs."""
    imitation_target: Literal["move", "visits"] = "visits"
    """What the network copies from the --imitation-data files: the search's share of visits per position (the
    model then plays its most likely move, see goldrush_agents.gold.trained), or the move it played (files collected before
    the shares were recorded hold only that)."""
    anchor_data: tuple[str, ...] = ()
    """Decision files (as --imitation-data) PPO keeps fitting: every PPO gradient step adds --anchor-coef times
    the cross-entropy against the --imitation-target of a batch of their decisions, which holds the policy near
    its teacher while PPO moves it (a behaviour-cloning anchor; empty: none)."""
    anchor_coef: float = 1.0
    """Weight of the anchor's cross-entropy next to the PPO loss (with --anchor-data)."""
    play_by: Literal["move", "position"] = "move"
    """How the saved model plays, deterministic (goldrush_agents.gold.trained.TrainedPolicy's ``choose``): its most likely
    move, the probabilities of positions it cannot tell apart (every unknown card, two remembered cards of one
    kind) added up, or its single most likely position, as MaskablePPO's own predict(deterministic=True) does.
    By move plays better (docs/experiments.md); evaluations during the run play the same way."""
    num_envs: int = 8
    """Games played in parallel to collect experience."""
    vec_env: Literal["subproc", "dummy", "batched"] = "subproc"
    """'subproc': the Gymnasium env in subprocesses (every core); 'dummy': in this process; 'batched':
    all games in one batched vector env (train/gold/vec_env.py; perfect memory only), fastest with many envs."""
    n_steps: int = 256
    """Steps per environment between updates (rollout length)."""
    batch_size: int = 512
    """Minibatch size of the PPO update."""
    n_epochs: int = 4
    """Passes over each rollout."""
    learning_rate: float = 3e-4
    """Adam step size of PPO (constant)."""
    gamma: float = 0.995
    """Discount factor."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    clip_range: float = 0.2
    """PPO clipping range."""
    ent_coef: float = 0.003
    """Entropy bonus weight."""
    vf_coef: float = 0.5
    """Value loss weight."""
    width: int = 64
    """Width of the per-position layers of the network (train/gold/network.py)."""
    context: int = 32
    """Width of the game-wide feature embedding."""
    reward: Literal["score", "win"] = "score"
    """'score': the point difference flip by flip (dense); 'win': +1/-1 at the end."""
    memory: Literal["perfect", "human"] = "perfect"
    """Memory model of the learner and its opponents."""
    curriculum: str = "random,greedy,expert"
    """Opponent stages, comma-separated agent names, easiest first."""
    promote_at: float = 0.55
    """Win share against the current stage that moves the curriculum on."""
    self_play: float = 0.2
    """Share of games against the league of the learner's own snapshots (0: none)."""
    snapshot_every: int = 50_000
    """Steps between snapshots added to the league."""
    league_size: int = 5
    """Snapshots kept in the league (the most recent)."""
    eval_every: int = 25_000
    """Steps between evaluations."""
    eval_games: int = 100
    """Games against each scripted player per evaluation."""
    eval_agents: str = "random,greedy,expert"
    """Who the evaluations play, comma-separated."""
    checkpoint_every: int = 25_000
    """Steps between checkpoints."""
    final_games: int = 400
    """Games against each evaluation agent at the end (on every core)."""
    torch_threads: int = 0
    """Threads for torch; 0: one for the warm start, and for PPO one with --vec-env subproc (the environments use
    the other cores), else every core. On a shared machine one thread fits much faster than several
    (benchmarks/fit_threads.py: 2.8 times with 6 busy processes on 2 cores, 0.73 times as fast when idle)."""
    ship: bool = False
    """Copy the final model over the model the package ships (goldrush_agents.gold.trained.SHIPPED_MODEL,
    agents/gold/models/taught_2p.npz in the repository)."""

    def check(self) -> None:
        """Refuse values that cannot work, naming them."""
        positive = ["imitation_epochs", "num_envs", "n_steps", "batch_size", "n_epochs",
                    "width", "context", "snapshot_every", "league_size", "eval_every", "eval_games",
                    "checkpoint_every", "final_games"]
        check_counts(self, *positive)
        check_int("--num-players", self.num_players, 2, 5)
        check_counts(self, "total_timesteps", "imitation_games", "imitation_data_epochs", least=0)
        check_numbers(self, "promote_at", "self_play", low=0, high=1)
        check_int("--torch-threads", self.torch_threads, 0, note="0: automatic")
        if self.vec_env == "batched" and self.memory != "perfect":
            raise GoldrushEnvError("--vec-env batched plays with perfect memory: use --memory perfect or another "
                                   "--vec-env")
        for option, paths in (("--imitation-data", self.imitation_data), ("--anchor-data", self.anchor_data)):
            for path in paths:
                if not Path(path).is_file():
                    raise GoldrushEnvError(f"{option} {path!r} is not a file (write one with python -m "
                                           "goldrush_train.gold.imitation)")
        check_number("--anchor-coef", self.anchor_coef, 0)
        if self.ship and self.num_players != 2:
            raise GoldrushEnvError("--ship is for the 2-player model: use --num-players 2")
        # Made here, in this process: a misspelt agent fails now, not in every environment worker.
        check_agents("--curriculum", self.curriculum)
        check_agents("--eval-agents", self.eval_agents)
        check_agent("--teacher", self.teacher)
        if self.init_from is not None:
            from goldrush_train.gold.network import saved_weights

            saved_weights(self.init_from, self.width, self.context)

    @property
    def threads(self) -> int:
        """The torch threads to use (see ``torch_threads``)."""
        if self.torch_threads:
            return self.torch_threads
        return 1 if self.vec_env == "subproc" else os.cpu_count() or 1

    @property
    def curriculum_agents(self) -> list[str]:
        return split_entrants(self.curriculum)

    @property
    def evaluation_agents(self) -> list[str]:
        return split_entrants(self.eval_agents)


def make_env(args: Args, index: int, mix: dict[str, float]):
    """One training environment: the Gymnasium env from a random seat, opponents from ``mix``."""
    from stable_baselines3.common.monitor import Monitor

    from goldrush_env.gold.gym_env import GoldEnv
    from goldrush_train.gold.opponents import OpponentMix

    env = GoldEnv(num_players=args.num_players, seat="random", reward=args.reward, memory=args.memory,
                      **PLAIN_POSITIONS)
    return Monitor(OpponentMix(env, mix, seed=args.seed * 10_007 + index))


def make_vec_env(args: Args, mix: dict[str, float]):
    """The training environments, as ``args.vec_env`` says (see its help)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if args.vec_env == "batched":
        from goldrush_train.gold.vec_env import BatchedVecEnv

        return VecMonitor(BatchedVecEnv(args.num_envs, opponents=mix, num_players=args.num_players,
                                        reward=args.reward, memory=args.memory, **PLAIN_POSITIONS))
    factories = [partial(make_env, args, i, mix) for i in range(args.num_envs)]
    return SubprocVecEnv(factories) if args.vec_env == "subproc" else DummyVecEnv(factories)


class RunState:
    """What a resumed run needs besides the model: the curriculum, the league and the evaluations so far."""

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / "state.json"
        self.stage = 0
        self.league: list[str] = []
        self.evaluations: list[dict[str, Any]] = []
        self.promotions: list[dict[str, Any]] = []
        self.checkpoint: str | None = None
        self.imitation: dict[str, Any] | None = None
        self.wall_s = 0.0

    def save(self) -> None:
        data = {key: getattr(self, key) for key in ("stage", "league", "evaluations", "promotions", "checkpoint",
                                                    "imitation", "wall_s")}
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1))
        tmp.replace(self.path)

    def load(self) -> RunState:
        data = json.loads(self.path.read_text())
        for key, value in data.items():
            setattr(self, key, value)
        return self


def _export(model: Any, path: Path, num_players: int, choose: str = "position") -> Path:
    """Save the model's network as a numpy model (``goldrush_agents.gold.trained``) trained for ``num_players``,
    played by its most likely ``choose`` (recorded only when it is not the default, "position", so such models
    stay as they were written before)."""
    from goldrush_train.gold.network import export_weights

    arrays = export_weights(model.policy.gold_net(), num_players)
    if choose != "position":
        arrays["config.choose"] = np.array(choose)
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)
    return path


def _make_callback(args: Args, run_dir: Path, state: RunState, started: float):
    from stable_baselines3.common.callbacks import BaseCallback

    from goldrush_train.win_shares import evaluate
    from goldrush_train.gold.opponents import opponent_mix

    class TrainerCallback(BaseCallback):
        """Evaluations, curriculum, league snapshots and checkpoints, on their step intervals."""

        def _on_training_start(self) -> None:
            step = self.num_timesteps
            self.next_eval = (step // args.eval_every + 1) * args.eval_every
            self.next_checkpoint = (step // args.checkpoint_every + 1) * args.checkpoint_every
            self.next_snapshot = (step // args.snapshot_every + 1) * args.snapshot_every
            self.first_step, self.first_time = step, time.perf_counter()
            self.last_line = self.first_time

        def progress(self, step: int) -> None:
            """A line every PROGRESS_EVERY seconds without one: steps so far, their rate, the recent return."""
            now, silent = time.perf_counter(), silent_for()
            if (now - self.last_line if silent is None else silent) < PROGRESS_EVERY:
                return
            self.last_line = now
            rate = (step - self.first_step) / max(now - self.first_time, 1e-9)
            episodes = [info["r"] for info in self.model.ep_info_buffer or []]
            reward = (f", mean return of the last {len(episodes)} games {np.mean(episodes):+.2f} "
                      f"({RETURNS[args.reward]})") if episodes else ""
            print(f"PPO: step {step:>9,} of {args.total_timesteps:,}, {rate:,.0f} steps/s{reward}  "
                  f"({minutes(now - started)})", flush=True)

        def _on_rollout_start(self) -> None:
            doing(lambda: f"PPO: step {self.num_timesteps:,} of {args.total_timesteps:,}, playing games")

        def _on_rollout_end(self) -> None:
            rollout = args.n_steps * args.num_envs
            doing(f"PPO: step {self.num_timesteps:,} of {args.total_timesteps:,}, updating the policy on the last "
                  f"{rollout:,} steps ({args.n_epochs} passes)")

        def _on_step(self) -> bool:
            step = self.num_timesteps
            self.progress(step)
            if step >= self.next_snapshot and args.self_play > 0:
                self.next_snapshot += args.snapshot_every
                league_dir = run_dir / "league"
                league_dir.mkdir(exist_ok=True)
                state.league = (state.league + [str(_export(self.model, league_dir / f"step_{step:09d}.npz",
                                                                     args.num_players))])
                state.league = state.league[-args.league_size:]
                self.apply_mix()
            if step >= self.next_eval:
                self.next_eval += args.eval_every
                self.evaluate(step)
            if step >= self.next_checkpoint:
                self.next_checkpoint += args.checkpoint_every
                self.checkpoint(step)
            return True

        def apply_mix(self) -> None:
            mix = opponent_mix(args.curriculum_agents, state.stage, state.league, args.self_play)
            self.training_env.env_method("set_mix", mix)

        def evaluate(self, step: int) -> None:
            doing(f"PPO: step {step:,}, evaluating: {args.eval_games} games against each of "
                  f"{', '.join(args.evaluation_agents)}")
            model_path = _export(self.model, run_dir / "eval_model.npz", args.num_players, args.play_by)
            rows = evaluate(str(model_path), args.evaluation_agents, num_players=args.num_players,
                            games=args.eval_games, seed=args.seed, workers=1, memory=args.memory)
            curriculum = args.curriculum_agents
            for row in rows:
                self.logger.record(f"eval/win_share_{row.opponent}", row.win_share)
                state.evaluations.append({"step": step, **dataclasses.asdict(row), "stage": state.stage})
            self.logger.record("train/curriculum_stage", state.stage)
            print(f"step {step:>9,}  " + "  ".join(f"{r.opponent} {r.win_share:.2f}" for r in rows)
                  + f"  (stage: {curriculum[state.stage]}, {minutes(time.perf_counter() - started)})", flush=True)
            self.last_line = time.perf_counter()
            current = next((r for r in rows if r.opponent == curriculum[state.stage]), None)
            if current is not None and current.win_share >= args.promote_at and state.stage < len(curriculum) - 1:
                state.stage += 1
                state.promotions.append({"step": step, "stage": state.stage, "agent": curriculum[state.stage]})
                print(f"curriculum: now training mostly against {curriculum[state.stage]}", flush=True)
                self.last_line = time.perf_counter()
                self.apply_mix()
            write_csv(run_dir / "eval.csv", state.evaluations)

        def checkpoint(self, step: int) -> None:
            folder = run_dir / "checkpoints"
            folder.mkdir(exist_ok=True)
            path = folder / f"step_{step:09d}.zip"
            self.model.save(path)
            state.checkpoint = str(path)
            state.wall_s = time.perf_counter() - started
            state.save()

    return TrainerCallback()


def _anchor(args: Args, model: Any) -> None:
    """Make every PPO gradient step also fit a batch of the --anchor-data decisions (see ``anchor_data``).

    MaskablePPO zeroes the gradients, back-propagates its loss, clips the gradients' norm and steps, once per
    minibatch; the anchor's gradient is added when they are zeroed, so it is clipped and stepped with PPO's.
    The last batch's cross-entropy is logged as ``train/anchor_cross_entropy``."""
    import torch

    from goldrush_train.gold.decisions import compare, load

    data = load(*args.anchor_data, num_players=args.num_players, target=args.imitation_target)
    tensors = {key: torch.as_tensor(data[key]) for key in ("observations", "masks", "targets")}
    tensors["masks"] = tensors["masks"].bool()
    moves = torch.as_tensor(data.get("moves", data["targets"]))
    net, optimizer = model.policy.gold_net(), model.policy.optimizer
    zero_grad = optimizer.zero_grad
    generator = torch.Generator().manual_seed(args.seed)
    size = min(args.batch_size, len(moves))

    def zero_grad_then_anchor(*arguments: Any, **options: Any) -> None:
        zero_grad(*arguments, **options)
        index = torch.randint(len(moves), (size,), generator=generator)
        _, cross, _, _ = compare(net, tensors["observations"][index], tensors["masks"][index],
                                  tensors["targets"][index], moves[index])
        loss = cross.mean()
        (args.anchor_coef * loss).backward()
        model.logger.record("train/anchor_cross_entropy", float(loss.detach()))

    optimizer.zero_grad = zero_grad_then_anchor
    print(f"anchor: {len(moves):,} decisions ({', '.join(args.anchor_data)}), weight {args.anchor_coef}",
          flush=True)


def _warm_start(args: Args, model: Any) -> dict[str, Any]:
    """Copy the teacher's flips into the network before PPO (see train/gold/imitation.py): first those of
    --imitation-games games, then those of the --imitation-data files."""
    from goldrush_train.gold.decisions import collect, load, pretrain, score

    import torch

    start = time.perf_counter()
    torch.set_num_threads(args.torch_threads or 1)  # robust on a busy machine (see torch_threads)
    phases = []
    if args.imitation_games:
        print(f"warm start: playing {args.imitation_games} games of {args.teacher} against itself...", flush=True)
        phases.append((f"{args.imitation_games} games of {args.teacher}", args.imitation_epochs,
                       collect(args.imitation_games, num_players=args.num_players, teacher=args.teacher,
                               seed=args.seed, memory=args.memory, progress="warm start")))
    if args.imitation_data:
        phases.append((", ".join(args.imitation_data), args.imitation_data_epochs or args.imitation_epochs,
                       load(*args.imitation_data, num_players=args.num_players,
                            target=args.imitation_target)))
    stats: dict[str, Any] = {"phases": []}
    for source, epochs, data in phases:
        net = model.policy.gold_net()
        print(f"warm start: fitting {len(data['actions']):,} decisions ({source}), {epochs} epochs...", flush=True)
        fit_start = time.perf_counter()

        def report(epoch: int, figures: dict[str, float]) -> None:
            print(f"warm start: epoch {epoch:>{len(str(epochs))}}/{epochs}, loss {figures['loss']:.3f}, "
                  f"{minutes(time.perf_counter() - fit_start)}", flush=True)

        def fitting(epoch: int, batch: int, batches: int) -> None:
            doing(f"warm start: fitting {len(data['actions']):,} decisions, epoch {epoch}/{epochs}, "
                  f"batch {batch}/{batches}")

        fitted = pretrain(net, data, epochs=epochs, lr=args.imitation_lr, seed=args.seed, after_epoch=report,
                          after_batch=fitting)
        fitted.update(source=source, decisions=len(data["actions"]), epochs=epochs)
        picks = f"picks {fitted['agreement']:.1%} of the teacher's flips"
        if args.play_by == "move":  # as the model plays; by position understates a copy of visit shares
            fitted["move_matches"] = score(net, data)["move_matches"]
            picks = f"plays the teacher's move at {fitted['move_matches']:.1%} of them (by move)"
        stats["phases"].append(fitted)
        print(f"warm start: {fitted['decisions']:,} decisions ({source}), {epochs} epochs, "
              f"loss {fitted['loss']:.3f}, {picks}", flush=True)
    torch.set_num_threads(args.threads)
    stats.update(decisions=sum(phase["decisions"] for phase in stats["phases"]),
                 seconds=round(time.perf_counter() - start, 1))
    print(f"warm start: done in {minutes(stats['seconds'])}", flush=True)
    return stats


def _resumed(args: Args) -> tuple[Path, Args]:
    """The folder and the saved arguments of the run ``args.resume`` names, or a clear error saying what is
    missing for it to be resumed."""
    run_dir = Path(args.resume)
    given = [f"--{field.name.replace('_', '-')}" for field in dataclasses.fields(Args)
             if field.name != "resume" and getattr(args, field.name) != getattr(Args(), field.name)]
    if given:
        raise GoldrushEnvError(f"--resume continues a run with the arguments it was started with (its args.json); "
                               f"leave out {', '.join(given)}, or start a new run")
    if not run_dir.is_dir():
        raise GoldrushEnvError(f"cannot resume {str(run_dir)!r}: there is no such folder")
    if not (run_dir / "args.json").is_file():
        raise GoldrushEnvError(f"cannot resume {str(run_dir)!r}: it holds no args.json, so no run of "
                               "goldrush_train.gold.ppo was started there")
    saved = json.loads((run_dir / "args.json").read_text())
    unknown = sorted(set(saved) - {field.name for field in dataclasses.fields(Args)})
    if unknown:
        raise GoldrushEnvError(f"cannot resume {str(run_dir)!r}: its args.json holds arguments this version does not "
                               f"know: {unknown}")
    if "play_by" not in saved:  # a run started before --play-by: its models play as they did then
        by_move = saved.get("imitation_data") and saved.get("imitation_target") == "visits"
        saved["play_by"] = "move" if by_move else "position"
    saved = Args(**{**saved, "resume": args.resume})
    state = RunState(run_dir)
    checkpoint = state.load().checkpoint if state.path.is_file() else None
    if checkpoint is None:
        raise GoldrushEnvError(f"cannot resume {str(run_dir)!r}: it holds no checkpoint yet (the run stopped before "
                               f"step {saved.checkpoint_every:,}, its first): start a new run instead")
    for path in [checkpoint, *state.league]:
        if not Path(path).is_file():
            raise GoldrushEnvError(f"cannot resume {str(run_dir)!r}: its state.json names {path!r}, which is missing "
                                   "(resume from the folder the run was started in)")
    return run_dir, saved


def train(args: Args) -> dict[str, Any]:
    """Run (or resume) training as ``args`` says; returns the summary also written to ``summary.json``.

    Every argument is checked before the run folder is made: a mistake raises :class:`GoldrushEnvError` and leaves
    nothing behind."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.utils import set_random_seed
    from goldrush_train.win_shares import evaluate, table
    from goldrush_train.gold.network import MaskableGoldPolicy, load_saved_weights
    from goldrush_train.gold.opponents import opponent_mix

    resuming = args.resume is not None
    if resuming:
        run_dir, args = _resumed(args)
    else:
        run_dir = Path(args.run_dir) if args.run_dir else new_run_dir("runs/ppo")
        refuse_used_folder(run_dir, resumable=True)
        args = dataclasses.replace(args, run_dir=str(run_dir))
    args.check()
    state = RunState(run_dir)
    if resuming:
        state.load()
    else:
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "args.json").write_text(json.dumps(dataclasses.asdict(args), indent=1))
    print(f"run folder: {run_dir}", flush=True)

    torch.set_num_threads(args.threads)
    set_random_seed(args.seed)
    mix = opponent_mix(args.curriculum_agents, state.stage, state.league, args.self_play)
    venv = make_vec_env(args, mix)
    started = time.perf_counter() - state.wall_s
    logger = configure(str(run_dir / "logs"), ["csv", "tensorboard"])
    phases: dict[str, float] = {}
    try:
        if resuming:
            model = MaskablePPO.load(state.checkpoint, env=venv, device="cpu")
            print(f"resuming {run_dir} at step {model.num_timesteps:,} (stage {state.stage}, "
                  f"{len(state.league)} snapshots in the league)", flush=True)
        else:
            model = MaskablePPO(
                MaskableGoldPolicy, venv, learning_rate=args.learning_rate, n_steps=args.n_steps,
                batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma, gae_lambda=args.gae_lambda,
                clip_range=args.clip_range, ent_coef=args.ent_coef, vf_coef=args.vf_coef, seed=args.seed,
                device="cpu", policy_kwargs={"net_kwargs": {"width": args.width, "context": args.context}})
        model.set_logger(logger)
        if not resuming and args.init_from:
            load_saved_weights(model.policy.gold_net(), args.init_from)
            print(f"starting from the weights of {args.init_from}", flush=True)
        if not resuming and (args.imitation_games or args.imitation_data):
            state.imitation = _warm_start(args, model)
            phases["warm start"] = state.imitation["seconds"]
            state.wall_s = time.perf_counter() - started
            state.save()
        if args.anchor_data and args.anchor_coef > 0:
            _anchor(args, model)
        callback = _make_callback(args, run_dir, state, started)
        remaining = args.total_timesteps - model.num_timesteps
        if remaining > 0:
            print(f"PPO: {remaining:,} steps, {args.num_envs} games at a time; an evaluation every "
                  f"{args.eval_every:,} steps", flush=True)
            ppo_start = time.perf_counter()
            model.learn(total_timesteps=remaining, callback=callback, reset_num_timesteps=not resuming)
            phases["PPO"] = time.perf_counter() - ppo_start
        steps = model.num_timesteps
        model.save(run_dir / "final.zip")
        model_path = _export(model, run_dir / "model.npz", args.num_players, args.play_by)
    finally:
        venv.close()
        logger.close()  # its CSV file, left open, would be closed (with a warning) whenever it is collected
    train_s = time.perf_counter() - started
    state.wall_s = train_s
    state.save()

    agents = args.evaluation_agents
    print(f"final evaluation: {args.final_games} games against each of {', '.join(agents)}...", flush=True)
    evaluation_start = time.perf_counter()

    def playing(index: int) -> None:
        doing(f"final evaluation: {args.final_games} games against {agents[index]} "
              f"({index + 1} of {len(agents)} opponents)")

    def report(row: Any) -> None:
        print(f"final evaluation: against {row.opponent}, win share {row.win_share:.3f} "
              f"[{row.low:.3f}, {row.high:.3f}]  ({minutes(time.perf_counter() - evaluation_start)})", flush=True)
        if len(done) < len(agents) - 1:
            done.append(row)
            playing(len(done))

    done: list[Any] = []
    playing(0)

    rows = evaluate(str(model_path), agents, num_players=args.num_players, games=args.final_games,
                    seed=args.seed + 1_000_000, memory=args.memory, on_row=report)
    phases["final evaluation"] = time.perf_counter() - evaluation_start
    summary = {
        "args": dataclasses.asdict(args),
        "steps": steps,
        "train_seconds": round(train_s, 1),
        "imitation": state.imitation,
        "final_stage": args.curriculum_agents[state.stage],
        "promotions": state.promotions,
        "final_evaluation": [dataclasses.asdict(r) for r in rows],
        "model": str(model_path),
    }
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    write_csv(run_dir / "eval.csv", state.evaluations)
    if state.evaluations:
        plot(state.evaluations, state.promotions, run_dir / "curves.png",
             f"MaskablePPO, {args.num_players} players, seed {args.seed}")
    if args.ship:
        ship(model_path, SHIP_PATH, "shipped {model} as {to}")
    print(f"\ntrained {steps:,} steps in {minutes(train_s)}; final evaluation "
          f"({args.final_games} games per opponent, seats and start player rotated):")
    print(table(rows))
    outputs = [name for name in ("summary.json", "curves.png", "eval.csv", "model.npz") if (run_dir / name).exists()]
    print(f"outputs in {run_dir}/ ({', '.join(outputs)}, logs/ for TensorBoard)")
    parts = ", ".join(f"{name} {minutes(seconds)}" for name, seconds in phases.items())
    print(f"total wall time {minutes(time.perf_counter() - started)}"
          f"{' (the sessions before the resume included)' if resuming else ''}: {parts}", flush=True)
    return summary


@command("goldrush_train.gold.ppo", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # for the environment subprocesses, which start afresh
    args = parse_args(Args, argv, "goldrush_train.gold.ppo")
    with Heartbeat():
        return train(args)


if __name__ == "__main__":
    main()
