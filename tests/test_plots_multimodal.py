"""The chapter-14 figures draw on the axes they are given and reject malformed input."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from rope_core import multimodal as mm
from rope_core import plots


def test_grid_scores_draws_image_and_query_marker():
    fig, ax = plots.new_figure()
    assert plots.plot_grid_scores(np.arange(12.0).reshape(3, 4), 1, 2, title="t", ax=ax) is ax
    assert len(ax.images) == 1 and ax.get_title() == "t"
    np.testing.assert_array_equal(ax.lines[0].get_xydata(), [[2, 1]])


def test_mrope_positions_draws_three_lines():
    t, h, w = mm.qwen2_vl_positions(2, 2, 3, 1)
    ax = plots.plot_mrope_positions(t, h, w)
    assert len(ax.lines) == 3


@pytest.mark.parametrize("call", [
    lambda: plots.plot_grid_scores(np.ones(4), 0, 0),
    lambda: plots.plot_mrope_positions([0, 1], [0], [0, 1]),
])
def test_bad_shapes_raise(call):
    with pytest.raises(ValueError, match="must be"):
        call()
