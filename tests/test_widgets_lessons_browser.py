"""What the teaching widgets draw, read back from the page, and what their chapters say about it.

Opens the built book in Debian's chromium (no kernel). For the decay explorer it reads the
pair's drawn curves back from its SVG (points → data through the drawing's own log y map) at
every base, for the aligned and the random key, and checks that the bound is drawn on or above
the score it bounds and that every curve is rope_core's table. The prose tests read the numbers a
chapter quotes about a widget and compare them with that widget's own read-outs.
"""

from __future__ import annotations

import math
import re
from contextlib import contextmanager

import numpy as np
import pytest
from _browser import PHONE, gallery_widget, open_book_page, open_gallery, set_slider

from rope_core.demos.decay import content_pair_table, decay_table, random_pairs_magnitude

pytestmark = [pytest.mark.book, pytest.mark.browser]


# Every drawn series of the decay plot: polyline/polygon points in drawing units, and the y map.
DECAY_DRAWN = r"""(root) => {
  const svg = root.querySelector("svg.rope-w-svg");
  const parse = (node) => (node.getAttribute("points") || "").trim().split(/\s+/).filter(Boolean).map((p) => p.split(",").map(Number));
  const series = {};
  for (const node of svg.querySelectorAll("[data-series]")) series[node.dataset.series] = parse(node);
  const ticks = [...svg.querySelectorAll("[data-x-tick]")].map((t) => [Number(t.dataset.xTick), Number(t.getAttribute("x1"))]);
  const marks = {};
  for (const node of svg.querySelectorAll("circle[data-mark]")) marks[node.dataset.mark] = [Number(node.getAttribute("cx")), Number(node.getAttribute("cy"))];
  return { series, map: JSON.parse(svg.dataset.yMap), ticks, marks,
           axes: [...svg.querySelectorAll("[data-axis]")].map((t) => [t.dataset.axis, t.textContent]) };
}"""


def decay_pixels(values, m):
    """Where the page must draw ``values`` (|score| ÷ |q||k| or a bound) on its log y axis."""
    v = np.clip(np.abs(values), m["lo"], m["hi"])
    fraction = (np.log10(v) - np.log10(m["lo"])) / (np.log10(m["hi"]) - np.log10(m["lo"]))
    return m["top"] + (m["bottom"] - m["top"]) * (1 - fraction)


@pytest.fixture(scope="module")
def decay_table_default():
    pair = content_pair_table()
    return {"distances": pair["distances"], "pair": pair, "bound": decay_table()["bound"],
            "bound_average": decay_table()["bound_average"], "bases": decay_table()["bases"]}


def test_decay_bounds_are_drawn_above_their_scores_at_every_base_and_distance(chromium, book_server, decay_table_default):
    t = decay_table_default
    context, page, log = open_gallery(chromium, book_server)
    try:
        root = gallery_widget(page, "DecayExplorer")
        root.locator('button[data-answer="1"]').click()          # predicted: every key is shown
        last = int(root.locator('input[data-name="distance"]').get_attribute("max"))
        set_slider(root, "distance", last)                       # the score drawn over every distance
        for b, base in enumerate(t["bases"]):
            set_slider(root, "base", b)
            for w in (0, len(t["pair"]["mixes"]) - 1):
                set_slider(root, "content", w)
                drawn = root.evaluate(DECAY_DRAWN)
                m, s = drawn["map"], drawn["series"]
                assert [a for a, _ in drawn["axes"]] == ["x", "y"] and all(text for _, text in drawn["axes"])
                (x0, p0), (x1, p1) = drawn["ticks"][0], drawn["ticks"][-1]
                xs = p0 + (p1 - p0) * t["distances"] / (x1 - x0)
                ys = {}
                for name in ("pair-score", "pair-bound"):
                    got = np.array(s[name])
                    np.testing.assert_allclose(got[:, 0], xs, atol=0.01, err_msg=name)
                    ys[name] = got[:, 1]
                # y: rope_core's curves through the page's y map (sent to 3 decimals: a pixel on a log axis).
                score, bound = t["pair"]["score"][w, b], t["pair"]["bound"][w, b]
                big = np.abs(score) > 0.01
                np.testing.assert_allclose(ys["pair-score"][big], decay_pixels(score[big], m), atol=1)
                np.testing.assert_allclose(ys["pair-bound"], decay_pixels(bound, m), atol=0.2)   # sent to 2 decimals
                # The claim: the bound is drawn on or above (smaller y) the score at every distance.
                assert np.all(ys["pair-bound"] <= ys["pair-score"] + 1e-9), (base, w)
                # No bound is clipped: the axis holds every value drawn.
                assert np.all(ys["pair-bound"] > m["top"]) and np.all(ys["pair-bound"] < m["bottom"]), (base, w)
        assert not log.problems(), log.problems()
    finally:
        context.close()


def check_decay_readouts(root, t):
    b = int(root.locator('input[data-name="base"]').input_value())
    w = int(root.locator('input[data-name="content"]').input_value())
    stop = int(root.locator('input[data-name="distance"]').input_value())
    i = 16 // (t["distances"][1] - t["distances"][0]) * stop
    r = int(t["distances"][i])
    assert int(root.locator('[data-readout="distance"]').get_attribute("data-value")) == r
    pair = root.locator('[data-readout="pair"]')
    assert abs(float(pair.get_attribute("data-score")) - t["pair"]["score"][w, b, i]) < 5e-4
    assert abs(float(pair.get_attribute("data-bound")) - t["pair"]["bound"][w, b, i]) < 5e-3
    # The cursor and its dots sit at r, on the curves.
    drawn = root.evaluate(DECAY_DRAWN)
    m = drawn["map"]
    for mark, value in (("pair-score", t["pair"]["score"][w, b, i]), ("pair-bound", t["pair"]["bound"][w, b, i])):
        if abs(value) > 0.01:
            assert abs(drawn["marks"][mark][1] - decay_pixels(np.array([value]), m)[0]) < 1, mark
    # The line under the plot gives B(r) and its mean over 0 ... r at every base.
    for bb, _ in enumerate(t["bases"]):
        title = root.locator(f'text[data-base="{js_number(t["bases"][bb])}"]')
        assert abs(float(title.get_attribute("data-value")) - t["bound"][bb, i]) < 1e-4
        assert abs(float(title.get_attribute("data-average")) - t["bound_average"][bb, i]) < 1e-4
    return b, i


@pytest.mark.parametrize("mode", ["mouse-1280-light", "touch-390-dark"])
def test_decay_distance_by_keys_buttons_and_dragging_along_the_plot(chromium, book_server, decay_table_default, mode):
    t = decay_table_default
    touch = mode.startswith("touch")
    options = {"viewport": PHONE, "touch": True, "color_scheme": "dark"} if touch else {}
    context, page, log = open_gallery(chromium, book_server, **options)
    try:
        root = gallery_widget(page, "DecayExplorer")
        assert check_decay_readouts(root, t) == (2, 0)        # default: base 10^4, r = 0
        set_slider(root, "distance", 8)                          # r = 128
        distance = root.locator('input[data-name="distance"]')
        plus, minus = root.locator('button[data-step-of="distance"][data-delta="1"]'), root.locator('button[data-step-of="distance"][data-delta="-1"]')
        for button in (plus, minus):
            box = button.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, box
        (plus.tap if touch else plus.click)()
        assert distance.input_value() == "9"
        check_decay_readouts(root, t)
        (minus.tap if touch else minus.click)()
        (minus.tap if touch else minus.click)()
        assert distance.input_value() == "7"
        distance.focus()
        page.keyboard.press("End")
        assert check_decay_readouts(root, t)[1] == len(t["distances"]) - 1
        # Drag along the plot: the distance follows the finger (or pointer) to the nearest stop.
        root.locator("[data-scrub]").scroll_into_view_if_needed()
        scrub = root.locator("[data-scrub]").bounding_box()
        y = scrub["y"] + scrub["height"] * 0.6
        start, end = scrub["x"] + 2, scrub["x"] + scrub["width"] * 0.5
        if touch:
            cdp = page.context.new_cdp_session(page)
            for j, x in enumerate(np.linspace(start, end, 8)):
                cdp.send("Input.dispatchTouchEvent", {"type": "touchStart" if j == 0 else "touchMove", "touchPoints": [{"x": x, "y": y}]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            cdp.detach()
        else:
            page.mouse.move(start, y)
            page.mouse.down()
            page.mouse.move(end, y, steps=8)
            page.mouse.up()
        b, i = check_decay_readouts(root, t)
        assert abs(t["distances"][i] - 512) <= 16, t["distances"][i]
        assert not log.problems(), log.problems()
    finally:
        context.close()


def test_decay_question_answers_with_the_numbers_drawn(chromium, book_server, decay_table_default):
    t = decay_table_default
    crowd = random_pairs_magnitude()
    context, page, log = open_gallery(chromium, book_server)
    try:
        root = gallery_widget(page, "DecayExplorer")
        assert root.locator("[data-lesson]").inner_text().strip()
        feedback = root.locator('[data-readout="feedback"]')
        assert feedback.inner_text() == ""                       # nothing answered yet
        root.locator('button[data-answer="0"]').click()
        assert feedback.get_attribute("data-correct") is None    # predicted, not yet seen
        set_slider(root, "distance", int(root.locator('input[data-name="distance"]').get_attribute("max")))
        assert feedback.get_attribute("data-correct") is None    # the aligned key does not answer it
        last = len(t["pair"]["mixes"]) - 1
        set_slider(root, "content", last)
        set_slider(root, "distance", 40)                         # r = 640, past half the axis
        assert feedback.get_attribute("data-correct") == "false"
        root.get_by_role("button", name="no, it does not fall").click()
        assert feedback.get_attribute("data-correct") == "true"
        b, i = check_decay_readouts(root, t)
        text = feedback.inner_text()
        # The random key's own numbers; the random pairs' medians once they are shown.
        assert "show the 1000 random pairs" in text and "settle it" not in text, text
        root.locator('[data-toggle="random"]').click()
        text = feedback.inner_text()
        sent = (round(t["pair"]["early"][last, b], 4), round(t["pair"]["late"][last, b], 4),
                float(f"{crowd['median'][b, 0]:.3g}"), float(f"{crowd['median'][b, -1]:.3g}"))  # as sent
        for value in sent:
            assert fmt3(value) in text, (fmt3(value), text)
        assert not log.problems(), log.problems()
    finally:
        context.close()


def js_number(value):
    """A number as JavaScript writes it into an attribute: 10000, not 10000.0."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def fmt3(value):
    """common.js's fmt3: three significant digits, U+2212 minus, ×10ⁿ outside [1e-3, 1e5)."""
    value = float(value)
    if value == 0:
        return "0"
    a = abs(value)
    if 1e-3 <= a < 1e5:
        text = str(round(float(f"{a:.3g}"))) if a >= 1000 else f"{a:.{max(0, 2 - math.floor(math.log10(float(f'{a:.3g}'))))}f}"
    else:
        mantissa, exponent = f"{a:.2e}".split("e")
        text = f"{mantissa}×10{str(int(exponent)).translate(SUPERSCRIPTS)}"
    return ("−" if value < 0 else "") + text


def prose_before(page, widget_index):
    """The text of the paragraphs between the previous code cell and a widget's cell."""
    return page.evaluate("""(n) => {
      const cell = document.querySelectorAll(".rope-w")[n].closest(".cell");
      const texts = [];
      for (let node = cell.previousElementSibling; node && !node.classList.contains("cell"); node = node.previousElementSibling) {
        texts.unshift(node.textContent);
      }
      // A folded check cell may sit between the prose and the widget: read past it.
      if (texts.length === 0 || (cell.previousElementSibling && cell.previousElementSibling.classList.contains("tag_hide-input"))) {
        let node = cell.previousElementSibling;
        while (node && node.classList.contains("cell")) node = node.previousElementSibling;
        for (; node && !node.classList.contains("cell"); node = node.previousElementSibling) texts.unshift(node.textContent);
      }
      // Maths is an SVG with its MathML beside it: keep the MathML's text, squeeze the spaces.
      return texts.join("\\n").replace(/\\s+/g, " ");
    }""", widget_index)


def test_chapter_8_quotes_the_decay_widget_numbers(chromium, book_server):
    with chapter_widget(chromium, book_server, "08-rope-in-attention.html", "pair") as (page, root, prose):
        pair = root.locator('[data-readout="pair"]')
        # "32.5 at distance 0, where the score is 1": the read-outs of the aligned pair at r = 0.
        assert root.locator('input[data-name="content"]').get_attribute("aria-valuetext") == "aligned (k = q)"
        assert root.locator('[data-readout="distance"]').get_attribute("data-value") == "0"
        assert fmt3(float(pair.get_attribute("data-bound"))) == "32.5" and "32.5 at distance 0" in prose
        assert float(pair.get_attribute("data-score")) == 1.0
        # "At r = 128 and base 10 000 the aligned score is 0.333 under a bound of 9.27, 28 times larger."
        set_slider(root, "distance", 8)
        assert root.locator('[data-readout="distance"]').get_attribute("data-value") == "128"
        assert root.locator('input[data-name="base"]').get_attribute("aria-valuetext") == "10⁴"
        score, bound = float(pair.get_attribute("data-score")), float(pair.get_attribute("data-bound"))
        said = re.search(r"aligned score\s+is ([\d.]+) under a bound of ([\d.]+), (\d+) times", prose)
        assert said, prose
        assert said.group(1) == fmt3(score) and said.group(2) == fmt3(bound), (said.groups(), score, bound)
        assert int(said.group(3)) == round(bound / score) and f"{round(bound / score)}×" in pair.inner_text()
        # "... at r = 128 it is 13.5 at base 10^5 and 12.3 at 10^6."
        dip = re.search(r"r ?= ?128 ?it is ([\d.]+) at base.{0,16}? and ([\d.]+) at", prose)
        assert dip, prose
        for value, base in zip(dip.groups(), (1e5, 1e6)):
            assert value == fmt3(float(root.locator(f'text[data-base="{js_number(base)}"]').get_attribute("data-value")))
        # "a button adds 1000 random pairs: the 10th to 90th percentile of their |score|"
        root.locator('button[data-answer="1"]').click()
        toggle = root.locator('[data-toggle="random"]')
        words = " ".join(prose.replace("\u2009", "").split())
        assert "adds 1000 random pairs" in words and toggle.inner_text() == "show 1000 random pairs"
        assert "10th to 90th percentile" in words and "10–90 %" in root.locator(".rope-w-legend").inner_text()


def widget_index(page, readout):
    return page.evaluate("(name) => [...document.querySelectorAll('.rope-w')].findIndex((w) => w.querySelector(`[data-readout=${name}]`))", readout)


@contextmanager
def chapter_widget(chromium, url, path, readout):
    """A chapter page, its first widget that has the read-out ``readout``, and the prose just
    before that widget; on leaving, the page must have made no outside request and no error."""
    context, page, log = open_book_page(chromium, url, path)
    try:
        index = widget_index(page, readout)
        assert index >= 0, (path, readout)
        yield page, page.locator(".rope-w").nth(index), prose_before(page, index)
        assert not log.problems(), log.problems()
    finally:
        context.close()


def test_chapter_1_has_a_compact_relative_widget_opening_shifted(chromium, book_server):
    with chapter_widget(chromium, book_server, "01-why-positions.html", "reference") as (page, root, prose):
        shift = int(root.locator('input[data-name="shift"]').input_value())
        assert re.search(rf"Δ ?= ?{shift}\b", prose) and shift > 0, prose
        # Compact: the shift and play only, the flat strip, the ghosts drawn.
        assert root.locator('input[data-name="m"]').is_hidden() and root.locator('input[data-name="n"]').is_hidden()
        assert root.locator("svg.rope-w-strips polyline[data-strip=offset]").count() == 0
        assert root.locator("g[data-vector=ghost_q]").count() == 1
        assert root.get_by_role("button", name="play Δ").is_visible()
        root.get_by_role("button", name="it will stay").click()
        assert root.locator('[data-readout="feedback"]').get_attribute("data-correct") is None
        for step in (0, 3):                                      # the reader moves Δ: the verdict
            set_slider(root, "shift", step)
        assert root.locator('[data-readout="feedback"]').get_attribute("data-correct") == "true"


def test_chapter_2_question_and_folded_answer_match_the_rotation_widget(chromium, book_server):
    with chapter_widget(chromium, book_server, "02-rotations.html", "closest") as (page, root, prose):
        assert "within about 6 degrees (0.1 rad)" in prose and "closest return so far" in prose
        # The answer is folded: in the page, hidden until the reader opens it.
        answer = page.locator(".admonition.dropdown", has_text="Answer")
        assert answer.count() == 1
        text = re.sub(r"\s+", " ", answer.evaluate("(node) => node.textContent"))
        said = re.search(r"position 13 is still ([\d.]+) rad .*first return within 0\.1 rad is at (\d+).* it takes (\d+) positions .*≈ ?([\d.]+) ?rad", text)
        assert said, text
        thetas = [float(v.split()[0]) for v in root.locator('input[data-name="theta"]').evaluate(
            "(input) => [...Array(Number(input.max) + 1).keys()].map((i) => { input.value = i; input.dispatchEvent(new Event('input')); return input.getAttribute('aria-valuetext'); })")]
        feedback = root.locator('[data-readout="feedback"]')
        # θ = 0.5: the widget's own answer quotes the same numbers.
        set_slider(root, "theta", thetas.index(0.5))
        root.get_by_role("button", name="no, not always").click()
        assert feedback.get_attribute("data-correct") is None    # until m has passed the return
        last = int(root.locator('input[data-name="position"]').get_attribute("max"))
        set_slider(root, "position", last)
        assert feedback.get_attribute("data-correct") == "true"
        assert f"13 is {said.group(1)} rad away" in feedback.inner_text(), feedback.inner_text()
        assert f"m = {said.group(2)} (" in feedback.inner_text()
        set_slider(root, "position", int(said.group(2)))
        closest = root.locator('[data-readout="closest"]')
        assert closest.inner_text().startswith(f"m = {said.group(2)}, ")
        # The trail's dots are numbered on hover (and on a tap).
        root.locator('[data-mark="trail-targets"] circle[data-position="7"]').hover()
        tip = root.locator("text[data-label=trail]")
        assert tip.text_content() == "m = 7" and tip.get_attribute("visibility") == "visible"
        # θ = 1: the first return within 0.1 rad at 44, 0.018 rad away (the prose rounds to 2 digits).
        set_slider(root, "theta", thetas.index(1.0))
        set_slider(root, "position", last)
        assert f"m = {said.group(3)} (" in feedback.inner_text()
        set_slider(root, "position", int(said.group(3)))
        assert f"{float(closest.get_attribute('data-offset')):.3f}" == said.group(4)


CANDIDATE_DRAWN = r"""(root) => {
  const cells = [...root.querySelectorAll("svg [data-plot=matrix] rect")].map((r) => [Number(r.dataset.m), Number(r.dataset.n),
    Number(r.dataset.value), getComputedStyle(r).fill, getComputedStyle(r).fillOpacity]);
  const outline = root.querySelector("[data-mark=diagonal]");
  const dots = [...root.querySelectorAll("svg[data-plot=strip] circle")].map((c) => [Number(c.dataset.m), Number(c.dataset.value), Number(c.getAttribute("cy"))]);
  return { cells, offset: Number(outline.dataset.offset), dots };
}"""


def test_candidate_explorer_draws_each_candidates_matrix_and_diagonal(chromium, book_server):
    from rope_core.demos.candidates import candidate_table

    t = candidate_table()
    context, page, log = open_gallery(chromium, book_server)
    try:
        root = gallery_widget(page, "CandidateExplorer")
        # Every candidate is a small matrix (a toggle of the prediction); focusing one draws it large.
        smalls = root.locator(".rope-w-question button[data-answer]")
        shown = lambda: int(root.locator(".rope-w-mini[data-shown]").get_attribute("data-candidate"))  # noqa: E731
        parts = root.locator('[data-name="part_index"] [role=radio]')
        assert smalls.count() == len(t["names"])
        for c, name in enumerate(t["names"]):
            smalls.nth(c).focus()
            for p, part in enumerate(("real", "imag")):
                parts.nth(p).click()
                assert shown() == c and parts.nth(p).get_attribute("aria-checked") == "true"
                drawn = root.evaluate(CANDIDATE_DRAWN)
                matrix = np.zeros((16, 16))
                colours = {}
                for m, n, value, fill, opacity in drawn["cells"]:
                    matrix[m, n] = value
                    colours.setdefault(n - m, set()).add((fill, opacity))
                np.testing.assert_allclose(matrix, t[name][part], atol=1e-6, err_msg=f"{name} {part}")
                # Toeplitz in the data <=> every diagonal drawn in one colour, as the reader sees it.
                toeplitz = t[name][f"{part}_spread"].max() < 1e-9
                assert all(len(v) == 1 for v in colours.values()) == toeplitz, (name, part)
                verdict = root.locator('[data-readout="verdict"]')
                assert (verdict.get_attribute("data-toeplitz") == "true") == toeplitz
                if not toeplitz:
                    assert abs(float(verdict.get_attribute("data-worst")) - t[name][f"{part}_spread"].max()) < 1e-6
                # The strip: the chosen diagonal's values against m, flat exactly when constant.
                offset = drawn["offset"]
                assert [d[0] for d in drawn["dots"]] == list(range(max(0, -offset), 16 - max(0, offset)))
                np.testing.assert_allclose([d[1] for d in drawn["dots"]], np.diagonal(t[name][part], offset=offset), atol=1e-6)
                ys = [d[2] for d in drawn["dots"]]
                assert (np.ptp(ys) < 1e-6) == (np.ptp(np.diagonal(t[name][part], offset=offset)) < 1e-6)
        # Keyboard: Tab moves along the small matrices and draws each large; the diagonal
        # slider and its buttons move δ.
        smalls.nth(0).focus()
        page.keyboard.press("Tab")
        assert shown() == 1
        root.locator('button[data-step-of="diagonal"][data-delta="1"]').click()
        assert int(root.locator('[data-readout="diagonal"]').get_attribute("data-offset")) == 4
        # Pointing at a cell picks its diagonal and reads the cell out (the phone's tap bubble
        # repeats these words): its positions and its value in the part shown.
        for m, n in ((2, 9), (11, 4), (0, 15)):
            root.locator(f'rect[data-m="{m}"][data-n="{n}"]').hover()
            assert root.evaluate(CANDIDATE_DRAWN)["offset"] == n - m
            cell = root.locator('[data-readout="cell"]')
            name, part = t["names"][1], "imag"  # the candidate and part chosen above
            assert (int(cell.get_attribute("data-m")), int(cell.get_attribute("data-n"))) == (m, n)
            assert abs(float(cell.get_attribute("data-value")) - t[name][part][m, n]) < 1e-6
            text = cell.inner_text().replace("−", "-")
            assert text.startswith(f"m = {m}, n = {n} (n - m = {n - m}): imaginary part "), text
        # The axis numbers 0 and 15 sit over (and beside) their own rows and columns.
        ticks = root.evaluate("""(r) => [...r.querySelectorAll('svg[role=group] > text.rope-w-muted-text')].map((t) => [t.textContent, Number(t.getAttribute('x')), t.getAttribute('text-anchor')])""")
        first = root.locator('rect[data-m="0"][data-n="0"]')
        cell_x, cell_w = float(first.get_attribute("x")), float(first.get_attribute("width"))
        tops = [x for text, x, anchor in ticks if anchor == "middle"]
        assert tops == pytest.approx([cell_x + cell_w / 2, cell_x + 15.5 * cell_w]), ticks
        assert not log.problems(), log.problems()
    finally:
        context.close()


def test_chapter_4_quotes_the_candidate_widget(chromium, book_server):
    with chapter_widget(chromium, book_server, "04-deriving-rope.html", "verdict") as (page, root, prose):
        said = re.search(r"positions 0 to (\d+) and θ ?= ?([\d.]+).*largest spread along a diagonal is (\d+(?:\.\d+)?)", prose)
        assert said, prose
        cells = root.locator("svg [data-plot=matrix] rect")
        assert int(cells.last.get_attribute("data-m")) == int(said.group(1))
        verdict = root.locator('[data-readout="verdict"]')
        assert verdict.get_attribute("data-toeplitz") == "true"           # opens on the rotation
        names = [t.strip() for t in root.locator(".rope-w-answer-label").all_inner_texts()]
        toggles = root.locator(".rope-w-question button[data-answer]")
        toggles.nth(names.index("quadratic")).hover()               # pointing draws it large
        worst = float(verdict.get_attribute("data-worst"))
        assert f"{worst:.1f}" == said.group(3) and fmt3(worst).startswith(said.group(3))
        # The widget's θ is the chapter's 0.5: the rotation's diagonal n − m = 1 turns by θ.
        setting = root.locator('[data-readout="setting"]')
        assert float(setting.get_attribute("data-theta")) == float(said.group(2))
        assert int(setting.get_attribute("data-size")) == int(said.group(1)) + 1
        for name in ("rotation", "no position", "parity"):          # the chapter's answer, as a prediction
            toggles.nth(names.index(name)).click()
        root.locator("[data-commit]").click()
        assert root.locator('[data-readout="feedback"]').get_attribute("data-correct") == "true"
