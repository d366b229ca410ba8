"""Playing whole games between policies, seat by seat, each seeing only its own view, in any game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.games import DEFAULT_GAME, spec
from goldrush_env.policy import Policy


@dataclass(frozen=True)
class GameResult:
    """The outcome of one game, with a record that replays it exactly."""

    names: tuple[str, ...]
    """Who sat where."""
    scores: tuple[int, ...]
    tiebreak: tuple[int, ...]
    """What breaks a tie of scores, per seat (Gold: gold cards; the piecepack game: Food)."""
    winners: tuple[int, ...]
    turns: int
    truncated: bool
    record: dict[str, Any] = field(repr=False)
    """The game's record (``Game.to_record()``) plus the game's name, who played, the seed and the environment's
    options."""


def play_game(players: Sequence[Policy], seed: int, *, game: str = DEFAULT_GAME, first_player: int | None = None,
              names: Sequence[str] | None = None, **config: Any) -> GameResult:
    """One game of ``game``: ``players[s]`` plays seat ``s``; ``seed`` deals the game and seeds every player.

    ``first_player`` seats the player who starts (None: as the game's rules have it; the deal is the same either
    way); ``config`` takes the environment's options (Gold's memory model, turn limit, table...).
    """
    rules = spec(game)
    rules.check_players(len(players), "the number of players")
    names = tuple(names or (getattr(p, "name", type(p).__name__) for p in players))
    env = rules.raw_env(num_players=len(players), **config)
    env.reset(seed=seed, options=None if first_player is None else {"first_player": first_player})
    player_seeds = np.random.SeedSequence(seed).spawn(len(players))
    for player, player_seed in zip(players, player_seeds):
        player.reset(seed=int(player_seed.generate_state(1)[0]))
    state = env.game
    while not state.is_finished:
        seat = state.current_player
        action = players[seat].act(env.view(seat))
        try:
            env.step_from_view(action)
        except GoldrushEnvError as error:
            raise type(error)(f"{names[seat]} (seat {seat}) made an illegal move: {error}") from None
    record = state.to_record()
    record.update({"game": rules.name, rules.record_names: list(names), "seed": seed, "config": dict(config)})
    if first_player is not None:
        record.setdefault("first_player", first_player)
    result = state.result()
    return GameResult(names, result.scores, result.tiebreak, result.winners, state.turn, state.is_truncated, record)


__all__ = ["GameResult", "play_game"]
