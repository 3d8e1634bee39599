r"""Part I's formulas as code, and nothing else: the lines the book shows.

Each function here is the computation of the public function of the same name
(``rope_core.rotation_matrix`` wraps :func:`rotation_matrix`, and so on). The public function
checks its arguments and handles what Part II adds (context extension, the ``"half"`` layout,
``out=``); it then calls the function here with arrays that are already valid: finite
float64, a feature axis of even length, positions that fit. These functions do not check
anything, so call the public ones.

Features pair as :math:`(x_{2i}, x_{2i+1})` (the interleaved layout of the RoFormer paper) and
the frequencies are :math:`\theta_i = b^{-2i/d}`, with pairs and positions counted from 0.

Examples
--------
>>> import numpy as np
>>> rotation_matrix(np.pi / 2).round(12)
array([[ 0., -1.],
       [ 1.,  0.]])
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "apply_rope_complex", "block_rotation", "default_inverse_frequencies", "relative_scores",
    "rope_angles", "rope_attention", "rope_matrix", "rotate_2d", "rotation_matrix",
    "sinusoidal_position_embedding", "softmax", "softmax_attention",
]


def rotation_matrix(angle):
    r""":math:`R(\alpha) = \begin{pmatrix}\cos\alpha & -\sin\alpha\\ \sin\alpha & \cos\alpha\end{pmatrix}`.

    ``angle`` float64 array of shape ``(...)`` -> matrices of shape ``(..., 2, 2)``.
    """
    cos, sin = np.cos(angle), np.sin(angle)
    return np.stack([np.stack([cos, -sin], -1), np.stack([sin, cos], -1)], -2)


def rotate_2d(v, angle):
    r""":math:`R(\alpha)\,\mathbf{v}`: vectors ``v`` of shape ``(..., 2)`` turned by ``angle``."""
    return np.einsum("...ij,...j->...i", rotation_matrix(angle), v)


def default_inverse_frequencies(dim, base=10000.0):
    r""":math:`\theta_i = b^{-2i/d}` for :math:`i = 0, \dots, d/2 - 1`: shape ``(dim // 2,)``."""
    return base ** (-np.arange(0, dim, 2, dtype=np.float64) / dim)


def rope_angles(positions, dim, base=10000.0):
    r""":math:`m\,\theta_i` for every position :math:`m` and pair :math:`i`.

    ``positions`` of shape ``(...)`` -> angles of shape ``(..., dim // 2)``.
    """
    return positions[..., None] * default_inverse_frequencies(dim, base)


def apply_rope_complex(x, positions, base=10000.0):
    r""":math:`z_i \mapsto z_i\,e^{\mathrm{i} m\theta_i}` with :math:`z_i = x_{2i} + \mathrm{i}\,x_{2i+1}`.

    ``x`` of shape ``(..., seq, d)``, ``positions`` of shape ``(..., seq)`` -> shape of ``x``.
    """
    z = x[..., 0::2] + 1j * x[..., 1::2]                 # one complex number per pair
    z = z * np.exp(1j * rope_angles(positions, x.shape[-1], base))
    out = np.empty(z.shape[:-1] + (x.shape[-1],))
    out[..., 0::2], out[..., 1::2] = z.real, z.imag
    return out


def block_rotation(angles):
    r"""The block-diagonal :math:`\operatorname{diag}(R(\alpha_0), \dots, R(\alpha_{d/2-1}))`.

    ``angles`` of shape ``(d/2,)`` -> matrix of shape ``(d, d)``.
    """
    blocks = rotation_matrix(angles)                       # (d/2, 2, 2)
    half = angles.size
    out = np.zeros((2 * half, 2 * half))
    index = np.arange(half)
    for row in range(2):
        for col in range(2):
            out[2 * index + row, 2 * index + col] = blocks[:, row, col]
    return out


def rope_matrix(position, dim, base=10000.0):
    r""":math:`R_{\Theta,m}`, the ``(dim, dim)`` rotation RoPE applies at position :math:`m`."""
    return block_rotation(position * default_inverse_frequencies(dim, base))


def softmax(scores):
    r"""Softmax along the last axis, :math:`e^{s_j} / \sum_{j'} e^{s_{j'}}`, shifted by the
    row's maximum so that no exponential overflows."""
    shifted = scores - np.max(scores, axis=-1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=-1, keepdims=True)


def softmax_attention(q, k, v, causal=False):
    r""":math:`\operatorname{softmax}(QK^\top/\sqrt{d})\,V`; ``causal`` hides later keys.

    ``q`` ``(..., n_q, d)``, ``k`` ``(..., n_k, d)``, ``v`` ``(..., n_k, d_v)`` ->
    ``(output (..., n_q, d_v), weights (..., n_q, n_k))``.
    """
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        future = np.triu(np.ones(scores.shape[-2:], dtype=bool), k=1)
        scores = np.where(future, -np.inf, scores)
    weights = softmax(scores)
    return weights @ v, weights


def relative_scores(q, k, positions_q, positions_k, base=10000.0):
    r"""Scores :math:`(R_{\Theta,m}\mathbf{q}_m)^\top (R_{\Theta,n}\mathbf{k}_n)`.

    ``q`` ``(n_q, d)``, ``k`` ``(n_k, d)`` -> scores ``(n_q, n_k)``.
    """
    rotated_q = apply_rope_complex(q, positions_q, base)
    rotated_k = apply_rope_complex(k, positions_k, base)
    return rotated_q @ rotated_k.T


def rope_attention(q, k, v, positions, base=10000.0, causal=False):
    r"""Attention on rotated queries and keys; the values are not rotated.

    Shapes as :func:`softmax_attention`, ``positions`` ``(..., seq)``.
    """
    rotated_q = apply_rope_complex(q, positions, base)
    rotated_k = apply_rope_complex(k, positions, base)
    return softmax_attention(rotated_q, rotated_k, v, causal)


def sinusoidal_position_embedding(positions, dim, base=10000.0):
    r"""The Transformer's table :math:`P_{m,2i} = \sin m\theta_i`, :math:`P_{m,2i+1} = \cos m\theta_i`.

    ``positions`` ``(...)`` -> table ``(..., dim)``.
    """
    frequencies = default_inverse_frequencies(dim, base)   # (dim/2,)
    angles = positions[..., None] * frequencies            # (..., dim/2)
    table = np.empty(angles.shape[:-1] + (dim,))
    table[..., 0::2], table[..., 1::2] = np.sin(angles), np.cos(angles)
    return table
