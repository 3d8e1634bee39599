r"""Read a model's ``config.json`` and get its RoPE: :func:`from_config` and :class:`RopeSpec`.

A real configuration says where RoPE goes in a few dozen ways: transformers 4 wrote
``rope_theta`` and ``rope_scaling`` at the top level, transformers 5 writes one
``rope_parameters`` block (or one per layer type), and model families add their own keys
(GPT-NeoX's ``rotary_pct``, Gemma 3's ``rope_local_base_freq``, DeepSeek's
``qk_rope_head_dim``, Llama 4's ``no_rope_layers``, ...). :func:`from_config` reads all of
them the way transformers 5 does and returns the numbers transformers computes:

>>> spec = from_config({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
...                     "rope_theta": 500000.0, "max_position_embeddings": 131072,
...                     "rope_scaling": {"rope_type": "llama3", "factor": 8.0,
...                                      "low_freq_factor": 1.0, "high_freq_factor": 4.0,
...                                      "original_max_position_embeddings": 8192}})
>>> spec.rope_type, spec.head_dim, spec.rotary_dim, spec.layout
('llama3', 128, 128, 'half')
>>> float(spec.inverse_frequencies[-1] * 8 / spec.base ** (-126 / 128))
1.0

Each rule below cites the transformers 5 code it follows (``transformers/modeling_rope_utils.py``
and ``transformers/models/<model>/{configuration,modeling}_<model>.py``; checked against
transformers 5.24.0, and against its outputs by ``tests/test_config_golden.py``). Any other
type transformers ships is read as transformers' own code was surveyed to read it
(``scripts/survey_transformers.py``, ``rope_core/configs/transformers_survey.jsonl``) or refused
by name; a type transformers does not know is read the generic way only when its config holds
nothing that reading cannot express, with a warning that says what it assumed.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import numbers
import warnings
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType

import numpy as np

from .frequencies import (
    ROPE_TYPES,
    _attention_factor,
    _check_seq_len,
    _mscale,
    _scaled_frequencies,
    _scaling_config,
)

__all__ = ["MODEL_TYPES", "NO_ROPE_LAYER_TYPES", "PUBLISHED_CONFIGS", "SIZE_LIMITS", "RopeConfigWarning",
           "RopeSpec", "from_config", "layer_plan", "published_config", "rope_parameters"]


class RopeConfigWarning(UserWarning):
    """:func:`rope_core.from_config` read a config it cannot be sure of (an unknown ``model_type``) and
    says which generic reading it used. Turn it into an error with
    ``warnings.simplefilter("error", RopeConfigWarning)``."""

# --- what each model family does differently ----------------------------------------------
#
# layout: how the model's transformers code pairs features ("half": rotate_half over
#   (x_i, x_{i+r/2}); "interleaved": (x_{2i}, x_{2i+1}), by view_as_complex, rotate_every_two or
#   repeat_interleave'd cos/sin).
# default_theta: ``default_theta`` of the configuration class (10 000 unless set).
# The other keys are explained where they are read.
_FAMILIES = {
    # modeling_llama.py: rotate_half; LlamaRotaryEmbedding.compute_default_rope_parameters.
    "llama": {},
    "mistral": {},
    "mixtral": {"default_theta": 1e6},            # configuration_mixtral.py default_theta
    "qwen2": {},
    "qwen3": {},
    "qwen3_moe": {},
    "olmo2": {},
    # configuration_olmo3.py: default_theta 5e5; layer_types three sliding_attention then one
    # full_attention; convert_rope_params_to_dict puts rope_scaling and the top-level rope_theta
    # on full_attention only, and gives sliding_attention a plain default block at default_theta
    # (the top-level rope_theta is popped once, by the full_attention block).
    "olmo3": {"default_theta": 5e5,
              "per_layer": {"full_attention": ("rope_theta", 5e5, True),
                            "sliding_attention": (None, 5e5, False)},
              "layer_pattern": (None, 4), "flat_rope_parameters_ignored": True},
    "gemma": {},
    "gemma2": {},
    "falcon": {},
    # configuration_phi3.py: "su" and "yarn" are renamed "longrope" (convert_rope_params_to_dict).
    "phi3": {"type_aliases": {"su": "longrope", "yarn": "longrope"}},
    # configuration_gpt_neox.py: rotary_emb_base -> rope_theta, rotary_pct -> partial factor
    # (default 0.25); modeling_gpt_neox.py: rotate_half over the first rotary_ndims features.
    "gpt_neox": {"theta_key": "rotary_emb_base", "partial_key": "rotary_pct", "default_partial": 0.25},
    # configuration_glm.py sets partial_rotary_factor 0.5 by default; modeling_glm.py rotates
    # pairs (x[..., 0::2], x[..., 1::2]) with repeat_interleave'd cos/sin.
    "glm": {"layout": "interleaved", "default_partial": 0.5},
    "glm4": {"layout": "interleaved", "default_partial": 0.5},
    # modeling_gptj.py: create_sinusoidal_positions with a hard-coded base 10000, rotate_every_two
    # on the first rotary_dim features of each head.
    "gptj": {"layout": "interleaved", "fixed_theta": 10000.0},
    # modeling_cohere2.py: repeat_interleave'd frequencies, rotate_half over (::2, 1::2) pairs;
    # RoPE only where layer_types[i] == "sliding_attention" (Cohere2Attention.forward).
    "cohere": {"layout": "interleaved"},
    "cohere2": {"layout": "interleaved", "rope_only_on": "sliding_attention",
                "layer_pattern": ("sliding_window_pattern", 4)},
    # configuration_llama4.py: default_theta 5e5, no_rope_layers (1 = uses RoPE) or one NoPE
    # layer every no_rope_layer_interval; layer_types chunked_attention (RoPE) / full_attention
    # (NoPE); modeling_llama4.py: view_as_complex (interleaved).
    "llama4_text": {"layout": "interleaved", "default_theta": 5e5, "no_rope_layers": True},
    # configuration_smollm3.py: default_theta 2e6, no_rope_layers as Llama 4 (layer_types stay
    # full_attention); modeling_smollm3.py: rotate_half where use_rope.
    "smollm3": {"default_theta": 2e6, "no_rope_layers": True},
    # configuration_gpt_oss.py: default_theta 1.5e5, YaRN x32 by default; modeling_gpt_oss.py:
    # _apply_rotary_emb chunks x into halves.
    "gpt_oss": {"default_theta": 1.5e5, "default_rope": {"rope_type": "yarn", "factor": 32.0,
                                                          "beta_fast": 32.0, "beta_slow": 1.0,
                                                          "truncate": False,
                                                          "original_max_position_embeddings": 4096}},
    # configuration_deepseek_v3.py: head_dim = qk_rope_head_dim, rope_interleave (default True);
    # modeling_deepseek_v3.py: q = cat(q_nope, q_rope), so the rotated features come last, and
    # yarn_apply_mscale multiplies the softmax scale by mscale(factor, mscale_all_dim)^2.
    # apply_rotary_pos_emb_interleave reads pairs (0::2, 1::2) and writes cat(first, second).
    "deepseek_v3": {"mla": True, "layout_key": ("rope_interleave", True), "half_order_out": True},
    "kimi_k2": {"mla": True, "layout_key": ("rope_interleave", True), "half_order_out": True},
    # modeling_deepseek_v2.py: apply_rotary_emb through view_as_complex (interleaved).
    "deepseek_v2": {"mla": True, "layout": "interleaved"},
    # configuration_qwen2_vl.py: default_theta 1e6 and rope_type "mrope" read as "default";
    # the M-RoPE sections only choose which position (t, h, w) each pair reads.
    "qwen2_vl": {"default_theta": 1e6, "type_aliases": {"mrope": "default"}},
    "qwen2_5_vl": {"default_theta": 1e6, "type_aliases": {"mrope": "default"}},
    "qwen3_vl_text": {"default_theta": 5e5},
    "qwen3_vl": {"default_theta": 5e5},
    # configuration_qwen3_next.py: partial_rotary_factor 0.25 by default; layer_types from
    # full_attention_interval (4): every 4th layer full_attention, the others linear_attention
    # (Gated DeltaNet, no RoPE: modeling_qwen3_next.py applies rotary only in Qwen3NextAttention).
    "qwen3_next": {"default_partial": 0.25, "layer_pattern": ("full_attention_interval", 4, "linear")},
    # configuration_glm4_moe.py: partial_rotary_factor 0.5 by default; modeling_glm4_moe.py:
    # rotate_half over the first rotary_dim features.
    "glm4_moe": {"default_partial": 0.5},
    # configuration_minimax_m2.py: default_theta 5e6; a config.json's rotary_dim (64 of head_dim
    # 128) becomes partial_rotary_factor = rotary_dim / head_dim.
    "minimax_m2": {"default_theta": 5e6, "rotary_dim_key": "rotary_dim"},
    # configuration_exaone4.py: layer_types from sliding_window_pattern (4: three sliding, one
    # full); modeling_exaone4.py Exaone4Attention.forward rotates only
    # "if self.sliding_window is None or self.is_sliding": global layers are NoPE.
    "exaone4": {"layer_pattern": ("sliding_window_pattern", 4), "rope_only_on": "sliding_attention",
                "rope_only_if": ("sliding_window", 4096)},
    # modeling_hunyuan_v1_{dense,moe}.py: a "dynamic" block with alpha is NTK-alpha
    # (compute_ntk_alpha_rope_parameters, fixed frequencies); rotate_half.
    "hunyuan_v1_dense": {"dynamic_alpha": True},
    "hunyuan_v1_moe": {"dynamic_alpha": True},
    # Llama's rotary and rotate_half with no RoPE key of their own (configuration_*.py).
    "granite": {},
    "seed_oss": {},
    "apertus": {},
    # configuration_gemma3.py: rope_theta (global, default 1e6) on full_attention layers with
    # rope_scaling, rope_local_base_freq (default 1e4) unscaled on sliding_attention layers;
    # one full layer in sliding_window_pattern (6).
    "gemma3_text": {"per_layer": {"full_attention": ("rope_theta", 1e6, True),
                                  "sliding_attention": ("rope_local_base_freq", 1e4, False)},
                    "layer_pattern": ("sliding_window_pattern", 6)},
    # configuration_modernbert.py: global_rope_theta (1.6e5) on full_attention layers,
    # local_rope_theta (1e4) on sliding ones, rope_scaling on both; layer i is global when
    # i % global_attn_every_n_layers == 0.
    "modernbert": {"per_layer": {"full_attention": ("global_rope_theta", 1.6e5, True),
                                 "sliding_attention": ("local_rope_theta", 1e4, True)},
                   "layer_pattern": ("global_attn_every_n_layers", 3, "from_zero")},
    # configuration_gemma4.py: v5 only; default rope_parameters below, full_attention layers use
    # global_head_dim (512) (per_layer_config), the last layer is always full_attention.
    "gemma4_text": {"default_rope": {"sliding_attention": {"rope_type": "default", "rope_theta": 1e4},
                                     "full_attention": {"rope_type": "proportional",
                                                        "partial_rotary_factor": 0.25,
                                                        "rope_theta": 1e6}},
                    "layer_pattern": ("sliding_window_pattern", 6), "last_layer_full": True,
                    "head_dim_of": {"full_attention": ("global_head_dim", 512)}},
}

#: Layer types whose layers have no softmax attention and so apply no RoPE, whatever the model
#: (transformers' ``ALLOWED_ATTN_LAYER_TYPES``): linear attention and other recurrent layers
#: (Qwen3-Next's Gated DeltaNet, MiniMax lightning attention, Mamba, which transformers 5
#: renames ``linear_attention``), convolution blocks (LFM2) and MoE-only blocks (Nemotron-H).
NO_ROPE_LAYER_TYPES = ("conv", "linear_attention", "mamba", "moe")

#: Layer types of softmax attention, which rotate unless the model's rules say otherwise.
_ATTENTION_LAYER_TYPES = ("full_attention", "sliding_attention", "chunked_attention", "attention")

# Multimodal wrappers keep the language model's keys under text_config.
_TEXT_MODEL_TYPES = {"llama4": "llama4_text", "gemma3": "gemma3_text", "gemma4": "gemma4_text",
                     "qwen3_vl": "qwen3_vl_text", "qwen3_vl_moe": "qwen3_vl_moe_text"}
_SCALED_TYPES_WITH_TRAINING_LENGTH = ("llama3", "yarn", "longrope")
# Names a layer count goes by: transformers' own, GPT-2 style, and two that models' configuration
# classes map onto num_hidden_layers (attribute_map).
_LAYER_COUNT_KEYS = ("num_hidden_layers", "n_layer", "num_layers", "n_layers")

#: The ``model_type`` values :func:`rope_core.from_config` has a hand-written rule for, each read
#: as its transformers configuration and modeling code read it (multimodal wrappers such as
#: ``"gemma3"`` included). Other types transformers ships are read from the survey of its code or
#: refused by name; unknown types are read generically, with a
#: :class:`rope_core.config.RopeConfigWarning`, or refused (see :func:`rope_core.from_config`).
MODEL_TYPES = tuple(sorted(set(_FAMILIES) | {outer for outer, inner in _TEXT_MODEL_TYPES.items()
                                              if inner in _FAMILIES}))

@dataclass(frozen=True, eq=False)
class RopeSpec:
    r"""The RoPE of one model (and one layer type), as its transformers code computes it.

    Attributes
    ----------
    model_type : str or None
        ``config["model_type"]`` (of the text model for multimodal configs).
    layer_type : str or None
        The layer type this spec describes (``"full_attention"``, ``"sliding_attention"``, ...),
        or None when every RoPE layer of the model shares it.
    rope_type : str
        One of ``rope_core.ROPE_TYPES`` (legacy names such as Phi-3's ``"su"`` resolved).
    base : float
        :math:`\theta` base (``rope_theta``).
    head_dim : int
        Width of the query/key head that :meth:`apply` takes (DeepSeek MLA: ``qk_nope_head_dim
        + qk_rope_head_dim``).
    rotary_dim : int
        How many features rotate: ``2 * len(inverse_frequencies)``. For ``"proportional"`` the
        whole head, with zero frequencies on the pairs that never turn.
    rotary_offset : int
        Index of the first rotated feature (0, except DeepSeek MLA, whose rotated 64 features
        follow the ``qk_nope_head_dim`` unrotated ones).
    layout : {"half", "interleaved"}
        How the model's code pairs the rotated features.
    inverse_frequencies : ndarray, shape (rotary_dim // 2,)
        float64 :math:`\theta'_i`, the values of transformers' ``inv_freq`` buffer.
    attention_factor : float
        transformers' ``attention_scaling``: multiplies cos and sin (YaRN, LongRoPE), so logits
        scale by its square.
    softmax_scale_factor : float
        Extra factor on the softmax scale :math:`1/\sqrt{d}` (DeepSeek's
        :math:`\text{mscale}(s, \text{mscale\_all\_dim})^2`); 1 for other models.
    partial_rotary_factor : float
        The fraction of the head the config asks to rotate (1.0 when it says nothing).
    original_max_position_embeddings : int or None
        Training length the scaling starts from, when the config gives one.
    max_position_embeddings : int or None
        The config's ``max_position_embeddings`` (``n_positions`` for GPT-J).
    rope_parameters : mapping
        The standardised transformers 5 block (``rope_type``, ``rope_theta`` and the scaling keys).
    layers : tuple of int
        Indices of the layers this spec applies to (layers with no RoPE excluded).
    nope_layers : tuple of int
        Indices of the model's layers that apply no RoPE at all.
    output_in_half_order : bool
        True when the model's code reads interleaved pairs but writes the rotated features in
        the half order (``[x_0', x_2', ..., x_1', x_3', ...]``): transformers' DeepSeek-V3
        ``apply_rotary_pos_emb_interleave``. Queries and keys are permuted alike, so scores
        equal those of interleaved RoPE; :meth:`apply` follows the model.
    seq_len : float or None
        The sequence length the frequencies were computed for (dynamic NTK and LongRoPE).
    guesses : tuple of str
        What :func:`from_config` had to assume (empty for a known ``model_type``); each was
        also given as a :class:`rope_core.config.RopeConfigWarning`.
    """

    model_type: str | None
    layer_type: str | None
    rope_type: str
    base: float
    head_dim: int
    rotary_dim: int
    rotary_offset: int
    layout: str
    inverse_frequencies: np.ndarray = field(repr=False)
    attention_factor: float
    softmax_scale_factor: float
    partial_rotary_factor: float
    original_max_position_embeddings: int | None
    max_position_embeddings: int | None
    rope_parameters: MappingProxyType = field(repr=False)
    layers: tuple = field(repr=False)
    nope_layers: tuple = field(repr=False)
    output_in_half_order: bool = False
    seq_len: float | None = None
    guesses: tuple = field(default=(), repr=False)

    @property
    def rotated_pairs(self):
        """Number of pairs that turn (fewer than ``rotary_dim // 2`` only for p-RoPE)."""
        return int(np.count_nonzero(self.inverse_frequencies))

    @property
    def wavelengths(self):
        r"""Wavelengths :math:`2\pi/\theta'_i` in tokens (``inf`` for pairs that never turn)."""
        with np.errstate(divide="ignore"):
            return 2 * np.pi / self.inverse_frequencies

    def frequencies_at(self, seq_len):
        """The frequencies transformers uses for a sequence of ``seq_len`` tokens.

        Only dynamic NTK and LongRoPE depend on it (transformers' ``dynamic_rope_update``
        recomputes them from ``max(position_ids) + 1``); other types return
        :attr:`inverse_frequencies`.
        """
        seq_len = _check_seq_len(seq_len)
        if self.rope_type not in ("dynamic", "longrope") or seq_len is None:
            return self.inverse_frequencies
        rope_type, block = _scaling_config(self._block(), self.base)
        return _scaled_frequencies(self.rotary_dim, self.base, rope_type, block, seq_len)

    def _block(self):
        """The block in :func:`rope_core.inverse_frequencies`' form (rope_core-only keys added)."""
        block = {key: value for key, value in self.rope_parameters.items()
                 if key not in ("partial_rotary_factor", "rope_theta", "mrope_section",
                                "mrope_interleaved")}
        if self.rope_type == "dynamic":  # transformers 5 reads the config's max_position_embeddings
            block = {"rope_type": "dynamic", "factor": block["factor"],
                     "max_position_embeddings": self.max_position_embeddings}
        return block

    def apply(self, x, positions=None):
        r"""Rotate queries or keys ``x`` at ``positions`` as the model's transformers code does.

        Parameters
        ----------
        x : array_like, shape (..., seq, head_dim)
            Query or key vectors of one or more heads.
        positions : array_like of int, optional
            Shape ``(seq,)``, or one position per row with ``x.ndim - 1`` axes that broadcast
            against ``x.shape[:-1]`` (for ``(batch, heads, seq, head_dim)`` pass ``(batch, 1,
            seq)``). Default ``arange(seq)``.

        Returns
        -------
        ndarray, same shape as ``x``
            Features ``rotary_offset : rotary_offset + rotary_dim`` rotated by
            :math:`m\theta'_i` in the spec's layout and multiplied by ``attention_factor``;
            the others unchanged (DeepSeek-V3: written in the half order, see
            :attr:`output_in_half_order`). Dynamic NTK and LongRoPE use the frequencies for
            ``max(positions) + 1`` tokens unless the spec was made for a given ``seq_len``.
        """
        x = np.asarray(x)
        if x.dtype.kind in "iub":
            x = x.astype(np.float64)
        if x.dtype.kind != "f" or x.ndim < 2:
            raise ValueError(f"x must be a real array of shape (..., seq, {self.head_dim}), got "
                             f"dtype {x.dtype} and shape {x.shape}")
        if x.shape[-1] != self.head_dim:
            raise ValueError(f"x must have head_dim = {self.head_dim} features on its last axis, "
                             f"got shape {x.shape}")
        seq = x.shape[-2]
        positions = np.arange(seq) if positions is None else np.asarray(positions)
        if positions.dtype.kind not in "iu" and not (
                positions.dtype.kind == "f" and np.all(np.isfinite(positions))
                and np.all(positions == np.round(positions))):
            raise ValueError(f"positions must be integers, got {positions!r}")
        if positions.ndim == 1:
            if positions.shape[0] != seq:
                raise ValueError(f"positions of shape ({positions.shape[0]},) do not match the {seq} "
                                 f"rows of x (shape {x.shape})")
        elif positions.ndim != x.ndim - 1 or np.broadcast_shapes(positions.shape, x.shape[:-1]) != x.shape[:-1]:
            raise ValueError(f"positions of shape {positions.shape} do not broadcast against x of shape "
                             f"{x.shape} row by row; give (seq,) or {x.ndim - 1} axes, e.g. "
                             "(batch, 1, seq) for (batch, heads, seq, head_dim)")
        theta = self.inverse_frequencies
        if self.seq_len is None and self.rope_type in ("dynamic", "longrope") and positions.size:
            theta = self.frequencies_at(float(positions.max()) + 1)
        angles = positions.astype(np.float64)[..., None] * theta
        cos, sin = np.cos(angles) * self.attention_factor, np.sin(angles) * self.attention_factor
        out = x.astype(np.float64, copy=True)
        start, stop = self.rotary_offset, self.rotary_offset + self.rotary_dim
        part = out[..., start:stop]
        if self.layout == "half":
            a, b = part[..., : self.rotary_dim // 2].copy(), part[..., self.rotary_dim // 2:].copy()
            part[..., : self.rotary_dim // 2] = a * cos - b * sin
            part[..., self.rotary_dim // 2:] = b * cos + a * sin
        elif self.output_in_half_order:
            a, b = part[..., 0::2].copy(), part[..., 1::2].copy()
            part[..., : self.rotary_dim // 2] = a * cos - b * sin
            part[..., self.rotary_dim // 2:] = b * cos + a * sin
        else:
            a, b = part[..., 0::2].copy(), part[..., 1::2].copy()
            part[..., 0::2] = a * cos - b * sin
            part[..., 1::2] = b * cos + a * sin
        return out.astype(x.dtype, copy=False)


# --- reading keys -----------------------------------------------------------------------------

#: Largest sizes :func:`from_config` accepts: far above any published model (head widths reach
#: 512, layer counts a few hundred, contexts 10 million), low enough that a mistyped size fails
#: at once instead of allocating for minutes.
SIZE_LIMITS = MappingProxyType({"head_dim": 65536, "layers": 100_000, "positions": 2 ** 40})

# Keys that hold a head width, a layer count or a position count, and the limit each obeys.
_SIZE_KEYS = {"head_dim": "head_dim", "qk_rope_head_dim": "head_dim", "qk_nope_head_dim": "head_dim",
              "rotary_dim": "head_dim", "global_head_dim": "head_dim",
              "num_hidden_layers": "layers", "n_layer": "layers", "num_layers": "layers",
              "max_position_embeddings": "positions", "n_positions": "positions",
              "original_max_position_embeddings": "positions"}
_SIZE_HINTS = {"head_dim": "a head width (did you mean hidden_size?)",
               "layers": "a layer count", "positions": "a context length"}


def _int(config, key, where="config"):
    value = config[key]
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{where}['{key}'] must be a positive integer, got {value!r}")
    if value <= 0:
        raise ValueError(f"{where}['{key}'] must be a positive integer, got {value!r}")
    kind = _SIZE_KEYS.get(key)
    if kind is not None and value > SIZE_LIMITS[kind]:
        raise ValueError(f"{where}['{key}'] = {value} is not {_SIZE_HINTS[kind]}: rope_core reads "
                         f"at most {SIZE_LIMITS[kind]} (rope_core.config.SIZE_LIMITS['{kind}'])")
    return int(value)


def _number(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a finite number > 0, got {value!r}")
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return float(value)


def _text_config(config):
    """The language model's keys: ``text_config`` for multimodal wrappers, else the config."""
    if not isinstance(config, dict):
        raise TypeError(f"config must be a dict (a parsed config.json), got {type(config).__name__}")
    inner = config.get("text_config")
    if inner is None:
        return config, config.get("model_type")
    if not isinstance(inner, dict):
        raise TypeError(f"config['text_config'] must be a dict, got {type(inner).__name__}")
    outer_type = config.get("model_type")
    model_type = inner.get("model_type") or _TEXT_MODEL_TYPES.get(outer_type, outer_type)
    return inner, model_type


def _head_dim(config, family, model_type):
    """Head width as the model's code computes it (``head_dim`` or hidden // heads)."""
    if family.get("mla"):
        for key in ("qk_rope_head_dim", "qk_nope_head_dim"):
            if key not in config:
                raise ValueError(f"config of model_type {model_type!r} (MLA) must give {key!r}")
        return _int(config, "qk_rope_head_dim"), _int(config, "qk_nope_head_dim")
    if config.get("head_dim") is not None:
        return _int(config, "head_dim"), 0
    hidden_key = "n_embd" if "n_embd" in config and "hidden_size" not in config else "hidden_size"
    heads_key = "n_head" if "n_head" in config and "num_attention_heads" not in config else "num_attention_heads"
    if hidden_key not in config or heads_key not in config:
        raise ValueError(
            "config gives no head size: it needs 'head_dim', or 'hidden_size' and "
            "'num_attention_heads' (head_dim = hidden_size // num_attention_heads)"
        )
    hidden, heads = _int(config, hidden_key), _int(config, heads_key)
    if hidden // heads > SIZE_LIMITS["head_dim"]:
        raise ValueError(f"config['{hidden_key}'] // config['{heads_key}'] = {hidden // heads} is not "
                         f"a head width: rope_core reads at most {SIZE_LIMITS['head_dim']} "
                         "(rope_core.config.SIZE_LIMITS['head_dim'])")
    return hidden // heads, 0


def _block_from(value, where):
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TypeError(f"{where} must be a dict or null, got {type(value).__name__}")
    return dict(value)


def _rope_blocks(config, family, layer_types):
    """One standardised rope_parameters block per layer type, or ``{None: block}``.

    Mirrors ``RotaryEmbeddingConfigMixin.convert_rope_params_to_dict`` and
    ``standardize_rope_params`` (modeling_rope_utils.py) with the model overrides named in
    :data:`_FAMILIES`.
    """
    v5 = config.get("rope_parameters")
    v4 = config.get("rope_scaling")
    where = "config['rope_parameters']" if v5 is not None else "config['rope_scaling']"
    # convert_rope_params_to_dict: rope_scaling (v4) takes precedence over rope_parameters.
    raw = _block_from(v4, "config['rope_scaling']") or _block_from(v5, "config['rope_parameters']")
    if v4 is not None:
        where = "config['rope_scaling']"
    if "fixed_theta" in family:  # GPT-J: no rope keys at all
        return {None: {"rope_type": "default", "rope_theta": family["fixed_theta"]}}, where

    per_layer = family.get("per_layer")
    nested = raw is not None and any(key in set(layer_types or ()) for key in raw)
    if family.get("flat_rope_parameters_ignored") and v4 is None and v5 is not None and not nested:
        # Olmo3Config keeps a flat rope_parameters beside its own default per-type blocks and
        # reads only the latter: the flat block has no effect in transformers.
        raise ValueError(
            "config['rope_parameters'] is one flat block, which transformers' Olmo3Config does not "
            "read (it keeps it and builds default blocks per layer type); give "
            "{'full_attention': {...}, 'sliding_attention': {...}} as transformers 5 saves it, or "
            "the transformers 4 keys rope_theta and rope_scaling")
    if raw is None and "default_rope" in family:
        raw = {key: (dict(value) if isinstance(value, dict) else value)
               for key, value in family["default_rope"].items()}
        nested = all(isinstance(value, dict) for value in raw.values())
    if per_layer and not nested:
        # v4 Gemma 3 / ModernBERT: build the per-layer blocks from the model's own keys.
        blocks = {}
        for layer_type, (theta_key, default_theta, scaled) in per_layer.items():
            block = {"rope_type": "default"}
            if scaled and raw:
                block.update(raw)
            theta = config.get(theta_key, default_theta) if theta_key else default_theta
            block["rope_theta"] = _number(theta, f"config['{theta_key}']")
            blocks[layer_type] = block
        return _standardise(blocks, config, family, where), where
    if nested:
        blocks = {}
        for layer_type, block in raw.items():
            if layer_type not in set(layer_types or ()):
                continue
            blocks[layer_type] = _block_from(block, f"{where}['{layer_type}']")
        return _standardise(blocks, config, family, where), where
    block = raw if raw is not None else {}
    return _standardise({None: block}, config, family, where), where


def _standardise(blocks, config, family, where):
    """``standardize_rope_params``: fill rope_type, rope_theta, partial factor, training length."""
    # Each top-level value keeps the name of the key it came from, so that an error names the
    # key where the user wrote it.
    theta_key = family.get("theta_key", "rope_theta")
    if config.get(theta_key) is None:
        theta_key = "rope_theta"
    top_theta = config.get(theta_key)
    partial_key = family.get("partial_key", "partial_rotary_factor")
    if config.get(partial_key) is None:
        partial_key = "partial_rotary_factor"
    top_partial = config.get(partial_key)
    partial_where = f"config['{partial_key}']"
    if top_partial is None and family.get("default_partial") is not None:
        top_partial = family["default_partial"]
        partial_where = f"the {family['default_partial']} default of this model type"
    out = {}
    for layer_type, block in blocks.items():
        name = where if layer_type is None else f"{where}['{layer_type}']"
        if block is None:  # a layer type saved with no RoPE
            out[layer_type] = None
            continue
        block = dict(block)
        rope_type = block.pop("type", None)
        rope_type = block.get("rope_type", rope_type) or "default"
        rope_type = family.get("type_aliases", {}).get(rope_type, rope_type)
        if not isinstance(rope_type, str) or rope_type not in ROPE_TYPES or rope_type == "ntk":
            known = tuple(t for t in ROPE_TYPES if t != "ntk")
            raise ValueError(f"{name}['rope_type'] must be one of {known}, got {rope_type!r}")
        block["rope_type"] = rope_type
        theta_where = f"{name}['rope_theta']"
        if block.get("rope_theta") is None:
            block["rope_theta"] = top_theta if top_theta is not None else family.get("default_theta", 1e4)
            theta_where = f"config['{theta_key}']"
        block["rope_theta"] = _number(block["rope_theta"], theta_where)
        prf_where = f"{name}['partial_rotary_factor']"
        if top_partial is not None and block.get("partial_rotary_factor") is None:
            block["partial_rotary_factor"] = top_partial
            prf_where = partial_where
        if block.get("partial_rotary_factor") is not None:
            prf = block["partial_rotary_factor"]
            if isinstance(prf, bool) or not isinstance(prf, numbers.Real):
                raise TypeError(f"{prf_where} must be a number in (0, 1], got {prf!r}")
            if not 0 < prf <= 1:
                raise ValueError(f"{prf_where} must be a number in (0, 1], got {prf!r}")
        if rope_type in _SCALED_TYPES_WITH_TRAINING_LENGTH:
            # The top-level key wins (Phi-3 keeps it there), else the block's, else the context.
            if layer_type is None and config.get("original_max_position_embeddings") is not None:
                block["original_max_position_embeddings"] = config["original_max_position_embeddings"]
            elif block.get("original_max_position_embeddings") is None and config.get("max_position_embeddings"):
                block["original_max_position_embeddings"] = config["max_position_embeddings"]
        out[layer_type] = block
    return out


def layer_plan(config):
    """Every layer's type and whether it applies RoPE, as the model's transformers code decides.

    Parameters
    ----------
    config : dict
        A model's ``config.json``.

    Returns
    -------
    tuple of (str or None, bool)
        One ``(layer_type, uses_rope)`` per layer (``layer_type`` None when the config has no
        layer types), or an empty tuple when the config gives no layer count.

    Examples
    --------
    >>> [uses for _, uses in layer_plan({"model_type": "llama4_text", "num_hidden_layers": 8,
    ...                                   "hidden_size": 5120, "num_attention_heads": 40})]
    [True, True, True, False, True, True, True, False]
    """
    config, model_type = _text_config(config)
    return _layer_plan(config, _known_family(model_type))


def _layer_plan(config, family):
    count_key = next((key for key in _LAYER_COUNT_KEYS if config.get(key) is not None), None)
    if count_key is None:
        return ()
    n_layers = _int(config, count_key)
    uses_rope = [True] * n_layers
    if family.get("no_rope_layers"):
        flags = config.get("no_rope_layers")
        if flags:  # Llama 4 / SmolLM3: 1 means the layer USES RoPE (despite the name)
            if not isinstance(flags, list) or len(flags) != n_layers or any(f not in (0, 1) for f in flags):
                raise ValueError(f"config['no_rope_layers'] must be a list of {n_layers} zeros and ones "
                                 f"(1 = the layer uses RoPE), got {flags!r}")
            uses_rope = [bool(flag) for flag in flags]
        else:
            interval = config.get("no_rope_layer_interval", 4)
            interval = _int({"no_rope_layer_interval": interval}, "no_rope_layer_interval")
            uses_rope = [(i + 1) % interval != 0 for i in range(n_layers)]
    layer_types = config.get("layer_types")
    if layer_types is not None:
        if not isinstance(layer_types, list) or len(layer_types) != n_layers or not all(
                isinstance(t, str) for t in layer_types):
            raise ValueError(f"config['layer_types'] must be a list of {n_layers} strings, got {layer_types!r}")
        layer_types = list(layer_types)
    elif "layer_pattern" in family and not _rope_only_applies(config, family):
        layer_types = ["full_attention"] * n_layers  # EXAONE 4 without a sliding window
    elif "layer_pattern" in family:
        key, default, *mode = family["layer_pattern"]
        pattern = config.get(key, default) if key else default
        if isinstance(pattern, str) and pattern and set(pattern) <= {"L", "G"}:
            # EXAONE 4 may spell the pattern out: "LLLG" = three local (sliding) layers, one global.
            return _with_rope(config, family, ["sliding_attention" if pattern[i % len(pattern)] == "L"
                                               else "full_attention" for i in range(n_layers)], uses_rope)
        period = _int({key: pattern}, key)
        if mode == ["from_zero"]:  # ModernBERT: layer 0 is global
            layer_types = ["sliding_attention" if i % period else "full_attention" for i in range(n_layers)]
        elif mode == ["linear"]:  # Qwen3-Next: every period-th layer is full attention
            layer_types = ["linear_attention" if (i + 1) % period else "full_attention" for i in range(n_layers)]
        else:
            layer_types = ["sliding_attention" if (i + 1) % period else "full_attention" for i in range(n_layers)]
    elif family.get("no_rope_layers") and "layer_types" not in config and family.get("layout") == "interleaved":
        # Llama 4: chunked attention on RoPE layers, full (global) attention on NoPE layers.
        layer_types = ["chunked_attention" if rope else "full_attention" for rope in uses_rope]
    if layer_types is not None and family.get("last_layer_full"):
        layer_types[-1] = "full_attention"
    return _with_rope(config, family, layer_types, uses_rope)


def _with_rope(config, family, layer_types, uses_rope):
    """Pair each layer's type with whether it rotates, applying the rules on layer types."""
    if family.get("no_rope_layer_types") and layer_types is not None:
        # A surveyed model whose modeling code rotates no layer of these types.
        uses_rope = [rope and t not in family["no_rope_layer_types"] for rope, t in zip(uses_rope, layer_types)]
    if family.get("rope_only_on") and layer_types is not None and _rope_only_applies(config, family):
        uses_rope = [rope and t == family["rope_only_on"] for rope, t in zip(uses_rope, layer_types)]
    if layer_types is not None:
        # Layers without softmax attention (Gated DeltaNet, Mamba, convolutions) rotate nothing.
        uses_rope = [rope and t not in NO_ROPE_LAYER_TYPES for rope, t in zip(uses_rope, layer_types)]
    types = layer_types if layer_types is not None else [None] * len(uses_rope)
    return tuple(zip(types, uses_rope))


# --- the general rule for model types rope_core has no hand-written family for --------------
#
# A model type is read in one of three ways:
# 1. a hand-written family of _FAMILIES;
# 2. a family derived from transformers' own behaviour, recorded for every model type that
#    builds a rotary embedding by scripts/survey_transformers.py (configs/transformers_survey.jsonl):
#    layout, default base and partial factor, which layer types rotate. It is used only when
#    reading transformers' own default config of that type reproduces the recorded inv_freq,
#    attention scaling, layout and RoPE layers; otherwise the type is refused by name;
# 3. any other type is read generically, but only when the config carries no key that reading
#    cannot express (_unreadable_keys); the warning then says what was assumed.
# For 2 and 3 a key the reading cannot express is refused, never dropped.

_SURVEY_FILE = "transformers_survey.jsonl"


@functools.lru_cache(maxsize=1)
def _survey():
    """``(header, {model_type: record})`` of the transformers survey shipped with rope_core."""
    path = resources.files(__package__).joinpath("configs", _SURVEY_FILE)
    if not path.is_file():
        return {}, {}
    lines = path.read_text(encoding="utf-8").splitlines()
    header, records = json.loads(lines[0]), {}
    for line in lines[1:]:
        record = json.loads(line)
        if record.get("status") == "published":
            continue
        keys = (record.get("text_model_type"), record["model_type"])
        for key in keys if record.get("status") == "surveyed" else keys[1:]:
            if key and (key not in records or records[key].get("status") != "surveyed"):
                records[key] = record
    return header, records


def _nested_blocks(params, layer_types):
    """The per-layer-type blocks of a rope_parameters dict (empty when it is one flat block)."""
    if not isinstance(params, dict):
        return {}
    return {key: value for key, value in params.items()
            if isinstance(value, dict) and (key in set(layer_types or ()) or key.endswith("attention"))}


def _derive_family(record):
    """A family (as in :data:`_FAMILIES`) from a survey record, or a reason it cannot be made."""
    rope = record["rope"]
    layouts = {entry["layout"] for entry in rope.values()}
    if None in layouts or len(layouts) != 1:
        notes = "; ".join(str(entry.get("layout_note")) for entry in rope.values() if entry["layout"] is None)
        return None, f"the survey could not tell how its apply function pairs features ({notes})"
    layout = layouts.pop()
    family = {"layout": "half" if layout == "half" else "interleaved", "derived": True}
    if layout == "interleaved_half_out":
        family["half_order_out"] = True
    config = record["config"]
    if record.get("nope_head_dim"):
        family["mla"] = True
    layer_types = record.get("layer_types") if isinstance(record.get("layer_types"), list) else None
    params = config.get("rope_parameters") or {}
    nested = _nested_blocks(params, layer_types)
    if nested:
        family["default_rope"] = {key: dict(value) for key, value in nested.items()}
        family["nested_only"] = True
    else:
        theta = params.get("rope_theta", config.get("rope_theta"))
        if theta is not None:
            family["default_theta"] = theta
        partial = params.get("partial_rotary_factor", config.get("partial_rotary_factor"))
        if partial is not None:
            family["default_partial"] = partial
    if "rope_layers" not in record:
        return None, f"the survey could not run the model to see which layers rotate ({record.get('rope_layers_error')})"
    rotating = set(record["rope_layers"])
    n_layers = record["surveyed_layers"]
    if layer_types is not None and len(layer_types) == n_layers:
        with_rope = {layer_types[i] for i in rotating}
        without = {layer_types[i] for i in range(n_layers) if i not in rotating}
        if with_rope & without:
            return None, (f"some of its {sorted(with_rope & without)} layers rotate and others do not, "
                          "by a rule of its modeling code")
        family["no_rope_layer_types"] = tuple(sorted(without))
        family["needs_layer_types"] = bool(without - set(NO_ROPE_LAYER_TYPES)) or bool(nested)
    elif len(rotating) != n_layers:
        return None, (f"its modeling code leaves layers {sorted(set(range(n_layers)) - rotating)} of "
                      f"{n_layers} without RoPE by a rule rope_core does not know")
    return family, None


def _matches_survey(record, family):
    """Why rope_core's reading of a survey record's own config differs from it ('' if it does not)."""
    config = dict(record["config"], model_type=record.get("text_model_type") or record["model_type"])
    config.pop("text_config", None)
    for layer_type, truth in record["rope"].items():
        layer_type = None if layer_type == "None" else layer_type
        try:
            spec = _read(config, family, config["model_type"], layer_type=layer_type, seq_len=None)
        except (TypeError, ValueError) as error:
            return f"reading its default config fails: {error}"
        # float32 round-off of base ** (2i / d) grows with ln(base): 2e-6 covers bases to 1e9,
        # far below any wrong base, dimension or scaling (1e-3 and more)
        expected = np.array(truth["inv_freq"])
        if spec.inverse_frequencies.shape != expected.shape or not np.allclose(
                spec.inverse_frequencies, expected, rtol=2e-6, atol=0):
            return (f"{spec.rotary_dim // 2} frequencies from {spec.inverse_frequencies[:2]} where its "
                    f"rotary class has {expected.size} from {expected[:2]}")
        if not math.isclose(spec.attention_factor, truth["attention_scaling"], rel_tol=1e-6):
            return f"attention factor {spec.attention_factor} where its rotary class has {truth['attention_scaling']}"
        if (truth.get("rotary_offset") or 0) != spec.rotary_offset:
            return f"rotated features start at {spec.rotary_offset}, not {truth['rotary_offset']}"
        surveyed = record["surveyed_layers"]
        types = record.get("layer_types")
        expected_layers = [i for i in record["rope_layers"]
                           if layer_type is None or not isinstance(types, list) or types[i] == layer_type]
        got = [i for i in spec.layers if i < surveyed]
        if spec.layers and got != expected_layers:
            return f"RoPE on layers {got} where its modeling code rotates {expected_layers}"
    return ""


@functools.lru_cache(maxsize=None)
def _surveyed_family(model_type):
    """``(family, refusal)`` for a model type the survey covers and _FAMILIES does not."""
    record = _survey()[1].get(model_type)
    if record is None:
        return None, None
    if record.get("status") != "surveyed":
        version = _survey()[0].get("transformers_version")
        status = record["status"]
        what = (f"the survey could not build its rotary class ({status[len('failed: '):]})"
                if status.startswith("failed") else f"it has {status}")
        return None, (f"model_type {model_type!r} is refused: in transformers {version} {what}, so "
                      "rope_core cannot check any RoPE it may apply (name a family rope_core knows "
                      "if the model shares one's code)")
    family, reason = _derive_family(record)
    if family is not None:
        reason = _matches_survey(record, family)
    if reason:
        version = _survey()[0].get("transformers_version")
        return None, (f"model_type {model_type!r} is refused: transformers {version}'s code for it "
                      f"({record.get('rotary_class')}) does what rope_core cannot read: {reason}")
    return family, None


# Keys the generic reading does not read, by what they usually mean and what to do.
_SECOND_BASE = ("a second RoPE base, usually for sliding-window or local layers",
                "families with one: 'gemma3_text' (rope_local_base_freq), 'modernbert' "
                "(local_rope_theta); or give rope_parameters one block per layer type and pass layer_type=")
_SPLIT_HEADS = ("MLA-style split heads: only qk_rope_head_dim features rotate, after the "
                "qk_nope_head_dim ones that do not", "families: 'deepseek_v3', 'deepseek_v2', 'kimi_k2'")
_ROTARY_WIDTH = ("how many features rotate, a key transformers' shared code ignores and some "
                 "models' code obeys", "families: 'gptj', 'minimax_m2', 'gpt_neox'; or set "
                 "partial_rotary_factor = rotated features / head_dim")
_LAYER_PATTERN = ("which layers are softmax attention and which Mamba, convolution or linear "
                  "attention (those apply no RoPE)", "families: 'qwen3_next'; or give layer_types, "
                  f"one per layer, using {list(_ATTENTION_LAYER_TYPES + NO_ROPE_LAYER_TYPES)}")
_CROSS_ATTENTION = ("which layers attend to another sequence (images, audio): such cross-attention "
                    "layers usually apply no RoPE", "families: 'mllama' (cross_attention_layers); or "
                    "give layer_types, one per layer")
_MIXED_KINDS = ("layers of several attention kinds, which models treat differently: EXAONE 4 and "
                "Cohere 2 rotate only the sliding layers, Gemma 3 and Olmo 3 give them another "
                "base, others rotate all alike; the config does not say which",
                "name the family whose code the model shares (rope_core.config.MODEL_TYPES), or "
                "give rope_parameters one block per layer type")
_NOPE_LAYERS = ("which layers use RoPE at all", "families: 'llama4_text', 'smollm3', 'cohere2', "
                "'exaone4'; or give layer_types and pass layer_type=")
_NO_ROPE = ("a position scheme other than RoPE, or none", "this model may apply no RoPE at all")
_HEAD_WIDTH = ("the head width under another name (the generic reading uses head_dim, else "
               "hidden_size // num_attention_heads)", "set head_dim to it if the attention uses it")
_LAYOUT = ("how features are paired, a key the generic reading does not read",
           "families that read one: 'deepseek_v3' (rope_interleave)")
_ROPE_OTHER = ("a RoPE setting the generic reading does not read", "name the model's family as "
               "model_type if rope_core knows it (rope_core.config.MODEL_TYPES), or drop the key "
               "if the model's code ignores it")
_READ_KEYS = {"rope_theta", "rope_scaling", "rope_parameters", "partial_rotary_factor",
              "max_position_embeddings", "original_max_position_embeddings", "head_dim",
              "hidden_size", "num_attention_heads", "num_hidden_layers", "layer_types",
              "num_key_value_heads", "model_type", "text_config", "sliding_window",
              "sliding_window_pattern", "use_sliding_window", "max_window_layers",
              "rope_scaling_type", "position_embedding_type"}


def _key_meaning(key, value):
    """``(meaning, advice)`` when the generic reading cannot express ``key``, else None."""
    name = key.lower()
    if key in _READ_KEYS or value is None:
        if key == "position_embedding_type" and isinstance(value, str) and value.lower() not in (
                "rope", "rotary", "rotary_embedding"):
            return _NO_ROPE
        return None
    if name in ("alibi", "use_alibi") or name.startswith("use_") and ("alibi" in name or "absolute" in name):
        return _NO_ROPE if value else None
    if name in ("use_rope", "rope", "use_rotary", "rotary", "rope_enabled") and not value:
        return _NO_ROPE
    if name in ("no_rope", "nope", "use_nope", "no_position_embeddings") and value:
        return _NO_ROPE
    if "qk_rope" in name or "qk_nope" in name or name in ("kv_lora_rank", "q_lora_rank"):
        return _SPLIT_HEADS
    if "nope" in name or "no_rope" in name or name in ("rope_layers", "rope_layer_ids", "use_rope_layers"):
        return _NOPE_LAYERS
    if ("theta" in name or "base_freq" in name or "rope_base" in name or "rotary_base" in name
            or "rotary_emb_base" in name):
        return _SECOND_BASE
    if name in ("rotary_dim", "rotary_pct", "rotary_ndims", "rope_dim", "rotary_emb_dim",
                "rope_head_dim", "rotary_percentage", "partial_rotary", "rotary_fraction"):
        return _ROTARY_WIDTH
    if "interleave" in name or "neox" in name:
        return _LAYOUT
    if name in ("kv_channels", "attention_head_dim", "head_size", "d_head", "head_dim_qk", "qk_head_dim"):
        return _HEAD_WIDTH
    if "cross_attention" in name or "cross_attn" in name:
        return _CROSS_ATTENTION
    if ("pattern" in name and name != "sliding_window_pattern") or "block_type" in name or name in (
            "attn_layer_indices", "attn_layer_period", "attn_layer_offset", "full_attn_idxs",
            "hybrid_layer_ids", "attention_layers", "attn_layers", "linear_attn_config",
            "full_attention_interval", "layers_block_type", "block_types", "layer_block_types",
            "hybrid_override_pattern", "mamba_layers", "ssm_layers") or (
            name.startswith(("mamba", "ssm", "linear_attn", "conv_l")) and name not in ("mamba_d_ff",)):
        return _LAYER_PATTERN
    if "rope" in name or "rotary" in name:
        return _ROPE_OTHER
    return None


def _unreadable_keys(config, reference=None):
    """Keys of ``config`` the reading cannot express: ``[(key, meaning, advice)]``.

    ``reference`` is transformers' default config of a surveyed type: its own keys at their
    default values are what the survey verified, so only keys that differ from it count.
    """
    found = []
    for key, value in config.items():
        if not isinstance(key, str):
            continue
        if reference is not None and key in reference and reference[key] == value:
            continue
        meaning = _key_meaning(key, value)
        if key == "rotary_dim" and _rotary_dim_agrees(config):
            continue  # stated both ways and consistent
        if meaning is not None:
            found.append((key, *meaning))
    layer_types = config.get("layer_types")
    if isinstance(layer_types, list):
        unknown = sorted({t for t in layer_types if isinstance(t, str)}
                         - set(NO_ROPE_LAYER_TYPES) - set(_ATTENTION_LAYER_TYPES))
        if reference is not None and isinstance(reference.get("layer_types"), list):
            unknown = sorted(set(unknown) - set(reference["layer_types"]))
        kinds = sorted({t for t in layer_types if t in _ATTENTION_LAYER_TYPES})
        if reference is None and len(kinds) > 1 and not _nested_blocks(config.get("rope_parameters"), kinds):
            found.append(("layer_types", *_MIXED_KINDS))
        if unknown:
            found.append(("layer_types", f"layers of kind {unknown}, which rope_core cannot tell "
                          "apply RoPE or not", "use "
                          f"{list(_ATTENTION_LAYER_TYPES)} for softmax attention and "
                          f"{list(NO_ROPE_LAYER_TYPES)} for layers without RoPE"))
    return found


def _rotary_dim_agrees(config):
    """Whether rotary_dim equals int(head_dim * partial_rotary_factor) of the same config."""
    rotary, partial = config.get("rotary_dim"), config.get("partial_rotary_factor")
    if not (isinstance(partial, numbers.Real) and isinstance(rotary, numbers.Integral)):
        return False
    try:
        head, _ = _head_dim(config, {}, config.get("model_type"))
    except (TypeError, ValueError):
        return False
    return int(head * partial) == rotary


def _refusal(name, config, found):
    key, meaning, advice = found[0]
    value = repr(config[key])
    value = value if len(value) <= 60 else value[:57] + "..."
    more = f" (also {[other for other, *_ in found[1:]]})" if len(found) > 1 else ""
    return ValueError(f"{name}, and its config has {key!r} = {value}{more}, which rope_core's reading "
                      f"cannot express: it usually means {meaning}. To read it: {advice}")


def _family_for(text, model_type, strict):
    """The family to read ``text`` with, and whether it was read generically (a guess)."""
    if model_type in _FAMILIES:
        return _FAMILIES[model_type], False
    family, refusal = _surveyed_family(model_type)
    if refusal:
        raise ValueError(refusal)
    if family is not None:
        record = _survey()[1][model_type]
        found = _unreadable_keys(text, record["config"])
        if family.get("needs_layer_types") and not isinstance(text.get("layer_types"), list):
            found.append(("layer_types", "(missing) which layers are of which type: this model's "
                          "layer types do not all rotate alike, or have RoPE blocks of their own",
                          "give layer_types as transformers 5 saves it"))
        if family.get("nested_only") and (text.get("rope_scaling") is not None or (
                text.get("rope_parameters") is not None
                and not _nested_blocks(text["rope_parameters"], text.get("layer_types")))):
            key = "rope_scaling" if text.get("rope_scaling") is not None else "rope_parameters"
            found.insert(0, (key, "one RoPE block for a model whose configuration class keeps one "
                             "per layer type (how it splits a single block is its own code)",
                             "give rope_parameters one block per layer type and pass layer_type="))
        if found:
            raise _refusal(f"model_type {model_type!r} (read from transformers' own behaviour)",
                           {"layer_types": None, **text}, found)
        return family, False
    name = "config has no 'model_type'" if model_type is None else (
        f"model_type {model_type!r} is not one rope_core knows (rope_core.config.MODEL_TYPES, "
        f"nor transformers {_survey()[0].get('transformers_version')}'s model types)")
    if strict:
        raise ValueError(f"{name}; strict=True refuses to read it generically")
    found = _unreadable_keys(text)
    if found:
        raise _refusal(name, text, found)
    return {}, True


def _known_family(model_type):
    """The hand-written or surveyed family of a model type, or {} (generic) without refusing."""
    if model_type in _FAMILIES:
        return _FAMILIES[model_type]
    family, _ = _surveyed_family(model_type)
    return family or {}


def _assumptions(spec, text, model_type, layer_types):
    """The one warning for a generic reading: what it assumed, with this config's numbers."""
    name = "a config with no model_type" if model_type is None else f"unknown model_type {model_type!r}"
    if text.get("head_dim") is not None:
        width = f"head_dim {spec.head_dim}"
    else:
        width = f"head_dim {spec.head_dim} = hidden_size // num_attention_heads"
    n_layers = len(spec.layers) + len(spec.nope_layers)
    if not n_layers:
        layers = "every layer"
    elif spec.nope_layers:
        layers = (f"{len(spec.layers)} of {n_layers} layers (none on types "
                  f"{sorted({t for t in layer_types if t in NO_ROPE_LAYER_TYPES})})")
    else:
        layers = f"all {n_layers} layers"
    kinds = f" of type {spec.layer_type!r}" if spec.layer_type else ""
    return (f"{name} read generically: RoPE on {layers}{kinds}, base {spec.base:g}, rotary dim "
            f"{spec.rotary_dim} of {width}, layout 'half' (rotate_half pairs i and i + "
            f"{spec.rotary_dim // 2}), rope_type {spec.rope_type!r}. Check these against the model's "
            "code; strict=True refuses unknown types")


def _rope_only_applies(config, family):
    """Whether the family's "RoPE only on one layer type" rule is on for this config
    (EXAONE 4: only when it has a sliding window; with none, every layer rotates)."""
    condition = family.get("rope_only_if")
    if condition is None:
        return True
    key, default = condition
    return config.get(key, default) is not None


def rope_parameters(config):
    """The transformers 5 ``rope_parameters`` a config amounts to, whatever form it is in.

    transformers 4 configs spread RoPE over top-level keys (``rope_theta``, ``rope_scaling``,
    ``partial_rotary_factor`` and model keys such as GPT-NeoX's ``rotary_pct`` or Gemma 3's
    ``rope_local_base_freq``); transformers 5 gathers them into one ``rope_parameters`` block,
    or one block per layer type. This returns that block as transformers 5's
    ``standardize_rope_params`` leaves it, with every default filled in.

    Parameters
    ----------
    config : dict
        A model's ``config.json``.

    Returns
    -------
    dict
        One block (``rope_type``, ``rope_theta``, the scaling keys, ``partial_rotary_factor``
        when the model has one), or ``{layer_type: block}`` for per-layer-type models (a
        ``None`` block for a layer type saved without RoPE).

    Examples
    --------
    >>> rope_parameters({"model_type": "gpt_neox", "hidden_size": 6144, "num_attention_heads": 64,
    ...                  "rotary_pct": 0.25, "rotary_emb_base": 10000})
    {'rope_type': 'default', 'rope_theta': 10000.0, 'partial_rotary_factor': 0.25}
    >>> sorted(rope_parameters({"model_type": "gemma3_text", "head_dim": 256, "num_hidden_layers": 6,
    ...                         "rope_theta": 1e6, "rope_local_base_freq": 1e4,
    ...                         "rope_scaling": {"rope_type": "linear", "factor": 8.0}}).items())
    [('full_attention', {'rope_type': 'linear', 'factor': 8.0, 'rope_theta': 1000000.0}), \
('sliding_attention', {'rope_type': 'default', 'rope_theta': 10000.0})]
    """
    text, model_type = _text_config(config)
    family = _known_family(model_type)
    plan = _layer_plan(text, family)
    blocks, _ = _rope_blocks(text, family, sorted({t for t, _ in plan if t is not None}))
    if None in blocks:
        return dict(blocks[None])
    return {layer_type: (dict(block) if block is not None else None) for layer_type, block in blocks.items()}


# --- from_config --------------------------------------------------------------------------------

def from_config(config, *, layer_type=None, seq_len=None, strict=False):
    r"""The RoPE of a model, read from its ``config.json`` as transformers 5 reads it.

    Parameters
    ----------
    config : dict
        The model's ``config.json`` (parsed), in the transformers 4 form (top-level
        ``rope_theta``, ``rope_scaling`` with ``rope_type`` or legacy ``type``,
        ``partial_rotary_factor``, ``rotary_pct``, ``rotary_emb_base``, ...) or the
        transformers 5 form (``rope_parameters``, one block per layer type allowed). Multimodal
        configs are read from their ``text_config``. Keys that do not concern RoPE are ignored.
    layer_type : str, optional
        Which layer type to describe (``"full_attention"``, ``"sliding_attention"``,
        ``"chunked_attention"``, ...). Required when the layer types have different RoPE.
    seq_len : float, optional
        Sequence length for dynamic NTK and LongRoPE (default: their length-independent start,
        i.e. no dynamic growth and LongRoPE's short factors).
    strict : bool, default False
        Refuse a ``model_type`` that would be read generically (one neither in
        :data:`rope_core.config.MODEL_TYPES` nor among transformers' surveyed types).

    Returns
    -------
    RopeSpec
        ``inverse_frequencies`` equal to transformers' ``inv_freq`` (float64, so within float32
        round-off of it), its ``attention_scaling``, the layout the model's code applies, and
        which layers use this RoPE and which use none.

    Warns
    -----
    RopeConfigWarning
        When ``model_type`` is unknown to rope_core and to the surveyed transformers (or
        missing) and the config holds nothing the generic reading cannot express: the config
        is read as transformers' shared code reads it (``rope_theta`` / ``rope_scaling`` /
        ``rope_parameters``, rotary dim ``int(head_dim * partial_rotary_factor)``, the half
        layout, RoPE on every layer whose type is not in
        :data:`rope_core.config.NO_ROPE_LAYER_TYPES`); the one-line warning gives what that
        assumed for this config (layers, base, rotary dim, layout), and ``RopeSpec.guesses``
        keeps it.

    Raises
    ------
    TypeError, ValueError
        Naming the key where the config holds it: an unknown ``model_type`` whose config holds
        a key the generic reading cannot express (a second base, MLA split heads, a hybrid
        layer pattern, NoPE declarations, ``rotary_dim``, layers of several attention kinds or
        of an unknown kind), with what the key usually means and what to do; a surveyed type
        whose transformers code rope_core does not reproduce, or that builds no rotary class,
        naming the type; any unknown type with ``strict=True``; a size above
        ``rope_core.config.SIZE_LIMITS``; a ``dynamic`` block with keys transformers does
        not read; a config with no head size; a ``rope_type`` transformers does not know;
        a key of the wrong type; per-layer-type RoPE without ``layer_type``; a ``layer_type``
        the model does not have, or whose layers apply no RoPE; a scaling block missing a key
        its type requires or holding one its type does not read (see
        :func:`rope_core.inverse_frequencies`).

    Notes
    -----
    What transformers does and this function follows (transformers 5.24.0):

    * ``rope_scaling`` wins over ``rope_parameters``; missing ``rope_type`` is ``"default"``,
      missing ``rope_theta`` the class's ``default_theta``
      (``RotaryEmbeddingConfigMixin.convert_rope_params_to_dict``, ``standardize_rope_params``);
    * llama3, yarn and longrope take the training length from a top-level
      ``original_max_position_embeddings`` first, then the block's, then
      ``max_position_embeddings``; dynamic NTK always uses ``max_position_embeddings``;
    * the rotary dimension is ``int(head_dim * partial_rotary_factor)`` (``proportional``:
      ``head_dim``, with ``int(p * head_dim // 2)`` pairs turning);
    * an explicit YaRN ``factor`` wins over ``max_position_embeddings /
      original_max_position_embeddings``; LongRoPE without ``factor`` uses that ratio;
    * family rules: ``rotary_dim`` (GPT-J; MiniMax-M2 unless ``partial_rotary_factor`` is
      given), default ``partial_rotary_factor`` (GPT-NeoX 0.25, GLM / GLM-4.5 0.5, Qwen3-Next
      0.25), RoPE only on some layer types (Cohere 2 and EXAONE 4 with a sliding window: sliding
      layers; Qwen3-Next: ``full_attention`` layers, its ``linear_attention`` layers have none),
      NoPE layers (Llama 4, SmolLM3); the families are listed in
      :data:`rope_core.config.MODEL_TYPES`;
    * YaRN reads ``truncate`` from the top level of ``rope_parameters`` only
      (``config.rope_parameters.get("truncate", True)`` in ``_compute_yarn_parameters``), so a
      per-layer-type block's ``truncate`` has no effect there, nor here.

    Examples
    --------
    >>> gemma3 = {"model_type": "gemma3_text", "head_dim": 256, "num_hidden_layers": 12,
    ...           "rope_theta": 1e6, "rope_local_base_freq": 1e4,
    ...           "rope_scaling": {"rope_type": "linear", "factor": 8.0}}
    >>> spec = from_config(gemma3, layer_type="full_attention")
    >>> spec.rope_type, spec.base, spec.layers
    ('linear', 1000000.0, (5, 11))
    >>> from_config(gemma3, layer_type="sliding_attention").rope_type
    'default'
    """
    seq_len = _check_seq_len(seq_len)
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be True or False, got {strict!r}")
    text, model_type = _text_config(config)
    if model_type is not None and not isinstance(model_type, str):
        raise TypeError(f"config['model_type'] must be a string, got {model_type!r}")
    family, generic = _family_for(text, model_type, strict)
    spec = _read(text, family, model_type, layer_type=layer_type, seq_len=seq_len)
    if generic:
        guess = _assumptions(spec, text, model_type, [t for t, _ in _layer_plan(text, family) if t])
        warnings.warn(guess, RopeConfigWarning, stacklevel=2)
        spec = dataclasses.replace(spec, guesses=(guess,))
    return spec


def _read(text, family, model_type, *, layer_type, seq_len):
    """The body of :func:`from_config`: read ``text`` (the language model's keys) by ``family``."""
    plan = _layer_plan(text, family)
    layer_types = sorted({t for t, _ in plan if t is not None})
    blocks, where = _rope_blocks(text, family, layer_types)
    nope_layers = tuple(i for i, (_, rope) in enumerate(plan) if not rope)

    if layer_type is not None and not isinstance(layer_type, str):
        raise TypeError(f"layer_type must be a string or None, got {layer_type!r}")
    if None in blocks:  # one block for every RoPE layer
        if layer_type is not None and layer_type not in layer_types:
            raise ValueError(f"layer_type {layer_type!r} is not a layer type of this config "
                             f"(it has {layer_types or 'no layer_types'})")
        block = blocks[None]
    else:
        rope_types = [t for t in blocks if blocks[t] is not None]
        if layer_type is None:
            raise ValueError(f"this config has one RoPE per layer type ({sorted(blocks)}); "
                             "pass layer_type= one of them")
        if layer_type not in blocks:
            raise ValueError(f"layer_type {layer_type!r} is not in {where} (it has {sorted(blocks)})")
        block = blocks[layer_type]
        if block is None:
            raise ValueError(f"layers of type {layer_type!r} use no RoPE ({where}['{layer_type}'] is "
                             f"null); the types with RoPE are {rope_types}")
    layers = tuple(i for i, (t, rope) in enumerate(plan) if rope and (layer_type is None or t == layer_type))
    if plan and not layers:
        raise ValueError(f"layers of type {layer_type!r} use no RoPE in this {model_type} config "
                         f"(layers {[i for i, (t, _) in enumerate(plan) if t == layer_type]} are NoPE)")

    rope_head_dim, nope_head_dim = _head_dim(text, family, model_type)
    override = family.get("head_dim_of", {}).get(layer_type)
    if override:  # Gemma 4: full_attention layers use global_head_dim
        key, default = override
        rope_head_dim = _int({key: text.get(key, default)}, key)
    rope_type = block["rope_type"]
    partial = float(block.get("partial_rotary_factor") or 1.0)
    if model_type == "gptj":
        rotary = text.get("rotary_dim", 64)  # GPTJConfig default; null rotates the whole head
        rotary_dim = rope_head_dim if rotary is None else _int({"rotary_dim": rotary}, "rotary_dim")
        partial = rotary_dim / rope_head_dim
    elif family.get("rotary_dim_key") and text.get(family["rotary_dim_key"]) is not None and not any(
            isinstance(source, dict) and source.get("partial_rotary_factor") is not None
            for source in (text, text.get("rope_parameters"), text.get("rope_scaling"))):
        # MiniMaxConfig.convert_rope_params_to_dict: partial_rotary_factor, when given, wins.
        key = family["rotary_dim_key"]
        rotary_dim = _int(text, key)
        if rotary_dim > rope_head_dim:
            raise ValueError(f"config['{key}'] = {rotary_dim} is larger than head_dim {rope_head_dim}")
        partial = rotary_dim / rope_head_dim
    elif rope_type == "proportional":
        rotary_dim = rope_head_dim
    else:
        rotary_dim = int(rope_head_dim * partial)
    if rotary_dim < 2 or rotary_dim % 2:
        raise ValueError(f"the rotary dimension int(head_dim * partial_rotary_factor) = {rotary_dim} "
                         f"(head_dim {rope_head_dim}, partial_rotary_factor {partial}) must be even and >= 2")

    max_positions = text.get("max_position_embeddings", text.get("n_positions"))
    if max_positions is not None:
        max_positions = _int({"max_position_embeddings": max_positions}, "max_position_embeddings")
    scaling = {key: value for key, value in block.items()
               if key not in ("rope_theta", "partial_rotary_factor")}
    if rope_type == "proportional":
        scaling["partial_rotary_factor"] = partial
    block_name = where if layer_type is None or None in blocks else f"{where}['{layer_type}']"
    if rope_type == "dynamic" and family.get("dynamic_alpha") and block.get("alpha"):
        # HunYuan's compute_ntk_alpha_rope_parameters: a fixed alpha stretches the base to
        # base * alpha ** (d / (d - 2)), whatever the sequence length: rope_core's "ntk".
        alpha = _number(block["alpha"], f"{block_name}['alpha']")
        rope_type = "ntk"
        scaling = {"rope_type": "ntk", "factor": alpha}
    elif rope_type == "dynamic":
        # transformers' _validate_dynamic_rope_parameters: rope_type and factor, optionally
        # rope_theta; rope_core also takes a training length. Anything else (an NTK-alpha
        # "alpha", a misspelt key) would be dropped below, so it is refused here.
        allowed = {"rope_type", "type", "factor", "original_max_position_embeddings",
                   "max_position_embeddings", "mrope_section", "mrope_interleaved"}
        unknown = sorted(str(key) for key in scaling if key not in allowed)
        if unknown:
            hint = (" ('alpha' is NTK-alpha scaling, which only HunYuan's code reads: model_type "
                    "'hunyuan_v1_dense' or 'hunyuan_v1_moe')" if "alpha" in unknown else "")
            raise ValueError(
                f"{block_name} of rope_type 'dynamic' has the key(s) {unknown}, which transformers' "
                f"dynamic NTK code does not read (it reads factor and rope_theta){hint}; rope_core "
                "refuses them so that a misspelt key cannot pass unnoticed")
        if max_positions is None:
            raise ValueError("a dynamic RoPE config needs 'max_position_embeddings' (its training length)")
        scaling = {"rope_type": "dynamic", "factor": scaling.get("factor"), "max_position_embeddings": max_positions}
    if rope_type == "longrope" and scaling.get("factor") is None and max_positions is not None:
        scaling["max_position_embeddings"] = max_positions
    if layer_type is not None and None not in blocks:
        scaling.pop("truncate", None)  # read from the top level only (see Notes)
    try:
        checked_type, checked = _scaling_config(scaling)
    except (TypeError, ValueError) as error:  # say which part of the config is wrong
        raise type(error)(f"{block_name}: {error}") from None
    base = block["rope_theta"]
    theta = _scaled_frequencies(rotary_dim, base, checked_type, checked, seq_len)
    theta.setflags(write=False)
    attention = _attention_factor(checked_type, checked)
    softmax = 1.0
    if family.get("mla") and rope_type != "default" and block.get("mscale_all_dim"):
        # modeling_deepseek_v3.py yarn_apply_mscale: scaling *= mscale(factor, mscale_all_dim) ** 2
        softmax = _mscale(block["factor"], block["mscale_all_dim"]) ** 2
    layout = family.get("layout", "half")
    if "layout_key" in family:
        key, default = family["layout_key"]
        layout = "interleaved" if text.get(key, default) else "half"
    training = block.get("original_max_position_embeddings")
    if training is not None and float(training) > SIZE_LIMITS["positions"]:
        raise ValueError(f"{block_name}['original_max_position_embeddings'] = {training} is not a "
                         f"context length: rope_core reads at most {SIZE_LIMITS['positions']}")
    return RopeSpec(
        guesses=(),
        model_type=model_type,
        layer_type=layer_type,
        rope_type=rope_type,
        base=base,
        head_dim=rope_head_dim + nope_head_dim,
        rotary_dim=rotary_dim,
        rotary_offset=nope_head_dim,
        layout=layout,
        inverse_frequencies=theta,
        attention_factor=attention,
        softmax_scale_factor=float(softmax),
        partial_rotary_factor=partial,
        original_max_position_embeddings=int(training) if training is not None else None,
        max_position_embeddings=max_positions,
        rope_parameters=MappingProxyType(dict(block)),
        layers=layers,
        nope_layers=nope_layers,
        output_in_half_order=bool(family.get("half_order_out")) and layout == "interleaved",
        seq_len=seq_len,
    )


#: The published configs rope_core ships (``rope_core/configs``, sources in its README.md): models
#: outside the atlas whose RoPE rope_core's tests check against transformers' own classes.
PUBLISHED_CONFIGS = tuple(sorted(
    entry.name[: -len(".json")] for entry in resources.files(__package__).joinpath("configs").iterdir()
    if entry.name.endswith(".json")))


def published_config(name):
    """The RoPE keys of a published model's ``config.json`` that rope_core ships.

    Parameters
    ----------
    name : str
        One of :data:`rope_core.config.PUBLISHED_CONFIGS`, e.g. ``"minimax-m2"``.

    Returns
    -------
    dict
        The config (a new dict on every call), ready for :func:`from_config`.

    Examples
    --------
    >>> published_config("minimax-m2")["rotary_dim"]
    64
    """
    if name not in PUBLISHED_CONFIGS:
        raise ValueError(f"name: {name!r} is not a published config rope_core ships; "
                         f"it has {list(PUBLISHED_CONFIGS)}")
    text = resources.files(__package__).joinpath("configs", f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text)
