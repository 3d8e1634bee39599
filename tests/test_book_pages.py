"""scripts/book_pages.py: the one toc-ordered list of the book's pages and chapters."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from myst_nb.core.read import is_myst_markdown_notebook
from sphinx_external_toc.parsing import parse_toc_yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages  # noqa: E402


def test_pages_are_the_toc_in_the_order_the_build_reads_it():
    # sphinx-external-toc is what Jupyter Book builds the site from: same pages, same order.
    site_map = parse_toc_yaml(str(ROOT / "_toc.yml"))
    assert [page.docname for page in book_pages.pages(ROOT)] == list(site_map)
    assert all(page.path.is_file() for page in book_pages.pages(ROOT))


def test_chapter_numbers_count_the_numbered_parts_across_parts():
    numbered = [page for page in book_pages.pages(ROOT) if page.number is not None]
    assert [page.number for page in numbered] == list(range(1, len(numbered) + 1))
    assert book_pages.chapters(ROOT) == [page.path for page in numbered]
    # The files are named by their chapter number: book/NN-slug.md is chapter NN.
    assert [int(path.name[:2]) for path in book_pages.chapters(ROOT)] == [p.number for p in numbered]


def test_part_one_is_the_first_numbered_part():
    names = [path.name for path in book_pages.part_one(ROOT)]
    assert names[0].startswith("01-") and len(names) >= 5
    assert book_pages.chapters(ROOT)[:len(names)] == book_pages.part_one(ROOT)


def test_notebooks_are_the_pages_myst_nb_executes():
    expected = [page.path for page in book_pages.pages(ROOT)
                if is_myst_markdown_notebook(page.path.read_text(encoding="utf-8"))]
    assert book_pages.notebooks(ROOT) == expected
    assert set(book_pages.chapters(ROOT)) <= set(expected)


TOC = """\
format: jb-book
root: intro
parts:
  - caption: Unnumbered
    chapters:
      - file: start
  - caption: First
    numbered: 1
    chapters:
      - file: a
        sections:
          - file: a-more
      - file: b
  - caption: Second
    numbered: 1
    chapters:
      - file: c
"""


def test_numbering_on_a_made_up_toc(tmp_path):
    (tmp_path / "_toc.yml").write_text(TOC)
    (tmp_path / "a.md").write_text("---\nfile_format: mystnb\n---\n# A\n")
    (tmp_path / "b.md").write_text("# B, plain markdown\n")
    pages = book_pages.pages(tmp_path)
    assert [(page.docname, page.number) for page in pages] == [
        ("intro", None), ("start", None), ("a", 1), ("a-more", None), ("b", 2), ("c", 3)]
    assert book_pages.chapters(tmp_path) == [tmp_path / "a.md", tmp_path / "b.md", tmp_path / "c.md"]
    assert book_pages.notebooks(tmp_path) == [tmp_path / "a.md"]
    assert book_pages.part_one(tmp_path) == [tmp_path / "a.md", tmp_path / "b.md"]


@pytest.mark.parametrize("text", [
    "---\njupytext:\n  text_representation:\n    format_name: myst\n---\n",
    "---\njupytext:\n  text_representation:\n    format_name: percent\n---\n",
    "---\nfile_format: mystnb\n---\n",
    "---\ntitle: x\n---\n",
    "---\n[not, a, mapping]\n---\n",
    "---\n: : bad yaml\n---\n",
    "# no front matter\n",
])
def test_is_myst_notebook_agrees_with_myst_nb(text):
    assert book_pages.is_myst_notebook(text) == is_myst_markdown_notebook(text)


def test_bad_input_names_the_argument(tmp_path):
    with pytest.raises(FileNotFoundError, match="root"):
        book_pages.pages(tmp_path)
    with pytest.raises(TypeError, match="text"):
        book_pages.is_myst_notebook(b"---\n")
