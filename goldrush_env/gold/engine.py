"""The rules of *Gold*, with no RL library in sight.

:class:`Game` holds one game: the table (64 positions, 8x8, D7), whose turn
it is, the face-up first card of a normal turn, scores, and the rush.
Each :meth:`Game.step` turns one card and returns a :class:`FlipEvent`, a
public record of what everyone at the table saw; memory models, renderers
and replays are built from these events alone.

How this engine reads the places where the rule sheets are silent (the
project's decisions D1-D9, docs/rules.md):

* D1 colours. With two players seat 0 owns colours 0 and 1, seat 1 owns 2
  and 3; with three to five players seat s owns colour s. Other colours are
  unowned, and gold struck by an unowned miner goes to the active player.
* D2 order. The two cards of a normal turn are flipped one after the other:
  the first is face up (and public) before the second is chosen.
* D3 stalemate. If, at the start of a turn with more than ten cards on the
  table, no pair of them could ever remove a card (no dynamite, at most one
  distinct miner value, and every miner weaker than every gold), the Gold
  Rush starts there and then, so the game cannot stall.
* D4 turn limit. ``max_turns`` (off by default) truncates a game after that
  many completed turns. A truncated game is not over; its standing is read
  from the scores so far.
* D5 ranking. Most points wins, then most gold cards; seats still level all
  win together.
* D6 matches: see :mod:`goldrush_env.gold.match`.
* D7 positions are 0..63, the 8x8 grid read row by row.
* D8 custom layouts may leave positions empty but never hold more cards of a
  kind than the box does.
* D9 everything flipped is public, and so is the gold each seat holds.
"""

from __future__ import annotations

import enum
import sys
from typing import Any, NamedTuple, Sequence

import numpy as np

from goldrush_env.gold.cards import (
    BOX_COUNT,
    CODE,
    DYNAMITE,
    EMPTY,
    GOLD_RUSH_THRESHOLD,
    GRID_SIZE,
    IS_GOLD,
    IS_MINER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_CARD_TYPES,
    NUM_COLOURS,
    NUM_POSITIONS,
    VALUE,
    COLOUR,
    card_code,
    parse_layout,
    square_name,
    table_size,
)
from goldrush_env.checks import check_int, is_int
from goldrush_env.errors import GoldrushEnvError, IllegalFlipError
from goldrush_env.protocol import Result

__all__ = ["Game", "FlipEvent", "Outcome", "colour_owners", "pair_outcome", "SERIAL_FORMAT"]

SERIAL_FORMAT = "goldrush-game/1"


def is_record(data: Any) -> bool:
    """Whether ``data`` (JSON) is a record of Gold (:meth:`Game.to_record`, with its ``format``)."""
    return isinstance(data, dict) and data.get("format") == SERIAL_FORMAT


class Outcome(str, enum.Enum):
    """What a flip did. The values are the outcome names of the shared rule vectors."""

    FIRST = "first"
    """First card of a normal turn, now face up; nothing is decided yet."""
    STRIKE = "strike"
    """Miner at least as strong as the gold: the miner's owner takes the gold."""
    DUEL = "duel"
    """Two miners of different values: the weaker leaves the game."""
    DYNAMITE = "dynamite"
    """At least one dynamite: both cards leave the game."""
    NOTHING = "nothing"
    """Both cards go back face down where they were."""
    RUSH_GOLD = "rush_gold"
    """The rush: a gold card, taken by the active player."""
    RUSH_DISCARD = "rush_discard"
    """The rush: a miner or dynamite, which simply leaves the game."""


class FlipEvent(NamedTuple):
    """The public record of one flip: everything the players saw happen."""

    turn: int
    """Index of the turn the flip belongs to (0-based)."""
    player: int
    """The active seat, who flipped."""
    position: int
    """Where the card was flipped (0..63)."""
    card: int
    """The card revealed there (a card id of :mod:`goldrush_env.gold.cards`)."""
    outcome: Outcome
    receiver: int | None
    """The seat that received gold (strike or rush gold), else ``None``."""
    removed: tuple[int, ...]
    """Positions whose cards left the table as a result of this flip."""
    partner: int | None
    """For the second flip of a normal turn, the position of the first card."""
    rush_begins: bool
    """True if the rush begins with the next turn (announced to all)."""

    @property
    def label(self) -> str:
        """The outcome in the notation of ``vectors.jsonl``, e.g. ``"strike:1"``."""
        if self.receiver is None:
            return self.outcome.value
        return f"{self.outcome.value}:{self.receiver}"

    def describe(self) -> str:
        """One line for people, e.g. ``"turn 3, seat 1 flips M24 at b3: duel"`` (squares named as on the board)."""
        text = (f"turn {self.turn}, seat {self.player} flips {CODE[self.card]} at {square_name(self.position)}: "
                f"{self.label}")
        if self.rush_begins:
            text += " (the Gold Rush begins)"
        return text


def colour_owners(num_players: int) -> tuple[int, ...]:
    """The seat owning each colour, ``-1`` for an unowned colour (D1)."""
    check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
    if num_players == 2:
        return (0, 0, 1, 1, -1)
    return tuple(c if c < num_players else -1 for c in range(NUM_COLOURS))


BOX_GOLD_CARDS = sum(BOX_COUNT[card] for card in range(NUM_CARD_TYPES) if IS_GOLD[card])


def _seat_counts(name: str, values: Any, num_players: int) -> tuple[int, ...]:
    """``values`` as one int >= 0 per seat, or a GoldrushEnvError naming ``name``."""
    try:
        items = list(values)
    except TypeError:
        items = None
    if items is None or len(items) != num_players or not all(is_int(v, 0) for v in items):
        raise GoldrushEnvError(f"{name} must be {num_players} ints >= 0 (one per seat), got {values!r}")
    return tuple(int(v) for v in items)


def _pair_rules() -> list[tuple[Outcome, bool, bool, int, int]]:
    """For every ordered pair of cards (first, second), flattened as 25*first+second:
    (outcome, first leaves, second leaves, gold card taken or -1, colour of the striking miner or -1)."""
    table = []
    for a in range(NUM_CARD_TYPES):
        for b in range(NUM_CARD_TYPES):
            if a == DYNAMITE or b == DYNAMITE:
                table.append((Outcome.DYNAMITE, True, True, -1, -1))
            elif IS_MINER[a] and IS_MINER[b]:
                if VALUE[a] == VALUE[b]:
                    table.append((Outcome.NOTHING, False, False, -1, -1))
                else:
                    table.append((Outcome.DUEL, VALUE[a] < VALUE[b], VALUE[b] < VALUE[a], -1, -1))
            elif IS_GOLD[a] and IS_GOLD[b]:
                table.append((Outcome.NOTHING, False, False, -1, -1))
            else:
                gold, miner = (a, b) if IS_GOLD[a] else (b, a)
                if VALUE[miner] >= VALUE[gold]:
                    table.append((Outcome.STRIKE, True, True, gold, COLOUR[miner]))
                else:
                    table.append((Outcome.NOTHING, False, False, -1, -1))
    return table


_PAIR = _pair_rules()
_event = tuple.__new__  # FlipEvent without the Python-level __new__ frame, for the hot path
_RUSH_GOLD, _RUSH_DISCARD, _FIRST = Outcome.RUSH_GOLD, Outcome.RUSH_DISCARD, Outcome.FIRST


def pair_outcome(first: int, second: int) -> Outcome:
    """What turning card ``first`` then card ``second`` (card ids) in a normal turn does:
    ``STRIKE``, ``DUEL``, ``DYNAMITE`` or ``NOTHING``. The same for either order."""
    first = check_int("first", first, 0, NUM_CARD_TYPES - 1, what="a card id")
    second = check_int("second", second, 0, NUM_CARD_TYPES - 1, what="a card id")
    return _PAIR[first * NUM_CARD_TYPES + second][0]


class Game:
    """One game of *Gold* for 2-5 players.

    ``Game(num_players, layout)`` starts from a given table (64 codes or card
    ids, ``"-"`` for an empty position); :meth:`new` deals a box (the
    full one by default, or a smaller table of :data:`~goldrush_env.gold.cards.TABLES`)
    at random from a seed. ``first_player`` is the seat that starts,
    ``max_turns`` the optional turn limit (D4), ``rush_at`` the number of cards
    at or below which the rush begins (10, the rule sheets'; smaller
    tables scale it).

    Examples:
        >>> game = Game.new(2, seed=7)
        >>> event = game.step(0)
        >>> event.outcome
        <Outcome.FIRST: 'first'>
    """

    __slots__ = (
        "num_players", "first_player", "max_turns", "rush_at", "_limit", "_owner", "_initial",
        "_table", "_positions", "_face_up", "_player", "_turn", "_rush", "_rush_from",
        "_scores", "_gold_cards", "_dynamite", "_miners", "_golds", "_history", "_start",
    )

    def __init__(self, num_players: int, layout: str | Sequence[str] | Sequence[int], *,
                 first_player: int = 0, max_turns: int | None = None,
                 rush_at: int = GOLD_RUSH_THRESHOLD) -> None:
        self.num_players = check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
        self.first_player = check_int("first_player", first_player, 0, self.num_players - 1, what="a seat")
        self.max_turns = check_int("max_turns", max_turns, 1, none="no limit")
        self.rush_at = check_int("rush_at", rush_at, 0, note="cards left when the Gold Rush begins")
        table = parse_layout(layout)
        self._limit = sys.maxsize if max_turns is None else self.max_turns
        self._owner = colour_owners(self.num_players)
        self._initial = tuple(table)
        self._table = table
        self._positions = [p for p in range(NUM_POSITIONS) if table[p] != EMPTY]
        self._face_up = -1
        self._player = self.first_player
        self._turn = 0
        self._rush = False
        self._rush_from: int | None = None
        self._scores = [0] * self.num_players
        self._gold_cards = [0] * self.num_players
        # Counts of what is on the table, kept for the stalemate test (D3).
        self._dynamite = sum(card == DYNAMITE for card in table)
        self._miners = [0] * 6  # by value 2..5 (indices 0, 1 unused)
        self._golds = [0] * 5  # by value 1..4
        for card in table:
            if card != EMPTY and IS_MINER[card]:
                self._miners[VALUE[card]] += 1
            elif card != EMPTY and IS_GOLD[card]:
                self._golds[VALUE[card]] += 1
        self._history: list[FlipEvent] = []
        self._start: dict[str, Any] | None = None  # the standing a game made by from_position began from
        self._start_turn()

    @classmethod
    def new(cls, num_players: int, seed: int | np.random.Generator | None = None, *,
            first_player: int = 0, max_turns: int | None = None, table: str = "full") -> "Game":
        """A game on a box shuffled by ``seed``: the full box of 64 cards, or the smaller ``table`` named
        (:data:`~goldrush_env.gold.cards.TABLES`), laid on the first positions of the grid, with its rush
        threshold.

        ``seed`` is an int or a :class:`numpy.random.Generator` (which is
        advanced); the same int always deals the same table. ``None`` draws
        fresh entropy from the operating system, never from global state.
        """
        size = table_size(table)
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        deck = size.box()
        order = rng.permutation(len(deck))
        layout = [deck[i] for i in order] + [EMPTY] * (NUM_POSITIONS - len(deck))
        return cls(num_players, layout, first_player=first_player, max_turns=max_turns, rush_at=size.rush_at)

    @classmethod
    def from_position(cls, num_players: int, layout: str | Sequence[str] | Sequence[int], *,
                      current_player: int, scores: Sequence[int], gold_cards: Sequence[int], turn: int = 0,
                      face_up: int | None = None, gold_rush: bool = False,
                      max_turns: int | None = None, rush_at: int = GOLD_RUSH_THRESHOLD) -> "Game":
        """A game that starts from a position part-way through play.

        ``layout`` is the table now (64 entries, ``"-"`` or ``EMPTY`` where a
        card has left); ``scores`` and ``gold_cards`` are per seat; ``turn``
        counts the completed turns; ``face_up`` is the first card of a normal
        turn in progress. If ``gold_rush`` is false the rush begins here
        when the rules say so (ten cards or fewer, or D3); if it is true the
        rush is under way and :attr:`gold_rush_from_turn` reads ``turn``, as
        the position does not say when it began. Search players use this to
        play out what they know of a game; puzzles and endgames start here.
        The new game's history is empty and :meth:`to_record` records the
        position it started from.
        """
        n = check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
        current_player = check_int("current_player", current_player, 0, n - 1, what="a seat")
        turn = check_int("turn", turn, 0, note="completed turns")
        game = cls(n, layout, first_player=(current_player - turn) % n, max_turns=max_turns, rush_at=rush_at)
        standing = {"scores": _seat_counts("scores", scores, n),
                    "gold_cards": _seat_counts("gold_cards", gold_cards, n)}
        for seat, (points, cards) in enumerate(zip(standing["scores"], standing["gold_cards"])):
            if not cards <= points <= 4 * cards:
                raise GoldrushEnvError(f"seat {seat} cannot hold {points} points in {cards} gold cards "
                                       "(each gold card is worth 1 to 4)")
        on_table = sum(game._golds)
        if sum(standing["gold_cards"]) + on_table > BOX_GOLD_CARDS:
            raise GoldrushEnvError(f"{sum(standing['gold_cards'])} gold cards held and {on_table} on the table: "
                                   f"the box has {BOX_GOLD_CARDS}")
        # The held cards come from the gold not on the table: their points must fit those values.
        held, points = sum(standing["gold_cards"]), sum(standing["scores"])
        spare = sorted(v for v in range(1, 5) for _ in range(BOX_COUNT[v - 1] - game._golds[v]))
        if held and not sum(spare[:held]) <= points <= sum(spare[-held:]):
            raise GoldrushEnvError(f"{held} gold cards held worth {points} points in all: the gold not on the table "
                                   f"allows {sum(spare[:held])} to {sum(spare[-held:])} points in {held} cards")
        if not isinstance(gold_rush, (bool, np.bool_)):
            raise GoldrushEnvError(f"gold_rush must be a bool, got {gold_rush!r}")
        if face_up is not None:
            if not is_int(face_up, 0, NUM_POSITIONS - 1) or game._table[face_up] == EMPTY:
                raise GoldrushEnvError(f"face_up must be None or a position holding a card, got {face_up!r}")
            if gold_rush or game._rush:
                raise GoldrushEnvError("no card is face up in the Gold Rush (one flip per turn): "
                                       f"got face_up={face_up} with the Gold Rush under way")
        game._scores = list(standing["scores"])
        game._gold_cards = list(standing["gold_cards"])
        game._turn = turn
        game._player = current_player
        if gold_rush and not game._rush:
            game._rush, game._rush_from = True, game._turn
        elif game._rush:
            game._rush_from = game._turn
        game._face_up = -1 if face_up is None else int(face_up)
        game._start = {**standing, "turn": game._turn, "current_player": game._player,
                       "face_up": face_up if face_up is None else int(face_up), "gold_rush": bool(gold_rush)}
        return game

    # --- the public state ---------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to flip next (the seat that would have moved, once the game has ended)."""
        return self._player

    @property
    def turn(self) -> int:
        """The number of completed turns."""
        return self._turn

    @property
    def gold_rush(self) -> bool:
        """True once the rush has begun (one flip per turn from then on)."""
        return self._rush

    @property
    def gold_rush_from_turn(self) -> int | None:
        """The index of the first turn of the rush, or ``None`` before it begins."""
        return self._rush_from

    @property
    def face_up(self) -> int | None:
        """Position of the face-up first card of the current normal turn, if any."""
        return None if self._face_up < 0 else self._face_up

    @property
    def cards_left(self) -> int:
        """How many cards are on the table (face down or face up)."""
        return len(self._positions)

    @property
    def gold_on_table(self) -> int:
        """The points of gold still on the table, seen or not."""
        golds = self._golds
        return golds[1] + 2 * golds[2] + 3 * golds[3] + 4 * golds[4]

    @property
    def is_over(self) -> bool:
        """True once the last card has left the table."""
        return not self._positions

    @property
    def is_truncated(self) -> bool:
        """True when the turn limit (D4) stopped a game that is not over."""
        return self._turn >= self._limit and bool(self._positions)

    @property
    def is_finished(self) -> bool:
        """Over or truncated: no further flip is allowed."""
        return self.is_over or self.is_truncated

    @property
    def scores(self) -> tuple[int, ...]:
        """Points (sum of gold values) per seat."""
        return tuple(self._scores)

    @property
    def gold_cards(self) -> tuple[int, ...]:
        """Number of gold cards held per seat."""
        return tuple(self._gold_cards)

    @property
    def history(self) -> tuple[FlipEvent, ...]:
        """Every flip of the game so far, in order."""
        return tuple(self._history)

    @property
    def initial_layout(self) -> tuple[int, ...]:
        """The table as it was dealt, as card ids."""
        return self._initial

    @property
    def table(self) -> tuple[int, ...]:
        """The card at each position (:data:`~goldrush_env.gold.cards.EMPTY` for none).

        This is the hidden truth: players only know what they saw flipped.
        """
        return tuple(self._table)

    def card_at(self, position: int) -> int:
        """The card at ``position`` (hidden information; see :attr:`table`)."""
        return self._table[self._check_position(position)]

    def on_table(self) -> list[int]:
        """Positions that hold a card, ascending."""
        return list(self._positions)

    def legal_mask(self) -> np.ndarray:
        """A bool per position (64): true where a card may be flipped now, every card on the table but the
        face-up first card; all false once the game is over or truncated. The action is the position, so the
        legal positions are ``np.flatnonzero(game.legal_mask())``."""
        mask = np.zeros(NUM_POSITIONS, dtype=bool)
        if self._positions and self._turn < self._limit:
            mask[self._positions] = True
            if self._face_up >= 0:
                mask[self._face_up] = False
        return mask

    def leaders(self) -> tuple[int, ...]:
        """The seats that would win if the game ended now (D5): most points, then most gold cards."""
        best = max(zip(self._scores, self._gold_cards))
        return tuple(s for s in range(self.num_players) if (self._scores[s], self._gold_cards[s]) == best)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over or truncated (D5); ``()`` while it is in play."""
        return self.leaders() if self.is_finished else ()

    def result(self) -> Result:
        """The scores, the winners (of the finished game, or the :meth:`leaders` while it is in play) and the gold
        cards, which break a tie of points (D5)."""
        return Result(self.scores, self.winners if self.is_finished else self.leaders(), self.gold_cards)

    def known_to(self, seat: int) -> dict[int, int]:
        """The cards ``seat`` knows with perfect recall, by position: every card flipped and still on the table.
        Every flip is public (D9), so with perfect recall every seat knows the same."""
        check_int("seat", seat, 0, self.num_players - 1)
        known: dict[int, int] = {}
        for event in self._history:
            known[event.position] = event.card
            for gone in event.removed:
                known.pop(gone, None)
        return known

    # --- playing ----------------------------------------------------------------

    def step(self, position: int) -> FlipEvent:
        """Flip the card at ``position`` (the action) and apply the rules; returns what happened.

        Raises :class:`~goldrush_env.errors.IllegalFlipError` (and changes
        nothing) for a position that is out of range, empty, already face up,
        or when the game is over or truncated.
        """
        if type(position) is not int:
            position = self._check_position(position)
        table = self._table
        if not 0 <= position < NUM_POSITIONS:
            self._check_position(position)
        card = table[position]
        if card == EMPTY or position == self._face_up or self._turn >= self._limit:
            self._refuse(position)
        player = self._player

        if self._rush:
            self._remove(position, card)
            if IS_GOLD[card]:
                self._scores[player] += VALUE[card]
                self._gold_cards[player] += 1
                outcome, receiver = _RUSH_GOLD, player
            else:
                outcome, receiver = _RUSH_DISCARD, None
            event = _event(FlipEvent, (self._turn, player, position, card, outcome, receiver, (position,), None,
                                       self._end_turn()))
        elif self._face_up < 0:
            self._face_up = position
            event = _event(FlipEvent, (self._turn, player, position, card, _FIRST, None, (), None, False))
        else:
            first_position = self._face_up
            first = table[first_position]
            outcome, first_leaves, second_leaves, gold, colour = _PAIR[first * NUM_CARD_TYPES + card]
            receiver = None
            if gold >= 0:
                owner = self._owner[colour]
                receiver = player if owner < 0 else owner
                self._scores[receiver] += VALUE[gold]
                self._gold_cards[receiver] += 1
            removed: tuple[int, ...] = ()
            if first_leaves:
                self._remove(first_position, first)
                removed = (first_position,)
            if second_leaves:
                self._remove(position, card)
                removed += (position,)
            self._face_up = -1
            event = _event(FlipEvent, (self._turn, player, position, card, outcome, receiver, removed, first_position,
                                       self._end_turn(bool(removed))))
        self._history.append(event)
        return event

    def _remove(self, position: int, card: int) -> None:
        self._table[position] = EMPTY
        self._positions.remove(position)
        if card == DYNAMITE:
            self._dynamite -= 1
        elif IS_MINER[card]:
            self._miners[VALUE[card]] -= 1
        else:
            self._golds[VALUE[card]] -= 1

    def _end_turn(self, removed: bool = True) -> bool:
        """Pass the turn on; returns True if the rush begins with the new turn.

        Whether it begins depends only on the cards on the table, so a turn that
        removed nothing (``removed`` false) cannot start it."""
        self._turn += 1
        self._player = (self._player + 1) % self.num_players
        return self._start_turn() if removed else False

    def _start_turn(self) -> bool:
        if self._rush or not self._positions:
            return False
        if len(self._positions) <= self.rush_at or self._is_stalemate():
            self._rush = True
            self._rush_from = self._turn
            return True
        return False

    def _is_stalemate(self) -> bool:
        """D3: no pair of the cards on the table can ever remove a card."""
        if self._dynamite:
            return False
        miner_values = [v for v in range(2, 6) if self._miners[v]]
        if len(miner_values) > 1:
            return False
        if not miner_values:
            return True
        gold_values = [v for v in range(1, 5) if self._golds[v]]
        return not gold_values or miner_values[0] < gold_values[0]

    def _check_position(self, position: Any) -> int:
        if not is_int(position):
            raise IllegalFlipError(f"position must be an int from 0 to {NUM_POSITIONS - 1}, got {position!r}")
        if not 0 <= position < NUM_POSITIONS:
            raise IllegalFlipError(f"position {position} is out of range: positions are 0 to {NUM_POSITIONS - 1}")
        return int(position)

    def _refuse(self, position: int) -> None:
        if self.is_over:
            raise IllegalFlipError(f"cannot flip position {position}: the game is over (the table is empty)")
        if self.is_truncated:
            raise IllegalFlipError(
                f"cannot flip position {position}: the game was truncated at the turn limit of {self.max_turns}")
        if position == self._face_up:
            raise IllegalFlipError(f"position {position} is already face up (the first card of this turn)")
        raise IllegalFlipError(f"position {position} is empty: its card has left the table")

    # --- copies, equality, serialisation ---------------------------------------

    def copy(self) -> "Game":
        """An independent copy (for search players): flipping one never affects the other."""
        new = Game.__new__(Game)
        for name in _SHARED_SLOTS:
            setattr(new, name, getattr(self, name))
        for name in _LIST_SLOTS:
            setattr(new, name, getattr(self, name).copy())
        return new

    __copy__ = copy

    def rearranged(self, positions: Sequence[int], cards: Sequence[int]) -> "Game":
        """A copy with the face-down cards at ``positions`` replaced by ``cards``,
        which must be the same cards in another order.

        Search players use it to try other deals of the cards they have not
        seen. The copy starts from the current position: its history is
        empty, :meth:`to_record` records the standing it began from, and in
        the rush its :attr:`gold_rush_from_turn` is the current turn
        (as for :meth:`from_position`).
        """
        positions = [position if type(position) is int or not is_int(position) else int(position)
                     for position in positions]
        cards = [card if type(card) is int or not is_int(card) else int(card) for card in cards]
        if len(positions) != len(cards):
            raise GoldrushEnvError(f"rearranged() needs one card per position: got {len(positions)} positions "
                                   f"and {len(cards)} cards")
        table = self._table
        for position in positions:
            if type(position) is not int or not 0 <= position < NUM_POSITIONS or table[position] == EMPTY \
                    or position == self._face_up:
                raise GoldrushEnvError(f"rearranged() takes face-down cards on the table: position {position!r} "
                                       "is out of range, empty or face up")
        if len(set(positions)) != len(positions):
            raise GoldrushEnvError(f"rearranged() got a position twice: {positions}")
        if any(type(card) is not int for card in cards) or sorted(table[p] for p in positions) != sorted(cards):
            wanted = [card_code(c) if type(c) is int and 0 <= c < NUM_CARD_TYPES else c for c in cards]
            raise GoldrushEnvError("rearranged() only reorders the cards at the positions given: "
                                   f"{[card_code(table[p]) for p in positions]} cannot become {wanted}")
        new = self.copy()
        for position, card in zip(positions, cards):
            new._table[position] = card
        new._initial = tuple(new._table)
        new._history = []
        if new._rush:
            new._rush_from = new._turn  # as from_position reads a rush under way, so saved copies round-trip
        new.first_player = (self._player - self._turn) % self.num_players
        new._start = {"scores": self.scores, "gold_cards": self.gold_cards, "turn": self._turn,
                      "current_player": self._player, "face_up": self.face_up, "gold_rush": self._rush}
        return new

    def exchange(self, a: int, b: int) -> None:
        """Swap the face-down cards at positions ``a`` and ``b``, as if they had been dealt the other way round.

        Search players use it to deal the cards they have not seen one at a
        time, as they are flipped. Neither card may have been revealed by a
        flip of this game's history, and the initial layout changes with the
        table, so :meth:`to_record` still replays to this game. Raises
        :class:`~goldrush_env.errors.GoldrushEnvError` (and changes nothing) for
        a position out of range, empty, face up or revealed.
        """
        a = a if type(a) is int or not is_int(a) else int(a)
        b = b if type(b) is int or not is_int(b) else int(b)
        table = self._table
        for position in (a, b):
            if type(position) is not int or not 0 <= position < NUM_POSITIONS or table[position] == EMPTY \
                    or position == self._face_up:
                raise GoldrushEnvError(f"exchange() takes face-down cards on the table: position {position!r} "
                                       "is out of range, empty or face up")
        if a == b:
            return
        for event in self._history:
            if event.position == a or event.position == b:
                raise GoldrushEnvError(f"exchange() cannot move a card this game has revealed: position "
                                       f"{event.position} was flipped on turn {event.turn}")
        table[a], table[b] = table[b], table[a]
        initial = list(self._initial)
        initial[a], initial[b] = initial[b], initial[a]
        self._initial = tuple(initial)

    def __deepcopy__(self, memo: dict) -> "Game":
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # mutable

    def to_record(self) -> dict[str, Any]:
        """The game as plain data (JSON-ready), what ``goldrush play --save`` writes: the deal, every flip so far
        and ``events``, each flip's outcome label, so a record says what happened as well as how to replay it.

        :meth:`from_record` replays the flips, so a saved game resumes exactly.
        """
        return {
            "format": SERIAL_FORMAT,
            "num_players": self.num_players,
            "first_player": self.first_player,
            "max_turns": self.max_turns,
            **({} if self.rush_at == GOLD_RUSH_THRESHOLD else {"rush_at": self.rush_at}),
            "layout": [card_code(card) for card in self._initial],
            "flips": [event.position for event in self._history],
            **({} if self._start is None else {"start": {key: list(value) if isinstance(value, tuple) else value
                                                         for key, value in self._start.items()}}),
            "events": [event.label for event in self._history],
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> "Game":
        """Rebuild a game saved by :meth:`to_record`, replaying its flips; an illegal flip raises with its index, and
        so does one whose outcome is not the one the record's ``events`` say (a record without them is replayed
        unchecked)."""
        if not isinstance(record, dict) or record.get("format") != SERIAL_FORMAT:
            found = record.get("format") if isinstance(record, dict) else type(record).__name__
            raise GoldrushEnvError(f"not a saved game: expected format {SERIAL_FORMAT!r}, got {found!r}")
        missing = {"num_players", "first_player", "max_turns", "layout", "flips"} - record.keys()
        if missing:
            raise GoldrushEnvError(f"saved game lacks the keys {sorted(missing)}")
        start = record.get("start")
        rush_at = record.get("rush_at", GOLD_RUSH_THRESHOLD)
        if start is None:
            game = cls(record["num_players"], record["layout"], first_player=record["first_player"],
                       max_turns=record["max_turns"], rush_at=rush_at)
        elif isinstance(start, dict):
            try:
                game = cls.from_position(record["num_players"], record["layout"], max_turns=record["max_turns"],
                                         rush_at=rush_at, **start)
            except TypeError as error:
                raise GoldrushEnvError(f"saved game has a bad 'start' position: {error}") from None
        else:
            raise GoldrushEnvError(f"saved game's 'start' must be a position (a dict), got {start!r}")
        for index, position in enumerate(record["flips"]):
            try:
                game.step(position)
            except IllegalFlipError as error:
                raise IllegalFlipError(f"flip #{index}: {error}") from None
        recorded = record.get("events")
        if recorded is not None:
            played = [event.label for event in game._history]
            if not isinstance(recorded, list) or len(recorded) != len(played):
                raise GoldrushEnvError(f"the record's events must be a list of {len(played)} outcome labels, one per "
                                       f"flip, got {recorded!r:.80}")
            for index, (label, said) in enumerate(zip(played, recorded)):
                if label != said:
                    raise GoldrushEnvError(f"flip #{index} replays as {label!r} but the record says {said!r}")
        return game

    # --- text ---------------------------------------------------------------------

    def __repr__(self) -> str:
        return (f"Game(num_players={self.num_players}, turn={self._turn}, player={self._player}, "
                f"cards_left={self.cards_left}, scores={self.scores}, gold_rush={self._rush})")

    def __str__(self) -> str:
        """The whole table (hidden cards included) as an 8x8 grid; the face-up card in brackets."""
        rows = []
        for row in range(GRID_SIZE):
            cells = []
            for position in range(row * GRID_SIZE, (row + 1) * GRID_SIZE):
                code = card_code(self._table[position])
                cells.append(f"[{code}]".rjust(5) if position == self._face_up else code.rjust(5))
            rows.append("".join(cells))
        if self.is_over:
            status = f"game over after {self._turn} turns, scores {self.scores}"
        elif self.is_truncated:
            status = f"truncated at the turn limit ({self._turn} turns), scores {self.scores}"
        else:
            status = f"turn {self._turn}, seat {self._player} to play, scores {self.scores}"
            if self._rush:
                status += ", Gold Rush"
        return "\n".join(rows + [status])


_LIST_SLOTS = ("_table", "_positions", "_scores", "_gold_cards", "_miners", "_golds", "_history")
_SHARED_SLOTS = tuple(name for name in Game.__slots__ if name not in _LIST_SLOTS)  # immutable values
