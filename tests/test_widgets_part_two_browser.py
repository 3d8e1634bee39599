"""Part II widgets on their chapter pages (no kernel): ScalingPairs in chapter 10, KVCacheTimeline
in chapter 13.

Each asks first: the question's feedback is empty until the reader answers, and the answer
the reader's hand finds (pressing the schemes; stepping past the eviction with and without the
re-rotation) is the one rope_core's table gives. Drawing and main control share one 390 x 844
phone screen; the result is a live region that changes only with the result; the slider's value
is said once (its output is hidden from screen readers).
"""

from __future__ import annotations

import pytest
from _browser import DESKTOP, PHONE, after_scrolling, chapter_widget, open_book_page, set_slider

from rope_core import widgets as W
from rope_core.demos.scaling_pairs import schemes_without_pairs_beyond

pytestmark = [pytest.mark.book, pytest.mark.browser]
PAGES = {"ScalingPairs": "book/10-extension-in-practice.html", "KVCacheTimeline": "book/13-serving.html"}


def widget_root(page, name):
    return chapter_widget(page, name)


@pytest.fixture(scope="module")
def desktop_pages(chromium, book_server):
    opened = {name: open_book_page(chromium, book_server, path) for name, path in PAGES.items()}
    yield {name: (page, log) for name, (_, page, log) in opened.items()}
    for context, _, _ in opened.values():
        context.close()


def test_scaling_pairs_asks_then_the_schemes_give_the_answer(desktop_pages):
    page, log = desktop_pages["ScalingPairs"]
    root = widget_root(page, "ScalingPairs")
    data = W.ScalingPairs().data
    model = data["models"][2]
    feedback = root.locator('[data-readout="feedback"]')
    # Asked before told: the question stands above the drawing, no feedback yet, and the
    # default frame shows the problem (no scaling: every slow pair beyond), not an answer.
    assert feedback.inner_text().strip() == ""
    box = root.locator(".rope-w-question").bounding_box()
    assert box["y"] < root.locator("svg.rope-w-svg").bounding_box()["y"]
    result = root.locator('[data-readout="beyond"]')
    # The result is said through the widget's one live region, shared with its question.
    assert root.locator('[data-readout="announce"][aria-live="polite"]').count() == 1
    assert result.inner_text().startswith(f"{len(model['slow'])} of {len(model['slow'])}")
    # The hand finds the answer: each scheme's button gives its count from the table.
    found = []
    for i, scheme in enumerate(data["schemes"]):
        root.locator(f'.rope-w-choices[aria-label="scheme"] button[data-choice="{i}"]').click()
        count = len(model["cells"][scheme][2]["beyond"])
        assert result.inner_text().startswith(f"{count} of {len(model['slow'])}"), scheme
        assert root.locator("rect.rope-w-bar-far[data-pair]").count() == count  # the bars, not the key
        if scheme != "default" and count == 0:
            found.append(scheme)
    assert tuple(found) == schemes_without_pairs_beyond(data, 2, 2)
    # Every pair is named with its numbers (written when the page is idle after a step):
    # under NTK-aware the table's beyond pairs say so, the others do not.
    ntk = data["schemes"].index("ntk")
    root.locator(f'.rope-w-choices[aria-label="scheme"] button[data-choice="{ntk}"]').click()
    beyond = model["cells"]["ntk"][2]["beyond"]
    page.wait_for_function("(n) => (document.querySelector(`[data-widget='ScalingPairs'] rect[data-pair-hit='${n}']`)"
                           ".getAttribute('aria-label') || '').includes('beyond training')", arg=beyond[0])
    labels = root.locator("rect[data-pair-hit]").evaluate_all("(rs) => rs.map((r) => r.getAttribute('aria-label'))")
    assert [i for i, label in enumerate(labels) if label.endswith("beyond training")] == beyond
    assert all(label.startswith(f"pair {i}: ") for i, label in enumerate(labels))
    # Answering reveals the feedback, right for the table's set of schemes.
    right = next(i for i, c in enumerate(data["question"]["choices"]) if tuple(c["schemes"]) == tuple(found))
    root.locator(f'.rope-w-answer[data-answer="{right}"]').click()
    assert feedback.get_attribute("data-correct") == "true"
    assert f"NTK-aware: {len(model['cells']['ntk'][2]['beyond'])}" in feedback.inner_text()
    # The target-length slider lands on every factor; the bars follow the table.
    for f, factor in enumerate(data["factors"]):
        set_slider(root, "factor", f, keyboard=True)
        assert result.inner_text().endswith(f"{round(factor * model['training_length']):,}".replace(",", " ") + " tokens)")
    assert not log.problems(), log.problems()


def test_kv_cache_asks_then_the_steps_show_the_error(desktop_pages):
    page, log = desktop_pages["KVCacheTimeline"]
    root = widget_root(page, "KVCacheTimeline")
    tracks = W.KVCacheTimeline().data["tracks"]
    feedback = root.locator('[data-readout="feedback"]')
    assert feedback.inner_text().strip() == ""
    result = root.locator('[data-readout="error"]')
    # The result is said through the widget's one live region, shared with its question.
    assert root.locator('[data-readout="announce"][aria-live="polite"]').count() == 1
    evict = [s["event"] for s in tracks[0]].index("evict")
    # The modes are chosen below the question, once it is answered.
    root.locator('.rope-w-answer[data-answer="1"]').click()
    assert feedback.get_attribute("data-correct") == "true"
    assert "0.53" in feedback.inner_text() or "1.34" in feedback.inner_text()
    for mode in (1, 0):  # leave the kept keys, then rotate them
        root.locator(f'.rope-w-choices button[data-choice="{mode}"]').click()
        for stage in range(len(tracks[mode])):
            set_slider(root, "stage", stage, keyboard=stage == evict)
            s = tracks[mode][stage]
            used = root.locator("g[data-slot]").evaluate_all("(gs) => gs.filter((g) => g.style.visibility !== 'hidden').length")
            assert used == len(s["tokens"]), (mode, stage)
            stale = root.locator("rect.rope-w-slot-stale").evaluate_all(
                "(rs) => rs.filter((r) => r.closest('g').style.visibility !== 'hidden').length")
            assert stale == sum(p != q for p, q in zip(s["positions"], s["should"])), (mode, stage)
            first = result.inner_text().split(" ")[0].replace("−", "-")
            assert float(first) == pytest.approx(s["error"], rel=5e-3, abs=1e-9), (mode, stage, first)
    assert not log.problems(), log.problems()


@pytest.mark.parametrize("name", list(PAGES))
def test_value_said_once_and_result_said_only_when_it_changes(desktop_pages, name):
    page, _ = desktop_pages[name]
    root = widget_root(page, name)
    # Outputs beside sliders are hidden from screen readers (the slider's aria-valuetext says it).
    outputs = root.locator("output")
    assert outputs.count() >= 1
    assert all(outputs.nth(i).get_attribute("aria-hidden") == "true" for i in range(outputs.count()))
    live = root.locator('[aria-live]:not([data-readout="feedback"])')
    assert live.count() == 1
    # A step that leaves the result unchanged writes nothing into the live region.
    page.evaluate("""(node) => { window.__mutations = 0;
        new MutationObserver((m) => { window.__mutations += m.length; }).observe(node, {childList: true, characterData: true, subtree: true}); }""",
                  live.element_handle())
    slider = root.locator('input[type="range"]').first
    before = live.inner_text()
    slider.focus()
    slider.press("End")
    slider.press("End")
    page.wait_for_timeout(900)  # the announcer speaks once the reader pauses (700 ms)
    after = live.inner_text()
    changes = page.evaluate("window.__mutations")
    assert (changes == 0) == (before == after), (before, after, changes)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("name", list(PAGES))
def test_phone_shows_drawing_and_main_control_together(chromium, book_server, screenshot_dir, name, theme):
    for viewport, touch, tag in ((PHONE, True, "390"), (DESKTOP, False, "1280")):
        context, page, log = open_book_page(chromium, book_server, PAGES[name], theme, viewport=viewport, touch=touch)
        root = widget_root(page, name)
        drawing = root.locator("svg.rope-w-svg")
        control = root.locator('input[type="range"]').first
        drawing.scroll_into_view_if_needed()
        # The theme's header stays on top of the page: the drawing goes just below it.
        header = page.evaluate("() => Math.max(0, ...[...document.querySelectorAll('.bd-header, .bd-header-article')]"
                               ".filter((h) => ['sticky', 'fixed'].includes(getComputedStyle(h).position))"
                               ".map((h) => h.getBoundingClientRect().bottom))")
        page.evaluate("(y) => window.scrollBy(0, y)", drawing.bounding_box()["y"] - header - 8)
        after_scrolling(page)
        top, bottom = drawing.bounding_box()["y"], control.bounding_box()["y"] + control.bounding_box()["height"]
        assert top >= header and bottom <= viewport["height"], (name, tag, header, top, bottom)
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        root.screenshot(path=str(screenshot_dir / f"part-two-{name}-{theme}-{tag}.png"))
        assert not log.problems(), log.problems()
        context.close()
