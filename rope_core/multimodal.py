r"""RoPE beyond one dimension: image grids (axial and mixed 2-D RoPE) and Qwen2-VL's M-RoPE.

All three rotate each feature pair :math:`i` by an angle that is a *linear* function of a
position vector :math:`\mathbf{p}` (row and column, or time, height and width):
:math:`\phi_i(\mathbf{p}) = \boldsymbol{\omega}_i \cdot \mathbf{p}`. Because rotations add
angles, the score of a rotated query and key then depends on :math:`\mathbf{p}_k - \mathbf{p}_q`
only, exactly as in 1-D.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._checks import check_base, check_dim, check_int, check_layout, check_real_array
from .apply import rotate_every_two, rotate_half
from .frequencies import inverse_frequencies


def rotate_pairs(x, angles, *, layout="half"):
    r"""Rotate every feature pair of ``x`` by its own angle.

    Parameters
    ----------
    x : array_like, shape (..., seq_len, d)
    angles : array_like, shape broadcastable to (..., seq_len, d // 2)
        Angle of each pair, in radians.
    layout : {"half", "interleaved"}
        Pairs :math:`(i, i + d/2)` or :math:`(2i, 2i + 1)`.

    Returns
    -------
    ndarray, shape (..., seq_len, d), float64
        :math:`x \odot \cos\phi + \operatorname{rot}(x) \odot \sin\phi`, each pair's angle
        repeated over its two features.

    Examples
    --------
    >>> rotate_pairs(np.array([[1.0, 0.0]]), np.array([[np.pi / 2]])).round(12)
    array([[0., 1.]])
    """
    x = check_real_array(x, "x", min_ndim=2).astype(np.float64)
    check_layout(layout)
    angles = check_real_array(angles, "angles").astype(np.float64)
    if x.shape[-1] % 2 or angles.shape[-1] != x.shape[-1] // 2:
        raise ValueError(f"angles must have a last axis of "
                         f"d // 2 = {x.shape[-1] // 2}, got shape {angles.shape}")
    if layout == "half":
        cos, sin = np.tile(np.cos(angles), 2), np.tile(np.sin(angles), 2)
        return x * cos + rotate_half(x) * sin
    cos, sin = np.repeat(np.cos(angles), 2, -1), np.repeat(np.sin(angles), 2, -1)
    return x * cos + rotate_every_two(x) * sin


def _grid_positions(values, name, seq_len):
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a numeric array, got a string")
    array = np.asarray(values)
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be an integer or float array, got dtype {array.dtype}")
    array = np.atleast_1d(array.astype(np.float64))
    if array.shape[-1] not in (1, seq_len):
        raise ValueError(f"{name} must broadcast to (..., seq_len={seq_len}), got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite")
    return array


def axial_rope_2d(x, rows, cols, *, base=10000.0, layout="half"):
    r"""Axial 2-D RoPE: the first half of the pairs follows the row, the second the column.

    Parameters
    ----------
    x : array_like, shape (..., seq_len, d)
        ``d`` must be a multiple of 4 (two halves of whole pairs).
    rows, cols : array_like, shape broadcastable to (..., seq_len)
        Grid position of each token.
    base : float
    layout : {"half", "interleaved"}

    Returns
    -------
    ndarray, shape (..., seq_len, d), float64

    Notes
    -----
    With :math:`\theta_j = \text{base}^{-2j/(d/2)}`, :math:`j = 0, \dots, d/4 - 1`, pair
    :math:`j` turns by :math:`r\theta_j` and pair :math:`d/4 + j` by :math:`c\theta_j`:

    .. math::

        \phi(r, c) = (&r\theta_0, \dots, r\theta_{d/4-1}, \\
        &c\theta_0, \dots, c\theta_{d/4-1}).

    Examples
    --------
    >>> q = np.ones((1, 8))
    >>> a = axial_rope_2d(q, [3], [5]) @ axial_rope_2d(q, [4], [7]).T
    >>> b = axial_rope_2d(q, [0], [0]) @ axial_rope_2d(q, [1], [2]).T
    >>> np.allclose(a, b)
    True
    """
    x = check_real_array(x, "x", min_ndim=2)
    d = x.shape[-1]
    if d % 4:
        raise ValueError(f"x must have a last axis that is a multiple of 4 "
                         f"for axial 2-D RoPE, got {d}")
    seq_len = x.shape[-2]
    rows = _grid_positions(rows, "rows", seq_len)
    cols = _grid_positions(cols, "cols", seq_len)
    theta = inverse_frequencies(d // 2, base)                       # (d/4,)
    angles = np.concatenate(
        np.broadcast_arrays(rows[..., None] * theta, cols[..., None] * theta), axis=-1)
    return rotate_pairs(x, angles, layout=layout)


def mixed_rope_2d(x, rows, cols, theta_rows, theta_cols, *, layout="half"):
    r"""2-D RoPE with a frequency for each axis in every pair (RoPE-Mixed, Heo et al. 2024).

    Pair :math:`i` turns by :math:`r\,\theta^{\text{row}}_i + c\,\theta^{\text{col}}_i`, so it
    can follow a diagonal direction. Axial RoPE is the special case where every pair has one
    of the two frequencies equal to zero.

    Parameters
    ----------
    x : array_like, shape (..., seq_len, d)
    rows, cols : array_like, shape broadcastable to (..., seq_len)
    theta_rows, theta_cols : array_like, shape (d // 2,)
        The frequencies (learned in RoPE-Mixed).
    layout : {"half", "interleaved"}

    Returns
    -------
    ndarray, shape (..., seq_len, d), float64
    """
    x = check_real_array(x, "x", min_ndim=2)
    seq_len, pairs = x.shape[-2], x.shape[-1] // 2
    rows = _grid_positions(rows, "rows", seq_len)
    cols = _grid_positions(cols, "cols", seq_len)
    theta_rows = check_real_array(theta_rows, "theta_rows").astype(np.float64)
    theta_cols = check_real_array(theta_cols, "theta_cols").astype(np.float64)
    for name, theta in (("theta_rows", theta_rows), ("theta_cols", theta_cols)):
        if theta.shape != (pairs,) or not np.all(np.isfinite(theta)):
            raise ValueError(f"{name} must hold d // 2 = {pairs} finite numbers, got shape {theta.shape}")
    angles = rows[..., None] * theta_rows + cols[..., None] * theta_cols
    return rotate_pairs(x, angles, layout=layout)



def _check_mrope_arguments(t, h, w, dim, base, sections):
    """Validate the M-RoPE arguments shared by the two layouts; broadcast t, h, w (float64)."""
    dim = check_dim(dim)
    base = check_base(base)
    if (not isinstance(sections, (tuple, list)) or len(sections) != 3
            or any(isinstance(s, bool) or not isinstance(s, numbers.Integral) or s < 0 for s in sections)):
        raise ValueError(f"sections must be three non-negative integers, got {sections!r}")
    if sum(sections) != dim // 2:
        raise ValueError(f"sections must add up to dim // 2 = {dim // 2}, got {tuple(sections)}")
    components = [np.atleast_1d(np.asarray(p, dtype=np.float64)) for p in (t, h, w)]
    for name, component in zip("thw", components):
        if not np.all(np.isfinite(component)):
            raise ValueError(f"{name} must be finite")
    return dim, base, np.broadcast_arrays(*components)

def mrope_angles(t, h, w, dim, *, sections=(16, 24, 24), base=10000.0):
    r"""Qwen2-VL's M-RoPE angles: consecutive sections of pairs follow time, height, width.

    Parameters
    ----------
    t, h, w : array_like, shape (..., seq_len)
        The three position components of each token. Text tokens use ``t = h = w``.
    dim : int
        Head dimension :math:`d`; ``sum(sections)`` must equal ``dim // 2``.
    sections : tuple of three int
        Number of pairs for time, height and width (Qwen2-VL: 16, 24, 24 for ``d = 128``).
    base : float

    Returns
    -------
    ndarray, shape (..., seq_len, dim // 2)
        :math:`\phi_i = p^{(s(i))}\,\theta_i` with :math:`\theta_i = \text{base}^{-2i/d}` over the
        full head and :math:`s(i)` the section of pair :math:`i`.

    Examples
    --------
    >>> mrope_angles([2], [2], [2], 8, sections=(1, 2, 1)).round(4)
    array([[2.   , 0.2  , 0.02 , 0.002]])
    """
    dim, base, (t, h, w) = _check_mrope_arguments(t, h, w, dim, base, sections)
    section_of_pair = np.repeat([0, 1, 2], sections)                 # (d/2,)
    positions = np.stack([t, h, w], axis=-1)[..., section_of_pair]   # (..., L, d/2)
    return positions * inverse_frequencies(dim, base)


def mrope(x, t, h, w, *, sections=(16, 24, 24), base=10000.0):
    r"""Apply M-RoPE (Qwen2-VL) to ``x`` in the half layout, as transformers does.

    Parameters
    ----------
    x : array_like, shape (..., seq_len, d)
    t, h, w : array_like, shape (..., seq_len)
    sections : tuple of three int
    base : float

    Returns
    -------
    ndarray, shape (..., seq_len, d), float64
        With ``t = h = w = m`` this is 1-D RoPE at position ``m``.

    Examples
    --------
    >>> x = np.random.default_rng(0).normal(size=(3, 8))
    >>> from rope_core import apply_rope
    >>> np.allclose(mrope(x, [0, 1, 2], [0, 1, 2], [0, 1, 2], sections=(1, 2, 1)),
    ...             apply_rope(x, [0, 1, 2], layout="half"))
    True
    """
    x = check_real_array(x, "x", min_ndim=2)
    for name, component in (("t", t), ("h", h), ("w", w)):
        _grid_positions(component, name, x.shape[-2])
    return rotate_pairs(x, mrope_angles(t, h, w, x.shape[-1], sections=sections, base=base), layout="half")


def qwen2_vl_positions(n_text_before, grid_h, grid_w, n_text_after=0):
    r"""The (t, h, w) positions Qwen2-VL gives a text prefix, one image and a text suffix.

    Text tokens count up with ``t = h = w``; the image's tokens share ``t`` (the next text
    index) and add their row and column to it; text after the image resumes from one past the
    largest position used so far.

    Returns
    -------
    t, h, w : ndarray of int, shape (n_text_before + grid_h * grid_w + n_text_after,)

    Examples
    --------
    >>> t, h, w = qwen2_vl_positions(2, 2, 2, 1)
    >>> t.tolist(), h.tolist(), w.tolist()
    ([0, 1, 2, 2, 2, 2, 4], [0, 1, 2, 2, 3, 3, 4], [0, 1, 2, 3, 2, 3, 4])
    """
    for name, value in (("n_text_before", n_text_before), ("grid_h", grid_h), ("grid_w", grid_w),
                        ("n_text_after", n_text_after)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    text = np.arange(n_text_before)
    start = n_text_before
    rows, cols = np.meshgrid(np.arange(grid_h), np.arange(grid_w), indexing="ij")
    image_t = np.full(grid_h * grid_w, start)
    image_h, image_w = start + rows.ravel(), start + cols.ravel()
    resume = start + max(grid_h, grid_w) if grid_h * grid_w else start
    after = resume + np.arange(n_text_after)
    t = np.concatenate([text, image_t, after]).astype(int)
    h = np.concatenate([text, image_h, after]).astype(int)
    w = np.concatenate([text, image_w, after]).astype(int)
    return t, h, w


def interleaved_mrope_angles(t, h, w, dim, *, sections=(24, 20, 20), base=5000000.0):
    r"""Qwen3-VL's interleaved M-RoPE angles: pairs follow t, h, w in turn, T H W T H W ...

    transformers' ``Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope`` starts from the time
    angles and overwrites pairs :math:`1, 4, 7, \dots < 3 s_h` with the height angles and pairs
    :math:`2, 5, 8, \dots < 3 s_w` with the width angles; the remaining pairs (including the
    slowest ones beyond :math:`3\max(s_h, s_w)`) follow time. Every axis thus gets fast *and*
    slow frequencies, where Qwen2-VL's consecutive sections give time only the fastest.

    Parameters
    ----------
    t, h, w : array_like, shape (..., seq_len)
        The three position components of each token (text: ``t = h = w``).
    dim : int
        Head dimension :math:`d`; ``sum(sections)`` must equal ``dim // 2``.
    sections : tuple of three int
        Pairs for time, height and width (Qwen3-VL: 24, 20, 20 for ``d = 128``).
    base : float

    Returns
    -------
    ndarray, shape (..., seq_len, dim // 2)

    Examples
    --------
    >>> angles = interleaved_mrope_angles([1], [10], [100], 12, sections=(2, 2, 2))
    >>> (angles / inverse_frequencies(12, 5000000.0)).round(9).tolist()   # the position per pair
    [[1.0, 10.0, 100.0, 1.0, 10.0, 100.0]]
    """
    dim, base, (t, h, w) = _check_mrope_arguments(t, h, w, dim, base, sections)
    axis_of_pair = interleaved_mrope_axes(dim, sections)
    positions = np.stack([t, h, w], axis=-1)[..., axis_of_pair]
    return positions * inverse_frequencies(dim, base)


def interleaved_mrope_axes(dim, sections=(24, 20, 20)):
    r"""Which axis (0 = t, 1 = h, 2 = w) each pair follows in interleaved M-RoPE.

    Examples
    --------
    >>> interleaved_mrope_axes(16, (4, 2, 2)).tolist()
    [0, 1, 2, 0, 1, 2, 0, 0]
    """
    pairs = check_dim(dim) // 2
    axes = np.zeros(pairs, dtype=np.int64)
    for axis, offset in ((1, 1), (2, 2)):
        axes[offset : min(3 * int(sections[axis]), pairs) : 3] = axis
    return axes


def interleaved_mrope(x, t, h, w, *, sections=(24, 20, 20), base=5000000.0):
    r"""Apply Qwen3-VL's interleaved M-RoPE to ``x`` in the half layout.

    Returns
    -------
    ndarray, shape (..., seq_len, d), float64
        With ``t = h = w = m`` this is 1-D RoPE at position ``m``.
    """
    x = check_real_array(x, "x", min_ndim=2)
    return rotate_pairs(x, interleaved_mrope_angles(t, h, w, x.shape[-1], sections=sections, base=base),
                        layout="half")


def time_aligned_temporal_ids(grid_t, second_per_grid_t, tokens_per_second=2):
    r"""Qwen2.5-VL's temporal position ids of a video's temporal patches, aligned to seconds.

    transformers' ``Qwen2_5_VLModel.get_rope_index`` gives temporal patch :math:`k` the id
    :math:`\lfloor k \cdot \text{second\_per\_grid\_t} \cdot \text{tokens\_per\_second} \rfloor`
    (before adding the start offset), so the same time in seconds gets the same id whatever the
    frame rate; Qwen2-VL used :math:`k`. (Some transformers versions first convert
    ``second_per_grid_t`` to the integer dtype of the index, which truncates fractional values;
    this follows the floating-point formula.)

    Parameters
    ----------
    grid_t : int
        Number of temporal patches (>= 1).
    second_per_grid_t : float
        Seconds of video per temporal patch (temporal patch size / sampled fps), > 0.
    tokens_per_second : float
        ``vision_config.tokens_per_second`` (2 in Qwen2.5-VL).

    Returns
    -------
    ndarray of int64, shape (grid_t,)

    Examples
    --------
    >>> time_aligned_temporal_ids(4, 1.0).tolist()     # 2 fps sampled, patches of 2 frames
    [0, 2, 4, 6]
    >>> time_aligned_temporal_ids(4, 0.5).tolist()     # 4 fps: the same seconds, the same ids
    [0, 1, 2, 3]
    """
    grid_t = check_int(grid_t, "grid_t", min=1)
    for name, value in (("second_per_grid_t", second_per_grid_t),
                        ("tokens_per_second", tokens_per_second)):
        real = isinstance(value, numbers.Real) and not isinstance(value, bool)
        if not real or not np.isfinite(value) or value <= 0:
            raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    seconds = np.arange(grid_t) * float(second_per_grid_t)
    return np.floor(seconds * float(tokens_per_second)).astype(np.int64)


def qwen3_vl_video_positions(n_frames, grid_h, grid_w, timestamp_tokens):
    r"""The (t, h, w) positions Qwen3-VL gives a video: one frame at a time, after its timestamp.

    Qwen3-VL replaced Qwen2.5-VL's seconds-aligned temporal ids (:func:`time_aligned_temporal_ids`)
    by *text*: each frame is preceded by timestamp tokens (``<t1> <vision_start> frame1
    <vision_end> <t2> ...``), and transformers' ``Qwen3VLModel.get_rope_index`` splits
    ``video_grid_thw`` into frames of one temporal patch each. Every frame is then placed like
    an image of :func:`qwen2_vl_positions`: its tokens share ``t`` and add row and column; the
    following text resumes one past the largest position used. The distance between two frames
    in ``t`` counts tokens, not seconds; the time is read from the timestamp text.

    Parameters
    ----------
    n_frames : int
        Temporal patches of the video (>= 1).
    grid_h, grid_w : int
        Merged patches per frame along height and width (>= 1).
    timestamp_tokens : int
        Text tokens before each frame (its timestamp and the vision-start token), >= 0.

    Returns
    -------
    t, h, w : ndarray of int, shape (n_frames * (timestamp_tokens + grid_h * grid_w),)

    Examples
    --------
    >>> t, h, w = qwen3_vl_video_positions(2, 1, 2, 1)
    >>> t.tolist(), w.tolist()
    ([0, 1, 1, 3, 4, 4], [0, 1, 2, 3, 4, 5])
    """
    n_frames = check_int(n_frames, "n_frames", min=1)
    grid_h = check_int(grid_h, "grid_h", min=1)
    grid_w = check_int(grid_w, "grid_w", min=1)
    timestamp_tokens = check_int(timestamp_tokens, "timestamp_tokens", min=0)
    parts, start = [], 0
    for _ in range(n_frames):
        t, h, w = qwen2_vl_positions(timestamp_tokens, grid_h, grid_w)
        parts.append((t + start, h + start, w + start))
        start += timestamp_tokens + max(grid_h, grid_w)
    return tuple(np.concatenate([p[axis] for p in parts]) for axis in range(3))
