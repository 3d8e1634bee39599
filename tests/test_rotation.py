"""2-D rotations: the matrix, its action on vectors, composition."""

from __future__ import annotations

import numpy as np
import pytest

from rope_core import rotate_2d, rotation_matrix


def test_quarter_turn_literal():
    np.testing.assert_allclose(rotation_matrix(np.pi / 2), [[0.0, -1.0], [1.0, 0.0]], atol=1e-16)
    np.testing.assert_allclose(rotate_2d([1.0, 0.0], np.pi / 2), [0.0, 1.0], atol=1e-16)
    np.testing.assert_allclose(rotate_2d([0.0, 1.0], np.pi / 2), [-1.0, 0.0], atol=1e-16)


def test_positive_angles_turn_counter_clockwise():
    v = rotate_2d([1.0, 0.0], 0.3)
    assert v[1] > 0 and np.arctan2(v[1], v[0]) == pytest.approx(0.3)


def test_shapes_broadcast():
    angles = np.linspace(0, 1, 6).reshape(2, 3)
    assert rotation_matrix(angles).shape == (2, 3, 2, 2)
    assert rotation_matrix(0.5).shape == (2, 2)
    vectors = np.random.default_rng(0).standard_normal((2, 3, 2))
    assert rotate_2d(vectors, angles).shape == (2, 3, 2)
    assert rotate_2d([1.0, 0.0], angles).shape == (2, 3, 2)


def test_orthogonal_with_determinant_one_and_composition():
    a, b = 0.7, -2.1
    r = rotation_matrix(a)
    np.testing.assert_allclose(r @ r.T, np.eye(2), atol=1e-15)
    assert np.linalg.det(r) == pytest.approx(1.0)
    np.testing.assert_allclose(rotation_matrix(a) @ rotation_matrix(b), rotation_matrix(a + b), atol=1e-15)
    np.testing.assert_allclose(rotation_matrix(a).T, rotation_matrix(-a), atol=1e-15)


def test_rotation_preserves_length_and_dot_products_depend_on_angle_difference():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(2), rng.standard_normal(2)
    assert np.linalg.norm(rotate_2d(q, 5.0)) == pytest.approx(np.linalg.norm(q))
    # <R(m) q, R(n) k> = <q, R(n - m) k>
    m, n = 3.0, 7.5
    assert rotate_2d(q, m) @ rotate_2d(k, n) == pytest.approx(q @ rotate_2d(k, n - m))


def test_integer_input_and_dtype():
    assert rotation_matrix(0).dtype == np.float64
    np.testing.assert_array_equal(rotate_2d([2, 0], 0), [2.0, 0.0])


@pytest.mark.parametrize("bad, error, match", [
    ("abc", TypeError, "angle"), (1 + 2j, TypeError, "angle"), (np.array([object()]), TypeError, "angle"),
])
def test_rotation_matrix_rejects_bad_angles(bad, error, match):
    with pytest.raises(error, match=match):
        rotation_matrix(bad)


@pytest.mark.parametrize("v, error", [([1.0, 2.0, 3.0], ValueError), ("ab", TypeError), (5.0, ValueError)])
def test_rotate_2d_rejects_bad_vectors(v, error):
    with pytest.raises(error, match="v"):
        rotate_2d(v, 0.1)
