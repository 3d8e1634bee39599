"""Rotations in the plane: the building block of RoPE."""

from __future__ import annotations

import numpy as np

from . import maths
from ._checks import check_real_array


def rotation_matrix(angle):
    r"""The 2 × 2 rotation matrix for an angle (or an array of angles), in radians.

    Parameters
    ----------
    angle : float or array_like, shape (...)
        Angle(s) in radians; positive angles turn counter-clockwise.

    Returns
    -------
    ndarray, shape (..., 2, 2)
        The matrices :math:`R(\alpha)`, float64.

    Notes
    -----
    .. math::

        R(\alpha) = \begin{pmatrix} \cos\alpha & -\sin\alpha \\
                                    \sin\alpha & \cos\alpha \end{pmatrix}

    Examples
    --------
    >>> rotation_matrix(np.pi / 2).round(12)
    array([[ 0., -1.],
           [ 1.,  0.]])
    """
    angle = check_real_array(angle, "angle", min_ndim=0).astype(np.float64)
    return maths.rotation_matrix(angle)


def rotate_2d(v, angle):
    r"""Rotate 2-D vector(s) ``v`` by ``angle`` radians: :math:`R(\alpha)\,v`.

    Parameters
    ----------
    v : array_like, shape (..., 2)
        Vector(s) to rotate.
    angle : float or array_like, broadcastable with ``v[..., 0]``
        Angle(s) in radians.

    Returns
    -------
    ndarray, shape broadcast of (..., 2)
        The rotated vectors, float64.

    Examples
    --------
    >>> rotate_2d([1.0, 0.0], np.pi / 2).round(12)
    array([0., 1.])
    """
    v = check_real_array(v, "v").astype(np.float64)
    if v.shape[-1] != 2:
        raise ValueError(f"v must have a last axis of length 2, got shape {v.shape}")
    angle = check_real_array(angle, "angle", min_ndim=0).astype(np.float64)
    return maths.rotate_2d(v, angle)
