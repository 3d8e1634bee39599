"""rope_core.shown_code: the one way the book shows library code, a cell whose output is the
function's source (the same in the book, JupyterLab, Binder and Colab)."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import jupytext
import pytest

import rope_core
from rope_core.shown_code import ShownCode, show_code, split_docstring

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages  # noqa: E402  (the pages, in the toc's order)

SHOW_CALL = re.compile(r"^show_code\((?P<arguments>[^)]*)\)\s*$")


def test_the_docstring_is_split_from_the_code_it_documents():
    code = 'def f(x):\n    """Twice x.\n\n    Returns\n    -------\n    float\n    """\n    return 2 * x\n'
    shown, docstring = split_docstring(code)
    assert shown == "def f(x):\n    return 2 * x\n"
    assert docstring.count("\n") == 6 and "Twice x." in docstring
    assert split_docstring("def g():\n    return 1\n") == ("def g():\n    return 1\n", "")
    method = "    def h(self):\n        'One line.'\n        return 1\n"
    assert split_docstring(method)[0] == "    def h(self):\n        return 1\n"


def test_the_markdown_shows_the_code_and_folds_the_docstring():
    markdown = show_code(rope_core.rotation_matrix, rope_core.rotate_2d)._repr_markdown_()
    for function in (rope_core.rotation_matrix, rope_core.rotate_2d):
        code, docstring = ShownCode([function]).code_and_docstrings()[0]
        assert f"```python\n{code}\n```" in markdown
        assert '"""' in docstring.splitlines()[0] and docstring not in code
        folded = re.search(rf"<details[^>]*><summary>Show the docstring of {function.__name__}</summary>"
                           rf"\n\n```python\n(.*?)\n```\n\n</details>", markdown, re.S)
        assert folded and folded.group(1) == docstring
    assert "<details open" not in markdown


def test_the_plain_text_is_the_whole_source():
    import inspect

    assert repr(show_code(rope_core.rotate_2d)) == inspect.getsource(rope_core.rotate_2d).rstrip("\n")


def test_a_fence_is_longer_than_any_backticks_in_the_code():
    def quoting():
        """A docstring with a fenced block.

        ````python
        x = 1
        ````
        """
        return "```"

    markdown = show_code(quoting)._repr_markdown_()
    assert markdown.startswith("`````python\n")


@pytest.mark.parametrize(("call", "names"), [
    (lambda: show_code(), "objects"),
    (lambda: show_code("rope_core.rotate_2d"), "objects"),
    (lambda: show_code(rope_core.rotate_2d, 3), "objects"),
    (lambda: split_docstring(None), "source"),
])
def test_bad_input_names_the_argument(call, names):
    with pytest.raises(TypeError, match=names):
        call()


def _chapter_cells():
    for path in [page.path for page in book_pages.pages(ROOT)]:
        if "```{code-cell}" in path.read_text(encoding="utf-8"):
            yield path, jupytext.read(path).cells


def _imports(cells):
    """The top-level import statements of a page's code cells, as one piece of code."""
    found = []
    for cell in cells:
        try:
            tree = ast.parse(cell.source) if cell.cell_type == "code" else None
        except SyntaxError:  # a cell with an IPython magic
            continue
        found += [ast.unparse(node) for node in getattr(tree, "body", [])
                  if isinstance(node, (ast.Import, ast.ImportFrom))]
    return "\n".join(found)


def test_library_code_is_shown_one_way_only():
    """No page includes files any more: every translator of includes is gone with them."""
    for path in [page.path for page in book_pages.pages(ROOT)]:
        assert "{literalinclude}" not in path.read_text(encoding="utf-8"), path.name


def test_every_show_code_cell_shows_library_code_and_hides_only_its_call_in_the_book():
    shown = 0
    for path, cells in _chapter_cells():
        namespace = {}
        exec(_imports(cells), namespace)  # the page's own imports, so its names resolve as there
        for cell in cells:
            if cell.cell_type != "code" or "show_code(" not in cell.source:
                continue
            match = SHOW_CALL.match(cell.source.strip())
            assert match, f"{path.name}: a show_code cell holds only the call: {cell.source!r}"
            assert "remove-input" in cell.metadata.get("tags", []), path.name
            objects = eval(f"({match['arguments']},)", namespace)
            for item in objects:
                assert item.__module__.startswith("rope_core"), (path.name, item)
            markdown = show_code(*objects)._repr_markdown_()
            assert all(re.search(rf"^(def|class) {item.__name__}\b", markdown, re.M) for item in objects)
            shown += len(objects)
    assert shown >= 40, shown


def test_part_one_shows_the_maths_only():
    """Chapters 1-6 show functions of rope_core.maths: no argument checks, no Part II arguments
    (tests/test_maths.py holds both, and that the public functions compute the same numbers)."""
    from rope_core import maths

    for path in book_pages.part_one(ROOT):
        calls = re.findall(r"^show_code\((.*)\)$", path.read_text(encoding="utf-8"), re.M)
        assert calls, path.name
        for call in calls:
            objects = eval(f"({call},)", {"rope_core": rope_core})
            assert all(getattr(maths, item.__name__, None) is item for item in objects), (path.name, call)
