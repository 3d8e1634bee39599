"""One line of claims per section: the page shows the idea; the proof is one click away.

Folding is the authors' choice, written as MyST-NB tags on each code cell and done by MyST-NB:
``hide-input`` folds a cell's code above what it shows (set-up, imports, a figure's or a
widget's code, a check that draws), ``hide-cell`` folds code and printed numbers together (a
check that prints), with the toggle's words in the cell's ``mystnb: code_prompt_show``.
``tests/test_page_layer.py`` fails on a check, set-up or widget cell that carries no such tag.

What MyST-NB cannot do is done here: each claim line a cell prints (``rope_core.claims``
writes it as ``<div class="rope-claim">``) is lifted out of the cell into one line at the end of
its section ("✓ 7 claims of this section hold"), with the list one click away. A folded check
cell left with nothing else to show goes into that box too, as "Show the code of these checks",
so a section does not end in a row of empty toggles; so does a ``hide-cell`` check, which
shows nothing on the page but its toggle (its printed numbers go with it).

Nothing changes in the notebooks: in JupyterLab every cell, check and docstring is there and
runs; the build executes every check, so a claim that fails still fails the strict build.
"""

from __future__ import annotations

import hashlib
import re
from html import escape
from pathlib import Path

from docutils import nodes
from internals import leave_folding_to_us, nb_element
from sphinx.transforms.post_transforms import SphinxPostTransform

CLAIM_CLASS = "rope-claim"  # rope_core.claims.CSS_CLASS: the HTML of one claim's line
CLAIM_ROW = re.compile(r'<div class="rope-claim">.*?</div>', flags=re.S)  # one claim in a cell's list
FAILED_MARK = "rope-claim-failed"  # the class of a failed claim's mark
FOLDED = {"hide-input", "hide-cell"}  # MyST-NB's tags that fold a cell's code


class Fold(nodes.Element):
    """A ``<details>`` box whose ``<summary>`` says what it holds (``summary_html``: as HTML)."""


def visit_fold(self, node):
    classes = " ".join(node.get("box_classes", ["rope-fold"]) + node["classes"])
    summary = node.get("summary_html") or escape(node["summary"])
    opened = " open" if node.get("open") else ""
    self.body.append(f'<details class="{classes}"{opened}><summary>{summary}</summary>\n')


def depart_fold(self, node):
    self.body.append("</details>\n")


def _ancestors(node):
    while node.parent is not None:
        node = node.parent
        yield node


def _part(cell, element):
    return next((c for c in cell.children if nb_element(c) == element), None)


def _is_claim_line(node) -> bool:
    return isinstance(node, nodes.raw) and f'class="{CLAIM_CLASS}"' in node.astext()


class ClaimsPerSection(SphinxPostTransform):
    """Lift every cell's claim lines into one line at the end of its section. Runs before
    MyST-NB folds the tagged cells (its priority 199)."""

    default_priority = 190
    formats = ("html",)

    def run(self, **kwargs):
        claims_of = {}  # id(section) -> (section, [claim rows], [folded cells with nothing else to show])
        for cell in list(self.document.findall(nodes.container)):
            if nb_element(cell) != "cell_code":
                continue
            rows, alone = self.take_claims(cell)
            if not rows:
                continue
            section = next(a for a in _ancestors(cell) if isinstance(a, (nodes.section, nodes.document)))
            _, section_rows, cells = claims_of.setdefault(id(section), (section, [], []))
            section_rows += rows
            cells += [cell] if alone else []
        for section, rows, cells in claims_of.values():
            self.summarise_section(section, rows, cells)

    @staticmethod
    def take_claims(cell):
        """Take a cell's claim lines out of its output.

        Returns ``(claim rows as HTML, whether the cell is folded and shows nothing else)``."""
        output = _part(cell, "cell_code_output")
        if output is None:
            return [], False
        rows = []
        for node in list(output.children):
            if _is_claim_line(node):
                rows += CLAIM_ROW.findall(node.astext())
                output.remove(node)
        if not rows:
            return [], False
        cell["classes"].append("rope-check-cell")
        tags = set(cell.get("cell_metadata", {}).get("tags", []))
        if not output.children:
            cell.remove(output)
            return rows, bool(FOLDED & tags)
        # hide-cell folds the numbers it prints too: nothing of it shows on the page
        return rows, "hide-cell" in tags

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
                leave_folding_to_us(cell)  # the box is its toggle; no second one inside
                code.append(cell)
            box.append(code)
        results = nodes.container("", box, classes=["rope-check-results"])
        subsections = [child for child in section.children if isinstance(child, nodes.section)]
        if subsections:
            section.insert(section.index(subsections[0]), results)
        else:
            section.append(results)


def setup(app):
    # The pages must be read again when this file changes (what it records while reading).
    app.add_config_value("rope_teach_first_source", hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16], "env")
    app.add_node(Fold, html=(visit_fold, depart_fold))
    app.add_post_transform(ClaimsPerSection)
    app.add_css_file("rope-site/rope-reader.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
