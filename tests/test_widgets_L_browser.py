"""LayoutExplorer's attention bars in chromium: each share's label sits above its bar and above
the dashed bar of the trained weights, never inside either, at random states of both layouts.

The widget is rendered on its own page from its Python class (the fixtures of
test_widgets_wF_browser.py), so no book build is needed.
"""

from __future__ import annotations

import pytest
from _browser import DESKTOP, PHONE, after_frames, set_slider
from test_widgets_wF_browser import opened, set_wrong, site  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser]

# Every share label's box against every bar and dashed trained bar (SVG units), and, per label,
# how far its bottom is above its own word's bars (the taller of the two).
PERCENTS = """() => {
  const g = document.querySelector('.rope-w svg g[data-sentence]');
  const box = (el) => { const b = el.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  const meet = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  const bars = [...g.querySelectorAll('rect[data-bar], rect[data-trained-bar]')]
    .filter((r) => Number(r.getAttribute('height')) > 0)
    .map((r) => ({ n: Number(r.dataset.bar ?? r.dataset.trainedBar), ghost: r.hasAttribute('data-trained-bar'), b: box(r) }));
  const hits = [], labels = [];
  for (const t of g.querySelectorAll('text[data-percent]')) {
    const a = box(t), n = Number(t.dataset.percent);
    for (const bar of bars) if (meet(a, bar.b)) hits.push(`${t.textContent} over word ${n} meets ${bar.ghost ? 'dashed ' : ''}bar ${bar.n}`);
    const own = bars.filter((bar) => bar.n === n);
    labels.push({ n, gap: Math.min(...own.map((bar) => bar.b[1])) - a[3], ghostTaller: own.some((bar) => bar.ghost)
      && Math.min(...own.filter((bar) => bar.ghost).map((bar) => bar.b[1])) < Math.min(...own.filter((bar) => !bar.ghost).map((bar) => bar.b[1])) });
  }
  return { hits, labels };
}"""


@pytest.mark.parametrize("viewport", ["1280", "390"])
def test_share_labels_sit_above_both_bars_at_random_states(opened, rng, viewport):  # noqa: F811
    page, widget = opened(viewport=DESKTOP if viewport == "1280" else PHONE, touch=viewport == "390", predict=0)
    words, dims = widget.data["words"], widget.data["dims"]
    over_taller_ghost = 0
    # The reviewed frame first: the last word asked from, wrong layout, every dimension.
    states = [(d, len(words) - 1, True) for d in range(len(dims))]
    states += [(int(rng.integers(len(dims))), int(rng.integers(len(words))), bool(rng.integers(2))) for _ in range(12)]
    for d_index, query, wrong in states:
        set_slider(page, "dim", d_index)
        set_slider(page, "query", query)
        set_wrong(page, wrong)
        after_frames(page)
        got = page.evaluate(PERCENTS)
        assert got["hits"] == [], (d_index, query, wrong, got["hits"])
        assert got["labels"], (d_index, query, wrong)
        for label in got["labels"]:
            assert label["gap"] >= 0, (d_index, query, wrong, label)
        over_taller_ghost += sum(label["ghostTaller"] for label in got["labels"])
    # The case the label used to sit inside: a dashed trained bar taller than the one drawn.
    assert over_taller_ghost > 0
