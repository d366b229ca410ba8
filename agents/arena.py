"""Playing whole games between policies, seat by seat, each seeing only its own view."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from goldrush_env.gold.aec import raw_env
from goldrush_env.errors import IllegalFlipError
from goldrush_env.policy import Policy


@dataclass(frozen=True)
class GameResult:
    """The outcome of one game, with a record that replays it exactly."""

    names: tuple[str, ...]
    """Who sat where."""
    scores: tuple[int, ...]
    gold_cards: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int
    truncated: bool
    record: dict[str, Any] = field(repr=False)
    """The game as plain data (:meth:`goldrush_env.gold.engine.Game.to_dict`) plus the players and seeds."""


def play_game(players: Sequence[Policy], seed: int, *, first_player: int = 0, names: Sequence[str] | None = None,
              **config: Any) -> GameResult:
    """One game: ``players[s]`` plays seat ``s``; ``seed`` deals the table and seeds every player.

    ``config`` takes the environment's options (memory model, turn limit...).
    """
    names = tuple(names or (getattr(p, "name", type(p).__name__) for p in players))
    env = raw_env(num_players=len(players), **config)
    env.reset(seed=seed, options={"first_player": first_player})
    player_seeds = np.random.SeedSequence(seed).spawn(len(players))
    for player, player_seed in zip(players, player_seeds):
        player.reset(seed=int(player_seed.generate_state(1)[0]))
    game = env.game
    while not game.is_finished:
        seat = game.current_player
        position = players[seat].act(env.view(seat))
        try:
            env.step(position)
        except IllegalFlipError as error:
            raise IllegalFlipError(f"{names[seat]} (seat {seat}) made an illegal flip: {error}") from None
    record = game.to_dict()
    record.update(players=list(names), seed=seed, config=dict(config),
                  events=[event.label for event in game.history])
    return GameResult(names, game.scores, game.gold_cards, game.winners, game.turn, game.is_truncated, record)
