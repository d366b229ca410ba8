"""Nim for goldrush-env: three heaps of 3, 4 and 5 stones; a turn takes stones from one heap, and whoever takes
the last stone wins. Everything is public and nothing is left to chance but who starts."""

from goldrush_env.games import GameSpec

GAME = GameSpec(
    name="nim", title="Nim", min_players=2, max_players=3, default_players=2,
    rules="nim_game.rules:Nim", observe="nim_game.rules:observe", text="nim_game.rules:to_text",
    action_text="nim_game.rules:action_text", gym_ids={"Nim-v0": {}},
)
