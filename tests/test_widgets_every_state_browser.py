"""Every widget of the registry, in random states: no label under a drag handle, and the result
the widget shows announced when the reader moves its first slider.

The per-widget tests check the states their questions name; these drive every slider and every
drag handle of every widget (including ones added later) to random positions, before and after
the reader's prediction, on the built gallery at 1280 px.
"""

from __future__ import annotations

import numpy as np
import pytest
from _browser import gallery_widget

from rope_core import widgets as W

pytestmark = [pytest.mark.book, pytest.mark.browser]
NAMES = [cls.__name__ for cls in W.REGISTRY]

# Label boxes (visible <text> of every drawing of the widget) against handle rings, per drawing.
LABELS_UNDER_HANDLES = """(root) => {
  const hits = [];
  for (const svg of root.querySelectorAll('svg')) {
    const rings = [...svg.querySelectorAll('[data-handle] .rope-w-ring, [data-grip]')]
      .filter((c) => { const style = getComputedStyle(c);  // a transparent hit area hides nothing
        return style.display !== 'none' && style.visibility !== 'hidden'
          && !(['transparent', 'none', 'rgba(0, 0, 0, 0)'].includes(style.fill) && style.stroke === 'none'); })
      .map((c) => c.getBoundingClientRect());
    if (!rings.length) continue;
    const labels = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim()
      && t.closest('[data-handle]') === null && t.closest('[data-concealed]') === null
      && getComputedStyle(t).visibility !== 'hidden' && getComputedStyle(t).display !== 'none'
      && t.getClientRects().length);
    for (const t of labels) {
      const b = t.getBoundingClientRect();
      for (const r of rings) {
        const w = Math.min(b.right, r.right) - Math.max(b.left, r.left);
        const h = Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top);
        if (w > 1 && h > 1) hits.push(`"${t.textContent}" over a handle by ${w.toFixed(1)}x${h.toFixed(1)}`);
      }
    }
  }
  return hits;
}"""

SLIDERS = """(root) => [...root.querySelectorAll('input[type=range][data-name]')]
  .filter((s) => !s.disabled && s.getClientRects().length)
  .map((s) => [s.dataset.name, Number(s.min), Number(s.max)])"""


def _shuffle(root, rng):
    """Every visible slider to a random stop, then every visible handle a random number of
    arrow-key steps (a handle's own keyboard moves are the same as its drags)."""
    for name, low, high in root.evaluate(SLIDERS):
        value = int(rng.integers(int(low), int(high) + 1))
        root.locator(f'input[data-name="{name}"]').first.evaluate(
            "(input, v) => { input.value = v; input.dispatchEvent(new Event('input', {bubbles: true})); }", value)
    handles = root.locator("[data-handle]")
    for i in range(handles.count()):
        handle = handles.nth(i)
        if not handle.is_visible():
            continue
        handle.focus()
        key = ["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown"][int(rng.integers(0, 4))]
        for _ in range(int(rng.integers(0, 12))):
            handle.press(f"Shift+{key}")


def _predict(root):
    """Make a prediction: the first answer (and, for a question whose answer is a set, commit it)."""
    answers = root.locator(".rope-w-question button[data-answer]")
    if answers.count() and answers.first.is_visible():
        answers.first.click()
        commit = root.locator(".rope-w-question button[data-commit]")
        if commit.count() and commit.first.is_visible():
            commit.first.click()


@pytest.mark.parametrize("name", NAMES)
def test_no_label_under_a_handle_before_or_after_the_prediction(gallery_once, name):
    page, log = gallery_once
    root = gallery_widget(page, name)
    if not root.locator("[data-handle], [data-grip]").count():
        pytest.skip(f"{name} has no drag handle")
    rng = np.random.default_rng(sum(map(ord, name)))
    for round_ in range(24):
        if round_ == 12:
            _predict(root)
        _shuffle(root, rng)
        page.wait_for_timeout(30)  # one frame: some widgets draw on the next animation frame
        assert root.evaluate(LABELS_UNDER_HANDLES) == [], (name, round_)
    assert not log.problems(), log.problems()


LIVE_TEXT = """(root) => [...root.querySelectorAll('[aria-live]')]
  .filter((n) => n.getAttribute('aria-live') !== 'off').map((n) => n.textContent.trim())"""


@pytest.mark.parametrize("name", NAMES)
def test_moving_the_first_slider_announces_what_the_widget_shows(gallery_once, name):
    page, log = gallery_once
    root = gallery_widget(page, name)
    _predict(root)
    sliders = root.evaluate(SLIDERS)
    assert sliders, f"{name} has no slider"
    slider, low, high = sliders[0]
    before = root.evaluate(LIVE_TEXT)
    assert before is not None
    control = root.locator(f'input[data-name="{slider}"]').first
    start = int(control.input_value())
    control.focus()
    control.press("ArrowLeft" if start == int(high) else "ArrowRight")
    page.wait_for_function(
        "([root, before]) => { const now = [...root.querySelectorAll('[aria-live]')]"
        ".filter((n) => n.getAttribute('aria-live') !== 'off').map((n) => n.textContent.trim());"
        " return now.some((text, i) => text && text !== before[i]); }",
        arg=[root.element_handle(), before], timeout=5000)
    assert not log.problems(), log.problems()


def test_a_verdict_is_not_replaced_by_what_is_said_just_after_it(gallery_once):
    # DecayExplorer's last act, showing the random pairs, reveals the verdict and announces the
    # pairs' median in the same moment: both are heard, the verdict first.
    page, log = gallery_once
    root = gallery_widget(page, "DecayExplorer")
    root.locator(".rope-w-question button[data-answer]").nth(1).click()
    for name in ("content", "distance"):
        control = root.locator(f'input[data-name="{name}"]')
        control.evaluate("(input) => { input.value = input.max; input.dispatchEvent(new Event('input', {bubbles: true})); }")
    root.locator('button[data-toggle="random"]').click()
    region = root.locator('[data-readout="announce"]')
    page.wait_for_function("(node) => node.textContent.includes('random pairs')", arg=region.element_handle(), timeout=5000)
    heard = region.text_content()
    verdict = root.locator('[data-readout="feedback"]').text_content()
    assert verdict.startswith(("✓", "✗")) and heard.startswith(verdict[:40]), (heard, verdict)
    assert not log.problems(), log.problems()
