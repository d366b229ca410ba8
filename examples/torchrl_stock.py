"""TorchRL's PPO on Gold: the TorchRL example in docs/libraries.md, with options and evaluations.

    python examples/torchrl_stock.py                                         # 200k frames, kinds of card
    python examples/torchrl_stock.py --action positions --observation pairs  # positions, for comparison

TorchRL's ``GymEnv`` over ``Gold-v1`` with documented options only, the
legal actions read from ``info["action_mask"]`` and applied by its
``ActionMask`` transform; an actor of ``MaskedCategorical`` over an ``MLP``
(two tanh layers of 64) and a critic of the same shape; ``ClipPPOLoss``
(entropy 0.01), ``GAE`` (0.99, 0.95), Adam at 2.5e-4, batches of 256 frames
passed over 4 times in minibatches of 64. Opponents play uniformly at
random. Evaluations as in ``stock_harness.py``; ``actor.pt`` holds the
actor's weights.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from goldrush_train.cli import TRAIN_EXTRA, check_counts, command, minutes, open_run_dir

from stock_harness import StockArgs, evaluate_at, next_evaluation, progress_line, write_outputs


@dataclass
class Args(StockArgs):
    """TorchRL's GymEnv, MaskedCategorical actor and ClipPPOLoss on Gold-v1, documented options only."""

    total_timesteps: int = 200_000
    """Frames (learner decisions) to train for, rounded up to whole batches."""
    eval_every: int = 25_000
    """Frames between evaluations."""
    frames_per_batch: int = 256
    """Frames collected per update."""
    minibatch_size: int = 64
    """Frames per gradient step."""
    update_epochs: int = 4
    """Passes over each batch."""
    learning_rate: float = 2.5e-4
    """Adam's step size."""

    def check(self) -> None:
        super().check()
        check_counts(self, "frames_per_batch", "minibatch_size", "update_epochs")


def train(args: Args) -> dict[str, Any]:
    import torch
    from tensordict.nn import TensorDictModule
    from torchrl.collectors import Collector
    from torchrl.data import Binary
    from torchrl.envs import ActionMask, GymEnv, TransformedEnv, default_info_dict_reader
    from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor, ValueOperator
    from torchrl.objectives import ClipPPOLoss
    from torchrl.objectives.value import GAE

    import goldrush_env  # noqa: F401  (registers the ids)

    args.check()
    run_dir = open_run_dir(args.run_dir, "runs/torchrl", args)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = GymEnv("goldrush_env:Gold-v1", categorical_action_encoding=True, **args.env_options())
    actions = int(env.action_spec.space.n)
    env.set_info_dict_reader(default_info_dict_reader(["action_mask"], spec=[Binary(actions, dtype=torch.bool)]))
    env = TransformedEnv(env, ActionMask())
    env.set_seed(args.seed)

    inputs = env.observation_spec["observation"].shape[-1]
    logits = MLP(in_features=inputs, out_features=actions, num_cells=[64, 64], activation_class=torch.nn.Tanh)
    actor = ProbabilisticActor(TensorDictModule(logits, in_keys=["observation"], out_keys=["logits"]),
                               in_keys={"logits": "logits", "mask": "action_mask"},
                               distribution_class=MaskedCategorical, spec=env.action_spec, return_log_prob=True)
    value = MLP(in_features=inputs, out_features=1, num_cells=[64, 64], activation_class=torch.nn.Tanh)
    critic = ValueOperator(value, in_keys=["observation"])
    loss_module = ClipPPOLoss(actor, critic, entropy_coeff=0.01)
    advantage = GAE(gamma=0.99, lmbda=0.95, value_network=critic)
    optimizer = torch.optim.Adam(loss_module.parameters(), lr=args.learning_rate)

    def choose(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            scores = logits(torch.as_tensor(observations, dtype=torch.float32))
        return np.where(masks, scores.numpy(), -np.inf).argmax(axis=1)

    batches = -(-args.total_timesteps // args.frames_per_batch)  # whole batches, as SB3 rounds up to whole rollouts
    collector = Collector(env, actor, frames_per_batch=args.frames_per_batch,
                          total_frames=batches * args.frames_per_batch, auto_register_policy_transforms=True)
    evaluations: list[dict[str, Any]] = []
    frames, next_eval = 0, args.eval_every
    started = time.perf_counter()
    for batch in collector:
        advantage(batch)
        for _ in range(args.update_epochs):
            for minibatch in batch.reshape(-1)[torch.randperm(batch.numel())].split(args.minibatch_size):
                losses = loss_module(minibatch)
                loss = losses["loss_objective"] + losses["loss_critic"] + losses["loss_entropy"]
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        frames += batch.numel()
        if frames >= next_eval or frames >= args.total_timesteps:
            rows = evaluate_at(frames, choose, args)
            evaluations += rows
            print(progress_line(rows, minutes(time.perf_counter() - started)), flush=True)
            next_eval = next_evaluation(frames, args.eval_every)
    collector.shutdown()
    torch.save(logits.state_dict(), run_dir / "actor.pt")
    return write_outputs(run_dir, args, evaluations, time.perf_counter() - started, "TorchRL PPO")


@command("examples/torchrl_stock.py", needs=(*TRAIN_EXTRA, "torchrl", "tensordict"),
         extra="train,torchrl")
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    import tyro

    return train(tyro.cli(Args, args=argv, prog="python examples/torchrl_stock.py"))


if __name__ == "__main__":
    main()
