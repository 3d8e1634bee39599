"""Every page of the book runs top to bottom as a notebook, and follows the book's rules."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages  # noqa: E402  (the pages and chapters, in the toc's order)

PAGES = [page.path for page in book_pages.pages(ROOT)]
NOTEBOOKS = set(book_pages.notebooks(ROOT))
CHAPTERS = [path for path in book_pages.chapters(ROOT) if path in NOTEBOOKS]


def test_toc_lists_existing_pages_only():
    missing = [str(path) for path in PAGES if not path.exists()]
    assert not missing, f"_toc.yml lists pages that do not exist: {missing}"


def test_no_notebook_files_are_committed():
    assert not list(BOOK.rglob("*.ipynb")), "chapters are MyST markdown only"


# Executing the pages is the strict book build's job (scripts/build_book.py, once per test
# run, tests/test_book.py); this file checks their source only, so it runs with the unit tests.

CODE_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", flags=re.M | re.S)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_no_doubled_parentheses_around_references(path):
    # {eq} already prints "(8)"; a source "({eq}`x`)" shows the reader "((8))". A chapter
    # link ({numref}`chapter %s <chapter-rotations>`) prints "chapter 2": "(chapter 2)" is right.
    hits = [m.group(0) for m in re.finditer(r"\(\{(?:eq|numref)\}`(?![Cc]hapter %s <chapter-)[^`]*`[^)\n]*\)?",
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
    pages = book_pages.pages(ROOT)
    chapters = [page for page in pages if page.number is not None]
    assert [page.number for page in chapters] == list(range(1, len(chapters) + 1))
    wrong = [(page.docname, page.number) for page in chapters
             if not page.path.name.startswith(f"{page.number:02d}-")]
    assert not wrong, f"chapter files whose name does not start with their number: {wrong}"
    # A numbered name outside the numbered parts: a page of another part, or a file the toc
    # does not list at all (an old name left behind, a chapter missing from the toc).
    others = [page.path for page in pages if page.number is None] + book_pages.unlisted_sources(ROOT)
    unnumbered = [path.name for path in others if re.match(r"\d+-", path.name)]
    assert not unnumbered, f"numbered file names outside the numbered parts of _toc.yml: {unnumbered}"


def test_every_page_source_is_in_the_toc():
    # The build reads the toc's files only (only_build_toc_files): any other page is lost.
    unlisted = [str(path.relative_to(ROOT)) for path in book_pages.unlisted_sources(ROOT)]
    assert not unlisted, f"page sources that _toc.yml does not list (add them, or move them out of book/): {unlisted}"


# Which files are pages and chapters, and in which order, is _toc.yml's to say: a glob over
# book/ sorts by file name (not reading order) and finds files the build skips.
PAGE_GLOB = re.compile(r"""glob\(\s*f?["'`]([^"'`]*)["'`]""")
PAGE_GLOB_EXCEPTIONS = {
    ROOT / "scripts" / "book_pages.py": "the one list of pages; unlisted_sources() lists the folder",
}


def page_globs(path: Path) -> list[str]:
    """``"file:line pattern"`` for each glob in ``path`` that picks pages or chapters by name."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        patterns = PAGE_GLOB.findall(line) + re.findall(r"book/\*\.md", line)
        for pattern in patterns:
            if pattern.endswith(".md") or re.search(r"\[0-9\]|\d\d-|\*-\*|-\*\.(md|html|ipynb)", pattern):
                found.append(f"{path.name}:{number} {pattern}")
    return found


def test_pages_and_chapters_come_from_the_toc_not_from_a_glob():
    files = [path for folder in ("scripts", "tests", "book/_ext") for path in sorted((ROOT / folder).rglob("*"))
             if path.suffix in {".py", ".sh", ".js", ".mjs"} and "node_modules" not in path.parts]
    found = [use for path in files if path not in PAGE_GLOB_EXCEPTIONS for use in page_globs(path)]
    assert not found, "use scripts/book_pages.py (pages(), chapters(), notebooks()) instead of:\n" + "\n".join(found)
    still_globbing = [path.name for path in PAGE_GLOB_EXCEPTIONS if not page_globs(path)]
    assert not still_globbing, f"no longer glob: drop them from PAGE_GLOB_EXCEPTIONS: {still_globbing}"


# Written with "{glob}" and "{star}" so that this file's own examples are not page globs.
@pytest.mark.parametrize("line", [
    'pages = sorted(BOOK.{glob}("{star}.md"))',
    "chapters = sorted((ROOT / 'book').{glob}('[0-9][0-9]-{star}.md'))",
    'built = (html / "book").r{glob}(f"{{prefix}}-{star}.html")',
    'for page in ROOT.{glob}("book/{star}-{star}.md"):',
    "ls book/{star}.md | sort",
])
def test_a_page_glob_is_caught(tmp_path, line):
    path = tmp_path / "example.py"
    path.write_text(line.format(glob="glob", star="*") + "\n")
    assert page_globs(path), line


def test_other_globs_are_left_alone(tmp_path):
    path = tmp_path / "example.py"
    path.write_text('configs = REAL.glob("*.json")\nfor page in html.rglob("*.html"):\n'
                    'ROOT.glob("tests/test_widgets*.py")\n')
    assert page_globs(path) == []


def test_a_source_left_out_of_the_toc_is_found(tmp_path):
    (tmp_path / "book").mkdir()
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: book/index\nparts:\n"
                                      "  - numbered: 1\n    chapters:\n      - file: book/01-one\n")
    for name in ("index", "01-one", "02-forgotten"):
        (tmp_path / "book" / f"{name}.md").write_text(f"# {name}\n")
    assert book_pages.unlisted_sources(tmp_path) == [tmp_path / "book" / "02-forgotten.md"]
