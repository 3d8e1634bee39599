"""RotationMatrixHeatmap and FrequencyClocks in chromium: what the hand finds past the question.

The heat map's slider runs past the question's m = 32 to 4096 on log steps: play halts at 32,
then runs on to the last stop; every frame on the way draws each block at m·θ_i of rope_core;
the verdict is judged at m = 32 wherever the slider is and says what the slider shows when it
is past; a tick on each block's ring marks 0.1 rad. The widget is rendered on its own page from
its Python class (test_widgets_spectrum_browser.py's page: the module and sheet Python ships).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import test_widgets_wD_browser as heat_pages
from _browser import DESKTOP, PHONE, after_frames, dataset, open_page, serve, set_slider
from test_widgets_spectrum_browser import write_page
from test_widgets_wD_browser import FRAME, check_frame, frames_while_playing, state

import rope_core as rc
from rope_core import widgets as W

pytestmark = [pytest.mark.browser]
# The heat map's own page and a fresh tab on it, predicted "the bottom blocks".
site, opened = heat_pages.site, heat_pages.opened


def test_play_halts_at_the_question_then_runs_on_to_the_last_stop(opened):
    open_one, widget = opened
    page = open_one()
    dim, base = state(page, widget)
    positions, asked = widget.data["positions"], widget.data["question"]
    set_slider(page, "position", positions.index(asked))
    page.locator('button[data-name="play"]').click()
    frames = frames_while_playing(page, dim, base, 120)   # every angle drawn is m·θ_i, between stops too
    played = [f["m"] for f in frames if f["playing"] == "true"]
    assert len(played) >= 5, played
    assert all(b >= a for a, b in zip(played, played[1:])), played
    assert max(played) > 64 and any(m not in positions for m in played), played   # log steps, smoothly
    page.wait_for_timeout(400)
    frame = page.evaluate(FRAME)
    assert frame["playing"] == "false" and frame["m"] == positions[-1]
    check_frame(frame, dim, base)
    # There the slow blocks have turned too: the last by more than 1 rad.
    theta = rc.inverse_frequencies(dim, base)
    assert positions[-1] * theta[-1] > 1.0
    verdict = page.locator(".rope-w-question").inner_text()
    assert f"At m = {asked}, block {dim // 2 - 1} has turned by less than 0.1 rad" in verdict, verdict
    assert f"(The slider is past {asked}, at m = {positions[-1]}: there every block has turned by 0.1 rad or more;" in verdict
    slowest = re.search(r"the slowest by ([\d.]+) rad\.\)", verdict)
    assert slowest and float(slowest.group(1)) == pytest.approx(positions[-1] * theta[-1], rel=5e-3), verdict


def test_the_verdict_is_judged_at_the_question_wherever_the_slider_is(opened, rng):
    open_one, widget = opened
    page = open_one()
    data = widget.data
    positions, asked = data["positions"], data["question"]
    question = page.locator('[data-readout="question"]')
    # Below the question's m: not yet answered, no verdict.
    set_slider(page, "position", positions.index(asked) - 1)
    assert dataset(question)["answered"] == "0"
    assert "✓" not in page.locator(".rope-w-question").inner_text()
    for _ in range(8):
        d, b = int(rng.integers(len(data["dims"]))), int(rng.integers(len(data["bases"])))
        k = int(rng.integers(positions.index(asked), len(positions)))
        for name, index in (("dim", d), ("base", b), ("position", k)):
            set_slider(page, name, index)
        after_frames(page)
        dim, base, m = data["dims"][d], data["bases"][b], positions[k]
        theta = rc.inverse_frequencies(dim, base)
        check_frame(page.evaluate(FRAME), dim, base)
        assert dataset(question)["answered"] == "1"
        at_question = np.flatnonzero(asked * theta < 0.1)
        assert int(dataset(question)["still"]) == (int(at_question[0]) if at_question.size else -1)
        verdict = page.locator(".rope-w-question").inner_text()
        assert f"At m = {asked}" in verdict, verdict
        if m == asked:
            assert "The slider is past" not in verdict
            continue
        now = np.flatnonzero(m * theta < 0.1)
        assert f"(The slider is past {asked}, at m = {m}: there " in verdict, verdict
        if now.size:
            first = int(now[0])
            blocks = f"block {first}" if first == dim // 2 - 1 else f"blocks {first}–{dim // 2 - 1}"
            assert f"there {blocks} still turn" in verdict, verdict
        else:
            assert "every block has turned by 0.1 rad or more" in verdict, verdict


def test_the_slider_lands_on_the_question_and_the_powers_of_two_by_keyboard(opened):
    open_one, widget = opened
    page = open_one()
    positions = widget.data["positions"]
    slider = page.locator('input[data-name="position"]')
    output = page.locator('output[data-name="position"]')
    set_slider(page, "position", 0)
    slider.focus()
    seen = []
    for _ in range(len(positions) - 1):
        page.keyboard.press("ArrowRight")
        seen.append(int(output.inner_text()))
    assert seen == positions[1:]
    assert {32, *(2**k for k in range(13))} <= set(seen)
    assert slider.get_attribute("aria-valuetext") == "4096"


def test_each_block_ring_has_a_tick_at_a_tenth_of_a_radian(opened):
    open_one, widget = opened
    page = open_one()
    for d in range(len(widget.data["dims"])):
        set_slider(page, "dim", d)
        ticks = page.evaluate("""() => [...document.querySelectorAll("g[data-block-turn]")].map((g) => {
          const ring = g.querySelector("circle"), tick = g.querySelector("path[data-block-tick]");
          const n = tick.getAttribute("d").replace(/[ML]/g, " ").trim().split(/\\s+/).map(Number);
          return [+ring.getAttribute("cx"), +ring.getAttribute("cy"), +ring.getAttribute("r"), ...n]; })""")
        assert len(ticks) == widget.data["dims"][d] // 2
        for cx, cy, r, x1, y1, x2, y2 in ticks:
            for x, y in ((x1, y1), (x2, y2)):
                assert math.atan2(cy - y, x - cx) == pytest.approx(0.1, abs=1e-9)
            # It crosses the ring: from inside to outside.
            assert math.hypot(x1 - cx, y1 - cy) < r < math.hypot(x2 - cx, y2 - cy)
    assert page.locator('text[data-legend="tick"]').text_content() == "tick on each ring: 0.1 rad from the start"


# FrequencyClocks: L's mark on the m slider, one caption under it, the odometer's captions inside
# the drawing, and nothing pinned over what the reader scrolls to on a phone.
@pytest.fixture(scope="module")
def clock_site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("J-clocks")
    widget = W.FrequencyClocks()
    pages = {theme: write_page(directory, widget, theme) for theme in ("light", "dark")}
    pages["heat-dark"] = write_page(directory, W.RotationMatrixHeatmap(), "dark")
    with serve(directory) as url:
        yield url, pages, widget


@pytest.fixture(params=["1280-light", "390-dark"])
def clocks(request, chromium, clock_site):
    url, pages, widget = clock_site
    width, theme = request.param.split("-")
    phone = width == "390"
    context, page, log = open_page(chromium, theme, viewport=PHONE if phone else DESKTOP, touch=phone)
    page.goto(f"{url}/{pages[theme]}")
    page.wait_for_function("window.ropeReady === true", timeout=20000)
    after_frames(page)
    yield page, widget, phone
    problems = log.problems()
    context.close()
    assert not problems, problems


MARK = """() => {
  const input = document.querySelector('input[data-name="position"]'), mark = document.querySelector('[data-mark="context"]');
  const i = input.getBoundingClientRect(), m = mark.getBoundingClientRect(), bar = document.querySelector(".rope-w-in-reach");
  const c = document.querySelector('[data-readout="scale"] .rope-w-scale-caption').getBoundingClientRect();
  return { text: mark.textContent, centre: m.left + m.width / 2, input: [i.left, i.width], share: Number(mark.dataset.share),
           hidden: mark.closest("[aria-hidden=true]") !== null, inBar: Boolean(bar && bar.contains(mark)),
           box: [m.top, m.bottom, m.left, m.right], caption: [c.top, c.bottom, c.left, c.right], height: innerHeight, width: innerWidth };
}"""


def test_clocks_mark_L_on_the_m_sliders_track(clocks):
    page, widget, phone = clocks
    data = widget.data
    for c, L in enumerate(data["contexts"]):
        set_slider(page, "context", c)
        got = page.evaluate(MARK)
        assert got["text"] == f"L = {L}" and got["hidden"], got   # the L slider says L; the mark is not read twice
        share = data["positions"].index(L) / (len(data["positions"]) - 1)
        assert got["share"] == pytest.approx(share)
        # Under the thumb as it stands at m = L (a 16 px thumb: its centre runs 8 px in from each end).
        left, width = got["input"]
        assert got["centre"] == pytest.approx(left + 8 + share * (width - 16), abs=1.5), (L, got)
        assert got["box"][2] >= 0 and got["box"][3] <= got["width"], got
        # The caption keeps clear of the mark, wherever L is.
        (top, bottom, left, right), (ctop, cbottom, cleft, cright) = got["box"], got["caption"]
        assert right <= cleft or cright <= left or bottom <= ctop or cbottom <= top, (L, got)
    # Moving m to L puts the thumb over the mark: the slider's value is L.
    set_slider(page, "context", data["contexts"].index(256))
    set_slider(page, "position", data["positions"].index(256))
    assert page.locator('output[data-name="position"]').inner_text() == "256"
    if phone:
        # In the pinned bar, on screen with the clocks: no scrolling down to the L slider.
        page.locator("g[data-pair]").first.scroll_into_view_if_needed()
        got = page.evaluate(MARK)
        assert got["inBar"] and 0 <= got["box"][0] and got["box"][1] <= got["height"], got


def test_clocks_scale_caption_is_one_short_line(clocks):
    page, widget, phone = clocks
    caption = page.locator('[data-readout="scale"] .rope-w-scale-caption')
    assert caption.count() == 1 and caption.inner_text() == "log steps after 64"
    assert page.locator('[data-readout="scale"]').inner_text().replace("\n", " ").count("step") == 1   # one caption
    got = caption.evaluate("""(s) => ({ lines: Math.round(s.getBoundingClientRect().height / parseFloat(getComputedStyle(s).lineHeight || 16)),
      clipped: s.scrollWidth > s.clientWidth + 1, height: s.getBoundingClientRect().height,
      line: parseFloat(getComputedStyle(s).fontSize) * 1.6 })""")
    assert got["height"] <= got["line"] + 4 and not got["clipped"], got


TEXT_BOXES = """(selector) => [...document.querySelectorAll(selector)].filter((t) => t.textContent)
  .map((t) => { const b = t.getBoundingClientRect(), v = t.getBBox(); return { text: t.textContent, box: [b.left, b.right, b.top, b.bottom], bbox: [v.x, v.x + v.width] }; })"""


def test_clocks_odometer_captions_stay_inside_the_drawing(clocks):
    page, widget, phone = clocks
    page.locator('.rope-w-question button[data-answer="1"]').click()
    positions = widget.data["positions"]
    for m in (positions[-1], 12345, 99, 10000):
        set_slider(page, "position", positions.index(m) if m in positions else len(positions) - 1)
        after_frames(page)
        shown = int(page.locator('output[data-name="position"]').inner_text())
        svg = page.locator("svg.rope-w-svg").first.evaluate("(s) => { const b = s.getBoundingClientRect(); return [b.left, b.right, s.viewBox.baseVal.width]; }")
        captions = page.evaluate(TEXT_BOXES, 'text[data-label^="odometer"]')
        texts = [c["text"] for c in captions]
        assert texts[1] == f"the wheels spell m = {shown} in base 10", texts
        if shown >= 10**4:   # more digits than the 4 pairs: the second line under the wheels
            assert texts[2] == "the 4 pairs see only its last 4 digits", texts
        else:
            assert len(texts) == 2, texts
        for caption in captions:
            assert caption["bbox"][0] >= 0 and caption["bbox"][1] <= svg[2], caption
            assert caption["box"][0] >= svg[0] - 0.5 and caption["box"][1] <= svg[1] + 0.5, caption
        # The wheels' labels do not run into each other ("none" under a wheel without a pair).
        labels = sorted(page.evaluate(TEXT_BOXES, "text[data-wheel-label]"), key=lambda t: t["box"][0])
        assert all(a["box"][1] <= b["box"][0] for a, b in zip(labels, labels[1:])), labels
        # The faces' legend: its two items apart, inside the drawing.
        legend = page.evaluate("""() => [...document.querySelectorAll('g[data-legend]')].map((g) => {
          const b = g.getBoundingClientRect(); return [b.left, b.right]; })""")
        assert len(legend) == 2 and legend[0][1] + 2 <= legend[1][0] and legend[1][1] <= svg[1] + 0.5, legend
        extra = [t["text"] for t in labels if not t["text"].startswith("i=")]
        assert extra == ["none"] * (len(str(shown)) - 4 if shown >= 10**4 else 0), labels


COVERED = """(el) => {
  el.scrollIntoView({ block: "end", behavior: "instant" });
  const b = el.getBoundingClientRect(), bar = document.querySelector(".rope-w-in-reach");
  const points = [[b.left + 2, b.bottom - 2], [b.left + b.width / 2, b.top + b.height / 2], [b.right - 2, b.bottom - 2]];
  const hits = points.map(([x, y]) => document.elementFromPoint(Math.min(x, innerWidth - 1), Math.min(y, innerHeight - 1)));
  return { covered: hits.some((hit) => bar && !bar.contains(el) && bar.contains(hit)), box: [b.top, b.bottom], height: innerHeight };
}"""


def covered_when_scrolled_to(page, selectors):
    """Scroll each element with text (of each selector) to the screen's foot, as the page does
    for a focus or a link, and assert no pinned bar covers it; returns how many were checked."""
    checked = 0
    for selector in selectors:
        for k in range(page.locator(selector).count()):
            element = page.locator(selector).nth(k)
            if not (element.text_content() or "").strip():
                continue
            page.evaluate("window.scrollTo(0, 0)")
            got = element.evaluate(COVERED)
            assert not got["covered"], (selector, k, got)
            checked += 1
    return checked


def test_nothing_pinned_covers_the_question_an_answer_or_a_caption_scrolled_into_view(clocks):
    page, widget, phone = clocks
    page.locator('.rope-w-question button[data-answer="1"]').click()
    set_slider(page, "position", len(widget.data["positions"]) - 1)
    after_frames(page)
    selectors = ['[data-readout="question"]', ".rope-w-question button[data-answer]", '[data-readout="feedback"]',
                 'text[data-label^="odometer"]', "g[data-pair] text[data-counter]", '[data-readout="summary"]']
    assert covered_when_scrolled_to(page, selectors) >= 10


def test_nothing_pinned_covers_the_heat_maps_question_verdict_or_legend(chromium, clock_site):
    url, pages, _ = clock_site
    context, page, log = open_page(chromium, "dark", viewport=PHONE, touch=True)
    try:
        page.goto(f"{url}/{pages['heat-dark']}")
        page.wait_for_function("window.ropeReady === true", timeout=20000)
        page.locator('.rope-w-question button[data-answer="1"]').click()
        set_slider(page, "position", int(page.locator('input[data-name="position"]').get_attribute("max")))
        after_frames(page)
        assert page.locator(".rope-w-in-reach").count() == 1
        selectors = ('[data-readout="question"]', ".rope-w-question button[data-answer]", '[data-readout="feedback"]',
                     "svg.rope-w-svg > text", '[data-readout="theta"]')
        assert covered_when_scrolled_to(page, selectors) >= 8
        assert not log.problems(), log.problems()
    finally:
        context.close()
