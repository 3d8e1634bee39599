"""Show a library function's source as a cell's output: the one way the book shows code.

A chapter shows the code it teaches with a code cell ``show_code(rope_core.rotation_matrix)``.
The cell's output is the function's source, read from the installed package with
:func:`inspect.getsource`, so the book, JupyterLab, Binder and Colab all show the code that
runs, and no copy can drift from it. The output is Markdown (a fenced ``python`` block),
which each of them highlights the same way; the docstring sits under the code in a
``<details>`` box, closed, so the page shows the lines that compute. The book hides the cell's
own line (tag ``remove-input``); a notebook shows it, so a reader sees how to ask for more.

Standard library only (IPython is imported when a kernel displays the result).

Examples
--------
>>> def twice(x):
...     '''Twice x.'''
...     return 2 * x
>>> print(ShownCode([twice]).code_and_docstrings()[0][0])
def twice(x):
    return 2 * x
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from html import escape

__all__ = ["ShownCode", "show_code", "split_docstring"]

DOCSTRING_CSS_CLASS = "rope-fold rope-docstring"  # the book's folded-box style


def split_docstring(source):
    """``(source without its docstring, the docstring's lines)`` of one def or class.

    Parameters
    ----------
    source : str
        The source of one function, method or class, as :func:`inspect.getsource` gives it
        (indented as in its file for a method).

    Returns
    -------
    code, docstring : str
        The source with the docstring's lines removed, and those lines (``""`` when there is
        no docstring).

    Examples
    --------
    >>> split_docstring('def f(x):\\n    \"\"\"Twice x.\"\"\"\\n    return 2 * x\\n')
    ('def f(x):\\n    return 2 * x\\n', '    \"\"\"Twice x.\"\"\"\\n')
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, got {type(source).__name__}")
    tree = ast.parse(textwrap.dedent(source))
    definition = next((node for node in tree.body
                       if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))), None)
    if definition is None or ast.get_docstring(definition, clean=False) is None:
        return source, ""
    first = definition.body[0]
    lines = source.splitlines(keepends=True)
    start, end = first.lineno - 1, first.end_lineno
    return "".join(lines[:start] + lines[end:]), "".join(lines[start:end])


def _fence(code):
    """A Markdown code fence longer than any run of backticks in ``code``."""
    longest = max((len(run) for run in re.findall(r"`{3,}", code)), default=0)
    return "`" * max(3, longest + 1)


class ShownCode:
    """The source of functions or classes, displayed as a highlighted Markdown code block.

    Parameters
    ----------
    objects : list of function, method or class
        What to show, in order; each must have source that :func:`inspect.getsource` finds.

    Notes
    -----
    Displayed in a notebook as ``text/markdown`` (the code without docstrings, each docstring
    in a closed ``<details>`` box under its code) and as ``text/plain`` (the whole source).
    """

    def __init__(self, objects):
        for item in objects:
            if not (inspect.isfunction(item) or inspect.ismethod(item) or inspect.isclass(item)):
                raise TypeError(f"objects must be functions, methods or classes, got {item!r}")
        self.objects = list(objects)

    def sources(self):
        """The full source of each object, dedented, as in its file."""
        return [textwrap.dedent(inspect.getsource(item)) for item in self.objects]

    def code_and_docstrings(self):
        """``[(code without docstring, docstring dedented), ...]``, one pair per object."""
        pairs = []
        for source in self.sources():
            code, docstring = split_docstring(source)
            pairs.append((code.rstrip("\n"), textwrap.dedent(docstring).rstrip("\n")))
        return pairs

    def _repr_markdown_(self):
        blocks = []
        for item, (code, docstring) in zip(self.objects, self.code_and_docstrings()):
            fence = _fence(code + "\n" + docstring)
            blocks.append(f"{fence}python\n{code}\n{fence}")
            if docstring:
                blocks.append(f'<details class="{DOCSTRING_CSS_CLASS}">'
                              f"<summary>Show the docstring of {escape(item.__qualname__)}</summary>\n\n"
                              f"{fence}python\n{docstring}\n{fence}\n\n</details>")
        return "\n\n".join(blocks) + "\n"

    def __repr__(self):
        return "\n\n".join(source.rstrip("\n") for source in self.sources())


def show_code(*objects):
    """The source of ``objects``, to show as a cell's output (the cell's last expression).

    Parameters
    ----------
    *objects : function, method or class
        What to show, e.g. ``show_code(rope_core.rotation_matrix, rope_core.rotate_2d)``.

    Returns
    -------
    ShownCode
        Displays as the objects' code, highlighted, each docstring folded under its code.
    """
    if not objects:
        raise TypeError("objects: give at least one function, method or class to show")
    return ShownCode(objects)
