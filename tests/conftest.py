"""Shared fixtures: the built book, a local web server for it, and a browser page.

The browser is Debian's ``chromium`` driven by Playwright (never a downloaded browser).
Every request to a host other than 127.0.0.1 is aborted and recorded, so a test can
assert that the published book needs nothing from outside.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
JUPYTER_BOOK = Path(sys.executable).with_name("jupyter-book")
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


def build_book() -> subprocess.CompletedProcess:
    """Build the book strictly (any warning or failing cell is an error)."""
    return subprocess.run(
        [str(JUPYTER_BOOK), "build", ".", "-W", "-n", "--keep-going"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )


@pytest.fixture(scope="session")
def book_build_result():
    """Build the book once per test session and return the finished process.

    ``ROPE_BOOK_REUSE_BUILD=1`` skips the build and uses the ``_build/html`` already there
    (for iterating on browser tests after ``make book``; ``make test`` never sets it).
    """
    if os.environ.get("ROPE_BOOK_REUSE_BUILD") == "1" and (HTML / "index.html").exists():
        return subprocess.CompletedProcess(["reused"], 0, "build succeeded (reused _build/html)", "")
    return build_book()


@pytest.fixture(scope="session")
def built_book(book_build_result) -> Path:
    """Path of ``_build/html``; fails every dependent test if the build failed."""
    if book_build_result.returncode != 0:
        pytest.fail(
            "jupyter-book build failed:\n"
            + book_build_result.stdout[-6000:]
            + book_build_result.stderr[-6000:]
        )
    return HTML


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature fixed by the base class
        pass


@pytest.fixture(scope="session")
def book_server(built_book) -> str:
    """Serve the built book on 127.0.0.1 (a free port) and return its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(built_book))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def chromium():
    """A headless Debian chromium, launched through Playwright."""
    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("Debian's chromium is not installed: run the tests through `make test`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class PageLog:
    """What a page did that a test may want to assert on."""

    def __init__(self):
        self.external_requests: list[str] = []
        self.failed_requests: list[str] = []
        self.page_errors: list[str] = []
        self.console_errors: list[str] = []


def _open_page(chromium, color_scheme="light"):
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, color_scheme=color_scheme)
    log = PageLog()

    def route(route_):
        host = urlparse(route_.request.url).hostname
        if route_.request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            route_.continue_()
        else:
            log.external_requests.append(route_.request.url)
            route_.abort()

    context.route("**/*", route)
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
    return context, page, log


@pytest.fixture
def browser_page(chromium):
    """A fresh page (light colour scheme) with outside requests blocked; yields (page, log)."""
    context, page, log = _open_page(chromium)
    yield page, log
    context.close()


@pytest.fixture
def dark_browser_page(chromium):
    """Like ``browser_page`` but with the dark colour scheme preferred."""
    context, page, log = _open_page(chromium, color_scheme="dark")
    yield page, log
    context.close()


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def pytest_collection_modifyitems(config, items):
    # Cheap tests first, the book build and browsers last: failures show up early.
    order = {"lab": 3, "browser": 2, "book": 1}

    def rank(item):
        return max((order.get(mark.name, 0) for mark in item.iter_markers()), default=0)

    items.sort(key=rank)


os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
