"""Gold's training: its scripts (``python -m goldrush_train.gold.NAME``) over a library of its own, and the library
every game shares (:mod:`goldrush_train`).

Scripts: ``scratch`` (the main job: PPO with no teacher), ``ppo`` (MaskablePPO with a warm start, a curriculum and a
league), ``recipe`` (the shipped 2-player model), ``sizes`` (the models for 3 to 5 players), ``selfplay`` (a
value network and search, from its own games alone), ``imitation`` (a teacher's decisions, collected),
``holdout`` (the warm start scored on games it never saw), ``curves`` (the learning curves of several runs in one
picture).

Library: ``network`` (GoldNet and its SB3 policy), ``decisions`` (data sets of a teacher's decisions, and the fit
to them), ``opponents`` (the curriculum and the league), ``vec_env`` (SB3's view of the batched vector env).

The scripts that run a stock library or a tutorial on Gold (SB3, CleanRL, Tianshou, TorchRL, Ray RLlib, OpenSpiel,
PettingZoo's and SB3's tutorials) are not part of the package: they are in the repository's ``examples/`` folder,
each run as ``python examples/NAME.py``.
"""
