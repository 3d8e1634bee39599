"""Interleaved vs half layouts: the permutation, its inverse, and checkpoint conversion."""

from __future__ import annotations

import numpy as np
import pytest

import rope_core
from rope_core import (
    apply_rope,
    half_to_interleaved,
    interleaved_to_half,
    interleaved_to_half_permutation,
    permute_for_half_layout,
)


def test_permutation_literal():
    np.testing.assert_array_equal(interleaved_to_half_permutation(8), [0, 2, 4, 6, 1, 3, 5, 7])
    np.testing.assert_array_equal(interleaved_to_half(np.arange(8.0)), [0, 2, 4, 6, 1, 3, 5, 7])
    np.testing.assert_array_equal(half_to_interleaved(np.array([0.0, 2, 4, 6, 1, 3, 5, 7])), np.arange(8.0))


@pytest.mark.parametrize("dim", [2, 4, 10, 128])
def test_round_trip(rng, dim):
    x = rng.standard_normal((3, 5, dim))
    np.testing.assert_array_equal(half_to_interleaved(interleaved_to_half(x)), x)
    np.testing.assert_array_equal(interleaved_to_half(half_to_interleaved(x)), x)


def test_pair_2i_becomes_pair_i_and_i_plus_half():
    dim = 12
    x = np.arange(float(dim))
    half = interleaved_to_half(x)
    for i in range(dim // 2):
        assert (half[i], half[i + dim // 2]) == (x[2 * i], x[2 * i + 1])


@pytest.mark.parametrize("dim", [2, 16, 64])
def test_layouts_agree_after_permutation(rng, dim):
    x = rng.standard_normal((2, 9, dim))
    positions = 300 + np.arange(9)
    interleaved = apply_rope(x, positions)
    half = apply_rope(interleaved_to_half(x), positions, layout="half")
    np.testing.assert_allclose(half, interleaved_to_half(interleaved), atol=1e-13)


def test_mixing_layouts_gives_different_scores(rng):
    q, k = rng.standard_normal((2, 6, 16))
    right = apply_rope(q) @ apply_rope(k).T
    wrong = apply_rope(q, layout="half") @ apply_rope(k, layout="half").T
    assert not np.allclose(right, wrong)


def test_permuted_projection_gives_identical_scores(rng):
    n_heads, head_dim, d_model, seq_len = 3, 8, 12, 7
    w_q = rng.standard_normal((n_heads * head_dim, d_model))
    w_k = rng.standard_normal((n_heads * head_dim, d_model))
    tokens = rng.standard_normal((seq_len, d_model))
    positions = 50 + np.arange(seq_len)

    def scores(wq, wk, layout):
        q = (tokens @ wq.T).reshape(seq_len, n_heads, head_dim).transpose(1, 0, 2)
        k = (tokens @ wk.T).reshape(seq_len, n_heads, head_dim).transpose(1, 0, 2)
        return apply_rope(q, positions, layout=layout) @ np.swapaxes(apply_rope(k, positions, layout=layout), -1, -2)

    original = scores(w_q, w_k, "interleaved")
    converted = scores(permute_for_half_layout(w_q, n_heads), permute_for_half_layout(w_k, n_heads), "half")
    np.testing.assert_allclose(converted, original, atol=1e-12)
    # Without the permutation the half layout gives other scores.
    assert not np.allclose(scores(w_q, w_k, "half"), original)


def test_permute_for_half_layout_literal_and_heads():
    w = np.arange(8.0)[:, None] * np.ones((1, 3))
    np.testing.assert_array_equal(permute_for_half_layout(w, 2)[:, 0], [0, 2, 1, 3, 4, 6, 5, 7])
    np.testing.assert_array_equal(permute_for_half_layout(w, 1)[:, 0], [0, 2, 4, 6, 1, 3, 5, 7])
    assert permute_for_half_layout(w.astype(int), 2).dtype == np.float64


@pytest.mark.parametrize("w, n_heads, error, match", [
    (np.zeros((8, 3)), 3, ValueError, "n_heads"),
    (np.zeros((8, 3)), 0, ValueError, "n_heads"),
    (np.zeros((8, 3)), 2.0, TypeError, "n_heads"),
    (np.zeros((6, 3)), 2, ValueError, "head_dim"),
    (np.zeros(8), 2, ValueError, "w"),
    (np.zeros((2, 4, 3)), 1, ValueError, "w"),
    ("weights", 1, TypeError, "w"),
])
def test_permute_for_half_layout_rejects_bad_input(w, n_heads, error, match):
    with pytest.raises(error, match=match):
        permute_for_half_layout(w, n_heads)


@pytest.mark.parametrize("function", [interleaved_to_half, half_to_interleaved])
@pytest.mark.parametrize("x, error", [(np.zeros(5), ValueError), ("abc", TypeError), (np.zeros(3, complex), TypeError)])
def test_layout_conversions_reject_bad_input(function, x, error):
    with pytest.raises(error, match="x"):
        function(x)


def test_permutation_rejects_odd_dim():
    with pytest.raises(ValueError, match="dim"):
        rope_core.interleaved_to_half_permutation(7)
