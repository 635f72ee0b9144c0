"""FedSGM: what both the figures (:mod:`.figures`) and the audit section (:mod:`.audit`) compute from results --
counting the constraint violations of the Neyman-Pearson experiment.

Imports neither plotting nor the report.
"""
from __future__ import annotations

import numpy as np


def violations(runs) -> tuple[np.ndarray, np.ndarray]:
    """Per run of the Neyman-Pearson experiment: the number of rounds with g(w_t) > eps, over all rounds and
    after the initial transient (the rounds before g(w_t) first drops to eps)."""
    return (np.array([float(r.arrays["violations"]) for r in runs]),
            np.array([float(r.arrays["violations_after_transient"]) for r in runs]))
