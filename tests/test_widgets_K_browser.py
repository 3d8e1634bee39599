"""RotationExplorer (ch. 2) and KVCacheTimeline (ch. 13) on their chapter pages, no kernel.

RotationExplorer reads as one thing at a time: its secondary numbers are folded under
"numbers", and step 2 (two positions) is folded until the first question's answer shows; the
phone's default frame is well under 1 500 px. Over random m, θ and q no two labels of either
drawing overlap, and the ringed return's number sits outside the trail's circle. Step 2 says
on the page that both of its arrows start from the same q.

KVCacheTimeline, once answered, goes to what the answer is about: right, the re-rotated cache
at the first event after the eviction, where the promised 0 is drawn, with "leave them" one
press away; "nothing", the cache left alone at its worst event. Its read-out names the error's
unit. The numbers are rope_core's (:func:`rope_core.demos.kv_cache.kv_cache_stages`).
"""

from __future__ import annotations

import math

import pytest
from _browser import (
    PHONE,
    after_scrolling,
    chapter_widget,
    dataset,
    open_book_page,
    overlapping_texts,
    set_slider,
)

from rope_core import widgets as W

pytestmark = [pytest.mark.book, pytest.mark.browser]

ROTATIONS = "book/02-rotations.html"
SERVING = "book/13-serving.html"


def answer_first_question(root):
    """Predict "no, not always" and take m to its end: the first question's answer shows."""
    root.locator('.rope-w-answer[data-answer="1"]').click()
    set_slider(root, "position", int(root.locator('input[data-name="position"]').get_attribute("max")), keyboard=True)
    feedback = root.locator('[data-readout="feedback"]').first
    assert feedback.get_attribute("data-stage") == "revealed"


@pytest.mark.parametrize("phone", [False, True], ids=["1280", "390"])
def test_rotation_explorer_shows_one_step_at_a_time(chromium, book_server, phone):
    options = {"viewport": PHONE, "touch": True} if phone else {}
    context, page, log = open_book_page(chromium, book_server, ROTATIONS, "dark" if phone else "light", **options)
    try:
        root = chapter_widget(page, "RotationExplorer")
        numbers, step = root.locator('details[data-part="numbers"]'), root.locator('details[data-part="step-2"]')
        # Default frame: the numbers and step 2 folded, step 2's heading in view of the reader.
        assert numbers.evaluate("d => d.open") is False and step.evaluate("d => d.open") is False
        assert step.locator("summary").inner_text().startswith("Step 2")
        assert not root.locator('[data-part="two-positions"]').is_visible()
        for name in ("q", "rotated", "lengths", "complex", "trail"):
            assert not root.locator(f'[data-readout="{name}"]').is_visible(), name
        height = root.bounding_box()["height"]
        assert height < (1300 if phone else 800), height   # was 2 049 and 1 177 px
        # The question's own result is not folded: once predicted, it is in view.
        root.locator('.rope-w-answer[data-answer="1"]').click()
        assert root.locator('[data-readout="closest"]').is_visible()
        assert step.evaluate("d => d.open") is False   # predicted, not yet answered
        set_slider(root, "position", int(root.locator('input[data-name="position"]').get_attribute("max")), keyboard=True)
        assert root.locator('[data-readout="feedback"]').first.get_attribute("data-stage") == "revealed"
        # The answer shown opens step 2, whose arrows are said to start from the same q.
        assert step.evaluate("d => d.open") is True
        lesson = root.locator("[data-part-lesson]").inner_text()
        assert "both arrows here start from the same q" in lesson, lesson
        # Folded again by the reader, it stays folded while m moves.
        step.locator("summary").click()
        set_slider(root, "position", 3)
        assert step.evaluate("d => d.open") is False
        # The numbers unfold on a press of their summary and agree with the drawing's q.
        numbers.locator("summary").click()
        shown = root.locator('[data-readout="q"]')
        assert shown.is_visible()
        q = dataset(shown)
        angle = math.radians(float(q["angle"]))
        assert float(q["x"]) == pytest.approx(float(q["length"]) * math.cos(angle), abs=1e-9)
        assert log.problems() == [], log.problems()
    finally:
        context.close()


@pytest.mark.parametrize("phone", [False, True], ids=["1280", "390"])
def test_rotation_explorer_labels_never_overlap(chromium, book_server, rng, phone):
    options = {"viewport": PHONE, "touch": True} if phone else {}
    context, page, log = open_book_page(chromium, book_server, ROTATIONS, "dark" if phone else "light", **options)
    try:
        root = chapter_widget(page, "RotationExplorer")
        answer_first_question(root)   # the ringed return and its number are shown from here on
        main, two = root.locator("svg.rope-w-svg").first, root.locator('svg[data-plot="two-positions"]')
        handle = root.locator('g[data-handle="q"]')
        last_m = int(root.locator('input[data-name="position"]').get_attribute("max"))
        last_t = int(root.locator('input[data-name="theta"]').get_attribute("max"))
        last_ab = int(root.locator('input[data-name="a_position"]').get_attribute("max"))
        # m = 64 at θ = 0.5 (the review's crowded frame) first, then random states.
        states = [(3, last_m, 0, 0, 0)] + [(int(rng.integers(0, last_t + 1)), int(rng.integers(0, last_m + 1)),
                                              int(rng.integers(0, 36)), int(rng.integers(0, 10)), int(rng.integers(-4, 5)))
                                             for _ in range(14)]
        for t, m, tens, ones, stretch in states:
            set_slider(root, "theta", t)
            set_slider(root, "position", m)
            handle.focus()
            for _ in range(tens):
                handle.press("Shift+ArrowRight")
            for _ in range(ones):
                handle.press("ArrowRight")
            for _ in range(abs(stretch)):
                handle.press("+" if stretch > 0 else "-")
            for a, b in ((int(rng.integers(0, last_ab + 1)), int(rng.integers(0, last_ab + 1))),):
                set_slider(root, "a_position", a)
                set_slider(root, "b_position", b)
            state = (t, m, tens, ones, stretch)
            assert overlapping_texts(main) == [], state
            assert overlapping_texts(two) == [], state
            # The ringed return's number sits outside the trail's circle (or just inside it when
            # q is too long to leave room before the drawing's edge).
            ring = root.locator('[data-mark="closest"]')
            if ring.is_visible():
                q = dataset(root.locator('[data-readout="q"]'))
                label = root.locator('[data-mark="closest-label"]').bounding_box()
                face = main.bounding_box()
                units = face["width"] / 340
                cx, cy = face["x"] + 170 * units, face["y"] + 170 * units
                lx, ly = label["x"] + label["width"] / 2, label["y"] + label["height"] / 2
                radius = math.hypot(lx - cx, ly - cy) / units
                trail = 95 * float(q["length"])
                assert radius > trail + 8 or trail + 50 > 170, (state, radius, trail)
        assert log.problems() == [], log.problems()
    finally:
        context.close()


def kv_numbers():
    tracks = W.KVCacheTimeline().data["tracks"]
    evict = [s["event"] for s in tracks[0]].index("evict")
    worst = max(range(evict + 1, len(tracks[1])), key=lambda i: tracks[1][i]["error"])
    return tracks, evict, worst


def read_error(root):
    return float(root.locator('[data-readout="error"]').inner_text().split(" ")[0].replace("−", "-"))


@pytest.mark.parametrize(("choice", "mode", "stage"), [(1, 0, "after"), (0, 1, "worst"), (2, 0, "after")],
                         ids=["right", "nothing", "recompute"])
def test_kv_cache_goes_to_what_the_answer_is_about(chromium, book_server, choice, mode, stage):
    tracks, evict, worst = kv_numbers()
    event = {"after": evict + 1, "worst": worst}[stage]
    context, page, log = open_book_page(chromium, book_server, SERVING)
    try:
        root = chapter_widget(page, "KVCacheTimeline")
        modes = root.locator(".rope-w-choices button[data-choice]")
        root.locator(f'.rope-w-answer[data-answer="{choice}"]').click()
        assert [modes.nth(i).get_attribute("aria-pressed") for i in range(2)] == [str(i == mode).lower() for i in range(2)]
        assert int(root.locator('input[data-name="stage"]').input_value()) == event
        assert root.locator('[data-readout="stage"]').inner_text() == tracks[mode][event]["label"]
        assert read_error(root) == pytest.approx(tracks[mode][event]["error"], rel=5e-3, abs=1e-9)
        if choice == 1:
            assert tracks[0][event]["error"] == 0 and read_error(root) == 0
        # The other treatment is one press away, at the same event.
        modes.nth(1 - mode).click()
        assert int(root.locator('input[data-name="stage"]').input_value()) == event
        assert read_error(root) == pytest.approx(tracks[1 - mode][event]["error"], rel=5e-3, abs=1e-9)
        assert log.problems() == [], log.problems()
    finally:
        context.close()


def test_kv_cache_answer_brings_its_number_above_the_phones_pinned_slider(chromium, book_server):
    tracks, evict, _ = kv_numbers()
    context, page, log = open_book_page(chromium, book_server, SERVING, "dark", viewport=PHONE, touch=True)
    try:
        root = chapter_widget(page, "KVCacheTimeline")
        root.locator('.rope-w-answer[data-answer="1"]').click()
        after_scrolling(page)
        result = root.locator('[data-readout="error"]').locator("xpath=..").bounding_box()
        bar = root.locator(".rope-w-in-reach").bounding_box()
        assert result["y"] >= 0 and result["y"] + result["height"] <= bar["y"], (result, bar)
        assert read_error(root) == tracks[0][evict + 1]["error"] == 0
        assert log.problems() == [], log.problems()
    finally:
        context.close()


def test_kv_cache_names_the_unit_of_its_error(chromium, book_server):
    context, page, log = open_book_page(chromium, book_server, SERVING)
    try:
        root = chapter_widget(page, "KVCacheTimeline")
        label = root.locator('[data-readout="error"]').locator("xpath=preceding-sibling::span").inner_text()
        assert "|cached − fresh|" in label and "qᵀk/√d" in label, label
        root.locator('.rope-w-answer[data-answer="1"]').click()
        feedback = root.locator('[data-readout="feedback"]').inner_text()
        assert "scores qᵀk/√d are off by up to" in feedback, feedback
        assert log.problems() == [], log.problems()
    finally:
        context.close()
