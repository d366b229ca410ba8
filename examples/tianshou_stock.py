"""Tianshou's DQN on Gold: the Tianshou example in docs/libraries.md, with options and evaluations.

    python examples/tianshou_stock.py                                         # 200k steps, kinds of card
    python examples/tianshou_stock.py --action positions --observation pairs  # positions, for comparison

Tianshou's ``DQN`` over a ``DiscreteQLearningPolicy`` with its stock ``Net``
(two ReLU layers of 128), as in its DQN examples: exploration at a fixed
epsilon of 0.1, Adam at 1e-3, discount 0.99, the target network copied every
100 updates, a replay buffer of 20,000 steps, 8 steps collected then 2
gradient steps on batches of 64. The environments are ``Gold-v1`` made
with ``gymnasium.make`` and documented options only, in Tianshou's
``DummyVectorEnv``, each wrapped so that its observation is the dict of
``obs`` and ``mask`` that Tianshou's DQN masks actions with (and its info
has no ``winners``, which Tianshou's replay buffer cannot store). Opponents play
uniformly at random. Evaluations as in ``stock_harness.py``;
``policy.pt`` holds the trained network's weights.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Sequence

import gymnasium as gym
import numpy as np

from goldrush_env.checks import check_number
from goldrush_env.errors import GoldrushEnvError
from goldrush_train.cli import TRAIN_EXTRA, check_counts, command, minutes, open_run_dir

from stock_harness import StockArgs, evaluate_at, next_evaluation, progress_line, write_outputs


class ObsAndMask(gym.Wrapper):
    """The observation as Tianshou's DQN reads it, {"obs": vector, "mask": legal actions}, and the info without
    ``winners``: Tianshou's replay buffer keeps every info field at the shape it first saw, and a shared win
    lists two winners where a sole win lists one."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        n = int(env.action_space.n)
        self.observation_space = gym.spaces.Dict(obs=env.observation_space, mask=gym.spaces.MultiBinary(n))

    def _dict(self, observation: np.ndarray, info: dict[str, Any]) -> tuple[dict[str, np.ndarray], dict]:
        info = {key: value for key, value in info.items() if key != "winners"}
        return {"obs": observation, "mask": info["action_mask"].astype(np.int8)}, info

    def reset(self, **kwargs: Any) -> tuple[dict[str, np.ndarray], dict]:
        return self._dict(*self.env.reset(**kwargs))

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        observation, info = self._dict(observation, info)
        return observation, reward, terminated, truncated, info


@dataclass
class Args(StockArgs):
    """Tianshou's DQN with its stock Net on Gold-v1, with documented environment options only."""

    total_timesteps: int = 200_000
    """Learner decisions to train for."""
    num_envs: int = 4
    """Environments in Tianshou's DummyVectorEnv."""
    eval_every: int = 25_000
    """Steps between evaluations."""
    hidden_sizes: tuple[int, ...] = (128, 128)
    """The layers of Tianshou's ``Net``."""
    learning_rate: float = 1e-3
    """Adam's step size."""
    epsilon: float = 0.1
    """The share of random legal actions while training."""
    buffer_size: int = 20_000
    """Steps the replay buffer holds."""
    target_update_freq: int = 100
    """Updates between copies of the network to the target network."""
    steps_per_collect: int = 8
    """Environment steps between rounds of updates."""
    updates_per_step: float = 0.25
    """Gradient steps per environment step."""
    batch_size: int = 64
    """Steps per gradient step."""

    def check(self) -> None:
        super().check()
        check_counts(self, "buffer_size", "target_update_freq", "steps_per_collect", "batch_size")
        check_number("--epsilon", self.epsilon, 0, 1)
        if not self.hidden_sizes or min(self.hidden_sizes) < 1:
            raise GoldrushEnvError(f"--hidden-sizes must be one or more ints >= 1, got {self.hidden_sizes!r}")


def train(args: Args) -> dict[str, Any]:
    import torch
    from tianshou.algorithm import DQN
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    import goldrush_env  # noqa: F401  (registers the ids)

    def make_env() -> gym.Env:
        return ObsAndMask(gym.make("goldrush_env:Gold-v1", **args.env_options()))

    args.check()
    run_dir = open_run_dir(args.run_dir, "runs/tianshou", args)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    np.random.seed(args.seed)  # Tianshou's exploration and replay sampling draw from numpy's global generator
    train_envs = DummyVectorEnv([make_env] * args.num_envs)
    train_envs.seed(args.seed)
    env = make_env()
    net = Net(state_shape=env.observation_space["obs"].shape, action_shape=int(env.action_space.n),
              hidden_sizes=list(args.hidden_sizes))
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=args.epsilon,
                                     eps_inference=0.0)
    algorithm = DQN(policy=policy, optim=AdamOptimizerFactory(lr=args.learning_rate), gamma=0.99,
                    target_update_freq=args.target_update_freq)
    collector = Collector[CollectStats](algorithm, train_envs, VectorReplayBuffer(args.buffer_size, args.num_envs),
                                        exploration_noise=True)

    def choose(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            q, _ = net(torch.as_tensor(observations, dtype=torch.float32))
        return np.where(masks, q.numpy(), -np.inf).argmax(axis=1)

    evaluations: list[dict[str, Any]] = []
    next_eval = args.eval_every
    started = time.perf_counter()

    def evaluate(step: int) -> None:
        rows = evaluate_at(step, choose, args)
        evaluations.extend(rows)
        print(progress_line(rows, minutes(time.perf_counter() - started)), flush=True)

    def at_training_step(epoch: int, env_step: int) -> None:
        nonlocal next_eval
        if env_step >= next_eval:
            evaluate(env_step)
            next_eval = next_evaluation(env_step, args.eval_every)

    algorithm.run_training(OffPolicyTrainerParams(
        training_collector=collector, max_epochs=1, epoch_num_steps=args.total_timesteps,
        collection_step_num_env_steps=args.steps_per_collect,
        update_step_num_gradient_steps_per_sample=args.updates_per_step, batch_size=args.batch_size,
        training_fn=at_training_step, show_progress=False, verbose=False))
    if not evaluations or evaluations[-1]["step"] < collector.collect_step:
        evaluate(collector.collect_step)
    torch.save(net.state_dict(), run_dir / "policy.pt")
    return write_outputs(run_dir, args, evaluations, time.perf_counter() - started, "Tianshou DQN")


@command("examples/tianshou_stock.py", needs=(*TRAIN_EXTRA, "tianshou"),
         extra="train,tianshou")
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    import tyro

    return train(tyro.cli(Args, args=argv, prog="python examples/tianshou_stock.py"))


if __name__ == "__main__":
    main()
