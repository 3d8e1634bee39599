"""Build the book strictly: the one build path of ``make book`` and of the tests.

Jupyter Book caches an executed page by the page's own text. The pages also depend on what
they import and embed: rope_core (maths, plots, the widgets' JS and CSS), the installed
packages, and the ``execute`` block of ``_config.yml``. This script hashes all of that into a
key; when the key differs from the one the cache was made with, the execution cache and the
doctrees are dropped, so every page is executed again and re-read. Then jupyter-cache (the
library MyST-NB caches with) executes the pages that have no cached execution, on every core
(its ``local-parallel`` executor, the same as ``jcache project execute``), and the strict build
(warnings are errors) writes ``_build/html``. The pages executed are the notebooks of
``_toc.yml`` in reading order (``book_pages.notebooks``, the one list of the book's pages).

What the kernels print goes to ``_build/execute.log``, not the terminal. A page whose kernel
failed (parallel kernels can draw the same port: ``ZMQError: Address already in use``) is
executed again on its own, silently; a cell that fails is shown once, and the build stops.

A plain ``pytest`` builds through here too (``tests/conftest.py``), so editing a widget's JS
and running the tests rebuilds the pages with the new JS: no stale page can pass.

Usage: python scripts/build_book.py [--key | --execute]   (--key: print the cache key and exit)
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import logging
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import book_pages
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import internals  # noqa: E402  (what jupyter-cache does not publish as API)

BUILD = ROOT / "_build"
KEY_FILE = BUILD / ".jupyter_cache.key"
DROPPED_WITH_KEY = (BUILD / ".jupyter_cache", BUILD / ".doctrees")
# ipykernel prints this once per kernel (one per page); it says nothing about the book.
NOISE = ("Kernel is running over TCP without encryption",)
# Jupyter Book's banner: the paths it prints are ours to print once, and its advice to open
# the book from file:// would lose every widget (browsers block the widget loader there).
BANNER = re.compile(
    r"^\s*$|^(\x1b\[\d+m)?=+(\x1b\[0m)?$|^(Running Jupyter-Book|Source Folder|Config Path|Output Path"
    r"|Finished generating HTML|Your book's HTML pages|You can look at your book|Or paste this line"
    r"|    _build/html/|    file://)"
)


def execute_timeout(root: Path = ROOT) -> int:
    """The per-cell timeout of ``_config.yml`` (``execute: timeout``), so it is written once."""
    config = yaml.safe_load((root / "_config.yml").read_text()) or {}
    return int((config.get("execute") or {}).get("timeout", 30))


def cache_key(root: Path = ROOT) -> str:
    """Hash of everything an executed page depends on besides its own text."""
    digest = hashlib.sha256()

    def add(label: str, data: bytes) -> None:
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)

    for path in sorted((root / "rope_core").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            add(str(path.relative_to(root)), path.read_bytes())
    if (root / "requirements.lock").exists():
        add("requirements.lock", (root / "requirements.lock").read_bytes())
    installed = sorted(
        f"{dist.metadata['Name']}=={dist.version}".lower()
        for dist in metadata.distributions()
        if dist.metadata["Name"]
    )
    add("installed", "\n".join(installed).encode())
    config = yaml.safe_load((root / "_config.yml").read_text()) or {}
    add("execute", json.dumps(config.get("execute"), sort_keys=True).encode())
    return digest.hexdigest()[:16]


def drop_stale_cache(root: Path = ROOT) -> bool:
    """Drop the execution cache and doctrees if they were made under another key."""
    key = cache_key(root)
    key_file = root / KEY_FILE.relative_to(ROOT)
    old = key_file.read_text().strip() if key_file.exists() else None
    if old == key:
        return False
    for path in DROPPED_WITH_KEY:
        shutil.rmtree(root / path.relative_to(ROOT), ignore_errors=True)
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key_file.write_text(key + "\n")
    if old is not None:  # a fresh clone has nothing to drop: say nothing
        print("rope_core, the installed packages or the execute settings changed: "
              "every page is executed again")
    return True


def run_quietly(command: list[str], root: Path = ROOT) -> subprocess.CompletedProcess:
    """Run ``command``, echoing its output live without the kernels' noise or the banner."""
    lines = []
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYDEVD_DISABLE_FILE_VALIDATION="1")
    # The pages' kernels run side by side, one per core: one BLAS thread each (unless the
    # caller chose otherwise), or their threads only contend.
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(variable, "1")
    with subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=env) as process:
        for line in process.stdout:
            if any(noise in line for noise in NOISE) or BANNER.match(line.rstrip("\n")):
                continue
            lines.append(line)
            sys.stdout.write(line)
            sys.stdout.flush()
    return subprocess.CompletedProcess(command, process.returncode, "".join(lines), "")


@contextlib.contextmanager
def output_to(log_path: Path):
    """Send everything this process and its children print into ``log_path``.

    File descriptors 1 and 2 are pointed at the file, so that the kernels the executors start
    (they inherit them) write there; ``sys.stdout`` and ``sys.stderr`` too, for Python code
    that holds its own stream objects; and the handlers multiprocessing's logger gains while
    running (its worker pool logs to stderr) are removed afterwards, with their stream.
    """
    mp_logger = multiprocessing.get_logger()
    handlers = list(mp_logger.handlers)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(log_path, "a", encoding="utf-8") as log:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        try:
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                yield
        finally:
            log.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
            mp_logger.handlers[:] = handlers


class _LogStream:
    """A stream that writes to whatever ``sys.stderr`` is at the time of writing."""

    def write(self, text):
        return sys.stderr.write(text)

    def flush(self):
        sys.stderr.flush()


# What nbclient says about a failing cell (the cell's code and its traceback), without the
# executor's own call stack that the stored traceback starts with.
CELL_ERROR = re.compile(r"^\S*Cell(?:Execution|Timeout)Error: ", re.MULTILINE)


def cell_error(traceback: str | None) -> str:
    """The readable part of a page's stored traceback: the failing cell and its error."""
    parts = CELL_ERROR.split(traceback or "", maxsplit=1)
    return parts[-1].strip() or "(no traceback stored)"


class ParallelWorker:
    """jupyter-cache's parallel worker, which leaves SIGTERM and SIGINT as it found them.

    nbclient sets asyncio handlers for both signals when it starts a page's kernel and takes
    them away only once the kernel is up. A page whose kernel failed to start leaves its pool
    worker deaf to SIGTERM. When the pool ends, its other worker, killed while it held the
    task queue's lock, never lets go; the deaf one waits for that lock forever, and so does
    the build, which joins it. Each page's run therefore ends with the signals restored.
    """

    def __call__(self, data):
        from jupyter_cache.executors.basic import ExecutionWorkerLocalMProc

        saved = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGINT)}
        try:
            return ExecutionWorkerLocalMProc()(data)
        finally:
            for number, handler in saved.items():
                signal.signal(number, handler)


def execute_pages(root: Path = ROOT, retries: int = 1) -> int:
    """Execute the uncached notebooks into MyST-NB's cache with jupyter-cache, on every core.

    The project (jupyter-cache's list of notebooks to keep executed) is the TOC's notebooks;
    a page taken out of the book leaves the project. jupyter-cache's ``local-parallel``
    executor runs every page whose code has no cached execution, with the kernels' and the
    executor's output in ``_build/execute.log``.

    Two kinds of failure are told apart. A page whose *kernel* failed (it could not start,
    e.g. two kernels started side by side drew the same port, or it died) says nothing about
    the page: it is executed again on its own, up to ``retries`` times, and only the log
    records it. A page whose *cell* raised an error (or timed out) is a real failure: the
    cell and its error are printed once, and the build stops (exit status 1) instead of
    executing the page a second time in the strict build.

    Parameters
    ----------
    root : pathlib.Path
        The repository root (``_toc.yml``, ``_config.yml``; the cache goes in ``_build``).
    retries : int
        How many more times a page whose kernel failed is executed, one page at a time.

    Returns
    -------
    int
        0 if every page is executed and cached, 1 otherwise.
    """
    from jupyter_cache import get_cache
    from jupyter_cache.executors import load_executor

    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ValueError(f"retries: expected a whole number >= 0, got {retries!r}")
    root = Path(root)
    cache = get_cache(str(root / "_build" / ".jupyter_cache"))
    pages = [str(page) for page in book_pages.notebooks(root)]
    for record in cache.list_project_records():
        if record.uri not in pages:
            cache.remove_nb_from_project(record.pk)
    for page in pages:
        cache.add_nb_to_project(page, read_data={"name": "myst_nb_md", "type": "plugin"})
    log_path = root / "_build" / "execute.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_path.write_text("")
    logger = logging.getLogger("jupyter-cache")
    logger.handlers[:] = [logging.StreamHandler(_LogStream())]  # the log file, inside output_to
    logger.setLevel(logging.WARNING)
    timeout = execute_timeout(root)

    parallel = load_executor("local-parallel", cache, logger=logger)
    internals.run_pages_with(parallel, ParallelWorker)
    with output_to(log_path):
        result = parallel.run_and_cache(timeout=timeout, allow_errors=False)
    ran, failed_cells, kernel_failed = result.all(), list(result.excepted), list(result.errored)
    for _ in range(retries):
        if not kernel_failed:
            break
        with output_to(log_path):  # one at a time: no kernels racing for ports
            again = load_executor("local-serial", cache, logger=logger).run_and_cache(
                filter_uris=kernel_failed, timeout=timeout, allow_errors=False)
        failed_cells += again.excepted
        kernel_failed = list(again.errored)

    print(f"executed {len(ran)} of {len(pages)} pages on every core (the others were cached)" if ran
          else "every page is already executed and cached")
    for uri in failed_cells:
        print(f"\nFAILED {Path(uri).relative_to(root)}: a cell raised an error\n"
              f"{cell_error(cache.get_project_record(uri).traceback)}\n")
    for uri in kernel_failed:
        print(f"\nFAILED {Path(uri).relative_to(root)}: its kernel failed {retries + 1} times "
              f"(not a cell of the page); what it printed is in {log_path.relative_to(root)}\n")
    return 1 if failed_cells or kernel_failed else 0


def build(root: Path = ROOT) -> subprocess.CompletedProcess:
    """Drop a stale cache, execute the pages in parallel, then build strictly."""
    drop_stale_cache(root)
    python = sys.executable
    executed = run_quietly([python, __file__, "--execute"], root)
    if executed.returncode != 0:
        return executed
    jupyter_book = str(Path(python).with_name("jupyter-book"))
    result = run_quietly([jupyter_book, "build", ".", "-W", "-n", "--keep-going", "--quiet"],
                         root)
    result.stdout = executed.stdout + result.stdout
    if result.returncode == 0:
        print("built strictly (no warning, no failing cell) into _build/html")
    else:
        # Sphinx keeps what it read even when a warning fails the build, and would not read an
        # unchanged page again: the next build would pass without showing that warning.
        shutil.rmtree(root / "_build" / ".doctrees", ignore_errors=True)
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--key", action="store_true", help="print the cache key and exit")
    parser.add_argument("--execute", action="store_true",
                        help="only execute the uncached pages into the cache (no key check, no build)")
    args = parser.parse_args(argv)
    if args.key:
        print(cache_key())
        return 0
    if args.execute:
        return execute_pages()
    return build().returncode


if __name__ == "__main__":
    sys.exit(main())
