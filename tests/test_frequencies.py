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
    # An explicit factor wins over the ratio of the lengths, as in transformers 5
    # (_compute_yarn_parameters; 4.52.3 let the ratio win, transformers#38224): 0.1 ln 2 + 1.
    ratio = {**yarn, "factor": 2.0, "max_position_embeddings": 4 * 4096}
    assert attention_factor(128, rope_scaling=ratio) == pytest.approx(1.0693147181, rel=1e-10)
    np.testing.assert_array_equal(inverse_frequencies(128, rope_scaling=ratio),
                                  inverse_frequencies(128, rope_scaling={**yarn, "factor": 2.0}))


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
    # No factor and no length to take a ratio from: transformers reads max_position_embeddings
    # from the model config; a block alone cannot, so rope_core says so.
    with pytest.raises(ValueError, match="factor"):
        attention_factor(16, rope_scaling=_longrope())
    assert attention_factor(16, rope_scaling=_longrope(factor=32.0, attention_factor=1.5)) == 1.5
    # factor <= 1: no correction.
    assert attention_factor(16, rope_scaling=_longrope(factor=1.0)) == 1.0


def test_longrope_accepts_numpy_factor_arrays_in_apply(rng):
    scaling = _longrope(factor=32.0)
    as_arrays = {**scaling, "short_factor": np.array(scaling["short_factor"]),
                 "long_factor": np.array(scaling["long_factor"])}
    x = rng.standard_normal((5, 16))
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
def test_applied_half_layout_matches_transformers(rope_type, start, rng):
    scaling, reference = CASES[rope_type]
    dim, seq_len = 32, 64
    positions = start + np.arange(seq_len)
    x = rng.standard_normal((3, seq_len, dim))
    inv_freq, scale = reference(dim, positions.max() + 1)
    expected = ref_apply_half(x, positions, inv_freq, scale)
    got = rope_core.apply_rope(x, positions, layout="half", rope_scaling=scaling)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    # The interleaved layout gives the same numbers after the permutation.
    interleaved = rope_core.apply_rope(rope_core.half_to_interleaved(x), positions, rope_scaling=scaling)
    np.testing.assert_allclose(rope_core.interleaved_to_half(interleaved), expected, rtol=0, atol=1e-12)


def test_partial_rotary_uses_rotary_dim_for_frequencies(rng):
    # GPT-NeoX style: 25 % of a 64-wide head rotates, with theta over 16 features.
    x = rng.standard_normal((10, 64))
    positions = np.arange(500, 510)
    got = rope_core.apply_rope(x, positions, layout="half", rotary_dim=16)
    expected_rotated = ref_apply_half(x[:, :16], positions, ref_default(16, 10000.0), 1.0)
    np.testing.assert_allclose(got[:, :16], expected_rotated, atol=1e-12)
    np.testing.assert_array_equal(got[:, 16:], x[:, 16:])


def test_wavelengths_follow_scaling():
    np.testing.assert_allclose(wavelengths(64, rope_scaling={"rope_type": "linear", "factor": 2.0}),
                               2 * wavelengths(64), rtol=1e-14)
    assert wavelengths(64).dtype == np.float64 and wavelengths(64).shape == (32,)


# --- what a rope_scaling block may hold --------------------------------------------------

LLAMA31_CONFIG_JSON = {  # the rope-relevant part of Llama 3.1 8B's config.json
    "model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 500000.0,
    "max_position_embeddings": 131072, "rope_scaling": LLAMA31}


@pytest.mark.parametrize("call", [
    lambda s: inverse_frequencies(128, 500000.0, rope_scaling=s),
    lambda s: attention_factor(128, 500000.0, rope_scaling=s),
    lambda s: rope_core.apply_rope(np.ones((2, 128)), [0, 1], base=500000.0, rope_scaling=s),
])
def test_a_whole_config_is_refused_with_a_pointer_to_from_config(call):
    with pytest.raises(ValueError, match="from_config"):
        call(LLAMA31_CONFIG_JSON)
    with pytest.raises(ValueError, match="from_config"):  # per-layer-type blocks (v5, Gemma 3)
        call({"full_attention": {"rope_type": "linear", "factor": 8.0}, "sliding_attention": {"rope_type": "default"}})


@pytest.mark.parametrize("block", [{"factor": 8.0}, {"factor": 8.0, "original_max_position_embeddings": 8192},
                                   {"low_freq_factor": 1.0}, {}])
def test_a_block_without_rope_type_is_an_error_not_default(block):
    with pytest.raises(ValueError, match="rope_type"):
        inverse_frequencies(64, rope_scaling=block)
    with pytest.raises(ValueError, match="rope_type"):
        attention_factor(64, rope_scaling=block)


@pytest.mark.parametrize("block, key", [
    ({"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096, "beta_fst": 16}, "beta_fst"),
    ({"rope_type": "linear", "factor": 2.0, "attention_factor": 3.0}, "attention_factor"),  # yarn/longrope only
    ({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
      "original_max_position_embeddings": 8192, "truncate": False}, "truncate"),
    ({"rope_type": "default", "factor": 2.0}, "factor"),
    ({"rope_type": "linear", "factor": 2.0, "partial_rotary_factor": 0.5}, "partial_rotary_factor"),
])
def test_a_key_the_type_does_not_read_is_named(block, key):
    with pytest.raises(ValueError, match=key):
        inverse_frequencies(64, rope_scaling=block)


def test_keys_transformers_models_carry_are_accepted():
    # Qwen2.5-VL-style M-RoPE sections and a v5 block that repeats the base.
    block = {"rope_type": "default", "mrope_section": [16, 24, 24], "rope_theta": 1e6}
    np.testing.assert_array_equal(inverse_frequencies(128, 1e6, rope_scaling=block), inverse_frequencies(128, 1e6))
    with pytest.raises(ValueError, match="rope_theta"):  # but a base that disagrees is refused
        inverse_frequencies(128, 1e4, rope_scaling=block)
    with pytest.raises(TypeError, match="truncate"):
        inverse_frequencies(64, rope_scaling={"rope_type": "yarn", "factor": 4.0,
                                              "original_max_position_embeddings": 64, "truncate": "no"})


# --- Llama 3 with high_freq_factor == low_freq_factor (Llama 4 Scout) ------------------------

def test_llama3_with_equal_band_edges_divides_exactly_the_long_waves():
    scout = {"rope_type": "llama3", "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 1.0,
             "original_max_position_embeddings": 8192}
    theta = inverse_frequencies(128, 500000.0)
    scaled = inverse_frequencies(128, 500000.0, rope_scaling=scout)
    assert np.all(np.isfinite(scaled))
    long_wave = 2 * np.pi / theta > 8192
    # lambda_i = 2 pi 500000^(i/64) > 8192 iff i > 64 ln(8192/2pi)/ln(500000) = 34.98: pairs 35..63.
    assert long_wave.sum() == 29 and not long_wave[34] and long_wave[35]
    np.testing.assert_array_equal(scaled[~long_wave], theta[~long_wave])
    np.testing.assert_allclose(scaled[long_wave], theta[long_wave] / 16, rtol=1e-15)
    # Meta's apply_scaling with low == high: same numbers (its medium branch is never taken).
    np.testing.assert_allclose(scaled, ref_llama3(128, 500000.0, 16.0, 1.0, 1.0 + 1e-12, 8192), rtol=1e-12)


# --- proportional (p-RoPE, Gemma 4's global layers) ---------------------------------------

def ref_proportional(head_dim, base, proportion, factor=1.0):
    """transformers' _compute_proportional_rope_parameters, one pair at a time."""
    rope_angles = int(proportion * head_dim // 2)
    rotated = [1.0 / base ** (i / head_dim) for i in range(0, 2 * rope_angles, 2)]
    return [f / factor for f in rotated + [0.0] * (head_dim // 2 - rope_angles)]


@pytest.mark.parametrize("head_dim, proportion, factor", [(512, 0.25, 1.0), (256, 0.5, 1.0), (64, 1.0, 1.0),
                                                          (128, 0.3, 2.0), (96, 0.75, 1.0)])
def test_proportional_matches_reference(head_dim, proportion, factor):
    block = {"rope_type": "proportional", "partial_rotary_factor": proportion, "factor": factor}
    got = inverse_frequencies(head_dim, 1e6, rope_scaling=block)
    assert got.shape == (head_dim // 2,)
    np.testing.assert_allclose(got, ref_proportional(head_dim, 1e6, proportion, factor), rtol=1e-14, atol=0)


def test_proportional_keeps_the_highest_frequencies_of_the_whole_head(rng):
    # Gemma 4 global layers: 64 of 256 pairs turn, with theta_i = 1e6^(-2i/512); the slowest
    # rotated pair has lambda = 2 pi 1e6^(126/512) = 188.25 tokens.
    block = {"rope_type": "proportional", "partial_rotary_factor": 0.25}
    theta = inverse_frequencies(512, 1e6, rope_scaling=block)
    assert np.count_nonzero(theta) == 64 and np.all(theta[64:] == 0)
    assert 2 * np.pi / theta[63] == pytest.approx(188.253, abs=1e-3)
    np.testing.assert_array_equal(theta[:64], inverse_frequencies(512, 1e6)[:64])
    # The other convention (frequencies over the rotated 128 features) is not this one.
    assert not np.allclose(theta[:64], inverse_frequencies(128, 1e6))
    # Applied over the whole head: unrotated pairs come out unchanged.
    x = rng.standard_normal((3, 512))
    out = rope_core.apply_rope(x, [0, 7, 5000], base=1e6, layout="half", rope_scaling=block)
    np.testing.assert_array_equal(out[:, 64:256], x[:, 64:256])
    np.testing.assert_array_equal(out[:, 320:], x[:, 320:])


# --- YaRN edges the mutation run found untested (code review 2.2, 2.5) --------------------

def test_yarn_correction_range_is_clipped_at_dim_minus_one():
    # dim 64, base 1e4, L = 131072: high = ceil(64 ln(131072 / 2 pi) / (2 ln 1e4)) = ceil(34.6) = 35,
    # beyond the last pair (31) but below dim - 1 = 63, so it stays 35 (transformers clips at dim - 1).
    low, high = yarn_correction_range(64, 10000.0, 131072)
    assert high == 35 and low == math.floor(64 * math.log(131072 / (2 * math.pi * 32)) / (2 * math.log(1e4)))
    # Far beyond: clipped at dim - 1 = 63, not at dim // 2 - 1.
    # (transformers clips only high from above; low = floor(64 ln(1e40 / 64 pi) / (2 ln 1e4)) = 301.)
    assert yarn_correction_range(64, 10000.0, 10.0 ** 40) == (301, 63)
    scaling = {"rope_type": "yarn", "factor": 32.0, "original_max_position_embeddings": 131072}
    np.testing.assert_allclose(inverse_frequencies(64, rope_scaling=scaling),
                               ref_yarn(64, 10000.0, 32.0, 131072), rtol=1e-13)


def test_yarn_ramp_with_equal_edges_is_a_step():
    # high == low: transformers adds 0.001 to high, so the ramp jumps from 0 to 1 at that pair.
    np.testing.assert_array_equal(rope_core.yarn_ramp(12, 3, 3), [0, 0, 0, 0, 1, 1])
    # Kimi-K2-like beta_fast == beta_slow gives equal edges once truncated on a whole pair.
    low, high = yarn_correction_range(64, 10000.0, 4096, beta_fast=1.0, beta_slow=1.0, truncate=False)
    assert low == high


def test_longrope_switches_strictly_above_the_training_length():
    # seq_len == L uses the short factors, L + 1 the long ones (transformers: seq_len > original).
    scaling = _longrope(factor=32.0)
    short = inverse_frequencies(16, rope_scaling=scaling, seq_len=4096)
    long = inverse_frequencies(16, rope_scaling=scaling, seq_len=4097)
    np.testing.assert_allclose(short, np.array(ref_default(16, 1e4)) / scaling["short_factor"], rtol=1e-14)
    np.testing.assert_allclose(long, np.array(ref_default(16, 1e4)) / scaling["long_factor"], rtol=1e-14)
    # apply_rope with positions 0..4095 (seq_len 4096) stays short; one more position switches.
    x = np.ones((1, 16))
    at_edge = rope_core.apply_rope(np.ones((4096, 16)), rope_scaling=scaling, layout="half")[-1:]
    expected = ref_apply_half(x, [4095], short, attention_factor(16, rope_scaling=scaling))
    np.testing.assert_allclose(at_edge, expected, atol=1e-12)
