"""Gold's training: its scripts (``python -m goldrush_train.gold.NAME``) over a library of its own, and the library
every game shares (:mod:`goldrush_train`).

Scripts: ``scratch`` (the main job: PPO with no teacher), ``ppo`` (MaskablePPO with a warm start, a curriculum and a
league), ``recipe`` (the shipped 2-player model), ``sizes`` (the models for 3 to 5 players), ``selfplay`` (a
value network and search, from its own games alone), ``imitation`` (a teacher's decisions, collected),
``holdout`` (the warm start scored on games it never saw), ``rllib_ppo`` (Ray RLlib's PPO in self-play),
``sb3_stock``, ``cleanrl_stock``, ``tianshou_stock``, ``torchrl_stock`` (each library's stock setup),
``pettingzoo_tutorial``, ``gymnasium_tutorial`` (PettingZoo's SB3 tutorial and SB3's quick start, as they stand),
``openspiel_learner`` (OpenSpiel's own NFSP, DQN or A2C in self-play on the quarter table, measured against the
greedy player), ``curves`` (the learning curves of several runs in one picture).

Library: ``network`` (GoldNet and its SB3 policy), ``decisions`` (data sets of a teacher's decisions, and the fit
to them), ``opponents`` (the curriculum and the league), ``vec_env`` (SB3's view of the batched vector env),
``stock_harness`` (the options, evaluations and outputs of the stock runs, and PettingZoo's SB3 tutorial's
wrapper).
"""
