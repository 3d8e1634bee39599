"""Every page of the book runs top to bottom as a notebook, and follows the book's rules."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import jupytext
import nbclient
import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
sys.path.insert(0, str(ROOT / "scripts"))  # the TOC reader shared with scripts/execute_chapters.py
from book_toc import is_notebook, toc_pages  # noqa: E402

NOTEBOOKS = [path for path in toc_pages() if path.exists() and is_notebook(path)]
CHAPTERS = [path for path in NOTEBOOKS if re.match(r"\d\d-", path.name)]


def test_toc_lists_existing_pages_only():
    missing = [str(path) for path in toc_pages() if not path.exists()]
    assert not missing, f"_toc.yml lists pages that do not exist: {missing}"


def test_no_notebook_files_are_committed():
    assert not list(BOOK.rglob("*.ipynb")), "chapters are MyST markdown only"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_page_executes_without_error(path):
    notebook = jupytext.read(path)
    client = nbclient.NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(BOOK)}},
    )
    start = time.perf_counter()
    client.execute()  # raises CellExecutionError on the first failing cell
    elapsed = time.perf_counter() - start
    # Kernel start-up is included; the chapter budget is 10 s of cell time.
    assert elapsed < 25, f"{path.name} took {elapsed:.1f} s to execute"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_has_the_book_shape(path):
    text = path.read_text()
    title = re.search(r"^# (.+)$", text, flags=re.M)
    assert title, "a chapter starts with a '# Title'"
    assert "What you will learn" in text
    assert re.search(r"^## Summary", text, flags=re.M), "a chapter has a '## Summary'"
    assert re.search(r"^## Exercises", text, flags=re.M), "a chapter has '## Exercises'"
    exercises = re.findall(r"^```\{exercise\}", text, flags=re.M)
    solutions = re.findall(r"^```\{solution\}[^\n]*\n:class: dropdown", text, flags=re.M)
    assert 3 <= len(exercises) <= 5, f"{len(exercises)} exercises; the book wants 3-5"
    assert len(solutions) == len(exercises), "every exercise has a solution in a dropdown"
    assert re.search(r"\$\$\s*\(eq-", text), "a chapter has at least one labelled equation"
    assert re.search(r"\bclaim(_close)?\(|\bassert\b", text), (
        "a chapter checks its claims (rope_core.claims.claim / claim_close, or assert) at build time"
    )
    assert "{literalinclude}" in text or "getsource" in text, "a chapter shows rope_core code"
    assert "pip install" not in text.replace("`pip install", ""), "no install cells in chapters"
