"""The heat map's dials draw x's pair where x is: each dashed arrow runs from its dial's centre
to centre + radius·(x_2i, −x_2i+1) (SVG's y points down), at every dimension, and that is
(1, 0), as the legend says ("x: every pair (1, 0)")."""

from __future__ import annotations

import pytest
from _browser import gallery_widget, open_gallery, set_slider

from rope_core.widgets import RotationMatrixHeatmap

pytestmark = [pytest.mark.book, pytest.mark.browser]

# Per dial: its centre and radius (the dial's circle), the dashed arrow's line, and x's entries.
DIALS = """
(root) => [...root.querySelectorAll('[data-dial]')].map((dial) => {
  const ring = dial.querySelector('circle.rope-w-meaning'), line = dial.querySelector('[data-before] line');
  const i = Number(dial.dataset.dial), x = (j) => Number(root.querySelector(`rect[data-x="${j}"]`).dataset.value);
  return { i, cx: +ring.getAttribute('cx'), cy: +ring.getAttribute('cy'), r: +ring.getAttribute('r'),
           from: [+line.getAttribute('x1'), +line.getAttribute('y1')], to: [+line.getAttribute('x2'), +line.getAttribute('y2')],
           pair: [x(2 * i), x(2 * i + 1)] };
})
"""


def test_dashed_arrows_point_at_x_on_every_dial_at_every_dimension(chromium, book_server):
    data = RotationMatrixHeatmap().data
    context, page, log = open_gallery(chromium, book_server)
    try:
        root = gallery_widget(page, "RotationMatrixHeatmap")
        for index, dim in enumerate(data["dims"]):
            set_slider(root, "dim", index)
            dials = root.evaluate(DIALS)
            assert [dial["i"] for dial in dials] == list(range(dim // 2))
            for dial in dials:
                assert dial["pair"] == [1, 0], dial
                assert dial["from"] == pytest.approx([dial["cx"], dial["cy"]], abs=1e-9), dial
                expected = [dial["cx"] + dial["r"] * dial["pair"][0], dial["cy"] - dial["r"] * dial["pair"][1]]
                assert dial["to"] == pytest.approx(expected, abs=1e-9), (dim, dial)
        assert not log.page_errors, log.page_errors
    finally:
        context.close()
