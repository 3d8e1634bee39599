"""The attention statistics (rope_core.attention) and bounds (rope_core.bounds) against a
dense, independent construction of RoPE."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rope_core.attention
import rope_core.bounds
from rope_core import min_base_for_context
from rope_core.attention import monte_carlo_logits, pair_contributions
from rope_core.bounds import expected_logit, min_cosine_sum


def dense_rotation(position, dim, base=10000.0):
    """Block-diagonal R_m built entry by entry (interleaved pairs), independent of rope_core."""
    matrix = np.zeros((dim, dim))
    for i in range(dim // 2):
        angle = position * base ** (-2.0 * i / dim)
        c, s = np.cos(angle), np.sin(angle)
        matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, -s], [s, c]]
    return matrix


@pytest.mark.parametrize("m, n", [(0, 0), (7, 3), (3, 7), (1000, 1), (123456, 654321)])
def test_pair_contributions_sum_to_the_rope_logit(m, n):
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 16))
    logit = (dense_rotation(m, 16) @ q) @ (dense_rotation(n, 16) @ k)
    terms = pair_contributions(q, k, m - n)
    assert terms.shape == (8,)
    np.testing.assert_allclose(terms.sum(), logit, rtol=1e-9, atol=1e-9)


def test_pair_contributions_is_per_pair_and_broadcasts():
    rng = np.random.default_rng(1)
    q, k = rng.standard_normal((2, 5, 8))
    distances = np.arange(5) * 3.0
    terms = pair_contributions(q, k, distances, base=500.0)
    assert terms.shape == (5, 8 // 2)
    for row in range(5):
        r = distances[row]
        for i in range(4):
            block = dense_rotation(r, 8, base=500.0)[2 * i : 2 * i + 2, 2 * i : 2 * i + 2]
            expected = (block @ q[row, 2 * i : 2 * i + 2]) @ k[row, 2 * i : 2 * i + 2]
            np.testing.assert_allclose(terms[row, i], expected, atol=1e-12)


def test_expected_logit_formula_and_special_values():
    distances = np.array([0.0, 1.0, 17.0, 900.0])
    theta = 10000.0 ** (-np.arange(0, 32, 2) / 32)
    np.testing.assert_allclose(
        expected_logit(distances, 32, correlation=0.5, variance=2.0),
        2 * 0.5 * 2.0 * np.cos(np.outer(distances, theta)).sum(1),
    )
    np.testing.assert_array_equal(expected_logit(distances, 32), np.zeros(4))
    # At r = 0 and rho = 1 the logit is |q|^2, whose mean is d * variance.
    assert expected_logit([0], 32, correlation=1.0)[0] == pytest.approx(32.0)


@pytest.mark.parametrize("correlation", [0.0, 0.6])
def test_monte_carlo_mean_matches_the_exact_expectation(correlation):
    distances = np.array([0, 1, 10, 100, 1000])
    logits = monte_carlo_logits(distances, 64, correlation=correlation, n_samples=20000)
    exact = expected_logit(distances, 64, correlation=correlation)
    standard_error = logits.std(0) / np.sqrt(logits.shape[0])
    assert np.all(np.abs(logits.mean(0) - exact) < 5 * standard_error)


def test_monte_carlo_samples_are_rope_logits_and_seeded():
    distances = np.array([0.0, 4.0, 250.0])
    logits = monte_carlo_logits(distances, 8, correlation=0.3, n_samples=3, seed=7)
    rng = np.random.default_rng(7)
    q = rng.standard_normal((3, 8))
    k = 0.3 * q + np.sqrt(1 - 0.09) * rng.standard_normal((3, 8))
    for s in range(3):
        for j, r in enumerate(distances):
            expected = (dense_rotation(r + 5, 8) @ q[s]) @ (dense_rotation(5, 8) @ k[s])
            np.testing.assert_allclose(logits[s, j], expected, atol=1e-12)
    np.testing.assert_array_equal(
        logits, monte_carlo_logits(distances, 8, correlation=0.3, n_samples=3, seed=7)
    )


def test_min_cosine_sum_is_the_smallest_sum_over_the_context():
    bases = np.array([50.0, 3e3, 1e5])
    expected = []
    for base in bases:
        theta = base ** (-np.arange(0, 16, 2) / 16)
        expected.append(min(np.cos(m * theta).sum() for m in range(201)))
    np.testing.assert_allclose(min_cosine_sum(bases, 200, 16), expected, rtol=1e-12)


def test_min_cosine_sum_agrees_with_min_base_for_context_at_the_threshold():
    base = min_base_for_context(1024, 64, rtol=0.005)
    above, below = min_cosine_sum([base, base / 1.005], 1024, 64)
    assert above >= 0 > below


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: pair_contributions(np.ones(5), np.ones(5), 0), ValueError, "even"),
        (lambda: pair_contributions(np.ones(4), np.ones(6), 0), ValueError, "k must"),
        (lambda: pair_contributions(np.ones(4), np.ones(4), "far"), TypeError, "distance must"),
        (lambda: pair_contributions(np.ones(4), np.ones(4), np.nan), ValueError, "finite"),
        (lambda: pair_contributions(np.ones(4), np.ones(4), 0, base=-1.0), ValueError, "base"),
        (lambda: expected_logit([0], 4, correlation=1.5), ValueError, "correlation"),
        (lambda: expected_logit([0], 4, variance=0.0), ValueError, "variance"),
        (lambda: expected_logit([0], 3), ValueError, "dim"),
        (lambda: monte_carlo_logits([[0]], 4), ValueError, "1-D"),
        (lambda: monte_carlo_logits([0], 4, n_samples=1), ValueError, "n_samples"),
        (lambda: min_cosine_sum([[1e4]], 10, 4), ValueError, "bases"),
        (lambda: min_cosine_sum([1e4], 0, 4), ValueError, "context_len"),
        (lambda: min_cosine_sum([-5.0], 10, 4), ValueError, r"bases\[0\] must"),
        (lambda: min_cosine_sum([1e4, 1.0], 10, 4), ValueError, r"bases\[1\] must"),
        (lambda: min_cosine_sum(["1e4"], 10, 4), TypeError, "bases must"),
        # The bounds of a base search are named as the caller wrote them, not "base".
        (lambda: min_base_for_context(64, 16, low=1.0), ValueError, "^low must"),
        (lambda: min_base_for_context(64, 16, high="big"), TypeError, "^high must"),
        (lambda: rope_core.bounds.base_from_which_all_pass(64, 16, start=-2.0, high=1e4), ValueError, "^start must"),
        (lambda: rope_core.bounds.base_from_which_all_pass(64, 16, start=2.0, high=np.inf), ValueError, "^high must"),
    ],
)
def test_bad_input_names_the_argument(call, error, words):
    with pytest.raises(error, match=words):
        call()


@pytest.mark.parametrize("module", [rope_core.attention, rope_core.bounds])
def test_every_function_has_an_example(module):
    # The examples run as doctests (--doctest-modules in pyproject.toml).
    for name in module.__all__:
        assert ">>> " in getattr(module, name).__doc__, f"{name} has no Examples"


@settings(max_examples=60, deadline=None)
@given(
    m=st.integers(0, 10**6),
    n=st.integers(0, 10**6),
    half_dim=st.integers(1, 16),
    seed=st.integers(0, 2**32 - 1),
)
def test_pair_terms_sum_to_the_dense_logit_at_any_positions(m, n, half_dim, seed):
    dim = 2 * half_dim
    q, k = np.random.default_rng(seed).standard_normal((2, dim))
    logit = (dense_rotation(m, dim) @ q) @ (dense_rotation(n, dim) @ k)
    scale = np.linalg.norm(q) * np.linalg.norm(k)
    np.testing.assert_allclose(pair_contributions(q, k, m - n).sum(), logit, atol=1e-9 * scale)
