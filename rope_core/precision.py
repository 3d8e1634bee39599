r"""What happens when RoPE angles are formed in low precision (the pitfall, emulated in NumPy).

:func:`rope_core.apply_rope` forms the angles :math:`m\theta_i` in float64 and casts only the
finished cos and sin. Many implementations instead build ``positions * inv_freq`` in the
model's dtype. This module reproduces that computation in float32, float16 or bfloat16 and
measures the error it causes, so the book can show how it grows with the position.
"""

from __future__ import annotations

import numpy as np

from ._checks import check_base, check_dim, check_positions
from .frequencies import inverse_frequencies

DTYPES = ("float64", "float32", "float16", "bfloat16")


def to_bfloat16(x):
    r"""Round to the nearest bfloat16 (ties to even), returned as float32 values.

    bfloat16 keeps float32's 8 exponent bits and 7 of its 23 mantissa bits, so every integer
    up to 256 is exact and above that only every 2nd, 4th, ... integer is.

    Parameters
    ----------
    x : array_like
        Finite real numbers (NaN and inf pass through).

    Returns
    -------
    ndarray of float32, shape of ``x``

    Examples
    --------
    >>> to_bfloat16([256.0, 257.0, 258.0, 1000.0]).tolist()
    [256.0, 256.0, 258.0, 1000.0]
    """
    bits = np.ascontiguousarray(np.asarray(x, dtype=np.float32)).view(np.uint32).astype(np.uint64)
    rounding = 0x7FFF + ((bits >> 16) & 1)          # round half to even on the dropped 16 bits
    rounded = ((bits + rounding) >> 16) << 16
    finite = np.isfinite(np.asarray(x, dtype=np.float32))
    rounded = np.where(finite, rounded, bits)        # keep NaN and inf untouched
    return rounded.astype(np.uint32).view(np.float32)


def _cast(values, dtype):
    if dtype == "bfloat16":
        return to_bfloat16(values)
    with np.errstate(over="ignore"):  # float16 overflows above 65504: inf is the honest answer
        return np.asarray(values, dtype=dtype)


def angles_in_dtype(positions, dim, base=10000.0, dtype="float32"):
    r"""The angles :math:`m\theta_i` as an implementation that works in ``dtype`` forms them.

    Positions and frequencies are rounded to ``dtype``, multiplied, and the product rounded
    again, as ``positions.to(dtype) * inv_freq.to(dtype)`` does in a framework.

    Parameters
    ----------
    positions : array_like, shape (seq_len,)
    dim : int
    base : float
    dtype : {"float64", "float32", "float16", "bfloat16"}

    Returns
    -------
    ndarray of float64, shape (seq_len, dim // 2)
        The low-precision angles, as exact float64 numbers; ``inf`` where ``dtype`` cannot
        hold the position (float16 above 65504).

    Examples
    --------
    >>> angles_in_dtype([300], dim=2, dtype="bfloat16").tolist()
    [[300.0]]
    >>> angles_in_dtype([301], dim=2, dtype="bfloat16").tolist()
    [[300.0]]
    """
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {DTYPES}, got {dtype!r}")
    dim, base = check_dim(dim), check_base(base)
    positions = np.atleast_1d(np.asarray(positions))
    if positions.ndim != 1:
        raise ValueError(f"positions must be 1-D, got shape {positions.shape}")
    positions = check_positions(positions, positions.shape[0])
    theta = inverse_frequencies(dim, base)
    if dtype == "float64":
        return positions[:, None] * theta
    product = (_cast(positions, dtype)[:, None].astype(np.float64)
               * _cast(theta, dtype).astype(np.float64))
    if dtype == "bfloat16":
        # Frameworks multiply bfloat16 operands in float32, then round to bfloat16.
        return to_bfloat16(product.astype(np.float32)).astype(np.float64)
    with np.errstate(over="ignore"):
        return np.asarray(product.astype(dtype), dtype=np.float64)


def cos_error_by_position(positions, dim, base=10000.0, dtype="float32"):
    r"""Largest error, over the pairs, of :math:`\cos(m\theta_i)` when angles are formed in ``dtype``.

    Returns
    -------
    ndarray of float64, shape (seq_len,)
        :math:`\max_i |\cos\tilde\phi_{m,i} - \cos(m\theta_i)|`, with :math:`\tilde\phi` from
        :func:`angles_in_dtype` and the reference in float64; NaN where the angle overflowed.

    Examples
    --------
    >>> float(cos_error_by_position([0], dim=8)[0])
    0.0
    """
    low = angles_in_dtype(positions, dim, base, dtype)
    exact = angles_in_dtype(positions, dim, base, "float64")
    with np.errstate(invalid="ignore"):  # cos(inf) is NaN: the error is undefined there
        return np.abs(np.cos(low) - np.cos(exact)).max(axis=-1)
