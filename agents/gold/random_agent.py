"""``random``: a uniformly random legal flip (the bottom of the ladder)."""

from goldrush_env.policy import RandomPolicy


class RandomAgent(RandomPolicy):
    name = "random"
