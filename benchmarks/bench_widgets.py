"""Redraw latency and page weight of the widgets on the built (static) book.

Opens the gallery of ``_build/html`` (build it first: ``make book``) in Debian's chromium,
presses the arrow keys on every slider of every widget and measures, inside the page, the
time from the key event to the end of the SVG redraw (a MutationObserver on the widget's
SVG). Prints the median and the 95th percentile per widget, and each widget's embedded
state size. Goals: median <= 4 ms, p95 <= 16 ms, state <= 200 KB.

Usage: python benchmarks/bench_widgets.py [--presses N]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import shutil
import sys
import threading
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
NAMES = ["RotationExplorer", "RelativeInvariance", "FrequencyClocks", "RotationMatrixHeatmap",
         "DecayExplorer", "ContextExtension", "LayoutExplorer"]

INSTRUMENT = """
(root) => {
  window.__latencies = window.__latencies || [];
  const svg = root.querySelector('svg');
  let start = null;
  root.querySelectorAll('input[type=range]').forEach((input) => {
    input.addEventListener('keydown', () => { start = performance.now(); }, true);
  });
  new MutationObserver(() => {
    if (start !== null) { window.__latencies.push(performance.now() - start); start = null; }
  }).observe(svg, { childList: true, subtree: true, attributes: true, characterData: true });
}
"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature fixed by the base class
        pass


def serve(directory):
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def state_sizes(page_html: str) -> list[int]:
    """Bytes of each widget model's embedded state, in page order."""
    start = page_html.index('<script type="application/vnd.jupyter.widget-state+json">')
    start = page_html.index(">", start) + 1
    state = json.loads(page_html[start:page_html.index("</script>", start)])["state"]
    sizes = [len(json.dumps(model)) for model in state.values()
             if model.get("model_module") == "anywidget"]
    return sizes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=40, help="key presses per slider")
    args = parser.parse_args(argv)
    gallery = HTML / "book" / "gallery.html"
    if not gallery.exists():
        print("no built book: run `make book` first", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    server = serve(HTML)
    url = f"http://127.0.0.1:{server.server_address[1]}/book/gallery.html"
    sizes = state_sizes(gallery.read_text())
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=shutil.which("chromium"),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = browser.new_page()
        page.route("**/*", lambda r: r.continue_() if "127.0.0.1" in r.request.url else r.abort())
        page.goto(url, wait_until="networkidle")
        page.wait_for_function("document.querySelectorAll('.rope-w input[type=range]').length >= 21")
        widgets = page.locator(".rope-w")
        print(f"{'widget':24s} {'median ms':>10s} {'p95 ms':>8s} {'state KB':>9s}  goal: median <= 4, p95 <= 16, state <= 200")
        worst = 0.0
        for index, name in enumerate(NAMES):
            root = widgets.nth(index)
            page.evaluate("() => { window.__latencies = []; }")
            root.evaluate(INSTRUMENT)
            for s in range(root.locator("input[type=range]").count()):
                control = root.locator("input[type=range]").nth(s)
                control.focus()
                for press in range(args.presses):
                    control.press("ArrowRight" if (press // 8) % 2 == 0 else "ArrowLeft")
            latencies = np.array(page.evaluate("() => window.__latencies"))
            median, p95 = np.median(latencies), np.percentile(latencies, 95)
            worst = max(worst, p95)
            size = sizes[index] / 1024 if index < len(sizes) else float("nan")
            print(f"{name:24s} {median:10.2f} {p95:8.2f} {size:9.1f}   ({latencies.size} redraws)")
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
