"""The chapter's figures, drawn from the committed results (and the committed checkpoint).

Each function returns a matplotlib figure; lines are the mean over seeds, shaded bands the
range over seeds.
"""

from __future__ import annotations

import numpy as np

from ..plots import PALETTE, new_figure
from . import summary
from .analysis import SCHEMES, attention_rows

ENCODING_STYLE = {
    "rope": ("RoPE", PALETTE["query"]),
    "learned": ("learned absolute", PALETTE["highlight"]),
    "alibi": ("ALiBi", PALETTE["rotated"]),
    "sinusoidal": ("sinusoidal", PALETTE["accent"]),
    "nope": ("NoPE", PALETTE["neutral"]),
}
SCHEME_STYLE = {"none": ("no scaling", PALETTE["query"]), "PI": ("PI", PALETTE["key"]),
                "NTK": ("NTK-aware", PALETTE["highlight"]), "YaRN": ("YaRN", PALETTE["rotated"])}


def _band(ax, x, rows, label, color, **kw):
    rows = np.asarray(rows, dtype=float)
    if rows.size == 0:  # not trained (yet)
        return
    ax.plot(x, rows.mean(0), color=color, label=label, lw=1.8, **kw)
    if len(rows) > 1:
        ax.fill_between(x, rows.min(0), rows.max(0), color=color, alpha=0.2, lw=0)


def _period_band(ax, table, label, color):
    """Accuracy against period, one band over seeds: ``table`` maps seed -> {period: accuracy}."""
    periods = sorted(next(iter(table.values())))
    _band(ax, periods, [[t[p] for p in periods] for t in table.values()], label, color,
          marker="o", ms=3)


def learning_curves(results):
    """Induction accuracy against training step, one line per encoding."""
    fig, ax = new_figure(figsize=(6.4, 3.6))
    for encoding, (label, color) in ENCODING_STYLE.items():
        runs = summary.induction_runs(results, encoding)
        if not runs:  # not trained (yet): make experiments trains every encoding
            continue
        steps = next(iter(runs.values()))["history"]["steps"]
        _band(ax, steps, [r["history"]["accuracy"] for r in runs.values()], label, color)
    ax.set(xlabel="training step", ylabel="accuracy on predictable tokens", ylim=(0, 1.02),
           title="Who learns the induction task (trained at length 64)")
    ax.legend(loc="center right", fontsize=8)
    ax.grid(alpha=0.3)
    return fig


def _period_axes(ax, title):
    """An accuracy-against-period panel: the training length marked, accuracy from 0 to 1."""
    ax.axvline(64, color="0.5", ls=":", lw=1)
    ax.set(title=title, xlabel="period p (tokens back)", ylim=(0, 1.02))
    ax.grid(alpha=0.3)


def extrapolation(results):
    """Accuracy against period (the distance to look back) at 1x, 2x and 4x the training length."""
    fig, axes = new_figure(1, 4, figsize=(13, 3.4), sharey=True)
    for ax, length in zip(axes[:3], (64, 128, 256)):
        for encoding, (label, color) in ENCODING_STYLE.items():
            table = summary.accuracy_by_period(results, encoding, "none", length)
            if not table:
                continue
            _period_band(ax, table, label, color)
        _period_axes(ax, f"evaluated at length {length}")
    axes[0].set_ylabel("accuracy")
    axes[0].legend(fontsize=7, loc="lower left")
    ax = axes[3]
    for scheme, (label, color) in SCHEME_STYLE.items():
        table = summary.accuracy_by_period(results, "rope", scheme, 256)
        _period_band(ax, table, f"RoPE + {label}", color)
    _period_axes(ax, "RoPE at 256, by scheme")
    ax.legend(fontsize=7, loc="lower left")
    return fig


def extension_bars(results):
    """Mean accuracy at 4x without and after the fine-tune, per scheme, at both bases."""
    fig, axes = new_figure(1, 2, figsize=(9, 3.4), sharey=True)
    for ax, base in zip(axes, (10000.0, 270.0)):
        x = np.arange(len(SCHEMES))
        panels = (("no fine-tune", [summary.mean_accuracy(results, s, 256, base) for s in SCHEMES]),
                  ("after 200 fine-tuning steps",
                   [summary.finetuned_accuracy(results, s, 256, base) for s in SCHEMES]))
        for offset, (name, values) in zip((-0.2, 0.2), panels):
            means = [summary.spread(v)[0] if v else np.nan for v in values]
            ax.bar(x + offset, means, 0.38, label=name,
                   color=PALETTE["neutral"] if offset < 0 else PALETTE["query"], alpha=0.8)
            for i, v in enumerate(values):
                ax.plot([x[i] + offset] * len(v), list(v.values()), "k.", ms=4)
        ax.set_xticks(x, [SCHEME_STYLE[s][0] for s in SCHEMES])
        # Head room above 1 for the legend, which would otherwise cover the first bars.
        ax.set(title=f"base {base:g}", ylim=(0, 1.25), yticks=np.linspace(0, 1, 6))
        ax.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel("accuracy at length 256")
    axes[0].legend(fontsize=8, loc="upper center", ncol=2)
    return fig


def heads(params, config, results):
    """The trained heads: attention of the previous-token head and an induction head, the
    per-pair usage of both layers, and the pair ablation."""
    fig, axes = new_figure(1, 3, figsize=(12, 3.4))
    rows = attention_rows(params, config, "none", 64, 24)
    layer0_head = int(np.argmax(summary.induction_runs(results)[0]["heads"]["previous"][0]))
    ax = axes[0]
    keys = np.arange(64)
    ax.plot(keys, rows[0, layer0_head], color=PALETTE["key"], label=f"layer 0, head {layer0_head}")
    ax.plot(keys, rows[1].mean(0), color=PALETTE["query"], label="layer 1, mean of heads")
    ax.axvline(62, color=PALETTE["key"], ls=":", lw=1)
    ax.axvline(63 - 24 + 1, color=PALETTE["query"], ls=":", lw=1)
    ax.set(title="attention of the last token (p = 24)", xlabel="key position", ylabel="weight")
    ax.legend(fontsize=7)
    ax = axes[1]
    n_pairs = config.d_head // 2
    for layer, color in ((0, PALETTE["key"]), (1, PALETTE["query"])):
        shares = []
        for run in summary.induction_runs(results).values():
            usage = np.asarray(run["pair_usage"])[layer]
            shares.append(usage[run["previous_token_head"][1]] if layer == 0 else usage.mean(0))
        shares = np.array(shares)
        x = np.arange(n_pairs) + (-0.2 if layer == 0 else 0.2)
        label = "layer 0, previous-token head" if layer == 0 else "layer 1, mean of heads"
        ax.bar(x, shares.mean(0), 0.38, color=color, label=label)
    ax.set(title="share of |q_i||k_i| per pair", xlabel="pair i (0 = fastest)", xticks=range(n_pairs))
    ax.legend(fontsize=7)
    ax = axes[2]
    keys = ["intact", "layer0_fast", "layer0_slow", "layer1_fast", "layer1_slow"]
    labels = ["intact", "L0 fast 4", "L0 slow 4", "L1 fast 4", "L1 slow 4"]
    values = [summary.ablations(results, k) for k in keys]
    ax.bar(range(len(keys)), [summary.spread(v)[0] for v in values],
           color=[PALETTE["neutral"], PALETTE["key"], PALETTE["key"], PALETTE["query"], PALETTE["query"]],
           alpha=0.85)
    for i, v in enumerate(values):
        ax.plot([i] * len(v), list(v.values()), "k.", ms=4)
    ax.set_xticks(range(len(keys)), labels, fontsize=8)
    ax.set(title="pairs switched off in every query", ylabel="accuracy (p = 24)", ylim=(0, 1.05))
    return fig


def characters(results):
    """Validation loss against evaluation length on text, per encoding and RoPE scheme."""
    fig, axes = new_figure(1, 2, figsize=(10, 3.4), sharey=True)
    lengths = [64, 128, 256, 512]
    for encoding, (label, color) in ENCODING_STYLE.items():
        per = [summary.char_loss_at(results, encoding, n) for n in lengths]
        present = [n for n, v in zip(lengths, per) if v]
        _band(axes[0], present, np.array([list(v.values()) for v in per if v]).T, label, color, marker="o", ms=3)
    for scheme, (label, color) in SCHEME_STYLE.items():
        per = [summary.char_loss_at(results, "rope", n, scheme if n > 64 else "none") for n in lengths]
        if all(per):
            _band(axes[1], lengths, np.array([list(v.values()) for v in per]).T,
                  f"RoPE + {label}", color, marker="o", ms=3)
    for ax, title in zip(axes, ("by encoding (no fine-tuning)", "RoPE, by scheme")):
        ax.set(xscale="log", xticks=lengths, xlabel="evaluation length (characters)", title=title)
        ax.set_xticklabels([str(n) for n in lengths])
        ax.minorticks_off()  # the log axis' minor labels (6×10¹, 2×10²) collide with 64, 256
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("validation loss (nats/char)")
    return fig


def schemes_at_both_bases(results, length=256):
    """RoPE at ``length`` under each scheme, no fine-tuning: base 10 000 beside base 270."""
    fig, axes = new_figure(1, 2, figsize=(9, 3.4), sharey=True)
    for ax, base in zip(axes, (10000.0, 270.0)):
        for scheme, (label, color) in SCHEME_STYLE.items():
            table = summary.accuracy_by_period(results, "rope", scheme, length, base)
            if not table:
                continue
            _period_band(ax, table, label, color)
        _period_axes(ax, f"base {base:g}, length {length}")
    axes[0].set_ylabel("accuracy")
    axes[0].legend(fontsize=8, loc="lower left")
    return fig


def _seed_bars(ax, labels, per_seed, colors):
    """One bar per label at the mean over seeds, a dot per seed; ``per_seed``: list of
    ``{seed: value}``."""
    x = np.arange(len(labels))
    ax.bar(x, [summary.spread(v)[0] for v in per_seed], 0.6, color=colors, alpha=0.85)
    for i, v in enumerate(per_seed):
        ax.plot([x[i]] * len(v), list(v.values()), "k.", ms=4)
    ax.set_xticks(x, labels, fontsize=7)
    ax.tick_params(axis="y", labelsize=7)
    ax.set(ylim=(0, 1.05))
    ax.grid(alpha=0.3, axis="y")


def chapter_summary(results):
    """The chapter in four bar charts, mean over seeds (bars) and each seed (dots).

    (a) final induction accuracy per encoding; (b) accuracy with 4 pairs of one layer switched
    off; (c) accuracy at 4x the training length without fine-tuning, per scheme; (d) after a
    200-step fine-tune at 4x, no scaling against PI at base 10 000 and base 270.
    Returns the figure; its axes carry the bars in that order.
    """
    # 4.8 inches wide: the labels stay readable when a phone shows it 330 px wide.
    fig, axes = new_figure(2, 2, figsize=(4.8, 5.2))
    (a, b), (c, d) = axes
    encodings = [e for e in ENCODING_STYLE if summary.induction_runs(results, e)]
    _seed_bars(a, [ENCODING_STYLE[e][0].replace(" absolute", "") for e in encodings],
               [summary.final_accuracy(results, e) for e in encodings],
               [ENCODING_STYLE[e][1] for e in encodings])
    a.set_title("(a) learns the task at 64", fontsize=8)
    a.set_ylabel("accuracy", fontsize=8)
    a.tick_params(axis="x", labelrotation=35)
    keys = ("intact", "layer0_fast", "layer0_slow", "layer1_fast", "layer1_slow")
    _seed_bars(b, ["none", "L0\nfast", "L0\nslow", "L1\nfast", "L1\nslow"],
               [summary.ablations(results, k) for k in keys],
               [PALETTE["neutral"], PALETTE["key"], PALETTE["query"], PALETTE["key"],
                PALETTE["query"]])
    b.set_title("(b) 4 pairs off in layer 0 / 1", fontsize=8)
    _seed_bars(c, [SCHEME_STYLE[s][0] for s in SCHEMES],
               [summary.mean_accuracy(results, s, 256) for s in SCHEMES],
               [SCHEME_STYLE[s][1] for s in SCHEMES])
    c.set_title("(c) at 4×, no fine-tune", fontsize=8)
    c.set_ylabel("accuracy at 256", fontsize=8)
    c.tick_params(axis="x", labelrotation=35)
    pairs = [(base, s) for base in (10000.0, 270.0) for s in ("none", "PI")]
    _seed_bars(d, [f"{SCHEME_STYLE[s][0].replace('no scaling', 'plain')}\n{base:g}"
                   for base, s in pairs],
               [summary.finetuned_accuracy(results, s, 256, base) for base, s in pairs],
               [SCHEME_STYLE[s][1] for _, s in pairs])
    d.set_title("(d) at 4×, fine-tuned 200 steps", fontsize=8)
    d.set_xlabel("scheme, base", fontsize=7)
    return fig


def partial_rope(results, checks, prefix="p0.5/"):
    """Full RoPE against p-RoPE (half the pairs never rotate): accuracy against period at 1x,
    2x and 4x the training length, one band over the seeds of each."""
    fig, axes = new_figure(1, 3, figsize=(11, 3.4), sharey=True)
    for ax, length in zip(axes, (64, 128, 256)):
        _period_band(ax, summary.accuracy_by_period(results, "rope", "none", length),
                     "RoPE, all 8 pairs rotate", ENCODING_STYLE["rope"][1])
        _period_band(ax, summary.control_by_period(checks, "partial_rope", prefix, length),
                     "p-RoPE, pairs 4–7 never rotate", PALETTE["key"])
        _period_axes(ax, f"evaluated at length {length}")
    axes[0].set_ylabel("accuracy")
    axes[0].legend(fontsize=7, loc="lower left")
    return fig
