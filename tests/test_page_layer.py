"""The page layer on maintained parts: what an author writes so that Sphinx and MyST-NB do
the work custom transforms did.

- Chapter links: each chapter carries ``(chapter-<name>)=`` above its title, and a link to a
  chapter is ``{numref}`chapter %s <chapter-<name>>``` (Sphinx numbers it from ``_toc.yml``);
  a ``{doc}`` link to a chapter would show its long title instead.
- Glossary links: the first use of each glossary term on a page is a ``{term}`` link (in a
  paragraph's own text, not in headings, links, code, emphasis or maths; a term used only as
  inline code, ``rope_scaling``, is linked at that use), and shows its definition on hover.
  Not checked on the glossary itself, nor on the API appendix, whose text is rope_core's
  docstrings.
- Folding: a check, set-up or widget cell carries a MyST-NB tag that folds its code
  (``scripts/cell_kinds.py`` says which cells need one); MyST-NB folds it, nothing guesses.

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
import cell_kinds  # noqa: E402  (what a check, set-up or widget cell is)

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


# ---- glossary links, on the built pages ---------------------------------------------------

NOT_OWN_TEXT = ("a", "code", "em", "strong", "span", "h1", "h2", "h3", "h4", "dt", "figcaption", "summary")
UNCHECKED = {"book/appendix-glossary", "book/appendix-api"}


def glossary_terms(glossary_html: str) -> dict[str, str]:
    """``{anchor: term}`` of a built glossary page."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(glossary_html, "html.parser")
    return {dt["id"]: dt.get_text("", strip=True).rstrip("#").strip() for dt in soup.select("dt[id^=term-]")}


def first_use_problems(html: str, terms: dict[str, str], glossary_file: str = "appendix-glossary.html") -> list[str]:
    """Each term whose first use on the page (a paragraph's own text, or inline code that is
    exactly the term when the prose never uses it) is not a ``{term}`` link with a hover."""
    from bs4 import BeautifulSoup, NavigableString

    article = BeautifulSoup(html, "html.parser").find("article") or BeautifulSoup(html, "html.parser")
    by_name = {name.lower(): anchor for anchor, name in terms.items()}
    pattern = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, by_name), key=len, reverse=True))
                         + r")(?:s)?(?![\w-])", flags=re.I)
    linked, problems, literal_uses = set(), [], []
    for node in article.descendants:
        if getattr(node, "name", None) == "a" and node.select_one("span.std-term"):
            anchor = node.get("href", "").rpartition("#")[2]
            if not node.get("title"):
                problems.append(f"{node.get_text()!r}: no hover")
            linked.add(anchor)
        elif getattr(node, "name", None) == "code" and node.get_text().lower() in by_name \
                and node.find_parent("a") is None and node.find_parent("pre") is None:
            literal_uses.append(by_name[node.get_text().lower()])
        elif isinstance(node, NavigableString) and getattr(node.parent, "name", None) == "p":
            for match in pattern.finditer(str(node).replace("\u2019", "'")):
                anchor = by_name[match[1].lower()]
                if anchor not in linked:
                    problems.append(f"{match[0]!r} used before it is linked")
                    linked.add(anchor)  # one finding per term
    problems += [f"`{terms[a]}` used, never linked" for a in dict.fromkeys(literal_uses) if a not in linked]
    return problems


def test_the_glossary_rule_finds_a_planted_unlinked_first_use():
    terms = {"term-wish": "wish", "term-base": "base", "term-rope_scaling": "rope_scaling"}
    link = '<a class="reference internal" href="g.html#term-{0}" title="{1}"><span class="std-term">{0}</span></a>'
    good = f"<article><h1>The wish</h1><p>The {link.format('wish', 'd')} and the wishes; <em>base</em>.</p></article>"
    assert first_use_problems(good, terms) == []
    assert first_use_problems(good.replace("The <a", "A wish. The <a"), terms) == ["'wish' used before it is linked"]
    assert first_use_problems(good.replace('title="d"', 'title=""'), terms) == ["'wish': no hover"]
    assert first_use_problems(good.replace("</p>", " <code>rope_scaling</code></p>"), terms) \
        == ["`rope_scaling` used, never linked"]


@pytest.mark.book
def test_the_first_use_of_each_glossary_term_on_a_page_is_a_term_link(built_book):
    terms = glossary_terms((built_book / "book" / "appendix-glossary.html").read_text())
    assert len(terms) >= 50
    problems, links = [], 0
    for page in book_pages.pages(ROOT):
        if page.docname in UNCHECKED:
            continue
        html = (built_book / f"{page.docname}.html").read_text()
        links += html.count("std-term")
        problems += [f"{page.docname}: {p}" for p in first_use_problems(html, terms)]
    assert not problems, problems
    assert links >= 180  # the book's glossary links, outside the glossary and the API appendix


# ---- folding by tags ------------------------------------------------------------------------

CODE_CELL = re.compile(r"^(`{3,})\{code-cell\}[^\n]*\n(.*?)^\1$", flags=re.M | re.S)


def code_cells(text: str):
    """``[(line, tags, code, before the first section)]`` of a MyST notebook's code cells."""
    import yaml

    first_section = re.search(r"^## ", text, flags=re.M)
    first_section = first_section.start() if first_section else len(text)
    cells = []
    for match in CODE_CELL.finditer(text):
        body, options = match.group(2), {}
        if body.startswith("---\n"):
            head, _, body = body[4:].partition("---\n")
            options = yaml.safe_load(head) or {}
        else:
            while body.startswith(":"):
                line, _, body = body.partition("\n")
                key, _, value = line[1:].partition(":")
                options[key.strip()] = yaml.safe_load(value)
        line = text.count("\n", 0, match.start()) + 1
        cells.append((line, options.get("tags", []), body.strip("\n"), match.start() < first_section))
    return cells


def unfolded(text: str, widget_names) -> list[str]:
    return [
        f"line {line}: {why} without hide-input or hide-cell"
        for line, tags, code, before in code_cells(text)
        if (why := cell_kinds.fold_needed(code, tags, before_first_section=before, widget_names=widget_names))
    ]


def _widget_names():
    from rope_core.widgets import REGISTRY

    return [cls.__name__ for cls in REGISTRY]


@pytest.mark.parametrize("page", book_pages.pages(ROOT), ids=lambda page: page.path.name)
def test_every_check_set_up_and_widget_cell_is_folded_by_its_tag(page):
    problems = unfolded(page.path.read_text(), _widget_names())
    assert not problems, f"{page.path.name}: " + "; ".join(problems)


@pytest.mark.parametrize(
    ("cell", "why"),
    [
        ('claim("x", True)', "a check"),
        ("assert q.shape == (4,)", "a check"),
        ("np.testing.assert_allclose(a, b)", "a check"),
        ("import numpy as np", "set-up"),
        ("R = rope_core.rotation_matrix", "set-up"),
        ("from rope_core.widgets import DecayExplorer\n\nDecayExplorer()", "a widget cell"),
        ("explorer = RotationExplorer(theta_index=3)\nexplorer", "a widget cell"),
        ("widgets.LayoutExplorer()", "a widget cell"),
        ("x = rope_core.apply_rope(q, m)\nprint(x)", None),
    ],
)
def test_the_folding_rule_finds_a_planted_unfolded_cell(cell, why):
    page = f"# A title\n\n## A section\n\n```{{code-cell}} ipython3\n{cell}\n```\n"
    names = ["DecayExplorer", "RotationExplorer", "LayoutExplorer"]
    assert unfolded(page, names) == ([f"line 5: {why} without hide-input or hide-cell"] if why else [])
    folded = page.replace("ipython3\n", "ipython3\n---\ntags: [hide-input]\n---\n", 1)
    assert unfolded(folded, names) == []
    opening = page.replace("## A section\n\n", "")  # before the first section: set-up
    assert unfolded(opening, names) == [f"line 3: {why or 'set-up'} without hide-input or hide-cell"]
