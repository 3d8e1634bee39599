"""The widgets on the published (static) page: live with no kernel, and numerically right.

Opens the gallery of the built book in Debian's chromium with every outside request blocked,
moves every slider with the keyboard, checks that the drawing changes, and compares the
read-outs with rope_core's values to 1e-6.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from _browser import gallery_widget, goto

import rope_core as rc
from rope_core import widgets as W
from rope_core.demos.context import example_rope_scaling

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "_ext"))
import widget_state  # (the one reader of the built pages' widget state)

pytestmark = [pytest.mark.book, pytest.mark.browser]
ORDER = [cls.__name__ for cls in W.REGISTRY]  # the gallery shows the registry in order


@pytest.fixture
def gallery(book_server, browser_page):
    page, log = browser_page
    goto(page, f"{book_server}/book/gallery.html")
    yield page, log
    assert not log.external_requests, log.external_requests
    assert not log.page_errors, log.page_errors
    assert not log.console_errors, log.console_errors


def slider_index(root, name):
    return int(root.locator(f'input[data-name="{name}"]').input_value())


def press(root, name, key="ArrowRight", times=1):
    control = root.locator(f'input[data-name="{name}"]')
    control.focus()
    for _ in range(times):
        control.press(key)


SHOWN_JS = """(root) => [...root.querySelectorAll("svg, [data-readout]")]
    .map((el) => el.outerHTML).join("\\n")"""


def test_every_slider_changes_what_its_widget_shows(gallery, screenshot_dir):
    """One key press on each visible slider changes the widget's drawings or its read-outs
    (TrainedModelExplorer's scheme, at the training length where every scheme draws the same
    attention, changes only its accuracy read-out's scheme)."""
    page, _ = gallery
    widgets = page.locator(".rope-w")
    assert widgets.count() == len(ORDER)
    for w in range(len(ORDER)):
        root = widgets.nth(w)
        # Visible sliders: a step of ContextExtension hides the ones it does not use.
        for s in range(root.locator("input[type=range]:visible").count()):
            control = root.locator("input[type=range]:visible").nth(s)
            before = root.evaluate(SHOWN_JS)
            control.focus()
            key = "ArrowLeft" if control.input_value() == control.get_attribute("max") else "ArrowRight"
            control.press(key)
            assert root.evaluate(SHOWN_JS) != before, (ORDER[w], control.get_attribute("data-name"))
    page.screenshot(path=str(screenshot_dir / "widgets-gallery-after-keys.png"), full_page=True)


def test_readouts_equal_rope_core(gallery):
    page, _ = gallery
    # Rotation explorer: R(m theta) q for the current slider indices.
    root, data = gallery_widget(page, "RotationExplorer"), W.RotationExplorer().data
    for _ in range(3):
        press(root, "position", times=7)
        press(root, "theta")
        m, t = slider_index(root, "position"), slider_index(root, "theta")
        shown_q = root.locator('[data-readout="q"]')
        angle, length = float(shown_q.get_attribute("data-angle")), float(shown_q.get_attribute("data-length"))
        q = length * np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
        expected = rc.rotate_2d(q, m * data["thetas"][t])
        shown = root.locator('[data-readout="rotated"]')
        got = [float(shown.get_attribute("data-x")), float(shown.get_attribute("data-y"))]
        np.testing.assert_allclose(got, expected, atol=1e-6)

    # Relative invariance: q^T R_{n-m} k, whatever the shift.
    python_widget = W.RelativeInvariance()
    root, data = gallery_widget(page, "RelativeInvariance"), python_widget.data
    q, k = python_widget._q, python_widget._k  # exact, not the rounded copies sent to the page
    for _ in range(3):
        press(root, "shift", times=5)
        m, n = slider_index(root, "m"), slider_index(root, "n")
        got = float(root.locator('[data-readout="score"]').get_attribute("data-value"))
        assert abs(got - q @ rc.rotate_2d(k, (n - m) * data["theta"])) < 1e-6

    # Frequency clocks: angle of the fastest hand, m * theta_0 mod 2 pi.
    root, data = gallery_widget(page, "FrequencyClocks"), W.FrequencyClocks().data
    for _ in range(3):
        press(root, "position", times=9)
        m, b, d = data["positions"][slider_index(root, "position")], slider_index(root, "base"), slider_index(root, "dim")
        theta = rc.inverse_frequencies(data["dims"][d], data["bases"][b])
        got = float(root.locator('[data-readout="fastest"]').get_attribute("data-angle"))
        assert abs(got - np.mod(m * theta[0], 2 * np.pi)) < 1e-6

    # Heat map: cos(m theta_i) in the highlighted block.
    root, data = gallery_widget(page, "RotationMatrixHeatmap"), W.RotationMatrixHeatmap().data
    for _ in range(3):
        press(root, "position", times=4)
        press(root, "pair")
        m, d, b, i = (slider_index(root, n) for n in ("position", "dim", "base", "pair"))
        theta = rc.inverse_frequencies(data["dims"][d], data["bases"][b])
        got = float(root.locator('[data-readout="block"]').get_attribute("data-cos"))
        assert abs(got - rc.rope_matrix(m, data["dims"][d], data["bases"][b])[2 * i, 2 * i]) < 1e-6

    # Decay: the bound for q = k at the chosen distance, B(r) in the score's own unit.
    root, data = gallery_widget(page, "DecayExplorer"), W.DecayExplorer().data
    for _ in range(3):
        press(root, "distance", times=11)
        r, b = data["distances"][data["stops"][slider_index(root, "distance")]], slider_index(root, "base")
        bound = rc.long_term_decay_bound(r, data["dim"], data["bases"][b])
        got = float(root.locator('[data-readout="pair"]').get_attribute("data-bound"))   # k = q: B(r)
        assert abs(got - bound) < 5e-3

    # Context extension: turns of the slowest pair under YaRN.
    root, data = gallery_widget(page, "ContextExtension"), W.ContextExtension().data
    positions = W.ContextExtension().positions
    for _ in range(3):
        press(root, "position", key="ArrowLeft")
        f, p = slider_index(root, "factor"), slider_index(root, "position")
        scaling = example_rope_scaling("yarn", data["factors"][f], data["training_length"])
        theta = rc.inverse_frequencies(data["dim"], data["base"], rope_scaling=scaling)
        cell = root.locator('td[data-method="yarn"][data-field="slowest_turns"]')
        assert abs(float(cell.get_attribute("data-value")) - positions[p] * theta[-1] / (2 * np.pi)) < 1e-6
    # Its warning counts every slow pair beyond its trained angle, here against the
    # closed forms of PI (theta / s) and NTK-aware (base * s^(d/(d-2))), at every factor and at
    # every 16th stop of p (every power of two among them: L and each sL).
    d, base, L = data["dim"], data["base"], data["training_length"]
    theta = base ** (-2 * np.arange(d // 2) / d)
    slow = L * theta < 2 * np.pi
    root.locator('button[data-step="divide"]').click()  # a step that shows the factor slider
    root.locator('details[data-part="numbers"]').evaluate("(d) => { d.open = true; }")  # the table
    press(root, "factor", key="Home")
    for f, s in enumerate(data["factors"]):
        press(root, "position", key="Home")
        for p, position in list(enumerate(positions))[::16]:
            assert (slider_index(root, "factor"), slider_index(root, "position")) == (f, p)
            for method, scaled in (("linear", theta / s), ("ntk", (base * s ** (d / (d - 2))) ** (-2 * np.arange(d // 2) / d))):
                ratio = position * scaled[slow] / (L * theta[slow])
                cell = root.locator(f'td[data-method="{method}"][data-field="beyond"]')
                assert int(cell.get_attribute("data-count")) == int((ratio > 1 + 1e-9).sum()), (method, s, position)
                assert ("⚠" in cell.inner_text()) == bool((ratio > 1 + 1e-9).any()), (method, s, position)
                assert abs(float(cell.get_attribute("data-worst")) - ratio.max()) <= 1e-6 * ratio.max(), (method, s, position)
            press(root, "position", times=16)
        press(root, "factor")

    # Layouts: the pair's features in both layouts.
    root = gallery_widget(page, "LayoutExplorer")
    press(root, "pair", times=2)
    i, d = slider_index(root, "pair"), [8, 16][slider_index(root, "dim")]
    pairs = root.locator('[data-readout="pairs"]')
    assert pairs.get_attribute("data-interleaved") == f"{2 * i},{2 * i + 1}"
    assert pairs.get_attribute("data-half") == f"{i},{i + d // 2}"


def test_embedded_state_per_widget_under_200_kb(built_book):
    """Each widget's state file (what the page fetches before it can draw that widget)."""
    gallery = built_book / "book" / "gallery.html"
    models = widget_state.page_models(gallery)
    sizes = [size for i, size in widget_state.state_bytes(gallery).items()
             if models[i].get("model_module") == "anywidget"]
    assert len(sizes) == len(ORDER)
    assert max(sizes) <= 200_000, sizes


def test_sliders_are_the_ones_each_widget_declares(gallery):
    # The sliders come from the registry, not from a count written here: every range input of
    # every widget is one of its class's declared slider traits (``_sliders``: "theta" for
    # ``theta_index``), and reaches every value that trait accepts in Python.
    page, _ = gallery
    widgets = page.locator(".rope-w")
    assert widgets.count() == len(W.REGISTRY)
    total = 0
    for w, cls in enumerate(W.REGISTRY):
        declared = {name: stops(cls()) for name, stops in cls._sliders.items()}
        drawn = widgets.nth(w).locator("input[type=range]").evaluate_all(
            "(is) => is.map((i) => [i.dataset.name, Number(i.max) + 1])")
        assert drawn or not declared, cls.__name__
        for name, stops in drawn:
            trait = name if name in declared else f"{name}_index"
            assert trait in declared, (cls.__name__, name, sorted(declared))
            assert stops >= declared[trait], (cls.__name__, name, stops, declared[trait])
        assert len({name for name, _ in drawn}) == len(drawn), (cls.__name__, drawn)
        total += len(drawn)
    assert page.locator(".rope-w input[type=range]").count() == total


def test_sliders_are_labelled_long_enough_and_keep_their_keys(gallery):
    page, _ = gallery
    inputs = page.locator(".rope-w input[type=range]")
    for j in range(inputs.count()):
        control = inputs.nth(j)
        assert control.get_attribute("aria-label"), control.get_attribute("data-name")
        label = page.locator(f'label[for="{control.get_attribute("id")}"]')
        # text_content: a slider folded away (in a closed <details>) has no rendered text.
        assert label.count() == 1 and label.text_content().strip(), control.get_attribute("data-name")
    # Every track is long enough to aim at, also in a controls column beside a drawing (there
    # the label and value sit above the track, as on a phone; beside step buttons the track
    # had 0 px at 1280 px).
    tracks = page.eval_on_selector_all(".rope-w input[type=range]", """(ns) => ns
        .filter((n) => n.offsetParent !== null)
        .map((n) => [n.closest('.rope-w').querySelector('.rope-w-title, h3, strong')?.textContent.slice(0, 40), n.dataset.name, n.getBoundingClientRect().width])""")
    short = [t for t in tracks if t[2] < 150]
    assert len(tracks) >= len(ORDER) and not short, short
    # A notebook front end must not see the arrow keys meant for a slider.
    page.evaluate("() => { window.__bubbled = 0; document.addEventListener('keydown', () => window.__bubbled++); }")
    inputs.first.focus()
    inputs.first.press("ArrowRight")
    assert page.evaluate("window.__bubbled") == 0


CONTRAST = """
(el) => {
  // Relative luminance and contrast ratio (WCAG 2) of two computed CSS colours.
  const rgba = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const style = getComputedStyle(el);
  const bg = rgba(style.backgroundColor), fg = rgba(style.color);
  const label = el.querySelector('svg text');  // some drawings have no text
  const text = label ? rgba(getComputedStyle(label).fill) : fg;
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  return { alpha: bg.length > 3 ? bg[3] : 1, background: lum(bg), text: ratio(bg, fg), svgText: ratio(bg, text) };
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_widgets_readable_in_both_modes(scheme, book_server, browser_page, dark_browser_page, screenshot_dir):
    page, log = browser_page if scheme == "light" else dark_browser_page
    goto(page, f"{book_server}/book/gallery.html")
    assert page.evaluate("document.documentElement.dataset.theme") == scheme
    widgets = page.locator(".rope-w")
    for w, name in enumerate(ORDER):
        colours = widgets.nth(w).evaluate(CONTRAST)
        assert colours["alpha"] == 1, (name, colours)  # opaque drawing area
        assert (colours["background"] > 0.5) == (scheme == "light"), (name, colours)
        assert colours["text"] >= 4.5 and colours["svgText"] >= 4.5, (name, colours)
        widgets.nth(w).screenshot(path=str(screenshot_dir / f"widgets-{name}-{scheme}.png"))
    assert not log.page_errors and not log.console_errors, log.page_errors + log.console_errors
