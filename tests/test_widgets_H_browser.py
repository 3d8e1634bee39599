"""DecayExplorer, driven in chromium: the prompt names only the steps still to do; the verdict
is heard whatever step reveals it. The widget is rendered on its own page from its Python class.
"""

from __future__ import annotations

import itertools

import pytest
from _browser import DESKTOP, after_frames, open_page, serve, set_slider
from test_widgets_spectrum_browser import write_page

from rope_core import widgets as W

pytestmark = [pytest.mark.browser]

# --- the prompt: only the steps still to do -------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("H")
    widget = W.DecayExplorer()
    pages = {theme: write_page(directory, widget, theme) for theme in ("light", "dark")}
    with serve(directory) as url:
        yield url, widget, pages


def open_widget(chromium, site, theme="light", *, viewport=DESKTOP, touch=False):
    url, _, pages = site
    context, page, log = open_page(chromium, theme, viewport=viewport, touch=touch)
    page.goto(f"{url}/{pages[theme]}")
    page.wait_for_function("window.ropeReady === true", timeout=20000)
    after_frames(page)
    return context, page, log


# Every order of the reader's four acts; the random pairs are offered only after the prediction.
ACTS = ("predict", "k random", "r far", "crowd")
ORDERS = [order for order in itertools.permutations(ACTS) if order.index("predict") < order.index("crowd")]


@pytest.mark.parametrize("order", ORDERS, ids=["-".join(a.replace(" ", "_") for a in o) for o in ORDERS])
def test_the_prompt_names_only_the_steps_not_yet_done(chromium, site, order):
    _, widget, _ = site
    data = widget.data
    context, page, log = open_widget(chromium, site)
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
def test_the_verdict_is_heard_whatever_step_reveals_it(chromium, site, how, then_crowd):
    _, widget, _ = site
    context, page, log = open_widget(chromium, site)
    try:
        root = page.locator(".rope-w").first
        root.locator('button[data-answer="1"]').click()
        page.wait_for_timeout(900)     # the task, heard after the prediction
        last_step(page, root, how, widget.data)
        feedback = root.locator('[data-readout="feedback"]')
        assert feedback.get_attribute("data-stage") == "revealed", how
        if then_crowd:      # within the announcer's pause: what it says must follow the verdict
            root.locator('[data-toggle="random"]').click()
        page.wait_for_timeout(1000)
        heard = root.locator('[data-readout="announce"]').inner_text()
        verdict = feedback.inner_text().strip()
        assert verdict.startswith("✓ Right.")
        assert heard.startswith("✓ Right. With a random key"), (how, heard)
        assert " ".join(verdict.split()) in " ".join(heard.split()), (how, heard)
        if then_crowd:
            assert heard.rstrip().split("✓ Right.")[-1].count("random pairs: median") == 1, heard
    finally:
        problems = log.problems()
        context.close()
    assert not problems, problems
