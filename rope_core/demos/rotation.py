"""One 2-D pair turning: what the rotation explorer and the relative-position widget show.

The widgets (``RotationExplorer``, ``RelativeInvariance``) and their static twins
(``plots.plot_rotation``, ``plots.plot_relative_invariance``) draw these dictionaries, so the
page, the notebook and the figure cannot disagree. Defaults live here, in one place.
NumPy only (the maths comes from ``rope_core``).
"""

from __future__ import annotations

import numbers

import numpy as np

from ..attention import relative_scores
from ..rotation import rotate_2d

#: Defaults of the rotation explorer and of its static twin.
ROTATION_DEFAULTS = {
    "thetas": (0.1, 0.2, 0.3, 0.5, 1.0),   # frequency stops, radians per position
    "max_position": 64,
    "q_angles_deg": tuple(range(0, 360, 30)),  # preset directions of q (the page's slider)
    "lengths": (0.5, 1.0, 1.5),
    "q_angle": 30.0,      # degrees; the reader drags it continuously
    "position": 3,
    "theta_index": 2,
    "length_index": 1,
    "length_range": (0.25, 1.6),   # a dragged q's length is clamped to this (fits the drawing)
}

#: Defaults of the relative-position widget and of its static twin.
RELATIVE_DEFAULTS = {
    "q_angle": 20.0, "k_angle": 75.0,   # degrees; both draggable
    "q_length": 1.0, "k_length": 0.8,
    "theta": 0.3, "max_position": 24,
    "m": 2, "n": 7, "shift": 0,
    "length_range": (0.2, 1.3),    # dragged lengths of q and k are clamped to this
}


def unit_vector(angle_deg):
    r"""The unit vector :math:`(\cos\alpha, \sin\alpha)` at ``angle_deg`` degrees; shape ``(..., 2)``."""
    angle = np.deg2rad(np.asarray(angle_deg, dtype=np.float64))
    return np.stack([np.cos(angle), np.sin(angle)], axis=-1)


def check_angle_deg(value, name):
    """A finite real angle in degrees, returned as a float in [0, 360)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite angle in degrees, got {value!r}")
    return float(value) % 360.0


def check_length(value, name, length_range):
    """A finite real length inside ``length_range`` (lo, hi), returned as a float."""
    lo, hi = length_range
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value) \
            or not lo <= value <= hi:
        raise ValueError(f"{name} must be a finite length from {lo} to {hi}, got {value!r}")
    return float(value)


def check_length_range(value, name="length_range"):
    """``(lowest, highest)``: two finite positive lengths, lowest < highest; returned as floats."""
    try:
        pair = np.array([]) if isinstance(value, (str, bytes)) else np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        pair = np.array([])
    if pair.shape != (2,) or not np.all(np.isfinite(pair)) or not 0 < pair[0] < pair[1]:
        raise ValueError(f"{name} must be (lowest, highest) with 0 < lowest < highest, got {value!r}")
    return float(pair[0]), float(pair[1])


def _check_vector(value, name):
    vector = np.asarray(value, dtype=np.float64)
    if vector.shape != (2,) or not np.all(np.isfinite(vector)):
        raise ValueError(f"{name} must be two finite numbers (shape (2,)), got {value!r}")
    return vector


def _check_position(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return int(value)


def rotation_table(thetas, max_position):
    r"""The angle :math:`m\theta` and its cosine and sine for every frequency stop and position.

    Returns ``angle``, ``angle_deg`` (mod 360), ``cos`` and ``sin``, each of shape
    ``(len(thetas), max_position + 1)``.
    """
    angles = np.arange(max_position + 1)[None, :] * np.asarray(thetas, dtype=np.float64)[:, None]
    return {"angle": angles, "angle_deg": np.rad2deg(angles) % 360.0,
            "cos": np.cos(angles), "sin": np.sin(angles)}


def rotation_state(q, position, theta):
    r"""What the rotation explorer draws for one state.

    Parameters
    ----------
    q : array_like, shape (2,)
    position : int
        :math:`m \ge 0`.
    theta : float
        Frequency, radians per position.

    Returns
    -------
    dict
        ``q`` (2,), ``rotated`` :math:`R(m\theta)q` (2,), ``angle`` :math:`m\theta`,
        ``angle_deg`` (mod 360), ``trail`` :math:`R(j\theta)q` for :math:`j < m`, shape (m, 2).
    """
    q = _check_vector(q, "q")
    position = _check_position(position, "position")
    angle = position * float(theta)
    return {"q": q, "rotated": rotate_2d(q, angle), "angle": angle,
            "angle_deg": float(np.rad2deg(angle) % 360.0),
            "trail": rotate_2d(q, np.arange(position) * float(theta)).reshape(position, 2)}


def relative_state(q, k, m, n, shift, theta):
    r"""What the relative-position widget draws for one state.

    Returns ``rotated_q`` :math:`R_{(m+s)\theta}q`, ``rotated_k`` :math:`R_{(n+s)\theta}k`
    (shape (2,) each), ``score`` :math:`\langle R_{m+s}q, R_{n+s}k\rangle` and ``reference``,
    the same score with the pair moved to positions :math:`(0, n-m)` (or :math:`(m-n, 0)`):
    equal to ``score`` for every shift, which is what the widget shows.
    """
    q, k = _check_vector(q, "q"), _check_vector(k, "k")
    m, n, shift = (_check_position(v, name) for v, name in ((m, "m"), (n, "n"), (shift, "shift")))
    theta = float(theta)
    pm, pn = (m + shift) * theta, (n + shift) * theta
    ref_m, ref_n = (0, n - m) if n >= m else (m - n, 0)
    return {
        "q": q, "k": k, "rotated_q": rotate_2d(q, pm), "rotated_k": rotate_2d(k, pn),
        "score": float(relative_scores(q, k, [pm], [pn])[0, 0]),
        "reference": float(relative_scores(q, k, [ref_m * theta], [ref_n * theta])[0, 0]),
    }
