"""rope_core.wiring: Llama 4's temperature on NoPE layers and QK-norm's RMSNorm."""

import numpy as np
import pytest

import rope_core
from rope_core import wiring


def test_temperature_steps_at_multiples_of_floor_scale():
    positions = np.array([0, 8190, 8191, 16382, 16383])
    expected = 1 + 0.1 * np.log(np.array([1, 1, 2, 2, 3]))
    np.testing.assert_allclose(wiring.llama4_attention_temperature(positions), expected, rtol=1e-15)
    np.testing.assert_allclose(wiring.llama4_attention_temperature([99], floor_scale=10, attn_scale=1.0),
                               [1 + np.log(11)], rtol=1e-15)


def test_rms_norm_without_gain_commutes_with_rope_and_a_paired_gain_does_too():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(5, 16))
    positions = [0, 3, 70, 1000, 123456]
    rotated = rope_core.apply_rope(x, positions, layout="half")
    np.testing.assert_allclose(wiring.rms_norm(rotated), rope_core.apply_rope(wiring.rms_norm(x), positions, layout="half"), atol=1e-12)
    paired = np.tile(rng.uniform(0.5, 2, size=8), 2)           # same gain on both halves of a pair
    np.testing.assert_allclose(wiring.rms_norm(rotated, paired),
                               rope_core.apply_rope(wiring.rms_norm(x, paired), positions, layout="half"), atol=1e-12)
    unpaired = rng.uniform(0.5, 2, size=16)
    assert np.abs(wiring.rms_norm(rotated, unpaired)
                  - rope_core.apply_rope(wiring.rms_norm(x, unpaired), positions, layout="half")).max() > 1e-3


@pytest.mark.parametrize("call, words", [
    (lambda: wiring.llama4_attention_temperature([-1]), "positions"),
    (lambda: wiring.llama4_attention_temperature([1.5]), "positions"),
    (lambda: wiring.llama4_attention_temperature([1], floor_scale=0), "floor_scale"),
    (lambda: wiring.rms_norm(np.ones(4), np.ones(3)), "weight"),
    (lambda: wiring.rms_norm(np.ones(4), eps=-1.0), "eps"),
    (lambda: wiring.rms_norm("abc"), "x"),
])
def test_bad_input_names_the_argument(call, words):
    with pytest.raises((TypeError, ValueError), match=words):
        call()


def test_ministral3_temperature_steps_at_multiples_of_the_original_length():
    from rope_core import wiring
    tau = wiring.ministral3_attention_temperature([0, 16383, 16384, 32767, 32768])
    np.testing.assert_allclose(tau, [1, 1, 1 + 0.1 * np.log(2), 1 + 0.1 * np.log(2), 1 + 0.1 * np.log(3)])
    with pytest.raises(ValueError, match="positions"):
        wiring.ministral3_attention_temperature([-1])
