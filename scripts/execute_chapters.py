"""Execute the book's notebooks in parallel into Jupyter Book's execution cache.

Jupyter Book 1 executes notebooks one after another. This script runs them on every core
first and stores the results exactly where MyST-NB looks for them (``_build/.jupyter_cache``),
reading each page with MyST-NB's own reader so that the cache keys match; the following
``jupyter-book build`` then finds every page cached. A page that fails is reported here and
left uncached, so the strict build still fails on it with the full traceback.

Usage: python scripts/execute_chapters.py [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from book_toc import is_notebook, toc_pages
from jupyter_cache import get_cache
from jupyter_cache.base import CacheBundleIn
from jupyter_cache.executors.utils import single_nb_execution
from myst_nb.core.read import read_myst_markdown_notebook
from myst_parser.config.main import MdParserConfig

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "_build" / ".jupyter_cache"


def read_page(path: Path):
    # The same reader (and options) MyST-NB uses, so the notebook hashes agree.
    return read_myst_markdown_notebook(
        path.read_text(), config=MdParserConfig(), add_source_map=True, path=path
    )


def execute(path: Path, timeout: int):
    notebook = read_page(path)
    result = single_nb_execution(
        notebook, cwd=str(path.parent), allow_errors=False, timeout=timeout, meta_override=True
    )
    error = None if result.err is None else f"{type(result.err).__name__}: {result.err}"
    return path, notebook, result.time, error


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=int, default=60)
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")

    cache = get_cache(str(CACHE))
    pending = []
    for path in (page for page in toc_pages(ROOT) if page.exists() and is_notebook(page)):
        try:
            cache.match_cache_notebook(read_page(path))
        except KeyError:
            pending.append(path)
    if not pending:
        print("every page is already executed and cached")
        return 0
    print(f"executing {len(pending)} pages on {args.jobs} processes")
    failures = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(execute, path, args.timeout) for path in pending]
        for future in futures:
            path, notebook, seconds, error = future.result()
            name = path.relative_to(ROOT)
            if error:
                failures += 1
                print(f"  FAILED {name} ({error.splitlines()[0][:200]})")
                continue
            # Written from this process only: the cache is one SQLite file.
            cache.cache_notebook_bundle(
                CacheBundleIn(notebook, str(path), data={"execution_seconds": seconds}),
                check_validity=False,
                overwrite=True,
            )
            print(f"  {name}: {seconds:.1f} s")
    if failures:
        print(f"{failures} page(s) failed; the strict build will show their tracebacks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
