"""The print figures of DecayExplorer and LayoutExplorer draw what the widgets draw.

Each figure is read back from its matplotlib artists and compared with the rope_core.demos
tables the widget's Python class sends to the page; the gallery's caption and alt text are
checked against the same numbers.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

from rope_core import plots
from rope_core import widgets as W
from rope_core.demos import decay
from rope_core.demos.spectrum import layout_sentence_attention
from rope_core.widgets.registry import entry

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def lines_of(ax):
    return {line.get_gid(): line for line in ax.get_lines() if line.get_gid()}


def band_edges(collection, count):
    """The first and second edge of a ``fill_between`` band of ``count`` points, each (count, 2)."""
    # fill_between's path: a start point, the first edge left to right, the second edge's last
    # point once more, the second edge right to left, then the closing point.
    vertices = collection.get_paths()[0].vertices
    assert len(vertices) == 2 * count + 3
    return vertices[1:1 + count], vertices[2 + count:2 + 2 * count][::-1]


# ---- plot_decay ---------------------------------------------------------------------------

@pytest.mark.parametrize("base", [10000.0, 100.0, 1e6])
def test_decay_figure_draws_the_widgets_pairs_and_band_exactly(base):
    ax = plots.plot_decay(base=base)
    pair = decay.content_pair_table(bases=[base], mixes=(0.0, 1.0))
    crowd = decay.random_pairs_magnitude(bases=[base])
    lines = lines_of(ax)
    assert set(lines) == {"aligned-score", "aligned-bound", "random-score", "random-bound", "random-median"}
    for row, name in ((0, "aligned"), (1, "random")):
        np.testing.assert_array_equal(lines[f"{name}-score"].get_xdata(), pair["distances"])
        np.testing.assert_array_equal(lines[f"{name}-score"].get_ydata(), np.abs(pair["score"][row, 0]))
        np.testing.assert_array_equal(lines[f"{name}-bound"].get_ydata(), pair["bound"][row, 0])
        # a bound drawn above its score really is above it
        assert np.all(pair["bound"][row, 0] >= np.abs(pair["score"][row, 0]))
    np.testing.assert_array_equal(lines["random-median"].get_ydata(), crowd["median"][0])
    bands = [c for c in ax.collections if c.get_gid() == "random-band"]
    assert len(bands) == 1
    low, high = band_edges(bands[0], crowd["distances"].size)
    for edge, values in ((low, crowd["low"][0]), (high, crowd["high"][0])):
        np.testing.assert_array_equal(edge[:, 0], crowd["distances"])
        np.testing.assert_array_equal(edge[:, 1], values)
    # the widget's axis: one log scale from 0.001 to 200 over 0 .. max_distance
    assert ax.get_yscale() == "log"
    widget_axis = re.search(r"const LOG_Y = \{ lo: ([\d.e-]+), hi: ([\d.e-]+) \}",
                            (ROOT / "rope_core/widgets/decay_explorer.js").read_text(encoding="utf-8"))
    assert ax.get_ylim() == pytest.approx((float(widget_axis.group(1)), float(widget_axis.group(2))))
    assert ax.get_xlim() == (0, 1024)


def test_decay_figure_equals_what_the_widget_sends():
    widget = W.DecayExplorer()
    b = widget.base_index
    series = widget.data["series"][b]
    lines = lines_of(plots.plot_decay(base=widget.data["bases"][b]))
    last = len(widget.data["mixes"]) - 1
    assert widget.data["mixes"][0] == 0.0 and widget.data["mixes"][last] == 1.0
    for row, name in ((0, "aligned"), (last, "random")):
        # the widget sends 3 significant digits of the score, 2 decimals of the bound
        np.testing.assert_allclose(np.abs(series["pair"]["score"][row]), lines[f"{name}-score"].get_ydata(),
                                   rtol=5e-3, atol=1e-12)
        np.testing.assert_allclose(series["pair"]["bound"][row], lines[f"{name}-bound"].get_ydata(), atol=5e-3)
    np.testing.assert_allclose(series["random"]["median"], lines["random-median"].get_ydata(), rtol=5e-3)


def test_decay_figure_legend_names_every_curve_and_the_band_can_be_left_out():
    ax = plots.plot_decay()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["|score|, k = q", "bound, k = q", "|score|, random k", "bound, random k",
                      "1000 random pairs, 10–90 %", "1000 random pairs, median"]
    assert ax.get_title() == "d = 128, base 10\u2009000: RoFormer's bound (dashed) and |score|"
    bare = plots.plot_decay(random_pairs=False)
    assert "random-median" not in lines_of(bare) and not [c for c in bare.collections if c.get_gid()]


@pytest.mark.parametrize("kwargs, name", [({"base": 1.0}, "base"), ({"dim": 7}, "dim"), ({"samples": 1}, "samples"),
                                          ({"max_distance": 0}, "max_distance"), ({"seed": -1}, "seed")])
def test_decay_figure_bad_input_names_the_argument(kwargs, name):
    with pytest.raises((ValueError, TypeError), match=name):
        plots.plot_decay(**kwargs)


def test_decay_caption_and_alt_say_what_is_drawn():
    card = entry("DecayExplorer").card
    assert "question answered" in card.caption and "plot_decay(base=10000.0" in card.figure
    pair = decay.content_pair_table(bases=[1e4], mixes=(0.0, 1.0))
    crowd = decay.random_pairs_magnitude(bases=[1e4])
    aligned, random_key = pair["bound"][:, 0]
    assert f"random key's from {random_key[0]:.0f} to {random_key[-1]:.3g}" in card.alt
    assert f"aligned key's from {aligned[0]:.3g} to {aligned[-1]:.1f}" in card.alt
    # "the aligned score falls, the random key's does not": mean |score| over the far half
    # against the near half
    early, late = pair["early"][:, 0], pair["late"][:, 0]
    assert late[0] < 0.7 * early[0] and late[1] > 0.9 * early[1]
    # "a flat orange band from about 0.01 to 0.15 whose median line stays near 0.06"
    assert 0.008 < crowd["low"][0].min() and crowd["low"][0].max() < 0.02
    assert 0.13 < crowd["high"][0].min() and crowd["high"][0].max() < 0.16
    assert np.all(np.abs(crowd["median"][0] - 0.06) < 0.01)
    random_score = np.abs(pair["score"][1, 0])
    assert 0.005 < np.percentile(random_score, 5) and np.percentile(random_score, 95) < 0.14
    assert "random key's green score jumps between about 0.01 and 0.13" in card.alt


# ---- plot_layouts -------------------------------------------------------------------------

def attention_bars(ax, name):
    (inset,) = [child for child in ax.child_axes if child.get_gid() == "attention"]
    bars = [patch for patch in inset.patches if patch.get_gid() == f"attention-{name}"]
    return inset, np.array([bar.get_height() for bar in bars]), np.array([bar.get_x() + bar.get_width() / 2 for bar in bars])


def test_layout_figure_defaults_are_the_widgets_opening_view():
    widget = W.LayoutExplorer()
    defaults = inspect.signature(plots.plot_layouts).parameters
    assert defaults["dim"].default == widget.data["dims"][widget.dim_index] == 16
    assert defaults["pair"].default == widget.pair
    assert widget.query == len(widget.data["words"]) - 1 and defaults["query"].default is None
    assert inspect.signature(W.LayoutExplorer.__init__).parameters["sentence"].default.split() == widget.data["words"]


@pytest.mark.parametrize("dim, query", [(16, None), (16, 3), (8, 7), (8, 0)])
def test_layout_figure_draws_the_widgets_attention_bars(dim, query):
    widget = W.LayoutExplorer()
    words = widget.data["words"]
    ax = plots.plot_layouts(dim=dim, pair=1, query=query)
    m = len(words) - 1 if query is None else query
    attention = layout_sentence_attention(dim, 10000.0, words)
    sent = widget.data["tables"][widget.data["dims"].index(dim)]["attention"]
    for name in ("trained", "wrong"):
        inset, heights, xs = attention_bars(ax, name)
        np.testing.assert_array_equal(heights, attention[name][m])
        np.testing.assert_allclose(heights, sent[name][m], atol=5e-4)   # the widget sends 3 decimals
        np.testing.assert_allclose(xs, np.arange(len(words)) + (-0.2 if name == "trained" else 0.2))
        # a percentage over every bar of at least 10 %, as the bar's own number
        shown = {t.get_gid(): t.get_text() for t in inset.texts if t.get_gid()}
        want = {f"percent-{name}-{j}": f"{v:.0%}" for j, v in enumerate(attention[name][m]) if v >= 0.1}
        assert {k: v for k, v in shown.items() if k.startswith(f"percent-{name}-")} == want
    labels = inset.get_xticklabels()
    assert [t.get_text() for t in labels] == words
    assert [t.get_fontweight() == "bold" for t in labels] == [j == m for j in range(len(words))]
    # causal: the words after the query get no weight and are greyed
    assert np.all(attention["trained"][m][m + 1:] == 0)
    assert [t.get_color() == "#999999" for t in labels] == [j > m for j in range(len(words))]
    legend = [t.get_text() for t in inset.get_legend().get_texts()]
    assert legend == [f"as trained: most on \u201c{words[int(np.argmax(attention['trained'][m]))]}\u201d",
                      f"wrong layout: most on \u201c{words[int(np.argmax(attention['wrong'][m]))]}\u201d"]
    assert inset.get_title() == f"attention from \u201c{words[m]}\u201d over the sentence"


def test_layout_figure_bad_input_names_the_argument():
    for kwargs, name in (({"query": 8}, "query"), ({"query": -1}, "query"), ({"query": True}, "query"),
                         ({"pair": 8}, "pair"), ({"dim": 7}, "dim")):
        with pytest.raises((ValueError, TypeError), match=name):
            plots.plot_layouts(**kwargs)
    assert not plots.plot_layouts(heads=False).child_axes


def said_percent(weight):
    return f"{round(100 * weight)} %"


def test_layout_captions_quote_the_drawn_attention():
    words = W.LayoutExplorer().data["words"]
    attention = layout_sentence_attention(16, 10000.0, words)
    trained, wrong = attention["trained"][-1], attention["wrong"][-1]
    warm, mat = words.index("warm"), len(words) - 1
    assert int(np.argmax(trained)) == warm and int(np.argmax(wrong)) == mat
    card = entry("LayoutExplorer").card
    assert "plot_layouts(dim=16, pair=1, ax=ax)" in card.figure
    caption = " ".join(card.caption.split())
    assert f"gives “warm” {said_percent(trained[warm])} of its attention as trained" in caption
    assert f"looks most at itself, {said_percent(wrong[mat])}" in caption
    alt = card.alt
    assert (f"solid bar over warm is by far the tallest, {said_percent(trained[warm])}, while the hatched bars are "
            f"tallest over mat, {said_percent(wrong[mat])}, and warm, {said_percent(wrong[warm])}") in alt
    assert sorted(wrong)[-2] == wrong[warm]   # "tallest over mat, and warm": warm is the second
    chapter = (ROOT / "book/07-computing-fast.md").read_text(encoding="utf-8")
    figure = chapter[chapter.index("name: fig-ch06-layouts") - 1500:chapter.index("name: fig-ch06-layouts")]
    flat = " ".join(figure.split())
    assert (f'"mat" gives "warm" {said_percent(trained[warm])} of its attention as trained (solid bars); '
            f"loaded into half-layout code (the wrong layout, hatched bars) it gives itself "
            f'{said_percent(wrong[mat])} and "warm" {said_percent(wrong[warm])}') in flat
