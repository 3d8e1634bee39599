"""Figures for RoPE on image grids and video (chapter 14)."""

from __future__ import annotations

import numpy as np

from ._style import PALETTE, axes_or_new

__all__ = ["plot_grid_scores", "plot_mrope_positions"]


def plot_grid_scores(scores, query_row, query_col, *, title=None, vmin=None, vmax=None, ax=None):
    """Heat map of the scores of one query against keys at every cell of an image grid.

    Parameters
    ----------
    scores : array_like, shape (rows, cols)
        Score of the query with a key at each grid cell.
    query_row, query_col : int
        Where the query sits (marked with a cross).
    title : str, optional
    vmin, vmax : float, optional
        Ends of the colour scale; give two panels the same values to compare them.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2:
        raise ValueError(f"scores must be a 2-D (rows, cols) array, got shape {scores.shape}")
    ax = axes_or_new(ax, figsize=(4, 4))
    image = ax.imshow(scores, cmap="viridis", vmin=vmin, vmax=vmax)
    ax.plot(query_col, query_row, marker="x", color="white", markersize=10, mew=2)
    ax.figure.colorbar(image, ax=ax, shrink=0.75, label="score")
    ax.set_xlabel("key column")
    ax.set_ylabel("key row")
    if title:
        ax.set_title(title)
    return ax


def plot_mrope_positions(t, h, w, *, ax=None):
    """The three M-RoPE position components of each token of a sequence, as step lines.

    Parameters
    ----------
    t, h, w : array_like, shape (seq_len,)
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    t, h, w = (np.asarray(a, dtype=float) for a in (t, h, w))
    if not t.shape == h.shape == w.shape or t.ndim != 1:
        raise ValueError(f"t, h and w must be 1-D of one length, got {t.shape}, {h.shape}, {w.shape}")
    ax = axes_or_new(ax, figsize=(7, 3))
    index = np.arange(t.size)
    for values, label, colour, offset in ((t, "t (time)", PALETTE["query"], 0.0),
                                          (h, "h (row)", PALETTE["key"], 0.08),
                                          (w, "w (column)", PALETTE["rotated"], 0.16)):
        ax.step(index, values + offset, where="mid", color=colour, label=label)
    ax.set_xlabel("token index in the sequence")
    ax.set_ylabel("position component")
    ax.legend(fontsize=8, loc="upper left")
    return ax
