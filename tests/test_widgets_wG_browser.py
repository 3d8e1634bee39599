"""ContextExtension's continuous position p on the published gallery: the page's own stops and
arithmetic against rope_core at random p, a pointer drag that lands on p = sL exactly, and
Page Up / Page Down between the positions the questions name."""

from __future__ import annotations

import numpy as np
import pytest
from _browser import dataset, gallery_widget, open_gallery, set_slider
from test_widgets_context_browser import choose_scheme, choose_step, predict
from test_widgets_wC_context_browser import DIALS

import rope_core as rc
from rope_core import widgets as W
from rope_core.demos.context import (
    example_rope_scaling,
    octave_positions,
    slow_pairs_beyond_training,
)

pytestmark = [pytest.mark.book, pytest.mark.browser]

WIDGET = W.ContextExtension()
POSITIONS, DATA = WIDGET.positions, WIDGET.data
L = DATA["training_length"]

# Every stop the slider reaches, as the page shows it, in one pass.
SHOWN_STOPS = """(input) => {
  const out = input.closest(".rope-w-control").querySelector("output"), shown = [];
  for (let k = 0; k <= Number(input.max); k++) {
    input.value = k;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    shown.push(Number(out.textContent.replace(/\\s/g, "")));
  }
  return shown;
}"""


def rope_reach(method, factor, position):
    """p·θ'_i / (L θ_i) for every pair, from rope_core's scaled frequencies."""
    theta = rc.inverse_frequencies(DATA["dim"], DATA["base"])
    scaled = rc.inverse_frequencies(DATA["dim"], DATA["base"], rope_scaling=example_rope_scaling(method, factor, L))
    return theta, scaled, position * scaled / (L * theta)


def check_hands(root, chosen, factor, position):
    """Each dial's one hand at 2π·(Lθ_i/2π)·p·θ'_i/(Lθ_i) = p·θ'_i for the chosen scheme, the
    count past their arcs as slow_pairs_beyond_training counts it."""
    dials = root.locator('svg[data-plot="dials"]').evaluate(DIALS)
    assert len(dials) == 18
    for method in [chosen]:
        theta, scaled, reach = rope_reach(method, factor, position)
        for dial in dials:
            i, (cx, cy), r = dial["pair"], dial["centre"], dial["radius"]
            angle = position * scaled[i]  # = 2π·turns_i·reach_i
            [hand] = dial["hands"]
            assert hand["visible"], (i, method)
            np.testing.assert_allclose(hand["end"], [cx + r * np.cos(angle), cy - r * np.sin(angle)], atol=2e-3,
                                       err_msg=f"pair {i}, {method}, p = {position}")
            assert hand["cls"].split()[0] == ("k" if reach[i] > 1 + 1e-6 else "q"), (i, method, position)
        count, worst = slow_pairs_beyond_training(theta, scaled, L, [position])
        answer = dataset(root.locator('[data-readout="dials"]'))
        assert int(answer["outside"]) == int(count[0]), (method, position)
        cell = dataset(root.locator(f'td[data-method="{method}"][data-field="beyond"]'))
        assert int(cell["count"]) == int(count[0]) and float(cell["worst"]) == pytest.approx(worst[0], rel=1e-6)
        turns = dataset(root.locator(f'td[data-method="{method}"][data-field="slowest_turns"]'))
        assert float(turns["value"]) == pytest.approx(position * scaled[-1] / (2 * np.pi), rel=1e-8)


def thumb_x(box, index, last, thumb=16):
    """Where the centre of a range input's thumb sits at stop ``index`` (Chromium's track runs
    from half a thumb in from each end)."""
    return box["x"] + thumb / 2 + (box["width"] - thumb) * index / last


def test_the_page_computes_p_stops_and_hands_as_rope_core_does(chromium, book_server, rng):
    context, page, log = open_gallery(chromium, book_server)
    try:
        root = gallery_widget(page, "ContextExtension")
        control = root.locator('input[data-name="position"]')
        # The page's 449 stops from the three numbers sent equal octave_positions'.
        assert DATA["position_grid"] == {"first": 1024, "last": 131072, "per_octave": 64}
        assert int(control.get_attribute("max")) == len(POSITIONS) - 1 == 448
        assert control.evaluate(SHOWN_STOPS) == list(octave_positions(1024, 131072, 64))
        # The problem, then both schemes of step 2, at random stops (not only powers of two).
        set_slider(root, "position", POSITIONS.index(L))
        for step, chosen in (("problem", "default"), ("divide", "linear"), ("divide", "ntk")):
            choose_step(root, step)
            predict(root)
            root.locator('details[data-part="numbers"]').evaluate("(d) => { d.open = true; }")
            if step == "divide":
                choose_scheme(root, DATA["methods"].index(chosen))
            for _ in range(6):
                if step != "problem":  # the problem has no scaling: its factor slider is hidden
                    set_slider(root, "factor", int(rng.integers(len(DATA["factors"]))))
                factor = DATA["factors"][int(root.locator('input[data-name="factor"]').input_value())]
                k = int(rng.integers(len(POSITIONS)))
                set_slider(root, "position", k)
                check_hands(root, chosen, factor, POSITIONS[k])
        assert not log.problems(), log.problems()
    finally:
        context.close()


def test_a_drag_lands_on_sL_and_page_keys_jump_between_named_positions(chromium, book_server):
    context, page, log = open_gallery(chromium, book_server)
    try:
        root = gallery_widget(page, "ContextExtension")
        choose_step(root, "divide")
        predict(root)
        # Step 2 opens at p = sL under PI; seeing NTK-aware there too answers its question.
        choose_scheme(root, DATA["methods"].index("ntk"))
        control = root.locator('input[data-name="position"]')
        question = root.locator('[data-readout="question"]')
        last = len(POSITIONS) - 1
        factor = DATA["factors"][int(root.locator('input[data-name="factor"]').input_value())]
        at_sl = POSITIONS.index(factor * L)
        # A drag that ends one or two stops beside sL settles on it: the question is answered.
        for miss in (2, -1):
            set_slider(root, "position", POSITIONS.index(L))
            box = control.bounding_box()  # the answer's text above it moves the slider
            y = box["y"] + box["height"] / 2
            page.mouse.move(thumb_x(box, POSITIONS.index(L), last), y)
            page.mouse.down()
            page.mouse.move(thumb_x(box, at_sl + miss, last), y, steps=8)
            page.mouse.up()
            assert int(control.input_value()) == at_sl, miss
            assert dataset(root.locator('[data-readout="pair"]'))["position"] == str(int(factor * L))
            assert dataset(question)["answered"] == "1"
        # Away from the named stops a drag stays where it ends, between powers of two.
        box = control.bounding_box()
        y = box["y"] + box["height"] / 2
        page.mouse.move(thumb_x(box, at_sl, last), y)
        page.mouse.down()
        page.mouse.move(thumb_x(box, at_sl + 20, last), y, steps=8)
        page.mouse.up()
        assert abs(int(control.input_value()) - (at_sl + 20)) <= 1
        assert POSITIONS[int(control.input_value())] not in {s * L for s in (1, *DATA["factors"])}
        # The keyboard: arrows move one 1 % stop; Page Up / Page Down jump to L, each sL, the ends.
        set_slider(root, "position", POSITIONS.index(L), keyboard=True)
        shown = lambda: int(root.locator('output[data-name="position"]').inner_text().replace("\u202f", ""))  # noqa: E731
        control.press("ArrowRight")
        assert shown() == POSITIONS[POSITIONS.index(L) + 1]
        reached = []
        for _ in range(7):
            control.press("PageUp")
            reached.append(shown())
        assert reached == [2 * L, 4 * L, 8 * L, 16 * L, 32 * L, 32 * L, 32 * L]
        assert control.get_attribute("aria-valuetext").replace("\u202f", "") == str(32 * L)
        control.press("PageDown")
        control.press("PageDown")
        assert shown() == 8 * L
        for _ in range(4):
            control.press("PageDown")
        assert shown() == POSITIONS[0]
        assert not log.problems(), log.problems()
    finally:
        context.close()


# --- RotationExplorer's second question: R(aθ)ᵀR(bθ) ---------------------------------------

TWO_JS = """(part) => {
  const num = (el, k) => Number(el.getAttribute(k));
  const tip = (name) => { const l = part.querySelector(`g[data-vector="${name}"] line`); return [num(l, "x2"), num(l, "y2")]; };
  const face = part.querySelector("svg circle.rope-w-axis");
  return { a: tip("a"), b: tip("b"), centre: [num(face, "cx"), num(face, "cy")], radius: num(face, "r"),
           product: [...part.querySelectorAll('[data-readout="product"] td')].map((td) => Number(td.dataset.value)),
           between: { ...part.querySelector('[data-readout="between"]').dataset } };
}"""


def check_two_positions(root, part, a, b):
    """The two arrows at R(aθ)q and R(bθ)q, the product matrix against rope_core's
    R(aθ)ᵀR(bθ) and R((b − a)θ), and the angle between the arrows."""
    theta = W.RotationExplorer().data["thetas"][int(root.locator('input[data-name="theta"]').input_value())]
    q_shown = dataset(root.locator('[data-readout="q"]'))
    q = np.array([float(q_shown["x"]), float(q_shown["y"])])
    got = part.evaluate(TWO_JS)
    (cx, cy), r = got["centre"], got["radius"]
    for name, m in (("a", a), ("b", b)):
        want = rc.rotation_matrix(m * theta) @ q
        np.testing.assert_allclose(got[name], [cx + r * want[0], cy - r * want[1]], atol=1e-6, err_msg=name)
    product = rc.rotation_matrix(a * theta).T @ rc.rotation_matrix(b * theta)
    np.testing.assert_allclose(np.reshape(got["product"], (2, 2)), product, atol=1e-12)
    np.testing.assert_allclose(product, rc.rotation_matrix((b - a) * theta), atol=1e-12)
    assert int(got["between"]["gap"]) == b - a
    assert float(got["between"]["angle"]) == pytest.approx(np.angle(np.exp(1j * (b - a) * theta)), abs=1e-12)


def test_rotation_explorer_asks_what_R_a_transpose_R_b_turns_by_then_lets_both_positions_move(chromium, book_server, rng):
    context, page, log = open_gallery(chromium, book_server)
    try:
        root = gallery_widget(page, "RotationExplorer")
        part = root.locator('[data-part="two-positions"]')
        # Step 2 is folded until the first answer shows; its heading opens it sooner.
        root.locator('details[data-part="step-2"] > summary').click()
        part.scroll_into_view_if_needed()
        feedback = part.locator('[data-readout="two-feedback"]')
        hidden_js = """(part) => ['[data-label="between"]', '[data-readout="product"]', '[data-readout="between"]']
          .map((s) => getComputedStyle(part.querySelector(s)).visibility === "hidden")"""
        # Asked first: the arc's name, the product and the angle are hidden, nothing answered.
        assert part.evaluate(hidden_js) == [True] * 3 and feedback.get_attribute("data-stage") == "asked"
        assert part.locator('[data-choice]').all_inner_texts() == ["(a + b)θ", "(b − a)θ", "bθ: a does not matter"]
        widget = W.RotationExplorer()
        a, b = widget.a_position, widget.b_position
        check_two_positions(root, part, a, b)
        part.locator('button[data-choice="1"]').click()
        assert part.evaluate(hidden_js) == [False] * 3 and feedback.get_attribute("data-stage") == "predicted"
        # Moving b alone changes b − a: still not answered.
        grip_b = part.locator('g[data-handle="position-b"]')
        grip_b.focus()
        grip_b.press("ArrowRight")
        b += 1
        check_two_positions(root, part, a, b)
        assert feedback.get_attribute("data-stage") == "predicted"
        # The grip between the arrows moves both: b − a and the product stay; now it is answered.
        both = part.locator('g[data-handle="both"]')
        before = part.evaluate(TWO_JS)["product"]
        both.focus()
        both.press("ArrowRight")
        a, b = a + 1, b + 1
        check_two_positions(root, part, a, b)
        np.testing.assert_allclose(part.evaluate(TWO_JS)["product"], before, atol=1e-12)
        assert feedback.get_attribute("data-stage") == "revealed" and feedback.get_attribute("data-correct") == "true"
        assert f"(b − a)θ = {b - a} ×" in feedback.inner_text()
        # A pointer drag of the grip round the centre by 2θ moves both by 2.
        theta = widget.data["thetas"][int(root.locator('input[data-name="theta"]').input_value())]
        box, face = both.bounding_box(), part.locator("svg").bounding_box()
        gx, gy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        ox, oy = face["x"] + face["width"] / 2, face["y"] + face["height"] / 2
        start = np.arctan2(-(gy - oy), gx - ox)
        radius = np.hypot(gx - ox, gy - oy)
        page.mouse.move(gx, gy)
        page.mouse.down()
        for t in np.linspace(0, 2 * theta, 12)[1:]:
            page.mouse.move(ox + radius * np.cos(start + t), oy - radius * np.sin(start + t))
        page.mouse.up()
        a, b = a + 2, b + 2
        assert (int(part.locator('input[data-name="a_position"]').input_value()), int(part.locator('input[data-name="b_position"]').input_value())) == (a, b)
        check_two_positions(root, part, a, b)
        # Random positions by the sliders, and another θ: always R((b − a)θ).
        for _ in range(6):
            a, b = (int(v) for v in rng.integers(0, 65, size=2))
            set_slider(part, "a_position", a)
            set_slider(part, "b_position", b)
            if rng.integers(2):
                set_slider(root, "theta", int(rng.integers(len(widget.data["thetas"]))))
            check_two_positions(root, part, a, b)
        # The first question's answers and feedback stay the widget's only ones of their names.
        assert root.locator('[data-answer]').count() == 2 and root.locator('[data-readout="feedback"]').count() == 1
        assert root.locator("[data-lesson]").count() == 1
        assert not log.problems(), log.problems()
    finally:
        context.close()
