"""Python side of the widgets: their tables are rope_core's numbers, bad parameters fail clearly."""

from __future__ import annotations

import numpy as np
import pytest
import traitlets

import rope_core as rc
from rope_core import widgets as W
from rope_core.demos.context import EXTENSION_METHODS, example_rope_scaling

ALL = list(W.REGISTRY)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_widget_builds_with_defaults_and_stays_small(cls):
    widget = cls()
    assert widget.data, "the table is filled at construction"
    assert widget.state_size() <= 200_000, "embedded state must stay under 200 KB"
    assert "export default" in widget._esm and "render" in widget._esm


def test_rotation_explorer_table_is_rotate_2d():
    widget = W.RotationExplorer(thetas=(0.25, 0.7), max_position=10, q_angles_deg=(0, 45), lengths=(2.0,))
    data = widget.data
    for t, theta in enumerate(data["thetas"]):
        for m in (0, 3, 10):
            np.testing.assert_allclose(data["angle"][t][m], m * theta, atol=1e-6)
            np.testing.assert_allclose(data["cos"][t][m], np.cos(m * theta), atol=1e-6)
            np.testing.assert_allclose(data["sin"][t][m], np.sin(m * theta), atol=1e-6)
    for angle in (0.0, 45.0, 123.4):
        for t, theta in enumerate(data["thetas"]):
            widget.q_angle, widget.theta_index, widget.position = angle, t, 7
            q = 2.0 * np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
            np.testing.assert_allclose(widget.state()["rotated"], rc.rotate_2d(q, 7 * theta), atol=1e-12)


def test_relative_invariance_scores_are_relative_scores():
    widget = W.RelativeInvariance(q_angle_deg=10, k_angle_deg=200, theta=0.4, max_position=6)
    q, k = widget._q, widget._k
    for m, n, s in [(0, 0, 0), (2, 5, 1), (6, 1, 3), (6, 6, 6)]:
        widget.m, widget.n, widget.shift = m, n, s
        expected = q @ rc.rotate_2d(k, (n - m) * 0.4)   # q^T R_{n-m} k, whatever the shift
        assert abs(widget.state()["score"] - expected) < 1e-12
        assert abs(widget.state()["reference"] - expected) < 1e-12


def test_frequency_clocks_angles_and_marks():
    widget = W.FrequencyClocks(dims=(8,), bases=(100.0,), contexts=(10,), max_position=5)
    table = widget.data["tables"][0][0]
    theta = rc.inverse_frequencies(8, 100.0)
    # θ unrounded: the page draws each hand at m·θ_i mod 2π for m up to 10^5
    # (tests/test_widgets_spectrum_browser.py checks those angles against rope_core).
    np.testing.assert_allclose(table["theta"], theta, rtol=1e-15)
    assert widget.data["positions"] == [0, 1, 2, 3, 4, 5]
    assert table["beyond_context"][0] == [bool(w > 10) for w in rc.wavelengths(8, 100.0)]


def test_frequency_clocks_recompute_for_new_choices_in_a_kernel():
    widget = W.FrequencyClocks()
    widget.bases = [5000.0]
    assert widget.data["bases"] == [5000.0]
    np.testing.assert_allclose(widget.data["tables"][0][0]["theta"], rc.inverse_frequencies(8, 5000.0), atol=1e-6)


def test_heatmap_blocks_are_rope_matrix():
    """What the page draws at m: R(m theta_i) placed at (rows, cols), from the shipped theta."""
    widget = W.RotationMatrixHeatmap(dims=(6,), bases=(50.0,), max_position=4)
    layout, theta = widget.data["layouts"][0], np.array(widget.data["tables"][0][0]["theta"])
    rows, cols = np.array(layout["rows"]), np.array(layout["cols"])
    angle = 3 * theta[rows // 2]
    entries = np.where(rows % 2 == cols % 2, np.cos(angle), np.where(rows % 2 == 0, -np.sin(angle), np.sin(angle)))
    dense = np.zeros((6, 6))
    dense[rows, cols] = entries
    np.testing.assert_allclose(dense, rc.rope_matrix(3, 6, 50.0), atol=1e-12)
    np.testing.assert_allclose(dense @ layout["x"], rc.rope_matrix(3, 6, 50.0) @ np.tile([1.0, 0.0], 3), atol=1e-12)


def test_decay_series_match_rope_core():
    widget = W.DecayExplorer(dim=16, bases=(100.0,), max_distance=40, step=8, slider_step=16, samples=50)
    series = widget.data["series"][0]
    distances = np.arange(0, 41, 8)
    np.testing.assert_allclose(series["bound"], rc.long_term_decay_bound(distances, 16, 100.0), atol=1e-4)
    aligned = rc.relative_scores(np.ones(16), np.ones(16), [0], distances, base=100.0)[0] / 16
    np.testing.assert_allclose(series["pair"]["score"][0], aligned, atol=5e-4)   # k = q, to 3 decimals
    assert widget.data["stops"] == [0, 2, 4]


def test_context_extension_matches_inverse_frequencies():
    widget = W.ContextExtension(dim=32, factors=(1, 4), position_range=(128, 16384))
    for f, factor in enumerate((1, 4)):
        for method in EXTENSION_METHODS:
            entry = widget.data["per_factor"][f][method]
            scaling = example_rope_scaling(method, factor, 4096)
            theta = rc.inverse_frequencies(32, 10000.0, rope_scaling=scaling)
            np.testing.assert_allclose(entry["log10_wavelength"], np.log10(2 * np.pi / theta), atol=1e-6)
            assert entry["attention_factor"] == pytest.approx(rc.attention_factor(32, rope_scaling=scaling), abs=1e-6)
            # The page's slowest-pair turns at p, p / λ_last, from the log wavelength sent.
            positions = np.array(widget.positions, dtype=float)
            np.testing.assert_allclose(positions / 10.0 ** entry["log10_wavelength"][-1],
                                       positions * theta[-1] / (2 * np.pi), rtol=1e-8)


def test_layout_explorer_permutation():
    widget = W.LayoutExplorer(dims=(8,))
    table = widget.data["tables"][0]
    assert table["interleaved_to_half"] == [0, 2, 4, 6, 1, 3, 5, 7]
    assert table["half_pairs"][1] == [1, 5] and table["interleaved_pairs"][1] == [2, 3]


@pytest.mark.parametrize(
    "build, match",
    [
        (lambda: W.RotationExplorer(thetas=()), "thetas"),
        (lambda: W.RotationExplorer(thetas=(0.1, "a")), "thetas"),
        (lambda: W.RotationExplorer(max_position=0), "max_position"),
        (lambda: W.RotationExplorer(position=99), "position"),
        (lambda: W.RelativeInvariance(theta=-1.0), "theta"),
        (lambda: W.RelativeInvariance(m=1000), "m"),
        (lambda: W.FrequencyClocks(dims=(7,)), "dims"),
        (lambda: W.FrequencyClocks(dims=(128,)), "dims"),
        (lambda: W.FrequencyClocks(bases=(0.0,)), "bases"),
        (lambda: W.RotationMatrixHeatmap(dims=(64,)), "dims"),
        (lambda: W.DecayExplorer(dim=5), "dim"),
        (lambda: W.DecayExplorer(step=0), "step"),
        (lambda: W.DecayExplorer(step=4, slider_step=6), "slider_step"),
        (lambda: W.ContextExtension(factors=(0.5, 2)), "factors"),
        (lambda: W.ContextExtension(position_range=(1.5, 3)), "position_range"),
        (lambda: W.ContextExtension(position_range=(1024, 3000)), "position_range"),
        (lambda: W.ContextExtension(position_range=(1024,)), "position_range"),
        (lambda: W.ContextExtension(positions_per_octave=0), "positions_per_octave"),
        (lambda: W.LayoutExplorer(dims=(3,)), "dims"),
        (lambda: W.LayoutExplorer(pair=99), "pair"),
    ],
)
def test_bad_parameters_raise_naming_the_argument(build, match):
    with pytest.raises((ValueError, TypeError), match=match):
        build()


def _past_arcs(data, entry, position):
    """What the page computes at position p from the numbers sent (pastArcs in
    context_extension.js): the slow pairs with p·r_i > 1 + 1e-6, and the largest p·r_i."""
    ratios = position * np.array(entry["reach_per_token"])[data["slow"]]
    return int((ratios > 1 + 1e-6).sum()), float(ratios.max())


def _closed_form_ratios(method, factor, dim=128, base=10000.0, length=4096):
    """p theta'_i / (L theta_i) at p = factor * L, from each scheme's formula (no rope_core)."""
    i = np.arange(dim // 2)
    theta = base ** (-2 * i / dim)
    if method == "linear":          # PI divides every frequency by s
        scaled = theta / factor
    elif method == "ntk":           # NTK-aware raises the base to base * s^(d/(d-2))
        scaled = (base * factor ** (dim / (dim - 2))) ** (-2 * i / dim)
    elif method == "yarn":          # ramp over the pair index between the beta_fast=32 / beta_slow=1 turns
        pair_at = lambda turns: dim * np.log(length / (turns * 2 * np.pi)) / (2 * np.log(base))  # noqa: E731
        low, high = max(np.floor(pair_at(32)), 0), min(np.ceil(pair_at(1)), dim - 1)
        ramp = np.clip((i - low) / (high - low), 0, 1)
        scaled = theta / factor * ramp + theta * (1 - ramp)
    elif method == "llama3":        # bands in wavelength: > L interpolated, < L/4 kept, between smoothed
        wave = 2 * np.pi / theta
        smooth = np.clip((length / wave - 1.0) / (4.0 - 1.0), 0, 1)
        scaled = (1 - smooth) * theta / factor + smooth * theta
    else:
        raise AssertionError(method)
    slow = length * theta < 2 * np.pi
    return (factor * length * scaled / (length * theta))[slow]


@pytest.mark.parametrize("method, beyond, worst", [("ntk", 17, 1.75), ("linear", 0, 1.0),
                                                   ("yarn", 0, 1.0), ("llama3", 0, 1.0)])
def test_context_extension_counts_every_slow_pair_beyond_training(method, beyond, worst):
    # At s = 8 NTK-aware leaves 17 of the 18 slow pairs beyond the angles of training
    # (by up to 1.75x); PI, YaRN and Llama 3.1 leave none. The slowest pair alone shows nothing.
    ratios = _closed_form_ratios(method, 8)
    assert ratios.size == 18
    assert int((ratios > 1 + 1e-9).sum()) == beyond and round(ratios.max(), 2) == worst
    widget = W.ContextExtension()
    data = widget.data
    f = data["factors"].index(8)
    # The default state opens on the problem at p = L, with s = 8 ready for the next steps.
    assert (widget.factor_index, widget.position_index, widget.step_index) == (f, widget.positions.index(4096), 0)
    entry = data["per_factor"][f][method]
    assert data["slow_pairs"] == 18
    count, largest = _past_arcs(data, entry, 8 * 4096)
    assert count == beyond
    assert largest == pytest.approx(ratios.max(), abs=1e-6)
    assert round(largest, 2) == worst


@pytest.mark.parametrize("factor", [2, 4, 16, 32])
def test_context_extension_beyond_counts_at_every_position(factor):
    widget = W.ContextExtension(factors=(factor,))
    data = widget.data
    for method in ("linear", "ntk", "yarn", "llama3"):
        entry = data["per_factor"][0][method]
        at_extended = _closed_form_ratios(method, factor)
        for position in widget.positions:
            ratios = at_extended * position / (factor * 4096)
            count, largest = _past_arcs(data, entry, position)
            assert count == int((ratios > 1 + 1e-9).sum()), (method, position)
            assert largest == pytest.approx(ratios.max(), rel=1e-6), (method, position)
    # Without scaling every slow pair is beyond training at any position past L.
    entry = data["per_factor"][0]["default"]
    past = [_past_arcs(data, entry, p)[0] for p in widget.positions if p > 4096]
    assert len(past) == 5 * 64 and set(past) == {18}     # 5 doublings past L, 64 stops each


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_every_slider_trait_is_validated_on_every_change(cls):
    # Traits were once checked only at construction. Each slider in the widget's one
    # declarative spec refuses out-of-range values afterwards, with the trait's name, and the
    # widget keeps its state.
    widget = cls()
    assert widget._sliders, cls.__name__
    for name, stops in widget._sliders.items():
        before, data = getattr(widget, name), widget.data
        for bad in (10**6, stops(widget), -1, 1.5, True):
            # TraitError for a wrong type (traitlets' own check), ValueError for a wrong range.
            with pytest.raises((ValueError, traitlets.TraitError), match=name):
                setattr(widget, name, bad)
            assert getattr(widget, name) == before and widget.data is data
        setattr(widget, name, stops(widget) - 1)  # the last stop is accepted
        assert getattr(widget, name) == stops(widget) - 1
    # Every int trait synced to the page is a slider of the spec (none forgotten).
    synced = {n for n, t in widget.traits(sync=True).items() if isinstance(t, traitlets.Int) and not n.startswith("_")}
    assert synced == set(widget._sliders), cls.__name__


@pytest.mark.parametrize("name, bad", [("dims", [256]), ("dims", [7]), ("dims", []), ("bases", []),
                                       ("bases", [0.0]), ("bases", [-1.0, 100.0])])
def test_frequency_clocks_choices_validated_after_construction(name, bad):
    widget = W.FrequencyClocks()
    before, data = list(getattr(widget, name)), widget.data
    with pytest.raises((ValueError, traitlets.TraitError), match=name):
        setattr(widget, name, bad)
    assert getattr(widget, name) == before and widget.data is data
    widget.dims = [8, 64]  # a good change still recomputes, and stays under 200 KB
    assert widget.data["dims"] == [8, 64] and widget.state_size() < 200_000


# The model menu: every atlas model and layer type with RoPE.
MENU = [(name, layer_type) for name in rc.atlas.names() for layer_type in rc.atlas.specs(name)]
SCALED = ("linear", "ntk", "dynamic", "yarn", "llama3", "longrope")


def test_model_menu_offers_every_atlas_model_and_layer_type():
    widget = W.ContextExtension()
    offered = [(m["name"], m["layer_type"]) for m in widget.data["models"]]
    assert offered == MENU
    names = {name for name, _ in offered}
    assert {"llama-2-7b", "llama-3.1-8b", "qwen3-8b", "gemma-3-4b", "deepseek-v3", "gpt-oss-20b"} <= names
    assert ("gemma-3-4b", "sliding_attention") in offered and ("gemma-3-4b", "full_attention") in offered
    assert offered[widget.model_index] == ("llama-3.1-8b", None), "opens on Llama 3.1 8B"
    # Embedded state (tables, menu, module, styles) stays under the 200 KB budget.
    assert widget.state_size() <= 200_000, widget.state_size()


@pytest.mark.parametrize("name, layer_type", MENU, ids=[f"{n}-{t}" for n, t in MENU])
def test_model_menu_numbers_are_rope_core(name, layer_type):
    index = MENU.index((name, layer_type))
    shown = W.ContextExtension().data["models"][index]
    spec = rc.atlas.specs(name)[layer_type]
    context = spec.max_position_embeddings
    shipped = spec.frequencies_at(context)  # dynamic NTK / LongRoPE: the frequencies at that length
    turning = shipped > 0
    assert (shown["rope_type"], shown["base"], shown["rotary_dim"], shown["head_dim"]) == (
        spec.rope_type, spec.base, spec.rotary_dim, spec.head_dim)
    assert shown["context"] == context and shown["rotated_pairs"] == spec.rotated_pairs
    assert shown["factor"] == spec.rope_parameters.get("factor")
    got = np.array([np.nan if v is None else 10.0 ** v for v in shown["log10_wavelength"]])
    assert np.array_equal(np.isnan(got), ~turning)
    np.testing.assert_allclose(got[turning], 2 * np.pi / shipped[turning], rtol=1e-9)
    # Unscaled frequencies, as in training: base^(-2i/d) over the rotated dims (closed form).
    if spec.rope_type in SCALED:
        trained = spec.base ** (-np.arange(0, spec.rotary_dim, 2) / spec.rotary_dim)
        back = np.array([10.0 ** v for v in shown["log10_wavelength_trained"]])
        np.testing.assert_allclose(back, 2 * np.pi / trained, rtol=1e-9)
    else:
        trained = shipped
        assert shown["log10_wavelength_trained"] is None
    training = spec.original_max_position_embeddings
    if training is None and spec.rope_type not in SCALED:
        training = context
    assert shown["training"] == training
    if training is None:
        slow = turning & (context * shipped < 2 * np.pi)
    else:
        slow = turning & (training * trained < 2 * np.pi)
    assert shown["slow"] == np.flatnonzero(slow).tolist()
    if training is None or context <= training or not slow.any():
        assert shown["beyond"] is None
    else:
        ratio = context * shipped[slow] / (training * trained[slow])
        assert shown["beyond"] == int((ratio > 1 + 1e-9).sum())
        assert shown["worst"] == pytest.approx(ratio.max(), rel=1e-6)
    scale = np.ones_like(shipped)
    scale[turning] = trained[turning] / shipped[turning]
    for i in np.flatnonzero(turning):
        expected = 0 if abs(scale[i] - 1) <= 1e-9 else 2 if abs(scale[i] - scale.max()) <= 1e-9 * scale.max() else 1
        assert shown["band"][i] == expected, (i, scale[i])


def test_model_menu_worked_numbers():
    # Llama 3.1 8B ships factor 8 from 8192 tokens for 131 072 positions (16x): its 29 slow pairs
    # reach twice their trained angles there. DeepSeek-V3 (x40 from 4096 to 163 840) and
    # gpt-oss (x32 from 4096 to 131 072) bring every slow pair back.
    by_key = {(m["name"], m["layer_type"]): m for m in W.ContextExtension().data["models"]}
    llama = by_key[("llama-3.1-8b", None)]
    assert (len(llama["slow"]), llama["beyond"]) == (29, 29) and llama["worst"] == pytest.approx(2.0)
    assert by_key[("deepseek-v3", None)]["beyond"] == 0
    assert by_key[("gpt-oss-20b", "full_attention")]["beyond"] == 0
    # Gemma 4's proportional RoPE: 64 of the 256 pairs turn, the slowest in about 188 tokens.
    gemma = by_key[("gemma-4", "full_attention")]
    assert gemma["rotated_pairs"] == 64 and gemma["pairs"] == 256
    assert 10 ** max(v for v in gemma["log10_wavelength"] if v is not None) == pytest.approx(188, abs=1)


@pytest.mark.parametrize("build, match", [
    (lambda: W.ContextExtension(models=("no-such-model",)), "models"),
    (lambda: W.ContextExtension(models=()), "models"),
    (lambda: W.ContextExtension(models="llama-2-7b"), "models"),
    (lambda: W.ContextExtension(model_index=999), "model_index"),
])
def test_model_menu_bad_parameters(build, match):
    with pytest.raises(ValueError, match=match):
        build()


def test_registry_is_every_widget_and_the_gallery_shows_it_in_order():
    from pathlib import Path

    classes = {name for name in W.__all__ if isinstance(getattr(W, name), type)}
    assert {cls.__name__ for cls in W.REGISTRY} == classes and len(W.REGISTRY) == len(classes)
    gallery = (Path(__file__).resolve().parents[1] / "book" / "gallery.md").read_text()
    import re

    assert re.findall(r"^widgets\.(\w+)\(", gallery, flags=re.M) == [cls.__name__ for cls in W.REGISTRY]


def test_relative_invariance_rotated_vectors_closed_form():
    # Found by scripts/mutate_widgets.py: a 1 % error in the rotated k drawn on the page passed.
    widget = W.RelativeInvariance(q_angle_deg=20.0, k_angle_deg=75.0, q_length=1.0, k_length=0.8, theta=0.3)
    for s in range(widget._max_position + 1):
        widget.shift = s
        for key, deg, length, base in (("rotated_q", 20.0, 1.0, widget.m), ("rotated_k", 75.0, 0.8, widget.n)):
            angle = np.radians(deg) + 0.3 * (base + s)
            np.testing.assert_allclose(widget.state()[key], length * np.array([np.cos(angle), np.sin(angle)]), atol=1e-12)


def test_frequency_clocks_wavelengths_closed_form():
    # Found by scripts/mutate_widgets.py: a 1 % error in the wavelength read-out passed.
    widget = W.FrequencyClocks()
    for dim, per_base in zip(widget.data["dims"], widget.data["tables"]):
        for base, entry in zip(widget.data["bases"], per_base):
            expected = 2 * np.pi * base ** (np.arange(0, dim, 2) / dim)
            np.testing.assert_allclose(entry["wavelength"], expected, atol=1e-3 + 1e-9, rtol=0)


def test_context_extension_opens_on_any_step_and_refuses_others():
    assert W.ContextExtension(step="bands").step_index == 2
    assert W.ContextExtension(step=3).step_index == 3
    for bad in ("nope", 4, True, 1.0):
        with pytest.raises(ValueError, match="step"):
            W.ContextExtension(step=bad)


def test_model_menu_says_whether_each_model_was_trained_with_its_scaling():
    # From the atlas, with its source; only for layer types whose frequencies are scaled.
    data = W.ContextExtension().data
    for entry in data["models"]:
        atlas_entry = rc.atlas.entry(entry["name"])
        if entry["rope_type"] in rc.atlas.SCALED_ROPE_TYPES:
            assert entry["scaling_trained"] == atlas_entry.scaling_trained, entry["name"]
        else:
            assert entry["scaling_trained"] is None, entry["name"]
        assert (entry["scaling_source"] is None) == (entry["scaling_trained"] is None)
    llama = next(e for e in data["models"] if e["name"] == "llama-3.1-8b")
    assert llama["scaling_trained"] is True and llama["beyond"] == 29


def test_layout_scores_refuse_bad_distances():
    from rope_core.demos.spectrum import layout_scores
    for bad in ([], [0.5, 1.0], [[1, 2]]):
        with pytest.raises(ValueError, match="distances"):
            layout_scores(8, 1e4, bad)
