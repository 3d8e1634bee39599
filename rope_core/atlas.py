r"""The RoPE of real models, as data: a model atlas.

Each entry holds the rope-relevant keys of a model's published ``config.json`` (written out by
hand, with where they came from), what the model is, and notes on what its RoPE does. Read it
with :func:`names`, :func:`entry` and :func:`specs`; the book's model tables are generated from
it, and ``scripts/golden_rope.py`` feeds the same configs to transformers to check
:func:`rope_core.from_config` against it (``tests/fixtures/rope_golden.json``).

Sources: the Hugging Face Hub's ``config.json`` files could not be read from where this atlas
was written. Each entry says what its values rest on: ``"class defaults"`` (transformers'
configuration class defaults are that checkpoint's values, stated in the class docstring),
``"mirror"`` (a copy of the Hub file in a public repository, named), ``"docs"`` (the model's
own documentation), or ``"review"`` (the project's model survey, itself from mirrors).
``status`` is ``"verified"`` when two independent sources agree on every rope value.

>>> names()[:3]
('gpt-j-6b', 'gpt-neox-20b', 'llama-2-7b')
>>> entry("llama-3.1-8b").config["rope_scaling"]["factor"]
8.0
>>> spec = specs("gemma-3-4b")["full_attention"]
>>> spec.rope_type, spec.base
('linear', 1000000.0)
"""

from __future__ import annotations

import copy
import html
import json
from dataclasses import dataclass
from types import MappingProxyType

from .config import from_config, layer_plan, published_config, rope_parameters

__all__ = ["ARCHITECTURES", "FAMILIES", "SCALED_ROPE_TYPES", "SCALING_BLOCKS", "Architecture", "ModelEntry",
           "architecture", "entries", "entry", "html_table", "names", "scaling_block_config",
           "scaling_block_rows", "specs", "table_rows"]


@dataclass(frozen=True)
class ModelEntry:
    """One model of the atlas.

    Attributes
    ----------
    name : str
        Short identifier, e.g. ``"llama-3.1-8b"``.
    title : str
        Display name, e.g. ``"Llama 3.1 8B"``.
    hub_id : str
        The checkpoint whose ``config.json`` the entry copies.
    year : int
        Release year.
    config : mapping
        The rope-relevant keys of that ``config.json`` (read-only; :meth:`config_dict` gives a
        fresh, writable copy).
    source : str
        Where the values come from (see the module docstring).
    status : str
        ``"verified"`` or ``"mirror"`` (one copy of the Hub file) or ``"class defaults"``.
    notes : str
        What the model's RoPE does that a reader should know.
    scaling_trained : bool or None
        Whether the model was *trained* with its config's context scaling (``True``: the
        scaling is part of the model, as for Llama 3.1 or DeepSeek-V3, and
        ``original_max_position_embeddings`` is only the length the formula starts from), or
        the scaling block is an inference-time extension added to a model trained without it
        (``False``: Qwen3 + YaRN). ``None`` when no layer type scales its frequencies.
    scaling_source : str
        Where :attr:`scaling_trained` comes from ("" when it is ``None``).
    """

    name: str
    title: str
    hub_id: str
    year: int
    config: MappingProxyType
    source: str
    status: str
    notes: str
    scaling_trained: bool | None = None
    scaling_source: str = ""

    def config_dict(self):
        """A deep, writable copy of :attr:`config`, ready for :func:`rope_core.from_config`."""
        return _thaw(self.config)


#: rope_type values that change frequencies for a longer context (``scaling_trained`` applies).
SCALED_ROPE_TYPES = frozenset({"linear", "dynamic", "yarn", "llama3", "longrope"})


def _freeze(value):
    if isinstance(value, dict):
        return MappingProxyType({key: _freeze(item) for key, item in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(item) for item in value)
    return value


def _thaw(value):
    if isinstance(value, MappingProxyType):
        return {key: _thaw(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_thaw(item) for item in value]
    return copy.copy(value)


_PHI35_LONG = [
    1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601,
    1.5899999141693115, 1.600000023841858, 1.6200000047683716, 2.620000123977661,
    3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432,
    7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945, 24.46000099182129,
    28.57000160217285, 30.420001983642578, 30.840002059936523, 32.590003967285156,
    32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156,
    50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457,
    62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457,
    63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688,
    64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336,
    64.51000213623047, 64.52999877929688, 64.83999633789062
]
_PHI35_SHORT = [
    1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842,
    1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842,
    1.0699999332427979, 1.0999999046325684, 1.1099998950958252, 1.1599998474121094,
    1.1599998474121094, 1.1699998378753662, 1.2899998426437378, 1.339999794960022,
    1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788,
    1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745,
    2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
    2.0199997425079346, 2.0199997425079346, 2.0299997329711914, 2.0299997329711914,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756,
    2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533,
    2.729999542236328, 2.749999523162842, 2.8399994373321533
]

_LLAMA31_SCALING = {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                    "original_max_position_embeddings": 8192, "rope_type": "llama3"}

_DATA = [
    dict(name="gpt-j-6b", title="GPT-J 6B", hub_id="EleutherAI/gpt-j-6b", year=2021,
         config={"model_type": "gptj", "n_embd": 4096, "n_head": 16, "n_layer": 28,
                 "n_positions": 2048, "rotary_dim": 64},
         source="transformers GPTJConfig defaults (its docstring: 'similar to EleutherAI/gpt-j-6B'); "
                "base 10000 hard-coded in modeling_gptj.create_sinusoidal_positions",
         status="class defaults",
         notes="Rotates only the first 64 of each head's 256 features, in interleaved pairs "
               "(rotate_every_two), with frequencies spread over those 64."),
    dict(name="gpt-neox-20b", title="GPT-NeoX 20B", hub_id="EleutherAI/gpt-neox-20b", year=2022,
         config={"model_type": "gpt_neox", "hidden_size": 6144, "num_attention_heads": 64,
                 "num_hidden_layers": 44, "max_position_embeddings": 2048, "rotary_pct": 0.25,
                 "rotary_emb_base": 10000},
         source="transformers GPTNeoXConfig defaults (its docstring: EleutherAI/gpt-neox-20b)",
         status="class defaults",
         notes="rotary_pct 0.25: 24 of 96 features rotate (the 'half' layout is named after this "
               "model), frequencies computed over the 24 rotated features."),
    dict(name="llama-2-7b", title="Llama 2 7B", hub_id="meta-llama/Llama-2-7b-hf", year=2023,
         config={"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
                 "num_key_value_heads": 32, "num_hidden_layers": 32, "max_position_embeddings": 4096,
                 "rope_theta": 10000.0, "rope_scaling": None},
         source="Meta's llama/model.py precompute_freqs_cis(theta=10000.0); transformers LlamaConfig "
                "defaults (its docstring: Llama-2-7b)",
         status="verified",
         notes="Meta's code rotates interleaved pairs (view_as_complex); the Hugging Face "
               "checkpoints permute the q/k rows so that transformers' half layout gives the same "
               "scores (convert_llama_weights_to_hf.py permute)."),
    dict(name="mistral-7b-v0.1", title="Mistral 7B v0.1", hub_id="mistralai/Mistral-7B-v0.1", year=2023,
         config={"model_type": "mistral", "hidden_size": 4096, "num_attention_heads": 32,
                 "num_key_value_heads": 8, "num_hidden_layers": 32, "max_position_embeddings": 32768,
                 "rope_theta": 10000.0, "sliding_window": 4096},
         source="transformers MistralConfig defaults (its docstring: Mistral-7B-v0.1)",
         status="class defaults",
         notes="Every layer attends within a 4096-token sliding window, so no query ever sees a "
               "key more than 4096 positions back through one layer."),
    dict(name="llama-3-8b", title="Llama 3 8B", hub_id="meta-llama/Meta-Llama-3-8B", year=2024,
         config={"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
                 "num_key_value_heads": 8, "num_hidden_layers": 32, "max_position_embeddings": 8192,
                 "rope_theta": 500000.0, "rope_scaling": None},
         source="meta-llama/llama-models models/llama3/args.py (rope_theta=500000), sku_list "
                "use_scaled_rope False; the 8192 context from its apply_scaling comment",
         status="verified",
         notes="The base raised from 10 000 to 500 000 before training: the slowest pair's "
               "wavelength grows from 54 000 to 2.6 million tokens."),
    dict(name="llama-3.1-8b", title="Llama 3.1 8B", hub_id="meta-llama/Llama-3.1-8B", year=2024,
         config={"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
                 "num_key_value_heads": 8, "num_hidden_layers": 32, "max_position_embeddings": 131072,
                 "rope_theta": 500000.0, "rope_scaling": dict(_LLAMA31_SCALING)},
         source="llama-models models/llama3/reference_impl/model.py apply_scaling (8, 1, 4, 8192 "
                "hard-coded); several copies of the Hub config.json",
         status="verified",
         notes="llama3 scaling: wavelengths under 8192/4 = 2048 tokens kept, over 8192 divided by "
               "8, a ramp linear in turns between; no attention factor.",
         scaling_trained=True,
         scaling_source="an inference, not a statement of Meta's: the Llama 3 report (arXiv 2407.21783) sec. 3.4.2 describes long-context pre-training in six stages from 8K to 128K but not the RoPE scaling; llama-models sku_list sets use_scaled_rope for every 3.1 checkpoint, so Meta's reference model runs them with this block"),
    dict(name="llama-3.2-1b", title="Llama 3.2 1B", hub_id="meta-llama/Llama-3.2-1B", year=2024,
         config={"model_type": "llama", "hidden_size": 2048, "num_attention_heads": 32,
                 "num_key_value_heads": 8, "head_dim": 64, "num_hidden_layers": 16,
                 "max_position_embeddings": 131072, "rope_theta": 500000.0,
                 "rope_scaling": {**_LLAMA31_SCALING, "factor": 32.0}},
         source="copies of the Hub config.json (mirror); factor 32 confirmed by a Meta maintainer "
                "in meta-llama/llama-models#166 and #241",
         status="verified",
         notes="Factor 32, not 3.1's 8: Meta's reference code hard-coded 8, which degrades output "
               "around 80K tokens (llama-models#166); the Hub config was the fix.",
         scaling_trained=True,
         scaling_source='Llama 3.2 model card (128K context, pretrained by pruning and distilling 3.1 8B); a Meta maintainer in meta-llama/llama-models#166 and #241: the released 1B/3B use factor 32'),
    dict(name="phi-3.5-mini", title="Phi-3.5-mini-instruct", hub_id="microsoft/Phi-3.5-mini-instruct",
         year=2024,
         config={"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32,
                 "num_key_value_heads": 32, "num_hidden_layers": 32, "max_position_embeddings": 131072,
                 "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
                 "sliding_window": 262144,
                 "rope_scaling": {"long_factor": _PHI35_LONG, "short_factor": _PHI35_SHORT,
                                  "type": "longrope"}},
         source="a copy of the Hub config.json in an ONNX export example (mirror); the list "
                "lengths (48 = 96 / 2) checked by transformers' Phi3Config validation",
         status="mirror",
         notes="LongRoPE: one searched factor per pair, short_factor up to 4096 tokens and "
               "long_factor (up to 64.8 on the slowest pairs) beyond; attention factor "
               "sqrt(1 + ln 32 / ln 4096) = 1.19. transformers throws the KV cache away when a "
               "sequence crosses 4096 (PR #33129).",
         scaling_trained=True,
         scaling_source='Phi-3 technical report (arXiv 2404.14219): the 128K models get LongRoPE during long-context mid-training'),
    dict(name="gemma-2-9b", title="Gemma 2 9B", hub_id="google/gemma-2-9b", year=2024,
         config={"model_type": "gemma2", "hidden_size": 3584, "num_attention_heads": 16,
                 "num_key_value_heads": 8, "head_dim": 256, "num_hidden_layers": 42,
                 "max_position_embeddings": 8192, "rope_theta": 10000.0, "sliding_window": 4096},
         source="google-deepmind/gemma _gemma.py (no base override: 10 000); the 9B shape from "
                "maxtext's hf_model_configs.py gemma2_9b_config (mirror)",
         status="verified",
         notes="Local (4096-token window) and global layers alternate 1:1 and share one base."),
    dict(name="qwen2-vl-7b", title="Qwen2-VL 7B", hub_id="Qwen/Qwen2-VL-7B-Instruct", year=2024,
         config={"model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28,
                 "num_key_value_heads": 4, "num_hidden_layers": 28, "max_position_embeddings": 32768,
                 "rope_theta": 1000000.0,
                 "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}},
         source="several copies of the Hub config.json (mirror); transformers Qwen2VLConfig "
                "default_theta 1e6 and its 'mrope' -> 'default' conversion",
         status="mirror",
         notes="M-RoPE: pairs 0-15 read the temporal position, 16-39 the height, 40-63 the width "
               "(contiguous bands); for text tokens all three are the same position."),
    dict(name="qwen2.5-7b", title="Qwen2.5 7B Instruct", hub_id="Qwen/Qwen2.5-7B-Instruct", year=2024,
         config={"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28,
                 "num_key_value_heads": 4, "num_hidden_layers": 28, "max_position_embeddings": 32768,
                 "rope_theta": 1000000.0, "rope_scaling": None, "sliding_window": 131072,
                 "use_sliding_window": False},
         source="review (mirror-level); Qwen's docs add YaRN x4 from 32768 for 128K inputs",
         status="mirror",
         notes="Base 1e6 with long-context training to 32K; YaRN only when a deployment adds it."),
    dict(name="modernbert-base", title="ModernBERT base", hub_id="answerdotai/ModernBERT-base", year=2024,
         config={"model_type": "modernbert", "hidden_size": 768, "num_attention_heads": 12,
                 "num_hidden_layers": 22, "max_position_embeddings": 8192,
                 "global_rope_theta": 160000.0, "local_rope_theta": 10000.0,
                 "global_attn_every_n_layers": 3, "local_attention": 128},
         source="transformers ModernBertConfig defaults (its docstring: ModernBERT-base; "
                "default_theta global 160 000, local 10 000)",
         status="class defaults",
         notes="An encoder: every third layer (from layer 0) attends globally with base 160 000, "
               "the others within 128 tokens with base 10 000."),
    dict(name="command-r7b", title="Command R7B", hub_id="CohereLabs/c4ai-command-r7b-12-2024", year=2024,
         config={"model_type": "cohere2", "hidden_size": 4096, "num_attention_heads": 32,
                 "num_key_value_heads": 8, "num_hidden_layers": 32, "max_position_embeddings": 8192,
                 "rope_theta": 50000.0, "sliding_window": 4096, "sliding_window_pattern": 4},
         source="review (ports of the Hub config); the NoPE rule from transformers "
                "modeling_cohere2.py (RoPE only where sliding_window is set)",
         status="mirror",
         notes="Three sliding-window layers with interleaved RoPE, then one global layer with no "
               "positional encoding at all (NoPE)."),
    dict(name="deepseek-v2-lite", title="DeepSeek-V2-Lite", hub_id="deepseek-ai/DeepSeek-V2-Lite", year=2024,
         config={"model_type": "deepseek_v2", "hidden_size": 2048, "num_attention_heads": 16,
                 "num_hidden_layers": 27, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
                 "v_head_dim": 128, "kv_lora_rank": 512, "q_lora_rank": None,
                 "max_position_embeddings": 163840, "rope_theta": 10000,
                 "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 0.707,
                                  "mscale_all_dim": 0.707, "original_max_position_embeddings": 4096,
                                  "type": "yarn"}},
         source="review: deepseek-ai/DeepSeek-V3 repository config_16B.json (mscale 0.707) and "
                "copies of the Hub rope_scaling (mirror)",
         status="mirror",
         notes="MLA with a separate 64-feature RoPE head; equal mscale and mscale_all_dim make "
               "the cos/sin factor 1, and the whole YaRN temperature goes into the softmax scale "
               "(x1.590).",
         scaling_trained=True,
         scaling_source='DeepSeek-V2 report (arXiv 2405.04434) sec. 3.1.4: YaRN from 4K to 128K, then 1000 training steps at 32K'),
    dict(name="deepseek-v3", title="DeepSeek-V3", hub_id="deepseek-ai/DeepSeek-V3", year=2024,
         config={"model_type": "deepseek_v3", "hidden_size": 7168, "num_attention_heads": 128,
                 "num_hidden_layers": 61, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
                 "v_head_dim": 128, "kv_lora_rank": 512, "q_lora_rank": 1536,
                 "max_position_embeddings": 163840, "rope_theta": 10000,
                 "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
                                  "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096,
                                  "type": "yarn"}},
         source="DeepSeek-V3 inference/model.py (ModelArgs, softmax_scale *= mscale**2); several "
                "copies of the Hub config.json",
         status="verified",
         notes="YaRN x40 on the 64 RoPE features of each MLA head (interleaved); mscale = "
               "mscale_all_dim = 1 gives a cos/sin factor of 1 and a softmax scale x1.874 = "
               "(0.1 ln 40 + 1)^2.",
         scaling_trained=True,
         scaling_source='DeepSeek-V3 report (arXiv 2412.19437) sec. 4.3: YaRN, then two 1000-step phases, 4K to 32K to 128K'),
    dict(name="gemma-3-4b", title="Gemma 3 4B", hub_id="google/gemma-3-4b-it", year=2025,
         config={"model_type": "gemma3",
                 "text_config": {"model_type": "gemma3_text", "hidden_size": 2560,
                                 "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
                                 "num_hidden_layers": 34, "max_position_embeddings": 131072,
                                 "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0,
                                 "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
                                 "sliding_window": 1024, "sliding_window_pattern": 6}},
         source="google-deepmind/gemma _gemma.py (global_scale_factor 8, local/global base "
                "frequencies); transformers Gemma3TextConfig (rope_local_base_freq, pattern 6)",
         status="verified",
         notes="Five local layers (1024-token window, base 10 000, unscaled) to one global layer "
               "(base 1e6, linear x8). Scaling only the global layers is right: a local layer "
               "never sees a distance beyond its window.",
         scaling_trained=True,
         scaling_source='Gemma 3 technical report (arXiv 2503.19786) sec. 2: pre-trained at 32K, scaled to 128K at the end of pre-training with RoPE rescaled by 8'),
    dict(name="llama-4-scout", title="Llama 4 Scout", hub_id="meta-llama/Llama-4-Scout-17B-16E-Instruct",
         year=2025,
         config={"model_type": "llama4",
                 "text_config": {"model_type": "llama4_text", "hidden_size": 5120,
                                 "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128,
                                 "num_hidden_layers": 48, "max_position_embeddings": 10485760,
                                 "rope_theta": 500000.0,
                                 "rope_scaling": {"factor": 16.0, "high_freq_factor": 1.0,
                                                  "low_freq_factor": 1.0,
                                                  "original_max_position_embeddings": 8192,
                                                  "rope_type": "llama3"},
                                 "no_rope_layers": [1, 1, 1, 0] * 12, "attention_chunk_size": 8192,
                                 "attn_temperature_tuning": True, "floor_scale": 8192,
                                 "attn_scale": 0.1, "use_qk_norm": True}},
         source="copies of the Hub config.json in vLLM/TPU ports citing it (mirror); the "
                "post-release fix in llama-models commit 408c577 (PR #322)",
         status="verified",
         notes="iRoPE: three chunked-attention layers with RoPE (interleaved), then one global "
               "NoPE layer whose queries are scaled by 1 + 0.1 ln(floor((m + 1)/8192) + 1). "
               "Meta's reference code used Llama 3.1's factor 8 / high 4 until llama-models PR #322 "
               "set 16 / high = low = 1: every wavelength over 8192 is divided by 16, the others kept.",
         scaling_trained=True,
         scaling_source="llama-models models/llama4/args.py ('only Llama-4-Scout uses scaled rope') and Meta's Llama 4 model card (Scout pre- and post-trained at 256K)"),
    dict(name="llama-4-maverick", title="Llama 4 Maverick",
         hub_id="meta-llama/Llama-4-Maverick-17B-128E-Instruct", year=2025,
         config={"model_type": "llama4",
                 "text_config": {"model_type": "llama4_text", "hidden_size": 5120,
                                 "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128,
                                 "num_hidden_layers": 48, "max_position_embeddings": 1048576,
                                 "rope_theta": 500000.0, "rope_scaling": None,
                                 "no_rope_layers": [1, 1, 1, 0] * 12, "attention_chunk_size": 8192,
                                 "attn_temperature_tuning": True, "floor_scale": 8192,
                                 "attn_scale": 0.1, "use_qk_norm": False}},
         source="review: llama-models models/llama4/args.py ('only Llama-4-Scout uses scaled "
                "rope'); use_qk_norm false per transformers modeling_llama4.py ('the 128E model does "
                "not use qk_norm'); the 1M context of the Hub config is not verified here",
         status="mirror",
         notes="The same iRoPE layer plan as Scout, without frequency scaling."),
    dict(name="qwen3-8b", title="Qwen3 8B", hub_id="Qwen/Qwen3-8B", year=2025,
         config={"model_type": "qwen3", "hidden_size": 4096, "num_attention_heads": 32,
                 "num_key_value_heads": 8, "head_dim": 128, "num_hidden_layers": 36,
                 "max_position_embeddings": 40960, "rope_theta": 1000000, "rope_scaling": None},
         source="review: QwenLM/Qwen3 docs and a copy of Qwen3-1.7B's config (theta 1e6, 40 960)",
         status="mirror",
         notes="Trained to 32 768 tokens; max_position_embeddings 40 960 = 32K output + 8K prompt."),
    dict(name="qwen3-8b-yarn", title="Qwen3 8B + YaRN x4", hub_id="Qwen/Qwen3-8B", year=2025,
         config={"model_type": "qwen3", "hidden_size": 4096, "num_attention_heads": 32,
                 "num_key_value_heads": 8, "head_dim": 128, "num_hidden_layers": 36,
                 "max_position_embeddings": 40960, "rope_theta": 1000000,
                 "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
                                  "original_max_position_embeddings": 32768}},
         source="the rope_scaling block QwenLM/Qwen3's docs tell users to add for 131 072 tokens",
         status="docs",
         notes="Static YaRN: the same frequencies whatever the input length, so the Qwen docs warn "
               "it 'may impact performance on shorter texts' and advise factor 2 for 65 536.",
         scaling_trained=False,
         scaling_source='QwenLM/Qwen3 README: Qwen3 natively handles 32 768 tokens; the YaRN block is added at deployment for longer inputs'),
    dict(name="qwen3-vl-8b", title="Qwen3-VL 8B", hub_id="Qwen/Qwen3-VL-8B-Instruct", year=2025,
         config={"model_type": "qwen3_vl",
                 "text_config": {"model_type": "qwen3_vl_text", "hidden_size": 4096,
                                 "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
                                 "num_hidden_layers": 36, "max_position_embeddings": 262144,
                                 "rope_theta": 5000000,
                                 "rope_scaling": {"mrope_interleaved": True,
                                                  "mrope_section": [24, 20, 20],
                                                  "rope_type": "default"}}},
         source="review: QwenLM/Qwen3-VL README and a copy of the Hub config (theta 5e6, mirror); "
                "transformers' Qwen3VLTextConfig default_theta is 5e5 and differs",
         status="mirror",
         notes="Interleaved M-RoPE: pairs go round-robin t, h, w over the first 60 and the last 4 "
               "are t, so each axis gets high and low frequencies."),
    dict(name="smollm3-3b", title="SmolLM3 3B", hub_id="HuggingFaceTB/SmolLM3-3B", year=2025,
         config={"model_type": "smollm3", "hidden_size": 2048, "num_attention_heads": 16,
                 "num_key_value_heads": 4, "num_hidden_layers": 36, "max_position_embeddings": 65536,
                 "rope_theta": 5000000.0, "no_rope_layers": [1, 1, 1, 0] * 9,
                 "no_rope_layer_interval": 4, "use_sliding_window": False, "sliding_window": None},
         source="copies of the Hub config.json in two ports (mirror; rope_theta 5e6, no_rope_layers)",
         status="mirror",
         notes="Every fourth layer applies no RoPE (no_rope_layers[i] == 0; 1 means the layer "
               "uses RoPE, despite the name)."),
    dict(name="gpt-oss-20b", title="gpt-oss-20b", hub_id="openai/gpt-oss-20b", year=2025,
         config={"model_type": "gpt_oss", "hidden_size": 2880, "num_attention_heads": 64,
                 "num_key_value_heads": 8, "head_dim": 64, "num_hidden_layers": 24,
                 "max_position_embeddings": 131072, "rope_theta": 150000,
                 "rope_scaling": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0,
                                  "original_max_position_embeddings": 4096, "rope_type": "yarn",
                                  "truncate": False},
                 "sliding_window": 128,
                 "layer_types": ["sliding_attention", "full_attention"] * 12},
         source="transformers GptOssConfig defaults (default_theta 150 000; its rope_parameters "
                "default is this block)",
         status="class defaults",
         notes="YaRN x32 with truncate: false, so the ramp runs between the unrounded pair "
               "indices 8.09 and 17.40; cos/sin factor 0.1 ln 32 + 1 = 1.347.",
         scaling_trained=True,
         scaling_source='gpt-oss model card (arXiv 2508.10925) sec. 2: YaRN extends the dense layers to 131 072 tokens during pre-training'),
    dict(name="gemma-4", title="Gemma 4 (class defaults)", hub_id="google/gemma-4-e2b-it", year=2026,
         config={"model_type": "gemma4_text", "hidden_size": 2304, "num_attention_heads": 8,
                 "num_key_value_heads": 4, "head_dim": 256, "global_head_dim": 512,
                 "num_hidden_layers": 30, "max_position_embeddings": 131072, "sliding_window": 512,
                 "rope_parameters": {
                     "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                     "full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.25,
                                        "rope_theta": 1000000.0}}},
         source="transformers Gemma4TextConfig defaults (rope_parameters, global_head_dim 512); "
                "google-deepmind/gemma gemma4 _gemma4.py (global_rope_proportion 0.25)",
         status="class defaults",
         notes="Global layers use p-RoPE (transformers' 'proportional'): with a 512-wide head, "
               "only the 64 fastest of 256 pairs turn, the slowest of them every 188 tokens; the "
               "other 192 pairs carry no position at all."),
]

_ENTRIES = tuple(ModelEntry(**{**item, "config": _freeze(item["config"])}) for item in _DATA)
_BY_NAME = {item.name: item for item in _ENTRIES}


def names():
    """The atlas's model names, oldest first (the order of the book's tables and menus).

    Returns
    -------
    tuple of str
    """
    return tuple(item.name for item in _ENTRIES)


def entries():
    """Every :class:`ModelEntry`, in :func:`names` order."""
    return _ENTRIES


def entry(name):
    """The :class:`ModelEntry` called ``name``.

    Raises
    ------
    KeyError
        For a name not in the atlas; the message lists the names.
    """
    if not isinstance(name, str) or name not in _BY_NAME:
        raise KeyError(f"no model {name!r} in the atlas; it has {names()}")
    return _BY_NAME[name]


def specs(name, *, seq_len=None):
    """The model's RoPE per layer type, as :class:`rope_core.RopeSpec` objects.

    Parameters
    ----------
    name : str
        An atlas name (see :func:`names`).
    seq_len : float, optional
        Passed to :func:`rope_core.from_config` (dynamic NTK, LongRoPE).

    Returns
    -------
    dict
        ``{layer_type: RopeSpec}`` for each layer type that applies RoPE, in the order the types
        first appear among the layers; ``{None: RopeSpec}`` for a model without layer types.
        Layer types whose layers apply no RoPE (Llama 4's global layers, Command R7B's) are left
        out; every spec's ``nope_layers`` lists them.
    """
    config = entry(name).config_dict()
    plan = layer_plan(config)
    order = []
    for layer_type, uses_rope in plan:
        if uses_rope and layer_type not in order:
            order.append(layer_type)
    if not order:
        order = [None]
    return {layer_type: from_config(config, layer_type=layer_type, seq_len=seq_len) for layer_type in order}


#: Columns of :func:`table_rows`, with their headings.
TABLE_COLUMNS = {
    "model": "model", "layers": "layers", "rope_type": "rope_type", "base": "base",
    "rotary": "rotated / head dim", "layout": "layout", "factor": "factor",
    "training": "trained to", "context": "max positions", "attention_factor": "cos/sin factor",
    "softmax_scale_factor": "softmax factor",
}


def _count(value):
    return "—" if value is None else f"{value:,}".replace(",", " ")


def table_rows(model_names=None, *, seq_len=None):
    """One row per model and layer type with RoPE: the columns of the book's model tables.

    Parameters
    ----------
    model_names : sequence of str, optional
        Atlas names (default: all, oldest first).
    seq_len : float, optional
        Passed to :func:`specs`.

    Returns
    -------
    list of dict
        Keys of :data:`TABLE_COLUMNS`, as display strings computed from the entries' configs
        by :func:`rope_core.from_config` ("—" where the config has no such value).

    Examples
    --------
    >>> row = table_rows(["llama-3.1-8b"])[0]
    >>> row["rope_type"], row["factor"], row["training"], row["layout"]
    ('llama3', '8', '8 192', 'half')
    """
    rows = []
    for name in (names() if model_names is None else model_names):
        item = entry(name)
        for layer_type, spec in specs(name, seq_len=seq_len).items():
            factor = spec.rope_parameters.get("factor")
            layers = f"{len(spec.layers)}" if layer_type is None else f"{len(spec.layers)} {layer_type}"
            if spec.nope_layers:
                layers += f" (+{len(spec.nope_layers)} NoPE)"
            rows.append({
                "model": item.title,
                "layers": layers,
                "rope_type": spec.rope_type,
                "base": _count(int(spec.base)) if spec.base == int(spec.base) else f"{spec.base:g}",
                "rotary": f"{spec.rotated_pairs * 2} / {spec.head_dim}",
                "layout": spec.layout,
                "factor": "—" if factor is None else f"{factor:g}",
                "training": _count(spec.original_max_position_embeddings),
                "context": _count(spec.max_position_embeddings),
                "attention_factor": f"{spec.attention_factor:.4g}",
                "softmax_scale_factor": f"{spec.softmax_scale_factor:.4g}",
            })
    return rows


def html_table(rows, columns=None, *, caption=None):
    """An HTML table of ``rows`` (dicts), in a box that scrolls sideways on narrow screens.

    Parameters
    ----------
    rows : list of dict
        Rows, e.g. from :func:`table_rows`; values are shown as text (HTML-escaped).
    columns : dict, optional
        ``{key: heading}`` in display order (default: :data:`TABLE_COLUMNS` when the rows have
        those keys, else the first row's keys).
    caption : str, optional
        Table caption (escaped).

    Returns
    -------
    str

    Examples
    --------
    >>> html_table([{"a": 1, "b": "<x>"}], caption="demo")[:60]
    '<div class="rope-table" style="overflow-x:auto"><table class'
    """
    if not rows:
        raise ValueError("rows must hold at least one row")
    if columns is None:
        columns = TABLE_COLUMNS if set(TABLE_COLUMNS) <= set(rows[0]) else {key: key for key in rows[0]}
    head = "".join(f"<th>{html.escape(str(title))}</th>" for title in columns.values())
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(row.get(key, '')))}</td>" for key in columns) + "</tr>"
        for row in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return (f'<div class="rope-table" style="overflow-x:auto"><table class="table">{cap}'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>")


@dataclass(frozen=True)
class Architecture:
    """Where a 2025-26 architecture puts position, as data (not a full RoPE config).

    These models wire RoPE differently enough that one table row per layer type says little:
    hybrids whose linear-attention or state-space layers carry no RoPE, MLA variants, and
    position-dependent query temperatures. Each record keeps the layer plan that the model's
    transformers configuration class builds, and the RoPE facts of its attention layers.

    Attributes
    ----------
    name, title : str
        Identifier and display name.
    year : int
        Release year.
    family : str
        ``"hybrid"``, ``"MLA"`` or ``"temperature"``: what the record illustrates.
    layer_types : tuple of str
        One entry per layer, as the configuration class builds ``layer_types``.
    rope_layer_types : tuple of str
        The layer types whose layers apply RoPE (empty: no RoPE anywhere).
    rotary_fraction : float
        Share of each RoPE head's features that rotate (0 without RoPE).
    base : float or None
        ``rope_theta`` of the RoPE layers (``None`` without RoPE).
    context : int
        ``max_position_embeddings``.
    temperature : str
        Position-dependent query scale, or ``"none"``.
    source : str
        Where the facts come from.
    notes : str
        What the record shows.
    extra_bases : tuple of (str, float)
        RoPE at a second base inside the same model, as ``(what rotates with it, base)``
        pairs; empty for one base.
    """

    name: str
    title: str
    year: int
    family: str
    layer_types: tuple
    rope_layer_types: tuple
    rotary_fraction: float
    base: float | None
    context: int
    temperature: str
    source: str
    notes: str
    extra_bases: tuple = ()

    @property
    def rope_layers(self):
        """Indices of the layers that apply RoPE."""
        return tuple(i for i, kind in enumerate(self.layer_types) if kind in self.rope_layer_types)


def _every(n_layers, period, kind, other, offset=None):
    """``kind`` at every ``period``-th layer (``(i + 1) % period == 0``, or ``i % period == offset``)."""
    if offset is None:
        return tuple(kind if (i + 1) % period == 0 else other for i in range(n_layers))
    return tuple(kind if i % period == offset else other for i in range(n_layers))


_QWEN3_NEXT = dict(name="qwen3-next-80b-a3b", title="Qwen3-Next 80B-A3B", year=2025, family="hybrid",
         layer_types=_every(48, 4, "full_attention", "linear_attention"),
         rope_layer_types=("full_attention",), rotary_fraction=0.25, base=1e7, context=262144,
         temperature="none",
         source="transformers Qwen3NextConfig (full_attention_interval 4, partial_rotary_factor "
                "0.25); the published config in rope_core/configs/qwen3-next-80b-a3b.json "
                "(rope_theta 1e7, head_dim 256), golden-checked against transformers",
         notes="Three Gated DeltaNet layers to one full-attention layer; only the full layers "
               "rotate, and only 64 of their 256 features.")

#: Layer plans of the models chapter 12 draws (hybrids, NoPE and sliding-window layers), as
#: :class:`Architecture` records; :func:`architecture` finds one by name.
ARCHITECTURES = tuple(Architecture(**item) for item in [
    dict(name="jamba-v0.1", title="Jamba v0.1", year=2024, family="hybrid",
         layer_types=_every(32, 8, "attention", "mamba", offset=4), rope_layer_types=(),
         rotary_fraction=0.0, base=None, context=262144, temperature="none",
         source="transformers JambaConfig (attn_layer_period 8, attn_layer_offset 4, "
                "max_position_embeddings 262144); JambaAttention applies no rotary embedding",
         notes="One attention layer in eight, none with positional encoding: the Mamba layers "
               "carry order."),
    _QWEN3_NEXT,
    dict(_QWEN3_NEXT, name="qwen3.5", title="Qwen3.5 (class defaults)", year=2026,
         layer_types=_every(32, 4, "full_attention", "linear_attention"),
         source="transformers Qwen3_5TextConfig (full_attention_interval 4, partial_rotary_factor "
                "0.25, head_dim 256); interleaved M-RoPE sections [11, 11, 10] and rope_theta 1e7 "
                "in a Qwen3.5 test config of vllm-ascend (PR #14297, closed)",
         notes="Qwen3-Next's layer plan with interleaved M-RoPE on the 32 rotated pairs of the "
               "full-attention layers."),
    dict(name="kimi-linear-48b-a3b", title="Kimi Linear 48B-A3B", year=2025, family="hybrid",
         layer_types=_every(27, 4, "full_attention", "linear_attention"), rope_layer_types=(),
         rotary_fraction=0.0, base=None, context=1048576, temperature="none",
         source="transformers KimiLinearConfig (27 layers, full attention every fourth, "
                "mla_use_nope); Kimi Linear report (arXiv 2510.26692): MLA layers without RoPE",
         notes="Kimi Delta Attention layers carry position; the MLA layers are NoPE, so no layer "
               "rotates at all."),
    dict(name="ministral-3-8b", title="Ministral 3 8B", year=2025, family="temperature",
         layer_types=("full_attention",) * 34, rope_layer_types=("full_attention",),
         rotary_fraction=1.0, base=1e6, context=262144,
         temperature="1 + 0.1 ln(1 + floor(p / 16384)) on every layer",
         source="transformers Ministral3Config defaults (YaRN x16 from 16384, "
                "llama_4_scaling_beta 0.1) and Ministral3Attention (_get_llama_4_attn_scale)",
         notes="Llama 4's query temperature moved from the NoPE layers to every layer, on top of "
               "YaRN."),
    dict(name="deepseek-v4", title="DeepSeek V4 (class defaults)", year=2026, family="MLA",
         layer_types=("heavily_compressed_attention",) * 2
         + _every(41, 2, "compressed_sparse_attention", "heavily_compressed_attention", offset=1),
         rope_layer_types=("compressed_sparse_attention", "heavily_compressed_attention"),
         rotary_fraction=64 / 512, base=1e4, context=1048576, temperature="none",
         extra_bases=(("compressed entries and their indexer (with YaRN)", 1.6e5),),
         source="transformers DeepseekV4Config (checkpoint deepseek-ai/DeepSeek-V4-Flash-Base: "
                "num_key_value_heads 1, head_dim 512, qk_rope_head_dim 64, rope_theta 10000, "
                "compress_rope_theta 160000, max_position_embeddings 1048576, default layer "
                "plan) and modular_deepseek_v4.py (interleaved RoPE on 64 features of the head; "
                "the compressors and the indexer read the 'compress' RoPE; the attention output "
                "is rotated back at the query position)",
         notes="DeepSeek's successor to MLA: one key-value head of 512 features, used as key and "
               "as value, with 64 of them rotating; the compressed long-range entries rotate at "
               "a second base."),
])
_ARCHITECTURES_BY_NAME = {item.name: item for item in ARCHITECTURES}

#: The 2025-26 families chapter 11 sorts today's models into: what each changes for RoPE, what a
#: runtime must get right, the models that show it, and where that comes from.
FAMILIES = (
    {"family": "hybrid",
     "what changes for RoPE": "most layers are linear attention or state-space layers without "
                              "RoPE; the few full-attention layers carry it, or none does",
     "a runtime must": "rotate only the attention layers, and only their rotated features",
     "models": "Jamba, Qwen3-Next, Qwen3.5, Kimi Linear",
     "source": "transformers JambaConfig, Qwen3NextConfig, Qwen3_5TextConfig, KimiLinearConfig"},
    {"family": "MLA",
     "what changes for RoPE": "a small rotated part of each head sits beside a larger unrotated "
                              "part, so the key can be compressed into a latent",
     "a runtime must": "rotate the rotated part only, with the model's layout and YaRN details",
     "models": "DeepSeek-V2/V3, Kimi K2, Mistral 4 (interleaved), Kimi Linear (no RoPE), "
               "DeepSeek V4 (one shared key-value head)",
     "source": "DeepSeek-V2 report (arXiv 2405.04434); transformers DeepseekV3Config, "
               "Mistral4Config, KimiLinearConfig, DeepseekV4Config"},
    {"family": "sparse attention indexer",
     "what changes for RoPE": "a small indexer that picks the keys to attend to has its own "
                              "rotated part, with its own layout",
     "a runtime must": "apply the indexer's layout, not the main attention's",
     "models": "DeepSeek-V3.2 (half layout), GLM-5 (indexer_rope_interleave)",
     "source": "DeepSeek-V3.2 indexer fix (vLLM PR #28968, SGLang issue #13530); "
               "transformers PR #46842"},
    {"family": "partial rotary",
     "what changes for RoPE": "only a quarter to a half of each head rotates",
     "a runtime must": "take the rotated width from partial_rotary_factor (or rotary_dim) and "
                       "compute the frequencies over it",
     "models": "GLM-4.5, MiniMax-M2 (a half), Qwen3-Next and Qwen3.5 (a quarter), Gemma 4's "
               "global layers (a quarter, over the whole head)",
     "source": "the published configs in rope_core/configs, golden-checked against "
               "transformers; Gemma4Config"},
    {"family": "temperature",
     "what changes for RoPE": "queries are scaled by 1 + beta ln(1 + floor(p / L)), growing "
                              "with the position p",
     "a runtime must": "apply the scale at the right layers (NoPE layers in Llama 4, every "
                       "layer in Ministral 3 and Mistral 4) with the right period L",
     "models": "Llama 4, Ministral 3, Mistral 4",
     "source": "transformers modeling_llama4.py, Ministral3Config and Mistral4Config "
               "(llama_4_scaling_beta)"},
)


def architecture(name):
    """The :class:`Architecture` record called ``name``.

    Raises
    ------
    KeyError
        For an unknown name; the message lists the names.
    """
    if name not in _ARCHITECTURES_BY_NAME:
        raise KeyError(f"no architecture {name!r}; there are {tuple(_ARCHITECTURES_BY_NAME)}")
    return _ARCHITECTURES_BY_NAME[name]


#: The newest families' context scaling, and whether a user has to pass it: one record per model.
#: ``model`` names an atlas entry or a published config of ``rope_core/configs`` (the values come
#: from there, never retyped; a published config's record has its display ``title``); ``extension`` is a block the user adds at deployment (``None``: the
#: checkpoint's own config.json carries its scaling), with ``source`` saying where it comes from.
#: :func:`scaling_block_rows` computes the rest, and ``scripts/golden_scaling_blocks.py`` checks
#: every record against transformers' own rotary classes (``tests/test_atlas_scaling_blocks.py``).
SCALING_BLOCKS = (
    {"model": "qwen3-8b-yarn", "extension": None,
     "source": "the block QwenLM/Qwen3's README tells users to add (kept in the atlas entry)"},
    {"model": "qwen3-next-80b-a3b", "title": "Qwen3-Next 80B-A3B + YaRN x4",
     "extension": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 262144},
     "source": "YaRN x4 from 262 144 tokens: the Qwen3-Next model card; vLLM's recipe for "
               "Qwen3.8-Flash-Next (vllm-project/recipes PR #856, August 2026)"},
    {"model": "gemma-3-4b", "extension": None, "source": "the atlas entry (Gemma3TextConfig)"},
    {"model": "llama-4-scout", "extension": None, "source": "the atlas entry (Llama 4 Scout)"},
    {"model": "gpt-oss-20b", "extension": None, "source": "the atlas entry (GptOssConfig)"},
    {"model": "deepseek-v3", "extension": None, "source": "the atlas entry (DeepSeek-V3)"},
    {"model": "kimi-k2-instruct", "title": "Kimi K2", "extension": None,
     "source": "rope_core/configs/kimi-k2-instruct.json"},
    {"model": "exaone-4.0-32b", "title": "EXAONE 4.0 32B", "extension": None,
     "source": "rope_core/configs/exaone-4.0-32b.json"},
    {"model": "phi-4-mini-instruct", "title": "Phi-4-mini", "extension": None,
     "source": "rope_core/configs/phi-4-mini-instruct.json"},
)


def scaling_block_config(model):
    """The config.json of a :data:`SCALING_BLOCKS` record, with its extension block added.

    Parameters
    ----------
    model : str
        The record's ``model``: an atlas name or a published config name.

    Returns
    -------
    dict
        A fresh config. An extension replaces ``rope_scaling`` and sets
        ``max_position_embeddings`` to factor x ``original_max_position_embeddings`` (what
        transformers 5 checks the two against).

    Raises
    ------
    ValueError
        For a ``model`` that is not in :data:`SCALING_BLOCKS`.
    """
    record = next((item for item in SCALING_BLOCKS if item["model"] == model), None)
    if record is None:
        raise ValueError(f"model: {model!r} is not in SCALING_BLOCKS; it has "
                         f"{[item['model'] for item in SCALING_BLOCKS]}")
    config = entry(model).config_dict() if model in _BY_NAME else published_config(model)
    extension = record["extension"]
    if extension is not None:
        config["rope_scaling"] = dict(extension)
        config["max_position_embeddings"] = int(extension["factor"]
                                                * extension["original_max_position_embeddings"])
    return config


def _short_block(block):
    """A rope_parameters block as compact JSON, with long factor lists replaced by their size."""
    shown = {key: (f"[{len(value)} factors]" if isinstance(value, (list, tuple)) else value)
             for key, value in block.items()}
    return json.dumps(shown, separators=(", ", ": "))


def scaling_block_rows():
    """One display row per :data:`SCALING_BLOCKS` record: where the block goes and what it reaches.

    Every column but ``source`` is computed from the record's config with
    :func:`rope_core.config.rope_parameters` and :func:`rope_core.from_config`.

    Returns
    -------
    list of dict
        Keys ``model``, ``model_type``, ``scaled layers`` (the layer types whose frequencies the
        block changes, with their layer counts out of all layers), ``rope_parameters``
        (the scaled block as transformers 5 holds it: the top-level block, or
        ``{layer_type: block}``), ``you pass`` (nothing when the checkpoint ships its scaling;
        for a block added at deployment, vLLM's override with the whole ``rope_parameters``
        block, right whether the engine merges an override into the checkpoint's block or
        replaces it, and ``--max-model-len`` = factor x ``original_max_position_embeddings``),
        ``source``.

    Examples
    --------
    >>> row = scaling_block_rows()[1]
    >>> row["model"], row["scaled layers"]
    ('Qwen3-Next 80B-A3B + YaRN x4', 'all 12 RoPE layers of 48')
    """
    rows = []
    for record in SCALING_BLOCKS:
        model = record["model"]
        config = scaling_block_config(model)
        plan = layer_plan(config)
        layer_types = list(dict.fromkeys(kind for kind, rotates in plan if rotates)) or [None]
        blocks = rope_parameters(config)
        per_type = isinstance(blocks, dict) and "rope_type" not in blocks
        scaled = {}
        for layer_type in layer_types:
            spec = from_config(config, layer_type=layer_type) if per_type else from_config(config)
            if spec.rope_type in SCALED_ROPE_TYPES:
                scaled[layer_type] = spec
        rope_count = sum(rotates for _, rotates in plan)
        if per_type:
            reached = ", ".join(f"{len(spec.layers)} {kind}" for kind, spec in scaled.items())
            shown = {kind: blocks[kind] for kind in scaled}
            text = "{" + ", ".join(f'"{kind}": {_short_block(block)}' for kind, block in shown.items()) + "}"
        else:
            reached = f"all {rope_count} RoPE layers"
            text = _short_block(blocks)
        title = record.get("title") or entry(model).title
        added_by_user = record["extension"] is not None or (
            model in _BY_NAME and entry(model).scaling_trained is False)
        if added_by_user:
            block = next(iter(scaled.values())).rope_parameters
            longest = int(block["factor"] * block["original_max_position_embeddings"])
            you_pass = ("yes: vLLM --hf-overrides '{\"rope_parameters\": <this block>}' "
                        f"--max-model-len {longest}")
        else:
            you_pass = "nothing: the checkpoint's config.json carries it"
        rows.append({"model": title, "model_type": config["model_type"],
                     "scaled layers": f"{reached} of {len(plan)}", "rope_parameters": text,
                     "you pass": you_pass, "source": record["source"]})
    return rows
