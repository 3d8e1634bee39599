r"""A decoder-only attention model in NumPy, with its backward pass written out.

The model is small enough to train on one CPU core in under a minute and plain enough to
read in one sitting: token embeddings, ``n_layers`` blocks of causal multi-head attention
(pre-norm RMSNorm, optional ReLU MLP), a final RMSNorm and an unembedding. Its attention
takes any position encoding of the book:

* ``"rope"``: queries and keys rotated by :func:`rope_core.apply_rope` (either layout, any
  ``rope_scaling`` and rotary dimension rope_core supports). The backward pass rotates the
  gradients with the same function at :math:`-m`: a rotation's transpose is its inverse;
* ``"nope"``: no position information at all (only the causal mask);
* ``"learned"``: a learned absolute table added to the embeddings (GPT-2);
* ``"sinusoidal"``: Vaswani et al.'s fixed table, scaled to the embeddings' size;
* ``"alibi"``: a linear distance penalty per head added to the scores (Press et al.).

Shapes: tokens ``(B, T)``; activations ``(B, T, d)``; per-head ``(B, H, T, d_head)``; scores
``(B, H, T, T)``. Parameters live in a flat ``dict`` of arrays, gradients in one with the same
keys, so the optimizer and the checkpoints need nothing but NumPy.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from ..apply import apply_rope
from ..frequencies import _scaling_config, inverse_frequencies

ENCODINGS = ("rope", "nope", "learned", "sinusoidal", "alibi")
_EPS = 1e-6


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    """Everything that fixes the model's shape and position encoding.

    Parameters
    ----------
    vocab : int
        Number of token ids.
    encoding : {"rope", "nope", "learned", "sinusoidal", "alibi"}
    d_model, n_heads, n_layers : int
        Width, heads per layer (``d_model % n_heads == 0``), number of blocks.
    max_len : int
        Longest sequence a ``"learned"`` table covers (other encodings take any length).
    base : float
        RoPE's frequency base.
    layout : {"interleaved", "half"}
        RoPE's pairing of features.
    rotary_dim : int, optional
        Rotate only the first ``rotary_dim`` features of each head (default: all).
    rope_scaling : dict, optional
        A scaling block as in :func:`rope_core.inverse_frequencies`, used in training and by
        default in evaluation.
    mlp : bool
        Add a ReLU MLP (4x width) after each attention block.
    qkv_bias : bool
        Biases on queries, keys and values.
    sinusoid_scale : float, optional
        Multiplier of Vaswani's table; default: the embeddings' initial RMS (``init_std``).
    init_std : float
        Standard deviation of the initial weights.
    """

    vocab: int
    encoding: str = "rope"
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 2
    max_len: int = 64
    base: float = 10000.0
    layout: str = "interleaved"
    rotary_dim: int | None = None
    rope_scaling: dict | None = None
    mlp: bool = False
    qkv_bias: bool = True
    sinusoid_scale: float | None = None
    init_std: float = 0.02

    def __post_init__(self):
        if self.encoding not in ENCODINGS:
            raise ValueError(f"encoding must be one of {ENCODINGS}, got {self.encoding!r}")
        for name in ("vocab", "d_model", "n_heads", "n_layers", "max_len"):
            value = getattr(self, name)
            if not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model ({self.d_model}) must be a multiple of n_heads ({self.n_heads})")
        if self.d_head % 2:
            raise ValueError(f"d_model / n_heads must be even for RoPE's pairs, got {self.d_head}")
        if self.layout not in ("interleaved", "half"):
            raise ValueError(f"layout must be 'interleaved' or 'half', got {self.layout!r}")
        if self.rope_scaling is not None:
            _scaling_config(self.rope_scaling, self.base)

    @property
    def d_head(self):
        return self.d_model // self.n_heads

    def replace(self, **changes):
        """A copy with some fields changed (e.g. ``rope_scaling`` for a fine-tune)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self):
        return dataclasses.asdict(self)


def init_params(config, seed=0, dtype=np.float32):
    r"""Initial parameters: :math:`\mathcal N(0, \sigma^2)` weights, zero biases, unit gains.

    The output projections of each block are scaled by :math:`1/\sqrt{2 n_\text{layers}}` (GPT-2)
    so that the residual stream does not grow with depth.

    Returns
    -------
    dict of str to ndarray
    """
    rng = np.random.default_rng(seed)
    d, std = config.d_model, config.init_std
    out_std = std / math.sqrt(2 * config.n_layers)

    def normal(shape, scale=std):
        return (rng.standard_normal(shape) * scale).astype(dtype)

    params = {"embed": normal((config.vocab, d))}
    if config.encoding == "learned":
        params["pos_embed"] = normal((config.max_len, d))
    for layer in range(config.n_layers):
        p = f"l{layer}."
        params[p + "norm1"] = np.ones(d, dtype)
        for name in ("wq", "wk", "wv"):
            params[p + name] = normal((d, d))
        if config.qkv_bias:
            for name in ("bq", "bk", "bv"):
                params[p + name] = np.zeros(d, dtype)
        params[p + "wo"] = normal((d, d), out_std)
        params[p + "bo"] = np.zeros(d, dtype)
        if config.mlp:
            params[p + "norm2"] = np.ones(d, dtype)
            params[p + "w1"] = normal((d, 4 * d))
            params[p + "b1"] = np.zeros(4 * d, dtype)
            params[p + "w2"] = normal((4 * d, d), out_std)
            params[p + "b2"] = np.zeros(d, dtype)
    params["norm_f"] = np.ones(d, dtype)
    params["unembed"] = normal((d, config.vocab))
    return params


def sinusoidal_table(seq_len, d_model):
    r"""Vaswani et al.'s table: :math:`P_{t,2i} = \sin(t/10000^{2i/d})`,
    :math:`P_{t,2i+1} = \cos(t/10000^{2i/d})`, shape ``(seq_len, d_model)``.

    Examples
    --------
    >>> sinusoidal_table(2, 4).round(3)
    array([[0.   , 1.   , 0.   , 1.   ],
           [0.841, 0.54 , 0.01 , 1.   ]])
    """
    angles = np.arange(seq_len)[:, None] * 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    table = np.empty((seq_len, d_model))
    table[:, 0::2], table[:, 1::2] = np.sin(angles), np.cos(angles)
    return table


def alibi_slopes(n_heads):
    r"""ALiBi's head slopes :math:`m_h = 2^{-8h/H}`, :math:`h = 1 \dots H`.

    Examples
    --------
    >>> alibi_slopes(4).tolist()
    [0.25, 0.0625, 0.015625, 0.00390625]
    """
    return 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)


def static_scaling(rope_scaling, seq_len, dim, base):
    """The scaling block with its dependence on the sequence length resolved.

    ``"dynamic"`` NTK at length ``seq_len`` is static NTK with factor
    :math:`s\\,\\ell/L - (s-1)`, and LongRoPE picks its short or long factors by length. The
    backward pass rotates at :math:`-m`, where the largest position is no longer the
    sequence length, so it must see the frequencies the forward pass used: this block.
    """
    if rope_scaling is None:
        return None
    rope_type, config = _scaling_config(rope_scaling, base)
    if rope_type == "dynamic":
        length = config.get("original_max_position_embeddings") or config["max_position_embeddings"]
        factor = config["factor"] * max(seq_len, length) / length - (config["factor"] - 1)
        return {"rope_type": "ntk", "factor": float(factor)} if factor > 1 else None
    if rope_type == "longrope":
        chosen = "long_factor" if seq_len > config["original_max_position_embeddings"] else "short_factor"
        fixed = {k: v for k, v in rope_scaling.items() if k not in ("short_factor", "long_factor")}
        if "factor" not in fixed and "max_position_embeddings" in fixed:
            fixed["factor"] = fixed["max_position_embeddings"] / fixed["original_max_position_embeddings"]
        return {**fixed, "short_factor": list(config[chosen]), "long_factor": list(config[chosen])}
    return rope_scaling


def pair_features(config, pairs):
    """Indices of the head features that form RoPE pairs ``pairs`` in ``config``'s layout."""
    pairs = np.atleast_1d(np.asarray(pairs, dtype=int))
    rotary = config.rotary_dim or config.d_head
    if np.any(pairs < 0) or np.any(pairs >= config.d_head // 2):
        raise ValueError(f"pairs must lie in 0..{config.d_head // 2 - 1}, got {pairs.tolist()}")
    if config.layout == "interleaved":
        return np.concatenate([2 * pairs, 2 * pairs + 1])
    half = rotary // 2
    inside = pairs[pairs < half]
    outside = pairs[pairs >= half]  # features past rotary_dim keep the interleaved order
    return np.concatenate([inside, inside + half, rotary + 2 * (outside - half),
                           rotary + 2 * (outside - half) + 1])


class _Rotation:
    """RoPE for one sequence length: forward at ``m``, backward at ``-m``."""

    def __init__(self, config, seq_len, rope_scaling):
        self.positions = np.arange(seq_len, dtype=np.float64)
        self.rotary_dim = config.rotary_dim or config.d_head
        scaling = static_scaling(rope_scaling, seq_len, self.rotary_dim, config.base)
        self.kwargs = dict(base=config.base, layout=config.layout,
                           rotary_dim=config.rotary_dim, rope_scaling=scaling)

    def forward(self, x):
        return apply_rope(x, self.positions, **self.kwargs)

    def backward(self, grad):
        # (c R(m))^T = c R(-m): the gradient is rotated back by the same function at -m.
        return apply_rope(grad, -self.positions, **self.kwargs)


def _rmsnorm(x, gain):
    rms = np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + _EPS)
    xhat = x / rms
    return xhat * gain, (xhat, rms)


def _rmsnorm_backward(grad, gain, cache):
    xhat, rms = cache
    dgain = np.sum(grad * xhat, axis=tuple(range(grad.ndim - 1)))
    dxhat = grad * gain
    dx = (dxhat - xhat * np.mean(dxhat * xhat, axis=-1, keepdims=True)) / rms
    return dx, dgain


def _split(x, n_heads):
    b, t, d = x.shape
    return x.reshape(b, t, n_heads, d // n_heads).transpose(0, 2, 1, 3)


def _merge(x):
    b, h, t, dh = x.shape
    return x.transpose(0, 2, 1, 3).reshape(b, t, h * dh)


def position_bias(config, seq_len, dtype=np.float32):
    """Additive score bias ``(H, T, T)``: the causal mask, plus ALiBi's penalty if chosen."""
    t = np.arange(seq_len)
    distance = t[:, None] - t[None, :]
    bias = np.where(distance >= 0, 0.0, -1e9)
    bias = np.broadcast_to(bias, (config.n_heads, seq_len, seq_len)).copy()
    if config.encoding == "alibi":
        bias -= alibi_slopes(config.n_heads)[:, None, None] * np.maximum(distance, 0)
    return bias.astype(dtype)


def forward(params, tokens, config, *, rope_scaling="config", query_mask=None, keep=False):
    r"""Logits for ``tokens``; optionally keep what the backward pass and the analyses need.

    Parameters
    ----------
    params : dict
        From :func:`init_params` (or a checkpoint).
    tokens : ndarray of int, shape (B, T)
    config : ModelConfig
    rope_scaling : dict or None, optional
        Override the config's scaling block (evaluate one model under several schemes).
    query_mask : dict of int to ndarray, optional
        ``{layer: mask of shape (d_head,)}``: multiply every head's rotated queries of that
        layer by the mask (the pair ablation; evaluation only).
    keep : bool
        Return the per-layer cache (attention weights, queries, keys) as well.

    Returns
    -------
    logits : ndarray, shape (B, T, vocab)
    cache : dict, only with ``keep=True``
    """
    tokens = np.asarray(tokens)
    if tokens.ndim != 2 or tokens.dtype.kind not in "iu":
        raise ValueError(f"tokens must be a 2-D integer array (batch, seq_len), got {tokens.dtype} {tokens.shape}")
    if tokens.size and (tokens.min() < 0 or tokens.max() >= config.vocab):
        raise ValueError(f"tokens must lie in 0..{config.vocab - 1}")
    b, t = tokens.shape
    if config.encoding == "learned" and t > config.max_len:
        raise ValueError(
            f"a learned absolute table has {config.max_len} positions; it cannot run at length {t}")
    scaling = config.rope_scaling if rope_scaling == "config" else rope_scaling
    dtype = params["embed"].dtype
    cache = {"tokens": tokens, "layers": []}
    x = params["embed"][tokens]
    if config.encoding == "learned":
        x = x + params["pos_embed"][:t]
    elif config.encoding == "sinusoidal":
        scale = config.sinusoid_scale if config.sinusoid_scale is not None else config.init_std
        # Vaswani's entries have RMS 1/sqrt(2); scaled so the table is as large as the embeddings.
        x = x + (sinusoidal_table(t, config.d_model) * scale * math.sqrt(2)).astype(dtype)
    rotation = _Rotation(config, t, scaling) if config.encoding == "rope" else None
    bias = position_bias(config, t, dtype)
    scale = 1.0 / math.sqrt(config.d_head)
    for layer in range(config.n_layers):
        p = f"l{layer}."
        c = {"x_in": x}
        n, c["norm1"] = _rmsnorm(x, params[p + "norm1"])
        c["n"] = n
        q, k, v = (n @ params[p + w] for w in ("wq", "wk", "wv"))
        if config.qkv_bias:
            q, k, v = q + params[p + "bq"], k + params[p + "bk"], v + params[p + "bv"]
        q, k, v = (_split(a, config.n_heads) for a in (q, k, v))
        c["q_raw"], c["k_raw"] = q, k
        if rotation is not None:
            q, k = rotation.forward(q), rotation.forward(k)
        if query_mask is not None and layer in query_mask:
            q = q * np.asarray(query_mask[layer], dtype)
        scores = (q @ k.transpose(0, 1, 3, 2)) * scale + bias
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = weights @ v
        c.update(q=q, k=k, v=v, attn=weights, heads=_merge(heads))
        x = x + c["heads"] @ params[p + "wo"] + params[p + "bo"]
        if config.mlp:
            c["x_mid"] = x
            n2, c["norm2"] = _rmsnorm(x, params[p + "norm2"])
            pre = n2 @ params[p + "w1"] + params[p + "b1"]
            hidden = np.maximum(pre, 0)
            c.update(n2=n2, pre=pre, hidden=hidden)
            x = x + hidden @ params[p + "w2"] + params[p + "b2"]
        cache["layers"].append(c)
    nf, cache["norm_f"] = _rmsnorm(x, params["norm_f"])
    cache["nf"] = nf
    cache["rotation"] = rotation
    logits = nf @ params["unembed"]
    return (logits, cache) if keep else logits


def cross_entropy(logits, targets, mask):
    r"""Mean of :math:`-\log \operatorname{softmax}(\ell)_y` over the positions where ``mask``.

    Returns
    -------
    loss : float
    grad : ndarray, shape of ``logits``
        :math:`\partial\,\text{loss}/\partial \ell`.
    """
    count = max(int(mask.sum()), 1)
    shifted = logits - logits.max(axis=-1, keepdims=True)
    probs = np.exp(shifted)
    probs /= probs.sum(axis=-1, keepdims=True)
    picked = np.take_along_axis(probs, targets[..., None], axis=-1)[..., 0]
    loss = -np.sum(np.log(np.maximum(picked, 1e-30)) * mask) / count
    grad = probs
    np.put_along_axis(grad, targets[..., None],
                      np.take_along_axis(grad, targets[..., None], axis=-1) - 1, axis=-1)
    grad *= (mask / count)[..., None].astype(grad.dtype)
    return float(loss), grad


def backward(params, cache, dlogits, config):
    r"""Gradients of the loss for every parameter, given :math:`\partial L/\partial\,\text{logits}`.

    Written out layer by layer, the reverse of :func:`forward`. The one step specific to RoPE:
    :math:`q' = R_m q` gives :math:`\partial L/\partial q = R_m^\top\,\partial L/\partial q'
    = R_{-m}\,\partial L/\partial q'`, which is ``apply_rope`` at :math:`-m`.
    """
    grads = {}
    nf = cache["nf"]
    grads["unembed"] = nf.reshape(-1, nf.shape[-1]).T @ dlogits.reshape(-1, dlogits.shape[-1])
    dx, grads["norm_f"] = _rmsnorm_backward(dlogits @ params["unembed"].T, params["norm_f"],
                                            cache["norm_f"])
    scale = 1.0 / math.sqrt(config.d_head)
    rotation = cache["rotation"]
    d = config.d_model

    def weight_grad(inputs, grad_out):
        return inputs.reshape(-1, inputs.shape[-1]).T @ grad_out.reshape(-1, grad_out.shape[-1])

    for layer in reversed(range(config.n_layers)):
        p, c = f"l{layer}.", cache["layers"][layer]
        if config.mlp:
            grads[p + "w2"] = weight_grad(c["hidden"], dx)
            grads[p + "b2"] = dx.reshape(-1, d).sum(0)
            dpre = (dx @ params[p + "w2"].T) * (c["pre"] > 0)
            grads[p + "w1"] = weight_grad(c["n2"], dpre)
            grads[p + "b1"] = dpre.reshape(-1, dpre.shape[-1]).sum(0)
            dn2 = dpre @ params[p + "w1"].T
            dmid, grads[p + "norm2"] = _rmsnorm_backward(dn2, params[p + "norm2"], c["norm2"])
            dx = dx + dmid
        grads[p + "wo"] = weight_grad(c["heads"], dx)
        grads[p + "bo"] = dx.reshape(-1, d).sum(0)
        dheads = _split(dx @ params[p + "wo"].T, config.n_heads)
        attn = c["attn"]
        dv = attn.transpose(0, 1, 3, 2) @ dheads
        dattn = dheads @ c["v"].transpose(0, 1, 3, 2)
        dscores = attn * (dattn - np.sum(dattn * attn, axis=-1, keepdims=True)) * scale
        dq = dscores @ c["k"]
        dk = dscores.transpose(0, 1, 3, 2) @ c["q"]
        if rotation is not None:
            dq, dk = rotation.backward(dq), rotation.backward(dk)
        dq, dk, dv = _merge(dq), _merge(dk), _merge(dv)
        n = c["n"]
        dn = np.zeros_like(n)
        for name, g in (("q", dq), ("k", dk), ("v", dv)):
            grads[p + "w" + name] = weight_grad(n, g)
            if config.qkv_bias:
                grads[p + "b" + name] = g.reshape(-1, d).sum(0)
            dn += g @ params[p + "w" + name].T
        dx_norm, grads[p + "norm1"] = _rmsnorm_backward(dn, params[p + "norm1"], c["norm1"])
        dx = dx + dx_norm
    tokens = cache["tokens"]
    one_hot = np.zeros((tokens.size, config.vocab), dx.dtype)
    one_hot[np.arange(tokens.size), tokens.ravel()] = 1.0
    grads["embed"] = one_hot.T @ dx.reshape(-1, d)
    if config.encoding == "learned":
        grads["pos_embed"] = np.zeros_like(params["pos_embed"])
        grads["pos_embed"][: tokens.shape[1]] = dx.sum(0)
    return {name: grads[name].astype(params[name].dtype, copy=False) for name in params}


def loss_and_grads(params, tokens, targets, mask, config):
    """One forward and backward pass: ``(loss, grads)``."""
    logits, cache = forward(params, tokens, config, keep=True)
    loss, dlogits = cross_entropy(logits, targets, mask)
    return loss, backward(params, cache, dlogits, config)


def rope_frequencies(config, rope_scaling="config", seq_len=None):
    """The model's per-pair frequencies :math:`\\theta_i` (``d_head // 2`` values; pairs past
    ``rotary_dim`` are 0)."""
    scaling = config.rope_scaling if rope_scaling == "config" else rope_scaling
    rotary = config.rotary_dim or config.d_head
    theta = inverse_frequencies(rotary, config.base, rope_scaling=scaling, seq_len=seq_len)
    return np.concatenate([theta, np.zeros((config.d_head - rotary) // 2)])
