"""Ray RLlib's PPO in self-play: one masked policy for every seat, on this machine or on a Ray cluster.

    python examples/rllib_ppo.py                                # a short run on this machine's cores
    python examples/rllib_ppo.py --iterations 200 --num-env-runners 8 --address auto   # on a cluster
    python examples/rllib_ppo.py --resume runs/rllib-DATE-TIME  # continue a run that was stopped
    python examples/rllib_ppo.py --help                         # every argument

RLlib's PPO (new API stack) trains on :class:`goldrush_env.gold.rllib.GoldMultiAgentEnv`, every seat
played by the one policy ``"shared"``, RLlib's ``ActionMaskingTorchRLModule`` (a tanh MLP whose logits
are masked by the legal flips). Experience is collected by ``num_env_runners`` Ray actors (0: in this
process); the update runs in this process. Without ``--address`` a Ray of its own is started on this
machine; ``--address auto`` (or ``HOST:6379``, ``ray://HOST:10001``) joins a running cluster, where the
env runners spread over its machines (each needs this package installed, see docs/rllib.md). A Ray
already started in the calling process is used as it is.

Every iteration samples ``train_batch_size`` env steps (flips) and updates the policy on them; its
throughput (env steps per second of the whole iteration, sampling and update) goes to the console and
to ``progress.csv``. Every ``checkpoint_every`` iterations and at the end an RLlib checkpoint is saved
in ``checkpoints/`` and the policy exported as ``model.npz``; ``--resume RUN_DIR`` continues from the
last checkpoint with the run's own arguments (its args.json).

``model.npz`` holds the policy's layers in the numpy format of :mod:`goldrush_agents.gold.trained`
(``config.network = "mlp"``): :class:`goldrush_agents.gold.trained.TrainedPolicy` plays it with numpy
alone, so it is an entrant of every tournament, ``make_agent("runs/rllib-.../model.npz")``, with
neither Ray nor torch. The end of a run plays it against ``eval_agents`` in the tournament harness
(:func:`goldrush_train.evaluate.evaluate`: seats and start players rotated, seeded deals) and writes
``summary.json``; ``python -m goldrush_train.evaluate RUN_DIR/model.npz`` evaluates it again later.

Every argument is checked before Ray starts or the run folder is made: a mistake is one line.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Mapping, Sequence

import numpy as np

from goldrush_env.gold.config import EnvConfig
from goldrush_env.checks import check_int, check_number
from goldrush_env.errors import GoldrushEnvError, install_line
from goldrush_train.cli import (check_agents, check_counts, command, fail, minutes, missing_modules, new_run_dir,
                                refuse_used_folder)

RLLIB_EXTRA = ("tyro", "torch", "ray")
"""The modules this script needs, of the ``rllib`` extra (pyproject.toml), as imported."""
MODULE_STATE = Path("learner_group", "learner", "rl_module", "shared", "module_state.pkl")
"""Where an RLlib checkpoint keeps the weights of the policy ``"shared"`` (``goldrush_env.gold.rllib.POLICY``, not
imported: this module loads without ray), as a pickled dict of numpy arrays."""
CSV_FIELDS = ("iteration", "env_steps", "seconds", "steps_per_s", "episode_len_mean", "entropy", "vf_loss")


@dataclass
class Args:
    """RLlib PPO in self-play for Gold: one masked policy for every seat, env runners on this machine or on a
    Ray cluster (--address), checkpoints, throughput per iteration, and an evaluation against scripted players."""

    run_dir: str | None = None
    """Folder for checkpoints, progress.csv, the model and the summary; it must be new or empty. Default: a new
    folder runs/rllib-YYYYmmdd-HHMMSS."""
    resume: str | None = None
    """Continue the run in this folder from its last checkpoint, with the arguments it was started with (its
    args.json); with it only --address may be given (where to run, not what to learn)."""
    address: str | None = None
    """A running Ray cluster to join: 'auto' (the cluster this machine belongs to), HOST:PORT (its head, e.g.
    10.0.0.5:6379) or ray://HOST:10001 (Ray Client). Default: start a Ray on this machine alone."""
    num_env_runners: int = 2
    """Ray actors collecting experience, one CPU each (0: collect in this process)."""
    num_envs_per_env_runner: int = 4
    """Games each env runner plays at once (their moves are chosen in one batch)."""
    seed: int = 0
    """Seeds the network, the env runners' deals and the evaluation deals."""
    num_players: int = 2
    """Players per game (2 to 5), every seat played by the policy."""
    table: Literal["full", "half", "quarter"] = "full"
    """The table dealt (goldrush_env.gold.config.EnvConfig.table)."""
    observation: Literal["plain", "pairs"] = "plain"
    """The observation vector (goldrush_env.gold.config.EnvConfig.observation)."""
    reward: Literal["score", "win"] = "score"
    """'score': the point difference flip by flip (dense); 'win': +1/0/-1 at the end."""
    memory: Literal["perfect", "human"] = "perfect"
    """Memory model of every seat."""
    iterations: int = 25
    """Training iterations, each of --train-batch-size env steps (the default, 100k steps, is a short run)."""
    train_batch_size: int = 4000
    """Env steps (flips, of all seats) sampled per iteration."""
    minibatch_size: int = 256
    """Minibatch of the PPO update."""
    num_epochs: int = 4
    """Passes over each iteration's batch."""
    lr: float = 3e-4
    """Adam step size."""
    gamma: float = 0.99
    """Discount per decision of a seat."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    entropy_coeff: float = 0.01
    """Entropy bonus weight."""
    hidden: tuple[int, ...] = (256, 256)
    """Sizes of the MLP's tanh layers (shared by the policy and the value heads)."""
    checkpoint_every: int = 5
    """Iterations between checkpoints (and exports of model.npz); the last iteration always saves one."""
    play_by: Literal["move", "position"] = "move"
    """How model.npz plays (goldrush_agents.gold.trained.TrainedPolicy's ``choose``): the flip of its most likely
    move, positions the seat cannot tell apart added up, or its most likely single position."""
    eval_agents: str = "random,greedy"
    """The scripted players the final model meets, comma-separated."""
    eval_games: int = 200
    """Games against each of --eval-agents at the end (0: no evaluation)."""
    eval_workers: int | None = None
    """Processes the evaluation plays on (default: all cores)."""

    def env_config(self) -> dict[str, Any]:
        """The environment's options (RLlib's env_config): the policy flips positions, as model.npz plays them."""
        return {"num_players": self.num_players, "table": self.table, "action": "positions",
                "observation": self.observation, "reward": self.reward, "memory": self.memory}

    def check(self) -> None:
        """Refuse values that cannot work, naming them, before Ray starts."""
        EnvConfig.from_kwargs(**self.env_config())
        check_counts(self, "iterations", "train_batch_size", "minibatch_size", "num_epochs", "checkpoint_every",
                     "num_envs_per_env_runner")
        for name in ("num_env_runners", "eval_games"):
            check_int(f"--{name.replace('_', '-')}", getattr(self, name), 0)
        if self.minibatch_size > self.train_batch_size:
            raise GoldrushEnvError(f"--minibatch-size {self.minibatch_size} is larger than --train-batch-size "
                                   f"{self.train_batch_size}")
        if not self.hidden or min(self.hidden) < 1:
            raise GoldrushEnvError(f"--hidden needs at least one layer size, each >= 1, got {self.hidden}")
        for name in ("gamma", "gae_lambda"):
            check_number(f"--{name.replace('_', '-')}", getattr(self, name), 0, 1)
        for name in ("lr", "entropy_coeff"):
            check_number(f"--{name.replace('_', '-')}", getattr(self, name), 0)
        if self.eval_workers is not None:
            check_int("--eval-workers", self.eval_workers, 1, note="leave it out for every core")
        check_address(self.address)
        if self.eval_games:
            check_agents("--eval-agents", self.eval_agents)


def check_address(address: str | None) -> None:
    """Refuse a --address that names no reachable Ray cluster, quickly: ``ray.init`` itself keeps retrying an
    unreachable HOST:PORT for minutes. ``auto`` is left to Ray, which answers at once."""
    if address is None or address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise GoldrushEnvError(f"--address {address!r} is not a Ray address: expected 'auto', HOST:PORT (e.g. "
                               f"10.0.0.5:6379) or ray://HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as error:
        raise GoldrushEnvError(f"--address {address!r}: no Ray cluster answers there ({error}); start one with "
                               f"'ray start --head --port={port}' on that machine") from None


def make_config(args: Args) -> Any:
    """RLlib's PPOConfig for ``args``: :func:`goldrush_env.gold.rllib.ppo_config` with the run's sizes and seed."""
    from goldrush_env.gold.rllib import ppo_config

    return (ppo_config(args.env_config(), model_config={"fcnet_hiddens": list(args.hidden)})
            .env_runners(num_env_runners=args.num_env_runners, num_envs_per_env_runner=args.num_envs_per_env_runner)
            .training(train_batch_size_per_learner=args.train_batch_size, minibatch_size=args.minibatch_size,
                      num_epochs=args.num_epochs, lr=args.lr, gamma=args.gamma, lambda_=args.gae_lambda,
                      entropy_coeff=args.entropy_coeff)
            .debugging(seed=args.seed, log_level="ERROR",
                       log_sys_usage=False))  # no CPU/GPU figures in the results, and no "install gputil" line


def policy_weights(state: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """The policy's layers in a state dict of the ``"shared"`` module (numpy arrays or torch tensors), named as
    :class:`goldrush_agents.gold.trained.MlpNumpy` reads them: ``actor.0``, ``actor.2``, ... (tanh between)."""
    def array(value: Any) -> np.ndarray:
        return np.asarray(value.detach().cpu() if hasattr(value, "detach") else value, dtype=np.float32)

    prefix = next((p for p in ("encoder.actor_encoder.net.mlp.", "encoder.encoder.net.mlp.")
                   if f"{p}0.weight" in state), None)
    if prefix is None or "pi.net.mlp.0.weight" not in state or "pi.net.mlp.1.weight" in state:
        raise GoldrushEnvError("not the policy of goldrush_env.gold.rllib's module (an MLP encoder and one linear "
                               "head): "
                            f"its weights are {sorted(state)}")
    layers = sorted(int(name[len(prefix):].split(".")[0]) for name in state
                    if name.startswith(prefix) and name.endswith(".weight"))
    if layers != list(range(0, 2 * len(layers), 2)):
        raise GoldrushEnvError(f"the encoder's layers are {layers}, not linear layers with one activation between")
    weights = {}
    for k, layer in enumerate(layers + ["pi"]):
        source = "pi.net.mlp.0" if layer == "pi" else f"{prefix}{layer}"
        for kind in ("weight", "bias"):
            weights[f"actor.{2 * k}.{kind}"] = array(state[f"{source}.{kind}"])
    return weights


def export_model(checkpoint: str | Path, path: str | Path, observation: str = "plain", play_by: str = "move",
                 num_players: int | None = None) -> Path:
    """Write the policy of an RLlib ``checkpoint`` of this script as a numpy model file that
    :class:`goldrush_agents.gold.trained.TrainedPolicy` plays, recording ``num_players`` if given (the number
    of players it was trained for); returns ``path``."""
    state_file = Path(checkpoint) / MODULE_STATE
    if not state_file.is_file():
        raise GoldrushEnvError(f"{str(checkpoint)!r} is not an RLlib checkpoint of examples/rllib_ppo.py: it has "
                               f"no {MODULE_STATE}")
    with open(state_file, "rb") as handle:
        state = pickle.load(handle)  # RLlib's own format for a module's weights; ours, so trusted
    arrays = {**policy_weights(state), "config.network": np.array("mlp"), "config.observation": np.array(observation),
              "config.choose": np.array(play_by)}
    if num_players is not None:
        arrays["config.num_players"] = num_players
    path = Path(path)
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)
    return path


def _resumed(args: Args) -> tuple[Path, Args, dict[str, Any]]:
    """The folder, saved arguments and state of the run ``args.resume`` names, or a clear error."""
    run_dir = Path(args.resume)
    given = [f"--{field.name.replace('_', '-')}" for field in dataclasses.fields(Args)
             if field.name not in ("resume", "address") and getattr(args, field.name) != getattr(Args(), field.name)]
    if given:
        raise GoldrushEnvError(f"--resume continues a run with the arguments it was started with (its args.json); "
                               f"leave out {', '.join(given)}, or start a new run")
    if not run_dir.is_dir():
        raise GoldrushEnvError(f"cannot resume {str(run_dir)!r}: there is no such folder")
    if not (run_dir / "args.json").is_file():
        raise GoldrushEnvError(f"cannot resume {str(run_dir)!r}: it holds no args.json, so no run of "
                               "examples/rllib_ppo.py was started there")
    saved = json.loads((run_dir / "args.json").read_text())
    unknown = sorted(set(saved) - {field.name for field in dataclasses.fields(Args)})
    if unknown:
        raise GoldrushEnvError(f"cannot resume {str(run_dir)!r}: its args.json holds arguments this script does not "
                               f"know: {unknown}")
    saved["hidden"] = tuple(saved.get("hidden", Args.hidden))
    address = args.address if args.address is not None else saved.get("address")
    saved = Args(**{**saved, "resume": args.resume, "address": address})
    state_file = run_dir / "state.json"
    state = json.loads(state_file.read_text()) if state_file.is_file() else {}
    if not state.get("checkpoint"):
        raise GoldrushEnvError(f"cannot resume {str(run_dir)!r}: it holds no checkpoint yet (the run stopped before "
                               f"iteration {saved.checkpoint_every}, its first): start a new run instead")
    if not (run_dir / state["checkpoint"]).is_dir():
        raise GoldrushEnvError(f"cannot resume {str(run_dir)!r}: its checkpoint {state['checkpoint']!r} is missing")
    return run_dir, saved, state


def send_token_if_held(address: str | None) -> None:
    """Tell Ray to authenticate with the token this machine holds, if it holds one.

    ``ray start`` turns Ray's token authentication on; ``--address auto`` finds that out, a HOST:PORT does not,
    and the cluster refuses it unless ``RAY_AUTH_MODE=token``, which Ray reads when it is imported. A local Ray
    uses a token it finds anyway, with a warning unless the mode is set."""
    held = (os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")
            or (Path.home() / ".ray" / "auth_token").is_file())
    if held:  # a Ray of our own uses it too, as Ray would; said explicitly, Ray does not warn that it does
        os.environ.setdefault("RAY_AUTH_MODE", "token")


def start_ray(args: Args) -> bool:
    """Start (or join, with --address) Ray unless this process already has one; whether it was started here."""
    import ray

    if ray.is_initialized():
        return False
    try:
        if args.address is None:  # "local": a Ray of our own even where RAY_ADDRESS names a cluster
            # Runners beyond the cores share them rather than wait for a free one for ever.
            ray.init(address="local", num_cpus=max(os.cpu_count() or 1, args.num_env_runners),
                     include_dashboard=False)
        else:
            ray.init(address=args.address)
    except ConnectionError as error:
        raise GoldrushEnvError(f"--address {args.address!r}: {error}") from None
    return True


def _row(iteration: int, steps: int, new_steps: int, seconds: float, result: dict[str, Any]) -> dict[str, Any]:
    """One line of progress.csv: ``new_steps`` of the ``steps`` so far sampled (and learned) in ``seconds``."""
    runners, learner = result.get("env_runners", {}), result.get("learners", {}).get("shared", {})
    return {"iteration": iteration, "env_steps": steps, "seconds": round(seconds, 3),
            "steps_per_s": round(new_steps / seconds, 1),
            "episode_len_mean": round(float(runners.get("episode_len_mean", float("nan"))), 1),
            "entropy": round(float(learner.get("entropy", float("nan"))), 4),
            "vf_loss": round(float(learner.get("vf_loss", float("nan"))), 5)}


def _forget_after(csv_path: Path, iteration: int) -> None:
    """Drop the progress.csv lines of iterations after ``iteration`` (run after the last checkpoint, then lost)."""
    if csv_path.is_file():
        header, *lines = csv_path.read_text().splitlines()
        kept = [line for line in lines if int(line.split(",")[0]) <= iteration]
        csv_path.write_text("\n".join([header, *kept]) + "\n")


def train(args: Args) -> dict[str, Any]:
    """Run (or resume) training as ``args`` says, then evaluate; returns the summary also written to
    ``summary.json``. Every argument is checked before Ray starts, and Ray started before the run folder is
    made."""
    resuming = args.resume is not None
    if resuming:
        run_dir, args, state = _resumed(args)
    else:
        run_dir = Path(args.run_dir) if args.run_dir else new_run_dir("runs/rllib")
        refuse_used_folder(run_dir, resumable=True)
        args, state = dataclasses.replace(args, run_dir=str(run_dir)), {}
    args.check()
    send_token_if_held(args.address)
    import ray

    started_ray = start_ray(args)  # before the folder is made: a cluster that is not there leaves nothing
    try:
        if not resuming:
            run_dir.mkdir(parents=True, exist_ok=True)
            (run_dir / "args.json").write_text(json.dumps(dataclasses.asdict(args), indent=1))
        print(f"run folder: {run_dir}", flush=True)
        algo = make_config(args).build_algo()
        try:
            if resuming:
                algo.restore_from_path(str((run_dir / state["checkpoint"]).resolve()))
                _forget_after(run_dir / "progress.csv", algo.iteration)
                print(f"resuming {run_dir} at iteration {algo.iteration} ({state['env_steps']:,} env steps)",
                      flush=True)
            else:
                (run_dir / "progress.csv").write_text(",".join(CSV_FIELDS) + "\n")
            state = _iterate(algo, args, run_dir, state)
        finally:
            algo.stop()
    finally:
        if started_ray:
            ray.shutdown()

    model_path = run_dir / "model.npz"
    print(f"trained {state['env_steps']:,} env steps in {minutes(state['wall_s'])}; the policy is {model_path}",
          flush=True)
    summary = {"args": dataclasses.asdict(args), "iterations": state["iteration"], "env_steps": state["env_steps"],
               "train_seconds": state["wall_s"], "model": str(model_path),
               "evaluation": _evaluate(args, model_path) if args.eval_games else []}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"outputs in {run_dir}/ (model.npz, progress.csv, summary.json, checkpoints/)", flush=True)
    return summary


def _iterate(algo: Any, args: Args, run_dir: Path, state: dict[str, Any]) -> dict[str, Any]:
    """Train from ``algo``'s iteration to ``args.iterations``: a line of progress.csv and of the console per
    iteration, a checkpoint (and model.npz) on schedule; returns the state of the last checkpoint."""
    if algo.iteration >= args.iterations:
        print(f"PPO: all {args.iterations} iterations are done", flush=True)
        return state
    print(f"PPO: iterations {algo.iteration + 1} to {args.iterations} of {args.train_batch_size:,} env steps, "
          f"{args.num_env_runners} env runners x {args.num_envs_per_env_runner} games "
          f"({args.address or 'this machine'})", flush=True)
    steps, train_s = state.get("env_steps", 0), state.get("wall_s", 0.0)
    while algo.iteration < args.iterations:
        start = time.perf_counter()
        result = algo.train()
        seconds = time.perf_counter() - start
        train_s += seconds
        now = int(result["env_runners"]["num_env_steps_sampled_lifetime"])
        row = _row(algo.iteration, now, now - steps, seconds, result)
        steps = now
        with (run_dir / "progress.csv").open("a") as handle:
            handle.write(",".join(str(row[key]) for key in CSV_FIELDS) + "\n")
        games = f", mean game {row['episode_len_mean']:.0f} flips" if row["episode_len_mean"] > 0 else ""
        print(f"iteration {row['iteration']}/{args.iterations}: {steps:,} env steps, {row['steps_per_s']:,.0f} "
              f"steps/s{games}, entropy {row['entropy']:.3f}  ({minutes(train_s)})", flush=True)
        if algo.iteration % args.checkpoint_every == 0 or algo.iteration == args.iterations:
            checkpoint = Path("checkpoints", f"iteration_{algo.iteration:05d}")
            algo.save_to_path(str((run_dir / checkpoint).resolve()))
            export_model(run_dir / checkpoint, run_dir / "model.npz", args.observation, args.play_by,
                         args.num_players)
            state = {"checkpoint": str(checkpoint), "iteration": algo.iteration, "env_steps": steps,
                     "wall_s": round(train_s, 1)}
            (run_dir / "state.tmp").write_text(json.dumps(state, indent=1))
            (run_dir / "state.tmp").replace(run_dir / "state.json")
    return state


def _evaluate(args: Args, model_path: Path) -> list[dict[str, Any]]:
    """The model against each of --eval-agents in the tournament harness; the table is printed."""
    from goldrush_agents import split_entrants
    from goldrush_train.win_shares import evaluate, table

    agents = split_entrants(args.eval_agents)
    print(f"evaluation: {args.eval_games} games against each of {', '.join(agents)}...", flush=True)
    rows = evaluate(str(model_path), agents, num_players=args.num_players, games=args.eval_games,
                    seed=args.seed + 1_000_000, workers=args.eval_workers, table=args.table, memory=args.memory)
    print(table(rows))
    return [dataclasses.asdict(row) for row in rows]


@command("examples/rllib_ppo.py")
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    missing = missing_modules(RLLIB_EXTRA)
    if missing:
        fail(f"examples/rllib_ppo.py needs the 'train,rllib' extras: {install_line('train,rllib')} "
             f"(missing: {', '.join(missing)})")
    import tyro

    return train(tyro.cli(Args, args=argv, prog="python examples/rllib_ppo.py"))


if __name__ == "__main__":
    main()
