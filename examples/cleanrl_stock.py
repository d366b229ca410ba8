"""CleanRL's PPO on Gold: its single-file loop and its stock agent (two tanh layers of 64), masked logits.

    python examples/cleanrl_stock.py                                         # 1M steps, kinds of card
    python examples/cleanrl_stock.py --action positions --observation pairs  # positions, for comparison
    python examples/cleanrl_stock.py --opponents greedy,random               # against greedy too (compiled, fast)

The loop of the CleanRL example in docs/libraries.md, with options: the
batched vector env made with ``gymnasium.make_vec("goldrush_env:Gold-v1",
vectorization_mode="vector_entry_point", ...)`` and ``autoreset_mode="same_step"``
(CleanRL takes a finished game's next observation to be the next game's
first), only documented environment options, opponents playing uniformly at
random (or the ``opponents`` given). CleanRL's update settings: generalized advantages (0.99, 0.95),
normalized per minibatch, the clipped objective at 0.2, entropy 0.01, value
0.5, gradients clipped at 0.5, Adam at 2.5e-4. Illegal actions get a logit
of -1e8. Evaluations as in ``stock_harness.py``; ``agent.pt`` holds the
trained network's weights.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from goldrush_env.errors import GoldrushEnvError
from goldrush_train.cli import TRAIN_EXTRA, check_counts, command, minutes, open_run_dir
from goldrush_train.gold.network import make_agent_network

from stock_harness import StockArgs, evaluate_at, next_evaluation, progress_line, write_outputs


@dataclass
class Args(StockArgs):
    """CleanRL's PPO loop and stock MLP agent on Gold-v1's vector env, with documented environment options."""

    num_envs: int = 64
    """Games played at once."""
    num_steps: int = 128
    """Steps of each game per rollout."""
    num_minibatches: int = 8
    """Minibatches per pass over a rollout (of 1,024 steps by default: sized for two cores, where a gradient step's
    cost hardly grows with the minibatch)."""
    update_epochs: int = 4
    """Passes over each rollout."""
    learning_rate: float = 2.5e-4
    """Adam's step size."""
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    opponents: str = "random"
    """The opponents the learner trains against, comma-separated; each game draws one of them (equal weights) for
    each other seat. ``greedy`` and ``expert`` play inside the compiled vector env."""

    def check(self) -> None:
        from goldrush_train.cli import check_agents

        super().check()
        check_counts(self, "num_steps", "num_minibatches", "update_epochs")
        check_agents("--opponents", self.opponents)
        if (self.num_envs * self.num_steps) % self.num_minibatches:
            raise GoldrushEnvError(f"--num-minibatches {self.num_minibatches} must divide a rollout of --num-envs "
                                   f"{self.num_envs} × --num-steps {self.num_steps} steps")


def train(args: Args) -> dict[str, Any]:
    import gymnasium as gym
    import torch
    from torch.distributions import Categorical

    import goldrush_env  # noqa: F401  (registers the ids)

    args.check()
    run_dir = open_run_dir(args.run_dir, "runs/cleanrl", args)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    from goldrush_agents import split_entrants
    from goldrush_agents.gold.batched import batched_mix

    opponents = batched_mix({name: 1.0 for name in split_entrants(args.opponents)})
    envs = gym.make_vec("goldrush_env:Gold-v1", num_envs=args.num_envs, vectorization_mode="vector_entry_point",
                        autoreset_mode="same_step", opponents=opponents, **args.env_options())
    agent = make_agent_network(envs.single_observation_space.shape[0], int(envs.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5, foreach=True)
    torch.distributions.Distribution.set_default_validate_args(False)  # the masks are checked by the env

    def policy(x: Any, mask: Any) -> Any:
        return Categorical(logits=torch.where(mask, agent["actor"](x), -1e8))

    def choose(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits = agent["actor"](torch.as_tensor(observations, dtype=torch.float32))
        return torch.where(torch.as_tensor(masks, dtype=torch.bool), logits, -1e8).argmax(dim=1).numpy()

    shape = (args.num_steps, args.num_envs)
    obs = torch.zeros(shape + envs.single_observation_space.shape)
    masks = torch.zeros(shape + (int(envs.single_action_space.n),), dtype=torch.bool)
    actions, logprobs, rewards, dones, values = (torch.zeros(shape) for _ in range(5))
    next_obs, _ = envs.reset(seed=args.seed)
    next_obs, next_mask = torch.as_tensor(next_obs), torch.as_tensor(envs.action_masks())
    next_done = torch.zeros(args.num_envs)
    batch = args.num_envs * args.num_steps
    step, next_eval, evaluations = 0, args.eval_every, []
    started = time.perf_counter()
    while step < args.total_timesteps:
        for t in range(args.num_steps):
            obs[t], masks[t], dones[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                dist = policy(next_obs, next_mask)
                action = dist.sample()
                logprobs[t], values[t] = dist.log_prob(action), agent["critic"](next_obs).flatten()
            actions[t] = action
            next_obs, reward, terminations, truncations, _ = envs.step(action.numpy())
            rewards[t] = torch.as_tensor(reward)
            next_obs, next_mask = torch.as_tensor(next_obs), torch.as_tensor(envs.action_masks())
            next_done = torch.as_tensor(terminations | truncations, dtype=torch.float32)
        step += batch

        with torch.no_grad():  # generalized advantage estimation
            next_value = agent["critic"](next_obs).flatten()
            advantages, lastgaelam = torch.zeros_like(rewards), 0.0
            for t in reversed(range(args.num_steps)):
                nonterminal = 1.0 - (next_done if t == args.num_steps - 1 else dones[t + 1])
                nextvalues = next_value if t == args.num_steps - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * nonterminal - values[t]
                advantages[t] = lastgaelam = delta + args.gamma * args.gae_lambda * nonterminal * lastgaelam
            returns = advantages + values

        b_obs, b_masks = obs.flatten(0, 1), masks.flatten(0, 1)
        b_actions, b_logprobs, b_advantages, b_returns = (x.flatten() for x in (actions, logprobs, advantages, returns))
        for _ in range(args.update_epochs):
            for mb in torch.randperm(batch).chunk(args.num_minibatches):
                dist = policy(b_obs[mb], b_masks[mb])
                ratio = (dist.log_prob(b_actions[mb].long()) - b_logprobs[mb]).exp()
                adv = (b_advantages[mb] - b_advantages[mb].mean()) / (b_advantages[mb].std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((agent["critic"](b_obs[mb]).flatten() - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * dist.entropy().mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm, foreach=True)
                optimizer.step()

        if step >= next_eval or step >= args.total_timesteps:
            rows = evaluate_at(step, choose, args)
            evaluations += rows
            print(progress_line(rows, minutes(time.perf_counter() - started)), flush=True)
            next_eval = next_evaluation(step, args.eval_every)
    torch.save(agent.state_dict(), run_dir / "agent.pt")
    return write_outputs(run_dir, args, evaluations, time.perf_counter() - started, "CleanRL-style PPO")


@command("examples/cleanrl_stock.py", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    import tyro

    return train(tyro.cli(Args, args=argv, prog="python examples/cleanrl_stock.py"))


if __name__ == "__main__":
    main()
