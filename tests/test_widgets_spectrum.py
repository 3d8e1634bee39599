"""The spectrum demos layer (rope_core.demos.spectrum) and the three widgets and views drawing it.

The tables are checked against closed forms written out here (θ_i = b^(-2i/d), the 2 × 2
block [[cos, −sin], [sin, cos]], the pairs (2i, 2i+1) and (i, i + d/2)), not against the
functions they are built from; then each widget's data and each static view against its table.
"""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest
from _chapter_figures import draw_figure

import rope_core as rc
from rope_core import plots
from rope_core import widgets as W
from rope_core.demos.spectrum import (
    SPECTRUM_DEFAULTS,
    clock_positions,
    clock_table,
    layout_scores,
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
    assert clocks.data["positions"] == clock_positions(100_000, include=clocks.data["contexts"]).tolist()
    assert clocks.state_size() < 200_000
    for dim, per_base in zip(clocks.data["dims"], clocks.data["tables"]):
        for base, entry in zip(clocks.data["bases"], per_base):
            t = clock_table(dim, base, [0], clocks.data["contexts"])
            assert entry["theta"] == t["theta"].tolist()  # unrounded
            assert entry["beyond_context"] == t["beyond_context"].tolist()
    heatmap = W.RotationMatrixHeatmap()
    assert heatmap.state_size() < 40_000
    for dim, per_base, layout in zip(heatmap.data["dims"], heatmap.data["tables"], heatmap.data["layouts"]):
        t = matrix_table(dim, 100.0, [0])
        assert layout["rows"] == t["rows"].tolist() and layout["cols"] == t["cols"].tolist()
        for base, entry in zip(heatmap.data["bases"], per_base):
            assert entry["theta"] == rc.inverse_frequencies(dim, base).tolist()  # unrounded
            np.testing.assert_allclose(entry["wavelength"], rc.wavelengths(dim, base), rtol=0, atol=5e-7)
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


def test_frequency_clocks_open_on_the_chapters_decimal_toy_head():
    # The default frame's odometer must spell m in decimal: d = 8 at base 10^4, beta = 10.
    w, d = W.FrequencyClocks(), SPECTRUM_DEFAULTS
    table = w.data["tables"][w.dim_index][w.base_index]
    assert (w.dims[w.dim_index], w.bases[w.base_index]) == (d["dim"], d["base"]) == (8, 10000.0)
    assert (w.data["positions"][w.position], w.data["contexts"][w.context_index]) == (d["position"], d["context"])
    assert table["digit_base"] == 10.0
    digits, _ = position_digits([d["position"]], d["dim"], d["base"])
    assert "".join(str(int(v)) for v in digits[0][::-1]) == f"{d['position']:04d}"


def test_chapter_5_clocks_figure_is_the_widgets_question_and_answer():
    # The print twin of the widget's default frame: the toy head at m = 10 and at m = L, the
    # caption's numbers read off the drawn figure.
    fig, caption, alt, tags = draw_figure("05-d-dimensions.md", "fig-ch05-clocks")
    assert "print-only" in tags
    table = clock_table(8, 10000.0, [10, 256], [256])
    for ax, m, row in zip(fig.axes, (10, 256), table["turns"]):
        texts = {t.get_gid(): t.get_text() for t in ax.texts if t.get_gid()}
        spelled = "".join(texts[f"digit-{i}"] for i in (3, 2, 1, 0))
        assert spelled == f"{m:04d}" and spelled in caption and " ".join(spelled) in alt
        assert [texts[f"turns-{i}"] for i in range(4)] == [f"{v:.3g} turns" for v in row]
        turned = int((row >= 1).sum())
        assert f"{turned} of 4 hands has" in alt or f"{turned} of 4 hands have" in alt
        assert ax.get_title().startswith(f"$m$ = {m}: {turned} of 4 hands")
    waves = re.search(r"wavelengths of ([\d ]+) and ([\d ]+) tokens", caption)
    turns = re.search(r"turned ([\d.]+) and ([\d.]+) times, hands 2 and 3 only ([\d.]+) and ([\d.]+) of a turn", caption)
    assert waves and turns, caption
    wave = table["wavelength"]
    assert [int(v.replace(" ", "")) for v in waves.groups()] == [round(wave[2]), round(wave[3])]
    assert [float(v) for v in turns.groups()] == [float(f"{v:.3g}") for v in table["turns"][1]]
    assert list(table["beyond_context"][0]) == [False, False, True, True]


def test_chapter_5_matrix_figure_is_the_widget_at_its_first_position_and_the_questions():
    widget = W.RotationMatrixHeatmap()
    dim, base = widget.data["dims"][widget.dim_index], widget.data["bases"][widget.base_index]
    first, last = widget.data["positions"][widget.position], widget.data["question"]
    fig, caption, alt, tags = draw_figure("05-d-dimensions.md", "fig-ch05-matrix")
    assert "print-only" in tags and (dim, base, first, last) == (8, 10000.0, 1, 32)
    assert f"$d = {dim}$ head" in caption and f"$m = {first}$ (left)" in caption and f"$m = {last}$ (right)" in caption
    for ax, m in zip(fig.axes, (first, last)):
        check_matrix_view(ax, m, dim, base)   # closes the figure after the last panel
    angles = matrix_table(dim, base, [first, last])["angle"]
    listed = re.search(r"the dials read ([\d.]+), ([\d.]+), ([\d.]+) and ([\d.]+) rad", caption)
    ends = re.search(r"the top block has turned ([\d.]+) rad, more than (\w+) turns, and the bottom block ([\d.]+) rad", caption)
    assert listed and ends, caption
    assert [float(v) for v in listed.groups()] == [float(f"{a:.3g}") for a in angles[0]]
    assert float(ends.group(1)) == float(f"{angles[1][0]:.3g}") and float(ends.group(3)) == float(f"{angles[1][-1]:.3g}")
    assert ends.group(2) == "five" and 5 < angles[1][0] / (2 * np.pi) < 6
    assert angles[1][-1] < 0.1 <= angles[1][-2]   # only the bottom block is still nearly I
    assert " and ".join(f"{a:.3g}" for a in angles[1][-2:]) + " rad" in alt


def test_chapter_6_layout_figure_says_what_it_draws():
    widget = W.LayoutExplorer()
    dim, pair = widget.data["dims"][widget.dim_index], widget.pair
    fig, caption, alt, tags = draw_figure("07-computing-fast.md", "fig-ch06-layouts")
    assert "print-only" in tags and f"for $d = {dim}$" in caption and f"pair {pair} is features" in caption
    (ax,) = fig.axes
    texts = {t.get_gid(): t.get_text().replace("\u2212", "minus ") for t in ax.texts if t.get_gid()}
    for row in ("interleaved", "half", "rotated"):
        assert ", ".join(texts[f"{row}-{j}"] for j in range(dim)) in alt, row
    table = layout_table(dim, widget.data["base"])
    inter, half = table["interleaved_pairs"][pair], table["half_pairs"][pair]
    assert f"$({inter[0]}, {inter[1]})$ interleaved and $({half[0]}, {half[1]})$ half" in caption
    curves = layout_scores(dim, widget.data["base"], range(-16, 17))
    r = curves["distances"]
    trained, wrong = int(np.argmax(curves["trained"])), int(np.argmax(curves["wrong"]))
    said = re.search(r"peaks at \$n - m = (-?\d+)\$ with ([\d.]+);.*peak moves to \$n - m = (-?\d+)\$ \(([\d.]+)\), "
                     r"and at \$(-?\d+)\$ it is ([\d.]+)\.", caption)
    assert said, caption
    assert [int(said.group(k)) for k in (1, 3, 5)] == [r[trained], r[wrong], r[trained]]
    assert [float(said.group(k)) for k in (2, 4, 6)] == [round(curves["trained"][trained], 2),
                                                          round(curves["wrong"][wrong], 2),
                                                          round(curves["wrong"][trained], 2)]
    assert f"peaks at {said.group(4)} at n minus m = {said.group(3)}" in alt
    check_layout_view(ax, dim, pair)


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
    t = matrix_table(d["matrix_dim"], d["base"], [d["matrix_position"]])
    image = ax.images[0].get_array()
    np.testing.assert_allclose(np.asarray(image)[t["rows"], t["cols"]], t["blocks"][0])
    assert np.count_nonzero(np.asarray(image)) <= 2 * d["matrix_dim"]
    plt.close(ax.figure)
    for dim, pair in ((8, 3), (8, 1), (16, 6)):
        check_layout_view(plots.plot_layouts(dim=dim, pair=pair), dim, pair)
    ax = plots.plot_layouts(dim=8, pair=3, heads=False)
    assert not ax.child_axes
    plt.close(ax.figure)
    bare = plots.plot_rotation_matrix(position=5, dim=8, base=100.0, vector=False)   # a panel beside others
    t = matrix_table(8, 100.0, [5])
    assert len(bare.images) == 1 and not bare.lines
    np.testing.assert_allclose(np.asarray(bare.images[0].get_array())[t["rows"], t["cols"]], t["blocks"][0])
    plt.close(bare.figure)
    for dim, base, m in ((8, 10000.0, 32), (16, 100.0, 7), (4, 10000.0, 0)):
        check_matrix_view(plots.plot_rotation_matrix(position=m, dim=dim, base=base), m, dim, base)


def check_layout_view(ax, dim, pair):
    """The layout view read back: x = (1 .. d), P x and rotate_half(P x) in the boxes (negative
    numbers bold), the pair's lines through both steps bold, and the score panel (the attention
    panel: tests/test_views_6P.py): the trained
    head's curve peaking at n - m = -1 and the wrong layout's curve, each peak marked and named."""
    t = layout_table(dim, 10000.0)
    x = np.arange(1, dim + 1)
    perm = np.concatenate([np.arange(0, dim, 2), np.arange(1, dim, 2)])   # (P x)_j = x_perm[j]
    swapped = np.concatenate([-x[perm][dim // 2:], x[perm][:dim // 2]])   # rotate_half
    texts = {t.get_gid(): t for t in ax.texts if t.get_gid()}
    for row, want in (("interleaved", x), ("half", x[perm]), ("rotated", swapped)):
        shown = [texts[f"{row}-{j}"] for j in range(dim)]
        assert [float(v.get_text().replace("\u2212", "-")) for v in shown] == want.tolist(), row
        assert [v.get_fontweight() == "bold" for v in shown] == (want < 0).tolist(), row
    np.testing.assert_array_equal(t["rotated_half"], swapped)
    inter, half = [2 * pair, 2 * pair + 1], [pair, pair + dim // 2]
    bold = sorted((round(line.get_xdata()[0]), round(line.get_xdata()[1])) for line in ax.lines
                  if line.get_linewidth() > 2)
    steps = [(int(perm[j]), j) for j in range(dim) if perm[j] in inter]
    steps += [(j + dim // 2 if j < dim // 2 else j - dim // 2, j) for j in range(dim)
              if (j + dim // 2 if j < dim // 2 else j - dim // 2) in half]
    assert bold == sorted(steps), (bold, steps)
    (inset,) = [child for child in ax.child_axes if child.get_gid() == "scores"]
    curves = layout_scores(dim, 10000.0, range(-16, 17))
    lines = {line.get_gid(): line for line in inset.lines if line.get_gid()}
    for key in ("trained", "wrong"):
        np.testing.assert_allclose(lines[key].get_ydata(), curves[key])
        best = int(np.argmax(curves[key]))
        assert lines[f"peak-{key}"].get_xdata()[0] == curves["distances"][best]
        peak = str(curves["distances"][best]).replace("-", "\u2212")
        assert f"peak at $n - m$ = {peak} (" in lines[key].get_label(), lines[key].get_label()
    assert curves["distances"][np.argmax(curves["trained"])] == -1
    plt.close(ax.figure)


def check_matrix_view(ax, m, dim, base):
    """The heat map view read back: R_m, x and R_m x as images, one dial per pair whose hand
    points at m·θ_i with the angle written beside it, the same turn inside each block, and the
    blocks still within 0.1 rad of the identity named in the title."""
    t = matrix_table(dim, base, [m])
    matrix, x, rx = (np.asarray(image.get_array()) for image in ax.images)
    np.testing.assert_allclose(matrix[t["rows"], t["cols"]], t["blocks"][0])
    np.testing.assert_array_equal(x[:, 0], t["x"])
    np.testing.assert_allclose(rx[:, 0], t["rotated"][0])
    theta = closed_theta(dim, base)
    dials = {line.get_gid(): line for line in ax.lines if (line.get_gid() or "").startswith("dial-")}
    assert len(dials) == dim // 2
    texts = {t.get_gid(): t.get_text() for t in ax.texts if t.get_gid()}
    for i in range(dim // 2):
        xs, ys = dials[f"dial-{i}"].get_xdata(), dials[f"dial-{i}"].get_ydata()
        drawn = np.arctan2(-(ys[1] - ys[0]), xs[1] - xs[0])   # the axes' y grows downwards
        assert abs(np.angle(np.exp(1j * (drawn - m * theta[i])))) < 1e-9
        assert texts[f"dial-angle-{i}"].startswith(f"{m * theta[i]:.3g} rad")
        assert texts[f"dial-angle-{i}"].endswith("≈ I") == (m * theta[i] < 0.1)
        # The same turn drawn inside block i, from the block's centre.
        turn = next(line for line in ax.lines if line.get_gid() == f"block-turn-{i}")
        xs, ys = turn.get_xdata(), turn.get_ydata()
        assert (xs[0], ys[0]) == (2 * i + 0.5, 2 * i + 0.5)
        assert abs(np.angle(np.exp(1j * (np.arctan2(-(ys[1] - ys[0]), xs[1] - xs[0]) - m * theta[i])))) < 1e-9
    still = np.flatnonzero(m * theta < 0.1)
    title = ax.get_title()
    if still.size > 1:
        assert title.endswith(f"blocks {still[0]}–{still[-1]} still ≈ I"), title
    elif still.size == 1:
        assert title.endswith(f"block {still[0]} still ≈ I"), title
    else:
        assert "≈" not in title
    plt.close(ax.figure)


def test_clock_slider_lands_on_every_context_length():
    # The clocks ask what happens at m = L: each L offered is a stop of the position slider.
    widget = W.FrequencyClocks()
    assert set(widget.data["contexts"]) <= set(widget.data["positions"])
    assert 256 in clock_positions(100_000, include=[256]) and 10**6 not in clock_positions(1000, include=[10**6])
    with pytest.raises(ValueError, match="include"):
        clock_positions(100, include=[-1])
