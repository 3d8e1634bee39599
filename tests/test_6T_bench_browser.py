"""benchmarks/bench_widgets.py's drag rows, on the built gallery in the benchmark's own window.

The benchmark drags each handle of every widget that has one. A widget taller than the window,
scrolled into view as a whole, can leave its handle under the page's sticky header, where a
press reaches the header and the drag step records nothing: these tests check that the
benchmark refuses a covered handle and that its drag puts every handle clear of such a cover.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from _browser import open_gallery

pytestmark = [pytest.mark.book, pytest.mark.browser]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_widgets  # noqa: E402  (a script's module, not a package)

# The benchmark's window (Playwright's default page size, which bench_widgets keeps).
WINDOW = {"width": 1280, "height": 720}


@pytest.fixture(scope="module")
def gallery(chromium, book_server):
    context, page, log = open_gallery(chromium, book_server, viewport=WINDOW)
    yield page, page.locator(".rope-w")
    context.close()
    assert not log.page_errors, log.page_errors


def test_drag_around_refuses_a_covered_handle(gallery):
    page, widgets = gallery
    root = widgets.nth(bench_widgets.NAMES.index("RelativeInvariance"))
    # A fixed sheet over the whole window: wherever the handle is scrolled to, it is covered.
    page.evaluate("""() => { const sheet = document.createElement('div'); sheet.className = 'test-sheet';
      sheet.style.cssText = 'position: fixed; inset: 0; z-index: 10000'; document.body.append(sheet); }""")
    try:
        with pytest.raises(RuntimeError, match=r"'q' handle .* is covered by <div class=\"test-sheet\">"):
            bench_widgets.drag_around(page, root, "q", steps=4)
    finally:
        page.evaluate("() => document.querySelector('.test-sheet').remove()")


def test_every_widget_with_a_handle_gets_a_drag_row_with_redraws(gallery):
    page, widgets = gallery
    with_handles = [name for index, name in enumerate(bench_widgets.NAMES)
                    if widgets.nth(index).evaluate(bench_widgets.SHOWN_HANDLES)]
    assert "RotationExplorer" in with_handles and "RelativeInvariance" in with_handles
    rows = dict(bench_widgets.direct_manipulation(page, widgets, steps=6))
    for name in with_handles:
        drags = rows[f"{name} drag step"]
        # each handle of the widget dragged in 6 moves: at least one redraw a handle and move
        handles = len(widgets.nth(bench_widgets.NAMES.index(name)).evaluate(bench_widgets.SHOWN_HANDLES))
        assert len(drags) >= 6 * handles, (name, len(drags))
        assert (drags > 0).all()
