"""Argument validation shared by the public functions.

Every check raises ``TypeError`` or ``ValueError`` with a message that names the argument and
says what was expected, so that the teaching functions can stay short.
"""

from __future__ import annotations

import numbers

import numpy as np

LAYOUTS = ("interleaved", "half")


def check_dim(value, name="dim"):
    """Return ``value`` as an int if it is a positive even integer, else raise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, float) and value.is_integer():
            raise TypeError(f"{name} must be an integer, got the float {value!r}")
        raise TypeError(f"{name} must be a positive even integer, got {value!r}")
    value = int(value)
    if value < 2 or value % 2:
        raise ValueError(f"{name} must be a positive even integer, got {value}")
    return value


def check_int(value, name, *, min=None, max=None):
    """Return ``value`` as an int if it is an integer within ``[min, max]``, else raise.

    ``TypeError`` for anything but an integer (``bool`` and integral floats included),
    ``ValueError`` for an integer out of range; either way the message names ``name``.
    """
    if min is not None and max is not None:
        expected = f"an integer in [{min}, {max}]"
    elif min is not None:
        expected = "a positive integer" if min == 1 else f"an integer >= {min}"
    elif max is not None:
        expected = f"an integer <= {max}"
    else:
        expected = "an integer"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be {expected}, got {value!r}")
    value = int(value)
    if (min is not None and value < min) or (max is not None and value > max):
        raise ValueError(f"{name} must be {expected}, got {value}")
    return value


def check_finite_numeric(values, name):
    """Return ``values`` as a float64 array if they are finite integers or floats, else raise.

    Shared by every argument that holds positions or distances: strings, booleans, objects
    and complex numbers are ``TypeError``; NaN or inf is ``ValueError``.
    """
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a numeric array, got a string")
    try:
        array = np.asarray(values)
    except ValueError as error:  # ragged nested lists
        raise ValueError(f"{name} must be a numeric array, got {error}") from None
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be an integer or float array, got dtype {array.dtype}")
    array = array.astype(np.float64)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite, got NaN or inf")
    return array


def check_correlation(correlation):
    """Return ``correlation`` as a float in [-1, 1], else raise."""
    if isinstance(correlation, bool) or not isinstance(correlation, numbers.Real):
        raise TypeError(f"correlation must be a real number in [-1, 1], got {correlation!r}")
    correlation = float(correlation)
    if not -1.0 <= correlation <= 1.0:
        raise ValueError(f"correlation must be in [-1, 1], got {correlation!r}")
    return correlation


def check_base(base, name="base"):
    """Return ``base`` as a float if it is finite, > 0 and != 1, else raise naming ``name``
    (a function whose bases are called ``low``/``high`` or ``start`` says so)."""
    if isinstance(base, bool) or not isinstance(base, numbers.Real):
        raise TypeError(f"{name} must be a real number > 0 and != 1, got {base!r}")
    base = float(base)
    if not np.isfinite(base) or base <= 0 or base == 1.0:
        raise ValueError(f"{name} must be finite, > 0 and != 1, got {base!r}")
    return base


def check_positive(value, name):
    """Return ``value`` as a float if it is a finite number > 0, else raise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number > 0, got {value!r}")
    value = float(value)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return value


def check_layout(layout):
    if layout not in LAYOUTS:
        raise ValueError(
            f"layout must be one of {LAYOUTS}, got {layout!r}: 'interleaved' pairs features "
            f"(2i, 2i+1) (RoFormer, Meta's Llama code, GPT-J: 'gptj'), 'half' pairs (i, i + d/2) "
            f"(Hugging Face transformers' rotate_half, GPT-NeoX: 'neox')"
        )
    return layout


def check_real_array(x, name="x", *, min_ndim=1):
    """Return ``x`` as a floating ndarray (integers promoted to float64), else raise.

    NaN and inf inside ``x`` are data and are kept.
    """
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be a real numeric array, got a string")
    try:
        array = np.asarray(x)
    except ValueError as error:  # ragged nested lists
        raise ValueError(f"{name} must be a real numeric array, got {error}") from None
    if array.dtype.kind in "iub":
        array = array.astype(np.float64)
    elif array.dtype.kind == "c":
        raise TypeError(f"{name} must be real, got the complex dtype {array.dtype}")
    elif array.dtype.kind != "f":
        raise TypeError(f"{name} must be a real numeric array, got dtype {array.dtype}")
    if array.ndim < min_ndim:
        raise ValueError(
            f"{name} must have at least {min_ndim} dimension(s), got shape {array.shape}"
        )
    return array


def check_features(x, name="x", *, min_ndim=1):
    """Like :func:`check_real_array`, and the last axis (the features) must have even length."""
    x = check_real_array(x, name, min_ndim=min_ndim)
    if x.ndim == 0 or x.shape[-1] % 2:
        raise ValueError(f"{name} must have an even last axis (d, in pairs), got shape {x.shape}")
    return x


def check_positions_fit(positions, batch_shape, name="positions"):
    """Return ``positions`` shaped to broadcast to ``batch_shape`` (x's shape without d), else raise.

    2-D positions for an x with two or more leading axes, e.g. ``(batch, seq)`` for
    ``(batch, heads, seq, d)``, are read as transformers reads ``position_ids``: one row per
    batch entry, shared by every head, so they become ``(batch, 1, ..., 1, seq)``. NumPy's
    broadcasting would pair the rows with the heads instead, silently whenever batch == heads.
    """
    batch_shape = tuple(batch_shape)
    if positions.ndim == 2 and len(batch_shape) >= 3 and positions.shape[0] != 1:
        if positions.shape[0] != batch_shape[0]:
            raise ValueError(
                f"{name} of shape {positions.shape} are read as transformers' position_ids "
                f"(batch, seq), but x has batch {batch_shape[0]} (x.shape[:-1] = {batch_shape}). "
                f"Pass one row per batch entry, or positions with one axis per leading axis of "
                f"x, e.g. (batch, 1, seq) or (1, heads, seq)"
            )
        positions = positions.reshape(
            (positions.shape[0],) + (1,) * (len(batch_shape) - 2) + (positions.shape[1],)
        )
    try:
        fits = np.broadcast_shapes(positions.shape, batch_shape) == tuple(batch_shape)
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(
            f"{name} must broadcast to x.shape[:-1] = {batch_shape}, got shape {positions.shape}; "
            f"for x of shape (batch, heads, seq, d) pass (seq,), (batch, seq) or (batch, 1, seq)"
        )
    return positions


def check_positions(positions, seq_len, name="positions"):
    """Return positions as a finite float64 array (at least 1-D), else raise.

    ``None`` gives ``0, 1, ..., seq_len - 1``. Whether they fit x is
    :func:`check_positions_fit`'s job.
    """
    if positions is None:
        return np.arange(seq_len, dtype=np.float64)
    array = check_finite_numeric(positions, name)
    if array.ndim == 0:
        array = array.reshape(1)
    return array


def check_rotary_dim(rotary_dim, dim):
    if rotary_dim is None:
        return dim
    rotary_dim = check_dim(rotary_dim, "rotary_dim")
    if rotary_dim > dim:
        raise ValueError(f"rotary_dim must be <= the last axis of x ({dim}), got {rotary_dim}")
    return rotary_dim


def check_out(out, x):
    """Return a fresh result array for ``x``, or ``out`` if it can take the result, else raise."""
    if out is None:
        return np.empty(x.shape, x.dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be None or a numpy array, got {type(out).__name__}")
    if out.shape != x.shape or out.dtype != x.dtype:
        raise ValueError(
            f"out must have the shape {x.shape} and dtype {x.dtype} of the result, "
            f"got {out.shape} and {out.dtype}"
        )
    if not out.flags.writeable:
        raise ValueError("out must be writeable")
    if np.may_share_memory(out, x):
        raise ValueError("out must not overlap x (x is never modified)")
    return out


def check_table_arguments(positions, dim, base, dtype):
    """Validate the arguments of ``cos_sin_tables``; positions come back contiguous float64."""
    positions = np.asarray(positions) if not isinstance(positions, (str, bytes)) else positions
    seq_len = positions.shape[-1] if getattr(positions, "ndim", 0) else 1
    positions = np.ascontiguousarray(check_positions(positions, seq_len))
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        raise TypeError(f"dtype must be a floating dtype, got {dtype}")
    return positions, check_dim(dim), check_base(base), dtype
