r"""Every training run of the chapter "Train a tiny model and watch RoPE work".

Run it with ``make experiments`` (or ``python -m rope_core.tinymodel.experiments``). It trains

* the induction task with each encoding (RoPE, NoPE, learned, sinusoidal, ALiBi) x 3 seeds,
  evaluated at 1x, 2x and 4x the training length (RoPE also under PI, NTK-aware and YaRN);
* RoPE at base 270 (an LLM-like spectrum) x 3 seeds, evaluated the same way;
* a 200-step fine-tune at 4x the training length for each extension scheme, both bases, every
  seed;
* character-level text with each encoding x 3 seeds, evaluated at 1x to 8x;

one process per run, ``workers`` at a time, each with one BLAS thread. It writes
``results/results.json`` (with the numpy, BLAS and CPU it ran on) and two checkpoints
(``results/induction_rope_base10000_s0.npz``, ``results/induction_rope_base270_s0.npz``)
next to this file.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import queue
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from . import analysis
from .model import ModelConfig
from .tasks import CharCorpus
from .train import (
    CharTask,
    InductionTask,
    TrainConfig,
    char_loss,
    induction_accuracy,
    load_checkpoint,
    pair_usage,
    save_checkpoint,
    train,
)

RESULTS_DIR = Path(__file__).parent / "results"
RESULTS_FILE = "results.json"
SCHEMA_VERSION = 1
SEEDS = (0, 1, 2)
ENCODINGS = ("rope", "nope", "learned", "sinusoidal", "alibi")
BASES = (10000.0, 270.0)
TRAIN_LENGTH = 64
EVAL_LENGTHS = (64, 128, 256)
CHAR_EVAL_LENGTHS = (64, 128, 256, 512)
#: Periods (the distance to look back) evaluated at each length; a period needs at least a
#: few predictable tokens after it, so the longest is below the length.
EVAL_PERIODS = {64: (8, 16, 24, 32, 48, 56), 128: (8, 16, 32, 48, 64, 96),
                256: (8, 16, 32, 64, 96, 128, 192)}
#: Characters scored per evaluation length (so every length reads the same amount of text).
CHAR_EVAL_CHARACTERS = 4096
#: CPU seconds of one training step of the induction model (batch 32, length 64) on one
#: idle core, and of each run's evaluation (measured; used only for the printed estimate).
STEP_SECONDS = 21e-3
EVAL_SECONDS = {"rope": 10.0, "other": 1.0, "finetune": 3.0, "characters": 0.5}
_BLAS_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                          "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")
#: glibc's allocator settings for the worker processes (read when a process starts; the workers
#: are spawned). By default every array above 128 KB is a fresh ``mmap`` that the kernel zeroes
#: page by page and unmaps when freed: a training step allocates hundreds of them, and a
#: pretraining spent a quarter of its CPU time (11 of 45 s) in the kernel, with 5.5 million page
#: faults. Kept on the heap, the memory is reused (14 thousand faults, 0.06 s); the arithmetic
#: and so every checkpoint are bit for bit the same. Other C libraries ignore these names.
_ALLOCATOR_VARIABLES = {"MALLOC_MMAP_THRESHOLD_": str(2**32), "MALLOC_TRIM_THRESHOLD_": str(2**32),
                        "MALLOC_TOP_PAD_": str(2**28)}


def worker_environment():
    """Set the variables every worker process inherits: one BLAS thread, reused heap memory."""
    for variable in _BLAS_THREAD_VARIABLES:
        os.environ[variable] = "1"
    os.environ.update(_ALLOCATOR_VARIABLES)


def settings():
    """The hyperparameters of every experiment (recorded in the results)."""
    return {
        "induction": {"model": {"vocab": 256, "d_model": 64, "n_heads": 4, "n_layers": 2,
                                "max_len": TRAIN_LENGTH, "mlp": False, "qkv_bias": True},
                      "train": {"steps": 1500, "batch": 32, "seq_len": TRAIN_LENGTH, "lr": 3e-3,
                                "warmup": 100, "periods": [2, 56], "eval_every": 50}},
        "base270": {"train": {"steps": 1600}},
        "finetune": {"train": {"steps": 200, "batch": 8, "seq_len": 256, "lr": 1e-3, "warmup": 10,
                               "periods": [2, 224], "eval_every": 50}},
        "characters": {"model": {"d_model": 64, "n_heads": 4, "n_layers": 2,
                                 "max_len": TRAIN_LENGTH, "mlp": True, "qkv_bias": True},
                       "train": {"steps": 500, "batch": 32, "seq_len": TRAIN_LENGTH, "lr": 3e-3,
                                 "warmup": 100, "eval_every": 50}},
    }


def plan(seeds=SEEDS, config=None):
    """The list of runs: dicts with ``id``, ``kind``, ``model`` and ``train`` settings,
    ``cost`` (a relative CPU estimate) and ``after`` (the run a fine-tune starts from).

    ``config`` replaces :func:`settings` (the tests shrink the step counts with it).
    """
    s = config or settings()
    runs = []

    def cost(train, evaluation):
        # CPU seconds of one core: matrix work per step grows with tokens, attention with
        # tokens x length (an induction step of 32 x 64 tokens is ~40 ms), plus the evaluation.
        tokens = train["steps"] * train["batch"] * train["seq_len"] * (1 + train["seq_len"] / 96)
        return tokens * STEP_SECONDS / (32 * 64 * (1 + 64 / 96)) + evaluation

    induction = s["induction"]["train"]
    for base in BASES:
        encodings = ENCODINGS if base == 10000.0 else ("rope",)
        steps = induction["steps"] if base == 10000.0 else s["base270"]["train"]["steps"]
        for encoding in encodings:
            for seed in seeds:
                runs.append({"id": f"induction/{encoding}/base{base:g}/s{seed}", "kind": "pretrain",
                             "task": "induction", "encoding": encoding, "base": base, "seed": seed,
                             "model": s["induction"]["model"], "train": {**induction, "steps": steps},
                             "cost": cost({**induction, "steps": steps},
                                          EVAL_SECONDS["rope" if encoding == "rope" else "other"]
                                          + (10 if encoding == "rope" and seed == 0 else 0))})
    for seed in seeds:
        for encoding in ENCODINGS:
            runs.append({"id": f"characters/{encoding}/s{seed}", "kind": "pretrain",
                         "task": "characters", "encoding": encoding, "base": 10000.0, "seed": seed,
                         "model": s["characters"]["model"], "train": s["characters"]["train"],
                         "cost": 1.4 * cost(s["characters"]["train"], 0)
                         + EVAL_SECONDS["characters"] * (4 if encoding == "rope" else 1)})
    for base in BASES:
        for scheme in ("none", "PI", "NTK", "YaRN"):
            for seed in seeds:
                runs.append({"id": f"finetune/{scheme}/base{base:g}/s{seed}", "kind": "finetune",
                             "task": "induction", "encoding": "rope", "base": base, "seed": seed,
                             "scheme": scheme, "after": f"induction/rope/base{base:g}/s{seed}",
                             "train": s["finetune"]["train"], "cost": cost(s["finetune"]["train"],
                                                                   EVAL_SECONDS["finetune"])})
    # Seed by seed, so that a run cut short still holds every experiment for the first seeds;
    # within a seed, in the order of the chapter's main claims.
    order = ["induction/rope/base10000", "induction/rope/base270", "induction/nope/base10000",
             "finetune/{}/base10000", "induction/learned/base10000", "induction/alibi/base10000",
             "induction/sinusoidal/base10000", "finetune/{}/base270", "characters/rope",
             "characters/alibi", "characters/nope", "characters/sinusoidal", "characters/learned"]

    def rank(run):
        name = run["id"].rsplit("/s", 1)[0]
        if run["kind"] == "finetune":
            name = name.replace(run["scheme"], "{}")
        return run["seed"], order.index(name)

    for priority, run in enumerate(sorted(runs, key=rank)):
        run["priority"] = priority
    return sorted(runs, key=lambda r: r["priority"])


def _checkpoint_name(base):
    return f"induction_rope_base{base:g}_s0.npz"


def run_one(run, workdir, checkpoint_dir):
    """Train and evaluate one run (in a worker process); return its results."""
    start = time.process_time()
    out = {"id": run["id"]}
    if run["task"] == "characters":
        corpus = CharCorpus()
        config = ModelConfig(vocab=corpus.vocab, encoding=run["encoding"], **run["model"])
        tc = TrainConfig(seed=run["seed"], **run["train"])
        params, history = train(config, CharTask(corpus), tc)
        out["history"] = _history(history)
        out["loss"] = {}
        schemes = analysis.SCHEMES if run["encoding"] == "rope" else ("none",)
        for length in CHAR_EVAL_LENGTHS:
            if run["encoding"] == "learned" and length > TRAIN_LENGTH:
                continue
            for scheme in schemes:
                if scheme != "none" and length == TRAIN_LENGTH:
                    continue
                result = char_loss(params, config, corpus, length,
                                   analysis.scheme_scaling(scheme, length / TRAIN_LENGTH),
                                   chunks=CHAR_EVAL_CHARACTERS // length)
                out["loss"].setdefault(scheme, {})[str(length)] = round(result["loss"], 4)
                if length == CHAR_EVAL_LENGTHS[-1] and scheme == "none":
                    out["per_position_512"] = np.round(result["per_position"], 3).tolist()
    elif run["kind"] == "pretrain":
        config = ModelConfig(encoding=run["encoding"], base=run["base"], **run["model"])
        tc = TrainConfig(seed=run["seed"], **run["train"])
        params, history = train(config, InductionTask(config.vocab), tc)
        if run["encoding"] == "rope":  # first, so that the fine-tunes' weights are never lost
            save_checkpoint(Path(workdir) / (run["id"].replace("/", "_") + ".npz"), params, config)
            if run["seed"] == 0:
                save_checkpoint(Path(checkpoint_dir) / _checkpoint_name(run["base"]), params,
                                config, {"run": run["id"], "steps": run["train"]["steps"]})
        out["history"] = _history(history)
        out["accuracy"] = _accuracy_table(params, config, run["encoding"] == "rope")
        if run["encoding"] == "rope":
            summary = analysis.head_summary(params, config)
            layer, head = analysis.previous_token_head(summary)
            out["heads"] = summary
            out["previous_token_head"] = [layer, head]
            out["pair_usage"] = np.round(pair_usage(
                params, config, analysis.probe_tokens()), 4).tolist()
            out["ablation"] = analysis.group_ablations(params, config)
            # Attention on t-1 of that head at 4x, by scheme (the PI mechanism).
            out["previous_mass_at_256"] = {
                scheme: analysis.head_summary(params, config, 256, analysis.PROBE_PERIOD,
                                              analysis.scheme_scaling(scheme, 4))["previous"][layer][head]
                for scheme in analysis.SCHEMES}
            if run["seed"] == 0 and run["base"] == BASES[0]:
                out["ablation_table"] = analysis.ablation_table(params, config)
    else:  # fine-tune a pretrained RoPE model under a scheme at 4x the training length
        params, config, _ = load_checkpoint(Path(workdir) / (run["after"].replace("/", "_") + ".npz"))
        scaling = analysis.scheme_scaling(run["scheme"], 4)
        config = config.replace(rope_scaling=scaling)
        task = InductionTask(config.vocab)
        tc = TrainConfig(seed=run["seed"], **run["train"])
        before = task.metric(params, config, tc.seq_len)
        params, history = train(config, task, tc, params=params)
        out["history"] = _history(history)
        out["history"]["before"] = round(before, 4)
        out["accuracy"] = {"after": {
            str(length): {str(p): round(induction_accuracy(params, config, length, p), 4)
                          for p in EVAL_PERIODS[length]} for length in (64, 256)}}
    out["cpu_seconds"] = round(time.process_time() - start, 2)
    return out


def _history(history):
    return {"steps": history["steps"], "loss": [round(x, 4) for x in history["loss"]],
            history["metric_name"]: [round(x, 4) for x in history["metric"]],
            "train_cpu_seconds": round(history["cpu_seconds"], 2)}


def _accuracy_table(params, config, schemes):
    """Accuracy by scheme, length and period; a learned table stops at its training length."""
    table = {}
    for scheme in (analysis.SCHEMES if schemes else ("none",)):
        for length in EVAL_LENGTHS:
            if length > config.max_len and config.encoding == "learned":
                continue
            if scheme != "none" and length == TRAIN_LENGTH:
                continue
            scaling = analysis.scheme_scaling(scheme, length / TRAIN_LENGTH)
            table.setdefault(scheme, {})[str(length)] = {
                str(p): round(induction_accuracy(params, config, length, p, scaling), 4)
                for p in EVAL_PERIODS[length]}
    return table


def _worker(run, workdir, checkpoint_dir):
    try:
        return run["id"], run_one(run, workdir, checkpoint_dir), None
    except Exception as error:  # reported by the parent with the run's name
        return run["id"], None, f"{type(error).__name__}: {error}"


def environment():
    """What the results were computed with: Python, numpy, its BLAS, the CPU."""
    blas = "unknown"
    try:
        config = np.show_config(mode="dicts")
        info = config.get("Build Dependencies", {}).get("blas", {})
        blas = f"{info.get('name', '?')} {info.get('version', '')}".strip()
    except (TypeError, AttributeError):
        pass
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"python": platform.python_version(), "numpy": np.__version__, "blas": blas,
            "cpu": cpu, "cores": os.cpu_count(), "platform": platform.platform(),
            "blas_threads": {v: os.environ.get(v) for v in _BLAS_THREAD_VARIABLES[:3]},
            "allocator": {v: os.environ.get(v) for v in _ALLOCATOR_VARIABLES}}


def run_all(out_dir=None, seeds=SEEDS, workers=2, only=None, echo=print, config=None):
    """Run the plan on ``workers`` processes; write ``results.json`` and the checkpoints.

    Parameters
    ----------
    out_dir : path, optional
        Where results.json and the checkpoints go (default: the package's results folder).
    seeds : sequence of int
    workers : int
        Processes at a time (each uses one BLAS thread).
    only : callable, optional
        Keep only the runs for which ``only(run)`` is true (fine-tunes keep their pretraining).
    echo : callable
        Progress lines go here.
    config : dict, optional
        Replaces :func:`settings`.
    """
    out_dir = RESULTS_DIR if out_dir is None else out_dir
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    worker_environment()  # inherited by the spawned worker processes
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    config = config or settings()
    runs = plan(seeds, config)
    if only is not None:
        keep = {r["id"] for r in runs if only(r)}
        keep |= {r["after"] for r in runs if r["id"] in keep and "after" in r}
        runs = [r for r in runs if r["id"] in keep]
    total_cost = sum(r["cost"] for r in runs)
    results, done_cost, cpu_total = {}, 0.0, 0.0
    started, wall_start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), time.time()
    load_start = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    parallel = min(workers, os.cpu_count() or 1)
    echo(f"{len(runs)} runs on {workers} processes (one BLAS thread each); "
         f"estimated {_estimate(total_cost, parallel)} on {parallel} idle cores")
    context = multiprocessing.get_context("spawn")
    finished = queue.Queue()
    with tempfile.TemporaryDirectory() as workdir, context.Pool(workers) as pool:
        waiting = [r for r in runs if "after" in r]
        ready = [r for r in runs if "after" not in r]
        pending = 0

        def submit_next():
            # At most one run per worker in flight: the next one is chosen by priority only
            # when a worker is free, so a fine-tune whose weights are ready goes before later seeds.
            nonlocal pending
            while ready and pending < workers:
                run = min(ready, key=lambda r: r["priority"])
                ready.remove(run)
                pool.apply_async(_worker, (run, workdir, str(out_dir)), callback=finished.put)
                pending += 1

        submit_next()
        by_id = {r["id"]: r for r in runs}
        while pending:
            run_id, result, error = finished.get()
            pending -= 1
            if error is not None:
                pool.terminate()
                raise RuntimeError(f"run {run_id} failed: {error}")
            results[run_id] = result
            done_cost += by_id[run_id]["cost"]
            cpu_total += result["cpu_seconds"]
            for run in [r for r in waiting if r["after"] == run_id]:
                waiting.remove(run)
                ready.append(run)
            submit_next()
            rate = cpu_total / done_cost
            left = (total_cost - done_cost) * rate / parallel
            echo(f"[{len(results):2d}/{len(runs)}] {run_id}: {result['cpu_seconds']:.0f} s CPU; "
                 f"{time.time() - wall_start:.0f} s so far, about {left / 60:.1f} min of "
                 f"{parallel} idle cores left")
            if len(results) < len(runs):
                _write(out_dir, _document(results, started, wall_start, cpu_total, workers,
                                          seeds, load_start, config, complete=False))
    document = _document(results, started, wall_start, cpu_total, workers, seeds, load_start,
                         config, complete=True)
    _write(out_dir, document)
    meta = document["meta"]
    echo(f"wrote {out_dir / RESULTS_FILE}: {len(results)} runs, {cpu_total / 60:.1f} CPU-minutes, "
         f"{meta['wall_seconds'] / 60:.1f} min wall (about {meta['idle_estimate_minutes']} min "
         f"on {parallel} idle cores)")
    return document


def _document(results, started, wall_start, cpu_total, workers, seeds, load_start, config,
              complete):
    """The results document; ``complete`` is False while runs are still going (a partial file
    lets an interrupted run keep what it finished)."""
    meta = {"command": "make experiments", "started": started, "complete": complete,
            "wall_seconds": round(time.time() - wall_start, 1),
            "cpu_seconds": round(cpu_total, 1), "workers": workers, "seeds": list(seeds),
            "nice": os.nice(0) if hasattr(os, "nice") else None,
            "load_average_at_start": load_start,
            # Runs are independent: on idle cores the wall time is the CPU time / parallel runs.
            "idle_estimate_minutes": round(cpu_total / min(workers, os.cpu_count() or 1) / 60, 1),
            **environment()}
    return {"schema": SCHEMA_VERSION, "meta": meta, "settings": config,
            "eval_periods": {str(k): list(v) for k, v in EVAL_PERIODS.items()},
            "runs": {k: results[k] for k in sorted(results)}}


def _write(out_dir, document):
    path = Path(out_dir) / RESULTS_FILE
    with open(path.with_suffix(".tmp"), "w") as handle:
        json.dump(document, handle, indent=1, sort_keys=True)
        handle.write("\n")
    os.replace(path.with_suffix(".tmp"), path)


def _estimate(cost, workers):
    # ``cost`` is in CPU seconds of one idle core.
    return f"{math.ceil(cost / workers / 60)} min"


def complete_seeds(results):
    """The seeds for which every planned run is in ``results`` (all of them unless the run
    was cut short)."""
    planned = plan(results["meta"]["seeds"], results["settings"])
    return [seed for seed in results["meta"]["seeds"]
            if all(r["id"] in results["runs"] for r in planned if r["seed"] == seed)]


def load_results(path=None):
    """The committed results (``results/results.json``) as a dict."""
    with open(path or RESULTS_DIR / RESULTS_FILE) as handle:
        return json.load(handle)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2, help="processes at a time (default 2)")
    parser.add_argument("--seeds", type=int, nargs="+", default=list(SEEDS))
    parser.add_argument("--out", default=str(RESULTS_DIR), help="output folder")
    args = parser.parse_args(argv)
    run_all(args.out, tuple(args.seeds), args.workers, echo=lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
