"""The numbers the chapter quotes, read from the results of ``make experiments``.

Every function returns one value per seed (a dict ``{seed: value}``), so that the chapter
can state a claim "on every seed" and show the spread.
"""

from __future__ import annotations

import numpy as np

#: How far every number the chapter compares must clear its threshold or its rival, on every
#: seed. Training amplifies rounding: a fresh run on another CPU and BLAS moved a loss by
#: 0.008 nats (ALiBi on characters, 1.914 against 1.922). The margins are more than twice that,
#: so that a claim checked here does not flip on another machine.
ACCURACY_MARGIN = 0.02
LOSS_MARGIN = 0.02


def _runs(results, prefix):
    """``{seed: run}`` for the runs whose id starts with ``prefix`` (ids end in ``/s<seed>``)."""
    out = {}
    for run_id, run in results["runs"].items():
        head, _, seed = run_id.rpartition("/s")
        if head == prefix:
            out[int(seed)] = run
    return dict(sorted(out.items()))


def induction_runs(results, encoding="rope", base=10000.0):
    return _runs(results, f"induction/{encoding}/base{base:g}")


def seeds(results):
    """The seeds every induction encoding was trained with."""
    return sorted(induction_runs(results))


def final_accuracy(results, encoding="rope", base=10000.0):
    """Accuracy at the end of training (periods 14, 28, 56 at length 64)."""
    return {s: r["history"]["accuracy"][-1] for s, r in induction_runs(results, encoding, base).items()}


def steps_to(results, encoding, threshold=0.9, base=10000.0):
    """First logged step at which the accuracy reached ``threshold`` (None: never)."""
    out = {}
    for s, run in induction_runs(results, encoding, base).items():
        history = run["history"]
        hits = [step for step, acc in zip(history["steps"], history["accuracy"]) if acc >= threshold]
        out[s] = hits[0] if hits else None
    return out


def accuracy_by_period(results, encoding="rope", scheme="none", length=256, base=10000.0):
    """``{seed: {period: accuracy}}`` without fine-tuning."""
    return {s: {int(p): a for p, a in r["accuracy"][scheme][str(length)].items()}
            for s, r in induction_runs(results, encoding, base).items()
            if str(length) in r["accuracy"].get(scheme, {})}


def mean_accuracy(results, scheme="none", length=256, base=10000.0, encoding="rope"):
    """Mean accuracy over the evaluated periods, without fine-tuning, per seed."""
    return {s: float(np.mean(list(t.values())))
            for s, t in accuracy_by_period(results, encoding, scheme, length, base).items()}


def finetune_runs(results, scheme, base=10000.0):
    return _runs(results, f"finetune/{scheme}/base{base:g}")


def finetuned_accuracy(results, scheme, length=256, base=10000.0):
    """Mean accuracy over the evaluated periods after the fine-tune at 4x, per seed."""
    return {s: float(np.mean(list(r["accuracy"]["after"][str(length)].values())))
            for s, r in finetune_runs(results, scheme, base).items()}


def finetune_curve(results, scheme, base=10000.0):
    """``(steps, {seed: accuracies})`` of the fine-tune (step 0 = before it)."""
    runs = finetune_runs(results, scheme, base)
    if not runs:
        return [], {}
    steps = [0] + runs[min(runs)]["history"]["steps"]
    return steps, {s: [r["history"]["before"]] + r["history"]["accuracy"] for s, r in runs.items()}


def previous_mass(results, scheme, base=10000.0):
    """Attention mass of layer 0's previous-token head on t - 1 at length 256, per seed."""
    return {s: r["previous_mass_at_256"][scheme] for s, r in induction_runs(results, "rope", base).items()}


def ablations(results, key, base=10000.0):
    """A group ablation (``layer0_fast``, ``layer1_slow``, ...) of the RoPE model, per seed."""
    return {s: r["ablation"][key] for s, r in induction_runs(results, "rope", base).items()}


def usage_share(results, layer, pairs, base=10000.0, head=None):
    """Share of ``|q_i||k_i|`` on ``pairs``: of layer 0's previous-token head (``head=None`` and
    layer 0), or the mean over the layer's heads (layer 1), per seed."""
    out = {}
    for s, run in induction_runs(results, "rope", base).items():
        usage = np.asarray(run["pair_usage"])[layer]
        if head is None and layer == 0:
            usage = usage[run["previous_token_head"][1]][None]
        elif head is not None:
            usage = usage[head][None]
        out[s] = float(usage[:, pairs].sum(-1).mean())
    return out


def char_runs(results, encoding):
    return _runs(results, f"characters/{encoding}")


def char_final_loss(results, encoding):
    """Validation loss at the training length (nats per character), per seed."""
    return {s: r["loss"]["none"]["64"] for s, r in char_runs(results, encoding).items()}


def char_loss_at(results, encoding, length, scheme="none"):
    """Validation loss at ``length`` (no fine-tuning), per seed."""
    return {s: r["loss"][scheme][str(length)] for s, r in char_runs(results, encoding).items()
            if str(length) in r["loss"].get(scheme, {})}


def spread(values):
    """``(mean, min, max)`` of a per-seed dict."""
    array = np.array([v for v in values.values() if v is not None], dtype=float)
    return float(array.mean()), float(array.min()), float(array.max())


def spread_text(values, digits=2):
    """A per-seed dict as the chapter's tables print it: ``"mean (min–max)"``, or the one value.

    Examples
    --------
    >>> spread_text({0: 0.5, 1: 0.7, 2: 0.6})
    '0.60 (0.50–0.70)'
    >>> spread_text({0: 1.78411}, 3)
    '1.784'
    """
    mean, low, high = spread(values)
    if len(values) == 1:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ({low:.{digits}f}–{high:.{digits}f})"


def scheme_ranking(per_scheme):
    """Scheme names from best to worst by their mean over seeds."""
    return sorted(per_scheme, key=lambda s: -spread(per_scheme[s])[0])



def chance_by_period(periods):
    """The in-context floor of the induction task: ``1/p`` for each period.

    Every answer is one of the :math:`p` distinct tokens of the row, so a model that knows only
    which tokens occurred, and guesses uniformly among them, scores :math:`1/p`.

    Examples
    --------
    >>> chance_by_period([8, 56])
    {8: 0.125, 56: 0.017857142857142856}
    """
    if any(int(p) < 1 for p in periods):
        raise ValueError(f"periods must be positive, got {list(periods)}")
    return {int(p): 1 / int(p) for p in periods}


def coverage(results):
    """Which runs of the plan are in ``results``: rows ``{experiment, seeds, planned}``."""
    from .experiments import plan

    planned = plan(results["meta"]["seeds"], results["settings"])
    groups = {}
    for run in planned:
        name = run["id"].rsplit("/s", 1)[0]
        group = groups.setdefault(name, {"experiment": name, "seeds": [], "planned": []})
        group["planned"].append(run["seed"])
        if run["id"] in results["runs"]:
            group["seeds"].append(run["seed"])
    return list(groups.values())


def control_runs(checks, part, prefix):
    """``{seed: run}`` of the control ``part`` whose keys start with ``prefix`` (e.g.
    ``"nope/"`` in ``beginning_token``, ``"p0.5/"`` in ``partial_rope``)."""
    return {int(key.rsplit("/s", 1)[1]): run for key, run in checks.get(part, {}).items()
            if key.startswith(prefix)}


def control_by_period(checks, part, prefix, length=64):
    """``{seed: {period: accuracy}}`` at ``length`` of the control runs of :func:`control_runs`."""
    return {seed: {int(p): a for p, a in run[f"at{length}"].items()}
            for seed, run in control_runs(checks, part, prefix).items()
            if f"at{length}" in run}


def mean_over_periods(tables):
    """``{seed: mean accuracy over its periods}`` of a ``{seed: {period: accuracy}}`` table."""
    return {seed: float(np.mean(list(table.values()))) for seed, table in tables.items()}
