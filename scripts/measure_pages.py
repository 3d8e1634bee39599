"""Count what a reader sees by default on each chapter of the built book.

What is folded (inside a closed ``<details>``, a solution dropdown, or a cell tagged ``print-only``)
is not seen, so it is not counted. Per chapter:

- ``check_lines``: visible code lines of checks: ``claim(...)``/``claim_close(...)`` and
  ``assert_*(...)`` calls and ``assert`` statements;
- ``docstring_lines``: visible docstring lines of shown library code (``show_code``; a
  helper a cell defines may keep its one-line docstring);
- ``bare_bools``: visible outputs that are only ``True`` or ``False``;
- ``code_lines``: visible lines of code (cells and shown library code, not other outputs);
- ``long_code_lines``: visible code lines longer than ``LONG`` characters (they scroll
  sideways at 1280 px, where a code box holds 88 columns);
- ``output_lines``: visible lines of printed or echoed text output;
- ``prose_words`` and ``prose_lines`` (prose at ``MEASURE`` characters a line), from
  paragraphs and list items outside code, solutions and folds.

Usage: python scripts/measure_pages.py [_build/html] [--json]
``tests/test_reader_pages.py`` keeps the zeros at zero.
"""

from __future__ import annotations

import ast
import json
import math
import sys
from pathlib import Path

from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages  # noqa: E402  (the chapters, in the toc's order)
from cell_kinds import CHECK_LINE, check_statements, statements  # noqa: E402  (what a check is)

LONG = 88
MEASURE = 70
HIDDEN_CLASSES = {"dropdown", "toggle-hidden", "tag_print-only"}  # tag_print-only: not on screen (CSS)


def chapter_pages(html: Path) -> list[Path]:
    """The built chapter pages, in reading order (the chapters of ``_toc.yml``)."""
    return [html / "book" / f"{source.stem}.html" for source in book_pages.chapters(ROOT)]


def is_hidden(element) -> bool:
    """Whether a reader does not see ``element`` until they open something."""
    for parent in element.parents:
        if parent.name == "details" and not parent.has_attr("open"):
            summary = parent.find("summary", recursive=False)
            if summary is None or not _inside(element, summary):
                return True
        classes = set(parent.get("class") or [])
        if classes & HIDDEN_CLASSES:
            title = parent.find(class_="admonition-title", recursive=False)
            if title is None or not _inside(element, title):
                return True
    return False


def _inside(element, container) -> bool:
    """Whether ``element`` is ``container`` or in it (by identity: BeautifulSoup's ``==`` says
    two tags with the same markup are equal, such as the ✓ of a summary and of a line)."""
    return element is container or any(parent is container for parent in element.parents)


def check_line_count(code: str) -> int:
    """Lines of ``code`` spanned by checks (``cell_kinds.check_statements``; a regex count if
    the code is not Python)."""
    checks = check_statements(code)
    if checks is None:
        return len(CHECK_LINE.findall(code))
    return len({line for node in checks for line in range(node.lineno, node.end_lineno + 1)})


def docstring_line_count(code: str) -> int:
    """Lines of docstrings of the functions and classes defined in ``code``."""
    body = statements(code)
    if body is None:
        return 0
    count = 0
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            if node.body and ast.get_docstring(node, clean=False) is not None:
                count += node.body[0].end_lineno - node.body[0].lineno + 1
    return count


def measure_page(path: Path) -> dict[str, int]:
    soup = BeautifulSoup(path.read_text(), "html.parser")
    article = soup.find("article") or soup
    counts = dict.fromkeys(
        ("check_lines", "docstring_lines", "bare_bools", "code_lines", "long_code_lines",
         "output_lines", "prose_words", "prose_lines"), 0)
    for pre in article.select("div.highlight pre"):
        if is_hidden(pre):
            continue
        text = pre.get_text()
        lines = text.rstrip("\n").splitlines()
        output = pre.find_parent(class_="cell_output") or pre.find_parent(class_="output")
        # Library code a show_code cell shows is its output, highlighted as Python: code.
        shown_code = output is not None and pre.find_parent(class_="highlight-python") is not None
        if output is not None and not shown_code:
            counts["output_lines"] += len(lines)
            if text.strip() in ("True", "False"):
                counts["bare_bools"] += 1
            continue
        counts["code_lines"] += len(lines)
        counts["long_code_lines"] += sum(len(line) > LONG for line in lines)
        counts["check_lines"] += check_line_count(text)
        if pre.find_parent(class_="cell_input") is None:  # shown library code, not a notebook cell
            counts["docstring_lines"] += docstring_line_count(text)
    for block in article.find_all(["p", "li"]):
        if block.name == "li" and block.find("p"):
            continue  # its paragraphs are counted
        if is_hidden(block) or block.find_parent(["figcaption", "table", "nav"]) is not None:
            continue
        if block.find_parent(class_="admonition-title") is not None or "admonition-title" in (block.get("class") or []):
            continue
        text = " ".join(block.get_text(" ").split())
        if text:
            counts["prose_words"] += len(text.split())
            counts["prose_lines"] += math.ceil(len(text) / MEASURE)
    return counts


def measure_book(html: Path) -> dict[str, dict[str, int]]:
    """``{page stem: counts}`` for every chapter, plus ``"total"``."""
    pages = {path.stem: measure_page(path) for path in chapter_pages(html)}
    if not pages:
        raise FileNotFoundError(f"no chapter pages under {html}/book: build the book first (make book)")
    pages["total"] = {key: sum(counts[key] for counts in pages.values()) for key in next(iter(pages.values()))}
    return pages


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    html = Path(args[0]) if args else ROOT / "_build" / "html"
    result = measure_book(html)
    if "--json" in argv:
        print(json.dumps(result, indent=1))
        return 0
    keys = list(result["total"])
    print(f"{'page':28s}" + "".join(f"{k.replace('_', ' '):>11.11s}" for k in keys))
    for name, counts in result.items():
        print(f"{name:28s}" + "".join(f"{counts[k]:>11d}" for k in keys))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
