"""Training scripts for goldrush-env agents (stable-baselines3 / sb3-contrib)."""
