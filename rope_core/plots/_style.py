"""Figure creation shared by every plotting function.

Figures get an opaque white face so that they stay readable on the dark theme of the
book (matplotlib-inline's default face is transparent). Nothing here touches the global
``rcParams``: style is applied per figure.
"""

from __future__ import annotations

import matplotlib.pyplot as plt

#: Colours used across the book's figures (colour-blind-safe Okabe–Ito palette).
PALETTE = {
    "query": "#0072B2",
    "key": "#D55E00",
    "rotated": "#009E73",
    "accent": "#CC79A7",
    "neutral": "#555555",
    "highlight": "#E69F00",
}

_FACE = "white"


def new_figure(nrows=1, ncols=1, *, figsize=None, dpi=110, **subplot_kw):
    """Create a figure with an opaque white face and its axes.

    Parameters
    ----------
    nrows, ncols : int
        Grid of axes, as in :func:`matplotlib.pyplot.subplots`.
    figsize : tuple of float, optional
        Width and height in inches; defaults to 3.2 inches a column and 3 a row
        (at least 5 × 3.2).
    dpi : float
        Resolution of the figure.
    **subplot_kw
        Passed on to :func:`matplotlib.pyplot.subplots` (e.g. ``sharex=True``).

    Returns
    -------
    fig : matplotlib.figure.Figure
    axes : matplotlib.axes.Axes or numpy.ndarray of Axes
    """
    for name, value in (("nrows", nrows), ("ncols", ncols)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if figsize is None:
        figsize = (max(5.0, 3.2 * ncols), max(3.2, 3.0 * nrows))
    fig, axes = plt.subplots(
        nrows, ncols, figsize=figsize, dpi=dpi, facecolor=_FACE,
        layout="constrained", **subplot_kw,
    )
    return fig, axes


def axes_or_new(ax, **figure_kw):
    """Return ``ax`` if given, otherwise the single axes of a :func:`new_figure`."""
    if ax is not None:
        return ax
    _, ax = new_figure(**figure_kw)
    return ax
