r"""Every rotation of :math:`\mathbb{R}^d` is RoPE's block-diagonal matrix in some basis.

RoPE rotates each pair of features on its own, so its matrix
:math:`R_m = \operatorname{blockdiag}(R(m\theta_0), \dots, R(m\theta_{d/2-1}))` is block
diagonal. A general linear encoding :math:`f(\mathbf{x}, m) = A_m\mathbf{x}` with relative
scores has :math:`A_m = O^m` for an orthogonal :math:`O` (Su, kexue.fm/archives/8397), and
when :math:`\det O = 1` the real normal form of an orthogonal matrix writes
:math:`O = P^\top\operatorname{blockdiag}(R(\varphi_0), \dots) P` with :math:`P` orthogonal
(kexue.fm/archives/9403). This module computes that :math:`P` and those angles, so that the
claim "the block-diagonal form loses nothing" can be checked on any matrix.
"""

from __future__ import annotations

import numpy as np

from . import maths
from ._checks import check_real_array

__all__ = ["block_rotation", "rotation_blocks"]


def block_rotation(angles):
    r"""The block-diagonal rotation with one :math:`2 \times 2` block :math:`R(\alpha_i)` per angle.

    Parameters
    ----------
    angles : array_like, shape (d/2,)
        One angle per pair of features, in radians.

    Returns
    -------
    ndarray, shape (d, d)
        :math:`\operatorname{blockdiag}(R(\alpha_0), \dots, R(\alpha_{d/2-1}))`, float64.
        With ``angles = m * thetas`` this is RoPE's :math:`R_m` in the interleaved layout.

    Examples
    --------
    A quarter turn of pair 0, and pair 1 left alone:

    >>> (block_rotation([np.pi / 2, 0.0]) @ np.array([1.0, 0.0, 0.0, 1.0])).round(12)
    array([0., 1., 0., 1.])
    """
    angles = check_real_array(angles, "angles")
    if angles.ndim != 1 or angles.size == 0:
        raise ValueError(f"angles must be a non-empty 1-D array (one angle per pair), "
                         f"got shape {angles.shape}")
    if not np.all(np.isfinite(angles)):
        raise ValueError("angles must be finite, got NaN or inf")
    return maths.block_rotation(angles.astype(np.float64))


def rotation_blocks(matrix, *, atol=1e-8):
    r"""Write a rotation :math:`O` of :math:`\mathbb{R}^d` as :math:`P^\top B P`, with :math:`B`
    block diagonal.

    Parameters
    ----------
    matrix : array_like, shape (d, d)
        An orthogonal matrix (:math:`O^\top O = I`) with determinant +1 and even ``d``.
    atol : float
        Tolerance for the orthogonality and determinant checks and for grouping equal angles.

    Returns
    -------
    basis : ndarray, shape (d, d)
        An orthogonal :math:`P` (its rows are the new basis vectors).
    angles : ndarray, shape (d/2,)
        Angles :math:`\varphi_i \in [0, \pi]`, in increasing order, such that
        :math:`P\,O\,P^\top = \operatorname{blockdiag}(R(\varphi_0), \dots, R(\varphi_{d/2-1}))`
        (see :func:`block_rotation`).

    Notes
    -----
    The symmetric part :math:`S = (O + O^\top)/2` has the eigenvalues :math:`\cos\varphi_i`, each
    twice, and an orthonormal eigenbasis. For a unit eigenvector :math:`u` with
    :math:`\cos\varphi < 1`, :math:`w = (Ou - \cos\varphi\,u)/\sin\varphi` is a unit vector
    orthogonal to :math:`u` with :math:`Ou = \cos\varphi\,u + \sin\varphi\,w` and
    :math:`Ow = -\sin\varphi\,u + \cos\varphi\,w`: the plane of :math:`u, w` is turned by
    :math:`\varphi`. Eigenvalues :math:`\pm 1` of :math:`O` pair up into blocks :math:`R(0)` and
    :math:`R(\pi)`; with determinant +1 there is an even number of each.

    Examples
    --------
    >>> basis, angles = rotation_blocks(block_rotation([0.3, 1.2]))
    >>> angles.round(12)
    array([0.3, 1.2])
    >>> np.allclose(basis @ block_rotation([0.3, 1.2]) @ basis.T, block_rotation(angles))
    True
    """
    matrix = check_real_array(matrix, "matrix")
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"matrix must be a square 2-D array, got shape {matrix.shape}")
    d = matrix.shape[0]
    if d == 0 or d % 2:
        raise ValueError(f"matrix must have an even, positive size (pairs of features), got {d} x {d}")
    if not np.all(np.isfinite(matrix)):
        raise ValueError("matrix must be finite, got NaN or inf")
    if isinstance(atol, bool) or not isinstance(atol, (int, float)) or not 0 < atol < 1:
        raise ValueError(f"atol must be a number in (0, 1), got {atol!r}")
    if not np.allclose(matrix.T @ matrix, np.eye(d), atol=atol):
        raise ValueError("matrix must be orthogonal (matrix.T @ matrix = I)")
    if not np.isclose(np.linalg.det(matrix), 1.0, atol=atol):
        raise ValueError("matrix must have determinant +1: a determinant of -1 leaves a mirror, "
                         "which no block of 2 x 2 rotations can express")

    cosines, eigenvectors = np.linalg.eigh(0.5 * (matrix + matrix.T))
    basis, angles = [], []
    start = 0
    while start < d:                                  # one group of equal cosines at a time
        stop = start + 1
        while stop < d and cosines[stop] - cosines[start] <= 10 * atol:
            stop += 1
        group = eigenvectors[:, start:stop]           # orthonormal basis of this eigenspace
        cosine = float(np.clip(cosines[start:stop].mean(), -1.0, 1.0))
        while group.shape[1]:
            u = group[:, 0]
            image = matrix @ u
            if 1.0 - abs(cosine) > atol:
                w = image - cosine * u
                w /= np.linalg.norm(w)
                angle = float(np.arctan2(w @ image, u @ image))
            else:                                     # O u = +-u: pair u with any other vector here
                if group.shape[1] < 2:
                    raise ValueError("matrix has an unpaired eigenvalue +-1; is its determinant +1?")
                w = group[:, 1]
                angle = 0.0 if cosine > 0 else float(np.pi)
            basis += [u, w]
            angles.append(angle)
            rest = group - np.outer(u, u @ group) - np.outer(w, w @ group)
            left, sizes, _ = np.linalg.svd(rest, full_matrices=False)   # what is left of the eigenspace
            group = left[:, sizes > 0.5][:, : group.shape[1] - 2]
        start = stop
    order = np.argsort(angles, kind="stable")
    basis = np.array(basis).reshape(d // 2, 2, d)[order].reshape(d, d)
    return basis, np.asarray(angles)[order]
