"""rope_core.maths: the lines the book shows are the lines that compute.

Every public function that wraps a function of ``rope_core.maths`` returns exactly (bit for
bit) what the maths function returns on the checked arguments, and the two whose public form
also serves Part II (``relative_scores``, ``rope_attention``: ``layout=``) agree bit for bit
for the interleaved layout the maths uses.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import rope_core
from rope_core import maths
from rope_core.absolute import sinusoidal_position_embedding
from rope_core.blocks import block_rotation

BASES = (10000.0, 500000.0, 3.0)


def _cases(seed=0, count=25):
    rng = np.random.default_rng(seed)
    for index in range(count):
        length, dim = int(rng.integers(1, 9)), 2 * int(rng.integers(1, 17))
        scale = 10 ** rng.uniform(-3, 3)
        positions = (rng.integers(0, 100_000, length) if index % 2 else rng.uniform(-50, 1e5, length))
        yield rng, length, dim, scale, positions.astype(np.float64), BASES[index % len(BASES)]


def test_the_public_functions_return_the_maths_bit_for_bit():
    for rng, length, dim, scale, positions, base in _cases():
        x = rng.standard_normal((length, dim)) * scale
        angle = rng.uniform(-10, 10, (length,))
        np.testing.assert_array_equal(rope_core.rotation_matrix(angle), maths.rotation_matrix(angle))
        v = rng.standard_normal((length, 2))
        np.testing.assert_array_equal(rope_core.rotate_2d(v, angle), maths.rotate_2d(v, angle))
        np.testing.assert_array_equal(rope_core.default_inverse_frequencies(dim, base),
                                      maths.default_inverse_frequencies(dim, base))
        np.testing.assert_array_equal(rope_core.rope_angles(positions, dim, base),
                                      maths.rope_angles(positions, dim, base))
        np.testing.assert_array_equal(rope_core.apply_rope_complex(x, positions, base=base),
                                      maths.apply_rope_complex(x, positions, base))
        np.testing.assert_array_equal(block_rotation(angle), maths.block_rotation(angle))
        np.testing.assert_array_equal(rope_core.rope_matrix(positions[0], dim, base),
                                      maths.rope_matrix(positions[0], dim, base))
        np.testing.assert_array_equal(sinusoidal_position_embedding(positions, dim, base),
                                      maths.sinusoidal_position_embedding(positions, dim, base))
        q, k, v = rng.standard_normal((3, length, dim)) * scale
        for causal in (False, True):
            for public, shown in zip(rope_core.softmax_attention(q, k, v, causal=causal),
                                     maths.softmax_attention(q, k, v, causal)):
                np.testing.assert_array_equal(public, shown)


def test_part_two_forms_equal_the_maths_for_the_interleaved_layout():
    for rng, length, dim, scale, positions, base in _cases(seed=1):
        q, k, v = rng.standard_normal((3, length, dim)) * scale
        np.testing.assert_array_equal(
            rope_core.relative_scores(q, k, positions, positions[::-1], base=base),
            maths.relative_scores(q, k, positions, positions[::-1], base))
        for causal in (False, True):
            public = rope_core.rope_attention(q, k, v, positions, base=base, causal=causal)
            shown = maths.rope_attention(q, k, v, positions, base, causal)
            for a, b in zip(public, shown):
                np.testing.assert_array_equal(a, b)


def test_integer_and_float32_input_is_computed_in_float64_as_before():
    angles = np.array([1, 2, 3], dtype=np.int64)
    np.testing.assert_array_equal(block_rotation(angles),
                                  maths.block_rotation(angles.astype(np.float64)))
    assert rope_core.rotation_matrix(np.float32(0.5)).dtype == np.float64
    assert block_rotation(np.array([0.5], dtype=np.float32)).dtype == np.float64


PART_TWO_WORDS = ("rope_scaling", "seq_len", "layout", "rotary_dim", "check_", "raise")


@pytest.mark.parametrize("name", maths.__all__)
def test_the_maths_has_no_checks_and_no_part_two_arguments(name):
    code = inspect.getsource(getattr(maths, name))
    found = [word for word in PART_TWO_WORDS if word in code]
    assert not found, f"maths.{name} shows {found}"
