"""The site around the chapters: how pages load widgets, fit a phone, and serve every reader.

The widget loader (``book/_site/rope-site/rope-widgets.js``) is tested twice: on small
pages made here (a widget that exercises the whole model interface the loader promises, its
state inline or in files; a state file that fails), and on the built book (every widget view
rendered from its state file, no ipywidgets manager or RequireJS loaded).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from _browser import goto, open_page, serve

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages  # noqa: E402  (the pages and chapters, in the toc's order)
import widget_state  # noqa: E402  (the one reader of the built pages' widget state)

pytestmark = pytest.mark.browser

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


def probe_page(directory, files=False):
    """``probe.html``: views a, b (one anywidget model) and c (an ipywidgets slider); with
    ``files`` the models are in ``state/<id>.json`` named by a manifest, as the book's build
    writes them (book/_ext/widget_state.py), else inline, as MyST-NB writes them."""
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
    if files:
        (directory / "state").mkdir(exist_ok=True)
        for model_id, model in state["state"].items():
            (directory / "state" / f"{model_id}.json").write_text(json.dumps(model))
        urls = {model_id: f"state/{model_id}.json" for model_id in state["state"]}
        embedded = f'<script type="{widget_state.URLS_TYPE}">{json.dumps(urls)}</script>'
    else:
        embedded = f'<script type="{widget_state.STATE_TYPE}">{json.dumps(state)}</script>'
    (directory / "probe.html").write_text(
        "<!doctype html><html lang='en'><head><title>probe</title>"
        '<script type="module" async src="rope-widgets.js"></script></head><body>'
        f"<div id=a>{view % 'probe'}</div><div id=b>{view % 'probe'}</div><div id=c>{view % 'slider'}</div>"
        f"{embedded}</body></html>"
    )


@pytest.mark.parametrize("files", [False, True], ids=["inline-state", "state-files"])
def test_loader_gives_widgets_the_model_interface(files, tmp_path, chromium):
    probe_page(tmp_path, files=files)
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


def test_loader_fetches_the_first_widget_first_and_says_when_a_file_fails(tmp_path, chromium):
    """The first view's state file is fetched alone; the second starts only after it has
    arrived. A file that cannot be fetched (404, offline) leaves a short note in the views'
    place and a console error, never a blank box or an unhandled rejection; the others draw."""
    probe_page(tmp_path, files=True)
    with serve(tmp_path) as url:
        context, page, log = open_page(chromium)
        events = []
        page.on("request", lambda r: events.append(("start", r.url.rsplit("/", 1)[-1])))
        page.on("requestfinished", lambda r: events.append(("end", r.url.rsplit("/", 1)[-1])))
        page.goto(f"{url}/probe.html")
        page.wait_for_function("document.documentElement.dataset.ropeWidgets === 'ready'")
        files = [event for event in events if event[1].endswith(".json")]
        assert files == [("start", "probe.json"), ("end", "probe.json"),
                         ("start", "slider.json"), ("end", "slider.json")], files
        assert log.problems() == []
        context.close()

        for failure in ("404", "offline"):
            (tmp_path / "state" / "probe.json").unlink(missing_ok=True)
            context, page, log = open_page(chromium)
            if failure == "offline":
                page.route("**/probe.json", lambda route: route.abort("internetdisconnected"))
            page.goto(f"{url}/probe.html")
            page.wait_for_function("document.documentElement.dataset.ropeWidgets === 'ready'")
            for view in ("#a", "#b"):
                note = page.locator(f"{view} .rope-widget-view .rope-widget-error")
                assert note.is_visible() and "could not be loaded" in note.inner_text(), failure
                assert note.bounding_box()["height"] > 20, failure
            # The other widget (after the failed first one) still loads.
            assert "needs a running notebook" in page.locator("#c").inner_text(), failure
            assert log.page_errors == [], failure
            errors = [e for e in log.console_errors if "[rope-widgets]" in e]
            assert len(errors) == 2 and all("widget probe failed" in e for e in errors), log.console_errors
            context.close()


def test_loader_draws_a_view_while_the_rest_of_the_page_is_still_on_its_way(tmp_path, chromium):
    """The loader (an async module in ``<head>``) draws the first view as soon as the parser
    has reached it, from the state file the ``<head>`` preload names (the manifest at the end
    of ``<body>`` is not there yet), and the views that come later once they arrive: here the
    server holds the page's second half back until the first view is drawn (or 10 s)."""
    import http.server
    import threading

    probe_page(tmp_path, files=True)
    whole = (tmp_path / "probe.html").read_text()
    preload = '<link rel="preload" as="fetch" crossorigin href="state/probe.json" data-rope-model="probe">'
    whole = whole.replace("</head>", preload + "</head>")
    cut = whole.index("<div id=b>")
    drawn = threading.Event()

    class Halves(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def log_message(self, format, *args):  # signature fixed by the base class
            pass

        def do_GET(self):
            if self.path == "/drawn":
                drawn.set()
                self.send_response(204)
                self.end_headers()
                return
            if self.path != "/probe.html":
                return super().do_GET()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            # Past the browser's first-chunk buffering, so that the parser sees the first half.
            self.wfile.write(whole[:cut].encode() + b"<!--" + b" " * 4096 + b"-->")
            self.wfile.flush()
            drawn.wait(10)
            self.wfile.write(whole[cut:].encode())

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Halves)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        context, page, log = open_page(chromium)
        # Once the first probe shows, note whether the page was still being parsed, and let
        # the server send the rest.
        page.add_init_script("""new MutationObserver((records, watcher) => {
          if (!document.querySelector('#a .probe')) return;
          watcher.disconnect();
          window.__drawnWhile = document.readyState;
          fetch('/drawn');
        }).observe(document, {childList: true, subtree: true});""")
        page.goto(f"{url}/probe.html", wait_until="load")
        page.wait_for_function("document.documentElement.dataset.ropeWidgets === 'ready'")
        assert drawn.is_set()
        assert page.evaluate("window.__drawnWhile") == "loading"
        # The views of the second half are drawn too, the model shared with the first.
        assert page.locator("#b .probe").inner_text() == "41"
        assert "needs a running notebook" in page.locator("#c").inner_text()
        assert log.problems() == []
        context.close()
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.book
def test_pages_load_no_widget_manager(built_book):
    """No page loads the ipywidgets manager; a page has widget state exactly when it loads
    rope-widgets.js; the state is in files (one per model a view shows), none inline."""
    from test_book import book_pages

    with_widgets = []
    for name in book_pages(built_book):
        html = (built_book / name).read_text()
        assert not re.search(r"embed-amd|require(\.min)?\.js|html-manager", html), name
        has_state = widget_state.has_widgets(html)
        assert has_state == ("rope-widgets.js" in html), name
        assert widget_state.STATE_TYPE not in html, name
        if has_state:
            files = widget_state.model_files(built_book / name)
            assert list(files) == widget_state.view_ids(html), name
            assert all(path.is_file() for path in files.values()), name
            # No widget code in the state: each _esm names its module file, written once.
            for path in files.values():
                esm = json.loads(path.read_text())["state"]["_esm"]
                module = (path.parent / esm.split("?")[0]).resolve()
                assert module.parent == built_book / widget_state.FOLDER and module.is_file(), (name, esm)
            # The widgets' shared style sheet is part of the page's one style sheet (site_assets.BUNDLE).
            assert f'href="{"../" * name.count("/")}_static/rope-site/rope-book-1.css?v=' in html, name
            assert any(f"/* {widget_state.FOLDER}/common.css */" in path.read_text()
                       for path in (built_book / "_static/rope-site").glob("rope-book-*.css"))
        with_widgets += [name] * has_state
    assert "book/gallery.html" in with_widgets and "book/02-rotations.html" in with_widgets


@pytest.mark.book
@pytest.mark.parametrize("name", ["book/gallery.html", "book/02-rotations.html"])
def test_every_widget_view_renders(name, built_book, book_server, browser_page):
    """Every view draws, each widget module and the shared ones are fetched once."""
    page, log = browser_page
    fetched = []
    page.on("request", lambda request: fetched.append(request.url.split("?")[0].rsplit("/", 1)[-1]))
    page.goto(f"{book_server}/{name}", wait_until="networkidle")
    page.wait_for_function("document.documentElement.dataset.ropeWidgets === 'ready'")
    views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
    assert views >= 1
    assert page.locator(".rope-widget-view").count() == views
    assert page.locator(".rope-widget-view > .rope-w").count() == views
    assert log.problems() == []
    modules = [f for f in fetched if f.endswith(".js") and (ROOT / "rope_core" / "widgets" / f).is_file()]
    assert "common.js" in modules and fetched.count("rope-book-1.css") == 1, fetched
    assert len(modules) == len(set(modules)), modules




# ---- phones and tablets ---------------------------------------------------------------

@pytest.mark.book
@pytest.mark.parametrize("width", [390, 900])
def test_chapter_list_and_outline_open_with_a_tap(width, built_book, book_server, chromium, screenshot_dir):
    """The theme's hamburger opens the chapter list, and the outline button the page outline.

    With sphinx-book-theme 1.3.0 over pydata-sphinx-theme 0.17 the visible button had no
    handler (pydata-sphinx-theme#2451); requirements pin the last working pair.
    """
    context, page, log = open_page(chromium, viewport={"width": width, "height": 844}, touch=True)
    goto(page, f"{book_server}/book/02-rotations.html")
    chapter_link = page.locator('#pst-primary-sidebar-modal a[href$="01-why-positions.html"]')
    assert not chapter_link.is_visible()
    page.locator(".primary-toggle:visible").first.tap()
    chapter_link.wait_for(state="visible", timeout=3000)
    page.screenshot(path=str(screenshot_dir / f"phone-{width}-chapters.png"))
    chapter_link.tap()
    page.wait_for_url("**/01-why-positions.html")
    goto(page, f"{book_server}/book/02-rotations.html")
    outline_link = page.locator('#pst-secondary-sidebar-modal a[href="#the-rotation-matrix"]')
    page.locator(".secondary-toggle:visible").first.tap()
    outline_link.wait_for(state="visible", timeout=3000)
    page.screenshot(path=str(screenshot_dir / f"phone-{width}-outline.png"))
    assert log.problems() == []
    context.close()


@pytest.mark.book
@pytest.mark.parametrize("width", [1280, 1024])
def test_code_cells_show_88_columns(width, built_book, book_server, chromium):
    """Chapters keep code within 88 columns; the article must show them without scrolling."""
    context, page, _ = open_page(chromium, viewport={"width": width, "height": 900})
    goto(page, f"{book_server}/book/07-computing-fast.html")
    columns = page.evaluate(
        """() => { const pre = document.querySelector('div.cell_input pre');
                   const probe = document.createElement('span'); probe.textContent = 'x'.repeat(100);
                   pre.appendChild(probe); const char = probe.getBoundingClientRect().width / 100; probe.remove();
                   const s = getComputedStyle(pre);
                   return (pre.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)) / char; }"""
    )
    assert columns >= 88, f"{columns:.1f} columns at {width} px"
    context.close()


# ---- every reader: axe-core, keyboard, one search box ---------------------------------

def _tab_to_first_slider(page, limit=200):
    """Press Tab from the top of the page until a widget slider has focus; count presses."""
    rings = []
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            """() => { const e = document.activeElement; const s = getComputedStyle(e);
                       const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2)
                                    || s.boxShadow !== 'none';
                       return {slider: e.matches('.rope-w input[type=range]'), ring,
                               prose: e.matches('.bd-article :is(p, li, dd, td) a'),
                               group: e.dataset.ropeRoving || null,
                               what: e.tagName + '.' + e.className + ' ' + (e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30))}; }"""
        )
        rings.append(focused)
        if focused["slider"]:
            return presses, rings
    return None, rings


@pytest.mark.book
def test_keyboard_reaches_chapter_2_slider_with_rings(built_book, book_server, browser_page, screenshot_dir):
    """<= 30 plain Tabs to the first slider, every stop with a ring; formulas are no stops;
    the chapter list, page tools and copy buttons are one stop each, arrow keys inside;
    the widget skip link leads in."""
    page, log = browser_page
    goto(page, f"{book_server}/book/02-rotations.html")
    assert page.locator("mjx-container[tabindex='0']").count() == 0
    presses, stops = _tab_to_first_slider(page)
    assert presses is not None, [s["what"] for s in stops]
    without_ring = [s["what"] for s in stops if not s["ring"]]
    assert not without_ring, without_ring
    # Plain Tab from the top: the chapter list, the header's page tools and the copy
    # buttons are one stop each (were 19, 6 and 18 of 66 stops). Links in the text (glossary
    # terms, cross-references) are stops a reader wants; the page's own controls stay few.
    assert presses - sum(s["prose"] for s in stops) <= 30, [s["what"] for s in stops]
    for group in ("chapters", "tools"):
        assert sum(s["group"] == group for s in stops) == 1, (group, [s["what"] for s in stops])
    # Code before the first widget is folded now, so its copy buttons may not be on the way.
    assert sum(s["group"] == "copy" for s in stops) <= 1, [s["what"] for s in stops]
    # Inside a group the arrow keys move, Home/End go to its ends; each member still works.
    def index_in(selector):
        return page.evaluate("s => [...document.querySelectorAll(s)].indexOf(document.activeElement)", selector)

    chapters = ".bd-docs-nav a.reference"
    page.locator(".bd-docs-nav a.current").focus()
    start, last = index_in(chapters), page.locator(chapters).count() - 1
    for key, expected in [("ArrowDown", start + 1), ("ArrowUp", start), ("End", last), ("Home", 0)]:
        page.keyboard.press(key)
        assert index_in(chapters) == expected, key
    assert page.locator(f"{chapters}[tabindex='0']").count() == 1
    tools = "[role=toolbar][aria-label] [data-rope-roving=tools]"
    page.locator(tools).first.focus()
    page.keyboard.press("ArrowRight")
    assert index_in(tools) == 1
    page.keyboard.press("ArrowLeft")
    assert index_in(tools) == 0
    page.evaluate("() => document.querySelectorAll('.bd-article details').forEach((d) => { d.open = true; })")
    copies = page.locator(".bd-article button.copybtn")
    copies.first.focus()
    page.keyboard.press("ArrowDown")
    # The button fades in (0.3 s transition); a loaded machine may take longer than 0.3 s.
    page.wait_for_function("getComputedStyle(document.activeElement).opacity === '1'", timeout=5000)
    focused = page.evaluate("""() => { const e = document.activeElement;
        return {at: [...document.querySelectorAll('.bd-article button.copybtn')].indexOf(e),
                opacity: getComputedStyle(e).opacity,
                hint: document.getElementById(e.getAttribute('aria-describedby').split(' ').pop()).textContent}; }""")
    assert focused == {"at": 1, "opacity": "1", "hint": focused["hint"]} and "arrows" in focused["hint"], focused
    page.screenshot(path=str(screenshot_dir / "copy-button-focus.png"))
    assert page.locator(".bd-article button.copybtn[tabindex='0']").count() == 1
    # A keyboard reader: Tab, Tab to "Skip to the first interactive figure", Enter, Tab.
    goto(page, f"{book_server}/book/02-rotations.html")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to the first interactive figure"
    page.screenshot(path=str(screenshot_dir / "skip-to-widget.png"))
    page.keyboard.press("Enter")
    after_skip = _press_until_slider(page)
    assert after_skip is not None and 2 + after_skip <= 30, after_skip
    assert log.problems() == []


@pytest.mark.book
@pytest.mark.parametrize("width", [390, 900, 1280])
def test_one_search_box_per_page(width, built_book, book_server, chromium):
    context, page, log = open_page(chromium, viewport={"width": width, "height": 844}, touch=width < 1000)
    goto(page, f"{book_server}/book/02-rotations.html")
    visible = [b for b in page.locator(".search-button, .search-button-field, input[type=search], form[role=search]").all()
               if b.is_visible()]
    assert len(visible) == 1, [b.evaluate("e => e.outerHTML.slice(0, 80)") for b in visible]
    visible[0].click()
    page.locator("#pst-search-dialog input[type=search]").wait_for(state="visible")
    page.keyboard.type("rotation")
    page.keyboard.press("Enter")
    page.wait_for_selector("#search-results li", timeout=15000)
    assert log.problems() == []
    context.close()


def _press_until_slider(page, limit=60):
    """Tab presses from the current focus until a widget slider has focus (None if never)."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.rope-w input[type=range]')"):
            return presses
    return None


@pytest.mark.book
def test_every_reference_links_to_its_source(built_book):
    """Every entry of the references links out; every arXiv id to its abstract, every DOI
    to doi.org, every post of Su's blog cited in the chapters to its page. (Opening the page
    requests nothing outside: test_book.test_every_page_works_offline.)"""
    html = (built_book / "book" / "appendix-references.html").read_text()
    article = html[html.index("<article"):html.index("</article>")]
    entries = re.findall(r"<li>(.*?)</li>", article, re.S)
    assert len(entries) >= 25
    unlinked = [re.sub(r"<[^>]+>", "", e)[:80] for e in entries if not re.search(r'href="https://', e)]
    assert not unlinked, unlinked
    text = re.sub(r"<[^>]+>", "", article)
    ids = set(re.findall(r"arXiv:(\d{4}\.\d{4,5})", text))
    linked = set(re.findall(r'href="https://arxiv\.org/abs/(\d{4}\.\d{4,5})"', article))
    assert len(ids) >= 10 and ids <= linked, sorted(ids - linked)
    dois = set(re.findall(r"doi:(10\.\d{4,5}/\S+?)[,.]?\s", text))
    linked_dois = set(re.findall(r'href="https://doi\.org/(10\.[^"]+)"', article))
    assert len(dois) >= 5 and dois <= linked_dois, sorted(dois - linked_dois)
    chapters = "".join(path.read_text() for path in book_pages.chapters(ROOT))
    cited = set(re.findall(r"kexue\.fm(?:/archives/| )(\d{4,5})", chapters))
    posts = set(re.findall(r'href="https://kexue\.fm/archives/(\d+)"', article))
    # (chapter 5 also cites "8397 and 9403" by number)
    cited |= {"8130", "8265", "8397", "9403", "9675"}
    assert cited <= posts, sorted(cited - posts)
    for url in ("https://blog.eleuther.ai/rotary-embeddings/",
                "https://huggingface.co/blog/designing-positional-encoding"):
        assert f'href="{url}"' in article, url


# ---- icons: drawn without the icon font (a page's weight is checked in test_book) -------

@pytest.mark.book
@pytest.mark.parametrize("width", [390, 1280])
def test_every_icon_is_drawn_without_fontawesome(width, built_book, book_server, chromium, screenshot_dir):
    """Each ``fa-*`` icon on the gallery and chapter 2 is a CSS-mask drawing (rope-icons.css,
    generated at build time): an icon missing from site_assets.ICONS would show nothing."""
    for name in ("book/02-rotations.html", "book/gallery.html", "book/appendix-api.html"):
        context, page, log = open_page(chromium, viewport={"width": width, "height": 844}, touch=width < 600)
        goto(page, f"{book_server}/{name}")
        icons = page.evaluate(
            """() => [...document.querySelectorAll('[class*="fa-"]')].map(e => {
                   const name = [...e.classList].find(c => c.startsWith('fa-') && !['fa-solid', 'fa-brands', 'fa-regular', 'fa-lg'].includes(c));
                   const s = getComputedStyle(e, '::before');
                   const mask = s.maskImage || s.webkitMaskImage || '';
                   return {name, drawn: mask.includes('data:image/svg+xml') && parseFloat(s.width) > 0};
               })"""
        )
        assert len(icons) >= 10, icons
        assert [i["name"] for i in icons if not i["drawn"]] == [], name
        assert log.problems() == []
        if name.endswith("02-rotations.html"):
            page.screenshot(path=str(screenshot_dir / f"icons-{width}.png"))
        context.close()


# ---- a page opened as a file ----------------------------------------------------------

@pytest.mark.book
def test_a_page_opened_as_a_file_shows_each_widgets_print_figure_and_how_to_see_it_live(built_book, chromium, book_server):
    """From file:// the browser runs no module: each widget's place shows the widget's print
    figure (its image loaded, with its alt text) and one line naming the `make serve` address
    of this very page. Over http the same figures stay hidden and are never fetched."""
    from _browser import goto

    from rope_core.widgets import REGISTRY

    built = [built_book / f"{page.docname}.html" for page in book_pages.pages(ROOT)]
    pages = [path for path in built
             if 'type="application/vnd.jupyter.widget-view+json"' in path.read_text(encoding="utf-8")]
    assert len(pages) >= 10, pages
    shown = set()
    context = chromium.new_context(viewport={"width": 1280, "height": 900})  # no routing: a file has no host
    for path in pages:
        page = context.new_page()
        page.goto(path.as_uri(), wait_until="load")
        page.wait_for_function("document.readyState === 'complete'")
        views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
        notes = page.locator(".rope-widget-file-note")
        assert views >= 1 and notes.count() == views, path.name
        for i in range(views):
            note = notes.nth(i)
            note.scroll_into_view_if_needed()
            text = note.inner_text()
            assert note.is_visible() and "make serve" in text, text
            assert f"http://127.0.0.1:8000/book/{path.name}" in text, text
            assert len([line for line in text.splitlines() if line.strip()]) == 1, text
            figure = note.locator("figure.rope-widget-print")
            assert figure.count() == 1, (path.name, i, text)
            img = figure.locator("img")
            img.evaluate("(img) => img.decode()")
            assert img.evaluate("(img) => img.complete && img.naturalWidth > 200") and img.get_attribute("alt"), path.name
            assert img.bounding_box()["width"] > 200
            shown.add(figure.get_attribute("data-widget"))
        if path.name in ("index.html", "10-extension-in-practice.html"):
            notes.first.scroll_into_view_if_needed()
            page.screenshot(path=str(ROOT / "_build" / "screenshots" / f"file-{path.stem}.png"))
        page.close()
    context.close()
    assert shown == {cls.__name__ for cls in REGISTRY}, shown
    # Over http: the loader draws the widgets, the print copies stay hidden and unfetched.
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    fetched = []
    page.on("request", lambda request: fetched.append(request.url))
    goto(page, f"{book_server}/book/gallery.html")
    figures = page.locator("figure.rope-widget-print")
    assert figures.count() == len(REGISTRY)
    assert not any(figures.nth(i).is_visible() for i in range(figures.count()))
    hidden_srcs = figures.locator("img").evaluate_all("(imgs) => imgs.map((img) => img.currentSrc || img.src)")
    assert len(hidden_srcs) == len(REGISTRY) and not set(hidden_srcs) & set(fetched), set(hidden_srcs) & set(fetched)
    context.close()


@pytest.mark.book
@pytest.mark.browser
def test_folds_open_without_motion_when_the_reader_asks_for_less(built_book, book_server, chromium):
    """With "reduce motion" set, a solution or hidden cell is fully there the moment it opens
    (no fade-in, no slide); without it, the theme's fade still plays (so the check can fail)."""
    from _browser import open_everything, open_page

    running = """() => document.getAnimations().filter((a) => a.playState === 'running'
        && a.effect && a.effect.getComputedTiming().duration > 1).length"""
    counts = {}
    for motion in ("no-preference", "reduce"):
        context, page, log = open_page(chromium)
        page.emulate_media(reduced_motion=motion)
        goto(page, f"{book_server}/book/02-rotations.html")
        assert open_everything(page, settle=False) > 0
        counts[motion] = page.evaluate(running)
        assert log.problems() == [], log.problems()
        context.close()
    assert counts["no-preference"] > 0 and counts["reduce"] == 0, counts


@pytest.mark.book
def test_article_images_load_lazily(built_book):
    """Every figure in every article is ``loading="lazy"`` (it waits until the reader scrolls
    near it) so that it does not share the slow link with first paint (gallery: FCP 5.96 ->
    4.80 s, first slider 8.51 -> 7.04 s, bench_pages at 1.6 Mbit/s)."""
    from test_book import book_pages

    eager, images = [], 0
    for name in book_pages(built_book):
        article = (built_book / name).read_text().split("<article", 1)[-1].split("</article>", 1)[0]
        for tag in re.findall(r"<img\b[^>]*>", article):
            images += 1
            if 'loading="lazy"' not in tag or 'decoding="async"' not in tag:
                eager.append(f"{name}: {tag[:100]}")
    assert images >= 10 and not eager, eager


# Every element's computed style as one hash per element (and per ::before/::after that draws),
# over the properties that decide what a reader sees (all ~350 took ~3 s per state and page).
DRAWN_PROPERTIES = [
    "display", "position", "top", "right", "bottom", "left", "z-index", "float", "box-sizing",
    "width", "height", "min-width", "max-width", "min-height", "max-height",
    *(f"{box}-{side}" for box in ("margin", "padding") for side in ("top", "right", "bottom", "left")),
    *(f"border-{side}-{what}" for side in ("top", "right", "bottom", "left") for what in ("width", "style", "color")),
    "border-top-left-radius", "border-bottom-right-radius", "outline-style", "outline-width", "outline-color",
    "box-shadow", "background-color", "background-image", "color", "opacity", "visibility",
    "overflow-x", "overflow-y", "font-family", "font-size", "font-weight", "font-style", "line-height",
    "letter-spacing", "text-align", "text-decoration-line", "text-transform", "white-space",
    "vertical-align", "content", "transform", "flex-direction", "flex-wrap", "justify-content",
    "align-items", "gap", "grid-template-columns", "list-style-type", "cursor", "mask-image",
    "-webkit-mask-image", "fill", "stroke", "filter", "pointer-events", "border-collapse",
]
# The elements compared, in page order. Formula and drawing internals are skipped: their styles
# are MathJax's and the widgets' own.
MEASURED_ELEMENTS_JS = "[document.documentElement, ...document.querySelectorAll('body *:not(mjx-container *):not(svg *)')]"
STYLE_SIGNATURE_JS = """([limit, properties]) => {
  const hash = (s) => { let x = 2166136261; for (let i = 0; i < s.length; i++) { x ^= s.charCodeAt(i); x = Math.imul(x, 16777619); } return (x >>> 0).toString(36); };
  const elements = """ + MEASURED_ELEMENTS_JS + """.slice(0, limit);
  const out = [];
  elements.forEach((e, i) => {
    for (const pseudo of [null, '::before', '::after']) {
      const s = getComputedStyle(e, pseudo);
      if (pseudo && (s.content === 'none' || s.content === 'normal')) continue;
      let text = '';
      for (const name of properties) text += s.getPropertyValue(name) + ';';
      out.push(`${i} ${e.tagName.toLowerCase()}${pseudo || ''}=${hash(text)}`);
    }
  });
  return out;
}"""
# One measured element: its opening tag and its properties, to say what differs.
STYLE_DETAIL_JS = """([i, pseudo, properties]) => {
  const e = """ + MEASURED_ELEMENTS_JS + """[i];
  const s = getComputedStyle(e, pseudo || null); const style = {};
  for (const name of properties) style[name] = s.getPropertyValue(name);
  return { tag: e.outerHTML.slice(0, e.outerHTML.indexOf('>') + 1).slice(0, 160), style };
}"""
# Transitions would make a state depend on when it is measured.
NO_TRANSITIONS = "*, *::before, *::after { transition: none !important; animation: none !important; }"


def _with_original_style_sheets(context, built_book):
    """Serve every cut style sheet as it was before ``purge_css.mjs`` (kept by the build)."""
    from site_assets import unpurged_css_dir

    originals = unpurged_css_dir(built_book)

    def serve_original(route):
        relative = route.request.url.split("?")[0].split("/_static/", 1)[1]
        original = originals / "_static" / relative
        if original.is_file():
            route.fulfill(body=original.read_bytes(), content_type="text/css")
        else:
            route.fallback()

    context.route("**/_static/**/*.css*", serve_original)


def _open_everything(page):
    """Every state a reader can open on a desktop page: hidden cells and solutions shown, the
    header's download menu open, then the search dialog."""
    page.evaluate("""() => { for (const d of document.querySelectorAll('details')) d.open = true;
                             for (const b of document.querySelectorAll('.toggle-button')) b.click(); }""")
    menu = page.locator(".bd-header-article .dropdown-toggle:visible")
    if menu.count():
        menu.first.click()
        page.locator(".bd-header-article .dropdown-menu.show").first.wait_for(state="attached", timeout=3000)
        page.mouse.move(0, 0)  # open by Bootstrap's "show", as a tap leaves it, not by hover
    page.keyboard.press("Control+k")
    # The search page's own box takes the shortcut; every other page opens the dialog.
    page.wait_for_function("""() => document.querySelector('#pst-search-dialog[open]')
                                    || document.activeElement.matches('form.bd-search input')""")


@pytest.mark.book
def test_cut_style_sheets_draw_every_element_as_the_originals(built_book, book_server, chromium):
    """The build cuts the theme's, sphinx-design's and MyST-NB's style sheets to the rules its
    pages use (``book/_ext/purge_css.mjs``); a page must look exactly as with the originals.
    Each page is loaded twice, with the cut and with the original style sheets, and driven
    through the same states: everything opened (hidden cells, solutions, header menu, search
    dialog) in light, then dark, then print; on a phone, the chapter list and the page outline
    opened. In every state every element's computed style (and its ::before/::after) must be the
    same."""
    from _browser import PHONE

    pages = ["book/02-rotations.html", "book/14-pitfalls.html", "book/appendix-api.html",
             "index.html", "search.html?q=rotation", "genindex.html"]
    limit = 4000  # elements per state (appendix-api has 14 000, all of a few kinds)
    differences = []

    def compare(where, pages_by_variant):
        # A difference must last: focus rings, results arriving and the like settle within a second.
        for _attempt in range(5):
            cut, original = (p.evaluate(STYLE_SIGNATURE_JS, [limit, DRAWN_PROPERTIES]) for p in pages_by_variant)
            assert len(cut) > 50, f"{where}: only {len(cut)} elements measured"
            if cut == original:
                return
            pages_by_variant[0].wait_for_timeout(250)
        if len(cut) != len(original):
            differences.append(f"{where}: {len(cut)} styled elements with the cut sheets, {len(original)} with the originals")
            return
        for mine in [a for a, b in zip(cut, original) if a != b][:3]:
            index, rest = mine.split(" ", 1)
            pseudo = next((p for p in ("::before", "::after") if rest.split("=")[0].endswith(p)), None)
            a, b = (p.evaluate(STYLE_DETAIL_JS, [int(index), pseudo, DRAWN_PROPERTIES]) for p in pages_by_variant)
            changed = {k: (a["style"][k], b["style"][k]) for k in DRAWN_PROPERTIES if a["style"][k] != b["style"][k]}
            differences.append(f"{where}: {a['tag']} (cut, original): {changed or 'same when asked again'}")

    def load(page, name):
        goto(page, f"{book_server}/{name}")
        page.add_style_tag(content=NO_TRANSITIONS)
        if name.startswith("search.html"):  # results appear one by one, each fetching its summary
            page.wait_for_function("(document.querySelector('#search-results .search-summary') || {}).textContent?.includes('found')")
            page.wait_for_load_state("networkidle")
        if page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count():
            page.wait_for_function("document.documentElement.dataset.ropeWidgets === 'ready'")

    contexts = []
    for variant in ("cut", "original"):
        context, page, log = open_page(chromium, "light")
        if variant == "original":
            _with_original_style_sheets(context, built_book)
        contexts.append((context, page, log))
    both = [page for _, page, _ in contexts]
    for name in pages:
        for page in both:
            page.emulate_media(media="screen", color_scheme="light")
            load(page, name)
            _open_everything(page)
        compare(f"{name} opened", both)
        for page in both:
            page.keyboard.press("Escape")
            # Focus returns to the menu button, whose ring comes and goes: measure without it.
            page.evaluate("document.activeElement && document.activeElement.blur()")
            page.mouse.move(0, 0)
            page.emulate_media(color_scheme="dark")
            page.wait_for_function("document.documentElement.dataset.theme === 'dark'")
        compare(f"{name} dark", both)
        for page in both:
            page.emulate_media(media="print", color_scheme="light")
        compare(f"{name} print", both)
    for context, _, log in contexts:
        assert log.problems() == []
        context.close()
    # A phone: the chapter list and the page outline open as the theme's modal drawers.
    phones = []
    for variant in ("cut", "original"):
        context, page, log = open_page(chromium, "dark", viewport=PHONE, touch=True)
        if variant == "original":
            _with_original_style_sheets(context, built_book)
        load(page, "book/02-rotations.html")
        phones.append((context, page, log))
    both = [page for _, page, _ in phones]
    compare("phone", both)
    for toggle, dialog in ((".primary-toggle", "#pst-primary-sidebar-modal"),
                           (".secondary-toggle", "#pst-secondary-sidebar-modal")):
        for page in both:
            page.locator(f"{toggle}:visible").first.tap()
            page.locator(f"{dialog}[open]").wait_for(timeout=3000)
        compare(f"phone {dialog} open", both)
        for page in both:
            page.keyboard.press("Escape")
            page.locator(f"{dialog}[open]").wait_for(state="detached", timeout=3000)
    for context, _, log in phones:
        assert log.problems() == []
        context.close()
    assert not differences, "\n".join(differences)
