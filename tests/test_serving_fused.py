"""Fused RoPE kernels' contracts (rope_core.serving.FUSED_KERNELS, apply_with_cos_sin_cache)."""

from __future__ import annotations

import numpy as np
import pytest

import rope_core
from rope_core import serving


def cos_sin_cache(rotary_dim, n_positions, base=10000.0):
    """vLLM's table: a row per position, cosines of the rotary_dim / 2 pairs, then sines."""
    angles = np.outer(np.arange(n_positions), rope_core.inverse_frequencies(rotary_dim, base))
    return np.concatenate([np.cos(angles), np.sin(angles)], axis=1)


@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize("rotary_dim", [64, 32])
def test_the_cache_kernel_contract_is_rope_in_the_flagged_layout(layout, rotary_dim):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(5, 4, 64))                        # tokens, heads, head_dim
    positions = np.array([0, 7, 300, 4095, 12])
    got = serving.apply_with_cos_sin_cache(x, positions, cos_sin_cache(rotary_dim, 4096),
                                           is_neox=layout == "half")
    want = rope_core.apply_rope(x.transpose(1, 0, 2), positions, layout=layout,
                                rotary_dim=rotary_dim).transpose(1, 0, 2)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_one_table_serves_both_pairings_and_the_wrong_flag_is_wrong():
    x = np.random.default_rng(4).normal(size=(3, 64))
    table, positions = cos_sin_cache(64, 512), np.array([1, 100, 500])
    half = serving.apply_with_cos_sin_cache(x, positions, table, is_neox=True)
    interleaved = serving.apply_with_cos_sin_cache(x, positions, table, is_neox=False)
    np.testing.assert_allclose(interleaved, rope_core.apply_rope(x, positions, layout="interleaved"),
                               atol=1e-12)
    assert np.abs(half - interleaved).max() > 0.5


def test_a_true_flag_means_opposite_layouts_in_flashinfers_two_rope_functions():
    assert serving.kernel_layout("FlashInfer apply_rope_with_cos_sin_cache(_inplace)", True) == "half"
    assert serving.kernel_layout("FlashInfer apply_rope / apply_rope_pos_ids", True) == "interleaved"
    # Both default to the half layout, spelled False in one and True in the other.
    assert serving.kernel_layout("FlashInfer apply_rope / apply_rope_pos_ids") == "half"
    assert serving.kernel_layout("FlashInfer apply_rope_with_cos_sin_cache(_inplace)") == "half"


def test_flash_attentions_two_rotary_entry_points_default_to_different_layouts():
    assert serving.kernel_layout("flash-attn apply_rotary_emb") == "half"
    assert serving.kernel_layout("flash-attn flash_attn_with_kvcache") == "interleaved"


def test_every_kernel_record_is_sourced_and_readable():
    for record in serving.FUSED_KERNELS:
        assert record["source"] and record["fuses"] and record["positions"]
        assert record["true_means"] in ("half", "interleaved")
        for value in (True, False):
            assert serving.kernel_layout(record["kernel"], value) in ("half", "interleaved")


@pytest.mark.parametrize("call, match", [
    (lambda: serving.kernel_layout("cuDNN rope"), "kernel: 'cuDNN rope'"),
    (lambda: serving.kernel_layout("vLLM fused_qk_norm_rope"), "flag_value"),
    (lambda: serving.kernel_layout("flash-attn apply_rotary_emb", 1), "flag_value"),
    (lambda: serving.apply_with_cos_sin_cache(np.ones((2, 8)), [0, 9], cos_sin_cache(8, 4),
                                              is_neox=True), "positions"),
    (lambda: serving.apply_with_cos_sin_cache(np.ones((2, 8)), [0], cos_sin_cache(8, 4),
                                              is_neox=True), "positions"),
    (lambda: serving.apply_with_cos_sin_cache(np.ones((2, 8)), [0, 1], cos_sin_cache(16, 4),
                                              is_neox=True), "cos_sin_cache"),
    (lambda: serving.apply_with_cos_sin_cache(np.ones((2, 8)), [0, 1], cos_sin_cache(8, 4),
                                              is_neox=1), "is_neox"),
])
def test_bad_input_is_refused_by_name(call, match):
    with pytest.raises(ValueError, match=match):
        call()
