r"""What RoPE does inside attention: scores, the decay bound, the base bound, attention itself."""

from __future__ import annotations

import numbers

import numpy as np

from ._checks import check_base, check_dim, check_layout, check_positions, check_real_array
from .apply import apply_rope
from .frequencies import inverse_frequencies


def _vectors_at(x, positions, name):
    """Broadcast ``x`` of shape (d,) or (len(positions), d) to (len(positions), d)."""
    x = check_real_array(x, name).astype(np.float64)
    positions = np.atleast_1d(np.asarray(positions))
    if positions.ndim != 1:
        raise ValueError(f"positions for {name} must be 1-D, got shape {positions.shape}")
    positions = check_positions(positions, positions.shape[0], name=f"positions_{name}")
    if x.ndim == 1:
        x = np.broadcast_to(x, (positions.shape[0], x.shape[0]))
    elif x.ndim != 2 or x.shape[0] != positions.shape[0]:
        raise ValueError(
            f"{name} must have shape (d,) or (len(positions_{name}), d), got shape {x.shape}"
        )
    return x, positions


def relative_scores(q, k, positions_q, positions_k, *, base=10000.0, layout="interleaved"):
    r"""The matrix of RoPE scores :math:`\langle R_m q, R_n k\rangle` for all position pairs.

    Parameters
    ----------
    q : array_like, shape (d,) or (len(positions_q), d)
        One query used at every position, or one query per position.
    k : array_like, shape (d,) or (len(positions_k), d)
    positions_q, positions_k : array_like, shape (len_q,), (len_k,)
    base : float
    layout : {"interleaved", "half"}

    Returns
    -------
    ndarray, shape (len_q, len_k)
        ``scores[a, b] = <R_{m_a} q_a, R_{n_b} k_b>``. For a fixed pair ``q, k`` this
        depends on ``n_b - m_a`` only: :math:`q^\top R_{n-m} k`.

    Examples
    --------
    >>> s = relative_scores([1.0, 0.0], [1.0, 0.0], [0, 1], [0, 1], base=10.0)
    >>> np.allclose(np.diag(s), 1.0)
    True
    """
    q, positions_q = _vectors_at(q, positions_q, "q")
    k, positions_k = _vectors_at(k, positions_k, "k")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q and k must have the same d, got {q.shape[-1]} and {k.shape[-1]}")
    rotated_q = apply_rope(q, positions_q, base=base, layout=layout)
    rotated_k = apply_rope(k, positions_k, base=base, layout=layout)
    return rotated_q @ rotated_k.T


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
    partial_sums = np.cumsum(np.exp(1j * distances[..., None] * theta), axis=-1)  # S_1 .. S_{d/2}
    return np.abs(partial_sums).mean(axis=-1)


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
    if isinstance(context_len, bool) or not isinstance(context_len, numbers.Integral) or context_len < 1:
        raise ValueError(f"context_len must be a positive integer, got {context_len!r}")
    dim = check_dim(dim)
    low, high = check_base(low), check_base(high)
    if isinstance(rtol, bool) or not isinstance(rtol, numbers.Real) or not 0 < rtol < 1:
        raise ValueError(f"rtol must be a number in (0, 1), got {rtol!r}")
    if not 1 < low < high:
        raise ValueError(f"low and high must satisfy 1 < low < high, got {low} and {high}")
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
    raise ValueError(f"no base up to high={high:g} satisfies the bound for context_len={context_len}")


def _softmax(scores, axis=-1):
    shifted = scores - np.max(scores, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=axis, keepdims=True)


def softmax_attention(q, k, v, *, causal=False):
    r"""Scaled dot-product attention, :math:`\operatorname{softmax}(QK^\top/\sqrt{d})\,V`.

    Parameters
    ----------
    q : array_like, shape (..., len_q, d)
    k : array_like, shape (..., len_k, d)
    v : array_like, shape (..., len_k, d_v)
    causal : bool
        If true, query ``m`` only sees keys ``n <= m`` (requires ``len_q == len_k``).

    Returns
    -------
    output : ndarray, shape (..., len_q, d_v)
    weights : ndarray, shape (..., len_q, len_k)
        Each row sums to 1.

    Examples
    --------
    >>> out, w = softmax_attention(np.ones((2, 4)), np.ones((2, 4)), np.eye(2))
    >>> w
    array([[0.5, 0.5],
           [0.5, 0.5]])
    """
    q, k, v = (check_real_array(a, name, min_ndim=2).astype(np.float64) for a, name in ((q, "q"), (k, "k"), (v, "v")))
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q and k must have the same last axis, got {q.shape[-1]} and {k.shape[-1]}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k and v must have the same length, got {k.shape[-2]} and {v.shape[-2]}")
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        if q.shape[-2] != k.shape[-2]:
            raise ValueError("causal attention needs len_q == len_k")
        future = np.triu(np.ones(scores.shape[-2:], dtype=bool), k=1)
        scores = np.where(future, -np.inf, scores)
    weights = _softmax(scores)
    return weights @ v, weights


def rope_attention(q, k, v, positions=None, *, base=10000.0, layout="interleaved", causal=False):
    r"""Softmax attention with RoPE: rotate queries and keys by their positions, then attend.

    Parameters
    ----------
    q, k : array_like, shape (..., seq_len, d)
    v : array_like, shape (..., seq_len, d_v)
    positions : array_like, shape broadcastable to (..., seq_len), optional
        Shared by queries and keys; default ``0 .. seq_len - 1``.
    base : float
    layout : {"interleaved", "half"}
    causal : bool

    Returns
    -------
    output : ndarray, shape (..., seq_len, d_v)
    weights : ndarray, shape (..., seq_len, seq_len)

    Notes
    -----
    .. math::

        a_{m,n} = \operatorname{softmax}_n\!\Big(\frac{(R_m q_m)^\top (R_n k_n)}{\sqrt d}\Big),
        \qquad o_m = \sum_n a_{m,n} v_n.

    Values are not rotated.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> q, k, v = rng.standard_normal((3, 5, 8))
    >>> out, weights = rope_attention(q, k, v, causal=True)
    >>> out.shape, np.allclose(weights.sum(-1), 1.0), float(weights[0, 1])
    ((5, 8), True, 0.0)
    """
    check_layout(layout)
    rotated_q = apply_rope(q, positions, base=base, layout=layout)
    rotated_k = apply_rope(k, positions, base=base, layout=layout)
    return softmax_attention(rotated_q, rotated_k, v, causal=causal)


def _elu_plus_one(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def linear_attention_with_rope(q, k, v, positions=None, *, base=10000.0, feature_map="elu+1", causal=False):
    r"""Linear attention with RoPE (RoFormer §3.3): rotate the numerator's features only.

    Parameters
    ----------
    q, k : array_like, shape (seq_len, d)
    v : array_like, shape (seq_len, d_v)
    positions : array_like, shape (seq_len,), optional
    base : float
    feature_map : {"elu+1"}
        The non-negative feature map :math:`\phi(x) = \operatorname{elu}(x) + 1`.
    causal : bool
        If true, position ``m`` sums over ``n <= m`` only (computed with running sums).

    Returns
    -------
    ndarray, shape (seq_len, d_v)

    Notes
    -----
    .. math::

        o_m = \frac{\sum_n \big(R_m\phi(q_m)\big)^\top \big(R_n\phi(k_n)\big)\, v_n}
                   {\sum_n \phi(q_m)^\top \phi(k_n)}

    The denominator stays unrotated: rotated features can make it zero or negative.
    Cost is linear in ``seq_len``: :math:`\sum_n (R_n\phi(k_n)) v_n^\top` is formed once.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> q, k, v = rng.standard_normal((3, 6, 4))
    >>> linear_attention_with_rope(q, k, v).shape
    (6, 4)
    >>> # Causal: the first output only sees the first value (rotation by 0 changes nothing).
    >>> np.allclose(linear_attention_with_rope(q, k, v, causal=True)[0], v[0])
    True
    """
    if feature_map != "elu+1":
        raise ValueError(f"feature_map must be 'elu+1', got {feature_map!r}")
    q, k, v = (check_real_array(a, name, min_ndim=2).astype(np.float64) for a, name in ((q, "q"), (k, "k"), (v, "v")))
    if q.ndim != 2 or k.shape != q.shape or v.ndim != 2 or v.shape[0] != q.shape[0]:
        raise ValueError(f"q, k must be (seq_len, d) and v (seq_len, d_v), got {q.shape}, {k.shape}, {v.shape}")
    phi_q, phi_k = _elu_plus_one(q), _elu_plus_one(k)
    rotated_q = apply_rope(phi_q, positions, base=base)
    rotated_k = apply_rope(phi_k, positions, base=base)
    if causal:
        numerator_state = np.cumsum(rotated_k[:, :, None] * v[:, None, :], axis=0)  # (L, d, d_v)
        numerator = np.einsum("md,mdv->mv", rotated_q, numerator_state)
        denominator = np.einsum("md,md->m", phi_q, np.cumsum(phi_k, axis=0))
    else:
        numerator = rotated_q @ (rotated_k.T @ v)
        denominator = phi_q @ phi_k.sum(axis=0)
    return numerator / denominator[:, None]
