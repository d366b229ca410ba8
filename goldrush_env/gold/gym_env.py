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

## One game, two ways to play the opponents

Every episode is played on Gold's compiled game
(:class:`~goldrush_env.gold.single.SingleGame`). When every opponent has a
compiled form and nothing is rendered (``render_mode=None``), the opponents
play inside it too (:func:`goldrush_env.gold.kernel.advance_one`: one call
per step plays the learner's flip and the opponents' up to its next turn),
several times as fast as asking them in Python (``benchmarks/bench.py``).
The compiled forms: the default opponents (``None``) and any
:class:`~goldrush_env.policy.RandomPolicy` play as the kernel's random
player; a policy with a ``kernel_player()`` method returning a
:class:`~goldrush_env.gold.vector.KernelPlayer` plays as that
(``goldrush_agents``' ``greedy`` and ``expert`` do, the same flips as their
Python selves). Any other opponent, or a ``render_mode``, and the episode
runs through :attr:`game_env`, the AEC environment, whose steps ask the
opponents flip by flip; :attr:`on_kernel` says which way the episode under
way takes, and :meth:`set_opponents` may change it at the next reset.

Both ways show the same things: spaces, observations, masks, rewards,
``info``, :meth:`view`, errors. A seed deals the same table, seats the
learner at the same seat and seeds the same game stream
(:class:`goldrush_env.streams.Stream`) on both, from which the opponents'
tie-breaks, the position a kind of card turns and the human memory's
forgetting are drawn. ``tests/gold/test_gym_kernel.py`` plays compiled
episodes again with the opponents asked in Python, flip for flip.

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
from goldrush_env.gold.aec import raw_env, start
from goldrush_env.gold.single import SingleGame
from goldrush_env.gold.vector import BatchedRandom, KernelPlayer, _players_of, engine_of
from goldrush_env.policy import Policy, RandomPolicy, SeatView
from goldrush_env.learner import OneLearnerEnv

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
        self._game = SingleGame(aec.config)
        self._forms: list[KernelPlayer] = []
        self._position: int | None = None  # the position the learner's last kind turned, this episode
        super().__init__(aec, opponents, seat, illegal_action)

    # --- which path ------------------------------------------------------------------

    @property
    def game_env(self) -> raw_env:
        """The AEC environment of the game. On the AEC path it plays the game; on the kernel path it is brought
        to the kernel's game when read (a copy of its records), to read, not to step."""
        if self.on_kernel:
            self._aec.adopt(self._game)
        return self._aec

    @game_env.setter
    def game_env(self, env: raw_env) -> None:
        self._aec = env

    def set_opponents(self, opponents: Policy | Sequence[Policy] | None) -> None:
        super().set_opponents(opponents)
        forms = [compiled_form(policy) for policy in self.opponents]
        self._compiled = None not in forms and self._prepare(forms)

    def _prepare(self, forms: list[KernelPlayer]) -> bool:
        """Make the kernel's game ready to play these opponents (one per seat after the learner's) from the next
        reset; False if they cannot share a game in the kernel (one engine, one worth table)."""
        if [id(form) for form in forms] == [id(form) for form in self._forms]:
            return True  # the same players again (a mix that changes the opponents at every reset)
        try:
            self._game.players = _players_of(forms, np.ones(len(forms)), self.config.num_players)
            self._game.engine = engine_of(forms)
        except GoldrushEnvError:
            return False
        self._forms = forms
        return True

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
        start(self._game, seeding.np_random(int(self.np_random.integers(0, 2**63)))[0], options)  # the AEC's deal
        turn = self._game.turn
        for k in range(1, n):
            turn["entrants"][(self.seat + k) % n] = k - 1
        self._ended = self._play(-1)[2] != 0
        return self.observe_learner()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        if not self.on_kernel:
            return super().step(action)
        if self._ended:
            raise self.error("the episode has ended (or never began): call reset() first")
        if type(action) is not int or not 0 <= action < self.action_space.n:
            if not self.action_space.contains(action):
                raise self.illegal_error(f"action {action!r} is not in the action space "
                                         f"Discrete({self.action_space.n})")
            action = int(action)
        position, reward, end = self._play(action)
        if position == -2:
            return self._refuse(action)
        if not self._game.action_type.positional:
            self._position = position
        self._ended = end != 0
        observation, info = self._observe_kernel(self._ended)
        return observation, reward, end == 1, end == 2, info

    def _play(self, action: int) -> tuple[int, float, int]:
        """One step of the kernel: the learner's ``action`` (-1: none), then the opponents up to its next turn.
        Returns the position the action turned (-1 for none, -2 if the rules refuse it: then nothing changed), the
        learner's reward and how the game stands (0 in play, 1 over, 2 truncated)."""
        game = self._game
        position = game.play(action, self.seat)
        if position == -2:
            return -2, 0.0, 0
        turn = game.turn
        end = 0 if turn["status"] != kernel.FINISHED else (1 if turn["terminated"] else 2)
        return position, float(turn["reward"]), end

    def _refuse(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        """The kernel path's answer to an illegal action, the AEC path's: raised, or the end of the episode."""
        error = self.game_env._refusal(action, self._game.current_player)
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
            return self._observe_kernel(self._game.is_finished)
        observation, info = super().observe_learner()
        position = self._aec.infos[self._agent].get("position")
        if position is not None:
            info["position"] = position
        return observation, info

    def _observe_kernel(self, finished: bool) -> tuple[np.ndarray, dict[str, Any]]:
        game = self._game
        info = {"action_mask": game.masks[0].copy(), "seat": self.seat}
        if finished:
            info.update(scores=game.scores, winners=game.winners())
        if self._position is not None:
            info["position"] = self._position
        return game.observation(game.observations[0]), info

    def finished(self) -> bool:
        return self._game.is_finished if self.on_kernel else super().finished()

    def truncated(self) -> bool:
        return self._game.is_finished and not self._game.is_over if self.on_kernel else super().truncated()

    def action_masks(self) -> np.ndarray:
        return self._game.masks[0].copy() if self.on_kernel else super().action_masks()

    def view(self) -> SeatView:
        """The learner's :class:`~goldrush_env.policy.SeatView`, as the AEC environment builds it."""
        return self._game.view(self.seat) if self.on_kernel else super().view()

    def render(self) -> str | np.ndarray | None:
        return self._aec.render()  # the kernel path has no render_mode: this only warns, as the AEC env does

    def close(self) -> None:
        self._aec.close()
