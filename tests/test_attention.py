"""Scores, the decay bound, the base bound and attention with RoPE."""

from __future__ import annotations

import numpy as np
import pytest

from rope_core import (
    apply_rope,
    linear_attention_with_rope,
    long_term_decay_bound,
    min_base_for_context,
    relative_scores,
    rope_attention,
    softmax_attention,
)

# --- relative scores ------------------------------------------------------------------------

def test_relative_scores_depend_on_n_minus_m_only(rng):
    q, k = rng.standard_normal((2, 32))
    positions = np.arange(0, 200, 7)
    scores = relative_scores(q, k, positions, positions)
    for offset in (-14, 0, 21):
        diagonal = np.diagonal(scores, offset // 7)
        np.testing.assert_allclose(diagonal, diagonal[0], atol=1e-12)
    # The sign: entry (m, n) equals q^T R_{n - m} k, i.e. <q, R_{n-m} k> with q unrotated.
    m, n = 3, 10
    expected = q @ apply_rope(k[None], [n - m])[0]
    assert relative_scores(q, k, [m], [n])[0, 0] == pytest.approx(expected)
    assert relative_scores(q, k, [m], [n])[0, 0] != pytest.approx(q @ apply_rope(k[None], [m - n])[0])


def test_relative_scores_per_position_vectors_and_half_layout(rng):
    q, k = rng.standard_normal((4, 16)), rng.standard_normal((5, 16))
    pq, pk = np.arange(4), 100 + np.arange(5)
    expected = apply_rope(q, pq, layout="half") @ apply_rope(k, pk, layout="half").T
    np.testing.assert_allclose(relative_scores(q, k, pq, pk, layout="half"), expected, atol=1e-12)


@pytest.mark.parametrize("q, k, pq, pk, match", [
    (np.ones(4), np.ones(6), [0], [0], "same d"),
    (np.ones((3, 4)), np.ones(4), [0, 1], [0], "q"),
    (np.ones(4), np.ones(4), [[0, 1]], [0], "positions"),
    (np.ones(4), np.ones(4), [np.nan], [0], "positions_q"),
])
def test_relative_scores_rejects_bad_input(q, k, pq, pk, match):
    with pytest.raises(ValueError, match=match):
        relative_scores(q, k, pq, pk)


# --- decay bound ------------------------------------------------------------------------------

def decay_bound_by_loops(r, dim, base=10000.0):
    """(1/(d/2)) sum_{j=1}^{d/2} |sum_{k<j} e^{i r theta_k}|, with explicit loops."""
    total, partial = 0.0, 0.0j
    for k in range(dim // 2):
        partial += np.exp(1j * r * base ** (-2 * k / dim))
        total += abs(partial)
    return total / (dim // 2)


def test_decay_bound_known_values():
    values = long_term_decay_bound([0, 256, 1024], 128)
    assert values[0] == 32.5                                # (1 + 2 + ... + 64) / 64
    assert values[1] == pytest.approx(6.54, abs=0.005)
    assert values[2] == pytest.approx(4.02, abs=0.005)


@pytest.mark.parametrize("r", [0.0, 1.0, 17.5, 300.0, -40.0, 5000.0])
def test_decay_bound_matches_loops(r):
    assert long_term_decay_bound(r, 64) == pytest.approx(decay_bound_by_loops(r, 64), rel=1e-12)


def test_decay_bound_bounds_the_score(rng):
    """|score| <= max_i |h_{i+1} - h_i| * sum_j |S_j| (Abel summation), for random q, k."""
    dim = 32
    theta = 10000.0 ** (-np.arange(0, dim, 2) / dim)
    for r in (0, 5, 60, 900):
        q, k = rng.standard_normal((2, dim))
        h = (q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2])
        score = np.sum(h * np.exp(1j * r * theta))
        # Abel summation needs h_{d/2} = 0 appended.
        h_ext = np.append(h, 0)
        bound = np.abs(np.diff(h_ext)).max() * long_term_decay_bound(r, dim) * (dim // 2)
        assert abs(score) <= bound + 1e-9


def test_decay_bound_shape():
    assert long_term_decay_bound(np.zeros((2, 3)), 8).shape == (2, 3)


# --- base bound -------------------------------------------------------------------------------

def similarity_holds(base, context_len, dim):
    theta = base ** (-np.arange(0, dim, 2) / dim)
    m = np.arange(context_len + 1.0)
    return np.cos(m[:, None] * theta).sum(axis=1).min() >= 0


@pytest.mark.parametrize("context_len, low, high", [
    (1024, 4.2e3, 4.4e3),        # 5.6e3 (sometimes quoted) is admissible too, not the smallest
    (4096, 2.8e4, 2.95e4),
    (8192, 8.3e4, 8.5e4),        # 9.1e4 (sometimes quoted) is an admissible island further up
    (32768, 6.2e5, 6.4e5),
])
def test_min_base_known_values_and_grid_neighbour(context_len, low, high):
    base = min_base_for_context(context_len, 128)
    assert low < base < high
    assert similarity_holds(base, context_len, 128)
    assert not similarity_holds(base / 1.005, context_len, 128)   # the grid point below fails


def test_min_base_is_the_first_grid_point_that_holds():
    """Brute force over the whole default grid below the answer (d = 128, 1K tokens)."""
    base = min_base_for_context(1024, 128)
    grid = 2.0 * 1.005 ** np.arange(int(np.log(base / 2.0) / np.log(1.005)) + 2)
    grid = grid[grid < base * (1 - 1e-9)]
    theta = grid[:, None] ** (-np.arange(0, 128, 2) / 128)                 # (bases, 64)
    m = np.arange(1025.0)
    worst = np.array([np.cos(m[:, None] * t).sum(axis=1).min() for t in theta])
    assert (worst < 0).all()


def test_min_base_is_not_monotone_in_the_base():
    # Between the first admissible base and 6.03e3 there are bases that fail again (1K tokens).
    assert similarity_holds(4300.0, 1024, 128)
    assert not similarity_holds(5000.0, 1024, 128)
    assert similarity_holds(6100.0, 1024, 128)


def test_min_base_grows_with_context():
    bases = [min_base_for_context(length, 64) for length in (256, 1024, 4096)]
    assert bases[0] < bases[1] < bases[2]


@pytest.mark.parametrize("kwargs, error, match", [
    ({"context_len": 0, "dim": 128}, ValueError, "context_len"),
    ({"context_len": 10.5, "dim": 128}, TypeError, "context_len"),
    ({"context_len": 100, "dim": 7}, ValueError, "dim"),
    ({"context_len": 100, "dim": 128, "rtol": 0}, ValueError, "rtol"),
    ({"context_len": 100, "dim": 128, "low": 10.0, "high": 5.0}, ValueError, "low"),
    ({"context_len": 10**6, "dim": 8, "high": 10.0}, ValueError, "high"),
])
def test_min_base_rejects_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        min_base_for_context(**kwargs)


# --- attention ---------------------------------------------------------------------------------

def test_softmax_attention_against_explicit_loops(rng):
    q, k, v = rng.standard_normal((3, 5, 4))
    out, weights = softmax_attention(q, k, v, causal=True)
    for m in range(5):
        logits = np.array([q[m] @ k[n] / 2.0 for n in range(m + 1)])
        w = np.exp(logits - logits.max())
        w /= w.sum()
        np.testing.assert_allclose(weights[m, : m + 1], w)
        np.testing.assert_array_equal(weights[m, m + 1:], 0.0)
        np.testing.assert_allclose(out[m], w @ v[: m + 1])


def test_rope_attention_is_shift_invariant_and_rotates_q_and_k_only(rng):
    q, k, v = rng.standard_normal((3, 2, 6, 8))
    out, weights = rope_attention(q, k, v)
    out_shifted, weights_shifted = rope_attention(q, k, v, positions=1000 + np.arange(6))
    np.testing.assert_allclose(weights_shifted, weights, atol=1e-12)
    np.testing.assert_allclose(out_shifted, out, atol=1e-12)    # values are not rotated
    expected, _ = softmax_attention(apply_rope(q), apply_rope(k), v)
    np.testing.assert_allclose(out, expected, atol=1e-12)
    assert not np.allclose(weights, softmax_attention(q, k, v)[1])


def test_linear_attention_against_the_quadratic_formula(rng):
    q, k, v = rng.standard_normal((3, 7, 8))

    def phi(x):
        return np.where(x > 0, x + 1, np.exp(x))

    rq, rk = apply_rope(phi(q)), apply_rope(phi(k))
    for causal in (False, True):
        got = linear_attention_with_rope(q, k, v, causal=causal)
        for m in range(7):
            n = np.arange(m + 1 if causal else 7)
            numerator = (rq[m] @ rk[n].T) @ v[n]
            denominator = phi(q[m]) @ phi(k[n]).sum(axis=0)    # unrotated
            np.testing.assert_allclose(got[m], numerator / denominator, atol=1e-12)


@pytest.mark.parametrize("call, error, match", [
    (lambda: softmax_attention(np.ones((2, 4)), np.ones((2, 3)), np.ones((2, 1))), ValueError, "q and k"),
    (lambda: softmax_attention(np.ones((2, 4)), np.ones((3, 4)), np.ones((2, 1))), ValueError, "k and v"),
    (lambda: softmax_attention(np.ones((2, 4)), np.ones((3, 4)), np.ones((3, 1)), causal=True), ValueError,
     "causal"),
    (lambda: softmax_attention(np.ones(4), np.ones((3, 4)), np.ones((3, 1))), ValueError, "q"),
    (lambda: rope_attention(np.ones((2, 4)), np.ones((2, 4)), np.ones((2, 1)), layout="x"), ValueError, "layout"),
    (lambda: linear_attention_with_rope(np.ones((2, 4)), np.ones((2, 4)), np.ones((2, 1)), feature_map="relu"),
     ValueError, "feature_map"),
    (lambda: linear_attention_with_rope(np.ones((2, 4)), np.ones((3, 4)), np.ones((2, 1))), ValueError, "q, k"),
])
def test_attention_rejects_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("context_len, dim", [(4, 8), (9, 8), (10, 8), (8, 16), (9, 32)])
def test_min_base_checks_the_last_position_too(context_len, dim):
    """For these lengths the bound is set by m = L itself: the answer for L - 1 fails there,
    so a search that stopped at m = L - 1 would return a base that does not hold."""
    def cosine_sums(base, positions):
        theta = base ** (-np.arange(0, dim, 2) / dim)
        return np.cos(np.asarray(positions, dtype=float)[:, None] * theta).sum(axis=1)

    base = min_base_for_context(context_len, dim)
    assert cosine_sums(base, np.arange(context_len + 1)).min() >= 0      # m = 0 .. L
    shorter = min_base_for_context(context_len - 1, dim)
    assert cosine_sums(shorter, [context_len])[0] < 0


def test_linear_attention_denominator_by_hand():
    """d = 2, phi(q) = phi(k) = (1, 1) (q = k = 0), positions 0 and pi: R_pi = -I, so the
    rotated scores are +2 and -2 while the unrotated normaliser is 2 + 2 = 4.
    Row 0: (2 v0 - 2 v1) / 4; row 1: (-2 v0 + 2 v1) / 4. A rotated denominator would be 0."""
    q = k = np.zeros((2, 2))
    v = np.array([[1.0], [3.0]])
    out = linear_attention_with_rope(q, k, v, positions=[0.0, np.pi], base=10.0)
    np.testing.assert_allclose(out, [[-1.0], [1.0]], atol=1e-12)
    causal = linear_attention_with_rope(q, k, v, positions=[0.0, np.pi], base=10.0, causal=True)
    np.testing.assert_allclose(causal, [[1.0], [1.0]], atol=1e-12)
