"""Bad input raises ValueError or TypeError whose message names the argument."""

from __future__ import annotations

import numpy as np
import pytest

import rope_core
from rope_core import (
    apply_rope,
    apply_rope_complex,
    apply_rope_elementwise,
    apply_rope_matrix,
    attention_factor,
    cos_sin_tables,
    inverse_frequencies,
    rope_angles,
    rope_matrix,
    wavelengths,
)

X = np.random.default_rng(0).standard_normal((2, 5, 8))


# --- dim and rotary_dim ------------------------------------------------------------------

@pytest.mark.parametrize("dim, error", [
    (7, ValueError), (0, ValueError), (-4, ValueError), (64.0, TypeError), (64.5, TypeError),
    ("64", TypeError), (None, TypeError), (True, TypeError), ([64], TypeError),
])
@pytest.mark.parametrize("function", [inverse_frequencies, attention_factor, wavelengths,
                                      rope_core.default_inverse_frequencies])
def test_dim_must_be_a_positive_even_integer(function, dim, error):
    with pytest.raises(error, match="dim"):
        function(dim)


@pytest.mark.parametrize("call", [
    lambda dim: rope_angles([0, 1], dim), lambda dim: rope_matrix(1, dim),
    lambda dim: cos_sin_tables([0, 1], dim), lambda dim: rope_core.long_term_decay_bound(3, dim),
    lambda dim: rope_core.min_base_for_context(100, dim),
])
def test_dim_checked_everywhere(call):
    for dim, error in ((7, ValueError), (8.0, TypeError)):
        with pytest.raises(error, match="dim"):
            call(dim)


def test_numpy_integer_dim_is_fine():
    np.testing.assert_array_equal(inverse_frequencies(np.int64(8)), inverse_frequencies(8))


@pytest.mark.parametrize("rotary_dim, error", [
    (3, ValueError), (10, ValueError), (0, ValueError), (4.0, TypeError), ("4", TypeError),
])
def test_rotary_dim(rotary_dim, error):
    with pytest.raises(error, match="rotary_dim"):
        apply_rope(X, rotary_dim=rotary_dim)


def test_ntk_and_dynamic_need_dim_above_2():
    for scaling in ({"rope_type": "ntk", "factor": 2.0},
                    {"rope_type": "dynamic", "factor": 2.0, "max_position_embeddings": 8}):
        with pytest.raises(ValueError, match="dim"):
            inverse_frequencies(2, rope_scaling=scaling)


# --- base -----------------------------------------------------------------------------------

@pytest.mark.parametrize("base, error", [
    (0.0, ValueError), (-10.0, ValueError), (1.0, ValueError), (np.inf, ValueError), (np.nan, ValueError),
    ("10000", TypeError), (None, TypeError), (1 + 1j, TypeError),
])
@pytest.mark.parametrize("call", [
    lambda base: inverse_frequencies(8, base), lambda base: apply_rope(X, base=base),
    lambda base: apply_rope(X, base=base, layout="half"), lambda base: apply_rope_matrix(X, base=base),
    lambda base: apply_rope_complex(X, base=base), lambda base: apply_rope_elementwise(X, base=base),
    lambda base: rope_angles([1], 8, base), lambda base: cos_sin_tables([1], 8, base),
    lambda base: rope_core.long_term_decay_bound(1, 8, base), lambda base: rope_matrix(1, 8, base),
])
def test_base_must_be_finite_positive_and_not_one(call, base, error):
    with pytest.raises(error, match="base"):
        call(base)


# --- positions ------------------------------------------------------------------------------

@pytest.mark.parametrize("positions, error", [
    (np.arange(4), ValueError),                  # wrong length
    (np.arange(6), ValueError),
    (np.zeros((3, 5)), ValueError),              # batch of 3 does not fit x's batch of 2
    (np.zeros((2, 2, 5)), ValueError),           # would enlarge the output
    ([0, 1, np.nan, 3, 4], ValueError),
    ([0, 1, np.inf, 3, 4], ValueError),
    (["a", "b", "c", "d", "e"], TypeError),
    ("01234", TypeError),
    (np.array([0, 1, 2, 3, 4], dtype=object), TypeError),
    (np.array([0, 1, 2, 3, 4]) + 0j, TypeError),
])
@pytest.mark.parametrize("function", [apply_rope, apply_rope_matrix, apply_rope_complex, apply_rope_elementwise])
def test_positions(function, positions, error):
    with pytest.raises(error, match="positions"):
        function(X, positions)


def test_positions_that_broadcast_are_fine():
    assert apply_rope(X, np.arange(5)[None, :]).shape == X.shape
    assert apply_rope(X, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]).shape == X.shape
    assert apply_rope(X, 3).shape == X.shape             # every token at position 3


@pytest.mark.parametrize("positions, error", [([np.nan], ValueError), (["x"], TypeError), ([[1.0, np.inf]], ValueError)])
def test_rope_angles_and_tables_check_positions(positions, error):
    for call in (lambda: rope_angles(positions, 8), lambda: cos_sin_tables(positions, 8)):
        with pytest.raises(error, match="positions"):
            call()


@pytest.mark.parametrize("position, error", [([1, 2], ValueError), ("a", TypeError), (np.nan, ValueError)])
def test_rope_matrix_position(position, error):
    with pytest.raises(error, match="position"):
        rope_matrix(position, 8)


# --- layout, rope_type, rope_scaling --------------------------------------------------------

@pytest.mark.parametrize("layout", ["rotate_half", "Interleaved", "NEOX", 0])
def test_unknown_layout(layout):
    for call in (lambda: apply_rope(X, layout=layout), lambda: apply_rope_elementwise(X, layout=layout),
                 lambda: rope_core.relative_scores(np.ones(4), np.ones(4), [0], [1], layout=layout)):
        with pytest.raises(ValueError, match="layout"):
            call()


@pytest.mark.parametrize("scaling, error, match", [
    ({"rope_type": "ntk-by-parts", "factor": 2.0}, ValueError, "rope_type"),
    ({"type": "su", "factor": 2.0}, ValueError, "rope_type"),
    ({"rope_type": "linear"}, ValueError, "factor"),
    ({"rope_type": "linear", "factor": None}, ValueError, "factor"),
    ({"rope_type": "dynamic", "factor": 2.0}, ValueError, "max_position_embeddings"),
    ({"rope_type": "yarn", "factor": 2.0}, ValueError, "original_max_position_embeddings"),
    ({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0}, ValueError,
     "original_max_position_embeddings"),
    ({"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192}, ValueError,
     "low_freq_factor"),
    ({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0, "high_freq_factor": 1.0,
      "original_max_position_embeddings": 8192}, ValueError, "high_freq_factor"),
    ({"rope_type": "longrope", "short_factor": [1.0] * 4}, ValueError, "long_factor"),
    ({"rope_type": "longrope", "short_factor": [1.0] * 3, "long_factor": [1.0] * 4,
      "original_max_position_embeddings": 64}, ValueError, "short_factor"),
    ({"rope_type": "longrope", "short_factor": [1.0] * 4, "long_factor": [1.0, -1.0, 1.0, 1.0],
      "original_max_position_embeddings": 2}, ValueError, "long_factor"),
    ({"rope_type": "linear", "factor": 0.5}, ValueError, "factor"),
    ({"rope_type": "yarn", "factor": 0.9, "original_max_position_embeddings": 64}, ValueError, "factor"),
    ({"rope_type": "linear", "factor": -2.0}, ValueError, "factor"),
    ({"rope_type": "linear", "factor": np.inf}, ValueError, "factor"),
    ({"rope_type": "linear", "factor": "2"}, TypeError, "factor"),
    ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "beta_fast": 0}, ValueError,
     "beta_fast"),
    ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": -64}, ValueError,
     "original_max_position_embeddings"),
    ("linear", TypeError, "rope_scaling"),
    ([("rope_type", "linear")], TypeError, "rope_scaling"),
    (2.0, TypeError, "rope_scaling"),
])
def test_bad_rope_scaling(scaling, error, match):
    for call in (lambda: inverse_frequencies(8, rope_scaling=scaling, seq_len=100),
                 lambda: apply_rope(X, np.arange(5) * 100, rope_scaling=scaling),
                 lambda: apply_rope(X, np.arange(5) * 100, rope_scaling=scaling, layout="half")):
        with pytest.raises(error, match=match):
            call()
    if "short_factor" not in str(scaling) and "long_factor" not in str(scaling):
        with pytest.raises(error, match=match):
            attention_factor(8, rope_scaling=scaling)


@pytest.mark.parametrize("seq_len", [0, -5, "long", np.nan])
def test_bad_seq_len(seq_len):
    with pytest.raises(ValueError, match="seq_len"):
        inverse_frequencies(8, seq_len=seq_len)


# --- x ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("x, error", [
    ("abc", TypeError),
    (b"abcd", TypeError),
    (np.array([["a", "b"], ["c", "d"]]), TypeError),
    (np.array([[object(), object()]]), TypeError),
    (np.ones((3, 4), dtype=complex), TypeError),
    (np.array(1.0), ValueError),                 # 0-d
    (np.ones(4), ValueError),                    # 1-d: no sequence axis
    (np.ones((3, 5)), ValueError),               # odd d
    (None, TypeError),
    ([[1.0, 2.0], [3.0]], ValueError),           # ragged
])
@pytest.mark.parametrize("function", [apply_rope, apply_rope_matrix, apply_rope_complex, apply_rope_elementwise])
def test_x_must_be_a_real_numeric_array(function, x, error):
    with pytest.raises(error, match="x"):
        function(x)


def test_bool_x_is_promoted_like_integers():
    assert apply_rope(np.ones((2, 4), dtype=bool)).dtype == np.float64


@pytest.mark.parametrize("function", [rope_core.rotate_half, rope_core.rotate_every_two])
@pytest.mark.parametrize("x, error", [(np.ones(3), ValueError), ("ab", TypeError), (np.ones(2, complex), TypeError)])
def test_rotate_helpers_check_x(function, x, error):
    with pytest.raises(error, match="x"):
        function(x)


def test_cos_sin_tables_dtype():
    with pytest.raises(TypeError, match="dtype"):
        cos_sin_tables([0, 1], 8, dtype=np.int32)


def test_decay_bound_distances():
    with pytest.raises(TypeError, match="distances"):
        rope_core.long_term_decay_bound("far", 8)


@pytest.mark.parametrize("call, name", [
    (lambda value: rope_core.min_base_for_context(value, 8), "context_len"),
    (lambda value: rope_core.permute_for_half_layout(np.zeros((8, 3)), value), "n_heads"),
    (lambda value: rope_core.attention.monte_carlo_logits([0, 1], 8, n_samples=value), "n_samples"),
    (lambda value: rope_core.bounds.min_cosine_sum([1e4], value, 8), "context_len"),
])
@pytest.mark.parametrize("value", [True, 4.0, "4", None])
def test_integer_arguments_refuse_bools_floats_and_strings(call, name, value):
    """True == 1 and 4.0 == 4 in Python, but neither is an integer argument."""
    with pytest.raises(TypeError, match=name):
        call(value)
