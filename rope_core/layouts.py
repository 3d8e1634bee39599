r"""Moving between the interleaved and the half layouts.

The interleaved layout pairs features :math:`(2i, 2i+1)`, the half layout pairs
:math:`(i, i + d/2)`. Both are RoPE; they differ by a fixed permutation of the features,
``[0, 2, 4, ..., d-2, 1, 3, ..., d-1]``, which is what converting a Meta Llama checkpoint to
Hugging Face transformers does to the rows of :math:`W_q` and :math:`W_k`, head by head.
"""

from __future__ import annotations

import numpy as np

from ._checks import check_dim, check_features, check_int, check_real_array


def interleaved_to_half_permutation(dim):
    """Feature order that takes an interleaved vector to the half layout.

    Examples
    --------
    >>> interleaved_to_half_permutation(6)
    array([0, 2, 4, 1, 3, 5])
    """
    dim = check_dim(dim)
    return np.concatenate([np.arange(0, dim, 2), np.arange(1, dim, 2)])


def interleaved_to_half(x):
    r"""Reorder the last axis from interleaved pairs to half pairs.

    Parameters
    ----------
    x : array_like, shape (..., d)

    Returns
    -------
    ndarray, shape (..., d)
        ``x[..., [0, 2, ..., d-2, 1, 3, ..., d-1]]``, so that the pair :math:`(2i, 2i+1)` of
        ``x`` becomes the pair :math:`(i, i + d/2)`.

    Examples
    --------
    >>> interleaved_to_half(np.array([0.0, 1.0, 2.0, 3.0]))
    array([0., 2., 1., 3.])
    """
    x = check_features(x, "x")
    return x[..., interleaved_to_half_permutation(x.shape[-1])]


def half_to_interleaved(x):
    r"""Reorder the last axis from half pairs back to interleaved pairs (the inverse).

    Examples
    --------
    >>> half_to_interleaved(np.array([0.0, 2.0, 1.0, 3.0]))
    array([0., 1., 2., 3.])
    """
    x = check_features(x, "x")
    return x[..., np.argsort(interleaved_to_half_permutation(x.shape[-1]))]


def permute_for_half_layout(w, n_heads):
    r"""Permute the rows of a :math:`W_q` or :math:`W_k` projection from interleaved to half layout.

    Parameters
    ----------
    w : array_like, shape (n_heads * head_dim, d_model)
        A projection whose output, head by head, is used in the interleaved layout.
    n_heads : int
        Number of heads; ``head_dim = w.shape[0] // n_heads`` must be even.

    Returns
    -------
    ndarray, shape (n_heads * head_dim, d_model)
        The same projection for the half layout: within each head, rows
        ``[0, 2, ..., head_dim-2, 1, 3, ..., head_dim-1]``. Attention scores computed with
        ``apply_rope(..., layout="half")`` on the new projection equal those computed with
        the interleaved layout on the old one.

    Examples
    --------
    >>> permute_for_half_layout(np.arange(8.0)[:, None], n_heads=2).ravel()
    array([0., 2., 1., 3., 4., 6., 5., 7.])
    """
    w = check_real_array(w, "w", min_ndim=2)
    if w.ndim != 2:
        raise ValueError(f"w must be a 2-D (n_heads * head_dim, d_model) matrix, "
                         f"got shape {w.shape}")
    n_heads = check_int(n_heads, "n_heads", min=1)
    if w.shape[0] % n_heads:
        raise ValueError(f"w.shape[0] ({w.shape[0]}) must be a multiple of "
                         f"n_heads ({n_heads})")
    head_dim = check_dim(w.shape[0] // n_heads, "head_dim (w.shape[0] // n_heads)")
    heads = w.reshape(n_heads, head_dim, w.shape[1])
    return heads[:, interleaved_to_half_permutation(head_dim), :].reshape(w.shape)
