"""The decay and context-extension demos (rope_core.demos): one table for the widget and its
static view, checked against each scheme's closed form (not against rope_core's own calls)."""

from __future__ import annotations

import inspect
import math
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
        if key == "positions":  # the widget's slider spans the same range, with finer stops
            assert widget_defaults["position_range"].default == (value[0], value[-1])
            continue
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
    (lambda: decay.decay_table(samples=1), "samples"),
    (lambda: decay.decay_table(correlation=2.0), "correlation"),
    (lambda: decay.pair_decay_bound(np.ones(4), np.ones(6), [0]), "k"),
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
            # What the page computes at every stop of p from reach_per_token, against the demos.
            count, worst = context.slow_pairs_beyond_training(table["theta"], row["scaled"],
                                                              data["training_length"], widget.positions)
            ratios = np.outer(widget.positions, np.array(sent["reach_per_token"])[data["slow"]])
            np.testing.assert_array_equal((ratios > 1 + 1e-6).sum(axis=1), count)
            np.testing.assert_allclose(ratios.max(axis=1), worst, rtol=1e-6)
            assert not {"beyond_count", "worst_ratio", "slowest_turns"} & set(sent)  # nothing per p


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


def check_step_view(ax, step, factor, position, dim=128, base=10000.0, length=4096):
    """A scheme step of the print view read back: one row of dials per scheme of the step, each
    hand at p·θ'_i against the trained arc L·θ_i (closed forms), orange exactly when past it,
    its ratio under it, and the count over every slow pair beside the row."""
    theta = base ** (-2 * np.arange(dim // 2) / dim)
    slow = np.flatnonzero(length * theta < 2 * np.pi)
    hands = {line.get_gid(): line for line in ax.lines if (line.get_gid() or "").startswith("hand-")}
    texts = {t.get_gid(): t.get_text() for t in ax.texts if t.get_gid()}
    for method in context.STEP_SCHEMES[step]:
        scaled = closed_form_scaled(method, factor, dim, base, length)
        ratio = position * scaled[slow] / (length * theta[slow])
        drawn = [int(key.rsplit("-", 1)[1]) for key in hands if key.startswith(f"hand-{method}-")]
        assert drawn and set(drawn) <= set(slow.tolist()) and {slow[0], slow[-1]} <= set(drawn)
        for i in drawn:
            line, r = hands[f"hand-{method}-{i}"], position * scaled[i] / (length * theta[i])
            x, y = line.get_xdata(), line.get_ydata()
            angle = length * theta[i] * r
            assert abs(np.angle(np.exp(1j * (np.arctan2(y[1] - y[0], x[1] - x[0]) - angle)))) < 1e-9
            assert (line.get_color() == plots.PALETTE["key"]) == (r > 1 + 1e-6), (method, i, r)
            assert texts[f"ratio-{method}-{i}"] == f"{r:.3g}×"
        beyond = int((ratio > 1 + 1e-9).sum())
        said = texts[f"count-{method}"].replace("\n", " ")
        assert said.startswith(f"{beyond} of {slow.size} slow pairs past their arc")
        assert (f"worst {ratio.max():.3g}×" in said) == (beyond > 0), said


@pytest.mark.parametrize("step, factor, position", [("problem", 8, 32768), ("divide", 8, 32768), ("divide", 4, 65536),
                                                    ("bands", 16, 65536), ("bands", 2, 4096)])
def test_step_view_draws_every_scheme_of_the_step(step, factor, position):
    ax = plots.plot_context_step(step, factor=factor, position=position)
    check_step_view(ax, step, factor, position)
    plt.close(ax.figure)


def test_model_step_draws_the_atlas_model():
    # One model trained with its scaling, one whose scaling is added at deployment.
    assert [rc.atlas.entry(n).scaling_trained for n in ("llama-3.1-8b", "qwen3-8b-yarn")] == [True, False]
    for name in ("llama-3.1-8b", "qwen3-8b-yarn"):
        ax = plots.plot_context_step("models", model=name)
        spec = next(iter(rc.atlas.specs(name).values()))
        tab = context.model_spectrum_table(spec, name)
        shipped = 2 * np.pi / tab["shipped"][tab["turning"]]
        dots = np.concatenate([c.get_offsets()[:, 1] for c in ax.collections if c.get_gid() in context.BAND_NAMES])
        np.testing.assert_allclose(np.sort(dots), np.sort(shipped))
        for band, c in ((b, c) for c in ax.collections for b, n in enumerate(context.BAND_NAMES) if c.get_gid() == n):
            np.testing.assert_array_equal(c.get_offsets()[:, 0], np.flatnonzero(tab["turning"] & (tab["band"] == band)))
        said = next(t.get_text() for t in ax.texts if t.get_gid() == "model-said").replace("\n", " ")
        entry = rc.atlas.entry(name)
        if tab["beyond"] is not None:
            assert f"{tab['beyond']} of {int(tab['slow'].sum())} slow pairs turn further" in said
            assert f"worst {tab['worst']:.3g}×" in said
        if entry.scaling_trained is not None:
            assert ("was trained on long inputs with this scaling" in said) == entry.scaling_trained
            assert ("was not trained with this scaling" in said) == (not entry.scaling_trained)
        plt.close(ax.figure)
    with pytest.raises(ValueError, match="step"):
        plots.plot_context_step("steps")
    with pytest.raises(ValueError, match="model"):
        plots.plot_context_step("models", model="no-such-model")
    with pytest.raises(ValueError, match="dials"):
        plots.plot_context_step("problem", dials=0)


def test_chapter_9_steps_figure_says_what_it_draws():
    s, d, base, L = 8.0, 128, 10000.0, 4096     # chapter 9's set-up cell
    fig, caption, alt, tags = draw_figure("09-longer-contexts.md", "fig-09-steps", s=s, d=d, base=base, L=L)
    assert "print-only" in tags and len(fig.axes) == 4
    widget = W.ContextExtension()
    assert [widget.data[k] for k in ("dim", "base", "training_length")] == [d, base, L]
    assert f"$s = {s:g}$ and $p = sL = 32\\,768$" in caption and s * L == 32768
    for ax, step in zip(fig.axes, context.CONTEXT_STEPS[:3]):
        check_step_view(ax, step, s, s * L, d, base, L)
    rows = context.context_extension_table(d, base, L, [s], [s * L])
    slow = int(rows["slow"].sum())
    beyond = {m: int(row["beyond_count"][0]) for m, row in rows["per_factor"][0].items()}
    worst = {m: float(row["worst_ratio"][0]) for m, row in rows["per_factor"][0].items()}
    assert f"six of the {slow} slow pairs" in caption
    assert f"all {slow} slow pairs are past their arc, by {worst['default']:g}×" in caption and beyond["default"] == slow
    assert f"Position Interpolation brings all {slow} back; NTK-aware leaves {beyond['ntk']} past, by up to {worst['ntk']:.3g}×" in caption
    assert beyond["linear"] == beyond["yarn"] == beyond["llama3"] == 0 and "YaRN and Llama 3.1 bring all 18 back" in caption
    spec = rc.atlas.specs(W.explorers.DEFAULT_MODEL)[None]
    tab = context.model_spectrum_table(spec, W.explorers.DEFAULT_MODEL)
    said = re.search(r"\(factor (\d+)\): at its ([\d ]+) maximum positions its (\d+) slow pairs turn up to ([\d.]+)× further "
                     r"than in the first ([\d ]+) tokens of training, and it was trained on long inputs", caption)
    assert said, caption
    assert [int(said.group(k).replace(" ", "")) for k in (1, 2, 3, 5)] == [tab["factor"], tab["context"], tab["beyond"], tab["training"]]
    assert float(said.group(4)) == tab["worst"] and tab["beyond"] == int(tab["slow"].sum())
    assert rc.atlas.entry(W.explorers.DEFAULT_MODEL).scaling_trained
    ntk = [t.get_text() for t in fig.axes[1].texts if (t.get_gid() or "").startswith("ratio-ntk-")]
    assert f"labelled {ntk[0].rstrip('×')} down to {ntk[-2].rstrip('×')} times" in alt and ntk[-1] == "1×"
    plt.close(fig)


# --- rope_core.demos.decay ---------------------------------------------------------------

def closed_form_decay(dim, base, distances):
    """B(r) = mean_j |S_j(r)| and the aligned cosine, from their definitions."""
    theta = base ** (-2 * np.arange(dim // 2) / dim)
    partial = np.cumsum(np.exp(1j * np.outer(distances, theta)), axis=1)          # S_{j+1}, (R, d/2)
    bound = np.abs(partial).sum(axis=1) / (dim // 2)
    aligned = np.cos(np.outer(distances, theta)).mean(axis=1)
    return bound, aligned


def roformer_bound(q, k, r, base):
    """RoFormer's bound for one pair, written out: max_i |h_{i+1} - h_i| * sum_j |S_j(r)|."""
    dim = q.size
    theta = base ** (-2 * np.arange(dim // 2) / dim)
    h = [complex(q[2 * i], q[2 * i + 1]) * complex(k[2 * i], -k[2 * i + 1]) for i in range(dim // 2)] + [0]
    content = max(abs(h[i + 1] - h[i]) for i in range(dim // 2))
    return content * sum(abs(sum(np.exp(1j * r * theta[:j]))) for j in range(1, dim // 2 + 1))


def test_decay_table_at_random_settings_equals_the_closed_forms(rng):
    for _ in range(6):
        dim, step = int(rng.choice([8, 16, 32, 64])), int(rng.integers(1, 40))
        bases = sorted(float(10 ** e) for e in rng.uniform(1.5, 6.5, size=2))
        max_distance, seed = int(rng.integers(step, 300)), int(rng.integers(0, 5))
        samples, rho = int(rng.integers(2, 30)), float(rng.uniform(-1, 1))
        table = decay.decay_table(dim, bases, max_distance, step, seed, samples, rho)
        distances = np.arange(0, max_distance + 1, step)
        np.testing.assert_array_equal(table["distances"], distances)
        pairs = {"random": decay.draw_pairs(dim, 0.0, samples, seed),
                 "correlated": decay.draw_pairs(dim, rho, samples, seed + 1)}
        for b, base in enumerate(bases):
            bound, aligned = closed_form_decay(dim, base, distances)
            np.testing.assert_allclose(table["bound"][b], bound, rtol=1e-9, atol=1e-12)
            np.testing.assert_allclose(table["aligned"][b], aligned, atol=1e-9)
            every = closed_form_decay(dim, base, np.arange(max_distance + 1))[0]
            np.testing.assert_allclose(table["bound_average"][b], [every[: r + 1].mean() for r in distances], rtol=1e-9)
            for name, (q, k) in pairs.items():
                R = [rc.rope_matrix(r, dim, base) for r in distances]
                cos = np.array([[(R[j] @ q[s]) @ k[s] / (np.linalg.norm(q[s]) * np.linalg.norm(k[s]))
                                 for j in range(len(distances))] for s in range(samples)])
                bounds = np.array([[roformer_bound(q[s], k[s], r, base) / (np.linalg.norm(q[s]) * np.linalg.norm(k[s]))
                                    for r in distances] for s in range(min(samples, 3))])
                np.testing.assert_allclose(table[name]["mean"][b], cos.mean(0), atol=1e-9)
                np.testing.assert_allclose(table[name]["sd"][b], cos.std(0), atol=1e-9)
                np.testing.assert_allclose(decay.pair_decay_bound(q[:3], k[:3], distances, base)
                                           / (np.linalg.norm(q[:3], axis=1) * np.linalg.norm(k[:3], axis=1))[:, None],
                                           bounds, rtol=1e-9)


def test_draw_pairs_are_the_pairs_monte_carlo_logits_draws():
    q, k = decay.draw_pairs(16, 0.3, 5, 7)
    logits = rc.attention.monte_carlo_logits([0, 9], 16, base=100.0, correlation=0.3, n_samples=5, seed=7)
    np.testing.assert_allclose(logits[:, 1], [rc.relative_scores(q[s], k[s], [9], [0], base=100.0)[0, 0] for s in range(5)],
                               rtol=1e-10)
    np.testing.assert_allclose(logits[:, 0], np.einsum("sd,sd->s", q, k), rtol=1e-10)


def test_every_bound_lies_above_the_score_it_bounds_at_every_distance_and_base():
    """The widget's lesson, on its own table: each bound is at or above its scores everywhere."""
    t = decay.decay_table()
    assert np.all(t["bound"] >= np.abs(t["aligned"]))
    assert np.all(t["bound"] >= 1.5)   # B(r) >= 1.5 > every cosine
    for name in ("random", "correlated"):
        band = t[name]
        assert np.all(band["bound"] >= np.abs(band["mean"]) + band["sd"])
        assert np.all(band["tightest"] >= 1)      # every single pair, not only on average
    # The text's numbers: 32.5 at r = 0 for every base; the aligned cosine is 1 there.
    np.testing.assert_allclose(t["bound"][:, 0], 32.5)
    np.testing.assert_allclose(t["aligned"][:, 0], 1.0)


def test_bound_average_grows_with_the_base_at_every_distance_though_the_bound_does_not():
    t = decay.decay_table()
    assert np.all(np.diff(t["bound_average"][:, 1:], axis=0) > 0)
    r128 = list(t["distances"]).index(128)
    b5, b6 = t["bases"].index(1e5), t["bases"].index(1e6)
    assert t["bound"][b6, r128] < t["bound"][b5, r128]       # one distance catches a dip


def test_random_pairs_do_not_decay_and_correlated_pairs_do():
    t = decay.decay_table()
    se = t["random"]["sd"] / np.sqrt(t["samples"])
    assert np.all(np.abs(t["random"]["mean"]) < 5 * se)     # mean zero at every distance, every base
    np.testing.assert_allclose(t["random"]["sd"], 1 / np.sqrt(t["dim"]), rtol=0.15)
    assert np.all(t["correlated"]["mean"][:, 0] > 0.45) and np.all(t["correlated"]["mean"][:, -1] < 0.3)


def test_decay_widget_and_view_draw_the_demos_table():
    widget = W.DecayExplorer()
    table = decay.decay_table()
    stops = widget.data["stops"]
    assert [table["distances"][s] for s in stops] == list(range(0, 1025, 16))
    # The widget's aligned pair (k = q) is the table's, and its bound the print figure's
    # (tests/test_widgets_wE.py checks the rest of the widget's data).
    for b in range(len(table["bases"])):
        series = widget.data["series"][b]
        np.testing.assert_allclose(series["pair"]["score"][0], table["aligned"][b], atol=5e-4)
        np.testing.assert_allclose(series["bound"], table["bound"][b], atol=1e-4)
        np.testing.assert_allclose(series["bound_average"], table["bound_average"][b][stops], atol=1e-4)
    # The print figure draws the widget's pairs (aligned and random key) and its random pairs'
    # band at the widget's default base (tests/test_views_6P.py checks the figure in full).
    b = widget.base_index
    ax = plots.plot_decay(base=table["bases"][b])
    drawn = {line.get_gid(): line.get_ydata() for line in ax.get_lines()}
    series = widget.data["series"][b]
    for row, name in ((0, "aligned"), (-1, "random")):
        np.testing.assert_allclose(np.abs(series["pair"]["score"][row]), drawn[f"{name}-score"], rtol=5e-3, atol=1e-6)
        np.testing.assert_allclose(series["pair"]["bound"][row], drawn[f"{name}-bound"], atol=5e-3)
    np.testing.assert_allclose(series["random"]["median"], drawn["random-median"], rtol=5e-3)
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


def test_the_position_stops_are_even_in_log_p_and_hit_every_power_of_two():
    from rope_core.demos.context import CONTEXT_DEFAULTS, octave_positions

    stops = np.array(CONTEXT_DEFAULTS["positions"])
    assert stops[0] == 1024 and stops[-1] == 131072
    assert all(2**k in stops for k in range(10, 18))          # L and every sL of the factors
    steps = np.diff(np.log2(stops))
    np.testing.assert_allclose(steps, 1 / 12, atol=1e-3)       # each step about 5.9 %, none missing
    widget = W.ContextExtension()
    # The widget's own stops: 64 a doubling, L and every sL among them; the page gets three numbers.
    assert widget.positions == octave_positions(1024, 131072, 64)
    assert widget.data["position_grid"] == {"first": 1024, "last": 131072, "per_octave": 64}
    assert "positions" not in widget.data
    assert widget.positions[widget.position_index] == CONTEXT_DEFAULTS["training_length"]
    assert all(s * 4096 in widget.positions for s in widget.data["factors"])
    for call, argument in [(lambda: octave_positions(1024, 3000), "last / first"),
                           (lambda: octave_positions(0, 4096), "first"),
                           (lambda: octave_positions(1024, 4096, 0), "per_octave")]:
        with pytest.raises(ValueError, match=argument):
            call()
