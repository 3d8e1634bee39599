"""ContextExtension on its chapter page (no kernel): the step tabs follow the WAI-ARIA tabs
pattern (arrows, Home, End), and each dial says its ratio in words that agree with it.
"""

from __future__ import annotations

import re

import pytest
from _browser import chapter_widget, open_book_page, overlapping_texts, set_slider

pytestmark = [pytest.mark.book, pytest.mark.browser]


CONTEXT = "book/09-longer-contexts.html"


def test_context_extension_step_tabs_take_home_end_and_arrows(chromium, book_server):
    context, page, log = open_book_page(chromium, book_server, CONTEXT)
    root = chapter_widget(page, "ContextExtension")
    tabs = root.locator('[role="tablist"] [role="tab"]')
    count = tabs.count()
    assert count >= 3

    def selected():
        states = [tabs.nth(i).get_attribute("aria-selected") for i in range(count)]
        assert states.count("true") == 1, states
        index = states.index("true")
        # The selected tab is the one tab stop, and it has the focus.
        assert [tabs.nth(i).get_attribute("tabindex") for i in range(count)] == ["0" if i == index else "-1" for i in range(count)]
        assert tabs.nth(index).evaluate("(t) => t === document.activeElement")
        return index

    tabs.nth(0).focus()
    for key, want in (("End", count - 1), ("Home", 0), ("ArrowLeft", count - 1), ("ArrowRight", 0), ("ArrowRight", 1),
                      ("End", count - 1), ("ArrowRight", 0)):
        page.keyboard.press(key)
        assert selected() == want, key
    assert not log.problems(), log.problems()
    context.close()


def test_context_extension_dials_say_their_ratio_in_agreeing_words(chromium, book_server, rng):
    context, page, log = open_book_page(chromium, book_server, CONTEXT)
    root = chapter_widget(page, "ContextExtension")
    position = root.locator('input[data-name="position"]')
    last = int(position.get_attribute("max"))
    seen = set()
    for stop in [0, last] + sorted(int(v) for v in rng.integers(0, last + 1, size=12)):
        set_slider(root, "position", stop)
        dials = root.locator('svg[data-plot="dials"] g[data-dial]').evaluate_all(
            "(gs) => gs.map((g) => [Number(g.dataset.ratio), g.dataset.beyond, g.getAttribute('aria-label'),"
            " g.querySelector('text[data-dial-label]').textContent])")
        for ratio, beyond, said, label in dials:
            assert " 1 times" not in said, said
            words = re.search(r"turned (exactly its trained angle|(\d+(?:\.\d+)?) times its trained angle)", said)
            assert words, said
            shown = label.rstrip("×")
            if words[2] is None:
                assert shown == "1" and beyond == "0", (said, ratio)
                seen.add("exact")
            else:
                assert words[2] == shown and float(shown) == pytest.approx(ratio, rel=5e-3), (said, ratio)
                # A dial past its arc never reads as exactly 1.
                assert beyond == "0" or float(shown) > 1, (said, ratio)
                seen.add("times")
    assert "times" in seen
    assert not log.problems(), log.problems()
    context.close()


def overlapping_end_labels(root):
    """Pairs of the wavelength plot's right-margin labels (curve ends, L and p) whose boxes
    overlap by more than half a pixel."""
    return overlapping_texts(root.locator('svg[data-plot="wavelengths"]'), "text[data-end-label], text[data-label]")


@pytest.mark.parametrize("phone", [False, True])
def test_context_extension_end_labels_never_overlap(chromium, book_server, rng, phone):
    from _browser import PHONE

    options = {"viewport": PHONE, "touch": True} if phone else {}
    context, page, log = open_book_page(chromium, book_server, CONTEXT, "dark" if phone else "light", **options)
    root = chapter_widget(page, "ContextExtension")
    factor_last = int(root.locator('input[data-name="factor"]').get_attribute("max"))
    position_last = int(root.locator('input[data-name="position"]').get_attribute("max"))
    labelled = 0
    for _ in range(24):
        step = str(rng.choice(["problem", "divide", "bands"]))
        root.locator(f'button[data-step="{step}"]').click()
        set_slider(root, "factor", int(rng.integers(0, factor_last + 1)))
        set_slider(root, "position", int(rng.integers(0, position_last + 1)))
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        assert overlapping_end_labels(root) == [], (step, phone)
        labelled += root.locator('svg[data-plot="wavelengths"] text[data-end-label]').count()
    assert labelled > 24  # the curves were labelled: the check is not vacuous
    assert not log.problems(), log.problems()
    context.close()
