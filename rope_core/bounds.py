r"""Bounds RoPE puts on attention: the long-term decay and the smallest base for a context.

Both follow from the score as a sum over pairs (:mod:`rope_core.attention`). RoFormer bounds
the score at distance :math:`r` by the partial sums :math:`S_j = \sum_{k<j} e^{\mathrm{i} r
\theta_k}` (:func:`long_term_decay_bound`). For a key correlated with the query the mean
score is proportional to :math:`B(r) = \sum_i \cos(r\theta_i)` (:func:`expected_logit`), and
Men et al. (2024) ask for :math:`B(m) \ge 0` over the whole context
(:func:`min_cosine_sum` for given bases, :func:`min_base_for_context` for the smallest one).
"""

from __future__ import annotations

import numbers

import numpy as np

from ._checks import (
    check_base,
    check_correlation,
    check_dim,
    check_finite_numeric,
    check_int,
    check_real_array,
)
from .frequencies import default_inverse_frequencies, inverse_frequencies

__all__ = ["expected_logit", "long_term_decay_bound", "min_base_for_context", "min_cosine_sum"]


def long_term_decay_bound(distances, dim, base=10000.0):
    r"""RoFormer's relative upper bound on the score at a distance (§3.4.3).

    Parameters
    ----------
    distances : array_like, shape (...)
        Relative distances :math:`r = m - n` (any real numbers).
    dim : int
        Dimension :math:`d` (even).
    base : float

    Returns
    -------
    ndarray, shape (...)
        :math:`\frac{1}{d/2}\sum_{j=1}^{d/2} |S_j|` with
        :math:`S_j = \sum_{k=0}^{j-1} e^{i r \theta_k}`.

    Notes
    -----
    Abel summation gives
    :math:`|\sum_i h_i e^{ir\theta_i}| \le \max_i |h_{i+1} - h_i| \sum_j |S_j|`, with
    :math:`h_i` the complex products of the pairs of ``q`` and ``k``. The quantity returned is
    the distance-dependent factor, averaged over :math:`j`; it bounds the score up to the
    content-dependent factor, oscillates, and is not the score itself.

    Examples
    --------
    >>> float(long_term_decay_bound(0, dim=128))
    32.5
    """
    dim, base = check_dim(dim), check_base(base)
    distances = check_real_array(distances, "distances", min_ndim=0).astype(np.float64)
    theta = inverse_frequencies(dim, base)
    # S_1 .. S_{d/2}
    partial_sums = np.cumsum(np.exp(1j * distances[..., None] * theta), axis=-1)
    return np.abs(partial_sums).mean(axis=-1)


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

        &\mathbb E\,\langle R_m q, R_n k\rangle \\
        &\quad= 2\rho\sigma^2 \sum_{i=0}^{d/2-1} \cos\!\big((m-n)\theta_i\big).

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
    distances = check_finite_numeric(distances, "distances")
    dim = check_dim(dim)
    base = check_base(base)
    correlation = check_correlation(correlation)
    if isinstance(variance, bool) or not isinstance(variance, numbers.Real) or not (
        np.isfinite(variance) and variance > 0
    ):
        raise ValueError(f"variance must be a finite number > 0, got {variance!r}")
    theta = default_inverse_frequencies(dim, base)
    cosines = np.cos(distances[..., None] * theta).sum(-1)
    return 2.0 * correlation * float(variance) * cosines


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
    By :func:`rope_core.bounds.expected_logit`, :math:`B(m)` is proportional to the mean
    logit between a query and a key correlated with it at distance :math:`m`; a negative
    value means a similar token scores below an unrelated one on average.

    Examples
    --------
    >>> min_cosine_sum([100.0, 1e4], 64, 8).round(3)    # base 100 fails, 10^4 passes
    array([-2.114,  0.056])
    """
    bases = np.atleast_1d(check_finite_numeric(bases, "bases"))
    if bases.ndim != 1:
        raise ValueError(f"bases must be a number or a 1-D array, got shape {bases.shape}")
    context_len = check_int(context_len, "context_len", min=1)
    dim = check_dim(dim)
    positions = np.arange(int(context_len) + 1, dtype=np.float64)
    result = np.empty(bases.size)
    for number, base in enumerate(bases):
        theta = default_inverse_frequencies(dim, check_base(float(base), f"bases[{number}]"))
        result[number] = np.cos(np.outer(positions, theta)).sum(axis=1).min()
    return result



def _check_base_search(context_len, dim, lower, upper, rtol, names):
    """Arguments of a search over bases in [lower, upper] on a grid of relative step ``rtol``.

    ``names`` are the two bounds' argument names, for the error messages. Returns
    ``(context_len, dim, lower, upper)`` checked.
    """
    context_len = check_int(context_len, "context_len", min=1)
    dim = check_dim(dim)
    lower, upper = check_base(lower, names[0]), check_base(upper, names[1])
    if isinstance(rtol, bool) or not isinstance(rtol, numbers.Real) or not 0 < rtol < 1:
        raise ValueError(f"rtol must be a number in (0, 1), got {rtol!r}")
    if not 1 < lower < upper:
        raise ValueError(f"{names[0]} and {names[1]} must satisfy 1 < {names[0]} < {names[1]}, "
                         f"got {lower} and {upper}")
    return context_len, dim, lower, upper

def min_base_for_context(context_len, dim, *, rtol=0.005, low=2.0, high=1e12):
    r"""The smallest base for which RoPE can still tell similar tokens apart up to a length.

    Men et al. (2024) require :math:`B(m) = \sum_{i} \cos(m\theta_i) \ge 0` for every
    :math:`0 \le m \le L`. This returns the smallest base on the geometric grid
    :math:`\text{low}\,(1+\text{rtol})^k` that satisfies it.

    Parameters
    ----------
    context_len : int
        Context length :math:`L` (>= 1).
    dim : int
        Dimension :math:`d` (even).
    rtol : float
        Ratio between neighbouring bases on the grid, minus one.
    low, high : float
        Search interval for the base.

    Returns
    -------
    float
        The first base on the grid for which :math:`\min_{m \le L} B(m) \ge 0`.

    Notes
    -----
    The admissible bases do not form an interval: below the point from which the condition
    holds for good there are small islands where it holds too, so the answer depends a
    little on the grid (with the default grid and ``dim=128``: 4.31e3 for 1K, 2.87e4 for
    4K, 8.38e4 for 8K, 6.32e5 for 32K and 8.67e6 for 128K tokens; for 1K tokens the
    condition holds on about [4.30e3, 4.34e3), fails, holds on [5.62e3, 5.65e3), and holds
    for good from 6.03e3).

    Resolution: every admissible interval at least ``rtol`` wide (relative) contains a grid
    point, so the answer is at most a factor ``1 + rtol`` above the start of the first such
    interval; an island narrower than one grid step can be missed. The condition itself is
    checked exactly at every integer :math:`m \le L` (in float64). To stay fast, each base
    is first tested at positions where earlier bases failed, and the full scan runs from
    :math:`m = L` downwards, where failures occur.

    Examples
    --------
    >>> base = min_base_for_context(4096, dim=128)
    >>> 2.8e4 < base < 2.95e4
    True
    """
    context_len, dim, low, high = _check_base_search(context_len, dim, low, high, rtol,
                                                     ("low", "high"))
    block = 4096
    witnesses = np.zeros(0)  # positions where some earlier base failed
    base = low
    while base <= high:
        theta = inverse_frequencies(dim, base)
        if witnesses.size and np.cos(witnesses[:, None] * theta).sum(axis=-1).min() < 0:
            base *= 1 + rtol
            continue
        for stop in range(context_len + 1, 0, -block):
            positions = np.arange(max(0, stop - block), stop, dtype=np.float64)
            similarity = np.cos(positions[:, None] * theta).sum(axis=-1)
            if similarity.min() < 0:
                worst = positions[np.argsort(similarity)[:32]]
                witnesses = np.unique(np.concatenate([witnesses, worst]))[-2048:]
                break
        else:
            return float(base)
        base *= 1 + rtol
    raise ValueError(f"no base up to high={high:g} satisfies the bound "
                     f"for context_len={context_len}")


def base_from_which_all_pass(context_len, dim, *, start, high, rtol=0.005):
    r"""The grid base from which every larger grid base up to ``high`` satisfies Men et al.'s bound.

    :func:`rope_core.min_base_for_context` finds the *first* base that passes; the admissible bases are
    not an interval, so larger bases may fail again. This scans the geometric grid
    :math:`\text{start}\,(1+\text{rtol})^k \le \text{high}` downwards from the top and returns
    the grid point just above the highest failing one.

    Parameters
    ----------
    context_len : int
        Context length :math:`L` (>= 1).
    dim : int
        Head dimension ``d`` (even).
    start : float
        Lowest base of the grid, for example the first passing base.
    high : float
        Highest base of the grid (> ``start``); the answer is only about bases up to it.
    rtol : float
        Ratio between neighbouring bases on the grid, minus one, in (0, 1).

    Returns
    -------
    float
        The smallest grid base :math:`b` such that :math:`\min_{0 \le m \le L}
        \sum_i \cos(m\,b'^{-2i/d}) \ge 0` for every grid base :math:`b \le b' \le \text{high}`
        (``start`` if every grid base passes).

    Raises
    ------
    ValueError
        If ``high`` itself fails (no grid base passes from there), or for bad arguments.

    Notes
    -----
    A failing interval narrower than one grid step can be missed, as in
    :func:`rope_core.min_base_for_context`; with ``dim=128`` and the default grid the answer is about
    2x the first passing base at 4K tokens and 4-5x from 8K up.

    Examples
    --------
    >>> first = min_base_for_context(1024, 128)
    >>> 5.9e3 < base_from_which_all_pass(1024, 128, start=first, high=2e4) < 6.1e3
    True
    """
    context_len, dim, start, high = _check_base_search(context_len, dim, start, high, rtol, ("start", "high"))
    steps = int(np.floor(np.log(high / start) / np.log1p(rtol)))
    grid = start * (1 + rtol) ** np.arange(steps + 1)
    for index in range(grid.size - 1, -1, -1):
        theta = default_inverse_frequencies(dim, float(grid[index]))
        if _min_cosine_sum_blocked(theta, context_len) < 0:
            if index == grid.size - 1:
                raise ValueError(f"high={high:g} itself fails the bound for "
                                 f"context_len={context_len}; raise high")
            return float(grid[index + 1])
    return float(grid[0])


def _min_cosine_sum_blocked(theta, context_len):
    r""":math:`\min_{0 \le m \le L} \sum_i \cos(m\theta_i)` as one complex matrix product.

    With :math:`m = s + j` (block starts :math:`s`, offsets :math:`j < b`, :math:`b \approx
    \sqrt{L}`), :math:`\sum_i e^{i m\theta_i} = \sum_i e^{i j\theta_i} e^{i s\theta_i}`: a
    ``(b, d/2) @ (d/2, L/b)`` product instead of :math:`L \cdot d/2` cosines. Each factor's
    angle is rounded once, as :math:`m\theta_i` is in the direct sum, so the result agrees
    with it to about :math:`10^{-11}` at :math:`L = 32768`.
    """
    block = int(np.ceil(np.sqrt(context_len + 1)))
    offsets = np.arange(block, dtype=np.float64)
    starts = np.arange(0, context_len + 1, block, dtype=np.float64)
    sums = (np.exp(1j * np.outer(offsets, theta)) @ np.exp(1j * np.outer(theta, starts))).real
    positions = offsets[:, None] + starts[None, :]
    return float(sums[positions <= context_len].min())
