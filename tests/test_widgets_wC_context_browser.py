"""ContextExtension's step 2 on the published gallery: both schemes' hands on one set of dials."""

from __future__ import annotations

import numpy as np
import pytest
from _browser import axe_serious, dataset, gallery_widget, open_gallery, set_slider
from test_widgets_context_browser import METHODS, choose_step, predict, scheme_numbers

from rope_core import widgets as W

pytestmark = [pytest.mark.book, pytest.mark.browser]

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
        set_slider(root, "position", data["positions"].index(data["factors"][f] * data["training_length"]), keyboard=True)
        assert dataset(root.locator('[data-readout="question"]'))["answered"] == "1"
        for _ in range(8):
            f, p = int(rng.integers(len(data["factors"]))), int(rng.integers(len(data["positions"])))
            chosen = ["linear", "ntk"][int(rng.integers(2))]
            set_slider(root, "factor", f, keyboard=True)
            set_slider(root, "position", p, keyboard=True)
            scheme.select_option(str(METHODS.index(chosen)))
            check_overlay(root, chosen, data["factors"][f], data["positions"][p])
        assert axe_serious(page, include=[".rope-w:has(button[data-step])"]) == []
        # Steps 3 and 1 go back to one hand per dial.
        for step in ("bands", "problem"):
            choose_step(root, step)
            assert root.locator('svg[data-plot="dials"] g.rope-w-second-hand[visibility="visible"]').count() == 0
            assert "otherOutside" not in dataset(root.locator('[data-readout="dials"]'))
        assert not log.problems(), log.problems()
    finally:
        context.close()
