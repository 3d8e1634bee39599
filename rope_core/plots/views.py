"""Static matplotlib versions of the widgets' views, for print, alt text and screen readers.

Each function draws what the widget of the same name shows for one setting of its sliders,
computes its numbers with ``rope_core``, takes ``ax=`` and returns it.
"""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Arc, Rectangle

from ..demos.candidates import CANDIDATE_DEFAULTS, CANDIDATES, candidate_table
from ..demos.context import CONTEXT_DEFAULTS, EXTENSION_METHODS, context_extension_table
from ..demos.decay import DECAY_DEFAULTS, decay_table
from ..demos.rotation import relative_state, relative_strips, rotation_state, rotation_table
from ..demos.spectrum import (
    SPECTRUM_DEFAULTS,
    clock_table,
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
            ((0.04, 0.02, 0.42, 0.2), strips["shifts"], strips["by_shift"], shift, r"score against $\Delta$"),
            ((0.56, 0.02, 0.42, 0.2), strips["offsets"], strips["by_offset"], n - m, r"score against $n - m$")):
        inset = ax.inset_axes(box)
        inset.plot(x, y, color=PALETTE["accent"], lw=1.3)
        inset.plot([dot_x], [shown["score"]], "o", color=PALETTE["accent"], ms=5)
        inset.axhline(0, color="#dddddd", lw=0.8)
        inset.set_ylim(-1.1 * radius**2, 1.1 * radius**2)
        inset.set_title(label, fontsize=8, pad=2)
        inset.tick_params(labelsize=6, length=2)
        inset.set_yticks([])
    ax.set_title(rf"$\Delta = {shift}$: $\gamma = {gamma:.0f}°$, score $= {shown['score']:.3g}$")
    return ax


def plot_frequency_clocks(position=SPECTRUM_DEFAULTS["position"], dim=SPECTRUM_DEFAULTS["dim"],
                          base=SPECTRUM_DEFAULTS["base"], context=SPECTRUM_DEFAULTS["context"], *, odometer=False,
                          ax=None):
    r"""Draw the :math:`d/2` clock hands at angles :math:`m\theta_i` with the turns each has made
    under its face; grey hands on dashed faces where :math:`2\pi/\theta_i` exceeds ``context``:
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
    for i, (angle, far) in enumerate(zip(hands, far_marks)):
        cx, cy = i % cols, -(i // cols)
        ax.add_patch(Arc((cx, cy), 0.8, 0.8, color="#767676", lw=1, linestyle="--" if far else "-"))
        colour = _SLOW if far else PALETTE["query"]
        ax.plot([cx, cx + 0.38 * np.cos(angle)], [cy, cy + 0.38 * np.sin(angle)], color=colour, lw=2)
        ax.text(cx - 0.42, cy + 0.36, f"$\\theta_{{{i}}}$", ha="right", fontsize=7)
        ax.text(cx, cy - 0.55, f"{turns[i]:.3g} turns", ha="center", fontsize=6, gid=f"turns-{i}")
    bottom = -(rows - 1) - 0.75
    if odometer:
        digits, beta = position_digits([position], dim, base)
        whole = float(beta).is_integer()
        top = bottom - 0.35
        title = (r"odometer: digit $i$ = $\lfloor m/\beta^i\rfloor\ \mathrm{mod}\ \beta$, "
                 + (f"$\\beta$ = {beta:g}" if whole else f"$\\beta$ = {beta:.3g}: not whole, nor are the digits"))
        ax.text(-0.5, top + 0.15, title, fontsize=7, va="bottom")
        per_row, step = 8, cols / 8
        for k in range(pairs):
            i = pairs - 1 - k
            x, y = -0.5 + (k % per_row) * step, top - 0.45 - (k // per_row) * 0.75
            ax.add_patch(Rectangle((x + 0.03, y), step - 0.06, 0.4, fill=False, ec="#767676", lw=0.8))
            text = f"{digits[0, i]:.0f}" if whole else f"{digits[0, i]:.2f}"
            ax.text(x + step / 2, y + 0.2, text, ha="center", va="center", fontsize=7, gid=f"digit-{i}")
            ax.text(x + step / 2, y - 0.12, f"i={i}", ha="center", va="center", fontsize=5, color="#555555")
        bottom = top - 0.45 - ((pairs - 1) // per_row) * 0.75 - 0.35
    ax.set_xlim(-0.6, cols - 0.4)
    ax.set_ylim(bottom, 0.6)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"$m$ = {position}, $d$ = {dim}, base = {base:g}; grey, dashed: no turn within $L$ = {context}",
                 fontsize=8)
    return ax


def plot_rotation_matrix(position=SPECTRUM_DEFAULTS["matrix_position"], dim=SPECTRUM_DEFAULTS["dim"],
                         base=SPECTRUM_DEFAULTS["base"], *, ax=None):
    r"""Heat map of :math:`R^d_{\Theta,m}` with its colour scale: the ``RotationMatrixHeatmap``
    widget at one setting (:func:`rope_core.demos.spectrum.matrix_table`, zeros off the blocks)."""
    blocks = matrix_table(dim, base, [position])
    dense = np.zeros((dim, dim))
    dense[blocks["rows"], blocks["cols"]] = blocks["blocks"][0]
    ax = axes_or_new(ax, figsize=(4.2, 4.0))
    image = ax.imshow(dense, cmap="PuOr_r", vmin=-1, vmax=1)
    ax.figure.colorbar(image, ax=ax, shrink=0.8, label="entry value")
    ax.set_title(f"$R^{{{dim}}}_{{\\Theta,{position}}}$, base = {base:g}")
    ax.set_xlabel("column (feature index)")
    ax.set_ylabel("row (feature index)")
    return ax


def plot_decay(dim=DECAY_DEFAULTS["dim"], base=10000.0, max_distance=DECAY_DEFAULTS["max_distance"],
               seed=DECAY_DEFAULTS["seed"], samples=DECAY_DEFAULTS["samples"],
               correlation=DECAY_DEFAULTS["correlation"], *, distance=128, ax=None):
    r"""Scores divided by :math:`|q|\,|k|` against distance, each with RoFormer's bound (dashed)
    in the same unit: the ``DecayExplorer`` widget at one base
    (:func:`rope_core.demos.decay.decay_table`). The y axis is linear up to 1 and logarithmic
    above (symlog), so the scores and their far larger bounds fit one plot. At ``distance``
    (``None``: none) a bracket marks the gap between the aligned score and its bound, labelled
    with their ratio, as the widget's cursor does."""
    curves = decay_table(dim, [base], max_distance, DECAY_DEFAULTS["step"], seed, samples, correlation)
    r = curves["distances"]
    ax = axes_or_new(ax, figsize=(6, 3.6))
    ax.plot(r, curves["aligned"][0], color=PALETTE["query"], lw=1.2, label="q = k")
    ax.plot(r, curves["bound"][0], color=PALETTE["query"], lw=1.2, ls="--", label="bound, q = k")
    for group, colour, name in (("random", PALETTE["key"], "random q, k"),
                                ("correlated", PALETTE["rotated"], f"correlated, ρ = {correlation:g}")):
        band = curves[group]
        ax.fill_between(r, band["mean"][0] - band["sd"][0], band["mean"][0] + band["sd"][0], color=colour,
                        alpha=0.25, lw=0)
        ax.plot(r, band["mean"][0], color=colour, lw=1.2, label=f"{name}: mean ± 1 sd")
        ax.plot(r, band["bound"][0], color=colour, lw=1.2, ls="--" if group == "random" else ":",
                label=f"bound, {name} (mean)")
    if distance is not None:
        i = int(np.argmin(np.abs(r - distance)))
        score, bound = curves["aligned"][0][i], curves["bound"][0][i]
        ax.axvline(r[i], color="#999999", lw=0.8, ls=(0, (4, 3)))
        ax.annotate("", xy=(r[i] + 6, bound), xytext=(r[i] + 6, score), gid="gap",
                    arrowprops=dict(arrowstyle="<->", color=PALETTE["neutral"], lw=1))
        ratio = bound / abs(score)
        ax.text(r[i] + 12, 2.0, f"bound = {ratio:.0f}× |score|" if ratio >= 10 else f"bound = {ratio:.2g}× |score|",
                fontsize=7, color=PALETTE["neutral"], gid="gap-label", bbox=dict(fc="white", ec="none", alpha=0.85, pad=1))
    ax.set_yscale("symlog", linthresh=1.0, linscale=1.5)
    ax.set_ylim(-0.5, 300)
    ax.axhline(1, color="#999999", lw=0.8, ls=(0, (2, 3)))
    ax.set_xlabel("distance $r = m - n$ (tokens)")
    ax.set_ylabel("score ÷ |q||k| (log above 1)")
    ax.legend(loc="upper right", fontsize=7, ncol=2)
    ax.set_title(f"d = {dim}, base = {base:g}, {samples} pairs per band")
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


def plot_layouts(dim=SPECTRUM_DEFAULTS["layout_dim"], pair=SPECTRUM_DEFAULTS["layout_pair"], *, ax=None):
    """Boxes for the features in the two layouts, the highlighted pair, and the permutation:
    the ``LayoutExplorer`` widget at one setting (:func:`rope_core.demos.spectrum.layout_table`)."""
    layouts = layout_table(dim, SPECTRUM_DEFAULTS["base"])
    if isinstance(pair, bool) or not isinstance(pair, (int, np.integer)) or not 0 <= pair < dim // 2:
        raise ValueError(f"pair must be an integer in [0, {dim // 2 - 1}], got {pair!r}")
    interleaved, half = layouts["interleaved_pairs"][pair].tolist(), layouts["half_pairs"][pair].tolist()
    ax = axes_or_new(ax, figsize=(6, 2.6))
    for target, source in enumerate(layouts["interleaved_to_half"]):
        on = source in interleaved
        ax.plot([source, target], [1, 0], color=PALETTE["query"] if on else "#767676", lw=2 if on else 1)
    for row, label, members in ((1, "interleaved", interleaved), (0, "half", half)):
        for j in range(dim):
            colour = PALETTE["query"] if j in members else "white"
            ax.add_patch(Rectangle((j - 0.4, row - 0.15), 0.8, 0.3,
                         facecolor=colour, edgecolor="#555555", alpha=0.6 if j in members else 1))
            ax.text(j, row, str(j), ha="center", va="center", fontsize=8)
        ax.text(-0.8, row, label, ha="right", va="center")
    ax.set_xlim(-3.2, dim)
    ax.set_ylim(-0.4, 1.4)
    ax.axis("off")
    ax.set_title(f"pair {pair}: ({interleaved[0]}, {interleaved[1]}) interleaved ↔ ({half[0]}, {half[1]}) half")
    return ax
