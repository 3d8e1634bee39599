"""rope_core.plots.basics: each function draws what it is given and returns its axes."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from rope_core.absolute import sinusoidal_position_embedding
from rope_core.plots import (
    basics,
    new_figure,
)

pytestmark = pytest.mark.usefixtures("render_and_close_figures")


def _arrow_tips(ax):
    (quiver,) = [c for c in ax.collections if isinstance(c, matplotlib.quiver.Quiver)]
    return np.column_stack([quiver.U, quiver.V])


def test_every_public_function_is_listed_and_exists():
    assert basics.__all__
    for name in basics.__all__:
        assert callable(getattr(basics, name))


def test_position_embedding_shows_the_table():
    _, ax = new_figure()
    table = sinusoidal_position_embedding(np.arange(10), 8)
    assert basics.plot_position_embedding(table, ax=ax) is ax
    np.testing.assert_array_equal(ax.images[0].get_array(), table)
    assert ax.images[0].get_clim() == (-1.0, 1.0)


def test_vectors_are_drawn_as_arrows_from_the_origin():
    _, ax = new_figure()
    vectors = np.array([[1.0, 2.0], [-0.5, 0.25]])
    assert basics.plot_vectors_2d(vectors, labels=["$a$", "$b$"], ax=ax) is ax
    np.testing.assert_array_equal(_arrow_tips(ax), vectors)
    assert [t.get_text() for t in ax.texts] == ["$a$", "$b$"]
    assert ax.get_aspect() == 1.0


def test_vector_rotation_draws_the_rotated_vector():
    _, ax = new_figure()
    assert basics.plot_vector_rotation([1.0, 0.0], np.pi / 2, ax=ax) is ax
    np.testing.assert_allclose(_arrow_tips(ax), [[1.0, 0.0], [0.0, 1.0]], atol=1e-12)


def test_position_fan_rotates_by_m_theta():
    _, ax = new_figure()
    assert basics.plot_position_fan([2.0, 0.0], 0.5, np.arange(4), ax=ax) is ax
    m = np.arange(4)
    np.testing.assert_allclose(_arrow_tips(ax), 2.0 * np.column_stack([np.cos(0.5 * m), np.sin(0.5 * m)]),
                               atol=1e-12)
    assert [t.get_text() for t in ax.texts] == ["$m=0$", "$m=1$", "$m=2$", "$m=3$"]


def test_complex_product_draws_z_w_and_their_product():
    _, ax = new_figure()
    z, w = 1 + 2j, np.exp(0.5j)
    assert basics.plot_complex_product(z, w, ax=ax) is ax
    product = z * w
    np.testing.assert_allclose(_arrow_tips(ax), [[1, 2], [w.real, w.imag], [product.real, product.imag]],
                               atol=1e-12)


def test_phase_progression_draws_one_line_per_curve():
    _, ax = new_figure()
    m = np.arange(6.0)
    assert basics.plot_phase_progression(m, [0.3 * m, m**2], labels=["linear", "square"], ax=ax) is ax
    assert len(ax.lines) == 2
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), m**2)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["linear", "square"]


def test_new_figure_when_no_axes_given():
    ax = basics.plot_vectors_2d([[1.0, 1.0]])
    assert ax.figure.get_facecolor()[3] == 1.0  # opaque, readable in dark mode


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: basics.plot_vectors_2d([1.0, 2.0]), "vectors"),
        (lambda: basics.plot_vectors_2d([[1.0, 2.0]], labels=["a", "b"]), "labels"),
        (lambda: basics.plot_position_embedding(np.zeros((3, 4)), positions=[0, 1]), "positions"),
        (lambda: basics.plot_vector_rotation([1.0, 2.0, 3.0], 0.1), "vector"),
        (lambda: basics.plot_complex_product(np.nan, 1.0), "z"),
        (lambda: basics.plot_phase_progression([0, 1], [[0, 1, 2]]), "phases"),
    ],
)
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()
