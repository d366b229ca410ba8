"""Gold Rush's training (the piecepack game): its script (``python -m goldrush_train.piecepack.NAME``) over the
library every game shares (:mod:`goldrush_train`).

Scripts: ``ppo`` (MaskablePPO against scripted players, with an imitation warm start).

Library: none of its own.
"""
