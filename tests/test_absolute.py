"""rope_core.absolute: the sinusoidal embedding of Vaswani et al. (2017)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rope_core import inverse_frequencies
from rope_core.absolute import sinusoidal_position_embedding


def test_matches_the_formula_written_out_with_math():
    dim, base = 6, 10000.0
    table = sinusoidal_position_embedding(np.arange(5), dim, base)
    assert table.shape == (5, dim) and table.dtype == np.float64
    for m in range(5):
        for t in range(dim // 2):
            angle = m / base ** (2 * t / dim)
            assert table[m, 2 * t] == pytest.approx(math.sin(angle), abs=1e-15)
            assert table[m, 2 * t + 1] == pytest.approx(math.cos(angle), abs=1e-15)


def test_frequencies_are_ropes():
    dim, base = 16, 500.0
    table = sinusoidal_position_embedding([1.0], dim, base)[0]
    np.testing.assert_allclose(np.arctan2(table[0::2], table[1::2]),
                               inverse_frequencies(dim, base), rtol=1e-12)


def test_shape_follows_positions():
    assert sinusoidal_position_embedding(3, 4).shape == (4,)
    assert sinusoidal_position_embedding(np.zeros((2, 3), dtype=int), 4).shape == (2, 3, 4)


def test_shift_is_a_rotation_of_each_pair():
    """p_{m+k} is a fixed linear map of p_m: Vaswani et al.'s motivation."""
    dim, shift = 8, 5
    positions = np.arange(20)
    p, p_shifted = (sinusoidal_position_embedding(positions + s, dim) for s in (0, shift))
    omega = inverse_frequencies(dim)
    for t in range(dim // 2):
        c, s = math.cos(shift * omega[t]), math.sin(shift * omega[t])
        mixing = np.array([[c, s], [-s, c]])  # acts on (sin, cos) pairs
        np.testing.assert_allclose(p[:, 2 * t:2 * t + 2] @ mixing.T, p_shifted[:, 2 * t:2 * t + 2],
                                   atol=1e-12)


def test_dot_product_depends_only_on_distance():
    p = sinusoidal_position_embedding(np.arange(30), 12)
    gram = p @ p.T
    for offset in range(-29, 30):
        diagonal = np.diagonal(gram, offset)
        np.testing.assert_allclose(diagonal, diagonal[0], atol=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"positions": [0], "dim": 5}, ValueError, "dim"),
        ({"positions": [0], "dim": 4.0}, TypeError, "dim"),
        ({"positions": [0], "dim": 4, "base": -1.0}, ValueError, "base"),
        ({"positions": [np.nan], "dim": 4}, ValueError, "positions"),
        ({"positions": "012", "dim": 4}, TypeError, "positions"),
        ({"positions": [1j], "dim": 4}, TypeError, "positions"),
    ],
)
def test_bad_input_names_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        sinusoidal_position_embedding(**kwargs)
