"""PPO from scratch: Gold learned with no teacher, on the batched vector env.

    python -m goldrush_train.gold.scratch                        # the from-scratch recipe: 10M steps, about 5 minutes
    python -m goldrush_train.gold.scratch --total-timesteps 1000000 --eval-every 250000   # a short run
    python -m goldrush_train.gold.scratch --help                 # every argument

One file in CleanRL's shape: a dataclass of arguments, the environment, the
rollout, the PPO update, evaluation in its own function. Nothing is copied
from a teacher: no imitation, no saved decisions. By default the network is
CleanRL's stock agent (an actor and a critic, each two tanh layers of 64)
over the environment's kinds of card (``action="kinds"``,
``observation="kinds"``), and the learner plays a random seat of
:class:`goldrush_env.gold.vector.GoldVectorEnv` against ``greedy``, which
plays inside the compiled step. Other opponents (``opponents``), frozen
snapshots of the learner as a ``self_play`` share of the seats (one taken
every ``snapshot_every`` steps), positions instead of kinds and
:class:`goldrush_train.gold.network.GoldNet` (``network``) are options;
``num_players`` sets the table's size, and ``init_from`` starts GoldNet from
a saved model's weights instead of random ones (what
:mod:`goldrush_train.gold.sizes` does with the 2-player model).

Every ``eval_every`` steps the policy, played as ``play_by`` says, meets
each of ``eval_agents`` in ``eval_games`` games (seats swapped, start players
rotated, on the batched engine); the curve goes to ``eval.csv`` and
``curves.png``. The end writes ``model.npz`` (played by
:class:`goldrush_agents.gold.trained.TrainedPolicy`, in numpy), a final evaluation of
``final_games`` games against each, and ``summary.json``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Sequence

import numpy as np

from goldrush_agents import split_entrants
from goldrush_agents.gold.trained import shipped_model
from goldrush_env.gold.cards import table_size
from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_train.cli import (TRAIN_EXTRA, Heartbeat, check_agents, check_counts, check_numbers, command, doing,
                                minutes, open_run_dir, parse_args, ship, write_csv)

PROGRESS_EVERY = 30.0
"""Seconds between progress lines."""


@dataclass
class Args:
    """PPO from scratch on the batched vector env: no teacher, no imitation, a generic network."""

    run_dir: str | None = None
    """Folder for the model, evaluations and curves; it must be new or empty. Default: a new folder
    runs/scratch-YYYYmmdd-HHMMSS."""
    seed: int = 0
    """Seeds everything: the network's initial weights, the deals, the opponents, the evaluation deals."""
    num_players: int = 2
    """Players per game (2 to 5); the learner takes a random seat, the opponents every other."""
    init_from: str | None = None
    """Start from the weights of this GoldNet model (a .npz of observation "plain", e.g. the shipped
    agents/gold/models/taught_2p.npz) instead of random ones; the run's --width and --context must be the model's."""
    total_timesteps: int = 10_000_000
    """Learner decisions (flips) to train for."""
    num_envs: int = 64
    """Games played at once."""
    num_steps: int = 128
    """Steps per game in each rollout (a rollout is num_envs * num_steps decisions)."""
    learning_rate: float = 5e-4
    """Adam's step size at the start, annealed linearly to 0 at the end."""
    gamma: float = 0.99
    """Discount per decision (a game is about 50 decisions of each seat)."""
    gae_lambda: float = 0.95
    """Generalized advantage estimation's lambda."""
    num_minibatches: int = 8
    """Minibatches per epoch of the update."""
    update_epochs: int = 4
    """Passes over each rollout."""
    clip_coef: float = 0.2
    """PPO's clipping of the probability ratio (and of the value change)."""
    ent_coef: float = 0.01
    """Weight of the entropy bonus."""
    vf_coef: float = 0.5
    """Weight of the value loss."""
    max_grad_norm: float = 0.5
    """Gradients are clipped to this norm."""
    tables: str = "full"
    """The tables played, in order, each until a step count: "quarter:500000,half:1000000,full" trains on the
    16-card table to step 500,000, on the 32-card one to 1,000,000, then on the full game (the last needs no
    step)."""
    eval_table: str = "full"
    """The table of the evaluations."""
    reward: Literal["score", "win"] = "score"
    """The environment's reward: "score", after each flip the gold gained by the learner less the opponent's / 10;
    "win", +1 / 0 / -1 at the end."""
    opponents: str = "greedy"
    """Scripted opponents, comma-separated; each game draws one of them (equal weights) for each other seat."""
    self_play: float = 0.0
    """Share of opponent seats played by frozen snapshots of the learner (the latest league_size), once the first
    snapshot exists."""
    snapshot_every: int = 250_000
    """Steps between snapshots of the learner for self-play."""
    league_size: int = 4
    """Snapshots kept as opponents."""
    network: Literal["goldnet", "mlp"] = "mlp"
    """The policy: "goldnet", goldrush_train.gold.network.GoldNet (the same small layers at every position); "mlp",
    CleanRL's stock agent (an actor and a critic, each two tanh layers of 64)."""
    action: Literal["positions", "kinds"] = "kinds"
    """The environment's action option: "positions", a position to turn; "kinds", a kind of card (or an unknown
    one), the environment drawing the position (needs --network mlp)."""
    observation: Literal["plain", "pairs", "kinds"] = "kinds"
    """The environment's observation option; "pairs" adds the pair planes (GoldNet reads them beside each
    position's own features); "kinds" counts cards by kind (needs --network mlp)."""
    width: int = 64
    """Width of GoldNet's per-position layers."""
    context: int = 32
    """Size of the game-wide features fed to each position."""
    eval_every: int = 1_000_000
    """Steps between evaluations (0: only the final one)."""
    eval_games: int = 400
    """Games against each evaluation agent during training."""
    eval_agents: str = "random,greedy"
    """The agents the policy is evaluated against."""
    final_games: int = 2000
    """Games against each evaluation agent at the end."""
    torch_threads: int = 1
    """Threads for torch; 0: every core. One leaves the other core to the games: the recipe's timings are
    with one."""
    play_by: Literal["move", "position"] = "move"
    """How the model file plays, in the evaluations and wherever it is loaded: "position", its most likely
    flip; "move", the flip of the most likely move, adding up positions the seat cannot tell apart (every
    unknown card, two remembered cards of one kind); see goldrush_agents.gold.trained.TrainedPolicy. A model of
    --action kinds plays its most likely kind, then the first position holding one."""
    ship: bool = False
    """Copy the final model over the model the package ships as "scratch" for --num-players
    (agents/gold/models/scratch_2p.npz for 2)."""

    def table_schedule(self) -> list[tuple[str, int]]:
        """``[(table, until step), ...]`` from --tables; the last table plays to the end."""
        from goldrush_env.gold.cards import TABLES

        schedule = []
        parts = [part.strip() for part in self.tables.split(",")]
        for index, part in enumerate(parts):
            name, _, until = part.partition(":")
            if name not in TABLES:
                raise GoldrushEnvError(f"--tables: {name!r} is not a table: expected one of {list(TABLES)}")
            last = index == len(parts) - 1
            if not last and not until.isdigit():
                raise GoldrushEnvError(f"--tables: {part!r} needs the step it plays until, e.g. {name}:500000")
            steps = self.total_timesteps if last else int(until)
            if schedule and steps <= schedule[-1][1]:
                raise GoldrushEnvError(f"--tables: the steps must grow, got {self.tables!r}")
            schedule.append((name, steps))
        if len({name for name, _ in schedule}) < len(schedule):
            raise GoldrushEnvError(f"--tables: each table at most once, got {self.tables!r}")
        return schedule

    def check(self) -> None:
        """Refuse values that cannot work, naming them."""
        check_counts(self, "total_timesteps", "num_envs", "num_steps", "num_minibatches", "update_epochs", "width",
                     "context", "eval_games", "final_games", "snapshot_every", "league_size")
        if self.num_envs * self.num_steps % self.num_minibatches:
            raise GoldrushEnvError(f"--num-minibatches {self.num_minibatches} must divide a rollout of "
                                   f"{self.num_envs * self.num_steps} decisions (--num-envs x --num-steps)")
        check_numbers(self, "gamma", "gae_lambda", "self_play", low=0, high=1)
        check_numbers(self, "learning_rate", "clip_coef", "ent_coef", "vf_coef", "max_grad_norm", low=0)
        check_int("--eval-every", self.eval_every, 0, note="0: only the final evaluation")
        check_int("--torch-threads", self.torch_threads, 0, note="0: every core")
        self.table_schedule()
        table_size(self.eval_table)
        check_int("--num-players", self.num_players, 2, 5)
        if self.ship and self.init_from is not None:
            raise GoldrushEnvError(f"--ship is for a model learned from scratch, with no teacher: not one started from "
                                   f"--init-from {self.init_from!r} (goldrush_train.gold.sizes ships those, as taught)")
        if self.init_from is not None:
            if self.network != "goldnet" or self.observation != "plain":
                raise GoldrushEnvError(f"--init-from needs --network goldnet --observation plain (the shipped "
                                       f"models'), "
                                    f"got --network {self.network} --observation {self.observation}")
            from goldrush_train.gold.network import saved_weights

            saved_weights(self.init_from, self.width, self.context)
        if self.network == "goldnet" and "kinds" in (self.action, self.observation):
            raise GoldrushEnvError(f"--action {self.action} --observation {self.observation} needs --network mlp: "
                                   "GoldNet reads and scores positions")
        check_agents("--opponents", self.opponents)
        check_agents("--eval-agents", self.eval_agents)


def make_env(args: Args, table: str, opponents: dict[str, float]):
    """The batched vector env the learner plays on ``table`` against the mix ``opponents``."""
    from goldrush_agents.gold.batched import batched_mix
    from goldrush_env.gold.vector import GoldVectorEnv

    return GoldVectorEnv(args.num_envs, opponents=batched_mix(opponents), seat="random", reward=args.reward,
                         num_players=args.num_players, table=table, action=args.action,
                         observation=args.observation, autoreset_mode="same_step")


def make_network(args: Args, inputs: int, actions: int):
    """The policy and value network ``args`` names: ``forward(observations) -> (logits, values)``."""
    import torch
    from torch import nn

    from goldrush_train.gold.network import GoldNet, load_saved_weights

    if args.network == "goldnet":
        net = GoldNet(width=args.width, context=args.context, pairs=args.observation == "pairs")
        if args.init_from is not None:
            load_saved_weights(net, args.init_from)
        return net

    from goldrush_train.gold.network import make_agent_network

    class MlpAgent(nn.Module):
        """CleanRL's PPO agent: separate actor and critic MLPs."""

        def __init__(self) -> None:
            super().__init__()
            parts = make_agent_network(inputs, actions)
            self.actor, self.critic = parts["actor"], parts["critic"]

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            return self.actor(x), self.critic(x).squeeze(-1)

    return MlpAgent()


def scripted_mix(args: Args) -> dict[str, float]:
    names = split_entrants(args.opponents)
    return {name: 1.0 / len(names) for name in names}


def masked_logits(logits, masks):
    import torch

    return torch.where(masks, logits, torch.full_like(logits, -1e9))


def save_model(net, path: Path, num_players: int, observation: str = "plain", play_by: str = "move",
               action: str = "positions") -> Path:
    """The network as a numpy model (``goldrush_agents.gold.trained``) trained for ``num_players``, that plays as
    ``play_by`` says."""
    from goldrush_train.gold.network import GoldNet, export_weights

    if isinstance(net, GoldNet):
        arrays = export_weights(net, num_players)
    else:
        arrays = {f"actor.{name}": tensor.detach().numpy().copy() for name, tensor in net.actor.state_dict().items()}
        arrays["config.network"] = np.array("mlp")
        arrays["config.observation"] = np.array(observation)
        arrays["config.action"] = np.array(action)
        arrays["config.num_players"] = num_players
    arrays["config.choose"] = np.array(play_by)
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)
    return path


def evaluate(model: Path, agents: Sequence[str], games: int, seed: int, table: str = "full",
             num_players: int = 2) -> list[dict[str, Any]]:
    """The model against each of ``agents`` in ``games`` games on ``table``, on the batched engine: the model's
    win share alone against the agent in every other seat and, with 3 or more players, the agent's alone
    against the model (``field_alone``, ``field_low``, ``field_high``)."""
    import numba

    from goldrush_train.win_shares import evaluate as against

    rows, threads = [], numba.get_num_threads()
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)  # many games at once: every thread the process has
    try:
        results = against(str(model), agents, num_players=num_players, games=games, seed=seed, batched=True,
                          table=table)
    finally:
        numba.set_num_threads(threads)
    for r in results:
        row = {"opponent": r.opponent, "games": r.games, "win_share": r.win_share, "low": r.low, "high": r.high,
               "fair_share": r.fair_share}
        if r.opponent_alone is not None:  # 3 or more players
            row.update(field_alone=r.opponent_alone, field_low=r.opponent_alone_low, field_high=r.opponent_alone_high)
        rows.append(row)
    return rows


def train(args: Args) -> dict[str, Any]:
    """Run PPO as ``args`` says; returns the summary also written to ``summary.json``."""
    import numba
    import torch
    from torch.distributions import Categorical

    from goldrush_agents.gold.batched import batched_mix
    from goldrush_env.gold import kernel
    from goldrush_env.gold.variants import action_type, observation_type
    from goldrush_train.run_figure import plot

    args.check()
    run_dir = open_run_dir(args.run_dir, "runs/scratch", args)

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads or torch.get_num_threads())
    if args.num_envs < kernel.PARALLEL_FROM:  # a thread the game never needs would spin for a core it may not have
        numba.set_num_threads(1)
    print(f"threads: torch {torch.get_num_threads()}, the compiled games {numba.get_num_threads()} "
          f"({args.num_envs} at once; more threads from {kernel.PARALLEL_FROM}); cores this process may use: "
          f"{len(os.sched_getaffinity(0))}", flush=True)
    env_inputs = observation_type(args.observation).size
    net = make_network(args, env_inputs, action_type(args.action).size)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5)
    schedule = args.table_schedule()
    table = schedule[0][0]
    mix = scripted_mix(args)
    env = make_env(args, table, mix)
    agents = split_entrants(args.eval_agents)
    batch_size = args.num_envs * args.num_steps
    updates = max(1, args.total_timesteps // batch_size)

    observations = torch.zeros((args.num_steps, args.num_envs) + env.single_observation_space.shape)
    masks = torch.zeros((args.num_steps, args.num_envs, action_type(args.action).size), dtype=torch.bool)
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long)
    logprobs = torch.zeros((args.num_steps, args.num_envs))
    rewards = torch.zeros((args.num_steps, args.num_envs))
    dones = torch.zeros((args.num_steps, args.num_envs))
    values = torch.zeros((args.num_steps, args.num_envs))

    obs, info = env.reset(seed=args.seed)
    print(f"training on the {table} table", flush=True)
    next_obs, next_mask = torch.as_tensor(obs), torch.as_tensor(info["action_mask"])
    next_done = torch.zeros(args.num_envs)
    league: list[Path] = []
    evaluations: list[dict[str, Any]] = []
    games = wins = 0
    started = last_line = time.perf_counter()
    spent = {"rollout": 0.0, "update": 0.0, "evaluation": 0.0}
    next_eval = args.eval_every or args.total_timesteps + 1
    next_snapshot = args.snapshot_every
    step = 0

    for update in range(1, updates + 1):
        for group in optimizer.param_groups:
            group["lr"] = args.learning_rate * (1.0 - (update - 1.0) / updates)
        clock = time.perf_counter()
        for t in range(args.num_steps):
            observations[t], masks[t], dones[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                logits, value = net(next_obs)
                dist = Categorical(logits=masked_logits(logits, next_mask))
                action = dist.sample()
            actions[t], logprobs[t], values[t] = action, dist.log_prob(action), value
            obs, reward, terminated, truncated, info = env.step(action.numpy())
            done = terminated | truncated
            rewards[t] = torch.as_tensor(reward, dtype=torch.float32)
            next_obs, next_mask = torch.as_tensor(obs), torch.as_tensor(info["action_mask"])
            next_done = torch.as_tensor(done, dtype=torch.float32)
            if done.any():
                final = info["final_info"]
                leaders = final["winners"][done]
                games += int(done.sum())
                wins += float((leaders[np.arange(len(leaders)), final["seat"][done]] / leaders.sum(axis=1)).sum())
        step += batch_size
        spent["rollout"] += time.perf_counter() - clock
        clock = time.perf_counter()

        with torch.no_grad():
            next_value = net(next_obs)[1]
            advantages = torch.zeros_like(rewards)
            last = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                not_done = 1.0 - (next_done if t == args.num_steps - 1 else dones[t + 1])
                following = next_value if t == args.num_steps - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * following * not_done - values[t]
                last = delta + args.gamma * args.gae_lambda * not_done * last
                advantages[t] = last
            returns = advantages + values

        b_obs, b_masks = observations.reshape(batch_size, -1), masks.reshape(batch_size, -1)
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_advantages, b_returns, b_values = advantages.reshape(-1), returns.reshape(-1), values.reshape(-1)
        order = np.random.default_rng(args.seed * 1_000_003 + update)
        for _ in range(args.update_epochs):
            for chunk in np.split(order.permutation(batch_size), args.num_minibatches):
                index = torch.as_tensor(chunk)
                logits, value = net(b_obs[index])
                dist = Categorical(logits=masked_logits(logits, b_masks[index]))
                ratio = (dist.log_prob(b_actions[index]) - b_logprobs[index]).exp()
                adv = b_advantages[index]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                clipped = b_values[index] + (value - b_values[index]).clamp(-args.clip_coef, args.clip_coef)
                value_loss = 0.5 * torch.max((value - b_returns[index]) ** 2, (clipped - b_returns[index]) ** 2).mean()
                loss = policy_loss - args.ent_coef * dist.entropy().mean() + args.vf_coef * value_loss
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm)
                optimizer.step()
        spent["update"] += time.perf_counter() - clock
        doing(f"step {step:,} of {args.total_timesteps:,}: playing games, then a policy update")
        if time.perf_counter() - last_line > PROGRESS_EVERY:
            last_line = time.perf_counter()
            print(f"step {step:>10,} of {args.total_timesteps:,}: training games won {wins / max(games, 1):.2f}, "
                  f"{step / (last_line - started):,.0f} steps/s, {minutes(last_line - started)}", flush=True)

        if args.self_play > 0 and step >= next_snapshot:
            next_snapshot += args.snapshot_every
            (run_dir / "league").mkdir(exist_ok=True)
            snapshot = save_model(net, run_dir / "league" / f"step_{step:09d}.npz", args.num_players,
                                  args.observation, args.play_by, args.action)
            league = (league + [snapshot])[-args.league_size:]
            mix = {name: (1 - args.self_play) * weight for name, weight in scripted_mix(args).items()}
            mix.update({str(path): args.self_play / len(league) for path in league})
            env.set_opponents(batched_mix(mix))

        if step >= dict(schedule)[table] and update < updates:  # the next table of the schedule
            table = schedule[[name for name, _ in schedule].index(table) + 1][0]
            env = make_env(args, table, mix)
            obs, info = env.reset(seed=args.seed + step)
            next_obs, next_mask = torch.as_tensor(obs), torch.as_tensor(info["action_mask"])
            next_done = torch.zeros(args.num_envs)
            print(f"step {step:>10,}: now training on the {table} table", flush=True)

        if step >= next_eval or update == updates:
            clock = time.perf_counter()
            next_eval += args.eval_every or args.total_timesteps + 1
            model = save_model(net, run_dir / "model.npz", args.num_players, args.observation, args.play_by,
                               args.action)
            games_now = args.final_games if update == updates else args.eval_games
            rows = evaluate(model, agents, games_now, seed=args.seed + 1_000_000 if update == updates
                            else args.seed + 2_000_000 + step, table=args.eval_table, num_players=args.num_players)
            evaluations += [{"step": step, **row} for row in rows]
            print(f"step {step:>10,}  " + "  ".join(f"{r['opponent']} {r['win_share']:.3f}"
                                                    + (f" (alone vs it {r['field_alone']:.3f})" if "field_alone" in r
                                                       else "") for r in rows)
                  + f"  (training games won {wins / max(games, 1):.2f}, {step / (time.perf_counter() - started):,.0f}"
                  f" steps/s, {minutes(time.perf_counter() - started)})", flush=True)
            games = wins = 0
            write_csv(run_dir / "eval.csv", evaluations)
            spent["evaluation"] += time.perf_counter() - clock

    elapsed = time.perf_counter() - started
    final = [e for e in evaluations if e["step"] == step]
    summary = {"args": dataclasses.asdict(args), "steps": step, "seconds": elapsed, "spent": spent, "final": final,
               "evaluations": evaluations}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    plot(evaluations, [], run_dir / "curves.png", f"PPO from scratch, seed {args.seed}")
    if args.ship:
        ship(run_dir / "model.npz", shipped_model(args.num_players, "scratch"))
    print(f"trained {step:,} steps in {minutes(elapsed)} (" + ", ".join(f"{k} {minutes(v)}" for k, v in spent.items())
          + f"); outputs in {run_dir}/")
    return summary


@command("goldrush_train.gold.scratch", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    import numba

    args = parse_args(Args, argv, "goldrush_train.gold.scratch")
    threads = numba.get_num_threads()
    try:
        with Heartbeat():
            return train(args)
    finally:
        numba.set_num_threads(threads)  # train() may keep the compiled games to one thread (see there)


if __name__ == "__main__":
    main()
