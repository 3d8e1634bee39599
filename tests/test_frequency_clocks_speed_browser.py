"""FrequencyClocks' speed read-out: each hand's turns per token equal θ_i / 2π from rope_core."""

from __future__ import annotations

import numpy as np
import pytest
from _browser import gallery_widget, goto

import rope_core as rc
from rope_core import widgets as W

pytestmark = [pytest.mark.book, pytest.mark.browser]


def test_frequency_clocks_speed_is_theta_over_two_pi(book_server, browser_page):
    page, log = browser_page
    goto(page, f"{book_server}/book/gallery.html")
    root, data = gallery_widget(page, "FrequencyClocks"), W.FrequencyClocks().data
    seen = set()
    for _ in range(3):
        base = int(root.locator('input[data-name="base"]').input_value())
        dim = int(root.locator('input[data-name="dim"]').input_value())
        theta = rc.inverse_frequencies(data["dims"][dim], data["bases"][base])
        for name, pair in (("fastest", 0), ("slowest", -1)):
            readout = root.locator(f'[data-readout="{name}"]')
            got = float(readout.get_attribute("data-turns-per-token"))
            assert abs(got - theta[pair] / (2 * np.pi)) < 1e-9
            assert "turns/token" in readout.text_content()
        seen.add((base, dim))
        root.locator('input[data-name="base"]').focus()
        page.keyboard.press("ArrowRight")
    assert len(seen) > 1, "moving the base slider changed nothing the test could see"
    assert not log.page_errors, log.page_errors
