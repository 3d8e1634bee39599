"""The gallery's card pictures: one small drawing per widget, made for the size the card shows.

A card shows its picture 209 px wide on a 1280 px page and 292 px wide on a 390 px phone.
A print figure shrunk to that size has 4-6 px text and hairlines, so these are drawn for it:
few marks, lines at least 3 pt thick, no text at all (the card's title and question say what
the picture is), and the one idea of the widget in its question's state, not its answer.
Every function takes ``ax=`` (a new :func:`thumbnail_figure` when omitted) and returns it;
each reads its numbers from the ``rope_core.demos`` table the widget itself draws from.

Sizes: :data:`THUMBNAIL_INCHES` at :data:`THUMBNAIL_DPI` is 408 × 272 px (435 × 299 px with the
0.1 inch margin the page saves figures with), about twice the width shown at 1280 px, so that
the picture stays sharp on a screen of two device pixels per CSS pixel.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import PowerNorm
from matplotlib.patches import Circle, FancyArrowPatch, Rectangle, Wedge

from ..demos.candidates import candidate_table
from ..demos.context import CONTEXT_DEFAULTS, context_extension_table
from ..demos.decay import content_pair_table
from ..demos.kv_cache import kv_cache_stages
from ..demos.rotation import RELATIVE_DEFAULTS, relative_state, rotation_state, unit_vector
from ..demos.scaling_pairs import scaling_pairs_table
from ..demos.spectrum import clock_table, layout_table, matrix_table
from ._style import PALETTE, new_figure

__all__ = ["THUMBNAIL_INCHES", "THUMBNAIL_DPI", "thumbnail_figure", "relative_invariance_thumbnail",
           "rotation_thumbnail", "candidate_thumbnail", "rotation_matrix_thumbnail", "clocks_thumbnail",
           "layout_thumbnail", "decay_thumbnail", "context_thumbnail", "scaling_pairs_thumbnail",
           "trained_attention_thumbnail", "kv_cache_thumbnail"]

#: Width and height of a card picture in inches, and its resolution (408 × 272 px).
THUMBNAIL_INCHES = (3.0, 2.0)
THUMBNAIL_DPI = 136

# Line widths in points; at 136 dpi shown at half size one point is about one CSS pixel.
THICK = 4.0
MEDIUM = 3.0


def thumbnail_figure():
    """A figure of the card picture's size with one bare axes.

    Returns
    -------
    fig : matplotlib.figure.Figure
    ax : matplotlib.axes.Axes
        With no ticks, tick labels or frame.
    """
    fig, ax = new_figure(1, 1, figsize=THUMBNAIL_INCHES, dpi=THUMBNAIL_DPI)
    fig.get_layout_engine().set(w_pad=0.02, h_pad=0.02)
    # The page saves figures cropped to what is drawn; a blank rectangle over the whole figure
    # keeps every card's picture the same size, whatever the drawing's own shape.
    fig.add_artist(Rectangle((0, 0), 1, 1, transform=fig.transFigure, facecolor="none", edgecolor="none"))
    return fig, _bare(ax)


def _bare(ax):
    """``ax`` without ticks, tick labels or frame."""
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    return ax


def _axes(ax):
    return _bare(ax) if ax is not None else thumbnail_figure()[1]


def _arrow(ax, start, end, colour, *, width=THICK, style="-|>", dashed=False):
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle=style, mutation_scale=22, color=colour,
                                 linewidth=width, linestyle=(0, (3, 2)) if dashed else "-",
                                 shrinkA=0, shrinkB=0))


def _arc(ax, centre, radius, start, end, colour, width=MEDIUM):
    """An arc from angle ``start`` to ``end`` (radians, counter-clockwise)."""
    angles = np.linspace(start, end if end >= start else end + 2 * np.pi, 60)
    ax.plot(centre[0] + radius * np.cos(angles), centre[1] + radius * np.sin(angles), color=colour,
            linewidth=width, solid_capstyle="round")


def _unit_circle(ax, centre=(0.0, 0.0), radius=1.0):
    ax.add_patch(Circle(centre, radius, fill=False, edgecolor="#bbbbbb", linewidth=MEDIUM))


def _hand(ax, centre, tip, colour):
    """A clock hand: a thick line with round ends and a dot at the centre."""
    ax.plot([centre[0], tip[0]], [centre[1], tip[1]], color=colour, linewidth=THICK + 1, solid_capstyle="round")
    ax.plot(*centre, "o", color="black", markersize=6)


def _grid_centre(index, columns, spacing=2.3):
    """Centre of the ``index``-th unit dial in rows of ``columns``, left to right, top down."""
    return np.array([spacing * (index % columns), -spacing * (index // columns)])


def _grid_limits(ax, count, columns, spacing=2.3):
    rows = (count + columns - 1) // columns
    return _square(ax, (-1.15, spacing * (columns - 1) + 1.15), (-spacing * (rows - 1) - 1.15, 1.15))


def _square(ax, x_limits, y_limits):
    ax.set_xlim(*x_limits)
    ax.set_ylim(*y_limits)
    ax.set_aspect("equal", adjustable="box")
    return ax


def relative_invariance_thumbnail(ax=None):
    r"""Two copies of the circle: :math:`R_m q` and :math:`R_n k` before a shift (left) and both
    shifted by :math:`\Delta = 9` (right), the angle :math:`\gamma` between them as an arc.

    The widget's defaults (:data:`rope_core.demos.rotation.RELATIVE_DEFAULTS`); it shows that
    both arrows turn, and leaves to the reader what the score does.

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    d = RELATIVE_DEFAULTS
    q = d["q_length"] * unit_vector(d["q_angle"])
    k = d["k_length"] * unit_vector(d["k_angle"])
    for centre_x, shift in ((-1.25, 0), (1.25, 9)):
        state = relative_state(q, k, d["m"], d["n"], shift, d["theta"])
        centre = np.array([centre_x, 0.0])
        _unit_circle(ax, centre)
        start = np.arctan2(state["rotated_q"][1], state["rotated_q"][0])
        _arc(ax, centre, 0.35, start, start + state["angle"], PALETTE["accent"])
        _arrow(ax, centre, centre + state["rotated_q"], PALETTE["query"])
        _arrow(ax, centre, centre + state["rotated_k"], PALETTE["key"])
    return _square(ax, (-2.4, 2.4), (-1.15, 1.15))


def rotation_thumbnail(ax=None, position=8, theta=0.3):
    r"""A vector :math:`q` (blue), its rotation :math:`R(m\theta)q` (green), the dots of the
    positions before :math:`m` and the arc :math:`m\theta` (:func:`rope_core.demos.rotation.rotation_state`).

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
    position : int
        :math:`m`.
    theta : float
        Radians per position.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    q = np.array([1.0, 0.5]) / np.hypot(1.0, 0.5)
    state = rotation_state(q, position, theta)
    _unit_circle(ax)
    ax.scatter(state["trail"][1:, 0], state["trail"][1:, 1], s=70, color="#999999", zorder=3)
    start = np.arctan2(q[1], q[0])
    _arc(ax, (0, 0), 0.4, start, start + state["angle"] % (2 * np.pi), PALETTE["accent"])
    _arrow(ax, (0, 0), state["q"], PALETTE["query"])
    _arrow(ax, (0, 0), state["rotated"], PALETTE["rotated"])
    return _square(ax, (-1.7, 1.7), (-1.15, 1.15))


def candidate_thumbnail(ax=None, candidate="rotation", size=8):
    r"""The score matrix :math:`S_{mn}` of one candidate encoding over an 8 × 8 grid of positions,
    one diagonal :math:`n - m = 2` outlined: is it one colour?
    (:func:`rope_core.demos.candidates.candidate_table`).

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
    candidate : str
        A name of :data:`rope_core.demos.candidates.CANDIDATES`.
    size : int
        Positions per side.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    table = candidate_table(size=size)
    if candidate not in table["names"]:
        raise ValueError(f"candidate must be one of {table['names']}, got {candidate!r}")
    scores = table[candidate]["real"]
    limit = np.abs(scores).max()
    ax.imshow(scores, cmap="RdBu_r", vmin=-limit, vmax=limit, interpolation="nearest")
    cells = np.arange(size - 2)
    ax.plot(cells + 2, cells, color="black", linewidth=THICK, solid_capstyle="round")
    ax.set_aspect("equal")
    return ax


def rotation_matrix_thumbnail(ax=None, position=3, dim=8):
    r"""The :math:`d \times d` matrix :math:`R^d_{\Theta,m}`: white except its 2 × 2 blocks on the
    diagonal (:func:`rope_core.demos.spectrum.matrix_table`), each block outlined.

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
    position : int
        :math:`m`.
    dim : int
        :math:`d`.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    table = matrix_table(dim, 10000.0, [position])
    matrix = np.full((dim, dim), np.nan)
    matrix[table["rows"], table["cols"]] = table["blocks"][0]
    ax.imshow(matrix, cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest")
    for block in range(dim // 2):
        ax.add_patch(Rectangle((2 * block - 0.5, 2 * block - 0.5), 2, 2, fill=False, edgecolor="black",
                               linewidth=MEDIUM))
    ax.add_patch(Rectangle((-0.5, -0.5), dim, dim, fill=False, edgecolor="#999999", linewidth=MEDIUM))
    ax.set_aspect("equal")
    return ax


def clocks_thumbnail(ax=None, position=40, dim=8, base=10000.0):
    r"""One clock per pair at position :math:`m`, the hand at :math:`m\theta_i \bmod 2\pi`, fastest
    on the left (:func:`rope_core.demos.spectrum.clock_table`); all hands alike, so that which
    of them turn within the context is the reader's question.

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
    position : int
        :math:`m`.
    dim : int
        :math:`d`: :math:`d/2` clocks.
    base : float

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    table = clock_table(dim, base, [position], [position])
    pairs = dim // 2
    columns = (pairs + 1) // 2
    for pair in range(pairs):
        centre = _grid_centre(pair, columns)
        _unit_circle(ax, centre)
        tip = centre + 0.85 * np.array([table["sin"][0, pair], table["cos"][0, pair]])  # noon is 0
        _hand(ax, centre, tip, PALETTE["query"])
    return _grid_limits(ax, pairs, columns)


def layout_thumbnail(ax=None, dim=8):
    r"""The same :math:`d` features in the interleaved layout (top) and the half layout (bottom),
    each pair in one colour, a line from each feature to its place
    (:func:`rope_core.demos.spectrum.layout_table`).

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
    dim : int

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    table = layout_table(dim, 10000.0)
    colours = [PALETTE[name] for name in ("query", "key", "rotated", "highlight", "accent", "neutral")]
    pair_of = np.arange(dim) // 2  # interleaved feature -> its pair
    for half_index, feature in enumerate(table["interleaved_to_half"]):
        colour = colours[pair_of[feature] % len(colours)]
        ax.plot([feature + 0.5, half_index + 0.5], [2.0, 0.9], color=colour, linewidth=MEDIUM)
    for row_y, order in ((2.0, np.arange(dim)), (0.0, table["interleaved_to_half"])):
        for place, feature in enumerate(order):
            ax.add_patch(Rectangle((place + 0.08, row_y), 0.84, 0.9, color=colours[pair_of[feature] % len(colours)]))
    return _square(ax, (-0.2, dim + 0.2), (-0.3, 3.2))


def decay_thumbnail(ax=None, base=10000.0):
    r"""Against distance, on a logarithmic axis: the aligned pair's :math:`|\text{score}|`
    (:math:`q = k = (1, \dots, 1)`, divided by :math:`|q|\,|k|`, solid) and RoFormer's bound on
    it (dashed), as the widget opens once the reader has moved r
    (:func:`rope_core.demos.decay.content_pair_table`). What a random key does is the widget's
    question, so the card does not draw it.

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
    base : float
        One of the table's default bases.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    table = content_pair_table(bases=(base,), mixes=(0.0,))
    distances = table["distances"]
    # The widget's axis: |score| from 0.001 (a score nearer 0 is drawn there) to 200.
    ax.plot(distances, np.clip(np.abs(table["score"][0, 0]), 1e-3, 200), color=PALETTE["query"], linewidth=MEDIUM)
    ax.plot(distances, table["bound"][0, 0], color="black", linewidth=MEDIUM, linestyle=(0, (3, 2)))
    ax.set_yscale("log")
    ax.set_xlim(0, distances[-1])
    ax.set_ylim(1e-3, 200)
    _bare(ax)
    ax.minorticks_off()
    return ax


def context_thumbnail(ax=None, factor=1, dials=6):
    r"""``dials`` of the slow pairs of the book's head (:math:`d = 128`, :math:`L = 4096`): the arc
    each turned in training shaded, its hand at :math:`p = sL` without scaling
    (:func:`rope_core.demos.context.context_extension_table`). The card draws :math:`s = 1`,
    each hand at the end of its arc: where the hands go at :math:`8L` is the widget's question.

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
    factor : float
        :math:`s`, one of the table's default factors.
    dials : int
        How many slow pairs, spread from the fastest slow pair to the slowest.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    table = context_extension_table()
    factors = list(CONTEXT_DEFAULTS["factors"])
    if factor not in factors:
        raise ValueError(f"factor must be one of {factors}, got {factor!r}")
    slow = np.flatnonzero(table["slow"])
    chosen = slow[np.linspace(0, len(slow) - 1, dials).round().astype(int)]
    trained = CONTEXT_DEFAULTS["training_length"] * table["theta"]
    reached = factor * CONTEXT_DEFAULTS["training_length"] * table["per_factor"][factors.index(factor)]["default"]["scaled"]
    columns = (dials + 1) // 2
    for place, pair in enumerate(chosen):
        centre = _grid_centre(place, columns)
        _unit_circle(ax, centre)
        # Angles run clockwise from noon, as on a clock.
        ax.add_patch(Wedge(centre, 1.0, 90 - np.degrees(trained[pair]), 90, color="#bbbbbb", alpha=0.8))
        angle = reached[pair]
        _hand(ax, centre, centre + 0.85 * np.array([np.sin(angle), np.cos(angle)]), PALETTE["key"])
    return _grid_limits(ax, dials, columns)


def scaling_pairs_thumbnail(ax=None, model="qwen2.5-7b", factor=4, scheme="default"):
    r"""One bar per pair of a real model: its turns over the target length :math:`T = sL` on a
    log scale under ``scheme``, a black tick at its turns over :math:`L`, the slow pairs (under
    one turn in training) shaded (:func:`rope_core.demos.scaling_pairs.scaling_pairs_table`).

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
    model : str
        An atlas name the table knows.
    factor : float
        :math:`s`.
    scheme : str
        A key of :data:`rope_core.demos.context.EXTENSION_METHODS`.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    table = scaling_pairs_table(models=(model,), factors=(factor,), schemes=(scheme,))
    entry = table["models"][0]
    cell = entry["cells"][scheme][0]
    log_trained, log_target = np.asarray(entry["log_trained"]), np.asarray(cell["log_target"])
    pairs = np.arange(len(log_trained))
    slow = np.asarray(entry["slow"], dtype=int)
    if len(slow):
        ax.axvspan(slow[0] - 0.5, pairs[-1] + 0.5, color="#dddddd", linewidth=0)
    bottom = min(log_trained.min(), log_target.min()) - 0.3
    ax.bar(pairs, log_target - bottom, bottom=bottom, width=0.8, color=PALETTE["query"])
    ax.scatter(pairs, log_trained, marker="_", s=60, linewidths=MEDIUM, color="black", zorder=3)
    ax.axhline(0, color="black", linewidth=MEDIUM, linestyle=(0, (3, 2)))
    ax.set_xlim(-1, pairs[-1] + 1)
    return _bare(ax)


def trained_attention_thumbnail(attention, ax=None, distances=24):
    r"""A trained model's attention by distance, one row per head, the first ``distances``
    distances: bright cells are where each head looks.

    Parameters
    ----------
    attention : array_like, shape (n_layers, n_heads, T) or (n_layers * n_heads, T)
        :func:`rope_core.tinymodel.analysis.attention_by_distance`.
    ax : matplotlib.axes.Axes, optional
    distances : int
        Columns shown, from distance 0.

    Returns
    -------
    matplotlib.axes.Axes
    """
    table = np.asarray(attention, dtype=float)
    if table.ndim not in (2, 3) or table.shape[-1] < 2:
        raise ValueError(f"attention must have shape (layers, heads, T) or (rows, T), got {table.shape}")
    if isinstance(distances, bool) or not isinstance(distances, (int, np.integer)) or distances < 2:
        raise ValueError(f"distances must be an integer >= 2, got {distances!r}")
    ax = _axes(ax)
    rows = table.reshape(-1, table.shape[-1])[:, :distances]
    # A square-root scale: the few strongest cells would otherwise leave every other cell dark.
    ax.imshow(rows, aspect="auto", cmap="viridis", interpolation="nearest", norm=PowerNorm(0.5))
    return ax


def kv_cache_thumbnail(ax=None, stage=4):
    r"""A KV cache's slots at one stage of :func:`rope_core.demos.kv_cache.kv_cache_stages`: each
    held key as a dial, pair 0 of the cached key (solid) and of the key a fresh pass would give
    at the token's position now (dashed); empty slots grey.

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
    stage : int
        Index of the stage (default: right after the eviction).

    Returns
    -------
    matplotlib.axes.Axes
    """
    stages = kv_cache_stages()
    if isinstance(stage, bool) or not isinstance(stage, (int, np.integer)) or not 0 <= stage < len(stages):
        raise ValueError(f"stage must be an integer in [0, {len(stages) - 1}], got {stage!r}")
    ax = _axes(ax)
    state = stages[stage]
    capacity = 8
    for slot in range(capacity):
        x, y = 2.3 * (slot % 4), -2.3 * (slot // 4)
        held = slot < len(state["tokens"])
        ax.add_patch(Rectangle((x - 1.05, y - 1.05), 2.1, 2.1, fill=held, facecolor="#f3f3f3",
                               edgecolor="#555555" if held else "#cccccc", linewidth=MEDIUM))
        if not held:
            continue
        for angle, dashed, colour in ((state["should_angle"][slot], True, "#555555"),
                                      (state["angle"][slot], False, PALETTE["rotated"])):
            ax.plot([x, x + 0.85 * np.cos(angle)], [y, y + 0.85 * np.sin(angle)], color=colour,
                    linewidth=THICK, linestyle=(0, (1.5, 1)) if dashed else "-",
                    solid_capstyle="round", dash_capstyle="round")
    return _square(ax, (-1.2, 2.3 * 3 + 1.2), (-2.3 - 1.2, 1.2))
