"""RelativeInvariance, the book's hero (chapter 1, the landing page and the gallery), as a reader
meets it: one angle γ on the dial and no label over another in any state, before and after the
answer; Tab reaches the drawing's handles and the controls before the answers.

Needs the built book (``make book``; ``ROPE_BOOK_REUSE_BUILD=1`` reuses it) and Chromium."""
import numpy as np
import pytest
from _browser import (
    DESKTOP,
    after_frames,
    gallery_widget,
    open_book_page,
    open_gallery,
    overlapping_texts,
    set_slider,
)

from rope_core import widgets as W

pytestmark = [pytest.mark.book, pytest.mark.browser]

TOP = W.RelativeInvariance().data["max_position"]

# The dial's visible marks: its arcs, its projections and every text not hidden by a layer.
DIAL_MARKS = r"""(root) => {
  const svg = root.querySelector("svg.rope-w-svg");
  const shown = (node) => node.getClientRects().length > 0;
  return {
    arcs: [...svg.querySelectorAll("path[data-arc]")].filter(shown).map((p) => p.dataset.arc),
    projections: [...svg.querySelectorAll("[data-projection]")].filter(shown).length,
    gammas: [...svg.querySelectorAll("text")].filter(shown).filter((t) => t.textContent.trim().startsWith("γ")).length,
  };
}"""


def random_state(root, rng):
    """m, n (where the widget shows them: not in chapter 1's compact one) and Δ by their
    sliders, q and k turned by their handles' keys (10° a press)."""
    for name, value in (("m", rng.integers(0, TOP + 1)), ("n", rng.integers(0, TOP + 1)), ("shift", rng.integers(0, TOP + 1))):
        if root.locator(f'input[data-name="{name}"]').count():
            set_slider(root, name, int(value))
    for key in ("q", "k"):
        handle = root.locator(f'[data-handle="{key}"]')
        handle.focus()
        for _ in range(int(rng.integers(0, 36))):
            handle.press("Shift+ArrowRight")


def check_dial(page, root, where):
    after_frames(page)
    marks = root.evaluate(DIAL_MARKS)
    # One angle, γ between the arrows drawn now: the dashed pair's equal γ is shown by the pair
    # of small dials, not by a second arc (nor a second "γ") on the dial.
    assert marks["arcs"] == ["gamma"], (where, marks)
    assert marks["gammas"] == 1, (where, marks)
    assert marks["projections"] == 0, (where, marks)
    assert overlapping_texts(root.locator("svg.rope-w-svg").first) == [], where


@pytest.mark.parametrize("place", ["gallery", "chapter 1"])
def test_one_gamma_and_no_label_over_another_in_random_states(chromium, book_server, place):
    if place == "gallery":
        context, page, log = open_gallery(chromium, book_server)
        root = gallery_widget(page, "RelativeInvariance")
    else:
        context, page, log = open_book_page(chromium, book_server, "01-why-positions.md")
        root = page.locator('.rope-widget-view[data-widget="RelativeInvariance"] .rope-w')
        root.scroll_into_view_if_needed()
    try:
        rng = np.random.default_rng(34)
        for step in range(16):
            if step == 8:   # the second half after the answer, with the dashed pair shown
                root.locator('.rope-w-question button[data-answer="1"]').click()
            random_state(root, rng)
            check_dial(page, root, (place, step))
        # The review's state: the answer given, then Δ played to its end.
        set_slider(root, "shift", TOP)
        check_dial(page, root, (place, "Δ at its end"))
        assert not log.problems(), log.problems()
    finally:
        context.close()


# What each Tab stop of the widget is: a handle, a strip's grip, a button or slider by name, an answer.
TAB_STOP = r"""(node) => {
  if (!node.closest(".rope-w")) return "out";
  const d = node.dataset;
  if (d.handle) return `handle ${d.handle}`;
  if (d.stripHandle) return `grip ${d.stripHandle}`;
  if (d.answer !== undefined) return `answer ${d.answer}`;
  if (d.name) return `${node.tagName.toLowerCase()} ${d.name}`;
  return node.getAttribute("aria-label") || node.textContent.trim();
}"""


def tab_stops(page, root):
    """The widget's Tab stops in order, from a stop put just before it to the first one after it."""
    root.evaluate("""(root) => { const start = document.createElement("button"); start.id = "before-widget";
      start.textContent = "before"; root.before(start); start.focus(); }""")
    stops = []
    for _ in range(30):
        page.keyboard.press("Tab")
        stop = page.evaluate(f"({TAB_STOP})(document.activeElement)")
        if stop == "out":
            break
        stops.append(stop)
    return stops


@pytest.mark.parametrize(("path", "expected"), [
    ("01-why-positions.md", ["handle q", "handle k", "grip shift", "button play", "input shift", "answer 0", "answer 1"]),
    ("index.md", ["handle q", "handle k", "grip shift", "grip offset", "button play", "input shift", "input m", "input n",
                  "answer 0", "answer 1", "answer 2"]),
])
def test_tab_reaches_the_handles_and_controls_before_the_answers(chromium, book_server, path, expected):
    """Before the answer: the drawing's handles, then play and the sliders, then the answers."""
    context, page, log = open_book_page(chromium, book_server, path, viewport=DESKTOP)
    try:
        root = page.locator('.rope-widget-view[data-widget="RelativeInvariance"] .rope-w').first
        root.scroll_into_view_if_needed()
        assert tab_stops(page, root) == expected
        assert not log.problems(), log.problems()
    finally:
        context.close()
