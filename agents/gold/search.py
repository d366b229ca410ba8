"""``ismcts``: Monte-Carlo tree search over the cards it has not seen.

Each iteration plays one *determinization*: the cards the seat cannot
place are dealt at random over the positions it does not know, every deal
consistent with what it saw being equally likely. The deal is drawn lazily:
the game is built once with the engine (:meth:`Game.from_position`), each
iteration plays a copy, and an unknown card takes its identity only when it
is flipped, drawn from the cards still unaccounted for
(:meth:`Game.exchange`: a shuffle done one card at a time). An iteration
walks down a search tree shared by all deals, adds one node, plays on with a
fast rollout policy, and scores the end.

What makes it cheap enough in pure Python:

* Actions are *kinds* of remembered cards, not positions: two remembered
  cards with the same worth (a gold of a value, dynamite, a miner of a value
  working for the same seat: :func:`goldrush_env.gold.cards.card_kinds`)
  are interchangeable under the rules, so they are one action, plus one
  action "an unknown card". The tree's edges are
  (action, kind of card revealed), so the revealed card is a chance outcome
  and the positions of every remembered card follow from the path.
* All flips are public (D9): inside the search every player remembers every
  card revealed, as with perfect memory, and plays the rollout policy on
  that shared knowledge, never on the hidden deal.
* Rollouts are short: ``horizon`` rounds past the tree, a round being a
  turn of every seat, so that a rollout stops where the seat moving at the
  tree's last node is about to move again (none, two or three rounds of the
  quick policy played worse: the horizon sweep in docs/experiments.md); the rush, once reached, is played
  out to the end, its few single flips deciding who takes the remembered
  gold. The end is scored as each seat's gain from the root against the
  others' mean, plus a share of the best strike the seat to move could make
  from remembered cards, less the strength of the miners each seat lost
  (``material`` per point; a miner still on the table can carry gold later,
  which a short rollout cannot see).

Three things keep the search from undervaluing an unknown first card, whose
worth depends on a second decision made after a chance card:

* Progressive widening: a node offers the rollout policy's move alone at
  first, one more each time ``1 + widening * sqrt(visits)`` grows, so a
  decision with few visits is valued by sensible moves rather than by one
  try of each.
* A remembered card first, then an unknown one, makes the same pair as the
  unknown card first and the remembered one second; the second order keeps
  the choice open after seeing the unknown card, so it is the only one
  searched: after a remembered first card the tree offers remembered cards
  only (an unknown one if no other card is remembered).
* A remembered first card that acts with no other remembered card (no
  strike, duel or dynamite it could make) can only lead to "nothing": a
  pass, which leaves the unknown cards, and first use of what they show, to
  the next player. A short rollout cannot see that cost, so while unknown
  cards are left such a card is not searched as a first flip.

``iterations`` is the simulation budget per decision; the move played is the
most visited action at the root (an unknown card is chosen at random among
the positions the seat cannot place).
"""

from __future__ import annotations

import math
import random
import time
from typing import NamedTuple

import numpy as np

from goldrush_env.checks import check_int, check_number
from goldrush_env.gold.cards import COLOUR, DYNAMITE, IS_GOLD, IS_MINER, NUM_CARD_TYPES, VALUE, card_kinds
from goldrush_env.gold.engine import Game, Outcome, colour_owners, pair_outcome
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.policy import SeatView, SeededPolicy
from goldrush_env.gold.view import UNKNOWN

UNKNOWN_CARD = -1
"""The action key "a card nobody has seen"."""

SCORE_SCALE = 10.0
"""Points per unit of reward inside the search (rewards stay near [-2, 2])."""

MATERIAL = 0.3
"""Default worth of a miner on the table to its owner, per point of strength (the expert's ``KILL_WEIGHT``)."""


PARTNERS = [frozenset(other for other in range(NUM_CARD_TYPES) if pair_outcome(card, other) is not Outcome.NOTHING)
            for card in range(NUM_CARD_TYPES)]
"""Per card id: the cards it makes a strike, a duel or dynamite with (dynamite with itself too)."""


class _Node:
    """A decision in the tree: the seat to move, its actions and their statistics."""

    __slots__ = ("mover", "actions", "stats", "visits", "children")

    def __init__(self, mover: int, actions: list[tuple[int, int | None]]) -> None:
        self.mover = mover
        self.actions = actions
        self.stats: dict[int, list[float]] = {}
        self.visits = 0
        self.children: dict[tuple[int, int], _Node] = {}


class _Table:
    """The public side of one simulated game: which positions everyone has seen, and the rest."""

    __slots__ = ("game", "known", "hidden", "owners", "random", "miners_lost", "first_known")

    def __init__(self, game: Game, known: dict[int, int], hidden: list[int], owners: tuple[int, ...],
                 rng: random.Random) -> None:
        self.game = game
        self.known = known
        self.hidden = hidden
        """Positions nobody has seen, highest first (``pop()`` takes the lowest)."""
        self.owners = owners
        """The seat owning each colour, -1 if unowned."""
        self.random = rng.random
        """Draws the card an unseen position turns out to hold."""
        self.miners_lost = [0] * game.num_players
        """Per seat: the strength of the miners of its colours that left the table in this simulation."""
        self.first_known = False
        """Whether the card face up was remembered before this simulation flipped it (False at the root)."""

    def flip(self, position: int | None) -> int:
        """Flip a remembered ``position`` (or, for ``None``, the lowest unseen one); returns the card.

        An unseen card is drawn as it is flipped: any of the unseen positions' cards, each as likely."""
        remembered = position is not None
        if position is None:
            hidden = self.hidden
            draw = int(self.random() * len(hidden))
            position = hidden.pop()
            if draw < len(hidden):  # the card of another unseen position; the last index keeps its own
                self.game.exchange(position, hidden[draw])
        event = self.game.step(position)
        self.first_known = remembered and self.game.face_up is not None
        known = self.known
        known[position] = event.card
        for gone in event.removed:
            card = known.pop(gone)
            if IS_MINER[card]:
                owner = self.owners[COLOUR[card]]
                if owner >= 0:
                    self.miners_lost[owner] += VALUE[card]
        return event.card


class Decision(NamedTuple):
    """What :meth:`ISMCTSAgent.decide` found."""

    position: int
    """The position flipped (for "an unknown card", one of the unknown positions at random)."""
    move: np.ndarray
    """The move played as a distribution over the positions (64): even over every position it stands for,
    all the unknown legal ones for "an unknown card", all the legal ones holding a card of its kind for a
    remembered card. The target :mod:`goldrush_train.gold.imitation` teaches a network."""
    visits: np.ndarray
    """The share of the root's visits per position, each move's share spread as in ``move``. (Its most
    likely single position can be a remembered card's even where the unknown cards got most visits, spread
    thin over many positions: not a target for a network played by its most likely position.)"""


class ISMCTSAgent(SeededPolicy):
    """Determinized Monte-Carlo tree search (see the module docstring).

    ``iterations``: simulations per decision (the budget). ``horizon``: rounds
    (``num_players`` turns each) a rollout plays past the tree (``None``: to
    the end of the game).
    ``exploration``: the UCT constant. ``material``: what a miner still on
    the table is worth to its owner, per point of strength, when a rollout
    stops before the rush (0 leaves it out). ``widening``: a node
    offers ``1 + widening * sqrt(visits)`` of its moves, the rollout
    policy's first (``None``: all of them from the first visit).
    ``opponents``: how the other seats choose inside the tree: ``"search"``
    (default) by the tree's statistics, as the searching seat does, or
    ``"rollout"``, by the rollout policy (a model of the opponent as a quick
    greedy player; the tree then branches on the searching seat's flips and
    the cards revealed only).
    ``objective``: what a simulation is scored by: ``"points"`` (default),
    each seat's gain since the root, or ``"win"``, each seat's chance of
    winning: exact at the end of a game, otherwise read from its lead with
    the gold left on the table as the spread (:data:`WIN_SPREAD`), as
    ``2 P(win) - 1``.
    ``seconds``: a time budget per decision: the search stops once it has
    run this long (after at least one simulation), even with iterations
    left (``None``, the default: no budget, only ``iterations``). With a
    budget, how far the search gets depends on the machine's speed and load,
    so one seed no longer plays one game everywhere; :attr:`simulations`
    says how many ran. ``goldrush serve`` gives every search a budget.
    """

    name = "ismcts"

    def __init__(self, seed: int | None = None, iterations: int = 2000, horizon: int | None = 1,
                 exploration: float = 0.7, material: float = MATERIAL, widening: float | None = 1.0,
                 opponents: str = "search", objective: str = "points", seconds: float | None = None) -> None:
        super().__init__(seed)
        self.iterations = check_int("iterations", iterations, 1)
        self.horizon = check_int("horizon", horizon, 0, none="play to the end")
        self.exploration = check_number("exploration", exploration, 0)
        self.material = check_number("material", material, 0)
        self.widening = check_number("widening", widening, above=0, none="every move at once")
        if opponents not in ("search", "rollout"):
            raise GoldrushEnvError(f"opponents must be 'search' or 'rollout', got {opponents!r}")
        if objective not in ("points", "win"):
            raise GoldrushEnvError(f"objective must be 'points' or 'win', got {objective!r}")
        self.seconds = check_number("seconds", seconds, above=0, none="no time budget")
        self.simulations = 0
        """How many simulations the last decision ran (0 where it had only one move)."""
        self.objective = objective
        self.opponents = opponents
        self._kinds: dict[int, tuple[int, ...]] = {}

    def __repr__(self) -> str:
        return (f"ISMCTSAgent(iterations={self.iterations}, horizon={self.horizon}, exploration={self.exploration}, "
                f"material={self.material}, widening={self.widening}, opponents={self.opponents!r}, "
                f"objective={self.objective!r}, seconds={self.seconds})")

    # --- the decision -----------------------------------------------------------

    def act(self, view: SeatView) -> int:
        return self.decide(view).position

    def decide(self, view: SeatView) -> Decision:
        """Search once; return the position :meth:`act` flips, with the move it stands for and the share of
        the root's visits per position (see :class:`Decision`). The two draw the same random numbers, so a
        seeded agent plays the same game through either."""
        legal = view.legal_actions.tolist()
        self.simulations = 0
        if len(legal) == 1:
            only = np.zeros(len(view.cards))
            only[legal[0]] = 1.0
            return Decision(legal[0], only, only)
        kinds = self._kinds.get(view.num_players)
        if kinds is None:
            kinds = self._kinds[view.num_players] = card_kinds(view.num_players, colour_owners(view.num_players))
        unknown = [p for p, card in enumerate(view.cards) if card == UNKNOWN]
        unseen = [card for card in range(NUM_CARD_TYPES) for _ in range(view.unseen[card])]
        if len(unseen) != len(unknown):
            raise GoldrushEnvError(f"inconsistent view: {len(unknown)} unknown positions but {len(unseen)} unseen "
                                   f"cards")
        # The unseen cards go to the unknown positions in any order: each iteration deals them afresh as they
        # are flipped (_Table.flip).
        table = list(view.cards)
        for position, card in zip(unknown, unseen):
            table[position] = card
        base = Game.from_position(view.num_players, table, current_player=view.current_player, scores=view.scores,
                                  gold_cards=view.gold_cards, turn=view.turn, face_up=view.face_up,
                                  gold_rush=view.gold_rush, max_turns=view.max_turns, rush_at=view.rush_at)
        known = {p: card for p, card in enumerate(view.cards) if card >= 0}
        hidden = unknown[::-1]
        rng = random.Random(int(self.rng.integers(2**63)))
        owners = colour_owners(view.num_players)
        root = self._node(_Table(base, known, hidden, owners, rng), kinds, rng)
        if len(root.actions) == 1:
            only = self._spread(view, kinds, [(root.actions[0], 1.0)])
            return Decision(self._position(root.actions[0], unknown, legal), only, only)

        start = self._standing(base)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for done in range(self.iterations):
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            self._iterate(root, _Table(base.copy(), dict(known), hidden.copy(), owners, rng), kinds, rng, start)
            self.simulations += 1
        _, action = max((root.stats[key][0], i) for i, (key, _) in enumerate(root.actions) if key in root.stats)
        visited = [(action, root.stats[action[0]][0] / root.visits) for action in root.actions
                   if action[0] in root.stats]
        played = root.actions[action]
        return Decision(self._position(played, unknown, legal), self._spread(view, kinds, [(played, 1.0)]),
                        self._spread(view, kinds, visited))

    @staticmethod
    def _spread(view: SeatView, kinds: list[int],
                weighted: list[tuple[tuple[int, int | None], float]]) -> np.ndarray:
        """Spread each action's weight over the legal positions it stands for: a remembered card's over every
        legal position holding a card of its kind, an unknown card's over the legal unknown positions."""
        legal = view.legal_actions.tolist()
        cards = view.cards
        shares = np.zeros(len(cards), np.float64)
        for (_, position), weight in weighted:
            if position is None:
                targets = [p for p in legal if cards[p] == UNKNOWN]
            else:
                kind = kinds[cards[position]]
                targets = [p for p in legal if cards[p] != UNKNOWN and kinds[cards[p]] == kind]
            shares[targets] += weight / len(targets)
        return shares / shares.sum()

    def _position(self, action: tuple[int, int | None], unknown: list[int], legal: list[int]) -> int:
        _, position = action
        if position is not None:
            return position
        allowed = set(legal)
        choices = [p for p in unknown if p in allowed]
        return int(choices[self.rng.integers(len(choices))])

    # --- one simulation -------------------------------------------------------------

    def _iterate(self, root: _Node, sim: _Table, kinds: list[int], rng: random.Random, start: list[float]) -> None:
        game = sim.game
        node, path = root, []
        me = root.mover
        model = self.opponents == "rollout"
        while not game.is_finished:
            if model and node.mover != me:
                # The opponent plays the rollout policy. The node keeps one position per kind of card (a
                # child's moves name positions that hold on the path to it), so a kind seen before is
                # flipped where it was then.
                position = _rollout_position(sim, rng)
                key = UNKNOWN_CARD if position is None else kinds[sim.known[position]]
                for action in node.actions:
                    if action[0] == key:
                        position = action[1]
                        break
                else:
                    node.actions.append((key, position))
                node.stats.setdefault(key, [0, 0.0])
            else:
                key, position = self._select(node)
            path.append((node, key))
            card = sim.flip(position)
            edge = (key, kinds[card])
            child = node.children.get(edge)
            if child is None:
                node.children[edge] = self._node(sim, kinds, rng)
                break
            node = child
        if self.horizon is None:
            limit = None
        else:
            limit = game.turn + self.horizon * game.num_players
        # The rush is played out whatever the horizon: at most ten single flips, and who takes the
        # remembered gold in it is most of what the last turns before it decide.
        while not game.is_finished and (limit is None or game.turn < limit or game.gold_rush):
            sim.flip(_rollout_position(sim, rng))
        value = self._evaluate(sim, start)
        for node, key in path:
            node.visits += 1
            stat = node.stats[key]
            stat[0] += 1
            stat[1] += value[node.mover]

    def _node(self, sim: _Table, kinds: list[int], rng: random.Random) -> _Node:
        game = sim.game
        if game.is_finished:
            return _Node(game.current_player, [])
        face_up = game.face_up
        first: dict[int, int] = {}
        for position, card in sim.known.items():
            if position != face_up and kinds[card] not in first:
                first[kinds[card]] = position
        actions: list[tuple[int, int | None]] = list(first.items())
        if face_up is None and sim.hidden and not game.gold_rush:
            # A remembered first card that no other remembered card acts with can only make "nothing": a pass
            # that leaves the unknown cards to the next player. While unknown cards are left it is not searched.
            known = sim.known
            present = set(known.values())
            actions = [(key, position) for key, position in actions
                       if (len(known) > 1 if known[position] == DYNAMITE
                           else not PARTNERS[known[position]].isdisjoint(present))]
        # A remembered first card then an unknown one makes the same pair as the unknown card first and the
        # remembered one second, which could still change course on seeing the unknown card: only the second
        # order is searched.
        if sim.hidden and not (sim.first_known and actions):
            actions.append((UNKNOWN_CARD, None))
        rng.shuffle(actions)
        # The rollout policy's choice is tried first, so a new node starts from a sensible move.
        preferred = _rollout_position(sim, rng)
        for i, (key, position) in enumerate(actions):
            if position == preferred:
                actions.insert(0, actions.pop(i))
                break
        return _Node(game.current_player, actions)

    def _select(self, node: _Node) -> tuple[int, int | None]:
        stats = node.stats
        # Progressive widening: a node offers its first action (the rollout policy's) alone, and one more
        # each time its visits allow, so that a decision reached through a chance card is valued by sensible
        # moves rather than by a try of every move once.
        width = len(node.actions) if self.widening is None else 1 + int(self.widening * math.sqrt(node.visits))
        actions = node.actions[:width]
        if len(stats) < len(actions):
            for key, position in actions:
                if key not in stats:
                    stats[key] = [0, 0.0]
                    return key, position
        scale = self.exploration * math.sqrt(math.log(node.visits))
        best, choice = -math.inf, actions[0]
        for action in actions:
            visits, total = stats[action[0]]
            score = total / visits + scale / math.sqrt(visits)
            if score > best:
                best, choice = score, action
        return choice

    @staticmethod
    def _leads(game: Game) -> list[float]:
        """Each seat's points over the others' mean."""
        scores = game.scores
        n = len(scores)
        total = sum(scores)
        return [s - (total - s) / (n - 1) for s in scores]

    @staticmethod
    def _standing(game: Game) -> list[float]:
        return [lead / SCORE_SCALE for lead in ISMCTSAgent._leads(game)]

    def _evaluate(self, sim: _Table, start: list[float]) -> list[float]:
        """Each seat's gain since the root against the others' mean; if the game goes on before the rush,
        plus part of the strike waiting for the seat to move, less the miners each seat lost against the
        others' mean (``material``)."""
        game = sim.game
        if self.objective == "win":
            return self._win_value(sim)
        value = [now - before for now, before in zip(self._standing(game), start)]
        if not game.is_finished and not game.gold_rush:
            self._add_pending(sim, value, SCORE_SCALE)
        return value

    def _add_pending(self, sim: _Table, values: list[float], scale: float) -> None:
        """Add to ``values`` (in units of ``scale`` points) the share of the best remembered strike waiting for
        the seat to move, and take off the miners each seat lost against the others' mean (``material``)."""
        mover = sim.game.current_player
        gain = _best_strike(sim, mover)[0] * STRIKE_SHARE / scale
        n = len(values)
        lost = sim.miners_lost
        total_lost = sum(lost)
        weight = self.material / scale
        for seat in range(n):
            values[seat] += gain if seat == mover else -gain / (n - 1)
            values[seat] -= weight * (lost[seat] - (total_lost - lost[seat]) / (n - 1))

    def _win_value(self, sim: _Table) -> list[float]:
        """Each seat's ``2 P(win) - 1``: from the result once the game is over (a shared win counts as
        ``2 / winners - 1``), otherwise from its lead over the others' mean, with the same strike and
        material terms as the points objective, against a spread of ``WIN_SPREAD * sqrt(gold left + 0.5)``."""
        game = sim.game
        if game.is_finished:
            winners = game.winners
            share = 2.0 / len(winners) - 1.0
            return [share if seat in winners else -1.0 for seat in range(game.num_players)]
        lead = self._leads(game)
        if not game.gold_rush:
            self._add_pending(sim, lead, 1.0)
        scale = WIN_SPREAD * math.sqrt(2.0 * (game.gold_on_table + 0.5))
        return [math.erf(x / scale) for x in lead]


WIN_SPREAD = 1.3
"""How far a lead moves by the end (root mean square), per square root of the gold points left on the table,
for the ``"win"`` objective. Measured in 2-player games by ``experiments/2026-11-25-lead-spread/lead_spread.py``
(1.32 pooled)."""

STRIKE_SHARE = 0.8
"""Share of the best remembered strike credited to the seat to move when a rollout stops."""


def _usable(card: int, player: int, owners: tuple[int, ...]) -> bool:
    """Whether a miner would carry gold to ``player`` (its own colour or an unowned one)."""
    owner = owners[COLOUR[card]]
    return owner == player or owner < 0


def _best_strike(sim: _Table, player: int) -> tuple[int, int | None]:
    """The biggest gold ``player`` could strike now from remembered cards, and where it lies ((0, None) if none)."""
    known, owners = sim.known, sim.owners
    face_up = sim.game.face_up
    strongest, gold_at = 0, {}
    for position, card in known.items():
        if position == face_up:
            continue
        if IS_GOLD[card]:
            gold_at[VALUE[card]] = position
        elif IS_MINER[card] and VALUE[card] > strongest and _usable(card, player, owners):
            strongest = VALUE[card]
    for value in (4, 3, 2, 1):
        if value <= strongest and value in gold_at:
            return value, gold_at[value]
    return 0, None


def _rollout_position(sim: _Table, rng: random.Random) -> int | None:
    """The rollout policy: a quick greedy player on the cards everyone has seen.

    Returns a position, or ``None`` for the lowest card nobody has seen.
    """
    game, known, hidden = sim.game, sim.known, sim.hidden
    player = game.current_player
    owners = sim.owners
    if game.gold_rush:
        best, choice = 0, None
        for position, card in known.items():
            if IS_GOLD[card] and VALUE[card] > best:
                best, choice = VALUE[card], position
        if choice is not None or hidden:
            return choice
        return next(iter(known))
    face_up = game.face_up
    if face_up is None:
        # A strike from remembered cards: turn the gold first, the miner follows.
        _, gold = _best_strike(sim, player)
        if gold is not None:
            return gold
        if hidden:
            return None
        return rng.choice(list(known))
    up = known[face_up]
    if IS_GOLD[up]:
        # The weakest own (or unowned) miner that can carry it.
        best, choice = 6, None
        for position, card in known.items():
            if IS_MINER[card] and VALUE[up] <= VALUE[card] < best and _usable(card, player, owners):
                best, choice = VALUE[card], position
        if choice is not None or hidden:
            return choice
    elif IS_MINER[up] and _usable(up, player, owners):
        best, choice = 0, None
        for position, card in known.items():
            if IS_GOLD[card] and best < VALUE[card] <= VALUE[up]:
                best, choice = VALUE[card], position
        if choice is not None or hidden:
            return choice
    elif IS_MINER[up]:
        # An opponent's miner: blow it up, beat it, or flip something harmless with it.
        harmless = None
        for position, card in known.items():
            if position == face_up:
                continue
            if card == DYNAMITE or IS_MINER[card] and VALUE[card] > VALUE[up] and _usable(card, player, owners):
                return position
            if IS_GOLD[card] and VALUE[card] > VALUE[up] or IS_MINER[card] and VALUE[card] == VALUE[up]:
                harmless = position
        if harmless is not None or hidden:
            return harmless
    else:
        best, choice = 0, None
        for position, card in known.items():
            if IS_MINER[card] and not _usable(card, player, owners) and VALUE[card] > best:
                best, choice = VALUE[card], position
        if choice is not None or hidden:
            return choice
    return rng.choice([p for p in known if p != face_up])


__all__ = ["ISMCTSAgent"]
