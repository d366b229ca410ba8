"""
# Gold Rush (piecepack)

| | |
|---|---|
| Import | `from goldrush_env.piecepack import env` (or `raw_env`) |
| Registered as | `goldrush_env/piecepack-v0` (PettingZoo), `GoldRushPiecepack-v0` (Gymnasium, one learner) |
| Actions | Discrete |
| Parallel API | No |
| Manual control | No |
| Agents | `agents = ['player_0', ..., 'player_{n-1}']`, n = 3 or 4 |
| Action shape | (1,) |
| Action values | Discrete(488) |
| Observation shape | `observation` (1443,), `action_mask` (488,) |
| Observation values | [0, 1] |

*Gold Rush* for one piecepack (rules: docs/piecepack-rules.md, the engine:
:class:`goldrush_env.piecepack.engine.Game`). Nine rounds on a 4 x 6 field
of land plots, each holding a face-down tile and a face-down coin (whose
suit, but not rank, shows). Each round the production dice are rolled,
players trade, stake a claim on a plot, then develop: assay hidden pieces
(privately), turn their own face up, build and upgrade. Ore is worth 1,
Gold 3 and each Trade Route, Market and Warehouse 8 points at the end.

## Observation Space

A dict: `observation`, a float32 vector of exactly what the agent knows
(docs/piecepack-rules.md §7), and `action_mask`. It is the encoding of
`Game.known_to(seat)`, the public state plus the identities of the
face-down pieces this seat assayed itself (written by the compiled game
the environment plays, `goldrush_env.piecepack.kernel`), so
another seat's assay shows only as "that seat assayed this piece". Seats
are relative to the observer (relative seat 0 is the observer, 1 the next
seat clockwise, ...). Plot
planes run over plots `p = 6 row + col`, row 0 at the bottom
(`goldrush_env.piecepack.encoder` has the slices by name).

| Index | Name | Shape | Meaning |
|---|---|---|---|
| 0-1 | `players` | 2 | one-hot: 3 or 4 players |
| 2-10 | `round` | 9 | one-hot: round 1-9 |
| 11-18 | `phase` | 8 | one-hot decision point: warehouse_food, warehouse_energy, free_trade_turn, offer_response, market_sell, claim, development_turn, game_over |
| 19-22 | `to_play` | 4 | relative seat to act (all 0 once the game is over) |
| 23-26 | `start` | 4 | relative seat of the start player |
| 27-27 | `claims_this_round` | 1 | 1 if this round has a Stake Claim phase (P29) |
| 28-147 | `owner` | 5x24 | per plot, one-hot: the owning relative seat, or unoccupied (last row) |
| 148-315 | `building` | 7x24 | per plot, one-hot building type (Farm, Windmill, Mine, Gold Mine, Trade Route, Market, Warehouse); all 0: none |
| 316-339 | `level` | 24 | per plot, upgrade level / 4 |
| 340-435 | `coin_suit` | 4x24 | per plot, one-hot suit of its coin (Moons, Suns, Arms, Crowns), always public |
| 436-459 | `tile_face_up` | 24 | 1 where the tile is face up |
| 460-483 | `coin_face_up` | 24 | 1 where the coin is face up |
| 484-579 | `tile_suit` | 4x24 | per plot, one-hot suit of the tile where this seat knows it (face up, or face down and assayed by this seat) |
| 580-723 | `tile_rank` | 6x24 | per plot, one-hot rank 0-5 (0: Null) of the tile where this seat knows it (face up, or face down and assayed by this seat) |
| 724-867 | `coin_rank` | 6x24 | per plot, one-hot rank 0-5 of the coin where this seat knows it (face up, or face down and assayed by this seat) |
| 868-963 | `tile_assayed` | 4x24 | per relative seat: 1 where that seat has assayed the tile (public) |
| 964-1059 | `coin_assayed` | 4x24 | per relative seat: 1 where that seat has assayed the coin (public) |
| 1060-1063 | `seats` | 4 | 1 for each relative seat in the game |
| 1064-1079 | `holdings` | 4x4 | per relative seat: Food, Energy, Ore, Gold / 20, clipped at 1 |
| 1080-1083 | `markers` | 4 | per relative seat: ownership markers left / 8 |
| 1084-1087 | `scores` | 4 | per relative seat: score now (§5) / 100, clipped at 1 |
| 1088-1091 | `market_used` | 4 | per relative seat: 1 if it has used a Market this round |
| 1092-1095 | `offers_made` | 4 | per relative seat: offers made this Free Trade phase / 3 |
| 1096-1119 | `dice` | 4x6 | per production die (Moon, Sun, Arms, Crown): one-hot face 0-5 of this round |
| 1120-1143 | `powered` | 24 | 1 at the plots whose Mine or Gold Mine was powered this round |
| 1144-1159 | `warehouse` | 4x2x2 | per relative seat, for Food then Energy: one-hot protect, decline (all 0: not asked this round) |
| 1160-1170 | `market_sum` | 11 | one-hot: the last Market sum N (2-12) rolled this round; all 0: none |
| 1171-1190 | `pending_offer` | 20 | the offer awaiting an answer, one-hot fields: offerer (relative seat, 4), target (4), resource given X (4), a = 1-2 (2), resource asked Y (4), b = 1-2 (2); all 0: none |
| 1191-1442 | `offer_log` | 12x21 | this round's answered offers in order, each as `pending_offer` then 1 if accepted; all 0: no such offer |

`observe(agent)` is valid for every agent at any time.

## State

`state()` is the whole truth as one float32 vector (`state_space`, a `Box`
in [0, 1] of 1,443 values) for centralised critics: the same slices as an
observation, but with absolute seats (seat 0 is `player_0`) and the
identity of every piece, face up or down. A policy that reads it at play
time cheats.

| Index | Name | Shape | Meaning |
|---|---|---|---|
| 0-1 | `players` | 2 | one-hot: 3 or 4 players |
| 2-10 | `round` | 9 | one-hot: round 1-9 |
| 11-18 | `phase` | 8 | one-hot decision point: warehouse_food, warehouse_energy, free_trade_turn, offer_response, market_sell, claim, development_turn, game_over |
| 19-22 | `to_play` | 4 | seat to act (all 0 once the game is over) |
| 23-26 | `start` | 4 | seat of the start player |
| 27-27 | `claims_this_round` | 1 | 1 if this round has a Stake Claim phase (P29) |
| 28-147 | `owner` | 5x24 | per plot, one-hot: the owning seat, or unoccupied (last row) |
| 148-315 | `building` | 7x24 | per plot, one-hot building type (Farm, Windmill, Mine, Gold Mine, Trade Route, Market, Warehouse); all 0: none |
| 316-339 | `level` | 24 | per plot, upgrade level / 4 |
| 340-435 | `coin_suit` | 4x24 | per plot, one-hot suit of its coin (Moons, Suns, Arms, Crowns), always public |
| 436-459 | `tile_face_up` | 24 | 1 where the tile is face up |
| 460-483 | `coin_face_up` | 24 | 1 where the coin is face up |
| 484-579 | `tile_suit` | 4x24 | per plot, one-hot suit of the tile face up or down (the truth) |
| 580-723 | `tile_rank` | 6x24 | per plot, one-hot rank 0-5 (0: Null) of the tile face up or down (the truth) |
| 724-867 | `coin_rank` | 6x24 | per plot, one-hot rank 0-5 of the coin face up or down (the truth) |
| 868-963 | `tile_assayed` | 4x24 | per seat: 1 where that seat has assayed the tile (public) |
| 964-1059 | `coin_assayed` | 4x24 | per seat: 1 where that seat has assayed the coin (public) |
| 1060-1063 | `seats` | 4 | 1 for each seat in the game |
| 1064-1079 | `holdings` | 4x4 | per seat: Food, Energy, Ore, Gold / 20, clipped at 1 |
| 1080-1083 | `markers` | 4 | per seat: ownership markers left / 8 |
| 1084-1087 | `scores` | 4 | per seat: score now (§5) / 100, clipped at 1 |
| 1088-1091 | `market_used` | 4 | per seat: 1 if it has used a Market this round |
| 1092-1095 | `offers_made` | 4 | per seat: offers made this Free Trade phase / 3 |
| 1096-1119 | `dice` | 4x6 | per production die (Moon, Sun, Arms, Crown): one-hot face 0-5 of this round |
| 1120-1143 | `powered` | 24 | 1 at the plots whose Mine or Gold Mine was powered this round |
| 1144-1159 | `warehouse` | 4x2x2 | per seat, for Food then Energy: one-hot protect, decline (all 0: not asked this round) |
| 1160-1170 | `market_sum` | 11 | one-hot: the last Market sum N (2-12) rolled this round; all 0: none |
| 1171-1190 | `pending_offer` | 20 | the offer awaiting an answer, one-hot fields: offerer (seat, 4), target (4), resource given X (4), a = 1-2 (2), resource asked Y (4), b = 1-2 (2); all 0: none |
| 1191-1442 | `offer_log` | 12x21 | this round's answered offers in order, each as `pending_offer` then 1 if accepted; all 0: no such offer |

## Action Space

`Discrete(488)`, the actions of docs/piecepack-rules.md §4 (`goldrush_env.piecepack.actions`
has the index formulas and `describe`): 0-23 CLAIM, 24-71 ASSAY tile/coin,
72-119 OPTIMIZE tile/coin, 120-287 BUILD, 288-311 UPGRADE, 312
END_DEVELOPMENT, 313-456 OFFER, 457 ACCEPT, 458 DECLINE, 459-470
TRADE_ROUTE, 471 MARKET_ROLL, 472-484 MARKET_SELL, 485 END_FREE_TRADE,
486/487 WAREHOUSE protect/decline. One agent acts at a time; a Free Trade
or Development turn is a run of actions by the same agent, ended by its END
action, and an offer hands control to its target for one answer.

## Action Mask

`action_mask` (int8, 488) is 1 at the actions the agent may take now
(`Game.legal_mask()`), and all 0 for agents who are not to act (and once
the game is over). `raw_env` refuses an illegal action with
`goldrush_env.piecepack.errors.IllegalActionError` naming it and why;
`env()` follows PettingZoo's convention for classic games: an illegal
move ends the game, with `-1` for the agent that made it and `0` for the
others (:class:`goldrush_env.wrappers.ClassicChecks`).

## Rewards

`reward="win"` (default), paid when the game ends, from `Game.winners()`
(top score, then most Food; ties share, P39):

| Outcome | Reward |
|---|---|
| A sole winner | +1 |
| Each of several co-winners | 0 |
| Every other seat | -1 |

`reward="score"`: whenever scores (§5: Ore + 3 Gold + 8 per Trade Route,
Market and Warehouse standing) change, every agent receives
`(its score change - mean score change of the other seats) / 10`
(:data:`SCORE_REWARD_SCALE`), so the sum over a game is
`(own final score - mean final score of the others) / 10`. Scores change
when other seats act (trades, production), so rewards reach agents that
are not acting; PettingZoo's `last()` hands them over at their next turn.
`info` holds `scores` and `winners` once the game is over.

## Arguments

`env(num_players=3, reward="win", render_mode=None, render_view="active")`:
the fields of :class:`PiecepackConfig`, which documents each; an unknown
argument is refused with `goldrush_env.errors.UnknownOptionError`. The
game always lasts 9 rounds, so there is no truncation.

`reset(seed=None, options=None)`: `seed` deals the game (tiles, coins, the
start player and every die come from it). `options` may hold `record`, a
game record of docs/piecepack-rules.md §9 (its `players` must be `num_players`): the
game starts from its setup and random outcomes, with its `actions` (if any)
replayed and checked; dice beyond the record's are drawn from the seed;
or `first_player`, the seat that starts (else the seed draws it, as the
rules do; the deal is the same either way). Other keys are ignored with a warning (PettingZoo's own API test passes
one).

## Rendering

`"ansi"` returns the field as text as the viewer knows it (`render_view`:
`"active"`, the agent to act; a seat; `"public"`, what every seat sees; or
`"all"`, every piece), with holdings, scores and dice; `"rgb_array"`
a picture of the same (uint8, H x W x 3); `"human"` shows that picture in
a pygame window after `reset()` and every `step()`, at most `render_fps`
(2) frames a second (:mod:`goldrush_env.window`). The drawing code is in
:mod:`goldrush_env.piecepack.render`.

## Version History

* v0: first release.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from goldrush_env.aec_base import SCORE_REWARD_SCALE, TurnBasedEnv  # noqa: F401  (re-exported)
from goldrush_env.checks import is_int
from goldrush_env.live import LiveGame
from goldrush_env.options import RENDER_MODES, REWARDS, Options
from goldrush_env.piecepack import render as rendering
from goldrush_env.piecepack.actions import NUM_ACTIONS
from goldrush_env.piecepack.components import MAX_PLAYERS, MIN_PLAYERS
from goldrush_env.piecepack.encoder import OBSERVATION_SIZE, STATE_SIZE, truth
from goldrush_env.piecepack.engine import Game
from goldrush_env.piecepack.errors import PiecepackError
from goldrush_env.piecepack.single import SingleGame
from goldrush_env.policy import SeatView
from goldrush_env.wrappers import ClassicChecks

RENDER_VIEWS = ("active", "public", "all")


@dataclass(frozen=True)
class PiecepackConfig(Options):
    """Options of the piecepack environments. Every field has the default used everywhere."""

    error: ClassVar[type[PiecepackError]] = PiecepackError

    num_players: int = 3
    """Seats at the table, 3 or 4 (P1)."""
    reward: str = "win"
    """``"win"``: at the end, +1 to a sole winner, 0 to each of several co-winners, -1 to every other seat.
    ``"score"``: whenever scores change, (own change - mean change of the others) x :data:`SCORE_REWARD_SCALE`."""
    render_mode: str | None = None
    """``"ansi"``, ``"rgb_array"``, ``"human"`` (the picture in a pygame window) or ``None``."""
    render_view: str | int = "active"
    """Whose knowledge a rendering shows: ``"active"`` (the seat to act; every piece once the game is over), a
    seat number, ``"public"`` (no private assay) or ``"all"`` (every piece, for debugging)."""

    def __post_init__(self) -> None:
        refuse = self.refuse
        if not is_int(self.num_players, MIN_PLAYERS, MAX_PLAYERS):
            refuse("num_players", f"{MIN_PLAYERS} or {MAX_PLAYERS} (P1)")
        if self.reward not in REWARDS:
            refuse("reward", f"one of {REWARDS}")
        if self.render_mode is not None and self.render_mode not in RENDER_MODES:
            refuse("render_mode", f"None or one of {RENDER_MODES}")
        if not (self.render_view in RENDER_VIEWS or is_int(self.render_view, 0, self.num_players - 1)):
            refuse("render_view", f"one of {RENDER_VIEWS} or a seat from 0 to {self.num_players - 1}")


def env(**kwargs: Any) -> AECEnv:
    """The piecepack AEC environment with the checks of PettingZoo's standard wrappers for classic games
    (order enforcing, action bounds, an illegal move ends the game with -1), in one layer."""
    return ClassicChecks(raw_env(**kwargs), illegal_reward=-1)


class raw_env(TurnBasedEnv):
    """The bare piecepack AEC environment (see the module docstring); an illegal action raises."""

    metadata = {**TurnBasedEnv.metadata, "name": "gold_rush_piecepack_v0"}
    rendering = rendering

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(kwargs, PiecepackConfig.from_kwargs(**kwargs),
                         spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32), NUM_ACTIONS,
                         spaces.Box(0.0, 1.0, (STATE_SIZE,), np.float32))
        self.one: SingleGame | None = None
        """The game on the compiled state, which every step plays (:class:`~goldrush_env.piecepack.single.
        SingleGame`)."""

    @property
    def game(self) -> LiveGame | None:
        """The readable engine's game (:class:`~goldrush_env.live.LiveGame`: made when read, and kept up to date).
        A change made to it by hand reaches the environment through :meth:`sync`."""
        return None if self.one is None else self.one.live

    # --- reset / step -------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        options = dict(options or {})
        record = options.pop("record", None)
        first_player = options.pop("first_player", None)
        if options:
            warnings.warn(f"reset() ignores the unknown options {sorted(options)}; the options are 'record' and "
                          "'first_player'", stacklevel=2)
        n = self.config.num_players
        if record is None:
            game = Game.new(n, self._np_random, first_player=first_player)
        else:
            if not isinstance(record, dict) or record.get("players") != n:
                raise PiecepackError(f"options['record'] must be a record of a {n}-player game (its 'players' "
                                     f"is {record.get('players') if isinstance(record, dict) else record!r})")
            game = Game.from_record(record, rng=self._np_random)
        self.one = SingleGame(game, self._np_random)
        self._deal(self.one, self._final_info)

    def step(self, action: int | None) -> None:
        agent, one = self.agent_selection, self._game_to_step(action)
        if one is None:
            return
        if not (is_int(action, 0, NUM_ACTIONS - 1) and one.mask[action]):
            one.live.refuse(action)  # the engine names the action and why, before anything changes
            raise PiecepackError(f"action {action!r}: the compiled game refuses what the engine allows")
        before = one.scores() if self.config.reward == "score" else None
        one.play(int(action))
        self._settle(agent, one, self._gains(one, before))

    def sync(self) -> None:
        """Hand the environment :attr:`game` as it now stands, after a change made to it by hand (a position set up
        by hand, say): the compiled game restarts from it, and :attr:`game` follows on from there."""
        one = self._require_game()
        self.one = SingleGame(one.live.current(), one.rng, one.live)

    def _require_game(self) -> SingleGame:
        super()._require_game()
        return self.one

    _final_info = TurnBasedEnv._result_info

    # --- what agents see ------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = self.action_mask(agent).view(np.int8)
        return {"observation": self._require_game().observation(self.agent_name_mapping[agent]), "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global state (the module docstring's *State* table): every piece, absolute seats. For training
        a centralised critic, not for playing."""
        return self._require_game().observation(-1)

    def action_mask(self, agent: str) -> np.ndarray:
        """The bool mask of the actions ``agent`` may take now (all False if it is not to act)."""
        seat = self.agent_name_mapping[agent]
        one = self._require_game()
        if seat != one.current_player:
            return np.zeros(NUM_ACTIONS, dtype=bool)
        return one.mask.copy()

    def is_legal(self, action: int) -> bool:
        """Whether the agent to act may take ``action`` (an int from 0 to 487) now."""
        one = self._require_game()
        return not one.is_over and bool(one.mask[action])

    def view(self, agent: str | int) -> SeatView:
        """The :class:`~goldrush_env.policy.SeatView` of an agent (name or seat): its ``knowledge`` is
        ``Game.known_to(seat)``, the public state with absolute seats (``holdings``, ``owners``, ``buildings``,
        ``dice``, ``pending_offer`` ...) plus ``identities``, the codes of the face-down pieces this seat assayed."""
        seat = self.agent_name_mapping[agent] if isinstance(agent, str) else int(agent)
        one = self._require_game()
        return SeatView(seat=seat, knowledge=one.live.known_to(seat),
                        action_mask=self.action_mask(self.possible_agents[seat]), observation=one.observation(seat))

    # --- rendering ------------------------------------------------------------------

    def render_subject(self) -> dict[str, Any]:
        """The knowledge :attr:`PiecepackConfig.render_view` names, in the form of ``Game.known_to``."""
        game = self._require_game().live.current()
        viewer = self.config.render_view
        if viewer == "all":
            return truth(game)
        if viewer == "public":
            known = game.public_state()
            known.update(seat="public", identities={})
            return known
        seat = viewer if viewer != "active" else game.current_player
        if seat is None:  # the game is over: show the table
            return truth(game)
        return game.known_to(seat)
