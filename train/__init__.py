"""Training and evaluation for goldrush-env: a folder per game over what every game shares.

A game's own scripts and the library they share live in the game's folder, named as the game is in the registry
(``goldrush_train.gold``, ``goldrush_train.piecepack``); here at the top is only what serves every game. A script
runs as ``python -m goldrush_train.NAME`` (``goldrush_train.GAME.NAME`` for a game's own); a library module is
only imported. No script imports another, and no module here names a game.

Scripts: ``evaluate`` (any model or player of any game against scripted players).

Library: ``cli`` (argument checks, run folders, progress lines, missing-extra messages), ``win_shares`` (a
player's win shares against scripted players, with intervals), ``run_figure`` (the figure of a run's win shares
over training steps).
"""
