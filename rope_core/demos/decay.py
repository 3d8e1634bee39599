r"""Long-term decay as the book shows it: RoFormer's bound beside the scores it bounds, per base.

Everything is in one unit, the score divided by :math:`|q|\,|k|` (a cosine, between −1 and 1),
so a bound drawn above a score really is above it. RoFormer's bound (§3.4.3) for one pair is

.. math::

    &\frac{|\langle R_m q, R_n k\rangle|}{|q|\,|k|} \\
    &\quad\le \underbrace{\frac{\max_i |h_{i+1} - h_i|}{|q|\,|k|}}_{c\ \text{(content)}}
    \sum_{j=1}^{d/2} |S_j(r)|, \\
    &S_j(r) = \sum_{i<j} e^{\mathrm{i} r\theta_i},

with :math:`h_i = z^q_i\,\overline{z^k_i}` and :math:`h_{d/2} = 0`. For :math:`q = k = (1, \dots,
1)` every :math:`h_i = 2`, so :math:`c = 2/d` and the bound is exactly
:math:`B(r) = \frac{1}{d/2}\sum_j |S_j(r)|` (:func:`rope_core.long_term_decay_bound`), which
is 32.5 at :math:`r = 0` for :math:`d = 128`: the aligned score, 1 there, is bounded by 32.5.

The ``DecayExplorer`` widget and :func:`rope_core.plots.plot_decay` draw the table of
:func:`decay_table`; its defaults (:data:`DECAY_DEFAULTS`) are the book's example.
"""

from __future__ import annotations

import copy
import functools

import numpy as np

from .._checks import check_correlation, check_dim, check_int
from ..attention import monte_carlo_logits, relative_scores
from ..bounds import long_term_decay_bound

__all__ = ["CONTENT_MIXES", "DECAY_DEFAULTS", "content_pair_table", "decay_table", "draw_pairs", "pair_decay_bound",
           "random_pairs_magnitude"]

#: A 128-dimensional head, bases 10^2 .. 10^6, distances 0, 4, ..., 1024, 1000 random pairs
#: (seed 0) and 1000 correlated ones (feature correlation 0.5).
DECAY_DEFAULTS = {"dim": 128, "bases": (1e2, 1e3, 1e4, 1e5, 1e6), "max_distance": 1024, "step": 4, "seed": 0,
                  "samples": 1000, "correlation": 0.5}


def draw_pairs(dim, correlation, n_samples, seed):
    r"""The query/key pairs :func:`rope_core.attention.monte_carlo_logits` draws for the same arguments.

    :math:`q \sim \mathcal N(0, I_d)`, :math:`k = \rho q + \sqrt{1-\rho^2}\,\varepsilon`.

    Returns
    -------
    (ndarray, ndarray)
        ``q`` and ``k``, each of shape ``(n_samples, dim)``.
    """
    dim = check_dim(dim)
    correlation = check_correlation(correlation)
    n_samples = check_int(n_samples, "n_samples", min=2)
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((n_samples, dim))
    noise = rng.standard_normal((n_samples, dim))
    return q, correlation * q + np.sqrt(1.0 - correlation**2) * noise


def pair_decay_bound(q, k, distances, base=10000.0):
    r"""RoFormer's bound on :math:`|\langle R_m q, R_n k\rangle|` at each distance, for given pairs.

    Parameters
    ----------
    q, k : array_like, shape (..., d)
        Queries and keys (interleaved pairs).
    distances : array_like, shape (R,)
        Relative distances :math:`r = m - n`.
    base : float

    Returns
    -------
    ndarray, shape (..., R)
        :math:`\max_i |h_{i+1} - h_i| \sum_{j=1}^{d/2} |S_j(r)|` (with :math:`h_{d/2} = 0`),
        in the units of the score itself.

    Examples
    --------
    >>> ones = np.ones(8)
    >>> float(pair_decay_bound(ones, ones, [0])[0])    # 2 * (1 + 2 + 3 + 4); the score is 8
    20.0
    """
    q, k = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)
    dim = check_dim(q.shape[-1], "the last axis of q")
    if k.shape[-1] != dim:
        raise ValueError(f"k must have the same last axis as q ({dim}), got shape {k.shape}")
    h = (q[..., 0::2] + 1j * q[..., 1::2]) * np.conj(k[..., 0::2] + 1j * k[..., 1::2])
    padded = np.concatenate([h, np.zeros(h.shape[:-1] + (1,))], axis=-1)
    content = np.abs(np.diff(padded, axis=-1)).max(axis=-1)
    # (d/2) * long_term_decay_bound is the sum of |S_j| over j.
    spread = (dim // 2) * long_term_decay_bound(np.asarray(distances, dtype=np.float64), dim, base)
    return content[..., None] * spread


def _band(q, k, distances, base, correlation, n_samples, seed):
    """Mean and standard deviation over the pairs of the cosine score, and the mean bound."""
    norms = np.linalg.norm(q, axis=-1) * np.linalg.norm(k, axis=-1)
    logits = monte_carlo_logits(distances, q.shape[-1], base=base, correlation=correlation,
                                n_samples=n_samples, seed=seed)
    cosines = logits / norms[:, None]
    bounds = pair_decay_bound(q, k, distances, base) / norms[:, None]
    return {"mean": cosines.mean(axis=0), "sd": cosines.std(axis=0), "bound": bounds.mean(axis=0),
            "tightest": (bounds / np.maximum(np.abs(cosines), 1e-300)).min(axis=0)}


def decay_table(dim=DECAY_DEFAULTS["dim"], bases=DECAY_DEFAULTS["bases"],
                max_distance=DECAY_DEFAULTS["max_distance"], step=DECAY_DEFAULTS["step"],
                seed=DECAY_DEFAULTS["seed"], samples=DECAY_DEFAULTS["samples"],
                correlation=DECAY_DEFAULTS["correlation"]):
    r"""Scores and their bounds against distance for every base, all divided by :math:`|q|\,|k|`.

    Parameters
    ----------
    dim : int
        Head dimension :math:`d`.
    bases : sequence of float, shape (B,)
    max_distance, step : int
        Distances :math:`r = 0, \text{step}, 2\,\text{step}, \dots \le` ``max_distance``.
    seed : int
        Seed of the random pairs (the correlated pairs use ``seed + 1``); the same pairs serve
        every base.
    samples : int
        Number of pairs in each band.
    correlation : float
        Feature correlation :math:`\rho` of the correlated pairs.

    Returns
    -------
    dict
        ``distances`` (R,); ``aligned`` (B, R): the cosine of :math:`q = k = (1, \dots, 1)`,
        :math:`\langle R_m q, R_n k\rangle / d = \frac{1}{d/2}\sum_i \cos r\theta_i`;
        ``bound`` (B, R): its bound :math:`B(r)`; ``bound_average`` (B, R): the mean of
        :math:`B` over every integer distance :math:`0 \dots r`; ``random`` and ``correlated``:
        dicts of (B, R) arrays ``mean`` and ``sd`` of the cosine over the pairs, ``bound`` the
        mean over the pairs of each pair's own bound, and ``tightest`` the smallest ratio of a
        pair's bound to its :math:`|\text{cosine}|`.
    """
    dim = check_dim(dim)
    max_distance = check_int(max_distance, "max_distance", min=1)
    step = check_int(step, "step", min=1, max=max_distance)
    seed = check_int(seed, "seed", min=0)
    samples = check_int(samples, "samples", min=2)
    correlation = check_correlation(correlation)
    bases = tuple(float(b) for b in bases)
    if not bases:
        raise ValueError("bases must be a non-empty sequence of bases > 1, got []")
    return copy.deepcopy(_decay_table(dim, bases, max_distance, step, seed, samples, correlation))


@functools.lru_cache(maxsize=8)
def _decay_table(dim, bases, max_distance, step, seed, samples, correlation):
    # Cached: a widget, its static view and the tests ask for the same table (seconds of work).
    bases = list(bases)
    distances = np.arange(0, max_distance + 1, step)
    every = np.arange(max_distance + 1)
    ones = np.ones(dim)
    pairs = {"random": (draw_pairs(dim, 0.0, samples, seed), 0.0, seed),
             "correlated": (draw_pairs(dim, correlation, samples, seed + 1), correlation, seed + 1)}
    out = {"distances": distances, "bases": bases, "dim": dim, "samples": samples, "correlation": correlation,
           "aligned": [], "bound": [], "bound_average": [],
           "random": {key: [] for key in ("mean", "sd", "bound", "tightest")},
           "correlated": {key: [] for key in ("mean", "sd", "bound", "tightest")}}
    for base in bases:
        out["aligned"].append(relative_scores(ones, ones, [0], distances, base=base)[0] / dim)
        out["bound"].append(long_term_decay_bound(distances, dim, base))
        running = np.cumsum(long_term_decay_bound(every, dim, base)) / (every + 1)
        out["bound_average"].append(running[distances])
        for name, ((q, k), rho, group_seed) in pairs.items():
            band = _band(q, k, distances, base, rho, samples, group_seed)
            for key, values in band.items():
                out[name][key].append(values)
    for key in ("aligned", "bound", "bound_average"):
        out[key] = np.array(out[key])
    for name in pairs:
        out[name] = {key: np.array(values) for key, values in out[name].items()}
    return out



#: How random the key of the widget's one pair is, from aligned (0) to random (1).
CONTENT_MIXES = (0.0, 0.25, 0.5, 0.75, 1.0)


def content_pair_table(dim=DECAY_DEFAULTS["dim"], bases=DECAY_DEFAULTS["bases"],
                       max_distance=DECAY_DEFAULTS["max_distance"], step=DECAY_DEFAULTS["step"],
                       seed=DECAY_DEFAULTS["seed"], mixes=CONTENT_MIXES):
    r"""One query/key pair moved from aligned to random content: its score and its bound against distance.

    The query is :math:`q = (1, \dots, 1)`; the key mixes it with one fixed standard normal
    vector :math:`\varepsilon` (drawn with ``seed``),

    .. math::

        k(w) = \sqrt{1 - w}\,q + \sqrt{w}\,\varepsilon,

    so :math:`w = 0` is the aligned pair :math:`k = q` and :math:`w = 1` a key independent of
    the query, with :math:`w` its expected share of random length. At distance :math:`r`
    (query at :math:`r`, key at 0) the score is
    :math:`\langle R_r q, R_0 k\rangle` =
    :math:`\mathrm{Re}\sum_i q_i\,\overline{k_i}\,e^{\mathrm{i} r\theta_i}`
    (complex pairs :math:`q_i, k_i`) and its bound is :func:`pair_decay_bound`; both are divided
    by :math:`|q|\,|k|`.

    Parameters
    ----------
    dim : int
    bases : sequence of float, shape (B,)
    max_distance, step : int
        Distances :math:`r = 0, \text{step}, \dots \le` ``max_distance``, shape (R,).
    seed : int
        Seed of :math:`\varepsilon`.
    mixes : sequence of float in [0, 1], shape (W,)

    Returns
    -------
    dict
        ``distances`` (R,); ``mixes`` (W,); ``score`` and ``bound`` (W, B, R); ``early`` and
        ``late`` (W, B): the mean :math:`|\text{score}|` over the distances below
        ``max_distance / 2`` and over the others.

    Examples
    --------
    >>> t = content_pair_table(dim=8, bases=[100.0], max_distance=8, step=4, mixes=[0.0])
    >>> round(float(t["score"][0, 0, 0]), 12), round(float(t["bound"][0, 0, 0]), 12)  # q = k: 1, under 20 / 8
    (1.0, 2.5)
    """
    dim = check_dim(dim)
    max_distance = check_int(max_distance, "max_distance", min=1)
    step = check_int(step, "step", min=1, max=max_distance)
    seed = check_int(seed, "seed", min=0)
    bases = [float(b) for b in bases]
    if not bases:
        raise ValueError("bases must be a non-empty sequence of bases > 1, got []")
    mixes = np.asarray(mixes, dtype=np.float64)
    if mixes.ndim != 1 or mixes.size == 0 or np.any(~np.isfinite(mixes)) or np.any((mixes < 0) | (mixes > 1)):
        raise ValueError(f"mixes must be a non-empty sequence of numbers in [0, 1], got {mixes.tolist()}")
    distances = np.arange(0, max_distance + 1, step)
    q = np.ones(dim)
    noise = np.random.default_rng(seed).standard_normal(dim)
    keys = np.sqrt(1.0 - mixes)[:, None] * q + np.sqrt(mixes)[:, None] * noise     # (W, d)
    norms = np.linalg.norm(q) * np.linalg.norm(keys, axis=-1)                       # (W,)
    score = np.array([[relative_scores(q, k, distances, [0], base=base)[:, 0] / norm for base in bases]
                      for k, norm in zip(keys, norms)])
    bound = np.array([[pair_decay_bound(q, k, distances, base) / norm for base in bases]
                      for k, norm in zip(keys, norms)])
    late = distances >= max_distance / 2
    return {"distances": distances, "mixes": mixes, "score": score, "bound": bound,
            "early": np.abs(score[..., ~late]).mean(axis=-1), "late": np.abs(score[..., late]).mean(axis=-1)}


def random_pairs_magnitude(dim=DECAY_DEFAULTS["dim"], bases=DECAY_DEFAULTS["bases"],
                           max_distance=DECAY_DEFAULTS["max_distance"], step=DECAY_DEFAULTS["step"],
                           seed=DECAY_DEFAULTS["seed"], samples=DECAY_DEFAULTS["samples"]):
    r"""How large the scores of many independent random pairs are at each distance, and their bounds.

    The pairs are :func:`draw_pairs` ``(dim, 0, samples, seed)``, the random band of
    :func:`decay_table`; every score and bound is divided by its own :math:`|q|\,|k|`.

    Returns
    -------
    dict
        ``distances`` (R,); ``low``, ``median``, ``high`` (B, R): the 10th, 50th and 90th
        percentiles over the pairs of :math:`|\text{score}|`; ``bound`` (B, R): the median of
        each pair's own bound.
    """
    dim = check_dim(dim)
    max_distance = check_int(max_distance, "max_distance", min=1)
    step = check_int(step, "step", min=1, max=max_distance)
    seed = check_int(seed, "seed", min=0)
    samples = check_int(samples, "samples", min=2)
    bases = [float(b) for b in bases]
    if not bases:
        raise ValueError("bases must be a non-empty sequence of bases > 1, got []")
    distances = np.arange(0, max_distance + 1, step)
    q, k = draw_pairs(dim, 0.0, samples, seed)
    norms = np.linalg.norm(q, axis=-1) * np.linalg.norm(k, axis=-1)
    out = {"distances": distances, "low": [], "median": [], "high": [], "bound": []}
    for base in bases:
        logits = monte_carlo_logits(distances, dim, base=base, correlation=0.0, n_samples=samples, seed=seed)
        magnitude = np.abs(logits) / norms[:, None]
        low, median, high = np.percentile(magnitude, [10, 50, 90], axis=0)
        out["low"].append(low)
        out["median"].append(median)
        out["high"].append(high)
        out["bound"].append(np.median(pair_decay_bound(q, k, distances, base) / norms[:, None], axis=0))
    return {key: np.array(value) for key, value in out.items()}
