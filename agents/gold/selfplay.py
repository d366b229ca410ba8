"""``selfplay``: a value network learned from its own games, played through one turn of expectimax, at any table
size.

The player reads the public state (:mod:`goldrush_agents.gold.turns`; perfect memory, seen from the seat to
move) and chooses like TD-Gammon: it looks one whole turn ahead, over every first flip (a remembered kind of card,
or an unseen card, whose kind is a chance outcome with its exact odds), every second flip after it, and the
outcome, and values each state where the next seat is to move by its network: a win share for every seat, so
that at three to five players each seat looks after its own share (max-n). Where the game has ended or is
decided, the values are exact. The move played is the one with the best expected value for the seat to move.
``depth=0`` plays the network's policy head instead, with no lookahead (the network alone); ``depth=2`` searches
the next seat's turn too.

The networks are trained by :mod:`goldrush_train.gold.selfplay` from the rules alone: no scripted player's
decisions and no scripted opponent, only its own games. One model ships per table size (:func:`shipped_model`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from goldrush_env.checks import is_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.cards import TABLES
from goldrush_env.policy import SeatView, SeededPolicy

from goldrush_agents.weights import one_blas_thread
from goldrush_agents.gold.turns import Games, Search, num_features, of_view, position_of, rules, write_features

MODELS_DIR = Path(__file__).with_name("models")
TABLE_MODELS = {2: ("full", "quarter"), 3: ("full",), 4: ("full",), 5: ("full",)}
"""The tables each table size ships a model for; any other table plays the full table's."""
CHUNK = 256
"""The most games one search takes at once (:meth:`SelfPlayAgent.values_many`), which bounds its memory."""
TIE_TOLERANCE = 1e-6
"""Options whose values differ by less are equal. The network computes in float32, and the same row can come out
a few units of its last place apart in matrices of other sizes (the BLAS kernels sum in other orders): a
tolerance above that noise lets one search of many games choose as searches of one game at a time do."""


def shipped_model(num_players: int, table: str = "full") -> Path:
    """The shipped model for ``table`` at ``num_players`` (:data:`TABLE_MODELS`)."""
    if num_players not in TABLE_MODELS:
        raise GoldrushEnvError(f"selfplay ships models for {sorted(TABLE_MODELS)} players, not {num_players!r}")
    return MODELS_DIR / f"selfplay_{num_players}p_{table if table in TABLE_MODELS[num_players] else 'full'}.npz"


class Network:
    """The numpy forward pass of a model file: a tanh MLP with a value head (each seat's win share, seats counted
    from the mover, through a softmax) and a policy head (logits over the kinds and an unseen card)."""

    REQUIRED = ("layer0.weight", "layer0.bias", "value.weight", "value.bias", "policy.weight", "policy.bias",
                "config.num_players")

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        if not path.is_file():
            raise GoldrushEnvError(f"no selfplay model at {str(path)!r}")
        with np.load(path, allow_pickle=False) as data:
            self._read({key: data[key] for key in data.files}, str(path))
        self.path = path

    @classmethod
    def of_arrays(cls, arrays: dict[str, np.ndarray], source: str = "the arrays") -> "Network":
        """The network of a model file's arrays held in memory (what the learner values its leaves with)."""
        network = cls.__new__(cls)
        network._read(arrays, source)
        network.path = None
        return network

    def _read(self, arrays: dict[str, np.ndarray], source: str) -> None:
        missing = [key for key in self.REQUIRED if key not in arrays]
        if missing:
            raise GoldrushEnvError(f"{source} is not a selfplay model: it has no {', '.join(missing)}")
        count = sum(key.startswith("layer") for key in arrays) // 2
        self.layers = [(arrays[f"layer{i}.weight"].T.astype(np.float32).copy(),
                        arrays[f"layer{i}.bias"].astype(np.float32)) for i in range(count)]
        self.value_head = (arrays["value.weight"].T.astype(np.float32).copy(), arrays["value.bias"].astype(np.float32))
        self.policy_head = (arrays["policy.weight"].T.astype(np.float32).copy(),
                            arrays["policy.bias"].astype(np.float32))
        self.num_players = int(arrays["config.num_players"])
        if not is_int(self.num_players, 2, 5) or self.value_head[0].shape[1] != self.num_players:
            raise GoldrushEnvError(f"{source}: its value head gives {self.value_head[0].shape[1]} seats, its config "
                                   f"says {self.num_players} players")
        if self.layers[0][0].shape[0] != num_features(self.num_players):
            raise GoldrushEnvError(f"{source} takes {self.layers[0][0].shape[0]} features, this version "
                                   f"{num_features(self.num_players)} at {self.num_players} players")

    def body(self, x: np.ndarray) -> np.ndarray:
        for weight, bias in self.layers:
            x = np.tanh(x @ weight + bias)
        return x

    def value(self, x: np.ndarray) -> np.ndarray:
        """Each seat's win share ``(n, num_players)`` at feature rows ``x``, seats counted from the row's mover."""
        weight, bias = self.value_head
        z = (self.body(x) @ weight + bias).astype(np.float64)
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    def policy(self, x: np.ndarray) -> np.ndarray:
        weight, bias = self.policy_head
        return self.body(x) @ weight + bias


def legal_options(games: Games) -> np.ndarray:
    """The options open to game 0's mover: the remembered kinds, and an unseen card (``num_kinds``) if any is left."""
    options = np.flatnonzero(games.known[0])
    return np.append(options, games.known.shape[1]) if games.unseen[0].sum() else options


class SelfPlayAgent(SeededPolicy):
    """The learned player (module docstring); any table size, made for perfect memory (under human memory it
    plays what its seat remembers as if everyone remembered the same).

    ``depth``: 1 (default) looks one turn ahead through the network's values; 2 looks two turns ahead (the next
    seat's answer to each outcome searched as its own turn, about a hundred times the work); 0 plays the network's
    policy head alone. ``path``: a model file (default: the shipped model of the table being played,
    :func:`shipped_model`).
    Ties between moves of equal value, and which position of a kind is turned, are drawn from the seeded
    generator."""

    name = "selfplay"

    def __init__(self, seed: int | None = None, depth: int = 1, path: str | Path | None = None) -> None:
        super().__init__(seed)
        if not is_int(depth, 0, 2):
            raise GoldrushEnvError(f"depth must be 0 (the network alone), 1 or 2 (turns of lookahead), got {depth!r}")
        self.depth = int(depth)
        self.path = None if path is None else Path(path)
        self._networks: dict[Path, Network] = {}
        self._searches: dict[tuple[Path, int], Search] = {}
        if self.path is not None:
            self._network(self.path)

    def __repr__(self) -> str:
        return f"SelfPlayAgent(depth={self.depth}, path={self.path})"

    def _network(self, path: Path) -> Network:
        if path not in self._networks:
            self._networks[path] = Network(path)
        return self._networks[path]

    def choose(self, view: SeatView) -> tuple[int, np.ndarray | None]:
        """The option for ``view`` (a kind in the mover's frame, or ``num_kinds`` for an unseen card), with every
        option's value to the mover (NaN where closed; ``None`` at depth 0)."""
        values = self.values_many([view])[0]
        return self._pick(values), (None if self.depth == 0 else values)

    def values_many(self, views: list[SeatView]) -> np.ndarray:
        """Per view (all of one table size and table) and option: its value to the mover, NaN where closed; at
        depth 0 the policy head's logits, NaN where closed. The views' searches share each call of the network."""
        view = views[0]
        if any((v.num_players, v.rush_at) != (view.num_players, view.rush_at) for v in views):
            raise GoldrushEnvError("values_many takes views of one table size and one table")
        path = self.path or shipped_model(view.num_players, _table_of(view))
        network = self._network(path)
        if network.num_players != view.num_players:
            raise GoldrushEnvError(f"{path} plays {network.num_players}-player games, got a view of {view.num_players}")
        games = Games(*(np.concatenate(arrays) for arrays in zip(*(of_view(v) for v in views))))
        if self.depth == 0:
            x = np.zeros((len(views), num_features(view.num_players)), np.float32)
            write_features(games, rules(view.num_players), x)
            logits = network.policy(x).astype(np.float64)
            closed = np.ones_like(logits, dtype=bool)
            for i in range(len(views)):
                closed[i, legal_options(Games(*(array[i:i + 1] for array in games)))] = False
            return np.where(closed, np.nan, logits)
        key = (path, view.rush_at)
        if key not in self._searches:
            self._searches[key] = Search(view.num_players, view.rush_at, network.value)
        return np.concatenate([self._searches[key].options(Games(*(array[i:i + CHUNK] for array in games)),
                                                           self.depth)[1] for i in range(0, len(views), CHUNK)])

    def _pick(self, values: np.ndarray) -> int:
        """The best option; at depth 1 or more, one of the equals drawn from the generator (within
        :data:`TIE_TOLERANCE`)."""
        if self.depth == 0:
            return int(np.nanargmax(values))
        best = np.flatnonzero(values >= np.nanmax(values) - TIE_TOLERANCE)
        return int(best[self.rng.integers(len(best))])

    def act(self, view: SeatView) -> int:
        return self.act_many([view])[0]

    def act_many(self, views: list[SeatView]) -> list[int]:
        """A position for each of several views (of one table size and table), drawn as :meth:`act` would draw
        them one view after the other."""
        with one_blas_thread():
            values = self.values_many(views)
        return [position_of(view, self._pick(row), self.rng) for view, row in zip(views, values)]


def _table_of(view: SeatView) -> str:
    return next((name for name, table in TABLES.items() if table.rush_at == view.rush_at), "full")


__all__ = ["Network", "SelfPlayAgent", "TABLE_MODELS", "TIE_TOLERANCE", "legal_options", "shipped_model"]
