"""``selfplay``: a value network learned from its own games, played through an expectimax search over one turn.

The player reads the public state (:mod:`goldrush_agents.gold.public`; 2 players, perfect memory) from its
seat's side (:func:`features`) and chooses like TD-Gammon: it looks one whole turn ahead, over every first flip
(a remembered kind of card, or an unseen card, whose kind is a chance outcome with its exact odds), every second
flip after it, and the outcome, and values each state where the other seat is next to move by its network
(exact where the game has ended or is decided). The move played is the one with the best expected value.
``depth=0`` plays the network's own policy head instead, with no lookahead (the network alone).

The network is trained by :mod:`goldrush_train.gold.selfplay` from the rules alone: no scripted player's decisions and
no scripted opponent, only its own games, each decision's search value and move as targets.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from goldrush_env.checks import is_int
from goldrush_env.errors import GoldRushError
from goldrush_env.gold.cards import TABLES
from goldrush_env.gold.view import PlayerView
from goldrush_env.policy import SeededPolicy

from goldrush_agents.weights import one_blas_thread
from goldrush_agents.gold.public import (
    GOLD_VALUE,
    KIND_OF_CARD,
    NUM_KINDS,
    PAIRS,
    RELATIVE,
    PublicState,
    is_stalemate,
)

MODELS_DIR = Path(__file__).with_name("models")
SHIPPED = {table: MODELS_DIR / f"selfplay_2p_{table}.npz" for table in ("full", "quarter")}
"""The shipped models per table (a half table plays the full table's)."""
UNKNOWN_ACTION = NUM_KINDS
"""The policy head's action "an unseen card"; actions 0..16 are relative kinds."""
NUM_ACTIONS = NUM_KINDS + 1

# --- the rules of a turn in the mover's frame (seat 0 is the mover) ------------------------------------------------

_STAY_A = np.zeros((NUM_KINDS, NUM_KINDS), dtype=np.int64)
_STAY_B = np.zeros((NUM_KINDS, NUM_KINDS), dtype=np.int64)
_GAIN = np.zeros((NUM_KINDS, NUM_KINDS), dtype=np.int64)
"""Points the mover gains (negative: the other seat gains) by turning kind a then kind b."""
_CARDS_GAIN = np.zeros((NUM_KINDS, NUM_KINDS), dtype=np.int64)
_GAIN_OTHER = np.zeros((NUM_KINDS, NUM_KINDS), dtype=np.int64)
"""Points the other seat would gain (negative: the mover gains) by turning kind a then kind b on its turn."""
for _a in range(NUM_KINDS):
    for _b in range(NUM_KINDS):
        _pair = PAIRS[_a][_b]
        if _pair is None:
            _STAY_A[_a, _b] = _STAY_B[_a, _b] = 1
            continue
        _STAY_A[_a, _b], _STAY_B[_a, _b] = _pair.first_stays, _pair.second_stays
        if _pair.gold:  # an unowned miner's gold goes to whoever turns it
            sign = -1 if _pair.receiver == 1 else 1
            _GAIN[_a, _b], _CARDS_GAIN[_a, _b] = sign * _pair.gold, sign
            _GAIN_OTHER[_a, _b] = -_pair.gold if _pair.receiver == 0 else _pair.gold
_EYE = np.eye(NUM_KINDS, dtype=np.int64)
_NEEDS = 1 + _EYE  # two cards of one kind make a pair only if two lie there

FEATURES = 3 * NUM_KINDS + 8
"""Known and unseen per kind (/4), the face-up kind (one-hot), lead (/10), gold-card lead (/5), gold left (/20),
cards left (/32), unseen cards (/32), the rush, and the most gold the mover, and the other seat, could take
with two remembered cards (/4), all from the mover's side."""


def best_pairs(known: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of remembered counts ``(n, 17)`` (mover's frame): the most points the mover could gain with two of
    them, and the most the other seat could (0 if none gains)."""
    pairs = (known[:, :, None] >= 1) & (known[:, None, :] >= _NEEDS[None])
    mover = np.where(pairs, _GAIN[None], 0).max(axis=(1, 2), initial=0)
    other = np.where(pairs, _GAIN_OTHER[None], 0).max(axis=(1, 2), initial=0)
    return mover, other


def features(known: np.ndarray, unseen: np.ndarray, face_up: np.ndarray, lead: np.ndarray, cards_lead: np.ndarray,
             rush: np.ndarray) -> np.ndarray:
    """Feature rows ``(n, FEATURES)`` of states already in the mover's frame: ``known``/``unseen`` ``(n, 17)``,
    ``face_up`` ``(n,)`` (-1 for none), the rest ``(n,)``."""
    n = len(known)
    out = np.zeros((n, FEATURES), dtype=np.float32)
    out[:, :NUM_KINDS] = known / 4.0
    out[:, NUM_KINDS:2 * NUM_KINDS] = unseen / 4.0
    rows = np.flatnonzero(face_up >= 0)
    out[rows, 2 * NUM_KINDS + face_up[rows]] = 1.0
    tail = 3 * NUM_KINDS
    out[:, tail] = lead / 10.0
    out[:, tail + 1] = cards_lead / 5.0
    out[:, tail + 2] = ((known + unseen) @ GOLD_VALUE) / 20.0
    out[:, tail + 3] = (known.sum(axis=1) + unseen.sum(axis=1) + (face_up >= 0)) / 32.0
    out[:, tail + 4] = unseen.sum(axis=1) / 32.0
    out[:, tail + 5] = rush
    mover, other = best_pairs(known)
    out[:, tail + 6] = mover / 4.0
    out[:, tail + 7] = other / 4.0
    return out


def standing(lead: np.ndarray, cards_lead: np.ndarray) -> np.ndarray:
    """The mover's win share if the game ended now (D5)."""
    return np.where(lead != 0, lead > 0, np.where(cards_lead != 0, cards_lead > 0, 0.5)).astype(np.float64)


class Network:
    """The numpy forward pass of a model file: a tanh MLP with a value head (the mover's win share, through a
    sigmoid) and a policy head (logits over :data:`NUM_ACTIONS`)."""

    REQUIRED = ("layer0.weight", "layer0.bias", "value.weight", "value.bias", "policy.weight", "policy.bias")

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        if not path.is_file():
            raise GoldRushError(f"no selfplay model at {str(path)!r}")
        with np.load(path, allow_pickle=False) as data:
            missing = [key for key in self.REQUIRED if key not in data.files]
            if missing:
                raise GoldRushError(f"{path} is not a selfplay model: it has no {', '.join(missing)}")
            count = sum(key.startswith("layer") for key in data.files) // 2
            self.layers = [(data[f"layer{i}.weight"].astype(np.float32), data[f"layer{i}.bias"].astype(np.float32))
                           for i in range(count)]
            self.value_head = (data["value.weight"].astype(np.float32), data["value.bias"].astype(np.float32))
            self.policy_head = (data["policy.weight"].astype(np.float32), data["policy.bias"].astype(np.float32))
        if self.layers[0][0].shape[1] != FEATURES:
            raise GoldRushError(f"{path} takes {self.layers[0][0].shape[1]} features, this version {FEATURES}")
        self.path = path

    def body(self, x: np.ndarray) -> np.ndarray:
        for weight, bias in self.layers:
            x = np.tanh(x @ weight.T + bias)
        return x

    def value(self, x: np.ndarray) -> np.ndarray:
        weight, bias = self.value_head
        z = self.body(x) @ weight.T + bias
        return 1.0 / (1.0 + np.exp(-z[:, 0].astype(np.float64)))

    def policy(self, x: np.ndarray) -> np.ndarray:
        weight, bias = self.policy_head
        return self.body(x) @ weight.T + bias


class Frame(NamedTuple):
    """A decision in the mover's frame."""

    known: np.ndarray
    unseen: np.ndarray
    face_up: int
    lead: int
    cards_lead: int
    rush: bool


def frame_of(state: PublicState) -> Frame:
    """``state`` seen from the seat to move (its miners are "seat 0")."""
    known, unseen = np.array(state.known, dtype=np.int64), np.array(state.unseen, dtype=np.int64)
    face_up, lead, cards_lead = state.face_up, state.lead, state.cards_lead
    if state.mover == 1:
        known, unseen, lead, cards_lead = known[RELATIVE], unseen[RELATIVE], -lead, -cards_lead
        face_up = int(RELATIVE[face_up]) if face_up >= 0 else -1
    return Frame(known, unseen, face_up, lead, cards_lead, state.rush)


class Options(NamedTuple):
    """The moves of one decision and their values to the mover."""

    actions: np.ndarray
    """Relative kinds, or :data:`UNKNOWN_ACTION`."""
    values: np.ndarray


class TurnSearch:
    """The one-turn expectimax of the module docstring, for a table whose rush starts at ``rush_at`` cards.

    ``evaluate(known, unseen, lead, cards_lead, rush)`` values states at the start of a turn, given in the frame of
    the seat to move there (arrays ``(n, 17)`` and ``(n,)``), as that seat's win share; the search calls it only
    for games not yet decided. :meth:`of_network` makes one from a value function of feature rows."""

    def __init__(self, evaluate, rush_at: int) -> None:
        self.evaluate = evaluate
        self.rush_at = rush_at

    @classmethod
    def of_network(cls, value, rush_at: int) -> "TurnSearch":
        """The search over ``value`` (feature rows -> the mover's win share), a network's value head."""
        def evaluate(known, unseen, lead, cards_lead, rush):
            return value(features(known, unseen, np.full(len(known), -1), lead, cards_lead, rush))

        return cls(evaluate, rush_at)

    def _leaf_values(self, known: np.ndarray, unseen: np.ndarray, lead: np.ndarray, cards_lead: np.ndarray
                     ) -> np.ndarray:
        """The mover's value of states ``(n, 17)`` where the other seat is next to move (mover's frame)."""
        gold_left = (known + unseen) @ GOLD_VALUE
        cards = known.sum(axis=1) + unseen.sum(axis=1)
        out = standing(lead, cards_lead)
        decided = (gold_left < np.abs(lead)) | (gold_left == 0)
        out = np.where(gold_left < np.abs(lead), (lead > 0).astype(np.float64), out)
        rows = np.flatnonzero(~decided & (cards > 0))
        if len(rows):
            k, u = known[rows][:, RELATIVE], unseen[rows][:, RELATIVE]
            rush = (cards[rows] <= self.rush_at) | is_stalemate(k + u)
            out[rows] = 1.0 - self.evaluate(k, u, -lead[rows], -cards_lead[rows], rush)
        return out

    def seconds(self, known: np.ndarray, unseen: np.ndarray, first: int, lead: int, cards_lead: int) -> Options:
        """The options for the second flip once a card of kind ``first`` is up; ``known``/``unseen`` without it."""
        return self._seconds_many(known, unseen, np.array([first]), None, lead, cards_lead)[0]

    def _seconds_many(self, known: np.ndarray, unseen: np.ndarray, firsts: np.ndarray, from_unseen: bool | None,
                      lead: int, cards_lead: int) -> list[Options]:
        """:meth:`seconds` for several first kinds at once. ``from_unseen``: whether the first card leaves the
        unseen cards or the remembered ones (``None``: it is already up, out of both)."""
        m = len(firsts)
        base_k = np.repeat(known[None], m, axis=0)
        base_u = np.repeat(unseen[None], m, axis=0)
        if from_unseen is True:
            base_u -= _EYE[firsts]
        elif from_unseen is False:
            base_k -= _EYE[firsts]
        rows_k, rows_u, rows_lead, rows_cl, index = [], [], [], [], []
        for i, a in enumerate(firsts):
            stay_a = _STAY_A[a][:, None] * _EYE[a][None, :]  # (b, kind): the first card back, per second kind
            for source in (0, 1):  # the second card remembered, or unseen
                counts = base_k[i] if source == 0 else base_u[i]
                bs = np.flatnonzero(counts)
                if not len(bs):
                    continue
                k = base_k[i][None] + stay_a[bs] + _STAY_B[a, bs][:, None] * _EYE[bs]
                u = np.repeat(base_u[i][None], len(bs), axis=0)
                if source == 0:
                    k -= _EYE[bs]
                else:
                    u -= _EYE[bs]
                rows_k.append(k)
                rows_u.append(u)
                rows_lead.append(lead + _GAIN[a, bs])
                rows_cl.append(cards_lead + _CARDS_GAIN[a, bs])
                index.append((i, source, bs))
        values = self._leaf_values(np.concatenate(rows_k), np.concatenate(rows_u), np.concatenate(rows_lead),
                                   np.concatenate(rows_cl))
        out: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in range(m)]
        start = 0
        for i, source, bs in index:
            v = values[start:start + len(bs)]
            start += len(bs)
            if source == 0:
                out[i].append((bs, v))
            else:
                weights = base_u[i][bs]
                out[i].append((np.array([UNKNOWN_ACTION]), np.array([weights @ v / weights.sum()])))
        return [Options(np.concatenate([a for a, _ in o]), np.concatenate([v for _, v in o])) for o in out]

    def firsts(self, known: np.ndarray, unseen: np.ndarray, lead: int, cards_lead: int) -> Options:
        """The options for the first flip of a normal turn."""
        actions, values = [], []
        remembered = np.flatnonzero(known)
        if len(remembered):
            for a, o in zip(remembered, self._seconds_many(known, unseen, remembered, False, lead, cards_lead)):
                actions.append(a)
                values.append(o.values.max())
        drawn = np.flatnonzero(unseen)
        if len(drawn):
            best = np.array([o.values.max() for o in self._seconds_many(known, unseen, drawn, True, lead,
                                                                          cards_lead)])
            weights = unseen[drawn]
            actions.append(UNKNOWN_ACTION)
            values.append(weights @ best / weights.sum())
        return Options(np.array(actions), np.array(values))

    def rush(self, known: np.ndarray, unseen: np.ndarray, lead: int, cards_lead: int) -> Options:
        """The options for a flip of the rush."""
        rows_k, rows_u, gains, index = [], [], [], []
        for source in (0, 1):
            counts = known if source == 0 else unseen
            ks = np.flatnonzero(counts)
            if not len(ks):
                continue
            k = np.repeat(known[None], len(ks), axis=0)
            u = np.repeat(unseen[None], len(ks), axis=0)
            (k if source == 0 else u)[np.arange(len(ks)), ks] -= 1
            rows_k.append(k)
            rows_u.append(u)
            gains.append(GOLD_VALUE[ks])
            index.append((source, ks))
        gain = np.concatenate(gains)
        values = self._leaf_values(np.concatenate(rows_k), np.concatenate(rows_u), lead + gain,
                                   cards_lead + (gain > 0))
        actions, out, start = [], [], 0
        for source, ks in index:
            v = values[start:start + len(ks)]
            start += len(ks)
            if source == 0:
                actions.append(ks)
                out.append(v)
            else:
                actions.append(np.array([UNKNOWN_ACTION]))
                out.append(np.array([unseen[ks] @ v / unseen[ks].sum()]))
        return Options(np.concatenate(actions), np.concatenate(out))

    def options(self, frame: Frame) -> Options:
        """The moves open at ``frame`` and their values to the mover."""
        if frame.rush:
            return self.rush(frame.known, frame.unseen, frame.lead, frame.cards_lead)
        if frame.face_up >= 0:
            return self.seconds(frame.known, frame.unseen, frame.face_up, frame.lead, frame.cards_lead)
        return self.firsts(frame.known, frame.unseen, frame.lead, frame.cards_lead)


def frame_features(frame: Frame) -> np.ndarray:
    """The feature row ``(1, FEATURES)`` of a decision."""
    return features(frame.known[None], frame.unseen[None], np.array([frame.face_up]), np.array([frame.lead]),
                    np.array([frame.cards_lead]), np.array([frame.rush]))


def _table_of(rush_at: int) -> str:
    return "quarter" if rush_at == TABLES["quarter"].rush_at else "full"


class SelfPlayAgent(SeededPolicy):
    """The learned player (module docstring); 2 players, perfect memory.

    ``depth``: 1 (default) looks one turn ahead through the network's values; 0 plays the network's policy head
    alone. ``path``: a model file (default: the shipped model of the table being played, :data:`SHIPPED`).
    Ties between moves of equal value, and which position of a kind is turned, are drawn from the seeded
    generator."""

    name = "selfplay"

    def __init__(self, seed: int | None = None, depth: int = 1, path: str | Path | None = None) -> None:
        super().__init__(seed)
        if not is_int(depth, 0, 1):
            raise GoldRushError(f"depth must be 0 (the network alone) or 1 (one turn of lookahead), got {depth!r}")
        self.depth = int(depth)
        self.path = None if path is None else Path(path)
        self._networks: dict[Path, Network] = {}
        if self.path is not None:
            self._network(self.path)

    def __repr__(self) -> str:
        return f"SelfPlayAgent(depth={self.depth}, path={self.path})"

    def _network(self, path: Path) -> Network:
        if path not in self._networks:
            self._networks[path] = Network(path)
        return self._networks[path]

    def choose(self, view: PlayerView) -> tuple[int, Options | None]:
        """The action (a relative kind or :data:`UNKNOWN_ACTION`) for ``view``, with the search's options."""
        state = PublicState.of(view)
        frame = frame_of(state)
        network = self._network(self.path or SHIPPED[_table_of(view.rush_at)])
        if self.depth == 0:
            logits = network.policy(frame_features(frame))[0]
            legal = legal_actions(frame)
            return int(legal[np.argmax(logits[legal])]), None
        options = TurnSearch.of_network(network.value, view.rush_at).options(frame)
        best = np.flatnonzero(options.values >= options.values.max() - 1e-9)
        return int(options.actions[best[self.rng.integers(len(best))]]), options

    def act(self, view: PlayerView) -> int:
        with one_blas_thread():
            action, _ = self.choose(view)
        return position_of(view, action, self.rng)


def legal_actions(frame: Frame) -> np.ndarray:
    """The actions open at ``frame``: the remembered kinds, and an unseen card if any is left."""
    actions = np.flatnonzero(frame.known)
    return np.append(actions, UNKNOWN_ACTION) if frame.unseen.sum() else actions


def position_of(view: PlayerView, action: int, rng: np.random.Generator) -> int:
    """A legal position of ``view`` realising ``action`` (a kind relative to the seat to move, or
    :data:`UNKNOWN_ACTION`), drawn from ``rng``."""
    legal = view.legal_positions
    if action == UNKNOWN_ACTION:
        choices = [p for p in legal if view.cards[p] < 0]
    else:
        kind = int(RELATIVE[action]) if view.current_player == 1 else action
        choices = [p for p in legal if view.cards[p] >= 0 and KIND_OF_CARD[view.cards[p]] == kind]
    if not choices:
        raise GoldRushError(f"action {action} has no legal position in this view")
    return int(choices[rng.integers(len(choices))])


__all__ = ["FEATURES", "NUM_ACTIONS", "SHIPPED", "UNKNOWN_ACTION", "Frame", "Network", "Options", "SelfPlayAgent",
           "TurnSearch", "features", "frame_of", "legal_actions", "position_of", "standing"]
