"""Figures for context extension (chapter 9)."""

from __future__ import annotations

import numpy as np

from .. import inverse_frequencies, yarn_correction_range, yarn_ramp
from ._style import PALETTE, axes_or_new

__all__ = ["plot_angle_coverage", "plot_yarn_ramp"]


def plot_angle_coverage(dim=128, base=10000.0, training_length=4096, target_length=32768, *, ax=None):
    r"""Turns :math:`m\theta_i / 2\pi` each pair makes by the training and by the target length.

    Pairs below one turn at the training length never saw the whole circle; at the target
    length they reach angles the model never saw.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if not 0 < training_length < target_length:
        raise ValueError(f"need 0 < training_length < target_length, got {training_length}, {target_length}")
    theta = inverse_frequencies(dim, base)
    pairs = np.arange(theta.size)
    ax = axes_or_new(ax, figsize=(6.5, 3.6))
    ax.plot(pairs, training_length * theta / (2 * np.pi), color=PALETTE["query"], label=f"by L = {training_length}")
    ax.plot(pairs, target_length * theta / (2 * np.pi), color=PALETTE["key"], label=f"by {target_length}")
    ax.axhline(1.0, color="#999999", ls="--", lw=1)
    ax.text(1, 1.25, "one full turn", fontsize=8, color="#555555")
    unseen = training_length * theta < 2 * np.pi
    ax.fill_between(pairs, 1e-3, 1e6, where=unseen, color=PALETTE["highlight"], alpha=0.15, step="mid",
                    label="never completed a turn in training")
    ax.set_yscale("log")
    ax.set_ylim(1e-2, training_length)
    ax.set_xlabel("pair index $i$")
    ax.set_ylabel("turns $m\\theta_i / 2\\pi$")
    ax.legend(fontsize=8, loc="upper right")
    return ax


def plot_yarn_ramp(dim=128, base=10000.0, training_length=4096, beta_fast=32.0, beta_slow=1.0, *, ax=None):
    r"""YaRN's share of interpolation per pair: 0 (kept) up to ``low``, 1 (divided by s) from ``high``.

    Returns
    -------
    matplotlib.axes.Axes
    """
    low, high = yarn_correction_range(dim, base, training_length, beta_fast, beta_slow)
    ramp = yarn_ramp(dim, low, high)
    ax = axes_or_new(ax, figsize=(6.5, 3.0))
    ax.step(np.arange(ramp.size), ramp, where="mid", color=PALETTE["rotated"])
    for edge, label in ((low, f"low = {low}"), (high, f"high = {high}")):
        ax.axvline(edge, color="#999999", ls="--", lw=1)
        ax.text(edge + 0.5, 0.5, label, fontsize=8, rotation=90, va="center")
    ax.set_xlabel("pair index $i$")
    ax.set_ylabel("interpolated share $r_i$")
    ax.set_ylim(-0.05, 1.05)
    return ax
