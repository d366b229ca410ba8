"""Match play, as the rule sheets recommend (D6).

A match is as many games as there are players, seat k starting game k; the
highest total wins. Seats level on total are separated by their score in the
last game; seats still level share the match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from goldrush_env.checks import check_int
from goldrush_env.gold.cards import MAX_PLAYERS, MIN_PLAYERS
from goldrush_env.gold.engine import Game
from goldrush_env.errors import GoldrushEnvError

Chooser = Callable[[Game], int]
"""Picks the position to flip in a live game. It sees the whole ``Game``, hidden
cards included, and is trusted to use only what its seat may know (the
``agents`` package wraps proper players into this shape)."""


def match_winners(game_scores: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The winning seats of a match, from each game's scores per seat, in play order (D6)."""
    if not game_scores:
        raise GoldrushEnvError("a match needs at least one game's scores, got none")
    num_seats = len(game_scores[0])
    if any(len(scores) != num_seats for scores in game_scores):
        raise GoldrushEnvError(f"every game of a match needs {num_seats} scores, got {[len(s) for s in game_scores]}")
    totals = [sum(scores[seat] for scores in game_scores) for seat in range(num_seats)]
    last = game_scores[-1]
    best = max((totals[seat], last[seat]) for seat in range(num_seats))
    return tuple(seat for seat in range(num_seats) if (totals[seat], last[seat]) == best)


@dataclass(frozen=True)
class MatchResult:
    """The games of a match and who won it."""

    games: tuple[Game, ...]
    """The finished games, in play order (game k started by seat k mod n)."""

    @property
    def game_scores(self) -> tuple[tuple[int, ...], ...]:
        return tuple(game.scores for game in self.games)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(column) for column in zip(*self.game_scores))

    @property
    def winners(self) -> tuple[int, ...]:
        return match_winners(self.game_scores)


def play_match(num_players: int, players: Sequence[Chooser], seed: int | np.random.Generator | None = None, *,
               num_games: int | None = None, max_turns: int | None = None) -> MatchResult:
    """Play a match: ``num_games`` (default ``num_players``) games on tables
    shuffled from ``seed``, game k started by seat ``k % num_players``.

    ``players[s]`` chooses the flips of seat ``s``. A game stopped by the turn
    limit counts with its scores so far.
    """
    check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
    if len(players) != num_players:
        raise GoldrushEnvError(f"a {num_players}-player match needs {num_players} players, got {len(players)}")
    num_games = check_int("num_games", num_players if num_games is None else num_games, 1)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    games = []
    for k in range(num_games):
        game = Game.new(num_players, rng, first_player=k % num_players, max_turns=max_turns)
        while not game.is_finished:
            game.step(players[game.current_player](game))
        games.append(game)
    return MatchResult(tuple(games))
