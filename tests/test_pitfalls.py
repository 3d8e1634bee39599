"""Tests that catch the implementation bugs of chapter 13 (each would fail on the buggy code)."""

from __future__ import annotations

import numpy as np

import rope_core


def buggy_half_layout_with_repeated_tables(x, positions, base=10000.0):
    """rotate_half paired with cos/sin repeated element-wise (the table of the other layout)."""
    angles = rope_core.rope_angles(positions, x.shape[-1], base)
    cos, sin = np.repeat(np.cos(angles), 2, -1), np.repeat(np.sin(angles), 2, -1)
    return x * cos + rope_core.rotate_half(x) * sin


def test_half_layout_tables_must_be_tiled_not_repeated(rng):
    x = rng.normal(size=(8, 16))
    positions = np.arange(100, 108)
    right = rope_core.apply_rope(x, positions, layout="half")
    wrong = buggy_half_layout_with_repeated_tables(x, positions)
    assert np.abs(right - wrong).max() > 0.1
    # The bug is invisible at position 0, which is why tests must use large positions.
    np.testing.assert_allclose(buggy_half_layout_with_repeated_tables(x[:1], [0]), x[:1])


def test_positions_beyond_any_cache_length_are_exact(rng):
    # A cache that clamps positions to its length makes far tokens share one rotation.
    x = rng.normal(size=(3, 64))
    far = np.array([10_000, 250_000, 3_000_000])
    dense = np.stack([rope_core.rope_matrix(m, 64) @ v for m, v in zip(far, x)])
    np.testing.assert_allclose(rope_core.apply_rope(x, far), dense, atol=1e-9)
    clamped = rope_core.apply_rope(x, np.minimum(far, 8191))
    assert np.abs(clamped - dense).max() > 0.1


def test_rotation_direction_is_counter_clockwise():
    # Flipping the sign of sin is still a valid RoPE but not the one trained weights expect.
    x = np.zeros((1, 4))
    x[0, 0] = 1.0
    rotated = rope_core.apply_rope(x, [np.pi / 2], base=100.0)   # pair 0 turns by pi/2
    np.testing.assert_allclose(rotated[0, :2], [0.0, 1.0], atol=1e-12)


def test_rope_theta_changes_every_slow_pair():
    # Forgetting rope_theta (500000 for Llama 3) leaves pair 0 right and every other pair wrong.
    default, llama3 = rope_core.inverse_frequencies(128, 10000.0), rope_core.inverse_frequencies(128, 500000.0)
    assert default[0] == llama3[0] and np.all(default[1:] > llama3[1:])


def test_per_layer_type_rope_lost_in_a_migration_is_named_layer_by_layer():
    # Gemma 3: sliding layers at base 1e4 unscaled, global layers at 1e6 with linear x8. One
    # table for every layer (the global one) breaks the sliding layers, and dropping the
    # scaling breaks the global ones; check_rope names each against the layer's own spec.
    from rope_core import atlas
    from rope_core.testing import check_rope

    specs = atlas.specs("gemma-3-4b")
    sliding, full = specs["sliding_attention"], specs["full_attention"]
    assert sliding.rope_type == "default" and sliding.base == 10000.0
    assert full.rope_type == "linear" and full.base == 1e6
    ratio = sliding.inverse_frequencies / full.inverse_frequencies
    assert ratio[0] == 8.0 and np.all(np.diff(ratio) > 0)
    assert check_rope(sliding.apply, spec=sliding).codes == []
    assert check_rope(full.apply, spec=full).codes == []
    assert check_rope(full.apply, spec=sliding).codes == ["frequencies"]
    assert check_rope(sliding.apply, spec=full).codes == ["scaling"]
