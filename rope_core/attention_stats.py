r"""What RoPE does to attention logits, pair by pair and on average.

The logit between a query at position :math:`m` and a key at position :math:`n` is a sum of
one term per rotated pair. Writing pair :math:`i` of a vector as the complex number
:math:`z_i = x_{2i} + \mathrm{i}\,x_{2i+1}` (interleaved layout) and the relative distance
as :math:`r = m - n`,

.. math::

    \langle R_m \mathbf{q}, R_n \mathbf{k} \rangle
    = \sum_{i=0}^{d/2-1} \operatorname{Re}\!\left(h_i\, e^{\mathrm{i} r \theta_i}\right),
    \qquad h_i = z^{q}_i\, \overline{z^{k}_i}.

This module evaluates those terms (:func:`pair_contributions`), their exact expectation for
random Gaussian queries and keys (:func:`expected_logit`) and a seeded Monte-Carlo estimate
of the same (:func:`monte_carlo_logits`), as used in the attention chapter of the book.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._checks import check_base, check_dim, check_real_array
from .frequencies import default_inverse_frequencies

__all__ = ["pair_contributions", "expected_logit", "monte_carlo_logits", "min_cosine_sum"]


def _check_distances(distances, name="distances"):
    if isinstance(distances, (str, bytes)):
        raise TypeError(f"{name} must be a numeric array, got a string")
    array = np.asarray(distances)
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be an integer or float array, got dtype {array.dtype}")
    array = array.astype(np.float64)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite, got NaN or inf")
    return array


def pair_contributions(q, k, distance, *, base=10000.0):
    r"""The logit :math:`\langle R_m q, R_n k\rangle` split into one term per rotated pair.

    Parameters
    ----------
    q, k : array_like, shape (..., d)
        Query and key (interleaved layout: pair :math:`i` is features ``2i, 2i+1``);
        ``d`` must be even and the leading axes must broadcast.
    distance : float or array_like, shape (...)
        Relative distance :math:`r = m - n` (query position minus key position); must
        broadcast with the leading axes of ``q`` and ``k``.
    base : float
        Frequency base of :math:`\theta_i = \text{base}^{-2i/d}`.

    Returns
    -------
    ndarray, shape (..., d/2)
        Term :math:`i` is :math:`\operatorname{Re}(h_i e^{\mathrm{i} r\theta_i})`; the terms
        sum to the RoPE logit.

    Notes
    -----
    With :math:`z_i = x_{2i} + \mathrm{i} x_{2i+1}` and :math:`h_i = z^q_i \overline{z^k_i}`,

    .. math::

        \langle R_m q, R_n k\rangle = \sum_i \operatorname{Re}\!\left(z^q_i e^{\mathrm{i}m\theta_i}
        \,\overline{z^k_i e^{\mathrm{i}n\theta_i}}\right)
        = \sum_i \operatorname{Re}\!\left(h_i e^{\mathrm{i}(m-n)\theta_i}\right).

    Examples
    --------
    >>> q = np.array([1.0, 0.0, 0.0, 1.0])
    >>> pair_contributions(q, q, 0).round(6)
    array([1., 1.])
    >>> pair_contributions(q, q, np.pi / 2).round(6)   # pair 0 turns by r * theta_0 = pi/2
    array([0.      , 0.999877])
    """
    q = check_real_array(q, "q").astype(np.float64)
    k = check_real_array(k, "k").astype(np.float64)
    dim = check_dim(q.shape[-1], "the last axis of q")
    if k.shape[-1] != dim:
        raise ValueError(f"k must have the same last axis as q ({dim}), got shape {k.shape}")
    base = check_base(base)
    distance = _check_distances(distance, "distance")
    theta = default_inverse_frequencies(dim, base)
    zq = q[..., 0::2] + 1j * q[..., 1::2]
    zk = k[..., 0::2] + 1j * k[..., 1::2]
    h = zq * np.conj(zk)
    return np.real(h * np.exp(1j * distance[..., None] * theta))


def expected_logit(distances, dim, *, base=10000.0, correlation=0.0, variance=1.0):
    r"""Exact mean RoPE logit at each distance for random Gaussian queries and keys.

    The query has i.i.d. :math:`\mathcal N(0, \sigma^2)` features and the key is
    :math:`k = \rho q + \sqrt{1-\rho^2}\,\varepsilon` with independent noise
    :math:`\varepsilon` of the same law, so :math:`\rho` is the feature-wise correlation.

    Parameters
    ----------
    distances : array_like, shape (n,)
        Relative distances :math:`r = m - n`.
    dim : int
        Head dimension ``d`` (even).
    base : float
        Frequency base.
    correlation : float
        :math:`\rho \in [-1, 1]`; 0 gives independent ``q`` and ``k``.
    variance : float
        :math:`\sigma^2 > 0`, the variance of each feature.

    Returns
    -------
    ndarray, shape (n,)
        :math:`\mathbb E\,\langle R_m q, R_n k\rangle`.

    Notes
    -----
    Per pair, :math:`\mathbb E[h_i] = 2\rho\sigma^2` (real), hence

    .. math::

        \mathbb E\,\langle R_m q, R_n k\rangle = 2\rho\sigma^2 \sum_{i=0}^{d/2-1}
        \cos\!\big((m-n)\theta_i\big).

    It is zero at every distance when :math:`\rho = 0` (Barbero et al. 2024), and for
    :math:`\rho > 0` it is proportional to the sum :math:`\sum_i \cos(r\theta_i)` whose sign
    Men et al. (2024) use to bound the context length a base supports.

    Examples
    --------
    >>> expected_logit([0, 10], 4, correlation=0.0)
    array([0., 0.])
    >>> expected_logit([0], 4, correlation=1.0)   # E|q|^2 = d * variance
    array([4.])
    """
    distances = _check_distances(distances)
    dim = check_dim(dim)
    base = check_base(base)
    correlation = _check_correlation(correlation)
    if isinstance(variance, bool) or not isinstance(variance, numbers.Real) or not (
        np.isfinite(variance) and variance > 0
    ):
        raise ValueError(f"variance must be a finite number > 0, got {variance!r}")
    theta = default_inverse_frequencies(dim, base)
    return 2.0 * correlation * float(variance) * np.cos(distances[..., None] * theta).sum(-1)


def _check_correlation(correlation):
    if isinstance(correlation, bool) or not isinstance(correlation, numbers.Real):
        raise TypeError(f"correlation must be a real number in [-1, 1], got {correlation!r}")
    correlation = float(correlation)
    if not -1.0 <= correlation <= 1.0:
        raise ValueError(f"correlation must be in [-1, 1], got {correlation!r}")
    return correlation


def monte_carlo_logits(distances, dim, *, base=10000.0, correlation=0.0, n_samples=2000,
                       seed=0):
    r"""Sample RoPE logits for random query/key pairs at each distance.

    Draws ``n_samples`` pairs ``q`` ~ N(0, I_d), ``k = ρ q + sqrt(1 − ρ²) ε`` once and
    evaluates :math:`\langle R_m q, R_n k\rangle` for every distance :math:`r = m - n`
    (the logit depends on ``m`` and ``n`` only through ``r``).

    Parameters
    ----------
    distances : array_like, shape (n,)
        Relative distances :math:`r = m - n`.
    dim : int
        Head dimension ``d`` (even).
    base : float
        Frequency base.
    correlation : float
        :math:`\rho \in [-1, 1]`.
    n_samples : int
        Number of sampled (q, k) pairs, at least 2.
    seed : int
        Seed of :func:`numpy.random.default_rng`; the same seed gives the same samples.

    Returns
    -------
    ndarray, shape (n_samples, n)
        One row of logits per sampled pair. Its mean over axis 0 estimates
        :func:`expected_logit`, with standard error ``std / sqrt(n_samples)``.

    Notes
    -----
    .. math::

        \langle R_m q, R_n k\rangle = \sum_i \operatorname{Re}\!\left(h_i
        e^{\mathrm{i}(m-n)\theta_i}\right),\qquad h_i = z^q_i\,\overline{z^k_i},

    evaluated for all samples and distances at once as a real part of a matrix product.

    Examples
    --------
    >>> logits = monte_carlo_logits([0, 5, 50], 64, n_samples=4000)
    >>> logits.shape
    (4000, 3)
    >>> bool(np.all(np.abs(logits.mean(0)) < 4 * logits.std(0) / np.sqrt(4000)))
    True
    """
    distances = _check_distances(distances)
    if distances.ndim != 1:
        raise ValueError(f"distances must be 1-D, got shape {distances.shape}")
    dim = check_dim(dim)
    base = check_base(base)
    correlation = _check_correlation(correlation)
    if isinstance(n_samples, bool) or not isinstance(n_samples, numbers.Integral) or n_samples < 2:
        raise ValueError(f"n_samples must be an integer >= 2, got {n_samples!r}")
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((int(n_samples), dim))
    noise = rng.standard_normal((int(n_samples), dim))
    k = correlation * q + np.sqrt(1.0 - correlation**2) * noise
    h = (q[:, 0::2] + 1j * q[:, 1::2]) * np.conj(k[:, 0::2] + 1j * k[:, 1::2])
    theta = default_inverse_frequencies(dim, base)
    phases = np.exp(1j * np.outer(distances, theta))  # (n, d/2)
    return np.real(h @ phases.T)


def min_cosine_sum(bases, context_len, dim):
    r"""For each base, the smallest :math:`B(m) = \sum_i \cos(m\theta_i)` over :math:`0 \le m \le L`.

    Men et al. (2024) ask for :math:`B(m) \ge 0` at every position of the context; a
    non-negative result here means the base passes. Evaluating many bases shows which ones do,
    including bases above :func:`rope_core.min_base_for_context` that fail again.

    Parameters
    ----------
    bases : array_like, shape (n,)
        Bases to test (each finite, > 0 and != 1).
    context_len : int
        Context length :math:`L` (>= 1).
    dim : int
        Head dimension ``d`` (even).

    Returns
    -------
    ndarray, shape (n,)
        :math:`\min_{0 \le m \le L} \sum_{i=0}^{d/2-1} \cos(m\,\text{base}^{-2i/d})`.

    Notes
    -----
    By :func:`expected_logit`, :math:`B(m)` is proportional to the mean logit between a query
    and a key correlated with it at distance :math:`m`; a negative value means a similar
    token scores below an unrelated one on average.

    Examples
    --------
    >>> min_cosine_sum([100.0, 1e4], 64, 8).round(3)    # base 100 fails, 10^4 passes
    array([-2.114,  0.056])
    """
    bases = np.atleast_1d(np.asarray(bases, dtype=np.float64))
    if bases.ndim != 1:
        raise ValueError(f"bases must be a number or a 1-D array, got shape {bases.shape}")
    if isinstance(context_len, bool) or not isinstance(context_len, numbers.Integral) or context_len < 1:
        raise ValueError(f"context_len must be a positive integer, got {context_len!r}")
    dim = check_dim(dim)
    positions = np.arange(int(context_len) + 1, dtype=np.float64)
    result = np.empty(bases.size)
    for number, base in enumerate(bases):
        theta = default_inverse_frequencies(dim, check_base(float(base)))
        result[number] = np.cos(np.outer(positions, theta)).sum(axis=1).min()
    return result
