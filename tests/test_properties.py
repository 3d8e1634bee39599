"""Property tests (hypothesis): the algebra of RoPE holds for any input, not just chosen ones."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import rope_core
from rope_core import (
    apply_rope,
    apply_rope_complex,
    apply_rope_elementwise,
    apply_rope_matrix,
    interleaved_to_half,
    permute_for_half_layout,
    rope_matrix,
    rotation_matrix,
)

PROPERTY = settings(max_examples=40, deadline=None)

dims = st.sampled_from([2, 4, 6, 8, 16, 32, 64, 128])
small_dims = st.sampled_from([2, 4, 6, 8, 16, 32])
bases = st.sampled_from([10.0, 10000.0, 500000.0]) | st.floats(1.5, 1e7)
far_positions = st.floats(-1e6, 1e6, allow_nan=False)
positions_1e6 = st.floats(0, 1e6, allow_nan=False)
seeds = st.integers(0, 2**32 - 1)
layouts = st.sampled_from(["interleaved", "half"])


def vectors(seed, shape, scale=1.0):
    return np.random.default_rng(seed).standard_normal(shape) * scale


def angle_roundoff(*positions):
    """float64 round-off of m * theta is about m * 1e-16; allow a margin."""
    return 1e-12 + 4e-15 * max(abs(float(p)) for p in positions)


@PROPERTY
@given(dim=dims, base=bases, seed=seeds, layout=layouts, start=positions_1e6)
def test_norm_is_preserved(dim, base, seed, layout, start):
    x = vectors(seed, (5, dim))
    out = apply_rope(x, start + np.arange(5), base=base, layout=layout)
    np.testing.assert_allclose(np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-12)


@PROPERTY
@given(dim=dims, base=bases, seed=seeds, layout=layouts, m=positions_1e6, n=positions_1e6, shift=far_positions)
def test_score_depends_only_on_n_minus_m(dim, base, seed, layout, m, n, shift):
    q, k = vectors(seed, (2, 1, dim))
    score = (apply_rope(q, [m], base=base, layout=layout) @ apply_rope(k, [n], base=base, layout=layout).T)[0, 0]
    shifted = (apply_rope(q, [m + shift], base=base, layout=layout)
               @ apply_rope(k, [n + shift], base=base, layout=layout).T)[0, 0]
    relative = (q @ apply_rope(k, [n - m], base=base, layout=layout).T)[0, 0]
    scale = np.linalg.norm(q) * np.linalg.norm(k) * dim
    tolerance = angle_roundoff(m, n, m + shift, n + shift) * scale
    assert abs(score - shifted) <= tolerance
    assert abs(score - relative) <= tolerance


@PROPERTY
@given(dim=small_dims, base=bases, a=far_positions, b=far_positions)
def test_rotations_compose(dim, base, a, b):
    np.testing.assert_allclose(rope_matrix(a, dim, base) @ rope_matrix(b, dim, base), rope_matrix(a + b, dim, base),
                               atol=angle_roundoff(a, b, a + b) * 4)
    np.testing.assert_allclose(rope_matrix(a, dim, base).T, rope_matrix(-a, dim, base), atol=1e-15)


@PROPERTY
@given(base=bases, m=far_positions)
def test_dim_2_is_the_plane_rotation(base, m):
    np.testing.assert_allclose(rope_matrix(m, 2, base), rotation_matrix(m), atol=0)


@PROPERTY
@given(dim=small_dims, base=bases, seed=seeds, start=positions_1e6)
def test_matrix_complex_and_elementwise_forms_agree(dim, base, seed, start):
    x = vectors(seed, (2, 4, dim), scale=3.0)
    positions = start + np.arange(4)
    reference = apply_rope_matrix(x, positions, base=base)
    tolerance = angle_roundoff(start + 4) * np.abs(x).max() * 4
    for got in (apply_rope_complex(x, positions, base=base), apply_rope_elementwise(x, positions, base=base),
                apply_rope(x, positions, base=base)):
        np.testing.assert_allclose(got, reference, rtol=0, atol=tolerance)


@PROPERTY
@given(dim=dims, base=bases, seed=seeds, start=positions_1e6)
def test_layouts_agree_after_permutation(dim, base, seed, start):
    x = vectors(seed, (3, dim))
    positions = start + np.arange(3)
    interleaved = apply_rope(x, positions, base=base)
    half = apply_rope(interleaved_to_half(x), positions, base=base, layout="half")
    np.testing.assert_allclose(half, interleaved_to_half(interleaved), rtol=0, atol=1e-12)
    np.testing.assert_allclose(apply_rope_elementwise(interleaved_to_half(x), positions, base=base, layout="half"),
                               half, rtol=0, atol=angle_roundoff(start + 3) * np.abs(x).max() * 4)


@PROPERTY
@given(n_heads=st.integers(1, 4), head_dim=small_dims, seed=seeds, start=positions_1e6)
def test_permuted_weights_give_identical_scores(n_heads, head_dim, seed, start):
    d_model, seq_len = 6, 5
    w_q, w_k = vectors(seed, (2, n_heads * head_dim, d_model))
    tokens = vectors(seed + 1, (seq_len, d_model))
    positions = start + np.arange(seq_len)

    def scores(wq, wk, layout):
        q = (tokens @ wq.T).reshape(seq_len, n_heads, head_dim).transpose(1, 0, 2)
        k = (tokens @ wk.T).reshape(seq_len, n_heads, head_dim).transpose(1, 0, 2)
        return apply_rope(q, positions, layout=layout) @ np.swapaxes(apply_rope(k, positions, layout=layout), 1, 2)

    converted = scores(permute_for_half_layout(w_q, n_heads), permute_for_half_layout(w_k, n_heads), "half")
    original = scores(w_q, w_k, "interleaved")
    np.testing.assert_allclose(converted, original, rtol=0, atol=1e-10 * np.abs(original).max() + 1e-12)


@PROPERTY
@given(dim=small_dims, seed=seeds, layout=layouts, offset=st.integers(0, 10**6), length=st.integers(1, 12))
def test_offset_positions_equal_shifted_sequences(dim, seed, layout, offset, length):
    x = vectors(seed, (length, dim))
    with_offset = apply_rope(x, offset + np.arange(length), layout=layout)
    one_by_one = np.concatenate([apply_rope(x[i:i + 1], [offset + i], layout=layout) for i in range(length)])
    np.testing.assert_allclose(with_offset, one_by_one, rtol=0, atol=1e-13)
    # A longer sequence whose last tokens are x: the same numbers.
    prefix = min(offset, 40)
    longer = np.concatenate([vectors(seed + 1, (prefix, dim)), x])
    tail = apply_rope(longer, (offset - prefix) + np.arange(prefix + length), layout=layout)[prefix:]
    np.testing.assert_allclose(tail, with_offset, rtol=0, atol=1e-13)


@PROPERTY
@given(dim=dims, seed=seeds, layout=layouts, start=st.integers(0, 2**24 - 64))
def test_float32_matches_float64_at_any_position(dim, seed, layout, start):
    x = vectors(seed, (4, dim), scale=10.0).astype(np.float32)
    positions = start + np.arange(4)
    got = apply_rope(x, positions, layout=layout)
    reference = apply_rope(x.astype(np.float64), positions, layout=layout)
    assert got.dtype == np.float32
    assert np.abs(got - reference).max() <= 1e-6 * np.abs(x).max()


@PROPERTY
@given(rope_type=st.sampled_from(["linear", "dynamic", "yarn", "llama3"]), factor=st.floats(1.0, 64.0),
       seed=seeds, layout=layouts, start=st.integers(0, 10**5))
def test_scaled_rope_still_relative(rope_type, factor, seed, layout, start):
    """Every scaling changes theta (and a constant factor), never the relative property."""
    # Each type gets only the keys it reads (rope_scaling refuses the others).
    extra = {"linear": {}, "dynamic": {"original_max_position_embeddings": 512},
             "yarn": {"original_max_position_embeddings": 512},
             "llama3": {"original_max_position_embeddings": 512, "low_freq_factor": 1.0, "high_freq_factor": 4.0}}
    scaling = {"rope_type": rope_type, "factor": factor, **extra[rope_type]}
    q, k = vectors(seed, (2, 1, 32))
    a = (apply_rope(q, [start], layout=layout, rope_scaling=scaling)
         @ apply_rope(k, [start + 9], layout=layout, rope_scaling=scaling).T)
    b = (apply_rope(q, [0], layout=layout, rope_scaling=scaling)
         @ apply_rope(k, [9], layout=layout, rope_scaling=scaling).T)
    if rope_type == "dynamic":
        # Its theta depends on the largest position seen, so rotate both tokens in one call
        # and compare with q . R_9 k built from that same theta.
        far = apply_rope(np.concatenate([q, k]), [start, start + 9], layout=layout, rope_scaling=scaling)
        theta = rope_core.inverse_frequencies(32, rope_scaling=scaling, seq_len=start + 10)
        a, b = far[0] @ far[1], q[0] @ apply_rope_with_theta(k[0], 9, theta, layout)
    np.testing.assert_allclose(a, b, rtol=0, atol=angle_roundoff(start + 9) * 100)


def apply_rope_with_theta(v, m, theta, layout):
    """Rotate one vector by m * theta in the given layout (test helper, plain numpy)."""
    d = v.shape[-1]
    c, s = np.cos(m * theta), np.sin(m * theta)
    if layout == "interleaved":
        a, b = v[0::2], v[1::2]
        out = np.empty(d)
        out[0::2], out[1::2] = a * c - b * s, b * c + a * s
        return out
    a, b = v[: d // 2], v[d // 2:]
    return np.concatenate([a * c - b * s, b * c + a * s])


@PROPERTY
@given(batch=st.integers(1, 4), heads=st.integers(1, 4), seq=st.integers(1, 6),
       half_dim=st.integers(1, 8), layout=st.sampled_from(["interleaved", "half"]),
       seed=st.integers(0, 2**32 - 1))
def test_position_ids_rotate_each_batch_entry_for_every_head(batch, heads, seq, half_dim, layout,
                                                              seed):
    """transformers' (batch, seq) position_ids with (batch, heads, seq, d): entry [b, h] is
    rotated by row b, whatever the sizes (batch == heads included)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, heads, seq, 2 * half_dim))
    position_ids = rng.integers(0, 10_000, size=(batch, seq))
    got = apply_rope(x, position_ids, layout=layout)
    for b in range(batch):
        for h in range(heads):
            np.testing.assert_allclose(got[b, h], apply_rope(x[b, h], position_ids[b], layout=layout),
                                       atol=1e-12)
