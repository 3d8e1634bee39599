"""Part II widgets, Python side: ScalingPairs (chapter 10) and KVCacheTimeline (chapter 13) show
rope_core's numbers, ask a question their own table answers, and refuse bad input by name."""

from __future__ import annotations

import numpy as np
import pytest

import rope_core as rc
from rope_core import atlas, plots, serving
from rope_core import widgets as W
from rope_core.demos.context import example_rope_scaling
from rope_core.demos.kv_cache import KV_CACHE_DEFAULTS, kv_cache_stages
from rope_core.demos.scaling_pairs import (
    SCALING_PAIRS_DEFAULTS,
    scaling_pairs_model,
    scaling_pairs_table,
    schemes_without_pairs_beyond,
)


def test_scaling_pairs_models_are_the_atlas_configs():
    for name in SCALING_PAIRS_DEFAULTS["models"]:
        model, config = scaling_pairs_model(name), atlas.entry(name).config
        assert model["base"] == config["rope_theta"]
        assert model["training_length"] == config["max_position_embeddings"]
        assert model["dim"] == config["hidden_size"] // config["num_attention_heads"]


@pytest.mark.parametrize("scheme", SCALING_PAIRS_DEFAULTS["schemes"])
def test_scaling_pairs_turns_are_rope_core_frequencies(scheme):
    table = scaling_pairs_table()
    for entry in table["models"]:
        dim, base, length = entry["dim"], entry["base"], entry["training_length"]
        theta = rc.inverse_frequencies(dim, base)
        np.testing.assert_allclose(10 ** np.array(entry["log_trained"]), length * theta / (2 * np.pi), rtol=1e-2)
        for f, factor in enumerate(table["factors"]):
            scaled = rc.inverse_frequencies(dim, base, rope_scaling=example_rope_scaling(scheme, factor, length))
            cell = entry["cells"][scheme][f]
            assert cell["target"] == factor * length
            np.testing.assert_allclose(10 ** np.array(cell["log_target"]), factor * length * scaled / (2 * np.pi), rtol=1e-2)
            # Beyond training: a slow pair (under one turn in L) that turns further over T than over L.
            slow = length * theta < 2 * np.pi
            expected = np.flatnonzero(slow & (factor * length * scaled > length * theta * (1 + 1e-9)))
            assert cell["beyond"] == expected.tolist(), (entry["name"], scheme, factor)
            assert cell["kept"] == np.flatnonzero(np.isclose(scaled, theta, rtol=1e-12, atol=0)).tolist()


def test_scaling_pairs_question_has_one_right_answer_and_the_table_gives_it():
    widget = W.ScalingPairs()
    data = widget.data
    safe = set(schemes_without_pairs_beyond(data, widget.model_index, widget.factor_index))
    right = [c for c in data["question"]["choices"] if set(c["schemes"]) == safe]
    assert len(right) == 1 and set(right[0]["schemes"]) == {"linear", "yarn", "llama3"}
    assert data["factors"][widget.factor_index] == 4 and "4×" in data["question"]["prompt"]
    # The default frame is the problem (no scaling), not an answer: every slow pair is beyond.
    model = data["models"][widget.model_index]
    assert data["schemes"][widget.scheme_index] == "default"
    assert model["cells"]["default"][widget.factor_index]["beyond"] == model["slow"] and model["slow"]


@pytest.mark.parametrize("build, match", [
    (lambda: scaling_pairs_table(["no-such-model"]), "name"),
    (lambda: scaling_pairs_table(["llama-3.1-8b"]), "name"),  # ships scaled RoPE
    (lambda: scaling_pairs_table(factors=[0.5]), "factors"),
    (lambda: scaling_pairs_table(factors=[True]), "factors"),
    (lambda: scaling_pairs_table(factors=[]), "factors"),
    (lambda: scaling_pairs_table(schemes=["rope"]), "schemes"),
    (lambda: scaling_pairs_table(models="llama-2-7b"), "models"),
    (lambda: plots.plot_scaling_pairs(scheme="pi"), "scheme"),
    (lambda: kv_cache_stages(dim=7), "dim"),
    (lambda: kv_cache_stages(base=1.0), "base"),
    (lambda: kv_cache_stages(capacity=1), "capacity"),
    (lambda: kv_cache_stages(prompt_length=8), "prompt_length"),
    (lambda: kv_cache_stages(evict=8), "evict"),
    (lambda: kv_cache_stages(decode_after=4), "decode_after"),
    (lambda: kv_cache_stages(rerotate=1), "rerotate"),
    (lambda: plots.plot_kv_cache(99), "stage"),
])
def test_part_two_bad_input_names_the_argument(build, match):
    with pytest.raises(ValueError, match=match):
        build()


@pytest.mark.parametrize("rerotate", [True, False])
def test_kv_cache_angles_and_scores_are_rope_core(rerotate):
    d, base = KV_CACHE_DEFAULTS["dim"], KV_CACHE_DEFAULTS["base"]
    stages = kv_cache_stages(rerotate=rerotate)
    theta0 = rc.inverse_frequencies(d, base)[0]
    for s in stages:
        # Pair 0's rotation is the position times θ_0, wrapped: the cached one at the position
        # the key was rotated at, the fresh one at the token's position now.
        np.testing.assert_allclose(np.exp(1j * np.array(s["angle"])), np.exp(1j * theta0 * np.array(s["positions"])), atol=1e-9)
        np.testing.assert_allclose(np.exp(1j * np.array(s["should_angle"])), np.exp(1j * theta0 * np.array(s["should"])), atol=1e-9)
        assert len(s["tokens"]) <= KV_CACHE_DEFAULTS["capacity"]
        assert s["query_position"] == len(s["tokens"])
    events = [s["event"] for s in stages]
    evict = events.index("evict")
    assert events[0] == "prefill" and events[evict + 1] == "rerotate"
    assert stages[evict]["tokens"] == list(range(KV_CACHE_DEFAULTS["evict"], KV_CACHE_DEFAULTS["capacity"]))
    errors = [s["error"] for s in stages]
    assert max(errors[:evict]) < 1e-12 and errors[evict] > 0.1
    if rerotate:
        assert max(errors[evict + 1 :]) < 1e-12
    else:
        assert min(errors[evict:]) > 0.1


def test_kv_cache_rerotation_is_serving_rerotate_cached_keys():
    # The stage after the eviction equals rotating the cached keys with serving's function.
    d, base, evict = KV_CACHE_DEFAULTS["dim"], KV_CACHE_DEFAULTS["base"], KV_CACHE_DEFAULTS["evict"]
    keys = np.random.default_rng(1).normal(size=(5, d))
    cached = rc.apply_rope(keys, np.arange(evict, evict + 5), base=base, layout="half")
    moved = serving.rerotate_cached_keys(cached, -evict, base=base, layout="half")
    np.testing.assert_allclose(moved, rc.apply_rope(keys, np.arange(5), base=base, layout="half"), atol=1e-12)


def test_kv_cache_widget_sends_both_tracks_and_refuses_bad_stages():
    widget = W.KVCacheTimeline()
    assert widget.data["tracks"][0] == kv_cache_stages(rerotate=True)
    assert widget.data["tracks"][1] == kv_cache_stages(rerotate=False)
    with pytest.raises(ValueError, match="stage"):
        widget.stage = len(widget.data["tracks"][0])


def test_print_views_draw():
    fig, (left, right) = plots.new_figure(1, 2)
    assert plots.plot_scaling_pairs(ax=left) is left
    assert plots.plot_kv_cache(ax=right) is right
    assert "23 of 24 slow pairs beyond" in left.get_title()
