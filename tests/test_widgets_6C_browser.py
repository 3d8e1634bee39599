"""CandidateExplorer in the browser: the page computes every candidate's matrix from the content
(q, k) the reader drags, and each number equals rope_core.demos.candidates.candidate_table at
that content (to 1e-9); the handles turn and stretch q and k by pointer and by keyboard; and no
read-out gives the answer away before the prediction."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _browser import (
    HIDDEN,
    PHONE,
    axe_serious,
    dataset,
    gallery_widget,
    open_book_page,
    open_gallery,
)

from rope_core.demos.candidates import CANDIDATE_PARAMETERS, CANDIDATES, candidate_table

pytestmark = [pytest.mark.book, pytest.mark.browser]
NAMES = list(CANDIDATES)

# The page's own module (the URL it loaded, with its version), imported again to call its helpers.
PAGE_TABLES = """async ([contents, theta, size, parameters, names]) => {
  const url = performance.getEntriesByType("resource").map((e) => e.name).find((n) => n.includes("candidate_explorer.js"));
  const { candidateTables } = await import(url);
  return contents.map(([q, k]) => candidateTables(names, q, k, theta, size, parameters));
}"""

# The large matrix as drawn: [m, n, value] per cell.
LARGE = """(root) => [...root.querySelectorAll('[data-plot="matrix"] rect')].map((r) => [Number(r.dataset.m), Number(r.dataset.n), Number(r.dataset.value)])"""


@pytest.fixture
def fresh(chromium, book_server):
    """A gallery of its own (no prediction made yet), and the CandidateExplorer on it."""
    context, page, log = open_gallery(chromium, book_server)
    try:
        yield page, gallery_widget(page, "CandidateExplorer")
        assert not log.problems(), log.problems()
    finally:
        context.close()


def shown_content(root):
    setting = dataset(root.locator('[data-readout="setting"]'))
    q = [float(v) for v in setting["q"].split(",")]
    k = [float(v) for v in setting["k"].split(",")]
    return complex(*q), complex(*k)


def assert_drawn_is_rope_core(root, candidate):
    """The large matrix and every small verdict's spread equal rope_core's at the content shown."""
    q, k = shown_content(root)
    t = candidate_table(q, k, 0.5, 16)
    cells = np.array(root.evaluate(LARGE))
    np.testing.assert_allclose(cells[:, 2], t[candidate]["real"][cells[:, 0].astype(int), cells[:, 1].astype(int)], atol=1e-9, rtol=0)
    for c, name in enumerate(NAMES):
        spread = float(root.locator(f'[data-verdict="{c}"]').get_attribute("data-spread"))
        assert abs(spread - t[name]["real_spread"].max()) < 1e-9, name
    return q, k


def test_the_pages_matrices_are_rope_cores_for_random_contents(fresh, rng):
    page, root = fresh
    contents = []
    for _ in range(25):
        lengths, angles = rng.uniform(0.2, 1.3, size=2), rng.uniform(0, 2 * math.pi, size=2)
        q, k = lengths * np.exp(1j * angles)
        contents.append([[q.real, q.imag], [k.real, k.imag]])
    size, theta = 16, 0.5
    tables = page.evaluate(PAGE_TABLES, [contents, theta, size, CANDIDATE_PARAMETERS, NAMES])
    for (q, k), drawn in zip(contents, tables):
        t = candidate_table(complex(*q), complex(*k), theta, size)
        for c, name in enumerate(NAMES):
            for part in ("real", "imag", "real_spread", "imag_spread"):
                np.testing.assert_allclose(drawn[c][part], t[name][part], atol=1e-9, rtol=0, err_msg=f"{name} {part}")


def test_dragging_q_redraws_every_candidate_as_rope_core_computes(fresh):
    page, root = fresh
    before = shown_content(root)
    handle = root.locator('[data-handle="q"]')
    dial = root.locator('[data-plot="content"]').bounding_box()
    centre = (dial["x"] + dial["width"] / 2, dial["y"] + dial["height"] / 2)
    box = handle.bounding_box()
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*start)
    page.mouse.down()
    # A quarter turn about the dial's centre, in steps (the grip follows the pointer round).
    radius, angle0 = math.dist(start, centre), math.atan2(-(start[1] - centre[1]), start[0] - centre[0])
    for step in range(1, 10):
        a = angle0 + step * math.pi / 18
        page.mouse.move(centre[0] + radius * math.cos(a), centre[1] - radius * math.sin(a))
    page.mouse.up()
    q, k = assert_drawn_is_rope_core(root, "rotation")
    assert k == before[1] and abs(abs(q) - abs(before[0])) < 0.05
    turned = math.degrees(np.angle(q / before[0]))
    assert abs(turned - 90) < 3, turned
    # At every content the kept candidates stay one colour along each diagonal (the small
    # verdicts' data, still out of sight before the prediction), the others do not.
    spreads = [float(root.locator(f'[data-verdict="{c}"]').get_attribute("data-spread")) for c in range(len(NAMES))]
    assert [s < 1e-9 for s in spreads] == [True, True, False, False, False, False, True]


def test_the_keyboard_turns_and_stretches_k(fresh):
    page, root = fresh
    q0, k0 = shown_content(root)
    handle = root.locator('[data-handle="k"]')
    handle.focus()
    for _ in range(30):
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("Shift+ArrowLeft")
    for _ in range(3):
        page.keyboard.press("+")
    root.locator(".rope-w-question button[data-answer]").nth(NAMES.index("by content")).hover()
    q, k = assert_drawn_is_rope_core(root, "by content")
    assert q == q0
    assert abs(abs(k) - (abs(k0) + 0.3)) < 1e-9
    assert abs(math.degrees(np.angle(k / k0)) + 40) < 1e-6
    assert handle.get_attribute("aria-valuetext").startswith(f"{math.degrees(np.angle(k)) % 360:.1f}"[:3])
    # by content's line of algebra (shown after the prediction) names the lengths it turns on here.
    why = root.locator('[data-readout="why"]').text_content()
    assert why.endswith(f"when |q| = |k|; here |q| = {abs(q):#.3g}, |k| = {abs(k):#.3g}"), why


def test_no_read_out_gives_the_answer_before_the_prediction(fresh):
    page, root = fresh
    diagonal = root.locator('[data-readout="diagonal"]')
    # Before: the diagonal's range, the verdicts and the algebra are out of sight (and out of
    # the accessibility tree), and nothing the reader can see names the answer.
    assert diagonal.evaluate(HIDDEN)
    visible = root.inner_text()
    for word in ("constant", "spread", "not Toeplitz", "only m − n"):
        assert word not in visible, word
    # Moving q is acting, not answering: still hidden.
    root.locator('[data-handle="q"]').focus()
    page.keyboard.press("ArrowUp")
    assert diagonal.evaluate(HIDDEN) and "constant" not in root.inner_text()
    # After the prediction is checked: the read-out says what the diagonal does.
    root.locator(".rope-w-question button[data-answer]").nth(NAMES.index("rotation")).click()
    root.locator("[data-commit]").click()
    assert not diagonal.evaluate(HIDDEN)
    assert diagonal.inner_text().endswith(": constant")
    assert "constant" in root.locator(f'[data-verdict="{NAMES.index("rotation")}"]').inner_text()


@pytest.mark.parametrize("scheme, options", [("light", {}), ("dark", {"viewport": PHONE, "touch": True})])
def test_chapter_4s_widget_passes_axe_as_asked_dragged_and_answered(chromium, book_server, scheme, options):
    """Chapter 4's CandidateExplorer, on the desktop in light mode and on a phone in dark mode:
    no serious axe violation as it opens, with q dragged by its keys, and after the check."""
    context, page, log = open_book_page(chromium, book_server, "book/04-deriving-rope.html", scheme, **options)
    try:
        root = page.locator(".rope-w").filter(has=page.locator('[data-plot="content"]'))
        assert root.count() == 1
        root.scroll_into_view_if_needed()
        selector = [".rope-w:has([data-plot=content])"]
        assert axe_serious(page, include=selector) == []
        root.locator('[data-handle="q"]').focus()
        for key in ("ArrowUp", "+", "Shift+ArrowLeft"):
            page.keyboard.press(key)
        root.locator(".rope-w-question button[data-answer]").nth(NAMES.index("rotation")).click()
        root.locator("[data-commit]").click()
        assert axe_serious(page, include=selector) == []
        assert not log.problems(), log.problems()
    finally:
        context.close()


def test_after_the_check_a_candidate_shows_why_and_a_failing_one_its_worst_diagonal(fresh):
    """Once the verdicts show, choosing a small matrix (by tap or by Tab) shows its line of
    algebra under the feedback, "why <name> passes/fails", and for a candidate that fails puts
    the diagonal on the one where its score changes most, as rope_core computes at that content."""
    page, root = fresh
    question = root.locator(".rope-w-question")
    why = question.locator('[data-readout="why"]')
    assert why.count() == 1 and why.evaluate(HIDDEN)  # under the feedback, out of sight before the check
    toggles = question.locator("button[data-answer]")
    toggles.nth(NAMES.index("rotation")).click()
    root.locator("[data-commit]").click()
    q, k = shown_content(root)
    table = candidate_table(q, k, 0.5, 16)
    offsets = list(table["offsets"])
    for c, name in enumerate(NAMES):
        toggles.nth(c).click()
        label = why.locator("xpath=..").locator(".rope-w-readout-label").inner_text()
        meets = name in ("rotation", "no position", "parity")
        assert label == f"why {name} {'passes' if meets else 'fails'}:", label
        assert dataset(why)["candidate"] == str(c)
        offset = int(dataset(root.locator('[data-readout="diagonal"]'))["offset"])
        spreads = np.asarray(table[name]["real_spread"])
        if meets:
            continue
        # The outlined diagonal is the candidate's worst one (a tie: any of the worst).
        assert spreads[offsets.index(offset)] >= spreads.max() - 1e-9, (name, offset)
        assert spreads.max() > 1e-3
    # By keyboard: Tab onto "growing" does the same.
    toggles.nth(NAMES.index("rotation")).click()
    toggles.nth(NAMES.index("growing")).focus()
    offset = int(dataset(root.locator('[data-readout="diagonal"]'))["offset"])
    spreads = np.asarray(table["growing"]["real_spread"])
    assert spreads[offsets.index(offset)] >= spreads.max() - 1e-9


def test_on_a_phone_every_verdict_fits_under_its_small_matrix(chromium, book_server):
    """Four small matrices a row at 390 px: each one's verdict ("✗ spread 0.241") stays inside
    its button once the check shows them."""
    context, page, log = open_book_page(chromium, book_server, "book/04-deriving-rope.html", "dark", viewport=PHONE, touch=True)
    try:
        root = page.locator(".rope-w").filter(has=page.locator('[data-plot="content"]'))
        root.scroll_into_view_if_needed()
        root.locator(".rope-w-question button[data-answer]").nth(NAMES.index("rotation")).click()
        root.locator("[data-commit]").click()
        outside = root.locator(".rope-w-question button[data-answer]").evaluate_all("""(buttons) => buttons.map((b) => {
            const outer = b.getBoundingClientRect(), inner = b.querySelector('.rope-w-mini-verdict').getBoundingClientRect();
            return inner.left < outer.left - 0.5 || inner.right > outer.right + 0.5 || inner.bottom > outer.bottom + 0.5 ? b.textContent : null;
          }).filter(Boolean)""")
        assert outside == []
        assert not log.problems(), log.problems()
    finally:
        context.close()


def test_exploring_after_the_check_leaves_the_prediction_and_its_verdict_alone(fresh):
    """A right check, then a tap on a candidate that fails: it is shown large with its worst
    diagonal, and the prediction and the "✓ Right." stay; "change my prediction" frees the picks,
    and the next check grades the new set. A wrong pick's miss is the spread its tag shows."""
    page, root = fresh
    toggles = root.locator(".rope-w-question button[data-answer]")
    feedback = root.locator('[data-readout="feedback"]')
    commit = root.locator("[data-commit]")
    for name in ("rotation", "no position", "parity"):
        toggles.nth(NAMES.index(name)).click()
    commit.click()
    assert feedback.get_attribute("data-correct") == "true" and commit.inner_text() == "change my prediction"
    additive = toggles.nth(NAMES.index("additive"))
    additive.click()
    assert additive.get_attribute("aria-pressed") == "false"
    assert feedback.get_attribute("data-correct") == "true" and feedback.inner_text().startswith("✓ Right.")
    assert root.locator(".rope-w-mini[data-shown]").get_attribute("data-candidate") == str(NAMES.index("additive"))
    commit.click()
    additive.click()
    assert additive.get_attribute("aria-pressed") == "true" and feedback.get_attribute("data-correct") == "true"
    commit.click()
    assert feedback.get_attribute("data-correct") == "false"
    tag = float(root.locator(f'[data-verdict="{NAMES.index("additive")}"]').get_attribute("data-spread"))
    assert f"“additive” changes along a diagonal by up to {tag:.3g} at this q, k" in feedback.inner_text()
