"""The chapter-9 figures draw rope_core's numbers on the axes they are given."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

import rope_core
from rope_core import plots


def test_angle_coverage_plots_turns_per_pair():
    fig, ax = plots.new_figure()
    assert plots.plot_angle_coverage(16, 100.0, 50, 400, ax=ax) is ax
    theta = rope_core.inverse_frequencies(16, 100.0)
    np.testing.assert_allclose(ax.lines[0].get_ydata(), 50 * theta / (2 * np.pi))
    np.testing.assert_allclose(ax.lines[1].get_ydata(), 400 * theta / (2 * np.pi))


def test_angle_coverage_rejects_a_shorter_target():
    with pytest.raises(ValueError, match="target_length"):
        plots.plot_angle_coverage(16, 100.0, 400, 50)


def test_yarn_ramp_plot_matches_rope_core():
    ax = plots.plot_yarn_ramp(128, 10000.0, 4096)
    low, high = rope_core.yarn_correction_range(128, 10000.0, 4096)
    np.testing.assert_allclose(ax.lines[0].get_ydata(), rope_core.yarn_ramp(128, low, high))
