"""Page weight, first paint and first working slider of the built book.

Serves ``_build/html`` from 127.0.0.1 without compression (a conservative stand-in for any
host) and opens it in Debian's chromium with an empty cache:

- every page: bytes transferred (encoded sizes of all responses, fast link);
- chapter 2 and the gallery under ``Network.emulateNetworkConditions`` 1.6 Mbit/s down,
  150 ms latency: first contentful paint, and the first working slider (the first moment a
  slider exists and moving it changes its drawing), from navigation start.

- every page of the toc: layout shift while a reader scrolls it from top to bottom, at
  1280 x 900 and on a 390 x 844 phone (:func:`scroll_shift`).

Targets: every page <= 3 MB; FCP <= 1.5 s and first working slider <= 3 s on both pages;
layout shift while scrolling <= 0.1 on every page.
Also counts each page's render-blocking files (target: at most 3).
Run after ``make book``: ``.venv/bin/python benchmarks/bench_pages.py [--repeat N] [--html DIR]``.
Numbers are noisy when other work shares the CPU: repeat and report the median; the load
average is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from _browser import SLOW_4G, launch, open_page, serve  # noqa: E402

HTML = ROOT / "_build" / "html"
SLOW_PAGES = ["book/02-rotations.html", "book/gallery.html"]

# Installed before any page script: polls each frame until a slider moves its drawing.
FIRST_SLIDER = """
(() => {
  const probe = () => {
    const input = document.querySelector('.rope-w input[type=range]');
    const svg = input && input.closest('.rope-w').querySelector('svg');
    if (svg) {
      const before = svg.innerHTML;
      const old = input.value;
      input.value = Number(old) + (Number(old) < Number(input.max) ? 1 : -1);
      input.dispatchEvent(new Event('input', {bubbles: true}));
      if (svg.innerHTML !== before) { window.__firstSlider = performance.now(); return; }
      input.value = old;
    }
    requestAnimationFrame(probe);
  };
  requestAnimationFrame(probe);
})();
"""


# Layout shift while scrolling: every shift not caused by the reader's own input (a scroll is
# not one), summed, from the moment the page has loaded until it has been scrolled to its end.
SHIFT_OBSERVER = """() => {
  window.__shift = 0; window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__shift += entry.value;
      window.__shifts.push([Math.round(scrollY), entry.value,
        entry.sources.map((s) => s.node && s.node.nodeName + '.' + (s.node.className || '')).slice(0, 3)]);
    }
  }).observe({type: 'layout-shift'});
}"""


def scroll_shift(browser, url, name, viewport, touch=False, network=None, pause=250):
    """Layout shift summed while the page at ``url/name`` is scrolled from top to bottom, a
    screen at a time with ``pause`` ms between steps (``network``: as for ``open_page``, the
    slow link: images then arrive while the reader is at them); returns ``(total, shifts)``,
    ``shifts`` being ``[scrollY, value, sources]`` per shift."""
    from _browser import goto

    context, page, _ = open_page(browser, viewport=viewport, touch=touch, network=network, all_widgets=False)
    page.set_default_timeout(120_000)
    goto(page, f"{url}/{name}")
    page.wait_for_timeout(300)
    page.evaluate(SHIFT_OBSERVER)
    previous = -1
    while True:
        y = page.evaluate("() => { scrollBy(0, innerHeight * 0.8); return scrollY; }")
        page.wait_for_timeout(pause)
        if y == previous:
            break
        previous = y
    page.wait_for_timeout(300)
    total, shifts = page.evaluate("[window.__shift, window.__shifts]")
    context.close()
    return total, shifts


def toc_pages():
    """Every page of the toc, as built (``book/02-rotations.html``, ``index.html``)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import book_pages

    return [f"{page.docname}.html" for page in book_pages.pages(ROOT) if (HTML / f"{page.docname}.html").exists()]


def load_average():
    import os

    return "load average " + ", ".join(f"{value:.2f}" for value in os.getloadavg())


def pages():
    from test_book import book_pages

    return [p for p in book_pages(HTML) if p != "index.html"]


def render_blocking(html):
    """The files a page's first paint waits for: style sheets in ``<head>`` (not for print),
    the ``@import`` s inside them, and scripts in ``<head>`` with neither ``defer``, ``async``
    nor ``type="module"``."""
    head = html.split("</head>", 1)[0]
    sheets = [m for m in re.findall(r"<link\b[^>]*>", head)
              if re.search(r'rel="stylesheet"', m) and not re.search(r'media="print"', m)]
    scripts = [m for m in re.findall(r"<script\b[^>]*\bsrc=[^>]*>", head)
               if not re.search(r'\b(defer|async)\b|type="module"', m)]
    return sheets, scripts


def imports_of(page, link):
    """The ``@import`` s of the style sheet a ``<link>`` names (also render-blocking)."""
    href = re.search(r'href="([^"]*)"', link).group(1).split("?")[0]
    path = (page.parent / href).resolve()
    return re.findall(r"@import\s", path.read_text(encoding="utf-8")) if path.is_file() else []


def page_weight(browser, url, name):
    context, page, log = open_page(browser, count_bytes=True)
    page.goto(f"{url}/{name}", wait_until="networkidle")
    page.wait_for_timeout(200)
    context.close()
    return log.bytes_received


def slow_load(browser, url, name):
    context, page, log = open_page(browser, network=SLOW_4G, all_widgets=False)
    page.add_init_script(FIRST_SLIDER)
    page.goto(f"{url}/{name}", wait_until="commit", timeout=120_000)
    page.wait_for_function("window.__firstSlider !== undefined", timeout=120_000, polling=100)
    fcp = page.evaluate(
        "() => performance.getEntriesByName('first-contentful-paint')[0].startTime"
    )
    slider = page.evaluate("window.__firstSlider")
    problems = log.problems()
    context.close()
    return fcp / 1000, slider / 1000, problems


def main():
    global HTML
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="slow-link loads per page")
    parser.add_argument("--html", type=Path, default=None, help="built book (default: _build/html)")
    parser.add_argument("--no-shift", action="store_true", help="skip the layout-shift scroll of every page")
    parser.add_argument("--only-shift", action="store_true", help="only the layout-shift scroll of every page")
    args = parser.parse_args()
    HTML = (args.html or HTML).resolve()
    if not (HTML / "index.html").exists():
        sys.exit("No book: run `make book` first")
    from playwright.sync_api import sync_playwright

    print(f"{HTML} at start: {load_average()}")
    with sync_playwright() as playwright, serve(HTML) as url:
        browser = launch(playwright)
        if args.only_shift:
            report_shift(browser, url)
            browser.close()
            print(f"at end: {load_average()}")
            return
        print("render-blocking files (target <= 3 per page)")
        for name in ["index.html", *pages()]:
            page = HTML / name
            sheets, scripts = render_blocking(page.read_text(encoding="utf-8"))
            imports = sum(len(imports_of(page, link)) for link in sheets)
            print(f"  {len(sheets) + imports + len(scripts):3d}  {name} ({len(sheets)} style sheets + "
                  f"{imports} @import, {len(scripts)} scripts)")
        weights = {name: page_weight(browser, url, name) for name in pages()}
        print("page weight (bytes transferred, uncompressed, empty cache)")
        for name, size in sorted(weights.items(), key=lambda item: -item[1]):
            print(f"  {size / 1e6:6.2f} MB  {name}")
        sizes = list(weights.values())
        print(f"  max {max(sizes) / 1e6:.2f} MB, median {statistics.median(sizes) / 1e6:.2f} MB "
              f"(target: every page <= 3 MB)")
        print(f"slow link: {SLOW_4G['download_mbps']} Mbit/s down, {SLOW_4G['latency_ms']} ms, "
              f"{args.repeat} loads each (median; target FCP <= 1.5 s, slider <= 3 s)")
        for name in SLOW_PAGES:
            runs = [slow_load(browser, url, name) for _ in range(args.repeat)]
            for *_, problems in runs:
                if problems:
                    print("  problems:", problems)
            fcp = statistics.median(r[0] for r in runs)
            slider = statistics.median(r[1] for r in runs)
            print(f"  {name}: first contentful paint {fcp:.2f} s, first working slider {slider:.2f} s "
                  f"(runs: {', '.join(f'{r[0]:.2f}/{r[1]:.2f}' for r in runs)})")
        if not args.no_shift:
            report_shift(browser, url)
        browser.close()
    print(f"at end: {load_average()}")


def report_shift(browser, url):
    from _browser import DESKTOP, PHONE

    print("layout shift while scrolling top to bottom (target <= 0.1 on every page)")
    for name in toc_pages():
        desktop, _ = scroll_shift(browser, url, name, DESKTOP)
        phone, shifts = scroll_shift(browser, url, name, PHONE, touch=True)
        print(f"  1280: {desktop:.3f}  390: {phone:.3f}  {name}")
        for y, value, sources in shifts if phone > 0.1 else []:
            print(f"      at {y} px: {value:.3f} {sources}")


if __name__ == "__main__":
    main()
