"""A Gymnasium ``VectorEnv`` on Gold's compiled kernel: many learners' games stepped at once.

``GoldVectorEnv(num_envs, opponents="random", seat="random", **options)``
is ``num_envs`` copies of :class:`~goldrush_env.gold.gym_env.GoldEnv` in one
object: each sub-environment is a game with one learning seat whose
opponents play inside :meth:`~GoldVectorEnv.step`. The games, the seats'
memories, the opponents' flips, the autoreset, the observations and the
masks all run in :mod:`goldrush_env.gold.kernel`, compiled, over the whole
batch: no Python runs per game.

* Observations and actions: those the ``observation`` and ``action`` options
  name, exactly as the single environment gives them
  (``tests/gold/test_vector.py`` replays whole episodes there and compares
  them flip by flip): by default the 173-float kinds vector and a kind of
  card (``Discrete(30)``).
* Masks: :meth:`~GoldVectorEnv.action_masks` and ``info["action_mask"]``,
  ``(num_envs, 30)`` bool (``(num_envs, 64)`` with ``action="positions"``).
* Autoreset (``autoreset_mode``, also in ``metadata["autoreset_mode"]``):
  ``"next_step"`` (the default, Gymnasium's own, which its vector wrappers
  such as ``NormalizeObservation`` and ``RecordEpisodeStatistics`` expect): the
  step that ends a game returns its last observation (with a mask of no legal
  flips); the next ``step()`` ignores the action sent for that
  sub-environment, deals it afresh and returns the new game's first
  observation with reward 0, not terminated, not truncated. ``"same_step"``
  (what this package's training scripts use: no step is spent on a reset):
  a finished game is dealt afresh within the step that ended it; that step
  returns the new game's observation, with the last one in
  ``info["final_obs"]``: the rows where ``info["_final_obs"]`` is true (the
  other rows repeat the returned observations). In both modes the final
  scores, winners and seats are in ``info["final_info"]`` at the step that
  ends a game.
* Opponents: ``"random"`` or any object with the batched policy method
  ``act(games, known, where, rng)`` described in :class:`BatchedPolicy`, or a
  weighted mix of these drawn per seat at every deal.
  ``goldrush_agents.gold.batched.batched_policy(name)`` builds one from any player of
  ``agents/``: ``"greedy"`` and ``"expert"`` play inside the kernel (a
  :class:`KernelPlayer`), a trained model runs its network on all its games at
  once, any other player is asked game by game with the structured view it
  gets in the single-game environments. The kernel stops where a Python
  opponent is to play, asks it for all such games together, and goes on.
* Options: those of :class:`~goldrush_env.gold.config.EnvConfig`
  (``num_players``, ``table``, ``reward``, ``max_turns``, ``memory`` with
  ``forget_prob`` and ``memory_capacity``: with ``memory="human"`` every seat
  forgets as in the single environment, inside the kernel); there is no
  rendering.

An illegal action raises :class:`~goldrush_env.errors.IllegalFlipError` naming
the sub-environment and the action; no game changes.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from goldrush_env.checks import is_int
from goldrush_env.errors import GoldRushError, IllegalFlipError
from goldrush_env.gold import kernel
from goldrush_env.gold.aec import SCORE_REWARD_SCALE
from goldrush_env.gold.batched import BatchedGames, FlipBatch
from goldrush_env.gold.cards import NUM_CARD_TYPES, category_table
from goldrush_env.gold.config import EnvConfig
from goldrush_env.gold.encoder import OBSERVATION_SIZE
from goldrush_env.gold.variants import _GAINS, action_type, observation_type

__all__ = ["GoldVectorEnv", "BatchedPolicy", "BatchedRandom", "KernelPlayer", "step_entrants"]

_KERNEL_OBSERVATIONS = {"plain": kernel.OBS_PLAIN, "pairs": kernel.OBS_PAIRS, "kinds": kernel.OBS_KINDS}
_KERNEL_ACTIONS = {"positions": kernel.ACT_POSITIONS, "kinds": kernel.ACT_KINDS}
_KERNEL_SIZES = {kernel.OBS_PLAIN: OBSERVATION_SIZE, kernel.OBS_PAIRS: kernel.PAIRS_SIZE,
                 kernel.OBS_KINDS: kernel.KINDS_SIZE}
"""The length of each observation the kernel writes, by its code."""


@runtime_checkable
class BatchedPolicy(Protocol):
    """A policy choosing one flip in each of many games at once."""

    def act(self, games: BatchedGames, known: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Positions to flip, one per game (only entries where ``where`` is true are read).

        ``known[g, p]``: the seat to play in game ``g`` sees or remembers the card at ``p``
        (:meth:`BatchedGames.known`). A policy must read the hidden table only at known positions.
        """


class KernelPlayer:
    """A scripted player compiled into the kernel (``RANDOM``, ``GREEDY``, ``EXPERT`` of
    :mod:`goldrush_env.gold.kernel`): the vector env plays it inside its step, drawing its random choices from each
    game's stream. ``tables(num_players)`` gives the arrays its program reads (``worth[seat, threat, a, b]``, the
    worth of turning cards ``a`` and ``b`` together) and ``params(num_players)`` its constants (at most
    :data:`~goldrush_env.gold.kernel.NUM_PARAMS`); :meth:`act` plays it as a :class:`BatchedPolicy`."""

    def __init__(self, name: str, program: int, tables: Any = None, params: Any = None) -> None:
        self.name, self.program = name, program
        self._tables_of, self._params_of = tables, params
        self._tables: dict[int, np.ndarray] = {}

    def tables(self, num_players: int) -> np.ndarray:
        if num_players not in self._tables:
            worth = None if self._tables_of is None else self._tables_of(num_players)
            self._tables[num_players] = _no_tables(num_players) if worth is None \
                else np.ascontiguousarray(worth, dtype=np.float64)
        return self._tables[num_players]

    def params(self, num_players: int) -> np.ndarray:
        out = np.zeros(kernel.NUM_PARAMS)
        if self._params_of is not None:
            values = np.asarray(self._params_of(num_players), dtype=np.float64)
            out[:len(values)] = values
        return out

    def act(self, games: BatchedGames, known: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The program's flips for every ``where`` game, read from the games' state (each seat's memory) and
        drawn from the games' streams (``known`` and ``rng`` are not needed)."""
        out = np.empty(games.num_games, dtype=np.int64)
        params = np.zeros((kernel.PROGRAMS, kernel.NUM_PARAMS))
        params[self.program] = self.params(games.num_players)
        kernel.choose(self.program, games.state, games.limit, self.tables(games.num_players), params,
                      kernel.card_owners(games.owners), np.asarray(where, dtype=bool), out)
        return out

    def __repr__(self) -> str:
        return f"KernelPlayer({self.name!r})"


def _no_tables(num_players: int) -> np.ndarray:
    return np.zeros((num_players, 6, NUM_CARD_TYPES + 1, NUM_CARD_TYPES + 1))


class BatchedRandom(KernelPlayer):
    """Uniformly random legal flips."""

    def __init__(self) -> None:
        super().__init__("random", kernel.RANDOM)

    def __repr__(self) -> str:
        return "BatchedRandom()"


def _autoreset_mode(mode: Any) -> AutoresetMode:
    """The :class:`~gymnasium.vector.AutoresetMode` named by ``mode`` (a name or the member itself)."""
    allowed = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}
    if isinstance(mode, AutoresetMode) and mode in allowed.values():
        return mode
    if isinstance(mode, str) and mode in allowed:
        return allowed[mode]
    raise GoldRushError(f"autoreset_mode={mode!r} is not allowed: expected one of {tuple(allowed)} "
                        "(or AutoresetMode.NEXT_STEP / SAME_STEP)")


def make_batched_policy(spec: Any) -> BatchedPolicy:
    """``"random"`` or a :class:`BatchedPolicy` object (the players of ``agents/`` are built by
    :func:`goldrush_agents.gold.batched.batched_policy`; this package does not import them)."""
    if isinstance(spec, str) and spec == "random":
        return BatchedRandom()
    if isinstance(spec, BatchedPolicy):
        return spec
    hint = (f"; build other players with goldrush_agents.gold.batched.batched_policy({spec!r})"
            if isinstance(spec, str) else "")
    raise GoldRushError(f"opponents={spec!r} is not allowed: expected 'random' or a BatchedPolicy (an object with "
                        f"act(games, known, where, rng)){hint}")


def step_entrants(games: BatchedGames, policies: list[BatchedPolicy], entrant: np.ndarray, waiting: np.ndarray,
                  rng: np.random.Generator) -> list[FlipBatch]:
    """One flip in every ``waiting`` game, chosen by ``policies[entrant[g]]``: the entrants play one after
    the other, each on its own games. Returns each entrant's :class:`FlipBatch`."""
    steps = []
    for index, policy in enumerate(policies):
        mine = waiting & (entrant == index)
        if mine.any():
            steps.append(games.step(policy.act(games, games.known(), mine, rng), where=mine))
    return steps


class GoldVectorEnv(VectorEnv):
    """``num_envs`` games of Gold, one learner each, opponents played inside (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 8, *, opponents: Any = "random", seat: int | str = "random",
                 autoreset_mode: str | AutoresetMode = "next_step", **options: Any) -> None:
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.config = EnvConfig.from_kwargs(**options)
        if self.config.render_mode is not None:
            raise GoldRushError(f"render_mode={self.config.render_mode!r} is not allowed: the vector environment "
                                "does not render; render a GoldEnv instead")
        n = self.config.num_players
        if not (seat == "random" or is_int(seat, 0, n - 1)):
            raise GoldRushError(f"seat={seat!r} is not allowed: expected 'random' or a seat from 0 to {n - 1}")
        self.games = BatchedGames(num_envs, n, max_turns=self.config.max_turns, table=self.config.table)
        self.num_envs = self.games.num_games
        self.seat_option = seat
        self.render_mode = None
        self.seats = np.zeros(self.num_envs, dtype=np.int64)
        self._rng: np.random.Generator | None = None
        human = self.config.memory == "human"
        self._forget = float(self.config.forget_prob) if human else 0.0
        capacity = self.config.memory_capacity if human else None
        self._capacity = -1 if capacity is None else int(capacity)
        self._category = np.array(category_table(n, self.games.owners.tolist()), dtype=np.int64)
        self._card_owner = kernel.card_owners(self.games.owners)
        self._gains = np.ascontiguousarray(_GAINS)
        self.observation_type = observation_type(self.config.observation)
        self.action_type = action_type(self.config.action)
        # The kernel writes the types it knows; another registered type is read off the plain vector.
        self._obs_code = _KERNEL_OBSERVATIONS.get(self.observation_type.name, kernel.OBS_PLAIN)
        self._derive = self.observation_type.name not in _KERNEL_OBSERVATIONS
        if self.action_type.name not in _KERNEL_ACTIONS:
            raise GoldRushError(f"action={self.action_type.name!r} is not allowed in the vector environment: "
                                f"expected one of {tuple(_KERNEL_ACTIONS)}")
        self._act_code = _KERNEL_ACTIONS[self.action_type.name]
        self._obs_size = _KERNEL_SIZES[self._obs_code]
        self.single_observation_space = self.observation_type.space()
        self.single_action_space = self.action_type.space()
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, self.num_envs)
        self._masks = np.zeros((self.num_envs, self.action_type.size), dtype=bool)
        self._pending = np.zeros(self.num_envs, dtype=bool)  # next_step: games that ended at the last step
        self._started = False
        self.set_opponents(opponents)

    def set_opponents(self, opponents: Any) -> None:
        """Replace the opponents: one entrant for every opponent seat (``"random"`` or a
        :class:`BatchedPolicy`), or a mix ``{entrant: weight}`` from which each opponent seat is
        drawn whenever a game is dealt.
        Games under way are dealt their opponents afresh now. Training scripts change the mix
        between rollouts with it."""
        if isinstance(opponents, dict):
            weights = np.array(list(opponents.values()), dtype=float)
            if not opponents or (weights < 0).any() or not weights.sum() > 0:
                raise GoldRushError(f"an opponent mix needs weights >= 0 with a positive sum, got {opponents!r}")
            entrants = list(opponents)
        else:
            entrants, weights = [opponents], np.ones(1)
        self.opponents = [make_batched_policy(entrant) for entrant in entrants]  # all checked before any change
        self.opponent_names = [getattr(policy, "name", repr(policy)) for policy in self.opponents]
        self._weights = weights / weights.sum()
        self._cumulative = np.cumsum(self._weights) if len(self.opponents) > 1 else np.ones(1)
        self._programs = np.array([policy.program if isinstance(policy, KernelPlayer) else kernel.EXTERNAL
                                   for policy in self.opponents], dtype=np.int64)
        n = self.config.num_players
        tables = [policy.tables(n) for policy in self.opponents
                  if isinstance(policy, KernelPlayer) and policy.program != kernel.RANDOM]
        self._worth = tables[0] if tables else _no_tables(n)
        if any(not np.array_equal(table, self._worth) for table in tables):
            raise GoldRushError("the kernel's scripted opponents of one environment must share their worth tables")
        self._params = np.zeros((kernel.PROGRAMS, kernel.NUM_PARAMS))
        for policy in self.opponents:
            if isinstance(policy, KernelPlayer):
                self._params[policy.program] = policy.params(n)
        self._assignment = np.zeros((self.num_envs, n), dtype=np.int64)
        if self._rng is not None:  # a player joining between resets plays from the env's seed too
            self._seed_opponents()
            if len(self.opponents) > 1:
                self._assignment[:] = self._rng.choice(len(self.opponents), p=self._weights, size=(self.num_envs, n))

    def _seed_opponents(self) -> None:
        """Seed each opponent that has a generator of its own from the env's."""
        for policy in self.opponents:
            if hasattr(policy, "reset"):
                policy.reset(seed=int(self._rng.integers(2**63)))

    # --- the Gymnasium API ------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        with kernel.threads_for(self.num_envs):
            return self._reset(seed, options)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        with kernel.threads_for(self.num_envs):
            return self._step(actions)

    def _reset(self, seed: int | None, options: dict | None) -> tuple[np.ndarray, dict]:
        if options:
            raise GoldRushError(f"reset() takes no options here, got {sorted(options)}")
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
            self.games.rng[:] = self._rng.integers(0, 2**64, size=self.num_envs, dtype=np.uint64)
            self.games._seeded = True
            self._seed_opponents()
        everything = np.ones(self.num_envs, dtype=bool)
        out = self._advance(everything, deal=everything, learner=np.full(self.num_envs, -1, dtype=np.int64))
        self._pending[:] = False
        self._started = True
        return out["observations"], self._info()

    def _step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        if not self._started:
            raise GoldRushError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise IllegalFlipError(f"actions must be {self.num_envs} ints (one {self.action_type.noun} per "
                                   f"sub-environment), got an array of shape {actions.shape} and dtype {actions.dtype}")
        games = self.games
        live = ~self._pending
        positions = np.empty(self.num_envs, dtype=np.int64)
        bad = kernel.learner_positions(games.state, self._category, games.limit, self.seats,
                                       actions.astype(np.int64, copy=False), self._act_code, live, positions)
        if bad >= 0:
            self._refuse(int(bad), int(actions[bad]), live)
        out = self._advance(np.ones(self.num_envs, dtype=bool), deal=self._pending, learner=positions)
        self._pending = out["done"] if self.autoreset_mode is AutoresetMode.NEXT_STEP \
            else np.zeros(self.num_envs, dtype=bool)
        info = self._info()
        done = out["done"]
        if done.any():
            if self.autoreset_mode is AutoresetMode.SAME_STEP:
                info["final_obs"], info["_final_obs"] = out["final_obs"], done
            info["final_info"] = {"scores": out["final_scores"], "winners": out["final_winners"],
                                  "seat": out["final_seat"]}
            info["_final_info"] = done
        if not self.action_type.positional:
            info["position"] = np.where(live, positions, -1)
        return out["observations"], out["rewards"], out["terminated"], out["truncated"], info

    def action_masks(self) -> np.ndarray:
        """bool (num_envs, 64), or (num_envs, 30) with ``action="kinds"``: the learner's legal actions in each
        sub-environment. Never a row without one: where a game has just ended (next-step autoreset), the row
        allows action 0 alone, which the next step ignores as it deals that sub-environment afresh."""
        return self._masks.copy()

    @property
    def known(self) -> np.ndarray:
        """bool (num_envs, 64): the cards on the table each learner sees or remembers."""
        games = self.games
        rows = np.arange(self.num_envs)
        remembered = games.memo[rows, self.seats] >= 0
        remembered[rows, np.maximum(games.face_up, 0)] |= games.face_up >= 0
        return remembered & (games.table >= 0)

    def close(self, **kwargs: Any) -> None:
        pass

    # --- inside --------------------------------------------------------------------------

    def _advance(self, envs: np.ndarray, deal: np.ndarray, learner: np.ndarray) -> dict[str, np.ndarray]:
        """Flip ``learner[g]`` (-1: none) in every game, then play the ``envs`` games (dealing the ``deal`` ones
        afresh first) up to their learners' turns or their ends; Python opponents are asked between calls of the
        kernel. Returns what the kernel wrote."""
        n, games = self.num_envs, self.games
        size = self._obs_size
        out = {"observations": np.empty((n, size), dtype=np.float32),
               "rewards": np.zeros(n, dtype=np.float32), "terminated": np.zeros(n, dtype=bool),
               "truncated": np.zeros(n, dtype=bool), "final_obs": np.empty((n, size), dtype=np.float32),
               "done": np.zeros(n, dtype=bool), "final_scores": np.zeros((n, self.config.num_players), dtype=np.int32),
               "final_winners": np.zeros((n, self.config.num_players), dtype=bool),
               "final_seat": np.zeros(n, dtype=np.int64)}
        masks = np.empty((n, self.action_type.size), dtype=bool)
        fresh = deal.astype(np.int8)  # 1: deal first; the kernel marks 2 where it dealt
        status = np.empty(n, dtype=np.int8)
        seat_option = -1 if self.seat_option == "random" else int(self.seat_option)
        same_step = self.autoreset_mode is AutoresetMode.SAME_STEP
        before = np.empty_like(games.scores)
        while True:
            kernel.advance(games.state, games.box, games.rush_at, games.owners, games.limit, games.max_turns or 0,
                           self._forget, self._capacity, self._category, self._gains, self._worth, self._params,
                           self._card_owner,
                           self.seats, seat_option, self._assignment, self._cumulative, self._programs, envs,
                           learner, fresh, same_step, before, self.config.reward == "score", SCORE_REWARD_SCALE,
                           self._obs_code, self._act_code, out["observations"], masks, out["rewards"],
                           out["terminated"], out["truncated"], out["final_obs"], out["done"], out["final_scores"],
                           out["final_winners"], out["final_seat"], status)
            waiting = envs & (status == kernel.WAITING)
            if not waiting.any():
                break
            self._play_python_opponents(waiting)
            envs, learner = waiting, np.empty(0, dtype=np.int64)  # the learners have flipped
        masks[status == kernel.FINISHED, 0] = True  # next-step: the reset step ignores the action
        self._masks = masks
        if self._derive:
            for key in ("observations", "final_obs"):
                out[key] = self.observation_type.from_plain(out[key])
        return out

    def _play_python_opponents(self, waiting: np.ndarray) -> None:
        """One flip in every ``waiting`` game by the Python opponent whose turn it is there."""
        games = self.games
        entrant = self._assignment[np.arange(self.num_envs), games.current_player]
        for index, policy in enumerate(self.opponents):
            mine = waiting & (entrant == index)
            if mine.any():
                positions = np.asarray(policy.act(games, games.known(), mine, self._rng), dtype=np.int64)
                if kernel.first_illegal(games.table, games.face_up, positions, mine) >= 0:
                    games.check_flips(positions, mine)  # raises, naming the game and the opponent's position
                kernel.play_positions(games.state, games.owners, games.rush_at, positions, mine, self._forget,
                                      self._capacity)

    def _refuse(self, row: int, action: int, live: np.ndarray) -> None:
        """Raise the error for the learner's illegal ``action`` in sub-environment ``row``."""
        if self.action_type.positional:
            positions = np.zeros(self.num_envs, dtype=np.int64)
            positions[row] = action
            only = np.zeros(self.num_envs, dtype=bool)
            only[row] = True
            self.games.check_flips(positions, only)  # names the game (= sub-environment) and the position
        if not 0 <= action < self.action_type.size:
            raise IllegalFlipError(f"sub-environment {row}: kind {action} is out of range: kinds are 0 to "
                                   f"{self.action_type.size - 1}")
        raise IllegalFlipError(f"sub-environment {row}: kind {action} ({self.action_type.names[action]}) cannot be "
                               "turned now: no legal position holds such a card")

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._masks.copy(), "seat": self.seats.copy()}
