"""*Gold Rush* on a piecepack with its chance made explicit (:mod:`goldrush_env.chance`), for OpenSpiel's search.

Every random event of a game is a chance node listing its outcomes with their exact probabilities:

* at the start, the start player (``0 .. n-1``, uniform) and the first production roll, one node per die in the
  order Moon, Sun, Arms, Crown (faces ``0 .. 5``, 1/6 each);
* the production roll of every later round, four such nodes, when the action that ends a round is taken;
* a Market roll, two nodes, outcome ``k`` meaning the face ``k + 1``;
* a face-down piece when some seat first identifies it (an assay, private to the assayer, or an optimization, which
  turns it face up for everybody): its identity, uniform among the identities of its kind that nobody has
  identified yet. A tile's outcome is the index of its code in :data:`~goldrush_env.piecepack.components.BOX`
  (``0 .. 23``), a coin's its rank (``0 .. 5``, the row fixes its suit).

A piece nobody has identified is therefore not yet decided: its identity at the table is a uniform draw from those
left, whatever the seats did before, because a face-down piece is worth the same whatever it is (§2.3) and no seat
can have acted on it. The game below the nodes is a raw AEC environment's (:attr:`PiecepackPosition.env`), on
the compiled state (:class:`~goldrush_env.piecepack.single.SingleGame`): its pieces start in box order, and a
decided identity is put in place by exchanging it with the undecided piece that held it
(:meth:`~goldrush_env.piecepack.single.SingleGame.exchange`), which no seat can tell; decided dice are queued where
the game reads them (:meth:`~goldrush_env.piecepack.single.SingleGame.queue`). The game has no generator to draw
from, so a roll that no chance node decided fails instead of being drawn. ``env.game.to_record()`` is a record of the game as played,
which :meth:`Game.from_record <goldrush_env.piecepack.engine.Game.from_record>` replays.

A seat's action that needs chance (``MARKET_ROLL``, the last ``END_DEVELOPMENT`` of a round before the ninth, an
assay or optimization of an undecided piece) is held while its chance nodes are drawn and taken at the last of
them, whose :attr:`~goldrush_env.chance.Position.rewards` are the environment's for that step.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from goldrush_env.aec_base import SCORE_REWARD_SCALE
from goldrush_env.chance import CHANCE, TERMINAL, ChanceGame, Position
from goldrush_env.checks import check_int, is_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.options import REWARDS
from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.components import (
    BOX,
    COLUMNS,
    MAX_OFFERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_PIECES,
    NUM_PLOTS,
    NUM_ROUNDS,
    RANKS,
    ROW_SUIT,
    ROWS,
    START_STOCK,
    code_of,
    piece_name,
)
from goldrush_env.piecepack.encoder import OBSERVATION_SIZE
from goldrush_env.piecepack.engine import Phase
from goldrush_env.piecepack.errors import IllegalActionError, PiecepackError
from goldrush_env.piecepack.render import to_text
from goldrush_env.piecepack.words import DIE_NAMES, action_words

MAX_PRODUCED = 2 * NUM_PLOTS
"""The most units one round's production can yield: a plot yields one unit at most for each of its two pieces."""
_SETUP = [("start", 0)] + [("roll", die) for die in range(4)]
"""The chance nodes of the start: the start player, then the first roll die by die."""
_COIN_CODES = [code_of(ROW_SUIT[row], rank) for row in range(ROWS) for rank in RANKS]
"""The coins in the places they start from: each row's by rank."""


def max_units(num_players: int) -> int:
    """The most units of resources a game can ever create: the starting stock and nine rounds of production. A
    Market sale trades Food for Gold one for one, an offer moves units between seats, a Trade Route takes three
    units for one and everything else spends them, so no seat ever holds more, nor spends more over a game."""
    return num_players * sum(START_STOCK) + NUM_ROUNDS * MAX_PRODUCED


def max_score(num_players: int) -> int:
    """An upper bound on any seat's score (§5: Ore + 3 Gold + 8 per Trade Route, Market and Warehouse standing).
    A unit of Ore or Gold is worth 3 points at most, and a scoring building costs at least 4 units (the Warehouse,
    FFEO) for its 8 points, 2 a unit: every point stands for a unit, each worth 3 at most, of :func:`max_units`."""
    return 3 * max_units(num_players)


def max_decisions(num_players: int) -> int:
    """An upper bound on the decisions of seats in one game. Each round asks every seat at most two Warehouse
    questions, one Stake Claim, one Market sale (a seat rolls the Market once a round), three offers each with an
    answer, and ends one Free Trade and one Development turn of each seat: 12 a seat. Every other decision (a
    Market roll, a Trade Route, an assay, optimization, building or upgrade) spends at least one unit, so there are
    at most :func:`max_units` of them over the game."""
    per_round = num_players * (2 + 1 + 1 + 2 * MAX_OFFERS + 1 + 1)
    return NUM_ROUNDS * per_round + max_units(num_players)


class PiecepackChance(ChanceGame):
    """*Gold Rush* (piecepack) for OpenSpiel: ``players`` 3 or 4, ``reward`` ``"win"`` or ``"score"`` (the
    environments' rewards, :mod:`goldrush_env.piecepack.aec`). Its nodes are :class:`PiecepackPosition`.

    Utilities: with ``"win"`` a seat gets -1 to 1 and the sum depends on how many seats share the win; with
    ``"score"`` the rewards of every step sum to zero, and a seat's return, its final score less the mean of the
    others' over 10, lies within :func:`max_score` / 10 either way."""

    PARAMETERS = {"players": 3, "reward": "win"}
    CHOICES = {"players": tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)), "reward": REWARDS}
    title = "Gold Rush (piecepack)"

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        players, reward = self.params["players"], self.params["reward"]
        if not is_int(players, MIN_PLAYERS, MAX_PLAYERS):
            raise GoldrushEnvError(f"players={players!r} is not allowed: expected {MIN_PLAYERS} or {MAX_PLAYERS} (P1)")
        if reward not in REWARDS:
            raise GoldrushEnvError(f"reward={reward!r} is not allowed: expected one of {REWARDS}")
        self.reward = reward
        self.num_players = players
        self.num_actions = A.NUM_ACTIONS
        self.max_chance_outcomes = len(BOX)
        self.max_game_length = max_decisions(players)
        # The start player, nine production rolls, two dice for each Market roll (a seat rolls once a round at
        # most) and one identity for each piece.
        self.max_chance_nodes = 1 + 4 * NUM_ROUNDS + 2 * NUM_ROUNDS * players + NUM_PIECES
        if reward == "win":
            self.min_utility, self.max_utility, self.utility_sum = -1.0, 1.0, None
        else:
            bound = SCORE_REWARD_SCALE * max_score(players)
            self.min_utility, self.max_utility, self.utility_sum = -bound, bound, 0.0
        self.perfect_information = False
        self.terminal_rewards = reward == "win"
        self.observation_size = OBSERVATION_SIZE

    def new_position(self) -> PiecepackPosition:
        return PiecepackPosition(self)


class PiecepackPosition(Position):
    """A node of :class:`PiecepackChance`. :attr:`env` is ``None`` until the start player and the first roll are
    decided (the first five nodes, all chance), then the raw piecepack environment of the game so far; at a chance
    node it stands before the held action."""

    game: PiecepackChance

    def __init__(self, game: PiecepackChance) -> None:
        super().__init__(game)
        self.env: Any = None
        self._returns = [0.0] * game.num_players
        self._held: int | None = None  # the seat's action that waits for its chance
        self._chance: list[tuple[str, int]] = list(_SETUP)  # the events that action (or the start) needs
        self._drawn: list[int] = []  # their outcomes so far; a chance node while some are missing

    # --- who acts and what may be done ---------------------------------------------------------------------------

    @property
    def player(self) -> int:
        if len(self._drawn) < len(self._chance):
            return CHANCE
        game = self.env.game
        return TERMINAL if game.is_over else game.current_player

    @property
    def event(self) -> tuple[str, int] | None:
        """What this chance node decides, as ``(kind, index)``: ``("start", 0)`` the start player, ``("roll", die)``
        a production die (0 Moon .. 3 Crown), ``("market", die)`` a Market die (0 or 1), ``("piece", piece)`` the
        identity of a piece (tile ``p`` is ``p``, coin ``p`` is ``24 + p``). ``None`` where no chance is to act."""
        return self._chance[len(self._drawn)] if len(self._drawn) < len(self._chance) else None

    def legal_actions(self) -> list[int]:
        player = self.player
        if player == CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        if player == TERMINAL:
            return []
        return np.flatnonzero(self.env.action_mask(self.env.possible_agents[player])).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.player != CHANCE:
            raise GoldrushEnvError(f"this is not a chance node: seat {self.player} is to act"
                                if self.player != TERMINAL else "this is not a chance node: the game has ended")
        kind, index = self.event
        if kind == "start":
            outcomes = list(range(self.game.num_players))
        elif kind == "piece":
            outcomes = self._undecided(index)
        else:
            outcomes = list(range(6))
        probability = 1.0 / len(outcomes)
        return [(outcome, probability) for outcome in outcomes]

    def _undecided(self, piece: int) -> list[int]:
        """The outcomes of ``piece``'s identity: those of the undecided pieces of its kind, ascending."""
        game = self.env.game
        if piece < NUM_PLOTS:
            return sorted(BOX.index(game.tile(q)) for q in _places(piece) if not _identified(game, q))
        return sorted(game.piece(q)[1] for q in _places(piece) if not _identified(game, q))

    # --- acting ----------------------------------------------------------------------------------------------------

    def apply_legal(self, action: int) -> None:
        self.rewards = [0.0] * self.game.num_players
        if self.player == CHANCE:
            self._drawn.append(action)
            if len(self._drawn) == len(self._chance):
                self._complete()
            return
        chance = self._needs(action)
        if chance:
            self._held, self._chance, self._drawn = action, chance, []
        else:
            self._step(action)

    def _needs(self, action: int) -> list[tuple[str, int]]:
        """The chance events ``action`` of the seat to act needs before the engine can take it."""
        game = self.env.game
        if action == A.MARKET_ROLL:
            return [("market", 0), ("market", 1)]
        if (action == A.END_DEVELOPMENT and game.phase is Phase.DEVELOPMENT_TURN and game.round < NUM_ROUNDS
                and game.current_player == game.seat_order()[-1]):  # the last turn of a round: the next one rolls
            return [("roll", die) for die in range(4)]
        if A.ASSAY_TILE <= action < A.BUILD:  # an assay or an optimization
            kind, (plot,) = A.decode(action)
            piece = plot if kind.endswith("TILE") else NUM_PLOTS + plot
            if not _identified(game, piece):
                return [("piece", piece)]
        return []

    def _complete(self) -> None:
        """Every event the start or the held action needs is decided: set them in the game and go on."""
        chance, drawn, held = self._chance, self._drawn, self._held
        self._chance, self._drawn, self._held = [], [], None
        if self.env is None:
            self._deal(drawn[0], drawn[1:])
            return
        kind, index = chance[0]
        if kind == "roll":
            self.env.one.queue(dice=[drawn])
        elif kind == "market":
            self.env.one.queue(markets=[[outcome + 1 for outcome in drawn]])
        else:
            self._place(index, drawn[0])
        self._step(held)

    def _deal(self, start: int, roll: list[int]) -> None:
        from goldrush_env.piecepack.aec import raw_env  # gymnasium and pettingzoo only once a game is dealt

        env = raw_env(num_players=self.game.num_players, reward=self.game.reward)
        record = {"players": self.game.num_players, "tiles": list(BOX), "coins": list(_COIN_CODES), "start": start,
                  "dice": [roll]}
        env.reset(seed=0, options={"record": record})
        # The environment draws the rolls a record lacks from its generator; take it away, so that a roll no chance
        # node decided fails rather than being drawn.
        env.one.rng = None
        self.env = env

    def _place(self, piece: int, outcome: int) -> None:
        """Make ``outcome`` the identity of the undecided ``piece``: exchange it with the undecided piece that holds
        that identity (nobody knows either, so nobody can tell)."""
        game = self.env.game
        code = BOX[outcome] if piece < NUM_PLOTS else code_of(ROW_SUIT[(piece - NUM_PLOTS) // COLUMNS], outcome)
        holder = next(q for q in _places(piece)
                      if not _identified(game, q) and code_of(*game.piece(q)) == code)
        if holder != piece:
            self.env.one.exchange(piece, holder)

    def _step(self, action: int) -> None:
        env = self.env
        try:
            env.step(action)
        except IllegalActionError:
            raise
        except PiecepackError as error:  # the game asked for a roll it was not given
            raise GoldrushEnvError(f"action {action} needed a roll that no chance node decided") from error
        if env.one.queued():
            raise GoldrushEnvError(f"action {action} left a decided roll unused: chance was asked for nothing")
        self.rewards = [float(env.rewards[name]) for name in env.possible_agents]
        self._returns = [total + reward for total, reward in zip(self._returns, self.rewards)]

    def returns(self) -> list[float]:
        return list(self._returns)

    # --- what seats know -----------------------------------------------------------------------------------------

    def observation(self, seat: int) -> np.ndarray:
        seat = self._seat(seat)
        if self.env is None:  # nothing is on the table yet
            return np.zeros(OBSERVATION_SIZE, np.float32)
        return self.env.observe(self.env.possible_agents[seat])["observation"]

    def knowledge_text(self, seat: int) -> str:
        seat = self._seat(seat)
        if self.env is None:
            return self._setup_text()
        return _knowledge_words(self.env.game.known_to(seat))

    def public_text(self) -> str:
        if self.env is None:
            return self._setup_text()
        known = self.env.game.public_state()
        known.update(seat="public", identities={})
        return _knowledge_words(known)

    def private_text(self, seat: int) -> str:
        seat = self._seat(seat)
        if self.env is None:
            return ""
        identities = self.env.game.known_to(seat)["identities"]
        if not identities:
            return ""
        return f"seat {seat} assayed: " + ", ".join(f"{piece_name(piece)} {code}"
                                                    for piece, code in sorted(identities.items()))

    def _setup_text(self) -> str:
        drawn = self._drawn
        decided = [f"start seat {drawn[0]}"] if drawn else []
        decided += [f"{DIE_NAMES[die]} die {face}" for die, face in enumerate(drawn[1:])]
        return (f"Gold Rush (piecepack), {self.game.num_players} players: the start player and the first roll are "
                f"being decided" + (f" ({', '.join(decided)})" if decided else ""))

    def action_text(self, player: int, action: int) -> str:
        if player != CHANCE:
            if self.env is None:
                return A.describe(action)
            return action_words(action, self.env.game.known_to(self._seat(player)))
        if self.player != CHANCE:
            return f"chance outcome {action}"
        kind, index = self.event
        if kind == "start":
            return f"start player: seat {action}"
        if kind == "roll":
            return f"{DIE_NAMES[index]} die: {action}"
        if kind == "market":
            return f"Market die {index + 1}: {action + 1}"
        if index < NUM_PLOTS:
            return f"tile of plot {index}: {BOX[action]}"
        plot = index - NUM_PLOTS
        return f"coin of plot {plot}: {code_of(ROW_SUIT[plot // COLUMNS], action)}"

    def _seat(self, seat: int) -> int:
        return check_int("seat", seat, 0, self.game.num_players - 1, error=GoldrushEnvError)

    # --- search ------------------------------------------------------------------------------------------------

    def resample(self, seat: int, uniform: Callable[[], float]) -> PiecepackPosition:
        """This node with every face-down piece ``seat`` has not assayed dealt again among the places of its kind
        (tiles among tiles, coins within their row), by a shuffle drawn from ``uniform()``: uniform over the deals
        that agree with what ``seat`` knows, as :meth:`Game.sample <goldrush_env.piecepack.engine.Game.sample>`
        deals. Pieces other seats assayed stay assayed by them, with what now lies there; undecided pieces stay
        undecided. Only at a seat's decision or at the end: at a chance node the held action may concern a piece."""
        seat = self._seat(seat)
        if self.player == CHANCE:
            raise GoldrushEnvError("resample() is for a seat's decision or the end, not a chance node")
        new = self.copy()
        one = new.env.one
        game = one.live.current()
        bit = 1 << seat
        for kind in range(1 + ROWS):
            places = [q for q in (range(NUM_PLOTS) if kind == 0 else _places(NUM_PLOTS + COLUMNS * (kind - 1)))
                      if not game.face_up[q] and not game.assayed[q] & bit]
            for i in range(len(places) - 1, 0, -1):  # Fisher-Yates
                j = min(int(uniform() * (i + 1)), i)
                if j != i:
                    one.exchange(places[i], places[j])
        return new

    def __deepcopy__(self, memo: dict) -> PiecepackPosition:
        # A deep copy of the environment would rebuild it empty (it pickles as its options); copy the game instead.
        new = object.__new__(type(self))
        new.game = self.game
        new.rewards = list(self.rewards)
        new._returns = list(self._returns)
        new._held, new._chance, new._drawn = self._held, list(self._chance), list(self._drawn)
        new.env = None if self.env is None else _copy_env(self.env)
        return new


def _identified(game: Any, piece: int) -> bool:
    """Whether some seat has identified ``piece``: face up, or assayed by anyone."""
    return game.face_up[piece] or game.assayed[piece] != 0


def _places(piece: int) -> range:
    """The pieces ``piece`` could change places with: every tile, or the coins of its row."""
    if piece < NUM_PLOTS:
        return range(NUM_PLOTS)
    first = NUM_PLOTS + (piece - NUM_PLOTS) // COLUMNS * COLUMNS
    return range(first, first + COLUMNS)


def _knowledge_words(known: dict[str, Any]) -> str:
    """What ``known`` (``Game.known_to`` or the public state) says, in words: the text board, and a line for each
    thing the observation vector holds that the board does not show."""
    assays = [f"{piece_name(piece)} by {'+'.join(map(str, seats))}"
              for piece, seats in enumerate(known["assayed_by"]) if seats]
    offers = [f"{offerer}>{target} {a}x{give} for {b}x{take} {'accepted' if accepted else 'declined'}"
              for offerer, target, give, a, take, b, accepted in known["offer_log"]]
    lines = [to_text(known),
             "assayed: " + (", ".join(assays) or "none"),
             f"market used: {known['market_used']}; offers made: {known['offers_made']}; "
             f"powered: {known['powered']}; warehouse: {known['warehouse']}",
             "offers answered: " + ("; ".join(offers) or "none")]
    return "\n".join(lines)


def _copy_env(env: Any) -> Any:
    """An independent copy of a raw piecepack environment, without building one: its game copied, and what its
    steps change (the compiled state, the mask, the AEC bookkeeping)."""
    new = object.__new__(type(env))
    new.__dict__.update(env.__dict__)
    new.one = env.one.copy()
    new._np_random = None  # a reset of the copy seeds afresh instead of sharing the generator
    new.agents = list(env.agents)
    for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
        setattr(new, name, dict(getattr(env, name)))
    new.infos = {agent: dict(info) for agent, info in env.infos.items()}
    return new


__all__ = ["PiecepackChance", "PiecepackPosition", "max_decisions", "max_score", "max_units"]
