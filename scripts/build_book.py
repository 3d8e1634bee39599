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

A plain ``pytest`` builds through here too (``tests/conftest.py``), so editing a widget's JS
and running the tests rebuilds the pages with the new JS: no stale page can pass.

Usage: python scripts/build_book.py [--key | --execute]   (--key: print the cache key and exit)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import book_pages
import yaml

ROOT = Path(__file__).resolve().parents[1]
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
    for name in ("requirements.txt", "requirements-dev.txt", "requirements.lock"):
        if (root / name).exists():
            add(name, (root / name).read_bytes())
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


def execute_pages(root: Path = ROOT) -> int:
    """Execute the uncached notebooks into MyST-NB's cache with jupyter-cache, on every core.

    The project (jupyter-cache's list of notebooks to keep executed) is the TOC's notebooks,
    read with MyST-NB's reader plugin (``myst_nb_md``, the reader the build's cache lookups
    use); a page taken out of the book leaves the project. jupyter-cache's ``local-parallel``
    executor then runs every page whose code has no cached execution. A page that fails stays
    uncached, so the strict build executes it again and fails with its traceback.
    """
    from jupyter_cache import get_cache
    from jupyter_cache.executors import load_executor

    cache = get_cache(str(root / "_build" / ".jupyter_cache"))
    pages = [str(page) for page in book_pages.notebooks(root)]
    for record in cache.list_project_records():
        if record.uri not in pages:
            cache.remove_nb_from_project(record.pk)
    for page in pages:
        cache.add_nb_to_project(page, read_data={"name": "myst_nb_md", "type": "plugin"})
    logger = logging.getLogger("jupyter-cache")
    logger.addHandler(logging.StreamHandler(sys.stdout))
    logger.setLevel(logging.WARNING)
    result = load_executor("local-parallel", cache, logger=logger).run_and_cache(
        timeout=execute_timeout(root), allow_errors=False)
    ran = result.all()
    print(f"executed {len(ran)} of {len(pages)} pages on every core (the others were cached)" if ran
          else "every page is already executed and cached")
    for path in result.excepted + result.errored:
        print(f"  FAILED {Path(path).relative_to(root)} (the strict build shows the traceback)")
    return 0


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
