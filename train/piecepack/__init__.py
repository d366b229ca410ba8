"""Gold Rush's training (the piecepack game): its scripts (``python -m goldrush_train.piecepack.NAME``) over the
library every game shares (:mod:`goldrush_train`).

Scripts: ``ppo`` (MaskablePPO against scripted players, with an imitation warm start), ``expert`` (expert
iteration: a network fitted round after round to the search's choices in the positions of its own games).

Library: none of its own.
"""
