r"""Applying RoPE to queries and keys: the fast form and the teaching forms.

Shapes: ``x`` is ``(..., seq_len, d)``; positions broadcast to ``(..., seq_len)``.
Two layouts pair the features of ``x``:

* ``"interleaved"``: pairs :math:`(2i, 2i+1)` (RoFormer paper, GPT-J, Meta's Llama code);
* ``"half"``: pairs :math:`(i, i + d/2)` (GPT-NeoX, Hugging Face transformers' ``rotate_half``).

Angles :math:`m\theta_i` are always formed in float64 and only the finished cos/sin are cast
to the dtype of ``x``: at position :math:`2^{20}` a float32 angle is already off by about 0.06 rad.
"""

from __future__ import annotations

import warnings

import numpy as np

from . import _fast, maths
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
from .blocks import block_rotation
from .frequencies import attention_factor, inverse_frequencies

#: The names practitioners use for the two layouts: vLLM and SGLang's ``is_neox_style``,
#: exllama's ``RopeStyle.NEOX`` / ``RopeStyle.GPTJ``. GPT-NeoX pairs (i, i + d/2), as
#: transformers' ``rotate_half`` does; GPT-J pairs (2i, 2i+1), as Meta's Llama code does.
LAYOUT_ALIASES = {"neox": "half", "gptj": "interleaved"}


class RopeLayoutWarning(UserWarning):
    """:func:`rope_core.apply_rope` used its default ``layout="interleaved"`` for a call made the way
    transformers calls RoPE (whose models pair features as ``"half"``)."""


def layout_name(layout):
    """The layout ``"interleaved"`` or ``"half"`` that ``layout`` names (``"gptj"`` and
    ``"neox"`` accepted).

    Examples
    --------
    >>> layout_name("neox"), layout_name("gptj"), layout_name("half")
    ('half', 'interleaved', 'half')
    """
    if isinstance(layout, str) and layout in LAYOUT_ALIASES:
        return LAYOUT_ALIASES[layout]
    return check_layout(layout)


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
    if rope_scaling is None:  # Part I's θ; the scaled θ of context extension below
        return maths.rope_angles(positions, check_dim(dim), check_base(base))
    theta = inverse_frequencies(dim, base, rope_scaling=rope_scaling,
                                seq_len=_seq_len(positions))
    return positions[..., None] * theta


def _seq_len(positions):
    """The sequence length dynamic schemes see: largest position + 1 (at least 1, since
    positions may be negative, e.g. relative distances)."""
    return max(float(np.max(positions)) + 1.0, 1.0) if positions.size else None


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

        R^d_{\Theta,m} &= \operatorname{diag}\big(R(m\theta_0), R(m\theta_1), \\
        &\qquad \dots, R(m\theta_{d/2-1})\big)

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
        raise ValueError(f"position must be a single number, "
                         f"got shape {position.shape}")
    position = check_positions(position, 1)[0]  # finite, float64
    return maths.rope_matrix(position, check_dim(dim), check_base(base))


def _check_x_and_positions(x, positions):
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
    x, positions = _check_x_and_positions(x, positions)
    d = x.shape[-1]
    angles = rope_angles(positions, d, base)                     # (..., L, d/2)
    matrices = [block_rotation(a) for a in angles.reshape(-1, d // 2)]  # one R_m per vector
    matrices = np.reshape(matrices, angles.shape[:-1] + (d, d))  # (..., L, d, d)
    return np.einsum("...ij,...j->...i", matrices, x)


def apply_rope_complex(x, positions=None, *, base=10000.0):
    r"""Teaching form: read each pair as a complex number and multiply by :math:`e^{\mathrm{i}m\theta_i}`.

    This is Meta's Llama implementation (``precompute_freqs_cis`` / ``apply_rotary_emb``):
    interleaved pairs :math:`(x_{2i}, x_{2i+1}) \mapsto z_i = x_{2i} + \mathrm{i}\,x_{2i+1}`.

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
    x, positions = _check_x_and_positions(x, positions)
    check_dim(x.shape[-1])
    return maths.apply_rope_complex(x, positions, check_base(base))


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

    Default ``layout="interleaved"``: pairs :math:`(2i, 2i+1)`; transformers' models use
    ``layout="half"``, pairs :math:`(i, i + d/2)`. Each pair's cos and sin are repeated to
    match its two features: ``repeat`` (every value twice in a row) for interleaved pairs,
    ``tile`` (the table twice, end to end) for the half layout. Mixing the two up is a
    classic bug.

    Parameters
    ----------
    x : array_like, shape (..., seq_len, d)
    positions : array_like, shape broadcastable to (..., seq_len), optional
    base : float
    layout : {"interleaved", "half", "gptj", "neox"}

    Returns
    -------
    ndarray, shape (..., seq_len, d), float64

    Examples
    --------
    >>> apply_rope_elementwise([[0.0, 1.0]], positions=[np.pi / 2]).round(12)
    array([[-1.,  0.]])
    """
    x, positions = _check_x_and_positions(x, positions)
    layout = layout_name(layout)
    angles = rope_angles(positions, x.shape[-1], base)   # (..., L, d/2)
    if layout == "interleaved":
        cos, sin = np.repeat(np.cos(angles), 2, -1), np.repeat(np.sin(angles), 2, -1)
        return x * cos + rotate_every_two(x) * sin
    cos, sin = np.tile(np.cos(angles), 2), np.tile(np.sin(angles), 2)
    return x * cos + rotate_half(x) * sin


# --- the form for real work (its table cache and kernels are in _fast.py) ---------------


def cos_sin_tables(positions, dim, base=10000.0, *, rope_scaling=None,
                   dtype=np.float64):
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

    def build():
        # float64 angles
        angles = rope_angles(positions, dim, base, rope_scaling=rope_scaling)
        scale = attention_factor(dim, base, rope_scaling=rope_scaling,
                                 seq_len=_seq_len(positions))
        return ((np.cos(angles) * scale).astype(dtype),
                (np.sin(angles) * scale).astype(dtype))

    key = _fast.table_key("cos_sin", positions, dim, base, rope_scaling, dtype)
    return _fast.cached(key, build)


def apply_rope(x, positions=None, *, base=10000.0, layout=None, rope_scaling=None, rotary_dim=None,
               out=None):
    r"""Rotate queries or keys by their positions: :math:`x_m \mapsto R^d_{\Theta,m}\,x_m`.

    Say which layout. The default is ``"interleaved"``, pairs :math:`(2i, 2i+1)` (the RoFormer
    paper, Meta's Llama code, GPT-J: ``"gptj"``). Hugging Face transformers and vLLM's default
    pair :math:`(i, i + d/2)` (``rotate_half``, GPT-NeoX: ``"half"`` or ``"neox"``): pass
    ``layout="half"`` to match a transformers model, or read its config with
    :func:`rope_core.from_config`, whose spec knows the layout. A call made the way
    transformers calls RoPE (``x`` of shape ``(batch, heads, seq, d)`` with ``position_ids``
    of shape ``(batch, seq)``) that leaves ``layout`` out gets a :class:`rope_core.apply.RopeLayoutWarning`.

    Parameters
    ----------
    x : array_like, shape (..., seq_len, d)
        Real queries or keys, one head's features on the last axis. Integer input is
        promoted to float64; float16/32/64 keep their dtype. NaN or inf inside ``x`` is data
        and propagates. ``x`` is never modified.
    positions : array_like, shape broadcastable to (..., seq_len), optional
        Positions :math:`m` (integer or float, finite, array or list); default
        ``0 .. seq_len - 1``. Use e.g. ``1000 + np.arange(seq_len)`` for new tokens after a KV
        cache of 1000. transformers' ``position_ids`` of shape ``(batch, seq_len)`` with ``x``
        of shape ``(batch, heads, seq_len, d)`` are read as transformers reads them, one row
        per batch entry shared by all heads (as ``(batch, 1, seq_len)``).
    base : float
        Frequency base (``rope_theta``).
    layout : {"interleaved", "half", "gptj", "neox"}, optional
        Which features form a pair: ``(2i, 2i+1)`` (``"interleaved"`` = ``"gptj"``, the
        default) or ``(i, i + d/2)`` (``"half"`` = ``"neox"``, transformers).
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

        \begin{pmatrix} a' \\ b' \end{pmatrix} &=
        \begin{pmatrix} \cos m\theta_i & -\sin m\theta_i \\
                        \sin m\theta_i & \cos m\theta_i \end{pmatrix}
        \begin{pmatrix} a \\ b \end{pmatrix}, \\
        \theta_i &= \text{base}^{-2i/d}.

    Examples
    --------
    >>> apply_rope(np.array([[1.0, 0.0, 1.0, 0.0]]), positions=[1], base=100.0).round(4)
    array([[0.5403, 0.8415, 0.995 , 0.0998]])
    """
    given_positions = positions
    x, positions = _check_x_and_positions(x, positions)
    if layout is None:
        if x.ndim == 4 and np.ndim(given_positions) == 2:
            warnings.warn(
                "apply_rope was called as transformers calls RoPE (x of shape (batch, heads, seq, "
                "d), positions of shape (batch, seq)) without layout=, so it used its default "
                "'interleaved' (pairs 2i, 2i+1; 'gptj'); transformers' models pair (i, i + d/2): "
                "pass layout='half' (or 'neox') for them, or layout='interleaved' to keep this",
                RopeLayoutWarning, stacklevel=2)
        layout = "interleaved"
    layout = layout_name(layout)
    base = check_base(base)
    rotary_dim = check_rotary_dim(rotary_dim, x.shape[-1])
    out = check_out(out, x)
    if rotary_dim < x.shape[-1]:
        out[..., rotary_dim:] = x[..., rotary_dim:]
    _fast.rotate_into(x[..., :rotary_dim], positions, base, layout, rope_scaling,
                      out[..., :rotary_dim], cos_sin_tables)
    return out
