"""The built book: a strict build, and every page opened in a real browser, offline."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _browser import DESKTOP, PHONE, after_frames, axe_serious, open_everything, open_page

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parents[1]
SKIPPED_PAGES = {"genindex.html", "search.html", "py-modindex.html"}


def book_pages(html: Path) -> list[str]:
    pages = []
    for path in sorted(html.rglob("*.html")):
        relative = path.relative_to(html)
        if relative.parts[0].startswith(("_", ".")) or relative.name in SKIPPED_PAGES:
            continue
        pages.append(relative.as_posix())
    return pages


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

# What a reader sees, once every fold is open: formulas not typeset at build time (SVG with
# a MathML copy for screen readers), raw TeX, images without real alt text, and how far the
# page is wider than the window.
READ_PAGE_JS = """() => {
  const article = document.querySelector('article');
  const untyped = [...article.querySelectorAll('.math')].filter((m) => {
    const c = m.querySelector('mjx-container');
    return !c || !c.querySelector('svg') || !c.querySelector('mjx-assistive-mml math');
  }).length;
  const copy = article.cloneNode(true);
  copy.querySelectorAll('pre, code, mjx-container, script, style').forEach((e) => e.remove());
  const images = [...article.querySelectorAll('img')].map((i) => [(i.getAttribute('alt') || '').trim(),
                                                                  i.getAttribute('src')]);
  return {untyped, text: copy.innerText, images, mathjax: 'MathJax' in window,
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


@pytest.mark.browser
@pytest.mark.parametrize("device", DEVICES)
def test_every_page_in_every_state(device, built_book, book_server, chromium, screenshot_dir):
    """Every page, visited once per device (a 1280 px desktop in light mode, a 390 px touch
    phone in dark mode), with the checks that concern the whole page:

    - offline: HTTP 200, no request to another host, no page or console error, no failed
      request (the published book needs nothing from outside);
    - axe-core (package.json's version): no serious or critical violation as the page loads
      (on the phone: the rules that depend on colours and width) and again with every fold
      open: hidden code cells, dropdowns, solutions;
    - with every fold open, what a reader sees: every formula typeset at build time with a
      MathML copy, no MathJax, no raw TeX, real alt text, nothing wider than the window;
    - on the phone, every widget control at least 44 px tall and every widget's drawing text
      at least 11 px on screen.
    A screenshot of each page's top, folds open, goes to the screenshot folder.
    """
    viewport, touch, scheme = DEVICES[device]
    pages = book_pages(built_book)
    assert len(pages) >= 2
    problems, widget_pages = [], 0
    context, page, log = open_page(chromium, scheme, viewport=viewport, touch=touch)
    for name in pages:
        response = page.goto(f"{book_server}/{name}", wait_until="networkidle")
        if response is None or response.status != 200:
            problems.append(f"{name}: HTTP {response and response.status}")
        widgets = 'type="application/vnd.jupyter.widget-view+json"' in (built_book / name).read_text()
        if widgets:
            page.wait_for_function("document.documentElement.dataset.ropeWidgets === 'ready'")
        after_frames(page)  # rope-site.js marks scrolling boxes once the page is parsed
        rules = None if device == "desktop-light" else ["color-contrast", "scrollable-region-focusable",
                                                           "link-in-text-block"]
        problems += [f"{name}, as loaded: {v}" for v in axe_serious(page, rules)]
        open_everything(page)
        after_frames(page)
        problems += [f"{name}, folds open: {v}" for v in axe_serious(page)]
        seen = page.evaluate(READ_PAGE_JS)
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
        if widgets and touch:
            widget_pages += 1
            sizes = page.evaluate(WIDGET_SIZES_JS)
            if not sizes["controls"] or not all(widget for widget, _ in sizes["texts"]):
                problems.append(f"{name}: widgets without controls or drawing: {sizes}")
            problems += [f"{name}: {what} {height:.0f} px tall" for what, height in sizes["controls"]
                         if height < 44 - 0.5]
            problems += [f"{name}: {widget} text {size:.1f} px" for widget, size in sizes["texts"] if size < 11 - 1e-6]
        page.screenshot(path=str(screenshot_dir / f"{device}-{name.replace('/', '__')}.png"))
        problems += [f"{name}: {problem}" for problem in log.problems()]
        log.clear()
    context.close()
    assert widget_pages >= 2 or not touch
    assert not problems, "\n".join(problems)


@pytest.mark.browser
def test_search_and_downloads_work(built_book, book_server, browser_page):
    page, log = browser_page
    page.goto(f"{book_server}/search.html?q=rotation", wait_until="networkidle")
    page.wait_for_selector("#search-results li", timeout=15000)
    assert page.locator("#search-results li").count() > 0
    # Each notebook page offers its MyST source and the executed .ipynb for download.
    source = page.request.get(f"{book_server}/_sources/book/index.md")
    assert source.status == 200 and "jupytext" in source.text()
    notebook = page.request.get(f"{book_server}/_sources/book/index.ipynb")
    assert notebook.status == 200
    cells = notebook.json()["cells"]
    assert any(cell.get("outputs") for cell in cells if cell["cell_type"] == "code")
    page.goto(f"{book_server}/book/index.html", wait_until="networkidle")
    assert page.locator('a[href$="_sources/book/index.ipynb"]').count() == 1
    assert not log.external_requests
