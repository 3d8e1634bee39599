"""The built book: a strict build, and every page opened in a real browser, offline."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from _browser import DESKTOP, PHONE, after_frames, axe_serious, goto, open_everything, open_page

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages as toc  # noqa: E402  (the pages and chapters, in the toc's order)

SKIPPED_PAGES = {"genindex.html", "search.html", "py-modindex.html"}


def is_moved_page(path: Path) -> bool:
    """Whether ``path`` is the small page an old address sends on (book/_ext/old_urls.py)."""
    return 'http-equiv="refresh"' in path.read_text(encoding="utf-8")[:600]


def book_pages(html: Path) -> list[str]:
    pages = []
    for path in sorted(html.rglob("*.html")):
        relative = path.relative_to(html)
        if relative.parts[0].startswith(("_", ".")) or relative.name in SKIPPED_PAGES:
            continue
        if is_moved_page(path):
            continue
        pages.append(relative.as_posix())
    return pages


def test_old_chapter_addresses_send_the_reader_on(built_book):
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["config"]
    moved = config["rope_old_urls"]
    assert moved, "no old addresses listed"
    for old, new in moved.items():
        page = built_book / f"{old}.html"
        assert page.is_file() and is_moved_page(page), f"{old}.html does not send the reader on"
        target = re.search(r'url=([^"]+)"', page.read_text()).group(1)
        assert (page.parent / target).resolve() == (built_book / f"{new}.html").resolve(), (old, target)
        assert not is_moved_page(built_book / f"{new}.html")


def test_book_builds_strictly(book_build_result):
    output = book_build_result.stdout + book_build_result.stderr
    # The build runs with --quiet (no "build succeeded" line): -W turns any warning into a
    # non-zero exit, so the exit code and the absence of warning lines are the verdict.
    assert book_build_result.returncode == 0, output[-8000:]
    assert not re.search(r": (WARNING|ERROR):", output), output[-8000:]


# Each device a reader brings: window, touch, colour scheme.
DEVICES = {"desktop-light": (DESKTOP, False, "light"), "phone-dark": (PHONE, True, "dark")}
# TeX that reached the reader as text: a command (\\frac, \\mathbf) or a $ opening maths.
RAW_TEX = re.compile(r"\\[A-Za-z]{2,}|\$\$|\$\\")
# What a page may weigh with an empty cache (the tests' routing turns the HTTP cache off),
# served without compression, and what it must never load: the theme's icon font and
# fontawesome.js (icons are CSS drawings) and MathJax (maths is typeset at build time).
MAX_PAGE_BYTES = 3e6
UNWANTED = re.compile(r"fontawesome|/webfonts/fa-|mathjax", re.I)
# The elements whose state open_everything() changes: a fold's summary or button. Everything
# else a loaded page shows is shown, unchanged, with every fold open, where the whole page is
# checked; so the page as loaded needs its fold controls checked only.
FOLD_CONTROLS = ["details > summary", "button.toggle-button"]
# What axe's colour-contrast rule reads of the fold controls: for each visible text, the colour,
# size, weight and shadow of its element, with the colours, images, opacity and filters of that
# element and every ancestor (its backdrop), but not the words. The same as loaded and with
# every fold open, the contrast as loaded is the one the open page's full run checks (that rule
# alone costs as much as all the others together on a loaded page); otherwise it runs as loaded.
FOLD_PAINT_JS = """(selectors) => {
  const paint = (e) => { const s = getComputedStyle(e);
    return [s.color, s.webkitTextFillColor, s.fontSize, s.fontWeight, s.textShadow, s.opacity, s.filter,
            s.mixBlendMode, s.backgroundColor, s.backgroundImage, s.visibility].join('|'); };
  return [...document.querySelectorAll(selectors.join(','))].map((control) => {
    const seen = new Set();
    const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!t.textContent.trim() || !t.parentElement.getClientRects().length) continue;
      const chain = [];
      for (let e = t.parentElement; e; e = e.parentElement) chain.push(paint(e));
      seen.add(chain.join(' < '));
    }
    return [...seen].sort().join(' ; ');
  });
}"""

# What a reader sees, once every fold is open: formulas not typeset at build time (SVG with
# a MathML copy for screen readers), raw TeX, images without real alt text, how far the
# page is wider than the window, and punctuation cut off from the inline formula it touches
# (a line that starts with ", why" or ends with "(").
READ_PAGE_JS = r"""() => {
  const article = document.querySelector('article');
  const untyped = [...article.querySelectorAll('.math')].filter((m) => {
    const c = m.querySelector('mjx-container');
    return !c || !c.querySelector('svg') || !c.querySelector('mjx-assistive-mml math');
  }).length;
  const stranded = [];
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  for (const m of article.querySelectorAll('span.math')) {
    const box = m.getBoundingClientRect();
    if (!box.width) continue;
    const onLine = (node, at) => {
      const range = document.createRange(); range.setStart(node, at); range.setEnd(node, at + 1);
      const r = range.getBoundingClientRect();
      return !r.height || (r.top < box.bottom && r.bottom > box.top);
    };
    let last = m;
    while (last.lastChild) last = last.lastChild;
    walker.currentNode = last;
    const next = walker.nextNode();
    if (next && /^[,.;:!?)\]”’]/.test(next.data) && !onLine(next, 0)) stranded.push('(formula)' + next.data.slice(0, 30));
    walker.currentNode = m;
    const previous = walker.previousNode();
    if (previous && /[(\[“‘]$/.test(previous.data) && !onLine(previous, previous.data.length - 1))
      stranded.push(previous.data.slice(-30) + '(formula)');
  }
  const copy = article.cloneNode(true);
  copy.querySelectorAll('pre, code, mjx-container, script, style').forEach((e) => e.remove());
  const images = [...article.querySelectorAll('img')].map((i) => [(i.getAttribute('alt') || '').trim(),
                                                                  i.getAttribute('src')]);
  return {untyped, stranded, text: copy.innerText, images, mathjax: 'MathJax' in window,
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""

# On a phone: each widget control's height, and each widget's smallest drawing text on screen.
WIDGET_SIZES_JS = """() => ({
  controls: [...document.querySelectorAll('.rope-w input[type=range], .rope-w select, .rope-w button')]
    .filter((e) => e.getClientRects().length > 0)
    .map((e) => [e.tagName + ' ' + (e.getAttribute('aria-label') || e.name || ''), e.getBoundingClientRect().height]),
  texts: [...document.querySelectorAll('.rope-widget-view')].map((view) => [
    view.dataset.widget, Math.min(99, ...[...view.querySelectorAll('svg text, svg tspan')]
      .filter((t) => t.textContent.trim() && t.textContent !== '\u200b' && t.getClientRects().length)
      .map((t) => { const svg = t.ownerSVGElement;
                    return parseFloat(getComputedStyle(t).fontSize)
                           * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; }))]),
})"""

# Each display formula on the page, with every fold open: how much wider it is than its box.
FORMULA_OVERFLOW_JS = """() => [...document.querySelectorAll('article div.math')]
  .filter((m) => m.getClientRects().length > 0)
  .map((m) => { const c = m.querySelector('mjx-container');
                return [m.id || (m.closest('[id]') || {}).id || '?', c.scrollWidth - c.clientWidth]; })"""

# How far down (px at 1280) a chapter's first figure or widget is, as the page loads.
FIRST_PICTURE_PX = 2500   # about three screens of a 1280 x 900 window
# Chapters whose first picture is still further down (px at 1280 when this list was made);
# take a chapter out once it has a picture near its top.
FIRST_PICTURE_LATE = {"03-complex-form": 2587, "05-d-dimensions": 2849,
                      "10-extension-in-practice": 11015, "12-models-today": 5804, "13-serving": 12845,
                      "14-pitfalls": 4166, "11-train-a-tiny-model": 4217}
FIRST_PICTURE_JS = """() => {
  const shown = [...document.querySelectorAll('article figure, article .rope-widget-view')]
    .filter((e) => e.getClientRects().length > 0);
  return shown.length ? Math.round(shown[0].getBoundingClientRect().top + window.scrollY) : null;
}"""

# Characters per full line of long paragraphs of plain text (no maths, code or markup): the
# text's characters per pixel of rendered line, times the paragraph's width; at most 75.
MEASURE_JS = """() => [...document.querySelectorAll('article p')]
  .filter((p) => p.children.length === 0 && p.innerText.length > 200)
  .map((p) => {
    const range = document.createRange(); range.selectNodeContents(p);
    const drawn = [...range.getClientRects()].reduce((sum, r) => sum + r.width, 0);
    return p.innerText.length / drawn * p.clientWidth;
  })"""
MEASURED_PAGES = {f"book/{name}.html" for name in (
    "index", "rope-in-15-minutes", "01-why-positions", "02-rotations", "06-relative-position",
    "09-longer-contexts", "13-serving")}

# Under print media on an A4-wide window: code lines that reach past their box, navigation
# that shows, captions that keep their source line breaks, widgets without their note.
PRINT_JS = """() => {
  const out = [];
  for (const pre of document.querySelectorAll('article pre')) {
    const box = pre.getBoundingClientRect();
    if (box.width === 0) continue;
    if (pre.scrollWidth > pre.clientWidth + 1) out.push('scrolls: ' + pre.textContent.slice(0, 50));
    for (const e of pre.querySelectorAll('*')) {
      for (const r of e.getClientRects()) {
        if (r.right > box.right + 1) { out.push('clipped: ' + e.textContent.slice(0, 50)); break; }
      }
    }
  }
  const shown = s => [...document.querySelectorAll(s)].filter(e => e.getClientRects().length > 0);
  for (const s of ['.bd-sidebar-primary', '.bd-sidebar-secondary', '.bd-header', '.copybtn',
                   '.prev-next-area', '.bd-header-article'])
    if (shown(s).length) out.push('shown in print: ' + s);
  for (const c of document.querySelectorAll('article figcaption, article figcaption *'))
    if (getComputedStyle(c).whiteSpace.startsWith('pre')) { out.push('caption keeps its source line breaks: ' + c.textContent.slice(0, 50)); break; }
  for (const v of document.querySelectorAll('.rope-widget-view'))
    if (!getComputedStyle(v, '::before').content.includes('Interactive figure')) out.push('widget without note');
  if (document.documentElement.scrollWidth > window.innerWidth) out.push('page wider than paper');
  return out;
}"""
PAPER = {"width": 700, "height": 1000}


def read_open_page(name, seen) -> list[str]:
    """Problems in what READ_PAGE_JS saw on page ``name`` with every fold open."""
    problems = []
    if seen["untyped"]:
        problems.append(f"{name}: {seen['untyped']} formulas not typeset (with MathML) at build time")
    if seen["mathjax"]:
        problems.append(f"{name}: loads MathJax")
    problems += [f"{name}: raw TeX visible: ...{seen['text'][max(0, m.start() - 40):m.end() + 40]!r}..."
                 for m in RAW_TEX.finditer(seen["text"])]
    problems += [f"{name}: image without real alt text ({src})" for alt, src in seen["images"]
                 if not alt or alt.startswith(("<Figure", "_images"))]
    if seen["overflow"] > 0:
        problems.append(f"{name}: {seen['overflow']} px wider than the window")
    problems += [f"{name}: punctuation on another line than its formula: {text!r}" for text in seen["stranded"]]
    return problems


def phone_widget_sizes(name, sizes) -> list[str]:
    """Problems in what WIDGET_SIZES_JS saw: controls under 44 px, drawing text under 11 px."""
    problems = []
    if not sizes["controls"] or not all(widget for widget, _ in sizes["texts"]):
        problems.append(f"{name}: widgets without controls or drawing: {sizes}")
    problems += [f"{name}: {what} {height:.0f} px tall" for what, height in sizes["controls"]
                 if height < 44 - 0.5]
    problems += [f"{name}: {widget} text {size:.1f} px" for widget, size in sizes["texts"] if size < 11 - 1e-6]
    return problems


@pytest.mark.browser
@pytest.mark.parametrize("device", DEVICES)
def test_every_page_in_every_state(device, built_book, book_server, chromium, screenshot_dir):
    """Every page, visited once per device (a 1280 px desktop in light mode, a 390 px touch
    phone in dark mode), with every check that concerns a whole page:

    - offline: HTTP 200, no request to another host, no page or console error, no failed
      request (the published book needs nothing from outside);
    - weight as loaded: at most 3 MB with an empty cache, and no icon font, fontawesome.js
      or MathJax;
    - axe-core (package.json's version): no serious or critical violation on the page with
      every fold open (hidden code cells, dropdowns, solutions), nor on the fold controls as
      the page loads (see FOLD_CONTROLS; their colour contrast is checked as loaded where
      their colours differ from the open page's, see FOLD_PAINT_JS);
    - with every fold open, what a reader sees: every formula typeset at build time with a
      MathML copy, no MathJax, no raw TeX, real alt text, nothing wider than the window, no
      punctuation on another line than the inline formula it touches;
    - on the desktop: each chapter's first figure or widget within its first screens, as
      loaded; a comfortable measure for long paragraphs of the pages read most; and, printed
      on an A4-wide window with every fold open, no code line past its box, no navigation,
      captions that flow, a note on every widget;
    - on the phone: no display formula wider than the text column, every widget control at
      least 44 px tall and every widget's drawing text at least 11 px on screen.
    A screenshot of each page's top, folds open, goes to the screenshot folder.
    """
    viewport, touch, scheme = DEVICES[device]
    desktop = device == "desktop-light"
    pages = book_pages(built_book)
    chapters = {path.relative_to(ROOT).with_suffix(".html").as_posix() for path in toc.chapters(ROOT)}
    assert len(pages) >= 22 and len(chapters) >= 15 and MEASURED_PAGES <= set(pages)
    problems, widget_pages, formulas, first_picture, per_line, weight = [], 0, 0, {}, [], {}
    context, page, log = open_page(chromium, scheme, viewport=viewport, touch=touch, count_bytes=True)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    contrast_as_loaded = []  # the pages whose fold controls change colours when opened

    def load(name) -> bool:
        """Open page ``name`` and wait until it is drawn; returns whether it has widgets."""
        response = goto(page, f"{book_server}/{name}")
        if response is None or response.status != 200:
            problems.append(f"{name}: HTTP {response and response.status}")
        after_frames(page)  # rope-site.js marks scrolling boxes once the page is parsed
        return 'type="application/vnd.jupyter.widget-view+json"' in (built_book / name).read_text()

    for name in pages:
        log.bytes_received, requested[:] = 0, []
        widgets = load(name)
        weight[name] = log.bytes_received
        if log.bytes_received > MAX_PAGE_BYTES:
            problems.append(f"{name}: {log.bytes_received / 1e6:.2f} MB as loaded")
        problems += [f"{name}: loads {url}" for url in requested if UNWANTED.search(url)]
        if desktop and name in chapters:
            first_picture[name] = page.evaluate(FIRST_PICTURE_JS)
        if desktop and name in MEASURED_PAGES:
            per_line += page.evaluate(MEASURE_JS)
        problems += [f"{name}, as loaded: {v}"
                     for v in axe_serious(page, include=FOLD_CONTROLS, disable=["color-contrast"])]
        paint_as_loaded = page.evaluate(FOLD_PAINT_JS, FOLD_CONTROLS)
        open_everything(page)
        after_frames(page)
        problems += [f"{name}, folds open: {v}" for v in axe_serious(page)]
        if page.evaluate(FOLD_PAINT_JS, FOLD_CONTROLS) != paint_as_loaded:
            contrast_as_loaded.append(name)
            load(name)
            problems += [f"{name}, as loaded: {v}"
                         for v in axe_serious(page, ["color-contrast"], include=FOLD_CONTROLS)]
            open_everything(page)
            after_frames(page)
        problems += read_open_page(name, page.evaluate(READ_PAGE_JS))
        if touch:
            seen = page.evaluate(FORMULA_OVERFLOW_JS)
            formulas += len(seen)
            problems += [f"{name}: formula {label} {extra} px wider than the column" for label, extra in seen
                         if extra > 1]
        if widgets and touch:
            widget_pages += 1
            problems += phone_widget_sizes(name, page.evaluate(WIDGET_SIZES_JS))
        page.screenshot(path=str(screenshot_dir / f"{device}-{name.replace('/', '__')}.png"))
        if desktop:
            page.set_viewport_size(PAPER)
            page.emulate_media(media="print")
            problems += [f"{name}, printed: {p}" for p in page.evaluate(PRINT_JS)]
        problems += [f"{name}: {problem}" for problem in log.problems()]
        log.clear()
        if desktop:  # back to the screen on an empty page: no second layout of this long one
            page.goto("about:blank")
            page.emulate_media(media="screen")
            page.set_viewport_size(viewport)
    context.close()
    heaviest = max(weight, key=weight.get)
    print(f"{device}: heaviest page {heaviest}, {weight[heaviest] / 1e6:.2f} MB as loaded; "
          f"fold controls recoloured by opening (contrast checked as loaded): {contrast_as_loaded or 'none'}")
    if touch:
        assert widget_pages >= 2 and formulas >= 95, (widget_pages, formulas)
    else:
        print("first picture (px from the top at 1280 px):", first_picture)
        problems += [f"{name}: first picture {top} px down" for name, top in first_picture.items()
                     if Path(name).stem not in FIRST_PICTURE_LATE and (top or 1e9) > FIRST_PICTURE_PX]
        assert per_line, "no long paragraph measured"
        if max(per_line) > 75:
            problems.append(f"{max(per_line):.0f} characters per line (at most 75)")
    assert not problems, "\n".join(problems)


@pytest.mark.browser
@pytest.mark.parametrize("style, changes", [
    ("", False),
    ("details[open] > summary { color: #767676 }", True),
    ("details[open] { background: #000 }", True),
    (".expanded { font-size: 11px }", True),
    (".toggle-button.open { opacity: .6 }", True),
])
def test_fold_paint_changes_exactly_when_opening_recolours_a_fold_control(browser_page, style, changes):
    """FOLD_PAINT_JS, on a fold like MyST-NB's (a summary that shows one of two texts) and a
    toggle button: the same as loaded and opened unless opening changes a colour, size or
    backdrop of the text the control shows."""
    page, _ = browser_page
    page.set_content(f"""<style>body {{ color: #222; background: #fff }} .expanded {{ display: none }}
      details[open] .collapsed {{ display: none }} details[open] .expanded {{ display: inline }} {style}</style>
      <details><summary><span class="collapsed">Show code cell source</span><span class="expanded">Hide code cell source</span></summary>
      <pre>x = 1</pre></details><div><button class="toggle-button" onclick="this.classList.add('open')">Show</button></div>""")
    as_loaded = page.evaluate(FOLD_PAINT_JS, FOLD_CONTROLS)
    assert len(as_loaded) == 2 and all(as_loaded), as_loaded
    page.evaluate("() => { document.querySelector('details').open = true; document.querySelector('button').click(); }")
    assert (page.evaluate(FOLD_PAINT_JS, FOLD_CONTROLS) != as_loaded) is changes


@pytest.mark.browser
def test_search_and_downloads_work(built_book, book_server, browser_page):
    page, log = browser_page
    goto(page, f"{book_server}/search.html?q=rotation")
    page.wait_for_selector("#search-results li", timeout=15000)
    assert page.locator("#search-results li").count() > 0
    # Each notebook page offers its MyST source and the executed .ipynb for download.
    source = page.request.get(f"{book_server}/_sources/book/index.md")
    assert source.status == 200 and "jupytext" in source.text()
    notebook = page.request.get(f"{book_server}/_sources/book/index.ipynb")
    assert notebook.status == 200
    cells = notebook.json()["cells"]
    assert any(cell.get("outputs") for cell in cells if cell["cell_type"] == "code")
    goto(page, f"{book_server}/book/index.html")
    assert page.locator('a[href$="_sources/book/index.ipynb"]').count() == 1
    assert not log.external_requests
