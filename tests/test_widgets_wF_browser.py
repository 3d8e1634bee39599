"""LayoutExplorer in chromium: the head's attention over a sentence (bars read back against
rope_core), asking from any word by mouse, touch and keyboard, the question about the wrong
layout, and labels that fit their boxes and cross nothing at random states.

The widget is rendered on its own page from its Python class, as the book's static loader
renders it (test_widgets_spectrum_browser.py's page, no kernel).
"""

from __future__ import annotations

import numpy as np
import pytest
from _browser import (
    DESKTOP,
    PHONE,
    after_frames,
    after_scrolling,
    dataset,
    open_page,
    set_slider,
)
from test_widgets_spectrum_browser import served_alone

import rope_core as rc
from rope_core import widgets as W
from rope_core.demos.spectrum import layout_sentence_attention

pytestmark = [pytest.mark.browser]
STATES = 10


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_alone(tmp_path_factory.mktemp("wF"), W.LayoutExplorer()) as site:
        yield site


@pytest.fixture
def opened(chromium, site):
    """``opened(viewport=..., touch=..., predict=...)`` -> (page, widget); the page logged no problem."""
    url, widget, pages = site
    made = []

    def open_one(*, viewport=DESKTOP, touch=False, theme="light", predict=None):
        context, page, log = open_page(chromium, theme, viewport=viewport, touch=touch)
        page.goto(f"{url}/{pages[theme]}")
        page.wait_for_function("window.ropeReady === true", timeout=20000)
        if predict is not None:
            page.locator(f'.rope-w-question button[data-answer="{predict}"]').click()
        after_frames(page)
        made.append((context, log))
        return page, widget

    yield open_one
    for context, log in made:
        problems = log.problems()
        context.close()
        assert not problems, problems


SENTENCE = """() => {
  const g = document.querySelector('.rope-w svg g[data-sentence]');
  const num = (el, k) => Number(el.getAttribute(k));
  const rects = (sel, key) => [...g.querySelectorAll(sel)].map((r) => [+r.dataset[key], num(r, 'y'), num(r, 'height')]);
  return {
    bars: rects('rect[data-bar]', 'bar'), outlines: rects('rect[data-trained-bar]', 'trainedBar'),
    words: [...g.querySelectorAll('text[data-word]')].map((t) => [+t.dataset.word, t.textContent, getComputedStyle(t).fontWeight]),
    percents: [...g.querySelectorAll('text[data-percent]')].map((t) => [+t.dataset.percent, t.textContent]),
    mark: [...g.querySelectorAll('[data-query-mark]')].map((l) => +l.dataset.queryMark),
    fills: [...g.querySelectorAll('rect[data-bar]')].map((r) => r.style.fill),
  };
}"""


def check_sentence(page, widget, d_index, query, wrong):
    """The bars are the weights of rope_core's layout_sentence_attention for query ``query``:
    one a word up to the query (none after it: causal), heights in proportion and summing to
    the full bar (the weights sum to 1), standing on one baseline; the trained weights as dashed
    outlines when the layout is wrong; shares >= 5 % written; the read-out names the top word."""
    data = widget.data
    words = data["words"]
    weights = layout_sentence_attention(data["dims"][d_index], data["base"], words)
    shown, trained = weights["wrong" if wrong else "trained"][query], weights["trained"][query]
    got = page.evaluate(SENTENCE)
    bars = sorted(got["bars"])
    assert [n for n, _, _ in bars] == list(range(query + 1))
    heights = np.array([h for _, _, h in bars])
    full = heights.sum()
    assert full > 40
    np.testing.assert_allclose(heights / full, shown[: query + 1], atol=2e-3)
    np.testing.assert_allclose([y + h for _, y, h in bars], bars[0][1] + bars[0][2], atol=1e-6)
    if wrong:
        outlines = np.array([h for _, _, h in sorted(got["outlines"])])
        np.testing.assert_allclose(outlines / full, trained[: query + 1], atol=2e-3)
        assert all("rope-w-k" in fill for fill in got["fills"])
    else:
        assert got["outlines"] == [] and all("rope-w-q" in fill for fill in got["fills"])
    assert [text for _, text, _ in sorted(got["words"])] == words
    assert [int(weight) >= 600 for n, _, weight in sorted(got["words"])] == [n == query for n in range(len(words))]
    assert got["mark"] == [query]
    assert sorted(map(tuple, got["percents"])) == [(n, f"{round(100 * shown[n])}%") for n in range(query + 1) if shown[n] >= 0.05]
    said = dataset(page.locator('[data-readout="sentence"]'))
    top = int(np.argmax(shown[: query + 1]))
    assert (int(said["query"]), int(said["top"]), said["wrong"]) == (query, top, "1" if wrong else "0")
    assert float(said["weight"]) == pytest.approx(shown[top], abs=5e-4)
    text = page.locator('[data-readout="sentence"]').inner_text()
    if query:
        assert f"“{words[query]}” looks most at “{words[top]}” ({round(100 * shown[top])}%)" in text
    assert text.startswith("Wrong layout") == (wrong and query > 0)


def set_wrong(page, wrong):
    toggle = page.locator('input[data-name="wrong"]')
    if toggle.is_checked() != wrong:
        toggle.click()


def test_the_bars_over_the_words_are_rope_cores_weights_at_random_states(opened, rng):
    page, widget = opened(predict=2)
    check_sentence(page, widget, 1, len(widget.data["words"]) - 1, False)   # the opening frame
    for _ in range(STATES):
        d_index = int(rng.integers(len(widget.data["dims"])))
        query = int(rng.integers(len(widget.data["words"])))
        wrong = bool(rng.integers(2))
        set_slider(page, "dim", d_index)
        set_slider(page, "query", query)
        set_wrong(page, wrong)
        check_sentence(page, widget, d_index, query, wrong)


def test_a_word_is_asked_from_by_mouse_by_touch_and_by_keyboard(opened):
    page, widget = opened()
    words = widget.data["words"]
    # Mouse: a click anywhere in a word's slot (its bar or its word) asks from that word.
    page.locator('g[data-sentence] rect[data-ask="3"]').click()
    assert page.locator('input[data-name="query"]').input_value() == "3"
    check_sentence(page, widget, 1, 3, False)
    # Keyboard: the query-word slider; its value is the word, and the result is announced.
    control = page.locator('input[data-name="query"]')
    control.focus()
    page.keyboard.press("ArrowRight")
    assert control.input_value() == "4" and control.get_attribute("aria-valuetext") == words[4]
    check_sentence(page, widget, 1, 4, False)
    announced = page.locator('[data-readout="announce"]')
    assert announced.get_attribute("data-pending") == page.locator('[data-readout="sentence"]').inner_text()
    page.wait_for_function("(el) => el.textContent === el.dataset.pending", arg=announced.element_handle(), timeout=3000)
    # Touch, on a phone: a tap on a word.
    phone, _ = opened(viewport=PHONE, touch=True, theme="dark")
    phone.locator('g[data-sentence] rect[data-ask="5"]').tap()
    assert phone.locator('input[data-name="query"]').input_value() == "5"
    check_sentence(phone, widget, 1, 5, False)


def test_the_wrong_layout_is_asked_about_on_words_and_answered_by_the_toggle(opened):
    page, widget = opened()
    words = widget.data["words"]
    prompt = page.locator(".rope-w-question-prompt").inner_text()
    assert f"where will “{words[-1]}” look?" in prompt
    # Before the reader acts nothing of the wrong layout is drawn.
    assert page.evaluate(SENTENCE)["outlines"] == []
    assert page.locator("polyline[data-curve=wrong]").count() == 0
    page.locator('.rope-w-question button[data-answer="2"]').click()
    set_wrong(page, True)
    after_frames(page)
    verdict = page.locator('[data-readout="feedback"]').first.inner_text()
    wrong = layout_sentence_attention(16, widget.data["base"], words)["wrong"][-1]
    look = int(np.argmax(wrong))
    assert look != len(words) - 2   # the last word no longer looks one back: answer 2 is right
    assert verdict.startswith("✓") and "no longer looks one token back" in verdict
    assert f"“{words[-1]}” puts {round(100 * wrong[look])}% on “{words[look]}” and {round(100 * wrong[-2])}% on “{words[-2]}”" in verdict
    # The verdict is what is heard (once): it names the words and their shares.
    assert page.locator('[data-readout="announce"]').get_attribute("data-pending") == verdict
    check_sentence(page, widget, 1, len(words) - 1, True)


LABELS = """() => {
  const svg = document.querySelector('.rope-w svg');
  const box = (el) => { const b = el.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  const meet = (a, b) => a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5;
  const bad = [];
  // Every number inside its own box (in screen pixels, as drawn).
  for (const t of svg.querySelectorAll('text[data-value-of]')) {
    const [layout, j] = t.dataset.valueOf.split(' ');
    const r = svg.querySelector(`rect[data-layout="${layout}"][data-feature="${j}"]`).getBoundingClientRect();
    const a = t.getBoundingClientRect();
    if (a.left < r.left - 0.5 || a.right > r.right + 0.5 || a.top < r.top - 0.5 || a.bottom > r.bottom + 0.5) bad.push(`number ${t.dataset.valueOf}`);
  }
  // Every other label: on no other label, on no box (the handles of the rows), in the drawing.
  const labels = [...svg.querySelectorAll('text:not([data-value-of])')].filter((t) => t.textContent.trim() && !t.closest('.rope-w-travel'));
  const boxes = [...svg.querySelectorAll('rect[data-feature]')].map(box);
  const view = svg.viewBox.baseVal;
  labels.forEach((t, i) => {
    const a = box(t);
    if (a[0] < view.x - 0.5 || a[2] > view.x + view.width + 0.5) bad.push(`outside: ${t.textContent}`);
    for (const b of boxes) if (meet(a, b)) bad.push(`on a box: ${t.textContent}`);
    for (const u of labels.slice(i + 1)) if (meet(a, box(u))) bad.push(`${t.textContent} on ${u.textContent}`);
  });
  // No line between the rows through a row's caption.
  const captions = [...svg.querySelectorAll('text[data-row-label]')].map(box);
  for (const l of svg.querySelectorAll('line[data-source], line[data-rh-source]')) {
    const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((k) => Number(l.getAttribute(k)));
    for (const c of captions) {
      for (let s = 0; s <= 40; s++) {
        const x = x1 + (x2 - x1) * s / 40, y = y1 + (y2 - y1) * s / 40;
        if (x > c[0] && x < c[2] && y > c[1] && y < c[3]) { bad.push(`line ${l.outerHTML.slice(0, 60)} through a caption`); break; }
      }
    }
  }
  return bad;
}"""


@pytest.mark.parametrize("viewport", ["1280", "390"])
def test_labels_fit_their_boxes_and_cross_nothing_at_random_states(opened, rng, viewport):
    page, widget = opened(viewport=DESKTOP if viewport == "1280" else PHONE, touch=viewport == "390", predict=0)
    assert page.evaluate(LABELS) == []   # the opening frame, d = 16
    for _ in range(STATES):
        d_index = int(rng.integers(len(widget.data["dims"])))
        set_slider(page, "dim", d_index)
        set_slider(page, "pair", int(rng.integers(widget.data["dims"][d_index] // 2)))
        set_slider(page, "query", int(rng.integers(len(widget.data["words"]))))
        set_wrong(page, bool(rng.integers(2)))
        after_frames(page)
        assert page.evaluate(LABELS) == [], (d_index,)
        # The rotated row shows each number's size; its sign is the bracket's, over exactly
        # the negative numbers (rope_core's rotate_half negates the new first half).
        dim = widget.data["dims"][d_index]
        got = page.eval_on_selector_all('text[data-value-of^="rotated "]', "(ts) => ts.map((t) => [Number(t.dataset.value), t.textContent])")
        assert [text for _, text in got] == [str(abs(int(v))) for v, _ in got]
        assert page.eval_on_selector_all("path[data-negated]", "(ps) => ps.map((p) => p.dataset.negated)") == [f"0,{dim // 2 - 1}"]
        assert all(v < 0 for v, _ in got[: dim // 2]) and all(v > 0 for v, _ in got[dim // 2:])


IN_REACH = """() => {
  const row = document.querySelector('.rope-w-in-reach');
  const toggle = row && row.querySelector('input[data-name="wrong"]');
  const bars = document.querySelector('.rope-w svg g[data-sentence]').getBoundingClientRect();
  const t = toggle ? toggle.getBoundingClientRect() : null;
  const hit = t ? document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2) : null;
  return { toggle: t && [t.top, t.bottom], bars: [bars.top, bars.bottom], hit: Boolean(hit && row.contains(hit)),
           slider: Boolean(row && row.querySelector('input[data-name="query"]')), height: innerHeight };
}"""


def test_on_a_phone_the_words_and_the_layout_toggle_share_the_screen(opened):
    page, widget = opened(viewport=PHONE, touch=True, theme="dark", predict=2)
    page.locator("svg g[data-sentence]").evaluate("(g) => g.scrollIntoView({block: 'center'})")
    after_scrolling(page)
    after_frames(page)
    got = page.evaluate(IN_REACH)
    assert got["slider"] and got["toggle"], got
    assert 0 <= got["bars"][0] and got["bars"][1] <= got["toggle"][0] <= got["toggle"][1] <= got["height"], got
    assert got["hit"], got
    page.locator('input[data-name="wrong"]').tap()
    after_frames(page)
    check_sentence(page, widget, 1, len(widget.data["words"]) - 1, True)


FOLLOWED = """() => {
  const svg = document.querySelector('.rope-w svg');
  const ghost = svg.querySelector('circle[data-ghost]');
  const centre = (r) => [Number(r.getAttribute('x')) + Number(r.getAttribute('width')) / 2, Number(r.getAttribute('y')) + Number(r.getAttribute('height')) / 2];
  return {
    ghost: ghost && [+ghost.dataset.ghost, Number(ghost.getAttribute('cx')), Number(ghost.getAttribute('cy')), +ghost.dataset.u],
    ghostText: ghost && ghost.nextElementSibling.textContent,
    boxes: Object.fromEntries([...svg.querySelectorAll('rect[data-followed]')].map((r) => [r.dataset.layout, [+r.dataset.feature, ...centre(r)]])),
    trail: [...svg.querySelectorAll('polyline[data-trail-of]')].map((p) => +p.dataset.trailOf),
  };
}"""


def landing_of(dim, j):
    """Where rope_core puts feature j of x: its index in P x (interleaved_to_half) and in
    rotate_half(P x), and whether rotate_half negates it there."""
    x = np.zeros(dim)
    x[j] = 1.0
    permuted = rc.interleaved_to_half(x)
    rotated = rc.rotate_half(permuted)
    half, turned = int(np.flatnonzero(permuted)[0]), int(np.flatnonzero(rotated)[0])
    return half, turned, bool(rotated[turned] < 0)


def check_followed(page, widget, d_index, j, stop):
    dim = widget.data["dims"][d_index]
    half, turned, negated = landing_of(dim, j)
    got = page.evaluate(FOLLOWED)
    assert got["trail"] == [j, j]   # its two legs: x to P x, P x to rotate_half(P x)
    assert {k: v[0] for k, v in got["boxes"].items()} == {"interleaved": j, "half": half, "rotated": turned}
    feature, gx, gy, u = got["ghost"]
    assert (feature, u) == (j, stop / 2)
    landed = got["boxes"][("interleaved", "half", "rotated")[stop]]
    assert (gx, gy) == pytest.approx(landed[1:], abs=1.01)   # on its box (whose middle is half a unit off the slot's)
    assert got["ghostText"] == str(j + 1)                    # x = (1, ..., d): feature j holds j + 1
    said = dataset(page.locator('[data-readout="follow"]'))
    assert (int(said["feature"]), int(said["half"]), int(said["rotated"]), int(said["stop"]), said["negated"]) == \
        (j, half, turned, stop, "1" if negated else "0")


def screen_of(page, x, y):
    """A point of the drawing (SVG units) in page pixels."""
    return page.evaluate("""([x, y]) => { const svg = document.querySelector('.rope-w svg');
      const p = svg.createSVGPoint(); p.x = x; p.y = y; const q = p.matrixTransform(svg.getScreenCTM());
      return [q.x, q.y]; }""", [x, y])


def test_dragging_a_number_of_x_shows_where_p_and_rotate_half_put_it(opened, rng):
    page, widget = opened(predict=0)
    for _ in range(4):
        d_index = int(rng.integers(len(widget.data["dims"])))
        set_slider(page, "dim", d_index)
        dim = widget.data["dims"][d_index]
        followed = page.evaluate(FOLLOWED)["ghost"]
        j = int(rng.integers(dim))
        while followed and followed[0] == j:   # a new number starts in x (the followed one goes on from where it is)
            j = int(rng.integers(dim))
        box = page.locator(f'rect[data-layout="interleaved"][data-feature="{j}"]')
        b = box.bounding_box()
        x, y = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
        rows = page.evaluate("() => ['interleaved', 'half', 'rotated'].map((l) => Number(document.querySelector(`rect[data-layout=${l}]`).getAttribute('y')))")
        step = screen_of(page, 0, rows[1])[1] - screen_of(page, 0, rows[0])[1]
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x, y + step * 0.5, steps=4)            # halfway down: between the rows
        got = page.evaluate(FOLLOWED)
        assert got["ghost"][0] == j and 0.2 < got["ghost"][3] < 0.3
        page.mouse.move(x, y + step * 1.1, steps=4)
        page.mouse.up()                                        # lands on P x's row
        check_followed(page, widget, d_index, j, 1)
        box.hover()
        page.mouse.down()
        page.mouse.move(x, y + step * 0.9, steps=4)
        page.mouse.up()                                        # from there, one row on
        check_followed(page, widget, d_index, j, 2)
        announced = page.locator('[data-readout="announce"]').get_attribute("data-pending")
        assert announced == page.locator('[data-readout="follow"]').inner_text()
        assert ("negates it" in announced) == landing_of(dim, j)[2]


def test_a_number_follows_keyboard_and_touch_one_row_at_a_time(opened):
    page, widget = opened(predict=0)
    box = page.locator('rect[data-layout="interleaved"][data-feature="3"]')
    box.focus()
    for stop in (1, 2):
        page.keyboard.press("Enter")
        check_followed(page, widget, 1, 3, stop)
    page.keyboard.press("Space")
    check_followed(page, widget, 1, 3, 0)                     # back to the top
    # From a box of P x, Enter follows the number that sits there on to rotate_half.
    perm = rc.interleaved_to_half_permutation(16)
    page.locator('rect[data-layout="half"][data-feature="5"]').focus()
    page.keyboard.press("Enter")
    check_followed(page, widget, 1, int(perm[5]), 2)
    # Touch on a phone: a tap moves one row; a drag by a touch pointer moves with the finger.
    phone, _ = opened(viewport=PHONE, touch=True, theme="dark", predict=0)
    phone.locator('rect[data-layout="interleaved"][data-feature="6"]').tap()
    check_followed(phone, widget, 1, 6, 1)
    # The box's tip (shown on a phone when a box is touched) is put away: it would cover the rows.
    assert phone.locator(".rope-w > .rope-w-tip").evaluate("(tip) => tip.hidden")
    assert phone.locator('rect[data-layout="interleaved"][data-feature="6"]').evaluate("(r) => getComputedStyle(r).touchAction") == "none"
    phone.locator('rect[data-layout="interleaved"][data-feature="9"]').evaluate("""(rect) => {
      const b = rect.getBoundingClientRect(), x = b.left + b.width / 2, y = b.top + b.height / 2;
      const svg = rect.ownerSVGElement, scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const send = (type, dy) => rect.dispatchEvent(new PointerEvent(type, { pointerId: 7, pointerType: 'touch', clientX: x, clientY: y + dy, bubbles: true }));
      send('pointerdown', 0); send('pointermove', 60 * scale); send('pointermove', 2 * 106 * scale); send('pointerup', 2 * 106 * scale);
    }""")
    check_followed(phone, widget, 1, 9, 2)
