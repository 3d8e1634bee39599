"""Shared fixtures: the built book, a local web server for it, and a browser page.

The browser helpers themselves (chromium, outside requests blocked and recorded, phone,
dark mode, slow network) live in ``tests/_browser.py``.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from _browser import launch, open_page, serve

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
# One build per test run under pytest-xdist: the first worker's result, for the others.
BUILD_RESULT = ROOT / "_build" / "pytest-book-build.json"


def build_book() -> subprocess.CompletedProcess:
    """Build the book strictly, through the same path as ``make book``.

    ``scripts/build_book.py`` drops the execution cache when rope_core (widget JS included),
    the installed packages or the execute settings changed, so no stale page can pass.
    """
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_book.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )


@pytest.fixture(scope="session")
def book_build_result(request):
    """Build the book once per test run and return the finished process.

    Under pytest-xdist (``make test`` runs ``-n auto``) every worker asks for this fixture:
    the first one builds while holding a lock, writes the result next to the build, and the
    others wait for the lock and read that result (same run id), so the book is built once and
    no worker serves a half-written ``_build/html``.

    ``ROPE_BOOK_REUSE_BUILD=1`` skips the build and uses the ``_build/html`` already there
    (for iterating on browser tests after ``make book``; ``make test`` never sets it).
    """
    if os.environ.get("ROPE_BOOK_REUSE_BUILD") == "1" and (HTML / "index.html").exists():
        return subprocess.CompletedProcess(["reused"], 0, "build succeeded (reused _build/html)", "")
    workerinput = getattr(request.config, "workerinput", None)
    if workerinput is None:
        return build_book()
    run_id = workerinput["testrunuid"]
    BUILD_RESULT.parent.mkdir(parents=True, exist_ok=True)
    with open(BUILD_RESULT.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            saved = json.loads(BUILD_RESULT.read_text())
        except (OSError, ValueError):
            saved = {}
        if saved.get("run") == run_id:
            return subprocess.CompletedProcess(saved["args"], saved["returncode"], saved["stdout"], saved["stderr"])
        result = build_book()
        BUILD_RESULT.write_text(json.dumps({
            "run": run_id, "args": result.args, "returncode": result.returncode,
            "stdout": result.stdout, "stderr": result.stderr,
        }))
        return result


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


@pytest.fixture(scope="session")
def book_server(built_book) -> str:
    """Serve the built book on 127.0.0.1 (a free port) and return its base URL."""
    with serve(built_book) as url:
        yield url


@pytest.fixture(scope="session")
def chromium():
    """A headless Debian chromium, launched through Playwright."""
    if shutil.which("chromium") is None:
        why = "Debian's chromium is not installed: sudo apt-get install chromium"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(why)  # CI must run the browser tests
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


# Older name, kept for the tests that import it from here.
_open_page = open_page


@pytest.fixture(scope="module")
def decay_site(tmp_path_factory):
    """chapter 8's DecayExplorer alone on a page per theme, served; yields (url, widget, pages)."""
    from test_widgets_spectrum_browser import served_alone

    from rope_core import widgets as W

    with served_alone(tmp_path_factory.mktemp("decay"), W.DecayExplorer()) as site:
        yield site


@pytest.fixture(scope="module")
def gallery_once(chromium, book_server):
    """The built gallery, opened once for a test module (1280 px, light); yields (page, log)."""
    from _browser import open_gallery

    context, page, log = open_gallery(chromium, book_server)
    yield page, log
    context.close()


@pytest.fixture
def browser_page(chromium):
    """A fresh page (light colour scheme) with outside requests blocked; yields (page, log)."""
    context, page, log = open_page(chromium)
    yield page, log
    context.close()


@pytest.fixture
def dark_browser_page(chromium):
    """Like ``browser_page`` but with the dark colour scheme preferred."""
    context, page, log = open_page(chromium, color_scheme="dark")
    yield page, log
    context.close()


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


# The longest test files (minutes each on 2 cores: every page in two browser states, every
# chapter variant, two clean virtual environments from PyPI). pytest-xdist hands out whole
# files (--dist loadfile) in this order, so these go first: started last, one of them kept
# one worker busy for minutes after the other had finished.
LONGEST_FILES = ("test_book.py", "test_chapter_variants.py", "test_notebooks_export.py")
if any(not (Path(__file__).with_name(name)).exists() for name in LONGEST_FILES):
    raise pytest.UsageError(f"tests/conftest.py: LONGEST_FILES names a file not in tests/: {LONGEST_FILES}")


def pytest_collection_modifyitems(config, items):
    # The longest files first, then cheap tests before the book build and browsers: failures
    # show up early and the two workers finish together.
    order = {"lab": 3, "browser": 2, "book": 1}

    def rank(item):
        name = item.path.name
        longest = LONGEST_FILES.index(name) if name in LONGEST_FILES else len(LONGEST_FILES)
        return longest, max((order.get(mark.name, 0) for mark in item.iter_markers()), default=0)

    items.sort(key=rank)


os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")


@pytest.fixture
def render_and_close_figures():
    """After the test, draw every open matplotlib figure, then close them all: drawing
    catches labels that matplotlib's mathtext cannot parse (for the plot tests)."""
    yield
    import matplotlib.pyplot as plt

    for number in plt.get_fignums():
        plt.figure(number).canvas.draw()
    plt.close("all")


@pytest.fixture
def rng():
    """A fresh generator with a fixed seed for each test, so that a test's data do not depend
    on which tests ran before it (with -k, -x or in parallel)."""
    return np.random.default_rng(0)
