"""
# Gold

| | |
|---|---|
| Import | `from goldrush_env.gold import env` (or `raw_env`) |
| Registered as | `goldrush_env/gold-v1` (PettingZoo), `goldrush_env:Gold-v1` (Gymnasium, one learner) |
| Actions | Discrete |
| Parallel API | No |
| Manual control | `goldrush play` |
| Agents | `agents = ['player_0', ..., 'player_{n-1}']`, n = 2..5 |
| Action shape | (1,) |
| Action values | Discrete(30), a kind of card (`action="positions"`: Discrete(64), a position) |
| Observation shape | `observation` (173,) (`"plain"`: 2102, `"pairs"`: 2230), `action_mask` (30,) (`action="positions"`: (64,)) |
| Observation values | [-1, 1] (`pair_best` and `pair_face_up`; the rest in [0, 1]); `"plain"`: [0, 1]; `"pairs"`: its last 128 in [-1, 1] |

Reiner Knizia's *Gold*: 64 cards face down on an 8x8 grid. On your turn you
flip two cards one after the other; a miner at least as strong as a gold
carries it to the miner's owner, two miners duel, dynamite blows both cards
away, anything else goes back face down where it was. With ten cards or fewer
left the rush (the rule sheets' *Gold Rush*) begins: one card a turn, gold to whoever flips it. The
winner holds the most gold. The game rewards memory: every flip is public,
and each agent observes what *it* remembers.

## Observation Space

A dict: `observation`, a float32 vector described below, and
`action_mask`. Everything is from the observing agent's point of view:
seats are relative to it (relative seat 0 is the observer, 1 plays after it,
...), miners are described by their owner (*me*, *opponent k*, *unowned*)
rather than their colour, so one policy can play any seat. A card's
category is its kind (all the rules can tell of it) as the agent sees it;
the 29 categories, in order: `gold_1`..`gold_4`, `dynamite`, then
`miner_<owner>_<value>` for owner in me, opponent_1..opponent_4, unowned
and value 2..5 (`goldrush_env.gold.cards.CATEGORY_NAMES`). Positions follow
the 8x8 grid row by row (D7).

Three vectors are on offer. The default, `observation="kinds"` (with
`action="kinds"`, the default), is a short one about kinds of card, read off
the plain vector; it is described after the plain one it is made from.
`observation="plain"` is the whole of what the seat knows, position by
position:

| Index | Name | Shape | Meaning |
|---|---|---|---|
| 0-63 | `empty` | 64 | 1 where the position holds no card |
| 64-127 | `unknown` | 64 | 1 where a card lies face down and this seat does not know it |
| 128-191 | `face_up` | 64 | 1 at the face-up first card of the current turn |
| 192-2047 | `cards` | 29x64 | one plane per card category: 1 where this seat sees or remembers such a card |
| 2048-2052 | `scores` | 5 | points per relative seat / 60 |
| 2053-2057 | `gold_cards` | 5 | gold cards per relative seat / 24 |
| 2058-2062 | `seats` | 5 | 1 for each relative seat in the game |
| 2063-2067 | `to_play` | 5 | relative seat of the player to flip (all 0 once the game has ended) |
| 2068-2070 | `phase` | 3 | one-hot: first flip of a normal turn, second flip, rush flip |
| 2071-2071 | `cards_left` | 1 | cards on the table / 64 |
| 2072-2072 | `turn` | 1 | completed turns / turn limit (0 without a limit) |
| 2073-2101 | `unseen` | 29 | per category, face-down cards this seat cannot place (unseen or forgotten) / 7 |

The composition of the deal is public (the full box, or the cards of a
custom layout), so `unseen` is what card counting needs. What an agent
remembers depends on the memory model (`memory`): with `"perfect"` it
knows every card revealed and still on the table; with `"human"` it forgets
(see :mod:`goldrush_env.gold.memory`), by draws from the game's stream. `observe(agent)` is valid for every
agent at any time.

With `observation="pairs"` the vector goes on with two planes (2,230
values in all), read off the vector above and nothing else, so they tell
nothing the seat does not know. They put at each position a fact that
otherwise relates two positions ("this card and that one make a strike"),
for networks that see positions one by one, such as a plain MLP. Gold is
counted from the seat's side: positive when a strike pays it (its own miner,
or an unowned one, which pays whoever turns it), negative when it pays
another seat; 0 where no pair strikes.

| Index | Name | Shape | Meaning |
|---|---|---|---|
| 2102-2165 | `pair_best` | 64 | at a card this seat knows: the most gold it would gain (negative: give away) by turning that card with another it knows / 4 |
| 2166-2229 | `pair_face_up` | 64 | at a card this seat knows, while a first card is face up: the gold it would gain (negative: give away) by turning that card second / 4 |

With `observation="kinds"` (the default; for `action="kinds"` only, see *Action
Space*) the vector is a short one about kinds of card rather than positions,
read off the plain vector above and nothing else. A kind here is one of
the 29 categories, or `unknown` (a face-down card this seat cannot place):
the 30 actions of `action="kinds"`, named in
`goldrush_env.gold.variants.ACTION_TYPES["kinds"].names`.

| Index | Name | Shape | Meaning |
|---|---|---|---|
| 0-29 | `known` | 30 | per kind, the face-down cards of that kind this seat knows, not counting the face-up one / 7; for `unknown`, the face-down cards it cannot place / 64 |
| 30-58 | `face_up` | 29 | one-hot: the category of the face-up first card of the current turn |
| 59-88 | `pair_best` | 30 | per kind this seat knows a card of: the most gold it would gain (negative: give away) by turning that card with another card it knows / 4 (0 for `unknown`) |
| 89-118 | `pair_face_up` | 30 | while a first card is face up: the gold this seat would gain (negative: give away) by turning a card of that kind second / 4; for `unknown`, the mean over the cards it cannot place |
| 119-147 | `unseen` | 29 | per category, face-down cards this seat cannot place / 7 |
| 148-172 | `standing` | 25 | the plain vector's `scores`, `gold_cards`, `seats`, `to_play`, `phase`, `cards_left` and `turn`, as there |

## State

`state()` is the global state as one float32 vector (`state_space`, a
`Box` in [0, 1] of 2,103 values), for centralised critics (MAPPO-style
training): every card on the table, absolute seats (seat 0 is `player_0`),
miners by colour with each colour's owner, and what each seat knows. A
policy that reads it at play time sees the hidden cards.

| Index | Name | Shape | Meaning |
|---|---|---|---|
| 0-1663 | `cards` | 26x64 | one-hot per position: plane 0 where it holds no card, plane 1 + c where card id c lies (`goldrush_env.gold.cards`: `G1`..`G4`, `D`, then `M<colour><value>`), face down or up |
| 1664-1727 | `face_up` | 64 | 1 at the face-up first card of the current turn |
| 1728-2047 | `known` | 5x64 | per seat: 1 where that seat sees or remembers the card (0 for seats not in the game) |
| 2048-2077 | `colour_owner` | 5x6 | per miner colour, one-hot: the seat owning it, or unowned (last column) |
| 2078-2082 | `scores` | 5 | points per seat / 60 |
| 2083-2087 | `gold_cards` | 5 | gold cards per seat / 24 |
| 2088-2092 | `seats` | 5 | 1 for each seat in the game |
| 2093-2097 | `to_play` | 5 | the seat to flip (all 0 once the game has ended) |
| 2098-2100 | `phase` | 3 | one-hot: first flip of a normal turn, second flip, rush flip (all 0 once ended) |
| 2101-2101 | `cards_left` | 1 | cards on the table / 64 |
| 2102-2102 | `turn` | 1 | completed turns / turn limit (0 without a limit) |

## Action Space

A normal turn is two actions in a row by the same agent, which sees its
first card (face up, in the observation) before choosing the second. In the
rush a turn is one action. With `action="positions"`, `Discrete(64)`:
the position to flip.

By default (`action="kinds"`), `Discrete(30)`: a kind of card to turn
(`goldrush_env.gold.variants.ACTION_TYPES["kinds"].names`): action
k < 29 turns a face-down card of category k that this seat knows, action
29 a face-down card it does not know. Under the rules, cards of one category do the same wherever
they lie, and with perfect memory so do all the cards nobody has seen: the
29 + 1 actions lose nothing the 64 positions offer, and a policy learns
each decision once instead of once per position. The environment draws the
position among those that realise the action, uniformly, from the game's
own stream, which `reset(seed)` seeds; `infos[agent]["position"]` says which.
`view(agent)` stays about positions (its mask and vector), and
`step_from_view(position)` steps with a position, for players written
over views (scripted opponents, people).

## Action Mask

`action_mask` (int8, 64) is 1 at the face-down cards the agent may flip
now (with `action="kinds"`, (30,): 1 at the kinds some such card is), and
all 0 for agents whose turn it is not (and once the game has ended: a
finished agent's only step is `None`, by PettingZoo's rule, so no mask
could offer it an action).
`raw_env` refuses an illegal action with `IllegalFlipError` naming the
position and why; `env()` follows PettingZoo's convention for classic
games: an illegal move ends the game, with `-1` for the agent that made it
and `0` for the others (the rule of `TerminateIllegalWrapper`; `env()`
makes the checks of PettingZoo's three standard wrappers in one faster layer,
:class:`goldrush_env.wrappers.ClassicChecks`).

## Rewards

`reward="score"` (default): after each flip every agent receives
`(its gold gained - mean gold gained by the other seats) / 10`, so the sum
over a game is `(own score - mean opponent score) / 10`; zero-sum with two
players. Gold may be struck by another seat's flip (an opponent flipping your
miner), so rewards reach agents when they are not acting; PettingZoo's
`last()` hands them over at the agent's next turn. Who won is the game's to
say, whatever the reward: `env.unwrapped.game.result().winners`.

`reward="win"`, paid when the game ends (or is truncated by the
turn limit, judged on the scores so far):

| Outcome | Reward |
|---|---|
| A sole winner | +1 |
| Each of several co-winners (D5) | 0 |
| Every other seat | -1 |

A shared victory counts as a draw between the co-winners: in two-player
games the rewards are therefore always zero-sum. With this reward only
the agent that moved last hears at once how the game ended; the others hear
it at their next `last()`.

## Arguments

`env(num_players=2, table="full", observation="kinds", action="kinds", reward="score",
memory="perfect", forget_prob=0.1, memory_capacity=12, max_turns=200,
render_mode=None, render_view="active")`: the fields of :class:`goldrush_env.gold.config.EnvConfig`,
which documents each; an unknown argument is refused. `max_turns` is the
turn limit (D4): the game is then truncated, not terminated. `table` deals
the full game's 64 cards, or a smaller table of 32 (`"half"`) or 16
(`"quarter"`) cards from a box in about the same proportions, laid on the
first rows of the grid, with the rush at 5 and 3 cards: quick variants
for experiments and curricula, with the same spaces.

`reset(seed=None, options=None)`: `seed` deals the table and seeds each
agent's forgetting. `options` may hold `layout` (64 card codes, see
:mod:`goldrush_env.gold.cards`) and `first_player` (a seat); other keys are
ignored with a warning (PettingZoo's own API test passes one).

## Rendering

`"ansi"` returns the grid as text as the viewer knows it (`render_view`:
the agent to play, a seat, or `"all"` for every card face up) with
scores and whose turn it is; `"rgb_array"` returns a picture of the table
(uint8, H x W x 3); `"human"` shows that picture in a pygame window as the
game is played, after `reset()` and every `step()`, at most `render_fps`
(2) frames a second, until `close()` (:mod:`goldrush_env.window`; pygame
comes with the `render` extra). The drawing code is in
:mod:`goldrush_env.gold.render`.

## Version History

* v1: the defaults are `action="kinds"`, `observation="kinds"` and
  `reward="score"`, under which the stock learners and PettingZoo's SB3
  tutorial learn as they stand (docs/libraries.md); the environment's name
  in `metadata` is `gold_v1`. Version 0's defaults are one option each away:
  `action="positions", observation="plain", reward="win"`. The id
  `goldrush_env/gold-v0` is retired: it raises an error that names
  `goldrush_env/gold-v1` and these options.
* v0: first release.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from goldrush_env.aec_base import SCORE_REWARD_SCALE, TurnBasedEnv  # noqa: F401  (re-exported)
from goldrush_env.errors import IllegalFlipError
from goldrush_env.gold import kernel
from goldrush_env.gold import render as rendering
from goldrush_env.gold.cards import TABLES
from goldrush_env.gold.config import EnvConfig
from goldrush_env.gold.engine import Game
from goldrush_env.gold.single import SingleGame
from goldrush_env.gold.state import state_box, state_vector
from goldrush_env.gold.variants import observation_type
from goldrush_env.policy import SeatView
from goldrush_env.wrappers import ClassicChecks

_PLAIN = observation_type("plain")


def env(**kwargs: Any) -> AECEnv:
    """The Gold AEC environment with the checks of PettingZoo's standard wrappers for classic
    games (order enforcing, action bounds, an illegal move ends the game), made in one layer by
    :class:`goldrush_env.wrappers.ClassicChecks`."""
    return ClassicChecks(raw_env(**kwargs), illegal_reward=-1)


def new_game(config: EnvConfig, rng: np.random.Generator, options: dict | None) -> Game:
    """The game :meth:`raw_env.reset` starts: the table ``options["layout"]`` if given, else one dealt with
    ``rng``; ``options["first_player"]`` to play (0 by default). Other keys are ignored with a warning."""
    options = dict(options or {})
    layout = options.pop("layout", None)
    first_player = options.pop("first_player", 0)
    if options:
        warnings.warn(f"reset() ignores the unknown options {sorted(options)}; "
                      f"the options are 'layout' and 'first_player'", stacklevel=3)
    if layout is None:
        return Game.new(config.num_players, rng, first_player=first_player, max_turns=config.max_turns,
                        table=config.table)
    return Game(config.num_players, layout, first_player=first_player, max_turns=config.max_turns,
                rush_at=TABLES[config.table].rush_at)


def start(one: SingleGame, rng: np.random.Generator, options: dict | None) -> None:
    """Lay the game :meth:`raw_env.reset` starts in ``one``: dealt by :func:`new_game` with ``rng``, whose next
    draw seeds the game's stream. :class:`~goldrush_env.gold.gym_env.GoldEnv` starts its games here too, so that a
    seed gives the same game on both."""
    game = new_game(one.config, rng, options)
    one.lay(game.table, game.first_player, int(rng.integers(0, 2**64, dtype=np.uint64)))


class raw_env(TurnBasedEnv):
    """The bare Gold AEC environment (see the module docstring), on the compiled game
    (:class:`~goldrush_env.gold.single.SingleGame`)."""

    metadata = {**TurnBasedEnv.metadata, "name": "gold_v1"}
    rendering = rendering

    def __init__(self, **kwargs: Any) -> None:
        config = EnvConfig.from_kwargs(**kwargs)
        one = self.one = SingleGame(config)
        self.observation_type, self.action_type = one.observation_type, one.action_type
        super().__init__(kwargs, config, self.observation_type.space(), self.action_type.size, state_box())
        self.owners = one.owners
        self._dealt = False
        # The observation and mask of the last seat observed, until the next flip (last() and the step's legality
        # check ask for the mask twice).
        self._row = np.zeros(one.observations.shape[1], dtype=np.float32)
        self._mask = np.zeros(self.action_type.size, dtype=bool)
        self._observed = (-1, -1)  # (seat, flips) of _row and _mask

    @property
    def game(self) -> Game | None:
        """The readable engine's game at this point (:attr:`SingleGame.game <goldrush_env.gold.single.SingleGame.game>`:
        made when read), ``None`` before the first :meth:`reset`."""
        return self.one.game if self._dealt else None

    # --- reset / step -------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        start(self.one, self._np_random, options)
        self._dealt = True
        self._observed = (-1, -1)
        self._deal(self.one, dict)

    def adopt(self, one: SingleGame) -> None:
        """Become a copy of ``one``'s game at this point (its records and flips), as if played here: to read (how
        :class:`~goldrush_env.gold.gym_env.GoldEnv` shows its compiled game as an AEC environment)."""
        self.one.adopt(one)
        self._dealt = True
        self._observed = (-1, -1)
        self._deal(self.one, dict)
        if self.one.is_finished:
            self.agent_selection = self.possible_agents[0]
            if not self.one.is_over:
                self.truncations = dict.fromkeys(self.agents, True)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self._game_to_step(action) is None:
            return
        one = self.one
        seat = one.current_player
        position = one.play(action, seat) if isinstance(action, (int, np.integer)) and action >= 0 else -2
        if position == -2:
            raise self._refusal(action, seat)
        if not self.action_type.positional:
            self.infos[agent] = {"position": position}
        self._after_flip(agent)

    def step_from_view(self, position: int | None) -> None:
        """Step with a position, whatever the ``action`` option: for players written over :meth:`view`, whose
        actions are positions (scripted opponents, people)."""
        agent = self.agent_selection
        if self._game_to_step(position) is None:
            return
        if not (isinstance(position, (int, np.integer)) and position >= 0) or self.one.play(position, -1) == -2:
            raise self._refusal(position, None)
        self._after_flip(agent)

    def _refusal(self, action: Any, seat: int | None) -> IllegalFlipError:
        """The error for an action the kernel refused, in the engine's words for a position, the kinds action's for
        a kind."""
        try:
            if seat is None or self.action_type.positional:
                self.one.game.copy().step(action)
            else:
                self.action_type.to_positions(np.array([action]), lambda: self.one.legal_positions(seat)[None],
                                              lambda: self.one.vector(seat, _PLAIN)[None], np.random.default_rng(0))
        except IllegalFlipError as error:
            return error
        raise AssertionError(f"the kernel refused action {action!r}, which the rules allow")

    def _after_flip(self, agent: str) -> None:
        """The AEC bookkeeping of a flip (:meth:`TurnBasedEnv._settle`, read off the kernel's turn record)."""
        one = self.one
        gains = None  # no gold struck: nothing paid but the win, at the end
        receiver = int(one.turn["receiver"])
        if receiver >= 0 and self.config.reward == "score":
            gains = [0] * one.num_players
            gains[receiver] = int(one.turn["gold"])
        self._settle(agent, one, gains)

    # --- what agents see ------------------------------------------------------------

    def _observe_seat(self, seat: int) -> None:
        """Bring ``_row`` and ``_mask`` to ``seat``'s observation and mask now."""
        one = self.one
        key = (seat, len(one.log))
        if self._observed != key:
            kernel.observe_one(one.record, one.constants, seat, one.code, self._row, self._mask)
            self._observed = key

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._dealt:
            self._require_game()
        self._observe_seat(self.agent_name_mapping[agent])
        return {"observation": self.one.observation(self._row), "action_mask": self._mask.astype(np.int8)}

    def state(self) -> np.ndarray:
        """The global state (the module docstring's *State* table): the whole table, every seat's memory and
        the standing. For training a centralised critic, not for playing."""
        one = self._require_game()
        record = one.record
        finished = one.is_finished
        phase = None if finished else (2 if record["gold_rush"] else (0 if record["face_up"] < 0 else 1))
        return state_vector(record["table"].tolist(), one.face_up, [one.known(seat) for seat in range(one.num_players)],
                            self.owners, one.scores, one.gold_cards, None if finished else one.current_player, phase,
                            int(record["cards_left"]), int(record["turn"]), self.config.max_turns)

    def action_mask(self, agent: str) -> np.ndarray:
        """The int8 mask of the actions ``agent`` may take now (all 0 if it is not its turn): positions, or with
        ``action="kinds"`` the kinds some legal position realises."""
        self._require_game()
        self._observe_seat(self.agent_name_mapping[agent])
        return self._mask.astype(np.int8)

    def is_legal(self, action: int) -> bool:
        """Whether the agent to play may take ``action`` (a position, or with ``action="kinds"`` a kind) now."""
        one = self.one if self._dealt else self._require_game()
        if one.is_finished:
            return False
        self._observe_seat(one.current_player)
        return bool(self._mask[action])

    def view(self, agent: str | int | None) -> SeatView:
        """The structured view of an agent (name or seat); ``None`` for the all-seeing view. A view is about
        positions whatever the ``action`` option: its ``action_mask`` marks positions and its ``observation`` is
        the plain vector (or ``"pairs"``), for players that choose positions (:meth:`step_from_view`)."""
        one = self._require_game()
        return one.view(self.agent_name_mapping[agent] if isinstance(agent, str) else agent)

    # --- rendering ------------------------------------------------------------------

    def render_subject(self) -> SeatView:
        """The view :attr:`EnvConfig.render_view <goldrush_env.gold.config.EnvConfig.render_view>` names."""
        one = self._require_game()
        viewer = self.config.render_view
        if viewer == "all":
            return self.view(None)
        return self.view(one.current_player if viewer == "active" else viewer)

    def _require_game(self) -> SingleGame:
        if not self._dealt:
            super()._require_game()  # refuses, naming reset()
        return self.one

    def _winners(self, one: SingleGame) -> tuple[int, ...]:
        return one.winners()
