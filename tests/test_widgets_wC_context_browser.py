"""ContextExtension's step 2 on the published gallery: both schemes' hands on one set of dials."""

from __future__ import annotations

import numpy as np
import pytest
from _browser import axe_serious, axis_inverse, dataset, gallery_widget, open_gallery, set_slider
from test_widgets_context_browser import METHODS, choose_step, predict, scheme_numbers

from rope_core import widgets as W

pytestmark = [pytest.mark.book, pytest.mark.browser]
CONTEXT_POSITIONS = W.ContextExtension().positions

DIALS = """(svg) => [...svg.querySelectorAll("g[data-dial]")].map((g) => {
  const face = g.querySelector("circle.rope-w-meaning"), num = (el, k) => Number(el.getAttribute(k));
  const hands = [...g.querySelectorAll("g.q, g.k")].map((h) => ({
    cls: h.getAttribute("class"), visible: h.getAttribute("visibility") !== "hidden",
    end: [num(h.querySelector("line"), "x2"), num(h.querySelector("line"), "y2")] }));
  return { pair: Number(g.dataset.dial), data: { ...g.dataset }, label: g.getAttribute("aria-label"),
           centre: [num(face, "cx"), num(face, "cy")], radius: num(face, "r"), hands };
})"""


def check_overlay(root, chosen, factor, position):
    """Every dial: the chosen scheme's hand (solid) and the other's (dashed), each at
    2π·(turns in training)·p·θ'_i/(Lθ_i) for its own scheme, orange (k) once past its arc."""
    other = "ntk" if chosen == "linear" else "linear"
    want = {m: scheme_numbers(m, factor, position) for m in (chosen, other)}
    dials = root.locator('svg[data-plot="dials"]').evaluate(DIALS)
    assert [d["pair"] for d in dials] == np.flatnonzero(want[chosen]["slow"]).tolist()
    for dial in dials:
        i, (cx, cy), r = dial["pair"], dial["centre"], dial["radius"]
        hand, second = dial["hands"]
        assert hand["visible"] and second["visible"], i
        assert dial["data"]["otherMethod"] == other
        for drawn, method, ratio in ((hand, chosen, dial["data"]["ratio"]), (second, other, dial["data"]["otherRatio"])):
            reach = want[method]["reach"][i]
            assert float(ratio) == pytest.approx(reach, rel=1e-6), (i, method)
            angle = 2 * np.pi * want[method]["turns"][i] * reach
            np.testing.assert_allclose(drawn["end"], [cx + r * np.cos(angle), cy - r * np.sin(angle)], atol=1e-3,
                                       err_msg=f"pair {i}, {method}")
            colour = drawn["cls"].split()[0]
            if reach > 1 + 1e-5:
                assert colour == "k", (i, method, drawn["cls"])
            elif reach < 1 + 1e-7:
                assert colour == "q", (i, method, drawn["cls"])
        assert second["cls"].endswith(" rope-w-second-hand") and "rope-w-second-hand" not in hand["cls"]
        assert dial["data"]["otherBeyond"] == ("1" if want[other]["reach"][i] > 1 + 1e-6 else "0"), i
        assert "under NTK-aware" in dial["label"] or "under linear" in dial["label"], dial["label"]
    answer = dataset(root.locator('[data-readout="dials"]'))
    assert int(answer["outside"]) == want[chosen]["beyond"]
    assert int(answer["otherOutside"]) == want[other]["beyond"]
    keys = root.locator('svg[data-plot="dials"] tspan[data-hand-key]').evaluate_all("(ts) => ts.map((t) => t.dataset.handKey)")
    assert keys == [chosen, other]


def test_step_2_overlays_both_schemes_at_random_states(chromium, book_server, rng):
    context, page, log = open_gallery(chromium, book_server)
    try:
        root, data = gallery_widget(page, "ContextExtension"), W.ContextExtension().data
        root.scroll_into_view_if_needed()
        scheme = root.locator('select[data-name="scheme"]')
        # Step 1: one hand per dial, no second scheme.
        assert root.locator('svg[data-plot="dials"] g.rope-w-second-hand[visibility="visible"]').count() == 0
        choose_step(root, "divide")
        # The question is answered by p = sL alone: both schemes are on the dials.
        predict(root)
        f = int(root.locator('input[data-name="factor"]').input_value())
        set_slider(root, "position", CONTEXT_POSITIONS.index(data["factors"][f] * data["training_length"]), keyboard=True)
        assert dataset(root.locator('[data-readout="question"]'))["answered"] == "1"
        for _ in range(8):
            f, p = int(rng.integers(len(data["factors"]))), int(rng.integers(len(CONTEXT_POSITIONS)))
            chosen = ["linear", "ntk"][int(rng.integers(2))]
            set_slider(root, "factor", f, keyboard=True)
            set_slider(root, "position", p)  # as a drag sets it (449 stops)
            scheme.select_option(str(METHODS.index(chosen)))
            check_overlay(root, chosen, data["factors"][f], CONTEXT_POSITIONS[p])
        assert axe_serious(page, include=[".rope-w:has(button[data-step])"]) == []
        # Steps 3 and 1 go back to one hand per dial.
        for step in ("bands", "problem"):
            choose_step(root, step)
            assert root.locator('svg[data-plot="dials"] g.rope-w-second-hand[visibility="visible"]').count() == 0
            assert "otherOutside" not in dataset(root.locator('[data-readout="dials"]'))
        assert not log.problems(), log.problems()
    finally:
        context.close()


PANEL = """(svg) => {
  const num = (el, k) => Number(el.getAttribute(k));
  return {
    y: [...svg.querySelectorAll("line[data-y-tick]")].map((l) => [+l.dataset.yTick, num(l, "y1"), num(l, "y2")]),
    x: [...svg.querySelectorAll("line[data-x-tick]")].map((l) => [+l.dataset.xTick, num(l, "x1"), num(l, "x2")]),
    dots: [...svg.querySelectorAll("circle[data-pair]")].map((c) => [+c.dataset.pair, num(c, "cx"), num(c, "cy")]),
  };
}"""


def drawn_dots(svg):
    got = svg.evaluate(PANEL)
    x_of, y_of = axis_inverse(got["x"]), axis_inverse(got["y"])
    return got["y"], {pair: (float(x_of(cx)), float(y_of(cy))) for pair, cx, cy in got["dots"]}


def test_step_4_draws_a_second_model_on_the_same_axis(chromium, book_server, rng):
    context, page, log = open_gallery(chromium, book_server)
    try:
        root, data = gallery_widget(page, "ContextExtension"), W.ContextExtension().data
        root.scroll_into_view_if_needed()
        labels = [entry["label"] for entry in data["models"]]
        choose_step(root, "models")
        assert root.locator('[data-panel="compare"]').count() == 0  # none until asked for
        pairs = [("Llama 3.1 8B", "Llama 3 8B")] + [tuple(labels[j] for j in rng.choice(len(labels), 2, replace=False)) for _ in range(6)]
        for first, second in pairs:
            i, j = labels.index(first), labels.index(second)
            root.locator('select[data-name="model"]').select_option(str(i))
            root.locator('select[data-name="compare"]').select_option(str(j))
            panel = root.locator('[data-panel="compare"]')
            assert panel.is_visible()
            main_svg = root.locator('[data-panel="model"] svg')
            compare_svg = panel.locator("svg")
            # One y axis for both, covering both models' wavelengths.
            main_ticks, main_dots = drawn_dots(main_svg)
            compare_ticks, compare_dots = drawn_dots(compare_svg)
            assert [t[0] for t in main_ticks] == [t[0] for t in compare_ticks]
            for index, dots in ((i, main_dots), (j, compare_dots)):
                values = data["models"][index]["log10_wavelength"]
                assert sorted(dots) == [k for k, v in enumerate(values) if v is not None], (first, second)
                for k, (x, y) in dots.items():
                    assert x == pytest.approx(k, abs=1e-6) and y == pytest.approx(values[k], abs=1e-6), (labels[index], k)
            # The right margin's line labels (trained, max positions) of each panel: none stacked.
            for svg in (main_svg, compare_svg):
                heights = sorted(svg.locator("text[data-label]").evaluate_all("(ts) => ts.map((t) => Number(t.getAttribute('y')))"))
                assert all(b - a >= 13 for a, b in zip(heights, heights[1:])), (first, second, heights)
            assert dataset(root.locator('[data-readout="compare"]'))["name"] == data["models"][j]["name"]
            assert dataset(root.locator('[data-readout="model"]'))["name"] == data["models"][i]["name"]
            # The pair picked on the first is marked and read out on the second.
            pair = int(rng.integers(min(len(data["models"][i]["log10_wavelength"]), len(data["models"][j]["log10_wavelength"]))))
            main_svg.locator(f'rect[data-target="{pair}"]').hover()
            shown = dataset(root.locator('[data-readout="compare-pair"]'))
            assert int(shown["pair"]) == pair
            value = data["models"][j]["log10_wavelength"][pair]
            if value is None:
                assert shown["wavelength"] == ""
            else:
                assert float(shown["wavelength"]) == pytest.approx(10 ** value, rel=1e-6)
        assert axe_serious(page, include=[".rope-w:has(button[data-step])"]) == []
        root.locator('select[data-name="compare"]').select_option("-1")
        assert root.locator('[data-panel="compare"]').is_hidden()
        assert not log.problems(), log.problems()
    finally:
        context.close()
