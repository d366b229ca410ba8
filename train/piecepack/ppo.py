"""MaskablePPO on *Gold Rush* for the piecepack: one learner against scripted players.

    python -m goldrush_train.piecepack.ppo --num-players 3 --total-timesteps 200000 --seed 0
    python -m goldrush_train.piecepack.ppo --num-players 4 --opponents random,economist
    python -m goldrush_train.piecepack.ppo --total-timesteps 4096 --eval-games 20     # a quick look
    python -m goldrush_train.piecepack.ppo --imitation-games 3000 --total-timesteps 0 --ship   # the shipped model

sb3-contrib's MaskablePPO with its default ``"MlpPolicy"`` (two tanh layers of
64) on ``gymnasium.make("goldrush_env:GoldRushPiecepack-v0", ...)``: the
learner sits at a random seat, the legal-action mask is honoured, and every
other seat is played by one of ``--opponents`` (comma-separated; with several
names each seat draws one anew every game). At the end the policy, picking
its most likely legal action, plays ``--eval-games`` games alone against
tables of random players and of economists, seats and start player rotated
(:mod:`goldrush_train.win_shares`, as every training script evaluates); the
economist plays the same deals against random as a reference. Each line
gives the win share (a co-winner among k gets 1/k) with its 95% Wilson
interval, the fair share 1/n, and the mean final scores of the player and of
its opponents.
``final.zip`` holds the policy, ``model.npz`` the same policy for the numpy
player (``make_agent(path, game="piecepack")``) and ``summary.json`` the numbers.

From scratch PPO barely learns here: the score reward is paid in few games.
``--imitation-games N`` first copies a teacher (``--teacher``: the economist,
or the search player, which makes this one step of expert iteration): it
plays N games at the learner's seat against the training opponents
(``--workers`` processes at once), and the policy is fitted to its decisions
(cross-entropy over the legal actions) and the value to the returns that
followed, for ``--imitation-epochs`` passes, before PPO starts
(``--total-timesteps 0``: no PPO at all). ``--ship`` copies ``model.npz``
to the package as the shipped model of that many players (entrant ``taught``).
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Sequence
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.policy import SeededPolicy
from goldrush_train.cli import TRAIN_EXTRA, check_agent, command, minutes, open_run_dir, parse_args, ship


EVAL_OPPONENTS = ("random", "economist")
"""The tables the trained policy is evaluated at: every other seat played by this agent."""


@dataclass
class Args:
    """MaskablePPO with its default MlpPolicy on GoldRushPiecepack-v0 against scripted players."""

    run_dir: str | None = None
    """Folder for the model and the evaluations; it must be new or empty. Default:
    runs/piecepack-ppo-YYYYmmdd-HHMMSS."""
    seed: int = 0
    """Seeds the network, the environments, the opponents and the evaluation deals."""
    num_players: int = 3
    """Seats at the table, 3 or 4."""
    opponents: str = "random"
    """The players of the other seats while training: random, economist, or a mix such as random,economist."""
    reward: Literal["score", "win"] = "score"
    """The environment's reward option."""
    total_timesteps: int = 200_000
    """Learner decisions to train for (200,000: about 9 minutes on two cores against random)."""
    num_envs: int = 4
    """Environments stepped together."""
    vec_env: Literal["dummy", "subproc"] = "dummy"
    """SB3's DummyVecEnv (one process) or SubprocVecEnv (one process per environment)."""
    n_steps: int = 2048
    """Steps per environment in each rollout (MaskablePPO's default)."""
    batch_size: int = 256
    """Minibatch size of the updates (MaskablePPO's default is 64; 256 trains about 1.3 times as fast here)."""
    log_every: int = 50_000
    """Steps between progress lines."""
    eval_games: int = 200
    """Games against each evaluation table."""
    reference: bool = True
    """Also evaluate the economist against random on the same deals, as a yardstick."""
    imitation_games: int = 0
    """Games of the teacher whose decisions the policy copies before PPO starts (0: none)."""
    teacher: str = "economist"
    """The player the policy copies: economist, or the search (``search``, options allowed, as
    ``search[rollouts=16]``): copying the search is one step of expert iteration."""
    workers: int = 1
    """Processes playing the teacher's games (the games are the same whatever the number)."""
    imitation_epochs: int = 10
    """Passes over those decisions."""
    ship: bool = False
    """Copy model.npz into the package as the shipped model for --num-players (the entrant taught)."""

    def check(self) -> list[str]:
        """Refuse a bad value by its option, before anything starts; the training opponents' names."""
        from goldrush_agents import players_of
        from goldrush_env.piecepack.aec import PiecepackConfig

        for name in ("total_timesteps", "num_envs", "n_steps", "batch_size", "log_every", "eval_games",
                     "imitation_games", "imitation_epochs", "workers"):
            least = 0 if name == "imitation_games" or (name == "total_timesteps" and self.imitation_games) else 1
            check_int(f"--{name.replace('_', '-')}", getattr(self, name), least,
                      note="0 only with --imitation-games" if name == "total_timesteps" else "")
        try:
            PiecepackConfig(num_players=self.num_players, reward=self.reward)
        except GoldrushEnvError as error:
            raise GoldrushEnvError(f"--num-players/--reward: {error}") from None
        check_agent("--teacher", self.teacher, "piecepack")
        names = [name.strip() for name in self.opponents.split(",")]
        for name in names:
            if name not in players_of("piecepack").agents and name not in players_of("piecepack").models:
                raise GoldrushEnvError(f"--opponents: unknown piecepack agent {name!r}: expected one or more of "
                                       f"{[*players_of('piecepack').agents, *players_of('piecepack').models]}, "
                                       "comma-separated")
        return names


class OpponentMix(SeededPolicy):
    """One seat's opponent: each game it draws one of ``names`` (from its own generator) and plays as it."""

    def __init__(self, names: Sequence[str], seed: int | None = None) -> None:
        super().__init__(seed)
        self.names = list(names)
        self.player: Any = None

    def reset(self, seed: int | None = None) -> None:
        from goldrush_agents import make_agent

        super().reset(seed)
        name = self.names[int(self.rng.integers(len(self.names)))]
        self.player = make_agent(name, seed=int(self.rng.integers(2**63)), game="piecepack")

    def act(self, view: Any) -> int:
        return self.player.act(view)


def make_env(num_players: int, reward: str, opponents: Sequence[str], seed: int) -> Any:
    """One environment: the learner at a random seat, each other seat an :class:`OpponentMix` of its own."""
    import gymnasium as gym

    import goldrush_env  # noqa: F401  (registers the ids)

    seeds = np.random.SeedSequence(seed).generate_state(num_players - 1)
    return gym.make("goldrush_env:GoldRushPiecepack-v0", num_players=num_players, reward=reward, seat="random",
                    opponents=[OpponentMix(opponents, seed=int(s)) for s in seeds])


def evaluate(model_path: Path, args: Args) -> list[dict[str, Any]]:
    """The exported model (its most likely legal action) against tables of each of :data:`EVAL_OPPONENTS`, and,
    with ``--reference``, the economist against random on the same deals: :func:`goldrush_train.win_shares.evaluate`,
    the player alone against a field of one opponent, seats and start player rotated."""
    from goldrush_train.win_shares import evaluate as against

    players = [("model", str(model_path), EVAL_OPPONENTS)]
    if args.reference:
        players.append(("economist", "economist", ("random",)))
    lines = []
    for player, entrant, opponents in players:
        for opponent in opponents:
            seed = args.seed * 1_000_003 + 10_000 * EVAL_OPPONENTS.index(opponent)  # same deals for every player
            [row] = against(entrant, [opponent], num_players=args.num_players, games=args.eval_games, seed=seed,
                            workers=1, game="piecepack")
            print(f"{player:>9} vs {opponent:<9} win share {row.win_share:.3f} [{row.low:.3f}, {row.high:.3f}] "
                  f"(fair {row.fair_share:.3f}), mean score {row.model_points:.2f} vs {row.opponent_points:.2f}",
                  flush=True)
            lines.append({"player": player, **dataclasses.asdict(row)})
    return lines


def collect(args: Args, opponents: Sequence[str], gamma: float) -> dict[str, np.ndarray]:
    """``--imitation-games`` games of the teacher at the learner's seat of the training environment (seeds
    apart from the evaluation's; each game dealt, seated and played from its own seed, so ``--workers`` changes
    nothing but the time): every decision's observation, legal mask and action, and the discounted return of
    ``--reward`` from then on."""
    jobs = [(args.num_players, args.reward, tuple(opponents), args.teacher, gamma,
             args.seed * 1_000_003 + 500_000 + game) for game in range(args.imitation_games)]
    if args.workers > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            games = pool.map(_teacher_game, jobs, chunksize=1)
    else:
        games = [_teacher_game(job) for job in jobs]
    return {name: np.concatenate([game[name] for game in games]) for name in games[0]}


def _teacher_game(job: tuple) -> dict[str, np.ndarray]:
    """One game of :func:`collect`, from its seed alone."""
    from goldrush_agents import make_agent

    num_players, reward, opponents, teacher_name, gamma, seed = job
    env = make_env(num_players, reward, opponents, seed)
    teacher = make_agent(teacher_name, seed=seed, game="piecepack")
    observations, masks, actions, rewards = [], [], [], []
    observation, info = env.reset(seed=seed)
    done = False
    while not done:
        action = teacher.act(env.unwrapped.view())
        observations.append(observation)
        masks.append(info["action_mask"])
        actions.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        rewards.append(float(reward))
        done = terminated or truncated
    env.close()
    following, returns = 0.0, []
    for reward in reversed(rewards):
        following = reward + gamma * following
        returns.append(following)
    return {"observations": np.asarray(observations, np.float32), "masks": np.asarray(masks, bool),
            "actions": np.asarray(actions, np.int64), "returns": np.asarray(returns[::-1], np.float32)}


def imitate(policy: Any, data: dict[str, np.ndarray], epochs: int, batch_size: int, seed: int) -> dict[str, float]:
    """Fit ``policy`` (a MaskablePPO policy) to the teacher's ``data`` for ``epochs`` passes: cross-entropy of
    its actions over the legal ones, plus half the squared error of the value against the returns. A tenth of
    the decisions is held out; returns how often the policy's most likely legal action is the teacher's, on the
    fitted decisions and on the held-out ones."""
    import torch

    rng = np.random.default_rng(seed)
    order = rng.permutation(len(data["actions"]))
    held = order[:len(order) // 10]
    fitted = order[len(order) // 10:]
    tensors = {name: torch.as_tensor(array) for name, array in data.items()}
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    policy.set_training_mode(True)
    for _ in range(epochs):
        for start in range(0, len(fitted), batch_size):
            rows = torch.as_tensor(fitted[start:start + batch_size])
            values, log_prob, _ = policy.evaluate_actions(tensors["observations"][rows], tensors["actions"][rows],
                                                          action_masks=tensors["masks"][rows])
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(values.flatten(), tensors["returns"][rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        rng.shuffle(fitted)
    policy.set_training_mode(False)

    def agreement(rows: np.ndarray) -> float:
        if not len(rows):
            return float("nan")
        with torch.no_grad():
            rows_t = torch.as_tensor(rows)
            distribution = policy.get_distribution(tensors["observations"][rows_t],
                                                   action_masks=tensors["masks"][rows_t].numpy())
            chosen = distribution.distribution.probs.argmax(dim=1)
        return float((chosen == tensors["actions"][rows_t]).float().mean())

    return {"decisions": len(order), "agreement_fitted": agreement(fitted), "agreement_held_out": agreement(held)}


def export(policy: Any, path: Any, num_players: int) -> None:
    """The policy network of a MaskablePPO ``MlpPolicy`` as a ``.npz`` the numpy player reads: its linear
    layers ``actor.0``, ``actor.2``, ... (tanh between them, the last gives the 488 logits)."""
    linears = [*(layer for layer in policy.mlp_extractor.policy_net if hasattr(layer, "weight")), policy.action_net]
    weights = {f"actor.{2 * k}.{name}": getattr(layer, name).detach().cpu().numpy()
               for k, layer in enumerate(linears) for name in ("weight", "bias")}
    np.savez(path, **weights, **{"config.game": "piecepack", "config.num_players": num_players})


def train(args: Args) -> dict[str, Any]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    opponents = args.check()
    run_dir = open_run_dir(args.run_dir, "runs/piecepack-ppo", args)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = make_vec_env(make_env, n_envs=args.num_envs, seed=args.seed,
                       vec_env_cls=SubprocVecEnv if args.vec_env == "subproc" else DummyVecEnv,
                       env_kwargs={"num_players": args.num_players, "reward": args.reward, "opponents": opponents,
                                   "seed": args.seed})
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch_size, seed=args.seed, verbose=0)
    model.set_logger(configure(str(run_dir / "logs"), ["csv"]))  # SB3's own figures; else an empty folder in /tmp
    imitation = None
    if args.imitation_games:
        started = time.perf_counter()
        data = collect(args, opponents, model.gamma)
        imitation = imitate(model.policy, data, args.imitation_epochs, args.batch_size, args.seed)
        imitation["seconds"] = time.perf_counter() - started
        print(f"imitation: {imitation['decisions']:,} decisions of {args.teacher} in {args.imitation_games} games; "
              f"the policy picks its action in {imitation['agreement_fitted']:.1%} of them "
              f"({imitation['agreement_held_out']:.1%} of those held out)  ({minutes(imitation['seconds'])})",
              flush=True)
    started = time.perf_counter()
    while model.num_timesteps < args.total_timesteps:
        model.learn(min(args.log_every, args.total_timesteps - model.num_timesteps), reset_num_timesteps=False)
        elapsed = time.perf_counter() - started
        returns = [episode["r"] for episode in model.ep_info_buffer]
        print(f"step {model.num_timesteps:>9,}  mean return {np.mean(returns) if returns else float('nan'):+.3f}"
              f"  {model.num_timesteps / elapsed:.0f} steps/s  ({minutes(elapsed)})", flush=True)
    seconds = time.perf_counter() - started
    env.close()
    model.logger.close()
    model.save(run_dir / "final.zip")
    export(model.policy, run_dir / "model.npz", args.num_players)
    evaluations = evaluate(run_dir / "model.npz", args)
    summary = {"args": dataclasses.asdict(args), "imitation": imitation, "timesteps": model.num_timesteps,
               "train_seconds": seconds, "steps_per_second": model.num_timesteps / max(seconds, 1e-9),
               "evaluations": evaluations}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    if args.ship:
        from goldrush_agents.piecepack import shipped_model

        ship(run_dir / "model.npz", shipped_model(args.num_players))
    print(f"outputs in {run_dir}/")
    return summary


@command("goldrush_train.piecepack.ppo", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    return train(parse_args(Args, argv, "goldrush_train.piecepack.ppo"))


if __name__ == "__main__":
    main()
