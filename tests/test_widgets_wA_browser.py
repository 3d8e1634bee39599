"""RelativeInvariance's sentence strip, its drag targets for Δ and n − m, the pairs compared
with q turned to point right, and the projections on the dial; RotationExplorer's turning grid
and the leg each matrix entry lights; CandidateExplorer's contents and its line of algebra.

Opens the built gallery in Debian's chromium (no kernel). Every number and mark is read back
from the page and compared with ``rope_core.demos.rotation.relative_state`` at the state the
sliders hold: the words at m, n (before) and m + Δ, n + Δ (after); γ and the projection
|k| cos γ equal on both pairs; dragging the Δ bracket's end leaves the score, dragging the
n − m bracket's end changes it as rope_core says; and no label of the strip lies under a handle.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from _browser import (
    HIDDEN,
    PHONE,
    dataset,
    drag_along,
    gallery_widget,
    open_gallery,
    readout_number,
    readout_numbers,
    set_slider,
)

from rope_core import widgets as W
from rope_core.demos.candidates import (
    CANDIDATE_DEFAULTS,
    CANDIDATE_MORE_CONTENTS,
    candidate_table,
)
from rope_core.demos.rotation import relative_state, unit_vector

pytestmark = [pytest.mark.book, pytest.mark.browser]



@pytest.fixture
def relative(gallery_once):
    """(page, root) of the gallery's RelativeInvariance after a prediction; the page logged no problem."""
    page, log = gallery_once
    root = gallery_widget(page, "RelativeInvariance")
    if root.locator('.rope-w-question button[aria-pressed="true"]').count() == 0:
        root.locator('.rope-w-question button[data-answer="0"]').click()
    root.locator("svg.rope-w-sentence").evaluate("(svg) => svg.scrollIntoView({block: 'center', behavior: 'instant'})")
    yield page, root
    assert not log.problems(), log.problems()


def sliders(root):
    return {name: int(root.locator(f'input[data-name="{name}"]').input_value()) for name in ("m", "n", "shift")}


def expected_state(root):
    """rope_core's state for what the page's sliders and read-outs hold now."""
    vectors, lengths = dataset(root.locator('[data-readout="vectors"]')), dataset(root.locator('[data-readout="lengths"]'))
    q = float(lengths["q"]) * unit_vector(float(vectors["q"]))
    k = float(lengths["k"]) * unit_vector(float(vectors["k"]))
    s = sliders(root)
    return s, relative_state(q, k, s["m"], s["n"], s["shift"], W.RelativeInvariance()._theta)


STRIP = r"""(root) => {
  const strip = root.querySelector("svg.rope-w-sentence");
  const rows = {};
  for (const g of strip.querySelectorAll("[data-row]")) {
    const chips = {}, words = {};
    for (const c of g.querySelectorAll("rect[data-word]")) chips[c.dataset.word] = Number(c.dataset.position);
    for (const t of g.querySelectorAll("text[data-word-label]")) words[t.dataset.wordLabel] = t.textContent;
    const bracket = g.querySelector('[data-bracket="offset"]');
    rows[g.dataset.row] = { chips, words, from: Number(bracket.dataset.from), to: Number(bracket.dataset.to),
      offset: g.querySelector('[data-bracket-label="offset"]').textContent, caption: g.querySelector('[data-part="caption"]').textContent };
  }
  const handles = {};
  for (const h of strip.querySelectorAll("[data-strip-handle]")) {
    const ring = h.querySelectorAll("circle")[1].getBoundingClientRect();
    handles[h.dataset.stripHandle] = { now: Number(h.getAttribute("aria-valuenow")), text: h.getAttribute("aria-valuetext"),
      ring: [ring.left, ring.top, ring.right, ring.bottom] };
  }
  const labels = [...strip.querySelectorAll("text")].filter((t) => t.textContent).map((t) => {
    const b = t.getBoundingClientRect();
    return { text: t.textContent, box: [b.left, b.top, b.right, b.bottom] };
  });
  return { rows, handles, labels, front: Number(strip.querySelector('[data-bracket="shift"]').dataset.to) };
}"""


def overlap(a, b, margin=0.0):
    return a[0] < b[2] - margin and b[0] < a[2] - margin and a[1] < b[3] - margin and b[1] < a[3] - margin


def check_strip(root):
    """The words where the sliders put them, both brackets, the captions, and no label under a handle."""
    s = sliders(root)
    m, n, d = s["m"], s["n"], s["shift"]
    strip = root.evaluate(STRIP)
    rows = strip["rows"]
    assert rows["before"]["chips"] == {"q": m, "k": n}, rows["before"]
    assert rows["after"]["chips"] == {"q": m + d, "k": n + d}, rows["after"]
    for name, row in rows.items():
        assert row["words"] == {"q": "dog", "k": "man"}, row
        # The bracket joins the two words: the same length, n − m, on both rows.
        assert (row["from"], row["to"]) == (row["chips"]["q"], row["chips"]["k"]), (name, row)
        assert row["offset"] == f"n − m = {n - m}".replace("= -", "= −"), row
    assert f"at m = {m}" in rows["before"]["caption"] and f"at n = {n}" in rows["before"]["caption"]
    if d:
        assert rows["after"]["caption"].endswith(f"the same words at {m + d} and {n + d}"), rows["after"]["caption"]
    assert strip["front"] == d
    assert strip["handles"]["shift"]["now"] == d and strip["handles"]["offset"]["now"] == n - m
    # Labels: none under a handle's ring, and the two words of a row never over each other.
    for handle in strip["handles"].values():
        for label in strip["labels"]:
            assert not overlap(label["box"], handle["ring"], margin=0.5), (label, handle, s)
    words = [label for label in strip["labels"] if label["text"] in ("dog", "man")]
    for i, a in enumerate(words):
        for b in words[i + 1:]:
            assert not overlap(a["box"], b["box"], margin=0.5), (a, b, s)
    return strip


def test_the_strip_puts_the_two_words_at_their_positions(relative):
    page, root = relative
    rng = np.random.default_rng(34)
    top = W.RelativeInvariance().data["max_position"]
    states = [(0, 0, 0), (0, 1, top), (top, 0, top), (top, top - 1, 1), (3, 3, 5)]
    states += [tuple(int(v) for v in rng.integers(0, top + 1, 3)) for _ in range(12)]
    for m, n, d in states:
        for name, value in (("m", m), ("n", n), ("shift", d)):
            set_slider(root, name, value)
        check_strip(root)


def drag_handle_by(page, root, name, cells, *, touch=False):
    """Drag the strip's handle ``name`` along the strip by ``cells`` token cells (screen pixels
    from the strip's drawn width), in 8 moves."""
    strip = root.locator("svg.rope-w-sentence").bounding_box()
    top = W.RelativeInvariance().data["max_position"]
    pitch = strip["width"] * (340 - 16) / 340 / (2 * top + 1)
    box = root.locator(f'[data-strip-handle="{name}"]').bounding_box()
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    path = [(x0 + cells * pitch * t, y0) for t in np.linspace(0, 1, 9)]
    drag_along(page, path, touch=touch)


def check_drags(page, root, *, touch=False):
    """Dragging the Δ bracket's end moves both words and leaves the score; dragging the n − m
    bracket's end moves the key's word and changes the score as rope_core computes it."""
    for name, value in (("m", 4), ("n", 9), ("shift", 3)):
        set_slider(root, name, value)
    before, state = expected_state(root)
    score = float(dataset(root.locator('[data-readout="score"]'))["value"])
    drag_handle_by(page, root, "shift", 7, touch=touch)
    after, moved = expected_state(root)
    assert after == {**before, "shift": before["shift"] + 7}, (before, after)
    assert abs(float(dataset(root.locator('[data-readout="score"]'))["value"]) - moved["score"]) < 1e-9
    assert abs(moved["score"] - score) < 1e-9 and abs(moved["score"] - state["score"]) < 1e-9
    check_strip(root)
    drag_handle_by(page, root, "offset", -6, touch=touch)
    offset, changed = expected_state(root)
    assert offset == {**after, "n": after["n"] - 6}, (after, offset)
    shown = float(dataset(root.locator('[data-readout="score"]'))["value"])
    assert abs(shown - changed["score"]) < 1e-9 and abs(shown - score) > 0.05, (shown, score)
    check_strip(root)
    # Past either end: clamped to the slider's range.
    drag_handle_by(page, root, "offset", -40, touch=touch)
    assert sliders(root)["n"] == 0
    check_strip(root)


def test_dragging_delta_keeps_the_score_and_dragging_n_minus_m_changes_it(relative):
    page, root = relative
    check_drags(page, root)


def test_the_strip_handles_answer_the_keyboard(relative):
    page, root = relative
    for name, value in (("m", 5), ("n", 8), ("shift", 2)):
        set_slider(root, name, value)
    handle = root.locator('[data-strip-handle="offset"]')
    handle.focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowLeft", "PageUp"):
        handle.press(key)
    assert sliders(root) == {"m": 5, "n": 14, "shift": 2}
    assert handle.get_attribute("aria-valuetext") == "n − m = 9 (key at n = 14)"
    shift = root.locator('[data-strip-handle="shift"]')
    shift.focus()
    shift.press("End")
    assert sliders(root)["shift"] == W.RelativeInvariance().data["max_position"]
    shift.press("Home")
    shift.press("ArrowUp")
    assert sliders(root) == {"m": 5, "n": 14, "shift": 1}
    check_strip(root)


COMPARE = r"""(root) => {
  const box = root.querySelector("svg.rope-w-compare");
  const out = {};
  for (const g of box.querySelectorAll("[data-compare]")) {
    const line = (part) => ["x1", "y1", "x2", "y2"].map((a) => Number(g.querySelector(`[data-part="${part}"]`).getAttribute(a)));
    const arrowLine = (part) => ["x1", "y1", "x2", "y2"].map((a) => Number(g.querySelector(`g[data-part="${part}"] line`).getAttribute(a)));
    out[g.dataset.compare] = { data: {...g.dataset}, q: arrowLine("q"), k: arrowLine("k"), projection: line("projection"), drop: line("drop"),
      gammaText: g.querySelector('[data-part="gamma-text"]').textContent, scoreText: g.querySelector('[data-part="score-text"]').textContent };
  }
  return out;
}"""

DIAL_PROJECTIONS = r"""(root) => {
  const svg = root.querySelector("svg.rope-w-svg");
  const axis = svg.querySelector("circle.rope-w-axis");
  const cx = Number(axis.getAttribute("cx")), cy = Number(axis.getAttribute("cy")), unit = Number(axis.getAttribute("r"));
  const out = {};
  for (const g of svg.querySelectorAll("g[data-projection]")) {
    if (g.closest('[style*="display: none"]')) continue;
    const at = (part) => { const l = g.querySelector(`[data-part="${part}"]`);
      return [[(Number(l.getAttribute("x1")) - cx) / unit, (cy - Number(l.getAttribute("y1"))) / unit],
              [(Number(l.getAttribute("x2")) - cx) / unit, (cy - Number(l.getAttribute("y2"))) / unit]]; };
    out[g.dataset.projection] = { length: at("length"), drop: at("drop") };
  }
  return out;
}"""


def check_pairs(root):
    """Both pairs, turned so that q points right: the same γ and the same projection |k| cos γ,
    and the score |q| |k| cos γ before (rope_core's reference) and after (its score). The dial
    draws no projection of its own."""
    s, state = expected_state(root)
    gamma = state["angle"]
    panels = root.evaluate(COMPARE)
    for name, (a, b, score) in {"before": (state["ghost_q"], state["ghost_k"], state["reference"]),
                                "after": (state["rotated_q"], state["rotated_k"], state["score"])}.items():
        panel = panels[name]
        lq, lk = np.linalg.norm(a), np.linalg.norm(b)
        assert abs(float(panel["data"]["gamma"]) - np.degrees(gamma)) < 1e-6, (name, panel["data"], gamma)
        assert abs(float(panel["data"]["projection"]) - lk * np.cos(gamma)) < 1e-9
        assert abs(float(panel["data"]["score"]) - score) < 1e-9
        # The drawing: q along +x; k at γ; the projection from the centre to the foot under k's tip.
        x0, y0, qx, qy = panel["q"]
        unit = (qx - x0) / lq
        assert abs(qy - y0) < 1e-9 and unit > 0
        _, _, kx, ky = panel["k"]
        np.testing.assert_allclose([(kx - x0) / unit, (y0 - ky) / unit], [lk * np.cos(gamma), lk * np.sin(gamma)], atol=1e-9)
        np.testing.assert_allclose(panel["projection"], [x0, y0, x0 + unit * lk * np.cos(gamma), y0], atol=1e-9)
        np.testing.assert_allclose(panel["drop"], [kx, ky, kx, y0], atol=1e-9)
        # Both written to 3 significant digits: the score, and the bar |k| cos γ with γ in degrees.
        shown = readout_number(panel["scoreText"].rsplit("= ", 1)[1])
        assert abs(shown - score) <= 5e-3 * abs(score) + 1e-12, (panel["scoreText"], score)
        gamma_shown, bar_shown = readout_numbers(panel["gammaText"])
        assert abs(gamma_shown - np.degrees(gamma)) <= 5e-3 * np.degrees(gamma) + 1e-9, (panel["gammaText"], gamma)
        assert abs(bar_shown - lk * np.cos(gamma)) <= 5e-3 * abs(lk * np.cos(gamma)) + 1e-12, (panel["gammaText"], gamma)
    assert panels["before"]["gammaText"] == panels["after"]["gammaText"]
    # The dial itself draws no projection: the pair above is where it is shown and explained.
    assert root.evaluate(DIAL_PROJECTIONS) == {}


def test_both_pairs_show_the_same_angle_and_projection(relative):
    page, root = relative
    rng = np.random.default_rng(7)
    top = W.RelativeInvariance().data["max_position"]
    for _ in range(10):
        m, n, d = (int(v) for v in rng.integers(0, top + 1, 3))
        for name, value in (("m", m), ("n", n), ("shift", d)):
            set_slider(root, name, value)
        check_pairs(root)
    # A turned q (by its handle's keys) turns the pair's picture too: still equal on both sides.
    handle = root.locator('[data-handle="q"]')
    handle.focus()
    for _ in range(3):
        handle.press("Shift+ArrowRight")
    handle.press("-")
    check_pairs(root)


def test_the_compared_pairs_are_hidden_until_the_prediction(chromium, book_server):
    context, page, log = open_gallery(chromium, book_server)
    try:
        root = gallery_widget(page, "RelativeInvariance")
        compare = root.locator("svg.rope-w-compare")
        assert compare.evaluate(HIDDEN) and root.locator('[data-label="compare-legend"]').evaluate(HIDDEN)
        assert root.locator("svg.rope-w-sentence").evaluate("(node) => !(" + HIDDEN + ")(node)")
        root.locator('.rope-w-question button[data-answer="1"]').click()
        assert not compare.evaluate(HIDDEN)
        assert not log.problems(), log.problems()
    finally:
        context.close()


def test_the_strip_handles_drag_by_touch_at_390_px(chromium, book_server):
    context, page, log = open_gallery(chromium, book_server, color_scheme="dark", viewport=PHONE, touch=True)
    try:
        root = gallery_widget(page, "RelativeInvariance")
        root.locator('.rope-w-question button[data-answer="0"]').click()
        root.locator("svg.rope-w-sentence").evaluate("(svg) => svg.scrollIntoView({block: 'center', behavior: 'instant'})")
        # The strip fits the phone's width: nothing of it is cut off at the sides.
        box = root.locator("svg.rope-w-sentence").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        check_drags(page, root, touch=True)
        assert not log.problems(), log.problems()
    finally:
        context.close()


# RotationExplorer: the grid turned by mθ, and the leg each matrix entry is.

ROTATION_GRID = r"""(root) => {
  const svg = root.querySelector("svg.rope-w-svg");
  const axis = svg.querySelector("circle.rope-w-axis");
  const cx = Number(axis.getAttribute("cx")), cy = Number(axis.getAttribute("cy")), unit = Number(axis.getAttribute("r"));
  const grid = svg.querySelector('[data-mark="grid"]');
  // Each line's ends as drawn on the screen, mapped back into the dial's data units.
  const toSvg = svg.getScreenCTM().inverse();
  const lines = [...grid.querySelectorAll("line")].map((line) => {
    const m = toSvg.multiply(line.getScreenCTM());
    const end = (x, y) => { const p = new DOMPoint(Number(line.getAttribute(x)), Number(line.getAttribute(y))).matrixTransform(m);
      return [(p.x - cx) / unit, (cy - p.y) / unit]; };
    return { name: line.dataset.grid, ends: [end("x1", "y1"), end("x2", "y2")] };
  });
  return { angle: Number(grid.dataset.angle), lines };
}"""

ROTATION_LEG = r"""(root) => {
  const svg = root.querySelector("svg.rope-w-svg");
  const axis = svg.querySelector("circle.rope-w-axis");
  const cx = Number(axis.getAttribute("cx")), cy = Number(axis.getAttribute("cy")), unit = Number(axis.getAttribute("r"));
  const layer = svg.querySelector('[data-mark="legs"]');
  const leg = layer.querySelector("line[data-leg]");
  if (!leg) return null;
  const data = (x, y) => [(Number(leg.getAttribute(x)) - cx) / unit, (cy - Number(leg.getAttribute(y))) / unit];
  const label = layer.querySelector("text[data-leg-label]");
  const b = label.getBBox();
  const handles = [...svg.querySelectorAll("[data-handle]")].map((h) => h.getAttribute("transform").match(/[-\d.]+/g).slice(0, 2).map(Number));
  return { entry: layer.dataset.entry, value: Number(layer.dataset.value), from: data("x1", "y1"), to: data("x2", "y2"),
           label: label.textContent, box: [b.x, b.y, b.x + b.width, b.y + b.height], handles };
}"""


@pytest.fixture
def rotation(gallery_once):
    page, log = gallery_once
    root = gallery_widget(page, "RotationExplorer")
    root.locator("svg").first.evaluate("(svg) => svg.scrollIntoView({block: 'center', behavior: 'instant'})")
    yield page, root
    assert not log.problems(), log.problems()


def test_the_grid_turns_by_m_theta_and_each_entry_lights_its_leg(rotation):
    page, root = rotation
    data = W.RotationExplorer().data
    rng = np.random.default_rng(2)
    states = [(0, 3), (3, 3), (64, 4), (13, 0)] + [(int(rng.integers(0, 65)), int(rng.integers(0, 5))) for _ in range(4)]
    for m, t in states:
        set_slider(root, "theta", t)
        set_slider(root, "position", m)
        angle = m * data["thetas"][t]
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        grid = root.evaluate(ROTATION_GRID)
        assert abs(((grid["angle"] - np.degrees(angle)) + 180) % 360 - 180) < 1e-6, (grid["angle"], angle)
        # Every grid line is the line of the unturned grid turned counter-clockwise by mθ.
        assert len(grid["lines"]) == 14
        for line in grid["lines"]:
            axis_name, value = line["name"].split("=")
            value = float(value)
            ends = [[value, -1.75], [value, 1.75]] if axis_name == "x" else [[-1.75, value], [1.75, value]]
            np.testing.assert_allclose(line["ends"], [turn @ e for e in ends], atol=1e-4)
        for i in (0, 1):
            for j in (0, 1):
                cell = root.locator(f'td[tabindex][data-row="{i}"][data-col="{j}"]')
                cell.focus()
                leg = root.evaluate(ROTATION_LEG)
                column = turn[:, j]     # R e_j
                expected_from = [0.0, 0.0] if i == 0 else [column[0], 0.0]
                expected_to = [column[0], 0.0] if i == 0 else list(column)
                assert leg["entry"] == f"{i},{j}"
                np.testing.assert_allclose([leg["from"], leg["to"]], [expected_from, expected_to], atol=1e-9)
                # The leg's signed length is the entry's value, which is the matrix's own entry.
                assert abs(leg["value"] - turn[i, j]) < 1e-12
                assert abs(float(cell.get_attribute("data-value")) - turn[i, j]) < 1e-12
                assert leg["label"] == [["cos mθ", "−sin mθ"], ["sin mθ", "cos mθ"]][i][j]
                assert leg["label"] in cell.get_attribute("aria-label")
                x0, y0, x1, y1 = leg["box"]
                assert x0 >= 0 and y0 >= 0 and x1 <= 340 and y1 <= 340, leg["box"]
                for hx, hy in leg["handles"]:   # the ring of a handle is 12 units
                    assert not (x0 - 12 < hx < x1 + 12 and y0 - 12 < hy < y1 + 12), (leg, m, t)
                cell.evaluate("(td) => td.blur()")
                assert root.evaluate(ROTATION_LEG) is None
    # The mouse too: pointing at an entry lights its leg, leaving it clears it.
    root.locator('td[tabindex][data-row="1"][data-col="0"]').hover()
    assert root.evaluate(ROTATION_LEG)["entry"] == "1,0"
    page.mouse.move(0, 0)
    assert root.evaluate(ROTATION_LEG) is None


# CandidateExplorer: every content (q, k), and the one line of algebra per candidate.
@pytest.fixture
def candidates(gallery_once):
    page, log = gallery_once
    root = gallery_widget(page, "CandidateExplorer")
    yield page, root
    assert not log.problems(), log.problems()


def test_another_content_redraws_every_candidate_and_the_algebra_waits(candidates):
    page, root = candidates
    widget = W.CandidateExplorer()
    names = widget.data["names"]
    why = root.locator('[data-readout="why"]')
    minis = root.locator(".rope-w-question button[data-answer]")
    # Before the prediction: the algebra, like the verdicts, is out of sight.
    if root.locator('[data-readout="feedback"]').get_attribute("data-stage") == "asked":
        assert why.evaluate(HIDDEN)
        minis.nth(names.index("rotation")).click()
        root.locator("[data-commit]").click()
    assert not why.evaluate(HIDDEN)
    button = root.locator('button[data-name="content"]')
    contents = [([q.real, q.imag], [k.real, k.imag]) for q, k in [(CANDIDATE_DEFAULTS["q"], CANDIDATE_DEFAULTS["k"]), *CANDIDATE_MORE_CONTENTS]]
    for step in range(len(contents) + 1):
        x = step % len(contents)
        setting = dataset(root.locator('[data-readout="setting"]'))
        assert int(setting["content"]) == x
        assert np.allclose([float(v) for v in setting["q"].split(",")], contents[x][0])
        assert np.allclose([float(v) for v in setting["k"].split(",")], contents[x][1])
        widget.content_index = x
        for c, name in enumerate(names):
            minis.nth(c).hover()
            widget.candidate_index = c
            state = widget.state()
            # The large matrix: every cell is rope_core's score at this content.
            values = np.array(root.locator('[data-plot="matrix"] rect').evaluate_all(
                "(rs) => rs.map((r) => [Number(r.dataset.m), Number(r.dataset.n), Number(r.dataset.value)])"))
            np.testing.assert_allclose(values[:, 2], state["matrix"][values[:, 0].astype(int), values[:, 1].astype(int)], atol=1e-6)
            spread = float(root.locator(f'[data-verdict="{c}"]').get_attribute("data-spread"))
            assert abs(spread - state["spreads"].max()) < 1e-6, (name, x)
            assert why.inner_text() and int(why.get_attribute("data-candidate")) == c
        button.click()
    # At the content with |q| = |k| the feedback names the candidate that passes there only, and
    # a wrong pick's miss is its largest spread over the contents (not 0 at the one that passes).
    root.locator("[data-commit]").click()                # change my prediction
    minis.nth(names.index("by content")).click()
    root.locator("[data-commit]").click()                # check it
    button.click()                                       # the loop left content 2: now content 3
    assert int(dataset(root.locator('[data-readout="setting"]'))["content"]) == 2
    feedback = root.locator('[data-readout="feedback"]').inner_text()
    assert "by content keeps every diagonal one colour for this q, k (|q| = 0.849, |k| = 0.849), not for every q and k" in feedback
    misses = [candidate_table(q, k, widget.data["theta"], 16)["by content"]["real_spread"].max()
              for q, k in [(CANDIDATE_DEFAULTS["q"], CANDIDATE_DEFAULTS["k"]), *CANDIDATE_MORE_CONTENTS]]
    miss = readout_number(re.search(r"“by content” changes along a diagonal by up to (\d+(?:\.\d+)?) at the other q, k", feedback).group(1))
    assert abs(miss - max(misses)) <= 5e-3 * max(misses), (feedback, misses)


DIAL_LABELS = r"""(root) => [...root.querySelector("svg.rope-w-svg").querySelectorAll("text[data-vector]")]
  .filter((t) => !t.closest('[style*="display: none"]'))
  .map((t) => { const b = t.getBBox(); return { name: t.dataset.vector, moved: t.dataset.moved === "1", box: [b.x, b.y, b.x + b.width, b.y + b.height] }; })"""


def test_the_dashed_labels_never_cover_another_label(relative):
    """In random states (positions, shift, and q and k turned by their handles' keys) a dashed
    arrow's label covers no other label of the dial: where its own spot would, it moved."""
    page, root = relative
    rng = np.random.default_rng(11)
    top = W.RelativeInvariance().data["max_position"]
    moved = 0
    for _ in range(14):
        for name, value in (("m", int(rng.integers(0, top + 1))), ("n", int(rng.integers(0, top + 1))), ("shift", int(rng.integers(1, top + 1)))):
            set_slider(root, name, value)
        for key in ("q", "k"):
            handle = root.locator(f'[data-handle="{key}"]')
            handle.focus()
            for _ in range(int(rng.integers(0, 8))):
                handle.press("Shift+ArrowRight")
        labels = root.evaluate(DIAL_LABELS)
        for label in labels:
            if not label["name"].startswith("ghost"):
                continue
            moved += label["moved"]
            for other in labels:
                if other is not label:
                    assert not overlap(label["box"], other["box"], margin=1.0), (label, other)
    # Some of these states need a move, so the check above saw moved labels too.
    assert moved >= 1


def test_the_controls_stay_beside_the_drawings_on_a_desktop(relative):
    """At 1280 px the column of drawings (strip, dial, pairs, strips) keeps its 340 px and the
    controls sit beside it, not below it."""
    page, root = relative
    column = root.locator(".rope-w-column").bounding_box()
    slider_box = root.locator('input[data-name="shift"]').bounding_box()
    assert column["width"] <= 360, column
    assert slider_box["x"] >= column["x"] + column["width"], (column, slider_box)
