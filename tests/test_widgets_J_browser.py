"""RotationMatrixHeatmap and FrequencyClocks in chromium: what the hand finds past the question.

The heat map's slider runs past the question's m = 32 to 4096 on log steps: play halts at 32,
then runs on to the last stop; every frame on the way draws each block at m·θ_i of rope_core;
the verdict is judged at m = 32 wherever the slider is and says what the slider shows when it
is past; a tick on each block's ring marks 0.1 rad. The widget is rendered on its own page from
its Python class (test_widgets_spectrum_browser.py's page: the module and sheet Python ships).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import test_widgets_wD_browser as heat_pages
from _browser import after_frames, dataset, set_slider
from test_widgets_wD_browser import FRAME, check_frame, state

import rope_core as rc

pytestmark = [pytest.mark.browser]
# The heat map's own page and a fresh tab on it, predicted "the bottom blocks".
site, opened = heat_pages.site, heat_pages.opened


def test_play_halts_at_the_question_then_runs_on_to_the_last_stop(opened):
    open_one, widget = opened
    page = open_one()
    dim, base = state(page, widget)
    positions, asked = widget.data["positions"], widget.data["question"]
    set_slider(page, "position", positions.index(asked))
    page.locator('button[data-name="play"]').click()
    frames = []
    for _ in range(120):
        frame = page.evaluate(FRAME)
        frames.append(frame)
        if frame["playing"] == "false":
            break
        check_frame(frame, dim, base)   # every angle drawn is m·θ_i, at m between stops too
        page.wait_for_timeout(150)
    played = [f["m"] for f in frames if f["playing"] == "true"]
    assert len(played) >= 5, played
    assert all(b >= a for a, b in zip(played, played[1:])), played
    assert max(played) > 64 and any(m not in positions for m in played), played   # log steps, smoothly
    page.wait_for_timeout(400)
    frame = page.evaluate(FRAME)
    assert frame["playing"] == "false" and frame["m"] == positions[-1]
    check_frame(frame, dim, base)
    # There the slow blocks have turned too: the last by more than 1 rad.
    theta = rc.inverse_frequencies(dim, base)
    assert positions[-1] * theta[-1] > 1.0
    verdict = page.locator(".rope-w-question").inner_text()
    assert f"At m = {asked}, block {dim // 2 - 1} has turned by less than 0.1 rad" in verdict, verdict
    assert f"(The slider is past {asked}, at m = {positions[-1]}: there every block has turned by 0.1 rad or more;" in verdict
    slowest = re.search(r"the slowest by ([\d.]+) rad\.\)", verdict)
    assert slowest and float(slowest.group(1)) == pytest.approx(positions[-1] * theta[-1], rel=5e-3), verdict


def test_the_verdict_is_judged_at_the_question_wherever_the_slider_is(opened, rng):
    open_one, widget = opened
    page = open_one()
    data = widget.data
    positions, asked = data["positions"], data["question"]
    question = page.locator('[data-readout="question"]')
    # Below the question's m: not yet answered, no verdict.
    set_slider(page, "position", positions.index(asked) - 1)
    assert dataset(question)["answered"] == "0"
    assert "✓" not in page.locator(".rope-w-question").inner_text()
    for _ in range(8):
        d, b = int(rng.integers(len(data["dims"]))), int(rng.integers(len(data["bases"])))
        k = int(rng.integers(positions.index(asked), len(positions)))
        for name, index in (("dim", d), ("base", b), ("position", k)):
            set_slider(page, name, index)
        after_frames(page)
        dim, base, m = data["dims"][d], data["bases"][b], positions[k]
        theta = rc.inverse_frequencies(dim, base)
        check_frame(page.evaluate(FRAME), dim, base)
        assert dataset(question)["answered"] == "1"
        at_question = np.flatnonzero(asked * theta < 0.1)
        assert int(dataset(question)["still"]) == (int(at_question[0]) if at_question.size else -1)
        verdict = page.locator(".rope-w-question").inner_text()
        assert f"At m = {asked}" in verdict, verdict
        if m == asked:
            assert "The slider is past" not in verdict
            continue
        now = np.flatnonzero(m * theta < 0.1)
        assert f"(The slider is past {asked}, at m = {m}: there " in verdict, verdict
        if now.size:
            first = int(now[0])
            blocks = f"block {first}" if first == dim // 2 - 1 else f"blocks {first}–{dim // 2 - 1}"
            assert f"there {blocks} still turn" in verdict, verdict
        else:
            assert "every block has turned by 0.1 rad or more" in verdict, verdict


def test_the_slider_lands_on_the_question_and_the_powers_of_two_by_keyboard(opened):
    open_one, widget = opened
    page = open_one()
    positions = widget.data["positions"]
    slider = page.locator('input[data-name="position"]')
    output = page.locator('output[data-name="position"]')
    set_slider(page, "position", 0)
    slider.focus()
    seen = []
    for _ in range(len(positions) - 1):
        page.keyboard.press("ArrowRight")
        seen.append(int(output.inner_text()))
    assert seen == positions[1:]
    assert {32, *(2**k for k in range(13))} <= set(seen)
    assert slider.get_attribute("aria-valuetext") == "4096"


def test_each_block_ring_has_a_tick_at_a_tenth_of_a_radian(opened):
    open_one, widget = opened
    page = open_one()
    for d in range(len(widget.data["dims"])):
        set_slider(page, "dim", d)
        ticks = page.evaluate("""() => [...document.querySelectorAll("g[data-block-turn]")].map((g) => {
          const ring = g.querySelector("circle"), tick = g.querySelector("path[data-block-tick]");
          const n = tick.getAttribute("d").replace(/[ML]/g, " ").trim().split(/\\s+/).map(Number);
          return [+ring.getAttribute("cx"), +ring.getAttribute("cy"), +ring.getAttribute("r"), ...n]; })""")
        assert len(ticks) == widget.data["dims"][d] // 2
        for cx, cy, r, x1, y1, x2, y2 in ticks:
            for x, y in ((x1, y1), (x2, y2)):
                assert math.atan2(cy - y, x - cx) == pytest.approx(0.1, abs=1e-9)
            # It crosses the ring: from inside to outside.
            assert math.hypot(x1 - cx, y1 - cy) < r < math.hypot(x2 - cx, y2 - cy)
    assert page.locator('text[data-legend="tick"]').text_content() == "tick on each ring: 0.1 rad from the start"

