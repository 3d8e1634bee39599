"""Survey every model type of the installed transformers that builds a rotary embedding.

Development only (never run by ``make test``): it needs torch and transformers, which stay out of
the project's requirements. For each ``model_type`` registered in transformers whose modeling file
defines a ``*RotaryEmbedding`` class that takes the model's config, the script

* builds the type's default configuration with transformers' own config class (the text model's,
  for multimodal wrappers);
* instantiates the model's own rotary class on it and records ``inv_freq`` and
  ``attention_scaling`` (one record per layer type when the class keeps one buffer per type);
* finds the pairing by running the modeling file's own ``apply_rotary_pos_emb`` on a random
  query and comparing the result with the candidate layouts;
* finds which layers rotate by running the model on the ``meta`` device (no weights are
  allocated) with ``apply_rotary_pos_emb`` replaced by a counter that notes the calling layer.

It writes ``rope_core/configs/transformers_survey.jsonl``: a header line (versions), then one JSON
line per model type, sorted, so that ``git diff`` after rerunning on a newer transformers shows
exactly the types whose RoPE changed. ``tests/test_config_survey.py`` reads the file and checks
:func:`rope_core.from_config` against every line; it needs neither torch nor transformers.

Run, from the repository root::

    python3 -m venv /work/venv-survey
    /work/venv-survey/bin/pip install torch==2.13.0 "transformers==5.24.0"
    PYTHONPATH=. /work/venv-survey/bin/python scripts/survey_transformers.py
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import sys
import traceback
import warnings
from pathlib import Path

import numpy as np
import torch
import transformers
from transformers.models.auto.configuration_auto import CONFIG_MAPPING, model_type_to_module_name

OUT = Path(__file__).resolve().parent.parent / "rope_core" / "configs" / "transformers_survey.jsonl"
POSITIONS = [1, 7, 300]
SEED = 20261128
# Decoder layers the meta-device run builds: enough for every layer pattern of period <= 8
# to show twice, few enough that building hundreds of models stays quick.
SURVEY_LAYERS = 16


def json_safe(value):
    """A config value as JSON (tensors and other objects become their repr)."""
    try:
        json.dumps(value)
        return value
    except TypeError:
        if isinstance(value, dict):
            return {str(k): json_safe(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [json_safe(v) for v in value]
        return repr(value)


def short(values):
    """float32 values as the shortest decimals that read back to the same float32."""
    return [float(str(np.float32(v))) for v in np.asarray(values, dtype=np.float32).ravel()]


def text_config(config):
    """The language model's config object of a (possibly multimodal) config."""
    with contextlib.suppress(Exception):
        inner = config.get_text_config(decoder=True)
        if inner is not None:
            return inner
    return config


def rotary_classes(module):
    """The module's own ``*RotaryEmbedding`` classes, text ones first."""
    classes = [obj for name, obj in vars(module).items()
               if name.endswith("RotaryEmbedding") and inspect.isclass(obj)
               and obj.__module__ == module.__name__]
    return sorted(classes, key=lambda cls: any(word in cls.__name__ for word in ("Vision", "Audio", "Video")))


def head_width(cfg):
    """Width of the query head the attention rotates (MLA: the rotary part only)."""
    for key in ("qk_rope_head_dim",):
        if getattr(cfg, key, None):
            return int(getattr(cfg, key)), int(getattr(cfg, "qk_nope_head_dim", 0) or 0)
    width = getattr(cfg, "head_dim", None)
    if not width:
        width = cfg.hidden_size // cfg.num_attention_heads
    return int(width), 0


def buffers(rotary):
    """``{layer_type or None: (inv_freq, attention_scaling)}`` of a rotary module."""
    found = {}
    for name, buffer in rotary.named_buffers():
        if name == "inv_freq":
            found[None] = (buffer, getattr(rotary, "attention_scaling", 1.0))
        elif name.endswith("_inv_freq") and not name.startswith("original"):
            layer_type = name[: -len("_inv_freq")]
            if layer_type.endswith("_original") or layer_type.startswith("original"):
                continue
            found[layer_type] = (buffer, getattr(rotary, f"{layer_type}_attention_scaling",
                                                 getattr(rotary, "attention_scaling", 1.0)))
    return found


def candidate_rotations(x, theta, scale, rotary_dim, offset):
    """The head ``x`` rotated by each layout rope_core knows (float64)."""
    angles = np.asarray(POSITIONS, dtype=np.float64)[:, None] * theta
    cos, sin = np.cos(angles) * scale, np.sin(angles) * scale
    out = {}
    half = rotary_dim // 2
    part = x[:, offset: offset + rotary_dim]
    a, b = part[:, :half], part[:, half:]
    rotated = np.concatenate([a * cos - b * sin, b * cos + a * sin], axis=1)
    out["half"] = np.concatenate([x[:, :offset], rotated, x[:, offset + rotary_dim:]], axis=1)
    a, b = part[:, 0::2], part[:, 1::2]
    interleaved = np.empty_like(part)
    interleaved[:, 0::2], interleaved[:, 1::2] = a * cos - b * sin, b * cos + a * sin
    out["interleaved"] = np.concatenate([x[:, :offset], interleaved, x[:, offset + rotary_dim:]], axis=1)
    half_out = np.concatenate([a * cos - b * sin, b * cos + a * sin], axis=1)
    out["interleaved_half_out"] = np.concatenate([x[:, :offset], half_out, x[:, offset + rotary_dim:]], axis=1)
    return out


def call_rotary(rotary, layer_type, x, position_ids):
    params = list(inspect.signature(rotary.forward).parameters)
    if "layer_type" in params:
        return rotary(x, position_ids, layer_type=layer_type)
    return rotary(x, position_ids)


def find_layout(modeling, rotary, layer_type, cfg, theta, scale, rng, apply_name):
    """Run the apply function the attention calls; return (layout, offset, note)."""
    apply = getattr(modeling, apply_name, None)
    width, nope = head_width(cfg)
    rotary_dim = 2 * theta.size
    x = rng.standard_normal((len(POSITIONS), width + nope)).astype(np.float32)
    position_ids = torch.tensor([POSITIONS])
    dummy = torch.zeros(1, dtype=torch.float32)
    try:
        table = call_rotary(rotary, layer_type, dummy, position_ids)
    except Exception as error:
        return None, None, f"rotary forward failed: {type(error).__name__}: {error}"[:300]
    if isinstance(table, torch.Tensor) and table.is_complex():
        return "interleaved", nope, "complex freqs_cis (view_as_complex pairs (2i, 2i+1))"
    if apply is None:
        return None, None, f"no {apply_name} in the modeling file"
    cos, sin = table
    if cos.ndim == 4:  # M-RoPE: one table per axis; text tokens have t = h = w
        cos, sin = cos[0], sin[0]
    # Most apply functions rotate the whole head they are given (partial RoPE slices first),
    # some slice inside: try the rotary part alone, then the whole head.
    attempts = []
    for given in (x[:, nope: nope + rotary_dim], x):
        try:
            q = torch.tensor(given)[None, None]
            params = list(inspect.signature(apply).parameters)
            if len(params) >= 4 and params[1] in ("k", "key", "key_states"):
                out = apply(q, q, cos, sin)[0]
            else:
                out = apply(q, cos, sin)
            out = out[0, 0].double().numpy()
        except Exception as error:
            attempts.append(f"{type(error).__name__}: {error}"[:200])
            continue
        if out.shape != given.shape:
            continue
        full = x.astype(np.float64).copy()
        start = nope if given.shape[1] != x.shape[1] else 0
        full[:, start: start + given.shape[1]] = out
        for layout, expected in candidate_rotations(x.astype(np.float64), theta, scale, rotary_dim,
                                                    nope).items():
            if np.allclose(full, expected, rtol=1e-4, atol=1e-4 * scale * max(POSITIONS)):
                return layout, nope, None
        attempts.append("no candidate layout matches")
    return None, None, "; ".join(attempts) or "apply function did not run"


@contextlib.contextmanager
def counting(modeling, names):
    """Replace the modeling file's apply functions by wrappers that note each call's layer."""
    calls, called = [], set()
    originals = {name: getattr(modeling, name) for name in names if hasattr(modeling, name)}

    def wrap(function):
        def counted(*args, **kwargs):
            calls.append(counting.current)
            called.add(function.__name__)
            return function(*args, **kwargs)
        return counted

    for name, function in originals.items():
        setattr(modeling, name, wrap(function))
    try:
        yield calls, called
    finally:
        for name, function in originals.items():
            setattr(modeling, name, function)


counting.current = None


def model_class(modeling, cfg):
    """The modeling file's base model class for this config class (AutoModel may not know a
    text sub-config)."""
    from transformers import PreTrainedModel

    candidates = [obj for obj in vars(modeling).values()
                  if inspect.isclass(obj) and issubclass(obj, PreTrainedModel)
                  and getattr(obj, "config_class", None) is type(cfg)]
    candidates.sort(key=lambda cls: (not cls.__name__.endswith("Model"), "Text" not in cls.__name__,
                                     len(cls.__name__)))
    if not candidates:
        raise RuntimeError(f"no model class for {type(cfg).__name__}")
    return candidates[0]


def decoder_layers(model, n_layers):
    for module in model.modules():
        if isinstance(module, torch.nn.ModuleList) and len(module) == n_layers:
            return module
    raise RuntimeError(f"no ModuleList of {n_layers} decoder layers")


def attention_modules(layer):
    """The submodules of a decoder layer whose forward takes position embeddings."""
    found = []
    for name, module in layer.named_modules():
        if "Attention" in type(module).__name__ or "Attn" in type(module).__name__:
            params = inspect.signature(module.forward).parameters
            if "position_embeddings" in params:
                found.append((name, module))
    return [(name, module) for name, module in found
            if not any(other != name and name.startswith(other + ".") for other, _ in found)]


def layers_by_attention(modeling, cfg, rotary, names):
    """Fallback when the whole model cannot run on meta (MoE routing): call each layer's
    attention module alone with meta hidden states and the rotary class's cos and sin."""
    n_layers = cfg.num_hidden_layers
    with torch.device("meta"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = model_class(modeling, cfg)(cfg)
    layers = decoder_layers(model, n_layers)
    layer_types = getattr(cfg, "layer_types", None)
    position_ids = torch.arange(8)[None]
    rotating, called = [], set()
    for index, layer in enumerate(layers):
        modules = attention_modules(layer)
        if not modules:
            continue  # no attention that takes positions: Mamba, convolution, linear layers
        layer_type = layer_types[index] if layer_types else None
        with contextlib.suppress(TypeError):
            table = call_rotary(rotary, layer_type, torch.zeros(1), position_ids)
        cos, sin = (t.to("meta") for t in table) if isinstance(table, tuple) else (table.to("meta"), None)
        position_embeddings = (cos, sin) if sin is not None else cos
        for _, module in modules:
            hidden = torch.zeros((1, 8, cfg.hidden_size), device="meta")
            with counting(modeling, names) as (calls, called_now), torch.no_grad():
                counting.current = (0, index)
                kwargs = {"hidden_states": hidden, "position_embeddings": position_embeddings,
                          "attention_mask": None}
                for name, param in inspect.signature(module.forward).parameters.items():
                    if name == "position_ids":
                        kwargs[name] = position_ids.to("meta")
                    elif name not in kwargs and param.default is inspect.Parameter.empty and param.kind in (
                            param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
                        kwargs[name] = None
                module(**kwargs)
            called |= called_now
            if calls:
                rotating.append(index)
                break
    if not rotating:  # no attention took position embeddings: this run tells nothing
        raise RuntimeError("no layer's attention takes position_embeddings")
    return rotating, n_layers, sorted(called)


def rope_layers(modeling, cfg, rotary=None):
    """Indices of the decoder layers that call an apply function, from a meta-device run, and
    the names of the apply functions called."""
    from transformers import AutoModel

    cfg = type(cfg).from_dict(cfg.to_dict())
    with contextlib.suppress(Exception):  # grouped matmuls of MoE experts refuse meta tensors
        cfg._experts_implementation = "eager"
    n_layers = cfg.num_hidden_layers
    if n_layers > SURVEY_LAYERS and not getattr(cfg, "layer_types", None) and not getattr(cfg, "no_rope_layers", None):
        cfg.num_hidden_layers = n_layers = SURVEY_LAYERS
    names = [name for name in vars(modeling) if name.startswith("apply_rotary")]
    try:
        with torch.device("meta"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                model = AutoModel.from_config(cfg)
            except ValueError:  # a text sub-config AutoModel does not map
                model = model_class(modeling, cfg)(cfg)
        # Several stacks may have num_hidden_layers layers (a depth decoder, a vision tower):
        # each layer is hooked as (stack, index), and the calls must come from one stack.
        stacks = [module for module in model.modules()
                  if isinstance(module, torch.nn.ModuleList) and len(module) == n_layers]
        if not stacks:
            raise RuntimeError(f"no ModuleList of {n_layers} decoder layers")
        for stack_index, stack in enumerate(stacks):
            for index, layer in enumerate(stack):
                layer.register_forward_pre_hook(
                    lambda _m, _a, where=(stack_index, index): setattr(counting, "current", where))
        with counting(modeling, names) as (calls, called), torch.no_grad():
            input_ids = torch.zeros((1, 8), dtype=torch.long, device="meta")
            model(input_ids=input_ids)
        hooked = [c for c in calls if c is not None]
        if len(calls) != len(hooked) or len({stack for stack, _ in hooked}) > 1:
            raise RuntimeError("cannot tell which stack of layers is the decoder")
        if not hooked:  # a rotary class that no layer used on this input: not "no RoPE"
            raise RuntimeError("no layer called an apply function on a text-only input")
        return sorted({index for _, index in hooked}), n_layers, sorted(called)
    except Exception:
        if rotary is None:
            raise
        return layers_by_attention(modeling, cfg, rotary, names)


# Published configs, restated here with their RoPE keys and the sizes that decide head width and
# layer count, each run through transformers exactly as the default configs are; the test checks
# rope_core on them too. Sources: the model cards' config.json as cited; values not restated from a
# checked copy are marked "reconstructed" and must be confirmed against the model repository.
PUBLISHED = {
    # allenai/Olmo-3-7B-Think config.json (reconstructed): YaRN x8 from 8192 on full_attention layers.
    "olmo-3-7b-think": {
        "model_type": "olmo3", "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 32,
        "num_hidden_layers": 32, "max_position_embeddings": 65536, "rope_theta": 500000,
        "sliding_window": 4096,
        "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "full_attention"] * 8,
        "rope_scaling": {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 8192,
                         "attention_factor": 1.2079441541679836, "beta_fast": 32, "beta_slow": 1}},
    # kyutai/helium-1-2b config.json (reconstructed): Helium pairs features interleaved.
    "helium-1-2b": {
        "model_type": "helium", "hidden_size": 2048, "num_attention_heads": 16, "num_key_value_heads": 8,
        "head_dim": 128, "num_hidden_layers": 28, "max_position_embeddings": 4096, "rope_theta": 100000.0},
    # baidu/ERNIE-4.5-0.3B-PT config.json (reconstructed): interleaved pairs, base 5e5.
    "ernie-4.5-0.3b": {
        "model_type": "ernie4_5", "hidden_size": 1024, "num_attention_heads": 16, "num_key_value_heads": 2,
        "head_dim": 128, "num_hidden_layers": 18, "max_position_embeddings": 131072, "rope_theta": 500000.0},
    # tencent/Hunyuan-7B-Instruct config.json (reconstructed): NTK-alpha under a "dynamic" label.
    "hunyuan-7b-instruct": {
        "model_type": "hunyuan_v1_dense", "hidden_size": 4096, "num_attention_heads": 32,
        "num_key_value_heads": 8, "head_dim": 128, "num_hidden_layers": 32,
        "max_position_embeddings": 262144, "rope_theta": 10000.0,
        "rope_scaling": {"alpha": 1000.0, "factor": 1.0, "type": "dynamic", "beta_fast": 32,
                         "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 0.0}},
    # HuggingFaceTB/SmolLM3-3B config.json (reconstructed): every fourth layer without RoPE.
    "smollm3-3b": {
        "model_type": "smollm3", "hidden_size": 2048, "num_attention_heads": 16, "num_key_value_heads": 4,
        "num_hidden_layers": 36, "max_position_embeddings": 65536, "rope_theta": 5000000.0,
        "no_rope_layers": [1, 1, 1, 0] * 9},
    # LiquidAI/LFM2-1.2B config.json (reconstructed): convolution blocks and attention layers.
    "lfm2-1.2b": {
        "model_type": "lfm2", "hidden_size": 2048, "num_attention_heads": 32, "num_key_value_heads": 8,
        "num_hidden_layers": 16, "max_position_embeddings": 128000, "rope_theta": 1000000.0,
        "layer_types": ["conv", "conv", "full_attention", "conv", "conv", "full_attention", "conv",
                        "conv", "full_attention", "conv", "full_attention", "conv", "full_attention",
                        "conv", "full_attention", "conv"]},
}


def survey_type(model_type, rng, overrides=None):
    config_class = CONFIG_MAPPING[model_type]
    module_name = model_type_to_module_name(model_type)
    try:
        modeling = importlib.import_module(f"transformers.models.{module_name}.modeling_{module_name}")
    except Exception:
        return None
    classes = rotary_classes(modeling)
    if not classes:
        # Recorded so that rope_core can refuse the type by name: transformers' code for it
        # holds no rotary class (its positions are something else, or hand-written sinusoids).
        return {"model_type": model_type, "module": module_name,
                "status": "no rotary embedding class in its modeling file"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        config = config_class(**(overrides or {}))
    cfg = text_config(config)
    text_type = getattr(cfg, "model_type", model_type)
    if text_type != model_type and text_type in CONFIG_MAPPING and model_type_to_module_name(text_type) != module_name:
        return None  # a wrapper around another type's language model, surveyed as that type
    record = {"model_type": model_type, "text_model_type": getattr(cfg, "model_type", None),
              "module": module_name, "config_class": type(cfg).__name__}
    rotary = None
    for cls in classes:
        try:
            rotary = cls(cfg)
            break
        except Exception as error:
            record.setdefault("rotary_errors", []).append(f"{cls.__name__}: {type(error).__name__}")
    if rotary is None or not buffers(rotary):
        record["status"] = "no text rotary class built from the config"
        return record
    record["rotary_class"] = type(rotary).__name__
    record["config"] = json_safe(cfg.to_dict())
    record["head_dim"], record["nope_head_dim"] = head_width(cfg)
    record["layer_types"] = json_safe(getattr(cfg, "layer_types", None))
    apply_name = "apply_rotary_pos_emb"
    try:
        layers, n_layers, called = rope_layers(modeling, cfg, rotary)
        record["rope_layers"], record["surveyed_layers"] = layers, n_layers
        record["apply_functions"] = called
        if len(called) == 1:
            apply_name = called[0]
    except Exception as error:
        record["rope_layers_error"] = f"{type(error).__name__}: {error}"[:300]
    record["rope"] = {}
    for layer_type, (inv_freq, scale) in buffers(rotary).items():
        theta = inv_freq.double().numpy()
        layout, offset, note = find_layout(modeling, rotary, layer_type, cfg, theta, float(scale), rng,
                                           apply_name)
        candidates = [name for name in vars(modeling) if name.startswith("apply_rotary")]
        if "apply_functions" not in record and len(candidates) > 1:
            # Which function the attention calls is unknown: keep a layout only if all agree.
            found = {name: find_layout(modeling, rotary, layer_type, cfg, theta, float(scale), rng,
                                       name)[0] for name in candidates}
            if len({value for value in found.values() if value}) > 1:
                layout, note = None, f"apply functions disagree: {found}"
        record["rope"][str(layer_type)] = {"inv_freq": short(inv_freq.float()),
                                           "attention_scaling": float(scale), "layout": layout,
                                           "rotary_offset": offset, "layout_note": note}
    record["status"] = "surveyed"
    return record


def main():
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    only = set(sys.argv[1:])
    records = []
    for model_type in sorted(CONFIG_MAPPING.keys()):
        if only and model_type not in only:
            continue
        try:
            record = survey_type(model_type, rng)
        except Exception as error:
            record = {"model_type": model_type, "status": f"failed: {type(error).__name__}: {error}"[:300],
                      "trace": traceback.format_exc(limit=2)[-400:]}
        if record is None:
            continue
        records.append(record)
        rope = record.get("rope", {})
        print(f"{model_type:28s} {record['status'][:30]:30s} "
              f"{ {k: (len(v['inv_freq']), v['layout']) for k, v in rope.items()} } "
              f"layers={record.get('rope_layers', record.get('rope_layers_error', '-'))!s:.60}",
              file=sys.stderr, flush=True)
    for name, published in PUBLISHED.items():
        if only and name not in only:
            continue
        overrides = {key: value for key, value in published.items() if key != "model_type"}
        record = survey_type(published["model_type"], rng, overrides)
        record.update(status="published", name=name, published_config=published)
        records.append(record)
        print(f"{name:28s} published {record.get('rope_layers', record.get('rope_layers_error'))!s:.60}",
              file=sys.stderr)
    header = {"generated_by": "scripts/survey_transformers.py",
              "transformers_version": transformers.__version__, "torch_version": torch.__version__,
              "seed": SEED, "positions": POSITIONS, "surveyed_layers_cap": SURVEY_LAYERS}
    if only:
        print(json.dumps(records, indent=1)[:4000])
        return
    with OUT.open("w", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")
        for record in records:
            out.write(json.dumps(record, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(records)} model types)", file=sys.stderr)


if __name__ == "__main__":
    torch.set_grad_enabled(False)
    main()
