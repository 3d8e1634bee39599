r"""Additive absolute position embeddings: what RoPE replaces.

The Transformer of Vaswani et al. (2017, arXiv 1706.03762) adds a fixed vector
:math:`p_m` to the token embedding, :math:`q_m = W_q(x_m + p_m)`. Only NumPy is used here.
"""

from __future__ import annotations

from . import maths
from ._checks import check_base, check_dim, check_finite_numeric

__all__ = ["sinusoidal_position_embedding"]


def sinusoidal_position_embedding(positions, dim, base=10000.0):
    r"""The sinusoidal position embedding :math:`p_m` of Vaswani et al. (2017).

    Parameters
    ----------
    positions : array_like, shape (...)
        Token positions :math:`m` (integers or floats, finite).
    dim : int
        Embedding dimension :math:`d` (even).
    base : float
        Frequency base (10000 in the paper).

    Returns
    -------
    ndarray, shape (..., dim)
        :math:`p_m`, float64: sines in the even features, cosines in the odd ones.

    Notes
    -----
    For :math:`i = 0, \dots, d/2 - 1` and :math:`\omega_i = \text{base}^{-2i/d}`:

    .. math::

        p_{m,2i} &= \sin(m\,\omega_i), \\
        p_{m,2i+1} &= \cos(m\,\omega_i).

    The frequencies are the same as RoPE's :math:`\theta_i`; the difference is that the
    embedding is *added* to the token, not used to rotate it.

    Examples
    --------
    >>> sinusoidal_position_embedding([0, 1], dim=4, base=100.0).round(4)
    array([[0.    , 1.    , 0.    , 1.    ],
           [0.8415, 0.5403, 0.0998, 0.995 ]])
    """
    dim = check_dim(dim)
    base = check_base(base)
    positions = check_finite_numeric(positions, "positions")
    return maths.sinusoidal_position_embedding(positions, dim, base)
