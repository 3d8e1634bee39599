"""rope_core.from_config: both config forms, model keys, layer plans and clear errors.

The numbers themselves are checked against transformers in test_config_golden.py; this file
checks how configs are read, with expectations worked out from the formulas or transformers'
code (cited next to each).
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import rope_core
import rope_core.atlas
import rope_core.config
from rope_core import RopeSpec, from_config, inverse_frequencies, layer_plan
from rope_core.config import MODEL_TYPES, RopeConfigWarning

LLAMA31 = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 4,
           "max_position_embeddings": 131072, "rope_theta": 500000.0,
           "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                            "high_freq_factor": 4.0, "original_max_position_embeddings": 8192},
           "vocab_size": 128256, "torch_dtype": "bfloat16", "architectures": ["LlamaForCausalLM"]}


def v5(config):
    """The transformers 5 spelling of a v4 config: rope_theta moved into rope_parameters."""
    config = copy.deepcopy(config)
    block = config.pop("rope_scaling") or {"rope_type": "default"}
    block["rope_theta"] = config.pop("rope_theta")
    config["rope_parameters"] = block
    return config


def test_v4_and_v5_forms_give_the_same_spec():
    old, new = from_config(LLAMA31), from_config(v5(LLAMA31))
    for spec in (old, new):
        assert isinstance(spec, RopeSpec)
        assert (spec.rope_type, spec.base, spec.head_dim, spec.rotary_dim, spec.layout) == (
            "llama3", 500000.0, 128, 128, "half")
        assert spec.original_max_position_embeddings == 8192 and spec.max_position_embeddings == 131072
        assert spec.layers == (0, 1, 2, 3) and spec.nope_layers == ()
    np.testing.assert_array_equal(old.inverse_frequencies, new.inverse_frequencies)
    np.testing.assert_array_equal(
        old.inverse_frequencies,
        inverse_frequencies(128, 500000.0, rope_scaling=LLAMA31["rope_scaling"]))


def test_the_spec_is_frozen_and_its_frequencies_read_only():
    spec = from_config(LLAMA31)
    with pytest.raises(AttributeError):
        spec.base = 1.0
    with pytest.raises(ValueError):
        spec.inverse_frequencies[0] = 2.0
    with pytest.raises(TypeError):
        spec.rope_parameters["factor"] = 2.0


def test_legacy_type_key_and_phi3_names():
    legacy = {**LLAMA31, "rope_scaling": {**LLAMA31["rope_scaling"]}}
    legacy["rope_scaling"]["type"] = legacy["rope_scaling"].pop("rope_type")
    np.testing.assert_array_equal(from_config(legacy).inverse_frequencies, from_config(LLAMA31).inverse_frequencies)
    # configuration_phi3.py renames "su" (and "yarn") to "longrope".
    phi = {"model_type": "phi3", "hidden_size": 96 * 4, "num_attention_heads": 4, "max_position_embeddings": 131072,
           "original_max_position_embeddings": 4096,
           "rope_scaling": {"type": "su", "short_factor": [1.0] * 48, "long_factor": [2.0] * 48}}
    spec = from_config(phi)
    assert spec.rope_type == "longrope"
    # No factor: the ratio 131072 / 4096 = 32 sets the attention factor sqrt(1 + ln 32 / ln 4096).
    assert spec.attention_factor == pytest.approx(np.sqrt(1 + np.log(32) / np.log(4096)))
    np.testing.assert_allclose(spec.frequencies_at(4097), inverse_frequencies(96) / 2.0)
    np.testing.assert_array_equal(spec.frequencies_at(4096), spec.inverse_frequencies)


def test_a_missing_rope_type_is_default_in_a_config_as_in_transformers():
    # standardize_rope_params: rope_parameters.setdefault("rope_type", ...get("type", "default")).
    config = {"model_type": "llama", "head_dim": 64, "rope_parameters": {"rope_theta": 1e6}}
    spec = from_config(config)
    assert spec.rope_type == "default" and spec.base == 1e6
    # No rope key at all: the class's default_theta (10 000; Mixtral 1e6, gpt-oss 1.5e5).
    assert from_config({"model_type": "llama", "head_dim": 64}).base == 10000.0
    assert from_config({"model_type": "mixtral", "head_dim": 64}).base == 1e6
    with pytest.warns(RopeConfigWarning, match="some_new_model"):
        assert from_config({"model_type": "some_new_model", "head_dim": 64}).base == 10000.0


def test_partial_rotary_conventions_side_by_side():
    # GPT-NeoX: rotary_pct 0.25 of a 96 head -> 24 features, theta over those 24.
    neox = from_config({"model_type": "gpt_neox", "hidden_size": 96 * 8, "num_attention_heads": 8,
                        "rotary_pct": 0.25, "rotary_emb_base": 10000})
    assert (neox.head_dim, neox.rotary_dim) == (96, 24)
    np.testing.assert_array_equal(neox.inverse_frequencies, inverse_frequencies(24))
    # GPT-NeoX without rotary_pct: transformers' default is 0.25, not 1.
    assert from_config({"model_type": "gpt_neox", "hidden_size": 768, "num_attention_heads": 12}).rotary_dim == 16
    # Proportional (Gemma 4 global): theta over the whole head, the rest zero.
    prop = from_config({"model_type": "llama", "head_dim": 96, "rope_parameters": {
        "rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 10000.0}})
    assert (prop.rotary_dim, prop.rotated_pairs) == (96, 12)
    np.testing.assert_array_equal(prop.inverse_frequencies[:12], inverse_frequencies(96)[:12])
    assert np.isinf(prop.wavelengths[12:]).all()
    # The two conventions rotate the same number of features at different speeds.
    assert neox.rotated_pairs == prop.rotated_pairs
    assert neox.inverse_frequencies[-1] < prop.inverse_frequencies[11]


def test_gemma3_v4_keys_make_per_layer_blocks():
    gemma = {"model_type": "gemma3_text", "head_dim": 256, "num_hidden_layers": 12, "rope_theta": 1e6,
             "rope_local_base_freq": 1e4, "rope_scaling": {"rope_type": "linear", "factor": 8.0}}
    with pytest.raises(ValueError, match="layer_type"):
        from_config(gemma)
    full, local = (from_config(gemma, layer_type=t) for t in ("full_attention", "sliding_attention"))
    assert (full.base, full.rope_type, full.layers) == (1e6, "linear", (5, 11))
    np.testing.assert_allclose(full.inverse_frequencies, inverse_frequencies(256, 1e6) / 8, rtol=1e-15)
    assert (local.base, local.rope_type) == (1e4, "default") and len(local.layers) == 10
    # The same model written the transformers 5 way.
    nested = {"model_type": "gemma3_text", "head_dim": 256, "num_hidden_layers": 12, "rope_parameters": {
        "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
        "sliding_attention": {"rope_type": "default", "rope_theta": 1e4}}}
    np.testing.assert_array_equal(from_config(nested, layer_type="full_attention").inverse_frequencies,
                                  full.inverse_frequencies)
    with pytest.raises(ValueError, match="chunked_attention"):
        from_config(nested, layer_type="chunked_attention")


def test_nope_layers_llama4_smollm3_cohere2():
    llama4 = {"model_type": "llama4", "text_config": {"model_type": "llama4_text", "hidden_size": 5120,
                                                       "num_attention_heads": 40, "num_hidden_layers": 8}}
    assert [rope for _, rope in layer_plan(llama4)] == [True, True, True, False] * 2
    spec = from_config(llama4)
    assert spec.nope_layers == (3, 7) and spec.layers == (0, 1, 2, 4, 5, 6)
    assert spec.base == 5e5 and spec.layout == "interleaved"
    with pytest.raises(ValueError, match="no RoPE"):
        from_config(llama4, layer_type="full_attention")
    # SmolLM3: explicit flags, 1 = uses RoPE.
    smol = {"model_type": "smollm3", "hidden_size": 2048, "num_attention_heads": 16, "num_hidden_layers": 4,
            "no_rope_layers": [1, 0, 1, 1]}
    assert from_config(smol).nope_layers == (1,)
    with pytest.raises(ValueError, match="no_rope_layers"):
        from_config({**smol, "no_rope_layers": [1, 0]})
    # Cohere2: RoPE only on sliding layers (every 4th layer is global NoPE).
    cohere = {"model_type": "cohere2", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 8,
              "sliding_window_pattern": 4}
    spec = from_config(cohere)
    assert spec.nope_layers == (3, 7) and spec.layout == "interleaved"
    assert [t for t, _ in layer_plan(cohere)][:4] == ["sliding_attention"] * 3 + ["full_attention"]


def test_deepseek_mla_slice_and_both_mscale_corrections():
    ds = {"model_type": "deepseek_v3", "hidden_size": 7168, "num_attention_heads": 128, "qk_nope_head_dim": 128,
          "qk_rope_head_dim": 64, "max_position_embeddings": 163840, "rope_theta": 10000,
          "rope_scaling": {"type": "yarn", "factor": 40, "mscale": 1.0, "mscale_all_dim": 1.0,
                           "original_max_position_embeddings": 4096, "beta_fast": 32, "beta_slow": 1}}
    spec = from_config(ds)
    assert (spec.head_dim, spec.rotary_dim, spec.rotary_offset) == (192, 64, 128)
    # mscale = mscale_all_dim: cos/sin factor m(40, 1) / m(40, 1) = 1; softmax (0.1 ln 40 + 1)^2.
    assert spec.attention_factor == 1.0
    assert spec.softmax_scale_factor == pytest.approx((0.1 * np.log(40) + 1) ** 2) == pytest.approx(1.8739, abs=1e-4)
    x = np.random.default_rng(1).standard_normal((3, 192))
    out = spec.apply(x, [0, 5, 9])
    np.testing.assert_array_equal(out[:, :128], x[:, :128])      # the nope part never moves
    np.testing.assert_allclose(np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1))
    # Without mscale keys YaRN's own factor 0.1 ln 40 + 1 multiplies cos and sin instead.
    plain = copy.deepcopy(ds)
    del plain["rope_scaling"]["mscale"], plain["rope_scaling"]["mscale_all_dim"]
    spec = from_config(plain)
    assert spec.attention_factor == pytest.approx(0.1 * np.log(40) + 1) and spec.softmax_scale_factor == 1.0
    assert from_config({**ds, "rope_interleave": False}).layout == "half"


def test_apply_positions_shapes():
    spec = from_config(LLAMA31)
    x = np.random.default_rng(0).standard_normal((2, 3, 5, 128))        # (batch, heads, seq, d)
    per_row = np.arange(10).reshape(2, 1, 5)
    out = spec.apply(x, per_row)
    np.testing.assert_allclose(out[1], spec.apply(x[1], np.arange(5, 10)), atol=1e-12)
    with pytest.raises(ValueError, match=r"\(batch, 1, seq\)"):
        spec.apply(x, np.arange(10).reshape(2, 5))                     # rows would go to heads
    with pytest.raises(ValueError, match="head_dim"):
        spec.apply(x[..., :64])
    with pytest.raises(ValueError, match="integers"):
        spec.apply(x[0, 0], [0.5, 1, 2, 3, 4])
    assert spec.apply(x.astype(np.float32)).dtype == np.float32


def test_dynamic_follows_the_positions_as_transformers_forward_does():
    config = {"model_type": "llama", "head_dim": 64, "max_position_embeddings": 2048,
              "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}
    spec = from_config(config)
    np.testing.assert_array_equal(spec.inverse_frequencies, inverse_frequencies(64))
    # At 4096 tokens: base * (2 * 4096 / 2048 - 1)^(64/62).
    longer = inverse_frequencies(64, 10000.0 * 3.0 ** (64 / 62))
    np.testing.assert_allclose(spec.frequencies_at(4096), longer, rtol=1e-14)
    x = np.ones((1, 64))
    np.testing.assert_allclose(spec.apply(x, [4095]), from_config(config, seq_len=4096).apply(x, [4095]))
    assert not np.allclose(spec.apply(x, [4095]), from_config(config, seq_len=2048).apply(x, [4095]))


@pytest.mark.parametrize("config, error, match", [
    ([("model_type", "llama")], TypeError, "config"),
    ({"model_type": "llama", "rope_theta": 1e4}, ValueError, "head_dim"),
    ({"model_type": "llama", "hidden_size": 4096}, ValueError, "num_attention_heads"),
    ({"model_type": "llama", "head_dim": "128"}, TypeError, "head_dim"),
    ({"model_type": "llama", "head_dim": 128.0}, TypeError, "head_dim"),
    ({"model_type": "llama", "head_dim": 128, "rope_theta": "1e4"}, TypeError, "rope_theta"),
    ({"model_type": "llama", "head_dim": 128, "rope_scaling": {"rope_type": "ntk-by-parts", "factor": 2.0}},
     ValueError, "rope_type"),
    ({"model_type": "llama", "head_dim": 128, "rope_scaling": {"rope_type": "ntk", "factor": 2.0}},
     ValueError, "rope_type"),
    ({"model_type": "llama", "head_dim": 128, "rope_scaling": {"rope_type": "linear"}}, ValueError, "factor"),
    ({"model_type": "llama", "head_dim": 128, "rope_scaling": {"rope_type": "linear", "factor": 2.0,
                                                               "beta_fast": 4}}, ValueError, "beta_fast"),
    ({"model_type": "llama", "head_dim": 128, "rope_scaling": [1, 2]}, TypeError, "rope_scaling"),
    ({"model_type": "llama", "head_dim": 128, "partial_rotary_factor": 1.5}, ValueError,
     r"^config\['partial_rotary_factor'\] must be a number in \(0, 1\]"),
    ({"model_type": "llama", "head_dim": 128, "partial_rotary_factor": "half"}, TypeError,
     r"^config\['partial_rotary_factor'\]"),
    ({"model_type": "llama", "head_dim": 128, "rope_theta": "500000"}, TypeError, r"^config\['rope_theta'\]"),
    ({"model_type": "gpt_neox", "hidden_size": 768, "num_attention_heads": 12, "rotary_emb_base": -1},
     ValueError, r"^config\['rotary_emb_base'\]"),
    ({"model_type": "gpt_neox", "hidden_size": 768, "num_attention_heads": 12, "rotary_pct": 2},
     ValueError, r"^config\['rotary_pct'\]"),
    ({"model_type": "llama", "head_dim": 128, "rope_scaling": {"rope_type": "linear", "factor": 2.0,
                                                               "rope_theta": 0}},
     ValueError, r"^config\['rope_scaling'\]\['rope_theta'\]"),
    ({"model_type": "llama", "head_dim": 64, "num_hidden_layers": -1}, ValueError, "num_hidden_layers"),
    ({"model_type": "llama", "head_dim": 128, "partial_rotary_factor": 0.01}, ValueError, "rotary dimension"),
    ({"model_type": "deepseek_v3", "hidden_size": 7168, "num_attention_heads": 128}, ValueError,
     "qk_rope_head_dim"),
    ({"model_type": 3, "head_dim": 64}, TypeError, "model_type"),
    ({"model_type": "llama", "head_dim": 64, "layer_types": ["full_attention"], "num_hidden_layers": 2},
     ValueError, "layer_types"),
    ({"model_type": "llama", "head_dim": 64, "max_position_embeddings": -1}, ValueError, "max_position_embeddings"),
])
def test_bad_configs_name_the_key(config, error, match):
    with pytest.raises(error, match=match):
        from_config(config)


def test_bad_arguments():
    with pytest.raises(TypeError, match="layer_type"):
        from_config(LLAMA31, layer_type=3)
    with pytest.raises(ValueError, match="layer_type"):
        from_config(LLAMA31, layer_type="sliding_attention")      # llama has no layer types
    with pytest.raises(ValueError, match="seq_len"):
        from_config(LLAMA31, seq_len=-5)
    with pytest.raises(ValueError, match="per layer type"):
        from_config({"model_type": "gemma4_text", "head_dim": 256, "num_hidden_layers": 6})


def test_unknown_top_level_keys_are_ignored():
    noisy = {**LLAMA31, **{f"unrelated_key_{i}": i for i in range(200)}, "quantization_config": {"bits": 4}}
    np.testing.assert_array_equal(from_config(noisy).inverse_frequencies, from_config(LLAMA31).inverse_frequencies)


V4_ROPE_KEYS = ("rope_theta", "rope_scaling", "partial_rotary_factor", "rotary_pct", "rotary_emb_base",
                "rope_local_base_freq", "global_rope_theta", "local_rope_theta")


@pytest.mark.parametrize("name", rope_core.atlas.names())
def test_rope_parameters_is_the_v5_form_of_every_atlas_config(name):
    from rope_core.config import rope_parameters
    config = rope_core.atlas.entry(name).config_dict()
    text = config.get("text_config", config)
    block = rope_parameters(config)
    if "rope_parameters" in text:                      # already v5: unchanged apart from defaults
        assert block.keys() == text["rope_parameters"].keys()
    for key in V4_ROPE_KEYS:                           # the v5 config keeps none of the v4 keys
        text.pop(key, None)
    text["rope_parameters"] = block
    for layer_type, spec in rope_core.atlas.specs(name).items():
        again = from_config(config, layer_type=layer_type)
        assert (again.rope_type, again.base, again.rotary_dim, again.layout, again.attention_factor,
                again.softmax_scale_factor) == (spec.rope_type, spec.base, spec.rotary_dim, spec.layout,
                                                spec.attention_factor, spec.softmax_scale_factor)
        np.testing.assert_array_equal(again.inverse_frequencies, spec.inverse_frequencies)


# --- model types: known, unknown, and the keys families add ----------------------------------

def test_the_known_model_types_are_a_public_sorted_list():
    assert list(MODEL_TYPES) == sorted(MODEL_TYPES)
    for model_type in ("llama", "mistral", "qwen3_next", "glm4_moe", "minimax_m2", "exaone4",
                       "deepseek_v3", "kimi_k2", "gemma3", "gemma3_text", "llama4"):
        assert model_type in MODEL_TYPES
    assert "totally_new_model" not in MODEL_TYPES


def test_an_unknown_model_type_warns_naming_it_and_what_was_assumed():
    config = {"model_type": "totally_new_model", "hidden_size": 1024, "num_attention_heads": 8,
              "num_hidden_layers": 4}
    with pytest.warns(RopeConfigWarning) as caught:
        spec = from_config(config)
    (warning,) = caught
    message = str(warning.message)
    assert message.startswith("unknown model_type 'totally_new_model' read generically")
    for assumed in ("RoPE on all 4 layers", "base 10000", "rotary dim 128 of head_dim 128 = hidden_size // "
                    "num_attention_heads", "layout 'half' (rotate_half pairs i and i + 64)"):
        assert assumed in message
    assert spec.guesses == (message,)
    assert (spec.rotary_dim, spec.layout) == (128, "half")
    with pytest.warns(RopeConfigWarning, match="no model_type"):
        from_config({"head_dim": 64})
    with pytest.raises(ValueError, match="'totally_new_model'.*strict=True"):
        from_config(config, strict=True)
    with pytest.raises(TypeError, match="strict"):
        from_config(config, strict="yes")


def test_a_layer_count_under_another_name_is_read():
    config = {"model_type": "totally_new_model", "head_dim": 64, "num_layers": 6}
    with pytest.warns(RopeConfigWarning, match="all 6 layers"):
        assert from_config(config).layers == tuple(range(6))


def test_an_unknown_model_type_with_rotary_dim_is_an_error_not_a_guess():
    """transformers' shared code ignores rotary_dim; GPT-J and MiniMax-M2 obey it: no generic
    reading is right, so the error says how to state it."""
    config = {"model_type": "totally_new_model", "hidden_size": 1024, "num_attention_heads": 8,
              "rotary_dim": 32}
    with pytest.raises(ValueError, match=r"'rotary_dim' = 32.*partial_rotary_factor = rotated features / head_dim"):
        from_config(config)
    with pytest.warns(RopeConfigWarning):  # stated both ways and consistent: a guess, no error
        assert from_config({**config, "partial_rotary_factor": 0.25}).rotary_dim == 32


@pytest.mark.parametrize("key, value, meaning", [
    ("rope_local_base_freq", 10000.0, "a second RoPE base"),
    ("sliding_rope_theta", 10000.0, "a second RoPE base"),
    ("qk_rope_head_dim", 64, "MLA-style split heads"),
    ("hybrid_override_pattern", "M-M-M*-", "which layers are softmax attention"),
    ("layers_block_type", ["mamba", "attention"], "which layers are softmax attention"),
    ("attn_layer_indices", [3, 7], "which layers are softmax attention"),
    ("no_rope_layers", [1, 1, 0, 1], "which layers use RoPE"),
    ("use_rope", False, "a position scheme other than RoPE"),
    ("position_embedding_type", "alibi", "a position scheme other than RoPE"),
    ("alibi", True, "a position scheme other than RoPE"),
    ("rope_mode", "2d", "a RoPE setting the generic reading does not read"),
    ("kv_channels", 128, "the head width under another name"),
])
def test_an_unknown_type_with_a_key_the_generic_reading_cannot_express_is_refused(key, value, meaning):
    config = {"model_type": "totally_new_model", "hidden_size": 1024, "num_attention_heads": 8,
              "num_hidden_layers": 4, key: value}
    with pytest.raises(ValueError) as caught:
        from_config(config)
    message = str(caught.value)
    assert "'totally_new_model'" in message and repr(key) in message and meaning in message
    assert "To read it:" in message


def test_dynamic_blocks_refuse_keys_transformers_does_not_read_and_hunyuan_reads_alpha():
    base = {"model_type": "llama", "head_dim": 128, "max_position_embeddings": 4096}
    with pytest.raises(ValueError, match=r"\['alpha', 'typo'\].*HunYuan"):
        from_config({**base, "rope_scaling": {"rope_type": "dynamic", "factor": 2, "alpha": 1000, "typo": 9}})
    with pytest.raises(ValueError, match=r"\['typo_facter'\]"):
        from_config({**base, "rope_scaling": {"rope_type": "dynamic", "factor": 2, "typo_facter": 9}})
    assert from_config({**base, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}).rope_type == "dynamic"
    # modeling_hunyuan_v1_dense.py compute_ntk_alpha_rope_parameters: base * alpha ** (d / (d - 2))
    hunyuan = {**base, "model_type": "hunyuan_v1_dense", "rope_theta": 10000.0,
               "rope_scaling": {"rope_type": "dynamic", "factor": 1.0, "alpha": 1000.0}}
    spec = from_config(hunyuan)
    expected = (10000.0 * 1000.0 ** (128 / 126)) ** -(np.arange(0, 128, 2) / 128)
    np.testing.assert_allclose(spec.inverse_frequencies, expected, rtol=1e-12)
    np.testing.assert_array_equal(spec.frequencies_at(10 ** 6), spec.inverse_frequencies)  # fixed


@pytest.mark.parametrize("change, key", [
    ({"head_dim": 10 ** 7}, "head_dim"),
    ({"hidden_size": 10 ** 9, "num_attention_heads": 2}, "hidden_size"),
    ({"num_hidden_layers": 10 ** 7}, "num_hidden_layers"),
    ({"max_position_embeddings": 10 ** 15}, "max_position_embeddings"),
    ({"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 10 ** 15}},
     "original_max_position_embeddings"),
])
def test_sizes_are_bounded_and_the_error_names_the_key(change, key):
    config = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, **change}
    with pytest.raises(ValueError, match=f"{key}.*(is not a|at most)"):
        from_config(config)


def test_layer_kinds_without_attention_apply_no_rope_and_unknown_kinds_are_errors():
    config = {"model_type": "some_hybrid", "head_dim": 64, "num_hidden_layers": 4,
              "layer_types": ["linear_attention", "full_attention", "conv", "full_attention"]}
    with pytest.warns(RopeConfigWarning):
        spec = from_config(config)
    assert (spec.layers, spec.nope_layers) == ((1, 3), (0, 2))
    with pytest.raises(ValueError, match="'linear_attention' use no RoPE"):
        from_config(config, layer_type="linear_attention")  # layers of that type use no RoPE
    strange = {**config, "layer_types": ["hybrid", "full_attention", "full_attention", "full_attention"]}
    with pytest.raises(ValueError, match=r"\['hybrid'\]"):
        from_config(strange)


def test_family_rules_minimax_exaone_qwen3_next_glm():
    minimax = {"model_type": "minimax_m2", "hidden_size": 3072, "num_attention_heads": 48, "head_dim": 128,
               "rotary_dim": 64, "rope_theta": 5e6}
    assert from_config(minimax).rotary_dim == 64
    # an explicit partial_rotary_factor wins over rotary_dim (MiniMaxM2Config.convert_rope_params_to_dict)
    assert from_config({**minimax, "partial_rotary_factor": 0.25}).rotary_dim == 32
    exaone = {"model_type": "exaone4", "head_dim": 128, "num_hidden_layers": 8, "sliding_window": 4096,
              "sliding_window_pattern": 4}
    assert from_config(exaone).layers == (0, 1, 2, 4, 5, 6)
    assert from_config({**exaone, "sliding_window_pattern": "LLLG"}).layers == (0, 1, 2, 4, 5, 6)
    assert from_config({**exaone, "sliding_window": None}).layers == tuple(range(8))
    qwen = {"model_type": "qwen3_next", "head_dim": 256, "num_hidden_layers": 8}
    spec = from_config(qwen)
    assert (spec.rotary_dim, spec.layers) == (64, (3, 7))
    assert from_config({**qwen, "full_attention_interval": 2}).layers == (1, 3, 5, 7)
    assert from_config({"model_type": "glm4_moe", "head_dim": 128}).rotary_dim == 64
