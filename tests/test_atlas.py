"""The model atlas: its API, its data, and the numbers its notes state.

Each number a note states is recomputed here from the entry's config with rope_core (and the
formulas in the comments), so that a note and its data cannot drift apart.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import rope_core
from rope_core import atlas, from_config, yarn_correction_range

ISSUE_MODELS = ["llama-2-7b", "llama-3-8b", "llama-3.1-8b", "llama-3.2-1b", "llama-4-scout", "llama-4-maverick",
                "mistral-7b-v0.1", "qwen2.5-7b", "qwen3-8b", "qwen3-8b-yarn", "qwen2-vl-7b", "qwen3-vl-8b",
                "gemma-2-9b", "gemma-3-4b", "gemma-4", "deepseek-v3", "phi-3.5-mini", "gpt-neox-20b", "gpt-j-6b",
                "modernbert-base", "gpt-oss-20b"]


def test_names_entries_and_lookup():
    names = atlas.names()
    assert len(names) == len(set(names)) >= 20
    assert set(ISSUE_MODELS) <= set(names)
    assert [e.name for e in atlas.entries()] == list(names)
    years = [atlas.entry(n).year for n in names]
    assert years == sorted(years)                      # oldest first, as the tables show them
    with pytest.raises(KeyError, match="llama-3.1-8b"):
        atlas.entry("llama-9")
    with pytest.raises(KeyError):
        atlas.entry(None)


@pytest.mark.parametrize("name", atlas.names())
def test_every_entry_is_complete_and_reads(name):
    item = atlas.entry(name)
    assert item.title and item.hub_id.count("/") == 1 and item.source and item.notes
    assert item.status in ("verified", "mirror", "class defaults", "docs")
    assert "model_type" in item.config
    with pytest.raises(TypeError):
        item.config["model_type"] = "x"                # read-only data
    fresh = item.config_dict()
    fresh["model_type"] = "changed"                    # a writable copy, not a view
    assert item.config["model_type"] != "changed"
    specs = atlas.specs(name)
    assert specs
    for layer_type, spec in specs.items():
        assert spec.layer_type == layer_type and spec.layers
        assert set(spec.layers).isdisjoint(spec.nope_layers)
        assert np.all(spec.inverse_frequencies >= 0) and spec.inverse_frequencies[0] > 0


def _bands(spec):
    theta = rope_core.inverse_frequencies(spec.rotary_dim, spec.base)
    scaled = spec.inverse_frequencies
    factor = spec.rope_parameters["factor"]
    kept = np.isclose(scaled, theta, rtol=1e-12)
    divided = np.isclose(scaled, theta / factor, rtol=1e-12)
    return kept.sum(), divided.sum(), (~kept & ~divided).sum()


def test_llama3_band_counts_in_the_notes():
    # Llama 3.1 (d 128): lambda < 2048 kept (pairs 0-28), > 8192 divided (35-63), 6 blended.
    assert _bands(atlas.specs("llama-3.1-8b")[None]) == (29, 29, 6)
    # Llama 3.2 1B (d 64, factor 32): 15 kept, 14 divided, 3 blended.
    assert _bands(atlas.specs("llama-3.2-1b")[None]) == (15, 14, 3)
    # Llama 4 Scout (high = low = 1): 29 of 64 divided by 16, none blended.
    assert _bands(atlas.specs("llama-4-scout")["chunked_attention"]) == (35, 29, 0)


def test_yarn_ranges_and_factors_in_the_notes():
    ds = atlas.specs("deepseek-v3")[None]
    assert yarn_correction_range(64, 10000.0, 4096) == (10, 23)
    assert ds.softmax_scale_factor == pytest.approx(1.8739, abs=5e-5)
    assert atlas.specs("deepseek-v2-lite")[None].softmax_scale_factor == pytest.approx(1.5896, abs=5e-5)
    qwen = atlas.specs("qwen3-8b-yarn")[None]
    assert yarn_correction_range(128, 1e6, 32768) == (23, 40)
    assert qwen.attention_factor == pytest.approx(0.1 * math.log(4) + 1)
    oss = atlas.specs("gpt-oss-20b")
    low, high = yarn_correction_range(64, 150000.0, 4096, truncate=False)
    assert (round(low, 2), round(high, 2)) == (8.09, 17.40)
    assert oss["full_attention"].attention_factor == pytest.approx(1.3466, abs=5e-5)
    np.testing.assert_array_equal(oss["full_attention"].inverse_frequencies,
                                  oss["sliding_attention"].inverse_frequencies)
    phi = atlas.specs("phi-3.5-mini")[None]
    assert phi.attention_factor == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))
    assert max(atlas.entry("phi-3.5-mini").config["rope_scaling"]["long_factor"]) == pytest.approx(64.84, abs=0.01)


def test_wavelengths_in_the_notes():
    slowest = {name: max(s.wavelengths[np.isfinite(s.wavelengths)].max() for s in atlas.specs(name).values())
               for name in ("llama-2-7b", "llama-3-8b")}
    assert slowest["llama-2-7b"] == pytest.approx(54410, rel=1e-4)     # 2 pi 1e4^(126/128)
    assert slowest["llama-3-8b"] == pytest.approx(2.56e6, rel=2e-3)    # 2 pi 5e5^(126/128)
    gemma4 = atlas.specs("gemma-4")["full_attention"]
    assert gemma4.rotated_pairs == 64 and gemma4.rotary_dim == 512
    assert gemma4.wavelengths[63] == pytest.approx(188.25, abs=0.01)


def test_layer_plans_in_the_notes():
    gemma3 = atlas.specs("gemma-3-4b")
    # 34 layers, every 6th global: layers 5, 11, 17, 23, 29 global, the other 29 local.
    assert gemma3["full_attention"].layers == (5, 11, 17, 23, 29) and len(gemma3["sliding_attention"].layers) == 29
    assert gemma3["full_attention"].rope_type == "linear" and gemma3["sliding_attention"].rope_type == "default"
    scout = atlas.specs("llama-4-scout")
    assert list(scout) == ["chunked_attention"] and scout["chunked_attention"].nope_layers == tuple(range(3, 48, 4))
    r7b = atlas.specs("command-r7b")["sliding_attention"]
    assert r7b.nope_layers == tuple(range(3, 32, 4)) and r7b.layout == "interleaved"
    assert atlas.specs("smollm3-3b")[None].nope_layers == tuple(range(3, 36, 4))
    modernbert = atlas.specs("modernbert-base")
    assert modernbert["full_attention"].layers[:3] == (0, 3, 6) and modernbert["full_attention"].base == 160000.0
    neox, gptj = atlas.specs("gpt-neox-20b")[None], atlas.specs("gpt-j-6b")[None]
    assert (neox.rotary_dim, neox.head_dim, neox.layout) == (24, 96, "half")
    assert (gptj.rotary_dim, gptj.head_dim, gptj.layout) == (64, 256, "interleaved")


def test_specs_pass_seq_len_through():
    phi = atlas.entry("phi-3.5-mini").config_dict()
    long = atlas.specs("phi-3.5-mini", seq_len=8192)[None]
    np.testing.assert_array_equal(long.inverse_frequencies, from_config(phi, seq_len=8192).inverse_frequencies)
    assert not np.allclose(long.inverse_frequencies, atlas.specs("phi-3.5-mini")[None].inverse_frequencies)


def test_table_rows_come_from_the_specs():
    rows = atlas.table_rows()
    assert len(rows) == sum(len(atlas.specs(n)) for n in atlas.names())
    assert set(rows[0]) == set(atlas.TABLE_COLUMNS)
    by_model = {(r["model"], r["layers"]): r for r in rows}
    scout = by_model[("Llama 4 Scout", "36 chunked_attention (+12 NoPE)")]
    assert (scout["factor"], scout["training"], scout["layout"], scout["base"]) == ("16", "8 192", "interleaved",
                                                                                    "500 000")
    gemma4 = by_model[("Gemma 4 (class defaults)", "5 full_attention")]
    assert gemma4["rotary"] == "128 / 512" and gemma4["rope_type"] == "proportional"
    assert by_model[("DeepSeek-V3", "61")]["softmax_scale_factor"] == "1.874"


def test_html_table_escapes_and_refuses_empty():
    html = atlas.html_table([{"a": "<b>", "b": 2}], {"a": "A & B", "b": "two"}, caption="x<y")
    assert "&lt;b&gt;" in html and "A &amp; B" in html and "<caption>x&lt;y</caption>" in html
    assert html.count("<tr>") == 2 and "overflow-x:auto" in html
    with pytest.raises(ValueError, match="rows"):
        atlas.html_table([])


@pytest.mark.parametrize("name", atlas.names())
def test_scaling_trained_is_set_exactly_for_scaled_models(name):
    item = atlas.entry(name)
    scaled = any(spec.rope_type in atlas.SCALED_ROPE_TYPES for spec in atlas.specs(name).values())
    if scaled:
        assert isinstance(item.scaling_trained, bool) and len(item.scaling_source) > 20
    else:
        assert item.scaling_trained is None and item.scaling_source == ""


def test_scaling_trained_separates_trained_from_added_scaling():
    assert atlas.entry("llama-3.1-8b").scaling_trained is True
    assert atlas.entry("deepseek-v3").scaling_trained is True
    assert atlas.entry("gpt-oss-20b").scaling_trained is True
    assert atlas.entry("phi-3.5-mini").scaling_trained is True
    assert atlas.entry("qwen3-8b-yarn").scaling_trained is False
    assert atlas.entry("qwen3-8b").scaling_trained is None


@pytest.mark.parametrize("item", atlas.ARCHITECTURES, ids=lambda a: a.name)
def test_architecture_records_are_consistent(item):
    assert item.family in ("hybrid", "MLA", "temperature") and item.source and item.notes
    assert set(item.rope_layer_types) <= set(item.layer_types)
    assert (item.base is None) == (not item.rope_layer_types) == (item.rotary_fraction == 0.0)
    assert atlas.architecture(item.name) is item


def test_architecture_layer_plans_follow_the_configuration_classes():
    qwen = atlas.architecture("qwen3-next-80b-a3b")
    assert qwen.rope_layers == tuple(range(3, 48, 4))           # full_attention_interval 4
    jamba = atlas.architecture("jamba-v0.1")
    assert [i for i, t in enumerate(jamba.layer_types) if t == "attention"] == [4, 12, 20, 28]
    assert jamba.rope_layers == () and atlas.architecture("kimi-linear-48b-a3b").rope_layers == ()
    with pytest.raises(KeyError, match="qwen3-next"):
        atlas.architecture("qwen4")


def test_deepseek_v4_record_follows_its_configuration_class():
    v4 = atlas.architecture("deepseek-v4")
    # DeepseekV4Config: 43 layers, two heavily compressed layers, then CSA / HCA alternating
    assert len(v4.layer_types) == 43 and v4.layer_types[:4] == (
        "heavily_compressed_attention", "heavily_compressed_attention",
        "heavily_compressed_attention", "compressed_sparse_attention")
    assert v4.rope_layers == tuple(range(43))
    assert v4.rotary_fraction * 512 == 64 and v4.base == 1e4 and v4.context == 2**20
    assert v4.extra_bases and v4.extra_bases[0][1] == 1.6e5
    assert all(a.extra_bases == () for a in atlas.ARCHITECTURES if a is not v4)


def test_families_cover_the_architecture_records_with_sources():
    families = [row["family"] for row in atlas.FAMILIES]
    assert len(families) == len(set(families)) == 5
    assert {a.family for a in atlas.ARCHITECTURES} <= set(families)
    assert all(all(row.values()) for row in atlas.FAMILIES)
