"""RelativeInvariance, the book's hero (chapter 1, the landing page and the gallery), as a reader
meets it: one angle γ on the dial and no label over another in any state, before and after the
answer; Tab reaches the drawing's handles and the controls before the answers; and on a phone
the pinned Δ slider never covers the widget's title, its lesson line, the question or an answer.

Needs the built book (``make book``; ``ROPE_BOOK_REUSE_BUILD=1`` reuses it) and Chromium."""
import numpy as np
import pytest
from _browser import (
    DESKTOP,
    PHONE,
    after_frames,
    axe_serious,
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


# Rectangles (viewport px) of the pinned row and of what it must never cover.
COVERED = r"""(root) => {
  const row = root.querySelector(".rope-w-in-reach");
  const box = (node) => { const b = node.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const keep = [root.querySelector(":scope > .rope-w-title"), root.querySelector(":scope > .rope-w-lesson"),
                root.querySelector(".rope-w-question-prompt"), ...root.querySelectorAll(".rope-w-answer")];
  // Pinned: held at the screen's foot by position: sticky while the widget's own foot is below it.
  const pinned = Boolean(row) && getComputedStyle(row).position === "sticky"
    && Math.abs(row.getBoundingClientRect().bottom - innerHeight) < 2 && root.getBoundingClientRect().bottom > innerHeight + 2;
  return { row: row && box(row), pinned, screen: innerHeight,
           keep: keep.filter((n) => n && n.getClientRects().length).map((n) => [n.textContent.trim().slice(0, 30), box(n)]) };
}"""


def covered(state):
    """The names of the kept nodes the row's rectangle overlaps by more than a pixel."""
    left, top, right, bottom = state["row"]
    return [name for name, (x0, y0, x1, y1) in state["keep"]
            if min(right, x1) - max(left, x0) > 1 and min(bottom, y1) - max(top, y0) > 1]


@pytest.mark.parametrize("path", ["index.md", "01-why-positions.md"])
def test_the_pinned_slider_covers_no_intro_question_or_answer_on_a_phone(chromium, book_server, path):
    """At 390 × 844 (dark, touch), scrolled from the page's top through the widget in 60 px
    steps, before and after the answer: the Δ row never lies over the widget's title, lesson
    line, question or an answer button. It is still pinned where the drawing fills the screen."""
    context, page, log = open_book_page(chromium, book_server, path, "dark", viewport=PHONE, touch=True)
    try:
        root = page.locator('.rope-widget-view[data-widget="RelativeInvariance"] .rope-w').first
        for answered in (False, True):
            if answered:
                root.locator('.rope-w-question button[data-answer="1"]').click()
            # From a screen above the widget (the landing page's first screen) to its foot.
            top, bottom = root.evaluate("(root) => { const b = root.getBoundingClientRect(); return [b.top + scrollY, b.bottom + scrollY]; }")
            pinned_somewhere = False
            for y in range(max(0, int(top) - PHONE["height"]), int(bottom), 60):
                page.evaluate(f"window.scrollTo({{top: {y}, behavior: 'instant'}})")
                after_frames(page, 3)
                state = root.evaluate(COVERED)
                assert state["row"] is not None, "the Δ slider is not in reach on a phone"
                assert covered(state) == [], (path, answered, y, state)
                pinned_somewhere |= state["pinned"]
            assert pinned_somewhere, (path, answered)
        # Pinned, the slider still moves Δ.
        root.locator("svg.rope-w-svg").first.evaluate("(svg) => svg.scrollIntoView({block: 'start', behavior: 'instant'})")
        after_frames(page, 3)
        set_slider(root, "shift", 3)
        assert not log.problems(), log.problems()
    finally:
        context.close()


@pytest.mark.parametrize(("path", "device"), [(path, device) for path in ("index.md", "01-why-positions.md")
                                              for device in ("desktop", "phone")])
def test_the_hero_passes_axe_before_and_after_the_answer(chromium, book_server, path, device):
    """axe-core finds no serious or critical violation in the widget as it opens, and after
    the answer with Δ played to its end (its handles and controls in their new page order)."""
    options = {"viewport": DESKTOP} if device == "desktop" else {"viewport": PHONE, "touch": True}
    context, page, log = open_book_page(chromium, book_server, path, "light" if device == "desktop" else "dark", **options)
    try:
        widget = '.rope-widget-view[data-widget="RelativeInvariance"]'
        root = page.locator(f"{widget} .rope-w").first
        root.scroll_into_view_if_needed()
        assert axe_serious(page, include=[widget]) == []
        root.locator('.rope-w-question button[data-answer="1"]').click()
        set_slider(root, "shift", TOP)
        after_frames(page)
        assert axe_serious(page, include=[widget]) == []
        assert not log.problems(), log.problems()
    finally:
        context.close()


def test_the_spoken_verdict_says_the_shift_on_the_screen_when_it_is_spoken(chromium, book_server):
    """Answered, then played: the verdict is reached on the way (at the third Δ) but spoken when
    the reader pauses, at the end of play; what is heard is the verdict as the screen shows it
    then, with play's last Δ, not the Δ at which it was reached."""
    context, page, log = open_book_page(chromium, book_server, "01-why-positions.md")
    try:
        root = page.locator('.rope-widget-view[data-widget="RelativeInvariance"] .rope-w').first
        root.scroll_into_view_if_needed()
        root.locator('.rope-w-question button[data-answer="1"]').click()
        play = root.get_by_role("button", name="play Δ")
        play.click()
        page.wait_for_function("(b) => b.getAttribute('aria-pressed') === 'false'", arg=play.element_handle(), timeout=20000)
        region = root.locator('[data-readout="announce"]')
        page.wait_for_function("(r) => r.textContent.includes('✓')", arg=region.element_handle(), timeout=5000)
        shift = int(root.locator('input[data-name="shift"]').input_value())
        assert shift == TOP
        verdict = " ".join(root.locator('[data-readout="feedback"]').inner_text().split())
        heard = " ".join(region.inner_text().split())
        assert verdict.startswith(f"✓ Right. At Δ = {TOP} "), verdict
        assert heard.startswith(verdict), (heard, verdict)
        assert not log.problems(), log.problems()
    finally:
        context.close()
