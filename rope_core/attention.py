r"""RoPE inside attention: the scores it produces, softmax and linear attention with it.

The logit between a query at position :math:`m` and a key at position :math:`n` is a sum of
one term per rotated pair. Writing pair :math:`i` of a vector as the complex number
:math:`z_i = x_{2i} + \mathrm{i}\,x_{2i+1}` (interleaved layout) and the relative distance
as :math:`r = m - n`,

.. math::

    \langle R_m \mathbf{q}, R_n \mathbf{k} \rangle
    = \sum_{i=0}^{d/2-1} \operatorname{Re}\!\left(h_i\, e^{\mathrm{i} r \theta_i}\right),
    \qquad h_i = z^{q}_i\, \overline{z^{k}_i}.

:func:`relative_scores` gives the whole score matrix, :func:`pair_contributions` its terms
pair by pair, and :func:`monte_carlo_logits` samples them for random queries and keys (their
exact mean is :func:`rope_core.bounds.expected_logit`). The bounds that follow from these sums
are in :mod:`rope_core.bounds`.
"""

from __future__ import annotations

import numpy as np

from . import maths
from ._checks import (
    check_base,
    check_correlation,
    check_dim,
    check_finite_numeric,
    check_int,
    check_layout,
    check_positions,
    check_real_array,
)
from .apply import apply_rope
from .frequencies import default_inverse_frequencies

__all__ = [
    "linear_attention_with_rope",
    "monte_carlo_logits",
    "pair_contributions",
    "relative_scores",
    "rope_attention",
    "softmax_attention",
]


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


def relative_scores(q, k, positions_q, positions_k, *, base=10000.0,
                    layout="interleaved"):
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
        raise ValueError(f"q and k must have the same d, "
                         f"got {q.shape[-1]} and {k.shape[-1]}")
    rotated_q = apply_rope(q, positions_q, base=base, layout=layout)
    rotated_k = apply_rope(k, positions_k, base=base, layout=layout)
    return rotated_q @ rotated_k.T


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
    q, k, v = (check_real_array(a, name, min_ndim=2).astype(np.float64)
               for a, name in ((q, "q"), (k, "k"), (v, "v")))
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q and k must have the same last axis, "
                         f"got {q.shape[-1]} and {k.shape[-1]}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k and v must have the same length, "
                         f"got {k.shape[-2]} and {v.shape[-2]}")
    if causal and q.shape[-2] != k.shape[-2]:
        raise ValueError("causal attention needs len_q == len_k")
    return maths.softmax_attention(q, k, v, causal)


def rope_attention(q, k, v, positions=None, *, base=10000.0, layout="interleaved",
                   causal=False):
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

        a_{m,n} &= \operatorname{softmax}_n\!\Big(\frac{(R_m q_m)^\top (R_n k_n)}{\sqrt d}\Big), \\
        o_m &= \sum_n a_{m,n} v_n.

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


def linear_attention_with_rope(q, k, v, positions=None, *, base=10000.0,
                               feature_map="elu+1", causal=False):
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
    q, k, v = (check_real_array(a, name, min_ndim=2).astype(np.float64)
               for a, name in ((q, "q"), (k, "k"), (v, "v")))
    if q.ndim != 2 or k.shape != q.shape or v.ndim != 2 or v.shape[0] != q.shape[0]:
        raise ValueError(f"q, k must be (seq_len, d) and v (seq_len, d_v), "
                         f"got {q.shape}, {k.shape}, {v.shape}")
    phi_q, phi_k = _elu_plus_one(q), _elu_plus_one(k)
    rotated_q = apply_rope(phi_q, positions, base=base)
    rotated_k = apply_rope(phi_k, positions, base=base)
    if causal:
        # (L, d, d_v): the running sum of R_n phi(k_n) v_n^T
        numerator_state = np.cumsum(rotated_k[:, :, None] * v[:, None, :], axis=0)
        numerator = np.einsum("md,mdv->mv", rotated_q, numerator_state)
        denominator = np.einsum("md,md->m", phi_q, np.cumsum(phi_k, axis=0))
    else:
        numerator = rotated_q @ (rotated_k.T @ v)
        denominator = phi_q @ phi_k.sum(axis=0)
    return numerator / denominator[:, None]


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

        &\langle R_m q, R_n k\rangle \\
        &\quad= \sum_i \operatorname{Re}\!\left(z^q_i e^{\mathrm{i}m\theta_i}
        \,\overline{z^k_i e^{\mathrm{i}n\theta_i}}\right) \\
        &\quad= \sum_i \operatorname{Re}\!\left(h_i e^{\mathrm{i}(m-n)\theta_i}\right).

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
        raise ValueError(f"k must have the same last axis as q ({dim}), "
                         f"got shape {k.shape}")
    base = check_base(base)
    distance = check_finite_numeric(distance, "distance")
    theta = default_inverse_frequencies(dim, base)
    zq = q[..., 0::2] + 1j * q[..., 1::2]
    zk = k[..., 0::2] + 1j * k[..., 1::2]
    h = zq * np.conj(zk)
    return np.real(h * np.exp(1j * distance[..., None] * theta))


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
        :func:`rope_core.bounds.expected_logit`, with standard error ``std / sqrt(n_samples)``.

    Notes
    -----
    .. math::

        \langle R_m q, R_n k\rangle &= \sum_i \operatorname{Re}\!\left(h_i
        e^{\mathrm{i}(m-n)\theta_i}\right), \\
        h_i &= z^q_i\,\overline{z^k_i},

    evaluated for all samples and distances at once as a real part of a matrix product.

    Examples
    --------
    >>> logits = monte_carlo_logits([0, 5, 50], 64, n_samples=4000)
    >>> logits.shape
    (4000, 3)
    >>> bool(np.all(np.abs(logits.mean(0)) < 4 * logits.std(0) / np.sqrt(4000)))
    True
    """
    distances = check_finite_numeric(distances, "distances")
    if distances.ndim != 1:
        raise ValueError(f"distances must be 1-D, got shape {distances.shape}")
    dim = check_dim(dim)
    base = check_base(base)
    correlation = check_correlation(correlation)
    n_samples = check_int(n_samples, "n_samples", min=2)
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((int(n_samples), dim))
    noise = rng.standard_normal((int(n_samples), dim))
    k = correlation * q + np.sqrt(1.0 - correlation**2) * noise
    h = (q[:, 0::2] + 1j * q[:, 1::2]) * np.conj(k[:, 0::2] + 1j * k[:, 1::2])
    theta = default_inverse_frequencies(dim, base)
    phases = np.exp(1j * np.outer(distances, theta))  # (n, d/2)
    return np.real(h @ phases.T)
