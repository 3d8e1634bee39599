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
    "m": 2, "n": 7, "shift": 9,         # opens shifted: the unshifted state is its ghost
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
    r"""The angle :math:`m\theta`, its cosine and sine, and the closest return so far, for every
    frequency stop and position.

    Returns
    -------
    dict
        ``angle``, ``angle_deg`` (mod 360), ``cos`` and ``sin``; ``offset``, how far
        :math:`R(m\theta)q` is from :math:`q`, :math:`|\arg e^{\mathrm{i}m\theta}| \in [0, \pi]`
        (radians); ``closest``, the position :math:`j \le m` past half a turn
        (:math:`j\theta > \pi`) with the smallest offset so far (the first of equals; −1 while
        no position is past half a turn), and ``closest_offset``, its offset (NaN then). Each of
        shape ``(len(thetas), max_position + 1)``.
    """
    positions = np.arange(max_position + 1)
    angles = positions[None, :] * np.asarray(thetas, dtype=np.float64)[:, None]
    offset = np.abs(np.angle(np.exp(1j * angles)))
    closest = np.full(angles.shape, -1)
    closest_offset = np.full(angles.shape, np.nan)
    for t in range(angles.shape[0]):
        best = -1
        for j in positions:
            if angles[t, j] > np.pi and (best < 0 or offset[t, j] < offset[t, best]):
                best = j
            closest[t, j] = best
            closest_offset[t, j] = offset[t, best] if best >= 0 else np.nan
    return {"angle": angles, "angle_deg": np.rad2deg(angles) % 360.0, "cos": np.cos(angles), "sin": np.sin(angles),
            "offset": offset, "closest": closest, "closest_offset": closest_offset}


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

    Parameters
    ----------
    q, k : array_like, shape (2,)
    m, n, shift : int
        Positions of the query and the key, and the shift :math:`\Delta` applied to both (>= 0).
    theta : float

    Returns
    -------
    dict
        ``rotated_q`` :math:`R_{m+\Delta}q`, ``rotated_k`` :math:`R_{n+\Delta}k`, ``ghost_q``
        :math:`R_m q` and ``ghost_k`` :math:`R_n k` (the state before the shift; shape (2,)
        each), ``score`` :math:`\langle R_{m+\Delta}q, R_{n+\Delta}k\rangle`, ``reference`` the
        same score at :math:`\Delta = 0` (equal to ``score`` for every shift: the lesson), and
        ``angle`` the angle :math:`\gamma \in [0, 2\pi)` from :math:`R_{m+\Delta}q` to
        :math:`R_{n+\Delta}k`, counter-clockwise (the same at every shift).
    """
    q, k = _check_vector(q, "q"), _check_vector(k, "k")
    m, n, shift = (_check_position(v, name) for v, name in ((m, "m"), (n, "n"), (shift, "shift")))
    theta = float(theta)
    pm, pn = (m + shift) * theta, (n + shift) * theta
    rotated_q, rotated_k = rotate_2d(q, pm), rotate_2d(k, pn)
    angle = (np.arctan2(rotated_k[1], rotated_k[0]) - np.arctan2(rotated_q[1], rotated_q[0])) % (2 * np.pi)
    return {
        "q": q, "k": k, "rotated_q": rotated_q, "rotated_k": rotated_k,
        "ghost_q": rotate_2d(q, m * theta), "ghost_k": rotate_2d(k, n * theta),
        "score": float(relative_scores(q, k, [pm], [pn])[0, 0]),
        "reference": float(relative_scores(q, k, [m * theta], [n * theta])[0, 0]),
        "angle": float(angle),
    }


def relative_strips(q, k, m, n, theta, max_position):
    r"""The two strip charts of the relative-position widget.

    ``shifts`` :math:`\Delta = 0 \dots` ``max_position`` and ``by_shift``, the score
    :math:`\langle R_{m+\Delta}q, R_{n+\Delta}k\rangle` at each (flat); ``offsets``
    :math:`n - m = -\text{max} \dots \text{max}` and ``by_offset``, the score with the query at
    :math:`m` and the key at :math:`m + (n - m)`, a cosine of :math:`(n - m)\theta`.
    """
    q, k = _check_vector(q, "q"), _check_vector(k, "k")
    m, n = _check_position(m, "m"), _check_position(n, "n")
    theta, top = float(theta), _check_position(max_position, "max_position")
    shifts, offsets = np.arange(top + 1), np.arange(-top, top + 1)
    by_shift = np.array([relative_scores(q, k, [(m + s) * theta], [(n + s) * theta])[0, 0] for s in shifts])
    by_offset = relative_scores(q, k, [m * theta], (m + offsets) * theta)[0]
    return {"shifts": shifts, "by_shift": by_shift, "offsets": offsets, "by_offset": by_offset}
