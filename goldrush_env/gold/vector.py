"""A Gymnasium ``VectorEnv`` on the batched engine: many learners' games stepped at once.

``GoldVectorEnv(num_envs, opponents="random", seat="random", **options)``
is ``num_envs`` copies of :class:`~goldrush_env.gold.gym_env.GoldEnv` in one
object: each sub-environment is a game with one learning seat whose
opponents play inside :meth:`~GoldVectorEnv.step`, but the games live in
one :class:`~goldrush_env.gold.batched.BatchedGames` and the opponents choose
their flips for all games together, so no Python loop runs per game.

* Observations: ``(num_envs, 2102)`` float32, the learner's vectors exactly
  as the single environment encodes them (``tests/gold/test_vector.py`` compares
  them flip by flip); actions: one position per sub-environment. The
  ``observation`` and ``action`` options pick other types by name, as in the
  single environment (:mod:`goldrush_env.gold.variants`): the learner's plain
  vectors are encoded for all games at once
  (:class:`~goldrush_env.gold.encoder.BatchedObservations`) and the type reads
  its vectors, masks and positions off them.
* Masks: :meth:`~GoldVectorEnv.action_masks` and ``info["action_mask"]``,
  ``(num_envs, 64)`` bool.
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
  ``info["final_obs"]`` (and the final scores in ``info["final_info"]``): the
  rows where ``info["_final_obs"]`` is true (the other rows repeat the returned
  observations). In both modes the final scores, winners and seats are in
  ``info["final_info"]`` at the step that ends a game.
* Opponents: ``"random"`` or any object with the batched policy method
  ``act(games, known, where, rng)`` described in :class:`BatchedPolicy`, or a
  weighted mix of these drawn per seat at every deal.
  ``goldrush_agents.gold.batched.batched_policy(name)`` builds one from any player of
  ``agents/``: ``"greedy"`` (its rules vectorized), a trained model (its
  network run on all games at once), any other (asked game by game with the
  structured view it gets in the single-game environments).
* Options: those of :class:`~goldrush_env.gold.config.EnvConfig` (``num_players``,
  ``reward``, ``max_turns``); the memory model must be ``"perfect"`` (the
  forgetting model is per seat and stays in the single-game environments),
  and there is no rendering. ``backend`` picks the engine's backend.

An illegal flip raises :class:`~goldrush_env.errors.IllegalFlipError` naming
the game (sub-environment ``g`` is game ``g`` of the batch) and position; no
game changes.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from goldrush_env.gold.aec import SCORE_REWARD_SCALE
from goldrush_env.gold.batched import BatchedGames, FlipBatch
from goldrush_env.gold.cards import NUM_POSITIONS
from goldrush_env.gold.config import EnvConfig
from goldrush_env.gold.encoder import OBSERVATION_SIZE, BatchedObservations
from goldrush_env.gold.variants import action_type, observation_type
from goldrush_env.checks import is_int
from goldrush_env.errors import GoldRushError, IllegalFlipError

__all__ = ["GoldVectorEnv", "BatchedPolicy", "BatchedRandom", "step_entrants"]


@runtime_checkable
class BatchedPolicy(Protocol):
    """A policy choosing one flip in each of many games at once."""

    def act(self, games: BatchedGames, known: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Positions to flip, one per game (only entries where ``where`` is true are read).

        ``known[g, p]``: the card at ``p`` has been revealed and is still on
        the table, so every seat (with perfect memory) knows it. A policy
        must read the hidden table only at known positions.
        """


class BatchedRandom:
    """Uniformly random legal flips."""

    name = "random"

    def act(self, games: BatchedGames, known: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return games.random_positions(rng)

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
                  known: np.ndarray, rng: np.random.Generator) -> list[FlipBatch]:
    """One flip in every ``waiting`` game, chosen by ``policies[entrant[g]]``: the entrants play one after
    the other, each on its own games. Returns each entrant's :class:`FlipBatch` (``known``: see
    :class:`BatchedPolicy`)."""
    steps = []
    for index, policy in enumerate(policies):
        mine = waiting & (entrant == index)
        if mine.any():
            steps.append(games.step(policy.act(games, known, mine, rng), where=mine))
    return steps


class GoldVectorEnv(VectorEnv):
    """``num_envs`` games of Gold, one learner each, opponents played inside (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 8, *, opponents: Any = "random", seat: int | str = "random",
                 backend: str = "auto", autoreset_mode: str | AutoresetMode = "next_step", **options: Any) -> None:
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.config = EnvConfig.from_kwargs(**options)
        if self.config.memory != "perfect":
            raise GoldRushError(f"memory={self.config.memory!r} is not allowed here: the vector environment plays "
                                "with perfect memory; use GoldEnv for the forgetting model")
        if self.config.render_mode is not None:
            raise GoldRushError(f"render_mode={self.config.render_mode!r} is not allowed: the vector environment "
                                "does not render; render a GoldEnv instead")
        n = self.config.num_players
        if not (seat == "random" or is_int(seat, 0, n - 1)):
            raise GoldRushError(f"seat={seat!r} is not allowed: expected 'random' or a seat from 0 to {n - 1}")
        self.games = BatchedGames(num_envs, n, max_turns=self.config.max_turns, backend=backend,
                                  table=self.config.table)
        self.num_envs = self.games.num_games
        self.seat_option = seat
        self.render_mode = None
        self.seats = np.zeros(self.num_envs, dtype=np.int64)
        self._rng: np.random.Generator | None = None
        self.set_opponents(opponents)
        self.encoder = BatchedObservations(n, self.games.owners, self.config.max_turns)
        self.observation_type = observation_type(self.config.observation)
        self.action_type = action_type(self.config.action)
        self.single_observation_space = self.observation_type.space()
        self.single_action_space = self.action_type.space()
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, self.num_envs)
        self.known = np.zeros((self.num_envs, NUM_POSITIONS), dtype=bool)
        self._observations = np.zeros((self.num_envs, OBSERVATION_SIZE), dtype=np.float32)
        self._plain: np.ndarray | None = None  # the learner's plain vectors while no game has changed since
        self._pending = np.zeros(self.num_envs, dtype=bool)  # next_step: games that ended at the last step
        self._started = False

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
        self._assignment = np.zeros((self.num_envs, self.config.num_players), dtype=np.int64)
        if self._rng is not None:  # a player joining between resets plays from the env's seed too
            self._seed_opponents()
            self._deal_opponents(np.arange(self.num_envs))

    def _seed_opponents(self) -> None:
        """Seed each opponent that has a generator of its own from the env's."""
        for policy in self.opponents:
            if hasattr(policy, "reset"):
                policy.reset(seed=int(self._rng.integers(2**63)))

    def _deal_opponents(self, envs: np.ndarray) -> None:
        """Draw from the mix which entrant plays each seat of games ``envs``."""
        if len(self.opponents) > 1:
            self._assignment[envs] = self._rng.choice(len(self.opponents), p=self._weights,
                                                      size=(len(envs), self.config.num_players))

    # --- the Gymnasium API ------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        if options:
            raise GoldRushError(f"reset() takes no options here, got {sorted(options)}")
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
            self.games.seed(int(self._rng.integers(2**63)))
            self._seed_opponents()
        self._start(np.ones(self.num_envs, dtype=bool))
        self._pending[:] = False
        self._started = True
        return self._observe(), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        if not self._started:
            raise GoldRushError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise IllegalFlipError(f"actions must be {self.num_envs} ints (one {self.action_type.noun} per "
                                   f"sub-environment), got an array of shape {actions.shape} and dtype {actions.dtype}")
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            return self._step_then_reset(actions)
        positions = self._positions(actions, np.ones(self.num_envs, dtype=bool))
        before = self.games.scores.copy()
        self._record(self.games.step(positions))  # an illegal flip is refused naming its game (= sub-environment)
        self._play_opponents(np.ones(self.num_envs, dtype=bool))
        games = self.games
        rewards = self._rewards(before)
        terminated, truncated = games.is_over.copy(), games.is_truncated.copy()
        info = {}
        done = terminated | truncated
        observations = self._observe()
        if done.any():
            # The rows of finished games are their last observations; those games are dealt
            # afresh and only their rows are encoded again.
            info["final_obs"] = observations.copy()
            info["_final_obs"] = done
            info["final_info"] = {"scores": games.scores.copy(), "winners": games.leaders(), "seat": self.seats.copy()}
            info["_final_info"] = done
            self._start(done)
            observations[done] = self._observe(np.flatnonzero(done))
        return observations, rewards, terminated, truncated, {**self._info(), **info, **self._flipped(positions)}

    def _step_then_reset(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """``step()`` in next-step mode: the games that ended at the last step are dealt afresh (their actions
        are not read), the others take their flips."""
        pending, live = self._pending, ~self._pending
        positions = self._positions(actions, live)
        before = self.games.scores.copy()
        self._record(self.games.step(positions, where=live))  # an illegal flip is refused naming its game
        self._play_opponents(live)
        rewards = np.where(live, self._rewards(before), 0.0).astype(np.float32)
        if pending.any():
            self._start(pending)
        games = self.games
        terminated, truncated = games.is_over & live, games.is_truncated & live
        done = terminated | truncated
        info = {}
        if done.any():
            info["final_info"] = {"scores": games.scores.copy(), "winners": games.leaders(), "seat": self.seats.copy()}
            info["_final_info"] = done
        self._pending = done
        flipped = self._flipped(np.where(live, positions, -1))
        return self._observe(), rewards, terminated, truncated, {**self._info(), **info, **flipped}

    def action_masks(self) -> np.ndarray:
        """bool (num_envs, 64), or (num_envs, 30) with ``action="kinds"``: the learner's legal actions in each
        sub-environment. Never a row without one: where a game has just ended (next-step autoreset), the row
        allows action 0 alone, which the next step ignores as it deals that sub-environment afresh."""
        masks = self.action_type.masks(self.games.legal_mask(), self._learner_plain)
        masks[self._pending, 0] = True  # a finished game's row is all false otherwise
        return masks

    def close(self, **kwargs: Any) -> None:
        pass

    # --- inside --------------------------------------------------------------------------

    def _start(self, envs: np.ndarray) -> None:
        """Deal new games in ``envs`` (bool mask), draw the learner's seats, and play up to its turn."""
        picked = np.flatnonzero(envs)
        self._plain = None
        self.games.reset(games=picked)
        self.known[picked] = False
        self._deal_opponents(picked)
        if self.seat_option == "random":
            self.seats[picked] = self._rng.integers(self.config.num_players, size=len(picked))
        else:
            self.seats[picked] = self.seat_option
        self._play_opponents(envs)

    def _play_opponents(self, envs: np.ndarray) -> None:
        games = self.games
        while True:
            waiting = envs & ~games.is_finished & (games.current_player != self.seats)
            if not waiting.any():
                return
            entrant = self._assignment[np.arange(self.num_envs), games.current_player]
            for flips in step_entrants(games, self.opponents, entrant, waiting, self.known & (games.table >= 0),
                                       self._rng):
                self._record(flips)

    def _record(self, flips: FlipBatch) -> None:
        """Every flipped card is now known to every seat (until it leaves the table)."""
        self._plain = None  # the games changed: no read may see the vectors of before
        flipped = np.flatnonzero(flips.outcome >= 0)
        self.known[flipped, flips.position[flipped]] = True

    def _rewards(self, before: np.ndarray) -> np.ndarray:
        games, rows = self.games, np.arange(self.num_envs)
        n = self.config.num_players
        if self.config.reward == "score":
            gains = (games.scores - before).astype(np.float64)
            own = gains[rows, self.seats]
            return (SCORE_REWARD_SCALE * (own - (gains.sum(axis=1) - own) / (n - 1))).astype(np.float32)
        finished = games.is_finished
        leaders = games.leaders()
        mine = leaders[rows, self.seats]
        sole = leaders.sum(axis=1) == 1
        win = np.where(mine, np.where(sole, 1.0, 0.0), -1.0)
        return np.where(finished, win, 0.0).astype(np.float32)

    def _learner_plain(self) -> np.ndarray:
        """The learner's plain observation vectors in every game, read-only: encoded once after the games last
        changed (a kinds env reads them for the observation, the mask and the positions of a step)."""
        if self._plain is None:
            out = np.empty((self.num_envs, OBSERVATION_SIZE), dtype=np.float32)
            self._keep_plain(self.encoder.fill(self.games, self.known & (self.games.table >= 0), self.seats, out))
        return self._plain

    def _keep_plain(self, plain: np.ndarray) -> None:
        self._plain = plain
        plain.flags.writeable = False

    def _positions(self, actions: np.ndarray, live: np.ndarray) -> np.ndarray:
        """The positions ``actions`` flip in the ``live`` games: the actions themselves, or with
        ``action="kinds"`` positions drawn among those of each kind (a kind no legal position holds is refused,
        naming its sub-environment, before any game changes)."""
        if self.action_type.positional:  # the games refuse an illegal position themselves, naming the game
            return actions
        positions = np.zeros(self.num_envs, dtype=np.int64)
        rows = np.flatnonzero(live)
        if len(rows):
            try:
                positions[rows] = self.action_type.to_positions(actions[rows], lambda: self.games.legal_mask()[rows],
                                                                lambda: self._learner_plain()[rows], self._rng)
            except IllegalFlipError as error:  # error.row counts the live rows: name the sub-environment
                raise IllegalFlipError(f"sub-environment {rows[error.row]}: {error}") from None
        return positions

    def _flipped(self, positions: np.ndarray) -> dict[str, np.ndarray]:
        """``info["position"]`` where the env picks the positions (``action="kinds"``): the position each
        sub-environment's action flipped (-1 where none was)."""
        return {} if self.action_type.positional else {"position": np.asarray(positions, dtype=np.int64)}

    def _observe(self, rows: np.ndarray | None = None) -> np.ndarray:
        """The learner's observations in every game (or games ``rows``), as a new array."""
        known = self.known & (self.games.table >= 0)
        if rows is None:
            self._observations.flags.writeable = True
            plain = self.encoder.fill(self.games, known, self.seats, self._observations)
            self._keep_plain(plain)
        else:
            out = np.empty((len(rows), OBSERVATION_SIZE), dtype=np.float32)
            plain = self.encoder.fill(self.games, known, self.seats[rows], out, rows=rows)
        return self.observation_type.from_plain(plain)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seats.copy()}
