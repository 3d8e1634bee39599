"""The trained-model explorer's row of tokens and its arcs, driven on the built chapter page."""

from __future__ import annotations

import math

import pytest
from _browser import PHONE, axe_serious, goto, open_page

from rope_core.widgets import TrainedModelExplorer

pytestmark = [pytest.mark.book, pytest.mark.browser]
PAGE = "book/11-train-a-tiny-model.html"


@pytest.fixture(scope="module")
def data():
    return TrainedModelExplorer().data


def _load(page, url):
    goto(page, f"{url}/{PAGE}")
    page.wait_for_selector(".rope-w [data-arcs]", timeout=20000)
    return page.locator(".rope-w:has([data-arcs])").first


@pytest.fixture
def explorer(book_server, browser_page):
    page, log = browser_page
    yield _load(page, book_server), page
    assert not log.external_requests, log.external_requests
    assert not log.page_errors, log.page_errors
    assert not log.console_errors, log.console_errors


def _expected(data, scheme, length, layer, head, query):
    flat = data["arcs"][scheme][str(length)][layer][head][query]
    return [flat[j] for j in range(0, len(flat), 2)], [flat[j + 1] / 100 for j in range(0, len(flat), 2)]


def _check_arcs(root, data, scheme, length, query):
    """The query cell, the ticks' positions and both layers' drawn arcs are the data's."""
    t = length - data["arc_queries"] + query
    cells = root.locator("g[data-query]")
    assert cells.get_attribute("data-query") == str(t)
    assert root.locator("rect.rope-w-token[data-position]").count() == length
    assert root.locator(f'rect.rope-w-query-token[data-position="{t}"]').count() == 1
    tokens = data["tokens"][str(length)]
    targets = [s for s in range(1, t + 1) if tokens[s - 1] == tokens[t]]
    assert cells.get_attribute("data-targets") == ",".join(map(str, targets))
    for layer in range(2):
        group = root.locator(f'g[data-arcs="{layer}"]')
        head = int(group.get_attribute("data-head"))
        keys, weights = _expected(data, scheme, length, layer, head, query)
        assert group.get_attribute("data-keys") == ",".join(map(str, keys))
        drawn = group.locator("path.rope-w-attention-arc")
        assert drawn.count() == len(keys)
        for j, (key, weight) in enumerate(zip(keys, weights)):
            assert drawn.nth(j).get_attribute("data-key") == str(key)
            assert float(drawn.nth(j).get_attribute("data-weight")) == pytest.approx(weight)
            # The arc ends over its key's cell.
            end = float(drawn.nth(j).get_attribute("d").split()[-2])
            cell = root.locator(f'rect.rope-w-token[data-position="{key}"]')
            x, width = float(cell.get_attribute("x")), float(cell.get_attribute("width"))
            assert x - 1 <= end <= x + width + 1
    return t


def test_default_arcs_are_the_last_tokens(explorer, data):
    root, _ = explorer
    t = _check_arcs(root, data, "none", 64, data["arc_queries"] - 1)
    assert t == 63
    # Layer 0 draws the previous-token head built on pair 0; layer 1 the head most on the targets.
    assert root.locator('g[data-arcs="0"]').get_attribute("data-head") == str(data["fast_head"])
    period = data["period"]
    on_targets = [sum(w[period - 1::period]) for w in data["attention"]["none"]["64"][1]]
    assert root.locator('g[data-arcs="1"]').get_attribute("data-head") == str(on_targets.index(max(on_targets)))
    assert root.locator('[data-readout="arcs"]').get_attribute("data-query") == "63"


def _cell_centre(page, root, position):
    box = root.locator(f'rect.rope-w-token[data-position="{position}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_dragging_along_the_row_moves_the_query(explorer, data):
    root, page = explorer
    first = 64 - data["arc_queries"]
    root.locator("g[data-query]").scroll_into_view_if_needed()
    page.mouse.move(*_cell_centre(page, root, 63))
    page.mouse.down()
    for position in (61, 58, first + 2):
        page.mouse.move(*_cell_centre(page, root, position), steps=4)
        assert _check_arcs(root, data, "none", 64, position - first) == position
    page.mouse.up()
    # A press left of the queries lands on the first of them, not outside.
    page.mouse.click(*_cell_centre(page, root, first - 1))
    assert _check_arcs(root, data, "none", 64, 0) == first
    assert root.locator('input[data-name="query"]').input_value() == "0"


def test_keyboard_moves_the_query_and_picks_heads(explorer, data):
    root, page = explorer
    query = root.locator('input[data-name="query"]')
    query.focus()
    for _ in range(3):
        query.press("ArrowLeft")
    _check_arcs(root, data, "none", 64, data["arc_queries"] - 4)
    assert query.get_attribute("aria-valuetext") == "token 60 of 64"
    # The result is said once the reader pauses: the arcs of both layers.
    region = root.locator('[data-readout="announce"]')
    page.wait_for_function("(el) => el.textContent.includes('token 60')", arg=region.element_handle(), timeout=3000)
    assert "layer 1 head" in region.inner_text()
    # Head buttons: a radio group per layer; the arrow keys move the choice.
    chosen = root.locator('button[role="radio"][data-layer="1"][aria-checked="true"]')
    before = int(chosen.get_attribute("data-head"))
    chosen.focus()
    chosen.press("ArrowRight")
    after = (before + 1) % data["n_heads"]
    assert root.locator('g[data-arcs="1"]').get_attribute("data-head") == str(after)
    assert root.locator(f'button[role="radio"][data-layer="1"][data-head="{after}"]').get_attribute("aria-checked") == "true"
    _check_arcs(root, data, "none", 64, data["arc_queries"] - 4)
    # A click on a strip picks that head too, and marks the strip.
    root.locator('g.rope-w-strip[data-layer="0"][data-head="0"]').click()
    assert root.locator('g[data-arcs="0"]').get_attribute("data-head") == "0"
    assert root.locator('g.rope-w-strip.rope-w-chosen[data-layer="0"]').get_attribute("data-head") == "0"
    _check_arcs(root, data, "none", 64, data["arc_queries"] - 4)


def test_length_and_scheme_redraw_the_arcs(explorer, data):
    root, _ = explorer
    length = root.locator('input[data-name="length"]')
    length.focus()
    length.press("End")
    root.locator('button[data-scheme="NTK"]').click()
    longest = data["lengths"][-1]
    _check_arcs(root, data, "NTK", longest, data["arc_queries"] - 1)
    assert root.locator('input[data-name="query"]').get_attribute("aria-valuetext") == f"token {longest - 1} of {longest}"
    root.locator('button[data-scheme="YaRN"]').click()
    _check_arcs(root, data, "YaRN", longest, data["arc_queries"] - 1)


def test_phone_tap_on_the_row_picks_a_query(chromium, book_server, data):
    context, page, log = open_page(chromium, "dark", viewport=PHONE, touch=True)
    try:
        root = _load(page, book_server)
        root.locator("g[data-query]").scroll_into_view_if_needed()
        first = 64 - data["arc_queries"]
        page.touchscreen.tap(*_cell_centre(page, root, first + 5))
        assert _check_arcs(root, data, "none", 64, 5) == first + 5
        # The row fits the phone's width.
        box = root.locator("rect.rope-w-row-hit").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert not log.page_errors and not log.console_errors, (log.page_errors, log.console_errors)
    finally:
        context.close()


def test_pair_buttons_are_bars_of_their_wavelength(explorer, data):
    # Each bar's height is linear in log wavelength, and the dashed line sits at the training
    # length on the same scale: under it the pairs that turn at least once within 64 tokens.
    root, _ = explorer
    lam = data["wavelengths"]
    for layer in range(data["n_layers"]):
        bars = [root.locator(f'button.rope-w-pair[data-layer="{layer}"][data-pair="{i}"] .rope-w-pair-bar').bounding_box()
                for i in range(len(lam))]
        heights = [bar["height"] for bar in bars]
        slope = (heights[-1] - heights[0]) / math.log(lam[-1] / lam[0])
        assert slope > 0, heights
        for height, wavelength in zip(heights, lam):
            assert height == pytest.approx(heights[0] + slope * math.log(wavelength / lam[0]), abs=1.0)
        line = root.locator(f'[aria-label="pairs of layer {layer}"] .rope-w-pair-trained').bounding_box()
        centre = line["y"] + line["height"] / 2
        for bar, wavelength in zip(bars, lam):
            # a bar's top lies slope * ln(lambda / 64) above the line (below it when negative)
            assert centre - bar["y"] == pytest.approx(slope * math.log(wavelength / data["training_length"]), abs=1.0)
            below = wavelength <= data["training_length"]
            assert (bar["y"] >= centre - 0.5) == below, (layer, wavelength)


def test_drawing_and_controls_side_by_side_on_a_desktop(explorer):
    # The body of the other widgets: the 440-unit drawing left, the controls beside it, on
    # the chapter page at 1280 px; every pair button of a layer in one row.
    root, _ = explorer
    drawing = root.locator("svg.rope-w-svg").first.bounding_box()
    controls = root.locator(".rope-w-controls").first.bounding_box()
    assert drawing["x"] + drawing["width"] <= controls["x"], (drawing, controls)
    assert abs(drawing["y"] - controls["y"]) < 40, (drawing, controls)
    for layer in range(2):
        tops = root.locator(f'button.rope-w-pair[data-layer="{layer}"]').evaluate_all(
            "(bs) => bs.map((b) => b.getBoundingClientRect()).map((r) => [r.top, r.right])")
        assert len({round(top) for top, _ in tops}) == 1, tops
        assert max(right for _, right in tops) <= controls["x"] + controls["width"] + 1, tops


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_no_serious_axe_violation_in_the_explorer(chromium, book_server, theme):
    # After an interaction (a strip chosen, a pair off), in both colour schemes.
    context, page, log = open_page(chromium, theme)
    try:
        root = _load(page, book_server)
        root.locator('g.rope-w-strip[data-layer="1"][data-head="2"]').click()
        root.locator('button.rope-w-pair[data-layer="0"][data-pair="0"]').click()
        assert axe_serious(page, include=[".rope-w:has([data-arcs])"]) == []
        assert not log.page_errors and not log.console_errors, (log.page_errors, log.console_errors)
    finally:
        context.close()
