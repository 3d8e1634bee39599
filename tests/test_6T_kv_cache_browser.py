"""The KV cache's dials: each used slot's solid hand points at its cached key's angle and the
dashed hand at the angle a fresh key would have (pair 0, the data's `angle` and
`should_angle`), at every event of the timeline; SVG's y points down."""

from __future__ import annotations

import math

import pytest
from _browser import gallery_widget, open_gallery, set_slider

from rope_core.widgets import KVCacheTimeline

pytestmark = [pytest.mark.book, pytest.mark.browser]

HANDS = """
(root) => [...root.querySelectorAll('g[data-slot]')].filter((g) => g.style.visibility !== 'hidden').map((g) =>
  ['rope-w-hand', 'rope-w-hand-should'].map((cls) => {
    const line = g.querySelector(`line.${cls}`), at = (name) => Number(line.getAttribute(name));
    return Math.atan2(-(at('y2') - at('y1')), at('x2') - at('x1'));
  }))
"""


def _same_angle(a, b):
    return abs(math.remainder(a - b, 2 * math.pi)) <= 1e-6


@pytest.mark.parametrize("mode", [0, 1])
def test_every_hand_points_at_its_angle_at_every_event(chromium, book_server, mode):
    # The page draws a mode's track once the reader has chosen it (mode i is the i-th button,
    # track i of the data): every event is read in the chosen mode.
    track = KVCacheTimeline().data["tracks"][mode]
    context, page, log = open_gallery(chromium, book_server)
    try:
        root = gallery_widget(page, "KVCacheTimeline")
        root.locator('.rope-w-answer[data-answer="0"]').click()   # the modes show after a prediction
        root.locator(f'button[data-choice="{mode}"]').click()
        for stage, expected in enumerate(track):
            set_slider(root, "stage", stage)
            hands = root.evaluate(HANDS)
            assert len(hands) == len(expected["tokens"]), stage
            for j, (cached, fresh) in enumerate(hands):
                assert _same_angle(cached, expected["angle"][j]), (stage, j, cached, expected["angle"][j])
                assert _same_angle(fresh, expected["should_angle"][j]), (stage, j, fresh, expected["should_angle"][j])
        assert not log.page_errors, log.page_errors
    finally:
        context.close()
