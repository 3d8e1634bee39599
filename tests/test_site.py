"""The site around the chapters: how pages load widgets, fit a phone, and serve every reader.

The widget loader (``book/_site/rope-site/rope-widgets.js``) is tested twice: on a small
page made here, whose widget exercises the whole model interface the loader promises, and
on the built book (every widget view rendered, no ipywidgets manager or RequireJS loaded).
"""

from __future__ import annotations

import json
import re

import pytest
from _browser import open_page, serve

pytestmark = pytest.mark.browser

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]
LOADER = ROOT / "book" / "_site" / "rope-site" / "rope-widgets.js"

# A widget module that uses every part of the model interface the loader provides.
PROBE_ESM = """
let initialized = 0;
export default async () => ({
  initialize({ model }) { initialized += 1; model.set("log", [...model.get("log"), "init"]); },
  render({ model, el }) {
    const out = document.createElement("output");
    out.className = "probe";
    const show = () => { out.textContent = String(model.get("value")); };
    show();
    const onValue = () => show();
    model.on("change:value", onValue);
    el.appendChild(out);
    el.dataset.initialized = String(initialized);
    el.dataset.bytes = String(model.get("blob").byteLength);
    el.dataset.first = String(model.get("blob").getUint8(0));
    el.addEventListener("bump", () => { model.set("value", model.get("value") + 1); model.save_changes(); model.send({}); });
    el.addEventListener("detach", () => model.off("change:value", onValue));
  },
});
"""


def probe_page(directory):
    state = {
        "version_major": 2, "version_minor": 0,
        "state": {
            "probe": {
                "model_module": "anywidget", "model_name": "AnyModel", "model_module_version": "~0.11.*",
                "state": {"_esm": PROBE_ESM, "_css": ".probe { color: rgb(1, 2, 3); }",
                          "_anywidget_id": "test.Probe", "value": 41, "log": [], "blob": None},
                "buffers": [{"path": ["blob"], "encoding": "base64", "data": "BwgJ"}],
            },
            "slider": {"model_module": "@jupyter-widgets/controls", "model_name": "IntSliderModel",
                       "model_module_version": "2.0.0", "state": {}},
        },
    }
    view = '<script type="application/vnd.jupyter.widget-view+json">{"model_id": "%s"}</script>'
    (directory / "rope-widgets.js").write_text(LOADER.read_text())
    (directory / "probe.html").write_text(
        "<!doctype html><html lang='en'><head><title>probe</title>"
        f'<script type="application/vnd.jupyter.widget-state+json">{json.dumps(state)}</script>'
        '<script type="module" src="rope-widgets.js"></script></head><body>'
        f"<div id=a>{view % 'probe'}</div><div id=b>{view % 'probe'}</div><div id=c>{view % 'slider'}</div>"
        "</body></html>"
    )


def test_loader_gives_widgets_the_model_interface(tmp_path, chromium):
    probe_page(tmp_path)
    with serve(tmp_path) as url:
        context, page, log = open_page(chromium)
        page.goto(f"{url}/probe.html")
        page.wait_for_function("document.documentElement.dataset.ropeWidgets === 'ready'")
        views = page.locator(".rope-widget-view")
        assert views.count() == 3
        a, b = page.locator("#a .rope-widget-view"), page.locator("#b .rope-widget-view")
        # One model, one initialize, shared by both views; the buffer restored as a DataView.
        assert a.get_attribute("data-initialized") == b.get_attribute("data-initialized") == "1"
        assert (a.get_attribute("data-bytes"), a.get_attribute("data-first")) == ("3", "7")
        assert page.locator(".probe").first.inner_text() == "41"
        # CSS injected once; set() in one view reaches the other through on("change:...").
        assert page.locator('style[data-anywidget-id="test.Probe"]').count() == 1
        assert page.locator(".probe").first.evaluate("e => getComputedStyle(e).color") == "rgb(1, 2, 3)"
        a.dispatch_event("bump")
        assert [page.locator(".probe").nth(i).inner_text() for i in (0, 1)] == ["42", "42"]
        # off() removes exactly that listener: view a stops following, b still does.
        a.dispatch_event("detach")
        b.dispatch_event("bump")
        assert [page.locator(".probe").nth(i).inner_text() for i in (0, 1)] == ["42", "43"]
        # A standard ipywidgets control cannot live without a kernel: it says so.
        assert "needs a running notebook" in page.locator("#c").inner_text()
        assert log.problems() == []
        context.close()


@pytest.mark.book
def test_pages_load_no_widget_manager(built_book):
    from test_book import book_pages

    with_widgets = []
    for name in book_pages(built_book):
        html = (built_book / name).read_text()
        assert not re.search(r"embed-amd|require(\.min)?\.js|html-manager", html), name
        has_state = "application/vnd.jupyter.widget-state+json" in html
        assert has_state == ("rope-widgets.js" in html), name
        with_widgets += [name] * has_state
    assert "book/gallery.html" in with_widgets and "book/02-rotations.html" in with_widgets


@pytest.mark.book
@pytest.mark.parametrize("name", ["book/gallery.html", "book/02-rotations.html"])
def test_every_widget_view_renders(name, built_book, book_server, browser_page):
    page, log = browser_page
    page.goto(f"{book_server}/{name}", wait_until="networkidle")
    page.wait_for_function("document.documentElement.dataset.ropeWidgets === 'ready'")
    views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
    assert views >= 1
    assert page.locator(".rope-widget-view").count() == views
    assert page.locator(".rope-widget-view > .rope-w").count() == views
    assert log.problems() == []




# ---- phones and tablets ---------------------------------------------------------------

@pytest.mark.book
@pytest.mark.parametrize("width", [390, 900])
def test_chapter_list_and_outline_open_with_a_tap(width, built_book, book_server, chromium, screenshot_dir):
    """The theme's hamburger opens the chapter list, and the outline button the page outline.

    With sphinx-book-theme 1.3.0 over pydata-sphinx-theme 0.17 the visible button had no
    handler (pydata-sphinx-theme#2451); requirements pin the last working pair.
    """
    context, page, log = open_page(chromium, viewport={"width": width, "height": 844}, touch=True)
    page.goto(f"{book_server}/book/02-rotations.html", wait_until="networkidle")
    chapter_link = page.locator('#pst-primary-sidebar-modal a[href$="01-why-positions.html"]')
    assert not chapter_link.is_visible()
    page.locator(".primary-toggle:visible").first.tap()
    chapter_link.wait_for(state="visible", timeout=3000)
    page.screenshot(path=str(screenshot_dir / f"phone-{width}-chapters.png"))
    chapter_link.tap()
    page.wait_for_url("**/01-why-positions.html")
    page.goto(f"{book_server}/book/02-rotations.html", wait_until="networkidle")
    outline_link = page.locator('#pst-secondary-sidebar-modal a[href="#the-rotation-matrix"]')
    page.locator(".secondary-toggle:visible").first.tap()
    outline_link.wait_for(state="visible", timeout=3000)
    page.screenshot(path=str(screenshot_dir / f"phone-{width}-outline.png"))
    assert log.problems() == []
    context.close()


@pytest.mark.book
def test_no_page_scrolls_sideways_on_a_phone(built_book, book_server, chromium):
    from test_book import book_pages

    context, page, log = open_page(chromium, viewport={"width": 390, "height": 844}, touch=True)
    wide = []
    for name in book_pages(built_book):
        page.goto(f"{book_server}/{name}", wait_until="networkidle")
        page.wait_for_load_state("networkidle")
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        if widths[0] > widths[1]:
            wide.append(f"{name}: {widths[0] - widths[1]} px too wide")
    assert not wide, wide
    assert log.problems() == []
    context.close()


@pytest.mark.book
@pytest.mark.parametrize("width", [1280, 1024])
def test_code_cells_show_88_columns(width, built_book, book_server, chromium):
    """Chapters keep code within 88 columns; the article must show them without scrolling."""
    context, page, _ = open_page(chromium, viewport={"width": width, "height": 900})
    page.goto(f"{book_server}/book/06-computing-fast.html", wait_until="networkidle")
    columns = page.evaluate(
        """() => { const pre = document.querySelector('div.cell_input pre');
                   const probe = document.createElement('span'); probe.textContent = 'x'.repeat(100);
                   pre.appendChild(probe); const char = probe.getBoundingClientRect().width / 100; probe.remove();
                   const s = getComputedStyle(pre);
                   return (pre.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)) / char; }"""
    )
    assert columns >= 88, f"{columns:.1f} columns at {width} px"
    context.close()
