"""Players for many games at once, on the batched engine.

:func:`batched_policy` turns any entrant ``goldrush_agents.make_agent`` knows into a
:class:`goldrush_env.gold.vector.BatchedPolicy`: ``greedy`` and ``expert`` play inside Gold's compiled kernel
(:func:`compiled_greedy` and :func:`compiled_expert`, each a :class:`~goldrush_env.gold.vector.KernelPlayer`), a
trained model runs its network on every game in one batch (:class:`BatchedModel`), ``selfplay`` searches every
game at once (:class:`BatchedSelfPlay`), and any other player is asked
game by game from the same structured view it gets in the single-game environments (:class:`PerGame`).

The compiled ``greedy`` and ``expert`` make the flips :class:`goldrush_agents.gold.greedy.GreedyAgent` and
:class:`goldrush_agents.gold.expert.ExpertAgent` make (read those modules for their rules): the worth of each pair
of cards is :meth:`goldrush_agents.gold.knowledge.Knowledge.pair_value` itself, tabulated per seat, expert's
constants are its module's, and their random choices are drawn as the Python players draw them, from each game's
stream. ``tests/gold/test_batched_agents.py`` plays each in lockstep with its Python player, flip for flip, and
``tests/gold/test_kernel.py`` replays the vector env's episodes against them in the single-game environment.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold import kernel
from goldrush_env.gold.batched import BatchedGames
from goldrush_env.gold.cards import DYNAMITE, EMPTY, IS_GOLD, NUM_CARD_TYPES, NUM_POSITIONS, VALUE
from goldrush_env.gold.encoder import OBSERVATION_SIZE
from goldrush_env.gold.engine import colour_owners
from goldrush_env.gold.vector import BatchedPolicy, BatchedRandom, KernelPlayer
from goldrush_env.gold.view import UNKNOWN, CardKnowledge
from goldrush_env.policy import Policy, SeatView

from goldrush_agents import make_agent
from goldrush_agents.arena import GameResult
from goldrush_agents.gold.compiled import ENGINE, EXPERT, EXPERT_PARAMS, GREEDY
from goldrush_agents.gold.expert import OWN_CHANCE_WEIGHT, TIE_TOLERANCE
from goldrush_agents.gold.knowledge import Knowledge
from goldrush_agents.gold.selfplay import SelfPlayAgent
from goldrush_agents.gold.trained import TrainedPolicy


def worth_tables(num_players: int) -> np.ndarray:
    """``worth[seat, t, a, b]``: :meth:`Knowledge.pair_value` of cards ``a`` and ``b`` for ``seat`` when
    the strongest known miner that does not work for it has strength ``t`` (0: none), so that gold
    worth up to ``t`` is threatened; card id 25 stands for "no card" (worth 0)."""
    size = NUM_CARD_TYPES + 1
    safe, threatened = np.zeros((num_players, size, size)), np.zeros((num_players, size, size))
    for seat in range(num_players):
        knowledge = _knowing_nothing(seat, num_players)
        for a in range(NUM_CARD_TYPES):
            for b in range(NUM_CARD_TYPES):
                knowledge.threatened = lambda gold, exclude=(): False
                safe[seat, a, b] = knowledge.pair_value(a, b)
                knowledge.threatened = lambda gold, exclude=(): True
                threatened[seat, a, b] = knowledge.pair_value(a, b)
    gold_of_pair = np.zeros((size, size), dtype=np.int64)  # the gold of a dynamite-and-gold pair
    for a in range(NUM_CARD_TYPES):
        for b in range(NUM_CARD_TYPES):
            if (a == DYNAMITE) != (b == DYNAMITE) and (IS_GOLD[a] or IS_GOLD[b]):
                gold_of_pair[a, b] = VALUE[b] if IS_GOLD[b] else VALUE[a]
    levels = np.arange(6)[:, None, None]
    hit = (gold_of_pair[None] > 0) & (levels >= gold_of_pair[None])  # (6, 26, 26)
    return np.where(hit[None], threatened[:, None], safe[:, None])


def _knowing_nothing(seat: int, num_players: int) -> Knowledge:
    """The :class:`Knowledge` of ``seat`` at a table of ``num_players`` where it knows no card."""
    view = SeatView(seat, CardKnowledge(
        seat=seat, num_players=num_players, cards=(UNKNOWN,) * NUM_POSITIONS, face_up=None,
        owners=colour_owners(num_players), scores=(0,) * num_players, gold_cards=(0,) * num_players,
        current_player=seat, gold_rush=False, turn=0, max_turns=None, unseen=(0,) * NUM_CARD_TYPES),
        np.zeros(NUM_POSITIONS, np.int8), np.zeros(0, np.float32))
    return Knowledge.of(view)


_COMPENSATED_SUM = sum([1.0, 1e100, 1.0, -1e100]) != 0.0
"""Whether this Python's ``sum()`` of floats compensates its rounding (CPython 3.12 on), as the compiled expert
must then do to add its expectations to the same bits."""


def expert_params(num_players: int) -> list[float]:
    """The compiled expert's constants at a table of ``num_players``, in the order of
    :data:`goldrush_agents.gold.compiled.EXPERT_PARAMS`: those :class:`~goldrush_agents.gold.expert.ExpertAgent`
    plays with."""
    values = {"opponent_weight": _knowing_nothing(0, num_players).opponent_weight,
              "own_chance_weight": OWN_CHANCE_WEIGHT, "tie": TIE_TOLERANCE,
              "compensated_sum": float(_COMPENSATED_SUM)}
    return [values[name] for name in EXPERT_PARAMS]


def compiled_greedy() -> KernelPlayer:
    """``greedy`` for every game of a batch, compiled into the kernel: a
    :class:`goldrush_env.gold.vector.KernelPlayer` reading the worth of each pair from
    :meth:`Knowledge.pair_value` (tabulated by :func:`worth_tables`)."""
    return KernelPlayer("greedy", GREEDY, worth_tables, engine=ENGINE)


def compiled_expert() -> KernelPlayer:
    """``expert`` for every game of a batch, compiled into the kernel: a
    :class:`goldrush_env.gold.vector.KernelPlayer` reading the worth of each pair from :func:`worth_tables`
    and its constants from :func:`expert_params`."""
    return KernelPlayer("expert", EXPERT, worth_tables, params=expert_params, engine=ENGINE)


def batched_policy(spec: str | BatchedPolicy, seed: int | None = None) -> BatchedPolicy:
    """The batched form of an entrant: ``"random"``, ``"greedy"``, ``"expert"``, a trained model (``"taught"``, a
    ``.npz``/``.zip`` file) or any other name or import path ``goldrush_agents.make_agent`` accepts
    (a :class:`BatchedPolicy` is returned as it is).

    Examples:
        >>> from goldrush_env.gold.vector import GoldVectorEnv
        >>> env = GoldVectorEnv(64, opponents={batched_policy("greedy"): 3, batched_policy("expert"): 1})
    """
    if isinstance(spec, BatchedPolicy):
        return spec
    if spec == "random":
        return BatchedRandom()
    if spec == "greedy":
        return compiled_greedy()
    if spec == "expert":
        return compiled_expert()
    policy = make_agent(spec, seed=seed)
    if isinstance(policy, TrainedPolicy):
        return BatchedModel(policy)
    if isinstance(policy, SelfPlayAgent):
        return BatchedSelfPlay(policy)
    return PerGame(policy)


class _Adapter:
    """A single-game policy made batched: its name, its reseeding, and the observation vectors
    of the seats to play in the games it is asked about."""

    def __init__(self, policy: Policy, name: str) -> None:
        self.policy, self.name = policy, name

    def reset(self, seed: int | None = None) -> None:
        self.policy.reset(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.policy!r})"

    def observations(self, games: BatchedGames, rows: np.ndarray) -> np.ndarray:
        """The plain observation vectors of the seats to play in games ``rows``, written by the kernel."""
        out = np.empty((len(rows), OBSERVATION_SIZE), dtype=np.float32)
        with kernel.threads_for(len(rows)):
            kernel.observe(games.state, games.constants, games.current_player[rows].astype(np.int64),
                           rows.astype(np.int64), kernel.OBS_PLAIN, out)
        return out


class BatchedModel(_Adapter):
    """A trained model choosing the flips of all games in one forward pass."""

    def __init__(self, policy: TrainedPolicy) -> None:
        super().__init__(policy, policy.shipped.name if policy.path is None else str(policy.path))

    def act(self, games: BatchedGames, known: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        positions = np.full(games.num_games, -1, dtype=np.int64)
        rows = np.flatnonzero(where & ~games.is_finished)
        if len(rows):
            observations = self.observations(games, rows)
            positions[rows] = self.policy.act_batch(observations, games.legal_mask()[rows])
        return positions


class PerGame(_Adapter):
    """Any single-game policy, asked game by game with the :class:`~goldrush_env.policy.SeatView` of the seat to
    play."""

    def __init__(self, policy: Policy) -> None:
        super().__init__(policy, getattr(policy, "name", repr(policy)))

    def act(self, games: BatchedGames, known: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        positions = np.full(games.num_games, -1, dtype=np.int64)
        rows = np.flatnonzero(where & ~games.is_finished)
        if len(rows):
            for row, view in zip(rows, self.views(games, known, rows)):
                positions[row] = self.policy.act(view)
        return positions

    def views(self, games: BatchedGames, known: np.ndarray, rows: np.ndarray) -> list[SeatView]:
        """The structured views of the seats to play in games ``rows``, as the AEC environment builds them."""
        observations = self.observations(games, rows)
        masks = games.legal_mask()[rows].astype(np.int8)
        owners = tuple(int(owner) for owner in games.owners)
        views = []
        for i, row in enumerate(rows):
            table = games.table[row]
            cards = np.where(table == EMPTY, EMPTY, np.where(known[row], table, UNKNOWN))
            hidden = table[(table >= 0) & ~known[row]]
            face_up = int(games.face_up[row])
            seat = int(games.current_player[row])
            views.append(SeatView(seat, CardKnowledge(
                seat=seat, num_players=games.num_players, cards=tuple(cards.tolist()),
                face_up=None if face_up < 0 else face_up, owners=owners, scores=tuple(games.scores[row].tolist()),
                gold_cards=tuple(games.gold_cards[row].tolist()), current_player=seat,
                gold_rush=bool(games.gold_rush[row]), turn=int(games.turn[row]), max_turns=games.max_turns,
                unseen=tuple(np.bincount(hidden, minlength=NUM_CARD_TYPES).tolist()), rush_at=games.rush_at),
                masks[i], observations[i]))
        return views


class BatchedSelfPlay(PerGame):
    """``selfplay`` choosing the flips of all games at once: one search over every game's public state, the network
    called on all their leaves together (:meth:`goldrush_agents.gold.selfplay.SelfPlayAgent.act_many`)."""

    def act(self, games: BatchedGames, known: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        positions = np.full(games.num_games, -1, dtype=np.int64)
        rows = np.flatnonzero(where & ~games.is_finished)
        if len(rows):
            positions[rows] = self.policy.act_many(self.views(games, known, rows))
        return positions


def batched_mix(opponents: str | BatchedPolicy | dict[str, float]) -> BatchedPolicy | dict[BatchedPolicy, float]:
    """An entrant or a mix ``{entrant: weight}`` with every entrant made by :func:`batched_policy`."""
    if isinstance(opponents, dict):
        return {batched_policy(name): weight for name, weight in opponents.items()}
    return batched_policy(opponents)


def play_fixtures(fixtures: Sequence[Any], num_players: int, seed: int, *, progress: bool = False,
                  **config: Any) -> list[GameResult]:
    """Play every fixture of a tournament (:class:`goldrush_agents.tournament.Fixture`) at once on the batched
    engine, each entrant choosing for all its seats together.

    Tables and start players are those :func:`goldrush_agents.arena.play_game` deals for the same fixtures (from
    each game's seed); the entrants' own random choices come from generators seeded by ``seed`` (the compiled
    players' from each game's stream), so a run
    is reproducible but not flip-for-flip the same as the one-game-at-a-time tournament. Each game
    is replayed through :class:`~goldrush_env.gold.engine.Game` afterwards for its record.
    """
    from gymnasium.utils import seeding

    from goldrush_env.gold.cards import DEFAULT_MAX_TURNS
    from goldrush_env.gold.engine import Game
    from goldrush_env.gold.vector import step_entrants

    unknown = sorted(set(config) - {"memory", "max_turns", "table"})
    if unknown or config.get("memory", "perfect") != "perfect":
        raise GoldrushEnvError(f"a batched tournament plays with perfect memory and takes only max_turns and table, "
                               f"got {config}")
    max_turns = config.get("max_turns", DEFAULT_MAX_TURNS)
    table = config.get("table", "full")
    names = list(dict.fromkeys(name for fixture in fixtures for name in fixture.names))
    policies = [batched_policy(name) for name in names]
    count = len(fixtures)
    layouts = np.empty((count, 64), dtype=np.int8)
    for g, fixture in enumerate(fixtures):  # the deal raw_env.reset(seed=...) makes
        layouts[g] = Game.new(num_players, seeding.np_random(fixture.seed)[0], table=table).table
    games = BatchedGames(count, num_players, max_turns=max_turns, table=table)
    games.reset(seed, layouts=layouts, first_player=np.array([f.first_player for f in fixtures]))
    entrant_of_seat = np.array([[names.index(name) for name in fixture.names] for fixture in fixtures])
    rng = np.random.default_rng(seed)
    for policy, policy_seed in zip(policies, np.random.SeedSequence(seed).spawn(len(policies))):
        if hasattr(policy, "reset"):
            policy.reset(seed=int(policy_seed.generate_state(1)[0]))
    rows, steps = np.arange(count), []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=count, unit="game", desc="tournament (batched)")
    while not games.is_finished.all():
        entrant = entrant_of_seat[rows, games.current_player]
        for flips in step_entrants(games, policies, entrant, ~games.is_finished, rng):
            steps.append(flips.position)
        if bar is not None:
            bar.update(int(games.is_finished.sum()) - bar.n)
    if bar is not None:
        bar.close()
    flips_of = np.stack(steps, axis=1) if steps else np.zeros((count, 0), dtype=np.int64)
    results = []
    for g, fixture in enumerate(fixtures):
        game = Game(num_players, layouts[g].tolist(), first_player=fixture.first_player, max_turns=max_turns,
                    rush_at=games.rush_at)
        for position in flips_of[g][flips_of[g] >= 0]:
            game.step(int(position))
        if list(game.scores) != games.scores[g].tolist():
            raise RuntimeError(f"game {g}: the batched engine and Game disagree on the scores")
        record = game.to_record()
        record.update(players=list(fixture.names), seed=fixture.seed, config=dict(config))
        results.append(GameResult(fixture.names, game.scores, game.gold_cards, game.winners, game.turn,
                                  game.is_truncated, record))
    return results
