"""DecayExplorer, driven in chromium: the by-base panel sits directly under the plot in every
state and width; the prompt names only the steps still to do; on a phone the pinned distance bar
never covers the question; the verdict is heard whatever step reveals it.

The layout and phone tests read chapter 8 of the built book (its real column widths); the prompt
and announcement tests render the widget on its own page from its Python class.
"""

from __future__ import annotations

import itertools

import pytest
from _browser import (
    PHONE,
    after_frames,
    open_alone,
    open_book_page,
    set_slider,
)

pytestmark = [pytest.mark.browser]

CHAPTER = "08-rope-in-attention.md"
WIDGET = '.rope-widget-view[data-widget="DecayExplorer"] .rope-w'

# The blank height between the plot's bottom and the first thing drawn under it in the same
# column: every visible element of the widget that shares some of the plot's width and starts
# below it (the plot's own parts excluded).
GAP_UNDER_PLOT = r"""(root) => {
  const plot = root.querySelector("svg.rope-w-svg").getBoundingClientRect();
  let next = Infinity;
  for (const node of root.querySelectorAll("*")) {
    if (node.closest("svg") === root.querySelector("svg.rope-w-svg")) continue;
    const box = node.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(node).visibility === "hidden") continue;
    const shares = box.left < plot.right - 1 && plot.left < box.right - 1;
    if (shares && box.top >= plot.bottom - 1) next = Math.min(next, box.top);
  }
  return next - plot.bottom;
}"""


def reach_state(root, state):
    """Drive the widget from its default frame to ``state``."""
    last = int(root.locator('input[data-name="content"]').get_attribute("max"))
    stops = int(root.locator('input[data-name="distance"]').get_attribute("max"))
    if state == "k random":
        set_slider(root, "content", last)
        return
    if state == "default":
        return
    root.locator('button[data-answer="1"]').click()
    if state == "answered":
        return
    set_slider(root, "content", last)
    set_slider(root, "distance", stops)
    assert root.locator('[data-readout="feedback"]').get_attribute("data-stage") == "revealed"
    if state == "crowd":
        root.locator('[data-toggle="random"]').click()


@pytest.mark.parametrize("width", [1280, 1024, 800, 390])
def test_the_by_base_panel_sits_directly_under_the_plot_in_every_state(chromium, book_server, width):
    phone = width == 390
    gaps = {}
    for state in ("default", "k random", "answered", "verdict", "crowd"):
        context, page, log = open_book_page(chromium, book_server, CHAPTER, "dark" if phone else "light",
                                            viewport={"width": width, "height": 844 if phone else 900}, touch=phone)
        try:
            root = page.locator(WIDGET)
            root.scroll_into_view_if_needed()
            reach_state(root, state)
            after_frames(page, 3)
            gaps[state] = root.evaluate(GAP_UNDER_PLOT)
            column = root.locator(".rope-w-decay-plots")
            layout = column.get_attribute("data-layout") if column.count() else None
            # beside the controls the panel is the next thing under the plot
            if layout == "beside":
                family = root.locator('[data-plot="family"]').bounding_box()
                plot = root.locator("svg.rope-w-svg").first.bounding_box()
                assert family["y"] - (plot["y"] + plot["height"]) <= 24, (width, state, family, plot)
            if phone:
                assert layout == "stacked"
            if width >= 1024:    # the controls still stand beside the plot there
                assert layout == "beside", (width, state)
        finally:
            problems = log.problems()
            context.close()
        assert not problems, problems
    assert all(0 <= gap <= 24 for gap in gaps.values()), (width, gaps)


# --- the prompt: only the steps still to do -------------------------------------------------


# Every order of the reader's four acts; the random pairs are offered only after the prediction.
ACTS = ("predict", "k random", "r far", "crowd")
ORDERS = [order for order in itertools.permutations(ACTS) if order.index("predict") < order.index("crowd")]


@pytest.mark.parametrize("order", ORDERS, ids=["-".join(a.replace(" ", "_") for a in o) for o in ORDERS])
def test_the_prompt_names_only_the_steps_not_yet_done(chromium, decay_site, order):
    _, widget, _ = decay_site
    data = widget.data
    context, page, log = open_alone(chromium, decay_site)
    try:
        root = page.locator(".rope-w").first
        feedback = root.locator('[data-readout="feedback"]')
        done = set()
        for act in order:
            if act == "predict":
                root.locator('button[data-answer="0"]').click()
            elif act == "k random":
                set_slider(root, "content", len(data["mixes"]) - 1)
            elif act == "r far":
                set_slider(root, "distance", len(data["stops"]) - 1)
            else:
                root.locator('[data-toggle="random"]').click()
            done.add(act)
            if "predict" not in done:
                continue
            text = feedback.inner_text()
            revealed = {"k random", "r far"} <= done
            assert feedback.get_attribute("data-stage") == ("revealed" if revealed else "predicted"), (order, act, text)
            if revealed:
                continue
            task = text.split("Now find out:", 1)[1]
            assert ("slide k to random" in task) == ("k random" not in done), (order, act, task)
            assert ("past r = 512" in task) == ("r far" not in done), (order, act, task)
            assert ("random pairs" in task) == ("crowd" not in done), (order, act, task)
    finally:
        problems = log.problems()
        context.close()
    assert not problems, problems


# --- the verdict is heard, whatever step reveals it -------------------------------------------


def last_step(page, root, how, data):
    """Take the step that reveals the verdict: ``how`` names the control the reader uses."""
    last = len(data["mixes"]) - 1
    far = len(data["stops"]) - 1
    if how == "k slider by keyboard":
        set_slider(root, "distance", far)
        set_slider(root, "content", last, keyboard=True)
        return
    set_slider(root, "content", last)
    if how == "r slider by keyboard":
        set_slider(root, "distance", far, keyboard=True)
    elif how == "r step button":
        set_slider(root, "distance", data["stops"].index(next(s for s in data["stops"]
                                                              if data["distances"][s] >= 512)) - 1)
        root.locator('button[data-step-of="distance"][data-delta="1"]').click()
    elif how == "drag along the plot":
        box = root.locator("rect[data-scrub]").bounding_box()
        page.mouse.move(box["x"] + 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        for f in (0.3, 0.6, 0.9):
            page.mouse.move(box["x"] + f * box["width"], box["y"] + box["height"] / 2)
        page.mouse.up()
    else:
        raise ValueError(how)


@pytest.mark.parametrize("then_crowd", [False, True], ids=["alone", "then-random-pairs-at-once"])
@pytest.mark.parametrize("how", ["k slider by keyboard", "r slider by keyboard", "r step button", "drag along the plot"])
def test_the_verdict_is_heard_whatever_step_reveals_it(chromium, decay_site, how, then_crowd):
    _, widget, _ = decay_site
    context, page, log = open_alone(chromium, decay_site)
    try:
        root = page.locator(".rope-w").first
        root.locator('button[data-answer="1"]').click()
        page.wait_for_timeout(900)     # the task, heard after the prediction
        last_step(page, root, how, widget.data)
        feedback = root.locator('[data-readout="feedback"]')
        assert feedback.get_attribute("data-stage") == "revealed", how
        # The verdict is said once, when the reader pauses, as the screen shows it then: with the
        # random pairs shown within the pause it quotes their medians, and the pairs' own
        # read-out follows it.
        first = feedback.inner_text().strip()
        if then_crowd:
            root.locator('[data-toggle="random"]').click()
            assert "random pairs settle it" in feedback.inner_text() and "random pairs settle it" not in first
        page.wait_for_timeout(1000)
        heard = root.locator('[data-readout="announce"]').inner_text()
        verdict = feedback.inner_text().strip()
        assert verdict.startswith("✓ Right.")
        assert heard.startswith("✓ Right. With a random key"), (how, heard)
        assert " ".join(heard.split()).startswith(" ".join(verdict.split())), (how, heard)
        if then_crowd:
            assert heard.rstrip().split("✓ Right.")[-1].count("random pairs: median") == 1, heard
    finally:
        problems = log.problems()
        context.close()
    assert not problems, problems


# --- the phone: the pinned bar never covers the question --------------------------------------

# The parts of the question (its verdict too) on the screen that the widget's pinned bar covers (the site's own
# header covers the screen's top as a page scrolls under it: not the widget's doing).
COVERED = r"""(root) => {
  const out = [];
  for (const node of root.querySelectorAll(".rope-w-question-prompt, button[data-answer], [data-readout=feedback]")) {
    if (node.getBoundingClientRect().height === 0) continue;   // no verdict yet
    const box = node.getBoundingClientRect();
    const inView = box.top >= 0 && box.bottom <= window.innerHeight;
    if (!inView) continue;
    // the centre and the four corners, one pixel in, must all hit the node itself
    const points = [[(box.left + box.right) / 2, (box.top + box.bottom) / 2], [box.left + 2, box.top + 2],
                    [box.right - 2, box.top + 2], [box.left + 2, box.bottom - 2], [box.right - 2, box.bottom - 2]];
    const hidden = points.filter(([x, y]) => { const hit = document.elementFromPoint(x, y); return hit && hit.closest(".rope-w-in-reach"); });
    if (hidden.length) out.push([node.textContent.trim().slice(0, 30), window.scrollY, box.top, box.bottom,
      hidden.map(([x, y]) => { const hit = document.elementFromPoint(x, y); return hit ? hit.className || hit.tagName : null; })]);
  }
  return out;
}"""


def covered_while_scrolling(page, root):
    """COVERED at every scroll through the widget, 30 px at a time."""
    top = root.evaluate("(r) => r.getBoundingClientRect().top + window.scrollY")
    height = root.evaluate("(r) => r.getBoundingClientRect().height")
    covered = []
    for y in range(int(top) - PHONE["height"], int(top + height), 30):
        page.evaluate("(y) => window.scrollTo({top: y, behavior: 'instant'})", y)
        after_frames(page)
        covered += root.evaluate(COVERED)
    return covered


def test_on_a_phone_the_pinned_bar_never_covers_the_question(chromium, book_server):
    context, page, log = open_book_page(chromium, book_server, CHAPTER, "dark", viewport=PHONE, touch=True)
    try:
        root = page.locator(WIDGET)
        root.scroll_into_view_if_needed()
        after_frames(page)
        question = root.locator(".rope-w-question")
        answers = root.locator("button[data-answer]")
        # The question scrolled into view (its end at the screen's foot, centred, at its top):
        # both answers fully visible and the ones hit at their centres.
        for block in ("end", "center", "start", "nearest"):
            question.evaluate("(q, block) => q.scrollIntoView({block, behavior: 'instant'})", block)
            after_frames(page, 3)
            for i in range(answers.count()):
                box = answers.nth(i).bounding_box()
                assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (block, i, box)
                hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('button[data-answer]')?.dataset.answer",
                                    [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
                assert hit == str(i), (block, i, hit)
            assert root.evaluate(COVERED) == [], block
        # And at every scroll through the widget, 30 px at a time: whatever of the question is
        # on the screen is not under the bar.
        assert covered_while_scrolling(page, root) == []
        # The first screen with the plot at its top still holds the question and the pinned bar.
        plot = root.locator("svg.rope-w-svg").first
        plot.evaluate("svg => svg.scrollIntoView({block: 'start', behavior: 'instant'})")
        header = page.evaluate("() => { const h = document.querySelector('.bd-header'); return h ? h.getBoundingClientRect().bottom : 0; }")
        page.evaluate("(by) => window.scrollBy({top: -by, behavior: 'instant'})", max(header, 0) + 8)
        after_frames(page, 3)
        distance = root.locator('input[data-name="distance"]').bounding_box()
        assert 0 <= distance["y"] and distance["y"] + distance["height"] <= PHONE["height"], distance
        for i in range(answers.count()):
            box = answers.nth(i).bounding_box()
            assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], (i, box)
            hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('button[data-answer]')?.dataset.answer",
                                [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
            assert hit == str(i), (i, hit)
        assert root.evaluate(COVERED) == []
        answers.nth(1).click(trial=True)     # Playwright's own hit test: nothing intercepts it
        # After the verdict (a random key drawn to r = 1024) the verdict is not under it either.
        reach_state(root, "verdict")
        assert covered_while_scrolling(page, root) == []
    finally:
        problems = log.problems()
        context.close()
    assert not problems, problems
