"""The policy network: the same small layers applied at every position of the table.

The observation (:mod:`goldrush_env.gold.encoder`) is 32 planes over the 64
positions plus a vector of game-wide features. The rules do not care where a
card lies, so the network does not either: each position's 32 values, with
an embedding of the game-wide features, go through one shared layer; the
positions are then summarised (mean and max over the table) and that summary
is fed back to every position through a second shared layer, so a position
can "see" the rest of the table (is there a known miner for this gold?).
A flip's logit is read off its own position; the value comes from the
summary. The same weights serve every number of players, and there are few
of them (about 29k at the default widths).

:class:`GoldNet` is the torch module; :class:`MaskableGoldPolicy` plugs it
into sb3-contrib's MaskablePPO. :mod:`goldrush_agents.gold.trained` runs the same
computation in numpy, so a trained model plays without torch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from goldrush_agents.gold.trained import BOARD_SIZE, GLOBALS, PAIR_PLANES, PLANES
from goldrush_env.gold.cards import NUM_POSITIONS
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.encoder import OBSERVATION_SIZE


class GoldNet(nn.Module):
    """Per-position logits and a value from one observation (see the module docstring)."""

    def __init__(self, width: int = 64, context: int = 32, pairs: bool = False) -> None:
        super().__init__()
        self.width, self.context, self.pairs = width, context, pairs
        self.globals = nn.Linear(GLOBALS, context)
        self.cell1 = nn.Linear(PLANES + (PAIR_PLANES if pairs else 0) + context, width)
        self.cell2 = nn.Linear(width + 2 * width, width)
        self.logit = nn.Linear(width, 1)
        self.value1 = nn.Linear(2 * width + context, width)
        self.value2 = nn.Linear(width, 1)

    def trunk(self, observation: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Per-position features (batch, 64, width) and the table summary (batch, 2 * width + context)."""
        batch = observation.shape[0]
        board = observation[:, :BOARD_SIZE].reshape(batch, PLANES, NUM_POSITIONS).transpose(1, 2)
        if self.pairs:  # observation="pairs": its planes join each position's features
            extra = observation[:, OBSERVATION_SIZE:].reshape(batch, PAIR_PLANES, NUM_POSITIONS).transpose(1, 2)
            board = torch.cat([board, extra], dim=2)
        g = torch.relu(self.globals(observation[:, BOARD_SIZE:OBSERVATION_SIZE]))
        h = torch.relu(_shared_then_broadcast(self.cell1, board, g))
        pooled = torch.cat([h.mean(dim=1), h.max(dim=1).values], dim=1)  # max, not amax: a far cheaper backward
        h = torch.relu(_shared_then_broadcast(self.cell2, h, pooled))
        summary = torch.cat([h.mean(dim=1), h.max(dim=1).values, g], dim=1)
        return h, summary

    def forward(self, observation: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits (batch, 64), values (batch,))."""
        h, summary = self.trunk(observation)
        return self.logit(h).squeeze(-1), self.value2(torch.relu(self.value1(summary))).squeeze(-1)


def _shared_then_broadcast(layer: nn.Linear, cells: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    """``layer`` applied to each position's ``cells`` features joined with the ``table``-wide ones, computed as
    the sum of its two halves, so that the table-wide half is multiplied once per table, not once per position
    (the same result as concatenating, at a fraction of the cost)."""
    split = cells.shape[-1]
    per_cell = cells @ layer.weight[:, :split].T
    per_table = table @ layer.weight[:, split:].T + layer.bias
    return per_cell + per_table.unsqueeze(1)


class _Extractor(nn.Module):
    """SB3's "mlp_extractor" slot: latent for the actor = the 64 logits, for the critic = the value."""

    def __init__(self, net: GoldNet) -> None:
        super().__init__()
        self.net = net
        self.latent_dim_pi = NUM_POSITIONS
        self.latent_dim_vf = 1

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logits, value = self.net(features)
        return logits, value.unsqueeze(-1)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return self.net(features)[0]

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.net(features)[1].unsqueeze(-1)


class MaskableGoldPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's actor-critic with :class:`GoldNet` inside.

    ``net_kwargs`` go to :class:`GoldNet` (``width``, ``context``). The SB3
    action and value heads become identities: GoldNet already returns logits
    and a value.
    """

    def __init__(self, *args: Any, net_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> None:
        self.net_kwargs = dict(net_kwargs or {})
        kwargs.setdefault("ortho_init", False)
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = _Extractor(GoldNet(**self.net_kwargs))

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = nn.Identity()
        self.value_net = nn.Identity()
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data["net_kwargs"] = self.net_kwargs
        return data

    def gold_net(self) -> GoldNet:
        return self.mlp_extractor.net


def export_weights(net: GoldNet, num_players: int) -> dict[str, Any]:
    """The network's weights as numpy arrays, named as :mod:`goldrush_agents.gold.trained` reads them, with the
    number of players it was trained for."""
    arrays = {name: tensor.detach().cpu().numpy().copy() for name, tensor in net.state_dict().items()}
    arrays["config.num_players"] = num_players
    arrays["config.width"] = net.width
    arrays["config.context"] = net.context
    if net.pairs:
        arrays["config.observation"] = np.array("pairs")
    return arrays


def saved_weights(path: str, width: int, context: int) -> dict[str, np.ndarray]:
    """The network weights of the model at ``path`` (--init-from), refused by name unless they fit a network of
    this ``width`` and ``context``."""
    from goldrush_agents.weights import load_weights

    try:
        weights = {name: array for name, array in load_weights(path).items() if not name.startswith("config.")}
    except GoldrushEnvError as error:
        raise GoldrushEnvError(f"--init-from: {error}") from None
    expected = {name: tuple(tensor.shape) for name, tensor in GoldNet(width, context).state_dict().items()}
    found = {name: tuple(np.shape(array)) for name, array in weights.items()}
    if set(found) != set(expected):
        raise GoldrushEnvError(f"--init-from {path!r} is not a GoldNet model: it holds weights {sorted(found)}, "
                               f"the network has {sorted(expected)}")
    saved = found["cell1.weight"][0], found["globals.weight"][0]
    if saved != (width, context):
        raise GoldrushEnvError(f"--init-from {path!r} has --width {saved[0]} --context {saved[1]}, this run "
                               f"--width {width} --context {context}: give the model's")
    if found != expected:
        wrong = [f"{name} {shape} (expected {expected[name]})" for name, shape in found.items()
                 if shape != expected[name]]
        raise GoldrushEnvError(f"--init-from {path!r} does not fit this version's network: {', '.join(wrong)}")
    return weights


def load_saved_weights(net: GoldNet, path: str) -> None:
    """Put the weights of the model at ``path`` into ``net``, refused by :func:`saved_weights` unless they fit it."""
    weights = saved_weights(path, net.width, net.context)
    net.load_state_dict({name: torch.as_tensor(array) for name, array in weights.items()})


def make_agent_network(inputs: int, actions: int) -> Any:
    """CleanRL's stock agent: an actor and a critic, each two tanh layers of 64, orthogonally initialized."""

    class Tanh(nn.Module):
        """tanh as 2 sigmoid(2x) - 1: the same function, which PyTorch's CPU build computes faster than
        ``torch.tanh``."""

        def forward(self, x: Any) -> Any:
            return 2.0 * torch.sigmoid(2.0 * x) - 1.0

    def layer(fan_in: int, fan_out: int, std: float = float(np.sqrt(2))) -> nn.Linear:
        linear = nn.Linear(fan_in, fan_out)
        nn.init.orthogonal_(linear.weight, std)
        nn.init.constant_(linear.bias, 0.0)
        return linear

    def mlp(outputs: int, std: float) -> nn.Sequential:
        return nn.Sequential(layer(inputs, 64), Tanh(), layer(64, 64), Tanh(), layer(64, outputs, std))

    return nn.ModuleDict({"actor": mlp(actions, 0.01), "critic": mlp(1, 1.0)})
