"""The chapter-summary figures of chapters 8-14 draw rope_core's numbers, not made-up ones."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

import rope_core
from rope_core import atlas, plots
from rope_core.bounds import expected_logit
from rope_core.multimodal import axial_rope_2d

pytestmark = pytest.mark.usefixtures("render_and_close_figures")


def cosine_sum(r, dim, base):
    theta = rope_core.inverse_frequencies(dim, base)
    return np.cos(np.asarray(r, dtype=float)[:, None] * theta).sum(axis=1)


def test_first_negative_distance_is_where_the_cosine_sum_first_drops_below_zero():
    first = plots.first_negative_distance(128, 10000.0, 20000)
    sums = cosine_sum(np.arange(first + 1), 128, 10000.0)
    assert np.all(sums[:-1] >= 0) and sums[-1] < 0
    assert plots.first_negative_distance(128, 10000.0, first - 1) is None


def test_correlated_score_figure_draws_the_normalised_cosine_sum_per_base():
    fig, ax = plots.new_figure()
    assert plots.plot_correlated_score_by_distance(64, (1e4, 1e5), 50000, ax=ax) is ax
    curves = [line for line in ax.lines if len(line.get_xdata()) > 2]
    assert len(curves) == 2
    for line, base in zip(curves, (1e4, 1e5)):
        r = line.get_xdata()
        assert r[0] == 1 and r[-1] == 50000
        np.testing.assert_allclose(line.get_ydata(), cosine_sum(r, 64, base) / 32, atol=1e-12)
        np.testing.assert_allclose(line.get_ydata(),
                                   expected_logit(r, 64, base=base, correlation=1.0) / 64)
    markers = [line.get_xdata()[0] for line in ax.lines if line.get_linestyle() == ":"]
    assert markers == [plots.first_negative_distance(64, b, 50000) for b in (1e4, 1e5)]
    zero = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert len(zero) == 1 and np.all(np.asarray(zero[0].get_ydata()) == 0)


def test_trained_arc_reach_matches_the_definition():
    reach = plots.trained_arc_reach(8.0, 128, 10000.0, 4096)
    theta = rope_core.inverse_frequencies(128, 10000.0)
    slow = 2 * np.pi / theta > 4096
    np.testing.assert_allclose(reach["no scaling"][slow], 8.0)
    np.testing.assert_array_equal(reach["no scaling"][~slow], 1.0)
    for label in ("linear (PI)", "YaRN", "Llama 3.1"):
        assert np.all(reach[label] <= 1 + 1e-12), label
    ntk = reach["NTK-aware"]
    assert int(np.sum(ntk[slow] > 1 + 1e-9)) == 17 and abs(ntk.max() - 1.75) < 0.005


def test_trained_arc_reach_figure_draws_every_scheme():
    ax = plots.plot_trained_arc_reach(8.0, 128, 10000.0, 4096)
    reach = plots.trained_arc_reach(8.0, 128, 10000.0, 4096)
    assert [line.get_label() for line in ax.lines] == list(reach)
    for line, values in zip(ax.lines, reach.values()):
        np.testing.assert_array_equal(line.get_ydata(), values)


def test_slowest_wavelengths_come_from_the_atlas_specs():
    rows = {row["name"]: row for row in plots.slowest_wavelengths()}
    llama2 = atlas.specs("llama-2-7b")[None]
    assert rows["llama-2-7b"]["context"] == 4096 and not rows["llama-2-7b"]["scaled"]
    np.testing.assert_allclose(rows["llama-2-7b"]["wavelength"],
                               2 * np.pi / rope_core.inverse_frequencies(128, 10000.0)[-1])
    assert llama2.base == 10000.0
    assert rows["llama-3.1-8b"]["scaled"]
    np.testing.assert_allclose(rows["llama-3.1-8b"]["wavelength"],
                               2 * np.pi / atlas.specs("llama-3.1-8b")[None].inverse_frequencies.min())
    assert "llama-4-scout" not in rows      # its only rotating layers are chunked windows


def test_slowest_wavelength_figure_plots_every_row_and_names_those_near_the_line():
    ax = plots.plot_slowest_wavelengths()
    rows = plots.slowest_wavelengths()
    plotted = np.concatenate([c.get_offsets() for c in ax.collections])
    expected = [(r["context"], r["wavelength"]) for r in rows if not r["scaled"]]
    expected += [(r["context"], r["wavelength"]) for r in rows if r["scaled"]]
    np.testing.assert_allclose(plotted, expected)
    named = {t.get_text() for t in ax.texts}
    assert named == {r["title"] for r in rows if r["wavelength"] < 2 * r["context"]}
    assert "Gemma 4 (class defaults)" in named


def test_rope_share_counts_layers_and_rotated_features():
    rows = {row["title"]: row for row in plots.rope_share()}
    assert len(rows) == len(atlas.names()) + len(atlas.ARCHITECTURES)
    assert rows["Llama 2 7B"] == {"title": "Llama 2 7B", "year": 2023, "layers": 1.0, "features": 1.0}
    assert rows["GPT-J 6B"]["features"] == pytest.approx(64 / 256)
    assert rows["Qwen3-Next 80B-A3B"]["layers"] == pytest.approx(1 / 4)
    assert rows["Qwen3-Next 80B-A3B"]["features"] == pytest.approx(1 / 16)
    assert rows["Jamba v0.1"]["layers"] == 0 and rows["Kimi Linear 48B-A3B"]["features"] == 0
    assert rows["Llama 4 Scout"]["layers"] == pytest.approx(3 / 4)
    years = [row["year"] for row in plots.rope_share()]
    assert years == sorted(years)


def test_rope_share_figure_draws_one_pair_of_bars_per_model():
    ax = plots.plot_rope_share()
    rows = plots.rope_share()
    layers, features = ax.containers
    np.testing.assert_allclose([bar.get_width() for bar in layers], [r["layers"] for r in rows])
    np.testing.assert_allclose([bar.get_width() for bar in features], [r["features"] for r in rows])
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0].startswith(rows[0]["title"]) and len(labels) == len(rows)


def test_cache_shift_figure_rerotated_keys_match_fresh_ones_and_stale_ones_do_not():
    ax = plots.plot_cache_shift(dim=16, n_keys=10, evicted=3, seed=4)
    fresh, stale, moved = (line.get_ydata() for line in ax.lines[:3])
    rng = np.random.default_rng(4)
    q, keys = rng.standard_normal(16), rng.standard_normal((10, 16))
    query = rope_core.apply_rope(q[None], [7], layout="half")[0]
    by_hand = rope_core.apply_rope(keys[3:], np.arange(7), layout="half") @ query
    np.testing.assert_allclose(fresh, by_hand, atol=1e-12)
    np.testing.assert_allclose(moved, by_hand, atol=1e-12)
    assert np.all(np.abs(stale - by_hand) > 1e-6)
    np.testing.assert_array_equal(ax.lines[0].get_xdata(), np.arange(7))


def test_cache_shift_rejects_an_eviction_of_everything():
    with pytest.raises(ValueError, match="evicted"):
        plots.plot_cache_shift(n_keys=4, evicted=4)


def test_bug_error_table_writes_each_relative_error():
    implementations = {
        "correct": lambda x, p: rope_core.apply_rope(x, p, layout="half"),
        "interleaved": lambda x, p: rope_core.apply_rope(x, p, layout="interleaved"),
        "base ignored": (lambda x, p: rope_core.apply_rope(x, p, layout="half"), {"base": 5e5}),
    }
    ax = plots.plot_bug_errors(implementations, dim=16, positions=(0, 7, 1000), n_vectors=3, seed=2)
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 9
    assert texts[:3] == ["0", "0", "0"] and texts[3] == "0" and texts[6] == "0"
    x = np.random.default_rng(2).standard_normal((3, 16))
    right = rope_core.apply_rope(x, [7] * 3, base=5e5, layout="half")
    wrong = rope_core.apply_rope(x, [7] * 3, layout="half")
    error = np.max(np.linalg.norm(wrong - right, axis=-1) / np.linalg.norm(right, axis=-1))
    assert texts[7] == f"{error:.0e}".replace("e-0", "e-").replace("e+00", "")
    assert [t.get_text() for t in ax.get_yticklabels()] == list(implementations)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "7", "1 000"]


def test_bug_error_table_needs_an_implementation():
    with pytest.raises(ValueError, match="implementations"):
        plots.plot_bug_errors({})


def test_offset_only_maps_are_one_map_moved_with_the_query():
    axes = plots.plot_offset_only_2d(queries=((2, 3), (6, 8)), size=11, dim=16, base=100.0)
    first, second = (ax.images[0].get_array() for ax in axes)
    np.testing.assert_allclose(second[4:, 5:], first[:7, :6], atol=1e-10)   # moved by (4, 5)
    unit = np.concatenate([np.ones(8), np.zeros(8)])
    key = axial_rope_2d(unit[None], [0], [10], base=100.0)[0]
    query = axial_rope_2d(unit[None], [2], [3], base=100.0)[0]
    np.testing.assert_allclose(first[0, 10], key @ query)
    assert first[2, 3] == pytest.approx(8.0) and first.max() == pytest.approx(8.0)
    np.testing.assert_array_equal(axes[1].lines[0].get_xydata(), [[8, 6]])


def test_offset_only_needs_one_axes_per_query():
    _, axes = plots.new_figure(1, 3)
    with pytest.raises(ValueError, match="axes"):
        plots.plot_offset_only_2d(queries=((0, 0), (1, 1)), axes=axes)


def test_every_atlas_model_but_gemma_4_keeps_its_slowest_pair_beyond_its_context():
    # chapter 10's summary figure says so in its caption
    below = {row["name"] for row in plots.slowest_wavelengths() if row["wavelength"] <= row["context"]}
    assert below == {"gemma-4"}


def test_rope_share_groups_named_in_chapter_11_summary_caption():
    rows = {row["title"]: row for row in plots.rope_share()}
    for title in ("Command R7B", "Llama 4 Scout", "Llama 4 Maverick", "SmolLM3 3B"):
        assert rows[title]["features"] == pytest.approx(3 / 4), title
    for title in ("GPT-J 6B", "GPT-NeoX 20B", "DeepSeek-V3", "DeepSeek-V2-Lite"):
        assert rows[title]["layers"] == 1 and 0.2 <= rows[title]["features"] <= 1 / 3 + 1e-12, title
    assert rows["Qwen3.5 (class defaults)"]["features"] == pytest.approx(1 / 16)
    assert 0.5 < rows["Gemma 4 (class defaults)"]["features"] < 1
