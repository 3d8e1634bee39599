"""Axial and mixed 2-D RoPE and M-RoPE: relative in every axis, 1-D RoPE on text."""

from __future__ import annotations

import numpy as np
import pytest

import rope_core
from rope_core import multimodal as mm


def score(rotate, q, k, p, r):
    """<rotate(q at p), rotate(k at r)> for a position tuple p and r."""
    return (rotate(q[None], *[[c] for c in p]) @ rotate(k[None], *[[c] for c in r]).T)[0, 0]


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_axial_score_depends_on_offsets_only(layout, rng):
    q, k = rng.normal(size=(2, 32))

    def rotate(x, rows, cols):
        return mm.axial_rope_2d(x, rows, cols, layout=layout)

    reference = score(rotate, q, k, (0, 0), (3, -5))
    for shift in [(1, 1), (7, 2), (-40, 13), (1000, 250000)]:
        moved = score(rotate, q, k, shift, (3 + shift[0], -5 + shift[1]))
        assert abs(moved - reference) < 1e-9 * max(1.0, abs(reference))


def test_axial_halves_are_two_1d_ropes(rng):
    # With interleaved pairs, the first half of the pairs is the first half of the features.
    x = rng.normal(size=(5, 16))
    rows, cols = np.arange(5), np.arange(5)[::-1]
    out = mm.axial_rope_2d(x, rows, cols, layout="interleaved")
    np.testing.assert_allclose(out[:, :8], rope_core.apply_rope(x[:, :8], rows), atol=1e-12)
    np.testing.assert_allclose(out[:, 8:], rope_core.apply_rope(x[:, 8:], cols), atol=1e-12)


def test_mixed_rope_is_relative_and_contains_axial(rng):
    q, k = rng.normal(size=(2, 16))
    theta_r, theta_c = rng.uniform(0, 1, size=(2, 8))

    def rotate(x, rows, cols):
        return mm.mixed_rope_2d(x, rows, cols, theta_r, theta_c)

    assert abs(score(rotate, q, k, (2, 3), (5, 1)) - score(rotate, q, k, (12, -7), (15, -9))) < 1e-9
    theta = rope_core.inverse_frequencies(8)
    axial_r, axial_c = np.concatenate([theta, 0 * theta]), np.concatenate([0 * theta, theta])
    x = rng.normal(size=(3, 16))
    np.testing.assert_allclose(mm.mixed_rope_2d(x, [1, 2, 3], [4, 5, 6], axial_r, axial_c),
                               mm.axial_rope_2d(x, [1, 2, 3], [4, 5, 6]), atol=1e-12)


def test_mrope_on_text_is_1d_rope_and_relative_in_3d(rng):
    x = rng.normal(size=(6, 128))
    m = np.array([0, 1, 2, 10, 500, 70000])
    np.testing.assert_allclose(mm.mrope(x, m, m, m), rope_core.apply_rope(x, m, layout="half"), atol=1e-9)
    q, k = rng.normal(size=(2, 128))
    a = score(mm.mrope, q, k, (4, 2, 3), (4, 6, 9))
    b = score(mm.mrope, q, k, (104, 52, 33), (104, 56, 39))
    assert abs(a - b) < 1e-9 * max(1.0, abs(a))


def test_mrope_sections_pick_the_right_axis():
    angles = mm.mrope_angles([1.0], [10.0], [100.0], 128)
    theta = rope_core.inverse_frequencies(128)
    np.testing.assert_allclose(angles[0, :16], theta[:16])
    np.testing.assert_allclose(angles[0, 16:40], 10 * theta[16:40])
    np.testing.assert_allclose(angles[0, 40:], 100 * theta[40:])


def test_qwen2_vl_positions_resume_after_the_image():
    t, h, w = mm.qwen2_vl_positions(3, 4, 6, 2)
    assert len(t) == 3 + 24 + 2
    assert set(t[3:27]) == {3} and h[3:27].max() == 6 and w[3:27].max() == 8
    assert t[27] == h[27] == w[27] == 3 + 6


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: mm.axial_rope_2d(np.ones((2, 6)), [0, 1], [0, 1]), "multiple of 4"),
        (lambda: mm.axial_rope_2d(np.ones((2, 8)), [0, 1, 2], [0, 1]), "rows"),
        (lambda: mm.axial_rope_2d(np.ones((2, 8)), [0, 1], [0, np.nan]), "cols"),
        (lambda: mm.axial_rope_2d(np.ones((2, 8)), [0, 1], [0, 1], base=-1.0), "base"),
        (lambda: mm.mixed_rope_2d(np.ones((2, 8)), [0, 1], [0, 1], np.ones(3), np.ones(4)), "theta_rows"),
        (lambda: mm.mrope(np.ones((2, 128)), [0, 1], [0, 1], [0, 1], sections=(16, 24, 20)), "sections"),
        (lambda: mm.mrope(np.ones((2, 128)), [0, 1], ["a", "b"], [0, 1]), "h"),
        (lambda: mm.rotate_pairs(np.ones((2, 8)), np.ones((2, 3))), "angles"),
        (lambda: mm.rotate_pairs(np.ones((2, 8)), np.ones((2, 4)), layout="diagonal"), "layout"),
        (lambda: mm.qwen2_vl_positions(-1, 2, 2), "n_text_before"),
    ],
)
def test_bad_input_names_the_argument(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_mrope_height_and_width_are_not_interchangeable(rng):
    # Second check of the section order (M27): swapping h and w must move the score, and the
    # rotation of a one-hot feature in the width section follows w only.
    q = rng.normal(size=128)
    tall = mm.mrope(q[None], [0], [7], [0])[0]
    wide = mm.mrope(q[None], [0], [0], [7])[0]
    assert np.abs(tall - wide).max() > 1e-3
    feature = 45                              # half layout: pair 45 (width section) is (45, 109)
    e = np.zeros(128)
    e[feature] = 1.0
    theta = rope_core.inverse_frequencies(128)
    out = mm.mrope(e[None], [3], [5], [11])[0]
    np.testing.assert_allclose([out[feature], out[feature + 64]],
                               [np.cos(11 * theta[feature]), np.sin(11 * theta[feature])], atol=1e-12)


def test_interleaved_mrope_follows_transformers_slices():
    # transformers: start from t, pairs 1::3 below 3*s_h take h, pairs 2::3 below 3*s_w take w.
    axes = mm.interleaved_mrope_axes(128, (24, 20, 20))
    expected = np.zeros(64, dtype=int)
    expected[1:60:3] = 1
    expected[2:60:3] = 2
    np.testing.assert_array_equal(axes, expected)
    angles = mm.interleaved_mrope_angles([2.0], [3.0], [5.0], 128, sections=(24, 20, 20), base=5e6)
    theta = rope_core.inverse_frequencies(128, 5e6)
    np.testing.assert_allclose(angles[0], np.array([2.0, 3.0, 5.0])[expected] * theta, rtol=1e-15)


def test_interleaved_mrope_on_text_is_1d_rope_and_relative(rng):
    x = rng.normal(size=(4, 128))
    m = np.array([0, 9, 300, 40000])
    np.testing.assert_allclose(mm.interleaved_mrope(x, m, m, m, base=5e6),
                               rope_core.apply_rope(x, m, base=5e6, layout="half"), atol=1e-9)
    q, k = rng.normal(size=(2, 128))
    a = score(mm.interleaved_mrope, q, k, (4, 2, 3), (4, 6, 9))
    b = score(mm.interleaved_mrope, q, k, (104, 52, 33), (104, 56, 39))
    assert abs(a - b) < 1e-9 * max(1.0, abs(a))


def test_time_aligned_ids_depend_on_seconds_not_frames():
    np.testing.assert_array_equal(mm.time_aligned_temporal_ids(4, 2.0), [0, 4, 8, 12])
    np.testing.assert_array_equal(mm.time_aligned_temporal_ids(8, 1.0)[::2], mm.time_aligned_temporal_ids(4, 2.0))
    np.testing.assert_array_equal(mm.time_aligned_temporal_ids(3, 0.7), [0, 1, 2])   # floor(1.4), floor(2.8)
    for bad in (0, -1.0, float("nan"), True):
        with pytest.raises(ValueError, match="second_per_grid_t"):
            mm.time_aligned_temporal_ids(3, bad)
    with pytest.raises((TypeError, ValueError), match="grid_t"):
        mm.time_aligned_temporal_ids(0, 1.0)


def test_qwen3_vl_frames_are_placed_one_at_a_time_after_their_timestamps():
    t, h, w = mm.qwen3_vl_video_positions(3, 2, 2, 4)
    assert t.size == 3 * (4 + 4)
    frame_t = [np.unique(t[start + 4 : start + 8]) for start in (0, 8, 16)]
    assert all(f.size == 1 for f in frame_t)                       # one temporal id per frame
    steps = np.diff([f[0] for f in frame_t])
    np.testing.assert_array_equal(steps, [4 + 2, 4 + 2])           # tokens between frames, not seconds
    np.testing.assert_array_equal(t[:4], np.arange(4))             # the first timestamp is text
    with pytest.raises(ValueError, match="n_frames"):
        mm.qwen3_vl_video_positions(0, 2, 2, 1)
