"""One game of Gold on the compiled kernel (:mod:`goldrush_env.gold.kernel`), a batch of one, for the interfaces that
play one game at a time: the AEC environment, the Gymnasium environment and OpenSpiel's states.

A :class:`SingleGame` holds the kernel's records of its game and steps them with :func:`~goldrush_env.gold.kernel.
advance_one`, the entry point every interface shares. It keeps the table as laid and the flips since, so that the
readable engine's :class:`~goldrush_env.gold.engine.Game`, the home of records and events, is made when read
(:attr:`SingleGame.game`): replayed from them, and brought up to date flip by flip on later reads.
"""

from __future__ import annotations

import importlib
from types import SimpleNamespace
from typing import Any

import numpy as np

from goldrush_env.gold import kernel
from goldrush_env.gold.cards import EMPTY, NUM_CARD_TYPES, NUM_POSITIONS, TABLES
from goldrush_env.gold.engine import Game, colour_owners
from goldrush_env.gold.variants import ObservationType, action_type, observation_type
from goldrush_env.gold.view import UNKNOWN, CardKnowledge
from goldrush_env.live import LiveGame
from goldrush_env.policy import SeatView

__all__ = ["SingleGame"]


class SingleGame:
    """One game of Gold on the kernel, for the options of ``config``
    (:class:`~goldrush_env.gold.config.EnvConfig`). ``players`` and ``engine``: the seats the kernel plays itself,
    and with what (by default none: every seat is played from outside, :meth:`play`)."""

    def __init__(self, config: Any, players: np.ndarray | None = None, engine: Any = kernel.ENGINE) -> None:
        self.config = config
        self.num_players = config.num_players
        self.owners = colour_owners(config.num_players)
        self.rush_at = TABLES[config.table].rush_at
        self.observation_type = observation_type(config.observation)
        self.action_type = action_type(config.action)
        self.constants = kernel.constants(config)
        self.limit = int(self.constants[0]["limit"])
        self.code = int(self.constants[0]["observation"])
        """The kernel's code of the observation it writes: the game's, or the plain one to read another off."""
        self._derive = self.observation_type.name not in kernel.OBSERVATIONS
        self.players = kernel.players() if players is None else players
        self.engine = engine
        self.games = kernel.new_games(1)
        """The kernel's batch of one: ``record`` is its :data:`~goldrush_env.gold.kernel.GAME` record."""
        self.turns = kernel.new_turns(1)
        """``turn`` is its :data:`~goldrush_env.gold.kernel.TURN` record: what the last :meth:`play` did."""
        self._views()
        self._standing()
        self.observations = np.zeros((1, kernel.SIZES[self.code]), dtype=np.float32)
        self.masks = np.zeros((1, self.action_type.size), dtype=bool)
        self.layout: tuple[int, ...] = ()
        self.first_player = 0
        self.log: list[int] = []
        """Every flip of the game so far, in order (since :meth:`restart_here`, if called)."""
        self.origin: Game | None = None
        """Where :attr:`log` starts, if not at the table as laid (:meth:`restart_here`)."""
        self._live = LiveGame(self)

    # --- playing --------------------------------------------------------------------------------------------------

    def lay(self, table: Any, first_player: int, stream: int) -> None:
        """Lay ``table`` (64 card ids, checked by the caller) with ``first_player`` to play and the game's random
        ``stream`` (its kinds' draws, its opponents' tie-breaks, its seats' forgetting)."""
        self._renew()
        self.layout, self.first_player = tuple(int(card) for card in table), int(first_player)
        kernel.lay_one(self.games, self.constants, np.array(self.layout, dtype=np.int8), first_player)
        self.record["rng"][0] = stream
        self._standing()

    def _renew(self, origin: Game | None = None) -> None:
        """A new log (from ``origin``, or from the table as laid), and a new :class:`LiveGame` over it."""
        live = self._live
        shell = object.__new__(SingleGame)  # the game as it stands, for a caller still holding its readable game
        shell.__dict__.update(self.__dict__)
        live.follow(shell, live.seen)
        self.log, self.origin = [], origin
        self._live = LiveGame(self)

    def exchange(self, a: int, b: int) -> None:
        """Swap the face-down cards at positions ``a`` and ``b``, neither revealed yet, as if dealt so (OpenSpiel's
        chance; :meth:`Game.exchange <goldrush_env.gold.engine.Game.exchange>` checks them where the readable game
        has been made)."""
        if self._live.made:
            self._live.current().exchange(a, b)  # refuses a position revealed, face up or empty, changing nothing
        record = self.record
        for cards in (record["table"], record["initial"]):
            cards[a], cards[b] = cards[b], cards[a]
        self.layout = tuple(record["initial"].tolist())

    def restart_here(self) -> None:
        """Make the game as it stands the start of :attr:`game`, whose history is then lost: for a table changed by
        hand (OpenSpiel's resampling)."""
        record, n = self.record, self.num_players
        self._renew(Game.from_position(
            n, record["table"].tolist(), current_player=self.current_player, scores=self.scores,
            gold_cards=self.gold_cards, turn=int(record["turn"]), face_up=self.face_up,
            gold_rush=bool(record["gold_rush"]), max_turns=self.config.max_turns, rush_at=self.rush_at))

    def play(self, action: int, seat: int) -> int:
        """Flip for the seat to play: ``action`` is a position, or a kind of card where ``seat`` is the seat to play
        and the actions are kinds (-1: no flip); then the kernel plays its seats up to a seat played from outside.
        ``seat`` is the learner whose reward and observation the kernel writes (-1: none). Returns the position
        flipped (-1 for none), or -2 if the rules refuse the action: then nothing has changed."""
        columns = self._columns
        columns.action[0], columns.seat[0] = action, seat
        if self.engine.advance_one(self.games, self.constants, self.players, self.turns, self.observations,
                                   self.masks, self.observations) >= 0:
            return -2
        count = int(columns.flip_count[0])
        if count == 1:
            self.log.append(int(columns.flips[0, 0]))
        elif count:
            self.log.extend(columns.flips[0, :count].tolist())
        self._standing()
        return int(columns.position[0]) if action >= 0 else -1

    def flippable(self) -> list[int]:
        """The positions the seat to play may flip now (none once the game has ended), as a new list."""
        if self._flippable is None:
            record = self.record
            legal = (record["table"] >= 0) & (not self.is_finished)
            if record["face_up"] >= 0:
                legal[record["face_up"]] = False
            self._flippable = np.flatnonzero(legal).tolist()
        return list(self._flippable)

    def _standing(self) -> None:
        """Read who is to play and whether the game has ended off the record, once a change (record fields are
        slow to read, and these are read many times a step)."""
        columns = self._columns
        self._flippable = None
        cards_left = columns.cards_left[0]
        self.current_player = int(columns.current_player[0])
        """The seat to play (the last to play once the game has ended)."""
        self.is_over = bool(cards_left == 0)
        """Whether the game has ended with no card left (not cut short)."""
        self.is_finished = self.is_over or bool(columns.turn_number[0] >= self.limit)
        """Whether the game has ended: no card left, or the turn limit reached (D4)."""

    def _views(self) -> None:
        """The record views and the columns :meth:`play` reads and writes (faster than a record's fields)."""
        games, turns = self.games, self.turns
        self.record, self.turn = games[0], turns[0]
        self._columns = SimpleNamespace(
            action=turns["action"], seat=turns["seat"], position=turns["position"], flip_count=turns["flip_count"],
            flips=turns["flips"], cards_left=games["cards_left"], current_player=games["current_player"],
            turn_number=games["turn"])

    # --- reading ---------------------------------------------------------------------------------------------------

    @property
    def face_up(self) -> int | None:
        face_up = int(self.record["face_up"])
        return None if face_up < 0 else face_up

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.record["scores"][:self.num_players].tolist())

    @property
    def gold_cards(self) -> tuple[int, ...]:
        return tuple(self.record["gold_cards"][:self.num_players].tolist())

    def winners(self) -> tuple[int, ...]:
        """The seats that won (D5), once the game has ended (the kernel's finding at its end)."""
        return tuple(np.flatnonzero(self.turn["final_winners"][:self.num_players]).tolist())

    def known(self, seat: int) -> np.ndarray:
        """Per position, whether ``seat`` sees or remembers the card there (bool, 64)."""
        known = (self.record["memo"][seat] >= 0) & (self.record["table"] >= 0)
        if self.record["face_up"] >= 0:
            known[self.record["face_up"]] = True
        return known

    def legal_positions(self, seat: int) -> np.ndarray:
        """The int8 mask of the positions ``seat`` may flip now (none if it is not to play)."""
        legal = np.zeros(NUM_POSITIONS, dtype=np.int8)
        if self.current_player == seat:
            legal[self.flippable()] = 1
        return legal

    def vector(self, seat: int, kind: ObservationType) -> np.ndarray:
        """``seat``'s observation vector of type ``kind``, a new array (a type the kernel does not write is read off
        the plain vector)."""
        code = kernel.OBSERVATIONS.get(kind.name, kernel.OBS_PLAIN)
        out = np.zeros(kernel.SIZES[code], dtype=np.float32)
        kernel.observe_one(self.record, self.constants, seat, code, out, np.zeros(self.action_type.size, dtype=bool))
        return out if kind.name in kernel.OBSERVATIONS else kind.seat_vector(out)

    def observation(self, row: np.ndarray) -> np.ndarray:
        """The game's observation, a new array, from a row the kernel wrote of its type (``code``): a copy, or for a
        type the kernel does not write, read off that plain row."""
        return self.observation_type.seat_vector(row) if self._derive else row.copy()

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` knows now, about positions (``None``: the all-seeing view); its vector is the game's
        observation where that is about positions, else the plain one."""
        record, n = self.record, self.num_players
        table = record["table"]
        finished = self.is_finished
        if seat is None:
            cards, mask = table, np.zeros(NUM_POSITIONS, dtype=np.int8)
            kind = self.observation_type if self.observation_type.positional else observation_type("plain")
            observation = np.zeros(kind.size, dtype=np.float32)
            hidden = table[:0]
        else:
            known = self.known(seat)
            cards = np.where(table == EMPTY, EMPTY, np.where(known, table, UNKNOWN))
            hidden = table[(table >= 0) & ~known]
            kind = self.observation_type if self.observation_type.positional else observation_type("plain")
            observation, mask = self.vector(seat, kind), self.legal_positions(seat)
        knowledge = CardKnowledge(
            seat=seat, num_players=n, cards=tuple(cards.tolist()), face_up=self.face_up, owners=self.owners,
            scores=self.scores, gold_cards=self.gold_cards, current_player=None if finished else self.current_player,
            gold_rush=bool(record["gold_rush"]), turn=int(record["turn"]), max_turns=self.config.max_turns,
            unseen=tuple(np.bincount(hidden, minlength=NUM_CARD_TYPES).tolist()), rush_at=self.rush_at)
        return SeatView(seat, knowledge, mask, observation)

    @property
    def game(self) -> LiveGame:
        """The readable engine's game (:class:`LiveGame`: made when read, and kept up to date)."""
        return self._live

    def readable(self) -> Game:
        """The readable engine's game where :attr:`log` starts (for :class:`~goldrush_env.live.LiveGame`)."""
        if self.origin is not None:
            return self.origin.copy()
        return Game(self.num_players, list(self.layout), first_player=self.first_player,
                    max_turns=self.config.max_turns, rush_at=self.rush_at)

    def catch_up(self, game: Game, seen: int | None) -> int:
        """Play on ``game`` the flips of :attr:`log` from ``seen`` on (for :class:`~goldrush_env.live.LiveGame`)."""
        log = self.log
        for position in log[seen or 0:]:
            game.step(position)
        return len(log)

    def copy(self) -> SingleGame:
        """An independent copy: the records and the flips copied, the constants and the players shared."""
        new = object.__new__(SingleGame)
        new.__dict__.update(self.__dict__)
        new.games, new.turns = self.games.copy(), self.turns.copy()
        new._views()
        new.observations, new.masks = self.observations.copy(), self.masks.copy()
        new.log = list(self.log)
        new._live = LiveGame(new)
        return new

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_live"] = state["_columns"] = None
        state["engine"] = self.engine.name  # the players' engine is its module's
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._views()  # views of the arrays again, not copies
        self.engine = importlib.import_module(state["engine"]).ENGINE
        self._live = LiveGame(self)

    def adopt(self, other: SingleGame) -> None:
        """Become a copy of ``other``'s game (its records, layout and flips), keeping this one's players."""
        self._renew(other.origin)
        self.games[:] = other.games
        self.turns[:] = other.turns
        self.turn["entrants"] = 0  # this one's players, not the other's
        self.layout, self.first_player, self.log = other.layout, other.first_player, list(other.log)
        self._standing()
