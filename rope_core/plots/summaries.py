r"""One-picture summaries of chapters 8–14: each figure sums up one chapter's main lesson.

Every value drawn is computed here from :mod:`rope_core` (the maths, the demos, or the model
facts of :mod:`rope_core.atlas`); the functions take ``ax=`` (or ``axes=``) and return it.
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import MaxNLocator

from .. import atlas
from ..apply import apply_rope
from ..bounds import expected_logit
from ..demos.context import EXTENSION_METHODS, example_rope_scaling
from ..frequencies import inverse_frequencies
from ..multimodal import axial_rope_2d
from ..serving import rerotate_cached_keys
from ._style import PALETTE, axes_or_new, new_figure

__all__ = [
    "first_negative_distance",
    "plot_bug_errors",
    "plot_cache_shift",
    "plot_correlated_score_by_distance",
    "plot_offset_only_2d",
    "plot_rope_share",
    "plot_slowest_wavelengths",
    "plot_trained_arc_reach",
    "rope_share",
    "slowest_wavelengths",
    "trained_arc_reach",
]

_SERIES = ["#888888", PALETTE["query"], PALETTE["key"], PALETTE["rotated"], PALETTE["accent"],
           PALETTE["highlight"]]


def first_negative_distance(dim, base, max_distance):
    r"""The first distance at which :math:`B(r) = \sum_i \cos(r\theta_i)` is negative.

    Parameters
    ----------
    dim : int
        Head dimension :math:`d` (even).
    base : float
    max_distance : int
        Largest distance searched.

    Returns
    -------
    int or None
        The smallest integer :math:`r \le` ``max_distance`` with :math:`B(r) < 0`, or ``None``.
        Men et al.'s condition :math:`B(r) \ge 0` for :math:`r \le L` then holds exactly for
        :math:`L < r`.
    """
    theta = inverse_frequencies(dim, base)
    start, block = 0, 4096
    while start <= max_distance:
        r = np.arange(start, min(start + block, max_distance + 1))
        negative = np.flatnonzero(np.cos(r[:, None] * theta).sum(axis=1) < 0)
        if negative.size:
            return int(r[negative[0]])
        start += block
    return None


def plot_correlated_score_by_distance(dim=128, bases=(10000.0, 500000.0), max_distance=131072, *,
                                      ax=None):
    r"""Mean RoPE score against distance, for correlated and for independent queries and keys.

    For a key correlated with the query (:func:`rope_core.bounds.expected_logit`) the mean
    score is :math:`2\rho\sigma^2 B(r)` with :math:`B(r) = \sum_{i=0}^{d/2-1}\cos(r\theta_i)`;
    divided by its value at :math:`r = 0`, it is :math:`B(r)/(d/2)`, drawn once per base. For
    independent ones the mean is 0 at every distance (flat line). A dot marks the first
    distance where :math:`B(r) < 0` (:func:`first_negative_distance`): up to there the
    base meets Men et al.'s condition.

    Parameters
    ----------
    dim : int
        Head dimension :math:`d`.
    bases : sequence of float
    max_distance : int
        Right end of the logarithmic distance axis (from 1).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, figsize=(4.4, 3.3))
    distances = np.unique(np.geomspace(1, max_distance, 600).round().astype(np.int64))
    for base, colour in zip(bases, _SERIES[1:]):
        share = expected_logit(distances, dim, base=base, correlation=1.0) / dim
        first = first_negative_distance(dim, base, max_distance)
        label = f"base {base:,.0f}".replace(",", " ")
        if first is not None:
            label += f": < 0 from $r$ = {first:,}".replace(",", " ")
            ax.axvline(first, color=colour, lw=1, ls=":")
        ax.plot(distances, share, color=colour, lw=1.3, label=label)
    ax.axhline(0.0, color=PALETTE["neutral"], lw=1.8, ls="--", label="independent $q$, $k$: 0")
    ax.set_xscale("log")
    ax.set_xlabel("distance $r = m - n$ (tokens)")
    ax.set_ylabel("mean score / mean at $r = 0$")
    ax.set_title("correlated $q$, $k$ ($d$ = %d)" % dim, fontsize=9)
    ax.legend(fontsize=8, loc="upper right")
    return ax


def trained_arc_reach(factor=8.0, dim=128, base=10000.0, training_length=4096):
    r"""How far past its trained arc each pair turns at :math:`sL`, for each extension scheme.

    A slow pair (wavelength :math:`2\pi/\theta_i > L`) reached at most :math:`L\theta_i` in
    training; at distance :math:`sL` with the scheme's frequencies :math:`\theta'_i` it reaches
    :math:`sL\theta'_i`, and their ratio :math:`s\theta'_i/\theta_i` is at most 1 when the pair
    meets no angle it did not meet in training. A fast pair went round its whole circle in
    training, so every angle is known: its value is 1.

    Parameters
    ----------
    factor : float
        Scale factor :math:`s`.
    dim : int
    base : float
    training_length : int
        :math:`L`.

    Returns
    -------
    dict
        ``{label: ndarray of shape (dim // 2,)}``, one entry per scheme of
        :data:`rope_core.demos.context.EXTENSION_METHODS`.
    """
    theta = inverse_frequencies(dim, base)
    slow = 2 * np.pi / theta > training_length
    reach = {}
    for method, label in EXTENSION_METHODS.items():
        scaled = inverse_frequencies(
            dim, base, rope_scaling=example_rope_scaling(method, factor, training_length))
        reach[label] = np.where(slow, factor * scaled / theta, 1.0)
    return reach


def plot_trained_arc_reach(factor=8.0, dim=128, base=10000.0, training_length=4096, *, ax=None):
    r"""Per pair, the angle reached at distance :math:`sL` over the largest one met in training.

    One line per scheme (:func:`trained_arc_reach`); above 1 (shaded) a pair meets angles it
    never saw in training.

    Parameters
    ----------
    factor, dim, base, training_length
        As in :func:`trained_arc_reach`.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, figsize=(4.4, 3.3))
    reach = trained_arc_reach(factor, dim, base, training_length)
    # The schemes that stay within training all lie on 1: drawn thick to thin so each shows.
    styles = [dict(lw=1.8), dict(lw=7, alpha=0.45), dict(lw=1.8, ls="--"), dict(lw=3.5),
              dict(lw=1.6, ls=":")]
    for (label, values), colour, style in zip(reach.items(), _SERIES, styles):
        ax.plot(np.arange(values.size), values, color=colour, label=label, **style)
    top = max(float(v.max()) for v in reach.values()) + 1
    ax.axhspan(1.0, top, color=PALETTE["key"], alpha=0.08, lw=0)
    ax.text(1, top - 0.6, "angles never seen in training", fontsize=8, color=PALETTE["key"],
            va="top")
    ax.set_ylim(0, top)
    ax.set_xlabel("pair index $i$ (fast → slow)")
    ax.set_ylabel("angle at $sL$ / largest in training")
    ax.set_title(f"$s$ = {factor:g}, $L$ = {training_length}, $d$ = {dim}", fontsize=9)
    ax.legend(fontsize=8, loc="center left")
    return ax


def _long_range_specs(name):
    """The specs of a model's layer types that see the whole context (not sliding windows)."""
    return [spec for layer_type, spec in atlas.specs(name).items()
            if layer_type not in ("sliding_attention", "chunked_attention")]


def slowest_wavelengths(model_names=None):
    r"""Each model's context against the wavelength of its slowest turning pair.

    Parameters
    ----------
    model_names : sequence of str, optional
        Atlas names (default: every model of :func:`rope_core.atlas.names`).

    Returns
    -------
    list of dict
        One row per model and long-range layer type: ``name``, ``title``, ``context``
        (``max_position_embeddings``), ``wavelength`` (:math:`2\pi/\min_i \theta'_i` over the
        pairs that turn) and ``scaled`` (whether the frequencies come from a scaling scheme of
        ``rope_core.atlas.SCALED_ROPE_TYPES``).
    """
    rows = []
    for name in (atlas.names() if model_names is None else model_names):
        for spec in _long_range_specs(name):
            turning = spec.inverse_frequencies[spec.inverse_frequencies > 0]
            if spec.max_position_embeddings is None or not turning.size:
                continue
            rows.append({"name": name, "title": atlas.entry(name).title,
                         "context": int(spec.max_position_embeddings),
                         "wavelength": float(2 * np.pi / turning.min()),
                         "scaled": spec.rope_type in atlas.SCALED_ROPE_TYPES})
    return rows


def plot_slowest_wavelengths(model_names=None, *, ax=None):
    r"""Context length against slowest wavelength, one point per model of the atlas.

    Points above the line :math:`\lambda = L` keep their slowest pair from completing a turn
    over the whole context. Circles: frequencies set by the base alone; triangles: by a
    scaling scheme (:func:`slowest_wavelengths`).

    Parameters
    ----------
    model_names : sequence of str, optional
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, figsize=(4.4, 3.5))
    rows = slowest_wavelengths(model_names)
    for scaled, marker, colour, label in ((False, "o", PALETTE["query"], "base only"),
                                          (True, "^", PALETTE["key"], "base + scaling scheme")):
        picked = [row for row in rows if row["scaled"] == scaled]
        ax.scatter([row["context"] for row in picked], [row["wavelength"] for row in picked],
                   marker=marker, color=colour, s=34, alpha=0.85, label=label, zorder=3)
    contexts = [row["context"] for row in rows]
    span = np.array([min(contexts) / 2, max(contexts) * 2])
    ax.plot(span, span, color=PALETTE["neutral"], lw=1, ls="--", label=r"$\lambda = $ context")
    for row in rows:       # name the models whose slowest pair turns within twice the context
        if row["wavelength"] < 2 * row["context"]:
            ax.annotate(row["title"], (row["context"], row["wavelength"]), xytext=(-6, 0),
                        textcoords="offset points", ha="right", va="center", fontsize=8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("context (max positions)")
    ax.set_ylabel("slowest wavelength (tokens)")
    ax.legend(fontsize=8, loc="upper left")
    return ax


def rope_share():
    r"""For every model of the atlas, the share of its layers and features that rotate.

    Returns
    -------
    list of dict
        One row per model (:func:`rope_core.atlas.names` then
        ``rope_core.atlas.ARCHITECTURES``), oldest first: ``title``, ``year``,
        ``layers`` (share of the layers that apply RoPE) and ``features`` (share of all the
        layers' query/key features that rotate: for each layer, rotated features over head
        width, 0 without RoPE, averaged over the layers).
    """
    rows = []
    for name in atlas.names():
        specs = atlas.specs(name)
        first = next(iter(specs.values()))
        n_layers = sum(len(spec.layers) for spec in specs.values()) + len(first.nope_layers)
        rotated = sum(len(spec.layers) * 2 * spec.rotated_pairs / spec.head_dim
                      for spec in specs.values())
        rope_layers = sum(len(spec.layers) for spec in specs.values())
        rows.append({"title": atlas.entry(name).title, "year": atlas.entry(name).year,
                     "layers": rope_layers / n_layers, "features": rotated / n_layers})
    for item in atlas.ARCHITECTURES:
        layers = len(item.rope_layers) / len(item.layer_types)
        rows.append({"title": item.title, "year": item.year, "layers": layers,
                     "features": layers * item.rotary_fraction})
    order = sorted(range(len(rows)), key=lambda i: rows[i]["year"])    # stable: atlas order within a year
    return [rows[i] for i in order]


def plot_rope_share(*, ax=None):
    r"""Horizontal bars, one per model, oldest at the top: where today's models put RoPE.

    The light bar is the share of layers that rotate, the dark bar the share of all query/key
    features that rotate (:func:`rope_share`).

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    rows = rope_share()
    ax = axes_or_new(ax, figsize=(4.0, 0.2 * len(rows) + 1.2))
    y = np.arange(len(rows))
    ax.barh(y, [row["layers"] for row in rows], color=PALETTE["query"], alpha=0.3, height=0.8,
            label="layers with RoPE")
    ax.barh(y, [row["features"] for row in rows], color=PALETTE["query"], height=0.45,
            label="features rotated")
    for index, row in enumerate(rows):
        if row["layers"] == 0:
            ax.text(0.01, index, "no RoPE", va="center", fontsize=7, color=PALETTE["neutral"])
    ax.set_yticks(y, [f"{row['title']} ({row['year']})" for row in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1], ["0", "¼", "½", "¾", "all"])
    ax.set_xlabel("share of the model", fontsize=8)
    ax.tick_params(axis="x", labelsize=8)
    ax.legend(fontsize=7, loc="lower right", framealpha=0.95)
    return ax


def plot_cache_shift(dim=64, n_keys=24, evicted=8, base=10000.0, *, seed=0, ax=None):
    r"""Scores of the next query against a KV cache after its first tokens are evicted.

    Keys :math:`\mathbf{k}_j` were cached rotated at :math:`j = 0, \dots,` ``n_keys - 1``;
    the first ``evicted`` are dropped and the rest renumbered to :math:`j - e`, and the next
    query sits at :math:`n - e`. Drawn against the key: the scores of keys rotated afresh at
    their new positions (line), of the stale cached keys (squares), and of the cached keys
    rotated once more by :math:`R_{-e}` (:func:`rope_core.serving.rerotate_cached_keys`,
    crosses), half layout.

    Parameters
    ----------
    dim : int
        Head dimension.
    n_keys, evicted : int
        Cached tokens and how many of the first are dropped (``0 < evicted < n_keys``).
    base : float
    seed : int
        Seed of the random query and keys.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    if not 0 < evicted < n_keys:
        raise ValueError(f"evicted must be between 1 and n_keys - 1 = {n_keys - 1}, got {evicted}")
    rng = np.random.default_rng(seed)
    q, keys = rng.standard_normal(dim), rng.standard_normal((n_keys, dim))
    kept = keys[evicted:]
    old = np.arange(evicted, n_keys)
    query = apply_rope(q[None], [n_keys - evicted], base=base, layout="half")[0]
    stale = apply_rope(kept, old, base=base, layout="half")
    fresh = apply_rope(kept, old - evicted, base=base, layout="half")
    moved = rerotate_cached_keys(stale, -evicted, base=base, layout="half")
    ax = axes_or_new(ax, figsize=(4.4, 3.3))
    new = old - evicted
    ax.plot(new, fresh @ query, color=PALETTE["rotated"], lw=2.2, label="keys rotated afresh")
    ax.plot(new, stale @ query, "s", color=PALETTE["key"], ms=5, mfc="none",
            label="cached keys, not moved")
    ax.plot(new, moved @ query, "x", color=PALETTE["query"], ms=7, mew=1.8,
            label=f"cached keys × $R_{{-{evicted}}}$")
    ax.axhline(0.0, color="#bbbbbb", lw=0.8)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("key's new position $j - e$")
    ax.set_ylabel("score with the next query")
    ax.set_title(f"{n_keys} cached keys, first {evicted} evicted", fontsize=9)
    ax.legend(fontsize=8, loc="best")
    return ax


def _bug_errors(implementations, dim, positions, layout, n_vectors, seed):
    x = np.random.default_rng(seed).standard_normal((n_vectors, dim))
    errors = np.zeros((len(implementations), len(positions)))
    for row, entry in enumerate(implementations.values()):
        fn, settings = entry if isinstance(entry, tuple) else (entry, {})
        for col, position in enumerate(positions):
            at = np.full(n_vectors, position)
            right = apply_rope(x, at, layout=layout, **settings)
            got = np.asarray(fn(x, at), dtype=np.float64)
            errors[row, col] = np.max(np.linalg.norm(got - right, axis=-1)
                                      / np.linalg.norm(right, axis=-1))
    return errors


def plot_bug_errors(implementations, *, dim=64, positions=(0, 1, 1000, 2**20), layout="half",
                    n_vectors=8, seed=0, ax=None):
    r"""Relative error of each implementation at a few positions, as a labelled table.

    Cell :math:`(b, m)` is :math:`\max_j \lVert f_b(\mathbf{x}_j, m) - R_m\mathbf{x}_j\rVert /
    \lVert R_m\mathbf{x}_j\rVert` over ``n_vectors`` random vectors, all at position
    :math:`m`, with :math:`R_m` computed by :func:`rope_core.apply_rope` (``layout`` and the
    implementation's settings). Exact zeros are written "0"; the colour is
    :math:`\log_{10}` of the error.

    Parameters
    ----------
    implementations : mapping
        ``{label: fn}`` or ``{label: (fn, settings)}`` with ``fn(x, positions)`` taking
        ``x`` of shape (n_vectors, dim) and ``settings`` the keyword arguments of the correct
        RoPE it should match (e.g. ``{"base": 500000.0}``).
    dim : int
    positions : sequence of int
    layout : {"half", "interleaved"}
    n_vectors, seed : int
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Its texts are the cells, row by row.
    """
    if not implementations:
        raise ValueError("implementations must name at least one function")
    errors = _bug_errors(implementations, dim, list(positions), layout, n_vectors, seed)
    ax = axes_or_new(ax, figsize=(4.6, 0.42 * len(implementations) + 1.0))
    shade = np.log10(np.maximum(errors, 1e-17))
    ax.imshow(shade, cmap="Reds", vmin=-17, vmax=1, aspect="auto")
    for (row, col), value in np.ndenumerate(errors):
        text = "0" if value == 0 else f"{value:.0e}".replace("e-0", "e-").replace("e+00", "")
        ax.text(col, row, text, ha="center", va="center", fontsize=8,
                color="white" if shade[row, col] > -5 else "black")
    ax.set_xticks(range(len(positions)), [f"{p:,}".replace(",", " ") for p in positions],
                  fontsize=8)
    ax.set_yticks(range(len(implementations)), list(implementations), fontsize=8)
    ax.set_xlabel("position $m$", fontsize=8)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return ax


def plot_offset_only_2d(queries=((4, 4), (10, 9)), size=15, dim=64, base=100.0, *, axes=None):
    r"""Axial 2-D RoPE scores of one query placed at two cells: the same picture, moved.

    The query has unit length in every pair and scores copies of itself at every cell of a
    ``size`` × ``size`` grid (:func:`rope_core.multimodal.axial_rope_2d`, half layout). The
    score depends on the offset :math:`(\Delta r, \Delta c)` only, so moving the query moves
    the whole map with it.

    Parameters
    ----------
    queries : sequence of (int, int)
        Grid cells (row, column) of the query, one panel each.
    size, dim : int
    base : float
    axes : sequence of matplotlib.axes.Axes, optional
        One per query.

    Returns
    -------
    list of matplotlib.axes.Axes
    """
    if axes is None:
        _, axes = new_figure(1, len(queries), figsize=(2.4 * len(queries), 2.6))
    axes = list(np.atleast_1d(axes))
    if len(axes) != len(queries):
        raise ValueError(f"axes must hold one axes per query ({len(queries)}), got {len(axes)}")
    rows, cols = (a.ravel() for a in np.meshgrid(np.arange(size), np.arange(size), indexing="ij"))
    unit = np.concatenate([np.ones(dim // 2), np.zeros(dim // 2)])
    keys = axial_rope_2d(np.tile(unit, (size * size, 1)), rows, cols, base=base)
    maps = [(keys @ axial_rope_2d(unit[None], [row], [col], base=base)[0]).reshape(size, size)
            for row, col in queries]
    low, high = min(m.min() for m in maps), max(m.max() for m in maps)
    for (row, col), scores, ax in zip(queries, maps, axes):
        ax.imshow(scores, cmap="viridis", vmin=low, vmax=high)
        ax.plot(col, row, marker="x", color="white", markersize=9, mew=2)
        ax.set_title(f"query at ({row}, {col})", fontsize=9)
        ax.set_xlabel("key column", fontsize=8)
        ax.set_ylabel("key row", fontsize=8)
        ax.set_xticks(range(0, size, 4))
        ax.set_yticks(range(0, size, 4))
        ax.tick_params(labelsize=7)
    return axes
