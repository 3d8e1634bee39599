r"""Long-term decay as the book shows it: RoFormer's bound and two actual scores, per base.

The ``DecayExplorer`` widget and :func:`rope_core.plots.plot_decay` draw the table of
:func:`decay_table`; its defaults (:data:`DECAY_DEFAULTS`) are the book's example.
"""

from __future__ import annotations

import numpy as np

from .._checks import check_dim, check_int
from ..attention import relative_scores
from ..bounds import long_term_decay_bound

__all__ = ["DECAY_DEFAULTS", "decay_table"]

#: A 128-dimensional head, bases 10^2 .. 10^6, distances 0, 4, ..., 1024, the random pair of seed 0.
DECAY_DEFAULTS = {"dim": 128, "bases": (1e2, 1e3, 1e4, 1e5, 1e6), "max_distance": 1024, "step": 4, "seed": 0}


def decay_table(dim=DECAY_DEFAULTS["dim"], bases=DECAY_DEFAULTS["bases"],
                max_distance=DECAY_DEFAULTS["max_distance"], step=DECAY_DEFAULTS["step"],
                seed=DECAY_DEFAULTS["seed"]):
    r"""The three decay curves for every base, each 1 at distance 0.

    ``bound``: :math:`B(r)/B(0)` with :math:`B(r) = \frac{1}{d/2}\sum_j |S_j(r)|`
    (:func:`rope_core.long_term_decay_bound`); ``aligned``: the score of
    :math:`q = k = (1, \dots, 1)`, :math:`\langle R_0 q, R_r k\rangle / d`; ``random``: the
    cosine :math:`\langle R_0 q, R_r k\rangle/(|q||k|)` of one Gaussian pair drawn with
    ``numpy.random.default_rng(seed)`` (the same pair for every base).

    Parameters
    ----------
    dim : int
        Head dimension :math:`d`.
    bases : sequence of float, shape (B,)
    max_distance, step : int
        Distances :math:`r = 0, \text{step}, 2\,\text{step}, \dots \le` ``max_distance``.
    seed : int

    Returns
    -------
    dict
        ``distances`` (shape (R,)) and ``bound``, ``aligned``, ``random``: arrays of shape (B, R).
    """
    dim = check_dim(dim)
    max_distance = check_int(max_distance, "max_distance", min=1)
    step = check_int(step, "step", min=1, max=max_distance)
    seed = check_int(seed, "seed", min=0)
    bases = [float(b) for b in bases]
    if not bases:
        raise ValueError("bases must be a non-empty sequence of bases > 1, got []")
    distances = np.arange(0, max_distance + 1, step)
    q_random, k_random = np.random.default_rng(seed).normal(size=(2, dim))
    aligned = np.ones(dim)
    bound, cos_aligned, cos_random = [], [], []
    for base in bases:
        values = long_term_decay_bound(distances, dim, base)
        bound.append(values / values[0])
        cos_aligned.append(relative_scores(aligned, aligned, [0], distances, base=base)[0] / dim)
        cos_random.append(relative_scores(q_random, k_random, [0], distances, base=base)[0]
                          / (np.linalg.norm(q_random) * np.linalg.norm(k_random)))
    return {"distances": distances, "bases": bases, "bound": np.array(bound),
            "aligned": np.array(cos_aligned), "random": np.array(cos_random)}
