"""rope_core.plots.attention: each function draws what it is given and returns its axes."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from rope_core.plots import attention as plots
from rope_core.plots import new_figure

pytestmark = pytest.mark.usefixtures("render_and_close_figures")


def test_every_public_function_is_listed_and_exists():
    assert plots.__all__, "the module declares its public functions"
    for name in plots.__all__:
        assert callable(getattr(plots, name))


def test_draws_on_the_given_axes_and_returns_it():
    _, ax = new_figure()
    scores = np.arange(12.0).reshape(3, 4)
    assert plots.plot_score_matrix(scores, [0, 1, 2], [0, 1, 2, 3], ax=ax) is ax
    image = ax.images[0].get_array()
    np.testing.assert_array_equal(image, scores)
    # Symmetric colour scale so that zero is the neutral colour.
    assert ax.images[0].get_clim() == (-11.0, 11.0)


def test_new_figure_has_an_opaque_face_when_no_axes_is_given():
    ax = plots.plot_attention_weights(np.full((4, 4), 0.25))
    assert ax.figure.get_facecolor()[3] == 1.0


def test_wavelength_ladder_plots_two_pi_over_theta():
    ax = plots.plot_wavelength_ladder(8, base=[100.0, 10000.0], context_len=50)
    first, second = ax.get_lines()[:2]
    np.testing.assert_allclose(first.get_ydata(), 2 * np.pi * 100.0 ** (np.arange(0, 8, 2) / 8))
    np.testing.assert_allclose(second.get_ydata(), 2 * np.pi * 1e4 ** (np.arange(0, 8, 2) / 8))
    assert ax.get_yscale() == "log"


def test_phase_raster_wraps_angles():
    ax = plots.plot_phase_raster(np.arange(10), 4, base=100.0)
    phase = ax.images[0].get_array()
    assert phase.shape == (2, 10)
    np.testing.assert_allclose(phase[0], np.mod(np.arange(10.0), 2 * np.pi))


def test_cost_scaling_puts_guides_through_the_last_points():
    dims = np.array([16.0, 32.0, 64.0])
    ax = plots.plot_cost_scaling(dims, [1e-7, 4e-7, 1.6e-6], [1e-8, 2e-8, 4e-8])
    dense, elementwise, quadratic, linear = ax.get_lines()
    np.testing.assert_allclose(quadratic.get_ydata(), dense.get_ydata())
    np.testing.assert_allclose(linear.get_ydata(), elementwise.get_ydata())


def test_decay_expected_contributions_and_base_bound_draw_their_data():
    distances = np.arange(5.0)
    ax = plots.plot_decay_bound(distances, [np.ones(5), 2 * np.ones(5)], labels=["a", "b"])
    np.testing.assert_array_equal(ax.get_lines()[1].get_ydata(), 2 * np.ones(5))
    samples = np.random.default_rng(0).standard_normal((50, 5))
    ax = plots.plot_expected_logit(distances, samples, np.zeros(5), label="independent")
    np.testing.assert_allclose(ax.get_lines()[0].get_ydata(), samples.mean(0))
    ax = plots.plot_pair_contributions(distances, np.ones((5, 3)))
    assert ax.images[0].get_array().shape == (3, 5)
    ax = plots.plot_base_bound([1024, 4096], [5.6e3, 2.9e4], used={"model": (4096, 1e4)})
    np.testing.assert_array_equal(ax.get_lines()[0].get_ydata(), [5.6e3, 2.9e4])
    ax = plots.plot_base_bound([1024, 4096], [5.6e3, 2.9e4], all_pass=[6e3, 6e4])
    np.testing.assert_array_equal(ax.get_lines()[1].get_ydata(), [6e3, 6e4])
    with pytest.raises(ValueError, match="all_pass"):
        plots.plot_base_bound([1024, 4096], [5.6e3, 2.9e4], all_pass=[6e3, 2e4])


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: plots.plot_score_matrix(np.ones(3), [0], [0]), "scores"),
        (lambda: plots.plot_score_matrix(np.ones((2, 2)), [0, 1, 2], [0, 1]), "positions_q"),
        (lambda: plots.plot_cost_scaling([1, 2], [1, 2], [1]), "elementwise_seconds"),
        (lambda: plots.plot_decay_bound([0, 1], [1, 2, 3]), "bounds"),
        (lambda: plots.plot_decay_bound([0, 1], [1, 2], labels=["a", "b"]), "labels"),
        (lambda: plots.plot_expected_logit([0, 1], np.ones((4, 3)), [0, 0]), "samples"),
        (lambda: plots.plot_pair_contributions([0, 1], np.ones((3, 2))), "contributions"),
        (lambda: plots.plot_base_bound([1, 2], [1]), "bases"),
    ],
)
def test_bad_shapes_name_the_argument(call, words):
    with pytest.raises(ValueError, match=words):
        call()
