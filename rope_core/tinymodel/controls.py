r"""Controls for the chapter "Train a tiny model": what else could explain its results?

The main runs (:mod:`rope_core.tinymodel.experiments`) compare encodings and extension
schemes. This module asks of them what a reviewer asks:

* **Which YaRN?** The main runs use transformers' ``yarn`` type (a ramp over pair *indices*
  whose low end is clamped at 0). YaRN's paper ramps over *turns*: pair :math:`i` makes
  :math:`r_i = L\theta_i / 2\pi` turns in the training length :math:`L`, and

  .. math::

      \gamma_i = \operatorname{clip}\!\Big(\frac{r_i - \alpha}{\beta - \alpha}, 0, 1\Big),

      \theta'_i = (1 - \gamma_i)\,\frac{\theta_i}{s} + \gamma_i\,\theta_i ,

  with :math:`\alpha = 1, \beta = 32` for Llama 2. This model's fastest pair makes 10.2 turns
  in 64 tokens, so no pair reaches :math:`\beta` and the paper's rule slows every pair. A
  third variant rescales the ramp to this model's turns (:func:`rescaled_beta`): :math:`\alpha
  = 1` keeps its meaning (a pair that never completes a turn in training is interpolated) and
  :math:`\beta` sits as far from :math:`\alpha` towards the fastest pair, on a log scale of
  turns, as it does in Llama 2. A fourth keeps the index ramp and drops the attention
  temperature.
* **Does base 270's longer pretraining (1 600 steps against 1 500) explain its fine-tunes?**
  Base 270 is pretrained again for 1 500 steps and fine-tuned under every scheme.
* **Is a head claim true on every seed?** The previous-token heads of every seed, at 256,
  under every scheme.
* **One learning rate?** NoPE and RoPE at three learning rates (seed 0).
* **What does NoPE need?** NoPE and RoPE with a beginning-of-sequence token.
* **What reproduces bit for bit?** The committed seed-0 checkpoint is trained again and
  compared array by array.

``python -m rope_core.tinymodel.controls`` (part of ``make experiments``) writes
``results/controls.json``; every part is saved as soon as it is done.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

from ..frequencies import attention_factor, inverse_frequencies
from . import analysis, experiments
from .model import ModelConfig, forward
from .tasks import induction_batch, induction_eval_set
from .train import (
    InductionTask,
    TrainConfig,
    default_curve_periods,
    induction_accuracy,
    load_checkpoint,
    pair_usage,
    train,
)

CONTROLS_FILE = "controls.json"
#: Turns of Llama 2's fastest pair (:math:`\theta_0 = 1`) over its 4 096 training tokens.
LLAMA2_FASTEST_TURNS = 4096 / (2 * math.pi)
#: The YaRN paper's ramp ends for Llama 2 (in turns over the training length).
PAPER_ALPHA, PAPER_BETA = 1.0, 32.0
#: The names of :func:`yarn_variant_scalings`' blocks, in the order the chapter shows them.
YARN_VARIANTS = ("index ramp", "index ramp, no temperature", "paper's turn ramp",
                 "turn ramp, rescaled")
#: The learning rates tried besides the main runs' 3e-3.
LEARNING_RATES = (1e-3, 1e-2)


def turns(theta, training_length):
    r"""Turns each pair makes over the training length, :math:`r_i = L\theta_i / 2\pi`.

    Examples
    --------
    >>> round(float(turns(np.array([1.0]), 64)[0]), 2)
    10.19
    """
    theta = np.asarray(theta, dtype=np.float64)
    if training_length <= 0:
        raise ValueError(f"training_length must be positive, got {training_length}")
    return training_length * theta / (2 * math.pi)


def yarn_turn_ramp(theta, training_length, factor, alpha=PAPER_ALPHA, beta=PAPER_BETA):
    r"""YaRN's frequencies with the paper's ramp over turns (module docstring, :math:`\theta'`).

    Parameters
    ----------
    theta : array_like, shape (d/2,)
        The trained frequencies.
    training_length : float
        :math:`L`.
    factor : float
        :math:`s \ge 1`.
    alpha, beta : float
        Pairs with fewer than ``alpha`` turns are interpolated, pairs with more than ``beta``
        kept, linear in turns between (``0 < alpha < beta``).

    Returns
    -------
    ndarray, shape (d/2,)

    Examples
    --------
    >>> yarn_turn_ramp(np.array([1.0, 0.04]), 64, 4.0).round(3)  # 10.2 and 0.4 turns
    array([0.472, 0.01 ])
    """
    if not 0 < alpha < beta:
        raise ValueError(f"alpha and beta must satisfy 0 < alpha < beta, got {alpha}, {beta}")
    if factor < 1:
        raise ValueError(f"factor must be >= 1, got {factor}")
    theta = np.asarray(theta, dtype=np.float64)
    gamma = np.clip((turns(theta, training_length) - alpha) / (beta - alpha), 0.0, 1.0)
    return (1 - gamma) * theta / factor + gamma * theta


def rescaled_beta(fastest_turns, beta=PAPER_BETA, reference_turns=LLAMA2_FASTEST_TURNS):
    r"""YaRN's :math:`\beta` moved to a model whose fastest pair makes ``fastest_turns`` turns.

    .. math:: \beta' = r_0^{\,\ln\beta / \ln r_0^{\text{ref}}},

    so that :math:`\ln\beta' / \ln r_0 = \ln\beta / \ln r_0^{\text{ref}}` (0.535 for Llama 2:
    :math:`\beta = 32` of :math:`r_0^{\text{ref}} = 652` turns), with :math:`\alpha = 1` fixed.

    Examples
    --------
    >>> round(rescaled_beta(64 / (2 * math.pi)), 2)  # this chapter's model
    3.46
    >>> round(rescaled_beta(LLAMA2_FASTEST_TURNS), 6)
    32.0
    """
    if not fastest_turns > 1 or not reference_turns > 1 or not beta > 1:
        raise ValueError("fastest_turns, beta and reference_turns must all exceed 1 turn, got "
                         f"{fastest_turns}, {beta}, {reference_turns}")
    return fastest_turns ** (math.log(beta) / math.log(reference_turns))


def per_pair_scaling(theta, scaled, training_length, attention):
    r"""A ``rope_scaling`` block that gives each pair the frequency ``scaled[i]``.

    transformers' ``longrope`` type divides pair :math:`i` by its own factor
    :math:`f_i = \theta_i / \theta'_i` and multiplies cos and sin by ``attention_factor``; with
    the same factors for short and long inputs it is a plain per-pair rescale.
    """
    divisors = (np.asarray(theta, dtype=np.float64) / np.asarray(scaled, dtype=np.float64)).tolist()
    return {"rope_type": "longrope", "original_max_position_embeddings": int(training_length),
            "short_factor": divisors, "long_factor": divisors,
            "attention_factor": float(attention)}


def yarn_variant_scalings(dim, base, factor, training_length=experiments.TRAIN_LENGTH):
    """The four YaRN variants of the module docstring as ``rope_scaling`` blocks.

    Returns
    -------
    dict
        ``{name: block}`` for the names of :data:`YARN_VARIANTS`; the turn ramps carry YaRN's
        temperature :math:`0.1 \\ln s + 1`, as the index ramp does.
    """
    theta = inverse_frequencies(dim, base)
    book = analysis.scheme_scaling("YaRN", factor, training_length)
    temperature = attention_factor(dim, base, rope_scaling=book)
    beta = rescaled_beta(turns(theta[:1], training_length)[0])
    return {
        "index ramp": book,
        "index ramp, no temperature": {**book, "attention_factor": 1.0},
        "paper's turn ramp": per_pair_scaling(
            theta, yarn_turn_ramp(theta, training_length, factor), training_length, temperature),
        "turn ramp, rescaled": per_pair_scaling(
            theta, yarn_turn_ramp(theta, training_length, factor, PAPER_ALPHA, beta),
            training_length, temperature),
    }


def with_bos(tokens, targets, mask, bos):
    """Prepend a beginning-of-sequence token to rows one token shorter than wanted.

    The row ``x_0 .. x_{T-2}`` becomes ``BOS, x_0 .. x_{T-2}`` (length :math:`T`); the model
    is asked for ``x_0`` after the BOS (never scored: unpredictable) and for the same targets
    as before, one position later.
    """
    rows = len(tokens)
    return (np.concatenate([np.full((rows, 1), bos, dtype=tokens.dtype), tokens], 1),
            np.concatenate([tokens[:, :1], targets], 1),
            np.concatenate([np.zeros((rows, 1), dtype=mask.dtype), mask], 1))


class BosInductionTask(InductionTask):
    """The induction task with token id ``vocab`` as a beginning-of-sequence token.

    The model's vocabulary is ``vocab + 1``; rows hold ``seq_len - 1`` task tokens after the
    BOS, so a row has the length of the task without it.
    """

    name = "induction"

    def batch(self, rng, train):
        low, high = train.periods
        return with_bos(*induction_batch(rng, train.batch, train.seq_len - 1,
                                         np.arange(low, high + 1), self.vocab), self.vocab)

    def metric(self, params, config, seq_len, rope_scaling="config"):
        return float(np.mean([bos_accuracy(params, config, seq_len, p, self.vocab)
                              for p in default_curve_periods(seq_len)]))


def bos_accuracy(params, config, seq_len, period, vocab=256, rows=32):
    """:func:`~rope_core.tinymodel.train.induction_accuracy` on the same evaluation rows
    (one token shorter) after a BOS token ``vocab``."""
    tokens, targets, mask = with_bos(*induction_eval_set(seq_len - 1, period, rows, vocab), vocab)
    logits = forward(params, tokens, config)
    return float(((logits.argmax(-1) == targets) * mask).sum() / mask.sum())


def _train_induction(encoding, base, seed, steps=None, lr=None, bos=False):
    """One pretraining of the main runs' settings, optionally changed."""
    s = experiments.settings()["induction"]
    model = {**s["model"], "vocab": s["model"]["vocab"] + (1 if bos else 0)}
    config = ModelConfig(encoding=encoding, base=base, **model)
    train_settings = {**s["train"], **({"steps": steps} if steps else {}),
                      **({"lr": lr} if lr else {})}
    task = BosInductionTask(256) if bos else InductionTask(256)
    params, history = train(config, task, TrainConfig(seed=seed, **train_settings))
    return params, config, history


def _previous_heads(params, config):
    """Per layer-0 head: mass on t - 1 at 64, its pair-0 usage share, and its mass at 256
    under every scheme (probe period 24)."""
    at64 = analysis.head_summary(params, config)["previous"][0]
    usage = pair_usage(params, config, analysis.probe_tokens())[0]
    at256 = {scheme: analysis.head_summary(params, config, 256, analysis.PROBE_PERIOD,
                                           analysis.scheme_scaling(scheme, 4))["previous"][0]
             for scheme in analysis.SCHEMES}
    return {"previous_at_64": at64, "pair0_share": np.round(usage[:, 0], 4).tolist(),
            "previous_at_256": at256}


def _checkpoint(base, seed, runs, echo):
    """The pretrained RoPE model: the committed file for seed 0, trained again otherwise."""
    if seed == 0:
        params, config, _ = load_checkpoint(experiments.RESULTS_DIR
                                            / f"induction_rope_base{base:g}_s0.npz")
        return params, config, None
    steps = experiments.settings()["base270"]["train"]["steps"] if base == 270.0 else None
    params, config, history = _train_induction("rope", base, seed, steps)
    committed = runs.get(f"induction/rope/base{base:g}/s{seed}", {}).get("history", {})
    same = ([round(x, 4) for x in history["metric"]] == committed.get("accuracy")
            and [round(x, 4) for x in history["loss"]] == committed.get("loss"))
    echo(f"  retrained rope base {base:g} s{seed}: history equal to the committed one: {same}")
    return params, config, bool(same)


def yarn_and_heads(seeds, runs, echo):
    """Part 1: the YaRN variants at 256 and the previous-token heads, at both bases for
    ``seeds`` (seed 0 reads the committed checkpoint; other seeds are trained again)."""
    out = {}
    for base in experiments.BASES:
        for seed in seeds:
            start = time.process_time()
            params, config, same = _checkpoint(base, seed, runs, echo)
            scalings = {"none": None, **yarn_variant_scalings(config.d_head, base, 4.0)}
            accuracy = {name: {str(p): round(induction_accuracy(params, config, 256, p, block), 4)
                               for p in experiments.EVAL_PERIODS[256]}
                        for name, block in scalings.items()}
            out[f"base{base:g}/s{seed}"] = {
                "accuracy_256": accuracy, "heads": _previous_heads(params, config),
                "retrained_history_equal": same,
                "cpu_seconds": round(time.process_time() - start, 1)}
            echo(f"  yarn variants base {base:g} s{seed}: "
                 + ", ".join(f"{k} {np.mean(list(v.values())):.3f}" for k, v in accuracy.items()))
    return out


def base270_equal_steps(seeds, echo, schemes=("none", "PI")):
    """Part 3: base 270 pretrained for base 10 000's 1 500 steps, then fine-tuned under
    ``schemes`` as the main runs are."""
    steps = experiments.settings()["induction"]["train"]["steps"]
    finetune = experiments.settings()["finetune"]["train"]
    out = {"steps": steps}
    for seed in seeds:
        start = time.process_time()
        params, config, history = _train_induction("rope", 270.0, seed, steps)
        row = {"final_accuracy": round(history["metric"][-1], 4),
               "at64": {str(p): round(induction_accuracy(params, config, 64, p), 4)
                        for p in experiments.EVAL_PERIODS[64]},
               "untuned_256": {}, "after": {}}
        for scheme in schemes:
            scaling = analysis.scheme_scaling(scheme, 4)
            row["untuned_256"][scheme] = {
                str(p): round(induction_accuracy(params, config, 256, p, scaling), 4)
                for p in experiments.EVAL_PERIODS[256]}
            tuned_config = config.replace(rope_scaling=scaling)
            tuned, _ = train(tuned_config, InductionTask(config.vocab),
                             TrainConfig(seed=seed, **finetune), params=params)
            row["after"][scheme] = {
                str(length): {str(p): round(induction_accuracy(tuned, tuned_config, length, p), 4)
                              for p in experiments.EVAL_PERIODS[length]}
                for length in (64, 256)}
        row["cpu_seconds"] = round(time.process_time() - start, 1)
        out[f"s{seed}"] = row
        echo(f"  base 270 at {steps} steps s{seed}: final {row['final_accuracy']}, after at 256 "
             + ", ".join(f"{k} {np.mean(list(v['256'].values())):.3f}"
                         for k, v in row["after"].items()))
    return out


def bit_for_bit(echo):
    """Part 2: train the committed seed-0 base-10 000 checkpoint again; compare every array."""
    start = time.process_time()
    params, _, _ = _train_induction("rope", 10000.0, 0)
    committed, _, _ = load_checkpoint(experiments.RESULTS_DIR / "induction_rope_base10000_s0.npz")
    differences = {k: float(np.abs(params[k].astype(np.float64) - committed[k]).max())
                   for k in committed}
    identical = all(np.array_equal(params[k], committed[k]) for k in committed)
    echo(f"  seed 0 trained again: every array bit-identical: {identical}")
    return {"identical": identical, "max_abs_difference": max(differences.values()),
            "cpu_seconds": round(time.process_time() - start, 1)}


def learning_rates(echo, seed=0, encodings=("nope",)):
    """Part 5: ``encodings`` at :data:`LEARNING_RATES` (the main runs give the third, 3e-3)."""
    out = {}
    for encoding in encodings:
        for lr in LEARNING_RATES:
            start = time.process_time()
            params, config, history = _train_induction(encoding, 10000.0, seed, lr=lr)
            out[f"{encoding}/lr{lr:g}/s{seed}"] = {
                "history": {"steps": history["steps"],
                            "accuracy": [round(x, 4) for x in history["metric"]]},
                "at64": {str(p): round(induction_accuracy(params, config, 64, p), 4)
                         for p in experiments.EVAL_PERIODS[64]},
                "cpu_seconds": round(time.process_time() - start, 1)}
            echo(f"  {encoding} lr {lr:g}: final {history['metric'][-1]:.3f}")
    return out


def beginning_token(seeds, echo, encodings=("nope",)):
    """Part 4: ``encodings`` trained with a beginning-of-sequence token."""
    out = {}
    for encoding in encodings:
        for seed in seeds:
            start = time.process_time()
            params, config, history = _train_induction(encoding, 10000.0, seed, bos=True)
            out[f"{encoding}/s{seed}"] = {
                "history": {"steps": history["steps"],
                            "accuracy": [round(x, 4) for x in history["metric"]]},
                "at64": {str(p): round(bos_accuracy(params, config, 64, p), 4)
                         for p in experiments.EVAL_PERIODS[64]},
                "cpu_seconds": round(time.process_time() - start, 1)}
            echo(f"  {encoding} with BOS s{seed}: final {history['metric'][-1]:.3f}")
    return out


PARTS = ("yarn_and_heads", "bit_for_bit", "base270_equal_steps", "beginning_token",
         "learning_rates")
#: The seeds each part runs by default: the committed file was made with these, inside the
#: time one process gets on a shared machine (a seed costs about a minute of one idle core
#: per training).
DEFAULT_SEEDS = {"yarn_and_heads": (0,), "base270_equal_steps": (0,), "beginning_token": (0, 1),
                 "learning_rates": (0,)}


def run(out_dir=None, seeds=None, parts=PARTS, echo=print):
    """Run the ``parts`` in order; write ``controls.json`` after each (with time and load).

    ``out_dir`` defaults to the package's committed results folder; ``seeds`` (one tuple for
    every part) replaces :data:`DEFAULT_SEEDS`.
    """
    out_dir = experiments.RESULTS_DIR if out_dir is None else out_dir
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise ValueError(f"parts must be among {PARTS}, got {unknown}")
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(variable, "1")
    path = Path(out_dir) / CONTROLS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    chosen = {part: tuple(seeds) if seeds is not None else DEFAULT_SEEDS.get(part, (0,))
              for part in parts}
    document = {"meta": {"command": "python -m rope_core.tinymodel.controls",
                         "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                         "seeds": {k: list(v) for k, v in chosen.items()}, "parts": {},
                         **experiments.environment()}}
    runs = experiments.load_results()["runs"]
    for part in parts:
        wall, cpu, load = time.time(), time.process_time(), os.getloadavg()[0]
        echo(f"{part}:")
        if part == "yarn_and_heads":
            document[part] = yarn_and_heads(chosen[part], runs, echo)
        elif part == "base270_equal_steps":
            document[part] = base270_equal_steps(chosen[part], echo)
        elif part == "bit_for_bit":
            document[part] = bit_for_bit(echo)
        elif part == "beginning_token":
            document[part] = beginning_token(chosen[part], echo)
        else:
            document[part] = learning_rates(echo, chosen[part][0])
        document["meta"]["parts"][part] = {
            "wall_seconds": round(time.time() - wall, 1),
            "cpu_seconds": round(time.process_time() - cpu, 1),
            "load_average": [round(load, 2), round(os.getloadavg()[0], 2)],
            "nice": os.nice(0)}
        with open(path.with_suffix(".tmp"), "w") as handle:
            json.dump(document, handle, indent=1, sort_keys=True)
            handle.write("\n")
        os.replace(path.with_suffix(".tmp"), path)
    return document


def load_controls(path=None):
    """The committed controls (``results/controls.json``) as a dict."""
    with open(path or experiments.RESULTS_DIR / CONTROLS_FILE) as handle:
        return json.load(handle)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=None,
                        help="seeds of every part (default: DEFAULT_SEEDS)")
    parser.add_argument("--parts", nargs="+", default=list(PARTS), choices=PARTS)
    parser.add_argument("--out", default=str(experiments.RESULTS_DIR), help="output folder")
    args = parser.parse_args(argv)
    run(args.out, args.seeds, tuple(args.parts), echo=lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
