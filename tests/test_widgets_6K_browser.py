"""KVCacheTimeline on its chapter page (no kernel): the reader chooses the mode, and every number
its answer states is one the widget draws.

No mode is chosen before the reader picks one, so the question is not answered under itself:
the buttons that choose one are hidden until the prediction, and stepping past the eviction
without a mode shows the cache as the eviction left it, with no error read out. Once answered, each number in the feedback is checked against
the read-out at the event and in the mode the sentence names, and against rope_core's table
(:func:`rope_core.demos.kv_cache.kv_cache_stages`).
"""

from __future__ import annotations

import re

import pytest
from _browser import chapter_widget, open_book_page, set_slider

from rope_core import widgets as W

pytestmark = [pytest.mark.book, pytest.mark.browser]


@pytest.fixture
def kv_page(chromium, book_server):
    context, page, log = open_book_page(chromium, book_server, "book/13-serving.html")
    yield page, log
    context.close()


def read_error(root):
    """The read-out's error as a number (the first word of the result line)."""
    return float(root.locator('[data-readout="error"]').inner_text().split(" ")[0].replace("−", "-"))


def test_no_mode_is_chosen_before_the_reader_picks_one(kv_page):
    page, log = kv_page
    root = chapter_widget(page, "KVCacheTimeline")
    tracks = W.KVCacheTimeline().data["tracks"]
    evict = [s["event"] for s in tracks[0]].index("evict")
    modes = root.locator(".rope-w-choices button[data-choice]")
    assert [modes.nth(i).get_attribute("aria-pressed") for i in range(modes.count())] == ["false", "false"]
    # The buttons that choose a mode would name two of the question's answers: hidden until the
    # prediction.
    assert modes.count() == 2 and not any(modes.nth(i).is_visible() for i in range(2))
    # Up to the eviction both modes draw the same cache, so the steps there need no choice.
    for stage in range(evict + 1):
        set_slider(root, "stage", stage)
        assert read_error(root) == pytest.approx(tracks[0][stage]["error"], rel=5e-3, abs=1e-9)
    # Past it, nothing tells the answer: no rotation named, no error read out, the cache as the
    # eviction left it (every kept key still rotated for its old position).
    result = root.locator('[data-readout="error"]')
    slider = root.locator('input[data-name="stage"]')
    for stage in range(evict + 1, len(tracks[0])):
        set_slider(root, "stage", stage, keyboard=True)
        assert result.get_attribute("data-pending") is not None, stage
        assert not re.search(r"\d", result.inner_text()), result.inner_text()
        for text in (root.locator('[data-readout="stage"]').inner_text(), slider.get_attribute("aria-valuetext")):
            assert "rotate" not in text and "keep the kept" not in text, text
        stale = root.locator("rect.rope-w-slot-stale").evaluate_all(
            "(rs) => rs.filter((r) => r.closest('g').style.visibility !== 'hidden').length")
        assert stale == len(tracks[0][evict]["tokens"])
    # Once predicted, the reader's choice finds the answer: pressing a mode draws its track at the
    # same event.
    root.locator('.rope-w-answer[data-answer="0"]').click()
    assert all(modes.nth(i).is_visible() for i in range(2))
    last = len(tracks[0]) - 1
    set_slider(root, "stage", last)
    for mode in (1, 0):
        modes.nth(mode).click()
        assert modes.nth(mode).get_attribute("aria-pressed") == "true"
        assert modes.nth(1 - mode).get_attribute("aria-pressed") == "false"
        assert result.get_attribute("data-pending") is None
        assert read_error(root) == pytest.approx(tracks[mode][last]["error"], rel=5e-3, abs=1e-9)
        assert slider.get_attribute("aria-valuetext").endswith(tracks[mode][last]["label"])
    assert not log.problems(), log.problems()


def test_every_number_the_answer_states_is_drawn_where_it_says(kv_page):
    page, log = kv_page
    root = chapter_widget(page, "KVCacheTimeline")
    data = W.KVCacheTimeline().data
    tracks, evict_count = data["tracks"], data["evict"]
    evict = [s["event"] for s in tracks[0]].index("evict")
    root.locator('.rope-w-answer[data-answer="1"]').click()
    feedback = root.locator('[data-readout="feedback"]').inner_text()
    checked = []

    def drawn(mode, event):
        root.locator(f'.rope-w-choices button[data-choice="{mode}"]').click()
        set_slider(root, "stage", event - 1)
        return read_error(root)

    # "At event E, the eviction, ... off by up to X": the eviction's error, in both modes.
    at_evict = re.search(r"At event (\d+), the eviction, .*?off by up to (\d+(?:\.\d+)?)", feedback)
    event, number = int(at_evict[1]), float(at_evict[2])
    assert tracks[0][event - 1]["event"] == "evict"
    for mode in (0, 1):
        assert drawn(mode, event) == number == pytest.approx(tracks[mode][evict]["error"], rel=5e-3)
    checked.append(at_evict[2])
    # "Left alone ... (up to X, at event E)": the worst error of leaving them, where it is.
    left = re.search(r"Left alone they stay wrong \(up to (\d+(?:\.\d+)?), at event (\d+)\)", feedback)
    number, event = float(left[1]), int(left[2])
    assert drawn(1, event) == number
    assert number == pytest.approx(max(s["error"] for s in tracks[1][evict + 1 :]), rel=5e-3)
    checked.append(left[1])
    # "rotated once by −E, the error is 0 at every event from F on": each of those events.
    rotated = re.search(r"rotated once by −(\d+), the error is 0 at every event from (\d+) on", feedback)
    assert int(rotated[1]) == evict_count
    first = int(rotated[2])
    assert first == evict + 2  # the event right after the eviction: the rotation itself
    for event in range(first, len(tracks[0]) + 1):
        assert drawn(0, event) == 0 == tracks[0][event - 1]["error"], event
    # No other decimal number is stated: each one the feedback has was checked above.
    assert sorted(re.findall(r"\d+\.\d+", feedback)) == sorted(checked), feedback
    assert not log.problems(), log.problems()

