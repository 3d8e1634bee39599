"""The fast path of :func:`rope_core.apply_rope`: a table cache and two blocked kernels.

Nothing here is needed to understand RoPE (the teaching forms in :mod:`rope_core.apply` are
the whole maths); this is what makes ``apply_rope`` cost about a copy of ``x``:

* cos/sin tables are cached, keyed by everything they depend on (positions, dim, base,
  scaling, dtype): a model calls RoPE on every layer with the same positions;
* interleaved pairs are complex numbers in memory, so a contiguous float32/64 ``x`` is rotated
  by one complex multiply per pair, with no temporaries, in blocks of positions whose table
  stays in cache while every head and batch entry uses it;
* the half layout (and float16 or strided input) is rotated in cache-sized blocks of rows.
"""

from __future__ import annotations

import numbers
from collections import OrderedDict

import numpy as np

from .frequencies import _scaling_config

#: The tables most recently used, oldest first: at most this many entries and bytes.
_TABLE_CACHE: OrderedDict = OrderedDict()
_TABLE_CACHE_SIZE = 16
_TABLE_CACHE_BYTES = 256 * 2**20


def clear_table_cache():
    """Forget every cached cos/sin table (for cold-start measurements and tests).

    Examples
    --------
    >>> from rope_core import apply_rope, clear_table_cache
    >>> _ = apply_rope(np.ones((4, 8)))
    >>> clear_table_cache()
    """
    _TABLE_CACHE.clear()


def _canonical(value):
    """A hashable, order-independent stand-in for a scaling value (dicts, lists, arrays)."""
    if isinstance(value, dict):
        return ("dict", tuple(sorted((str(k), _canonical(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple, np.ndarray)):
        return ("seq", tuple(_canonical(v) for v in np.asarray(value, dtype=object).ravel()))
    if value is None or isinstance(value, (bool, np.bool_, str)):
        return value
    if isinstance(value, numbers.Real):
        return float(value)
    return repr(value)


def scaling_key(rope_scaling):
    """A hashable key for a scaling block, validated first so that a bad block (a whole
    config, a per-layer dict, an unknown key) gets its own error, not ``unhashable type``."""
    if rope_scaling is None:
        return None
    _scaling_config(rope_scaling)
    return _canonical(rope_scaling)


def table_key(kind, positions, dim, base, rope_scaling, dtype):
    """The cache key of one table: everything the table depends on."""
    return (kind, positions.shape, positions.tobytes(), int(dim), float(base),
            scaling_key(rope_scaling), np.dtype(dtype).str)


def cached(key, build):
    """The tables cached under ``key``, or ``build()``'s, made read-only and cached.

    Least recently used entries are dropped beyond 16 entries or 256 MiB.
    """
    if key in _TABLE_CACHE:
        _TABLE_CACHE.move_to_end(key)
        return _TABLE_CACHE[key]
    tables = build()
    for table in tables:
        table.flags.writeable = False
    _TABLE_CACHE[key] = tables
    while len(_TABLE_CACHE) > 1 and (
        len(_TABLE_CACHE) > _TABLE_CACHE_SIZE
        or sum(t.nbytes for entry in _TABLE_CACHE.values() for t in entry) > _TABLE_CACHE_BYTES
    ):
        _TABLE_CACHE.popitem(last=False)
    return tables


def _derived_table(kind, positions, dim, base, rope_scaling, dtype, cos_sin_tables):
    r"""Cached, read-only tables built from the float64 cos/sin tables, for the kernels.

    ``"complex"``: :math:`\cos + \mathrm{i}\sin`, shape (..., L, d/2), for interleaved pairs.
    ``"half"``: ``[cos, cos]`` and ``[-sin, sin]``, shape (..., L, d), for the half layout.
    """
    def build():
        cos, sin = cos_sin_tables(positions, dim, base, rope_scaling=rope_scaling,
                                  dtype=np.float64)
        if kind == "complex":
            return ((cos + 1j * sin).astype(dtype),)
        return (np.concatenate([cos, cos], -1).astype(dtype),
                np.concatenate([-sin, sin], -1).astype(dtype))

    tables = cached(table_key(kind, positions, dim, base, rope_scaling, dtype), build)
    return tables[0] if kind == "complex" else tables


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


#: Bytes of the table rows one step of :func:`_multiply_by_table` reuses (fits a core's L2).
_TABLE_BLOCK_BYTES = 2**17


def _multiply_by_table(source, table, target):
    """``target = source * table`` with a table of shape (L, d/2) shared by every leading index.

    One broadcast multiply streams the whole table again for each leading index (each head
    of each batch entry): as many bytes as ``x`` itself. Taking the rows in blocks and all
    leading indices within a block reads each table block once, while it is in cache.
    """
    rows = max(1, _TABLE_BLOCK_BYTES // max(table.itemsize * table.shape[-1], 1))
    if (table.ndim != 2 or source.ndim < 3 or source.shape[-2] != table.shape[0]
            or rows >= table.shape[0] or not source.flags.c_contiguous
            or not target.flags.c_contiguous):
        np.multiply(source, table, out=target)
        return
    lead = int(np.prod(source.shape[:-2]))
    source_3d = source.reshape(lead, *source.shape[-2:])     # views: both are C-contiguous
    target_3d = target.reshape(lead, *target.shape[-2:])
    for start in range(0, table.shape[0], rows):
        block = slice(start, start + rows)
        np.multiply(source_3d[:, block], table[block], out=target_3d[:, block])


def rotate_into(x, positions, base, layout, rope_scaling, out, cos_sin_tables):
    """Write the rotation of ``x`` (..., L, d) into ``out``: the fast path of apply_rope.

    ``cos_sin_tables`` is :func:`rope_core.apply.cos_sin_tables`, passed in so that this
    module does not import the teaching module; the kernels derive their tables from it.
    """
    dim = x.shape[-1]
    work = np.result_type(x.dtype, np.float32)  # float16 is computed in float32
    source, target = _complex_view(x), _complex_view(out)
    if layout == "interleaved" and source is not None and target is not None:
        # Interleaved pairs are complex numbers in memory: one multiply per pair, no temporaries.
        table = _derived_table("complex", positions, dim, base, rope_scaling, source.dtype,
                               cos_sin_tables)
        _multiply_by_table(source, table, target)
        return
    rows = max(1, _BLOCK_ELEMENTS // max(dim, 1))
    blocks = _blocks(x.shape, rows)
    block_shape = x.shape if blocks[0][0] is Ellipsis else (min(rows, x.shape[-2]), dim)
    scratch = np.empty((2,) + block_shape, work)
    if layout == "interleaved":
        # float16 or strided arrays: copy a block to float32/64, rotate it as complex numbers.
        table = _derived_table("complex", positions, dim, base, rope_scaling,
                               np.dtype(_COMPLEX_OF[work]), cos_sin_tables)
        table = np.broadcast_to(table, x.shape[:-1] + (dim // 2,))
        for index, row_slice in blocks:
            block_x = x[index][row_slice]
            pairs = scratch[0][..., : block_x.shape[-2], :]
            pairs[...] = block_x
            pairs_complex = pairs.view(_COMPLEX_OF[work])
            np.multiply(pairs_complex, table[index][row_slice], out=pairs_complex)
            out[index][row_slice] = pairs
        return
    # Half layout, in cache-sized blocks: [a, b] -> [a, b] * [cos, cos] + [b, a] * [-sin, sin].
    cos, signed_sin = _derived_table("half", positions, dim, base, rope_scaling, work,
                                       cos_sin_tables)
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
