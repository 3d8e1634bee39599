"""The spectrum demos layer (rope_core.demos.spectrum) and the three widgets and views drawing it.

The tables are checked against closed forms written out here (θ_i = b^(-2i/d), the 2 × 2
block [[cos, −sin], [sin, cos]], the pairs (2i, 2i+1) and (i, i + d/2)), not against the
functions they are built from; then each widget's data and each static view against its table.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

from rope_core import plots
from rope_core import widgets as W
from rope_core.demos.spectrum import (
    SPECTRUM_DEFAULTS,
    clock_positions,
    clock_table,
    layout_table,
    matrix_table,
    position_digits,
)

SETTINGS = 50


def closed_theta(dim, base):
    return base ** (-np.arange(0, dim, 2) / dim)


def test_clock_table_closed_form_at_random_settings(rng):
    for _ in range(SETTINGS):
        dim = 2 * int(rng.integers(1, 33))
        base = float(10 ** rng.uniform(1, 7))
        positions = np.sort(rng.integers(0, 10**5, size=7))
        contexts = rng.integers(1, 10**5, size=3)
        t = clock_table(dim, base, positions, contexts)
        theta = closed_theta(dim, base)
        angle = positions[:, None] * theta
        np.testing.assert_allclose(t["theta"], theta, rtol=1e-12)
        np.testing.assert_allclose(t["wavelength"], 2 * np.pi / theta, rtol=1e-12)
        np.testing.assert_allclose(t["angle"], angle, rtol=1e-12)
        # The drawn hand: the same point of the circle, in [0, 2π).
        assert ((t["hand"] >= 0) & (t["hand"] < 2 * np.pi)).all()
        np.testing.assert_allclose(np.cos(t["hand"]), np.cos(angle), atol=1e-8)
        np.testing.assert_allclose(np.sin(t["hand"]), np.sin(angle), atol=1e-8)
        np.testing.assert_allclose(t["cos"], np.cos(angle), atol=1e-12)
        np.testing.assert_allclose(t["sin"], np.sin(angle), atol=1e-12)
        np.testing.assert_array_equal(t["beyond_context"], 2 * np.pi / theta[None, :] > contexts[:, None])


def test_matrix_table_is_the_block_diagonal_rotation(rng):
    for _ in range(SETTINGS):
        dim = 2 * int(rng.integers(1, 17))
        base = float(10 ** rng.uniform(1, 6))
        positions = rng.integers(0, 300, size=4)
        t = matrix_table(dim, base, positions)
        theta = closed_theta(dim, base)
        for p, m in enumerate(positions):
            dense = np.zeros((dim, dim))
            dense[t["rows"], t["cols"]] = t["blocks"][p]
            expected = np.zeros((dim, dim))
            for i, a in enumerate(m * theta):
                expected[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]
            np.testing.assert_allclose(dense, expected, atol=1e-9)
            np.testing.assert_allclose(t["angle"][p], m * theta, rtol=1e-12)
        np.testing.assert_allclose(t["wavelength"], 2 * np.pi / theta, rtol=1e-12)


@pytest.mark.parametrize("dim", [2, 4, 8, 16, 32, 64])
def test_layout_table_pairs_and_permutation(dim):
    t = layout_table(dim, 10000.0)
    half = dim // 2
    assert t["interleaved_pairs"].tolist() == [[2 * i, 2 * i + 1] for i in range(half)]
    assert t["half_pairs"].tolist() == [[i, i + half] for i in range(half)]
    perm = t["interleaved_to_half"]
    x = np.arange(dim) * 1.5  # a feature vector in the interleaved layout
    # Half feature j is interleaved feature perm[j]: pair i lands at (i, i + d/2).
    for i in range(half):
        assert (x[perm][i], x[perm][i + half]) == (x[2 * i], x[2 * i + 1])
    np.testing.assert_allclose(t["theta"], closed_theta(dim, 10000.0), rtol=1e-12)


def test_clock_positions_reach_the_context():
    p = clock_positions(100_000)
    assert p[:65].tolist() == list(range(65)) and p[-1] == 100_000
    assert (np.diff(p) > 0).all()
    # Log-spaced above 64: consecutive stops differ by at most the geometric step (rounded).
    ratios = p[65:] / p[64:-1]
    assert ratios.max() < (100_000 / 64) ** (1 / 48) * 1.02
    assert clock_positions(10).tolist() == list(range(11))


@pytest.mark.parametrize("call, match", [
    (lambda: clock_table(7, 100.0, [0], [1]), "dim"),
    (lambda: clock_table(8, 1.0, [0], [1]), "base"),
    (lambda: clock_table(8, 100.0, [-1], [1]), "positions"),
    (lambda: clock_table(8, 100.0, [0.5], [1]), "positions"),
    (lambda: clock_table(8, 100.0, [0], []), "contexts"),
    (lambda: matrix_table(8, -3.0, [0]), "base"),
    (lambda: layout_table(0, 100.0), "dim"),
    (lambda: clock_positions(0), "max_position"),
    (lambda: clock_positions(100, log_stops=True), "log_stops"),
    (lambda: plots.plot_layouts(dim=8, pair=4), "pair"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_widgets_send_their_tables():
    clocks = W.FrequencyClocks()
    assert clocks.data["positions"] == clock_positions(100_000).tolist()
    assert clocks.state_size() < 200_000
    for dim, per_base in zip(clocks.data["dims"], clocks.data["tables"]):
        for base, entry in zip(clocks.data["bases"], per_base):
            t = clock_table(dim, base, [0], clocks.data["contexts"])
            assert entry["theta"] == t["theta"].tolist()  # unrounded
            assert entry["beyond_context"] == t["beyond_context"].tolist()
    heatmap = W.RotationMatrixHeatmap()
    for dim, per_base in zip(heatmap.data["dims"], heatmap.data["tables"]):
        for base, entry in zip(heatmap.data["bases"], per_base):
            t = matrix_table(dim, base, heatmap.data["positions"])
            np.testing.assert_allclose(entry["blocks"], t["blocks"], atol=5e-7)
            np.testing.assert_allclose(entry["angle"], t["angle"], atol=5e-7)
            assert entry["theta"] == t["theta"].tolist() and entry["wavelength"] == t["wavelength"].tolist()
    layout = W.LayoutExplorer()
    for dim, entry in zip(layout.data["dims"], layout.data["tables"]):
        t = layout_table(dim, layout.data["base"])
        assert entry["interleaved_to_half"] == t["interleaved_to_half"].tolist()
        assert entry["half_pairs"] == t["half_pairs"].tolist() and entry["theta"] == t["theta"].tolist()


def test_frequency_clocks_position_slider_spans_the_stops():
    w = W.FrequencyClocks(max_position=1000)
    w.position = len(w.data["positions"]) - 1
    assert w.data["positions"][w.position] == 1000
    with pytest.raises(ValueError, match="position"):
        w.position = len(w.data["positions"])
    with pytest.raises(ValueError, match="max_position"):
        W.FrequencyClocks(max_position=10**6 + 1)


def test_views_draw_the_tables():
    d = SPECTRUM_DEFAULTS
    ax = plots.plot_frequency_clocks(position=40_000, dim=8, base=10000.0, context=256)
    hands = clock_table(8, 10000.0, [40_000], [256])["hand"][0]
    drawn = [np.arctan2(line.get_ydata()[1] - line.get_ydata()[0], line.get_xdata()[1] - line.get_xdata()[0])
             for line in ax.lines]
    np.testing.assert_allclose(np.mod(drawn, 2 * np.pi), hands, atol=1e-9)
    plt.close(ax.figure)
    # The print view carries the widget's marks: turns under each face, grey hands beyond L, and
    # (odometer=True) the digits of m in base β, here 1234 in decimal.
    ax = plots.plot_frequency_clocks(position=1234, dim=8, base=10000.0, context=256, odometer=True)
    table = clock_table(8, 10000.0, [1234], [256])
    texts = {t.get_gid(): t.get_text() for t in ax.texts if t.get_gid()}
    assert [texts[f"turns-{i}"] for i in range(4)] == [f"{v:.3g} turns" for v in table["turns"][0]]
    assert [texts[f"digit-{i}"] for i in range(4)] == ["4", "3", "2", "1"]
    assert [line.get_color() for line in ax.lines] == [("#6b7280" if far else "#0072B2") for far in table["beyond_context"][0]]
    plt.close(ax.figure)
    ax = plots.plot_frequency_clocks(position=10, dim=16, base=10000.0, context=256, odometer=True)
    texts = {t.get_gid(): t.get_text() for t in ax.texts if t.get_gid()}
    digits, beta = position_digits([10], 16, 10000.0)
    assert [texts[f"digit-{i}"] for i in range(8)] == [f"{v:.2f}" for v in digits[0]] and not float(beta).is_integer()
    plt.close(ax.figure)
    ax = plots.plot_rotation_matrix()
    t = matrix_table(d["dim"], d["base"], [d["matrix_position"]])
    image = ax.images[0].get_array()
    np.testing.assert_allclose(np.asarray(image)[t["rows"], t["cols"]], t["blocks"][0])
    assert np.count_nonzero(np.asarray(image)) <= 2 * d["dim"]
    plt.close(ax.figure)
    ax = plots.plot_layouts(dim=8, pair=3)
    highlighted = sorted((round(line.get_xdata()[0]), round(line.get_xdata()[1])) for line in ax.lines
                         if line.get_linewidth() == 2)
    assert highlighted == [(6, 3), (7, 7)]
    plt.close(ax.figure)
