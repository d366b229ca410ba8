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
(see :mod:`goldrush_env.gold.memory`). `observe(agent)` is valid for every
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
position among those that realise the action, uniformly, with the
generator `reset(seed)` seeded; `infos[agent]["position"]` says which.
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
the agent to play, a seat, or `"table"` for every card face up) with
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

from goldrush_env.gold import render as rendering
from goldrush_env.aec_base import SCORE_REWARD_SCALE, TableEnv  # noqa: F401  (re-exported)
from goldrush_env.gold.cards import EMPTY, NUM_CARD_TYPES, NUM_POSITIONS, TABLES
from goldrush_env.gold.config import EnvConfig
from goldrush_env.gold.encoder import ObservationEncoder
from goldrush_env.gold.engine import FlipEvent, Game, Outcome, colour_owners
from goldrush_env.gold.memory import HumanMemory, PerfectMemory
from goldrush_env.gold.state import state_box, state_vector
from goldrush_env.gold.variants import ObservationType, action_type, observation_type
from goldrush_env.gold.view import UNKNOWN, PlayerView
from goldrush_env.wrappers import ClassicChecks

_PAIR_OUTCOMES = (Outcome.STRIKE, Outcome.DUEL, Outcome.DYNAMITE, Outcome.NOTHING)


def env(**kwargs: Any) -> AECEnv:
    """The Gold AEC environment with the checks of PettingZoo's standard wrappers for classic
    games (order enforcing, action bounds, an illegal move ends the game), made in one layer by
    :class:`goldrush_env.wrappers.ClassicChecks`."""
    return ClassicChecks(raw_env(**kwargs), illegal_reward=-1)


def new_game(config: EnvConfig, rng: np.random.Generator, options: dict | None) -> Game:
    """The game :meth:`raw_env.reset` starts: the table ``options["layout"]`` if given, else one dealt with
    ``rng``; ``options["first_player"]`` to play (0 by default). Other keys are ignored with a warning.
    :class:`~goldrush_env.gold.gym_env.GoldEnv` deals here too, so that a seed deals the same table on its
    compiled path."""
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


class raw_env(TableEnv):
    """The bare Gold AEC environment (see the module docstring)."""

    metadata = {**TableEnv.metadata, "name": "gold_v1"}
    rendering = rendering

    def __init__(self, **kwargs: Any) -> None:
        config = EnvConfig.from_kwargs(**kwargs)
        self.observation_type = observation_type(config.observation)
        self.action_type = action_type(config.action)
        super().__init__(kwargs, config, self.observation_type.space(), self.action_type.size, state_box())
        self.owners = colour_owners(config.num_players)
        self.encoder = ObservationEncoder(config.num_players, self.owners, config.max_turns)
        self.memories: list[PerfectMemory] = []
        # The legal flips of the seat to play, kept up to date flip by flip:
        # the cards on the table less the face-up first card of the turn.
        self._legal = np.zeros(NUM_POSITIONS, dtype=np.int8)
        self._no_moves = np.zeros(NUM_POSITIONS, dtype=np.int8)
        self._first: tuple[int, int] | None = None
        self._kinds = None  # the kinds mask of the seat to play, until the next flip (action="kinds")

    # --- reset / step -------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        config = self.config
        rng = self._np_random
        game = new_game(config, rng, options)
        memory_seeds = rng.integers(0, 2**63, size=config.num_players)
        if config.memory == "perfect":
            self.memories = [PerfectMemory() for _ in range(config.num_players)]
        else:
            self.memories = [HumanMemory(config.forget_prob, config.memory_capacity, np.random.default_rng(s))
                             for s in memory_seeds]

        self.game = game
        table = game.table
        self.encoder.reset(table)
        self._legal[:] = [card != EMPTY for card in table]
        self._first = None
        self._kinds = None

        self._deal(game, dict)

    def step(self, action: int | None) -> None:
        agent, game = self.agent_selection, self._game_to_step(action)
        if game is None:
            return
        if not self.action_type.positional:  # the position: drawn among the action's, refused by name if none
            seat = game.current_player
            action = int(self.action_type.to_positions(
                np.array([action]), lambda: self._seat_positions(seat)[None],
                lambda: self.encoder.buffers[seat][None], self._np_random)[0])
            self.infos[agent] = {"position": action}
        self._flip(agent, game, action)

    def step_from_view(self, position: int | None) -> None:
        """Step with a position, whatever the ``action`` option: for players written over :meth:`view`, whose
        actions are positions (scripted opponents, people)."""
        agent, game = self.agent_selection, self._game_to_step(position)
        if game is not None:
            self._flip(agent, game, position)

    def _flip(self, agent: str, game: Game, action: int) -> None:
        before = game.scores if self.config.reward == "score" else None
        self._apply(game.step(action))  # the engine refuses an illegal flip before anything changes
        self._settle(agent, game, before)

    @staticmethod
    def _scores(game: Game) -> tuple[int, ...]:
        return game.scores  # without the rest of result(): the score reward reads them every flip

    def _apply(self, event: FlipEvent) -> None:
        """Bring memories, observations and the mask up to date with one flip."""
        encoder, memories = self.encoder, self.memories
        position, card = event.position, event.card
        self._kinds = None
        if event.outcome is Outcome.FIRST:
            for seat in range(len(memories)):
                encoder.show(seat, position, card)
            encoder.set_face_up(position, True)
            self._legal[position] = 0
            self._first = (position, card)
            return
        if event.outcome in _PAIR_OUTCOMES:
            first_position, first_card = self._first
            self._first = None
            encoder.set_face_up(first_position, False)
            self._legal[first_position] = 1  # face down again, or removed just below
            for seat in range(len(memories)):
                encoder.show(seat, position, card)
            seen = ((first_position, first_card), (position, card))
        else:  # a rush flip: the card leaves at once
            seen = ((position, card),)
        kept = []
        for where, what in seen:
            if where in event.removed:
                encoder.remove(where, what)
                self._legal[where] = 0
                for memory in memories:
                    memory.remove(where)
            else:
                kept.append((where, what))
        # Removals first, so that a memory never evicts a position that just emptied.
        table = self.game.initial_layout  # cards never move: a card still on the table is the one dealt there
        for seat, memory in enumerate(memories):
            for where, what in kept:
                for forgotten in memory.see(where, what):
                    encoder.hide(seat, forgotten, table[forgotten])
            for where, what in kept:  # seeing one kept card may have evicted the other, seen again since
                if where in memory.known:
                    encoder.show(seat, where, what)
            for forgotten in memory.end_turn():
                encoder.hide(seat, forgotten, table[forgotten])

    # --- what agents see ------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"observation": self._vector(self.agent_name_mapping[agent], self.observation_type),
                "action_mask": self.action_mask(agent)}

    def _vector(self, seat: int, kind: ObservationType) -> np.ndarray:
        """``seat``'s observation vector of type ``kind``, as a new array."""
        game = self._require_game()
        to_play, phase = self._turn_phase(game)
        vector = self.encoder.fill_standing(seat, game.scores, game.gold_cards, to_play, phase,
                                            game.cards_left, game.turn)
        return kind.seat_vector(vector)

    def state(self) -> np.ndarray:
        """The global state (the module docstring's *State* table): the whole table, every seat's memory and
        the standing. For training a centralised critic, not for playing."""
        game = self._require_game()
        to_play, phase = self._turn_phase(game)
        return state_vector(game.table, game.face_up, self.encoder.shown, self.owners, game.scores, game.gold_cards,
                            to_play, phase, game.cards_left, game.turn, game.max_turns)

    def action_mask(self, agent: str) -> np.ndarray:
        """The int8 mask of the actions ``agent`` may take now (all 0 if it is not its turn): positions, or with
        ``action="kinds"`` the kinds some legal position realises."""
        seat = self.agent_name_mapping[agent]
        positions = self._seat_positions(seat)
        if self.action_type.positional:  # the mask is the positions' (the common case, asked every step)
            return positions
        if seat != self.game.current_player or self.game.is_finished:
            return np.zeros(self.action_type.size, dtype=np.int8)
        if self._kinds is None:  # asked by last() and again by the legality check of the step that follows
            self._kinds = self.action_type.masks(positions[None],
                                                 lambda: self.encoder.buffers[seat][None])[0].astype(np.int8)
        return self._kinds.copy()

    def _seat_positions(self, seat: int) -> np.ndarray:
        """The int8 mask of the positions ``seat`` may flip now, whatever the ``action`` option."""
        game = self._require_game()
        if seat != game.current_player or game.is_finished:
            return self._no_moves.copy()
        return self._legal.copy()

    def is_legal(self, action: int) -> bool:
        """Whether the agent to play may take ``action`` (a position, or with ``action="kinds"`` a kind) now."""
        game = self._require_game()
        if game.is_finished:
            return False
        if self.action_type.positional:
            return bool(self._legal[action])
        return bool(self.action_mask(self.possible_agents[game.current_player])[action])

    @property
    def _view_type(self) -> ObservationType:
        """A view is about positions (its players act with step_from_view): it shows the plain vector where the
        observation does not speak of positions. (A property, not an attribute: on CPython 3.11 three attributes
        more on the instance made every step about 3% slower, benchmarks/bench.py's AEC cases.)"""
        return self.observation_type if self.observation_type.positional else observation_type("plain")

    def view(self, agent: str | int | None) -> PlayerView:
        """The structured view of an agent (name or seat); ``None`` for the all-seeing view. A view is about
        positions whatever the ``action`` option: its ``action_mask`` marks positions and its ``observation`` is
        the plain vector (or ``"pairs"``), for players that choose positions (:meth:`step_from_view`)."""
        game = self._require_game()
        seat = self.agent_name_mapping[agent] if isinstance(agent, str) else agent
        table = game.table
        if seat is None:
            cards = table
            observation = np.zeros(self._view_type.size, dtype=np.float32)
            mask = self._no_moves.copy()
        else:
            shown = self.encoder.shown[seat]
            cards = tuple(card if card == EMPTY or shown[p] else UNKNOWN for p, card in enumerate(table))
            observation, mask = self._vector(seat, self._view_type), self._seat_positions(seat)
        unseen = [0] * NUM_CARD_TYPES
        for card, known in zip(table, cards):
            if card != EMPTY and known == UNKNOWN:
                unseen[card] += 1
        return PlayerView(
            seat=seat, num_players=game.num_players, cards=tuple(cards), face_up=game.face_up,
            owners=self.owners, scores=game.scores, gold_cards=game.gold_cards,
            current_player=None if game.is_finished else game.current_player, gold_rush=game.gold_rush,
            turn=game.turn, max_turns=game.max_turns, unseen=tuple(unseen), action_mask=mask,
            observation=observation, rush_at=game.rush_at,
        )

    # --- rendering ------------------------------------------------------------------

    def render_subject(self) -> PlayerView:
        """The view :attr:`EnvConfig.render_view <goldrush_env.gold.config.EnvConfig.render_view>` names."""
        game = self._require_game()
        viewer = self.config.render_view
        if viewer == "table":
            return self.view(None)
        return self.view(game.current_player if viewer == "active" else viewer)

    @staticmethod
    def _turn_phase(game: Game) -> tuple[int | None, int | None]:
        """The seat to play and the phase (0 first flip, 1 second, 2 the rush); None, None once ended."""
        if game.is_finished:
            return None, None
        return game.current_player, 2 if game.gold_rush else (0 if game.face_up is None else 1)
