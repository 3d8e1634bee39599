"""The M-RoPE bugs of chapter 14, section 9, reproduced as mechanisms with rope_core.

Each bug leaves text tokens untouched (their three position numbers are equal, so M-RoPE is
plain RoPE there) and moves image tokens, or the tokens after an image. Each test checks both
halves, so a reference that treated every token alike would fail it.
"""

from __future__ import annotations

import numpy as np
import pytest

import rope_core
from rope_core import multimodal, serving

SECTIONS, BASE = (24, 20, 20), 5e6          # Qwen3-VL's text head: 64 pairs
DIM = 2 * sum(SECTIONS)


@pytest.fixture(scope="module")
def prompt():
    """5 text tokens, one 8 x 8 image, 6 text tokens, with random queries and keys."""
    t, h, w = multimodal.qwen2_vl_positions(5, 8, 8, 6)
    q, k = np.random.default_rng(14).normal(size=(2, len(t), DIM))
    return {"t": t, "h": h, "w": w, "q": q, "k": k, "text_before": np.arange(5),
            "image": np.arange(5, 69), "text_after": np.arange(69, 75)}


def interleaved(x, t, h, w):
    return multimodal.interleaved_mrope(x, t, h, w, sections=SECTIONS, base=BASE)


def test_sectioned_selector_on_an_interleaved_model_moves_only_image_tokens(prompt):
    p = prompt
    right = interleaved(p["q"], p["t"], p["h"], p["w"])
    wrong = multimodal.mrope(p["q"], p["t"], p["h"], p["w"], sections=SECTIONS, base=BASE)
    text = np.concatenate([p["text_before"], p["text_after"]])
    np.testing.assert_allclose(wrong[text], right[text], rtol=0, atol=1e-12)
    assert np.abs(wrong[p["image"]] - right[p["image"]]).max() > 0.1
    moved = np.repeat([0, 1, 2], SECTIONS) != multimodal.interleaved_mrope_axes(DIM, SECTIONS)
    assert moved.sum() == 43


def test_a_dropped_decode_delta_changes_the_scores_after_an_image_only(prompt):
    p = prompt
    keys = interleaved(p["k"], p["t"], p["h"], p["w"])

    def scores(delta, length, cached):
        position = serving.mrope_next_positions(delta, length)
        return interleaved(p["q"][-1:], *position) @ cached.T

    delta = serving.mrope_position_delta(p["t"], p["h"], p["w"])
    assert delta == -56
    assert np.abs(scores(delta, 75, keys) - scores(0, 75, keys)).max() > 0.1
    # A text-only prompt: the delta is 0, so dropping it changes nothing.
    index = np.arange(75)
    text_keys = interleaved(p["k"], index, index, index)
    assert serving.mrope_position_delta(index, index, index) == 0
    np.testing.assert_allclose(scores(0, 75, text_keys),
                               scores(serving.mrope_position_delta(index, index, index), 75,
                                      text_keys))


def test_plain_rope_for_mrope_is_right_before_the_image_only(prompt):
    p = prompt
    right = interleaved(p["q"], p["t"], p["h"], p["w"])
    flat = rope_core.apply_rope(p["q"], np.arange(75), base=BASE, layout="half")
    np.testing.assert_allclose(flat[p["text_before"]], right[p["text_before"]], rtol=0, atol=1e-12)
    assert np.abs(flat[p["image"]] - right[p["image"]]).max() > 0.1
    assert np.abs(flat[p["text_after"]] - right[p["text_after"]]).max() > 0.1
    # The text after the image: M-RoPE's positions run 56 behind the index.
    np.testing.assert_array_equal(p["t"][p["text_after"]], p["text_after"] - 56)


def test_a_causal_mask_from_mrope_positions_opens_the_image_to_later_patches(prompt):
    t, image = prompt["t"], prompt["image"]
    causal = np.tril(np.ones((len(t), len(t)), dtype=bool))
    from_positions = t[None, :] <= t[:, None]
    extra = from_positions & ~causal
    assert extra.sum() == 64 * 63 // 2 == extra[np.ix_(image, image)].sum()
    assert not (causal & ~from_positions).any()
    # Text only: positions are the token order, so the two masks agree.
    index = np.arange(len(t))
    assert np.array_equal(index[None, :] <= index[:, None], causal)
