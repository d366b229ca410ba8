"""The Gymnasium environment: one learning agent at one seat, the others played by policies.

``gymnasium.make("goldrush_env:Gold-v1", ...)`` or ``GoldEnv(...)``.
The learner holds one seat (drawn each episode by default, ``seat="random"``,
or fixed with ``seat=k``); the opponents' flips happen inside :meth:`step`, so each
step returns the learner's next observation and *its* reward, losses
included. Observations are the flat vector of the AEC environment
(:mod:`goldrush_env.gold.aec` documents it); the legal actions come from
:meth:`GoldEnv.action_masks` (what sb3-contrib's MaskablePPO calls) and
``info["action_mask"]`` (both bool). Game options are those of
:class:`~goldrush_env.gold.config.EnvConfig`, with the same defaults: the
learner's actions are kinds of card (``action="kinds"``,
:mod:`goldrush_env.gold.variants`) and ``info["position"]`` is the position
its last action flipped; the opponents still choose positions. At a game's
last step ``info["winners"]`` and ``info["seat"]`` say whether the learner
won, whatever the reward. The mask
of the observation that ends a game allows action 0 alone, so that a
vector wrapper's sampler can draw the action its autoreset ignores.

A flip the rules forbid (an empty or face-up position) ends the episode
with reward -1 and ``info["illegal_action"]`` saying why, after a warning,
as PettingZoo's ``env()`` does for classic games; ``illegal_action="raise"``
raises :class:`~goldrush_env.errors.IllegalFlipError` instead. An action
outside the action space always raises.

## Two paths, one game

When every opponent has a compiled form and nothing is rendered
(``render_mode=None``), the game is played on Gold's compiled kernel
(:func:`goldrush_env.gold.kernel.advance_one`: one call per step plays the
learner's flip and the opponents' up to its next turn), four to twelve
times as fast as through the AEC environment (``benchmarks/bench.py``). The compiled forms: the default
opponents (``None``) and any :class:`~goldrush_env.policy.RandomPolicy`
play as the kernel's random player; a policy with a ``kernel_player()``
method returning a :class:`~goldrush_env.gold.vector.KernelPlayer` plays
as that (``goldrush_agents``' ``greedy`` and ``expert`` do, the same flips
as their Python selves). Any other opponent, or a ``render_mode``, and the
game runs through :attr:`game_env`, the AEC environment, as before;
:attr:`on_kernel` says which path the episode under way takes, and
:meth:`set_opponents` may change it at the next reset.

Both paths play the same game and show the same things: spaces,
observations, masks, rewards, ``info``, :meth:`view`, errors. A seed deals
the same table and seats the learner at the same seat on both (the deal is
the AEC environment's own, from the env's generator); on the kernel path,
the opponents' tie-breaks, the position a kind of card turns and the human
memory's forgetting are drawn from the game's own stream
(:class:`goldrush_env.streams.Stream`), seeded from the same
generator. ``tests/gold/test_gym_kernel.py`` replays kernel-path episodes
through the AEC path, flip for flip.

## Version History

* v1: the ids name the game (``Gold-v1``, ``GoldHalf-v1``,
  ``GoldQuarter-v1``), and the defaults are ``action="kinds"``, ``observation="kinds"``,
  ``reward="score"`` and ``seat="random"``, under which SB3's MaskablePPO
  learns as it stands (docs/libraries.md). ``GoldRush-v0``,
  ``GoldRushHalf-v0`` and ``GoldRushQuarter-v0`` are retired: each raises an
  error that names its successor and version 0's options
  (``action="positions", observation="plain", reward="win", seat=0``).
* v0: first release.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium.utils import seeding

from goldrush_env.errors import GoldrushEnvError, IllegalFlipError
from goldrush_env.gold import kernel
from goldrush_env.gold.aec import new_game, raw_env
from goldrush_env.gold.cards import EMPTY, NUM_CARD_TYPES, NUM_POSITIONS, TABLES
from goldrush_env.gold.engine import Game
from goldrush_env.gold.variants import observation_type
from goldrush_env.gold.vector import BatchedRandom, KernelPlayer, _players_of, engine_of
from goldrush_env.gold.view import UNKNOWN, PlayerView
from goldrush_env.learner import OneLearnerEnv
from goldrush_env.policy import Policy, RandomPolicy

__all__ = ["GoldEnv", "compiled_form"]

_RANDOM = BatchedRandom()


def compiled_form(policy: Policy) -> KernelPlayer | None:
    """The form of ``policy`` compiled into Gold's kernel, ``None`` if it has none: a
    :class:`~goldrush_env.policy.RandomPolicy` that keeps its ``act`` is the kernel's random player; any other
    policy answers for itself with a ``kernel_player()`` method (this package does not know the players of
    ``goldrush_agents``)."""
    if isinstance(policy, RandomPolicy) and type(policy).act is RandomPolicy.act:
        return _RANDOM
    make = getattr(policy, "kernel_player", None)
    if make is None:
        return None
    player = make()
    if player is not None and not isinstance(player, KernelPlayer):
        raise GoldrushEnvError(f"{policy!r}.kernel_player() returned {player!r}: expected a KernelPlayer or None")
    return player


class GoldEnv(OneLearnerEnv):
    """Gold for one learner. ``opponents``: ``None`` (uniformly random legal flips),
    one policy for every other seat, or one policy per other seat, in seat order
    after the learner's. ``seat``: the learner's seat, or ``"random"``.
    ``illegal_action``: ``"terminate"`` (end the episode with -1) or ``"raise"``.
    The game runs on the compiled kernel when it can (see the module docstring)."""

    metadata = {"render_modes": list(raw_env.metadata["render_modes"]), "render_fps": 2}
    error = GoldrushEnvError
    illegal_error = IllegalFlipError

    def __init__(self, opponents: Policy | Sequence[Policy] | None = None, seat: int | str = "random",
                 illegal_action: str = "terminate", **config: Any) -> None:
        aec = raw_env(**config)
        self.on_kernel = False
        """Whether the episode under way plays on the compiled kernel (set at each :meth:`reset`)."""
        self._game = _CompiledGame(aec)
        self._position: int | None = None  # the position the learner's last kind turned, this episode
        super().__init__(aec, opponents, seat, illegal_action)

    # --- which path ------------------------------------------------------------------

    @property
    def game_env(self) -> raw_env:
        """The AEC environment of the game. On the AEC path it plays the game; on the kernel path it is brought
        to the kernel's game when read, by replaying the flips so far (the same table, flips, scores and
        history; with human memory its seats forget by their own draws), a copy to read, not to step."""
        if self.on_kernel:
            self._game.replay_into(self._aec)
        return self._aec

    @game_env.setter
    def game_env(self, env: raw_env) -> None:
        self._aec = env

    def set_opponents(self, opponents: Policy | Sequence[Policy] | None) -> None:
        super().set_opponents(opponents)
        forms = [compiled_form(policy) for policy in self.opponents]
        self._compiled = None not in forms and self._game.prepare(forms)

    # --- the Gymnasium API ---------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        self.on_kernel = self._compiled and self.render_mode is None
        self._position = None
        if not self.on_kernel:
            return super().reset(seed=seed, options=options)
        gym.Env.reset(self, seed=seed)
        # The generator's draws are the AEC path's, one for one: the seat, the opponents' seeds, the game's seed.
        n = self.config.num_players
        if self.seat_option == "random":
            self.seat = int(self.np_random.integers(n))
        self._agent = self._aec.possible_agents[self.seat]
        opponent_seeds = self.np_random.integers(0, 2**63, size=n - 1)
        for policy, opponent_seed in zip(self.opponents, opponent_seeds):
            policy.reset(seed=int(opponent_seed) if seed is not None else None)
        game_seed = int(self.np_random.integers(0, 2**63))
        rng = seeding.np_random(game_seed)[0]
        game = new_game(self.config, rng, options)  # the AEC environment's deal
        self._ended = self._game.start(game, game_seed, int(rng.integers(0, 2**64, dtype=np.uint64)), self.seat)
        return self.observe_learner()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        if not self.on_kernel:
            return super().step(action)
        if self._ended:
            raise self.error("the episode has ended (or never began): call reset() first")
        if type(action) is not int or not 0 <= action < self._game.num_actions:
            if not self.action_space.contains(action):
                raise self.illegal_error(f"action {action!r} is not in the action space "
                                         f"Discrete({self.action_space.n})")
            action = int(action)
        position, reward, end = self._game.play(action)
        if position == -2:
            return self._refuse(action)
        if not self._game.positional:
            self._position = position
        self._ended = end != 0
        observation, info = self._observe_kernel(self._ended)
        return observation, reward, end == 1, end == 2, info

    def _refuse(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        """The kernel path's answer to an illegal action, the AEC path's: raised, or the end of the episode."""
        error = self._game.refusal(action, self._aec)
        if self.illegal_action == "raise":
            raise error
        gym.logger.warn(f"illegal action ends the episode with reward -1: {error}")
        self._ended = True
        observation, info = self.observe_learner()
        info["illegal_action"] = str(error)
        return observation, -1.0, True, False, info

    def observe_learner(self) -> tuple[np.ndarray, dict[str, Any]]:
        """:meth:`OneLearnerEnv.observe_learner <goldrush_env.learner.OneLearnerEnv.observe_learner>`, and with
        ``action="kinds"`` the position the learner's last action flipped (``info["position"]``)."""
        if self.on_kernel:
            return self._observe_kernel(self._game.finished())
        observation, info = super().observe_learner()
        position = self._aec.infos[self._agent].get("position")
        if position is not None:
            info["position"] = position
        return observation, info

    def _observe_kernel(self, finished: bool) -> tuple[np.ndarray, dict[str, Any]]:
        info = {"action_mask": self._game.mask_row.copy(), "seat": self.seat}
        if finished:
            scores, winners = self._game.result()
            info.update(scores=scores, winners=winners)
        if self._position is not None:
            info["position"] = self._position
        return self._game.observation(), info

    def finished(self) -> bool:
        return self._game.finished() if self.on_kernel else super().finished()

    def truncated(self) -> bool:
        return self._game.truncated() if self.on_kernel else super().truncated()

    def action_masks(self) -> np.ndarray:
        return self._game.mask_row.copy() if self.on_kernel else super().action_masks()

    def view(self) -> PlayerView:
        """The learner's :class:`~goldrush_env.gold.view.PlayerView`, as the AEC environment builds it."""
        return self._game.view(self.seat) if self.on_kernel else super().view()

    def render(self) -> str | np.ndarray | None:
        return self._aec.render()  # the kernel path has no render_mode: this only warns, as the AEC env does

    def close(self) -> None:
        self._aec.close()


class _CompiledGame:
    """:class:`GoldEnv`'s game on the compiled kernel: a batch of one, the constants the kernel reads, the buffers it
    writes and the flips so far."""

    def __init__(self, aec: raw_env) -> None:
        config = self.config = aec.config
        self.observation_type, self.action_type = aec.observation_type, aec.action_type
        self.positional = self.action_type.positional
        self.num_actions = self.action_type.size
        self.owners = np.array(aec.owners, dtype=np.int8)
        self.rush_at = TABLES[config.table].rush_at
        self.constants = kernel.constants(config)
        self.limit = int(self.constants[0]["limit"])
        self.games = kernel.new_games(1)
        self.game = self.games[0]
        self.turns = kernel.new_turns(1)
        self.turn = self.turns[0]
        # The kernel writes the observation types it knows; another registered type is read off the plain vector.
        self.derive = self.observation_type.name not in kernel.OBSERVATIONS
        self.observations = np.zeros((1, kernel.SIZES[int(self.constants[0]["observation"])]), dtype=np.float32)
        self.mask = np.zeros((1, self.num_actions), dtype=bool)
        self.observation_row, self.mask_row = self.observations[0], self.mask[0]
        self.log: list[int] = []  # every flip of the game, for game_env's replay
        self.players, self.engine = kernel.players(), kernel.ENGINE
        self.forms: list[KernelPlayer] = []
        self.episode, self.replayed = 0, (-1, 0)
        self.layout: tuple[int, ...] = ()
        self.first_player = self.game_seed = 0

    def prepare(self, forms: list[KernelPlayer]) -> bool:
        """Make ready to play these opponents (one per seat after the learner's) from the next :meth:`start`;
        False if they cannot share a game in the kernel (one engine, one worth table)."""
        if [id(form) for form in forms] == [id(form) for form in self.forms]:
            return True  # the same players again (a mix that changes the opponents at every reset)
        try:
            self.players = _players_of(forms, np.ones(len(forms)), self.config.num_players)
            self.engine = engine_of(forms)
        except GoldrushEnvError:
            return False
        self.forms = forms
        return True

    def start(self, game: Game, game_seed: int, stream: int, seat: int) -> bool:
        """Lay ``game``'s table in the kernel with the game's ``stream`` and play up to the learner's first turn
        at ``seat``. Returns whether the game has already finished."""
        n = self.config.num_players
        self.turn["seat"] = seat
        for k in range(1, n):
            self.turn["entrants"][(seat + k) % n] = k - 1
        self.layout, self.first_player, self.game_seed = game.table, game.first_player, game_seed
        self.episode += 1
        self.log = []
        with kernel.threads_for(1):
            kernel.lay(self.games, self.constants, np.zeros(1, dtype=np.int64), np.array([game.table], dtype=np.int8),
                       np.array([game.first_player], dtype=np.int8))
        self.game["rng"][0] = stream
        return self.play(-1)[2] != 0

    def play(self, action: int) -> tuple[int, float, int]:
        """One step of the kernel: the learner's ``action`` (-1: none), then the opponents up to its next turn.
        Returns the position the action turned (-1 for none, -2 if the rules refuse it: then nothing changed), the
        learner's reward and how the game stands (0 in play, 1 over, 2 truncated)."""
        self.turn["action"] = action
        if self.engine.advance_one(self.games, self.constants, self.players, self.turns, self.observations,
                                   self.mask, self.observations) >= 0:
            return -2, 0.0, 0
        turn = self.turn
        self.log.extend(turn["flips"][:turn["flip_count"]].tolist())
        end = 0 if turn["status"] != kernel.FINISHED else (1 if turn["terminated"] else 2)
        return int(turn["position"]) if action >= 0 else -1, float(turn["reward"]), end

    def observation(self) -> np.ndarray:
        """The learner's observation, a new array."""
        if self.derive:
            return self.observation_type.seat_vector(self.observation_row)
        return self.observation_row.copy()

    def finished(self) -> bool:
        return bool(self.game["cards_left"] == 0 or self.game["turn"] >= self.limit)

    def truncated(self) -> bool:
        return bool(self.game["cards_left"] > 0 and self.game["turn"] >= self.limit)

    def result(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The scores and the winners (D5, as the kernel found them at the end)."""
        n = self.config.num_players
        return (tuple(self.turn["final_scores"][:n].tolist()),
                tuple(np.flatnonzero(self.turn["final_winners"][:n]).tolist()))

    def legal_positions(self, seat: int) -> np.ndarray:
        """The int8 mask of the positions ``seat`` may flip now (none if it is not to play)."""
        table, face_up = self.game["table"], int(self.game["face_up"])
        if self.finished() or int(self.game["current_player"]) != seat:
            return np.zeros(NUM_POSITIONS, dtype=np.int8)
        legal = (table >= 0).astype(np.int8)
        if face_up >= 0:
            legal[face_up] = 0
        return legal

    def vector(self, seat: int, kind: str) -> np.ndarray:
        """``seat``'s observation vector of the type called ``kind``, a new array."""
        code = kernel.OBSERVATIONS.get(kind, kernel.OBS_PLAIN)
        out = np.zeros((1, kernel.SIZES[code]), dtype=np.float32)
        with kernel.threads_for(1):
            kernel.observe(self.games, self.constants, np.array([seat]), np.zeros(1, dtype=np.int64), code, out)
        return out[0] if kind in kernel.OBSERVATIONS else observation_type(kind).seat_vector(out[0])

    def view(self, seat: int) -> PlayerView:
        """``seat``'s view, built from the kernel's state as ``raw_env.view`` builds it from the game."""
        game, n = self.game, self.config.num_players
        table = game["table"]
        face_up = int(game["face_up"])
        known = game["memo"][seat] >= 0
        if face_up >= 0:
            known[face_up] = True
        cards = np.where(table == EMPTY, EMPTY, np.where(known, table, UNKNOWN))
        hidden = table[(table >= 0) & ~known]
        kind = self.observation_type if self.observation_type.positional else observation_type("plain")
        finished = self.finished()
        return PlayerView(
            seat=seat, num_players=n, cards=tuple(cards.tolist()),
            face_up=None if face_up < 0 else face_up, owners=tuple(self.owners.tolist()),
            scores=tuple(game["scores"][:n].tolist()), gold_cards=tuple(game["gold_cards"][:n].tolist()),
            current_player=None if finished else int(game["current_player"]), gold_rush=bool(game["gold_rush"]),
            turn=int(game["turn"]), max_turns=self.config.max_turns,
            unseen=tuple(np.bincount(hidden, minlength=NUM_CARD_TYPES).tolist()),
            action_mask=self.legal_positions(seat), observation=self.vector(seat, kind.name), rush_at=self.rush_at)

    def refusal(self, action: int, aec: raw_env) -> IllegalFlipError:
        """The error the AEC path raises for the learner's illegal ``action``, in its words: the engine's for a
        position, the kinds action's for a kind."""
        seat = int(self.game["current_player"])
        try:
            if self.positional:
                self.replay_into(aec)
                aec.game.copy().step(action)
            else:
                self.action_type.to_positions(np.array([action]), lambda: self.legal_positions(seat)[None],
                                              lambda: self.vector(seat, "plain")[None], np.random.default_rng(0))
        except IllegalFlipError as error:
            return error
        raise AssertionError(f"the kernel refused action {action}, which the rules allow")

    def replay_into(self, aec: raw_env) -> None:
        """Bring ``aec`` to this game: its table dealt, then the flips so far (only those it has not seen)."""
        count = len(self.log)
        episode, done = self.replayed
        if episode != self.episode or done > count:
            aec.reset(seed=self.game_seed, options={"layout": list(self.layout), "first_player": self.first_player})
            done = 0
        for position in self.log[done:count]:
            aec.step_from_view(position)
        self.replayed = (self.episode, count)
