r"""Serving RoPE: position ids for padded and packed batches, and re-rotating cached keys.

Chapter 12 uses these with :func:`rope_core.apply_rope`. They assume a *static* frequency
scheme (no scaling, linear, NTK-aware, YaRN, llama3): dynamic NTK and LongRoPE change the
frequencies with the length, and a rotation by a shift no longer composes with them.
"""

from __future__ import annotations

import numpy as np

from ._checks import check_int, check_real_array
from .apply import apply_rope


def position_ids_from_mask(attention_mask):
    r"""Position ids of a left- (or right-) padded batch: ``cumsum(mask) - 1``.

    The :math:`j`-th real token of a row gets position :math:`j`, wherever padding puts it;
    padding slots get 1, as transformers' ``prepare_inputs_for_generation`` fills them (their
    value does not matter: the mask hides them).

    Parameters
    ----------
    attention_mask : array_like of 0/1 (or bool), shape (batch, seq_len)

    Returns
    -------
    ndarray of int64, shape (batch, seq_len)

    Examples
    --------
    >>> position_ids_from_mask([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]]).tolist()
    [[1, 1, 0, 1, 2], [0, 1, 2, 3, 4]]
    """
    mask = check_real_array(attention_mask, "attention_mask", min_ndim=2)
    if mask.ndim != 2 or not np.all((mask == 0) | (mask == 1)):
        raise ValueError("attention_mask must be a 2-D (batch, seq_len) array of 0 and 1")
    positions = np.cumsum(mask, axis=-1).astype(np.int64) - 1
    return np.where(mask == 1, positions, 1)


def packed_position_ids(document_lengths):
    r"""Position ids of documents packed into one row: restart at 0 at every document.

    Parameters
    ----------
    document_lengths : sequence of int
        Length of each document (each >= 1), in packing order.

    Returns
    -------
    ndarray of int64, shape (sum(document_lengths),)

    Examples
    --------
    >>> packed_position_ids([3, 2, 4]).tolist()
    [0, 1, 2, 0, 1, 0, 1, 2, 3]
    """
    lengths = [check_int(n, "document_lengths", min=1) for n in np.atleast_1d(document_lengths).tolist()]
    if not lengths:
        raise ValueError("document_lengths must hold at least one length")
    return np.concatenate([np.arange(n, dtype=np.int64) for n in lengths])


def rerotate_cached_keys(keys, shift, *, base=10000.0, layout="half", rope_scaling=None):
    r"""Move keys cached at positions :math:`m` to positions :math:`m + \text{shift}`.

    A cached key is :math:`R_m\mathbf{k}`; rotating it once more by :math:`R_{s}` gives
    :math:`R_{s}R_m\mathbf{k} = R_{m+s}\mathbf{k}`, the key as if computed at :math:`m + s`.
    StreamingLLM-style caches use it with a negative shift after evicting tokens.

    Parameters
    ----------
    keys : array_like, shape (..., seq_len, dim)
        Keys already rotated by :func:`rope_core.apply_rope` with the same ``base``,
        ``layout`` and (static) ``rope_scaling``.
    shift : int
        How far to move every key (negative: towards the start).
    base, layout, rope_scaling
        As in :func:`rope_core.apply_rope`. YaRN's attention factor is *not* applied again.

    Returns
    -------
    ndarray, shape of ``keys``

    Examples
    --------
    >>> k = np.eye(4)[:1]
    >>> moved = rerotate_cached_keys(apply_rope(k, [7], layout="half"), -5)
    >>> bool(np.allclose(moved, apply_rope(k, [2], layout="half")))
    True
    """
    keys = check_real_array(keys, "keys", min_ndim=2)
    shift = check_int(shift, "shift")
    if rope_scaling is not None and (rope_scaling.get("rope_type") or rope_scaling.get("type")) in ("dynamic", "longrope"):
        raise ValueError("rope_scaling: dynamic and longrope frequencies depend on the length; "
                         "cached keys cannot be moved by a rotation (cache keys before RoPE instead)")
    moved = apply_rope(keys, np.full(keys.shape[-2], shift), base=base, layout=layout, rope_scaling=rope_scaling)
    if rope_scaling is not None:
        from .frequencies import attention_factor
        moved = moved / attention_factor(keys.shape[-1], base, rope_scaling=rope_scaling)
    return moved
