"""The pages and the chapters of the book, in reading order, as ``_toc.yml`` lists them.

``_toc.yml`` is the only place that decides which files are pages, in which order they are
read, and which of them are numbered chapters. Everything else (the build, the notebook
exporter, the gallery, the tests) asks this module instead of globbing ``book/*.md``, so a
chapter added, moved or renamed is found everywhere at once, in the order the book shows it.

The toc format is Jupyter Book 1's ``jb-book`` (https://jupyterbook.org/en/stable/structure/toc.html)::

    root: book/index
    parts:
      - caption: ...
        numbered: 1          # optional: the chapters of this part are numbered
        chapters:
          - file: book/01-why-positions
            sections: [...]  # optional, nested the same way

It is read with PyYAML alone, so that tests of the pages' sources need no Sphinx.

Usage from a script in ``scripts/`` (same folder, so a plain import works)::

    import book_pages
    for path in book_pages.chapters():
        ...

and from a test: ``sys.path.insert(0, str(ROOT / "scripts")); import book_pages``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
TOC = "_toc.yml"


@dataclass(frozen=True)
class Page:
    """One page of the book.

    Attributes
    ----------
    docname : str
        The toc's name for it, without suffix (``"book/02-rotations"``).
    path : pathlib.Path
        Its source file (``<root>/book/02-rotations.md``).
    number : int or None
        Its chapter number, 1-based across all numbered parts, or None outside them.
    part : int or None
        The index of its part in the toc's ``parts`` (0 for the first), or None for the root
        page and pages outside parts.
    caption : str
        Its part's caption ("" without one).
    """

    docname: str
    path: Path
    number: int | None
    part: int | None = None
    caption: str = ""


def _read_toc(root: Path) -> dict:
    toc_path = Path(root) / TOC
    if not toc_path.is_file():
        raise FileNotFoundError(f"root: no {TOC} in {root}")
    toc = yaml.safe_load(toc_path.read_text(encoding="utf-8"))
    if not isinstance(toc, dict) or "root" not in toc:
        raise ValueError(f"{toc_path}: not a jb-book table of contents (no 'root' key)")
    return toc


def _entries(items: list, numbered: bool):
    """``(docname, numbered)`` for each ``file:`` entry, depth first (the reading order)."""
    for item in items or []:
        if "file" in item:
            yield item["file"], numbered
        # A numbered chapter's sections are part of that chapter, not chapters themselves.
        yield from ((name, False) for name, _ in _entries(item.get("sections"), False))


def pages(root: Path | str = ROOT) -> list[Page]:
    """Every page of ``_toc.yml``, in reading order, with its chapter number.

    Chapters are the top-level entries of the parts marked ``numbered``, counted 1, 2, ...
    across parts (as ``use_multitoc_numbering: true`` in ``_config.yml`` numbers them).

    Parameters
    ----------
    root : pathlib.Path or str
        The repository root (the folder holding ``_toc.yml``).

    Returns
    -------
    list of Page
        Root page first; one entry per ``file:`` of the toc.
    """
    root = Path(root)
    toc = _read_toc(root)
    named: list[tuple[str, bool, int | None, str]] = [(toc["root"], False, None, "")]
    for index, part in enumerate(toc.get("parts") or []):
        named.extend((docname, numbered, index, part.get("caption") or "")
                     for docname, numbered in _entries(part.get("chapters"), bool(part.get("numbered"))))
    named.extend((docname, numbered, None, "") for docname, numbered in _entries(toc.get("chapters"), False))
    result, number = [], 0
    for docname, numbered, part, caption in named:
        number += numbered
        result.append(Page(docname, _source(root, docname), number if numbered else None, part, caption))
    return result


def _source(root: Path, docname: str) -> Path:
    for suffix in (".md", ".ipynb", ".rst"):
        if (root / f"{docname}{suffix}").exists():
            return root / f"{docname}{suffix}"
    return root / f"{docname}.md"  # missing: the caller's existence check names it


def chapters(root: Path | str = ROOT) -> list[Path]:
    """The numbered chapters' source files, chapter 1 first.

    Parameters
    ----------
    root : pathlib.Path or str
        The repository root.

    Returns
    -------
    list of pathlib.Path
        ``chapters(root)[k - 1]`` is chapter k.
    """
    return [page.path for page in pages(root) if page.number is not None]


def part_one(root: Path | str = ROOT) -> list[Path]:
    """The chapters of the first numbered part (Part I: the derivation), chapter 1 first.

    Returns
    -------
    list of pathlib.Path
        The chapters whose part is chapter 1's part.
    """
    numbered = [page for page in pages(root) if page.number is not None]
    return [page.path for page in numbered if numbered and page.part == numbered[0].part]


def is_myst_notebook(text: str) -> bool:
    """Whether a page's text is a jupytext MyST notebook (code cells the build executes).

    The same test MyST-NB applies: front matter with ``file_format: mystnb``, or whose
    ``jupytext.text_representation.format_name`` is ``myst``.
    """
    if not isinstance(text, str):
        raise TypeError(f"text: expected the page's text as str, got {type(text).__name__}")
    if not text.startswith("---\n"):
        return False
    front_matter, _, _ = text[4:].partition("\n---")
    try:
        meta = yaml.safe_load(front_matter) or {}
    except yaml.YAMLError:
        return False
    if not isinstance(meta, dict):
        return False
    if meta.get("file_format") == "mystnb":
        return True
    jupytext = meta.get("jupytext")
    representation = (jupytext or {}).get("text_representation") or {}
    return representation.get("format_name") == "myst"


def notebooks(root: Path | str = ROOT) -> list[Path]:
    """The pages of ``_toc.yml`` that are MyST notebooks, in reading order (what is executed)."""
    return [page.path for page in pages(root)
            if page.path.is_file() and is_myst_notebook(page.path.read_text(encoding="utf-8"))]


def unlisted_sources(root: Path | str = ROOT) -> list[Path]:
    """Page sources (``.md``) in the folders of the book's pages that ``_toc.yml`` does not list.

    The build skips them (``only_build_toc_files``), so a chapter file left out of the toc, or
    kept under an old name, would silently vanish from the book; tests use this list to catch
    one. This is the one function that lists the folder instead of reading the toc.

    Parameters
    ----------
    root : pathlib.Path or str
        The repository root.

    Returns
    -------
    list of pathlib.Path
        Sorted by path; empty when every source is a page of the toc.
    """
    listed = pages(root)
    known = {page.path for page in listed}
    folders = sorted({page.path.parent for page in listed})
    return sorted(path for folder in folders for path in folder.glob("*.md") if path not in known)


CHAPTER_LABEL = re.compile(r"^\((?P<label>chapter-[a-z0-9-]+)\)=[ \t]*\n+# ", flags=re.M)


def chapter_labels(root: Path | str = ROOT) -> dict[str, Page]:
    """The label each chapter carries above its title, and the chapter.

    A chapter's source puts ``(chapter-<name>)=`` on the line above its ``# `` title, so that
    ``{numref}`chapter %s <chapter-rotations>``` reads "chapter 2": Sphinx numbers the link
    from the toc (``numbered: 1`` parts, numbered on across parts).

    Parameters
    ----------
    root : pathlib.Path or str
        The repository root.

    Returns
    -------
    dict of str to Page
        ``{"chapter-rotations": Page("book/02-rotations", ..., number=2, ...), ...}``, in
        reading order; a chapter without such a label is missing from it.
    """
    labels = {}
    for page in pages(root):
        if page.number is None or not page.path.is_file():
            continue
        match = CHAPTER_LABEL.search(page.path.read_text(encoding="utf-8"))
        if match:
            labels[match["label"]] = page
    return labels
