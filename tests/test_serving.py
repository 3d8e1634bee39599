"""rope_core.serving: position ids for padded and packed batches, re-rotating cached keys."""

import numpy as np
import pytest

import rope_core
from rope_core import serving

RNG = np.random.default_rng(3)


def test_left_padding_numbers_real_tokens_from_zero():
    mask = np.array([[0, 0, 0, 1, 1], [0, 1, 1, 1, 1], [1, 1, 1, 1, 1]])
    positions = serving.position_ids_from_mask(mask)
    for row in range(3):
        np.testing.assert_array_equal(positions[row][mask[row] == 1], np.arange(mask[row].sum()))
    assert np.all(positions[mask == 0] == 1)


def test_packed_positions_restart_at_every_document():
    np.testing.assert_array_equal(serving.packed_position_ids([2, 1, 3]), [0, 1, 0, 0, 1, 2])


@pytest.mark.parametrize("scaling", [None, {"rope_type": "linear", "factor": 4.0},
                                     {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 64}])
@pytest.mark.parametrize("shift", [-37, 5])
def test_rerotation_equals_rotating_at_the_new_position(scaling, shift):
    keys = RNG.normal(size=(6, 32))
    positions = np.arange(40, 46)
    cached = rope_core.apply_rope(keys, positions, layout="half", rope_scaling=scaling)
    moved = serving.rerotate_cached_keys(cached, shift, rope_scaling=scaling)
    np.testing.assert_allclose(moved, rope_core.apply_rope(keys, positions + shift, layout="half",
                                                           rope_scaling=scaling), atol=1e-12)


@pytest.mark.parametrize("call, words", [
    (lambda: serving.position_ids_from_mask([1, 1, 0]), "attention_mask"),
    (lambda: serving.position_ids_from_mask([[1, 2]]), "attention_mask"),
    (lambda: serving.packed_position_ids([2, 0]), "document_lengths"),
    (lambda: serving.packed_position_ids([]), "document_lengths"),
    (lambda: serving.rerotate_cached_keys(np.ones((2, 4)), 1.5), "shift"),
    (lambda: serving.rerotate_cached_keys(np.ones((2, 4)), 1, rope_scaling={"rope_type": "dynamic", "factor": 2.0}),
     "rope_scaling"),
])
def test_bad_input_names_the_argument(call, words):
    with pytest.raises((TypeError, ValueError), match=words):
        call()
