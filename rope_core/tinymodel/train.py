r"""Training (AdamW, warm-up and cosine decay), evaluation, checkpoints and head analyses."""

from __future__ import annotations

import dataclasses
import io
import json
import math
import time

import numpy as np

from .model import ModelConfig, forward, init_params, loss_and_grads, pair_features
from .tasks import induction_batch, induction_eval_set


class AdamW:
    r"""Adam with decoupled weight decay (Loshchilov and Hutter).

    For each parameter :math:`w` with gradient :math:`g` at step :math:`n`:

    .. math::

        m \leftarrow \beta_1 m + (1-\beta_1) g,

        v \leftarrow \beta_2 v + (1-\beta_2) g^2,

        w \leftarrow w - \eta\Big(\frac{m/(1-\beta_1^n)}{\sqrt{v/(1-\beta_2^n)}+\epsilon}
        + \lambda w\Big),

    with the decay :math:`\lambda` applied to matrices only (not to biases, gains, embeddings).
    """

    def __init__(self, params, betas=(0.9, 0.98), eps=1e-8, weight_decay=0.0):
        self.betas, self.eps, self.weight_decay = betas, eps, weight_decay
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.count = 0

    def step(self, params, grads, lr):
        self.count += 1
        b1, b2 = self.betas
        c1, c2 = 1 - b1 ** self.count, 1 - b2 ** self.count
        for name, w in params.items():
            g = grads[name]
            m, v = self.m[name], self.v[name]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            update = (m / c1) / (np.sqrt(v / c2) + self.eps)
            if self.weight_decay and w.ndim == 2 and "embed" not in name:
                update += self.weight_decay * w
            w -= (lr * update).astype(w.dtype)


def learning_rate(step, steps, peak, warmup, floor=0.1):
    r"""Linear warm-up to ``peak`` over ``warmup`` steps, then cosine decay to ``floor * peak``.

    Examples
    --------
    >>> [round(learning_rate(s, 100, 1.0, 10), 3) for s in (0, 9, 55, 99)]
    [0.1, 1.0, 0.542, 0.1]
    """
    if step < warmup:
        return peak * (step + 1) / warmup
    progress = (step - warmup) / max(steps - warmup - 1, 1)
    return peak * (floor + (1 - floor) * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0))))


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """How long and how to train.

    ``periods`` is the range of the induction task's periods (inclusive); ``eval_every`` the
    spacing of the logged evaluations (0: only at the end).
    """

    steps: int = 1500
    batch: int = 32
    seq_len: int = 64
    lr: float = 3e-3
    warmup: int = 100
    weight_decay: float = 0.0
    periods: tuple = (2, 56)
    eval_every: int = 50
    seed: int = 0

    def to_dict(self):
        return dataclasses.asdict(self)


class InductionTask:
    """The repeated-random-tokens task; its logged metric is accuracy at a few periods."""

    name = "induction"

    def __init__(self, vocab=256, eval_periods=None):
        self.vocab = vocab
        self.eval_periods = eval_periods

    def batch(self, rng, train):
        low, high = train.periods
        return induction_batch(rng, train.batch, train.seq_len, np.arange(low, high + 1), self.vocab)

    def metric(self, params, config, seq_len, rope_scaling="config"):
        periods = self.eval_periods or default_curve_periods(seq_len)
        return float(np.mean([induction_accuracy(params, config, seq_len, p, rope_scaling)
                              for p in periods]))


class CharTask:
    """Character-level text; its logged metric is the validation loss (nats per character)."""

    name = "characters"

    def __init__(self, corpus):
        self.corpus = corpus
        self.vocab = corpus.vocab

    def batch(self, rng, train):
        return self.corpus.batch(rng, train.batch, train.seq_len)

    def metric(self, params, config, seq_len, rope_scaling="config"):
        return char_loss(params, config, self.corpus, seq_len, rope_scaling)["loss"]


def default_curve_periods(seq_len):
    """Periods logged during training at length ``seq_len``: 7/32, 7/16 and 7/8 of it.

    Examples
    --------
    >>> default_curve_periods(64), default_curve_periods(256)
    ([14, 28, 56], [56, 112, 224])
    """
    return [max(1, round(seq_len * 7 / f)) for f in (32, 16, 8)]


def train(config, task, train_config, params=None, log=None):
    r"""Train (or, given ``params``, fine-tune) a model; return ``(params, history)``.

    Parameters
    ----------
    config : ModelConfig
        The model; its ``rope_scaling`` is used while training (a fine-tune under a scheme).
    task : InductionTask or CharTask
    train_config : TrainConfig
    params : dict, optional
        Start from these (a copy is trained); default: :func:`~rope_core.tinymodel.model.init_params` with the seed.
    log : callable, optional
        Called as ``log(step, loss, metric)`` at every evaluation.

    Returns
    -------
    params : dict
    history : dict
        ``steps``, ``loss`` (training loss at those steps, a 10-step mean), ``metric``,
        ``cpu_seconds`` (process time of the training loop) and ``metric_name``.
    """
    tc = train_config
    params = ({k: v.copy() for k, v in params.items()} if params is not None
              else init_params(config, tc.seed))
    rng = np.random.default_rng([tc.seed, 7])
    optimizer = AdamW(params, weight_decay=tc.weight_decay)
    history = {"steps": [], "loss": [], "metric": [],
               "metric_name": "accuracy" if task.name == "induction" else "loss"}
    recent = []
    start = time.process_time()
    for step in range(tc.steps):
        tokens, targets, mask = task.batch(rng, tc)
        loss, grads = loss_and_grads(params, tokens, targets, mask, config)
        if not math.isfinite(loss):
            raise FloatingPointError(f"the training loss became {loss} at step {step}")
        optimizer.step(params, grads, learning_rate(step, tc.steps, tc.lr, tc.warmup))
        recent = (recent + [loss])[-10:]
        last = step == tc.steps - 1
        if last or (tc.eval_every and step % tc.eval_every == 0):
            metric = task.metric(params, config, tc.seq_len)
            history["steps"].append(step + 1)
            history["loss"].append(float(np.mean(recent)))
            history["metric"].append(metric)
            if log is not None:
                log(step + 1, history["loss"][-1], metric)
    history["cpu_seconds"] = time.process_time() - start
    return params, history


def induction_accuracy(params, config, seq_len, period, rope_scaling="config", query_mask=None,
                       rows=32):
    """Argmax accuracy on the predictable tokens of the fixed evaluation rows at one period."""
    tokens, targets, mask = induction_eval_set(seq_len, period, rows, config.vocab)
    if mask.sum() == 0:
        raise ValueError(f"period {period} leaves no predictable token at length {seq_len}")
    logits = forward(params, tokens, config, rope_scaling=rope_scaling, query_mask=query_mask)
    hits = (logits.argmax(-1) == targets) * mask
    return float(hits.sum() / mask.sum())


def char_loss(params, config, corpus, seq_len, rope_scaling="config", chunks=32):
    """Validation loss (nats/char) over non-overlapping chunks: mean and per position."""
    tokens, targets, mask = corpus.eval_chunks(seq_len, chunks)
    logits = forward(params, tokens, config, rope_scaling=rope_scaling)
    shifted = logits - logits.max(-1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], -1)[..., 0]
    return {"loss": float(nll.mean()), "per_position": nll.mean(0)}


def pair_mask(config, pairs):
    """A ``(d_head,)`` query mask with the features of ``pairs`` set to 0 (the ablation)."""
    mask = np.ones(config.d_head)
    if len(pairs):
        mask[pair_features(config, pairs)] = 0.0
    return mask


def attention(params, config, tokens, rope_scaling="config"):
    """Every head's attention weights, shape ``(n_layers, B, H, T, T)``, float64."""
    _, cache = forward(params, np.asarray(tokens), config, rope_scaling=rope_scaling, keep=True)
    return np.stack([c["attn"] for c in cache["layers"]]).astype(np.float64)


def offset_mass(weights, offset):
    """Mean attention mass that queries put on the key ``offset`` tokens back (where it exists).

    ``weights`` is ``(..., T, T)``; returns ``(...)``.
    """
    t = weights.shape[-1]
    rows = np.arange(offset, t)
    return weights[..., rows, rows - offset].mean(-1)


def pair_usage(params, config, tokens):
    r"""Per-pair share of :math:`\overline{|q_i|}\,\overline{|k_i|}` for every head.

    For pair :math:`i` of a head, :math:`|q_i|` is the length of the query's 2-D pair (before
    rotation, which leaves it unchanged), averaged over batch and positions, and likewise for
    keys; the product is the largest score the pair can contribute, and its share of the sum
    over pairs is what Barbero et al. plot for Gemma.

    Returns
    -------
    ndarray, shape (n_layers, n_heads, d_head // 2), rows summing to 1
    """
    _, cache = forward(params, np.asarray(tokens), config, keep=True)
    n_pairs = config.d_head // 2
    usage = np.empty((config.n_layers, config.n_heads, n_pairs))
    for layer, c in enumerate(cache["layers"]):
        for pair in range(n_pairs):
            f = pair_features(config, [pair])
            qn = np.sqrt((c["q_raw"][..., f] ** 2).sum(-1)).mean(axis=(0, 2))
            kn = np.sqrt((c["k_raw"][..., f] ** 2).sum(-1)).mean(axis=(0, 2))
            usage[layer, :, pair] = qn * kn
    return usage / usage.sum(-1, keepdims=True)


def save_checkpoint(path, params, config, extra=None):
    """Write ``params`` and the model config (as JSON) into one ``.npz``."""
    meta = {"config": config.to_dict(), **(extra or {})}
    buffer = io.BytesIO()
    np.savez_compressed(buffer, __meta__=np.frombuffer(json.dumps(meta).encode(), np.uint8),
                        **params)
    with open(path, "wb") as handle:
        handle.write(buffer.getvalue())


def load_checkpoint(path):
    """``(params, config, meta)`` from :func:`save_checkpoint`'s file."""
    with np.load(path) as data:
        meta = json.loads(bytes(data["__meta__"]).decode())
        params = {k: data[k] for k in data.files if k != "__meta__"}
    return params, ModelConfig(**meta["config"]), meta


def induction_run(config, train_config, vocab=256, log=None):
    """Train on the induction task from scratch: ``(params, history)``."""
    return train(config, InductionTask(vocab), train_config, log=log)
