"""What a code cell of the book is, read from its code: a check, set-up or a widget.

The build does not guess: authors fold cells with MyST-NB's tags. These rules say which tag a
cell needs, and ``tests/test_page_layer.py`` holds every page to them; ``measure_pages.py``
uses them to count the lines of checks.

- A **check** calls ``claim``/``claim_close`` (``rope_core.claims``), a numpy ``assert_*``, or
  asserts. It folds its code: ``hide-input`` when it draws something, ``hide-cell`` when it
  only prints numbers, or ``show-input`` when the check itself teaches.
- **Set-up** is a cell tagged ``parameters``, a cell of imports and aliases only
  (``R = rope_core.rotation_matrix``), or any cell before the page's first section. It folds
  with ``hide-input``.
- A **widget cell** only imports and builds a widget (``RelativeInvariance()``,
  ``widgets.DecayExplorer()``). It folds with ``hide-input``: the widget shows, its code is one
  click away.
"""

from __future__ import annotations

import ast
import re
import textwrap

CHECK_CALLS = {"claim", "claim_close"}
# A check line in code that is not Python (a cell with a magic), read line by line.
CHECK_LINE = re.compile(r"^\s*(?:assert\b|claim(?:_close)?\(|\S*assert_\w+\()", flags=re.M)
FOLDING_TAGS = {"hide-input", "hide-cell", "remove-input", "remove-cell"}
TEACHING_CHECK = "show-input"  # a check whose code stays on the page


def statements(source: str):
    """The cell's top-level statements, or ``None`` when it is not plain Python (magics)."""
    try:
        return ast.parse(textwrap.dedent(source)).body
    except SyntaxError:
        return None


def is_check_call(node) -> bool:
    """``claim(...)``, ``claim_close(...)``, ``np.testing.assert_allclose(...)`` and the like."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    return name in CHECK_CALLS or name.startswith("assert_")


def check_statements(source: str):
    """The checks in a cell's code (``assert`` statements and check calls, outermost only), or
    ``None`` when the code is not plain Python (a magic)."""
    body = statements(source)
    if body is None:
        return None
    found = []

    def visit(node):
        if isinstance(node, ast.Assert) or is_check_call(node):
            found.append(node)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    for statement in body:
        visit(statement)
    return found


def is_check(source: str) -> bool:
    """Whether a cell checks a claim: it calls ``claim``/``claim_close``/``assert_*`` or asserts."""
    checks = check_statements(source)
    if checks is None:
        return bool(CHECK_LINE.search(source))
    return bool(checks)


def _names_only(statement) -> bool:
    """An import, or an alias such as ``R = rope_core.rotation_matrix``."""
    return isinstance(statement, (ast.Import, ast.ImportFrom)) or (
        isinstance(statement, ast.Assign) and isinstance(statement.value, (ast.Name, ast.Attribute))
    )


def is_setup(source: str) -> bool:
    """Whether a cell only imports and names things (``R = rope_core.rotation_matrix``)."""
    body = statements(source)
    return bool(body) and all(map(_names_only, body))


def is_widget_cell(source: str, widget_names) -> bool:
    """Whether a cell only imports and names things, then builds one of ``widget_names``
    (``RotationExplorer(theta_index=3)``, ``widgets.DecayExplorer()``) and shows it."""
    body = statements(source)
    if not body:
        return False
    *before, last = body
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Name) and before:
        *before, built = before  # explorer = RotationExplorer(...); explorer
        if not (isinstance(built, ast.Assign) and isinstance(built.value, ast.Call)):
            return False
        call = built.value
    elif isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        call = last.value
    else:
        return False
    if not all(map(_names_only, before)):
        return False
    func = call.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    return name in set(widget_names)


def fold_needed(source: str, tags, *, before_first_section: bool, widget_names) -> str | None:
    """Why a cell must carry a folding tag ("a check", "set-up", "a widget cell"), or ``None``
    when it may show its code. A cell that carries one already answers ``None``."""
    tags = set(tags)
    if tags & FOLDING_TAGS:
        return None
    if is_check(source):
        return None if TEACHING_CHECK in tags else "a check"
    if is_widget_cell(source, widget_names):
        return "a widget cell"
    if "parameters" in tags or is_setup(source) or before_first_section:
        return "set-up"
    return None
