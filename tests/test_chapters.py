"""Every page of the book runs top to bottom as a notebook, and follows the book's rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from myst_nb.core.read import is_myst_markdown_notebook
from sphinx_external_toc.parsing import parse_toc_yaml

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"


def toc_pages() -> list[Path]:
    """The pages of ``_toc.yml`` in reading order, as the book build reads them."""
    return [ROOT / f"{docname}.md" for docname in parse_toc_yaml(str(ROOT / "_toc.yml"))]


NOTEBOOKS = [path for path in toc_pages() if path.exists() and is_myst_markdown_notebook(path.read_text())]
CHAPTERS = [path for path in NOTEBOOKS if re.match(r"\d\d-", path.name)]


def test_toc_lists_existing_pages_only():
    missing = [str(path) for path in toc_pages() if not path.exists()]
    assert not missing, f"_toc.yml lists pages that do not exist: {missing}"


def test_no_notebook_files_are_committed():
    assert not list(BOOK.rglob("*.ipynb")), "chapters are MyST markdown only"


# Executing the pages is the strict book build's job (scripts/build_book.py, once per test
# run, tests/test_book.py); this file checks their source only, so it runs with the unit tests.

CODE_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", flags=re.M | re.S)


@pytest.mark.parametrize("path", sorted(BOOK.glob("*.md")), ids=lambda p: p.name)
def test_no_doubled_parentheses_around_references(path):
    # {eq} already prints "(8)"; a source "({eq}`x`)" shows the reader "((8))".
    hits = [m.group(0) for m in re.finditer(r"\(\{(?:eq|numref)\}`[^`]*`[^)\n]*\)?",
                                            path.read_text())]
    assert not hits, f"write {{eq}}`label` without parentheses around it: {hits[:5]}"


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
    code = "\n".join(CODE_CELL.findall(text))
    checks = re.findall(r"^\s*claim(?:_close)?\(", code, flags=re.M)
    imported = re.search(r"^from rope_core\.claims import .*\bclaim", code, flags=re.M)
    assert imported and checks, (
        "a chapter checks its claims at build time with rope_core.claims.claim / "
        "claim_close, called in a code cell (not in prose or a comment)"
    )
    assert "\nshow_code(rope_core." in text or "getsource" in text, "a chapter shows rope_core code"
    assert "pip install" not in text.replace("`pip install", ""), "no install cells in chapters"


def test_chapter_files_are_named_by_their_number_in_the_book():
    # The numbered parts of _toc.yml number the chapters 1, 2, ... in order across parts;
    # a file named "NN-..." is chapter NN, so "see book/09-..." lands on chapter 9.
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    numbered = [c["file"] for part in toc["parts"] if part.get("numbered") for c in part["chapters"]]
    named = [f"{n:02d}-" for n in range(1, len(numbered) + 1)]
    wrong = [(file, prefix) for file, prefix in zip(numbered, named)
             if not file.rsplit("/", 1)[-1].startswith(prefix)]
    assert not wrong, f"chapter files whose name does not start with their number: {wrong}"
    unnumbered = [p.name for p in BOOK.glob("[0-9][0-9]-*.md") if f"book/{p.stem}" not in numbered]
    assert not unnumbered, f"numbered file names outside the numbered parts of _toc.yml: {unnumbered}"
