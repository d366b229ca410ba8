"""*Gold*, Reiner Knizia's memory game for 2 to 5 players (rules: docs/rules.md, decisions D1-D9).

The rules alone are :class:`goldrush_env.gold.engine.Game` (with :mod:`~goldrush_env.gold.cards`, the box);
``goldrush_env.gold.env()`` is the PettingZoo AEC environment (:mod:`~goldrush_env.gold.aec`), with per-seat
memory (:mod:`~goldrush_env.gold.memory`), views (:mod:`~goldrush_env.gold.view`) and observation vectors
(:mod:`~goldrush_env.gold.encoder`); :class:`~goldrush_env.gold.gym_env.GoldEnv` the Gymnasium one;
:mod:`~goldrush_env.gold.batched` and :mod:`~goldrush_env.gold.vector` play many games at once. Importing
this package loads none of them: the names below are fetched on first use.
"""

from importlib import import_module

from goldrush_env.games import GameSpec, RetiredId

_V0 = {"action": "positions", "observation": "plain", "reward": "win"}
"""The defaults of version 0, which version 1 changed."""
_CHANGED = ("has other defaults: action='kinds', observation='kinds' and reward='score' (and seat='random' for "
            "one learner)")
_RETIRED = (
    RetiredId("goldrush_env/gold-v0", "pettingzoo", "goldrush_env/gold-v1", _CHANGED, _V0),
    *(RetiredId(f"GoldRush{size}-v0", "gymnasium", f"Gold{size}-v1", _CHANGED, {**_V0, "seat": 0})
      for size in ("", "Half", "Quarter")),
)

GAME = GameSpec(
    name="gold", title="Gold", min_players=2, max_players=5, default_players=2,
    rules="goldrush_env.gold.engine:Game",
    aec="goldrush_env.gold.aec:env", raw_aec="goldrush_env.gold.aec:raw_env",
    gym="goldrush_env.gold.gym_env:GoldEnv", vector="goldrush_env.gold.vector:GoldVectorEnv",
    pettingzoo_id="goldrush_env/gold-v1",
    gym_ids={"Gold-v1": {}, "GoldHalf-v1": {"table": "half"}, "GoldQuarter-v1": {"table": "quarter"}},
    retired_ids=_RETIRED,
    action_text="goldrush_env.gold.render:action_text", is_record="goldrush_env.gold.engine:is_record",
    record_names="players",
    tiebreak="gold_cards", match="goldrush_env.gold.match:match_winners",
    chance="goldrush_env.gold.chance:GoldChance",
)
"""Gold in the registry of games (:mod:`goldrush_env.games`; pyproject.toml declares it)."""

_LAZY = {
    "env": "aec", "raw_env": "aec", "Game": "engine", "FlipEvent": "engine", "Outcome": "engine",
    "EnvConfig": "config", "GoldEnv": "gym_env", "GoldVectorEnv": "vector", "BatchedGames": "batched",
    "CardKnowledge": "view",
}

__all__ = ["GAME", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(f"goldrush_env.gold.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'goldrush_env.gold' has no attribute {name!r}")
