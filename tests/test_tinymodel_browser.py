"""The trained-model explorer on the static chapter page: its read-outs are the committed tables."""

from __future__ import annotations

import pytest
from _browser import goto

from rope_core.widgets import TrainedModelExplorer

pytestmark = [pytest.mark.book, pytest.mark.browser]
PAGE = "book/11-train-a-tiny-model.html"


@pytest.fixture
def explorer(book_server, browser_page):
    page, log = browser_page
    goto(page, f"{book_server}/{PAGE}")
    page.wait_for_selector(".rope-w button.rope-w-pair", timeout=20000)
    yield page.locator(".rope-w").first, page
    assert not log.external_requests, log.external_requests
    assert not log.page_errors, log.page_errors
    assert not log.console_errors, log.console_errors


def test_pair_buttons_show_the_ablation_table(explorer):
    root, _ = explorer
    data = TrainedModelExplorer().data
    shown = root.locator('[data-readout="ablation0"]')
    assert float(shown.get_attribute("data-value")) == pytest.approx(data["ablation"][0][0])
    for pair in range(4):  # the four fastest pairs of layer 0 off
        root.locator(f'button.rope-w-pair[data-layer="0"][data-pair="{pair}"]').click()
    assert shown.get_attribute("data-bits") == str(0b1111)
    assert float(shown.get_attribute("data-value")) == pytest.approx(data["ablation"][0][0b1111])
    pressed = root.locator('button.rope-w-pair[aria-pressed="true"]')
    assert pressed.count() == 4
    root.locator('button.rope-w-pair[data-layer="1"][data-pair="7"]').click()
    layer1 = root.locator('[data-readout="ablation1"]')
    assert float(layer1.get_attribute("data-value")) == pytest.approx(data["ablation"][1][1 << 7])


def _on_targets(weights, period):
    return sum(weights[d] for d in range(period - 1, len(weights), period))


def test_scheme_and_length_show_each_heads_attention(explorer):
    root, _ = explorer
    data = TrainedModelExplorer().data
    length = root.locator('input[data-name="length"]')
    length.focus()
    length.press("End")  # the longest length
    # The scheme is a choice of four: radio buttons; the arrow keys move the choice.
    assert root.locator('input[data-name="scheme"]').count() == 0
    none = root.locator('button[role="radio"][data-scheme="none"]')
    assert none.get_attribute("aria-checked") == "true"
    none.focus()
    none.press("ArrowRight")  # no scaling -> PI
    assert root.locator('button[data-scheme="PI"]').get_attribute("aria-checked") == "true"
    longest = data["lengths"][-1]
    rows = data["attention"]["PI"][str(longest)]
    label = root.locator('text[data-previous]').first
    assert float(label.get_attribute("data-previous")) == pytest.approx(rows[0][0][1])
    assert float(label.get_attribute("data-target")) == pytest.approx(
        _on_targets(rows[0][0], data["period"]))
    accuracy = root.locator('[data-readout="accuracy"]')
    assert float(accuracy.get_attribute("data-value")) == pytest.approx(data["accuracy"]["PI"][str(longest)])


def test_the_default_frame_states_what_it_draws_and_asks_one_question(explorer):
    root, _ = explorer
    data = TrainedModelExplorer().data
    first = data["attention"]["none"]["64"]
    previous = [h for h in range(data["n_heads"]) if first[0][h][1] > 0.3]
    targets = [_on_targets(w, data["period"]) for w in first[1]]
    # One line of instructions; the numbers are in each strip's label, under the strip.
    lesson = root.locator("[data-lesson]").inner_text()
    assert lesson.count(".") == 1 and len(lesson) < 220 and "arcs" in lesson and "strip" in lesson, lesson
    strip_labels = root.locator("text[data-previous]")
    for layer, on in ((0, [first[0][h][1] for h in range(data["n_heads"])]), (1, targets)):
        for head, value in enumerate(on):
            label = strip_labels.nth(layer * data["n_heads"] + head).text_content()
            assert f"{value:.2f} {'on t−1' if layer == 0 else 'on targets'}" in label, (layer, head, label)
    # the drawing is that frame: the training length, no scaling, one label per head
    assert root.locator('input[data-name="length"]').input_value() == "0"
    labels = root.locator("text[data-previous]")
    assert labels.count() == data["n_layers"] * data["n_heads"]
    assert float(labels.nth(previous[0]).get_attribute("data-previous")) > 0.3
    # One question. Its right answer follows the data: the pair-0 head already loses most of
    # t − 1 at the longest length with no scaling, so the quiz does not credit PI alone.
    assert root.locator(".rope-w-question").count() == 1
    longest, fast = str(data["lengths"][-1]), data["fast_head"]
    mass = {s: data["attention"][s][longest][0][fast][1] for s in data["schemes"]}
    assert mass["none"] < first[0][fast][1] / 2
    root.locator('.rope-w-question button[data-answer="1"]').click()
    feedback = root.locator('[data-readout="feedback"]')
    assert feedback.get_attribute("data-correct") is None          # predicted; not yet looked
    length = root.locator('input[data-name="length"]')
    length.focus()
    length.press("End")
    root.locator('button[data-scheme="PI"]').click()
    assert feedback.get_attribute("data-correct") == "true"
    text = feedback.inner_text()
    assert f"{mass['none']:.2f} with no scaling" in text and f"{mass['PI']:.2f} with PI" in text


def test_on_a_phone_the_heads_stack_with_their_labels_apart(book_server, chromium):
    from _browser import PHONE, open_page

    context, page, log = open_page(chromium, "dark", viewport=PHONE, touch=True)
    try:
        goto(page, f"{book_server}/{PAGE}")
        page.wait_for_selector(".rope-w[data-columns] text[data-previous]", timeout=20000)
        root = page.locator(".rope-w[data-columns]").first
        root.scroll_into_view_if_needed()
        assert root.get_attribute("data-columns") == "1"
        boxes = root.locator("text[data-previous]").evaluate_all(
            "(nodes) => nodes.map((n) => { const b = n.getBoundingClientRect(); "
            "return [b.left, b.top, b.right, b.bottom]; })")
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
                assert apart, (a, b)
        strip = root.locator('g[data-layer="0"][data-head="0"] rect').bounding_box()
        assert strip["width"] >= 300  # one column: 256 keys get more than a pixel each
        assert not log.page_errors and not log.console_errors
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_question_comes_first_among_the_controls_and_no_arc_is_a_loop(book_server, chromium, width):
    """On a phone the question follows the drawing at once (it was under the scheme, length,
    query, head and pair controls, 1 500 px below the arcs); on a desktop it heads the controls.
    Every arc the default frame draws rises at least 18 drawing units above the row, even
    between neighbouring tokens."""
    from _browser import PHONE, open_page

    viewport = PHONE if width == 390 else {"width": width, "height": 900}
    context, page, log = open_page(chromium, "dark", viewport=viewport, touch=width == 390)
    try:
        goto(page, f"{book_server}/{PAGE}")
        page.wait_for_selector(".rope-w[data-columns] text[data-previous]", timeout=20000)
        root = page.locator(".rope-w[data-columns]").first
        controls = root.locator(".rope-w-controls")
        assert controls.evaluate("(c) => c.firstElementChild.classList.contains('rope-w-question')")
        question, drawing = root.locator(".rope-w-question").bounding_box(), root.locator("svg.rope-w-svg").first.bounding_box()
        if width == 390:
            assert 0 <= question["y"] - (drawing["y"] + drawing["height"]) <= 40, (question, drawing)
        heights = root.locator("path.rope-w-attention-arc").evaluate_all(
            """(paths) => paths.filter((p) => p.getAttribute('d')).map((p) => {
                 const n = p.getAttribute('d').match(/-?[0-9.]+/g).map(Number);
                 return Math.abs(n[3] - n[1]) / 2; })""")
        assert heights and min(heights) >= 18, heights
        assert not log.page_errors and not log.console_errors
    finally:
        context.close()
