"""ScalingPairs on its chapter page (no kernel): the axes and key name what they label, and on a
phone the choice buttons stand in equal columns and the hint is not under the pinned slider.
"""

from __future__ import annotations

import pytest
from _browser import PHONE, chapter_widget, open_book_page, overlapping_texts

from rope_core import widgets as W

pytestmark = [pytest.mark.book, pytest.mark.browser]


SCALING = "book/10-extension-in-practice.html"


def test_scaling_pairs_names_its_axes_and_keys_its_marks(chromium, book_server):
    context, page, log = open_book_page(chromium, book_server, SCALING)
    root = chapter_widget(page, "ScalingPairs")
    svg = root.locator("svg.rope-w-svg")
    # The y axis is named, upright along the axis, left of its tick labels.
    name = svg.locator("text", has_text="turns (log scale)")
    assert name.count() == 1
    assert "rotate(-90)" in name.get_attribute("transform")
    one = svg.locator("text", has_text="10⁴").first.bounding_box()
    box = name.bounding_box()
    assert box["x"] + box["width"] <= one["x"] and box["height"] > box["width"]
    # The key draws each mark with the class of what it labels, so it looks the same; and what
    # it says matches the drawing: the orange bars are the table's slow pairs beyond training.
    key = svg.locator("g.rope-w-pairs-key")
    entries = {"turns over the target": "rect.rope-w-bar:not(.rope-w-bar-far)", "turns in training": "line.rope-w-tick",
               "slow pair beyond training (above its tick)": "rect.rope-w-bar-far"}
    for text, mark in entries.items():
        assert key.locator("text", has_text=text).count() == 1, text
        swatch = key.locator(mark)
        assert swatch.count() == 1, mark
        style = "(n) => { const s = getComputedStyle(n); return [s.fill, s.stroke]; }"
        assert swatch.evaluate(style) == svg.locator(f"g:not(.rope-w-pairs-key) > {mark}").first.evaluate(style), mark
    widget = W.ScalingPairs()
    data = widget.data
    for i in range(len(data["schemes"])):
        root.locator(f'.rope-w-choices[aria-label="scheme"] button[data-choice="{i}"]').click()
        cell = data["models"][widget.model_index]["cells"][data["schemes"][i]][widget.factor_index]
        far = svg.locator("g:not(.rope-w-pairs-key) > rect.rope-w-bar-far").evaluate_all(
            "(rs) => rs.map((r) => Number(r.dataset.pair))")
        assert far == cell["beyond"], data["schemes"][i]
        assert overlapping_texts(svg) == [], data["schemes"][i]
    assert not log.problems(), log.problems()
    context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_scaling_pairs_on_a_phone_lines_up_buttons_and_shows_the_hint(chromium, book_server, theme):
    context, page, log = open_book_page(chromium, book_server, SCALING, theme, viewport=PHONE, touch=True)
    root = chapter_widget(page, "ScalingPairs")
    svg = root.locator("svg.rope-w-svg")
    assert overlapping_texts(svg) == []
    for group in ("model", "scheme"):
        buttons = root.locator(f'.rope-w-choices[aria-label="{group}"] button')
        boxes = [buttons.nth(i).bounding_box() for i in range(buttons.count())]
        # Equal columns: one width for all, and every row starts at the same left edge.
        assert max(b["width"] for b in boxes) - min(b["width"] for b in boxes) < 1, group
        lefts = sorted({round(b["x"]) for b in boxes})
        assert len(lefts) == min(3, len(boxes)) and round(boxes[0]["x"]) == lefts[0], (group, lefts)
        row = root.locator(f'.rope-w-choices[aria-label="{group}"]').bounding_box()
        assert all(b["x"] + b["width"] <= row["x"] + row["width"] + 0.5 for b in boxes), group
    # The hint is under the drawing and on screen with it, clear of the pinned slider: with the
    # drawing's top at the top of the screen, the whole hint is above the pinned bar, and the
    # point at its middle belongs to the hint's own line.
    hint = root.locator('[data-readout="pair"]')
    svg.evaluate("(s) => s.scrollIntoView({block: 'start', behavior: 'instant'})")
    box, pinned = hint.bounding_box(), root.locator(".rope-w-in-reach").bounding_box()
    assert box["y"] > svg.bounding_box()["y"]
    assert box["y"] + box["height"] <= min(pinned["y"], PHONE["height"])
    at_middle = page.evaluate("""([x, y]) => { const e = document.elementFromPoint(x, y);
        return e && e.closest('.rope-w-readout:has([data-readout="pair"])') ? 'hint' : (e ? e.outerHTML.slice(0, 120) : 'nothing'); }""",
                              [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert at_middle == "hint", at_middle
    assert hint.inner_text().startswith("point at a pair")
    assert not log.problems(), log.problems()
    context.close()



@pytest.mark.parametrize("width", [1280, 1024])
def test_on_a_wider_page_each_choice_is_one_row_of_joined_buttons(chromium, book_server, width):
    """Model over scheme, each one bar: every button of a group on one line, touching the next,
    none wider than the widget, and each still at least 44 px tall."""
    context, page, log = open_book_page(chromium, book_server, SCALING, viewport={"width": width, "height": 900})
    root = chapter_widget(page, "ScalingPairs")
    right = root.bounding_box()["x"] + root.bounding_box()["width"]
    for group in ("model", "scheme"):
        boxes = root.locator(f'.rope-w-choices[aria-label="{group}"] button').evaluate_all(
            "(bs) => bs.map((b) => { const r = b.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })")
        assert len({round(y) for _, y, _, _ in boxes}) == 1, (group, boxes)
        for (x, _, w, _h), (next_x, *_) in zip(boxes, boxes[1:]):
            assert abs(x + w - 1 - next_x) <= 1.5, (group, boxes)  # joined: borders overlap by 1 px
        assert all(h >= 44 for *_, h in boxes) and boxes[-1][0] + boxes[-1][2] <= right
    assert not log.problems(), log.problems()
    context.close()
