"""The rules of *Gold Rush* on a piecepack (docs/piecepack-rules.md), with no RL library in sight.

:class:`Game` holds one game for 3 or 4 players: the 24 plots with their
tiles, coins, owners and buildings, every player's holdings and markers,
the round and the decision point. :meth:`Game.step` takes one of the 488
actions of :mod:`~goldrush_env.piecepack.actions` and returns the
:class:`Event` list of what it caused, including the automatic steps that
follow it (production, spoilage, passing the dice) up to the next decision.

Randomness: :meth:`Game.new` draws the setup, the first start player and
every die from one :class:`numpy.random.Generator`. A game can instead be
given all of its random outcomes, as a record of §9 holds them
(:meth:`Game.from_record`, :meth:`Game.to_record`), so any game can be saved
and replayed exactly. The draw order of :meth:`Game.new` is this engine's
own; only records travel between implementations.

The decisions P1-P46 of docs/piecepack-rules.md §6 are followed throughout; the few
places where this engine had to choose for itself are noted where they act.
"""

from __future__ import annotations

import copy as _copy
import enum
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.components import (
    ASSAY_COST,
    BOX,
    BUILD_COST,
    BUILDINGS,
    CLAIM_ROUNDS,
    COLUMNS,
    ENERGY,
    FOOD,
    GOLD,
    GOLD_MINE,
    MARKERS,
    MARKET,
    MARKET_COST,
    MAX_LEVEL,
    MAX_OFFERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MINE,
    NUM_PIECES,
    NUM_PLOTS,
    NUM_ROUNDS,
    OPTIMIZE_COST,
    ORE,
    PRODUCTION,
    RANKS,
    RESOURCES,
    ROW_SUIT,
    ROWS,
    SCORING,
    START_STOCK,
    SUITS,
    TRADE_ROUTE,
    TRADE_ROUTE_RATE,
    UPGRADE_COST,
    WAREHOUSE,
    code_of,
    parse_code,
    piece_name,
)
from goldrush_env.piecepack.errors import IllegalActionError, PiecepackError, SetupError
from goldrush_env.checks import check_int, is_int
from goldrush_env.protocol import Result

__all__ = ["Event", "Game", "Phase", "piece_value"]


def is_record(data: Any) -> bool:
    """Whether ``data`` (JSON) is a record of this game (§9: it has ``tiles`` and ``coins``)."""
    return isinstance(data, dict) and "tiles" in data and "coins" in data


class Phase(str, enum.Enum):
    """The decision points of §4 (and the end of the game)."""

    WAREHOUSE_FOOD = "warehouse_food"
    WAREHOUSE_ENERGY = "warehouse_energy"
    FREE_TRADE_TURN = "free_trade_turn"
    OFFER_RESPONSE = "offer_response"
    MARKET_SELL = "market_sell"
    CLAIM = "claim"
    DEVELOPMENT_TURN = "development_turn"
    GAME_OVER = "game_over"


_PHASE_ACTIONS = {
    Phase.WAREHOUSE_FOOD: range(A.WAREHOUSE_PROTECT, A.NUM_ACTIONS),
    Phase.WAREHOUSE_ENERGY: range(A.WAREHOUSE_PROTECT, A.NUM_ACTIONS),
    Phase.FREE_TRADE_TURN: range(A.OFFER, A.END_FREE_TRADE + 1),
    Phase.OFFER_RESPONSE: range(A.ACCEPT, A.DECLINE + 1),
    Phase.MARKET_SELL: range(A.MARKET_SELL, A.END_FREE_TRADE),
    Phase.CLAIM: range(A.CLAIM, A.ASSAY_TILE),
    Phase.DEVELOPMENT_TURN: range(A.ASSAY_TILE, A.END_DEVELOPMENT + 1),
    Phase.GAME_OVER: range(0),
}
"""The only actions each decision point can ever allow; the mask checks these alone."""


@dataclass(frozen=True)
class Event:
    """One public thing that happened: ``kind`` names it, ``seat`` is who did it (``None`` for the
    table), ``data`` holds the details. Private facts (an assay's result) are never in an event."""

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """One line for people, e.g. ``"seat 1: build {'plot': 4, 'building': 'Farm', ...}"``."""
        who = "table" if self.seat is None else f"seat {self.seat}"
        details = ", ".join(f"{key}={value}" for key, value in self.data.items())
        return f"{who}: {self.kind}" + (f" ({details})" if details else "")


def roll_dice(rng: np.random.Generator) -> tuple[int, ...]:
    """A production roll drawn from ``rng``: the faces 0-5 of the Moon, Sun, Arms and Crown dice (A2)."""
    return tuple(int(v) for v in rng.integers(0, 6, 4))


def roll_market(rng: np.random.Generator) -> tuple[int, ...]:
    """A Market roll drawn from ``rng``: two ordinary dice, 1-6 each (P25)."""
    return tuple(int(v) for v in rng.integers(1, 7, 2))


def winners_of(scores: Sequence[int], food: Sequence[int]) -> list[int]:
    """The seats that win with these scores and Food: top score, then most Food; ties share (P39)."""
    best = [seat for seat, points in enumerate(scores) if points == max(scores)]
    most = max(food[seat] for seat in best)
    return [seat for seat in best if food[seat] == most]


def piece_value(suit: int, rank: int, face_up: bool, is_tile: bool, in_suit: int) -> int:
    """val(x, S) of §2.3: what one piece is worth to a building of suit ``in_suit``."""
    if not face_up:
        return 1 if is_tile or suit == in_suit else 0
    if rank == 0:
        return 1  # a face-up Null counts as a face-down tile (P11)
    return rank if suit == in_suit else 0


_SEATS_IN = [tuple(s for s in range(MAX_PLAYERS) if bits >> s & 1) for bits in range(1 << MAX_PLAYERS)]
"""The seats whose bits are set in a bit set of seats (``_SEATS_IN[0b101] == (0, 2)``)."""


def _codes(name: str, codes: Any) -> list[tuple[int, int]]:
    try:
        items = list(codes)
    except TypeError:
        items = None
    if items is None or len(items) != NUM_PLOTS:
        raise SetupError(f"{name} must be {NUM_PLOTS} piece codes (one per plot), got {codes!r}")
    pieces = []
    for plot, code in enumerate(items):
        try:
            pieces.append(parse_code(code))
        except ValueError as error:
            raise SetupError(f"{name}[{plot}]: {error}") from None
    missing = sorted(set(BOX) - set(items))
    if missing:
        raise SetupError(f"{name} must hold each of the 24 pieces once: {', '.join(missing)} missing")
    return pieces


def _roll(name: str, value: Any, size: int, low: int, high: int) -> tuple[int, ...]:
    try:
        items = list(value)
    except TypeError:
        items = None
    if items is None or len(items) != size or not all(is_int(v, low, high) for v in items):
        raise SetupError(f"{name} must be {size} ints from {low} to {high}, got {value!r}")
    return tuple(int(v) for v in items)


def checked_rolls(dice: Sequence[Sequence[int]], market_rolls: Sequence[Sequence[int]], used: int,
                  queued: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Production rolls ``[moon, sun, arms, crown]`` (faces 0-5) and Market rolls ``[a, b]`` (1-6) to queue in a
    game that has ``used`` production rolls and ``queued`` more, as tuples; :class:`SetupError` names a wrong one,
    or too many production rolls for the nine rounds."""
    rolls = [_roll(f"dice[{i}]", roll, 4, 0, 5) for i, roll in enumerate(dice)]
    if used + queued + len(rolls) > NUM_ROUNDS:
        raise SetupError(f"a game has {NUM_ROUNDS} production rolls: {used} used and {queued} queued leave no room "
                         f"for {len(rolls)} more")
    return rolls, [_roll(f"market_rolls[{i}]", roll, 2, 1, 6) for i, roll in enumerate(market_rolls)]


class Game:
    """One game of *Gold Rush* on a piecepack for 3 or 4 players (P1).

    ``Game(num_players, tiles, coins, start, dice, market_rolls)`` starts from
    an explicit setup: 24 tile and 24 coin codes by plot (coins by row, P6),
    the first start player, the production roll ``[moon, sun, arms, crown]``
    of each round and the Market rolls ``[a, b]``, consumed in order.
    Without ``rng`` all 9 production rolls must be given; with one, rolls
    beyond those given are drawn from it. :meth:`new` deals a game from a seed.

    The player to act is :attr:`current_player` at :attr:`phase`;
    :meth:`legal_mask` gives the actions allowed, :meth:`step` takes one.

    Examples:
        >>> game = Game.new(3, seed=1)
        >>> events = game.step(A.END_FREE_TRADE)
        >>> game.phase
        <Phase.FREE_TRADE_TURN: 'free_trade_turn'>
    """

    def __init__(self, num_players: int, tiles: Sequence[str], coins: Sequence[str], start: int,
                 dice: Sequence[Sequence[int]] = (), market_rolls: Sequence[Sequence[int]] = (), *,
                 rng: np.random.Generator | None = None) -> None:
        if not is_int(num_players, MIN_PLAYERS, MAX_PLAYERS):
            raise SetupError(f"num_players must be {MIN_PLAYERS} or {MAX_PLAYERS} (P1), got {num_players!r}")
        n = int(num_players)
        tile_pieces = _codes("tiles", tiles)
        coin_pieces = _codes("coins", coins)
        for plot, (suit, rank) in enumerate(coin_pieces):
            if suit != ROW_SUIT[plot // 6]:
                raise SetupError(f"coins[{plot}] is {code_of(suit, rank)}, of the {SUITS[suit]}, but row {plot // 6} "
                                 f"holds the {SUITS[ROW_SUIT[plot // 6]]} (P6)")
        start = check_int("start", start, 0, n - 1, what="a seat", error=SetupError)
        rolls = [_roll(f"dice[{i}]", roll, 4, 0, 5) for i, roll in enumerate(dice)]
        if len(rolls) > NUM_ROUNDS or rng is None and len(rolls) != NUM_ROUNDS:
            raise SetupError(f"dice must hold {NUM_ROUNDS} production rolls (fewer only with an rng), "
                             f"got {len(rolls)}")
        markets = [_roll(f"market_rolls[{i}]", roll, 2, 1, 6) for i, roll in enumerate(market_rolls)]
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise SetupError(f"rng must be None or a numpy.random.Generator, got {rng!r}")

        self.num_players = n
        self.first_start = int(start)
        self._tiles = tile_pieces
        self._coins = coin_pieces
        self._rng = rng
        self._dice_queue = rolls
        self._dice_used: list[tuple[int, ...]] = []
        self._market_queue = markets
        self._market_used: list[tuple[int, ...]] = []

        self.round = 1
        self.start = int(start)
        self.phase = Phase.FREE_TRADE_TURN
        self.current_player: int | None = None
        self._pos = 0  # index in the seat order of the player who acts in this phase
        self.face_up = [False] * NUM_PIECES
        self.owner = [-1] * NUM_PLOTS
        self.building = [-1] * NUM_PLOTS
        self.level = [0] * NUM_PLOTS
        self.holdings = [list(START_STOCK) for _ in range(n)]
        self.markers = [MARKERS] * n
        self.market_used = [False] * n
        self.offers_made = [0] * n
        self.assayed = [0] * NUM_PIECES  # bit s set: seat s has assayed this piece
        self.history: list[int] = []
        self.events: list[Event] = []
        self.rounds: list[dict] = []
        self._new_round_info()
        self._begin_round(self.events)

    @classmethod
    def new(cls, num_players: int, seed: int | np.random.Generator | None = None, *,
            first_player: int | None = None) -> Game:
        """A game dealt at random: tiles shuffled, each row's coins shuffled (P6), the start player (P5)
        and every die drawn from ``seed`` (an int, a Generator which is advanced, or ``None`` for fresh
        entropy). ``first_player`` seats the start player instead of the draw, which is still made: one seed
        deals the same pieces and dice whoever starts (tournaments rotate the start this way)."""
        if not is_int(num_players, MIN_PLAYERS, MAX_PLAYERS):
            raise SetupError(f"num_players must be {MIN_PLAYERS} or {MAX_PLAYERS} (P1), got {num_players!r}")
        first_player = check_int("first_player", first_player, 0, num_players - 1, what="a seat", none="",
                                 error=SetupError)
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        tiles = [BOX[i] for i in rng.permutation(NUM_PLOTS)]
        coins = []
        for row in range(4):
            coins += [code_of(ROW_SUIT[row], rank) for rank in rng.permutation(6)]
        drawn = int(rng.integers(num_players))
        return cls(num_players, tiles, coins, drawn if first_player is None else first_player, rng=rng)

    @classmethod
    def from_record(cls, record: dict, *, rng: np.random.Generator | None = None, check: bool = True) -> Game:
        """The game a record of §9 describes, replayed action by action. With ``check`` the stored
        ``rounds`` and ``final`` must match the replay, or :class:`PiecepackError` says where not."""
        if not isinstance(record, dict):
            raise SetupError(f"a record is a dict, got {type(record).__name__}")
        missing = [key for key in ("players", "tiles", "coins", "start", "dice") if key not in record]
        if missing:
            raise SetupError(f"the record has no {', '.join(missing)}")
        game = cls(record["players"], record["tiles"], record["coins"], record["start"], record["dice"],
                   record.get("market_rolls", ()), rng=rng)
        for index, action in enumerate(record.get("actions", ())):
            try:
                game.step(action)
            except PiecepackError as error:
                raise type(error)(f"record action #{index}: {error}") from None
        if check:
            for stored, replayed in zip(record.get("rounds", ()), game.rounds):
                if stored != replayed:
                    raise PiecepackError(f"round {replayed['round']} of the record does not match the replay: "
                                         f"stored {stored}, replayed {replayed}")
            if len(record.get("rounds", ())) > len(game.rounds):
                raise PiecepackError(f"the record stores {len(record['rounds'])} rounds, its actions play "
                                     f"{len(game.rounds)}")
            if "final" in record and record["final"] != game.final():
                raise PiecepackError(f"the record's final {record['final']} does not match the replay's "
                                     f"{game.final()}")
        return game

    def to_record(self) -> dict:
        """The record of §9: setup, every random outcome, the actions so far, the completed rounds,
        and ``final`` once the game is over. :meth:`from_record` replays it exactly."""
        record = {
            "players": self.num_players,
            "tiles": [code_of(*piece) for piece in self._tiles],
            "coins": [code_of(*piece) for piece in self._coins],
            "start": self.first_start,
            "dice": [list(roll) for roll in self._dice_used + self._dice_queue],
            "market_rolls": [list(roll) for roll in self._market_used + self._market_queue],
            "actions": list(self.history),
            "rounds": _copy.deepcopy(self.rounds),
        }
        if self.is_over:
            record["final"] = self.final()
        return record

    @classmethod
    def sample(cls, known: dict, rng: np.random.Generator) -> Game:
        """A game that agrees with everything ``known`` (``known_to(seat)`` of some game) says: the pieces it
        does not identify dealt at random from those it has not seen (each coin within its row's suit), the
        dice of the rounds to come and any Market roll drawn from ``rng``. What a search over the pieces a seat
        has not seen plays on: ``sample(known, rng).known_to(seat) == known``. The game keeps no history."""
        n = known["players"]
        identified = {**known["face_up"], **known["identities"]}
        seen_tiles = {code for piece, code in identified.items() if piece < NUM_PLOTS}
        unseen_tiles = [code for code in BOX if code not in seen_tiles]
        tiles = [identified.get(p) for p in range(NUM_PLOTS)]
        hidden = [p for p in range(NUM_PLOTS) if tiles[p] is None]
        for p, code in zip(hidden, rng.permutation(unseen_tiles).tolist()):
            tiles[p] = code
        coins = [identified.get(NUM_PLOTS + p) for p in range(NUM_PLOTS)]
        for row in range(ROWS):
            plots = range(COLUMNS * row, COLUMNS * (row + 1))
            seen = {coins[p] for p in plots if coins[p] is not None}
            left = [code for code in (code_of(ROW_SUIT[row], rank) for rank in RANKS) if code not in seen]
            for p, code in zip([p for p in plots if coins[p] is None], rng.permutation(left).tolist()):
                coins[p] = code
        game = cls(n, tiles, coins, known["start"], rng=rng)
        game.round, game.start, game.phase = known["round"], known["start"], Phase(known["phase"])
        game.current_player = known["current_player"]
        # The position in the seat order is the turn's owner's: an offer's target answers in the offerer's turn.
        owner = known["pending_offer"][0] if game.phase is Phase.OFFER_RESPONSE else game.current_player
        game._pos = 0 if owner is None else (owner - game.start) % n
        game.face_up = [p in known["face_up"] for p in range(NUM_PIECES)]
        game.assayed = [sum(1 << s for s in seats) for seats in known["assayed_by"]]
        game.owner, game.building, game.level = list(known["owners"]), list(known["buildings"]), list(known["levels"])
        game.holdings = [list(h) for h in known["holdings"]]
        game.markers, game.market_used = list(known["markers"]), list(known["market_used"])
        game.offers_made = list(known["offers_made"])
        game.dice = None if known["dice"] is None else tuple(known["dice"])
        game.powered = set(known["powered"])
        game.warehouse = [list(w) for w in known["warehouse"]]
        game.market_sum = known["market_sum"]
        game.pending_offer = None if known["pending_offer"] is None else tuple(known["pending_offer"])
        game.offer_log = [tuple(entry) for entry in known["offer_log"]]
        game.produced = [tuple(entry) for entry in known["produced"]]
        game._dice_queue, game._dice_used, game._market_queue, game._market_used = [], [], [], []
        game.history, game.events, game.rounds = [], [], []
        return game

    def exchange(self, a: int, b: int) -> None:
        """Swap two face-down pieces that could lie in each other's place: two tiles, or two coins of one row (their
        backs show the same suit). Nothing public changes, since a face-down piece is worth the same whatever it is
        (§2.3); a seat that assayed one of them knows the other in its place, so a caller swaps pieces no seat it
        cares about has assayed. What lets a game decide a piece only when it is first seen
        (:mod:`goldrush_env.piecepack.chance`). Any other pair raises :class:`PiecepackError`."""
        for piece in (a, b):
            check_int("piece", piece, 0, NUM_PIECES - 1, error=PiecepackError)
            if self.face_up[piece]:
                raise PiecepackError(f"{piece_name(piece)} is face up: only face-down pieces can be exchanged")
        if (a < NUM_PLOTS) != (b < NUM_PLOTS) or a >= NUM_PLOTS and a // COLUMNS != b // COLUMNS:
            raise PiecepackError(f"{piece_name(a)} and {piece_name(b)} cannot change places: two tiles, or two coins "
                                 "of one row, can")
        pieces = self._tiles if a < NUM_PLOTS else self._coins
        i, j = a % NUM_PLOTS, b % NUM_PLOTS
        pieces[i], pieces[j] = pieces[j], pieces[i]

    def queue_rolls(self, dice: Sequence[Sequence[int]] = (), market_rolls: Sequence[Sequence[int]] = ()) -> None:
        """Add production rolls ``[moon, sun, arms, crown]`` (faces 0-5) and Market rolls ``[a, b]`` (1-6) after
        those this game has yet to use, checked as the constructor checks its own: for a game whose dice are decided
        only when they are needed (:mod:`goldrush_env.piecepack.chance`)."""
        rolls, markets = checked_rolls(dice, market_rolls, len(self._dice_used), len(self._dice_queue))
        self._dice_queue.extend(rolls)
        self._market_queue.extend(markets)

    def copy(self) -> Game:
        """An independent copy (its rng too, so both go on to draw the same dice)."""
        new = object.__new__(Game)
        for key, value in self.__dict__.items():
            if key in ("history", "events", "rounds", "offer_log"):
                value = list(value)  # the items are never changed in place
            elif isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            elif isinstance(value, set):
                value = set(value)
            elif key == "_rng" and value is not None:
                bits = type(value.bit_generator)(0)  # a generator in the same state (faster than a deep copy)
                bits.state = value.bit_generator.state
                value = np.random.Generator(bits)
            new.__dict__[key] = value
        return new

    # ---- what can be seen

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def turn(self) -> int:
        """How many decisions have been taken (the protocol's count of turns: here each action is one)."""
        return len(self.history)

    @property
    def is_truncated(self) -> bool:
        """Never: the nine rounds always end the game (the protocol asks, :mod:`goldrush_env.protocol`)."""
        return False

    @property
    def is_finished(self) -> bool:
        """:attr:`is_over` under the protocol's name."""
        return self.is_over

    @property
    def claims_this_round(self) -> bool:
        """Whether this round has a Stake Claim phase (P29)."""
        return self.round <= CLAIM_ROUNDS[self.num_players]

    def seat_order(self) -> list[int]:
        """This round's seats from the start player: s, s+1, ... (mod n)."""
        return [(self.start + i) % self.num_players for i in range(self.num_players)]

    def tile(self, plot: int) -> str:
        """The code of a plot's tile, face up or not (the engine knows; players see :meth:`known_to`)."""
        return code_of(*self._tiles[plot])

    def coin(self, plot: int) -> str:
        return code_of(*self._coins[plot])

    def piece(self, piece: int) -> tuple[int, int]:
        """``(suit, rank)`` of piece id ``piece`` (tile p = p, coin p = 24 + p)."""
        return self._tiles[piece] if piece < NUM_PLOTS else self._coins[piece - NUM_PLOTS]

    def value(self, piece: int, suit: int) -> int:
        """val(x, S) of §2.3 for a piece on the board now."""
        s, rank = self.piece(piece)
        return piece_value(s, rank, self.face_up[piece], piece < NUM_PLOTS, suit)

    def owns(self, seat: int, building: int) -> bool:
        """Whether ``seat`` has a ``building`` standing on one of its plots."""
        return (seat, building) in zip(self.owner, self.building)

    def scores(self) -> list[int]:
        """Ore + 3 Gold + 8 per Trade Route, Market and Warehouse standing (§5), for every seat now."""
        points = [h[ORE] + 3 * h[GOLD] for h in self.holdings]
        for o, b in zip(self.owner, self.building):
            if b in SCORING:
                points[o] += 8
        return points

    def winners(self) -> list[int]:
        """The seats that win (or would win now): top score, then most Food; ties share (P39)."""
        return winners_of(self.scores(), [h[FOOD] for h in self.holdings])

    def result(self) -> Result:
        """:meth:`scores`, :meth:`winners` and each seat's Food, which breaks a tie of scores (P39), as the protocol
        gives them (:class:`goldrush_env.protocol.Result`)."""
        return Result(tuple(self.scores()), tuple(self.winners()), tuple(h[FOOD] for h in self.holdings))

    def final(self) -> dict:
        """``scores``, ``winners`` and ``holdings``, as in a record's ``final``."""
        return {"scores": self.scores(), "winners": self.winners(), "holdings": [list(h) for h in self.holdings]}

    def public_state(self) -> dict:
        """Everything every player sees (§7), seats absolute. Hidden identities are never in it. ``produced`` lists
        ``(plot, resource, units)`` for each production building that stood at this round's production (A5), 0 units
        included: the dice, the buildings and the face-up pieces decide it, all public (P41)."""
        n = self.num_players
        return {
            "players": n, "round": self.round, "phase": self.phase.value, "start": self.start,
            "current_player": self.current_player, "claims_this_round": self.claims_this_round,
            "owners": list(self.owner), "buildings": list(self.building), "levels": list(self.level),
            "coin_suits": [suit for suit, _ in self._coins],
            "face_up": {p: code_of(*self.piece(p)) for p in range(NUM_PIECES) if self.face_up[p]},
            "assayed_by": [list(_SEATS_IN[bits]) for bits in self.assayed],
            "holdings": [list(h) for h in self.holdings], "markers": list(self.markers),
            "market_used": list(self.market_used), "offers_made": list(self.offers_made),
            "dice": self.dice, "powered": sorted(self.powered), "warehouse": [list(w) for w in self.warehouse],
            "market_sum": self.market_sum, "pending_offer": self.pending_offer,
            "offer_log": list(self.offer_log), "produced": list(self.produced),
        }

    def known_to(self, seat: int) -> dict:
        """What ``seat`` knows: :meth:`public_state` plus ``identities``, the code of every face-down piece
        this seat has assayed (§7). Nothing is inferred for it (P33)."""
        check_int("seat", seat, 0, self.num_players - 1, error=PiecepackError)
        known = self.public_state()
        known["seat"] = int(seat)
        known["identities"] = {p: code_of(*self.piece(p)) for p in range(NUM_PIECES)
                               if not self.face_up[p] and self.assayed[p] >> seat & 1}
        return known

    def identified_by(self, seat: int) -> list[tuple[int, int, int]]:
        """``(piece, suit, rank)`` of every piece ``seat`` can name: face up, or face down and assayed by this seat
        (the pieces of ``known_to(seat)``'s ``face_up`` and ``identities``), in piece order."""
        face_up, assayed, bit = self.face_up, self.assayed, 1 << seat
        return [(piece, *self.piece(piece)) for piece in range(NUM_PIECES)
                if face_up[piece] or assayed[piece] & bit]

    # ---- legality

    def legal_mask(self) -> np.ndarray:
        """A bool array of 488: which actions :attr:`current_player` may take now (all false once over)."""
        mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
        phase = self.phase
        if phase is Phase.DEVELOPMENT_TURN:
            mask[self._development_actions()] = True
        elif phase is Phase.FREE_TRADE_TURN:
            mask[self._trade_actions()] = True
        elif phase is Phase.CLAIM:
            mask[[plot for plot, owner in enumerate(self.owner) if owner < 0]] = True
        else:
            for action in _PHASE_ACTIONS[phase]:
                if self._illegal(action) is None:
                    mask[action] = True
        return mask

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    # The big decision points list their legal actions directly, for speed; :meth:`_illegal` states the same
    # rules one action at a time with reasons, and a test checks that the two agree.

    def _development_actions(self) -> list[int]:
        seat = self.current_player
        have = self.holdings[seat]
        owner, face_up = self.owner, self.face_up
        legal = [A.END_DEVELOPMENT]
        if _affords(have, ASSAY_COST):  # a face-down piece of an unowned or own plot, not assayed by this seat yet
            bit, assayed = 1 << seat, self.assayed
            legal += [A.ASSAY_TILE + piece for piece in range(NUM_PLOTS)
                      if owner[piece] in (-1, seat) and not face_up[piece] and not assayed[piece] & bit]
            legal += [A.ASSAY_COIN + plot for plot in range(NUM_PLOTS)
                      if owner[plot] in (-1, seat) and not face_up[NUM_PLOTS + plot]
                      and not assayed[NUM_PLOTS + plot] & bit]
        own = [plot for plot in range(NUM_PLOTS) if owner[plot] == seat]
        if _affords(have, OPTIMIZE_COST):
            legal += [A.OPTIMIZE_TILE + plot for plot in own if not face_up[plot]]
            legal += [A.OPTIMIZE_COIN + plot for plot in own if not face_up[NUM_PLOTS + plot]]
        building = self.building
        for kind, cost in enumerate(BUILD_COST):
            if _affords(have, cost):
                base = A.BUILD + NUM_PLOTS * kind
                legal += [base + plot for plot in own if building[plot] != kind]
        if _affords(have, UPGRADE_COST):
            level = self.level
            legal += [A.UPGRADE + plot for plot in own if building[plot] in PRODUCTION and level[plot] < MAX_LEVEL]
        return legal

    def _trade_actions(self) -> list[int]:
        seat, n = self.current_player, self.num_players
        have = self.holdings[seat]
        legal = [A.END_FREE_TRADE]
        if self.owns(seat, MARKET) and not self.market_used[seat] and _affords(have, MARKET_COST):
            legal.append(A.MARKET_ROLL)
        if self.owns(seat, TRADE_ROUTE):
            for give in range(4):
                if have[give] >= TRADE_ROUTE_RATE:
                    legal += range(A.TRADE_ROUTE + 3 * give, A.TRADE_ROUTE + 3 * give + 3)
        if self.offers_made[seat] < MAX_OFFERS:
            mine = (min(have[0], 2), min(have[1], 2), min(have[2], 2), min(have[3], 2))  # an offer moves 1 or 2
            for d in range(1, n):
                theirs = self.holdings[(seat + d) % n]
                legal += _offers(d, mine, (min(theirs[0], 2), min(theirs[1], 2), min(theirs[2], 2), min(theirs[3], 2)))
        return legal

    def why_illegal(self, action: int) -> str | None:
        """``None`` if ``action`` is legal now, else the reason in words."""
        if not is_int(action, 0, A.NUM_ACTIONS - 1):
            return f"an action is an int from 0 to {A.NUM_ACTIONS - 1}"
        if self.is_over:
            return "the game is over"
        if action not in _PHASE_ACTIONS[self.phase]:
            return f"it is not an action of the {self.phase.value} decision point"
        return self._illegal(int(action))

    def _illegal(self, action: int) -> str | None:
        seat, phase, have = self.current_player, self.phase, self.holdings[self.current_player or 0]
        if phase is Phase.CLAIM:
            return None if self.owner[action] < 0 else f"plot {action} is owned by seat {self.owner[action]}"
        if phase is Phase.DEVELOPMENT_TURN:
            if action == A.END_DEVELOPMENT:
                return None
            return self._illegal_development(seat, have, action)
        if phase is Phase.FREE_TRADE_TURN:
            return self._illegal_trade(seat, have, action)
        if phase is Phase.OFFER_RESPONSE:
            if action == A.ACCEPT:
                offerer, _, give, a, take, b = self.pending_offer
                if self.holdings[offerer][give] < a or have[take] < b:
                    return "the holdings no longer cover the offer"  # cannot happen: P44 was checked at the offer
            return None
        if phase is Phase.MARKET_SELL:
            k = action - A.MARKET_SELL
            if k > min(self.market_sum, have[FOOD]):
                return f"k = {k} is above min(N = {self.market_sum}, Food = {have[FOOD]})"
            return None
        return None  # the Warehouse questions: protecting was paid for when asked (§3.1 A3)

    def _illegal_development(self, seat: int, have: list[int], action: int) -> str | None:
        kind, args = A.decode(action)
        plot = args[-1]
        if kind.startswith("ASSAY"):
            piece = plot if kind == "ASSAY_TILE" else NUM_PLOTS + plot
            if self.face_up[piece]:
                return f"{piece_name(piece)} is face up"
            if self.owner[plot] not in (-1, seat):
                return f"plot {plot} is owned by seat {self.owner[plot]} (P31)"
            if self.assayed[piece] >> seat & 1:
                return f"seat {seat} has assayed {piece_name(piece)} before (P33)"
            return _short(have, ASSAY_COST)
        if self.owner[plot] != seat:
            return f"seat {seat} does not own plot {plot}"
        if kind.startswith("OPTIMIZE"):
            piece = plot if kind == "OPTIMIZE_TILE" else NUM_PLOTS + plot
            if self.face_up[piece]:
                return f"{piece_name(piece)} is face up"
            return _short(have, OPTIMIZE_COST)
        if kind == "BUILD":
            building = args[0]
            if self.building[plot] == building:
                return f"plot {plot} already holds a {BUILDINGS[building]} (P36)"
            return _short(have, BUILD_COST[building])
        # UPGRADE
        if self.building[plot] not in PRODUCTION:
            return f"plot {plot} holds no production building"
        if self.level[plot] >= MAX_LEVEL:
            return f"the building on plot {plot} is at level {MAX_LEVEL}, the highest (P15)"
        return _short(have, UPGRADE_COST)

    def _illegal_trade(self, seat: int, have: list[int], action: int) -> str | None:
        if action == A.END_FREE_TRADE:
            return None
        if action == A.MARKET_ROLL:
            if not self.owns(seat, MARKET):
                return f"seat {seat} owns no Market"
            if self.market_used[seat]:
                return f"seat {seat} has used a Market this round (P25)"
            return _short(have, MARKET_COST)
        kind, args = A.decode(action)
        if kind == "TRADE_ROUTE":
            give, _ = args
            if not self.owns(seat, TRADE_ROUTE):
                return f"seat {seat} owns no Trade Route"
            if have[give] < TRADE_ROUTE_RATE:
                return f"seat {seat} holds {have[give]} {RESOURCES[give]}, under {TRADE_ROUTE_RATE}"
            return None
        if kind == "OFFER":
            d, give, a, take, b = args
            if d >= self.num_players:
                return f"there is no seat +{d} with {self.num_players} players"
            if self.offers_made[seat] >= MAX_OFFERS:
                return f"seat {seat} has made {MAX_OFFERS} offers this phase (P22)"
            if have[give] < a:
                return f"seat {seat} holds {have[give]} {RESOURCES[give]}, under {a}"
            target = (seat + d) % self.num_players
            if self.holdings[target][take] < b:
                return f"seat {target} holds {self.holdings[target][take]} {RESOURCES[take]}, under {b} (P44)"
            return None
        return f"{kind} is not a Free Trade action"

    # ---- acting

    def step(self, action: int) -> list[Event]:
        """Take ``action`` for :attr:`current_player` and run the game on to the next decision point.
        Returns the events it caused. An illegal action raises :class:`IllegalActionError` (naming it and
        why) and changes nothing."""
        self.refuse(action)
        return self.step_legal(int(action))

    def refuse(self, action: Any) -> None:
        """Raise :class:`IllegalActionError`, naming ``action`` and why, if it is not legal now."""
        reason = self.why_illegal(action)
        if reason is not None:
            named = A.describe(int(action)) if is_int(action, 0, A.NUM_ACTIONS - 1) else repr(action)
            raise IllegalActionError(f"action {action!r} ({named}) is not legal for seat {self.current_player} "
                                     f"at {self.phase.value} in round {self.round}: {reason}")

    def step_legal(self, action: int) -> list[Event]:
        """:meth:`step` for a caller that knows ``action`` (an int) to be legal now, from this very state's
        :meth:`legal_mask` (as the environments do) or by the rules (a rollout's passes): the same, without asking
        again why it might be illegal. An illegal action here leaves the game in a state the rules never reach."""
        if action == A.MARKET_ROLL and not self._market_queue and self._rng is None:
            raise PiecepackError("MARKET_ROLL needs a Market roll, and this game has no roll left "
                                 "(no rng was given to draw one)")
        events: list[Event] = []
        self._apply(action, events)
        self.history.append(action)
        self.events.extend(events)
        return events

    def _apply(self, action: int, events: list[Event]) -> None:
        seat, have = self.current_player, self.holdings[self.current_player]
        phase = self.phase
        if phase in (Phase.WAREHOUSE_FOOD, Phase.WAREHOUSE_ENERGY):
            resource = FOOD if phase is Phase.WAREHOUSE_FOOD else ENERGY
            protect = action == A.WAREHOUSE_PROTECT
            if protect:
                have[ENERGY] -= 1
            self.warehouse[seat][resource] = protect
            events.append(Event("warehouse", seat, {"resource": RESOURCES[resource], "protect": protect}))
            if resource == FOOD:
                self._ask_warehouse(self._pos, ENERGY, events)
            else:
                self._ask_warehouse(self._pos + 1, FOOD, events)
        elif phase is Phase.CLAIM:
            self.owner[action] = seat
            self.markers[seat] -= 1
            events.append(Event("claim", seat, {"plot": action}))
            self._ask_claim(self._pos + 1, events)
        elif phase is Phase.DEVELOPMENT_TURN:
            if action == A.END_DEVELOPMENT:
                events.append(Event("end_development", seat))
                self._ask_development(self._pos + 1, events)
            else:
                self._develop(seat, have, action, events)
        elif phase is Phase.OFFER_RESPONSE:
            offerer, target, give, a, take, b = self.pending_offer
            accepted = action == A.ACCEPT
            if accepted:
                self.holdings[offerer][give] -= a
                self.holdings[target][give] += a
                self.holdings[target][take] -= b
                self.holdings[offerer][take] += b
            self.offer_log.append((offerer, target, give, a, take, b, accepted))
            self.pending_offer = None
            events.append(Event("accept" if accepted else "decline", seat, {"offerer": offerer}))
            self.phase, self.current_player = Phase.FREE_TRADE_TURN, offerer
        elif phase is Phase.MARKET_SELL:
            k = action - A.MARKET_SELL
            have[FOOD] -= k
            have[GOLD] += k
            events.append(Event("market_sell", seat, {"units": k}))
            self.phase = Phase.FREE_TRADE_TURN
        elif action == A.END_FREE_TRADE:
            events.append(Event("end_free_trade", seat))
            self._ask_free_trade(self._pos + 1, events)
        elif action == A.MARKET_ROLL:
            _pay(have, MARKET_COST)
            roll = self._market_queue.pop(0) if self._market_queue else roll_market(self._rng)
            self._market_used.append(roll)
            self.market_used[seat] = True
            self.market_sum = sum(roll)
            events.append(Event("market_roll", seat, {"dice": roll, "sum": self.market_sum}))
            self.phase = Phase.MARKET_SELL
        else:
            kind, args = A.decode(action)
            if kind == "TRADE_ROUTE":
                give, take = args
                have[give] -= TRADE_ROUTE_RATE
                have[take] += 1
                events.append(Event("trade_route", seat, {"give": RESOURCES[give], "take": RESOURCES[take]}))
            else:  # OFFER
                d, give, a, take, b = args
                target = (seat + d) % self.num_players
                self.offers_made[seat] += 1
                self.pending_offer = (seat, target, give, a, take, b)
                events.append(Event("offer", seat, {"target": target, "give": RESOURCES[give], "give_units": a,
                                                    "take": RESOURCES[take], "take_units": b}))
                self.phase, self.current_player = Phase.OFFER_RESPONSE, target

    def _develop(self, seat: int, have: list[int], action: int, events: list[Event]) -> None:
        kind, args = A.decode(action)
        plot = args[-1]
        if kind.startswith("ASSAY"):
            piece = plot if kind == "ASSAY_TILE" else NUM_PLOTS + plot
            _pay(have, ASSAY_COST)
            self.assayed[piece] |= 1 << seat
            events.append(Event("assay", seat, {"piece": piece}))
        elif kind.startswith("OPTIMIZE"):
            piece = plot if kind == "OPTIMIZE_TILE" else NUM_PLOTS + plot
            _pay(have, OPTIMIZE_COST)
            self.face_up[piece] = True
            events.append(Event("optimize", seat, {"piece": piece, "code": code_of(*self.piece(piece))}))
        elif kind == "BUILD":
            building = args[0]
            _pay(have, BUILD_COST[building])
            replaced = self.building[plot]
            self.building[plot], self.level[plot] = building, 0
            events.append(Event("build", seat, {"plot": plot, "building": BUILDINGS[building],
                                                "replaced": BUILDINGS[replaced] if replaced >= 0 else None}))
        else:  # UPGRADE
            _pay(have, UPGRADE_COST)
            self.level[plot] += 1
            events.append(Event("upgrade", seat, {"plot": plot, "level": self.level[plot]}))

    # ---- the flow of a round (§3, §4's pseudo-code)

    def _new_round_info(self) -> None:
        self.dice: tuple[int, ...] | None = None
        self.powered: set[int] = set()
        self.warehouse = [[None, None] for _ in range(self.num_players)]  # Food, Energy: True protect
        self.market_sum: int | None = None
        self.pending_offer: tuple[int, ...] | None = None  # offerer, target, X, a, Y, b
        self.offer_log: list[tuple] = []  # offerer, target, X, a, Y, b, accepted
        self.produced: list[tuple[int, int, int]] = []  # plot, resource, units of each producer standing at A5

    def _begin_round(self, events: list[Event]) -> None:
        events.append(Event("round", None, {"round": self.round, "start": self.start}))
        # A1: Gold Mines before Mines, each in plot order, while the owner has Energy (P16).
        mines = [plot for plot, building in enumerate(self.building) if building == MINE or building == GOLD_MINE]
        for seat in self.seat_order() if mines else ():
            for kind in (GOLD_MINE, MINE):
                for plot in mines:
                    if self.owner[plot] == seat and self.building[plot] == kind:
                        powered = self.holdings[seat][ENERGY] >= 1
                        if powered:
                            self.holdings[seat][ENERGY] -= 1
                            self.powered.add(plot)
                        events.append(Event("power", seat, {"plot": plot, "powered": powered}))
        # A2
        roll = self._dice_queue.pop(0) if self._dice_queue else roll_dice(self._rng)
        self._dice_used.append(roll)
        self.dice = roll
        events.append(Event("roll", None, {"dice": roll}))
        self._ask_warehouse(0, FOOD, events)

    def _ask_warehouse(self, pos: int, resource: int, events: list[Event]) -> None:
        """A3: the next Warehouse question from seat-order position ``pos``, or spoilage and production."""
        food_spoils, energy_spoils = self.dice[FOOD] == 0, self.dice[ENERGY] == 0
        while pos < self.num_players:
            seat = (self.start + pos) % self.num_players
            if (food_spoils or energy_spoils) and self.owns(seat, WAREHOUSE):
                energy = self.holdings[seat][ENERGY]
                if resource == FOOD and food_spoils and energy >= 1:
                    self._ask(Phase.WAREHOUSE_FOOD, pos)
                    return
                if energy_spoils and energy >= 1:
                    self._ask(Phase.WAREHOUSE_ENERGY, pos)
                    return
            pos, resource = pos + 1, FOOD
        self._spoil_and_produce(events)
        self._ask_free_trade(0, events)

    def _spoil_and_produce(self, events: list[Event]) -> None:
        for seat in self.seat_order():  # A4 (P18)
            for resource in (FOOD, ENERGY):
                before = self.holdings[seat][resource]
                if self.dice[resource] == 0 and not self.warehouse[seat][resource] and before > 1:
                    self.holdings[seat][resource] = 1
                    events.append(Event("spoil", seat, {"resource": RESOURCES[resource], "before": before,
                                                        "after": 1}))
        for plot in range(NUM_PLOTS):  # A5, all at once: nothing produced feeds back into this loop
            building = self.building[plot]
            if building not in PRODUCTION:
                continue
            roll = self.dice[building]
            if building in (FOOD, ENERGY) and roll == 0 or building in (MINE, GOLD_MINE) and plot not in self.powered:
                units = 0
            else:
                level = self.level[plot]
                units = sum(1 for piece in (plot, NUM_PLOTS + plot)
                            if 0 < self.value(piece, building) and roll <= self.value(piece, building) + level)
            self.produced.append((plot, building, units))
            if units:
                self.holdings[self.owner[plot]][building] += units
                events.append(Event("produce", self.owner[plot], {"plot": plot, "resource": RESOURCES[building],
                                                                  "units": units}))

    def _ask(self, phase: Phase, pos: int) -> None:
        self.phase, self._pos = phase, pos
        self.current_player = (self.start + pos) % self.num_players

    def _ask_free_trade(self, pos: int, events: list[Event]) -> None:
        if pos < self.num_players:
            self._ask(Phase.FREE_TRADE_TURN, pos)
        elif self.claims_this_round:
            self._ask_claim(0, events)
        else:
            self._ask_development(0, events)

    def _ask_claim(self, pos: int, events: list[Event]) -> None:
        while pos < self.num_players:
            seat = (self.start + pos) % self.num_players
            if self.markers[seat] > 0 and -1 in self.owner:
                self._ask(Phase.CLAIM, pos)
                return
            events.append(Event("claim_skipped", seat))  # P28: cannot happen under P29
            pos += 1
        self._ask_development(0, events)

    def _ask_development(self, pos: int, events: list[Event]) -> None:
        if pos < self.num_players:
            self._ask(Phase.DEVELOPMENT_TURN, pos)
            return
        self.rounds.append(self._snapshot())
        if self.round == NUM_ROUNDS:
            self.phase, self.current_player = Phase.GAME_OVER, None
            events.append(Event("game_over", None, {"scores": self.scores(), "winners": self.winners()}))
            return
        self.start = (self.start - 1) % self.num_players  # the dice pass to the right (P4)
        self.round += 1
        self.market_used = [False] * self.num_players
        self.offers_made = [0] * self.num_players
        self._new_round_info()
        self._begin_round(events)

    def _snapshot(self) -> dict:
        """The state after a round's Development, as a record's ``rounds`` entry holds it (§9)."""
        return {
            "round": self.round,
            "holdings": [list(h) for h in self.holdings],
            "buildings": [[p, self.owner[p], self.building[p], self.level[p]]
                          for p in range(NUM_PLOTS) if self.building[p] >= 0],
            "face_up": [p for p in range(NUM_PIECES) if self.face_up[p]],
            "owners": list(self.owner),
        }


@functools.cache
def _offers(d: int, mine: tuple[int, ...], theirs: tuple[int, ...]) -> tuple[int, ...]:
    """The OFFER actions to seat +``d`` that holdings allow (P44), from each side's units of each resource
    counted up to 2 (an offer gives and asks 1 or 2): few enough combinations to remember."""
    return tuple(A.OFFER + 48 * (d - 1) + 12 * give + 4 * (take if take < give else take - 1) + 2 * a + b
                 for give in range(4) for take in range(4) if take != give
                 for a in range(mine[give]) for b in range(theirs[take]))


def _affords(have: list[int], cost: tuple[int, int, int, int]) -> bool:
    return have[0] >= cost[0] and have[1] >= cost[1] and have[2] >= cost[2] and have[3] >= cost[3]


def _short(have: list[int], cost: Iterable[int]) -> str | None:
    """``None`` if ``have`` pays ``cost``, else what is missing."""
    lacking = [f"{need} {RESOURCES[r]} (holds {have[r]})" for r, need in enumerate(cost) if have[r] < need]
    return "cannot pay " + ", ".join(lacking) if lacking else None


def _pay(have: list[int], cost: Iterable[int]) -> None:
    for resource, units in enumerate(cost):
        have[resource] -= units
