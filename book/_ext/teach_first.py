"""The page shows the idea; the proof is one click away. Rules applied to every page at build time.

- **Check cells.** A code cell that checks a claim (it calls ``claim``/``claim_close`` of
  ``rope_core.claims``, a numpy ``assert_*`` or has an ``assert``) gives its claims to its
  section, which shows them all as one line at its end ("✓ 7 claims of this section hold"),
  the list one click away and the checks' code and printed numbers one click further. A
  check cell that also draws a figure, a table or a widget keeps it in place, with its code
  in a toggle under it. Tags on the cell: ``show-input`` keeps the code on the page (for a
  cell that teaches), ``show-output`` keeps what it prints visible.
- **Set-up cells.** A cell tagged ``parameters``, a cell of imports and aliases only
  (``R = rope_core.rotation_matrix``) and any cell before the page's first section fold into
  a one-line toggle. A ``hide-input`` cell (a figure's drawing code) folds under its figure.
- **Widget cells.** A cell that only imports and builds a widget (``RelativeInvariance()``)
  shows the widget; its code folds under it.
- **Library code** is a cell's output (``rope_core.shown_code.show_code``), the same in the
  book and in a notebook; nothing here handles it.

Nothing changes in the notebooks: in JupyterLab every cell, check and docstring is there and
runs; the build executes every check, so a claim that fails still fails the strict build.
"""

from __future__ import annotations

import ast
import hashlib
import re
import textwrap
from html import escape
from pathlib import Path

from docutils import nodes
from internals import leave_folding_to_us, nb_element
from sphinx.transforms.post_transforms import SphinxPostTransform

CLAIM_CLASS = "rope-claim"  # rope_core.claims.CSS_CLASS: the HTML of one claim's line
CLAIM_ROW = re.compile(r'<div class="rope-claim">.*?</div>', flags=re.S)  # one claim in a cell's list
FAILED_MARK = "rope-claim-failed"  # the class of a failed claim's mark
CHECK_CALLS = {"claim", "claim_close"}
CHECK_LINE = re.compile(r"^\s*(?:assert\b|claim(?:_close)?\(|\S*assert_\w+\()", flags=re.M)  # code that is not Python
SHOW_INPUT, SHOW_OUTPUT = "show-input", "show-output"
FOLDED_OUTPUTS = {"stream", "text_plain"}  # printed numbers and echoed values


class Fold(nodes.Element):
    """A ``<details>`` box whose ``<summary>`` says what it holds (``summary_html``: as HTML)."""


def visit_fold(self, node):
    classes = " ".join(node.get("box_classes", ["rope-fold"]) + node["classes"])
    summary = node.get("summary_html") or escape(node["summary"])
    opened = " open" if node.get("open") else ""
    self.body.append(f'<details class="{classes}"{opened}><summary>{summary}</summary>\n')


def depart_fold(self, node):
    self.body.append("</details>\n")


def _statements(source: str):
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
    """The checks in a cell's code (``assert`` statements and check calls, outermost
    only), or ``None`` when the code is not plain Python (a magic)."""
    statements = _statements(source)
    if statements is None:
        return None
    found = []

    def visit(node):
        if isinstance(node, ast.Assert) or is_check_call(node):
            found.append(node)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    for statement in statements:
        visit(statement)
    return found


def is_check(source: str) -> bool:
    """Whether a cell checks a claim: it calls ``claim``/``claim_close``/``assert_*`` or asserts."""
    checks = check_statements(source)
    if checks is None:
        return bool(CHECK_LINE.search(source))
    return bool(checks)


def is_setup(source: str) -> bool:
    """Whether a cell only imports and names things (``R = rope_core.rotation_matrix``)."""
    statements = _statements(source)
    return bool(statements) and all(map(_names_only, statements))


def _names_only(statement) -> bool:
    """An import, or an alias such as ``R = rope_core.rotation_matrix``."""
    return isinstance(statement, (ast.Import, ast.ImportFrom)) or (
        isinstance(statement, ast.Assign) and isinstance(statement.value, (ast.Name, ast.Attribute)))


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def is_widget_cell(cell, source: str) -> bool:
    """Whether a cell only imports and builds a widget that it shows."""
    statements = _statements(source)
    if not statements:
        return False
    *before, last = statements
    if not (isinstance(last, ast.Expr) and isinstance(last.value, ast.Call)) or not all(map(_names_only, before)):
        return False
    output = _part(cell, "cell_code_output")
    return output is not None and any(WIDGET_VIEW in node.astext() for node in output.findall(nodes.raw))


def opens_the_page(cell) -> bool:
    """Whether a cell comes before the page's first section: set-up, not yet the story."""
    return isinstance(cell.parent, nodes.section) and isinstance(cell.parent.parent, nodes.document)


def _ancestors(node):
    while node.parent is not None:
        node = node.parent
        yield node


def _part(cell, element):
    return next((c for c in cell.children if nb_element(c) == element), None)


def _is_claim_line(node) -> bool:
    return isinstance(node, nodes.raw) and f'class="{CLAIM_CLASS}"' in node.astext()


def _is_folded_output(node) -> bool:
    return isinstance(node, nodes.literal_block) and bool(FOLDED_OUTPUTS & set(node["classes"]))


class FoldChecksAndSetup(SphinxPostTransform):
    """Check cells: claim lines on the page, code and printed numbers in a toggle. Setup
    cells: folded. Runs before MyST-NB's own hide-input (priority 199)."""

    default_priority = 190
    formats = ("html",)

    def run(self, **kwargs):
        claims_of = {}  # id(section) -> (section, [claim rows], [check cells with nothing else to show])
        for cell in list(self.document.findall(nodes.container)):
            if nb_element(cell) != "cell_code":
                continue
            tags = set(cell.get("cell_metadata", {}).get("tags", []))
            source = _part(cell, "cell_code_source")
            if source is None:
                continue
            code = source.astext()
            if is_check(code):
                rows, alone = self.fold_check(cell, source, SHOW_OUTPUT in tags, SHOW_INPUT in tags)
                section = next(a for a in _ancestors(cell) if isinstance(a, (nodes.section, nodes.document)))
                _, section_rows, cells = claims_of.setdefault(id(section), (section, [], []))
                section_rows += rows
                cells += [cell] if alone else []
            elif SHOW_INPUT in tags:
                continue
            elif is_widget_cell(cell, code):
                cell.append(self.fold(cell, source, [], "Show the widget's code", "rope-setup"))  # under it
            elif "parameters" in tags or is_setup(code) or opens_the_page(cell):
                what = "parameters" if "parameters" in tags else "imports" if is_setup(code) else "set-up code"
                cell.insert(0, self.fold(cell, source, [], f"Show the {what}", "rope-setup"))
            elif "hide-input" in tags:  # a figure's drawing code: under the figure, as the others
                cell.append(self.fold(cell, source, [], "Show the code", "rope-setup"))
        for section, rows, cells in claims_of.values():
            if rows:
                self.summarise_section(section, rows, cells)

    @staticmethod
    def summarise_section(section, rows, cells):
        """One line for the claims of a section, at its end (before its subsections): the
        list of claims one click away, the code of the checks that show nothing else one
        click further. A failed claim opens the box (the build fails on it anyway)."""
        failed = sum(FAILED_MARK in row for row in rows)
        total = len(rows)
        if failed:
            verb = "does" if failed == 1 else "do"
            mark, text = "✗", f"{failed} of {total} claims of this section {verb} not hold"
        else:
            mark, text = "✓", f"{total} claim{'s' if total > 1 else ''} of this section hold{'s' if total == 1 else ''}"
        state = "fails" if failed else "holds"
        mark_html = f'<span class="{CLAIM_CLASS}-mark{" " + FAILED_MARK if failed else ""}">{mark}</span>'
        box = Fold(summary=f"{mark} {text}", summary_html=f"{mark_html} {escape(text)}", open=bool(failed),
                   box_classes=["rope-claims", f"rope-claims-{state}", "rope-section-claims"], classes=[])
        box.append(nodes.raw("", "".join(rows), format="html"))
        if cells:
            code = Fold(summary="Show the code of these checks", classes=["rope-check"])
            for cell in cells:
                cell.parent.remove(cell)
                code.append(cell)
            box.append(code)
        results = nodes.container("", box, classes=["rope-check-results"])
        subsections = [child for child in section.children if isinstance(child, nodes.section)]
        if subsections:
            section.insert(section.index(subsections[0]), results)
        else:
            section.append(results)

    @staticmethod
    def fold(cell, source, folded_outputs, summary, css_class):
        fold = Fold(summary=summary, classes=[css_class])
        fold.append(source)
        if folded_outputs:
            fold.append(nodes.container("", *folded_outputs, classes=["cell_output", "rope-check-output"]))
        cell.remove(source)
        leave_folding_to_us(cell)  # folded here, not again by MyST-NB
        return fold

    def fold_check(self, cell, source, keep_prints, keep_code):
        """Take a check cell's claims out of it; fold its code and printed numbers.

        Returns ``(claim rows as HTML, whether the cell shows nothing else)``: a cell that
        shows nothing else goes whole into its section's box; one that draws something keeps
        it in place, with the code in a toggle under it."""
        output = _part(cell, "cell_code_output")
        rows, folded = [], []
        for node in list(output.children) if output is not None else []:
            if _is_claim_line(node):
                rows += CLAIM_ROW.findall(node.astext())
            elif _is_folded_output(node) and not keep_prints:
                folded.append(node)
            else:
                continue
            output.remove(node)
        if output is not None and not output.children:
            cell.remove(output)
        cell["classes"].append("rope-check-cell")
        leave_folding_to_us(cell)
        if keep_code:  # a check that teaches: its code stays on the page, its claims go
            if folded:
                cell.append(nodes.container("", *folded, classes=["cell_output", "rope-check-output"]))
            return rows, False
        if rows and _part(cell, "cell_code_output") is None:  # asserts alone keep their own toggle
            if folded:
                cell.append(nodes.container("", *folded, classes=["cell_output", "rope-check-output"]))
            return rows, True
        summary = "Show the check" + (" and its numbers" if folded else "")
        cell.append(self.fold(cell, source, folded, summary, "rope-check"))
        return rows, False


def setup(app):
    # The pages must be read again when this file changes (what it records while reading).
    app.add_config_value("rope_teach_first_source", hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16], "env")
    app.add_node(Fold, html=(visit_fold, depart_fold))
    app.add_post_transform(FoldChecksAndSetup)
    app.add_css_file("rope-site/rope-reader.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
