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
    assert np.all(positions[mask == 0] == 0)          # transformers 5 fills padding with 0


def test_packed_positions_restart_at_every_document():
    np.testing.assert_array_equal(serving.packed_position_ids([2, 1, 3]), [0, 1, 0, 0, 1, 2])


def test_position_restarts_are_the_packing_mask():
    lengths = [3, 1, 4]
    ids = serving.packed_document_ids(serving.packed_position_ids(lengths))
    np.testing.assert_array_equal(ids, [0, 0, 0, 1, 2, 2, 2, 2])
    mask = serving.packed_causal_mask(serving.packed_position_ids(lengths))
    assert not mask[3, :3].any() and mask[7, 4:8].all() and not mask[7, :4].any()
    running = serving.packed_causal_mask(np.arange(8))
    np.testing.assert_array_equal(running, np.tril(np.ones((8, 8), dtype=bool)))   # crosses documents


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


DYNAMIC = {"rope_type": "dynamic", "factor": 1.0, "max_position_embeddings": 64}
LONGROPE = {"rope_type": "longrope", "original_max_position_embeddings": 64, "max_position_embeddings": 512,
            "short_factor": list(np.linspace(1.0, 2.0, 16)), "long_factor": list(np.linspace(1.0, 9.0, 16))}


@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize("scaling, old_len, new_len", [(DYNAMIC, 64, 192), (DYNAMIC, 100, 400),
                                                       (LONGROPE, 64, 65), (LONGROPE, 10, 500)])
def test_per_key_rerotation_is_exact_for_length_dependent_schemes(layout, scaling, old_len, new_len):
    keys = RNG.normal(size=(2, old_len, 32))
    positions = np.arange(old_len)

    def rotated(length):      # complex-number RoPE with the frequencies and factor of this length
        a, b = (keys[..., :16], keys[..., 16:]) if layout == "half" else (keys[..., 0::2], keys[..., 1::2])
        z = (a + 1j * b) * np.exp(1j * positions[:, None] * frequencies(length)) * factor(length)
        return np.concatenate([z.real, z.imag], -1) if layout == "half" else np.stack([z.real, z.imag], -1).reshape(keys.shape)

    def frequencies(length):
        return rope_core.inverse_frequencies(32, rope_scaling=scaling, seq_len=length)

    def factor(length):
        return rope_core.attention_factor(32, rope_scaling=scaling, seq_len=length)

    moved = serving.rerotate_to_frequencies(rotated(old_len), positions, frequencies(old_len),
                                            frequencies(new_len), layout=layout,
                                            old_factor=factor(old_len), new_factor=factor(new_len))
    np.testing.assert_allclose(moved, rotated(new_len), atol=1e-11)
    if not np.allclose(frequencies(old_len), frequencies(new_len)):
        assert not np.allclose(rotated(old_len), rotated(new_len))   # the test can fail


@pytest.mark.parametrize("call, words", [
    (lambda: serving.rerotate_to_frequencies(np.ones((2, 4)), [0, 1, 2], np.ones(2), np.ones(2)), "positions"),
    (lambda: serving.rerotate_to_frequencies(np.ones((2, 4)), [0, 1], np.ones(3), np.ones(2)),
     "old_inverse_frequencies"),
    (lambda: serving.rerotate_to_frequencies(np.ones((2, 4)), [0, 1], np.ones(2), np.ones(2), layout="x"), "layout"),
    (lambda: serving.rerotate_to_frequencies(np.ones((2, 4)), [0, 1], np.ones(2), np.ones(2), new_factor=0),
     "new_factor"),
    (lambda: serving.position_ids_from_mask([1, 1, 0]), "attention_mask"),
    (lambda: serving.position_ids_from_mask([[1, 2]]), "attention_mask"),
    (lambda: serving.packed_position_ids([2, 0]), "document_lengths"),
    (lambda: serving.packed_position_ids([]), "document_lengths"),
    (lambda: serving.packed_document_ids([[0, 1]]), "position_ids"),
    (lambda: serving.packed_document_ids([]), "position_ids"),
    (lambda: serving.rerotate_cached_keys(np.ones((2, 4)), 1.5), "shift"),
    (lambda: serving.rerotate_cached_keys(np.ones((2, 4)), 1, rope_scaling={"rope_type": "dynamic", "factor": 2.0}),
     "rope_scaling"),
])
def test_bad_input_names_the_argument(call, words):
    with pytest.raises((TypeError, ValueError), match=words):
        call()


def test_mrope_delta_continues_the_positions_a_full_recompute_gives():
    from rope_core import multimodal as mm
    t, h, w = mm.qwen2_vl_positions(3, 4, 5, 2)              # text, a 4x5 image, text
    delta = serving.mrope_position_delta(t, h, w)
    assert delta == max(t.max(), h.max(), w.max()) + 1 - t.size < 0
    longer = mm.qwen2_vl_positions(3, 4, 5, 6)               # the same prompt with 4 more text tokens
    nxt = serving.mrope_next_positions(delta, t.size, 4)
    np.testing.assert_array_equal(nxt, np.stack(longer)[:, t.size:])
    with pytest.raises(ValueError, match="t, h and w"):
        serving.mrope_position_delta([0, 1], [0], [0, 1])
    with pytest.raises((TypeError, ValueError), match="context_len"):
        serving.mrope_next_positions(0, -1)


def test_engine_table_names_its_sources():
    assert {e["engine"] for e in serving.ENGINES} >= {"vLLM", "SGLang", "TensorRT-LLM", "llama.cpp"}
    assert all(set(e) == set(serving.ENGINES[0]) and all(e.values()) for e in serving.ENGINES)


def test_scaling_scheme_records_cover_every_scaling_type_with_a_source():
    types = [item["rope_type"] for item in serving.SCALING_SCHEMES]
    assert len(types) == len(set(types))
    assert set(types) == set(rope_core.ROPE_TYPES) - {"default", "proportional"}
    keys = {"rope_type", "training", "transformers", "vLLM", "SGLang", "llama.cpp", "source"}
    assert all(set(item) == keys and all(item.values()) for item in serving.SCALING_SCHEMES)


def test_scaling_scheme_records_flag_the_names_transformers_lacks():
    by_type = {item["rope_type"]: item for item in serving.SCALING_SCHEMES}
    assert by_type["ntk"]["transformers"].startswith("no type")      # rope_core's own name
    assert by_type["dynamic"]["llama.cpp"] == "not supported"
    assert "static table" in by_type["dynamic"]["vLLM"]
