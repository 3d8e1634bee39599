"""The decay and context-extension demos (rope_core.demos): one table for the widget and its
static view, checked against each scheme's closed form (not against rope_core's own calls)."""

from __future__ import annotations

import inspect
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

import rope_core as rc
from rope_core import plots
from rope_core import widgets as W
from rope_core.demos import context, decay


def closed_form_scaled(method, factor, dim, base, length):
    r"""theta'_i of each scheme from its published formula, in plain numpy."""
    i = np.arange(dim // 2)
    theta = base ** (-2 * i / dim)
    if method == "default" or factor == 1:
        return theta
    if method == "linear":          # Position Interpolation divides every frequency by s
        return theta / factor
    if method == "ntk":             # NTK-aware: base -> base * s^(d/(d-2))
        return (base * factor ** (dim / (dim - 2))) ** (-2 * i / dim)
    if method == "yarn":            # ramp over the pair index between beta_fast = 32 and beta_slow = 1 turns
        def pair_at(turns):
            return dim * np.log(length / (turns * 2 * np.pi)) / (2 * np.log(base))
        low, high = max(np.floor(pair_at(32)), 0), min(np.ceil(pair_at(1)), dim - 1)
        ramp = np.clip((i - low) / max(high - low, 1e-3), 0, 1)
        return theta / factor * ramp + theta * (1 - ramp)
    if method == "llama3":          # wavelength bands: > L interpolated, < L/4 kept, smooth between
        smooth = np.clip((length * theta / (2 * np.pi) - 1.0) / (4.0 - 1.0), 0, 1)
        return (1 - smooth) * theta / factor + smooth * theta
    raise AssertionError(method)


def closed_form_bands(theta, scaled, rtol=1e-9):
    ratio = theta / scaled
    return np.array([0 if abs(r - 1) <= rtol else 2 if abs(r - ratio.max()) <= rtol * ratio.max() else 1
                     for r in ratio])


def random_settings(rng, count=50):
    """(dim, base, L, factor, position) draws for the property tests."""
    for _ in range(count):
        yield (int(rng.choice([32, 64, 96, 128, 256])), float(10 ** rng.uniform(3, 6.5)),
               int(rng.choice([512, 2048, 4096, 8192, 32768])), float(rng.choice([1, 1.5, 2, 4, 8, 16, 32, 40])),
               int(rng.integers(1, 300_000)))


# --- rope_core.demos.context -------------------------------------------------------------

def test_defaults_live_in_one_place():
    widget_defaults = inspect.signature(W.ContextExtension.__init__).parameters
    view_defaults = inspect.signature(plots.plot_context_extension).parameters
    for key, value in context.CONTEXT_DEFAULTS.items():
        assert widget_defaults[key].default == value, key
        if key in view_defaults:
            assert view_defaults[key].default == value, key
    table = context.context_extension_table()
    assert table["dim"] == 128 and table["training_length"] == 4096 and list(table["factors"]) == [1, 2, 4, 8, 16, 32]
    decay_widget = inspect.signature(W.DecayExplorer.__init__).parameters
    decay_view = inspect.signature(plots.plot_decay).parameters
    for key, value in decay.DECAY_DEFAULTS.items():
        assert decay_widget[key].default == value, key
        if key in decay_view:
            assert decay_view[key].default == value, key


def test_every_scheme_at_random_settings_equals_its_closed_form(rng):
    methods = list(context.EXTENSION_METHODS)
    for dim, base, length, factor, position in random_settings(rng):
        table = context.context_extension_table(dim, base, length, [factor], [position])
        theta = base ** (-2 * np.arange(dim // 2) / dim)
        np.testing.assert_allclose(table["theta"], theta, rtol=1e-12)
        np.testing.assert_allclose(table["turns_in_training"], length * theta / (2 * np.pi), rtol=1e-12)
        slow = length * theta < 2 * np.pi
        assert np.array_equal(table["slow"], slow)
        for method in methods:
            row = table["per_factor"][0][method]
            scaled = closed_form_scaled(method, factor, dim, base, length)
            where = (dim, base, length, factor, position, method)
            np.testing.assert_allclose(row["scaled"], scaled, rtol=1e-9, err_msg=str(where))
            np.testing.assert_allclose(row["wavelength"], 2 * np.pi / scaled, rtol=1e-9)
            np.testing.assert_allclose(row["ratio"], theta / scaled, rtol=1e-9)
            assert row["band"].tolist() == closed_form_bands(theta, scaled).tolist(), where
            reach = position * scaled / (length * theta)
            np.testing.assert_allclose(position * row["reach_per_token"], reach, rtol=1e-9)
            np.testing.assert_allclose(row["slowest_turns"], [position * scaled[-1] / (2 * np.pi)], rtol=1e-9)
            assert row["beyond_count"].tolist() == [int((reach[slow] > 1 + 1e-9).sum())], where
            assert row["worst_ratio"][0] == pytest.approx(reach[slow].max() if slow.any() else 0.0, rel=1e-9)
            expected_attention = 0.1 * math.log(factor) + 1 if method == "yarn" and factor > 1 else 1.0
            assert row["attention_factor"] == pytest.approx(expected_attention, rel=1e-12), where


def test_bands_teach_each_scheme():
    rows = context.context_extension_table(factors=[8])["per_factor"][0]
    assert set(rows["default"]["band"].tolist()) == {0}
    assert set(rows["linear"]["band"].tolist()) == {2}, "PI scales every pair by s"
    for method in ("ntk", "yarn", "llama3"):
        band = rows[method]["band"]
        assert band[0] == 0 and band[-1] == 2 and 1 in band, method
        assert np.all(np.diff(band) >= 0), f"{method}: kept, then blended, then scaled along the pairs"


@pytest.mark.parametrize("build, match", [
    (lambda: context.context_extension_table(dim=7), "dim"),
    (lambda: context.context_extension_table(training_length=0), "training_length"),
    (lambda: context.context_extension_table(factors=[0.5]), "factors"),
    (lambda: context.context_extension_table(positions=[-1]), "positions"),
    (lambda: context.example_rope_scaling("rope", 2, 4096), "rope_type"),
    (lambda: context.example_rope_scaling("yarn", 0, 4096), "factor"),
    (lambda: decay.decay_table(dim=5), "dim"),
    (lambda: decay.decay_table(step=0), "step"),
    (lambda: decay.decay_table(bases=[]), "bases"),
    (lambda: decay.decay_table(seed=-1), "seed"),
])
def test_bad_arguments_name_themselves(build, match):
    with pytest.raises((ValueError, TypeError), match=match):
        build()


def test_widget_sends_the_demos_table():
    widget = W.ContextExtension()
    table = context.context_extension_table()
    data = widget.data
    np.testing.assert_allclose(data["theta"], table["theta"], rtol=1e-8)
    np.testing.assert_allclose(data["turns_in_training"], table["turns_in_training"], rtol=1e-8)
    assert data["slow"] == np.flatnonzero(table["slow"]).tolist()
    # The slowest pair's turns in training, from the closed form L * base^(-(d-2)/d) / 2pi.
    dim, base, length = data["dim"], data["base"], data["training_length"]
    assert data["slowest_turns_in_training"] == pytest.approx(
        length * base ** (-(dim - 2) / dim) / (2 * np.pi), abs=1e-6)  # sent to 6 decimals
    for f, per_method in enumerate(table["per_factor"]):
        for method, row in per_method.items():
            sent = data["per_factor"][f][method]
            np.testing.assert_allclose(10.0 ** np.array(sent["log10_wavelength"]), row["wavelength"], rtol=1e-8)
            np.testing.assert_allclose(sent["reach_per_token"], row["reach_per_token"], rtol=1e-6)
            assert sent["band"] == row["band"].tolist()
            assert sent["beyond_count"] == row["beyond_count"].tolist()
            np.testing.assert_allclose(sent["worst_ratio"], row["worst_ratio"], atol=1e-6)
            np.testing.assert_allclose(sent["slowest_turns"], row["slowest_turns"], atol=1e-6)


@pytest.mark.parametrize("factor", [1, 4, 8, 32])
def test_static_view_draws_the_demos_table(factor):
    ax = plots.plot_context_extension(factor=factor)
    rows = context.context_extension_table(factors=[factor])["per_factor"][0]
    lines = [line for line in ax.get_lines() if len(line.get_ydata()) == 64]
    assert len(lines) == len(context.EXTENSION_METHODS)
    for line, (method, label) in zip(lines, context.EXTENSION_METHODS.items()):
        assert line.get_label().startswith(label)
        scaled = closed_form_scaled(method, factor, 128, 10000.0, 4096)
        np.testing.assert_allclose(line.get_ydata(), 2 * np.pi / scaled, rtol=1e-9)
        np.testing.assert_array_equal(line.get_ydata(), rows[method]["wavelength"])
    plt.close(ax.figure)


# --- rope_core.demos.decay ---------------------------------------------------------------

def closed_form_decay(dim, base, distances, seed):
    theta = base ** (-2 * np.arange(dim // 2) / dim)
    partial = np.cumsum(np.exp(1j * np.outer(distances, theta)), axis=1)          # S_{j+1}, (R, d/2)
    bound = np.abs(partial).sum(axis=1) / (dim // 2)
    aligned = np.cos(np.outer(distances, theta)).mean(axis=1)
    q, k = np.random.default_rng(seed).normal(size=(2, dim))
    random = np.array([rc.rope_matrix(0, dim, base) @ q @ (rc.rope_matrix(r, dim, base) @ k) for r in distances])
    return bound / bound[0], aligned, random / (np.linalg.norm(q) * np.linalg.norm(k))


def test_decay_table_at_random_settings_equals_the_closed_forms(rng):
    for _ in range(50):
        dim, step = int(rng.choice([8, 16, 32, 64, 128])), int(rng.integers(1, 40))
        bases = sorted(float(10 ** e) for e in rng.uniform(1.5, 6.5, size=2))
        max_distance, seed = int(rng.integers(step, 400)), int(rng.integers(0, 5))
        table = decay.decay_table(dim, bases, max_distance, step, seed)
        distances = np.arange(0, max_distance + 1, step)
        np.testing.assert_array_equal(table["distances"], distances)
        for b, base in enumerate(bases):
            bound, aligned, random = closed_form_decay(dim, base, distances, seed)
            np.testing.assert_allclose(table["bound"][b], bound, rtol=1e-9, atol=1e-12)
            np.testing.assert_allclose(table["aligned"][b], aligned, atol=1e-9)
            np.testing.assert_allclose(table["random"][b], random, atol=1e-9)


def test_decay_widget_and_view_draw_the_demos_table():
    widget = W.DecayExplorer()
    table = decay.decay_table()
    for b in range(len(table["bases"])):
        for key in ("bound", "aligned", "random"):
            np.testing.assert_allclose(widget.data["series"][b][key], table[key][b], atol=1e-6)
    ax = plots.plot_decay(base=1e4)
    b = table["bases"].index(1e4)
    drawn = {line.get_label(): line.get_ydata() for line in ax.get_lines()}
    np.testing.assert_array_equal(drawn["bound / bound(0)"], table["bound"][b])
    np.testing.assert_array_equal(drawn["aligned q = k"], table["aligned"][b])
    np.testing.assert_array_equal(drawn["random q, k"], table["random"][b])
    plt.close(ax.figure)


def test_scaling_bands_pairs_that_never_turn_are_kept_with_ratio_one():
    # theta'_i = 0 (pairs a partial-rotary config leaves unrotated): no 0/0, no infinite ratio.
    theta = np.array([1.0, 0.1, 0.01, 0.0, 0.0])
    scaled = np.array([1.0, 0.05, 0.0025, 0.0, 0.0])
    band, ratio = context.scaling_bands(theta, scaled)
    assert np.all(np.isfinite(ratio))
    np.testing.assert_array_equal(ratio, [1.0, 2.0, 4.0, 1.0, 1.0])
    np.testing.assert_array_equal(band, [context.BAND_KEPT, context.BAND_BLENDED, context.BAND_SCALED,
                                         context.BAND_KEPT, context.BAND_KEPT])
