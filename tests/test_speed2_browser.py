"""The built book paints from its first-screen rules alone, and looks as before once the whole
style sheet is in (``book/_ext/site_assets.py``, ``inline_critical_css``).

- With the whole sheet held back (its requests fail), the first screen of chapter 2 and of
  the gallery, at 1280 px light and 390 px dark, is the same picture as with it.
- Once loaded, a page looks as the same page with the whole sheet blocking in ``<head>``
  (the page as Sphinx wrote it, :func:`site_assets.undo_critical_css`): its first screen and
  the screen at its first widget.
- A reader whose system is dark gets the dark palette before the theme's script runs.
"""

from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from _browser import DESKTOP, PHONE, goto, open_page

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import site_assets  # noqa: E402

pytestmark = [pytest.mark.book, pytest.mark.browser]

PAGES = ["book/02-rotations.html", "book/gallery.html"]
LOOKS = [pytest.param("light", DESKTOP, False, id="1280-light"), pytest.param("dark", PHONE, True, id="390-dark")]
SETTLED_JS = """() => document.documentElement.dataset.ropeWidgets !== 'loading'
  && [...document.querySelectorAll('link[data-rope-rest]')].every((link) => link.media === 'all' || link.dataset.failed)"""


def _picture(page) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB"))


def _load(chromium, url, scheme, viewport, touch, *, hold_sheet=False, html=None, all_widgets=False):
    """``(context, page)`` at ``url`` once loaded and its widgets drawn; ``hold_sheet``: every
    request for the whole style sheet fails; ``html``: the page's markup served instead;
    ``all_widgets``: every widget drawn at once (nothing is drawn while the page scrolls)."""
    context, page, log = open_page(chromium, scheme, viewport=viewport, touch=touch, all_widgets=all_widgets)
    if hold_sheet:
        page.route("**/rope-site/rope-book-*.css*", lambda route: route.abort())
        page.add_init_script("""addEventListener('error', (event) => {
          if (event.target.dataset && 'ropeRest' in event.target.dataset) event.target.dataset.failed = '1'; }, true);""")
    if html is not None:
        page.route(url, lambda route: route.fulfill(body=html, content_type="text/html; charset=utf-8"))
    goto(page, url)
    page.wait_for_function(SETTLED_JS, timeout=30000)
    page.wait_for_timeout(600)  # the theme's script scrolls the sidebar to this page's entry
    assert log.problems() == [] or hold_sheet, log.problems()
    return context, page


def _same(a: np.ndarray, b: np.ndarray) -> float:
    """Share of pixels that differ."""
    return float((np.abs(a.astype(int) - b.astype(int)).sum(axis=2) > 0).mean())


# Two loads of one page may differ in the anti-aliasing of a few glyphs of the SVG maths (about
# 20 pixels); one missing border line is 900 pixels of a 1280 x 900 screen.
MOST_DIFFERENT = 0.0002


@pytest.mark.parametrize(("scheme", "viewport", "touch"), LOOKS)
@pytest.mark.parametrize("name", PAGES)
def test_the_first_screen_needs_only_the_inline_rules(name, scheme, viewport, touch, built_book, book_server,
                                                      chromium):
    html = (built_book / name).read_text(encoding="utf-8")
    assert f'<style id="{site_assets.CRITICAL_ID}">' in html
    url = f"{book_server}/{name}"
    pictures = []
    for hold in (True, False):
        context, page = _load(chromium, url, scheme, viewport, touch, hold_sheet=hold)
        try:
            held = page.evaluate("""[...document.styleSheets].filter((sheet) => {
                try { return sheet.href && sheet.href.includes('rope-book-') && sheet.cssRules.length; }
                catch (error) { return false; } }).length""")  # (a sheet that failed has no rules to read)
            assert held == (0 if hold else len(site_assets.bundle_files())), held
            # Linked where the blocking links were: right after the inline rules, in order.
            placed = page.evaluate("""() => { const after = [];
                for (let node = document.getElementById('rope-critical').nextElementSibling;
                     node && node.matches('link[data-rope-rest]'); node = node.nextElementSibling)
                  after.push(node.getAttribute('href').split('?')[0].split('/').pop());
                return after; }""")
            assert placed == [name.rsplit("/", 1)[-1] for name in site_assets.bundle_files()], placed
            pictures.append(_picture(page))
        finally:
            context.close()
    assert _same(*pictures) <= MOST_DIFFERENT


@pytest.mark.parametrize(("scheme", "viewport", "touch"), LOOKS)
@pytest.mark.parametrize("name", PAGES)
def test_a_page_once_loaded_looks_as_with_the_blocking_sheet(name, scheme, viewport, touch, built_book,
                                                             book_server, chromium):
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder) / "page.html"
        old.write_text((built_book / name).read_text(encoding="utf-8"), encoding="utf-8")
        assert site_assets.undo_critical_css(old)
        blocking = old.read_text(encoding="utf-8")
    assert f'id="{site_assets.CRITICAL_ID}"' not in blocking
    url = f"{book_server}/{name}"
    pictures = []
    for html in (None, blocking):
        context, page = _load(chromium, url, scheme, viewport, touch, html=html, all_widgets=True)
        try:
            first = _picture(page)
            page.evaluate("document.querySelector('.rope-widget-view').scrollIntoView({behavior: 'instant'})")
            page.wait_for_function(SETTLED_JS)
            page.wait_for_timeout(300)
            pictures.append((first, _picture(page)))
        finally:
            context.close()
    (new_first, new_widget), (old_first, old_widget) = pictures
    assert _same(new_first, old_first) <= MOST_DIFFERENT
    assert _same(new_widget, old_widget) <= MOST_DIFFERENT


def test_a_dark_system_gets_the_dark_palette_before_the_themes_script(book_server, chromium):
    """The theme's own script (deferred, at the end of the page) is never let in: the inline
    one in ``<head>`` must have chosen the palette, and the first-screen rules must hold it."""
    context, page, log = open_page(chromium, "dark", viewport=PHONE, touch=True, all_widgets=False)
    try:
        page.route("**/*.js*", lambda route: route.abort() if "rope-widgets" not in route.request.url
                   else route.continue_())
        page.route("**/rope-site/rope-book-*.css*", lambda route: route.abort())
        page.goto(f"{book_server}/book/02-rotations.html", wait_until="load")
        found = page.evaluate("""() => [document.documentElement.dataset.theme,
            getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]""")
        theme, background, text = found
        assert theme == "dark", found
        rgb = [[float(v) for v in c[c.index("(") + 1:-1].split(",")[:3]] for c in (background, text)]
        assert sum(rgb[0]) < 3 * 60 and sum(rgb[1]) > 3 * 150, found
    finally:
        context.close()
