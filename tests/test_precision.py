"""The low-precision emulation behind chapter 13: bfloat16 rounding and angle errors."""

from __future__ import annotations

import numpy as np
import pytest

import rope_core
from rope_core import precision


def test_bfloat16_keeps_8_significant_bits():
    integers = np.arange(0, 2048, dtype=np.float32)
    rounded = precision.to_bfloat16(integers)
    assert np.array_equal(rounded[:257], integers[:257])           # exact up to 256
    assert np.all(np.abs(rounded - integers) <= integers / 256)     # 8-bit mantissa above
    assert precision.to_bfloat16([257.0])[0] == 256.0               # tie goes to even
    assert precision.to_bfloat16([259.0])[0] == 260.0
    assert np.isnan(precision.to_bfloat16([np.nan])[0]) and np.isinf(precision.to_bfloat16([np.inf])[0])


def test_float64_angles_are_rope_angles():
    positions = np.array([0, 7, 100000])
    np.testing.assert_array_equal(precision.angles_in_dtype(positions, 64, dtype="float64"),
                                  rope_core.rope_angles(positions, 64))


@pytest.mark.parametrize("position, low, high", [(8192, 2e-4, 1e-3), (131072, 3e-3, 2e-2), (2**20, 3e-2, 1.2e-1)])
def test_float32_angle_error_grows_with_position(position, low, high):
    error = precision.cos_error_by_position(np.arange(position - 256, position), 128, dtype="float32").max()
    assert low < error < high


def test_bfloat16_positions_collide_above_256():
    angles = precision.angles_in_dtype([300, 301], 2, dtype="bfloat16")
    assert angles[0, 0] == angles[1, 0]                 # two tokens, one angle
    assert precision.cos_error_by_position(np.arange(4000, 4100), 64, dtype="bfloat16").max() > 1.0


def test_float16_overflow_is_reported_not_hidden():
    error = precision.cos_error_by_position([70000], 8, dtype="float16")
    assert np.isnan(error[0])


@pytest.mark.parametrize("call, match", [
    (lambda: precision.angles_in_dtype([1, 2], 8, dtype="int8"), "dtype"),
    (lambda: precision.angles_in_dtype([[1, 2]], 8), "positions"),
    (lambda: precision.angles_in_dtype([1, np.nan], 8), "positions"),
    (lambda: precision.angles_in_dtype([1, 2], 7), "dim"),
    (lambda: precision.cos_error_by_position([1], 8, base=1.0), "base"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_angles_match_numpy_low_precision_arithmetic_bit_for_bit(dtype):
    # Independent reference: NumPy's own float32/float16 multiply rounds the product (M49).
    positions = np.array([0, 1, 3, 255, 257, 2047, 2049, 40_000, 65_000])
    if dtype == "float32":
        positions = np.concatenate([positions, [2**20 - 1, 2**20 + 3, 2**24 - 1]])
    theta = rope_core.inverse_frequencies(128, 10000.0)
    low = getattr(np, dtype)
    expected = (positions.astype(low)[:, None] * theta.astype(low)).astype(np.float64)
    np.testing.assert_array_equal(precision.angles_in_dtype(positions, 128, dtype=dtype), expected)
