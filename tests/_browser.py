"""Browser helpers shared by the tests and the page benchmark.

Debian's ``chromium`` driven by Playwright (never a downloaded browser). Every request to
a host other than 127.0.0.1 is aborted and recorded, so a caller can assert that the
published book needs nothing from outside. ``open_page`` sets the reader's device: window
size, touch, colour scheme and, through the DevTools protocol, a slow network link.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


# WCAG 2 contrast inside the page: rgb(css colour) -> [r, g, b] (rgb() or color(srgb ...)),
# lum(rgb) relative luminance, ratio(a, b) contrast ratio. Prepend to an evaluated function body.
CONTRAST_JS = """
  const rgb = (c) => { const m = c.match(/[\\d.]+/g).map(Number); return c.startsWith("color(") ? m.slice(0, 3).map((v) => v * 255) : m.slice(0, 3); };
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
"""
# The slow link: 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip.
SLOW_4G = {"download_mbps": 1.6, "upload_mbps": 0.75, "latency_ms": 150}


class PageLog:
    """What a page did that a test may want to assert on."""

    def __init__(self):
        self.external_requests: list[str] = []
        self.failed_requests: list[str] = []
        self.page_errors: list[str] = []
        self.console_errors: list[str] = []
        self.bytes_received = 0  # encoded bytes of every response (needs a CDP session)

    def clear(self) -> None:
        """Forget what was logged (before the next page of a visit)."""
        for entries in (self.external_requests, self.failed_requests, self.page_errors, self.console_errors):
            entries.clear()

    def problems(self) -> list[str]:
        """Each outside request, page error, console error and failed request, as text."""
        return (
            [f"request to another host: {u}" for u in self.external_requests]
            + [f"page error: {e}" for e in self.page_errors]
            + [f"console error: {e}" for e in self.console_errors]
            + [f"failed request: {r}" for r in self.failed_requests]
        )


def launch(playwright):
    """Launch Debian's chromium (fails with a clear message when it is not installed)."""
    executable = shutil.which("chromium")
    if executable is None:
        raise RuntimeError("Debian's chromium is not installed: run the tests through `make test`")
    return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)


def open_page(chromium, color_scheme="light", *, viewport=DESKTOP, touch=False, network=None,
              count_bytes=False, all_widgets=True):
    """A new context and page; returns ``(context, page, log)``; close the context after.

    ``viewport`` is a ``{"width", "height"}`` dict (``DESKTOP``, ``PHONE``); ``touch`` makes
    a phone (touch events, mobile viewport); ``network`` is a dict like ``SLOW_4G`` applied
    with ``Network.emulateNetworkConditions``; ``count_bytes`` sums every response's
    encoded size into ``log.bytes_received``; ``all_widgets`` has the widget loader draw every
    widget of a page at once (``False``: as a reader gets them, each as it nears the window).
    """
    context = chromium.new_context(
        viewport=viewport, color_scheme=color_scheme, has_touch=touch, is_mobile=touch,
        device_scale_factor=1,
    )
    log = PageLog()

    def route(route_):
        host = urlparse(route_.request.url).hostname
        if route_.request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            route_.continue_()
        else:
            log.external_requests.append(route_.request.url)
            route_.abort()

    context.route("**/*", route)
    if all_widgets:
        context.add_init_script("window.ROPE_WIDGETS_LOAD_ALL = true")
    page = context.new_page()
    page.on("pageerror", lambda error: log.page_errors.append(str(error)))
    page.on(
        "console",
        lambda message: log.console_errors.append(message.text) if message.type == "error" else None,
    )
    page.on(
        "response",
        lambda response: log.failed_requests.append(f"{response.status} {response.url}")
        if response.status >= 400
        else None,
    )
    if network is not None or count_bytes:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        if network is not None:
            cdp.send("Network.emulateNetworkConditions", {
                "offline": False,
                "latency": network["latency_ms"],
                "downloadThroughput": network["download_mbps"] * 1e6 / 8,
                "uploadThroughput": network["upload_mbps"] * 1e6 / 8,
            })
            # Playwright's request interception can bypass the throttle: no route here;
            # outside requests are still recorded (and fail: the tests run offline).
            context.unroute("**/*")
            page.on("request", lambda request: log.external_requests.append(request.url)
                    if urlparse(request.url).hostname not in (None, "127.0.0.1")
                    and not request.url.startswith(("data:", "blob:")) else None)
        if count_bytes:
            def finished(event):
                log.bytes_received += int(event.get("encodedDataLength", 0))
            cdp.on("Network.loadingFinished", finished)
    return context, page, log


def after_frames(page, count: int = 2) -> None:
    """Return once the page has drawn ``count`` more animation frames.

    What a page does in its next frames (a widget scaling its text, a script marking its
    scroll boxes) is done then, however slow the machine; a fixed wait is not enough under load."""
    page.evaluate("""(count) => new Promise((done) => {
        const next = (left) => left ? requestAnimationFrame(() => next(left - 1)) : done();
        next(count); })""", count)


def after_scrolling(page, still_frames: int = 5) -> None:
    """Return once the window has not scrolled for ``still_frames`` animation frames in a row.

    The theme makes the document scroll smoothly, so a script's ``scrollBy`` or a followed link
    takes several frames to arrive; how many depends on the machine's load."""
    page.evaluate("""(still) => new Promise((done) => {
        let last = window.scrollY, quiet = 0;
        const look = () => {
            quiet = window.scrollY === last ? quiet + 1 : 0;
            last = window.scrollY;
            if (quiet >= still) done(); else requestAnimationFrame(look);
        };
        requestAnimationFrame(look); })""", still_frames)


def axe_serious(page, rules=None, *, include=None, disable=()) -> list[str]:
    """Run axe-core (from node_modules) on the open page: serious and critical violations.

    ``preload: false``: axe would re-fetch every stylesheet for its CSSOM (only the
    orientation-lock rule uses it) and resolves the theme's ``@import "basic.css"`` against
    the site root, a 404 that is axe's, not the page's. ``rules``: only these axe rule ids.
    ``include``: CSS selectors; only the elements they match (and their content) are checked,
    with the whole page still read for context (an empty match checks nothing). ``disable``:
    axe rule ids not to run.
    """
    if not page.evaluate("'axe' in window"):
        page.add_script_tag(content=AXE_JS.read_text())
    result = page.evaluate(
        """async ([rules, include, disable]) => {
             const options = {resultTypes: ['violations'], preload: false};
             if (rules) options.runOnly = {type: 'rule', values: rules};
             if (disable.length) options.rules = Object.fromEntries(disable.map((id) => [id, {enabled: false}]));
             let context = document;
             if (include) {
               const present = include.filter((s) => document.querySelector(s));
               if (!present.length) return [];
               context = {include: present.map((s) => [s])};
             }
             const r = await axe.run(context, options);
             return r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
               .map(v => `${v.impact} ${v.id} (${v.nodes.length}): ${v.help}; first: `
                         + v.nodes[0].target.join(' '));
           }""",
        [rules, include, list(disable)],
    )
    return result


def open_everything(page, *, settle=True) -> int:
    """Open every fold of the page as a curious reader would: hidden code cells and other
    ``<details>``, and the toggled admonitions (solutions, dropdowns). Returns how many.

    ``settle``: return once the folds' fade-in animations and transitions have finished (a
    check run while a solution is still fading in would read its text at partial opacity);
    ``False`` returns at once, with the animations still running."""
    return page.evaluate(
        """async (settle) => {
             let opened = 0;
             for (const d of document.querySelectorAll('details:not([open])')) { d.open = true; opened++; }
             for (const item of document.querySelectorAll('.toggle-hidden')) {
               const button = document.querySelector(`button.toggle-button[data-target="${item.id}"]`);
               if (button) { button.click(); opened++; }
             }
             if (!settle) return opened;
             await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
             const finite = document.getAnimations().filter(
               (a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
             await Promise.all(finite.map((a) => a.finished.catch(() => null)));
             return opened;
           }""",
        settle,
    )


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # signature fixed by the base class
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    """A page closed while a file was still being sent is the browser's choice, not an error:
    no traceback for it (any other error is still printed)."""

    def handle_error(self, request, client_address):
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@contextmanager
def serve(directory: Path):
    """Serve ``directory`` on 127.0.0.1 (a free port, no compression); yield the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# A book page has loaded once its load event has fired (every style sheet, script and image
# the document names), a redirect has been followed (the root index.html), its fonts are in
# and its widgets are drawn (they fetch their modules and state after the load event).
LOADED_JS = """() => document.readyState === 'complete' && document.fonts.status === 'loaded'
  && !document.querySelector('meta[http-equiv="refresh" i]')
  && (!document.querySelector('.rope-widget-view') || document.documentElement.dataset.ropeWidgets === 'ready')"""


def goto(page, url: str | None = None):
    """Go to ``url`` (``None``: reload) and return the response once the page has loaded
    (``LOADED_JS``): what Playwright's "networkidle" waits for, without its half second of
    quiet after every page."""
    response = page.reload(wait_until="load") if url is None else page.goto(url, wait_until="load")
    page.wait_for_function(LOADED_JS, timeout=30000)
    return response


# --- widget pages: one set of helpers for every widget browser test --------------------------


def open_book_page(chromium, base_url, path, color_scheme="light", *, viewport=DESKTOP, touch=False,
                   **options):
    """``open_page``, then go to ``base_url/path`` (``book/gallery.html``, a chapter's
    ``.html``, or its ``.md`` name) and wait until its widgets are drawn if it has any.
    Returns ``(context, page, log)``; close the context after."""
    if path.endswith(".md"):
        path = path[: -len(".md")] + ".html"
    if "/" not in path:
        path = "book/" + path
    context, page, log = open_page(chromium, color_scheme, viewport=viewport, touch=touch, **options)
    goto(page, f"{base_url}/{path}")
    return context, page, log


def open_alone(chromium, site, theme="light", *, viewport=DESKTOP, touch=False):
    """Open the page of ``site`` = (url, widget, pages by theme) once its widget is drawn."""
    url, _, pages = site
    context, page, log = open_page(chromium, theme, viewport=viewport, touch=touch)
    page.goto(f"{url}/{pages[theme]}")
    page.wait_for_function("window.ropeReady === true", timeout=20000)
    after_frames(page)
    return context, page, log


def open_gallery(chromium, base_url, color_scheme="light", **options):
    """The gallery page, every widget drawn (``open_book_page``'s options)."""
    return open_book_page(chromium, base_url, "book/gallery.html", color_scheme, **options)


def gallery_widget(page, name):
    """The widget ``name`` (a class of ``rope_core.widgets.REGISTRY``) on the gallery, which
    shows the registry in order; scrolled into view, as a reader reaches it."""
    from rope_core.widgets import REGISTRY

    order = [cls.__name__ for cls in REGISTRY]
    if name not in order:
        raise ValueError(f"name: {name!r} is not a widget of rope_core.widgets.REGISTRY {order}")
    root = page.locator(".rope-w").nth(order.index(name))
    root.scroll_into_view_if_needed()
    return root


def chapter_widget(page, name):
    """The live view of widget ``name`` on a chapter page, scrolled into view, as a reader
    reaches it."""
    root = page.locator(f'.rope-widget-view[data-widget="{name}"] .rope-w')
    root.scroll_into_view_if_needed()
    return root


def overlapping_texts(svg, selector="text"):
    """Pairs ``[text, text]`` of the visible texts (``selector``) of the drawing ``svg`` (a
    locator) whose boxes overlap by more than half a pixel either way."""
    return svg.evaluate("""(svg, selector) => {
        const boxes = [...svg.querySelectorAll(selector)]
            .filter((t) => t.textContent.trim() && t.getAttribute('visibility') !== 'hidden'
                && getComputedStyle(t).visibility !== 'hidden')
            .map((t) => [t.textContent, t.getBoundingClientRect()]);
        const hits = [];
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const [a, p] = boxes[i], [b, q] = boxes[j];
            if (Math.min(p.right, q.right) - Math.max(p.left, q.left) > 0.5
                && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 0.5) hits.push([a, b]);
        }
        return hits; }""", selector)


def keys_to(press, index, last):
    """Reach stop ``index`` of ``0..last`` the shorter way a keyboard reader would: Home then
    ArrowRight, or End then ArrowLeft. ``press(key)`` presses one key on the focused control."""
    if index <= last - index:
        press("Home")
        presses, key = index, "ArrowRight"
    else:
        press("End")
        presses, key = last - index, "ArrowLeft"
    for _ in range(presses):
        press(key)


def set_slider(root, name, index, *, keyboard=False):
    """Move the slider ``data-name=name`` inside ``root`` (a page or a locator) to ``index``.

    ``keyboard=False``: set its value and send an ``input`` event (fast; what a drag sends);
    ``keyboard=True``: focus it and take the shorter way a keyboard reader would, Home then
    ArrowRight, or End then ArrowLeft. Either way the slider must end at ``index``."""
    control = root.locator(f'input[data-name="{name}"]')
    if keyboard:
        control.focus()
        keys_to(control.press, index, int(control.get_attribute("max")))
    else:
        control.evaluate("(input, i) => { input.value = i;"
                         " input.dispatchEvent(new Event('input', {bubbles: true})); }", index)
    assert int(control.input_value()) == index, (name, index, control.input_value())


def axis_inverse(ticks):
    """value(pixel) from a plot's axis marks ``[(value, pixel, pixel)]`` (a tick line's value
    and its two end coordinates across the axis): the first and last fix the map, and every
    mark must lie on it, so a tick drawn at the wrong place fails too."""
    (v0, p0, _), (v1, p1, _) = ticks[0], ticks[-1]
    for value, a, b in ticks:
        assert a == pytest.approx(b, abs=1e-9), ticks
        assert a == pytest.approx(p0 + (value - v0) * (p1 - p0) / (v1 - v0), abs=1e-6), ticks
    return lambda pixel: v0 + (np.asarray(pixel, dtype=float) - p0) * (v1 - v0) / (p1 - p0)


def dataset(locator):
    """An element's ``data-*`` attributes as a dict of strings (widgets write read-outs there)."""
    return locator.evaluate("(el) => ({...el.dataset})")


_SUPERSCRIPT_DIGITS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
_READOUT_NUMBER = re.compile(r"[-−]?\d+(?:\.\d+)?(?:×10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?")


def readout_number(text):
    """One number as common.js's ``fmt3`` writes it: ``"−0.841"``, ``"2.37×10⁻⁴"``."""
    mantissa, _, exponent = text.strip().replace("−", "-").partition("×10")
    return float(mantissa) * 10.0 ** int(exponent.translate(_SUPERSCRIPT_DIGITS) or 0)


def readout_numbers(text):
    """Every ``fmt3`` number in a read-out's text, in order."""
    return [readout_number(token) for token in _READOUT_NUMBER.findall(text)]


# Whether a node is out of sight (visibility hidden, or display none).
HIDDEN = "(node) => getComputedStyle(node).visibility === 'hidden' || getComputedStyle(node).display === 'none'"


def drag_along(page, path, *, touch=False):
    """Press at ``path[0]``, move through the rest of the points and let go, with the mouse or
    with one finger (Chrome's touch events, as a phone sends them)."""
    if touch:
        cdp = page.context.new_cdp_session(page)
        for i, (x, y) in enumerate(path):
            kind = "touchStart" if i == 0 else "touchMove"
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
    else:
        page.mouse.move(*path[0])
        page.mouse.down()
        for x, y in path[1:]:
            page.mouse.move(x, y)
        page.mouse.up()
