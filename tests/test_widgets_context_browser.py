"""DecayExplorer and ContextExtension on the published gallery (no kernel), at random states.

Every number the two widgets show — read-outs, data attributes, the chosen pair's numbers on
hover and focus, the small multiples' end points, the model plot's pair — is checked against
rope_core to 1e-6 at 50+ random states (factor, position, scheme, model, pair; base, distance),
reached the way a reader reaches them (keyboard, pointer, the menus). Lines and text that carry
meaning are checked for contrast in light and dark mode.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from _browser import (
    CONTRAST_JS,
    DESKTOP,
    PHONE,
    axis_inverse,
    dataset,
    gallery_widget,
    keys_to,
    open_gallery,
    set_slider,
)

import rope_core as rc
from rope_core import widgets as W
from rope_core.demos.context import EXTENSION_METHODS, example_rope_scaling

pytestmark = [pytest.mark.book, pytest.mark.browser]
# The position slider's stops (the page computes the same from three numbers).
CONTEXT_POSITIONS = W.ContextExtension().positions
METHODS = list(EXTENSION_METHODS)
MENU = [(name, layer_type) for name in rc.atlas.names() for layer_type in rc.atlas.specs(name)]
SCALED = ("linear", "ntk", "dynamic", "yarn", "llama3", "longrope")
STATES = 52


# --- rope_core's numbers, straight from the maths module -----------------------------------

def scheme_numbers(method, factor, position, dim=128, base=10000.0, length=4096):
    theta = rc.inverse_frequencies(dim, base)
    scaling = example_rope_scaling(method, factor, length)
    scaled = rc.inverse_frequencies(dim, base, rope_scaling=scaling)
    ratio = theta / scaled
    band = np.where(np.abs(ratio - 1) <= 1e-9, 0, np.where(np.abs(ratio - ratio.max()) <= 1e-9 * ratio.max(), 2, 1))
    slow = length * theta < 2 * np.pi
    reach = position * scaled / (length * theta)
    return {"theta": theta, "scaled": scaled, "wavelength": 2 * np.pi / scaled, "band": band,
            "turns": length * theta / (2 * np.pi), "reach": reach, "slow": slow,
            "attention_factor": rc.attention_factor(dim, base, rope_scaling=scaling),
            "slowest_turns": position * scaled[-1] / (2 * np.pi),
            "beyond": int((reach[slow] > 1 + 1e-9).sum()), "worst": reach[slow].max()}


def three_digits(shown, value):
    """``shown`` is ``value`` to three significant digits (either way at an exact half)."""
    unit = 10.0 ** (np.floor(np.log10(abs(value))) - 2)
    return abs(shown - value) <= 0.5 * unit * (1 + 1e-6)


# The drawn curves read back into data: the axis lines carry their value (data-y-tick,
# data-x-tick); two of each fix the pixel map, the others must lie on it, and every vertex of
# every polyline is inverted through it and compared with rope_core.
CURVES = """(svg, selector) => {
  const num = (el, k) => Number(el.getAttribute(k));
  return {
    y: [...svg.querySelectorAll("line[data-y-tick]")].map((l) => [+l.dataset.yTick, num(l, "y1"), num(l, "y2")]),
    x: [...svg.querySelectorAll("line[data-x-tick]")].map((l) => [+l.dataset.xTick, num(l, "x1"), num(l, "x2")]),
    curves: Object.fromEntries([...svg.querySelectorAll(selector)].map((p) => [p.dataset.method || p.dataset.series,
      p.getAttribute("points").trim().split(/\\s+/).map((v) => v.split(",").map(Number))])),
  };
}"""


def drawn_curves(svg, selector):
    got = svg.evaluate(CURVES, selector)
    x_of, y_of = axis_inverse(got["x"]), axis_inverse(got["y"])
    return {key: (x_of(np.array(points)[:, 0]), y_of(np.array(points)[:, 1])) for key, points in got["curves"].items()}


# The horizontal lines (training length L, read-out position p), their labels and the curves'
# end labels in the right margin, and the chosen pair's mark (a column and a ring), with the axis
# lines that map them back into data.
LINES = """(svg) => {
  const num = (el, k) => Number(el.getAttribute(k));
  const mark = svg.querySelector(".rope-w-mark");
  const [column, ring] = [mark.querySelector("line"), mark.querySelector("circle")];
  const shown = (el) => el.getAttribute("visibility") !== "hidden";
  return {
    y: [...svg.querySelectorAll("line[data-y-tick]")].map((l) => [+l.dataset.yTick, num(l, "y1"), num(l, "y2")]),
    x: [...svg.querySelectorAll("line[data-x-tick]")].map((l) => [+l.dataset.xTick, num(l, "x1"), num(l, "x2")]),
    lines: Object.fromEntries([...svg.querySelectorAll("line[data-line]")].filter(shown).map((l) => [l.dataset.line, [num(l, "y1"), num(l, "y2")]])),
    labels: Object.fromEntries([...svg.querySelectorAll("text[data-label]")].filter(shown).map((t) => [t.dataset.label, [num(t, "y"), Number(t.dataset.lineY), t.textContent]])),
    ends: [...svg.querySelectorAll("text[data-end-label]")].map((t) => [t.dataset.endLabel, num(t, "y"), t.textContent]),
    mark: column && ring ? [num(column, "x1"), num(column, "x2"), num(ring, "cx"), num(ring, "cy")] : null,
  };
}"""


def check_lines_and_mark(svg, training_length, position, pair, log10_wavelength, curves):
    """The L and p lines at log10 L and log10 p on the plot's axis (p only while it is on the
    axis), each label saying its number and remembering its line's height; every label of the
    right margin (lines and curve ends) at least 13 units from the next, so none overlaps; the
    chosen pair's column at pair i and its ring on the chosen scheme's curve (1e-6)."""
    got = svg.evaluate(LINES)
    x_of, y_of = axis_inverse(got["x"]), axis_inverse(got["y"])
    top = max(value for value, _, _ in got["y"])
    want = {"training": training_length, "position": position}
    if np.log10(position) > top:
        del want["position"]
    assert sorted(got["lines"]) == sorted(want), got["lines"]
    for name, value in want.items():
        np.testing.assert_allclose(y_of(got["lines"][name]), [np.log10(value)] * 2, atol=1e-6, err_msg=name)
        _, line_y, text = got["labels"][name]
        assert line_y == pytest.approx(got["lines"][name][0], abs=1e-9), name
        assert int(re.sub(r"\D", "", text)) == value, (name, text)
    assert sorted(e[0] for e in got["ends"]) == sorted(curves), got["ends"]
    heights = sorted([y for y, _, _ in got["labels"].values()] + [y for _, y, _ in got["ends"]])
    assert all(b - a >= 13 for a, b in zip(heights, heights[1:])), heights
    x1, x2, cx, cy = got["mark"]
    np.testing.assert_allclose(x_of([x1, x2, cx]), [pair] * 3, atol=1e-6)
    assert y_of(cy) == pytest.approx(log10_wavelength, abs=1e-6)


STEP_SCHEMES = {"problem": ["default"], "divide": ["linear", "ntk"], "bands": ["yarn", "llama3"]}
STEP_KEYS = list(STEP_SCHEMES) + ["models"]
SHORT = {"default": "unscaled", "linear": "PI", "ntk": "NTK", "yarn": "YaRN", "llama3": "Llama 3.1"}


def check_dials(root, method, factor, position):
    """One dial per slow pair: its trained arc 2π·(turns in training), its hand at that times
    p·θ'_i/(Lθ_i), past the arc exactly when that ratio exceeds 1; the label says the ratio."""
    want = scheme_numbers(method, factor, position)
    dials = root.locator('svg[data-plot="dials"] g[data-dial]').evaluate_all(
        "(gs) => gs.map((g) => [Number(g.dataset.dial), Number(g.dataset.ratio), Number(g.dataset.arc), Number(g.dataset.angle), g.dataset.beyond])")
    labels = root.locator('svg[data-plot="dials"] text[data-dial-label]').evaluate_all("(ts) => ts.map((t) => t.textContent)")
    assert [d[0] for d in dials] == np.flatnonzero(want["slow"]).tolist()
    for (i, ratio, arc, angle, beyond), label in zip(dials, labels):
        assert ratio == pytest.approx(want["reach"][i], rel=1e-6), (i, method)
        assert arc == pytest.approx(2 * np.pi * want["turns"][i], rel=1e-6), i
        assert angle == pytest.approx(arc * ratio, rel=1e-12), i
        if want["reach"][i] > 1 + 1e-5:
            assert beyond == "1", (i, ratio)
        elif want["reach"][i] < 1 + 1e-7:
            assert beyond == "0", (i, ratio)
        assert three_digits(float(label.rstrip("×")), want["reach"][i]), (label, want["reach"][i])
    outside = dataset(root.locator('[data-readout="dials"]'))
    assert int(outside["outside"]) == want["beyond"], (method, factor, position)
    # Each hand as drawn: from the face's centre to its rim at the pair's angle (counter-
    # clockwise from 3 o'clock, y down), in the key colour exactly when past the trained arc.
    hands = root.locator('svg[data-plot="dials"] g[data-dial]').evaluate_all("""(gs) => gs.map((g) => {
      const face = g.querySelector("circle.rope-w-meaning"), line = g.querySelector("line"), hand = line.parentElement;
      const n = (el, k) => Number(el.getAttribute(k));
      return [Number(g.dataset.dial), n(face, "cx"), n(face, "cy"), n(face, "r"), ...["x1", "y1", "x2", "y2"].map((k) => n(line, k)), hand.getAttribute("class")];
    })""")
    for i, cx, cy, r, x1, y1, x2, y2, colour in hands:
        angle = 2 * np.pi * want["turns"][i] * want["reach"][i]
        assert (x1, y1) == pytest.approx((cx, cy), abs=1e-9), i
        assert np.hypot(x2 - cx, y2 - cy) == pytest.approx(r, rel=1e-6), i
        # The page's angle comes from 7-digit ratios: 1e-6 of the angle, as the ratio is checked.
        assert abs(np.angle(np.exp(1j * (np.arctan2(cy - y2, x2 - cx) - angle)))) <= 1e-6 * (1 + angle), (i, method, factor, position)
        if want["reach"][i] > 1 + 1e-5:
            assert colour == "k", (i, colour)
        elif want["reach"][i] < 1 + 1e-7:
            assert colour == "q", (i, colour)


def check_context_state(root, data, step, f, p, s, pair):
    factor, position = data["factors"][f], CONTEXT_POSITIONS[p]
    method = "default" if step == "problem" else METHODS[s]
    want = scheme_numbers(method, factor, position)
    got = dataset(root.locator('[data-readout="pair"]'))
    where = (step, factor, position, method, pair)
    assert (int(got["pair"]), got["method"], float(got["factor"]), int(got["position"])) == (pair, method, factor, position), (got, where)
    assert float(got["theta"]) == pytest.approx(want["theta"][pair], rel=1e-6), where
    assert float(got["wavelength"]) == pytest.approx(want["wavelength"][pair], rel=1e-6), where
    assert float(got["turns"]) == pytest.approx(want["turns"][pair], rel=1e-6), where
    assert float(got["ratio"]) == pytest.approx(want["reach"][pair], rel=1e-6), where
    assert got["band"] == ["kept", "blended", "scaled"][want["band"][pair]], where
    # The visible text says the same numbers, to three significant digits.
    text = root.locator('[data-readout="pair"]').inner_text()
    assert f"pair i = {pair} under {EXTENSION_METHODS[method]}" in text, text
    shown = float(re.search(r"at p = [\d\u202f]+: ([\d.]+)×", text).group(1))
    assert three_digits(shown, want["reach"][pair]), (text, want["reach"][pair])
    # The pair's ⚠: a slow pair past its largest trained angle; none at exactly 1× (the pairs a
    # scheme brings back), whatever the rounding of the numbers the page was sent.
    reach, slow = want["reach"][pair], want["turns"][pair] < 1
    warned = "⚠" in re.search(r"at p = .*", text).group(0)
    if slow and reach > 1 + 1e-5:
        assert warned, (text, reach)
    elif not slow or reach < 1 + 1e-7:
        assert not warned, (text, reach)
    # The table behind "numbers": every scheme's attention factor, slowest-pair turns and slow
    # pairs beyond training.
    table = root.locator("td[data-method][data-field]").evaluate_all(
        "(cells) => cells.map((c) => [c.dataset.method, c.dataset.field, {...c.dataset}])")
    cells = {(method_, field): values for method_, field, values in table}
    for other in METHODS:
        numbers = scheme_numbers(other, factor, position)
        assert float(cells[other, "attention_factor"]["value"]) == pytest.approx(numbers["attention_factor"], abs=1e-6)
        assert float(cells[other, "slowest_turns"]["value"]) == pytest.approx(numbers["slowest_turns"], rel=1e-6, abs=1e-6)
        beyond = cells[other, "beyond"]
        assert int(beyond["count"]) == numbers["beyond"], (other, where)
        assert float(beyond["worst"]) == pytest.approx(numbers["worst"], abs=1e-6), (other, where)
    # The step's curves (and no scaling) as drawn: vertex i at pair i, height log10 λ_i (1e-6).
    plot = root.locator('svg[data-plot="wavelengths"]')
    curves = drawn_curves(plot, "polyline[data-method]")
    expected = sorted({"default", *STEP_SCHEMES[step]})
    assert sorted(curves) == expected, sorted(curves)
    for other, (x, y) in curves.items():
        np.testing.assert_allclose(x, np.arange(64), atol=1e-6, err_msg=other)
        np.testing.assert_allclose(y, np.log10(scheme_numbers(other, factor, position)["wavelength"]), atol=1e-6, err_msg=other)
    check_lines_and_mark(plot, data["training_length"], position, pair, np.log10(want["wavelength"][pair]), expected)
    # The drawn scheme's band marks on the wavelength plot.
    bands = plot.locator("[data-band]").evaluate_all("(els) => els.map((e) => e.dataset.band)")
    assert bands == [["kept", "blended", "scaled"][b] for b in want["band"]], where
    check_dials(root, method, factor, position)
    assert dataset(root.locator('[data-readout="question"]'))["step"] == step


def predict(root):
    """The reader's prediction for the step shown (the first choice, if none made yet): each
    step hides its answer until then (test_widgets_questions_browser.py)."""
    row = root.locator('.rope-w-answers[aria-label="your prediction"]')
    if row.is_visible() and row.locator('button[aria-pressed="true"]').count() == 0:
        row.locator('button[data-answer="0"]').click()


def check_question(root, data, step, f, p, s):
    """Each step's question, and its answer once the reader did what it asks (numbers from rope_core)."""
    question = root.locator('[data-readout="question"]')
    text, got = question.inner_text(), dataset(question)
    length, factor, position = data["training_length"], data["factors"][f], CONTEXT_POSITIONS[p]
    if step == "problem":
        assert got["answered"] == ("1" if position > length else "0")
        if position > length:
            want = scheme_numbers("default", factor, position)
            assert f"all {want['beyond']} of {int(want['slow'].sum())}" in text and want["beyond"] == int(want["slow"].sum()), text
    elif step == "bands" and position == factor * length:
        want = scheme_numbers(METHODS[s], factor, position)
        assert got["answered"] == "1"
        assert f"keeps {int((want['band'] == 0).sum())} fast pairs" in text and f"leaves {want['beyond']} of" in text, text


def check_model_pair(root, index, pair):
    name, layer_type = MENU[index]
    spec = rc.atlas.specs(name)[layer_type]
    shipped = spec.frequencies_at(spec.max_position_embeddings)
    got = dataset(root.locator('[data-readout="model-pair"]'))
    assert int(got["pair"]) == pair
    if pair >= shipped.size or shipped[pair] == 0:
        assert got["wavelength"] == "", (name, pair)
        return
    trained = (spec.base ** (-np.arange(0, spec.rotary_dim, 2) / spec.rotary_dim) if spec.rope_type in SCALED else shipped)
    assert float(got["wavelength"]) == pytest.approx(2 * np.pi / shipped[pair], rel=1e-6), (name, pair)
    assert float(got["trained"]) == pytest.approx(2 * np.pi / trained[pair], rel=1e-6), (name, pair)


def choose_scheme(root, s):
    """Show the hands of scheme ``s`` (an index into METHODS): a press of its radio button."""
    button = root.locator(f'[role="radiogroup"][data-name="scheme"] button[data-scheme="{METHODS[s]}"]')
    button.click()
    assert button.get_attribute("aria-checked") == "true"


def choose_step(root, step):
    root.locator(f'button[data-step="{step}"]').click()
    assert root.locator(f'button[data-step="{step}"]').get_attribute("aria-selected") == "true"


def test_context_extension_numbers_at_random_states(chromium, book_server, rng):
    context, page, log = open_gallery(chromium, book_server)
    try:
        root, data = gallery_widget(page, "ContextExtension"), W.ContextExtension().data
        root.scroll_into_view_if_needed()
        # The default state: the problem, p = L (every slow pair at the end of its arc), the
        # question open; the slowest pair chosen.
        assert root.get_attribute("data-step") == "problem"
        assert dataset(root.locator('[data-readout="pair"]'))["pair"] == "63"
        check_context_state(root, data, "problem", 3, CONTEXT_POSITIONS.index(data["training_length"]), 0, 63)
        assert dataset(root.locator('[data-readout="question"]'))["answered"] == "0"
        models = root.locator('select[data-name="model"]')
        plot = root.locator('svg[data-plot="wavelengths"]')
        # Step 2's answer: PI and NTK-aware both seen at p = sL (s = 8).
        choose_step(root, "divide")
        predict(root)
        set_slider(root, "position", CONTEXT_POSITIONS.index(8 * 4096), keyboard=True)
        for method in ("linear", "ntk"):
            choose_scheme(root, METHODS.index(method))
        text = root.locator('[data-readout="question"]').inner_text()
        ntk = scheme_numbers("ntk", 8, 8 * 4096)
        assert dataset(root.locator('[data-readout="question"]'))["answered"] == "1"
        assert f"NTK-aware leaves {ntk['beyond']} outside, worst {ntk['worst']:.3g}×" in text, text
        assert f"PI brings back all {int(ntk['slow'].sum())} slow pairs (0 outside)" in text, text
        for state in range(STATES):
            step = STEP_KEYS[state % 3]
            f, p = int(rng.integers(len(data["factors"]))), int(rng.integers(len(CONTEXT_POSITIONS)))
            s = METHODS.index(STEP_SCHEMES[step][int(rng.integers(len(STEP_SCHEMES[step])))])
            pair = int(rng.integers(64))
            choose_step(root, step)
            predict(root)
            if step != "problem":
                set_slider(root, "factor", f, keyboard=True)
                if step == "bands" and state % 2:  # p = sL, where the question is answered
                    p = CONTEXT_POSITIONS.index(data["factors"][f] * 4096) if data["factors"][f] * 4096 in CONTEXT_POSITIONS else p
                choose_scheme(root, s)
            else:
                f = int(root.locator('input[data-name="factor"]').input_value())
            # p has 449 stops: the keyboard (up to 224 presses) every fourth state, a drag's input otherwise.
            set_slider(root, "position", p, keyboard=state % 4 == 0)
            how = state % 3
            page.mouse.move(0, 0)
            slow = scheme_numbers("default", 1, 1)["slow"]
            if how == 0:    # the pointer on the wavelength plot
                plot.locator(f'rect[data-target="{pair}"]').hover()
            elif how == 1 and slow[pair]:  # the pointer on a dial
                root.locator(f'g[data-dial="{pair}"]').hover()
            else:           # the keyboard: focus the drawing, Home or End, then arrows
                plot.focus()
                keys_to(page.keyboard.press, pair, 63)
            check_context_state(root, data, step, f, p, s, pair)
            check_question(root, data, step, f, p, s)
            if state % 4 == 0:  # the real models
                m = int(rng.integers(len(MENU)))
                choose_step(root, "models")
                assert root.locator('[data-part="schemes"]').is_hidden()
                models.select_option(str(m))
                on_model = min(pair, len(data["models"][m]["log10_wavelength"]) - 1)
                root.locator(f'.rope-w-section svg rect[data-target="{on_model}"]').hover()
                check_model_pair(root, m, on_model)
        assert not log.problems(), log.problems()
    finally:
        context.close()


CONTRAST = """
(root) => {""" + CONTRAST_JS + """
  const bg = rgb(getComputedStyle(root).backgroundColor);
  const lines = {}, texts = {};
  const visible = (el) => getComputedStyle(el).display !== "none";
  for (const el of root.querySelectorAll("svg polyline, svg .rope-w-context, svg [data-band]")) {
    const style = getComputedStyle(el);
    const paint = el.tagName === "polyline" || el.classList.contains("rope-w-context") ? style.stroke : style.fill;
    if (paint === "none" || !paint.startsWith("rgb")) continue;
    // A hollow mark is seen by its outline.
    const seen = el.dataset.band === "kept" && style.stroke.startsWith("rgb") ? style.stroke : paint;
    const key = el.dataset.method || el.dataset.band || el.dataset.series || el.getAttribute("class") || el.tagName;
    lines[key] = Math.min(lines[key] ?? Infinity, ratio(bg, rgb(seen)));
  }
  for (const el of root.querySelectorAll("svg text, [data-readout], .rope-w-legend-item, td, th, label, output")) {
    if (!visible(el) || !el.textContent.trim()) continue;
    const colour = el.closest("svg") ? getComputedStyle(el).fill : getComputedStyle(el).color;
    const key = el.tagName + (el.getAttribute("class") ? "." + el.getAttribute("class") : "");
    texts[key] = Math.min(texts[key] ?? Infinity, ratio(bg, rgb(colour)));
  }
  return { lines, texts };
}
"""


@pytest.mark.parametrize("scheme, viewport, touch", [("light", DESKTOP, False), ("dark", DESKTOP, False),
                                                     ("light", PHONE, True), ("dark", PHONE, True)],
                         ids=["light-1280", "dark-1280", "light-390", "dark-390"])
def test_contrast_and_fit(chromium, book_server, screenshot_dir, scheme, viewport, touch):
    context, page, log = open_gallery(chromium, book_server, scheme, viewport=viewport, touch=touch)
    try:
        assert page.evaluate("document.documentElement.dataset.theme") == scheme
        width = page.evaluate("document.documentElement.clientWidth")
        for name, steps in (("DecayExplorer", [None]), ("ContextExtension", STEP_KEYS)):
            root = gallery_widget(page, name)
            for step in steps:  # every step of the context widget, as a reader meets it
                if step is not None:
                    choose_step(root, step)
                root.scroll_into_view_if_needed()
                ratios = root.evaluate(CONTRAST)
                assert ratios["lines"] and min(ratios["lines"].values()) >= 3.0, (name, step, scheme, ratios["lines"])
                assert ratios["texts"] and min(ratios["texts"].values()) >= 4.5, (name, step, scheme, ratios["texts"])
                box = root.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (name, step, box, width)
                targets = root.locator("select, button, summary").all()
                heights = [t.bounding_box()["height"] for t in targets if t.is_visible()]
                assert min(heights, default=44) >= 44, ("touch targets", name, step, heights)
                root.screenshot(path=str(screenshot_dir / f"context-{name}-{step or 'default'}-{scheme}-{viewport['width']}.png"))
        assert not log.problems(), log.problems()
    finally:
        context.close()
