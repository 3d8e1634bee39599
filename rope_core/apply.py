r"""Applying RoPE to queries and keys: the fast form and the teaching forms.

Shapes: ``x`` is ``(..., seq_len, d)``; positions broadcast to ``(..., seq_len)``.
Two layouts pair the features of ``x``:

* ``"interleaved"``: pairs :math:`(2i, 2i+1)` (RoFormer paper, GPT-J, Meta's Llama code);
* ``"half"``: pairs :math:`(i, i + d/2)` (GPT-NeoX, Hugging Face transformers' ``rotate_half``).

Angles :math:`m\theta_i` are always formed in float64 and only the finished cos/sin are cast
to the dtype of ``x``: at position :math:`2^{20}` a float32 angle is already off by about 0.06 rad.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from ._checks import (
    check_base,
    check_dim,
    check_features,
    check_layout,
    check_out,
    check_positions,
    check_positions_fit,
    check_rotary_dim,
    check_table_arguments,
)
from .frequencies import _scaling_config, attention_factor, inverse_frequencies
from .rotation import rotation_matrix


def rope_angles(positions, dim, base=10000.0, *, rope_scaling=None):
    r"""The rotation angles :math:`m\theta_i` for every position and pair, in float64.

    Parameters
    ----------
    positions : array_like, shape (..., seq_len)
        Token positions :math:`m` (integers or floats, finite).
    dim : int
        Rotary dimension :math:`d` (even).
    base : float
        Frequency base.
    rope_scaling : dict, optional
        As in :func:`rope_core.inverse_frequencies`; dynamic schemes see
        ``seq_len = max(positions) + 1``.

    Returns
    -------
    ndarray, shape (..., seq_len, dim // 2)
        :math:`m\,\theta_i`, float64.

    Examples
    --------
    >>> rope_angles([0, 1, 2], dim=4, base=100.0)
    array([[0. , 0. ],
           [1. , 0.1],
           [2. , 0.2]])
    """
    positions = np.asarray(positions)
    if positions.ndim == 0:
        positions = positions.reshape(1)
    positions = check_positions(positions, positions.shape[-1] if positions.ndim else 1)
    theta = inverse_frequencies(dim, base, rope_scaling=rope_scaling, seq_len=_seq_len(positions))
    return positions[..., None] * theta


def _seq_len(positions):
    """The sequence length dynamic schemes see: largest position + 1 (at least 1, since
    positions may be negative, e.g. relative distances)."""
    return max(float(np.max(positions)) + 1.0, 1.0) if positions.size else None


def _block_diagonal(angles):
    """(..., d/2) angles -> (..., d, d) block-diagonal matrices of 2x2 rotations."""
    blocks = rotation_matrix(angles)  # (..., d/2, 2, 2)
    half = angles.shape[-1]
    dense = np.zeros(angles.shape[:-1] + (2 * half, 2 * half))
    for i in range(half):
        dense[..., 2 * i:2 * i + 2, 2 * i:2 * i + 2] = blocks[..., i, :, :]
    return dense


def rope_matrix(position, dim, base=10000.0):
    r"""The dense :math:`d \times d` rotation :math:`R^d_{\Theta,m}` for one position.

    Parameters
    ----------
    position : float
        The position :math:`m`.
    dim : int
        Dimension :math:`d` (even).
    base : float
        Frequency base.

    Returns
    -------
    ndarray, shape (dim, dim)
        Block-diagonal, with :math:`R(m\theta_i)` in rows and columns :math:`2i, 2i+1`
        (interleaved pairs).

    Notes
    -----
    .. math::

        R^d_{\Theta,m} = \operatorname{diag}\big(R(m\theta_0), R(m\theta_1), \dots,
        R(m\theta_{d/2-1})\big)

    Examples
    --------
    >>> rope_matrix(1, dim=4, base=100.0).round(3)
    array([[ 0.54 , -0.841,  0.   ,  0.   ],
           [ 0.841,  0.54 ,  0.   ,  0.   ],
           [ 0.   ,  0.   ,  0.995, -0.1  ],
           [ 0.   ,  0.   ,  0.1  ,  0.995]])
    """
    position = np.asarray(position)
    if position.ndim != 0:
        raise ValueError(f"position must be a single number, got shape {position.shape}")
    return _block_diagonal(rope_angles([position], dim, base)[0])


def _prepare(x, positions):
    """Validate ``x`` of shape (..., seq_len, d) and positions broadcasting to (..., seq_len)."""
    x = check_features(x, "x", min_ndim=2)
    positions = check_positions(positions, x.shape[-2])
    return x, check_positions_fit(positions, x.shape[:-1])


def apply_rope_matrix(x, positions=None, *, base=10000.0):
    r"""Teaching form: rotate each vector with the dense matrix, :math:`R^d_{\Theta,m}\,x_m`.

    Costs :math:`O(d^2)` per vector; use :func:`apply_rope` for real work.

    Parameters
    ----------
    x : array_like, shape (..., seq_len, d)
    positions : array_like, shape broadcastable to (..., seq_len), optional
        Defaults to ``0 .. seq_len - 1``.
    base : float

    Returns
    -------
    ndarray, shape (..., seq_len, d), float64

    Examples
    --------
    >>> apply_rope_matrix([[1.0, 0.0]], positions=[np.pi / 2]).round(12)
    array([[0., 1.]])
    """
    x, positions = _prepare(x, positions)
    matrices = _block_diagonal(rope_angles(positions, x.shape[-1], base))  # (..., L, d, d)
    return np.einsum("...ij,...j->...i", matrices, x)


def apply_rope_complex(x, positions=None, *, base=10000.0):
    r"""Teaching form: read each pair as a complex number and multiply by :math:`e^{im\theta_i}`.

    This is Meta's Llama implementation (``precompute_freqs_cis`` / ``apply_rotary_emb``):
    interleaved pairs :math:`(x_{2i}, x_{2i+1}) \mapsto z_i = x_{2i} + i\,x_{2i+1}`.

    Parameters
    ----------
    x : array_like, shape (..., seq_len, d)
    positions : array_like, shape broadcastable to (..., seq_len), optional
    base : float

    Returns
    -------
    ndarray, shape (..., seq_len, d), float64

    Examples
    --------
    >>> apply_rope_complex([[1.0, 0.0]], positions=[np.pi]).round(12)
    array([[-1.,  0.]])
    """
    x, positions = _prepare(x, positions)
    z = x[..., 0::2] + 1j * x[..., 1::2]                 # one complex number per pair
    z = z * np.exp(1j * rope_angles(positions, x.shape[-1], base))
    out = np.empty(z.shape[:-1] + (x.shape[-1],))
    out[..., 0::2], out[..., 1::2] = z.real, z.imag
    return out


def rotate_half(x):
    r"""Map the pairs :math:`(x_i, x_{i+d/2})` to :math:`(-x_{i+d/2}, x_i)` (half layout).

    Examples
    --------
    >>> rotate_half(np.array([1.0, 2.0, 3.0, 4.0]))
    array([-3., -4.,  1.,  2.])
    """
    x = check_features(x)
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def rotate_every_two(x):
    r"""Map the pairs :math:`(x_{2i}, x_{2i+1})` to :math:`(-x_{2i+1}, x_{2i})` (interleaved layout).

    Examples
    --------
    >>> rotate_every_two(np.array([1.0, 2.0, 3.0, 4.0]))
    array([-2.,  1., -4.,  3.])
    """
    x = check_features(x)
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = -x[..., 1::2], x[..., 0::2]
    return out


def apply_rope_elementwise(x, positions=None, *, base=10000.0, layout="interleaved"):
    r"""Teaching form: the sparse element-wise product, :math:`x \odot \cos + \operatorname{rot}(x) \odot \sin`.

    Each pair's cos and sin are repeated to match its two features: ``repeat`` (every
    value twice in a row) for interleaved pairs, ``tile`` (the table twice, end to end) for
    the half layout. Mixing the two up is a classic bug.

    Parameters
    ----------
    x : array_like, shape (..., seq_len, d)
    positions : array_like, shape broadcastable to (..., seq_len), optional
    base : float
    layout : {"interleaved", "half"}

    Returns
    -------
    ndarray, shape (..., seq_len, d), float64

    Examples
    --------
    >>> apply_rope_elementwise([[0.0, 1.0]], positions=[np.pi / 2]).round(12)
    array([[-1.,  0.]])
    """
    x, positions = _prepare(x, positions)
    check_layout(layout)
    angles = rope_angles(positions, x.shape[-1], base)   # (..., L, d/2)
    if layout == "interleaved":
        cos, sin = np.repeat(np.cos(angles), 2, -1), np.repeat(np.sin(angles), 2, -1)
        return x * cos + rotate_every_two(x) * sin
    cos, sin = np.tile(np.cos(angles), 2), np.tile(np.sin(angles), 2)
    return x * cos + rotate_half(x) * sin


# --- the fast path -----------------------------------------------------------------------

_TABLE_CACHE: OrderedDict = OrderedDict()
_TABLE_CACHE_SIZE = 16
_TABLE_CACHE_BYTES = 256 * 2**20


def _scaling_key(rope_scaling):
    """A hashable key for a (validated) scaling dict; lists and arrays become tuples."""
    if rope_scaling is None:
        return None
    _scaling_config(rope_scaling)  # raises for anything but a valid dict
    return tuple(sorted(
        (str(k), tuple(np.ravel(v).tolist()) if isinstance(v, (list, tuple, np.ndarray)) else v)
        for k, v in rope_scaling.items()
    ))


def cos_sin_tables(positions, dim, base=10000.0, *, rope_scaling=None, dtype=np.float64):
    r"""Cos and sin of :math:`m\theta_i` (times the attention factor), cached and read-only.

    Angles are formed in float64; only the results are cast to ``dtype``. The 16
    most recently used tables, up to 256 MiB, are kept (keyed by positions, dim, base,
    scaling and dtype), as a model
    that calls RoPE on every layer with the same positions would want.

    Parameters
    ----------
    positions : array_like, shape (..., seq_len)
    dim : int
    base : float
    rope_scaling : dict, optional
    dtype : numpy dtype
        Floating dtype of the returned tables.

    Returns
    -------
    cos, sin : ndarray, shape (..., seq_len, dim // 2), read-only

    Examples
    --------
    >>> cos, sin = cos_sin_tables([0, 1], dim=2)
    >>> cos.round(4), sin.round(4)
    (array([[1.    ],
           [0.5403]]), array([[0.    ],
           [0.8415]]))
    """
    positions, dim, base, dtype = check_table_arguments(positions, dim, base, dtype)
    key = ("cos_sin", positions.shape, positions.tobytes(), dim, base, _scaling_key(rope_scaling), dtype.str)
    if key in _TABLE_CACHE:
        return _recall(key)
    angles = rope_angles(positions, dim, base, rope_scaling=rope_scaling)   # float64
    scale = attention_factor(dim, base, rope_scaling=rope_scaling, seq_len=_seq_len(positions))
    cos = (np.cos(angles) * scale).astype(dtype)
    sin = (np.sin(angles) * scale).astype(dtype)
    return _remember(key, (cos, sin))


def _recall(key):
    _TABLE_CACHE.move_to_end(key)
    return _TABLE_CACHE[key]


def _remember(key, tables):
    """Cache read-only tables; drop the least recently used beyond 16 entries or 256 MiB."""
    for table in tables:
        table.flags.writeable = False
    _TABLE_CACHE[key] = tables
    while len(_TABLE_CACHE) > 1 and (
        len(_TABLE_CACHE) > _TABLE_CACHE_SIZE
        or sum(t.nbytes for entry in _TABLE_CACHE.values() for t in entry) > _TABLE_CACHE_BYTES
    ):
        _TABLE_CACHE.popitem(last=False)
    return tables


def _derived_table(kind, positions, dim, base, rope_scaling, dtype):
    r"""Cached, read-only tables built from cos_sin_tables for the fast paths.

    ``"complex"``: :math:`\cos + i \sin`, shape (..., L, d/2), for interleaved pairs.
    ``"half"``: ``[cos, cos]`` and ``[-sin, sin]``, shape (..., L, d), for the half layout.
    """
    key = (kind, positions.shape, positions.tobytes(), dim, float(base), _scaling_key(rope_scaling), dtype.str)
    if key in _TABLE_CACHE:
        tables = _recall(key)
    else:
        cos, sin = cos_sin_tables(positions, dim, base, rope_scaling=rope_scaling, dtype=np.float64)
        if kind == "complex":
            tables = _remember(key, ((cos + 1j * sin).astype(dtype),))
        else:
            tables = _remember(key, (np.concatenate([cos, cos], -1).astype(dtype),
                                     np.concatenate([-sin, sin], -1).astype(dtype)))
    return tables[0] if kind == "complex" else tables


def apply_rope(x, positions=None, *, base=10000.0, layout="interleaved", rope_scaling=None, rotary_dim=None,
               out=None):
    r"""Rotate queries or keys by their positions: :math:`x_m \mapsto R^d_{\Theta,m}\,x_m`.

    Parameters
    ----------
    x : array_like, shape (..., seq_len, d)
        Real queries or keys, one head's features on the last axis. Integer input is
        promoted to float64; float16/32/64 keep their dtype. NaN or inf inside ``x`` is data
        and propagates. ``x`` is never modified.
    positions : array_like, shape broadcastable to (..., seq_len), optional
        Positions :math:`m` (integer or float, finite); default ``0 .. seq_len - 1``. Use
        e.g. ``1000 + np.arange(seq_len)`` for new tokens after a KV cache of 1000.
    base : float
        Frequency base (``rope_theta``).
    layout : {"interleaved", "half"}
        Which features form a pair: ``(2i, 2i+1)`` or ``(i, i + d/2)``.
    rope_scaling : dict, optional
        Context-extension scheme, as in :func:`rope_core.inverse_frequencies`. When its
        :func:`rope_core.attention_factor` is not 1, cos and sin are multiplied by it (as
        transformers does), so the result is no longer norm-preserving.
    rotary_dim : int, optional
        Rotate only the first ``rotary_dim`` features (frequencies computed over
        ``rotary_dim``); the rest pass through. Default: all of ``d``.
    out : ndarray, optional
        Where to write the result: shape and dtype of the result, not overlapping ``x``.
        A model calling RoPE on every layer can reuse one buffer and skip the allocation.

    Returns
    -------
    ndarray, shape of ``x``, dtype of ``x`` (float64 for integer input)

    Notes
    -----
    For pair :math:`i` with features :math:`(a, b)`:

    .. math::

        \begin{pmatrix} a' \\ b' \end{pmatrix} =
        \begin{pmatrix} \cos m\theta_i & -\sin m\theta_i \\
                        \sin m\theta_i & \cos m\theta_i \end{pmatrix}
        \begin{pmatrix} a \\ b \end{pmatrix},
        \qquad \theta_i = \text{base}^{-2i/d}.

    Examples
    --------
    >>> apply_rope(np.array([[1.0, 0.0, 1.0, 0.0]]), positions=[1], base=100.0).round(4)
    array([[0.5403, 0.8415, 0.995 , 0.0998]])
    """
    x, positions = _prepare(x, positions)
    check_layout(layout)
    base = check_base(base)
    rotary_dim = check_rotary_dim(rotary_dim, x.shape[-1])
    out = check_out(out, x)
    if rotary_dim < x.shape[-1]:
        out[..., rotary_dim:] = x[..., rotary_dim:]
    _rotate(x[..., :rotary_dim], positions, base, layout, rope_scaling, out[..., :rotary_dim])
    return out


#: Features per block in the real-arithmetic path (256 KiB of float32): the block and its
#: two temporaries stay in the CPU cache, so x is read once and the result written once.
_BLOCK_ELEMENTS = 2**16


_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128,
               np.dtype(np.longdouble): np.clongdouble}


def _complex_view(array):
    """``array`` seen as complex pairs along the last axis, or None if that is impossible."""
    complex_dtype = _COMPLEX_OF.get(array.dtype)
    if complex_dtype is None or array.ndim == 0 or array.strides[-1] != array.itemsize:
        return None
    try:
        return array.view(complex_dtype)
    except ValueError:
        return None


def _blocks(shape, rows):
    """(index, row slice) pairs covering an array of ``shape`` (..., L, d) in blocks of rows."""
    seq_len = shape[-2]
    if seq_len < rows // 2:  # short sequences: one block, blocking would only add calls
        return [(Ellipsis, slice(None))]
    return [(index, slice(start, start + rows)) for index in np.ndindex(shape[:-2])
            for start in range(0, seq_len, rows)]


def _rotate(x, positions, base, layout, rope_scaling, out):
    """Write the rotation of ``x`` (..., L, d) into ``out``: the fast path of apply_rope."""
    dim = x.shape[-1]
    work = np.result_type(x.dtype, np.float32)  # float16 is computed in float32
    source, target = _complex_view(x), _complex_view(out)
    if layout == "interleaved" and source is not None and target is not None:
        # Interleaved pairs are complex numbers in memory: one multiply per pair, no temporaries.
        table = _derived_table("complex", positions, dim, base, rope_scaling, source.dtype)
        np.multiply(source, table, out=target)
        return
    rows = max(1, _BLOCK_ELEMENTS // max(dim, 1))
    blocks = _blocks(x.shape, rows)
    block_shape = x.shape if blocks[0][0] is Ellipsis else (min(rows, x.shape[-2]), dim)
    scratch = np.empty((2,) + block_shape, work)
    if layout == "interleaved":
        # float16 or strided arrays: copy a block to float32/64, rotate it as complex numbers.
        table = _derived_table("complex", positions, dim, base, rope_scaling, np.dtype(_COMPLEX_OF[work]))
        table = np.broadcast_to(table, x.shape[:-1] + (dim // 2,))
        for index, row_slice in _blocks(x.shape, rows):
            block_x = x[index][row_slice]
            pairs = scratch[0][..., : block_x.shape[-2], :]
            pairs[...] = block_x
            pairs_complex = pairs.view(_COMPLEX_OF[work])
            np.multiply(pairs_complex, table[index][row_slice], out=pairs_complex)
            out[index][row_slice] = pairs
        return
    # Half layout, in cache-sized blocks: [a, b] -> [a, b] * [cos, cos] + [b, a] * [-sin, sin].
    cos, signed_sin = _derived_table("half", positions, dim, base, rope_scaling, work)
    cos, signed_sin = np.broadcast_to(cos, x.shape), np.broadcast_to(signed_sin, x.shape)
    for index, row_slice in blocks:
        block_x, block_out = x[index][row_slice], out[index][row_slice]
        n = block_x.shape[-2]
        product, swapped_product = scratch[0][..., :n, :], scratch[1][..., :n, :]
        if block_out.dtype == work:
            product = block_out  # write the first product straight into the result
        pair_shape = block_x.shape[:-1] + (2, dim // 2)
        swapped = block_x.reshape(pair_shape)[..., ::-1, :]  # [b, a]: a view, no copy
        np.multiply(block_x, cos[index][row_slice], out=product)
        np.multiply(swapped, signed_sin[index][row_slice].reshape(pair_shape),
                    out=swapped_product.reshape(pair_shape))
        np.add(product, swapped_product, out=block_out)
