"""Figures for the first chapters: position tables, vectors in the plane, complex products.

Every function takes already computed arrays (or the few numbers it needs), draws on ``ax``
(a new figure from :func:`new_figure` when ``ax`` is None) and returns ``ax``. Titles are left
to the book's captions.
"""

from __future__ import annotations

import matplotlib as mpl
import numpy as np

from ..rotation import rotate_2d
from ._style import PALETTE, axes_or_new

__all__ = [
    "plot_position_embedding",
    "plot_vectors_2d",
    "plot_vector_rotation",
    "plot_position_fan",
    "plot_complex_product",
    "plot_phase_progression",
]


def _as_array(values, name, ndim, last=None):
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != ndim or (last is not None and array.shape[-1] != last):
        want = f"a {ndim}-D array" + (f" with a last axis of length {last}" if last is not None else "")
        raise ValueError(f"{name} must be {want}, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite, got NaN or inf")
    return array


def _plane(ax, radius):
    """Equal-aspect axes through the origin, with a dashed circle of the given radius."""
    limit = 1.25 * radius if radius > 0 else 1.0
    circle = np.linspace(0.0, 2.0 * np.pi, 241)
    if radius > 0:
        ax.plot(radius * np.cos(circle), radius * np.sin(circle), ls="--", lw=0.8,
                color=PALETTE["neutral"], alpha=0.6)
    ax.axhline(0.0, color=PALETTE["neutral"], lw=0.6)
    ax.axvline(0.0, color=PALETTE["neutral"], lw=0.6)
    ax.set_xlim(-limit, limit)
    ax.set_ylim(-limit, limit)
    ax.set_aspect("equal")


def _arrows(ax, vectors, colors):
    return ax.quiver(np.zeros(len(vectors)), np.zeros(len(vectors)), vectors[:, 0], vectors[:, 1],
                     color=colors, angles="xy", scale_units="xy", scale=1.0, width=0.012, zorder=3)


def _arc(ax, start_angle, end_angle, radius, color, label=None):
    angles = np.linspace(start_angle, end_angle, 60)
    ax.plot(radius * np.cos(angles), radius * np.sin(angles), color=color, lw=1.4)
    if label is not None:
        middle = 0.5 * (start_angle + end_angle)
        ax.text(1.18 * radius * np.cos(middle), 1.18 * radius * np.sin(middle), label,
                color=color, ha="center", va="center")


def plot_position_embedding(table, positions=None, *, ax=None):
    """Heatmap of a position-embedding table: positions down, features across.

    Parameters
    ----------
    table : array_like, shape (n_positions, dim)
        For example :func:`rope_core.absolute.sinusoidal_position_embedding`.
    positions : array_like, shape (n_positions,), optional
        Evenly spaced positions labelling the rows; default ``0 .. n_positions - 1``.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    table = _as_array(table, "table", 2)
    if positions is None:
        positions = np.arange(table.shape[0], dtype=np.float64)
    positions = _as_array(positions, "positions", 1)
    if positions.size != table.shape[0]:
        raise ValueError(f"positions must have length {table.shape[0]} (rows of table), got {positions.size}")
    ax = axes_or_new(ax, figsize=(6.0, 4.0))
    step = positions[1] - positions[0] if positions.size > 1 else 1.0
    extent = (-0.5, table.shape[1] - 0.5, positions[-1] + step / 2, positions[0] - step / 2)
    image = ax.imshow(table, cmap="RdBu_r", vmin=-1.0, vmax=1.0, extent=extent,
                      interpolation="nearest", aspect="auto")
    ax.figure.colorbar(image, ax=ax, label="value of $p_{m,j}$")
    ax.set_xlabel("feature $j$")
    ax.set_ylabel("position $m$")
    return ax


def plot_vectors_2d(vectors, *, labels=None, colors=None, circle=True, ax=None):
    """Arrows from the origin to each 2-D vector, on equal-aspect axes.

    Parameters
    ----------
    vectors : array_like, shape (n, 2)
    labels : sequence of str, optional
        One label per vector, written next to its tip (mathtext allowed).
    colors : sequence of colours, optional
        One colour per vector; default cycles through the book's palette.
    circle : bool
        Draw the dashed circle through the longest vector.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    vectors = _as_array(vectors, "vectors", 2, last=2)
    if labels is not None and len(labels) != len(vectors):
        raise ValueError(f"labels must have one entry per vector ({len(vectors)}), got {len(labels)}")
    if colors is None:
        palette = list(PALETTE.values())
        colors = [palette[i % len(palette)] for i in range(len(vectors))]
    elif len(colors) != len(vectors):
        raise ValueError(f"colors must have one entry per vector ({len(vectors)}), got {len(colors)}")
    ax = axes_or_new(ax, figsize=(4.6, 4.6))
    radius = float(np.max(np.linalg.norm(vectors, axis=-1))) if len(vectors) else 1.0
    _plane(ax, radius if circle else 0.0)
    if not circle:
        limit = 1.25 * (radius or 1.0)
        ax.set_xlim(-limit, limit)
        ax.set_ylim(-limit, limit)
    _arrows(ax, vectors, colors)
    for vector, label, color in zip(vectors, labels or [], colors):
        ax.text(*(vector * 1.1 + 0.02 * radius), label, color=color, ha="center", va="center")
    return ax


def plot_vector_rotation(vector, angle, *, ax=None):
    r"""A vector, the same vector rotated by ``angle``, and the arc between them.

    Parameters
    ----------
    vector : array_like, shape (2,)
    angle : float
        Rotation angle in radians (counter-clockwise when positive).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    vector = _as_array(vector, "vector", 1, last=2)
    angle = float(angle)
    rotated = rotate_2d(vector, angle)
    ax = plot_vectors_2d(np.stack([vector, rotated]), labels=[r"$v$", r"$R(\alpha)\,v$"],
                         colors=[PALETTE["query"], PALETTE["rotated"]], ax=ax)
    start = float(np.arctan2(vector[1], vector[0]))
    radius = 0.35 * float(np.linalg.norm(vector))
    _arc(ax, start, start + angle, radius, PALETTE["accent"], label=r"$\alpha$")
    return ax


def plot_position_fan(vector, theta, positions, *, ax=None):
    r"""The vector rotated by :math:`m\theta` for each position :math:`m`, labelled by ``m``.

    Parameters
    ----------
    vector : array_like, shape (2,)
        The vector :math:`q` at position 0.
    theta : float
        Angle per position, in radians.
    positions : array_like of int, shape (n,)
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    vector = _as_array(vector, "vector", 1, last=2)
    positions = _as_array(positions, "positions", 1)
    rotated = rotate_2d(vector, float(theta) * positions)
    shades = np.linspace(0.35, 1.0, len(positions))
    colors = [mpl.colormaps["viridis"](1.0 - s) for s in shades]
    labels = [f"$m={int(m)}$" if float(m).is_integer() else f"$m={m:g}$" for m in positions]
    return plot_vectors_2d(rotated, labels=labels, colors=colors, ax=ax)


def plot_complex_product(z, w, *, ax=None):
    r"""Two complex numbers and their product in the complex plane: angles add, moduli multiply.

    Parameters
    ----------
    z, w : complex
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    values = []
    for name, value in (("z", z), ("w", w)):
        value = complex(value)
        if not np.isfinite(value):
            raise ValueError(f"{name} must be a finite complex number, got {value!r}")
        values.append(value)
    z, w = values
    product = z * w
    points = np.array([[v.real, v.imag] for v in (z, w, product)])
    ax = plot_vectors_2d(points, labels=["$z$", "$w$", r"$z\,w$"],
                         colors=[PALETTE["query"], PALETTE["highlight"], PALETTE["rotated"]],
                         circle=False, ax=ax)
    longest = float(np.max(np.abs([z, w, product])))
    _arc(ax, 0.0, np.angle(z), 0.18 * longest, PALETTE["query"])
    _arc(ax, 0.0, np.angle(w), 0.26 * longest, PALETTE["highlight"])
    _arc(ax, 0.0, np.angle(product), 0.34 * longest, PALETTE["rotated"])
    ax.set_xlabel("real part")
    ax.set_ylabel("imaginary part")
    return ax


def plot_phase_progression(positions, phases, *, labels=None, ax=None):
    r"""Phase against position, one line of markers per curve.

    Parameters
    ----------
    positions : array_like, shape (n,)
    phases : array_like, shape (n,) or (n_curves, n)
        Unwrapped phases in radians (e.g. :math:`\varphi(m) = m\theta`).
    labels : sequence of str, optional
        One legend entry per curve.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    positions = _as_array(positions, "positions", 1)
    phases = np.atleast_2d(np.asarray(phases, dtype=np.float64))
    if phases.ndim != 2 or phases.shape[1] != positions.size:
        raise ValueError(f"phases must have shape (n_curves, {positions.size}), got {phases.shape}")
    if labels is not None and len(labels) != len(phases):
        raise ValueError(f"labels must have one entry per curve ({len(phases)}), got {len(labels)}")
    ax = axes_or_new(ax, figsize=(5.6, 3.6))
    palette = [PALETTE["query"], PALETTE["key"], PALETTE["rotated"], PALETTE["accent"]]
    for index, curve in enumerate(phases):
        ax.plot(positions, curve, marker="o", ms=4, color=palette[index % len(palette)],
                label=None if labels is None else labels[index])
    ax.set_xlabel("position $m$")
    ax.set_ylabel(r"phase $\varphi(m)$ (radians)")
    ax.grid(alpha=0.3)
    if labels is not None:
        ax.legend(frameon=False)
    return ax
