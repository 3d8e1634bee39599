r"""What a trained induction model does with its position encoding: heads, pairs, ablations."""

from __future__ import annotations

import numpy as np

from .model import rope_frequencies
from .tasks import induction_eval_set
from .train import attention, induction_accuracy, offset_mass, pair_mask, pair_usage

#: The period and length of the head analyses and the ablation (trained at length 64).
PROBE_PERIOD, PROBE_LENGTH = 24, 64
SCHEMES = ("none", "PI", "NTK", "YaRN")


def scheme_scaling(scheme, factor, training_length=64):
    """The ``rope_scaling`` block of a named scheme at ``factor`` (None for "none" or factor 1).

    Examples
    --------
    >>> scheme_scaling("PI", 4)
    {'rope_type': 'linear', 'factor': 4.0}
    >>> scheme_scaling("YaRN", 1) is None
    True
    """
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {SCHEMES}, got {scheme!r}")
    if scheme == "none" or factor <= 1:
        return None
    if scheme == "PI":
        return {"rope_type": "linear", "factor": float(factor)}
    if scheme == "NTK":
        return {"rope_type": "ntk", "factor": float(factor)}
    return {"rope_type": "yarn", "factor": float(factor),
            "original_max_position_embeddings": int(training_length)}


def probe_tokens(seq_len=PROBE_LENGTH, period=PROBE_PERIOD, rows=32, vocab=256):
    """The fixed rows the head analyses read."""
    return induction_eval_set(seq_len, period, rows, vocab)[0]


def head_summary(params, config, seq_len=PROBE_LENGTH, period=PROBE_PERIOD, rope_scaling="config",
                 rows=32):
    """Per head: attention mass on the previous token and on the induction target.

    The induction target of query :math:`t` is key :math:`t - p + 1`, the token that followed
    the current token's previous occurrence.

    Returns
    -------
    dict with ``previous`` and ``induction``: lists of shape (n_layers, n_heads)
    """
    weights = attention(params, config, probe_tokens(seq_len, period, rows, config.vocab),
                        rope_scaling)
    # Only queries that can copy (t >= p) are meaningful for the induction target.
    induction = weights[..., period:, :]
    rows = np.arange(period, seq_len)
    target = induction[..., np.arange(len(rows)), rows - period + 1].mean(-1).mean(1)
    return {"previous": offset_mass(weights, 1).mean(1).round(4).tolist(),
            "induction": target.round(4).tolist()}


def previous_token_head(summary):
    """``(layer, head)`` of layer 0's head with the most mass on the previous token."""
    return 0, int(np.argmax(summary["previous"][0]))


def fast_previous_head(params, config, summary, threshold=0.3):
    """Layer 0's previous-token head built on the fastest pair.

    Among the layer-0 heads with more than ``threshold`` of their attention on the previous
    token (``summary`` from :func:`head_summary`), the one whose pair usage
    (:func:`rope_core.tinymodel.train.pair_usage` on :func:`probe_tokens`) puts the largest
    share on pair 0; the head of :func:`previous_token_head` if none passes the threshold.
    """
    previous = np.asarray(summary["previous"][0])
    candidates = np.flatnonzero(previous > threshold)
    if len(candidates) == 0:
        return previous_token_head(summary)[1]
    usage = pair_usage(params, config, probe_tokens(vocab=config.vocab))[0]
    return int(candidates[np.argmax(usage[candidates, 0])])


def ablation(params, config, layer, pairs, period=PROBE_PERIOD, seq_len=PROBE_LENGTH):
    """Accuracy with ``pairs`` zeroed in every query of ``layer`` (the other layers intact)."""
    mask = {layer: pair_mask(config, list(pairs))}
    return induction_accuracy(params, config, seq_len, period, query_mask=mask)


def ablation_table(params, config, period=PROBE_PERIOD, seq_len=PROBE_LENGTH):
    """Accuracy for every subset of pairs switched off, layer by layer.

    Entry ``[layer][bits]`` has pair ``i`` switched off when bit ``i`` of ``bits`` is set:
    ``n_layers x 2**(d_head/2)`` evaluations (512 for the chapter's model, a few seconds).
    """
    n_pairs = config.d_head // 2
    table = []
    for layer in range(config.n_layers):
        row = []
        for bits in range(2 ** n_pairs):
            off = [i for i in range(n_pairs) if bits >> i & 1]
            row.append(round(ablation(params, config, layer, off, period, seq_len), 4))
        table.append(row)
    return table


def group_ablations(params, config, group=4):
    """The double-dissociation numbers: the fastest and slowest ``group`` pairs off, per layer,
    and pair 0 alone in layer 0."""
    n_pairs = config.d_head // 2
    fast, slow = list(range(group)), list(range(n_pairs - group, n_pairs))
    out = {"intact": ablation(params, config, 0, [])}
    for layer in range(config.n_layers):
        out[f"layer{layer}_fast"] = ablation(params, config, layer, fast)
        out[f"layer{layer}_slow"] = ablation(params, config, layer, slow)
    out["layer0_pair0"] = ablation(params, config, 0, [0])
    return {k: round(v, 4) for k, v in out.items()}


def usage_shares(usage, group=3):
    """Share of each head's pair usage on its ``group`` fastest pairs."""
    return np.asarray(usage)[..., :group].sum(-1)


def attention_rows(params, config, scheme, seq_len, period, training_length=64):
    """Each head's attention from the last query of one evaluation row, ``(L, H, T)``."""
    scaling = scheme_scaling(scheme, seq_len / training_length, training_length)
    tokens = probe_tokens(seq_len, period, rows=1, vocab=config.vocab)
    return attention(params, config, tokens, scaling)[:, 0, :, -1, :]



def attention_by_distance(params, config, scheme, seq_len, period, training_length=64, rows=8):
    r"""Each head's attention by distance, averaged over the last ``training_length`` queries.

    .. math::

        A_{\ell h}(d) = \operatorname{mean}_{\text{rows},\; t \ge T - L_0}\; a^{\ell h}_{t,\,t-d},

        d = 0 \dots T-1,

    with :math:`T` = ``seq_len`` and :math:`L_0` = ``training_length`` (so at :math:`T > L_0`
    it reads the queries that sit past the training length). Each query's weights sum to 1
    over :math:`d`, so each row of the result does too. The previous token is :math:`d = 1`,
    the induction targets (the tokens after the earlier copies of the current token) are
    :math:`d = p - 1, 2p - 1, \dots`.

    Returns
    -------
    ndarray, shape (n_layers, n_heads, seq_len)
    """
    scaling = scheme_scaling(scheme, seq_len / training_length, training_length)
    weights = attention(params, config, probe_tokens(seq_len, period, rows, config.vocab), scaling)
    queries = np.arange(max(0, seq_len - training_length), seq_len)
    out = np.zeros(weights.shape[:1] + weights.shape[2:3] + (seq_len,))
    for d in range(seq_len):
        valid = queries[queries >= d]
        if len(valid):
            out[..., d] = weights[..., valid, valid - d].sum(-1).mean(1) / len(queries)
    return out


def explorer_tables(params, config, run, period=PROBE_PERIOD, lengths=(64, 128, 256),
                    training_length=64):
    """Everything the trained-model explorer shows, as plain lists.

    Parameters
    ----------
    params, config
        The committed checkpoint.
    run : dict
        Its run in the committed results (accuracy tables and the ablation table).

    Returns
    -------
    dict
        ``attention[scheme][length]``: each head's attention by distance
        (:func:`attention_by_distance`, rows of period ``period``), shape
        (n_layers, n_heads, length), 3 decimals;
        ``accuracy[scheme][length]``: mean committed accuracy over the evaluated periods;
        ``ablation[layer][bits]``: accuracy with the pairs of ``bits`` off in that layer;
        ``fast_head``: layer 0's previous-token head built on pair 0
        (:func:`fast_previous_head`) and ``fast_head_pair0`` its usage share on pair 0;
        ``wavelengths``: per pair, in tokens.
    """
    attention_out, accuracy = {}, {}
    for scheme in SCHEMES:
        attention_out[scheme], accuracy[scheme] = {}, {}
        for length in lengths:
            rows = attention_by_distance(params, config, scheme, length, period, training_length)
            attention_out[scheme][str(length)] = np.round(rows, 3).tolist()
            table = run["accuracy"]["none" if length == training_length else scheme][str(length)]
            accuracy[scheme][str(length)] = round(float(np.mean(list(table.values()))), 4)
    theta = rope_frequencies(config)
    wavelengths = 2 * np.pi / theta  # every pair turns in the chapter's model
    summary = head_summary(params, config, training_length, period)
    fast = fast_previous_head(params, config, summary)
    usage = pair_usage(params, config, probe_tokens(vocab=config.vocab))[0]
    return {"schemes": list(SCHEMES), "lengths": list(lengths), "period": period,
            "training_length": training_length, "attention": attention_out, "accuracy": accuracy,
            "fast_head": fast,
            "fast_head_pair0": round(float(usage[fast][0]), 4),
            "ablation": run["ablation_table"], "wavelengths": np.round(wavelengths, 1).tolist(),
            "n_layers": config.n_layers, "n_heads": config.n_heads}

