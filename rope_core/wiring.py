r"""How today's models wire RoPE into a layer: the small formulas chapter 11 needs.

Model facts (bases, layer types, which layers skip RoPE) come from :mod:`rope_core.atlas` and
:func:`rope_core.from_config`; this module holds the arithmetic around them.
"""

from __future__ import annotations

import numpy as np

from ._checks import check_finite_numeric, check_int


def _log_floor_temperature(positions, period, period_name, slope, slope_name, shift):
    """:math:`1 + \\text{slope}\\,\\ln(1 + \\lfloor (p + \\text{shift}) / \\text{period} \\rfloor)`, validated."""
    positions = check_finite_numeric(np.atleast_1d(positions), "positions")
    if np.any(positions < 0) or np.any(positions != np.round(positions)):
        raise ValueError("positions must be non-negative integers")
    period = check_int(period, period_name, min=1)
    slope = float(check_finite_numeric(slope, slope_name))
    return 1.0 + slope * np.log1p(np.floor((positions + shift) / period))


def llama4_attention_temperature(positions, *, floor_scale=8192, attn_scale=0.1):
    r"""Llama 4's query scale on its layers without RoPE ("temperature tuning").

    .. math::

        \tau(p) &= 1 + \text{attn\_scale} \\
        &\quad\cdot \ln\!\big(1 + \lfloor (p + 1)/\text{floor\_scale} \rfloor\big)

    transformers' ``Llama4TextAttention.forward`` multiplies the queries of a NoPE layer by
    :math:`\tau` at each token's position ``p`` (``attn_temperature_tuning``, ``floor_scale``
    and ``attn_scale`` in the config). It is 1 for the first ``floor_scale - 1`` positions and
    grows like a logarithm after, so that attention without positions stays sharp as the number
    of keys grows.

    Parameters
    ----------
    positions : array_like of int, shape (n,)
        Token positions (>= 0).
    floor_scale : int
        Positions per step of the floor (>= 1).
    attn_scale : float
        Slope of the logarithm.

    Returns
    -------
    ndarray of float64, shape (n,)

    Examples
    --------
    >>> llama4_attention_temperature([0, 8190, 8191, 10**6]).round(4).tolist()
    [1.0, 1.0, 1.0693, 1.4812]
    """
    return _log_floor_temperature(positions, floor_scale, "floor_scale",
                                  attn_scale, "attn_scale", 1.0)


def rms_norm(x, weight=None, *, eps=1e-6):
    r"""RMSNorm over the last axis, as QK-norm applies it per head.

    .. math:: \text{RMSNorm}(\mathbf{x}) = \mathbf{g} \odot \mathbf{x} / \sqrt{\overline{x^2} + \epsilon}

    Parameters
    ----------
    x : array_like, shape (..., d)
    weight : array_like, shape (d,), optional
        The learned gain :math:`\mathbf{g}` (ones if omitted).
    eps : float

    Returns
    -------
    ndarray of float64, shape of ``x``

    Examples
    --------
    >>> rms_norm([3.0, 4.0], eps=0.0).round(4).tolist()
    [0.8485, 1.1314]
    """
    x = check_finite_numeric(x, "x")
    if x.ndim < 1:
        raise ValueError("x must have at least one axis (the head dimension)")
    gain = np.ones(x.shape[-1]) if weight is None else check_finite_numeric(weight, "weight")
    if gain.shape != (x.shape[-1],):
        raise ValueError(f"weight must have shape ({x.shape[-1]},), got {gain.shape}")
    eps = float(check_finite_numeric(eps, "eps"))
    if eps < 0:
        raise ValueError(f"eps must be >= 0, got {eps}")
    return gain * x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)


def ministral3_attention_temperature(positions, *,
                                     original_max_position_embeddings=16384, beta=0.1):
    r"""Ministral 3's (and Mistral 4's) query scale, applied on *every* layer.

    .. math:: \tau(p) = 1 + \beta\,\ln\!\big(1 + \lfloor p / L \rfloor\big)

    with :math:`L` = ``original_max_position_embeddings`` of the YaRN block and :math:`\beta` =
    ``llama_4_scaling_beta`` (transformers ``Ministral3Attention`` and
    ``_get_llama_4_attn_scale``). Unlike :func:`llama4_attention_temperature` the floor reads
    ``p`` rather than ``p + 1``, and the layers it scales also rotate.

    Parameters
    ----------
    positions : array_like of int
        As in :func:`llama4_attention_temperature`.
    original_max_position_embeddings, beta : int, float
        The floor's step in positions (>= 1) and the logarithm's slope.

    Returns
    -------
    ndarray of float64, shape of ``positions``

    Examples
    --------
    >>> ministral3_attention_temperature([0, 16383, 16384, 262143]).round(4).tolist()
    [1.0, 1.0, 1.0693, 1.2773]
    """
    return _log_floor_temperature(positions, original_max_position_embeddings,
                                  "original_max_position_embeddings", beta, "beta", 0.0)
