"""Several trained models played as one (see :class:`Ensemble`).

Made to ask whether the copies of the search differ in their mistakes (then averaging them would play better
than any one of them) or share them: docs/experiments.md, "The copies as an ensemble". It plays by its import
path, ``"goldrush_agents.gold.ensemble:Ensemble[models=a.npz+b.npz]"``.
"""

from __future__ import annotations

import numpy as np

from goldrush_env.errors import GoldrushEnvError

from goldrush_agents.gold.trained import GoldNetNumpy, TrainedPolicy
from goldrush_agents.weights import load_weights, one_blas_thread


class Ensemble(TrainedPolicy):
    """The most likely legal flip under the mean of the models' log-policies (always deterministic), taken as
    the first model's file says (``TrainedPolicy``'s ``choose``). ``models`` is a ``+``-separated list of model
    files (.npz or .zip, as for ``TrainedPolicy``)."""

    name = "ensemble"

    def __init__(self, models: str, seed: int | None = None) -> None:
        paths = [part for part in str(models).split("+") if part]
        if not paths:
            raise GoldrushEnvError(f"Ensemble needs model files separated by '+', got {models!r}")
        super().__init__(paths[0], seed=seed)  # loads the first model as self.net
        self.nets = [self.net] + [GoldNetNumpy(load_weights(path)) for path in paths[1:]]

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks, bool)
        if not masks.any(axis=1).all():
            raise GoldrushEnvError("a mask with no legal position was given to the ensemble")
        scores = []
        with one_blas_thread():
            for net in self.nets:
                logits = np.where(masks, net.forward(observations)[0], -np.inf)
                top = logits.max(axis=1, keepdims=True)
                scores.append(logits - top - np.log(np.exp(logits - top).sum(axis=1, keepdims=True)))
        return self.most_likely(observations, np.mean(scores, axis=0))
