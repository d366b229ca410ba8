"""Kuhn poker for goldrush-env: a deck of Jack, Queen and King; each player antes one chip and is dealt one card
face down; then a round of betting (pass or bet one chip) decides who folds or whose card is higher."""

from goldrush_env.games import GameSpec

GAME = GameSpec(
    name="kuhn", title="Kuhn poker", min_players=2, max_players=2, default_players=2,
    rules="kuhn_poker.rules:Kuhn", observe="kuhn_poker.rules:observe", text="kuhn_poker.rules:to_text",
    action_text="kuhn_poker.rules:action_text", gym_ids={"KuhnPoker-v0": {}},
    chance="kuhn_poker.chance:KuhnChance", public_actions=True,
)
