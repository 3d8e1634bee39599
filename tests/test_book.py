"""The built book: a strict build, and every page opened in a real browser, offline."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _browser import open_page

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


def test_built_book_has_no_third_party_urls_in_scripts(built_book):
    offenders = []
    for page in book_pages(built_book):
        text = (built_book / page).read_text()
        for src in re.findall(r'<script[^>]+src="([^"]+)"', text):
            if src.startswith(("http:", "https:", "//")):
                offenders.append(f"{page}: {src}")
    assert not offenders, offenders


@pytest.mark.browser
def test_every_page_works_offline(built_book, book_server, chromium, screenshot_dir):
    pages = book_pages(built_book)
    assert len(pages) >= 2
    problems = []
    for name in pages:
        context, page, log = open_page(chromium)
        response = page.goto(f"{book_server}/{name}", wait_until="networkidle")
        if response is None or response.status != 200:
            problems.append(f"{name}: HTTP {response and response.status}")
        # Maths is typeset at build time (book/_ext/prerender_math.js): every formula is an
        # SVG with a MathML copy for screen readers, and no page loads MathJax.
        untyped = page.evaluate(
            """() => [...document.querySelectorAll('article .math')].filter(m => {
                   const c = m.querySelector('mjx-container');
                   return !c || !c.querySelector('svg') || !c.querySelector('mjx-assistive-mml math');
               }).length"""
        )
        if untyped:
            problems.append(f"{name}: {untyped} formulas not typeset (with MathML) at build time")
        if page.evaluate("() => 'MathJax' in window"):
            problems.append(f"{name}: loads MathJax")
        visible = page.evaluate(
            """() => { const a = document.querySelector('article').cloneNode(true);
                       a.querySelectorAll('pre, code, mjx-container').forEach(e => e.remove());
                       return a.innerText; }"""
        )
        if "\\frac" in visible or "\\theta" in visible or "$$" in visible:
            problems.append(f"{name}: raw LaTeX visible")
        for image in page.locator("article img").all():
            alt = (image.get_attribute("alt") or "").strip()
            if not alt or alt.startswith("<Figure") or alt.startswith("_images"):
                problems.append(f"{name}: image without real alt text ({image.get_attribute('src')})")
        page.screenshot(path=str(screenshot_dir / (name.replace("/", "__") + ".png")), full_page=True)
        for kind, entries in (
            ("request to another host", log.external_requests),
            ("page error", log.page_errors),
            ("console error", log.console_errors),
            ("failed request", log.failed_requests),
        ):
            problems.extend(f"{name}: {kind}: {entry}" for entry in entries)
        context.close()
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
