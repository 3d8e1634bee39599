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
  Base 270 is pretrained again for 1 500 steps and fine-tuned without scaling and under PI.
* **What do the previous-token heads do at 256?** Their attention on :math:`t-1` under every
  scheme, for the seeds asked (seed 0 reads the committed checkpoint).
* **One learning rate?** NoPE and RoPE at two more learning rates (seed 0).
* **What does NoPE need?** Every encoding with a beginning-of-sequence token (NoPE on two
  seeds, the others on seed 0).
* **Partial RoPE.** p-RoPE (:func:`partial_rope_scaling`: the slowest half of each head's pairs
  never rotate) on every seed, at 1x, 2x and 4x the training length.
* **What reproduces bit for bit?** The committed seed-0 checkpoint is trained again and
  compared array by array.

``python -m rope_core.tinymodel.controls`` (part of ``make experiments``) runs these as
independent jobs on ``--workers`` processes (one BLAS thread each) and writes
``results/controls.json`` after every job, in an order that does not depend on which job
finished first.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
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
#: The learning rates tried besides the main runs' 3e-3, and the encodings tried at them.
LEARNING_RATES = (1e-3, 1e-2)
LEARNING_RATE_ENCODINGS = ("nope", "rope")
#: The share of each head's pairs that rotate in the partial-RoPE runs (p-RoPE).
PARTIAL_ROTARY_FACTOR = 0.5


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


def _train_induction(encoding, base, seed, steps=None, lr=None, bos=False, rope_scaling=None):
    """One pretraining of the main runs' settings, optionally changed."""
    s = experiments.settings()["induction"]
    model = {**s["model"], "vocab": s["model"]["vocab"] + (1 if bos else 0)}
    config = ModelConfig(encoding=encoding, base=base, rope_scaling=rope_scaling, **model)
    train_settings = {**s["train"], **({"steps": steps} if steps else {}),
                      **({"lr": lr} if lr else {})}
    task = BosInductionTask(256) if bos else InductionTask(256)
    params, history = train(config, task, TrainConfig(seed=seed, **train_settings))
    return params, config, history


def partial_rope_scaling(factor=PARTIAL_ROTARY_FACTOR):
    """transformers' ``proportional`` block (p-RoPE): the first ``factor`` of each head's pairs
    keep full RoPE's frequencies, the others get frequency 0 and never rotate."""
    if not 0 < factor <= 1:
        raise ValueError(f"factor must be in (0, 1], got {factor}")
    return {"rope_type": "proportional", "partial_rotary_factor": float(factor)}


def pretrain_record(encoding, seed, lr=None, bos=False, rope_scaling=None, lengths=(64,)):
    """Pretrain one induction model (the main runs' settings, changed as asked) and record it.

    Parameters
    ----------
    encoding : str
        One of ``experiments.ENCODINGS``.
    seed : int
    lr : float, optional
        Peak learning rate (default: the main runs').
    bos : bool
        Train and score with a beginning-of-sequence token (:class:`BosInductionTask`).
    rope_scaling : dict, optional
        The RoPE block used in training and evaluation (e.g. :func:`partial_rope_scaling`).
    lengths : sequence of int
        Evaluation lengths, each scored at the periods ``experiments.EVAL_PERIODS[length]``.

    Returns
    -------
    dict
        ``history`` (steps, accuracy), ``at{length}`` (accuracy by period) and ``cpu_seconds``;
        a run whose loss stops being finite holds ``diverged`` (the error) instead of the
        accuracies.
    """
    start = time.process_time()
    try:
        params, config, history = _train_induction(encoding, 10000.0, seed, lr=lr, bos=bos,
                                                    rope_scaling=rope_scaling)
    except FloatingPointError as error:  # a learning rate too high for this model
        return {"diverged": str(error), "cpu_seconds": round(time.process_time() - start, 1)}
    if bos:
        def score(length, period):
            return bos_accuracy(params, config, length, period)
    else:
        def score(length, period):
            return induction_accuracy(params, config, length, period)
    record = {"history": {"steps": history["steps"],
                          "accuracy": [round(x, 4) for x in history["metric"]]}}
    for length in lengths:
        record[f"at{length}"] = {str(p): round(score(length, p), 4)
                                 for p in experiments.EVAL_PERIODS[length]}
    record["cpu_seconds"] = round(time.process_time() - start, 1)
    return record


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


def _checkpoint(base, seed, runs):
    """The pretrained RoPE model: the committed file for seed 0, trained again otherwise
    (then also whether its curve equals the committed run's)."""
    if seed == 0:
        params, config, _ = load_checkpoint(experiments.RESULTS_DIR
                                            / f"induction_rope_base{base:g}_s0.npz")
        return params, config, None
    steps = experiments.settings()["base270"]["train"]["steps"] if base == 270.0 else None
    params, config, history = _train_induction("rope", base, seed, steps)
    committed = runs.get(f"induction/rope/base{base:g}/s{seed}", {}).get("history", {})
    same = ([round(x, 4) for x in history["metric"]] == committed.get("accuracy")
            and [round(x, 4) for x in history["loss"]] == committed.get("loss"))
    return params, config, bool(same)


def yarn_and_heads(base, seed):
    """The YaRN variants at 256 and the previous-token heads of one pretrained model."""
    start = time.process_time()
    params, config, same = _checkpoint(base, seed, experiments.load_results()["runs"])
    scalings = {"none": None, **yarn_variant_scalings(config.d_head, base, 4.0)}
    accuracy = {name: {str(p): round(induction_accuracy(params, config, 256, p, block), 4)
                       for p in experiments.EVAL_PERIODS[256]}
                for name, block in scalings.items()}
    return {"accuracy_256": accuracy, "heads": _previous_heads(params, config),
            "retrained_history_equal": same,
            "cpu_seconds": round(time.process_time() - start, 1)}


def base270_equal_steps(seed, schemes=("none", "PI")):
    """Base 270 pretrained for base 10 000's 1 500 steps, then fine-tuned under ``schemes`` as
    the main runs are."""
    start = time.process_time()
    steps = experiments.settings()["induction"]["train"]["steps"]
    finetune = experiments.settings()["finetune"]["train"]
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
    return row


def bit_for_bit():
    """Train the committed seed-0 base-10 000 checkpoint again; compare every array."""
    start = time.process_time()
    params, _, _ = _train_induction("rope", 10000.0, 0)
    committed, _, _ = load_checkpoint(experiments.RESULTS_DIR / "induction_rope_base10000_s0.npz")
    differences = {k: float(np.abs(params[k].astype(np.float64) - committed[k]).max())
                   for k in committed}
    identical = all(np.array_equal(params[k], committed[k]) for k in committed)
    return {"identical": identical, "max_abs_difference": max(differences.values()),
            "cpu_seconds": round(time.process_time() - start, 1)}


PARTS = ("yarn_and_heads", "bit_for_bit", "base270_equal_steps", "beginning_token",
         "learning_rates", "partial_rope")
#: The seeds each part runs by default (the committed file was made with these). A
#: pretraining costs about 34 CPU-seconds of one idle core; the seeds are what fits
#: ``make experiments``' budget of 20 minutes on 2 cores (the section on reproducing in the
#: chapter gives the sum).
DEFAULT_SEEDS = {"yarn_and_heads": (0,), "bit_for_bit": (0,), "base270_equal_steps": (0,),
                 "beginning_token": (0, 1), "learning_rates": (0,), "partial_rope": (0, 1, 2)}
#: Relative CPU cost of one job of each part (pretrainings = 1): the longest jobs start first,
#: so that two workers finish close together.
_JOB_COST = {"base270_equal_steps": 2.6, "bit_for_bit": 1.8, "partial_rope": 1.3,
             "beginning_token": 1.0, "learning_rates": 1.0, "yarn_and_heads": 0.4}


def jobs(parts=PARTS, seeds=None, bos_seeds_other=(0,)):
    """The independent jobs of ``parts``: a list of ``(part, key, function, kwargs)``.

    ``key`` names the job's entry in its part (``None``: the job's result is the part);
    ``seeds`` maps a part to its seeds (default :data:`DEFAULT_SEEDS`). The beginning-of-sequence
    part runs NoPE, whose reading it tests, on all its seeds and every other encoding on
    ``bos_seeds_other`` (only those of its seeds).
    """
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise ValueError(f"parts must be among {PARTS}, got {unknown}")
    seeds = {**DEFAULT_SEEDS, **(seeds or {})}
    out = []
    for part in parts:
        chosen = tuple(seeds[part])
        if part == "yarn_and_heads":
            out += [(part, f"base{b:g}/s{s}", "yarn_and_heads", {"base": b, "seed": s})
                    for b in experiments.BASES for s in chosen]
        elif part == "bit_for_bit":
            out.append((part, None, "bit_for_bit", {}))
        elif part == "base270_equal_steps":
            out += [(part, f"s{s}", "base270_equal_steps", {"seed": s}) for s in chosen]
        elif part == "beginning_token":
            out += [(part, f"{e}/s{s}", "pretrain_record", {"encoding": e, "seed": s, "bos": True})
                    for e in experiments.ENCODINGS for s in chosen
                    if e == "nope" or s in bos_seeds_other]
        elif part == "learning_rates":
            out += [(part, f"{e}/lr{lr:g}/s{s}", "pretrain_record",
                     {"encoding": e, "seed": s, "lr": lr})
                    for e in LEARNING_RATE_ENCODINGS for lr in LEARNING_RATES for s in chosen]
        else:
            out += [(part, f"p{PARTIAL_ROTARY_FACTOR:g}/s{s}", "pretrain_record",
                     {"encoding": "rope", "seed": s, "rope_scaling": partial_rope_scaling(),
                      "lengths": experiments.EVAL_LENGTHS}) for s in chosen]
    return out


_JOB_FUNCTIONS = {"yarn_and_heads": yarn_and_heads, "bit_for_bit": bit_for_bit,
                  "base270_equal_steps": base270_equal_steps, "pretrain_record": pretrain_record}


def _run_job(indexed_job):
    """Run one ``(index, job)`` (in a worker process); return its index, result and error."""
    index, (part, key, function, kwargs) = indexed_job
    try:
        return index, _JOB_FUNCTIONS[function](**kwargs), None
    except Exception as error:  # reported by the parent with the job's name
        return index, None, f"{type(error).__name__}: {error}"


def _assemble(job_list, results):
    """The document's parts from the finished jobs, in a fixed order whatever order they
    finished in."""
    document = {}
    for index, (part, key, _, _) in enumerate(job_list):
        if index not in results:
            continue
        if key is None:
            document[part] = results[index]
        else:
            document.setdefault(part, {})[key] = results[index]
    if "base270_equal_steps" in document:
        document["base270_equal_steps"]["steps"] = \
            experiments.settings()["induction"]["train"]["steps"]
    return document


def run(out_dir=None, seeds=None, parts=PARTS, workers=2, echo=print):
    """Run the jobs of ``parts`` on ``workers`` processes; write ``controls.json`` after each.

    ``out_dir`` defaults to the package's committed results folder; ``seeds`` (one tuple for
    every part) replaces :data:`DEFAULT_SEEDS`. The file records the CPU seconds of every job
    and part, the wall time and the load average at the start and the end.
    """
    out_dir = experiments.RESULTS_DIR if out_dir is None else out_dir
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    chosen = {part: tuple(seeds) for part in PARTS} if seeds is not None else None
    job_list = jobs(parts, chosen)
    experiments.worker_environment()  # inherited by the spawned worker processes
    path = Path(out_dir) / CONTROLS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    used_seeds = {part: sorted({kwargs.get("seed", 0) for p, _, _, kwargs in job_list
                                if p == part}) for part in parts}
    meta = {"command": "python -m rope_core.tinymodel.controls",
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "seeds": used_seeds, "workers": workers, "jobs": len(job_list),
            "load_average_at_start": round(os.getloadavg()[0], 2),
            **experiments.environment()}
    wall_start, results = time.time(), {}
    echo(f"{len(job_list)} control jobs on {workers} processes")
    order = sorted(range(len(job_list)), key=lambda i: -_JOB_COST[job_list[i][0]])
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers) as pool:
        finished = pool.imap_unordered(_run_job, [(i, job_list[i]) for i in order])
        for index, result, error in finished:
            part, key = job_list[index][:2]
            if error is not None:
                pool.terminate()
                raise RuntimeError(f"control {part} {key or ''} failed: {error}")
            results[index] = result
            echo(f"[{len(results):2d}/{len(job_list)}] {part} {key or ''}: "
                 f"{result['cpu_seconds']:.0f} s CPU, {time.time() - wall_start:.0f} s so far")
            document = _assemble(job_list, results)
            meta.update(
                complete=len(results) == len(job_list),
                wall_seconds=round(time.time() - wall_start, 1),
                load_average_at_end=round(os.getloadavg()[0], 2), nice=os.nice(0),
                cpu_seconds=round(sum(r["cpu_seconds"] for r in results.values()), 1),
                parts={p: {"cpu_seconds": round(sum(results[i]["cpu_seconds"] for i in results
                                                    if job_list[i][0] == p), 1)}
                       for p in parts})
            with open(path.with_suffix(".tmp"), "w") as out:
                json.dump({"meta": meta, **document}, out, indent=1, sort_keys=True)
                out.write("\n")
            os.replace(path.with_suffix(".tmp"), path)
    return {"meta": meta, **_assemble(job_list, results)}


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
    parser.add_argument("--workers", type=int, default=2, help="processes at a time (default 2)")
    args = parser.parse_args(argv)
    run(args.out, args.seeds, tuple(args.parts), args.workers,
        echo=lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
