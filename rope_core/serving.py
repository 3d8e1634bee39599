r"""Serving RoPE: position ids for padded and packed batches, and re-rotating cached keys.

Chapter 12 uses these with :func:`rope_core.apply_rope`. Two re-rotations exist:
:func:`rerotate_cached_keys` moves every key by the same number of positions (a static
scheme: its frequencies do not change); :func:`rerotate_to_frequencies` keeps each key's
position and changes the frequencies, by a different angle for each key (dynamic NTK and
LongRoPE change their frequencies with the length).
"""

from __future__ import annotations

import numpy as np

from ._checks import check_int, check_real_array
from .apply import apply_rope
from .multimodal import rotate_pairs


def position_ids_from_mask(attention_mask):
    r"""Position ids of a left- (or right-) padded batch: ``cumsum(mask) - 1``.

    The :math:`j`-th real token of a row gets position :math:`j`, wherever padding puts it;
    padding slots get 0, as transformers 5's ``_prepare_position_ids_for_generation`` fills
    them (``masked_fill(attention_mask == 0, 0)``; transformers 4 wrote 1). Their value does
    not matter: the mask hides them.

    Parameters
    ----------
    attention_mask : array_like of 0/1 (or bool), shape (batch, seq_len)

    Returns
    -------
    ndarray of int64, shape (batch, seq_len)

    Examples
    --------
    >>> position_ids_from_mask([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]]).tolist()
    [[0, 0, 0, 1, 2], [0, 1, 2, 3, 4]]
    """
    mask = check_real_array(attention_mask, "attention_mask", min_ndim=2)
    if mask.ndim != 2 or not np.all((mask == 0) | (mask == 1)):
        raise ValueError("attention_mask must be a 2-D (batch, seq_len) array "
                         "of 0 and 1")
    positions = np.cumsum(mask, axis=-1).astype(np.int64) - 1
    return np.where(mask == 1, positions, 0)


def packed_position_ids(document_lengths):
    r"""Position ids of documents packed into one row: restart at 0 at every document.

    Parameters
    ----------
    document_lengths : sequence of int
        Length of each document (each >= 1), in packing order.

    Returns
    -------
    ndarray of int64, shape (sum(document_lengths),)

    Examples
    --------
    >>> packed_position_ids([3, 2, 4]).tolist()
    [0, 1, 2, 0, 1, 0, 1, 2, 3]
    """
    lengths = [check_int(n, "document_lengths", min=1) for n in np.atleast_1d(document_lengths).tolist()]
    if not lengths:
        raise ValueError("document_lengths must hold at least one length")
    return np.concatenate([np.arange(n, dtype=np.int64) for n in lengths])


def packed_document_ids(position_ids):
    r"""Which document each token of a packed row belongs to, read from its position ids.

    A new document starts wherever the position does not continue the previous one
    (:math:`p_j \ne p_{j-1} + 1`), as transformers finds packed sequences
    (``masking_utils.find_packed_sequence_indices`` for sdpa/eager,
    ``modeling_flash_attention_utils._is_packed_sequence`` for flash-attention). The position
    ids therefore *are* the packing mask: a row of running positions is one document.

    Parameters
    ----------
    position_ids : array_like of int, shape (seq_len,)

    Returns
    -------
    ndarray of int64, shape (seq_len,)
        0 for the first document, 1 for the next, ...

    Examples
    --------
    >>> packed_document_ids([0, 1, 2, 0, 1, 0]).tolist()
    [0, 0, 0, 1, 1, 2]
    >>> packed_document_ids([0, 1, 2, 3, 4, 5]).tolist()
    [0, 0, 0, 0, 0, 0]
    """
    positions = check_real_array(position_ids, "position_ids", min_ndim=1)
    if positions.ndim != 1 or positions.size == 0:
        raise ValueError(f"position_ids must be a non-empty 1-D array, "
                         f"got shape {positions.shape}")
    starts = np.r_[False, np.diff(positions) != 1]
    return np.cumsum(starts).astype(np.int64)


def packed_causal_mask(position_ids):
    r"""The attention mask transformers derives for a packed row: causal and block-diagonal.

    Token :math:`j` may attend to token :math:`i \le j` of the same document
    (:func:`packed_document_ids`).

    Parameters
    ----------
    position_ids : array_like of int, shape (seq_len,)

    Returns
    -------
    ndarray of bool, shape (seq_len, seq_len)
        ``mask[j, i]`` is ``True`` where query :math:`j` may see key :math:`i`.

    Examples
    --------
    >>> packed_causal_mask([0, 1, 0]).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0], [0, 0, 1]]
    """
    documents = packed_document_ids(position_ids)
    n = documents.size
    return np.tril(np.ones((n, n), dtype=bool)) & (documents[:, None] == documents[None, :])


def rerotate_cached_keys(keys, shift, *, base=10000.0, layout="half",
                         rope_scaling=None):
    r"""Move keys cached at positions :math:`m` to positions :math:`m + \text{shift}`.

    A cached key is :math:`R_m\mathbf{k}`; rotating it once more by :math:`R_{s}` gives
    :math:`R_{s}R_m\mathbf{k} = R_{m+s}\mathbf{k}`, the key as if computed at :math:`m + s`.
    Caches that evict tokens and renumber the rest (transformers' former ``SinkCache``,
    llama.cpp's context shift) use it with a negative shift.

    Parameters
    ----------
    keys : array_like, shape (..., seq_len, dim)
        Keys already rotated by :func:`rope_core.apply_rope` with the same ``base``,
        ``layout`` and (static) ``rope_scaling``.
    shift : int
        How far to move every key (negative: towards the start).
    base, layout, rope_scaling
        As in :func:`rope_core.apply_rope`. YaRN's attention factor is *not* applied again.

    Returns
    -------
    ndarray, shape of ``keys``

    Examples
    --------
    >>> k = np.eye(4)[:1]
    >>> moved = rerotate_cached_keys(apply_rope(k, [7], layout="half"), -5)
    >>> bool(np.allclose(moved, apply_rope(k, [2], layout="half")))
    True
    """
    keys = check_real_array(keys, "keys", min_ndim=2)
    shift = check_int(shift, "shift")
    kind = None if rope_scaling is None else (rope_scaling.get("rope_type")
                                              or rope_scaling.get("type"))
    if kind in ("dynamic", "longrope"):
        raise ValueError("rope_scaling: dynamic and longrope frequencies depend on the "
                         "length, so a uniform shift does not describe the change; "
                         "re-rotate each key to the new frequencies with "
                         "rerotate_to_frequencies")
    moved = apply_rope(keys, np.full(keys.shape[-2], shift), base=base, layout=layout,
                       rope_scaling=rope_scaling)
    if rope_scaling is not None:
        from .frequencies import attention_factor
        factor = attention_factor(keys.shape[-1], base, rope_scaling=rope_scaling)
        moved = moved / factor
    return moved


def rerotate_to_frequencies(keys, positions, old_inverse_frequencies,
                            new_inverse_frequencies, *, layout="half",
                            old_factor=1.0, new_factor=1.0):
    r"""Turn keys cached with one set of frequencies into the keys of another, exactly.

    A key cached at position :math:`n` is :math:`a\,R(n\theta)\mathbf{k}` (per pair, with
    attention factor :math:`a`). One more rotation by :math:`n(\theta'_i - \theta_i)` in pair
    :math:`i`, and the factor ratio :math:`a'/a`, give :math:`a'\,R(n\theta')\mathbf{k}`: the
    key as the new frequencies would have rotated it. The angle differs from key to key, so
    it is not the uniform shift of :func:`rerotate_cached_keys`, but it is still one rotation.
    This is how a cache survives dynamic NTK growing its base, or LongRoPE switching from
    its short to its long factors.

    Parameters
    ----------
    keys : array_like, shape (..., seq_len, dim)
        Cached keys, rotated with ``old_inverse_frequencies`` at ``positions``.
    positions : array_like of int, shape (seq_len,)
        The position each cached key was rotated at.
    old_inverse_frequencies, new_inverse_frequencies : array_like, shape (dim // 2,)
        :math:`\theta` and :math:`\theta'`, e.g. from :func:`rope_core.inverse_frequencies`
        at the old and the new sequence length.
    layout : {"half", "interleaved"}
        Which features form a pair (transformers: ``"half"``).
    old_factor, new_factor : float
        Attention factors the keys carry and should carry (YaRN, LongRoPE; 1 otherwise).

    Returns
    -------
    ndarray, shape of ``keys``

    Examples
    --------
    >>> block = {"rope_type": "dynamic", "factor": 1.0, "max_position_embeddings": 8}
    >>> old = rope_core.inverse_frequencies(4, rope_scaling=block, seq_len=8)
    >>> new = rope_core.inverse_frequencies(4, rope_scaling=block, seq_len=32)
    >>> k = np.ones((3, 4))
    >>> cached = rope_core.apply_rope(k, [0, 1, 2], base=10000.0 * (4 ** 2), layout="half")
    >>> moved = rerotate_to_frequencies(rope_core.apply_rope(k, [0, 1, 2], layout="half"),
    ...                                 [0, 1, 2], old, new)
    >>> bool(np.allclose(moved, cached))
    True
    """
    keys = check_real_array(keys, "keys", min_ndim=2)
    if keys.shape[-1] % 2:
        raise ValueError(f"keys must have an even last axis (pairs), "
                         f"got {keys.shape[-1]}")
    if layout not in ("half", "interleaved"):
        raise ValueError(f"layout must be 'half' or 'interleaved', got {layout!r}")
    positions = check_real_array(positions, "positions", min_ndim=1)
    if positions.shape != (keys.shape[-2],):
        raise ValueError(f"positions must have shape ({keys.shape[-2]},) "
                         f"(one per cached key), got {positions.shape}")
    old = check_real_array(old_inverse_frequencies, "old_inverse_frequencies",
                           min_ndim=1)
    new = check_real_array(new_inverse_frequencies, "new_inverse_frequencies",
                           min_ndim=1)
    for name, freq in (("old_inverse_frequencies", old),
                       ("new_inverse_frequencies", new)):
        if freq.shape != (keys.shape[-1] // 2,):
            raise ValueError(f"{name} must have shape ({keys.shape[-1] // 2},) "
                             f"(one per pair), got {freq.shape}")
    for name, factor in (("old_factor", old_factor), ("new_factor", new_factor)):
        number = isinstance(factor, (int, float)) and not isinstance(factor, bool)
        if not number or not factor > 0:
            raise ValueError(f"{name} must be a number > 0, got {factor!r}")
    angles = positions[:, None] * (new - old)[None, :]
    return rotate_pairs(keys, angles, layout=layout) * (new_factor / old_factor)


def mrope_position_delta(t, h, w):
    r"""M-RoPE's ``rope_deltas``: how far the next position is from the next index.

    With images or videos in a prompt, Qwen-VL positions (:func:`rope_core.multimodal.qwen2_vl_positions`)
    grow more slowly than token indices: an image's tokens share one temporal position. The
    delta is :math:`\max(t, h, w) + 1 - n` for a prompt of :math:`n` tokens; every later token
    sits at position ``index + delta`` on all three axes (vLLM and SGLang ``get_rope_index`` /
    ``mrope_position_delta``, transformers ``rope_deltas``).

    Parameters
    ----------
    t, h, w : array_like of int, shape (n,)
        The prompt's three position rows.

    Returns
    -------
    int
        ``<= 0`` for Qwen-VL positions.

    Examples
    --------
    >>> mrope_position_delta([0, 1, 1, 1, 1, 3], [0, 1, 1, 2, 2, 3], [0, 1, 2, 1, 2, 3])
    -2
    """
    rows = [check_real_array(axis, name, min_ndim=1) for axis, name in ((t, "t"), (h, "h"), (w, "w"))]
    if any(row.ndim != 1 for row in rows) or len({row.size for row in rows}) != 1 or rows[0].size == 0:
        raise ValueError("t, h and w must be non-empty 1-D arrays of one length")
    return int(max(row.max() for row in rows) + 1 - rows[0].size)


def mrope_next_positions(delta, context_len, n_new=1):
    r"""Positions of the next ``n_new`` tokens after ``context_len`` cached ones, on all three axes.

    ``context_len + delta`` onwards, the same number for t, h and w (text), as vLLM's
    ``MRotaryEmbedding.get_next_input_positions``. Forgetting the delta (decoding at
    ``context_len``) puts every new token ``-delta`` positions too far from the prompt.

    Parameters
    ----------
    delta : int
        From :func:`mrope_position_delta`.
    context_len : int
        Tokens already in the cache (>= 0).
    n_new : int
        Tokens to place (>= 1): 1 when decoding, more for speculative or chunked steps.

    Returns
    -------
    ndarray of int64, shape (3, n_new)

    Examples
    --------
    >>> mrope_next_positions(-2, 6, 2).tolist()
    [[4, 5], [4, 5], [4, 5]]
    """
    delta = check_int(delta, "delta")
    context_len = check_int(context_len, "context_len", min=0)
    n_new = check_int(n_new, "n_new", min=1)
    start = context_len + delta
    return np.tile(np.arange(start, start + n_new, dtype=np.int64), (3, 1))


#: How serving engines hold RoPE: what they cache, which layout flag they read, how a scaling
#: block reaches them, and where in their code to look. Chapter 12 prints it as a table.
ENGINES = (
    {"engine": "transformers 5",
     "cache": "keys after RoPE (rotated before cache.update)",
     "layout flag": "always half (rotate_half); interleaved models permute weights at conversion",
     "scaling from": "config.json rope_parameters (or rope_scaling, converted)",
     "source": "models/llama/modeling_llama.py; modeling_rope_utils.py"},
    {"engine": "vLLM",
     "cache": "keys after RoPE, in paged blocks",
     "layout flag": "is_neox_style (True = half)",
     "scaling from": "config.json; --hf-overrides '{\"rope_parameters\": {...}}' with --max-model-len "
                     "(--rope-scaling removed in 0.11.1)",
     "source": "vllm/model_executor/layers/rotary_embedding/ (get_rope, mrope.py)"},
    {"engine": "SGLang",
     "cache": "keys after RoPE, in a radix tree of pages",
     "layout flag": "is_neox_style (True = half)",
     "scaling from": "config.json; --json-model-override-args '{\"rope_scaling\": {...}}' with "
                     "--context-length",
     "source": "python/sglang/srt/layers/rotary_embedding/ (factory.py get_rope, mrope.py)"},
    {"engine": "TensorRT-LLM",
     "cache": "keys after RoPE, applied in the fused attention kernel",
     "layout flag": "PositionEmbeddingType rope_gpt_neox (half) / rope_gptj (interleaved)",
     "scaling from": "the checkpoint's config (rotary_scaling), read at build or load time",
     "source": "tensorrt_llm/functional.py (PositionEmbeddingType); _torch/attention_backend"},
    {"engine": "llama.cpp",
     "cache": "keys after RoPE; context shift re-rotates them (K-shift)",
     "layout flag": "rope type NORM (interleaved) / NEOX (half) / MROPE / IMROPE per architecture",
     "scaling from": "GGUF keys {arch}.rope.freq_base, .rope.scaling.type/.factor/"
                     ".original_context_length; or --rope-scaling yarn --rope-scale --yarn-orig-ctx",
     "source": "include/llama.h (llama_rope_type); gguf-py/gguf/constants.py (Keys.Rope); "
               "convert_hf_to_gguf.py (LlamaModel.permute)"},
    {"engine": "MLX (mlx-lm)",
     "cache": "keys after RoPE (KVCache.update_and_fetch after rope(k, offset))",
     "layout flag": "nn.RoPE(traditional=True) = interleaved, False = half",
     "scaling from": "config.json rope_scaling via mlx_lm.models.rope_utils.initialize_rope",
     "source": "mlx/nn/layers/positional_encoding.py; mlx_lm/models/rope_utils.py"},
)

#: Fused RoPE kernels: what each fuses with the rotation, the flag that picks the pairing (and
#: which layout its ``True`` means), its default, and what it takes as positions. Chapter 13
#: prints it; :func:`kernel_layout` reads a flag through it.
FUSED_KERNELS = (
    {"kernel": "flash-attn apply_rotary_emb", "fuses": "RoPE alone (Triton), in place if asked",
     "flag": "interleaved", "true_means": "interleaved", "default": False,
     "positions": "seqlen_offsets: an int or one offset per sequence, plus 0, 1, 2, ... along "
                  "the sequence (cu_seqlens for packed batches)",
     "tables": "cos, sin: (positions, rotary_dim / 2)",
     "source": "Dao-AILab/flash-attention flash_attn/layers/rotary.py, read at commit "
               "09d422b1 (November 2026)"},
    {"kernel": "flash-attn flash_attn_with_kvcache", "fuses": "RoPE of the new q and k, the "
     "KV-cache append and attention, in one kernel",
     "flag": "rotary_interleaved", "true_means": "interleaved", "default": True,
     "positions": "cache_seqlens: new keys at cache_seqlens, cache_seqlens + 1, ...; "
                  "queries the same if causal, else all at cache_seqlens",
     "tables": "rotary_cos, rotary_sin: (positions, rotary_dim / 2)",
     "source": "Dao-AILab/flash-attention flash_attn/flash_attn_interface.py, read at commit "
               "00530025 (November 2026)"},
    {"kernel": "FlashInfer apply_rope / apply_rope_pos_ids", "fuses": "RoPE of q and k, "
     "frequencies computed in the kernel (apply_llama31_rope: with Llama 3.1's scaling)",
     "flag": "interleave", "true_means": "interleaved", "default": False,
     "positions": "apply_rope: indptr and one offset per request (ragged batch); "
                  "apply_rope_pos_ids: one position id per token",
     "tables": "none: rope_theta and rope_scale are arguments",
     "source": "docs.flashinfer.ai, flashinfer.rope (read 2026-11-28)"},
    {"kernel": "FlashInfer apply_rope_with_cos_sin_cache(_inplace)", "fuses": "RoPE of q and k "
     "from vLLM's and SGLang's table, for those engines",
     "flag": "is_neox", "true_means": "half", "default": True,
     "positions": "positions: one position id per token",
     "tables": "cos_sin_cache: (positions, rotary_dim), the cosines in the first half of each "
               "row, the sines in the second",
     "source": "docs.flashinfer.ai, flashinfer.rope.apply_rope_with_cos_sin_cache_inplace "
               "(read 2026-11-28)"},
    {"kernel": "vLLM fused_qk_norm_rope", "fuses": "per-head RMSNorm of q and k (QK-norm), then "
     "RoPE, on the packed qkv tensor",
     "flag": "is_neox", "true_means": "half", "default": None,
     "positions": "position_ids: one per token",
     "tables": "cos_sin_cache, as FlashInfer's",
     "source": "vllm-project/vllm vllm/compilation/passes/fusion/qk_norm_rope_fusion.py at "
               "commit de701c96 (QKNormRoPEFusionPass, enabled by "
               "pass_config.enable_qk_norm_rope_fusion)"},
    {"kernel": "SGLang fused DeepSeek-V3.2 / GLM-5 indexer kernels", "fuses": "the indexer's "
     "q and k paths: norm, RoPE, quantisation and the cache write",
     "flag": "none: interleaved hard-coded", "true_means": "interleaved", "default": True,
     "positions": "not read here",
     "tables": "cos_sin_cache, as FlashInfer's",
     "source": "sgl-project/sglang PR #27705 (June 2026); PR #30111 (July 2026) sends "
               "half-layout models back to the unfused path (chapter 14, section 8)"},
)


def kernel_layout(kernel, flag_value=None):
    """The pairing a :data:`FUSED_KERNELS` kernel applies for a value of its layout flag.

    Parameters
    ----------
    kernel : str
        A ``"kernel"`` of :data:`FUSED_KERNELS`.
    flag_value : bool, optional
        The value passed for the kernel's flag (default: the kernel's own default).

    Returns
    -------
    str
        ``"half"`` or ``"interleaved"``, rope_core's names for the two layouts.

    Raises
    ------
    ValueError
        For an unknown ``kernel``, or a ``flag_value`` that is not a bool, or none given to a
        kernel without a default.

    Examples
    --------
    >>> kernel_layout("FlashInfer apply_rope_with_cos_sin_cache(_inplace)", True)
    'half'
    >>> kernel_layout("FlashInfer apply_rope / apply_rope_pos_ids", True)
    'interleaved'
    """
    record = next((item for item in FUSED_KERNELS if item["kernel"] == kernel), None)
    if record is None:
        raise ValueError(f"kernel: {kernel!r} is not in FUSED_KERNELS; it has "
                         f"{[item['kernel'] for item in FUSED_KERNELS]}")
    value = record["default"] if flag_value is None else flag_value
    if not isinstance(value, bool):
        raise ValueError(f"flag_value: {kernel!r} has no default; pass True or False, "
                         f"got {flag_value!r}")
    other = {"half": "interleaved", "interleaved": "half"}
    return record["true_means"] if value else other[record["true_means"]]


def apply_with_cos_sin_cache(x, positions, cos_sin_cache, *, is_neox):
    r"""Rotate ``x`` as the fused kernels that read vLLM's ``cos_sin_cache`` do.

    The cache holds one row per position, ``[cos θ_0 … cos θ_{r/2-1}, sin θ_0 … sin θ_{r/2-1}]``
    with :math:`θ_i = m\,\theta_i` and ``r`` the rotary width, whatever the pairing. Row
    ``positions[t]`` rotates token ``t``; ``is_neox`` picks the pairing: feature ``i`` with
    ``i + r/2`` (half) or ``2i`` with ``2i + 1`` (interleaved). Features past ``r`` pass
    unchanged.

    Parameters
    ----------
    x : array_like, shape (tokens, ..., head_dim)
        Queries or keys, one row per token (heads may sit between).
    positions : array_like of int, shape (tokens,)
        One position id per token, each a row of ``cos_sin_cache``.
    cos_sin_cache : array_like, shape (max_positions, rotary_dim)
        The table, cosines first, as above; ``rotary_dim`` even and at most ``head_dim``.
    is_neox : bool
        ``True`` for the half layout, ``False`` for the interleaved one.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``, float64.

    Raises
    ------
    ValueError
        For a position outside the table, an odd or too wide ``rotary_dim``, mismatched token
        counts or a non-bool ``is_neox``.

    Examples
    --------
    >>> theta = 1.0 / 10000 ** (np.arange(0, 4, 2) / 4)
    >>> table = np.concatenate([np.cos(np.outer(np.arange(8), theta)),
    ...                         np.sin(np.outer(np.arange(8), theta))], axis=1)
    >>> x = np.ones((1, 4))
    >>> bool(np.allclose(apply_with_cos_sin_cache(x, [5], table, is_neox=True),
    ...                  apply_rope(x, [5], layout="half")))
    True
    """
    x = check_real_array(x, "x")
    table = check_real_array(cos_sin_cache, "cos_sin_cache")
    if not isinstance(is_neox, bool):
        raise ValueError(f"is_neox: must be True or False, got {is_neox!r}")
    if table.ndim != 2 or table.shape[1] % 2 or table.shape[1] > x.shape[-1]:
        raise ValueError(f"cos_sin_cache: must have shape (positions, rotary_dim) with an even "
                         f"rotary_dim <= head_dim {x.shape[-1]}, got {table.shape}")
    positions = np.asarray(positions)
    if positions.ndim != 1 or positions.shape[0] != x.shape[0]:
        raise ValueError(f"positions: need one per token ({x.shape[0]}), got shape {positions.shape}")
    if not np.issubdtype(positions.dtype, np.integer) or positions.min() < 0 \
            or positions.max() >= table.shape[0]:
        raise ValueError(f"positions: must be integers in [0, {table.shape[0]}), got "
                         f"{positions.min()}..{positions.max()}")
    half = table.shape[1] // 2
    rows = table[positions].reshape((x.shape[0],) + (1,) * (x.ndim - 2) + (2 * half,))
    cos, sin = rows[..., :half], rows[..., half:]
    out = x.copy()
    if is_neox:
        a, b = x[..., :half], x[..., half:2 * half]
        out[..., :half], out[..., half:2 * half] = a * cos - b * sin, b * cos + a * sin
    else:
        a, b = x[..., 0:2 * half:2], x[..., 1:2 * half:2]
        out[..., 0:2 * half:2], out[..., 1:2 * half:2] = a * cos - b * sin, b * cos + a * sin
    return out


#: What an engineer decides a scaling scheme on, beyond its frequencies: whether the model needs
#: training with it, and how each engine spells it. One record per ``rope_type`` of chapter 9
#: (``"ntk"`` is rope_core's name for static NTK-aware scaling). Chapter 10 joins it with numbers
#: computed from the frequencies (short-input cost, attention factor, cache safety).
SCALING_SCHEMES = (
    {"rope_type": "linear",
     "training": "needed: about 1 000 steps of fine-tuning (Position Interpolation paper)",
     "transformers": '"linear"', "vLLM": '"linear"', "SGLang": '"linear"',
     "llama.cpp": "rope.scaling.type linear (--rope-scaling linear --rope-scale s)",
     "source": "Chen et al. 2023 (arXiv 2306.15595); transformers ROPE_INIT_FUNCTIONS; vLLM and "
               "SGLang get_rope; llama.cpp llama_rope_scaling_type"},
    {"rope_type": "ntk",
     "training": "none to about 2x; a fine-tune helps beyond (bloc97's NTK-aware post, June 2023, "
                 "as the YaRN paper reports it)",
     "transformers": "no type: write rope_theta = base s^(d/(d-2))",
     "vLLM": '"ntk" (vLLM\'s own type)',
     "SGLang": "no type: raise rope_theta",
     "llama.cpp": "no type: --rope-freq-base base s^(d/(d-2))",
     "source": "Peng et al. 2023 (arXiv 2309.00071) section 3; vLLM get_rope "
               "(NTKScalingRotaryEmbedding); SGLang get_rope has no 'ntk' branch"},
    {"rope_type": "dynamic",
     "training": "none: designed for inference (the dynamic variant that followed bloc97's post)",
     "transformers": '"dynamic" (recomputed at each length)',
     "vLLM": '"dynamic": one static table for the deployment (alpha = s^2 - s + 1 until PR '
             '#41277, April 2026; since then s L_served / L - (s - 1) at the served max length)',
     "SGLang": '"dynamic": one static table for the deployment',
     "llama.cpp": "not supported",
     "source": "transformers dynamic_rope_update; vLLM DynamicNTKScalingRotaryEmbedding (issues "
               "#3488, #5093, #41236; PR #41277); SGLang DynamicNTKScalingRotaryEmbedding; "
               "llama.cpp scaling types none/linear/yarn/longrope"},
    {"rope_type": "yarn",
     "training": "works without at small factors; about 400 steps at s = 16 (YaRN paper); "
                 "trained in by DeepSeek-V3 and gpt-oss",
     "transformers": '"yarn"', "vLLM": '"yarn" (DeepSeek: "deepseek_yarn")',
     "SGLang": '"yarn" (DeepSeek: "deepseek_yarn")',
     "llama.cpp": "rope.scaling.type yarn (--rope-scaling yarn --rope-scale s --yarn-orig-ctx L)",
     "source": "Peng et al. 2023 (arXiv 2309.00071); DeepSeek-V3 report (arXiv 2412.19437); vLLM "
               "and SGLang get_rope; llama.cpp common/arg.cpp"},
    {"rope_type": "llama3",
     "training": "most likely trained in: Llama 3.1 ships it (use_scaled_rope) after a staged "
                 "long-context pre-training, though its report never describes the scaling",
     "transformers": '"llama3"', "vLLM": '"llama3"', "SGLang": '"llama3"',
     "llama.cpp": "per-pair factors baked into the GGUF tensor rope_freqs by the converter",
     "source": "Llama 3 report (arXiv 2407.21783); vLLM and SGLang get_rope; llama.cpp "
               "convert_hf_to_gguf.py (LlamaModel.generate_extra_tensors)"},
    {"rope_type": "longrope",
     "training": "searched factors, then trained in (Phi-3); up to 8x without fine-tuning in the "
                 "LongRoPE paper",
     "transformers": '"longrope" (short or long factors by the current length)',
     "vLLM": '"longrope": the long factors on every input once max_model_len > original',
     "SGLang": '"longrope"',
     "llama.cpp": "rope.scaling.type longrope: the long factors on every input once the context "
                  "per sequence > original",
     "source": "Ding et al. 2024 (arXiv 2402.13753); Phi-3 report (arXiv 2404.14219); vLLM and "
               "SGLang get_rope (Phi3LongRoPEScaledRotaryEmbedding, use_long_rope); llama.cpp "
               "llama_rope_scaling_type and llama_model::get_rope_factors (2026)"},
)
