"""The trained-model explorer on the static chapter page: its read-outs are the committed tables."""

from __future__ import annotations

import pytest

from rope_core.widgets import TrainedModelExplorer

pytestmark = [pytest.mark.book, pytest.mark.browser]
PAGE = "book/15-train-a-tiny-model.html"


@pytest.fixture
def explorer(book_server, browser_page):
    page, log = browser_page
    page.goto(f"{book_server}/{PAGE}", wait_until="networkidle")
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


def test_scheme_and_length_show_each_heads_attention(explorer):
    root, _ = explorer
    data = TrainedModelExplorer().data
    scheme = root.locator('input[data-name="scheme"]')
    scheme.focus()
    scheme.press("ArrowRight")  # no scaling -> PI, at the default length 256
    length = data["lengths"][int(root.locator('input[data-name="length"]').input_value())]
    rows = data["attention"]["PI"][str(length)]
    label = root.locator('text[data-previous]').first
    assert float(label.get_attribute("data-previous")) == pytest.approx(rows[0][0][length - 2])
    assert float(label.get_attribute("data-target")) == pytest.approx(rows[0][0][length - data["period"]])
    accuracy = root.locator('[data-readout="accuracy"]')
    assert float(accuracy.get_attribute("data-value")) == pytest.approx(data["accuracy"]["PI"][str(length)])
