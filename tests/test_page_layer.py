"""The page layer on maintained parts: what an author writes so that Sphinx and MyST-NB do
the work custom transforms did.

- Chapter links: each chapter carries ``(chapter-<name>)=`` above its title, and a link to a
  chapter is ``{numref}`chapter %s <chapter-<name>>``` (Sphinx numbers it from ``_toc.yml``);
  a ``{doc}`` link to a chapter would show its long title instead.

The built pages are checked in ``tests/test_reader_pages.py``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages  # noqa: E402  (the pages and chapters, in the toc's order)

DOC_LINK = re.compile(r"\{doc\}`(?:[^`<]*<)?(?P<target>[^`<>]+?)>?`")
NUMREF_CHAPTER = re.compile(r"\{numref\}`(?P<text>[^`<]*?)\s*<(?P<label>chapter-[^`>]+)>`")
# Sources of pages generated from Python (the gallery's card texts).
GENERATED_FROM = [ROOT / "rope_core" / "widgets" / "registry.py"]


def _sources():
    return [page.path for page in book_pages.pages(ROOT)] + GENERATED_FROM


def test_every_chapter_is_labelled_above_its_title_by_its_file_name():
    labels = book_pages.chapter_labels(ROOT)
    chapters = [page for page in book_pages.pages(ROOT) if page.number is not None]
    assert [page.docname for page in labels.values()] == [page.docname for page in chapters]
    for label, page in labels.items():
        assert label == "chapter-" + page.path.stem.split("-", 1)[1], (label, page.path.name)


def test_a_chapter_link_is_a_numref_to_a_chapter_label():
    chapter_stems = {page.path.stem for page in book_pages.pages(ROOT) if page.number is not None}
    labels = book_pages.chapter_labels(ROOT)
    by_title, unknown, wordings = [], [], 0
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        by_title += [f"{path.name}: {m[0]}" for m in DOC_LINK.finditer(text)
                     if m["target"].rsplit("/", 1)[-1] in chapter_stems]
        for match in NUMREF_CHAPTER.finditer(text):
            wordings += 1
            if match["label"] not in labels:
                unknown.append(f"{path.name}: {match[0]}")
            elif match["text"] not in ("chapter %s", "Chapter %s", "%s"):
                unknown.append(f"{path.name}: {match[0]} (wording)")
    assert not by_title, f"a {{doc}} link to a chapter shows its title; write {{numref}}: {by_title}"
    assert not unknown, unknown
    assert wordings >= 250  # the book's chapter links, all of them numbered


def test_the_rule_finds_a_planted_doc_link():
    planted = "As {doc}`02-rotations` shows, and {doc}`notation` lists."
    assert [m["target"] for m in DOC_LINK.finditer(planted)] == ["02-rotations", "notation"]
    assert [m["label"] for m in NUMREF_CHAPTER.finditer("see {numref}`chapter %s <chapter-rotations>`")] \
        == ["chapter-rotations"]


@pytest.mark.parametrize(("body", "shown"), [
    ("chapter %s <chapter-rotations>", "[chapter 2](02-rotations.ipynb)"),
    ("Chapter %s <chapter-longer-contexts>", "[Chapter 9](09-longer-contexts.ipynb)"),
    ("%s <chapter-serving>", "[13](13-serving.ipynb)"),
])
def test_the_notebook_copy_reads_chapter_links_as_the_book_does(body, shown):
    import export_notebooks

    pages = book_pages.notebooks(ROOT)
    index = export_notebooks.BookIndex(pages)
    converter = export_notebooks.PageConverter(ROOT / "book" / "01-why-positions.md", index)
    assert export_notebooks.ROLE.sub(converter.role, f"{{numref}}`{body}`") == shown
