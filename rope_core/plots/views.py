"""Static matplotlib versions of the widgets' views, for print, alt text and screen readers.

Each function draws what the widget of the same name shows for one setting of its sliders,
computes its numbers with ``rope_core``, takes ``ax=`` and returns it.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.patches import Arc, Rectangle, Wedge

from .. import atlas
from ..demos.candidates import CANDIDATE_DEFAULTS, CANDIDATES, candidate_table
from ..demos.context import (
    BAND_NAMES,
    CONTEXT_DEFAULTS,
    CONTEXT_STEPS,
    DEFAULT_MODEL,
    EXTENSION_METHODS,
    STEP_SCHEMES,
    context_extension_table,
    model_spectrum_table,
)
from ..demos.decay import DECAY_DEFAULTS, content_pair_table, random_pairs_magnitude
from ..demos.rotation import relative_state, relative_strips, rotation_state, rotation_table
from ..demos.spectrum import (
    SPECTRUM_DEFAULTS,
    clock_table,
    layout_scores,
    layout_sentence_attention,
    layout_table,
    matrix_table,
    position_digits,
)
from ._style import PALETTE, axes_or_new

__all__ = [
    "plot_rotation",
    "plot_relative_invariance",
    "plot_frequency_clocks",
    "plot_rotation_matrix",
    "plot_decay",
    "plot_candidate_scores",
    "plot_context_extension",
    "plot_context_step",
    "plot_layouts",
]


# The widgets' colours for the rotated axis vectors R e0, R e1 and for a hand that does not turn
# within the context (lesson.css, spectrum.css; light theme).
_E0, _E1, _SLOW = "#a8407a", "#8a6d00", "#6b7280"


def _arrow(ax, vector, colour, label, style="-", lw=2, zorder=3):
    ax.annotate("", xy=vector, xytext=(0, 0), zorder=zorder,
                arrowprops=dict(arrowstyle="-|>", color=colour, lw=lw, linestyle=style))
    ax.text(vector[0] * 1.08, vector[1] * 1.08, label, color=colour, ha="center", va="center")


def _plane(ax, radius):
    ax.add_patch(Arc((0, 0), 2 * radius, 2 * radius, color="#bbbbbb", lw=1))
    ax.axhline(0, color="#dddddd", lw=1)
    ax.axvline(0, color="#dddddd", lw=1)
    ax.set_xlim(-1.3 * radius, 1.3 * radius)
    ax.set_ylim(-1.3 * radius, 1.3 * radius)
    ax.set_aspect("equal")


def plot_rotation(q=(1.0, 0.5), position=3, theta=0.5, *, ax=None):
    r"""Draw what the ``RotationExplorer`` widget shows at one setting: :math:`q`,
    :math:`R(m\theta)q`, the arc :math:`m\theta`, the rotated axis vectors
    :math:`R\mathbf{e}_0 = (\cos m\theta, \sin m\theta)` and
    :math:`R\mathbf{e}_1 = (-\sin m\theta, \cos m\theta)` (dashed), the matrix
    :math:`R(m\theta)` with its columns in their colours, the earlier positions
    :math:`R(j\theta)q`, :math:`j < m`, and the closest return to :math:`q` past half a turn,
    ringed (``rope_core.demos.rotation.rotation_state`` and ``rotation_table``).

    Parameters
    ----------
    q : array_like, shape (2,)
    position : int
        :math:`m \ge 0`.
    theta : float
        Frequency in radians per position.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    if int(position) != position or position < 0:
        raise ValueError(f"position must be a non-negative integer, got {position!r}")
    shown = rotation_state(q, int(position), theta)   # the table the widget draws too
    q, rotated, trail = shown["q"], shown["rotated"], shown["trail"]
    ax = axes_or_new(ax, figsize=(4.2, 4.2))
    radius = float(np.linalg.norm(q)) or 1.0
    _plane(ax, max(radius, 1.0))
    c, s = np.cos(shown["angle"]), np.sin(shown["angle"])
    _arrow(ax, q, PALETTE["query"], "q")
    _arrow(ax, rotated, PALETTE["rotated"], r"$R(m\theta)q$")
    _arrow(ax, (c, s), _E0, r"$R\mathbf{e}_0$", style="--", lw=1.3, zorder=2)
    _arrow(ax, (-s, c), _E1, r"$R\mathbf{e}_1$", style="--", lw=1.3, zorder=2)
    start = np.degrees(np.arctan2(q[1], q[0]))
    ax.add_patch(Arc((0, 0), 0.7 * radius, 0.7 * radius, theta1=start,
                     theta2=start + np.degrees(shown["angle"]), color=PALETTE["accent"], lw=2))
    if position:
        middle = np.radians(start) + (shown["angle"] % (2 * np.pi) or 2 * np.pi) / 2
        ax.text(0.52 * radius * np.cos(middle), 0.52 * radius * np.sin(middle), r"$m\theta$",
                color=PALETTE["accent"], ha="center", va="center", gid="arc-label")
    # The live matrix, top left: column 0 is R e0, column 1 is R e1.
    ax.text(0.03, 0.97, r"$R(m\theta) =$", transform=ax.transAxes, ha="left", va="top", fontsize=8)
    for j, column in enumerate(((c, s), (-s, c))):
        ax.text(0.33 + 0.13 * j, 0.97, "\n".join(f"{v:.3f}".replace("-", "\u2212") for v in column),
                transform=ax.transAxes, ha="right", va="top", fontsize=8, color=(_E0, _E1)[j], gid=f"matrix-col{j}")
    returns = rotation_table([float(theta)], int(position))
    best = int(returns["closest"][0, -1])
    if best >= 0:
        at = trail[best] if best < len(trail) else rotated
        ax.plot(*at, "o", ms=10, mfc="none", mec=PALETTE["neutral"], mew=1.2, gid="closest")
        ax.text(at[0] * 1.12, at[1] * 1.12 - 0.12, f"{best}", fontsize=7, color=PALETTE["neutral"], ha="center")
        offset = returns["closest_offset"][0, -1]
        closest = f", closest return $m = {best}$ ({offset:.3g} rad)"
    else:
        closest = ""
    if len(trail):
        ax.plot(trail[:, 0], trail[:, 1], "o", color=PALETTE["neutral"], ms=3, alpha=0.5, gid="trail")
    ax.set_title(rf"$m = {position}$, $\theta = {theta:g}$, $m\theta = {shown['angle']:.3g}$ rad" + closest, fontsize=9)
    return ax


def plot_relative_invariance(q=(1.0, 0.35), k=(0.2, 0.75), m=2, n=7, shift=0, theta=0.3, *, max_position=24,
                             ax=None):
    r"""Draw what the ``RelativeInvariance`` widget shows at one setting: :math:`R((m+\Delta)\theta)q` and
    :math:`R((n+\Delta)\theta)k` with the angle :math:`\gamma` between them, the state before the
    shift (:math:`R(m\theta)q`, :math:`R(n\theta)k`, dashed) when :math:`\Delta > 0`, and under the dial its two
    strips: the score against :math:`\Delta = 0 \dots` ``max_position`` (flat) and against
    :math:`n - m` (a cosine), each with a dot at this state
    (``rope_core.demos.rotation.relative_state`` and ``relative_strips``). The title gives
    :math:`\Delta`, :math:`\gamma` and the score."""
    shown = relative_state(q, k, m, n, shift, theta)   # the table the widget draws too
    rq, rk = shown["rotated_q"], shown["rotated_k"]
    ax = axes_or_new(ax, figsize=(4.2, 5.2))
    radius = max(np.linalg.norm(shown["q"]), np.linalg.norm(shown["k"]))
    _plane(ax, radius)
    if shift:
        _arrow(ax, shown["ghost_q"], "#999999", rf"$R({m}\theta)q$", style="--")
        _arrow(ax, shown["ghost_k"], "#999999", rf"$R({n}\theta)k$", style="--")
    # R(m theta), not R_m: with one pair, R_m would mean theta_0 = 1, not this theta.
    _arrow(ax, rq, PALETTE["query"], rf"$R({m + shift}\theta)q$")
    _arrow(ax, rk, PALETTE["key"], rf"$R({n + shift}\theta)k$")
    start, gamma = np.degrees(np.arctan2(rq[1], rq[0])), np.degrees(shown["angle"])
    ax.add_patch(Arc((0, 0), 0.6 * radius, 0.6 * radius, theta1=start, theta2=start + gamma,
                     color=PALETTE["accent"], lw=2, gid="gamma"))
    middle = np.radians(start + gamma / 2)
    ax.text(0.45 * radius * np.cos(middle), 0.45 * radius * np.sin(middle), r"$\gamma$", color=PALETTE["accent"],
            ha="center", va="center")
    # The strips below the dial: the y range grows to make room, the dial keeps its scale.
    ax.set_ylim(-2.25 * radius, 1.3 * radius)
    ax.set_yticks([t for t in ax.get_xticks() if abs(t) <= 1.3 * radius])
    strips = relative_strips(shown["q"], shown["k"], m, n, theta, max(int(max_position), shift, abs(n - m)))
    for box, x, y, dot_x, label in (
            ((0.04, 0.02, 0.42, 0.2), strips["shifts"], strips["by_shift"], shift, "score\nagainst $\\Delta$"),
            ((0.56, 0.02, 0.42, 0.2), strips["offsets"], strips["by_offset"], n - m, "score\nagainst $n - m$")):
        inset = ax.inset_axes(box)
        inset.plot(x, y, color=PALETTE["accent"], lw=1.3)
        inset.plot([dot_x], [shown["score"]], "o", color=PALETTE["accent"], ms=5)
        inset.axhline(0, color="#dddddd", lw=0.8)
        inset.set_ylim(-1.1 * radius**2, 1.1 * radius**2)
        inset.set_title(label, fontsize=7.5, pad=2, linespacing=1.0)   # two lines: side by side even in a thumbnail
        inset.tick_params(labelsize=6, length=2)
        inset.set_yticks([])
    ax.set_title(rf"$\Delta = {shift}$: $\gamma = {gamma:.0f}°$, score $= {shown['score']:.3g}$")
    return ax


# Clocks (radius 0.4) this far apart: room for the turns written under each face.
_CLOCK_PITCH = 1.25


def plot_frequency_clocks(position=SPECTRUM_DEFAULTS["position"], dim=SPECTRUM_DEFAULTS["dim"],
                          base=SPECTRUM_DEFAULTS["base"], context=SPECTRUM_DEFAULTS["context"], *, odometer=False,
                          ax=None):
    r"""Draw the :math:`d/2` clock hands at angles :math:`m\theta_i` with the turns each has made
    under its face and, in the title, how many have made a full turn; grey hands on dashed faces
    where :math:`2\pi/\theta_i` exceeds ``context``:
    the ``FrequencyClocks`` widget at one setting (:func:`rope_core.demos.spectrum.clock_table`).
    With ``odometer=True`` a row of wheels below shows the digits
    :math:`\lfloor m/\beta^i\rfloor \bmod \beta` of :math:`m`, highest on the left
    (:func:`rope_core.demos.spectrum.position_digits`)."""
    clocks = clock_table(dim, base, [position], [context])
    hands, far_marks, turns = clocks["hand"][0], clocks["beyond_context"][0], clocks["turns"][0]
    pairs = hands.size
    cols = int(np.ceil(np.sqrt(pairs)))
    rows = (pairs - 1) // cols + 1
    ax = axes_or_new(ax, figsize=(4.5, 4.5 + (0.8 if odometer else 0)))
    size = {1: 8, 2: 7, 3: 6.5}.get(cols, 5)   # labels as large as the clocks' grid lets them be
    for i, (angle, far) in enumerate(zip(hands, far_marks)):
        cx, cy = (i % cols) * _CLOCK_PITCH, -(i // cols) * _CLOCK_PITCH
        ax.add_patch(Arc((cx, cy), 0.8, 0.8, color="#767676", lw=1, linestyle="--" if far else "-"))
        colour = _SLOW if far else PALETTE["query"]
        ax.plot([cx, cx + 0.38 * np.cos(angle)], [cy, cy + 0.38 * np.sin(angle)], color=colour, lw=2)
        ax.text(cx - 0.42, cy + 0.36, f"$\\theta_{{{i}}}$", ha="right", fontsize=size)
        ax.text(cx, cy - 0.58, f"{turns[i]:.3g} turns", ha="center", fontsize=size, gid=f"turns-{i}")
    bottom = -(rows - 1) * _CLOCK_PITCH - 0.75
    width = (cols - 1) * _CLOCK_PITCH + 1.0
    if odometer:
        digits, beta = position_digits([position], dim, base)
        whole = float(beta).is_integer()
        top = bottom - 0.35
        title = (r"odometer: digit $i$ = $\lfloor m/\beta^i\rfloor\ \mathrm{mod}\ \beta$, "
                 + (f"$\\beta$ = {beta:g}" if whole else f"$\\beta$ = {beta:.3g}: not whole, nor are the digits"))
        ax.text(-0.5, top + 0.15, title, fontsize=8 if whole else 7, va="bottom")
        per_row = min(8, pairs)
        step = width / per_row
        for k in range(pairs):
            i = pairs - 1 - k
            x, y = -0.5 + (k % per_row) * step, top - 0.45 - (k // per_row) * 0.75
            ax.add_patch(Rectangle((x + 0.03, y), step - 0.06, 0.4, fill=False, ec="#767676", lw=0.8))
            text = f"{digits[0, i]:.0f}" if whole else f"{digits[0, i]:.2f}"
            ax.text(x + step / 2, y + 0.2, text, ha="center", va="center", fontsize=10 if whole else 6.5, gid=f"digit-{i}")
            ax.text(x + step / 2, y - 0.12, f"i={i}", ha="center", va="center", fontsize=min(size, 7), color="#555555")
        bottom = top - 0.45 - ((pairs - 1) // per_row) * 0.75 - 0.35
    ax.set_xlim(-0.6, width - 0.4)
    ax.set_ylim(bottom, 0.6)
    ax.set_aspect("equal")
    ax.axis("off")
    turned = int((turns >= 1).sum())
    ax.set_title(f"$m$ = {position}: {turned} of {pairs} hands have made a full turn\n"
                 f"$d$ = {dim}, base {base:g}; grey, dashed: no turn within $L$ = {context}", fontsize=8)
    return ax


# The widgets' diverging scale: key colour for +1, query colour for -1, the background (white in
# print) for 0, as rotation_matrix_heatmap.js mixes them.
_DIVERGING = LinearSegmentedColormap.from_list("rope_diverging", [PALETTE["query"], "white", PALETTE["key"]])
# A block whose angle is below this is "still nearly the identity" (cos > 0.995), as the
# heat map widget's question counts it.
_NEARLY_IDENTITY = 0.1


def plot_rotation_matrix(position=SPECTRUM_DEFAULTS["matrix_position"], dim=SPECTRUM_DEFAULTS["matrix_dim"],
                         base=SPECTRUM_DEFAULTS["base"], *, vector=True, ax=None):
    r"""What the ``RotationMatrixHeatmap`` widget shows at one setting: the heat map of
    :math:`R^d_{\Theta,m}` (zero off its 2 × 2 blocks), times the vector :math:`x` whose pairs all
    start at :math:`(1, 0)`, equal to the column :math:`R_m x`; inside each 2 × 2 block a line
    from its centre turned by :math:`m\theta_i`, and beside each block a dial: its pair of
    :math:`R_m x` as a hand turned by the same angle, with that angle written beside it.
    Blocks turned by less than 0.1 rad (still nearly the identity, the widget's question) are
    named in the title. Entries share one colour scale, the widget's: :math:`-1` in the query
    colour, 0 white, :math:`+1` in the key colour
    (:func:`rope_core.demos.spectrum.matrix_table`).

    Parameters
    ----------
    position : int
        :math:`m \ge 0`.
    dim : int
        :math:`d` (even).
    base : float
    vector : bool
        ``False``: the heat map alone, with feature indices on its axes and a ``PuOr_r`` colour
        bar (a panel to set beside other matrices).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Its images are the matrix, :math:`x` and :math:`R_m x` (in that order); the hands are
        lines with ``gid`` ``"dial-<i>"``, the turns inside the blocks ``"block-turn-<i>"``.
    """
    table = matrix_table(dim, base, [position])
    dense = np.zeros((dim, dim))
    dense[table["rows"], table["cols"]] = table["blocks"][0]
    if not vector:
        ax = axes_or_new(ax, figsize=(4.2, 4.0))
        image = ax.imshow(dense, cmap="PuOr_r", vmin=-1, vmax=1)
        ax.figure.colorbar(image, ax=ax, shrink=0.8, label="entry value")
        ax.set_title(f"$R^{{{dim}}}_{{\\Theta,{position}}}$, base = {base:g}")
        ax.set_xlabel("column (feature index)")
        ax.set_ylabel("row (feature index)")
        return ax
    angle, rotated = table["angle"][0], table["rotated"][0]
    ax = axes_or_new(ax, figsize=(5.0, 3.4 if dim <= 8 else 4.2))
    edge = dim - 0.5
    image = ax.imshow(dense, cmap=_DIVERGING, vmin=-1, vmax=1, extent=(-0.5, edge, edge, -0.5))
    ax.add_patch(Rectangle((-0.5, -0.5), dim, dim, fill=False, ec=PALETTE["neutral"], lw=0.8))
    # x and R_m x as columns of cells on the same scale, then one dial per pair.
    x_left, rx_left = dim + 0.2, dim + 2.0
    for left, values, label in ((x_left, table["x"], "$x$"), (rx_left, rotated, "$R_m x$")):
        ax.imshow(values[:, None], cmap=_DIVERGING, vmin=-1, vmax=1, extent=(left, left + 0.9, edge, -0.5))
        ax.add_patch(Rectangle((left, -0.5), 0.9, dim, fill=False, ec=PALETTE["neutral"], lw=0.8))
        ax.text(left + 0.45, -0.9, label, ha="center", va="bottom", fontsize=9)
    ax.text(dim / 2 - 0.5, -0.9, "$R_m$", ha="center", va="bottom", fontsize=9)
    ax.text(dim - 0.15, dim / 2 - 0.5, "·", ha="center", va="center", fontsize=16, fontweight="bold")
    ax.text(x_left + 1.45, dim / 2 - 0.5, "=", ha="center", va="center", fontsize=11)
    # Inside each block, the same turn from its centre: the block is this rotation.
    for i in range(dim // 2):
        centre = 2 * i + 0.5
        ax.add_patch(Arc((centre, centre), 1.6, 1.6, color=PALETTE["neutral"], lw=0.6, alpha=0.6))
        ax.plot([centre, centre + 0.8 * rotated[2 * i]], [centre, centre - 0.8 * rotated[2 * i + 1]],
                color="black", lw=1.2, solid_capstyle="round", gid=f"block-turn-{i}")
    cx, radius = rx_left + 2.1, 0.8
    for i in range(dim // 2):
        cy = 2 * i + 0.5
        nearly = angle[i] < _NEARLY_IDENTITY
        ax.add_patch(Arc((cx, cy), 2 * radius, 2 * radius, color="#767676", lw=1))
        # y grows downwards in this axes: a counter-clockwise angle lifts the tip (smaller y).
        ax.plot([cx, cx + radius * rotated[2 * i]], [cy, cy - radius * rotated[2 * i + 1]],
                color=PALETTE["query"], lw=2, solid_capstyle="round", gid=f"dial-{i}")
        ax.text(cx + radius + 0.3, cy, f"{angle[i]:.3g} rad" + (" ≈ I" if nearly else ""), va="center",
                fontsize=8, gid=f"dial-angle-{i}")
    ax.set_xlim(-0.7, cx + radius + 4.6)
    ax.set_ylim(edge + 0.2, -1.8)
    ax.set_aspect("equal")
    ax.axis("off")
    still = np.flatnonzero(angle < _NEARLY_IDENTITY)
    nearly = ("" if still.size == 0 else f"; block {still[0]} still ≈ I" if still.size == 1
              else f"; blocks {still[0]}–{still[-1]} still ≈ I")
    ax.set_title(f"$R_m x$ at $m$ = {position}, $d$ = {dim}, base {base:g}{nearly}", fontsize=9)
    bar = ax.figure.colorbar(image, ax=ax, shrink=0.5, aspect=12, location="bottom", pad=0.02)
    bar.set_label("entry value", fontsize=8)
    bar.ax.tick_params(labelsize=7)
    return ax


# The DecayExplorer's log axis (decay_explorer.js, LOG_Y): |score| ÷ |q||k| from 0.001 to 200.
_DECAY_LOG_Y = (1e-3, 200.0)


def plot_decay(dim=DECAY_DEFAULTS["dim"], base=10000.0, max_distance=DECAY_DEFAULTS["max_distance"],
               seed=DECAY_DEFAULTS["seed"], samples=DECAY_DEFAULTS["samples"], *, random_pairs=True, ax=None):
    r"""What the ``DecayExplorer`` widget shows at one base once its question is answered: one
    query/key pair's :math:`|\text{score}|` and RoFormer's bound on it against distance, for the
    aligned key :math:`k = q` and for a random key, and (``random_pairs``) the band the widget's
    toggle adds, on one logarithmic axis.

    The pair is :math:`q = (1, \dots, 1)`, :math:`k(w) = \sqrt{1-w}\,q + \sqrt{w}\,\varepsilon`
    with :math:`w = 0` (aligned) and :math:`w = 1` (random)
    (:func:`rope_core.demos.decay.content_pair_table`); every value is divided by
    :math:`|q|\,|k|`, so a score is a cosine and its bound is in the same unit. The band is the
    10th to 90th percentile of :math:`|\text{score}|` over ``samples`` random pairs, with its
    median (:func:`rope_core.demos.decay.random_pairs_magnitude`). The axis spans the widget's,
    0.001 to 200: where a score comes closer to 0 than 0.001 its line runs off the bottom.

    Parameters
    ----------
    dim : int
        Head dimension :math:`d` (even).
    base : float
        RoPE base; :math:`\theta_i = \text{base}^{-2i/d}`.
    max_distance : int
        Distances :math:`r = 0, 4, \dots, \le` ``max_distance`` (the widget's step).
    seed : int
        Seed of the random key :math:`\varepsilon` and of the random pairs.
    samples : int
        Number of random pairs in the band.
    random_pairs : bool
        Draw the band (``False``: the two pairs alone).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Its lines have ``gid`` ``aligned-score``, ``aligned-bound``, ``random-score``,
        ``random-bound`` and ``random-median`` (y data unclipped, shape (R,)); the band is the
        collection with ``gid`` ``random-band``.
    """
    step = DECAY_DEFAULTS["step"]
    pair = content_pair_table(dim, [base], max_distance, step, seed, mixes=(0.0, 1.0))
    r = pair["distances"]
    ax = axes_or_new(ax, figsize=(6, 3.8))
    lo, hi = _DECAY_LOG_Y
    for row, name, colour, key in ((0, "aligned", PALETTE["query"], "k = q"), (1, "random", PALETTE["rotated"], "random k")):
        ax.plot(r, np.abs(pair["score"][row, 0]), color=colour, lw=1.6 if row == 0 else 1.1, gid=f"{name}-score",
                label=f"|score|, {key}", zorder=3)
        ax.plot(r, pair["bound"][row, 0], color=colour, lw=1.4, ls=(0, (5, 3)), gid=f"{name}-bound",
                label=f"bound, {key}", zorder=3)
    if random_pairs:
        crowd = random_pairs_magnitude(dim, [base], max_distance, step, seed, samples)
        ax.fill_between(r, crowd["low"][0], crowd["high"][0], color=PALETTE["key"], alpha=0.3, lw=0, zorder=1,
                        gid="random-band", label=f"{samples} random pairs, 10–90 %")
        ax.plot(r, crowd["median"][0], color=PALETTE["key"], lw=1, zorder=2, gid="random-median",
                label=f"{samples} random pairs, median")
    ax.set_yscale("log")
    ax.set_ylim(lo, hi)
    ax.set_xlim(0, r[-1])
    ax.set_xticks(np.linspace(0, r[-1], 5))
    ax.set_xlabel("distance $r = m - n$ (tokens)")
    ax.set_ylabel("|score| ÷ |q||k|, log scale")
    # Short entries in large type: the figure is also shown shrunk, in a phone's column.
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, fontsize=8.5, frameon=False,
              columnspacing=1.2, handlelength=2.2)
    ax.set_title(f"d = {dim}, base {_thin(base) if base >= 1000 else f'{base:g}'}: RoFormer's bound (dashed) and |score|",
                 fontsize=9.5)
    return ax


def plot_candidate_scores(name="rotation", part="real", size=CANDIDATE_DEFAULTS["size"], *, ax=None):
    r"""The score matrix of one candidate encoding over positions :math:`m, n`, rows :math:`m`:
    the ``CandidateExplorer`` widget at one setting (:func:`rope_core.demos.candidates.candidate_table`).
    ``part`` is ``"real"`` (the score) or ``"imag"`` (the imaginary part of the product); the
    title gives the largest spread along a diagonal :math:`n - m` (0: Toeplitz)."""
    if name not in CANDIDATES:
        raise ValueError(f"name must be one of {list(CANDIDATES)}, got {name!r}")
    if part not in ("real", "imag"):
        raise ValueError(f"part must be 'real' or 'imag', got {part!r}")
    table = candidate_table(size=size)
    matrix = table[name][part]
    scale = max(float(np.abs(table[n][p]).max()) for n in table["names"] for p in ("real", "imag"))
    ax = axes_or_new(ax, figsize=(4.4, 4.0))
    image = ax.imshow(matrix, cmap="PuOr_r", vmin=-scale, vmax=scale)
    ax.figure.colorbar(image, ax=ax, shrink=0.8, label="score" if part == "real" else "imaginary part")
    worst = float(table[name][f"{part}_spread"].max())
    ax.set_title(f"{name}: largest diagonal spread {0 if worst < 1e-9 else worst:.3g}")
    ax.set_xlabel("key position $n$")
    ax.set_ylabel("query position $m$")
    return ax


def plot_context_extension(factor=8.0, dim=CONTEXT_DEFAULTS["dim"], base=CONTEXT_DEFAULTS["base"],
                           training_length=CONTEXT_DEFAULTS["training_length"], *, ax=None):
    r"""Wavelength of every pair under each context-extension scheme, on log axes: the
    ``ContextExtension`` widget at one factor (:func:`rope_core.demos.context.context_extension_table`)."""
    rows = context_extension_table(dim, base, training_length, [factor], [training_length])["per_factor"][0]
    ax = axes_or_new(ax, figsize=(6, 3.6))
    colours = ["#888888", PALETTE["query"], PALETTE["key"], PALETTE["rotated"], PALETTE["accent"]]
    for (method, label), colour in zip(EXTENSION_METHODS.items(), colours):
        factor_note = rows[method]["attention_factor"]
        suffix = f" (attention × {factor_note:.3f})" if factor_note != 1 else ""
        ax.plot(rows[method]["wavelength"], color=colour, label=label + suffix)
    ax.axhline(training_length, color="#999999", ls="--", lw=1)
    ax.text(1, training_length * 1.3, f"$L$ = {training_length}", fontsize=8)
    ax.set_yscale("log")
    ax.set_xlabel("pair index $i$")
    ax.set_ylabel(r"wavelength $\lambda_i = 2\pi/\theta_i$ (tokens)")
    ax.legend(fontsize=7, loc="upper left")
    ax.set_title(f"scale factor $s$ = {factor:g}")
    return ax


# What each step of the ContextExtension print view says above its dials (chapter 9's steps).
_STEP_TITLES = {"problem": "1 · the problem: no scaling", "divide": "2 · divide every frequency",
                "bands": "3 · keep the fast pairs, divide the slow ones", "models": "4 · a real model"}
_BAND_COLOURS = (PALETTE["query"], PALETTE["accent"], PALETTE["key"])   # kept, blended, scaled


def _thin(value):
    """A whole number with thin spaces between thousands, as the book writes them: 32 768."""
    return f"{int(round(value)):,}".replace(",", "\u2009")


def _dial(ax, cx, cy, radius, arc, angle, gid):
    """One slow pair as the widget draws it: the trained arc [0, arc] shaded, the hand at
    ``angle`` (the key colour once past the arc, with the angle travelled drawn inside)."""
    beyond = angle > arc * (1 + 1e-6)
    # The widget's colours (context.css): the trained arc green, the angle past it dashed orange.
    ax.add_patch(Wedge((cx, cy), radius, 0, np.degrees(arc), fc=PALETTE["rotated"], alpha=0.28,
                       ec=PALETTE["rotated"], lw=0.8))
    ax.add_patch(Arc((cx, cy), 2 * radius, 2 * radius, color="#767676", lw=1))
    if beyond:
        ax.add_patch(Arc((cx, cy), 2 * radius * 0.82, 2 * radius * 0.82, theta1=0,
                         theta2=np.degrees(min(angle, 2 * np.pi)), color=PALETTE["key"], lw=1.6, ls=(0, (3, 2))))
    ax.plot([cx, cx + radius * np.cos(angle)], [cy, cy + radius * np.sin(angle)], lw=2, solid_capstyle="round",
            color=PALETTE["key"] if beyond else PALETTE["query"], gid=gid)
    return beyond


def plot_context_step(step="problem", factor=8.0, position=None, dim=CONTEXT_DEFAULTS["dim"],
                      base=CONTEXT_DEFAULTS["base"], training_length=CONTEXT_DEFAULTS["training_length"],
                      model=DEFAULT_MODEL, *, dials=6, ax=None):
    r"""One step of the ``ContextExtension`` widget, as chapter 9 takes them
    (:data:`rope_core.demos.context.CONTEXT_STEPS`).

    Steps ``"problem"``, ``"divide"`` and ``"bands"`` draw, for each scheme the step compares (no
    scaling; PI and NTK-aware; YaRN and Llama 3.1), a row of the widget's dials for ``dials``
    evenly spaced slow pairs (:math:`L\theta_i < 2\pi`): the arc :math:`[0, L\theta_i]` the pair
    covered in training shaded, its hand at :math:`p\,\theta'_i`, in the key colour once past
    the arc, and under it :math:`p\,\theta'_i / (L\theta_i)`; beside the row, how many of *all*
    the slow pairs are past their arc and the worst ratio
    (:func:`rope_core.demos.context.context_extension_table`). Step ``"models"`` draws an atlas
    model's wavelengths as shipped (coloured by band: kept, blended, scaled) and as trained
    (dashed), its slow pairs shaded, its training length and maximum positions, how many slow
    pairs turn further at the maximum than in training, and whether the model was trained with
    its scaling (:func:`rope_core.demos.context.model_spectrum_table`,
    :attr:`rope_core.atlas.ModelEntry.scaling_trained`).

    Parameters
    ----------
    step : {"problem", "divide", "bands", "models"}
    factor : float
        Scale factor :math:`s \ge 1`.
    position : int, optional
        Read-out position :math:`p`; default :math:`sL`, where every scheme is meant to bring
        the slow pairs back.
    dim, base, training_length
        The example head and its training length :math:`L`.
    model : str
        Atlas name for step ``"models"``.
    dials : int
        Slow pairs drawn per scheme (the counts are over all of them).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Hands are lines with ``gid`` ``"hand-<scheme>-<i>"``, the ratios and the counts texts
        with ``gid`` ``"ratio-<scheme>-<i>"`` and ``"count-<scheme>"``; in step ``"models"`` the
        dots are one collection per band (``gid`` the band's name).
    """
    if step not in CONTEXT_STEPS:
        raise ValueError(f"step must be one of {CONTEXT_STEPS}, got {step!r}")
    if isinstance(dials, bool) or not isinstance(dials, (int, np.integer)) or dials < 1:
        raise ValueError(f"dials must be an integer >= 1, got {dials!r}")
    if step == "models":
        return _plot_model_step(model, ax)
    position = factor * training_length if position is None else position
    table = context_extension_table(dim, base, training_length, [factor], [position])
    slow = np.flatnonzero(table["slow"])
    shown = slow[np.unique(np.rint(np.linspace(0, slow.size - 1, min(dials, slow.size))).astype(int))]
    schemes = STEP_SCHEMES[step]
    ax = axes_or_new(ax, figsize=(6.0, 1.2 + 1.7 * len(schemes)))
    pitch, radius, gap = 1.0, 0.34, 1.7
    for row, method in enumerate(schemes):
        entry = table["per_factor"][0][method]
        y = -row * gap
        ax.text(-0.45, y + 0.72, EXTENSION_METHODS[method] + ("" if method == "default" else f", $s$ = {factor:g}"),
                fontsize=8.5, va="bottom", fontweight="bold")
        for k, i in enumerate(shown):
            arc = 2 * np.pi * table["turns_in_training"][i]
            ratio = position * entry["reach_per_token"][i]
            _dial(ax, k * pitch, y, radius, arc, arc * ratio, f"hand-{method}-{i}")
            ax.text(k * pitch, y + radius + 0.06, f"$i$ = {i}", ha="center", va="bottom", fontsize=7, color="#555555")
            ax.text(k * pitch, y - radius - 0.06, f"{ratio:.3g}×", ha="center", va="top", fontsize=7.5,
                    gid=f"ratio-{method}-{i}")
        count, worst = int(entry["beyond_count"][0]), float(entry["worst_ratio"][0])
        said = (f"{count} of {slow.size} slow pairs\npast their arc" + (f",\nworst {worst:.3g}×" if count else ""))
        ax.text(len(shown) * pitch - 0.35, y, said, va="center", fontsize=8, gid=f"count-{method}",
                color=PALETTE["key"] if count else PALETTE["neutral"])
    ax.set_xlim(-0.5, len(shown) * pitch + 1.5)
    ax.set_ylim(-(len(schemes) - 1) * gap - 0.62, 1.1)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"{_STEP_TITLES[step]}\n$p$ = {_thin(position)} (training $L$ = {_thin(training_length)})", fontsize=9)
    return ax


def _plot_model_step(name, ax):
    """Step "models" of :func:`plot_context_step`: one atlas model's spectrum, as the widget's
    model menu draws it."""
    if name not in atlas.names():
        raise ValueError(f"model must be one of rope_core.atlas.names(), got {name!r}")
    entry = atlas.entry(name)
    spec = next(iter(atlas.specs(name).values()))
    tab = model_spectrum_table(spec, name)
    ax = axes_or_new(ax, figsize=(6.0, 3.6))
    pairs = np.arange(tab["shipped"].size)
    turning = tab["turning"]
    with np.errstate(divide="ignore"):
        shipped, trained = 2 * np.pi / tab["shipped"], 2 * np.pi / tab["trained"]
    for i in np.flatnonzero(tab["slow"]):
        ax.axvspan(i - 0.5, i + 0.5, color="#d9d9d9", lw=0, zorder=0)
    if not tab["same"]:
        ax.plot(pairs[turning], trained[turning], color=PALETTE["neutral"], ls="--", lw=1.2, label="as trained",
                gid="trained")
    for band, (band_name, colour) in enumerate(zip(BAND_NAMES, _BAND_COLOURS)):
        where = turning & (tab["band"] == band)
        if where.any():
            label = f"scaled ×{tab['largest_ratio']:.3g}" if band_name == "scaled" else band_name
            ax.scatter(pairs[where], shipped[where], s=10, color=colour, label=label, gid=band_name, zorder=3)
    for length, text in ((tab["training"], "trained"), (tab["context"], "max")):
        if length is not None:
            ax.axhline(length, color="#777777", lw=0.9, ls=":")
            ax.text(pairs[-1] + 1, length, f"{text} {_thin(length)}", fontsize=7.5, va="center")
    ax.set_yscale("log")
    ax.set_xlim(-1, pairs[-1] + 1)
    ax.set_xlabel("pair index $i$ (shaded: less than one turn in training)", fontsize=8)
    ax.set_ylabel(r"wavelength $\lambda_i$ (tokens)", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7, loc="lower right", frameon=False)
    lines = []
    if tab["beyond"] is not None:
        lines.append(f"At {_thin(tab['context'])} tokens {tab['beyond']} of {int(tab['slow'].sum())} slow pairs turn "
                     f"further than in the first\n{_thin(tab['training'])} tokens of training, worst {tab['worst']:.3g}×")
    if entry.scaling_trained is not None and spec.rope_type in atlas.SCALED_ROPE_TYPES:
        lines.append(f"{entry.title} was trained on long inputs with this scaling,\nso it has seen these angles"
                     if entry.scaling_trained else
                     f"{entry.title} was not trained with this scaling:\nit is added at deployment")
    ax.text(0.02, 0.97, "\n".join(lines), transform=ax.transAxes, ha="left", va="top", fontsize=7.5,
            gid="model-said", bbox=dict(fc="white", ec="none", alpha=0.9, pad=1.5))
    ax.set_title(f"{_STEP_TITLES['models']}: {tab['label']}, {tab['rope_type']}, base {tab['base']:g}"
                 + (f", factor {tab['factor']:g}" if tab["factor"] else ""), fontsize=9)
    return ax


# LayoutExplorer's sentence (its ``sentence`` default): word t at position t.
_LAYOUT_SENTENCE = "the old cat sat on the warm mat"


def _layout_attention_panel(inset, words, attention, query):
    """Bars of query word ``query``'s attention on each word, as trained and in the wrong layout."""
    trained, wrong = attention["trained"][query], attention["wrong"][query]
    places = np.arange(len(words))
    for name, weights, colour, shift, hatch in (("trained", trained, PALETTE["query"], -0.2, None),
                                                ("wrong", wrong, PALETTE["key"], 0.2, "////")):
        label = ("as trained" if name == "trained" else "wrong layout") + f": most on \u201c{words[int(np.argmax(weights))]}\u201d"
        inset.bar(places + shift, weights, width=0.38, color=colour if hatch is None else "white",
                         edgecolor=colour, hatch=hatch, lw=1, label=label, gid=f"attention-{name}")
        for j, value in enumerate(weights):
            # Percentages where a bar is tall enough to matter, as the widget writes them.
            if value >= 0.1:
                inset.text(j + shift, value + 0.03, f"{value:.0%}", ha="center", va="bottom", fontsize=6.5,
                           color=colour, gid=f"percent-{name}-{j}")
    inset.set_xticks(places, words, fontsize=8)
    inset.get_xticklabels()[query].set_fontweight("bold")
    for j in range(query + 1, len(words)):   # causal: words after the query get no attention
        inset.get_xticklabels()[j].set_color("#999999")
    inset.set_ylim(0, 1.15)
    inset.set_yticks([0, 0.5, 1], ["0", "50 %", "100 %"])
    inset.tick_params(labelsize=7, length=2)
    inset.set_xlim(-0.6, len(words) - 0.4)
    for side in ("top", "right"):
        inset.spines[side].set_visible(False)
    inset.legend(fontsize=7, loc="upper left", frameon=False)
    inset.set_title(f"attention from \u201c{words[query]}\u201d over the sentence", fontsize=8.5, pad=3)


def _layout_score_panel(inset, dim):
    """The previous-token head's score against n - m, as trained and in the wrong layout."""
    curves = layout_scores(dim, SPECTRUM_DEFAULTS["base"], range(-16, 17))
    r = curves["distances"]
    back = int(np.flatnonzero(r == -1)[0])
    inset.axvline(-1, color="#999999", lw=0.8, ls=":")
    for key, name, colour, style in (("trained", "as trained", PALETTE["query"], "-"),
                                     ("wrong", "wrong layout", PALETTE["key"], "--")):
        values = curves[key]
        best = int(np.argmax(values))
        label = f"{name}: peak at $n - m$ = {r[best]:d} ({values[best]:.2f})".replace("= -", "= \u2212")
        if best != back:
            label += f"; at \u22121: {values[back]:.2f}"
        inset.plot(r, values, color=colour, ls=style, lw=1.8, label=label, gid=key)
        inset.plot([r[best]], [values[best]], "o", color=colour, ms=5, gid=f"peak-{key}")
    inset.axhline(0, color="#999999", lw=0.6)
    inset.set_ylim(-1.1, 2.0)
    inset.set_yticks([-1, 0, 1])
    inset.set_xlim(r[0], r[-1])
    inset.set_xticks([r[0], -1, r[-1]])
    inset.set_xlabel("$n - m$", fontsize=8, labelpad=1)
    inset.tick_params(labelsize=7, length=2)
    inset.legend(fontsize=7, loc="upper left", frameon=False)
    inset.set_title("its score against $n - m$", fontsize=8.5, pad=3)


def plot_layouts(dim=16, pair=SPECTRUM_DEFAULTS["layout_pair"], *, query=None, heads=True, ax=None):
    r"""What the ``LayoutExplorer`` widget shows at one setting, with its layout switch both off
    and on: a sample vector :math:`x = (1, 2, \dots, d)` in the interleaved layout, its half
    layout :math:`Px` and ``rotate_half`` of :math:`Px` (halves swapped, the new first half
    negated, in bold), as three rows of numbered boxes joined by the lines each step moves the
    numbers along, the highlighted pair and its lines in the query colour; and below, a head
    trained in the interleaved layout to look one token back, as trained and run through
    half-layout code (the wrong layout): its attention from one word over the widget's sentence
    "the old cat sat on the warm mat" (word :math:`t` at position :math:`t`;
    :func:`rope_core.demos.spectrum.layout_sentence_attention`) and its score against
    :math:`n - m` (``layout_scores``), each peak marked and written in the legend. The widget
    opens at :math:`d = 16` with the last word as the query, the defaults here.

    Parameters
    ----------
    dim : int
        :math:`d` (even).
    pair : int
        The highlighted pair :math:`i`, ``0 <= pair < d/2``.
    query : int, optional
        The query word's position, ``0 <= query < 8``; ``None``: the last word.
    heads : bool
        Draw the head's attention and score panels (``False``: the three rows alone).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        The boxes' numbers are texts with ``gid`` ``"<row>-<j>"`` (rows ``interleaved``,
        ``half``, ``rotated``). With ``heads`` the axes have two insets: ``gid``
        ``"attention"``, whose bars (patches with ``gid`` ``attention-trained`` and
        ``attention-wrong``, one a word) have the weights as heights, shape (T,), and
        ``"scores"``, its lines with ``gid`` ``trained`` and ``wrong``.
    """
    layouts = layout_table(dim, SPECTRUM_DEFAULTS["base"])
    if isinstance(pair, bool) or not isinstance(pair, (int, np.integer)) or not 0 <= pair < dim // 2:
        raise ValueError(f"pair must be an integer in [0, {dim // 2 - 1}], got {pair!r}")
    words = _LAYOUT_SENTENCE.split()
    query = len(words) - 1 if query is None else query
    if isinstance(query, bool) or not isinstance(query, (int, np.integer)) or not 0 <= query < len(words):
        raise ValueError(f"query must be an integer in [0, {len(words) - 1}] or None, got {query!r}")
    interleaved, half = layouts["interleaved_pairs"][pair].tolist(), layouts["half_pairs"][pair].tolist()
    ax = axes_or_new(ax, figsize=(5.4, 8.0 if heads else 3.2))
    ys = {"interleaved": 6.0, "half": 3.6, "rotated": 1.2}
    box, size = 0.7, 9 if dim <= 8 else 6.5
    # Lines first, under the boxes: half feature j is interleaved feature perm[j]; rotate_half's
    # output j < d/2 is -(input j + d/2), output j >= d/2 is input j - d/2.
    for target, source in enumerate(layouts["interleaved_to_half"]):
        on = source in interleaved
        ax.plot([source, target], [ys["interleaved"] - box / 2, ys["half"] + box / 2],
                color=PALETTE["query"] if on else "#8a8a8a", lw=2.2 if on else 0.9, zorder=1)
    for target in range(dim):
        source = target + dim // 2 if target < dim // 2 else target - dim // 2
        on = source in half
        ax.plot([source, target], [ys["half"] - box / 2, ys["rotated"] + box / 2],
                color=PALETTE["query"] if on else "#8a8a8a", lw=2.2 if on else 0.9, zorder=1)
    rows = (("interleaved", r"interleaved $x$: pair $i$ = $(2i, 2i{+}1)$", layouts["x"], interleaved),
            ("half", r"half layout $Px$: pair $i$ = $(i, i{+}d/2)$", layouts["permuted"], half),
            ("rotated", r"rotate_half$(Px)$: halves swapped, new first half negated", layouts["rotated_half"], half))
    for row, label, values, members in rows:
        y = ys[row]
        for j in range(dim):
            on = j in members
            ax.add_patch(Rectangle((j - 0.44, y - box / 2), 0.88, box, zorder=2, lw=0.9, ec="#555555",
                                   fc=PALETTE["query"] if on else "white", alpha=0.35 if on else 1))
            value = values[j]
            ax.text(j, y, f"{value:.0f}".replace("-", "\u2212"), ha="center", va="center", fontsize=size, zorder=3,
                    fontweight="bold" if value < 0 else "normal", gid=f"{row}-{j}")
        ax.text(-0.5, y + box / 2 + 0.15, label, ha="left", va="bottom", fontsize=8.5, zorder=3,
                bbox=dict(fc="white", ec="none", pad=0.6))
    for j in range(0, dim, 1 if dim <= 8 else 2):
        ax.text(j, ys["interleaved"] + box / 2 + 0.75, str(j), ha="center", va="bottom", fontsize=7, color="#555555")
    bottom = 0.4
    if heads:
        bottom = -9.5
        _layout_attention_panel(ax.inset_axes([0.1, 0.36, 0.88, 0.18], gid="attention"), words,
                                layout_sentence_attention(dim, SPECTRUM_DEFAULTS["base"], words), query)
        _layout_score_panel(ax.inset_axes([0.1, 0.04, 0.88, 0.22], gid="scores"), dim)
    ax.set_xlim(-0.7, dim - 0.3)
    ax.set_ylim(bottom, ys["interleaved"] + box / 2 + 1.3)
    ax.axis("off")
    ax.set_title(f"pair {pair}: ({interleaved[0]}, {interleaved[1]}) interleaved ↔ ({half[0]}, {half[1]}) half",
                 fontsize=9)
    return ax
