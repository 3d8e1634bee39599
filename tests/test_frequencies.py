"""Frequencies and context-extension schemes against transformers' formulas.

The reference functions below restate ``transformers.modeling_rope_utils`` (and Meta's Llama 3
``apply_scaling``) in plain Python, pair by pair with ``math``, deliberately unlike the
vectorised code in ``rope_core.frequencies``. Where a literal number is checked it was worked
out by hand from the formula (the working is in the comment next to it).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import rope_core
from rope_core import attention_factor, inverse_frequencies, wavelengths, yarn_correction_range

RNG = np.random.default_rng(0)


# --- reference formulas, one pair at a time ---------------------------------------------

def ref_default(dim, base):
    return [1.0 / base ** (i / dim) for i in range(0, dim, 2)]


def ref_dynamic(dim, base, factor, max_len, seq_len):
    seq_len = seq_len if seq_len is not None and seq_len > max_len else max_len
    base = base * ((factor * seq_len / max_len) - (factor - 1)) ** (dim / (dim - 2))
    return ref_default(dim, base)


def ref_yarn(dim, base, factor, original_len, beta_fast=32, beta_slow=1):
    def correction_dim(rotations):
        return (dim * math.log(original_len / (rotations * 2 * math.pi))) / (2 * math.log(base))

    low = max(math.floor(correction_dim(beta_fast)), 0)
    high = min(math.ceil(correction_dim(beta_slow)), dim - 1)
    if low == high:
        high += 0.001
    out = []
    for j, i in enumerate(range(0, dim, 2)):
        pos_freq = base ** (i / dim)
        extrapolation = 1.0 / pos_freq
        interpolation = 1.0 / (factor * pos_freq)
        ramp = min(max((j - low) / (high - low), 0.0), 1.0)
        extrapolation_factor = 1 - ramp
        out.append(interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor)
    return out


def ref_llama3(dim, base, factor, low_freq_factor, high_freq_factor, old_context_len):
    """Meta's ``apply_scaling`` (llama-models), a loop over frequencies."""
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    new_freqs = []
    for freq in ref_default(dim, base):
        wavelen = 2 * math.pi / freq
        if wavelen < high_freq_wavelen:
            new_freqs.append(freq)
        elif wavelen > low_freq_wavelen:
            new_freqs.append(freq / factor)
        else:
            smooth = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
            new_freqs.append((1 - smooth) * freq / factor + smooth * freq)
    return new_freqs


def ref_longrope(dim, base, short_factor, long_factor, original_len, seq_len):
    factors = long_factor if seq_len and seq_len > original_len else short_factor
    return [1.0 / (f * base ** (i / dim)) for f, i in zip(factors, range(0, dim, 2))]


LLAMA31 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
           "original_max_position_embeddings": 8192}


# --- default ------------------------------------------------------------------------------

@pytest.mark.parametrize("dim", [2, 4, 64, 128, 80])
@pytest.mark.parametrize("base", [10000.0, 500000.0, 1e6, 2.5])
def test_default_matches_reference(dim, base):
    theta = inverse_frequencies(dim, base)
    assert theta.dtype == np.float64 and theta.shape == (dim // 2,)
    np.testing.assert_allclose(theta, ref_default(dim, base), rtol=1e-14)
    np.testing.assert_allclose(inverse_frequencies(dim, base, rope_scaling={"rope_type": "default"}), theta)


def test_default_literal_values():
    # 10000^(-2i/8) for i = 0..3 is 1, 0.1, 0.01, 0.001.
    np.testing.assert_allclose(inverse_frequencies(8), [1.0, 0.1, 0.01, 0.001], rtol=1e-15)
    # The last frequency for d = 128 is 10000^(-126/128).
    assert inverse_frequencies(128)[-1] == pytest.approx(10000.0 ** (-126 / 128), rel=1e-15)
    np.testing.assert_allclose(wavelengths(8), 2 * np.pi * np.array([1.0, 10.0, 100.0, 1000.0]))


def test_default_inverse_frequencies_is_the_unscaled_table():
    np.testing.assert_array_equal(rope_core.default_inverse_frequencies(64, 500000.0),
                                  inverse_frequencies(64, 500000.0))


# --- linear -------------------------------------------------------------------------------

@pytest.mark.parametrize("factor", [1.0, 2.0, 8.0])
def test_linear_divides_by_factor(factor):
    scaling = {"rope_type": "linear", "factor": factor}
    np.testing.assert_allclose(inverse_frequencies(64, rope_scaling=scaling),
                               np.array(ref_default(64, 10000.0)) / factor, rtol=1e-14)
    assert attention_factor(64, rope_scaling=scaling) == 1.0


def test_legacy_type_key_is_accepted():
    new = inverse_frequencies(32, rope_scaling={"rope_type": "linear", "factor": 4.0})
    legacy = inverse_frequencies(32, rope_scaling={"type": "linear", "factor": 4.0})
    np.testing.assert_array_equal(new, legacy)
    assert not np.allclose(new, inverse_frequencies(32))


# --- NTK-aware (static, not a transformers type) ------------------------------------------

def test_ntk_changes_the_base():
    dim, factor = 64, 4.0
    expected = ref_default(dim, 10000.0 * factor ** (dim / (dim - 2)))
    np.testing.assert_allclose(inverse_frequencies(dim, rope_scaling={"rope_type": "ntk", "factor": factor}),
                               expected, rtol=1e-14)


# --- dynamic NTK --------------------------------------------------------------------------

@pytest.mark.parametrize("seq_len", [None, 100, 2048, 2049, 4096, 10000])
def test_dynamic_matches_reference(seq_len):
    scaling = {"rope_type": "dynamic", "factor": 2.0, "max_position_embeddings": 2048}
    np.testing.assert_allclose(inverse_frequencies(128, rope_scaling=scaling, seq_len=seq_len),
                               ref_dynamic(128, 10000.0, 2.0, 2048, seq_len), rtol=1e-13)
    assert attention_factor(128, rope_scaling=scaling, seq_len=seq_len) == 1.0


def test_dynamic_literal_values():
    scaling = {"type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 2048}
    # Within the training length nothing changes.
    np.testing.assert_allclose(inverse_frequencies(128, rope_scaling=scaling, seq_len=2048), inverse_frequencies(128))
    # At 4096 tokens: 2 * 4096 / 2048 - 1 = 3, so base' = 10000 * 3^(128/126).
    np.testing.assert_allclose(inverse_frequencies(128, rope_scaling=scaling, seq_len=4096),
                               inverse_frequencies(128, 10000.0 * 3.0 ** (128 / 126)), rtol=1e-14)


def test_dynamic_angles_use_the_largest_position():
    scaling = {"rope_type": "dynamic", "factor": 2.0, "max_position_embeddings": 16}
    positions = np.arange(40)
    angles = rope_core.rope_angles(positions, 8, rope_scaling=scaling)
    expected = np.outer(positions, ref_dynamic(8, 10000.0, 2.0, 16, 40))
    np.testing.assert_allclose(angles, expected, rtol=1e-13)


# --- YaRN ---------------------------------------------------------------------------------

def test_yarn_correction_range_by_hand():
    # low  = floor(128 ln(4096 / (2 pi 32)) / (2 ln 10000)) = floor(20.94) = 20
    # high = ceil(128 ln(4096 / (2 pi)) / (2 ln 10000))     = ceil(45.03)  = 46
    assert yarn_correction_range(128, 10000.0, 4096) == (20, 46)
    low, high = yarn_correction_range(128, 10000.0, 4096, truncate=False)
    assert low == pytest.approx(20.944, abs=1e-3) and high == pytest.approx(45.027, abs=1e-3)


@pytest.mark.parametrize(
    "dim, base, factor, original_len, betas",
    [(128, 10000.0, 4.0, 4096, {}), (64, 1e6, 16.0, 32768, {}), (128, 10000.0, 2.0, 2048,
     {"beta_fast": 16.0, "beta_slow": 2.0}), (16, 10000.0, 8.0, 64, {})],
)
def test_yarn_matches_reference(dim, base, factor, original_len, betas):
    scaling = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": original_len, **betas}
    expected = ref_yarn(dim, base, factor, original_len, **betas)
    np.testing.assert_allclose(inverse_frequencies(dim, base, rope_scaling=scaling), expected, rtol=1e-13)


def test_yarn_keeps_fast_pairs_and_interpolates_slow_pairs():
    scaling = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}
    theta, scaled = inverse_frequencies(128), inverse_frequencies(128, rope_scaling=scaling)
    np.testing.assert_allclose(scaled[:21], theta[:21], rtol=1e-15)      # pairs 0..low
    np.testing.assert_allclose(scaled[46:], theta[46:] / 4.0, rtol=1e-15)  # pairs high..63
    assert np.all(scaled[21:46] < theta[21:46]) and np.all(scaled[21:46] > theta[21:46] / 4.0)


@pytest.mark.parametrize("factor", [1.0, 2.0, 4.0, 32.0])
def test_yarn_attention_factor(factor):
    scaling = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": 4096}
    assert attention_factor(128, rope_scaling=scaling) == pytest.approx(0.1 * math.log(factor) + 1, rel=1e-15)


def test_yarn_attention_factor_literals_and_overrides():
    yarn = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}
    assert attention_factor(128, rope_scaling=yarn) == pytest.approx(1.1386294361, rel=1e-10)  # 0.1 ln 4 + 1
    assert attention_factor(128, rope_scaling={**yarn, "attention_factor": 0.5}) == 0.5
    # DeepSeek-style mscale terms: (0.1*0.707 ln 40 + 1) / (0.1*0.707 ln 40 + 1) = 1.
    deepseek = {**yarn, "factor": 40.0, "mscale": 0.707, "mscale_all_dim": 0.707}
    assert attention_factor(128, rope_scaling=deepseek) == pytest.approx(1.0)
    # The ratio of the lengths wins over "factor" when both lengths are given, as in transformers.
    ratio = {**yarn, "factor": 2.0, "max_position_embeddings": 4 * 4096}
    assert attention_factor(128, rope_scaling=ratio) == pytest.approx(0.1 * math.log(4.0) + 1)


# --- Llama 3.1 ----------------------------------------------------------------------------

def test_llama3_matches_meta_apply_scaling():
    np.testing.assert_allclose(inverse_frequencies(128, 500000.0, rope_scaling=LLAMA31),
                               ref_llama3(128, 500000.0, 8.0, 1.0, 4.0, 8192), rtol=1e-14)
    assert attention_factor(128, 500000.0, rope_scaling=LLAMA31) == 1.0


def test_llama3_literal_values():
    theta = inverse_frequencies(128, 500000.0)
    scaled = inverse_frequencies(128, 500000.0, rope_scaling=LLAMA31)
    # lambda_i = 2 pi 500000^(i/64) < 8192/4 = 2048 iff i < 64 ln(2048/2pi)/ln(500000) = 28.2:
    # pairs 0..28 are kept; lambda_i > 8192 iff i > 34.98: pairs 35..63 are divided by 8.
    np.testing.assert_array_equal(scaled[:29], theta[:29])
    np.testing.assert_allclose(scaled[35:], theta[35:] / 8.0, rtol=1e-15)
    medium = (scaled[29:35] != theta[29:35]) & ~np.isclose(scaled[29:35], theta[29:35] / 8.0)
    assert medium.all()
    # Pair 32: theta = 500000^(-1/2) = 1.41421356e-3, lambda = 4442.883, sigma = (8192/lambda - 1)/3
    # = 0.2812826; theta' = theta ((1 - sigma)/8 + sigma) = theta * 0.3711223 = 5.2484616e-4.
    assert scaled[32] == pytest.approx(5.2484616e-4, rel=1e-7)
    assert scaled[0] == 1.0
    assert scaled[63] == pytest.approx(500000.0 ** (-126 / 128) / 8, rel=1e-14)


# --- LongRoPE -----------------------------------------------------------------------------

def _longrope(dim=16, **extra):
    short = list(1.0 + 0.1 * np.arange(dim // 2))
    long = list(1.0 + 2.0 * np.arange(dim // 2))
    return {"rope_type": "longrope", "short_factor": short, "long_factor": long,
            "original_max_position_embeddings": 4096, **extra}


@pytest.mark.parametrize("seq_len", [None, 10, 4096, 4097, 131072])
def test_longrope_matches_reference(seq_len):
    scaling = _longrope(factor=32.0)
    expected = ref_longrope(16, 10000.0, scaling["short_factor"], scaling["long_factor"], 4096, seq_len)
    np.testing.assert_allclose(inverse_frequencies(16, rope_scaling=scaling, seq_len=seq_len), expected, rtol=1e-14)


def test_longrope_attention_factor():
    # sqrt(1 + ln 32 / ln 4096) = sqrt(1 + 5/12) = sqrt(17/12) = 1.1902380714...
    assert attention_factor(16, rope_scaling=_longrope(factor=32.0)) == pytest.approx(1.1902380714, rel=1e-10)
    # Phi-3 style: the ratio max/original gives the factor (131072 / 4096 = 32).
    phi3 = _longrope(max_position_embeddings=131072)
    assert attention_factor(16, rope_scaling=phi3) == pytest.approx(math.sqrt(17 / 12), rel=1e-14)
    assert attention_factor(16, rope_scaling=_longrope()) == 1.0  # no factor at all
    assert attention_factor(16, rope_scaling=_longrope(factor=32.0, attention_factor=1.5)) == 1.5
    # Other types ignore an "attention_factor" key, as transformers does.
    assert attention_factor(16, rope_scaling={"rope_type": "linear", "factor": 2.0, "attention_factor": 3.0}) == 1.0


def test_longrope_accepts_numpy_factor_arrays_in_apply():
    scaling = _longrope(factor=32.0)
    as_arrays = {**scaling, "short_factor": np.array(scaling["short_factor"]),
                 "long_factor": np.array(scaling["long_factor"])}
    x = RNG.standard_normal((5, 16))
    np.testing.assert_array_equal(rope_core.apply_rope(x, rope_scaling=as_arrays),
                                  rope_core.apply_rope(x, rope_scaling=scaling))


# --- applied queries in the half layout, every type (transformers' apply_rotary_pos_emb) --

def ref_rotate_half(x):
    d = x.shape[-1]
    return np.concatenate((-x[..., d // 2:], x[..., : d // 2]), axis=-1)


def ref_apply_half(x, positions, inv_freq, scale):
    """transformers: emb = cat(freqs, freqs); cos = emb.cos() * scale; q*cos + rotate_half(q)*sin."""
    freqs = np.outer(positions, inv_freq)
    emb = np.concatenate((freqs, freqs), axis=-1)
    cos, sin = np.cos(emb) * scale, np.sin(emb) * scale
    return x * cos + ref_rotate_half(x) * sin


CASES = {
    "default": (None, lambda d, n: (ref_default(d, 10000.0), 1.0)),
    "linear": ({"rope_type": "linear", "factor": 4.0}, lambda d, n: (np.array(ref_default(d, 1e4)) / 4, 1.0)),
    "dynamic": ({"rope_type": "dynamic", "factor": 4.0, "max_position_embeddings": 256},
                lambda d, n: (ref_dynamic(d, 1e4, 4.0, 256, n), 1.0)),
    "yarn": ({"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 256},
             lambda d, n: (ref_yarn(d, 1e4, 4.0, 256), 0.1 * math.log(4.0) + 1)),
    "llama3": ({**LLAMA31, "original_max_position_embeddings": 256},
               lambda d, n: (ref_llama3(d, 1e4, 8.0, 1.0, 4.0, 256), 1.0)),
    "longrope": (_longrope(dim=32, factor=8.0, original_max_position_embeddings=256),
                 lambda d, n: (ref_longrope(d, 1e4, _longrope(32)["short_factor"], _longrope(32)["long_factor"],
                                            256, n), math.sqrt(1 + math.log(8.0) / math.log(256)))),
}


@pytest.mark.parametrize("rope_type", list(CASES))
@pytest.mark.parametrize("start", [0, 1000])
def test_applied_half_layout_matches_transformers(rope_type, start):
    scaling, reference = CASES[rope_type]
    dim, seq_len = 32, 64
    positions = start + np.arange(seq_len)
    x = RNG.standard_normal((3, seq_len, dim))
    inv_freq, scale = reference(dim, positions.max() + 1)
    expected = ref_apply_half(x, positions, inv_freq, scale)
    got = rope_core.apply_rope(x, positions, layout="half", rope_scaling=scaling)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    # The interleaved layout gives the same numbers after the permutation.
    interleaved = rope_core.apply_rope(rope_core.half_to_interleaved(x), positions, rope_scaling=scaling)
    np.testing.assert_allclose(rope_core.interleaved_to_half(interleaved), expected, rtol=0, atol=1e-12)


def test_partial_rotary_uses_rotary_dim_for_frequencies():
    # GPT-NeoX style: 25 % of a 64-wide head rotates, with theta over 16 features.
    x = RNG.standard_normal((10, 64))
    positions = np.arange(500, 510)
    got = rope_core.apply_rope(x, positions, layout="half", rotary_dim=16)
    expected_rotated = ref_apply_half(x[:, :16], positions, ref_default(16, 10000.0), 1.0)
    np.testing.assert_allclose(got[:, :16], expected_rotated, atol=1e-12)
    np.testing.assert_array_equal(got[:, 16:], x[:, 16:])


def test_wavelengths_follow_scaling():
    np.testing.assert_allclose(wavelengths(64, rope_scaling={"rope_type": "linear", "factor": 2.0}),
                               2 * wavelengths(64), rtol=1e-14)
    assert wavelengths(64).dtype == np.float64 and wavelengths(64).shape == (32,)
