"""Ranking policies fairly: every pairing, every seat, every start player, fixed seeds.

For each pair of entrants X and Y, games are played with X in one seat and Y
in all the others, and the other way round, for every seat and every start
player in turn. With two players that is X-Y and Y-X, each starting half the
games. Every game has its own seed (derived from the tournament seed), so a
run gives the same results whatever the number of worker processes.

Win share counts a shared victory as 1/k of a win for each of k co-winners;
95% confidence intervals are Wilson score intervals. Ratings count duels:
in every game, each two seats held by *different* entrants are one duel,
won by the seat ranked higher by (won, score, the game's tie-break), equal
ranks a draw. An entrant's seats are never compared with each other, so
holding three seats of four neither helps nor hurts it. The ratings are the
Bradley-Terry fit to all the duels at once (:func:`duel_ratings`), on the Elo
scale with mean 0, so they do not depend on the order the games were played.

In match mode (for a game whose rules score matches, as Gold's D6 does)
every block of n games on one lineup, seat k starting game k, is also scored
as a match.

Any game of the registry (:mod:`goldrush_env.games`) runs the same way: its
players by name (:func:`goldrush_agents.make_agent`), its environment's
options, its tie-break (Gold's gold cards, the piecepack's Food) in the
ratings and the tables; ``batched=True`` where the game's players can play
many games at once (Gold's batched engine).
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

from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.games import DEFAULT_GAME, GameSpec, spec

from goldrush_agents import make_agent, players_of
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
        raise GoldrushEnvError(f"a tournament needs at least two different entrants, got {list(entrants)}")
    games = check_int("games", games, 1)
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


def _play(job: tuple[Fixture, str, dict[str, Any]]) -> GameResult:
    fixture, game, config = job
    players = [make_agent(name, game=game) for name in fixture.names]
    return play_game(players, fixture.seed, game=game, first_player=fixture.first_player, names=fixture.names,
                     **config)


@dataclass
class Standing:
    """One entrant's results over the whole tournament."""

    name: str
    games: int = 0
    wins: float = 0.0
    score: float = 0.0
    tiebreak: float = 0.0
    """The sum of the game's tie-break over the games (Gold's gold cards, the piecepack's Food)."""
    matches: int = 0
    match_wins: float = 0.0
    rating: float = 0.0
    """Elo scale, the entrants' mean 0 (:func:`duel_ratings`): 200 points apart, the higher wins 76% of duels."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


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
    game: str = DEFAULT_GAME

    @property
    def spec(self) -> GameSpec:
        return spec(self.game)

    @property
    def tiebreak(self) -> str:
        """The name of the game's tie-break as a column (``tiebreak`` for a game that names none)."""
        return self.spec.tiebreak or "tiebreak"

    def table(self) -> str:
        """The standings as a text table, best rating first, then the pairings."""
        tiebreak = self.tiebreak.split("_")[0]
        lines = [f"{'agent':<28} {'games':>6} {'win rate':>9} {'95% CI':>15} {'score':>6} {tiebreak:>5} "
                 f"{'rating':>7}" + (f" {'match wins':>10}" if self.match_mode else "")]
        for s in sorted(self.standings.values(), key=lambda s: -s.rating):
            low, high = s.interval
            line = (f"{s.name:<28} {s.games:>6} {s.win_rate:>9.3f} {f'[{low:.3f}, {high:.3f}]':>15} "
                    f"{s.score / max(s.games, 1):>6.2f} {s.tiebreak / max(s.games, 1):>5.1f} {s.rating:>7.0f}")
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

    def _standing_json(self, standing: Standing) -> dict[str, Any]:
        """A standing as results.json has it: the tie-break under the game's name for it (``gold_cards``)."""
        data = asdict(standing)
        data[self.tiebreak] = data.pop("tiebreak")
        return {**data, "win_rate": standing.win_rate, "ci95": standing.interval}

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "entrants": self.entrants, "num_players": self.num_players, "seed": self.seed,
            "games_per_pairing": self.games_per_pairing, "config": self.config, "match_mode": self.match_mode,
            "standings": [self._standing_json(s) for s in self.standings.values()],
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
                             f"mean_{self.tiebreak}", "rating"])
            for s in self.standings.values():
                writer.writerow([s.name, s.games, s.wins, s.win_rate, *s.interval, s.score / max(s.games, 1),
                                 s.tiebreak / max(s.games, 1), s.rating])
        with open(paths[2], "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["seed", "first_player", "players", "scores", self.tiebreak, "winners", "turns",
                             "truncated"])
            for r in self.results:
                writer.writerow([r.record["seed"], r.record["first_player"], " ".join(r.names),
                                 " ".join(map(str, r.scores)), " ".join(map(str, r.tiebreak)),
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
        axes.set_title(f"{self.spec.title}, {self.num_players} players, {self.games_per_pairing} games per pairing")
        axes.legend(loc="upper right")
        figure.tight_layout()
        figure.savefig(path, dpi=100)
        plt.close(figure)


def run_tournament(entrants: Sequence[str], num_players: int = 2, games: int = 200, seed: int = 0,
                   workers: int | None = None, match_mode: bool = False, progress: bool = False,
                   batched: bool = False, game: str = DEFAULT_GAME, **config: Any) -> TournamentResult:
    """Play the tournament of ``game`` (in parallel on ``workers`` processes, default: all cores) and rank the
    entrants.

    ``entrants`` are the game's players by name, model files or ``"module:Class"`` paths (see
    :func:`goldrush_agents.make_agent`); ``config`` takes the game's environment options (Gold's ``memory``,
    ``max_turns``, ...).

    ``match_mode`` also scores matches, for a game whose rules have them (Gold's D6). ``batched=True``, for a
    game whose players can play many games at once (their ``play_batched``: Gold's), plays all
    games at once in this process: the same deals and start players, every game still recorded and
    replayable, much faster for ``random``, ``greedy`` and trained models.
    """
    workers = check_int("workers", workers, 1, none="all cores")
    rules = spec(game)
    rules.check_players(num_players)
    if match_mode and not rules.match:
        raise GoldrushEnvError(f"match_mode: {rules.title} has no rule for matches of several games")
    play_many = players_of(game).play_batched
    if batched and play_many is None:
        raise GoldrushEnvError(f"batched: the players of {rules.title} cannot play many games at once")
    for name in dict.fromkeys(entrants):
        make_agent(name, game=game)  # refuse an unknown entrant before starting any work
    if config:
        rules.raw_env(num_players=num_players, **config)  # refuse an unknown option the same way
    fixtures = schedule(entrants, num_players, games, seed)
    entrants = list(dict.fromkeys(entrants))
    if batched:
        results = play_many(fixtures, num_players, seed, progress=progress, **config)
        return _rank(entrants, num_players, games, seed, config, fixtures, results, match_mode, game)
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
    return _rank(entrants, num_players, games, seed, config, fixtures, results, match_mode, game)


def duels(result: GameResult) -> list[tuple[str, str, float]]:
    """The duels of one game: ``(a, b, score of a)`` for every two seats held by different entrants, 1 if ``a``'s
    seat ranks above ``b``'s by (won, score, tie-break), 0.5 if they rank equal, 0 if below."""
    keys = [(seat in result.winners, *key) for seat, key in enumerate(zip(result.scores, result.tiebreak))]
    names = result.names
    return [(names[i], names[j], 1.0 if keys[i] > keys[j] else 0.5 if keys[i] == keys[j] else 0.0)
            for i, j in itertools.combinations(range(len(names)), 2) if names[i] != names[j]]


def duel_ratings(results: Sequence[GameResult], entrants: Sequence[str], prior: float = 1.0) -> dict[str, float]:
    """Ratings of ``entrants`` fitted to the duels of ``results`` (:func:`duels`) at once: the Bradley-Terry
    strengths of maximum likelihood, found by Hunter's (2004) minorization-maximization iteration, on the Elo scale
    (``400 log10``) with mean 0. ``prior`` draws are added to every two entrants that met, so that an entrant who
    won (or lost) every duel still gets a finite rating."""
    index = {name: i for i, name in enumerate(entrants)}
    n = len(entrants)
    won = np.zeros((n, n))
    for result in results:
        for a, b, score in duels(result):
            won[index[a], index[b]] += score
            won[index[b], index[a]] += 1.0 - score
    met = (won + won.T) > 0
    won += met * prior / 2
    played = won + won.T
    total = won.sum(axis=1)
    strength = np.ones(n)
    for _ in range(10_000):
        previous = strength
        denominator = (played / (strength[:, None] + strength[None, :])).sum(axis=1)
        strength = np.where(denominator > 0, total / np.where(denominator > 0, denominator, 1.0), 1.0)
        strength /= np.exp(np.log(strength).mean())
        if np.abs(np.log(strength / previous)).max() < 1e-12:
            break
    rating = 400 * np.log10(strength)
    return {name: float(rating[i]) for name, i in index.items()}


def _rank(entrants: list[str], num_players: int, games: int, seed: int, config: dict[str, Any],
          fixtures: list[Fixture], results: list[GameResult], match_mode: bool, game: str) -> TournamentResult:
    standings = {name: Standing(name) for name in entrants}
    pairings: dict[tuple[str, str], Pairing] = {}
    for fixture, result in zip(fixtures, results):
        for seat, name in enumerate(result.names):
            standing = standings[name]
            standing.games += 1
            standing.score += result.scores[seat]
            standing.tiebreak += result.tiebreak[seat]
            if seat in result.winners:
                standing.wins += 1 / len(result.winners)
        alone, field_ = fixture.pairing
        pairing = pairings.setdefault(fixture.pairing, Pairing(alone, field_))
        pairing.games += 1
        if result.names.index(alone) in result.winners:  # the lone entrant holds exactly one seat
            pairing.wins += 1 / len(result.winners)
    for name, rating in duel_ratings(results, entrants).items():
        standings[name].rating = rating
    if match_mode:
        match_winners = spec(game).load("match")
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
