r"""The frequency spectrum as the book shows it: clocks, the rotation matrix, the two layouts.

Pair :math:`i` of a :math:`d`-dimensional head turns at :math:`\theta_i = b^{-2i/d}` rad per
position, a wavelength of :math:`\lambda_i = 2\pi/\theta_i` tokens. The widgets
``FrequencyClocks``, ``RotationMatrixHeatmap`` and ``LayoutExplorer`` and their static twins in
:mod:`rope_core.plots` (``plot_frequency_clocks``, ``plot_rotation_matrix``, ``plot_layouts``)
draw the tables computed here; :data:`SPECTRUM_DEFAULTS` holds the book's example values.
"""

from __future__ import annotations

import numpy as np

from .._checks import check_base, check_dim, check_positive
from ..apply import apply_rope, rope_matrix, rotate_half
from ..attention import softmax_attention
from ..frequencies import inverse_frequencies, wavelengths
from ..layouts import interleaved_to_half, interleaved_to_half_permutation

__all__ = ["SPECTRUM_DEFAULTS", "clock_positions", "clock_table", "layout_scores", "layout_sentence_attention",
           "layout_table", "matrix_table", "position_digits"]

#: The book's examples: the clocks open on chapter 5's toy head, d = 8 at base 10^4 (so
#: beta = 10 and the odometer spells m in decimal), at m = 10 with context 256; the matrix of a
#: d = 16 head at m = 2; the d = 8 layouts with pair 1 highlighted (chapter 6).
SPECTRUM_DEFAULTS = {"dim": 8, "base": 10000.0, "context": 256, "position": 10,
                     "matrix_dim": 16, "matrix_position": 2, "layout_dim": 8, "layout_pair": 1}


def _check_positions(positions, name="positions"):
    array = np.asarray(positions)
    if array.ndim != 1 or array.size == 0 or not np.issubdtype(array.dtype, np.integer) or (array < 0).any():
        raise ValueError(f"{name} must be a non-empty 1-D sequence of integers >= 0, got {positions!r}")
    return array.astype(np.int64)


def clock_positions(max_position, linear_up_to=64, log_stops=48, include=()):
    r"""The stops of the clocks' position slider: every position up to ``linear_up_to``, then
    ``log_stops`` log-spaced positions up to ``max_position`` (rounded, without repeats), so
    that the slow hands, whose wavelengths run to :math:`10^4`–:math:`10^5` tokens, move too;
    plus every position of ``include`` up to ``max_position`` (the context lengths a question
    names, so that the slider lands on :math:`m = L` exactly).

    Returns
    -------
    numpy.ndarray of int, shape (P,)
        Increasing, starting at 0 and ending at ``max_position``.

    Examples
    --------
    >>> from rope_core.demos.spectrum import clock_positions
    >>> p = clock_positions(100_000)
    >>> int(p[64]), int(p[-1]), bool(np.all(np.diff(p) > 0))
    (64, 100000, True)
    >>> 256 in clock_positions(100_000), 256 in clock_positions(100_000, include=[256])
    (False, True)
    """
    for name, value in (("max_position", max_position), ("linear_up_to", linear_up_to), ("log_stops", log_stops)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    named = _check_positions(include, "include") if len(include) else np.zeros(0, dtype=np.int64)
    named = named[named <= max_position]
    linear = np.arange(min(linear_up_to, max_position) + 1)
    if max_position <= linear_up_to:
        return linear
    tail = np.rint(np.geomspace(linear_up_to, max_position, log_stops + 1)).astype(np.int64)
    return np.unique(np.concatenate([linear, tail, named]))


def clock_table(dim, base, positions, contexts):
    r"""Every pair as a clock hand at every position, and which pairs outlast each context.

    Parameters
    ----------
    dim : int
        Head dimension :math:`d` (even).
    base : float
        RoPE base :math:`b` (> 0, not 1).
    positions : sequence of int, shape (P,)
    contexts : sequence of int, shape (C,)

    Returns
    -------
    dict of numpy arrays
        ``theta`` (d/2,): :math:`\theta_i`; ``wavelength`` (d/2,): :math:`2\pi/\theta_i`;
        ``angle`` (P, d/2): :math:`m\theta_i` (not reduced); ``hand`` (P, d/2):
        :math:`m\theta_i \bmod 2\pi`, the drawn angle; ``cos``, ``sin`` (P, d/2): the hand's
        tip on the unit circle; ``turns`` (P, d/2): :math:`m\theta_i/2\pi`, the turns made;
        ``beyond_context`` (C, d/2) bool: :math:`\lambda_i > L`, the hand does not complete a
        turn within context :math:`L`; ``beta`` (float): :math:`\beta = b^{2/d}`, the ratio of
        consecutive wavelengths, so that :math:`\theta_i = \beta^{-i}` and hand :math:`i`
        reads :math:`m/\beta^i` (the odometer picture).

    Examples
    --------
    >>> from rope_core.demos.spectrum import clock_table
    >>> t = clock_table(8, 100.0, [0, 1, 10], [16])
    >>> np.round(t["theta"], 3).tolist(), t["beyond_context"].tolist()
    ([1.0, 0.316, 0.1, 0.032], [[False, True, True, True]])
    >>> round(t["beta"], 4), np.round(t["turns"][2], 3).tolist()
    (3.1623, [1.592, 0.503, 0.159, 0.05])
    """
    dim, base = check_dim(dim, "dim"), check_base(base)
    positions, contexts = _check_positions(positions), _check_positions(contexts, "contexts")
    theta = inverse_frequencies(dim, base)
    angle = positions[:, None] * theta
    return {"theta": theta, "wavelength": wavelengths(dim, base), "angle": angle,
            "hand": np.mod(angle, 2 * np.pi), "cos": np.cos(angle), "sin": np.sin(angle),
            "turns": angle / (2 * np.pi), "beta": float(base) ** (2 / dim),
            "beyond_context": wavelengths(dim, base)[None, :] > contexts[:, None]}


#: A quotient m/β^i within this (relative) distance of a whole number counts as that number, so
#: that rounding in θ_i = β^{-i} (1000 · 0.0009999… = 0.9999…) does not drop a digit.
DIGIT_TOLERANCE = 1e-9


def position_digits(positions, dim, base):
    r"""Digit :math:`i` of each position :math:`m` in base :math:`\beta = b^{2/d}`:
    :math:`\lfloor m/\beta^i\rfloor \bmod \beta`, for :math:`i = 0 \dots d/2 - 1`.

    Pair :math:`i` turns to :math:`m\theta_i = m/\beta^i`; the digits picture takes the same
    quotient's whole part modulo :math:`\beta`. For a whole-number :math:`\beta` (:math:`d = 8`,
    :math:`b = 10^4`: :math:`\beta = 10`) these are the digits of :math:`m` written in base
    :math:`\beta`, lowest first; for any other :math:`\beta` they are not whole numbers.

    Parameters
    ----------
    positions : sequence of int, shape (P,)
    dim : int
        Head dimension :math:`d` (even).
    base : float
        RoPE base :math:`b`.

    Returns
    -------
    digits : numpy.ndarray of float, shape (P, d/2)
        In :math:`[0, \beta)`; whole numbers when :math:`\beta` is.
    beta : float
        :math:`\beta`, snapped to the whole number it is within ``DIGIT_TOLERANCE`` of.

    Examples
    --------
    >>> from rope_core.demos.spectrum import position_digits
    >>> digits, beta = position_digits([1234, 1000], 8, 1e4)
    >>> beta, digits.astype(int).tolist()
    (10.0, [[4, 3, 2, 1], [0, 0, 0, 1]])
    """
    dim, base = check_dim(dim, "dim"), check_base(base)
    positions = _check_positions(positions)
    beta = float(base) ** (2 / dim)
    if abs(beta - round(beta)) <= DIGIT_TOLERANCE * beta:
        beta = float(round(beta))
    quotient = positions[:, None] * inverse_frequencies(dim, base)
    whole = np.floor(quotient + DIGIT_TOLERANCE * np.maximum(1.0, quotient))
    digits = np.mod(whole, beta)
    return (np.rint(digits) if beta.is_integer() else digits), beta


def matrix_table(dim, base, positions):
    r"""The non-zero entries of :math:`R^d_{\Theta,m}` (its 2 × 2 blocks) at every position.

    Returns
    -------
    dict of numpy arrays
        ``rows``, ``cols`` (2d,): where each block entry sits (row-major, block by block);
        ``blocks`` (P, 2d): the entries of :func:`rope_core.rope_matrix` there;
        ``theta``, ``wavelength`` (d/2,); ``angle`` (P, d/2): :math:`m\theta_i`;
        ``x`` (d,): the vector whose pairs all start at :math:`(1, 0)`, and ``rotated``
        (P, d): :math:`R_m x`, each pair turned by :math:`m\theta_i` (the hand of a clock).

    Examples
    --------
    >>> from rope_core.demos.spectrum import matrix_table
    >>> t = matrix_table(4, 100.0, [0, 1])
    >>> t["rows"].tolist(), t["cols"].tolist()
    ([0, 0, 1, 1, 2, 2, 3, 3], [0, 1, 0, 1, 2, 3, 2, 3])
    >>> np.round(t["blocks"][1, :4], 4).tolist()  # cos 1, -sin 1, sin 1, cos 1
    [0.5403, -0.8415, 0.8415, 0.5403]
    >>> np.round(t["rotated"][1], 4).tolist()  # (cos 1, sin 1, cos 0.1, sin 0.1)
    [0.5403, 0.8415, 0.995, 0.0998]
    """
    dim, base = check_dim(dim, "dim"), check_base(base)
    positions = _check_positions(positions)
    rows, cols = np.nonzero(np.kron(np.eye(dim // 2), np.ones((2, 2))))
    matrices = [rope_matrix(int(m), dim, base) for m in positions]
    blocks = np.stack([matrix[rows, cols] for matrix in matrices])
    x = np.tile([1.0, 0.0], dim // 2)
    theta = inverse_frequencies(dim, base)
    return {"rows": rows, "cols": cols, "blocks": blocks, "theta": theta,
            "wavelength": wavelengths(dim, base), "angle": positions[:, None] * theta,
            "x": x, "rotated": np.stack([matrix @ x for matrix in matrices])}


def layout_table(dim, base):
    r"""Which features pair up in the interleaved layout :math:`(2i, 2i+1)` and in the half
    layout :math:`(i, i + d/2)`, and the permutation between them.

    Returns
    -------
    dict of numpy arrays
        ``interleaved_pairs``, ``half_pairs`` (d/2, 2); ``interleaved_to_half`` (d,):
        :func:`rope_core.interleaved_to_half_permutation` (half feature ``j`` is interleaved
        feature ``perm[j]``); ``theta``, ``wavelength`` (d/2,); a sample vector ``x`` (d,)
        :math:`= (1, 2, \dots, d)` in the interleaved layout, ``permuted`` :math:`= Px` (its half
        layout) and ``rotated_half`` :math:`=` :func:`rope_core.rotate_half` of :math:`Px`
        (halves swapped, the new first half negated).

    Examples
    --------
    >>> from rope_core.demos.spectrum import layout_table
    >>> t = layout_table(8, 10000.0)
    >>> t["interleaved_pairs"][1].tolist(), t["half_pairs"][1].tolist(), t["interleaved_to_half"].tolist()
    ([2, 3], [1, 5], [0, 2, 4, 6, 1, 3, 5, 7])
    >>> t["permuted"].tolist(), t["rotated_half"].tolist()  # x = (1, ..., 8): P x, rotate_half(P x)
    ([1.0, 3.0, 5.0, 7.0, 2.0, 4.0, 6.0, 8.0], [-2.0, -4.0, -6.0, -8.0, 1.0, 3.0, 5.0, 7.0])
    """
    dim, base = check_dim(dim, "dim"), check_base(base)
    half = np.arange(dim // 2)
    x = np.arange(1.0, dim + 1)
    return {"interleaved_pairs": np.stack([2 * half, 2 * half + 1], axis=1),
            "half_pairs": np.stack([half, half + dim // 2], axis=1),
            "interleaved_to_half": interleaved_to_half_permutation(dim),
            "theta": inverse_frequencies(dim, base), "wavelength": wavelengths(dim, base),
            "x": x, "permuted": interleaved_to_half(x), "rotated_half": rotate_half(interleaved_to_half(x))}


def layout_scores(dim, base, distances, seed=1):
    r"""What goes wrong when weights trained in one layout are run in the other: the score of a
    query and a key against their distance :math:`n - m`, in the layout they were trained for
    and through half-layout code.

    The key :math:`k` is seeded Gaussian with pair :math:`i` scaled by :math:`2^{-i}` (a head
    that relies on its fast pairs), and :math:`q = R_{-1}k` in the interleaved layout, so that
    the trained score :math:`\langle R_m q, R_n k\rangle/(|q||k|)` peaks at exactly
    :math:`n - m = -1` with the value 1: a head that attends to the previous token. Run through
    half-layout code, the same vectors pair the wrong features at the wrong speeds: the score is
    still a function of :math:`n - m` (half-layout RoPE is a rotation too) but no longer the one
    the weights learned; its peak at :math:`-1` is gone.

    Parameters
    ----------
    dim : int
    base : float
    distances : sequence of int, shape (R,)
        Values of :math:`n - m` (the query at :math:`m = 0`).
    seed : int

    Returns
    -------
    dict
        ``distances`` (R,); ``trained`` and ``wrong`` (R,): the normalised scores in the
        interleaved layout and through half-layout code; ``shifted_wrong`` (R,): the wrong
        layout's scores with both positions moved by 50 (equal to ``wrong``: still relative).

    Examples
    --------
    >>> from rope_core.demos.spectrum import layout_scores
    >>> t = layout_scores(8, 10000.0, range(-4, 5))
    >>> int(t["distances"][t["trained"].argmax()]), round(float(t["trained"].max()), 6)
    (-1, 1.0)
    >>> bool(t["wrong"].max() < 0.9), bool(np.allclose(t["wrong"], t["shifted_wrong"]))
    (True, True)
    """
    dim, base = check_dim(dim, "dim"), check_base(base)
    distances = np.asarray(list(distances))
    if distances.ndim != 1 or distances.size == 0 or not np.issubdtype(distances.dtype, np.integer):
        raise ValueError(f"distances must be a non-empty 1-D sequence of integers, got {distances!r}")
    q, k = _previous_token_head(dim, base, seed)
    norm = np.linalg.norm(q) * np.linalg.norm(k)

    def scores(layout, shift=0):
        queries = apply_rope(np.repeat(q[None], distances.size, 0), np.full(distances.size, shift), base=base, layout=layout)
        keys = apply_rope(np.repeat(k[None], distances.size, 0), distances + shift, base=base, layout=layout)
        return (queries * keys).sum(axis=1) / norm

    return {"distances": distances, "trained": scores("interleaved"), "wrong": scores("half"),
            "shifted_wrong": scores("half", 50)}


def _previous_token_head(dim, base, seed):
    r"""The query and key of :func:`layout_scores`' head: :math:`k` seeded Gaussian with pair
    :math:`i` scaled by :math:`2^{-i}`, :math:`q = R_{-1}k` (interleaved), both of shape (dim,)."""
    k = np.random.default_rng(seed).standard_normal(dim) * np.repeat(0.5 ** np.arange(dim // 2), 2)
    return apply_rope(k[None], np.array([-1]), base=base)[0], k


def layout_sentence_attention(dim, base, words, sharpness=8.0, seed=1):
    r"""The attention of :func:`layout_scores`' previous-token head over a sentence, with its
    weights loaded in the layout they were trained for and through half-layout code.

    Word :math:`t` of the sentence sits at position :math:`t` and carries the head's query
    :math:`q` and key :math:`k` (the head looks at positions, not at words). Query :math:`m`
    attends causally,

    .. math::

        a_{mn} = \operatorname{softmax}_{n \le m}(s\,c_{mn}),

        c_{mn} = \frac{\langle R_m q, R_n k\rangle}{|q|\,|k|},

    with :math:`R` rotating in the interleaved layout (``trained``) or in the half layout
    (``wrong``), by :func:`rope_core.softmax_attention` (whose :math:`1/\sqrt{d}` is
    folded into the scale of :math:`q`). The sharpness :math:`s` stands for the length of
    trained queries and keys: the logits are :math:`s` times the cosine scores of
    :func:`layout_scores`.

    Parameters
    ----------
    dim : int
    base : float
    words : sequence of str, shape (T,)
        The sentence, one token a word (at least two).
    sharpness : float
        :math:`s > 0`, the logit of a perfectly aligned query and key.
    seed : int

    Returns
    -------
    dict
        ``words`` (T,); ``trained`` and ``wrong`` (T, T): row :math:`m` holds query
        :math:`m`'s weights on keys :math:`n` (zero for :math:`n > m`, each row sums to 1).

    Examples
    --------
    >>> from rope_core.demos.spectrum import layout_sentence_attention
    >>> a = layout_sentence_attention(16, 10000.0, "the old cat sat on the warm mat".split())
    >>> int(a["trained"][7].argmax()), int(a["wrong"][7].argmax())  # "mat" looks at "warm", then at itself
    (6, 7)
    """
    dim, base = check_dim(dim, "dim"), check_base(base)
    sharpness = check_positive(sharpness, "sharpness")
    if isinstance(words, str) or not all(isinstance(w, str) and w for w in words) or len(words) < 2:
        raise ValueError(f"words must be a sequence of at least two non-empty strings, got {words!r}")
    words = list(words)
    q, k = _previous_token_head(dim, base, seed)
    q = q * sharpness * np.sqrt(dim) / (np.linalg.norm(q) * np.linalg.norm(k))
    positions = np.arange(len(words))

    def weights(layout):
        queries = apply_rope(np.repeat(q[None], len(words), 0), positions, base=base, layout=layout)
        keys = apply_rope(np.repeat(k[None], len(words), 0), positions, base=base, layout=layout)
        return softmax_attention(queries, keys, np.eye(len(words)), causal=True)[1]

    return {"words": words, "trained": weights("interleaved"), "wrong": weights("half")}
