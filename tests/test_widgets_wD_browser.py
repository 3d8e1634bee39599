"""RotationMatrixHeatmap in chromium: what the reader's hand finds, checked against rope_core.

Play runs m smoothly (between whole positions) to the question's m and halts; every frame's
arrows, arcs and dials are m·θ_i for the m that frame draws; a move of the reader's own stops
it; the verdict is announced once; the base slider's log stops; the product's operators. The
widget is rendered on its own page from its Python class (test_widgets_spectrum_browser.py's
page: the ES module and stylesheet Python ships, no kernel).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from _browser import DESKTOP, after_frames, axe_serious, dataset, goto, open_page, serve, set_slider
from test_widgets_spectrum_browser import write_page

import rope_core as rc
from rope_core import widgets as W

pytestmark = [pytest.mark.browser]
TAU = 2 * math.pi

# One frame as drawn: the real m, and per pair the block's arrow, its arc's end, the dial's hand,
# the dashed x arrow and the wedge (all read in one go, so they belong to the same frame).
FRAME = """() => {
  const svg = document.querySelector(".rope-w svg"), num = (el, k) => Number(el.getAttribute(k));
  const line = (g) => { const l = g.querySelector("line"); return ["x1", "y1", "x2", "y2"].map((k) => num(l, k)); };
  const nums = (path) => path.replace(/[MALZ]/g, " ").trim().split(/\\s+/).filter(Boolean).map(Number);
  return {
    m: Number(svg.dataset.m),
    blocks: [...svg.querySelectorAll("g[data-block-turn]")].map((g) => ({
      hand: line(g.querySelector(".rope-w-block-hand")), arc: nums(g.querySelector("path[data-block-arc]").getAttribute("d")),
      ring: [num(g.querySelector("circle"), "cx"), num(g.querySelector("circle"), "cy")] })),
    dials: [...svg.querySelectorAll("g[data-dial]")].map((g) => ({
      hand: line(g.querySelector(".q")), before: line(g.querySelector(".ghost")),
      wedge: nums(g.querySelector("path[data-sweep]").getAttribute("d")), swept: Number(g.querySelector("path[data-sweep]").dataset.swept || 0) })),
    rotated: [...svg.querySelectorAll("rect[data-rotated]")].map((r) => Number(r.dataset.value)),
    cells: [...svg.querySelectorAll("rect[data-row]")].map((r) => [+r.dataset.row, +r.dataset.col, Number(r.dataset.value)]),
    playing: document.querySelector('button[data-name="play"]').getAttribute("aria-pressed"),
  };
}"""


def turn_of(x1, y1, x2, y2):
    """The angle of the segment (x1, y1) -> (x2, y2) counter-clockwise on the page (y down)."""
    return math.atan2(y1 - y2, x2 - x1)


def same_angle(a, b, tol=1e-6):
    return abs(math.remainder(a - b, TAU)) <= tol


def check_frame(frame, dim, base):
    """Every angle the frame draws is m·θ_i of rope_core, for the m the frame says it draws."""
    m, theta = frame["m"], rc.inverse_frequencies(dim, base)
    assert len(frame["blocks"]) == len(frame["dials"]) == dim // 2
    matrix = rc.rope_matrix(m, dim, base)   # rope_matrix takes a real position as well
    for r, c, value in frame["cells"]:
        assert abs(value - matrix[r, c]) <= 1e-9, (m, r, c)
    np.testing.assert_allclose(frame["rotated"], matrix @ np.tile([1.0, 0.0], dim // 2), atol=1e-9)
    for i, (block, dial) in enumerate(zip(frame["blocks"], frame["dials"])):
        angle = m * theta[i]
        assert same_angle(turn_of(*block["hand"]), angle), (m, i)
        assert same_angle(turn_of(*dial["hand"]), angle), (m, i)
        assert same_angle(turn_of(*dial["before"]), 0.0), i   # x's pair (1, 0)
        wrapped = angle % TAU
        if wrapped < 1e-3:
            assert block["arc"] == [], (m, i)
            continue
        # M x0 y0 A r r 0 large 0 x1 y1: from 3 o'clock, counter-clockwise to m·θ_i mod 2π.
        cx, cy = block["ring"]
        x0, y0, radius, _, _, large, sweep, x1, y1 = block["arc"]
        assert (x0, y0, sweep) == pytest.approx((cx + radius, cy, 0))
        assert large == (1 if wrapped > math.pi else 0), (m, i)
        assert same_angle(math.atan2(cy - y1, x1 - cx), wrapped, 1e-6), (m, i)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("wD")
    widget = W.RotationMatrixHeatmap()
    page = write_page(directory, widget, "light")
    with serve(directory) as url:
        yield f"{url}/{page}", widget


@pytest.fixture
def opened(chromium, site):
    url, widget = site
    made = []

    def open_one(*, reduced_motion=None, predict=True):
        context, page, log = open_page(chromium, "light", viewport=DESKTOP)
        if reduced_motion:
            page.emulate_media(reduced_motion=reduced_motion)
        page.goto(url)
        page.wait_for_function("window.ropeReady === true", timeout=20000)
        after_frames(page)
        if predict:
            page.locator('.rope-w-question button[data-answer="1"]').click()
        made.append((context, log))
        return page

    yield open_one, widget
    for context, log in made:
        problems = log.problems()
        context.close()
        assert not problems, problems


def state(page, widget):
    dim = widget.data["dims"][int(page.locator('input[data-name="dim"]').input_value())]
    base = widget.data["bases"][int(page.locator('input[data-name="base"]').input_value())]
    return dim, base


def frames_while_playing(page, dim, base, limit, each=None):
    """Sample the drawing every 150 ms from play's start until it stops (at most ``limit``
    samples); every frame drawn while playing shows each block at m·θ_i of rope_core, and
    ``each(frame, frames)``, if given, checks it further. Returns the frames sampled."""
    frames = []
    for _ in range(limit):
        frame = page.evaluate(FRAME)
        frames.append(frame)
        if frame["playing"] == "false":
            break
        check_frame(frame, dim, base)
        if each:
            each(frame, frames)
        page.wait_for_timeout(150)
    return frames


def test_play_runs_m_smoothly_to_the_questions_position_and_halts(opened):
    open_one, widget = opened
    page = open_one()
    dim, base = state(page, widget)
    last = widget.data["question"]   # a run that starts below the question's m halts on it
    page.wait_for_timeout(900)   # the prediction's own announcement is made
    # The region's texts from here on: nothing while m plays, the verdict once it halts.
    page.evaluate("""() => { window.heard = []; const region = document.querySelector('[data-readout="announce"]');
      new MutationObserver(() => window.heard.push(region.textContent)).observe(region, { childList: true, characterData: true, subtree: true }); }""")
    page.locator('button[data-name="play"]').click()

    def wedges_trail_by_one_position(frame, frames):
        # Once m has moved, each dial's wedge trails its hand over θ_i (one position's turn);
        # a frame sampled before play's first tick has no wedge yet.
        if frame["m"] != frames[0]["m"]:
            for i, dial in enumerate(frame["dials"]):
                assert dial["swept"] == pytest.approx(rc.inverse_frequencies(dim, base)[i], rel=1e-12)

    frames = frames_while_playing(page, dim, base, 60, wedges_trail_by_one_position)
    played = [f["m"] for f in frames if f["playing"] == "true"]
    assert len(played) >= 3, played  # a loaded machine samples fewer frames of the same run
    assert any(not float(m).is_integer() for m in played), played          # between positions
    assert all(b >= a for a, b in zip(played, played[1:])), played         # forward only
    assert all(m <= last for m in played)
    # It halted (did not loop) at the question's m, drawn there exactly, the wedges gone.
    page.wait_for_timeout(600)
    frame = page.evaluate(FRAME)
    assert frame["playing"] == "false" and frame["m"] == last
    assert page.locator('output[data-name="position"]').inner_text() == str(last)
    assert all(d["wedge"] == [] for d in frame["dials"])
    check_frame(frame, dim, base)
    question = dataset(page.locator('[data-readout="question"]'))
    assert question["answered"] == "1"
    page.wait_for_timeout(1000)
    heard = page.evaluate("window.heard")
    assert len(heard) == 1 and heard[0].startswith("✓ Right."), heard
    assert f"At m = {last}" in heard[0]


def test_a_move_of_the_readers_own_stops_play_on_a_whole_position(opened):
    open_one, widget = opened
    page = open_one()
    page.locator('button[data-name="play"]').click()
    page.wait_for_timeout(900)
    assert page.locator('button[data-name="play"]').get_attribute("aria-pressed") == "true"
    set_slider(page, "base", widget.data["bases"].index(100.0))
    after_frames(page)
    frame = page.evaluate(FRAME)
    assert frame["playing"] == "false"
    assert frame["m"] == int(page.locator('output[data-name="position"]').inner_text())
    assert page.locator('output[data-name="base"]').inner_text() == "100"
    check_frame(frame, *state(page, widget))
    m = frame["m"]
    page.wait_for_timeout(500)
    assert page.evaluate(FRAME)["m"] == m   # it stays stopped


def test_reduced_motion_plays_whole_positions(opened):
    open_one, widget = opened
    page = open_one(reduced_motion="reduce")
    page.locator('button[data-name="play"]').click()
    page.wait_for_timeout(2300)
    frame = page.evaluate(FRAME)
    assert frame["playing"] == "true" and float(frame["m"]).is_integer() and frame["m"] >= 2
    check_frame(frame, *state(page, widget))
    page.locator('button[data-name="play"]').click()
    assert page.evaluate(FRAME)["playing"] == "false"


def test_arrows_arcs_and_dials_at_random_states(opened, rng):
    open_one, widget = opened
    page = open_one()
    data = widget.data
    for _ in range(12):
        d, b, m = (int(rng.integers(len(data[k]))) for k in ("dims", "bases", "positions"))
        for name, index in (("dim", d), ("base", b), ("position", m)):
            set_slider(page, name, index)
        frame = page.evaluate(FRAME)
        assert frame["m"] == data["positions"][m]
        check_frame(frame, data["dims"][d], data["bases"][b])
        # The question's answer follows the base: the first block turned < 0.1 rad at its m.
        still = np.flatnonzero(data["question"] * rc.inverse_frequencies(data["dims"][d], data["bases"][b]) < 0.1)
        assert int(dataset(page.locator('[data-readout="question"]'))["still"]) == (int(still[0]) if still.size else -1)


def test_base_slider_has_log_stops_landing_on_100_and_10000(opened):
    open_one, widget = opened
    page = open_one(predict=False)
    bases = widget.data["bases"]
    assert len(bases) == 51 and bases[0] == 10.0 and bases[-1] == pytest.approx(1e6, rel=1e-12)
    np.testing.assert_allclose(np.log10(bases), np.arange(10, 61) / 10, atol=1e-12)
    assert 100.0 in bases and 10000.0 in bases            # exactly, as the chapter names them
    assert page.locator('output[data-name="base"]').inner_text() == "10000"   # the default
    for index, shown in ((bases.index(100.0), "100"), (bases.index(10000.0), "10000"), (0, "10.0")):
        set_slider(page, "base", index, keyboard=True)
        assert page.locator('output[data-name="base"]').inner_text() == shown
        assert page.locator('input[data-name="base"]').get_attribute("aria-valuetext") == shown


def test_the_product_operators_are_legible(opened):
    open_one, _ = opened
    page = open_one(predict=False)
    for operator, least in (("times", (7, 7)), ("equals", (14, 10))):
        box = page.locator(f'[data-operator="{operator}"]').bounding_box()
        assert box["width"] >= least[0] and box["height"] >= least[1], (operator, box)
    # Outside the question itself, the default frame says nothing of which blocks barely move:
    # the reader guesses first.
    text = page.evaluate("""() => { const root = document.querySelector(".rope-w").cloneNode(true);
      root.querySelector(".rope-w-question").remove(); return root.textContent; }""")
    for giveaway in ("identity", "hardly", "barely", "still", "slow", "fast"):
        assert giveaway not in text, giveaway


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_no_serious_axe_violation_in_chapter_5s_heat_map(chromium, book_server, theme):
    # As loaded, then predicted and played to the end (the verdict shown), in both schemes.
    context, page, log = open_page(chromium, theme)
    try:
        goto(page, f"{book_server}/book/05-d-dimensions.html")
        root = page.locator(".rope-w", has=page.locator("g[data-block-turn]"))
        root.scroll_into_view_if_needed()
        page.wait_for_function("(el) => el.querySelector('g[data-dial]') !== null", arg=root.element_handle())
        scope = [".rope-w:has(g[data-block-turn])"]
        assert axe_serious(page, include=scope) == []
        root.locator('.rope-w-question button[data-answer="1"]').click()
        set_slider(root, "position", int(root.locator('input[data-name="position"]').get_attribute("max")) - 1)
        root.locator('button[data-name="play"]').click()
        page.wait_for_function("(el) => el.querySelector('button[data-name=play]').getAttribute('aria-pressed') === 'false'",
                               arg=root.element_handle(), timeout=5000)
        assert dataset(root.locator('[data-readout="question"]'))["answered"] == "1"
        assert axe_serious(page, include=scope) == []
        assert not log.page_errors and not log.console_errors, (log.page_errors, log.console_errors)
    finally:
        context.close()
