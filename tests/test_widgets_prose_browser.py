"""The sentences that describe a widget say what it draws.

For each of FrequencyClocks, RotationMatrixHeatmap, LayoutExplorer and ContextExtension, the
sentences before its cell in the chapter's source quote numbers (the head, the context, the
sample vector, the peak of a score, the slow pairs); the chapter page is opened in chromium and
each number is compared with the widget's own read-outs on that page, in its default state.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from _browser import dataset, goto, open_book_page, open_page, set_slider

pytestmark = [pytest.mark.book, pytest.mark.browser]
BOOK = Path(__file__).resolve().parents[1] / "book"


def prose_before(chapter, cell):
    """The paragraph just before the code cell that creates ``cell`` (MyST source, maths as TeX)."""
    text = (BOOK / chapter).read_text()
    at = text.index(f"{cell}()\n```")
    start = text.rindex("```{code-cell}", 0, at)
    paragraphs = [p for p in text[:start].split("\n\n") if p.strip() and not p.lstrip().startswith(("```", ":::"))]
    return " ".join(paragraphs[-1].split())


def test_chapter_5_clocks_and_matrix_prose(chromium, book_server):
    clocks = prose_before("05-d-dimensions.md", "FrequencyClocks")
    head = re.search(r"the (\d+) hands of a \$d = (\d+)\$ head at base \$10\\,000\$, the toy head above: "
                     r"\$\\beta = (\d+)\$, so hand \$i\$ points at \$m/10\^i\$ radians", clocks)
    context_length = re.search(r"context length \$L = (\d+)\$", clocks)
    assert head and context_length, clocks
    odometer = re.search(r"writes \$m\$'s digits \$\\lfloor m/\\beta\^i\\rfloor \\bmod \\beta\$.*pair 0 on the right, "
                         r"so at \$m = (\d+)\$ its wheels read ([\d ]+)\.", clocks)
    others = re.search(r"for every other choice the widget offers \$\\beta\$ is not a whole number, and neither are "
                       r"the digits\. The button \"([^\"]+)\" brings back the toy head, whose wheels spell \$m\$ in decimal", clocks)
    assert odometer and others, clocks
    context, page, log = open_book_page(chromium, book_server, "05-d-dimensions.md")
    try:
        root = page.locator(".rope-w", has=page.locator('text[data-label="odometer"]'))
        spelled = lambda: root.locator("text[data-wheel]").evaluate_all(  # noqa: E731
            "(ts) => ts.sort((a, b) => b.dataset.wheel - a.dataset.wheel).map((t) => t.textContent)")
        # The default frame: the toy head, its odometer spelling m in decimal, the question.
        summary = dataset(root.locator('[data-readout="summary"]'))
        assert int(summary["pairs"]) == int(head.group(1)) == int(head.group(2)) // 2
        assert root.locator('output[data-name="base"]').inner_text() == "10000"
        assert int(summary["context"]) == int(context_length.group(1))
        title = dataset(root.locator('text[data-label="odometer"]'))
        assert float(title["digitBase"]) == int(head.group(3)) and int(title["position"]) == int(odometer.group(1))
        assert spelled() == odometer.group(2).split()
        note = root.locator('text[data-label="odometer-note"]').text_content()
        assert note == f"the wheels spell m = {odometer.group(1)} in base {head.group(3)}", note
        question = root.locator('[data-readout="question"]')
        assert dataset(question)["answered"] == "0" and int(dataset(question)["context"]) == int(context_length.group(1))
        assert " ".join(question.inner_text().split()) == (
            f"When m reaches the context length L = {context_length.group(1)}, which of the "
            f"{head.group(1)} hands will have made at least one full turn?")
        # The odometer: digit i = ⌊m/β^i⌋ mod β, pair 0 on the right.
        assert "⌊m/βi⌋ mod β" in root.locator('text[data-label="odometer"]').text_content().replace("\u200b", "")
        assert root.locator('text[data-wheel="0"]').bounding_box()["x"] > root.locator('text[data-wheel="1"]').bounding_box()["x"]
        # Every other d and base the widget offers: β not whole, nor the digits.
        dims, bases = root.locator('input[data-name="dim"]'), root.locator('input[data-name="base"]')
        for d_index in range(int(dims.get_attribute("max")) + 1):
            for b_index in range(int(bases.get_attribute("max")) + 1):
                set_slider(root, "dim", d_index)
                set_slider(root, "base", b_index)
                toy = (root.locator('output[data-name="dim"]').inner_text(), root.locator('output[data-name="base"]').inner_text())
                whole = float(dataset(root.locator('text[data-label="odometer"]'))["digitBase"]).is_integer()
                assert whole == (toy == (head.group(2), "10000")), toy
                assert whole or "not whole" in root.locator('text[data-label="odometer-note"]').text_content()
        # The button named in the prose brings back the toy head: the wheels spell m in decimal.
        root.locator('button[data-name="decimal"]', has_text=others.group(1)).click()
        assert root.locator('output[data-name="dim"]').inner_text() == head.group(2)
        assert root.locator('output[data-name="base"]').inner_text() == "10000"
        m = int(dataset(root.locator('text[data-label="odometer"]'))["position"])
        assert int("".join(spelled())) == m and len(spelled()) == int(head.group(2)) // 2, (m, spelled())
        # The matrix: x's pairs are (1, 0); at the last position the bottom-right block has
        # hardly turned (the prompt holds at the widget's default base).
        heat = page.locator(".rope-w", has=page.locator("g[data-dial]"))
        x = heat.locator("rect[data-x]").evaluate_all("(rs) => rs.map((r) => r.getAttribute('style'))")
        assert len(x) % 2 == 0 and len(set(x[0::2])) == 1 and len(set(x[1::2])) == 1 and x[0] != x[1]
        assert heat.locator('output[data-name="base"]').inner_text() == "10000"
        question = dataset(heat.locator('[data-readout="question"]'))
        assert int(question["still"]) >= 1  # some bottom-right blocks turn < 0.1 rad by the last m
        assert not log.problems(), log.problems()
    finally:
        context.close()


def test_chapter_6_layout_prose(chromium, book_server):
    prose = prose_before("07-computing-fast.md", "LayoutExplorer")
    sample = re.search(r"\$x = \(1, 2, \\dots, (\d+)\)\$", prose)
    peak = re.search(r"peaks at \$n - m = (-?\d+)\$", prose)
    assert sample and peak, prose
    context, page, log = open_book_page(chromium, book_server, "07-computing-fast.md")
    try:
        root = page.locator(".rope-w", has=page.locator('input[data-name="wrong"]'))
        values = root.locator('text[data-value-of^="interleaved "]').evaluate_all("(ts) => ts.map((t) => Number(t.dataset.value))")
        assert values == list(range(1, int(sample.group(1)) + 1))
        scores = dataset(root.locator('[data-readout="scores"]'))
        assert scores["wrong"] == "0" and int(scores["peak"]) == int(peak.group(1))
        assert not log.problems(), log.problems()
    finally:
        context.close()


def test_chapter_9_context_prose(chromium, book_server):
    prose = prose_before("09-longer-contexts.md", "ContextExtension")
    assert "Step 1 is the problem" in prose, prose
    steps = re.findall(r"[Ss]tep (\d)", prose)
    context, page, log = open_book_page(chromium, book_server, "09-longer-contexts.md")
    try:
        root = page.locator(".rope-w", has=page.locator("button[data-step]"))
        tabs = root.locator("button[data-step]").all_inner_texts()
        assert [t.split("·")[0].strip() for t in tabs] == sorted(set(steps)), (tabs, steps)
        # "move p past L and every hand leaves its arc": at the largest p, every slow pair's
        # dial is past its trained arc.
        control = root.locator('input[data-name="position"]')
        control.focus()
        control.press("End")
        dials = root.locator("g[data-dial]").evaluate_all("(gs) => gs.map((g) => g.dataset.beyond)")
        assert dials and set(dials) == {"1"}, dials
        outside = dataset(root.locator('[data-readout="dials"]'))
        assert int(outside["outside"]) == int(outside["slow"]) == len(dials)
        assert np.isfinite(float(dataset(root.locator("g[data-dial]").first)["ratio"]))
        assert not log.problems(), log.problems()
    finally:
        context.close()


def test_back_to_top_never_covers_a_widget(chromium, book_server):
    # The theme's "Back to top" pill floats over the page when the reader scrolls up: hidden
    # while a widget is on screen; the mark goes once no widget is.
    from _browser import PHONE
    context, page, log = open_page(chromium, "light", viewport=PHONE, touch=True)
    try:
        goto(page, f"{book_server}/book/05-d-dimensions.html")
        button = page.locator("#pst-back-to-top")
        assert button.count() == 1
        page.locator(".rope-w").first.scroll_into_view_if_needed()
        page.mouse.wheel(0, -200)  # scrolling up is what brings the pill out
        page.wait_for_function("document.documentElement.hasAttribute('data-rope-widget-on-screen')", timeout=5000)
        assert button.evaluate("(b) => getComputedStyle(b).display") == "none"
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_function("!document.documentElement.hasAttribute('data-rope-widget-on-screen')", timeout=5000)
        assert not log.problems(), log.problems()
    finally:
        context.close()
