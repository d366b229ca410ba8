"""Ranking policies fairly: every pairing, every seat, every start player, fixed seeds.

For each pair of entrants X and Y, games are played with X in one seat and Y
in all the others, and the other way round, for every seat and every start
player in turn. With two players that is X-Y and Y-X, each starting half the
games. Every game has its own seed (derived from the tournament seed), so a
run gives the same results whatever the number of worker processes.

Win share counts a shared victory as 1/k of a win for each of k co-winners;
95% confidence intervals are Wilson score intervals. Ratings come from
openskill's Plackett-Luce model, each game ranked by (score, gold cards); an
entrant holding several seats in one game is rated as one player per seat and
its rating moves by the mean of their updates.

In match mode (the rule sheets' recommendation, D6) every block of n games
on one lineup, seat k starting game k, is also scored as a match.

``game="piecepack"`` runs the same schedule for *Gold Rush* on the piecepack
(:mod:`goldrush_agents.piecepack`): 3 or 4 players, the start player set by
the schedule (``Game.new(..., start=)``), ratings ranked by who won (the Food
tie-break included) and then by score; it has no gold cards, match mode or
batched engine.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import multiprocessing
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from goldrush_env.errors import GoldRushError
from goldrush_env.gold.match import match_winners

from goldrush_agents import make_agent
from goldrush_agents.arena import GameResult, play_game


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default). It always holds the observed proportion: at
    0 or 1 the exact end is the proportion, which float rounding would otherwise leave just outside."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


@dataclass(frozen=True)
class Fixture:
    """One scheduled game."""

    names: tuple[str, ...]
    first_player: int
    seed: int
    pairing: tuple[str, str]
    """(X, Y): the entrant alone in its lineup, and the one filling the other seats."""


def schedule(entrants: Sequence[str], num_players: int, games: int, seed: int) -> list[Fixture]:
    """``games`` games for every pairing, spread evenly over the lone entrant's seat and the start player.

    A pairing is X alone against a field of Y; with three or more players both
    X-against-Ys and Y-against-Xs are played. Games come in blocks of
    ``num_players`` on one lineup, seat k starting the k-th (a match, D6).
    """
    if len(set(entrants)) < 2:
        raise GoldRushError(f"a tournament needs at least two different entrants, got {list(entrants)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise GoldRushError(f"games must be an int >= 1, got {games!r}")
    fixtures = []
    pairs = itertools.combinations(dict.fromkeys(entrants), 2)
    directions = [d for a, b in pairs for d in (((a, b), (b, a)) if num_players > 2 else ((a, b),))]
    for pairing, seeds in zip(directions, np.random.SeedSequence(seed).spawn(len(directions))):
        alone, field_ = pairing
        game_seeds = seeds.generate_state(games, dtype=np.uint64) >> np.uint64(1)
        for game in range(games):
            block, first_player = divmod(game, num_players)
            names = [field_] * num_players
            names[block % num_players] = alone
            fixtures.append(Fixture(tuple(names), first_player, int(game_seeds[game]), pairing))
    return fixtures


GAMES = ("gold", "piecepack")
"""The games a tournament can be run on."""


def _agent_maker(game: str) -> Any:
    if game == "piecepack":
        from goldrush_agents.piecepack import make_piecepack_agent

        return make_piecepack_agent
    return make_agent


def _play(job: tuple[Fixture, str, dict[str, Any]]) -> GameResult:
    fixture, game, config = job
    players = [_agent_maker(game)(name) for name in fixture.names]
    if game == "piecepack":
        return _play_piecepack(players, fixture)
    return play_game(players, fixture.seed, first_player=fixture.first_player, names=fixture.names, **config)


def _play_piecepack(players: Sequence[Any], fixture: Fixture) -> GameResult:
    """One Gold Rush game of the schedule; its ``turns`` counts actions, ``gold_cards`` are all 0 (the game has
    none), and the record (docs/piecepack-rules.md §9, which ``Game.from_record`` replays) adds the names and seeds."""
    from goldrush_agents.piecepack import play_piecepack_game

    num_players = len(fixture.names)
    result = play_piecepack_game(players, num_players, fixture.seed, start=fixture.first_player)
    record = dict(result["record"], names=list(fixture.names), seed=fixture.seed, first_player=fixture.first_player)
    return GameResult(fixture.names, tuple(result["scores"]), (0,) * num_players, tuple(result["winners"]),
                      len(record["actions"]), False, record)


@dataclass
class Standing:
    """One entrant's results over the whole tournament."""

    name: str
    games: int = 0
    wins: float = 0.0
    score: float = 0.0
    gold_cards: float = 0.0
    matches: int = 0
    match_wins: float = 0.0
    rating_mu: float = 0.0
    rating_sigma: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def rating(self) -> float:
        """A conservative rating: mu - 3 sigma."""
        return self.rating_mu - 3 * self.rating_sigma


@dataclass
class Pairing:
    """X alone against a field of Y: X's share of the wins against its fair share 1/n."""

    alone: str
    field: str
    games: int = 0
    wins: float = 0.0

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


@dataclass
class TournamentResult:
    entrants: list[str]
    num_players: int
    games_per_pairing: int
    seed: int
    config: dict[str, Any]
    standings: dict[str, Standing]
    pairings: list[Pairing]
    results: list[GameResult] = field(repr=False)
    match_mode: bool = False
    game: str = "gold"

    def table(self) -> str:
        """The standings as a text table, best rating first, then the pairings."""
        gold = self.game == "gold"
        lines = [f"{'agent':<28} {'games':>6} {'win rate':>9} {'95% CI':>15} {'score':>6} "
                 + (f"{'gold':>5} " if gold else "") + f"{'rating':>7}"
                 + (f" {'match wins':>10}" if self.match_mode else "")]
        for s in sorted(self.standings.values(), key=lambda s: -s.rating):
            low, high = s.interval
            line = (f"{s.name:<28} {s.games:>6} {s.win_rate:>9.3f} {f'[{low:.3f}, {high:.3f}]':>15} "
                    f"{s.score / max(s.games, 1):>6.{1 if gold else 2}f} "
                    + (f"{s.gold_cards / max(s.games, 1):>5.1f} " if gold else "") + f"{s.rating:>7.2f}")
            if self.match_mode:
                line += f" {s.match_wins / max(s.matches, 1):>10.3f}"
            lines.append(line)
        fair = 1 / self.num_players
        lines += ["", f"pairings ({self.num_players} players: one seat against the rest; fair share {fair:.3f})"]
        for p in self.pairings:
            low, high = p.interval
            verdict = "above" if low > fair else "below" if high < fair else "not significant"
            lines.append(f"  {p.alone:>14} vs {p.field:<14} {p.games:>6} games  win share {p.win_share:.3f} "
                         f"[{low:.3f}, {high:.3f}]  {verdict}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "entrants": self.entrants, "num_players": self.num_players, "seed": self.seed,
            "games_per_pairing": self.games_per_pairing, "config": self.config, "match_mode": self.match_mode,
            "standings": [{**asdict(s), "win_rate": s.win_rate, "ci95": s.interval, "rating": s.rating}
                          for s in self.standings.values()],
            "pairings": [{**asdict(p), "win_share": p.win_share, "ci95": p.interval} for p in self.pairings],
        }

    def save(self, folder: str | Path, records: bool = False) -> list[Path]:
        """Write results.json, standings.csv, games.csv and chart.png into ``folder``; with ``records``, also
        each game's record, ``games/game-00001.json`` for the first row of games.csv and so on: the JSON that
        ``goldrush replay`` (and, for Gold, the Replay tab of ``goldrush serve``) reads."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        paths = [folder / "results.json", folder / "standings.csv", folder / "games.csv", folder / "chart.png"]
        if records:
            games = folder / "games"
            games.mkdir(exist_ok=True)
            for index, result in enumerate(self.results, start=1):
                (games / f"game-{index:05d}.json").write_text(json.dumps(result.record))
            paths.append(games)
        paths[0].write_text(json.dumps(self.to_json(), indent=2))
        with open(paths[1], "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["agent", "games", "wins", "win_rate", "ci_low", "ci_high", "mean_score",
                             "mean_gold_cards", "rating"])
            for s in self.standings.values():
                writer.writerow([s.name, s.games, s.wins, s.win_rate, *s.interval, s.score / max(s.games, 1),
                                 s.gold_cards / max(s.games, 1), s.rating])
        with open(paths[2], "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["seed", "first_player", "players", "scores", "gold_cards", "winners", "turns",
                             "truncated"])
            for r in self.results:
                writer.writerow([r.record["seed"], r.record["first_player"], " ".join(r.names),
                                 " ".join(map(str, r.scores)), " ".join(map(str, r.gold_cards)),
                                 " ".join(map(str, r.winners)), r.turns, r.truncated])
        self.chart(paths[3])
        return paths

    def chart(self, path: str | Path) -> None:
        """A bar chart of each pairing's win share with its 95% CI and the fair share."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        labels = [f"{p.alone}\nvs {p.field}" for p in self.pairings]
        shares = [p.win_share for p in self.pairings]
        errors = np.array([[p.win_share - p.interval[0], p.interval[1] - p.win_share] for p in self.pairings]).T
        figure, axes = plt.subplots(figsize=(max(4, 1.6 * len(labels)), 3.6))
        axes.bar(labels, shares, yerr=errors, capsize=4, color="#d8a62a")
        axes.axhline(1 / self.num_players, color="black", linestyle="--", linewidth=1, label="fair share")
        axes.set_ylim(0, 1)
        axes.set_ylabel("win share")
        title = "Gold" if self.game == "gold" else "Gold Rush (piecepack)"
        axes.set_title(f"{title}, {self.num_players} players, {self.games_per_pairing} games per pairing")
        axes.legend(loc="upper right")
        figure.tight_layout()
        figure.savefig(path, dpi=100)
        plt.close(figure)


def run_tournament(entrants: Sequence[str], num_players: int = 2, games: int = 200, seed: int = 0,
                   workers: int | None = None, match_mode: bool = False, progress: bool = False,
                   batched: bool = False, game: str = "gold", **config: Any) -> TournamentResult:
    """Play the tournament (in parallel on ``workers`` processes, default: all cores) and rank the entrants.

    ``entrants`` are agent names or ``"module:Class"`` paths (see :func:`goldrush_agents.make_agent`);
    ``config`` takes the environment's options (``memory``, ``max_turns``, ...).

    ``game="piecepack"`` plays Gold Rush on the piecepack instead: entrants are the names (or ``.npz``
    models) of :func:`goldrush_agents.piecepack.make_piecepack_agent`, ``num_players`` is 3 or 4, and
    ``config``, ``match_mode`` and ``batched`` are refused.

    ``batched=True`` plays all games at once on the batched engine in this
    process (:func:`play_batched`): the same deals and start players, every
    game still recorded and replayable, much faster for ``random``,
    ``greedy`` and trained models; perfect memory only.
    """
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise GoldRushError(f"workers must be None (all cores) or an int >= 1, got {workers!r}")
    if game not in GAMES:
        raise GoldRushError(f"game must be one of {list(GAMES)}, got {game!r}")
    if game == "piecepack":
        from goldrush_env.piecepack.components import MAX_PLAYERS, MIN_PLAYERS

        if isinstance(num_players, bool) or num_players not in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            raise GoldRushError(f"the piecepack game takes {MIN_PLAYERS} or {MAX_PLAYERS} players, got "
                                f"{num_players!r}")
        given = sorted(config) + ["match_mode"] * bool(match_mode) + ["batched"] * bool(batched)
        if given:
            raise GoldRushError(f"{given} belong to the game of Gold; leave them out with game='piecepack'")
    for name in dict.fromkeys(entrants):
        _agent_maker(game)(name)  # refuse an unknown entrant before starting any work
    fixtures = schedule(entrants, num_players, games, seed)
    if batched:
        results = play_batched(fixtures, num_players, seed, progress=progress, **config)
        return _rank(list(dict.fromkeys(entrants)), num_players, games, seed, config, fixtures, results, match_mode)
    jobs = [(fixture, game, config) for fixture in fixtures]
    workers = workers or os.cpu_count() or 1
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(jobs), unit="game", desc="tournament")
    results = []
    if workers == 1:
        for job in jobs:
            results.append(_play(job))
            bar and bar.update()
    else:
        context = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
        with context.Pool(workers) as pool:
            for result in pool.imap(_play, jobs, chunksize=max(1, len(jobs) // (workers * 20))):
                results.append(result)
                bar and bar.update()
    if bar is not None:
        bar.close()
    return _rank(list(dict.fromkeys(entrants)), num_players, games, seed, config, fixtures, results, match_mode,
                 game)


def play_batched(fixtures: Sequence[Fixture], num_players: int, seed: int, *, progress: bool = False,
                 **config: Any) -> list[GameResult]:
    """Play every fixture at once on the batched engine, each entrant choosing for all its seats together.

    Tables and start players are those :func:`_play` deals for the same fixtures (from each game's
    seed); the entrants' own random choices come from one generator seeded by ``seed``, so a run
    is reproducible but not flip-for-flip the same as the one-game-at-a-time tournament. Each game
    is replayed through :class:`~goldrush_env.gold.engine.Game` afterwards for its record.
    """
    from gymnasium.utils import seeding

    from goldrush_env.gold.batched import BatchedGames
    from goldrush_env.gold.cards import DEFAULT_MAX_TURNS
    from goldrush_env.gold.engine import Game
    from goldrush_env.gold.vector import step_entrants

    from goldrush_agents.batched import batched_policy

    unknown = sorted(set(config) - {"memory", "max_turns", "table"})
    if unknown or config.get("memory", "perfect") != "perfect":
        raise GoldRushError(f"a batched tournament plays with perfect memory and takes only max_turns and table, "
                            f"got {config}")
    max_turns = config.get("max_turns", DEFAULT_MAX_TURNS)
    table = config.get("table", "full")
    names = list(dict.fromkeys(name for fixture in fixtures for name in fixture.names))
    policies = [batched_policy(name) for name in names]
    count = len(fixtures)
    layouts = np.empty((count, 64), dtype=np.int8)
    for g, fixture in enumerate(fixtures):  # the deal raw_env.reset(seed=...) makes
        layouts[g] = Game.shuffled(num_players, seeding.np_random(fixture.seed)[0], table=table).table
    games = BatchedGames(count, num_players, max_turns=max_turns, table=table)
    games.reset(layouts=layouts, first_player=np.array([f.first_player for f in fixtures]))
    entrant_of_seat = np.array([[names.index(name) for name in fixture.names] for fixture in fixtures])
    known = np.zeros((count, 64), dtype=bool)
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
        for flips in step_entrants(games, policies, entrant, ~games.is_finished, known & (games.table >= 0), rng):
            flipped = np.flatnonzero(flips.outcome >= 0)
            known[flipped, flips.position[flipped]] = True
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
            game.flip(int(position))
        if list(game.scores) != games.scores[g].tolist():
            raise RuntimeError(f"game {g}: the batched engine and Game disagree on the scores")
        record = game.to_dict()
        record.update(players=list(fixture.names), seed=fixture.seed, config=dict(config),
                      events=[event.label for event in game.history])
        results.append(GameResult(fixture.names, game.scores, game.gold_cards, game.winners, game.turn,
                                  game.is_truncated, record))
    return results


def _rank(entrants: list[str], num_players: int, games: int, seed: int, config: dict[str, Any],
          fixtures: list[Fixture], results: list[GameResult], match_mode: bool,
          game: str = "gold") -> TournamentResult:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in entrants}
    standings = {name: Standing(name) for name in entrants}
    pairings: dict[tuple[str, str], Pairing] = {}
    for fixture, result in zip(fixtures, results):
        for seat, name in enumerate(result.names):
            standing = standings[name]
            standing.games += 1
            standing.score += result.scores[seat]
            standing.gold_cards += result.gold_cards[seat]
            if seat in result.winners:
                standing.wins += 1 / len(result.winners)
        alone, field_ = fixture.pairing
        pairing = pairings.setdefault(fixture.pairing, Pairing(alone, field_))
        pairing.games += 1
        if result.names.index(alone) in result.winners:  # the lone entrant holds exactly one seat
            pairing.wins += 1 / len(result.winners)
        # Rank seats by (won, score, gold cards): 0 is best, ties share a rank. In Gold the winners are the best
        # scores anyway; in the piecepack game a tie on score is broken by Food, which only `winners` knows.
        keys = [(seat in result.winners, *key) for seat, key in enumerate(zip(result.scores, result.gold_cards))]
        ranks = [sum(other > key for other in keys) for key in keys]
        teams = [[model.rating(mu=ratings[n].mu, sigma=ratings[n].sigma, name=n)] for n in result.names]
        updated = model.rate(teams, ranks=ranks)
        for name in set(result.names):
            seats = [s for s, n in enumerate(result.names) if n == name]
            ratings[name].mu = float(np.mean([updated[s][0].mu for s in seats]))
            ratings[name].sigma = float(np.mean([updated[s][0].sigma for s in seats]))
    for name, rating in ratings.items():
        standings[name].rating_mu, standings[name].rating_sigma = rating.mu, rating.sigma
    if match_mode:
        for start in range(0, len(results) - num_players + 1, num_players):
            block = results[start:start + num_players]
            if len({r.names for r in block}) != 1:
                continue
            winners = match_winners([r.scores for r in block])
            for seat, name in enumerate(block[0].names):
                standings[name].matches += 1
                if seat in winners:
                    standings[name].match_wins += 1 / len(winners)
    return TournamentResult(entrants, num_players, games, seed, config, standings, list(pairings.values()),
                            results, match_mode, game)
