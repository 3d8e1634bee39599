"""apply_rope and its teaching forms: Meta's complex code, rotate_half, precision, dtypes."""

from __future__ import annotations

import numpy as np
import pytest

import rope_core
from rope_core import (
    apply_rope,
    apply_rope_complex,
    apply_rope_elementwise,
    apply_rope_matrix,
    cos_sin_tables,
    rope_angles,
    rope_matrix,
)


def roundoff(positions):
    """float64 round-off of an angle m*theta grows with m: two correct formulas for theta
    (base**-e and 1/base**e) differ in the last bit, so angles differ by about m * 2e-16."""
    return 1e-12 + 1e-15 * np.max(np.abs(positions))


def meta_llama_rope(x, positions, dim, theta=10000.0):
    """Meta's ``precompute_freqs_cis`` + ``apply_rotary_emb``, torch.polar/view_as_complex in numpy."""
    freqs = 1.0 / (theta ** (np.arange(0, dim, 2)[: dim // 2].astype(np.float64) / dim))
    freqs = np.outer(positions, freqs)
    freqs_cis = np.ones_like(freqs) * np.exp(1j * freqs)            # torch.polar(ones, freqs)
    pairs = x.reshape(*x.shape[:-1], -1, 2)
    x_complex = pairs[..., 0] + 1j * pairs[..., 1]                   # view_as_complex
    rotated = x_complex * freqs_cis
    return np.stack([rotated.real, rotated.imag], axis=-1).reshape(x.shape)  # view_as_real + flatten


def neox_rope(x, positions, dim, base=10000.0):
    """GPT-NeoX / transformers: cos/sin of cat(freqs, freqs), x*cos + rotate_half(x)*sin."""
    inv_freq = 1.0 / base ** (np.arange(0, dim, 2) / dim)
    emb = np.concatenate([np.outer(positions, inv_freq)] * 2, axis=-1)
    half = dim // 2
    rotated_half = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * np.cos(emb) + rotated_half * np.sin(emb)


@pytest.mark.parametrize("dim", [2, 8, 64, 128])
@pytest.mark.parametrize("start", [0, 7, 100_000])
def test_interleaved_matches_meta_complex_implementation(rng, dim, start):
    x = rng.standard_normal((2, 3, 17, dim))
    positions = start + np.arange(17)
    expected = meta_llama_rope(x, positions, dim)
    tolerance = roundoff(positions) * np.abs(x).max()
    np.testing.assert_allclose(apply_rope(x, positions), expected, rtol=0, atol=tolerance)
    np.testing.assert_allclose(apply_rope_complex(x, positions), expected, rtol=0, atol=tolerance)


@pytest.mark.parametrize("dim", [2, 8, 128])
@pytest.mark.parametrize("start", [0, 100_000])
def test_half_matches_rotate_half_formula(rng, dim, start):
    x = rng.standard_normal((4, 33, dim))
    positions = start + np.arange(33)
    expected = neox_rope(x, positions, dim)
    tolerance = roundoff(positions) * np.abs(x).max()
    np.testing.assert_allclose(apply_rope(x, positions, layout="half"), expected, rtol=0, atol=tolerance)
    np.testing.assert_allclose(apply_rope_elementwise(x, positions, layout="half"), expected, rtol=0,
                               atol=tolerance)


def test_hand_computed_pair():
    # d = 2, position 1, theta_0 = 1: (1, 0) -> (cos 1, sin 1); (0, 1) -> (-sin 1, cos 1).
    got = apply_rope(np.array([[1.0, 0.0], [0.0, 1.0]]), positions=[1, 1])
    np.testing.assert_allclose(got, [[np.cos(1), np.sin(1)], [-np.sin(1), np.cos(1)]], atol=1e-15)


def test_all_forms_agree_on_a_batch(rng):
    x = rng.standard_normal((2, 5, 16))
    positions = np.array([[0, 1, 2, 3, 4], [10, 20, 30, 40, 50]])
    reference = apply_rope_matrix(x, positions)
    for got in (apply_rope(x, positions), apply_rope_complex(x, positions), apply_rope_elementwise(x, positions)):
        np.testing.assert_allclose(got, reference, atol=1e-12)


def test_rope_matrix_structure():
    matrix = rope_matrix(3.0, 8, base=100.0)
    np.testing.assert_allclose(matrix @ matrix.T, np.eye(8), atol=1e-15)
    theta = 100.0 ** (-np.arange(0, 8, 2) / 8)
    for i in range(4):
        block = matrix[2 * i:2 * i + 2, 2 * i:2 * i + 2]
        np.testing.assert_allclose(block, rope_core.rotation_matrix(3.0 * theta[i]))
    off_block = matrix.copy()
    for i in range(4):
        off_block[2 * i:2 * i + 2, 2 * i:2 * i + 2] = 0
    assert not off_block.any()
    np.testing.assert_allclose(rope_matrix(0, 8), np.eye(8))


def test_rope_angles_shape_and_values():
    angles = rope_angles(np.arange(6).reshape(2, 3), 8)
    assert angles.shape == (2, 3, 4) and angles.dtype == np.float64
    np.testing.assert_allclose(angles[1, 2], 5 * 10000.0 ** (-np.arange(0, 8, 2) / 8))
    assert rope_angles(7, 4).shape == (1, 2)


def test_default_positions_are_0_to_seq_len_minus_1(rng):
    x = rng.standard_normal((3, 12, 8))
    np.testing.assert_array_equal(apply_rope(x), apply_rope(x, np.arange(12)))
    np.testing.assert_array_equal(apply_rope(x, layout="half"), apply_rope(x, np.arange(12), layout="half"))


def test_positions_may_be_floats_and_broadcast(rng):
    x = rng.standard_normal((2, 4, 6, 8))
    per_batch = np.array([np.arange(6) + 0.5, np.arange(6) + 100])[:, None, :]  # (2, 1, 6)
    got = apply_rope(x, per_batch)
    for b in range(2):
        np.testing.assert_allclose(got[b], meta_llama_rope(x[b], per_batch[b, 0], 8), atol=1e-12)


def test_kv_cache_offsets_equal_the_same_tokens_in_a_longer_sequence(rng):
    full = rng.standard_normal((40, 16))
    for layout in ("interleaved", "half"):
        rotated_full = apply_rope(full, layout=layout)
        np.testing.assert_allclose(apply_rope(full[25:], 25 + np.arange(15), layout=layout), rotated_full[25:],
                                   atol=1e-13)
        # One token at a time, as decoding with a cache does.
        np.testing.assert_allclose(apply_rope(full[39:], [39], layout=layout), rotated_full[39:], atol=1e-13)


def test_rotary_dim_passes_the_rest_through(rng):
    x = rng.standard_normal((9, 256))
    for layout in ("interleaved", "half"):
        got = apply_rope(x, layout=layout, rotary_dim=64)   # GPT-J: 64 of 256
        np.testing.assert_array_equal(got[:, 64:], x[:, 64:])
        np.testing.assert_allclose(got[:, :64], apply_rope(x[:, :64], layout=layout), atol=1e-15)
    np.testing.assert_array_equal(apply_rope(x, rotary_dim=256), apply_rope(x))


def test_attention_factor_scales_the_output(rng):
    x = rng.standard_normal((6, 32))
    yarn = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 64}
    scale = rope_core.attention_factor(32, rope_scaling=yarn)
    out = apply_rope(x, rope_scaling=yarn)
    np.testing.assert_allclose(np.linalg.norm(out, axis=-1), scale * np.linalg.norm(x, axis=-1), rtol=1e-13)


# --- dtypes, NaN, no mutation --------------------------------------------------------------

@pytest.mark.parametrize("dtype, atol", [(np.float16, 3e-3), (np.float32, 1e-6), (np.float64, 1e-13)])
@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_dtypes_are_kept(rng, dtype, atol, layout):
    x = rng.standard_normal((3, 50, 32)).astype(dtype)
    positions = 5000 + np.arange(50)
    out = apply_rope(x, positions, layout=layout)
    assert out.dtype == dtype and out.shape == x.shape
    reference = apply_rope(x.astype(np.float64), positions, layout=layout)
    np.testing.assert_allclose(out.astype(np.float64), reference, rtol=0, atol=atol * np.abs(x).max())


def test_integer_x_is_promoted_to_float64():
    x = np.arange(16).reshape(2, 8)
    out = apply_rope(x)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, apply_rope(x.astype(np.float64)))
    assert apply_rope(x, layout="half").dtype == np.float64


@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_nan_and_inf_in_x_propagate(rng, layout):
    x = rng.standard_normal((4, 8))
    x[2, 3] = np.nan
    x[1, 0] = np.inf
    out = apply_rope(x, layout=layout)
    partner = {"interleaved": 2, "half": 7}[layout]      # the other feature of feature 3's pair
    assert np.isnan(out[2, 3]) and np.isnan(out[2, partner])
    clean_rows = [0, 3]
    np.testing.assert_allclose(out[clean_rows], apply_rope(x[clean_rows], np.array(clean_rows), layout=layout))
    assert not np.isfinite(out[1]).all()


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int64])
def test_x_is_never_modified(rng, layout, dtype):
    x = (rng.standard_normal((2, 10, 16)) * 10).astype(dtype)
    before = x.copy()
    apply_rope(x, layout=layout)
    apply_rope(x, layout=layout, rotary_dim=8)
    apply_rope_matrix(x), apply_rope_complex(x), apply_rope_elementwise(x, layout=layout)
    np.testing.assert_array_equal(x, before)


def test_non_contiguous_input(rng):
    x = rng.standard_normal((16, 10, 8)).astype(np.float32)
    view = x.transpose(1, 0, 2)[:, ::2]              # (10, 8, 8), strided
    np.testing.assert_allclose(apply_rope(view), apply_rope(np.ascontiguousarray(view)), atol=0)
    fortran = np.asfortranarray(x[0])
    np.testing.assert_allclose(apply_rope(fortran, layout="half"), apply_rope(x[0], layout="half"), atol=0)


# --- long context precision ----------------------------------------------------------------

def float64_reference(x, positions):
    """Rotate in float64 with angles formed in float64 (independent of rope_core's tables)."""
    return meta_llama_rope(x.astype(np.float64), positions, x.shape[-1])


@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_float32_input_is_accurate_up_to_2_pow_24(rng, layout):
    positions = np.array([0, 1, 4095, 8191, 131_071, 2**20, 3_000_000, 12_345_678, 2**24 - 2, 2**24 - 1])
    x = rng.standard_normal((3, positions.size, 128)).astype(np.float32)
    if layout == "interleaved":
        expected = float64_reference(x, positions)
        got = apply_rope(x, positions)
    else:
        expected = neox_rope(x.astype(np.float64), positions, 128)
        got = apply_rope(x, positions, layout="half")
    assert got.dtype == np.float32
    error = np.abs(got.astype(np.float64) - expected).max()
    assert error <= 1e-6 * np.abs(x).max()


@pytest.mark.parametrize("last_position, low, high", [
    (8192, 3e-4, 8e-4),          # half an ulp of float32 at 8K x theta_0: about 5e-4
    (131_072, 5e-3, 1.2e-2),     # about 8e-3 at 128K
    (2**20, 4e-2, 1.3e-1),       # about 6e-2 at 1M
])
def test_float32_angle_tables_would_be_off(last_position, low, high):
    """What the float64 angles avoid: cos of float32-formed angles m * theta_i (as a float32
    ``inv_freq @ position_ids`` does), worst case over the last 256 positions up to m."""
    theta64 = rope_core.inverse_frequencies(128)
    m = np.arange(last_position - 255, last_position + 1.0)
    angle32 = m.astype(np.float32)[:, None] * theta64.astype(np.float32)
    cos_error = np.abs(np.cos(angle32.astype(np.float64)) - np.cos(m[:, None] * theta64)).max()
    assert low < cos_error < high
    # rope_core's own float32 table is right to float32 round-off.
    cos32, _ = cos_sin_tables(m, 128, dtype=np.float32)
    assert np.abs(cos32.astype(np.float64) - np.cos(m[:, None] * theta64)).max() < 1e-7


# --- the cos/sin cache -----------------------------------------------------------------------

def test_cached_tables_are_read_only_and_reused():
    cos, sin = cos_sin_tables(np.arange(32), 16)
    assert not cos.flags.writeable and not sin.flags.writeable
    with pytest.raises(ValueError):
        cos[0, 0] = 5.0
    again = cos_sin_tables(np.arange(32), 16)
    assert again[0] is cos
    np.testing.assert_allclose(cos, np.cos(rope_angles(np.arange(32), 16)))


def test_cache_keys_separate_every_argument():
    positions = np.arange(8)
    variants = [
        cos_sin_tables(positions, 16),
        cos_sin_tables(positions + 1, 16),
        cos_sin_tables(positions, 16, base=500.0),
        cos_sin_tables(positions, 16, rope_scaling={"rope_type": "linear", "factor": 2.0}),
        cos_sin_tables(positions, 16, rope_scaling={"rope_type": "linear", "factor": 3.0}),
        cos_sin_tables(positions.reshape(2, 4), 16),
    ]
    for i, (cos_a, _) in enumerate(variants):
        for cos_b, _ in variants[i + 1:]:
            assert cos_a.shape != cos_b.shape or not np.allclose(cos_a, cos_b)
    assert cos_sin_tables(positions, 16, dtype=np.float32)[0].dtype == np.float32


def test_cache_stays_bounded_and_results_stay_right(rng):
    x = rng.standard_normal((4, 16)).astype(np.float32)
    for start in range(50):
        got = apply_rope(x, start + np.arange(4))
        np.testing.assert_allclose(got, float64_reference(x, start + np.arange(4)), atol=1e-6)
    from rope_core import _fast as apply_module
    assert len(apply_module._TABLE_CACHE) <= apply_module._TABLE_CACHE_SIZE


def test_rotate_helpers():
    x = np.arange(1.0, 7.0)
    np.testing.assert_array_equal(rope_core.rotate_half(x), [-4, -5, -6, 1, 2, 3])
    np.testing.assert_array_equal(rope_core.rotate_every_two(x), [-2, 1, -4, 3, -6, 5])
    # Applying either twice is a half turn.
    np.testing.assert_array_equal(rope_core.rotate_half(rope_core.rotate_half(x)), -x)
    np.testing.assert_array_equal(rope_core.rotate_every_two(rope_core.rotate_every_two(x)), -x)


@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_negative_positions_undo_positive_ones(rng, layout):
    # R_{-m} = R_m^T: relative distances n - m may be negative.
    x = rng.standard_normal((5, 16))
    positions = np.arange(5) * 37
    back = apply_rope(apply_rope(x, positions, layout=layout), -positions, layout=layout)
    np.testing.assert_allclose(back, x, atol=1e-13)
    scaling = {"rope_type": "dynamic", "factor": 2.0, "max_position_embeddings": 8}
    np.testing.assert_allclose(apply_rope(x, -positions, rope_scaling=scaling), apply_rope(x, -positions), atol=0)


# --- the blocked and out= paths -------------------------------------------------------------

@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_long_sequences_processed_in_blocks(rng, layout, dtype):
    # 3000 rows of d = 64 span several cache-sized blocks (the last one partial).
    x = rng.standard_normal((2, 3000, 64)).astype(dtype)
    positions = 7 + np.arange(3000)
    expected = neox_rope(x.astype(np.float64), positions, 64) if layout == "half" else \
        meta_llama_rope(x.astype(np.float64), positions, 64)
    got = apply_rope(x, positions, layout=layout)
    tolerance = {np.float16: 2e-3, np.float32: 1e-6, np.float64: 1e-12}[dtype]
    assert got.dtype == dtype
    np.testing.assert_allclose(got.astype(np.float64), expected, rtol=0, atol=tolerance * np.abs(x).max())


def test_strided_last_axis_takes_the_copying_path(rng):
    wide = rng.standard_normal((700, 32))
    x = wide[:, ::2]                                  # pairs are not adjacent in memory
    np.testing.assert_allclose(apply_rope(x), meta_llama_rope(np.ascontiguousarray(x), np.arange(700), 16),
                               atol=1e-12)


@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_out_buffer_is_filled_and_returned(rng, layout):
    x = rng.standard_normal((3, 600, 32)).astype(np.float32)
    out = np.full_like(x, np.nan)
    result = apply_rope(x, layout=layout, out=out)
    assert result is out
    np.testing.assert_array_equal(out, apply_rope(x, layout=layout))
    out_partial = np.full_like(x, np.nan)
    apply_rope(x, layout=layout, rotary_dim=16, out=out_partial)
    np.testing.assert_array_equal(out_partial, apply_rope(x, layout=layout, rotary_dim=16))


@pytest.mark.parametrize("out, error", [
    (np.empty((3, 8)), ValueError),                   # wrong shape
    (np.empty((2, 8), dtype=np.float32), ValueError), # wrong dtype
    ([[0.0] * 8] * 2, TypeError),                     # not an array
])
def test_bad_out(rng, out, error):
    with pytest.raises(error, match="out"):
        apply_rope(rng.standard_normal((2, 8)), out=out)


def test_out_may_not_overlap_x(rng):
    x = rng.standard_normal((2, 8))
    with pytest.raises(ValueError, match="out"):
        apply_rope(x, out=x)
    read_only = np.empty_like(x)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="out"):
        apply_rope(x, out=read_only)


def test_cache_is_bounded_in_bytes(monkeypatch):
    from rope_core import _fast as apply_module
    monkeypatch.setattr(apply_module, "_TABLE_CACHE_BYTES", 3 * 2 * 1000 * 8 * 8)   # three (1000, 8) pairs
    for start in range(10):
        cos, _ = cos_sin_tables(start + np.arange(1000), 16)
        np.testing.assert_allclose(cos, np.cos(rope_angles(start + np.arange(1000), 16)))
    total = sum(t.nbytes for entry in apply_module._TABLE_CACHE.values() for t in entry)
    assert total <= 3 * 2 * 1000 * 8 * 8
    assert cos_sin_tables(9 + np.arange(1000), 16)[0] is cos      # the newest is kept


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_cold_and_warm_cache_give_the_reference_answer(rng, layout, dtype):
    """The first call builds the tables, the second reads them: both must be right."""
    x = rng.standard_normal((3, 11, 16)).astype(dtype)
    positions = 123 + np.arange(11)
    rope_core.clear_table_cache()
    cold = apply_rope(x, positions, layout=layout)
    warm = apply_rope(x, positions, layout=layout)
    reference = (meta_llama_rope if layout == "interleaved" else neox_rope)(
        x.astype(np.float64), positions, 16)
    np.testing.assert_array_equal(warm, cold)
    assert warm.dtype == dtype and warm.shape == x.shape
    tolerance = {np.float16: 4e-3, np.float32: 1e-6, np.float64: 1e-13}[dtype]
    np.testing.assert_allclose(warm.astype(np.float64), reference, atol=tolerance * 4)


def test_clear_table_cache_forgets_the_tables():
    first, _ = cos_sin_tables(np.arange(7), 8)
    assert cos_sin_tables(np.arange(7), 8)[0] is first          # served from the cache
    rope_core.clear_table_cache()
    rebuilt, _ = cos_sin_tables(np.arange(7), 8)
    assert rebuilt is not first
    np.testing.assert_array_equal(rebuilt, first)


def test_partly_overlapping_out_is_refused_and_x_kept(rng):
    """out sharing memory with x (shifted by one row) would overwrite x while it is read."""
    buffer = rng.standard_normal((3, 8))
    x, out = buffer[:2], buffer[1:]
    before = x.copy()
    with pytest.raises(ValueError, match="overlap"):
        apply_rope(x, out=out, rotary_dim=4)
    with pytest.raises(ValueError, match="overlap"):
        apply_rope(x, out=out, layout="half")
    np.testing.assert_array_equal(x, before)


def test_cache_drops_the_least_recently_used_table_not_the_oldest():
    """A model reuses one table on every layer: using it must keep it cached (LRU, not FIFO)."""
    from rope_core import _fast
    rope_core.clear_table_cache()
    first, _ = cos_sin_tables(np.arange(5), 8)
    filled = [cos_sin_tables(start + np.arange(5), 8)[0]          # fill the cache
              for start in range(1, _fast._TABLE_CACHE_SIZE)]
    assert cos_sin_tables(np.arange(5), 8)[0] is first            # used again: now the newest
    cos_sin_tables(100 + np.arange(5), 8)                         # one more: evicts one entry
    assert cos_sin_tables(np.arange(5), 8)[0] is first            # not the one just used ...
    assert cos_sin_tables(1 + np.arange(5), 8)[0] is not filled[0]  # ... the least recent


# --- layout names and the default ---------------------------------------------------------------

def test_neox_is_half_and_gptj_is_interleaved():
    from rope_core.apply import LAYOUT_ALIASES, layout_name
    x = np.random.default_rng(3).standard_normal((2, 5, 16))
    positions = np.arange(5) * 7
    assert LAYOUT_ALIASES == {"neox": "half", "gptj": "interleaved"}
    assert layout_name("neox") == "half" and layout_name("gptj") == "interleaved"
    np.testing.assert_array_equal(apply_rope(x, positions, layout="neox"), apply_rope(x, positions, layout="half"))
    np.testing.assert_array_equal(apply_rope(x, positions, layout="gptj"), apply_rope(x, positions))
    np.testing.assert_array_equal(apply_rope_elementwise(x, positions, layout="neox"),
                                  apply_rope_elementwise(x, positions, layout="half"))


def test_the_interleaved_default_warns_only_for_a_transformers_style_call():
    import warnings

    from rope_core.apply import RopeLayoutWarning
    x = np.random.default_rng(4).standard_normal((2, 3, 5, 8))       # (batch, heads, seq, d)
    position_ids = np.tile(np.arange(5), (2, 1))                     # (batch, seq)
    with pytest.warns(RopeLayoutWarning, match="layout='half'"):
        default = apply_rope(x, position_ids)
    np.testing.assert_array_equal(default, apply_rope(x, position_ids, layout="interleaved"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RopeLayoutWarning)
        apply_rope(x, position_ids, layout="half")                   # said which: no warning
        apply_rope(x, np.arange(5))                                  # the teaching call: none
        apply_rope(x[0, 0], np.arange(5))


def test_the_blocked_interleaved_kernel_equals_one_multiply(monkeypatch):
    """Large inputs are multiplied by the complex table in blocks of positions (the table block
    stays in cache across heads); the result is bit for bit that of one broadcast multiply."""
    import rope_core._fast as fast
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 3, 300, 16)).astype(np.float32)
    positions = 7 + np.arange(300)
    whole = apply_rope(x, positions)
    monkeypatch.setattr(fast, "_TABLE_BLOCK_BYTES", 8 * 8 * 3)          # 3 positions per block
    calls = []

    class CountingNumpy:                    # fast.np, with its multiplies counted
        def __getattr__(self, name):
            return getattr(np, name)

        def multiply(self, *args, **kwargs):
            calls.append(args[0].shape)
            return np.multiply(*args, **kwargs)

    monkeypatch.setattr(fast, "np", CountingNumpy())
    blocked = apply_rope(x, positions)
    monkeypatch.undo()
    assert calls == [(6, 3, 8)] * 100                                    # 300 rows, 3 per block
    np.testing.assert_array_equal(blocked, whole)
    out = np.empty_like(x)
    np.testing.assert_array_equal(apply_rope(x, positions, out=out), whole)
    # positions per batch entry: one table per entry, the plain multiply
    per_batch = np.stack([positions, positions + 50])[:, None, :]
    np.testing.assert_allclose(apply_rope(x, per_batch)[1], apply_rope(x[1], positions + 50), rtol=0, atol=0)
