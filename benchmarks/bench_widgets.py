"""Redraw latency and page weight of the widgets on the built (static) book.

Opens the gallery of ``_build/html`` (build it first: ``make book``) in Debian's chromium,
presses the arrow keys on every slider of every widget and measures, inside the page, the
time from the key event to the end of the SVG redraw (a MutationObserver on the widget's
SVG, which first forces a style and layout pass so that work is counted too). Prints the
median and the 95th percentile per widget, and each widget's embedded state size.
Goals: median <= 4 ms, p95 <= 16 ms, state <= 200 KB; with ``--check`` the exit status is 1
if any widget misses one (timings depend on the machine and its load: run it on a quiet one).

Usage: python benchmarks/bench_widgets.py [--presses N] [--html DIR] [--check]
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
sys.path.insert(0, str(ROOT))
from rope_core.widgets import REGISTRY  # noqa: E402  (the one widget list, gallery order)

NAMES = [cls.__name__ for cls in REGISTRY]

INSTRUMENT = """
(root) => {
  window.__latencies = window.__latencies || [];
  const svg = root.querySelector('svg');
  let start = null;
  root.querySelectorAll('input[type=range]').forEach((input) => {
    input.addEventListener('keydown', () => { start = performance.now(); }, true);
  });
  new MutationObserver(() => {
    if (start === null) return;
    const script = performance.now() - start;
    root.getBoundingClientRect();  // force style and layout of the new drawing
    window.__latencies.push([script, performance.now() - start]);
    start = null;
  }).observe(svg, { childList: true, subtree: true, attributes: true, characterData: true });
}
"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # signature fixed by the base class
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
    parser.add_argument("--html", type=Path, default=HTML, help="built book (default: _build/html)")
    parser.add_argument("--check", action="store_true", help="exit with status 1 if a goal is missed")
    args = parser.parse_args(argv)
    gallery = args.html / "book" / "gallery.html"
    if not gallery.exists():
        print(f"no built book at {args.html}: run `make book` first", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    server = serve(args.html)
    url = f"http://127.0.0.1:{server.server_address[1]}/book/gallery.html"
    sizes = state_sizes(gallery.read_text())
    if len(sizes) != len(NAMES):
        print(f"expected {len(NAMES)} widget states in the gallery, found {len(sizes)}", file=sys.stderr)
        return 2
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
        print("Key press to redrawn SVG, in ms: 'script' stops when the SVG has changed, 'total' also")
        print("includes the style and layout pass. Goals (on total): median <= 4, p95 <= 16, state <= 200 KB.")
        print(f"{'widget':24s} {'script median':>13s} {'p95':>6s} {'total median':>13s} {'p95':>6s} {'state KB':>9s}")
        missed = []
        for index, name in enumerate(NAMES):
            root = widgets.nth(index)
            page.evaluate("() => { window.__latencies = []; }")
            root.evaluate(INSTRUMENT)
            for s in range(root.locator("input[type=range]").count()):
                control = root.locator("input[type=range]").nth(s)
                control.focus()
                for press in range(args.presses):
                    control.press("ArrowRight" if (press // 8) % 2 == 0 else "ArrowLeft")
            latencies = np.array(page.evaluate("() => window.__latencies")).reshape(-1, 2)
            script_median, median = np.median(latencies, axis=0)
            script_p95, p95 = np.percentile(latencies, 95, axis=0)
            size = sizes[index] / 1024
            print(f"{name:24s} {script_median:13.2f} {script_p95:6.2f} {median:13.2f} {p95:6.2f} {size:9.1f}"
                  f"   ({len(latencies)} redraws)")
            if median > 4 or p95 > 16 or size > 200:
                missed.append(name)
        browser.close()
    server.shutdown()
    print("goal missed by: " + ", ".join(missed) if missed else "all goals met")
    if missed and args.check:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
