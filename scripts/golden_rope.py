"""Write tests/fixtures/rope_golden.json: transformers' own RoPE numbers for the atlas's models.

For every model in ``rope_core.atlas`` (and a few variants below) and every layer type that
applies RoPE, this script builds the model's configuration with transformers' own config class,
instantiates the model's own rotary-embedding class (``<Model>RotaryEmbedding``), and records:

* ``inv_freq`` (the buffer, float32) and ``attention_scaling``;
* DeepSeek's softmax-scale multiplier (``yarn_apply_mscale`` of its modeling file);
* cos and sin at a few positions, as the rotary class returns them;
* a fixed random head rotated at those positions by the model's own ``apply_*`` function, so
  that the layout and the rotated slice are checked too, not only the frequencies.

``tests/test_config_golden.py`` compares :func:`rope_core.from_config` with this file; it needs
neither torch nor transformers. Regenerate (torch and transformers stay out of the project's
requirements; use a throwaway environment)::

    python -m venv /tmp/venv-golden
    /tmp/venv-golden/bin/pip install torch==2.13.0 transformers numpy
    /tmp/venv-golden/bin/pip install -e .          # or PYTHONPATH=. below
    PYTHONPATH=. /tmp/venv-golden/bin/python scripts/golden_rope.py
"""

from __future__ import annotations

import copy
import importlib
import json
import sys
from pathlib import Path

import numpy as np
import torch
import transformers
from transformers import AutoConfig

from rope_core import atlas

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "rope_golden.json"
# Positions: short ones, beyond 4096 (LongRoPE's switch for Phi-3.5), and far out; dynamic NTK
# and LongRoPE are also recorded at SHORT_POSITIONS, whose largest is just below that switch.
POSITIONS = [1, 7, 4097, 65537]
SHORT_POSITIONS = [1, 7, 4095]
TABLE_ROWS = (1, -1)   # cos and sin are recorded at the second and the last position
SEED = 20260101

# Variants that exercise what no atlas model ships: dynamic NTK, and YaRN with explicit
# attention_factor and a legacy "type" key. Each is an atlas config with a changed block.
VARIANTS = {
    "llama-2-7b+dynamic2": ("llama-2-7b", {"rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}),
    "mistral-7b+yarn-attn": ("mistral-7b-v0.1", {"rope_scaling": {
        "type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096,
        "attention_factor": 1.25, "beta_fast": 16.0, "beta_slow": 2.0}}),
}

# The rotary class of each model_type (modeling_<module>.py) and how its apply function is called.
ROTARY = {
    "llama": ("llama", "LlamaRotaryEmbedding", "rotate_half"),
    "mistral": ("mistral", "MistralRotaryEmbedding", "rotate_half"),
    "qwen2": ("qwen2", "Qwen2RotaryEmbedding", "rotate_half"),
    "qwen3": ("qwen3", "Qwen3RotaryEmbedding", "rotate_half"),
    "gemma2": ("gemma2", "Gemma2RotaryEmbedding", "rotate_half"),
    "phi3": ("phi3", "Phi3RotaryEmbedding", "rotate_half"),
    "gpt_neox": ("gpt_neox", "GPTNeoXRotaryEmbedding", "rotate_half"),
    "gpt_oss": ("gpt_oss", "GptOssRotaryEmbedding", "rotate_half"),
    "smollm3": ("smollm3", "SmolLM3RotaryEmbedding", "rotate_half"),
    "cohere2": ("cohere2", "Cohere2RotaryEmbedding", "rotate_half"),
    "gemma3_text": ("gemma3", "Gemma3RotaryEmbedding", "rotate_half_layer_type"),
    "modernbert": ("modernbert", "ModernBertRotaryEmbedding", "rotate_half_layer_type"),
    "gemma4_text": ("gemma4", "Gemma4TextRotaryEmbedding", "gemma4"),
    "llama4_text": ("llama4", "Llama4TextRotaryEmbedding", "complex"),
    "deepseek_v2": ("deepseek_v2", "DeepseekV2RotaryEmbedding", "complex_mla"),
    "deepseek_v3": ("deepseek_v3", "DeepseekV3RotaryEmbedding", "deepseek_v3"),
    "qwen2_vl": ("qwen2_vl", "Qwen2VLRotaryEmbedding", "mrope"),
    "qwen2_vl_text": ("qwen2_vl", "Qwen2VLRotaryEmbedding", "mrope"),
    "qwen3_vl_text": ("qwen3_vl", "Qwen3VLTextRotaryEmbedding", "mrope"),
    "gptj": ("gptj", None, "gptj"),
    "exaone4": ("exaone4", "Exaone4RotaryEmbedding", "rotate_half"),
    "glm4_moe": ("glm4_moe", "Glm4MoeRotaryEmbedding", "rotate_half"),
    "seed_oss": ("seed_oss", "SeedOssRotaryEmbedding", "rotate_half"),
    "apertus": ("apertus", "ApertusRotaryEmbedding", "rotate_half"),
    "minimax_m2": ("minimax_m2", "MiniMaxM2RotaryEmbedding", "rotate_half"),
    "granite": ("granite", "GraniteRotaryEmbedding", "rotate_half"),
    "qwen3_next": ("qwen3_next", "Qwen3NextRotaryEmbedding", "rotate_half"),
    "qwen3_moe": ("qwen3_moe", "Qwen3MoeRotaryEmbedding", "rotate_half"),
    "olmo2": ("olmo2", "Olmo2RotaryEmbedding", "rotate_half"),
}

# Published configs of models that are not in the atlas (rope_core/configs/, sources in
# its README.md). Model types transformers does not register are built as the type whose code
# runs them (Kimi K2 ships DeepSeek-V3's modeling code).
REAL_CONFIGS = Path(__file__).resolve().parent.parent / "rope_core" / "configs"
TRANSFORMERS_TYPE = {"kimi_k2": "deepseek_v3"}


def rope_layers(cfg):
    """Indices of the layers whose attention applies RoPE, by each modeling file's own rule."""
    n_layers = cfg.num_hidden_layers
    layer_types = getattr(cfg, "layer_types", None)
    if cfg.model_type == "exaone4":
        # modeling_exaone4.py: "if self.sliding_window is None or self.is_sliding"
        return [i for i in range(n_layers)
                if cfg.sliding_window is None or layer_types[i] == "sliding_attention"]
    if cfg.model_type == "qwen3_next":
        # modeling_qwen3_next.py: only full_attention layers hold Qwen3NextAttention (with RoPE);
        # linear_attention layers hold Qwen3NextGatedDeltaNet.
        return [i for i in range(n_layers) if layer_types[i] == "full_attention"]
    return list(range(n_layers))


def build_config(config):
    """transformers' own config object for a config.json dict (the text model's, if wrapped)."""
    config = copy.deepcopy(config)
    model_type = config.pop("model_type")
    model_type = TRANSFORMERS_TYPE.get(model_type, model_type)
    obj = AutoConfig.for_model(model_type, **config)
    return obj.get_text_config() if hasattr(obj, "get_text_config") else obj


def rotary_layer_types(config_obj, spec_layer_types):
    return [t for t in spec_layer_types]


def run(name, config, layer_type, rng):
    """Record one model / layer type."""
    cfg = build_config(config)
    model_type = cfg.model_type
    module_name, class_name, kind = ROTARY[model_type]
    modeling = importlib.import_module(f"transformers.models.{module_name}.modeling_{module_name}")
    record = {"name": name, "layer_type": layer_type, "model_type": model_type}

    if kind == "gptj":
        rotary_dim = cfg.rotary_dim
        head_dim = cfg.n_embd // cfg.n_head
        table = modeling.create_sinusoidal_positions(max(POSITIONS) + 1, rotary_dim)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, rotary_dim, 2, dtype=torch.int64) / rotary_dim))
        record.update(inv_freq=short(inv_freq.float()), attention_scaling=1.0)
        cases = [("long", POSITIONS)]
        record["cases"] = []
        for label, positions in cases:
            x = head(rng, len(positions), head_dim)
            sincos = table[torch.tensor(positions)][None]                    # (1, seq, rot)
            sin, cos = torch.split(sincos, sincos.shape[-1] // 2, dim=-1)
            xt = torch.tensor(x)[None, :, None, :]                           # (b, seq, heads, d)
            rot = modeling.apply_rotary_pos_emb(xt[..., :rotary_dim], sin, cos)
            out = torch.cat([rot, xt[..., rotary_dim:]], dim=-1)[0, :, 0]
            record["cases"].append(case(label, positions, x, out, cos[0], sin[0]))
        return record

    rotary_cls = getattr(modeling, class_name)
    emb = rotary_cls(cfg)
    prefix = f"{layer_type}_" if hasattr(emb, f"{layer_type}_inv_freq") else ""
    inv_freq = getattr(emb, f"{prefix}inv_freq")
    scaling = getattr(emb, f"{prefix}attention_scaling", getattr(emb, "attention_scaling", None))
    record.update(inv_freq=short(inv_freq.float()), attention_scaling=float(scaling))
    if hasattr(modeling, "yarn_apply_mscale"):
        record["softmax_scale_factor"] = float(modeling.yarn_apply_mscale(cfg.rope_parameters, 1.0))
    cases = [("long", POSITIONS)]
    if (cfg.rope_parameters.get("rope_type") if layer_type is None or not prefix
            else cfg.rope_parameters[layer_type]["rope_type"]) in ("longrope", "dynamic"):
        cases.insert(0, ("short", SHORT_POSITIONS))
    record["cases"] = []
    for label, positions in cases:
        emb = rotary_cls(cfg)          # a fresh module: dynamic types keep state between calls
        position_ids = torch.tensor([positions])
        head_dim = len(record["inv_freq"]) * 2
        if kind in ("complex_mla", "deepseek_v3"):
            nope = cfg.qk_nope_head_dim
        else:
            nope = 0
        full_dim = head_dim + nope
        if kind == "rotate_half":  # the attention's head width; partial RoPE rotates a slice
            full_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
        x = head(rng, len(positions), full_dim)
        xt = torch.tensor(x)
        dummy = torch.zeros(1, dtype=torch.float32)
        if kind in ("rotate_half", "deepseek_v3"):
            cos, sin = emb(dummy, position_ids)
        elif kind in ("rotate_half_layer_type", "gemma4"):
            cos, sin = emb(dummy, position_ids, layer_type)
        elif kind == "mrope":
            cos, sin = emb(dummy, position_ids.expand(3, 1, -1))
            if cos.ndim == 4:      # Qwen2-VL: one table per axis; text tokens have t = h = w
                cos, sin = cos[0], sin[0]
        else:                      # complex
            freqs_cis = emb(dummy, position_ids)
            cos, sin = freqs_cis.real, freqs_cis.imag
        if kind in ("rotate_half", "rotate_half_layer_type", "mrope"):
            q = xt[None, None]                                        # (b, heads, seq, d)
            out, _ = modeling.apply_rotary_pos_emb(q, q, cos, sin)
            out = out[0, 0]
        elif kind == "gemma4":
            out = modeling.apply_rotary_pos_emb(xt[None, None], cos, sin)[0, 0]
        elif kind == "deepseek_v3":
            rope = xt[None, None, :, nope:]
            if cfg.rope_interleave:
                rot, _ = modeling.apply_rotary_pos_emb_interleave(rope, rope, cos, sin)
            else:
                rot, _ = modeling.apply_rotary_pos_emb(rope, rope, cos, sin)
            out = torch.cat([xt[None, None, :, :nope], rot], dim=-1)[0, 0]
        elif kind == "complex":    # Llama 4: (b, seq, heads, d) with freqs_cis (b, seq, d/2)
            q = xt[None, :, None, :]
            out, _ = modeling.apply_rotary_emb(q, q, freqs_cis)
            out = out[0, :, 0]
        elif kind == "complex_mla":  # DeepSeek-V2: (b, heads, seq, d) on the rope slice
            rope = xt[None, None, :, nope:]
            rot, _ = modeling.apply_rotary_emb(rope, rope, freqs_cis)
            out = torch.cat([xt[None, None, :, :nope], rot], dim=-1)[0, 0]
        record["cases"].append(case(label, positions, x, out, cos[0], sin[0]))
    return record


def head(rng, rows, width):
    """A random head with entries k/8, |k| <= 8: short in JSON and exact in float32."""
    return (rng.integers(-8, 9, size=(rows, width)) / 8).astype(np.float32)


def short(values):
    """float32 values as the shortest decimals that read back to the same float32."""
    return [float(str(np.float32(v))) for v in np.asarray(values, dtype=np.float32).ravel()]


def case(label, positions, x, out, cos, sin):
    cos, sin = torch.as_tensor(cos).float().numpy(), torch.as_tensor(sin).float().numpy()
    return {"label": label, "positions": positions,
            "x": np.asarray(x, dtype=np.float64).tolist(),
            "rotated": [short(row) for row in out.float().numpy()],
            "table_positions": [positions[i] for i in TABLE_ROWS],
            "cos": [short(cos[i]) for i in TABLE_ROWS],
            "sin": [short(sin[i]) for i in TABLE_ROWS]}


def main():
    rng = np.random.default_rng(SEED)
    models = [(name, atlas.entry(name).config_dict()) for name in atlas.names()]
    for name, (base, change) in VARIANTS.items():
        config = atlas.entry(base).config_dict()
        config.update(change)
        models.append((name, config))
    records = []
    for name, config in models:
        layer_types = [None]
        if name in atlas.names():
            layer_types = list(atlas.specs(name))
        for layer_type in layer_types:
            records.append(run(name, config, layer_type, rng))
            if name not in atlas.names():
                records[-1]["config"] = config
            print(f"{name:22s} {str(layer_type):18s} {len(records[-1]['inv_freq'])} pairs", file=sys.stderr)
    for path in sorted(REAL_CONFIGS.glob("*.json")):
        config = json.loads(path.read_text())
        record = run(path.stem, config, None, rng)
        cfg = build_config(config)
        record.update(config=config, source=f"rope_core/configs/{path.name}",
                      rope_layers=rope_layers(cfg),
                      head_dim=len(record["cases"][0]["x"][0]))
        records.append(record)
        print(f"{path.stem:22s} {len(record['inv_freq'])} pairs, {len(record['rope_layers'])} RoPE layers",
              file=sys.stderr)
    payload = {
        "generated_by": "scripts/golden_rope.py",
        "transformers_version": transformers.__version__,
        "torch_version": torch.__version__,
        "seed": SEED,
        "note": "inv_freq, attention_scaling, cos/sin and a rotated head from transformers' own "
                "rotary classes; configs from rope_core.atlas (variants and the published configs "
                "of rope_core/configs carry their config, and the latter the layers that "
                "apply RoPE by their modeling file's rule)",
        "records": records,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(payload, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size / 1e3:.0f} kB, {len(records)} records)", file=sys.stderr)


if __name__ == "__main__":
    torch.set_grad_enabled(False)
    main()
