"""The print figures of DecayExplorer and LayoutExplorer draw what the widgets draw.

Each figure is read back from its matplotlib artists and compared with the rope_core.demos
tables the widget's Python class sends to the page; the gallery's caption and alt text are
checked against the same numbers.
"""

from __future__ import annotations

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
    assert labels == ["|score|, aligned key k = q", "RoFormer's bound, aligned key k = q", "|score|, random key",
                      "RoFormer's bound, random key", "1000 random pairs: 10–90 % of |score|",
                      "1000 random pairs: median |score|"]
    assert ax.get_title() == "d = 128, base 10\u2009000"
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
