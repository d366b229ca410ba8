"""Gold's compiled game: the rules, the seats' memories, the observations and the masks, run by numba over a batch
of games (a batch of one where there is one game), with no Python per game.

Every interface steps this game through one entry point, :func:`advance`: the vector environment
(:class:`~goldrush_env.gold.vector.GoldVectorEnv`) on its whole batch, the batched engine
(:class:`~goldrush_env.gold.batched.BatchedGames`), whose players choose outside, and, on a batch of one through
:class:`~goldrush_env.gold.single.SingleGame`, the PettingZoo and Gymnasium environments and OpenSpiel's states.
:func:`advance_one` is the same step compiled for one game, without the threads. The readable rules are :mod:`goldrush_env.gold.engine`'s, the home
of records and events; ``tests/gold/`` holds this module to them flip by flip, and to the shared replay vectors.

The state is named: a batch is an array of :data:`GAME` records, one per game (``games[g].scores``,
``games["turn"]`` for the column). What stays the same through an environment's games (the table size, the memory
model, the observation and the action, the reward) is one :data:`CONSTANTS` record, made by :func:`constants`;
the opponents are one :data:`PLAYERS` record; what one call of :func:`advance` is asked to do in each game and what
it did there is a :data:`TURN` record per game.

Players: the kernel plays the seats the caller does not play itself with a *choose* function, ``choose(program,
game, consts, seat, players, scratch)``, which returns the position that seat flips. This package's own is
:func:`choose_random` (program :data:`RANDOM`); a players' package compiles :func:`advance_with` and
:func:`choose_all_with` with its own, on many threads and on one (``goldrush_agents.gold.compiled``), and hands them
to the environments as its players' engine. Seats whose program is :data:`EXTERNAL` are played from outside:
:func:`advance` stops there.

Every random choice of a game (its deal, the position a kind of card turns, an opponent's tie-break, a seat
forgetting) is drawn from that game's own generator, ``game.rng``, a SplitMix64 stream
(:mod:`goldrush_env.streams`): the same seed gives the same games however many threads run them.

What a seat knows is ``game.memo[seat, position]``: the clock tick at which it last saw the card there, -1 if it
does not remember one (the face-up card is seen by all while it lies face up). Perfect memory never forgets;
human memory (:class:`goldrush_env.gold.memory.HumanMemory`) forgets what it has not seen in a turn with
``forget_prob`` and holds at most ``capacity`` places, the one seen longest ago going first.

Compiled functions are cached on disk, so only the first use on a machine pays for compilation
(:mod:`goldrush_env.streams` says when it happens).
"""

from __future__ import annotations

from contextlib import contextmanager
from types import SimpleNamespace

import numba
import numpy as np

from goldrush_env.gold.cards import (
    COLOUR,
    DYNAMITE,
    EMPTY,
    IS_GOLD,
    IS_MINER,
    MAX_PLAYERS,
    NUM_CARD_TYPES,
    NUM_CATEGORIES,
    NUM_COLOURS,
    NUM_POSITIONS,
    TOTAL_GOLD,
    VALUE,
)
from goldrush_env.gold.encoder import MAX_GOLD_CARDS, PLANES, SLICES, UNSEEN_SCALE
from goldrush_env.gold.engine import _PAIR, Outcome
from goldrush_env.streams import below as _below
from goldrush_env.streams import uniform as _uniform

__all__ = ["CONSTANTS", "GAME", "OUTCOMES", "PLAYERS", "TURN", "advance", "constants", "new_games", "new_turns",
           "players"]

OUTCOMES: tuple[Outcome, ...] = (Outcome.FIRST, Outcome.STRIKE, Outcome.DUEL, Outcome.DYNAMITE, Outcome.NOTHING,
                                 Outcome.RUSH_GOLD, Outcome.RUSH_DISCARD)
"""The outcome codes: ``OUTCOMES[code]``."""
_FIRST, _STRIKE, _DUEL, _DYNAMITE, _NOTHING, _RUSH_GOLD, _RUSH_DISCARD = range(len(OUTCOMES))
NO_FLIP = -1
"""The outcome code where a game took no flip."""
_CODE = {outcome: code for code, outcome in enumerate(OUTCOMES)}

# The engine's pair table, as arrays indexed by 25 * first card + second card.
_PAIR_OUTCOME = np.array([_CODE[rule[0]] for rule in _PAIR], dtype=np.int8)
_PAIR_FIRST_LEAVES = np.array([rule[1] for rule in _PAIR], dtype=np.bool_)
_PAIR_SECOND_LEAVES = np.array([rule[2] for rule in _PAIR], dtype=np.bool_)
_PAIR_GOLD_VALUE = np.array([VALUE[rule[3]] if rule[3] >= 0 else 0 for rule in _PAIR], dtype=np.int8)
_PAIR_COLOUR = np.array([rule[4] for rule in _PAIR], dtype=np.int8)
_IS_GOLD = np.array(IS_GOLD, dtype=np.bool_)
_GOLD_VALUE = np.array([VALUE[card] if IS_GOLD[card] else 0 for card in range(NUM_CARD_TYPES)], dtype=np.int8)

# For the stalemate test (D3) each game counts its cards on the table in ten
# groups: 0 dynamite, 1..4 gold of value 1..4, 5..8 miners of value 2..5.
GROUPS = 10
GROUP = np.array([4 + VALUE[card] - 1 if IS_MINER[card] else (0 if card == DYNAMITE else VALUE[card])
                  for card in range(NUM_CARD_TYPES)], dtype=np.int64)

# Offsets of the plain observation vector (goldrush_env.gold.encoder).
_P_EMPTY = SLICES["empty"].start
_P_UNKNOWN = SLICES["unknown"].start
_P_FACE_UP = SLICES["face_up"].start
_P_CARDS = SLICES["cards"].start
_P_STANDING = SLICES["scores"].start
_P_UNSEEN = SLICES["unseen"].start
_P_SIZE = SLICES["unseen"].stop
assert len(PLANES) * NUM_POSITIONS == _P_STANDING
# Offsets inside the standing: scores, gold cards, seats, to play (MAX_PLAYERS each), phase (3), cards left, turn.
_S_SCORES, _S_GOLD_CARDS, _S_SEATS, _S_TO_PLAY = (SLICES[name].start - _P_STANDING
                                                  for name in ("scores", "gold_cards", "seats", "to_play"))
_S_PHASE, _S_CARDS_LEFT, _S_TURN = (SLICES[name].start - _P_STANDING for name in ("phase", "cards_left", "turn"))
_STANDING_SIZE = SLICES["turn"].stop - _P_STANDING

# Observation and action codes (goldrush_env.gold.variants names them).
OBS_PLAIN, OBS_PAIRS, OBS_KINDS = 0, 1, 2
ACT_POSITIONS, ACT_KINDS = 0, 1
_UNKNOWN_KIND = NUM_CATEGORIES
# The kinds vector: known (30), face_up (29), pair_best (30), pair_face_up (30), unseen (29), standing.
_K_KNOWN = 0
_K_FACE_UP = _K_KNOWN + NUM_CATEGORIES + 1
_K_PAIR_BEST = _K_FACE_UP + NUM_CATEGORIES
_K_PAIR_FACE_UP = _K_PAIR_BEST + NUM_CATEGORIES + 1
_K_UNSEEN = _K_PAIR_FACE_UP + NUM_CATEGORIES + 1
_K_STANDING = _K_UNSEEN + NUM_CATEGORIES
KINDS_SIZE = _K_STANDING + _STANDING_SIZE
PAIRS_SIZE = _P_SIZE + 2 * NUM_POSITIONS
SIZES = {OBS_PLAIN: _P_SIZE, OBS_PAIRS: PAIRS_SIZE, OBS_KINDS: KINDS_SIZE}
"""The length of each observation the kernel writes, by its code."""

# Programs: how a seat the caller does not play is played. The kernel knows two; a players' package numbers its own
# from 1 (goldrush_agents.gold.compiled).
EXTERNAL = -1
"""The program of a seat played from outside: :func:`advance` stops where such a seat is to play."""
RANDOM = 0
"""The program of this package's own player, a uniformly random legal flip (:func:`choose_random`)."""
MAX_ENTRANTS = 8
"""The most entrants an opponent mix may hold."""
PROGRAMS = 4
"""Rows of :data:`PLAYERS`' ``params``: one per program, ``params[program]``."""
NUM_PARAMS = 8
"""Columns of :data:`PLAYERS`' ``params``: the constants a program may read."""
WORTH_SHAPE = (MAX_PLAYERS, 6, NUM_CARD_TYPES + 1, NUM_CARD_TYPES + 1)
"""The shape of :data:`PLAYERS`' ``worth`` table: ``[seat, threat, card, card]`` (``goldrush_agents.gold.batched``)."""
# Why advance() stopped in a game.
LEARNER, FINISHED, WAITING = 0, 1, 2
# What advance() does first in a game (TURN's ``fresh``): nothing, or deal it afresh; it marks where it dealt.
KEEP, DEAL, DEALT = 0, 1, 2
MAX_FLIPS = 24
"""The flips one call of :func:`advance` notes in a game (TURN's ``flips``): more than any call makes."""
_CHUNK = 64  # games per task of a parallel loop that needs scratch space


# --- the named state ---------------------------------------------------------------------------------------------

GAME = np.dtype([
    ("table", np.int8, (NUM_POSITIONS,)),  # the card at each position (EMPTY for none): the hidden truth
    ("initial", np.int8, (NUM_POSITIONS,)),  # the table as dealt
    ("face_up", np.int8),  # the position of a normal turn's first card, -1 before it
    ("current_player", np.int8),
    ("first_player", np.int8),
    ("turn", np.int32),  # completed turns
    ("gold_rush", np.bool_),
    ("rush_from", np.int32),  # the rush's first turn, -1 before
    ("scores", np.int32, (MAX_PLAYERS,)),
    ("gold_cards", np.int32, (MAX_PLAYERS,)),
    ("cards_left", np.int32),
    ("counts", np.int32, (GROUPS,)),  # the cards on the table in the ten groups of D3
    ("rng", np.uint64, (1,)),  # the game's stream
    ("memo", np.int32, (MAX_PLAYERS, NUM_POSITIONS)),  # what each seat remembers (the module docstring)
    ("clock", np.int32),  # the clock of memo
])
"""One game of Gold, a record of :func:`new_games`' array (seats beyond the table's are unused)."""

CONSTANTS = np.dtype([
    ("num_players", np.int64),
    ("owners", np.int8, (NUM_COLOURS,)),  # the seat each colour of miner works for, -1 for none
    ("card_owner", np.int64, (NUM_CARD_TYPES,)),  # per card: the seat a miner works for, -1 unowned, -2 no miner
    ("category", np.int64, (MAX_PLAYERS, NUM_CARD_TYPES)),  # per seat: each card's category as it sees it
    ("gains", np.float32, (NUM_CATEGORIES + 1, NUM_CATEGORIES + 1)),  # goldrush_env.gold.variants' gains
    ("box", np.int8, (NUM_POSITIONS,)),  # the cards a shuffled deal lays, on the first box_size positions
    ("box_size", np.int64),
    ("rush_at", np.int64),  # the rush begins at the start of a turn with this many cards or fewer
    ("limit", np.int64),  # the turn at which a game is cut short (no game reaches it without a limit)
    ("max_turns", np.int64),  # the turn limit the observation counts turns against, 0 for none
    ("forget_prob", np.float64),  # human memory; 0 for perfect memory
    ("capacity", np.int64),  # human memory's places, -1 for no cap
    ("observation", np.int64),  # OBS_PLAIN, OBS_PAIRS or OBS_KINDS
    ("action", np.int64),  # ACT_POSITIONS or ACT_KINDS: the learner's actions
    ("reward_score", np.bool_),  # reward="score" (else "win")
    ("reward_scale", np.float64),
    ("seat", np.int64),  # the learner's seat at a deal afresh, -1 for one drawn per deal
    ("same_step", np.bool_),  # a game that ends is dealt afresh in the same call (else at the next)
])
"""What stays the same through the games of an environment (:func:`constants`)."""

PLAYERS = np.dtype([
    ("count", np.int64),  # entrants in the mix
    ("programs", np.int64, (MAX_ENTRANTS,)),  # each entrant's program
    ("cumulative", np.float64, (MAX_ENTRANTS,)),  # the mix's cumulative weights: each seat is drawn at a deal
    ("worth", np.float64, WORTH_SHAPE),  # what the scripted programs read
    ("params", np.float64, (PROGRAMS, NUM_PARAMS)),
])
"""The opponents of an environment (:func:`players`)."""

TURN = np.dtype([
    # asked
    ("active", np.bool_),  # whether to play this game at all in this call
    ("action", np.int64),  # the action of the seat to play, chosen outside (-1: none)
    ("opening", np.bool_),  # this call begins a step: its reward, flips and ends count afresh
    ("fresh", np.int8),  # KEEP or DEAL; advance() writes DEALT where it dealt
    ("seat", np.int64),  # the learner's seat, -1 where no seat is the learner
    ("entrants", np.int64, (MAX_PLAYERS,)),  # per seat, its entrant in PLAYERS (drawn at a deal afresh)
    # done
    ("status", np.int8),  # LEARNER, FINISHED or WAITING
    ("position", np.int64),  # the position the action turned (-1: none; -2 while checking: illegal)
    ("player", np.int8),  # the call's last flip (the action's where no seat was played): the seat that flipped
    ("outcome", np.int8),  # what it did: an OUTCOMES code (NO_FLIP: no flip in this call)
    ("card", np.int8),
    ("receiver", np.int8),  # the seat that took gold, -1 for none
    ("partner", np.int8),  # the turn's first card, for a second flip; else -1
    ("partner_left", np.bool_),
    ("card_left", np.bool_),
    ("rush_begins", np.bool_),
    ("flip_count", np.int64),  # every flip since the step opened, the actions' and the played seats', in order
    ("flips", np.int8, (MAX_FLIPS,)),
    ("gold", np.int8),  # the points the call's last flip struck (for ``receiver``)
    ("reward", np.float64),  # the learner's since its step opened, added flip by flip as the AEC env pays it
    ("terminated", np.bool_),
    ("truncated", np.bool_),
    ("done", np.bool_),  # a game ended in this call: its final standing follows
    ("final_scores", np.int32, (MAX_PLAYERS,)),
    ("final_winners", np.int8, (MAX_PLAYERS,)),  # 1 for each winner (numba's records hold no arrays of bools)
    ("final_seat", np.int64),
])
"""What one call of :func:`advance` is asked to do in a game, and what it did there (:func:`new_turns`)."""


def new_games(num_games: int) -> np.ndarray:
    """An array of ``num_games`` :data:`GAME` records, every game empty (deal them before use)."""
    games = np.zeros(num_games, dtype=GAME)
    for field in ("table", "initial", "memo"):
        games[field] = EMPTY if field != "memo" else -1
    games["face_up"] = games["rush_from"] = -1
    return games


def new_turns(num_games: int) -> np.ndarray:
    """An array of ``num_games`` :data:`TURN` records: every game active, each call a step of its own, no action,
    nobody the learner."""
    turns = np.zeros(num_games, dtype=TURN)
    turns["active"] = turns["opening"] = True
    turns["action"] = turns["seat"] = turns["position"] = -1
    return turns


OBSERVATIONS = {"plain": OBS_PLAIN, "pairs": OBS_PAIRS, "kinds": OBS_KINDS}
"""The observation types the kernel writes, by name; it writes the plain vector for any other (read off it)."""
ACTIONS = {"positions": ACT_POSITIONS, "kinds": ACT_KINDS}
"""The action types the kernel takes, by name."""


def constants(config, *, seat: int = -1, same_step: bool = False) -> np.ndarray:
    """One :data:`CONSTANTS` record (an array of shape (1,)) for an environment's options
    (:class:`~goldrush_env.gold.config.EnvConfig`): its learner at ``seat`` (-1: drawn at each deal) and its
    autoreset (``same_step``: a game that ends is dealt afresh in the same call)."""
    from goldrush_env.aec_base import SCORE_REWARD_SCALE
    from goldrush_env.gold.cards import category_table, table_size
    from goldrush_env.gold.engine import colour_owners
    from goldrush_env.gold.variants import _GAINS

    n, size = config.num_players, table_size(config.table)
    owners, box, human = colour_owners(n), size.box(), config.memory == "human"
    out = np.zeros(1, dtype=CONSTANTS)
    c = out[0]
    c["num_players"] = n
    c["owners"] = owners
    c["card_owner"] = [owners[COLOUR[card]] if IS_MINER[card] else -2 for card in range(NUM_CARD_TYPES)]
    c["category"][:n] = category_table(n, owners)
    c["gains"] = _GAINS
    c["box"][:len(box)] = box
    c["box"][len(box):] = EMPTY
    c["box_size"] = len(box)
    c["rush_at"] = size.rush_at
    c["limit"] = np.iinfo(np.int32).max if config.max_turns is None else config.max_turns
    c["max_turns"] = config.max_turns or 0
    c["forget_prob"] = float(config.forget_prob) if human else 0.0
    c["capacity"] = config.memory_capacity if human and config.memory_capacity is not None else -1
    c["observation"] = OBSERVATIONS.get(config.observation, OBS_PLAIN)
    c["action"] = ACTIONS.get(config.action, ACT_POSITIONS)
    c["reward_score"], c["reward_scale"] = config.reward == "score", SCORE_REWARD_SCALE
    c["seat"], c["same_step"] = seat, same_step
    return out


def players(programs=(EXTERNAL,), weights=None, worth=None, params=None) -> np.ndarray:
    """One :data:`PLAYERS` record (an array of shape (1,)): each entrant's program, the weights of the mix (one
    entrant: every opponent seat), the scripted programs' ``worth`` table and ``params`` (zeros if not given)."""
    if len(programs) > MAX_ENTRANTS:
        raise ValueError(f"at most {MAX_ENTRANTS} entrants in a mix, got {len(programs)}")
    out = np.zeros(1, dtype=PLAYERS)
    p = out[0]
    p["count"] = len(programs)
    p["programs"][:len(programs)] = programs
    weights = np.ones(len(programs)) if weights is None else np.asarray(weights, dtype=np.float64)
    p["cumulative"][:len(programs)] = np.cumsum(weights / weights.sum()) if len(programs) > 1 else 1.0
    if worth is not None:
        p["worth"][:len(worth)] = worth
    if params is not None:
        p["params"] = params
    return out


# --- the rules ---------------------------------------------------------------------------------------------------

@numba.njit(cache=True, inline="always")
def _stalemate(counts):
    """D3: no pair of the cards left (``counts``: per group) could ever remove a card."""
    if counts[0] > 0:
        return False
    distinct, miner_value = 0, 0  # miner values left, and the last of them
    for value in range(2, 6):
        if counts[4 + value - 1] > 0:
            distinct += 1
            miner_value = value
    if distinct == 0:
        return True
    if distinct > 1:
        return False
    for value in range(1, 5):
        if counts[value] > 0:
            return miner_value < value
    return True


@numba.njit(cache=True, inline="always")
def finished(game, consts):
    """Whether the game is over (no card left) or cut short by the turn limit (D4)."""
    return game.cards_left == 0 or game.turn >= consts.limit


@numba.njit(cache=True, inline="always")
def _key(game, seat):
    """D5: the seat's standing, most points first, then most gold cards (at most 24, so the points decide)."""
    return game.scores[seat] * 100 + game.gold_cards[seat]


@numba.njit(cache=True)
def leaders(game, consts, out):
    """D5: ``out[seat]`` for each seat that would win now (most points, then most gold cards). Returns how many."""
    top, count = -1, 0
    for seat in range(consts.num_players):
        top = max(top, _key(game, seat))
    for seat in range(consts.num_players):
        out[seat] = _key(game, seat) == top
        count += out[seat]
    return count


@numba.njit(cache=True)
def _start(game, consts):
    """The game's derived state once its table is laid: cards left, group counts, the rush if dealt in it (ten
    cards or fewer, or D3), no scores and no memories."""
    left = 0
    game.counts[:] = 0
    for p in range(NUM_POSITIONS):
        card = game.table[p]
        game.initial[p] = card
        if card >= 0:
            left += 1
            game.counts[GROUP[card]] += 1
    game.cards_left = left
    game.face_up = -1
    game.turn = 0
    game.scores[:] = 0
    game.gold_cards[:] = 0
    game.memo[:, :] = -1
    game.clock = 0
    game.gold_rush = left > 0 and (left <= consts.rush_at or _stalemate(game.counts))
    game.rush_from = 0 if game.gold_rush else -1


@numba.njit(cache=True)
def _deal(game, consts, first):
    """Deal the game afresh: the box shuffled (Fisher-Yates, from the game's stream) onto the first positions,
    seat ``first`` to play."""
    k = consts.box_size
    for p in range(NUM_POSITIONS):
        game.table[p] = consts.box[p] if p < k else EMPTY
    for i in range(k - 1, 0, -1):
        j = _below(game.rng, 0, i + 1)
        card = game.table[i]
        game.table[i] = game.table[j]
        game.table[j] = card
    game.current_player = first
    game.first_player = first
    _start(game, consts)


@numba.njit(cache=True, inline="always")
def _remove(game, position, card):
    game.table[position] = EMPTY
    game.counts[GROUP[card]] -= 1
    game.cards_left -= 1
    game.memo[:, position] = -1


@numba.njit(cache=True)
def _flip(game, consts, position, turn):
    """Flip ``position`` (legal, unchecked), the rules alone, writing what happened into ``turn``'s flip fields."""
    card = game.table[position]
    player = game.current_player
    turn.player, turn.card, turn.receiver, turn.partner, turn.gold = player, card, -1, -1, 0
    turn.partner_left, turn.card_left, turn.rush_begins = False, False, False
    if game.gold_rush:
        _remove(game, position, card)
        turn.card_left = True
        if _IS_GOLD[card]:
            turn.outcome = _RUSH_GOLD
            turn.receiver, turn.gold = player, _GOLD_VALUE[card]
            game.scores[player] += _GOLD_VALUE[card]
            game.gold_cards[player] += 1
        else:
            turn.outcome = _RUSH_DISCARD
    elif game.face_up < 0:
        game.face_up = position
        turn.outcome = _FIRST
        return
    else:
        partner = game.face_up
        partner_card = game.table[partner]
        pair = partner_card * NUM_CARD_TYPES + card
        turn.outcome = _PAIR_OUTCOME[pair]
        turn.partner = partner
        value = _PAIR_GOLD_VALUE[pair]
        if value > 0:
            receiver = consts.owners[_PAIR_COLOUR[pair]]
            if receiver < 0:
                receiver = player
            turn.receiver, turn.gold = receiver, value
            game.scores[receiver] += value
            game.gold_cards[receiver] += 1
        if _PAIR_FIRST_LEAVES[pair]:
            _remove(game, partner, partner_card)
            turn.partner_left = True
        if _PAIR_SECOND_LEAVES[pair]:
            _remove(game, position, card)
            turn.card_left = True
        game.face_up = -1
    game.turn += 1
    game.current_player = (player + 1) % consts.num_players
    if (turn.partner_left or turn.card_left) and not game.gold_rush and game.cards_left > 0 and (
            game.cards_left <= consts.rush_at or _stalemate(game.counts)):
        game.gold_rush = True
        game.rush_from = game.turn
        turn.rush_begins = True


@numba.njit(cache=True, inline="always")
def _pay(game, consts, turn):
    """Add the learner's reward for the flip just made, as the AEC environment pays it: with ``reward="score"``, the
    seat's gain less the mean gain of the others (a flip strikes for one seat at most), times the scale; with
    ``"win"``, the result (D5) once the game has finished."""
    n, seat = consts.num_players, turn.seat
    if consts.reward_score:
        if turn.receiver >= 0:
            own = turn.gold if turn.receiver == seat else 0
            turn.reward += consts.reward_scale * (own - (turn.gold - own) / (n - 1))
    elif finished(game, consts):
        count = leaders(game, consts, turn.final_winners)
        turn.reward += (1.0 if count == 1 else 0.0) if turn.final_winners[seat] else -1.0


@numba.njit(cache=True)
def _remember(game, consts, position):
    """Every seat sees the card at ``position`` go back face down (human memory keeps at most ``capacity``)."""
    for seat in range(consts.num_players):
        game.clock += 1
        game.memo[seat, position] = game.clock
        if consts.capacity < 0:
            continue
        while True:
            count, oldest, at = 0, 2147483647, -1
            for p in range(NUM_POSITIONS):
                tick = game.memo[seat, p]
                if tick >= 0:
                    count += 1
                    if tick < oldest:
                        oldest, at = tick, p
            if count <= consts.capacity:
                break
            game.memo[seat, at] = -1


@numba.njit(cache=True)
def _end_turn(game, consts, seen, also_seen):
    """Each seat forgets each remembered card it did not see this turn (at ``seen`` or ``also_seen``, -1 for
    none) with ``forget_prob``."""
    if consts.forget_prob <= 0.0:
        return
    for seat in range(consts.num_players):
        for p in range(NUM_POSITIONS):
            if game.memo[seat, p] >= 0 and p != seen and p != also_seen and \
                    _uniform(game.rng, 0) < consts.forget_prob:
                game.memo[seat, p] = -1


@numba.njit(cache=True)
def play(game, consts, position, turn):
    """Flip ``position`` (legal, unchecked) and bring the seats' memories up to date, as the AEC environment does:
    removals first, then every seat sees the cards that went back face down, then forgets (human memory). What
    happened is written into ``turn``'s flip fields, and the flip noted in its ``flips``."""
    first = game.face_up
    _flip(game, consts, position, turn)
    if turn.flip_count < MAX_FLIPS:
        turn.flips[turn.flip_count] = position
    turn.flip_count += 1
    if turn.seat >= 0 and not turn.done:
        _pay(game, consts, turn)
    if turn.outcome == _FIRST:
        return
    kept_first, kept_second = -1, -1  # the cards seen this turn that went back face down
    if turn.outcome != _RUSH_GOLD and turn.outcome != _RUSH_DISCARD:
        if not turn.partner_left:
            kept_first = first
            _remember(game, consts, first)
        if not turn.card_left:
            kept_second = position
            _remember(game, consts, position)
    _end_turn(game, consts, kept_first, kept_second)


# --- what a seat knows -------------------------------------------------------------------------------------------

@numba.njit(cache=True, inline="always")
def knows(game, seat, p):
    """Whether ``seat`` sees or remembers the card at ``p`` (on the table)."""
    return p == game.face_up or game.memo[seat, p] >= 0


@numba.njit(cache=True, inline="always")
def _kind_at(game, consts, seat, p):
    """The ``action="kinds"`` action that turns the card at ``p`` (on the table) for ``seat``: its category if the
    seat remembers it, else the unknown kind. The one form of the kinds mask in the compiled game."""
    if game.memo[seat, p] >= 0:
        return consts.category[seat, game.table[p]]
    return _UNKNOWN_KIND


@numba.njit(cache=True)
def _write_standing(game, consts, seat, out, at):
    """The public standing from ``seat``'s side into ``out[at:]`` (zeroed by the caller)."""
    n = consts.num_players
    for k in range(n):
        other = (seat + k) % n
        out[at + _S_SCORES + k] = game.scores[other] / TOTAL_GOLD
        out[at + _S_GOLD_CARDS + k] = game.gold_cards[other] / MAX_GOLD_CARDS
        out[at + _S_SEATS + k] = 1.0
    if not finished(game, consts):
        out[at + _S_TO_PLAY + (game.current_player - seat) % n] = 1.0
        phase = 2 if game.gold_rush else (0 if game.face_up < 0 else 1)
        out[at + _S_PHASE + phase] = 1.0
    out[at + _S_CARDS_LEFT] = game.cards_left / NUM_POSITIONS
    out[at + _S_TURN] = game.turn / consts.max_turns if consts.max_turns > 0 else 0.0


@numba.njit(cache=True, inline="always")
def _pair_best(held, gains, kind):
    """The most a card of ``kind`` gains turned with another card the seat knows (``held``: the known cards per
    kind, the face-up one included); 0 if it knows no other."""
    best, found = -1e9, False
    for other in range(NUM_CATEGORIES):
        if held[other] - (1 if other == kind else 0) > 0 and gains[kind, other] > best:
            best, found = gains[kind, other], True
    return best if found else 0.0


@numba.njit(cache=True)
def _write_plain(game, consts, seat, out, pairs, counts):
    """``seat``'s plain vector into ``out`` (with the two pair planes if ``pairs``); ``counts``: scratch space,
    (3, 30) ints."""
    face_up = game.face_up
    category, gains = consts.category, consts.gains
    out[:] = 0.0
    unseen, held = counts[0], counts[1]
    unseen[:] = 0
    held[:] = 0
    for p in range(NUM_POSITIONS):
        card = game.table[p]
        if card < 0:
            out[_P_EMPTY + p] = 1.0
            continue
        kind = category[seat, card]
        if p == face_up or game.memo[seat, p] >= 0:
            out[_P_CARDS + kind * NUM_POSITIONS + p] = 1.0
            held[kind] += 1
        else:
            out[_P_UNKNOWN + p] = 1.0
            unseen[kind] += 1
    if face_up >= 0:
        out[_P_FACE_UP + face_up] = 1.0
    _write_standing(game, consts, seat, out, _P_STANDING)
    for kind in range(NUM_CATEGORIES):
        out[_P_UNSEEN + kind] = unseen[kind] / UNSEEN_SCALE
    if not pairs:
        return
    up_kind = category[seat, game.table[face_up]] if face_up >= 0 else -1
    for p in range(NUM_POSITIONS):
        card = game.table[p]
        if card < 0 or not (p == face_up or game.memo[seat, p] >= 0):
            continue
        kind = category[seat, card]
        out[_P_SIZE + p] = _pair_best(held, gains, kind)
        if up_kind >= 0 and p != face_up:
            out[_P_SIZE + NUM_POSITIONS + p] = gains[up_kind, kind]


@numba.njit(cache=True)
def _write_kinds(game, consts, seat, out, counts):
    """``seat``'s kinds vector into ``out`` (goldrush_env.gold.variants, KINDS_LAYOUT). ``counts`` (scratch space,
    (3, 30) ints) is left holding the legal cards the seat knows per kind, and in its last column the legal cards it
    does not: the kinds mask."""
    face_up = game.face_up
    category, gains = consts.category, consts.gains
    out[:] = 0.0
    known, unseen, held = counts[0], counts[1], counts[2]
    known[:] = 0
    unseen[:] = 0
    held[:] = 0
    up_kind = -1
    for p in range(NUM_POSITIONS):
        card = game.table[p]
        if card < 0:
            continue
        kind = category[seat, card]
        if p == face_up:
            up_kind = kind
            held[kind] += 1
            continue
        action = _kind_at(game, consts, seat, p)
        known[action] += 1
        if action == _UNKNOWN_KIND:
            unseen[kind] += 1
        else:
            held[kind] += 1
    for kind in range(NUM_CATEGORIES):
        out[_K_KNOWN + kind] = known[kind] / UNSEEN_SCALE
        out[_K_UNSEEN + kind] = unseen[kind] / UNSEEN_SCALE
    out[_K_KNOWN + _UNKNOWN_KIND] = known[_UNKNOWN_KIND] / NUM_POSITIONS
    for kind in range(NUM_CATEGORIES):
        if held[kind] > 0:
            out[_K_PAIR_BEST + kind] = _pair_best(held, gains, kind)
    if up_kind >= 0:
        out[_K_FACE_UP + up_kind] = 1.0
        total, weighted = 0, 0.0
        for kind in range(NUM_CATEGORIES):
            out[_K_PAIR_FACE_UP + kind] = gains[up_kind, kind]
            total += unseen[kind]
            weighted += unseen[kind] * gains[up_kind, kind]
        if total > 0:
            out[_K_PAIR_FACE_UP + _UNKNOWN_KIND] = weighted / total
    _write_standing(game, consts, seat, out, _K_STANDING)


@numba.njit(cache=True)
def write_observation(game, consts, seat, kind, out, counts):
    """``seat``'s observation of type ``kind`` (OBS_PLAIN, OBS_PAIRS or OBS_KINDS) into the row ``out``;
    ``counts``: scratch space, (3, 30) ints."""
    if kind == OBS_KINDS:
        _write_kinds(game, consts, seat, out, counts)
    else:
        _write_plain(game, consts, seat, out, kind == OBS_PAIRS, counts)


@numba.njit(cache=True)
def write_mask(game, consts, seat, action, out):
    """``seat``'s legal actions of type ``action`` into the row ``out``: positions, or kinds (none once finished or
    when it is not to play)."""
    out[:] = False
    if finished(game, consts) or game.current_player != seat:
        return
    for p in range(NUM_POSITIONS):
        if game.table[p] < 0 or p == game.face_up:
            continue
        out[p if action == ACT_POSITIONS else _kind_at(game, consts, seat, p)] = True


@numba.njit(cache=True)
def _kind_count(game, consts, seat, kind):
    """How many legal positions turn ``kind`` for ``seat``."""
    count = 0
    for p in range(NUM_POSITIONS):
        card = game.table[p]
        if card >= 0 and p != game.face_up and _kind_at(game, consts, seat, p) == kind:
            count += 1
    return count


@numba.njit(cache=True)
def _kind_position(game, consts, seat, kind, count):
    """A legal position turning ``kind`` for ``seat``, drawn uniformly from the game's stream; ``count``: how many
    there are (> 0)."""
    chosen = _below(game.rng, 0, count)
    for p in range(NUM_POSITIONS):
        card = game.table[p]
        if card >= 0 and p != game.face_up and _kind_at(game, consts, seat, p) == kind:
            if chosen == 0:
                return p
            chosen -= 1
    return -1


# --- the kernel's own player ---------------------------------------------------------------------------------------

@numba.njit(cache=True)
def choose_random(program, game, consts, seat, players, scratch):
    """The :data:`RANDOM` program: a uniformly random legal flip, drawn from the game's stream. A choose function:
    every players' package writes its own with this signature (the module docstring)."""
    legal = game.cards_left - (1 if game.face_up >= 0 else 0)
    chosen = _below(game.rng, 0, legal)
    for p in range(NUM_POSITIONS):
        if game.table[p] >= 0 and p != game.face_up:
            if chosen == 0:
                return p
            chosen -= 1
    return -1


# --- the step ---------------------------------------------------------------------------------------------------

@numba.njit(cache=True)
def _new_deal(game, consts, players, turn):
    """Deal the game afresh for a learner: the table, the learner's seat, the opponents from the mix."""
    _deal(game, consts, 0)
    n = consts.num_players
    turn.seat = _below(game.rng, 0, n) if consts.seat < 0 else consts.seat
    if players.count > 1:
        for seat in range(n):
            u = _uniform(game.rng, 0)
            pick = players.count - 1
            for i in range(players.count):
                if u < players.cumulative[i]:
                    pick = i
                    break
            turn.entrants[seat] = pick
    else:
        turn.entrants[:] = 0


@numba.njit(cache=True, inline="always")
def _settle(game, consts, turn):
    """Whether the game has ended, and how (the reward is paid flip by flip)."""
    over = game.cards_left == 0
    turn.terminated, turn.truncated = over, not over and game.turn >= consts.limit


@numba.njit(cache=True)
def _final(game, consts, turn):
    """The final standing of a game that has ended: scores, winners (D5), the learner's seat."""
    turn.final_scores[:] = game.scores
    turn.final_winners[:] = False
    leaders(game, consts, turn.final_winners)
    turn.final_seat = turn.seat
    turn.done = True


@numba.njit(cache=True, inline="always")
def _check(game, consts, turn):
    """The position the action of the seat to play turns, or -2 if the rules refuse it; for a kind, how many
    positions it may turn (no draw yet: a refused step changes no game)."""
    a = turn.action
    if finished(game, consts):
        return -2
    if game.current_player != turn.seat or consts.action == ACT_POSITIONS:
        legal = 0 <= a < NUM_POSITIONS and game.table[a] >= 0 and a != game.face_up
        return a if legal else -2
    if a < 0 or a > _UNKNOWN_KIND:
        return -2
    count = _kind_count(game, consts, turn.seat, a)
    return count if count > 0 else -2


@numba.njit(cache=True, inline="always")
def _advance_game(game, consts, players, turn, observation, mask, final_obs, scratch, counts, choose):
    """One game of :func:`advance_with`, its action checked."""
    turn.outcome = NO_FLIP
    if turn.opening:
        turn.reward = 0.0
        turn.flip_count = 0
        turn.done = False
    if turn.action >= 0:
        position = turn.position
        if game.current_player == turn.seat and consts.action == ACT_KINDS:
            position = _kind_position(game, consts, turn.seat, turn.action, position)
        turn.position = position
        play(game, consts, position, turn)
    if turn.fresh == DEAL:
        _new_deal(game, consts, players, turn)
        turn.fresh = DEALT
    while True:
        if finished(game, consts):
            if turn.seat >= 0 and turn.fresh != DEALT:
                _settle(game, consts, turn)
                _final(game, consts, turn)
                if consts.same_step:
                    write_observation(game, consts, turn.seat, consts.observation, final_obs, counts)
            elif turn.seat < 0:
                _final(game, consts, turn)
            if not consts.same_step:
                turn.status = FINISHED
                break
            _new_deal(game, consts, players, turn)
            turn.fresh = DEALT
            continue
        player = game.current_player
        if player == turn.seat:
            turn.status = LEARNER
            if not turn.done:
                if turn.fresh == DEALT:
                    turn.reward = 0.0
                    turn.terminated = False
                    turn.truncated = False
                else:
                    _settle(game, consts, turn)
            break
        program = players.programs[turn.entrants[player]]
        if program == EXTERNAL:
            turn.status = WAITING
            break
        play(game, consts, choose(program, game, consts, player, players, scratch), turn)
    if turn.status != WAITING and turn.seat >= 0:
        write_observation(game, consts, turn.seat, consts.observation, observation, counts)
        if consts.observation == OBS_KINDS and consts.action == ACT_KINDS:
            # The kinds vector has just counted the mask: the legal cards per kind the seat knows.
            over = finished(game, consts)
            for kind in range(NUM_CATEGORIES + 1):
                mask[kind] = counts[0, kind] > 0 and not over
        else:
            write_mask(game, consts, turn.seat, consts.action, mask)
        if turn.status == FINISHED:
            mask[0] = True  # the action an autoreset ignores: never a mask without one
        if consts.same_step and not turn.done:
            final_obs[:] = observation


@numba.njit(cache=True, inline="always")
def advance_with(games, consts, players, turns, observations, masks, final_obs, choose):
    """:func:`advance` with the players of ``choose`` (compile it with your own, as ``advance`` does with
    :func:`choose_random`)."""
    n = games.shape[0]
    # (Records are read inside the parallel loops: a record taken before one is handed to it by value, which numba
    # cannot compile.)
    for g in numba.prange(n):  # the check: where an action is given, the position it turns (or -2)
        turn = turns[g]
        turn.position = -1
        if turn.active and turn.action >= 0:
            turn.position = _check(games[g], consts[0], turn)
    for g in range(n):
        if turns[g].active and turns[g].position == -2:
            return g
    for chunk in numba.prange((n + _CHUNK - 1) // _CHUNK):
        # The players' scratch space, once per chunk of games rather than per game.
        scratch = np.empty((4, NUM_POSITIONS), dtype=np.int64)
        counts = np.empty((3, NUM_CATEGORIES + 1), dtype=np.int64)
        for g in range(chunk * _CHUNK, min(n, (chunk + 1) * _CHUNK)):
            if turns[g].active:
                _advance_game(games[g], consts[0], players[0], turns[g], observations[g], masks[g], final_obs[g],
                              scratch, counts, choose)
    return -1


@numba.njit(cache=True, parallel=True)
def advance(games, consts, players, turns, observations, masks, final_obs):
    """The step of every interface, on every ``turns[g].active`` game, with this package's random player.

    In each game: the seat to play takes ``turns[g].action`` (a position, or for the learner a kind if
    ``consts.action`` says so; -1: none); a game marked ``DEAL`` is dealt afresh (the learner's seat and the
    opponents drawn); then the seats the caller does not play are played (each by its entrant's program) until the
    learner is to play (``LEARNER``), the game has finished (``FINISHED``, or dealt afresh with ``consts.same_step``)
    or an :data:`EXTERNAL` seat is to play (``WAITING``: call again with its action). Where the learner is to play or
    the game has finished, its reward since its step began (``opening``), the ends, and its observation and mask
    (rows of ``observations`` and ``masks``) are written; with ``same_step``, the observation a game ended with goes
    to ``final_obs``. The call's last flip, and every flip since the step opened, are noted in the TURN record.

    Returns -1, or the first active game whose action the rules refuse: then no game has changed."""
    return advance_with(games, consts, players, turns, observations, masks, final_obs, choose_random)


@numba.njit(cache=True)
def advance_one(games, consts, players, turns, observations, masks, final_obs):
    """:func:`advance` on one thread: for one game, where waking threads costs more than the step."""
    return advance_with(games, consts, players, turns, observations, masks, final_obs, choose_random)


@numba.njit(cache=True, inline="always")
def choose_all_with(program, games, consts, players, where, out, choose):
    """Program ``program``'s flip (by ``choose``) for the seat to play in every ``where`` game not finished (-1
    elsewhere)."""
    for g in numba.prange(out.shape[0]):
        out[g] = -1
        game = games[g]
        if where[g] and not finished(game, consts[0]):
            scratch = np.empty((4, NUM_POSITIONS), dtype=np.int64)
            out[g] = choose(program, game, consts[0], game.current_player, players[0], scratch)


@numba.njit(cache=True, parallel=True)
def choose_all(program, games, consts, players, where, out):
    """:func:`choose_all_with` this package's random player."""
    choose_all_with(program, games, consts, players, where, out, choose_random)


ENGINE = SimpleNamespace(name="goldrush_env.gold.kernel", advance=advance, advance_one=advance_one,
                         choose_all=choose_all, programs=(RANDOM,))
"""The step with this package's own player, which plays :data:`RANDOM`: the engine of an environment whose
opponents are all random (a players' package offers its own, ``goldrush_agents.gold.compiled.ENGINE``)."""


# --- reading a batch ---------------------------------------------------------------------------------------------

@numba.njit(cache=True, parallel=True)
def deal(games, consts, which, first):
    """Deal games ``which`` afresh from their streams, seats ``first`` (one per game) to play."""
    for i in numba.prange(which.shape[0]):
        _deal(games[which[i]], consts[0], first[i])


@numba.njit(cache=True, parallel=True)
def lay(games, consts, which, tables, first):
    """Lay the given tables in games ``which`` (checked by the caller), seats ``first`` to play."""
    for i in numba.prange(which.shape[0]):
        _lay(games[which[i]], consts[0], tables[i], first[i])


@numba.njit(cache=True)
def lay_one(games, consts, table, first):
    """:func:`lay` for the one game of ``games``, on one thread (a process that forks must not start the threads
    of a parallel call)."""
    _lay(games[0], consts[0], table, first)


@numba.njit(cache=True, inline="always")
def _lay(game, consts, table, first):
    game.table[:] = table
    game.current_player = first
    game.first_player = first
    _start(game, consts)


@numba.njit(cache=True, parallel=True)
def random_positions(games, consts, draws, out):
    """Per game, the legal position numbered ``floor(draw * number legal)``; -1 once finished."""
    for g in numba.prange(games.shape[0]):
        game = games[g]
        out[g] = -1
        if finished(game, consts[0]):
            continue
        legal = game.cards_left - (1 if game.face_up >= 0 else 0)
        chosen = int(draws[g] * legal)
        for p in range(NUM_POSITIONS):
            if game.table[p] >= 0 and p != game.face_up:
                if chosen == 0:
                    out[g] = p
                    break
                chosen -= 1


@numba.njit(cache=True, parallel=True)
def observe(games, consts, seats, rows, kind, out):
    """Seat ``seats[i]``'s observation of type ``kind`` in game ``rows[i]`` into ``out[i]``."""
    for i in numba.prange(rows.shape[0]):
        counts = np.empty((3, NUM_CATEGORIES + 1), dtype=np.int64)
        write_observation(games[rows[i]], consts[0], seats[i], kind, out[i], counts)


@numba.njit(cache=True)
def observe_one(game, consts, seat, kind, out, mask):
    """Seat ``seat``'s observation of type ``kind`` into ``out`` and its mask of ``consts.action`` actions into
    ``mask``, in one game (a record)."""
    counts = np.empty((3, NUM_CATEGORIES + 1), dtype=np.int64)
    c = consts[0]
    write_observation(game, c, seat, kind, out, counts)
    write_mask(game, c, seat, c.action, mask)


@numba.njit(cache=True, parallel=True)
def leaders_of(games, consts, out):
    """:func:`leaders` of every game: bool (games, seats)."""
    for g in numba.prange(games.shape[0]):
        leaders(games[g], consts[0], out[g])


@numba.njit(cache=True, parallel=True)
def known_to_play(games, out):
    """What the seat to play in each game sees or remembers: bool (games, 64)."""
    for g in numba.prange(out.shape[0]):
        game = games[g]
        for p in range(NUM_POSITIONS):
            out[g, p] = game.table[p] >= 0 and knows(game, game.current_player, p)


PARALLEL_FROM = 512
"""Batches of fewer games run on one thread: below this, waking the other threads costs more than they save (far
more when other processes keep the cores busy)."""


@contextmanager
def threads_for(num_games: int):
    """Run the kernel calls inside on one thread if ``num_games`` is below :data:`PARALLEL_FROM`."""
    if num_games >= PARALLEL_FROM:
        yield
        return
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(before)


assert MAX_PLAYERS == 5 and _P_SIZE == SLICES["unseen"].stop
