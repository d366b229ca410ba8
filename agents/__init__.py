"""Scripted players for goldrush-env (random to strong). Depends on goldrush_env, never the reverse."""
