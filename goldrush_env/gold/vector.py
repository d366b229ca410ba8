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
from goldrush_env.errors import GoldrushEnvError, IllegalFlipError
from goldrush_env.gold import kernel
from goldrush_env.gold.batched import BatchedGames, FlipBatch
from goldrush_env.gold.config import EnvConfig
from goldrush_env.gold.variants import action_type, observation_type

__all__ = ["GoldVectorEnv", "BatchedPolicy", "BatchedRandom", "KernelPlayer", "step_entrants"]

_KERNEL_OBSERVATIONS, _KERNEL_ACTIONS = kernel.OBSERVATIONS, kernel.ACTIONS


@runtime_checkable
class BatchedPolicy(Protocol):
    """A policy choosing one flip in each of many games at once."""

    def act(self, games: BatchedGames, known: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Positions to flip, one per game (only entries where ``where`` is true are read).

        ``known[g, p]``: the seat to play in game ``g`` sees or remembers the card at ``p``
        (:meth:`BatchedGames.known`). A policy must read the hidden table only at known positions.
        """


class KernelPlayer:
    """A player compiled into Gold's kernel: program ``program`` of ``engine``'s choose function (the kernel's own
    engine plays :data:`~goldrush_env.gold.kernel.RANDOM`; a players' package offers its own, with its programs,
    such as ``goldrush_agents.gold.compiled.ENGINE``). The vector and Gymnasium environments play it inside their
    step, drawing its random choices from each game's stream. ``tables(num_players)`` gives the table its program
    reads (``worth[seat, threat, a, b]``, the worth of turning cards ``a`` and ``b`` together) and
    ``params(num_players)`` its constants (at most :data:`~goldrush_env.gold.kernel.NUM_PARAMS`); :meth:`act` plays
    it as a :class:`BatchedPolicy`."""

    def __init__(self, name: str, program: int, tables: Any = None, params: Any = None, engine: Any = None) -> None:
        self.name, self.program = name, program
        self.engine = kernel.ENGINE if engine is None else engine
        if program not in self.engine.programs:
            raise GoldrushEnvError(f"program {program} is not one of {self.engine.name}'s: {self.engine.programs}")
        self._tables_of, self._params_of = tables, params
        self._tables: dict[Any, np.ndarray] = {}  # by table size: its worth table, and itself as PLAYERS

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

    def players(self, num_players: int) -> np.ndarray:
        """This player alone as the kernel's :data:`~goldrush_env.gold.kernel.PLAYERS`."""
        if ("players", num_players) not in self._tables:
            self._tables[("players", num_players)] = _players_of([self], np.ones(1), num_players)
        return self._tables[("players", num_players)]

    def act(self, games: BatchedGames, known: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The program's flips for every ``where`` game, read from the games' state (each seat's memory) and
        drawn from the games' streams (``known`` and ``rng`` are not needed)."""
        out = np.empty(games.num_games, dtype=np.int64)
        with kernel.threads_for(games.num_games):
            self.engine.choose_all(self.program, games.state, games.constants, self.players(games.num_players),
                                   np.asarray(where, dtype=bool), out)
        return out

    def __repr__(self) -> str:
        return f"KernelPlayer({self.name!r})"


def _no_tables(num_players: int) -> np.ndarray:
    return np.zeros((num_players, *kernel.WORTH_SHAPE[1:]))


def _players_of(entrants: list[Any], weights: np.ndarray, num_players: int) -> np.ndarray:
    """The kernel's :data:`~goldrush_env.gold.kernel.PLAYERS` for a mix of entrants (Python policies play as
    :data:`~goldrush_env.gold.kernel.EXTERNAL`): their programs, the mix's weights, the scripted ones' shared worth
    table and their constants."""
    compiled = [entrant for entrant in entrants if isinstance(entrant, KernelPlayer)]
    tables = [entrant.tables(num_players) for entrant in compiled if entrant.program != kernel.RANDOM]
    worth = tables[0] if tables else None
    if any(not np.array_equal(table, worth) for table in tables):
        raise GoldrushEnvError("the kernel's scripted opponents of one environment must share their worth tables")
    params = np.zeros((kernel.PROGRAMS, kernel.NUM_PARAMS))
    for entrant in compiled:
        params[entrant.program] = entrant.params(num_players)
    programs = [entrant.program if isinstance(entrant, KernelPlayer) else kernel.EXTERNAL for entrant in entrants]
    return kernel.players(programs, weights, worth, params)


def engine_of(entrants: list[Any]) -> Any:
    """The one engine that plays every compiled entrant: the kernel's own if they all play random, else the
    engine they share (a :class:`GoldrushEnvError` if two need different ones)."""
    engines = {id(entrant.engine): entrant.engine for entrant in entrants
               if isinstance(entrant, KernelPlayer) and entrant.program != kernel.RANDOM}
    if len(engines) > 1:
        raise GoldrushEnvError(f"the compiled players of one environment must share an engine, got "
                               f"{sorted(engine.name for engine in engines.values())}")
    return next(iter(engines.values()), kernel.ENGINE)


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
    raise GoldrushEnvError(f"autoreset_mode={mode!r} is not allowed: expected one of {tuple(allowed)} "
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
    raise GoldrushEnvError(f"opponents={spec!r} is not allowed: expected 'random' or a BatchedPolicy (an object with "
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
            raise GoldrushEnvError(f"render_mode={self.config.render_mode!r} is not allowed: the vector environment "
                                   "does not render; render a GoldEnv instead")
        n = self.config.num_players
        if not (seat == "random" or is_int(seat, 0, n - 1)):
            raise GoldrushEnvError(f"seat={seat!r} is not allowed: expected 'random' or a seat from 0 to {n - 1}")
        c = self.config
        self.games = BatchedGames(num_envs, n, max_turns=c.max_turns, table=c.table, memory=c.memory,
                                  forget_prob=c.forget_prob, memory_capacity=c.memory_capacity)
        self.num_envs = self.games.num_games
        self.seat_option = seat
        self.render_mode = None
        self._rng: np.random.Generator | None = None
        self.observation_type = observation_type(self.config.observation)
        self.action_type = action_type(self.config.action)
        if self.action_type.name not in _KERNEL_ACTIONS:
            raise GoldrushEnvError(f"action={self.action_type.name!r} is not allowed in the vector environment: "
                                   f"expected one of {tuple(_KERNEL_ACTIONS)}")
        self._constants = kernel.constants(self.config, seat=-1 if seat == "random" else int(seat),
                                              same_step=self.autoreset_mode is AutoresetMode.SAME_STEP)
        # The kernel writes the types it knows; another registered type is read off the plain vector.
        self._derive = self.observation_type.name not in _KERNEL_OBSERVATIONS
        self._obs_size = kernel.SIZES[int(self._constants[0]["observation"])]
        self.single_observation_space = self.observation_type.space()
        self.single_action_space = self.action_type.space()
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, self.num_envs)
        self._turns = kernel.new_turns(self.num_envs)
        self._masks = np.zeros((self.num_envs, self.action_type.size), dtype=bool)
        self._pending = np.zeros(self.num_envs, dtype=bool)  # next_step: games that ended at the last step
        self._started = False
        self.set_opponents(opponents)

    @property
    def seats(self) -> np.ndarray:
        """The learner's seat in each sub-environment (int64, a view of the kernel's records)."""
        return self._turns["seat"]

    @property
    def entrants(self) -> np.ndarray:
        """Per sub-environment and seat, the index in :attr:`opponents` of the entrant playing there (the
        learner's seat included, whose entry means nothing): int64 (num_envs, num_players), a view."""
        return self._turns["entrants"][:, :self.config.num_players]

    def set_opponents(self, opponents: Any) -> None:
        """Replace the opponents: one entrant for every opponent seat (``"random"`` or a
        :class:`BatchedPolicy`), or a mix ``{entrant: weight}`` from which each opponent seat is
        drawn whenever a game is dealt.
        Games under way are dealt their opponents afresh now. Training scripts change the mix
        between rollouts with it."""
        if isinstance(opponents, dict):
            weights = np.array(list(opponents.values()), dtype=float)
            if not opponents or (weights < 0).any() or not weights.sum() > 0:
                raise GoldrushEnvError(f"an opponent mix needs weights >= 0 with a positive sum, got {opponents!r}")
            entrants = list(opponents)
        else:
            entrants, weights = [opponents], np.ones(1)
        opponents = [make_batched_policy(entrant) for entrant in entrants]  # all checked before any change
        if len(opponents) > kernel.MAX_ENTRANTS:
            raise GoldrushEnvError(f"an opponent mix holds at most {kernel.MAX_ENTRANTS} entrants, got "
                                   f"{len(opponents)}")
        n = self.config.num_players
        weights = weights / weights.sum()
        players, engine = _players_of(opponents, weights, n), engine_of(opponents)
        self.opponents, self._players, self._engine, self._weights = opponents, players, engine, weights
        self.opponent_names = [getattr(policy, "name", repr(policy)) for policy in self.opponents]
        self._turns["entrants"] = 0
        if self._rng is not None:  # a player joining between resets plays from the env's seed too
            self._seed_opponents()
            if len(self.opponents) > 1:
                self._turns["entrants"][:, :n] = self._rng.choice(len(self.opponents), p=self._weights,
                                                                  size=(self.num_envs, n))

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
            raise GoldrushEnvError(f"reset() takes no options here, got {sorted(options)}")
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
            self.games.rng[:] = self._rng.integers(0, 2**64, size=self.num_envs, dtype=np.uint64)
            self.games._seeded = True
            self._seed_opponents()
        everything = np.ones(self.num_envs, dtype=bool)
        out = self._advance(np.full(self.num_envs, -1, dtype=np.int64), deal=everything)
        self._pending[:] = False
        self._started = True
        return out["observations"], self._info()

    def _step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        if not self._started:
            raise GoldrushEnvError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise IllegalFlipError(f"actions must be {self.num_envs} ints (one {self.action_type.noun} per "
                                   f"sub-environment), got an array of shape {actions.shape} and dtype {actions.dtype}")
        live = ~self._pending
        negative = np.flatnonzero(live & (actions < 0))
        if len(negative):  # -1 tells the kernel "no action": a learner's is refused here
            self._refuse(int(negative[0]), int(actions[negative[0]]))
        out = self._advance(np.where(live, actions, -1).astype(np.int64), deal=self._pending, actions=actions)
        self._pending = out["done"] if self.autoreset_mode is AutoresetMode.NEXT_STEP \
            else np.zeros(self.num_envs, dtype=bool)
        info = self._info()
        done = out["done"]
        if done.any():
            if self.autoreset_mode is AutoresetMode.SAME_STEP:
                info["final_obs"], info["_final_obs"] = out["final_obs"], done
            n = self.config.num_players
            info["final_info"] = {"scores": out["final_scores"][:, :n], "winners": out["final_winners"][:, :n],
                                  "seat": out["final_seat"]}
            info["_final_info"] = done
        if not self.action_type.positional:
            info["position"] = np.where(live, out["position"], -1)
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

    def _advance(self, learner: np.ndarray, deal: np.ndarray, actions: np.ndarray | None = None) -> dict[str, Any]:
        """The learners' actions ``learner`` (-1: none), then every game played (dealing the ``deal`` ones afresh
        first) up to its learner's turn or its end; Python opponents are asked between calls of the kernel.
        Returns what the kernel wrote."""
        n, size = self.num_envs, self._obs_size
        turns = self._turns
        observations = np.empty((n, size), dtype=np.float32)
        final_obs = np.empty((n, size), dtype=np.float32)
        masks = np.empty((n, self.action_type.size), dtype=bool)
        turns["active"] = turns["opening"] = True
        turns["action"] = learner
        turns["fresh"] = np.where(deal, kernel.DEAL, kernel.KEEP)
        position = None
        while True:
            bad = self._engine.advance(self.games.state, self._constants, self._players, turns, observations, masks,
                                       final_obs)
            if bad >= 0:
                if position is None:
                    self._refuse(int(bad), int(actions[bad]))
                self.games.check_flips(turns["action"], turns["active"])  # an opponent's: names game and position
                raise AssertionError(f"the kernel refused game {bad}'s flip, which the rules allow")
            if position is None:
                position = turns["position"].copy()
            waiting = turns["active"] & (turns["status"] == kernel.WAITING)
            if not waiting.any():
                break
            turns["action"] = np.where(waiting, self._python_flips(waiting), -1)
            turns["active"], turns["opening"] = waiting, False
        self._masks = masks
        if self._derive:
            observations, final_obs = (self.observation_type.from_plain(rows) for rows in (observations, final_obs))
        return {"observations": observations, "final_obs": final_obs, "rewards": turns["reward"].astype(np.float32),
                "terminated": turns["terminated"].copy(), "truncated": turns["truncated"].copy(),
                "done": turns["done"].copy(), "final_scores": turns["final_scores"].copy(),
                "final_winners": turns["final_winners"].astype(bool), "final_seat": turns["final_seat"].copy(),
                "position": position}

    def _python_flips(self, waiting: np.ndarray) -> np.ndarray:
        """The flip of the Python opponent to play in every ``waiting`` game."""
        games = self.games
        positions = np.full(self.num_envs, -1, dtype=np.int64)
        entrant = self._turns["entrants"][np.arange(self.num_envs), games.current_player]
        for index, policy in enumerate(self.opponents):
            mine = waiting & (entrant == index)
            if mine.any():
                chosen = np.asarray(policy.act(games, games.known(), mine, self._rng), dtype=np.int64)
                positions[mine] = chosen[mine]
        return positions

    def _refuse(self, row: int, action: int) -> None:
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
