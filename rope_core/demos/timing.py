r"""Quick timings of the dense and the element-wise RoPE forms, for a plot of their costs.

The dense form multiplies every vector by its own :math:`d \times d` matrix
:math:`R^d_{\Theta,m}` (:math:`d^2` multiply-adds); the element-wise form computes
:math:`x \odot \cos + \operatorname{rot}(x) \odot \sin` (about :math:`3d` operations). Both
get their tables precomputed, so only the rotation itself is timed. The numbers depend on
the machine and its load; they are meant for a plot of how the two costs grow with
:math:`d`, not as a benchmark (that is ``benchmarks/bench_apply_rope.py``).
"""

from __future__ import annotations

import time

import numpy as np

from .._checks import check_dim, check_int
from ..apply import rope_angles, rotate_every_two
from ..blocks import block_rotation

#: At most this many float64 numbers in the stack of dense matrices (32 MiB).
_DENSE_BUDGET = 2**22


def best_time(function, repeats):
    """Shortest wall time of ``repeats`` calls of ``function`` (after one warm-up call), in s.

    The minimum is the run least disturbed by other work on the machine.
    """
    function()  # warm up: caches, page mapping
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def compare_dense_and_elementwise(dims=(8, 16, 32, 64, 128, 256, 512), *,
                                  n_vectors=1024, repeats=5, base=10000.0):
    r"""Time one rotation per vector with the dense matrix and with the element-wise form.

    Parameters
    ----------
    dims : sequence of int
        Even dimensions :math:`d` to time.
    n_vectors : int
        Vectors (one per position ``0 .. n_vectors - 1``) rotated per timed call. The dense
        form uses fewer when ``n * d * d`` would exceed :math:`2^{22}` numbers, so that its
        matrices fit in 32 MiB; times are per vector either way.
    repeats : int
        Timed calls per form and dimension; the fastest is kept (the least disturbed by
        other work on the machine).
    base : float
        Frequency base.

    Returns
    -------
    dict
        ``"dims"`` (int array, shape (n,)), ``"dense_seconds"`` and ``"elementwise_seconds"``
        (float arrays, shape (n,): seconds per rotated vector), and ``"ratio"`` (dense over
        element-wise).

    Examples
    --------
    >>> timing = compare_dense_and_elementwise(dims=(8, 64), n_vectors=64, repeats=2)
    >>> sorted(timing)
    ['dense_seconds', 'dims', 'elementwise_seconds', 'ratio']
    >>> timing["dims"]
    array([ 8, 64])
    """
    dims = np.array([check_dim(d, "dims") for d in dims], dtype=int)
    if dims.size == 0:
        raise ValueError("dims must be a non-empty sequence of even integers")
    n_vectors = check_int(n_vectors, "n_vectors", min=1)
    repeats = check_int(repeats, "repeats", min=1)
    rng = np.random.default_rng(0)
    dense_seconds, elementwise_seconds = [], []
    for dim in dims:
        x = rng.standard_normal((n_vectors, dim))
        angles = rope_angles(np.arange(n_vectors), int(dim), base)
        cos, sin = np.repeat(np.cos(angles), 2, -1), np.repeat(np.sin(angles), 2, -1)
        elementwise = best_time(
            lambda x=x, c=cos, s=sin: x * c + rotate_every_two(x) * s, repeats)
        elementwise_seconds.append(elementwise / n_vectors)

        n_dense = int(max(1, min(n_vectors, _DENSE_BUDGET // (dim * dim))))
        # (n_dense, d, d) matrices times (n_dense, d, 1) columns
        matrices = np.array([block_rotation(a) for a in angles[:n_dense]])
        columns = x[:n_dense, :, None]
        dense = best_time(lambda a=matrices, b=columns: np.matmul(a, b), repeats)
        dense_seconds.append(dense / n_dense)
    dense_seconds = np.array(dense_seconds)
    elementwise_seconds = np.array(elementwise_seconds)
    return {
        "dims": dims,
        "dense_seconds": dense_seconds,
        "elementwise_seconds": elementwise_seconds,
        "ratio": dense_seconds / elementwise_seconds,
    }
