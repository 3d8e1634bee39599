"""Tests of rope_core.blocks: any rotation of R^d is RoPE's block-diagonal matrix in some basis."""

import numpy as np
import pytest

from rope_core import rope_matrix, rotation_matrix
from rope_core.blocks import block_rotation, rotation_blocks


def random_rotation(d, rng):
    """A random orthogonal matrix with determinant +1."""
    q, r = np.linalg.qr(rng.standard_normal((d, d)))
    q = q * np.sign(np.diag(r))
    if np.linalg.det(q) < 0:
        q[:, 0] *= -1
    return q


def test_block_rotation_places_one_2x2_rotation_per_pair():
    angles = np.array([0.3, -1.1, 2.5])
    matrix = block_rotation(angles)
    assert matrix.shape == (6, 6)
    for i, angle in enumerate(angles):
        np.testing.assert_array_equal(matrix[2 * i:2 * i + 2, 2 * i:2 * i + 2], rotation_matrix(angle))
    mask = np.kron(np.eye(3), np.ones((2, 2))).astype(bool)
    assert np.all(matrix[~mask] == 0)


def test_block_rotation_with_rope_angles_is_rope_matrix():
    from rope_core import inverse_frequencies

    d, m = 16, 37
    np.testing.assert_allclose(block_rotation(m * inverse_frequencies(d)), rope_matrix(m, d), atol=1e-14)


@pytest.mark.parametrize("d", [2, 4, 8, 16, 32])
def test_random_rotation_is_block_diagonal_in_the_returned_basis(d):
    rng = np.random.default_rng(d)
    rotation = random_rotation(d, rng)
    basis, angles = rotation_blocks(rotation)
    assert angles.shape == (d // 2,)
    assert np.all((angles >= 0) & (angles <= np.pi)) and np.all(np.diff(angles) >= 0)
    np.testing.assert_allclose(basis @ basis.T, np.eye(d), atol=1e-12)
    np.testing.assert_allclose(basis @ rotation @ basis.T, block_rotation(angles), atol=1e-12)
    # the angles are the arguments of the eigenvalues
    eigen_angles = np.sort(np.abs(np.angle(np.linalg.eigvals(rotation))))
    np.testing.assert_allclose(eigen_angles, np.sort(np.repeat(angles, 2)), atol=1e-8)


@pytest.mark.parametrize(
    "angles",
    [[0.0, 0.0, 0.0], [np.pi, np.pi], [0.5, 0.5, 0.5, 2.0], [0.0, np.pi, 0.0, np.pi], [1e-3, 0.4]],
    ids=["identity", "minus-identity", "repeated", "plus-minus-one", "tiny-angle"],
)
def test_degenerate_rotations(angles):
    rng = np.random.default_rng(7)
    d = 2 * len(angles)
    change = random_rotation(d, rng)
    rotation = change @ block_rotation(angles) @ change.T
    basis, found = rotation_blocks(rotation)
    np.testing.assert_allclose(found, np.sort(angles), atol=1e-7)
    np.testing.assert_allclose(basis @ rotation @ basis.T, block_rotation(found), atol=1e-10)
    np.testing.assert_allclose(basis @ basis.T, np.eye(d), atol=1e-10)


def test_powers_of_a_rotation_give_relative_scores_that_blocks_reproduce():
    """A_m = O^m: the scores with weights W equal RoPE-style block scores with weights P W."""
    rng = np.random.default_rng(3)
    d, d_model = 8, 12
    rotation = random_rotation(d, rng)
    basis, angles = rotation_blocks(rotation)
    w_q, w_k = rng.standard_normal((2, d, d_model))
    x, y = rng.standard_normal((2, d_model))
    for m, n in [(0, 0), (3, 1), (17, 40)]:
        general = (np.linalg.matrix_power(rotation, m) @ w_q @ x) @ (np.linalg.matrix_power(rotation, n) @ w_k @ y)
        blocks = (block_rotation(m * angles) @ basis @ w_q @ x) @ (block_rotation(n * angles) @ basis @ w_k @ y)
        np.testing.assert_allclose(blocks, general, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        (np.eye(3), "even"),
        (np.ones((2, 3)), "square"),
        (np.diag([1.0, -1.0]), "determinant"),
        (np.diag([2.0, 0.5]), "orthogonal"),
        (np.full((2, 2), np.nan), "finite"),
    ],
)
def test_bad_matrices_are_refused_by_name(matrix, message):
    with pytest.raises(ValueError, match=message):
        rotation_blocks(matrix)
    with pytest.raises(ValueError, match="matrix"):
        rotation_blocks(matrix)


def test_bad_arguments_are_refused_by_name():
    with pytest.raises(ValueError, match="atol"):
        rotation_blocks(np.eye(2), atol=0)
    with pytest.raises(TypeError, match="matrix"):
        rotation_blocks("not a matrix")
    with pytest.raises(ValueError, match="angles"):
        block_rotation([])
    with pytest.raises(ValueError, match="angles"):
        block_rotation([[0.1, 0.2]])
    with pytest.raises(ValueError, match="angles"):
        block_rotation([np.inf])
