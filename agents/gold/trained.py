"""Trained models as players: the policy network of :mod:`goldrush_train.gold.network`, run in numpy.

A model is a ``.npz`` file of the network's weights (``python -m goldrush_train.gold.ppo`` writes
one at the end of a run, beside its MaskablePPO checkpoints). Playing it
needs only numpy; a MaskablePPO ``.zip`` checkpoint also loads when torch is
installed. The package ships two models for each number of players (:func:`shipped_model`), each entrant
playing the one for the game's number of players: ``"taught"``, trained with a teacher, and ``"scratch"``,
learned with none.

A model file records the number of players it was trained for (``config.num_players``); played at
another number it plays on, with a :class:`~goldrush_agents.weights.ModelSizeWarning` naming the file and both
numbers.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.cards import MAX_PLAYERS, MIN_PLAYERS, NUM_POSITIONS
from goldrush_env.gold.encoder import OBSERVATION_SIZE, SLICES
from goldrush_env.gold.variants import ACTION_TYPES, OBSERVATION_TYPES, PAIR_LAYOUT, kind_positions, pair_features
from goldrush_env.policy import SeatView, SeededPolicy

from goldrush_agents import check_renamed
from goldrush_agents.weights import ModelSizeWarning  # noqa: F401  (re-exported: players of Gold warn with it)
from goldrush_agents.weights import load_weights, one_blas_thread, tanh_mlp, tanh_mlp_layers, warn_size


SHIPPED = ("taught", "scratch")
"""The entrants the package ships a model of for each number of players."""


def shipped_model(num_players: int, name: str = "taught") -> Path:
    """Where the package keeps entrant ``name``'s model for ``num_players`` (2 to 5) seats:
    ``models/taught_2p.npz`` (``python -m goldrush_train.gold.recipe --seed 0 --ship`` writes it),
    ``taught_3p.npz`` to ``taught_5p.npz`` (``python -m goldrush_train.gold.sizes --num-players N --ship``), and
    ``scratch_2p.npz`` to ``scratch_5p.npz`` (``python -m goldrush_train.gold.scratch --num-players N --ship``). A
    retired name (``"ppo"``) is refused with its new one."""
    num_players = check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
    if name not in SHIPPED:
        check_renamed(name)
        raise GoldrushEnvError(f"the package ships no model called {name!r}: it ships {list(SHIPPED)}")
    return Path(__file__).with_name("models") / f"{name}_{num_players}p.npz"


@dataclass(frozen=True)
class Shipped:
    """The package's models of one entrant, one per number of players (:func:`shipped_model`): given to
    :class:`TrainedPolicy` in place of a file, it plays the one for each game's number of players."""

    name: str = "taught"

    def __post_init__(self) -> None:
        shipped_model(2, self.name)  # the name is checked

    def path(self, num_players: int) -> Path:
        return shipped_model(num_players, self.name)


SHIPPED_MODEL = shipped_model(2)
"""The 2-player model the package ships (``python -m goldrush_train.gold.recipe --seed 0 --ship`` reproduces it)."""
SHIPPED_SCRATCH_MODEL = shipped_model(2, "scratch")
"""The 2-player model learned from scratch, with no teacher (``python -m goldrush_train.gold.scratch --ship``
writes it)."""

BOARD_SIZE = SLICES["cards"].stop
"""The board planes come first in the observation, plane by plane (position fastest)."""
PLANES = BOARD_SIZE // NUM_POSITIONS
GLOBALS = OBSERVATION_SIZE - BOARD_SIZE
"""Game-wide features after the board."""
PAIR_PLANES = len(PAIR_LAYOUT)
"""The planes ``observation="pairs"`` adds; a GoldNet trained on it reads them beside each position's own."""
_WEIGHTS = ("globals", "cell1", "cell2", "logit", "value1", "value2")
_SEATS = SLICES["seats"]
CHOICES = ("position", "move")
"""What a deterministic :class:`TrainedPolicy` takes the most likely of (see its ``choose``)."""


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0, out=x)


class GoldNetNumpy:
    """The forward pass of :class:`goldrush_train.gold.network.GoldNet` in numpy (float32)."""

    def __init__(self, weights: dict[str, Any]) -> None:
        missing = [f"{layer}.{kind}" for layer in _WEIGHTS for kind in ("weight", "bias")
                   if f"{layer}.{kind}" not in weights]
        if missing:
            raise GoldrushEnvError(f"not a GoldNet model: missing weights {missing}")
        self.layers = {layer: (np.asarray(weights[f"{layer}.weight"], np.float32).T.copy(),
                               np.asarray(weights[f"{layer}.bias"], np.float32))
                       for layer in _WEIGHTS}
        context = self.layers["globals"][0].shape[1]
        self.pairs = str(weights.get("config.observation", "plain")) == "pairs"
        planes = PLANES + (PAIR_PLANES if self.pairs else 0)
        if self.layers["globals"][0].shape[0] != GLOBALS or self.layers["cell1"][0].shape[0] != planes + context:
            raise GoldrushEnvError(f"model expects {self.layers['globals'][0].shape[0]} game-wide features and "
                                   f"{self.layers['cell1'][0].shape[0] - context} planes a position; this version of "
                                   f"the observation has {GLOBALS} and {planes}")

    def _dense(self, name: str, x: np.ndarray) -> np.ndarray:
        weight, bias = self.layers[name]
        return x @ weight + bias

    def _per_cell(self, name: str, cells: np.ndarray, table: np.ndarray) -> np.ndarray:
        """Layer ``name`` on each position's ``cells`` joined with the ``table``-wide features, as the sum of its
        two halves: the table-wide half is computed once per table, not once per position."""
        weight, bias = self.layers[name]
        split = cells.shape[-1]
        return cells @ weight[:split] + (table @ weight[split:] + bias)[:, None, :]

    def forward(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(logits (batch, 64), values (batch,)) for observations of shape (batch, OBSERVATION_SIZE); of a longer
        vector (``observation="pairs"``) the network reads the plain part, which comes first."""
        obs = np.asarray(observations, np.float32)[:, :OBSERVATION_SIZE]
        batch = obs.shape[0]
        board = obs[:, :BOARD_SIZE].reshape(batch, PLANES, NUM_POSITIONS).transpose(0, 2, 1)
        if self.pairs:  # a model of observation="pairs" computes its planes from the plain vector
            extra = pair_features(obs).reshape(batch, PAIR_PLANES, NUM_POSITIONS).transpose(0, 2, 1)
            board = np.concatenate([board, extra], axis=2)
        g = _relu(self._dense("globals", obs[:, BOARD_SIZE:]))
        h = _relu(self._per_cell("cell1", board, g))
        pooled = np.concatenate([h.mean(axis=1), h.max(axis=1)], axis=1)
        h = _relu(self._per_cell("cell2", h, pooled))
        summary = np.concatenate([h.mean(axis=1), h.max(axis=1), g], axis=1)
        logits = self._dense("logit", h)[..., 0]
        values = self._dense("value2", _relu(self._dense("value1", summary)))[:, 0]
        return logits, values


class MlpNumpy:
    """A plain MLP policy in numpy: ``actor.0``, ``actor.2``, ... linear layers with tanh between them, over the
    observation the model was trained on (``config.observation``: ``"plain"``, or ``"pairs"`` or ``"kinds"``,
    which it computes from the plain vector itself, so it plays in any environment), with logits over the actions
    it was trained on (``config.action``: ``"positions"``, or ``"kinds"``: :attr:`kinds` is then true). Written by
    ``python -m goldrush_train.gold.scratch --network mlp``."""

    def __init__(self, weights: dict[str, Any]) -> None:
        layers = tanh_mlp_layers(weights)
        self.observation = str(weights.get("config.observation", "plain"))
        action = str(weights.get("config.action", "positions"))
        if action not in ACTION_TYPES:
            raise GoldrushEnvError(f"model says config.action = {action!r}, not one of {list(ACTION_TYPES)}")
        if self.observation not in OBSERVATION_TYPES:
            raise GoldrushEnvError(f"model says config.observation = {self.observation!r}, not one of "
                                   f"{list(OBSERVATION_TYPES)}")
        self.kinds = action == "kinds"
        size = OBSERVATION_TYPES[self.observation].size
        if layers[0][0].shape[0] != size:
            raise GoldrushEnvError(f"model expects {layers[0][0].shape[0]} inputs, the {self.observation!r} "
                                   f"observation "
                                f"of this version has {size}")
        if layers[-1][0].shape[1] != ACTION_TYPES[action].size:
            raise GoldrushEnvError(f"model has {layers[-1][0].shape[1]} outputs, the {action!r} actions of this "
                                   f"version "
                                f"are {ACTION_TYPES[action].size}")
        self.layers = layers

    def forward(self, observations: np.ndarray) -> tuple[np.ndarray, None]:
        """(logits (batch, actions), None): the policy's logits for plain (or longer) observation vectors."""
        x = np.asarray(observations, np.float32)[:, :OBSERVATION_SIZE]
        if self.observation != "plain":
            x = OBSERVATION_TYPES[self.observation].from_plain(x)
        return tanh_mlp(self.layers, x), None


def network_of(weights: dict[str, Any]) -> GoldNetNumpy | MlpNumpy:
    """The numpy network a model file holds: :class:`MlpNumpy` if it says ``config.network = "mlp"``, else
    :class:`GoldNetNumpy`."""
    return MlpNumpy(weights) if str(weights.get("config.network", "goldnet")) == "mlp" else GoldNetNumpy(weights)


def table_sizes(observations: np.ndarray) -> np.ndarray:
    """The number of players of each observation vector's game (its ``seats`` slice)."""
    return np.rint(np.asarray(observations)[:, _SEATS].sum(axis=1)).astype(np.int64)


def load_network(path: str | Path) -> tuple[GoldNetNumpy | MlpNumpy, str, int | None]:
    """The numpy network of a model file, what it says to choose by (``config.choose``, else ``"position"``) and
    the number of players it was trained for (``config.num_players``, else None: files written before it was
    recorded).

    A file is read once while it is unchanged: its players share one network (the forward pass only reads the
    weights), so a server playing many games against one model holds one copy of it."""
    path = Path(path)
    try:
        stat = path.stat()
    except OSError:
        stamp = None  # load_weights names the problem
    else:
        stamp = (stat.st_mtime_ns, stat.st_size)
    if stamp is None:
        load_weights(path)
    return _load_network(str(path), stamp)


@functools.lru_cache(maxsize=16)
def _load_network(path: str, stamp: tuple[int, int]) -> tuple[GoldNetNumpy | MlpNumpy, str, int | None]:
    weights = load_weights(path)
    try:
        net = network_of(weights)
    except GoldrushEnvError as error:
        raise GoldrushEnvError(f"{path!r} cannot be played: {error}") from None
    size = weights.get("config.num_players")
    return net, str(weights.get("config.choose", "position")), None if size is None else int(size)


class TrainedPolicy(SeededPolicy):
    """A trained model following the policy protocol.

    ``path`` is a model file, or a :class:`Shipped` entrant (``None``: ``Shipped("taught")``, the entrant
    ``"taught"``): the package's model of that entrant for the number of players of each game it is asked about. A
    file that records the number of players it was trained for plays at another with a :class:`ModelSizeWarning`,
    once per number of players.

    ``deterministic=True`` (default) plays the most likely legal flip;
    ``False`` samples from the policy with the policy's own seeded generator.
    ``choose`` says what "most likely" is taken over: ``"position"``, the
    single position with the highest probability; ``"move"``, the move
    with the highest probability summed over the positions it stands for
    (positions the observation cannot tell apart, such as every unknown card,
    or two remembered cards of one kind), then the first of its positions. A
    network fitted to a search's visit shares needs ``"move"``: the share of
    "an unknown card", spread thin over many positions, is otherwise lost to
    a remembered card with a smaller share of its own; a network fitted to
    the moves plays better by move too (docs/experiments.md). ``None`` (default):
    what the model file says (``goldrush_train.gold.ppo`` writes ``"move"`` for a network
    fitted to visit shares), else ``"position"``.
    """

    name = "taught"

    def __init__(self, path: str | Path | Shipped | None = None, seed: int | None = None, deterministic: bool = True,
                 choose: str | None = None) -> None:
        super().__init__(seed)
        if choose is not None and choose not in CHOICES:
            raise GoldrushEnvError(f"choose must be None or one of {list(CHOICES)}, got {choose!r}")
        self.shipped = path if isinstance(path, Shipped) else Shipped() if path is None else None
        """The entrant whose shipped models play, one per number of players; ``None`` for a model file."""
        self.path = None if self.shipped else Path(path)
        self.deterministic = bool(deterministic)
        self._choose = choose
        self._warned: set[int] = set()
        self.net, self.choose, self.num_players = None, choose, None
        if self.path is not None:
            self.net, saved_choice, self.num_players = load_network(self.path)
            self.choose = self._choice(self.path, saved_choice)

    def _choice(self, path: Path, saved_choice: str) -> str:
        choice = saved_choice if self._choose is None else self._choose
        if choice not in CHOICES:
            raise GoldrushEnvError(f"{str(path)!r} says to choose by {choice!r}, not one of {list(CHOICES)}")
        return choice

    def network(self, num_players: int) -> tuple[GoldNetNumpy | MlpNumpy, str]:
        """The network that plays a game of ``num_players`` and what it chooses by: the model file's (with a
        :class:`ModelSizeWarning` if it was trained for another number of players), or the package's for that number."""
        if self.path is not None:
            self._check_size(num_players)
            return self.net, self.choose
        if not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise GoldrushEnvError(f"an observation of a {num_players}-player game (its seats slice), not "
                                   f"{MIN_PLAYERS} to {MAX_PLAYERS}: the package has no model for it")
        path = self.shipped.path(num_players)
        if not path.is_file():
            raise GoldrushEnvError(f"the package has no {num_players}-player {self.shipped.name!r} model at "
                                   f"{str(path)!r}")
        net, saved_choice, _ = load_network(path)
        return net, self._choice(path, saved_choice)

    def _check_size(self, num_players: int) -> None:
        """Warn, once per number of players, that the model file plays a game of another number than it records."""
        if self.num_players not in (None, num_players) and MIN_PLAYERS <= num_players <= MAX_PLAYERS \
                and num_players not in self._warned:
            self._warned.add(num_players)
            warn_size(self.path, self.num_players, num_players)

    def act(self, view: SeatView) -> int:
        return int(self.act_batch(view.observation[None, :], view.action_mask[None, :])[0])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Flips for a batch of observations and their legal-position masks (games of any numbers of players)."""
        observations = np.asarray(observations)
        masks = np.asarray(masks, bool)
        if not masks.any(axis=1).all():
            raise GoldrushEnvError("a mask with no legal position was given to the trained policy")
        sizes = table_sizes(observations)
        if self.path is not None:  # one network for every number of players; another number only warns
            for size in np.unique(sizes):
                self._check_size(int(size))
            return self._flips(self.net, self.choose, observations, masks)
        flips = np.empty(len(observations), dtype=np.int64)
        for size in np.unique(sizes):
            rows = np.flatnonzero(sizes == size)
            net, choose = self.network(int(size))
            flips[rows] = self._flips(net, choose, observations[rows], masks[rows])
        return flips

    def _flips(self, net: GoldNetNumpy | MlpNumpy, choose: str, observations: np.ndarray,
               masks: np.ndarray) -> np.ndarray:
        with one_blas_thread():
            logits, _ = net.forward(observations)
        if getattr(net, "kinds", False):
            return self._kind_flips(observations, masks, logits)
        logits = np.where(masks, logits, -np.inf)
        if self.deterministic:
            return self.most_likely(observations, logits, choose)
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        return np.array([self.rng.choice(NUM_POSITIONS, p=p) for p in probs])

    def _kind_flips(self, observations: np.ndarray, masks: np.ndarray, logits: np.ndarray) -> np.ndarray:
        """A model of ``action="kinds"`` picks a kind (the most likely legal one, or one drawn from its policy), then
        a position holding that kind: the first (the seat cannot tell them apart), or one drawn uniformly as the
        environment draws it."""
        options = kind_positions(observations[:, :OBSERVATION_SIZE], masks)  # (batch, kinds, 64)
        logits = np.where(options.any(axis=2), logits, -np.inf)
        if self.deterministic:
            kinds = logits.argmax(axis=1)
        else:
            probs = np.exp(logits - logits.max(axis=1, keepdims=True))
            kinds = np.array([self.rng.choice(len(p), p=p / p.sum()) for p in probs])
        chosen = options[np.arange(len(kinds)), kinds]
        if self.deterministic:
            return chosen.argmax(axis=1)
        return np.array([self.rng.choice(np.flatnonzero(row)) for row in chosen])

    def most_likely(self, observations: np.ndarray, logits: np.ndarray, choose: str | None = None) -> np.ndarray:
        """The flip to play for each row of ``logits`` (-inf at illegal positions), by ``choose`` (default:
        :attr:`choose`)."""
        if (choose or self.choose) == "move":
            return best_moves(observations, logits)
        return logits.argmax(axis=1)

    def __repr__(self) -> str:
        where = self.shipped if self.path is None else repr(str(self.path))
        return f"TrainedPolicy({where}, deterministic={self.deterministic}, choose={self.choose!r})"


def best_moves(observations: np.ndarray, logits: np.ndarray) -> np.ndarray:
    """:func:`best_move` for each row of ``observations`` and ``logits``."""
    return np.array([best_move(obs, row) for obs, row in zip(np.asarray(observations), np.asarray(logits))],
                    dtype=np.int64)


def best_move(observation: np.ndarray, logits: np.ndarray) -> int:
    """The first legal position of the most likely move: legal positions (finite ``logits``) whose board features
    are the same are one move, and a move's probability is the sum of theirs. The positions of one move differ
    in nothing the network sees, so their logits differ only by rounding, which must not pick the flip."""
    legal = np.flatnonzero(np.isfinite(logits))
    features = observation[:BOARD_SIZE].reshape(PLANES, NUM_POSITIONS)[:, legal].T
    _, move = np.unique(features, axis=0, return_inverse=True)
    move = move.reshape(-1)
    mass = np.bincount(move, weights=np.exp(logits[legal] - logits[legal].max()))
    return int(legal[np.argmax(move == mass.argmax())])
