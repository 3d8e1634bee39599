"""ContextExtension's step 2 on the published gallery: one hand a dial, for the scheme the reader picks."""

from __future__ import annotations

import re

import numpy as np
import pytest
from _browser import axe_serious, axis_inverse, dataset, gallery_widget, open_gallery, set_slider
from test_widgets_context_browser import (
    METHODS,
    choose_scheme,
    choose_step,
    predict,
    scheme_numbers,
)

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


def check_one_hand(root, chosen, factor, position):
    """Every dial: one hand, the chosen scheme's, at 2π·(turns in training)·p·θ'_i/(Lθ_i),
    orange (k) once past its arc; the trained arc is the only other mark on the face."""
    want = scheme_numbers(chosen, factor, position)
    dials = root.locator('svg[data-plot="dials"]').evaluate(DIALS)
    assert [d["pair"] for d in dials] == np.flatnonzero(want["slow"]).tolist()
    for dial in dials:
        i, (cx, cy), r = dial["pair"], dial["centre"], dial["radius"]
        [hand] = dial["hands"]
        assert hand["visible"] and dial["data"]["method"] == chosen, i
        reach = want["reach"][i]
        assert float(dial["data"]["ratio"]) == pytest.approx(reach, rel=1e-6), i
        angle = 2 * np.pi * want["turns"][i] * reach
        np.testing.assert_allclose(hand["end"], [cx + r * np.cos(angle), cy - r * np.sin(angle)], atol=1e-3, err_msg=f"pair {i}")
        if reach > 1 + 1e-5:
            assert hand["cls"].split()[0] == "k", (i, hand["cls"])
        elif reach < 1 + 1e-7:
            assert hand["cls"].split()[0] == "q", (i, hand["cls"])
        assert "under" not in dial["label"], dial["label"]
    paths = root.locator('svg[data-plot="dials"] g[data-dial] path').evaluate_all("(ps) => ps.map((p) => p.getAttribute('class'))")
    assert set(paths) == {"rope-w-trained-arc"} and len(paths) == len(dials)
    answer = dataset(root.locator('[data-readout="dials"]'))
    assert int(answer["outside"]) == want["beyond"] and answer["method"] == chosen
    assert "otherOutside" not in answer
    legend = root.locator('svg[data-plot="dials"] text[data-label="dials"]').text_content()
    assert legend.endswith("under " + {"linear": "PI", "ntk": "NTK"}[chosen]), legend


def test_step_2_opens_at_sL_and_the_hands_follow_the_chosen_scheme(chromium, book_server, rng):
    context, page, log = open_gallery(chromium, book_server)
    try:
        root, data = gallery_widget(page, "ContextExtension"), W.ContextExtension().data
        root.scroll_into_view_if_needed()
        # Step 1 carries p to the far end; step 2 opens at p = sL for the factor shown, and
        # its question says so.
        set_slider(root, "position", len(CONTEXT_POSITIONS) - 1)
        choose_step(root, "divide")
        f = int(root.locator('input[data-name="factor"]').input_value())
        factor, length = data["factors"][f], data["training_length"]
        assert CONTEXT_POSITIONS[int(root.locator('input[data-name="position"]').input_value())] == factor * length
        question = root.locator('[data-readout="question"]')
        assert f"pisatsL={int(factor * length)}(s={int(factor)})" in re.sub(r"\s", "", question.inner_text()), question.inner_text()
        # No select: the step's two schemes are a radio group; only they are shown.
        assert root.locator('select[data-name="scheme"]').count() == 0
        group = root.locator('[role="radiogroup"][data-name="scheme"]')
        shown = group.locator("button:visible").evaluate_all("(bs) => bs.map((b) => b.dataset.scheme)")
        assert shown == ["linear", "ntk"]
        # At p = sL the hands are the answer: hidden, their ratios "?", until the prediction.
        dials = root.locator('svg[data-plot="dials"]').evaluate(DIALS)
        assert all(not d["hands"][0]["visible"] and "once you predict" in d["label"] for d in dials)
        labels = root.locator('svg[data-plot="dials"] text[data-dial-label]').all_text_contents()
        assert labels == ["?"] * len(dials)
        said = root.locator('[data-readout="pair"]').inner_text()
        assert "predict above" in said and "largest trained angle" not in said, said
        # The answer stays hidden until the reader has seen both schemes at p = sL.
        predict(root)
        check_one_hand(root, "linear", factor, factor * length)
        assert dataset(question)["answered"] == "0"
        # The arrow key moves the choice to NTK-aware: its hands pass their arcs, and the
        # question is answered.
        group.locator('button[data-scheme="linear"]').focus()
        page.keyboard.press("ArrowRight")
        assert group.locator('button[data-scheme="ntk"]').get_attribute("aria-checked") == "true"
        assert page.evaluate("document.activeElement.dataset.scheme") == "ntk"
        check_one_hand(root, "ntk", factor, factor * length)
        assert dataset(question)["answered"] == "1"
        pi, ntk = scheme_numbers("linear", factor, factor * length), scheme_numbers("ntk", factor, factor * length)
        assert pi["beyond"] == 0 < ntk["beyond"]
        for _ in range(8):
            f, p = int(rng.integers(len(data["factors"]))), int(rng.integers(len(CONTEXT_POSITIONS)))
            chosen = ["linear", "ntk"][int(rng.integers(2))]
            set_slider(root, "factor", f, keyboard=True)
            set_slider(root, "position", p)  # as a drag sets it (449 stops)
            choose_scheme(root, METHODS.index(chosen))
            check_one_hand(root, chosen, data["factors"][f], CONTEXT_POSITIONS[p])
        assert axe_serious(page, include=[".rope-w:has(button[data-step])"]) == []
        # Step 1 has no choice of scheme: the radio group is hidden, the hands unscaled.
        choose_step(root, "problem")
        assert not group.is_visible()
        assert dataset(root.locator('[data-readout="dials"]'))["method"] == "default"
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
