"""Figures for the chapters on relative position, d dimensions, speed and attention.

Every function takes already computed arrays (or the few parameters it needs), draws on
``ax`` (a new figure from :func:`new_figure` when ``ax`` is None) and returns ``ax``. Titles
are left to the book's captions.
"""

from __future__ import annotations

import numpy as np

from ..frequencies import default_inverse_frequencies
from ._style import PALETTE, axes_or_new

__all__ = [
    "plot_score_matrix",
    "plot_wavelength_ladder",
    "plot_phase_raster",
    "plot_cost_scaling",
    "plot_attention_weights",
    "plot_decay_bound",
    "plot_expected_logit",
    "plot_pair_contributions",
    "plot_base_bound",
]


def _as_2d(values, name):
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array, got shape {array.shape}")
    return array


def _as_1d(values, name, size=None):
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1 or (size is not None and array.size != size):
        expected = f"length {size}" if size is not None else "1-D"
        raise ValueError(f"{name} must be a 1-D array of {expected}, got shape {array.shape}")
    return array


def _heatmap(ax, matrix, x_values, y_values, *, cmap, symmetric, label):
    if symmetric:
        limit = float(np.max(np.abs(matrix))) or 1.0
        vmin, vmax = -limit, limit
    else:
        vmin, vmax = float(matrix.min()), float(matrix.max())
    extent = (x_values[0] - 0.5, x_values[-1] + 0.5, y_values[-1] + 0.5, y_values[0] - 0.5)
    image = ax.imshow(matrix, cmap=cmap, vmin=vmin, vmax=vmax, extent=extent,
                      interpolation="nearest", aspect="auto")
    ax.figure.colorbar(image, ax=ax, label=label)
    return image


def plot_score_matrix(scores, positions_q, positions_k, *, ax=None):
    """Heatmap of RoPE scores, query positions down, key positions across.

    Parameters
    ----------
    scores : array_like, shape (len_q, len_k)
        For example :func:`rope_core.relative_scores`.
    positions_q, positions_k : array_like, shape (len_q,), (len_k,)
        Evenly spaced positions labelling the rows and columns.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    scores = _as_2d(scores, "scores")
    positions_q = _as_1d(positions_q, "positions_q", scores.shape[0])
    positions_k = _as_1d(positions_k, "positions_k", scores.shape[1])
    ax = axes_or_new(ax, figsize=(5.4, 4.4))
    _heatmap(ax, scores, positions_k, positions_q, cmap="RdBu_r", symmetric=True,
             label=r"score $\langle R_m q, R_n k\rangle$")
    ax.set_xlabel("key position $n$")
    ax.set_ylabel("query position $m$")
    return ax


def plot_wavelength_ladder(dim, base=10000.0, *, context_len=None, ax=None):
    r"""Wavelength :math:`2\pi/\theta_i` of every pair on a log axis: a straight line.

    Parameters
    ----------
    dim : int
        Head dimension ``d`` (even).
    base : float or sequence of float
        One base, or several to compare.
    context_len : int, optional
        Draws a horizontal line at this length; pairs above it never complete a turn inside
        the context.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    bases = np.atleast_1d(np.asarray(base, dtype=np.float64))
    ax = axes_or_new(ax, figsize=(6.0, 3.6))
    colours = [PALETTE["query"], PALETTE["key"], PALETTE["rotated"], PALETTE["accent"]]
    for number, one_base in enumerate(bases):
        wavelength = 2 * np.pi / default_inverse_frequencies(dim, float(one_base))
        ax.semilogy(np.arange(dim // 2), wavelength, "o-", ms=3, lw=1.2,
                    color=colours[number % len(colours)], label=f"base = {one_base:g}")
    if context_len is not None:
        ax.axhline(context_len, color=PALETTE["neutral"], ls="--", lw=1)
        ax.annotate(f"context length {context_len:g}", (0, context_len), xytext=(2, 4),
                    textcoords="offset points", color=PALETTE["neutral"], fontsize=8)
    ax.set_xlabel("pair index $i$")
    ax.set_ylabel(r"wavelength $2\pi/\theta_i$ (tokens)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    return ax


def plot_phase_raster(positions, dim, base=10000.0, *, ax=None):
    r"""The angle of every pair, :math:`m\theta_i \bmod 2\pi`, as a colour image.

    Pairs are rows (fast at the top), positions are columns: fast pairs cycle like the last
    digit of a counter, slow pairs barely move, like its leading digits.

    Parameters
    ----------
    positions : array_like, shape (n,)
        Evenly spaced positions (columns).
    dim : int
        Head dimension ``d`` (even).
    base : float
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    positions = _as_1d(positions, "positions")
    theta = default_inverse_frequencies(dim, base)
    phase = np.mod(np.outer(theta, positions), 2 * np.pi)  # (d/2, n)
    ax = axes_or_new(ax, figsize=(6.4, 3.6))
    image = ax.imshow(phase, cmap="twilight", vmin=0, vmax=2 * np.pi, aspect="auto",
                      interpolation="nearest",
                      extent=(positions[0], positions[-1], dim // 2 - 0.5, -0.5))
    colourbar = ax.figure.colorbar(image, ax=ax, label=r"angle $m\theta_i$ mod $2\pi$")
    colourbar.set_ticks([0, np.pi, 2 * np.pi], labels=["0", r"$\pi$", r"$2\pi$"])
    ax.set_xlabel("position $m$")
    ax.set_ylabel("pair index $i$")
    return ax


def plot_cost_scaling(dims, dense_seconds, elementwise_seconds, *, ax=None):
    """Time per rotated vector against ``d`` on log-log axes, with O(d) and O(d²) guides.

    Parameters
    ----------
    dims : array_like, shape (n,)
    dense_seconds, elementwise_seconds : array_like, shape (n,)
        Seconds per vector for the dense ``R_m x`` and for the element-wise form.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    dims = _as_1d(dims, "dims")
    dense = _as_1d(dense_seconds, "dense_seconds", dims.size)
    elementwise = _as_1d(elementwise_seconds, "elementwise_seconds", dims.size)
    ax = axes_or_new(ax, figsize=(5.6, 3.8))
    ax.loglog(dims, dense * 1e9, "o-", color=PALETTE["key"], label=r"dense $R_m x$")
    ax.loglog(dims, elementwise * 1e9, "s-", color=PALETTE["query"], label="element-wise")
    # Guides through the last point of each curve, with slopes 2 and 1.
    ax.loglog(dims, dense[-1] * 1e9 * (dims / dims[-1]) ** 2, ":", color=PALETTE["neutral"],
              label=r"$\propto d^2$")
    ax.loglog(dims, elementwise[-1] * 1e9 * (dims / dims[-1]), "--", color=PALETTE["neutral"],
              label=r"$\propto d$")
    ax.set_xlabel("head dimension $d$")
    ax.set_ylabel("time per vector (ns)")
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=8)
    return ax


def plot_attention_weights(weights, *, ax=None):
    """Attention weights as a heatmap, query positions down, key positions across.

    Parameters
    ----------
    weights : array_like, shape (seq_len_q, seq_len_k)
        Rows sum to one (e.g. the second output of :func:`rope_core.rope_attention`).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    weights = _as_2d(weights, "weights")
    ax = axes_or_new(ax, figsize=(5.0, 4.2))
    _heatmap(ax, weights, np.arange(weights.shape[1]), np.arange(weights.shape[0]),
             cmap="viridis", symmetric=False, label="attention weight $a_{m,n}$")
    ax.set_xlabel("key position $n$")
    ax.set_ylabel("query position $m$")
    return ax


def plot_decay_bound(distances, bounds, *, labels=None, ax=None):
    r"""RoFormer's relative upper bound against distance, one curve per setting.

    Parameters
    ----------
    distances : array_like, shape (n,)
    bounds : array_like, shape (n,) or (n_curves, n)
        For example :func:`rope_core.long_term_decay_bound`.
    labels : sequence of str, optional
        One legend entry per curve.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    distances = _as_1d(distances, "distances")
    bounds = np.atleast_2d(np.asarray(bounds, dtype=np.float64))
    if bounds.ndim != 2 or bounds.shape[1] != distances.size:
        raise ValueError(f"bounds must have shape (n_curves, {distances.size}), got {bounds.shape}")
    if labels is not None and len(labels) != bounds.shape[0]:
        raise ValueError(f"labels must have {bounds.shape[0]} entries, got {len(labels)}")
    ax = axes_or_new(ax, figsize=(6.0, 3.6))
    colours = [PALETTE["query"], PALETTE["key"], PALETTE["rotated"], PALETTE["accent"]]
    for number, curve in enumerate(bounds):
        ax.plot(distances, curve, lw=1.1, color=colours[number % len(colours)],
                label=None if labels is None else labels[number])
    ax.set_xlabel("relative distance $m - n$")
    ax.set_ylabel(r"$\frac{1}{d/2}\sum_j |S_j|$")
    ax.grid(True, alpha=0.3)
    if labels is not None:
        ax.legend(fontsize=8)
    return ax


def plot_expected_logit(distances, samples, expected, *, label=None, color=None, ax=None):
    """Sampled RoPE logits (mean and middle 80 %) against distance, with the exact mean.

    Parameters
    ----------
    distances : array_like, shape (n,)
    samples : array_like, shape (n_samples, n)
        For example :func:`rope_core.attention.monte_carlo_logits`.
    expected : array_like, shape (n,)
        The exact expectation (:func:`rope_core.bounds.expected_logit`).
    label : str, optional
        Names the setting in the legend.
    color : matplotlib colour, optional
        Colour of the band and the sample mean (to draw several settings on one ``ax``).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    distances = _as_1d(distances, "distances")
    samples = _as_2d(samples, "samples")
    if samples.shape[1] != distances.size:
        raise ValueError(f"samples must have {distances.size} columns, got shape {samples.shape}")
    expected = _as_1d(expected, "expected", distances.size)
    ax = axes_or_new(ax, figsize=(6.0, 3.6))
    prefix = "" if label is None else f"{label}: "
    low, high = np.percentile(samples, [10, 90], axis=0)
    colour = PALETTE["query"] if color is None else color
    ax.fill_between(distances, low, high, color=colour, alpha=0.18, lw=0,
                    label=f"{prefix}middle 80 % of samples")
    ax.plot(distances, samples.mean(0), color=colour, lw=1.0, label=f"{prefix}sample mean")
    ax.plot(distances, expected, color="black", lw=1.0, ls="--", label=f"{prefix}exact mean")
    ax.axhline(0, color=PALETTE["neutral"], lw=0.6)
    ax.set_xlabel("relative distance $m - n$")
    ax.set_ylabel("logit $q^T R_{n-m} k$")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return ax


def plot_pair_contributions(distances, contributions, *, ax=None):
    """Each pair's share of the logit against distance, pairs as rows.

    Parameters
    ----------
    distances : array_like, shape (n,)
        Evenly spaced distances (columns).
    contributions : array_like, shape (n, d/2)
        For example :func:`rope_core.attention.pair_contributions`.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    distances = _as_1d(distances, "distances")
    contributions = _as_2d(contributions, "contributions")
    if contributions.shape[0] != distances.size:
        raise ValueError(
            f"contributions must have {distances.size} rows, got shape {contributions.shape}"
        )
    ax = axes_or_new(ax, figsize=(6.4, 3.8))
    _heatmap(ax, contributions.T, distances, np.arange(contributions.shape[1]),
             cmap="RdBu_r", symmetric=True, label="term of pair $i$")
    ax.set_xlabel("relative distance $m - n$")
    ax.set_ylabel("pair index $i$ (fast at top)")
    return ax


def plot_base_bound(context_lengths, bases, *, all_pass=None, used=None, ax=None):
    """Smallest base for a context length on log-log axes, with bases models use.

    Parameters
    ----------
    context_lengths : array_like, shape (n,)
    bases : array_like, shape (n,)
        For example :func:`rope_core.min_base_for_context` for each length.
    all_pass : array_like, shape (n,), optional
        The base from which every larger base passes
        (:func:`rope_core.bounds.base_from_which_all_pass`); drawn as a second line, with the
        band between the two shaded as "mixed".
    used : dict of str to (float, float), optional
        ``{name: (context_length, base)}`` points to mark, such as real models.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    lengths = _as_1d(context_lengths, "context_lengths")
    bases = _as_1d(bases, "bases", lengths.size)
    ax = axes_or_new(ax, figsize=(5.8, 3.8))
    ax.loglog(lengths, bases, "o-", color=PALETTE["query"], label="smallest base (bound)")
    ax.fill_between(lengths, bases, bases.min() / 10, color=PALETTE["key"], alpha=0.12, lw=0,
                    label=r"$\sum_i\cos(m\theta_i) < 0$ for some $m \leq L$")
    if all_pass is not None:
        all_pass = _as_1d(all_pass, "all_pass", lengths.size)
        if np.any(all_pass < bases):
            raise ValueError("all_pass must be >= bases at every length")
        ax.loglog(lengths, all_pass, "s--", color=PALETTE["key"], label="every larger base passes")
        ax.fill_between(lengths, bases, all_pass, color=PALETTE["key"], alpha=0.05, lw=0,
                        hatch="//", label="mixed: some bases pass, some fail")
    for name, (length, base) in (used or {}).items():
        ax.plot(length, base, "*", ms=10, color=PALETTE["highlight"])
        ax.annotate(name, (length, base), xytext=(5, -3), textcoords="offset points", fontsize=8)
    ax.set_xlabel("context length $L$ (tokens)")
    ax.set_ylabel("base")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    return ax
