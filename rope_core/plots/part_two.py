"""Print views of the Part II widgets: a scaling scheme pair by pair, and a KV cache's events.

Each draws the numbers its widget shows (``rope_core.demos.scaling_pairs`` and
``rope_core.demos.kv_cache``), for the printed book, the gallery and a page opened as a file.
"""

from __future__ import annotations

import numpy as np

from ..demos.context import EXTENSION_METHODS
from ..demos.kv_cache import KV_CACHE_DEFAULTS, kv_cache_stages
from ..demos.scaling_pairs import scaling_pairs_table
from ._style import PALETTE, axes_or_new

__all__ = ["plot_scaling_pairs", "plot_kv_cache"]


def plot_scaling_pairs(model="qwen2.5-7b", factor=4, scheme="ntk", *, ax=None):
    r"""One bar per pair: its turns over the target :math:`T = sL` under ``scheme``; a tick at its
    turns over the trained length :math:`L`. Orange bars are slow pairs beyond training.

    Parameters
    ----------
    model : str
        An atlas name accepted by ``rope_core.demos.scaling_pairs.scaling_pairs_model``.
    factor : float
        Target factor :math:`s \ge 1`.
    scheme : str
        A key of ``rope_core.demos.context.EXTENSION_METHODS``.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    if scheme not in EXTENSION_METHODS:
        raise ValueError(f"scheme must be one of {tuple(EXTENSION_METHODS)}, got {scheme!r}")
    table = scaling_pairs_table([model], [factor], [scheme])
    entry = table["models"][0]
    cell = entry["cells"][scheme][0]
    ax = axes_or_new(ax, figsize=(6.4, 3.4))
    pairs = np.arange(len(entry["log_trained"]))
    target = 10.0 ** np.asarray(cell["log_target"])
    trained = 10.0 ** np.asarray(entry["log_trained"])
    colours = [PALETTE["key"] if i in set(cell["beyond"]) else PALETTE["query"] for i in pairs]
    if entry["slow"]:
        ax.axvspan(entry["slow"][0] - 0.5, entry["slow"][-1] + 0.5, color=PALETTE["highlight"], alpha=0.15, lw=0)
    ax.bar(pairs, target, bottom=1e-3, width=0.75, color=colours)
    ax.hlines(trained, pairs - 0.45, pairs + 0.45, color="black", lw=1.6)
    ax.axhline(1.0, color=PALETTE["neutral"], ls="--", lw=1)
    ax.set_yscale("log")
    ax.set_ylim(1e-3, 1e6)
    length = f"{entry['training_length']:,}".replace(",", " ")
    ax.set_xlabel(f"pair i (shaded: slow, under one turn in {length} tokens)")
    ax.set_ylabel("turns")
    # Two short lines: side by side, two panels' titles must not run into each other.
    ax.set_title(f"{entry['title']}, {EXTENSION_METHODS[scheme]} at {factor:g}×\n"
                 f"{len(cell['beyond'])} of {len(entry['slow'])} slow pairs beyond training", fontsize=10)
    return ax


def plot_kv_cache(stage=None, *, rerotate=True, ax=None):
    r"""The cache after one event of ``rope_core.demos.kv_cache.kv_cache_stages``: a dial per
    slot, the cached rotation of pair 0 (solid) and the one a fresh key would have (dashed),
    the position each key is rotated at over the position its token has now.

    Parameters
    ----------
    stage : int, optional
        Which event (default: the eviction, where the kept keys are stale).
    rerotate : bool
        Whether the kept keys get their rotation by :math:`-E`.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    stages = kv_cache_stages(rerotate=rerotate)
    if stage is None:
        stage = next(i for i, s in enumerate(stages) if s["event"] == "evict")
    if isinstance(stage, bool) or not isinstance(stage, (int, np.integer)) or not 0 <= stage < len(stages):
        raise ValueError(f"stage must be an integer in [0, {len(stages) - 1}], got {stage!r}")
    s = stages[stage]
    ax = axes_or_new(ax, figsize=(6.4, 2.6))
    capacity = KV_CACHE_DEFAULTS["capacity"]
    for j in range(capacity):
        ax.add_patch(_box(j, used=j < len(s["tokens"]), stale=j < len(s["tokens"]) and s["positions"][j] != s["should"][j]))
        if j >= len(s["tokens"]):
            continue
        ax.text(j, 1.25, f"t{s['tokens'][j]}", ha="center", va="center", fontsize=9)
        circle = np.linspace(0, 2 * np.pi, 60)
        ax.plot(j + 0.3 * np.cos(circle), 0.6 + 0.3 * np.sin(circle), color=PALETTE["neutral"], lw=0.8)
        for angle, style in ((s["should_angle"][j], dict(color="black", ls="--", lw=1.2)),
                             (s["angle"][j], dict(color=PALETTE["rotated"], lw=2.4))):
            ax.plot([j, j + 0.28 * np.cos(angle)], [0.6, 0.6 + 0.28 * np.sin(angle)], **style)
        stale = s["positions"][j] != s["should"][j]
        ax.text(j, 0.05, f"{s['positions'][j]} / {s['should'][j]}", ha="center", va="center", fontsize=9,
                color=PALETTE["key"] if stale else "black", fontweight="bold" if stale else "normal")
    ax.set_xlim(-0.6, capacity - 0.4)
    ax.set_ylim(-0.25, 1.5)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"{s['label']}\ncached at / now at; next query's largest score error {s['error']:.3g}", fontsize=9)
    return ax


def _box(j, *, used, stale):
    from matplotlib.patches import FancyBboxPatch
    colour = PALETTE["key"] if stale else (PALETTE["neutral"] if used else "#cccccc")
    return FancyBboxPatch((j - 0.44, -0.15), 0.88, 1.58, boxstyle="round,pad=0,rounding_size=0.06",
                          fill=False, lw=2.2 if stale else 0.8, ec=colour, ls="-" if used else ":")
