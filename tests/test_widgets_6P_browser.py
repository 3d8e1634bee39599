"""DecayExplorer on a phone: the by-base panel's values never overlap each other, the dots, the
lines or the panel's other text; the controls the question hides take no room; the plot and the
distance slider share one 390 × 844 screen. And the file:// page shows the new print figures.

The label tests render the widget on its own page from its Python class (no kernel, the ES
module Python ships); the screen test and the file:// test read the built book.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from _browser import (
    DESKTOP,
    PHONE,
    after_frames,
    after_scrolling,
    open_alone,
    open_book_page,
    set_slider,
)

pytestmark = [pytest.mark.browser]

# Every value label of the by-base panel, every dot (its ring, the handle a reader taps) and
# the panel's other text, as boxes on the screen; and the panel's own box.
FAMILY = r"""(root) => {
  const svg = root.querySelector('[data-plot="family"]');
  const box = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    labels: [...svg.querySelectorAll("text[data-base]")].map((t) => ({ box: box(t), text: t.textContent, value: Number(t.dataset.value) })),
    dots: [...svg.querySelectorAll("[data-pick-base]")].map((g) => box(g.querySelectorAll("circle")[2])),
    texts: [...svg.querySelectorAll("[data-label], [data-family-tick], [data-base-tick]")].map(box),
    panel: box(svg),
    // the bound's line and its average's, as screen points
    lines: [...svg.querySelectorAll('[data-series="bound-by-base"], [data-series="average-by-base"]')].map((line) => {
      const matrix = line.getScreenCTM();
      return [...line.points].map((p) => { const s = p.matrixTransform(matrix); return [s.x, s.y]; });
    }),
  };
}"""


def overlap(a, b, slack=0.5):
    """Whether two screen boxes (left, top, right, bottom) share more than a hairline."""
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def crosses(segment, box, slack=0.5):
    """Whether the segment ((x1, y1), (x2, y2)) runs through the screen box (left, top, right,
    bottom) shrunk by ``slack`` on every side (Liang-Barsky clipping)."""
    (x1, y1), (x2, y2) = segment
    left, top, right, bottom = box[0] + slack, box[1] + slack, box[2] - slack, box[3] - slack
    dx, dy = x2 - x1, y2 - y1
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x1 - left), (dx, right - x1), (-dy, y1 - top), (dy, bottom - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def test_crosses_knows_a_line_through_a_box_from_one_beside_it():
    box = (0, 0, 10, 10)
    assert crosses(((-5, 5), (15, 5)), box)            # straight through
    assert crosses(((-5, -5), (15, 15)), box)          # corner to corner
    assert not crosses(((-5, 12), (15, 12)), box)      # under it
    assert not crosses(((-5, 25), (25, -5)), box)      # past its corner
    assert not crosses(((0, 10), (10, 10)), box)       # along its edge only


@pytest.mark.parametrize("theme, viewport, touch", [("dark", PHONE, True), ("light", DESKTOP, False),
                                                    ("dark", {"width": 320, "height": 700}, True)])
def test_by_base_values_never_overlap_at_random_states(chromium, decay_site, theme, viewport, touch):
    _, widget, _ = decay_site
    data = widget.data
    context, page, log = open_alone(chromium, decay_site, theme, viewport=viewport, touch=touch)
    try:
        root = page.locator(".rope-w").first
        rng = random.Random(6)
        states = [(2, 0, 0)] + [(rng.randrange(len(data["bases"])), rng.randrange(len(data["stops"])),
                                 rng.randrange(len(data["mixes"]))) for _ in range(24)]
        for b, stop, mix in states:
            set_slider(page, "base", b)
            set_slider(page, "content", mix)
            set_slider(page, "distance", stop)
            after_frames(page)
            drawn = root.evaluate(FAMILY)
            where = (theme, viewport["width"], b, stop, mix)
            r = data["stops"][stop]
            # the labels still say B(r) at every base, to 3 significant digits
            np.testing.assert_allclose([label["value"] for label in drawn["labels"]],
                                       [series["bound"][r] for series in data["series"]], err_msg=str(where))
            assert all(label["text"] for label in drawn["labels"]), where
            panel = drawn["panel"]
            for i, label in enumerate(drawn["labels"]):
                a = label["box"]
                assert panel[0] - 0.5 <= a[0] and a[2] <= panel[2] + 0.5, (where, i, a, panel)
                assert panel[1] - 0.5 <= a[1] and a[3] <= panel[3] + 0.5, (where, i, a, panel)
                for j, other in enumerate(drawn["labels"]):
                    assert j == i or not overlap(a, other["box"]), (where, i, j, a, other)
                for j, dot in enumerate(drawn["dots"]):
                    assert not overlap(a, dot), (where, "label", i, "dot", j, a, dot)
                for text in drawn["texts"]:
                    assert not overlap(a, text), (where, "label", i, "text", a, text)
                # no label is struck through by the bound's line or its average's
                for line in drawn["lines"]:
                    for segment in zip(line, line[1:]):
                        assert not crosses(segment, a), (where, "label", i, label["text"], "line", segment, a)
    finally:
        problems = log.problems()
        context.close()
    assert not problems, problems


def test_what_the_question_hides_takes_no_room_until_the_prediction(chromium, decay_site):
    _, widget, _ = decay_site
    context, page, log = open_alone(chromium, decay_site, "dark", viewport=PHONE, touch=True)
    try:
        root = page.locator(".rope-w").first
        button = root.locator('[data-toggle="random"]')
        band_legend = root.locator('[data-legend="random-band"]')
        for node in (button, band_legend):
            assert node.get_attribute("data-concealed") is not None and node.get_attribute("hidden") is not None
            assert node.bounding_box() is None   # no box: it takes no room
        # the base slider's row is followed by the legend with no empty row between them
        base_row = root.locator('input[data-name="base"]').locator("xpath=ancestor::*[contains(@class,'rope-w-control')][1]")
        legend = root.locator(".rope-w-legend")
        gap = legend.bounding_box()["y"] - (base_row.bounding_box()["y"] + base_row.bounding_box()["height"])
        assert gap < 30, gap
        root.locator('button[data-answer="1"]').click()
        after_frames(page)
        for node in (button, band_legend):
            assert node.get_attribute("data-concealed") is None and node.get_attribute("hidden") is None
            assert node.is_visible()
        button.click()
        after_frames(page)
        assert button.get_attribute("aria-pressed") == "true"
    finally:
        problems = log.problems()
        context.close()
    assert not problems, problems


# ---- the built book -----------------------------------------------------------------------

def test_chapter_8_plot_and_distance_slider_share_one_phone_screen(chromium, book_server):
    context, page, log = open_book_page(chromium, book_server, "08-rope-in-attention.md", "dark",
                                        viewport=PHONE, touch=True)
    try:
        root = page.locator('.rope-w:has([data-plot="family"])').first
        plot = root.locator("svg.rope-w-svg").first
        # the plot just under the theme's sticky header, as a reader scrolls it into view
        plot.scroll_into_view_if_needed()
        plot.evaluate("svg => svg.scrollIntoView({block: 'start'})")
        after_scrolling(page)
        header = page.evaluate("() => { const h = document.querySelector('.bd-header'); return h ? h.getBoundingClientRect().bottom : 0; }")
        page.evaluate("(by) => window.scrollBy(0, -by)", max(header, 0) + 8)
        after_scrolling(page)
        after_frames(page)
        box = plot.bounding_box()
        distance = root.locator('input[data-name="distance"]').bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
        assert distance is not None and 0 <= distance["y"] and distance["y"] + distance["height"] <= PHONE["height"], distance
        # and the slider moves what the plot shows, from where it is
        root.locator('input[data-name="distance"]').focus()
        page.keyboard.press("End")
        after_frames(page)
        assert root.locator('[data-readout="distance"]').inner_text().strip().endswith("1024")
    finally:
        problems = log.problems()
        context.close()
    assert not problems, problems


@pytest.mark.parametrize("name, chapter", [("DecayExplorer", "08-rope-in-attention.html"),
                                           ("LayoutExplorer", "07-computing-fast.html")])
def test_file_pages_show_the_new_print_figure(chromium, built_book, name, chapter):
    # On a file:// page no module runs: the print figure (the gallery's) stands in the widget's
    # place, and it is the figure plot_decay / plot_layouts now draw (its alt says so).
    from rope_core.widgets.registry import entry

    context = chromium.new_context(viewport=DESKTOP)   # no routing: a file has no host
    try:
        page = context.new_page()
        page.goto((built_book / "book" / chapter).as_uri(), wait_until="load")
        figure = page.locator(f'figure.rope-widget-print[data-widget="{name}"]').first
        figure.scroll_into_view_if_needed()
        assert figure.is_visible()
        image = figure.locator("img")
        image.evaluate("(img) => img.decode()")
        alt = image.get_attribute("alt")
        assert re.sub(r"\s+", " ", alt) == re.sub(r"\s+", " ", entry(name).card.alt)
        assert image.evaluate("img => img.complete && img.naturalWidth > 200")
    finally:
        context.close()


def test_no_serious_axe_violation_in_chapter_8s_decay_explorer_on_a_phone(chromium, book_server):
    from _browser import axe_serious

    context, page, log = open_book_page(chromium, book_server, "08-rope-in-attention.md", "dark",
                                        viewport=PHONE, touch=True)
    try:
        scope = ['.rope-w:has([data-plot="family"])']
        root = page.locator(scope[0]).first
        root.scroll_into_view_if_needed()
        after_frames(page)
        assert axe_serious(page, include=scope) == []
        root.locator('button[data-answer="1"]').click()
        set_slider(root, "content", int(root.locator('input[data-name="content"]').get_attribute("max")))
        set_slider(root, "distance", 40)
        root.locator('[data-toggle="random"]').click()
        after_frames(page)
        assert axe_serious(page, include=scope) == []
    finally:
        context.close()
