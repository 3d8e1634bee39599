"""Checks that test claims, not defaults: every chapter runs with the values a reader might try.

A chapter whose numbers a reader may change has one code cell tagged ``parameters`` (plain
assignments) whose metadata lists ``variants``: dicts of other values (the convention in
``CONTRIBUTING.md``). For each variant this test runs the whole chapter with
nbclient, with one extra cell right after the parameters cell that assigns the variant's
values, and requires that

* every cell runs (no exception anywhere: a bare ``assert`` on a default number fails here);
* standard error holds nothing but ``rope_core.claims`` messages ("Claim does not hold for
  these values: ..." and their indented "because ..." lines): a claim that no longer holds
  for the reader's values must say so by name, and nothing else may be printed there
  (warnings included).

Runs go to a pool of worker processes (``ROPE_VARIANT_WORKERS``, default 2: the machine's
cores), so the chapters' kernels run side by side; each test then reads its own run's result.
A pool process drives one run after another (it imports nbclient and jupytext once), and
each run gets a kernel of its own, started for it and shut down after it, as a reader's
fresh notebook would. Only the runs of the selected tests are started (``-k`` keeps working).
"""

from __future__ import annotations

import concurrent.futures
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages  # noqa: E402  (the pages and chapters, in the toc's order)

BOOK = ROOT / "book"
CELL_TIMEOUT = 180  # seconds for one cell of a chapter
RUN_TIMEOUT = 900  # seconds to wait for one run's result (kernel start included)
WORKERS = int(os.environ.get("ROPE_VARIANT_WORKERS", "2"))


def chapters() -> list[Path]:
    """The numbered chapters of the book that are notebooks, in reading order."""
    notebooks = set(book_pages.notebooks(ROOT))
    return [path for path in book_pages.chapters(ROOT) if path in notebooks]


def parameters_cells(notebook) -> list[int]:
    return [
        index
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code" and "parameters" in cell.metadata.get("tags", [])
    ]


def variants_of(path: Path) -> list[dict]:
    """The ``variants`` of the chapter's parameters cell ([] when it has none)."""
    import jupytext

    notebook = jupytext.read(path)
    cells = parameters_cells(notebook)
    if len(cells) != 1:
        return []
    variants = notebook.cells[cells[0]].metadata.get("variants") or []
    return list(variants)


def _variant_cases() -> list:
    cases = []
    for path in chapters():
        for index, variant in enumerate(variants_of(path)):
            label = ",".join(f"{k}={v}" for k, v in variant.items()) if isinstance(variant, dict) else "?"
            cases.append(pytest.param(path.name, index, id=f"{path.stem}[{index}:{label}]"))
    return cases


# --- the parameters cell itself ------------------------------------------------------------


def test_every_chapter_has_one_parameters_cell_with_variants():
    import jupytext

    lacking, malformed = [], []
    for path in chapters():
        notebook = jupytext.read(path)
        cells = parameters_cells(notebook)
        if not cells:
            lacking.append(path.name)
            continue
        if len(cells) > 1:
            malformed.append(f"{path.name}: {len(cells)} cells tagged parameters (one expected)")
            continue
        variants = notebook.cells[cells[0]].metadata.get("variants")
        if not isinstance(variants, list) or len(variants) < 2:
            malformed.append(f"{path.name}: 'variants' must list 2 or more dicts, got {variants!r}")
            continue
        bad = [v for v in variants if not isinstance(v, dict) or not v]
        if bad:
            malformed.append(f"{path.name}: variants must be non-empty dicts, got {bad!r}")
    assert not malformed, "\n".join(malformed)
    assert not lacking, f"chapters without a cell tagged 'parameters': {sorted(lacking)}"


@pytest.mark.parametrize("path", chapters(), ids=lambda p: p.name)
def test_parameters_cell_holds_only_plain_assignments_of_names_it_defines(path):
    """Variants may only name what the cell assigns, and the cell only assigns."""
    import ast

    import jupytext

    notebook = jupytext.read(path)
    cells = parameters_cells(notebook)
    if not cells:
        pytest.skip(f"{path.name} has no parameters cell yet")
    cell = notebook.cells[cells[0]]
    tree = ast.parse(cell.source)
    assigned = set()
    for statement in tree.body:
        assert isinstance(statement, ast.Assign), (
            f"{path.name}: the parameters cell may hold only plain assignments, "
            f"found: {ast.unparse(statement)}"
        )
        for target in statement.targets:
            elements = target.elts if isinstance(target, ast.Tuple) else [target]
            for element in elements:
                assert isinstance(element, ast.Name), f"{path.name}: {ast.unparse(target)}"
                assigned.add(element.id)
    for variant in cell.metadata.get("variants") or []:
        unknown = set(variant) - assigned
        assert not unknown, f"{path.name}: variant {variant} sets {sorted(unknown)}, not parameters"


# --- running each variant ---------------------------------------------------------------


def run_variant(chapter: str, index: int) -> dict:
    """Run ``book/<chapter>`` with variant ``index`` injected; return what happened.

    Returns a dict with ``error`` (the first failing cell's error text, or None), ``stderr``
    (every standard-error text, one entry per output, with its cell number) and ``cells``.
    Executes in the calling process (a pool process); the chapter runs in a new kernel.
    """
    import jupytext
    import nbclient
    import nbformat

    path = BOOK / chapter
    notebook = jupytext.read(path)
    (position,) = parameters_cells(notebook)
    variant = notebook.cells[position].metadata["variants"][index]
    assignments = "\n".join(f"{name} = {value!r}" for name, value in variant.items())
    injected = nbformat.v4.new_code_cell(f"# variant {index} of the parameters above\n{assignments}")
    notebook.cells.insert(position + 1, injected)
    client = nbclient.NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        allow_errors=False,
        resources={"metadata": {"path": str(BOOK)}},
    )
    error = None
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as failure:
        error = str(failure)[-4000:]
    stderr = []
    for number, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream" and output.get("name") == "stderr":
                stderr.append({"cell": number, "text": output["text"]})
    return {"error": error, "stderr": stderr, "cells": len(notebook.cells)}


def not_claim_messages(text: str) -> str:
    """What is left of a standard-error text once every claim message is taken out.

    A claim message is a line starting with ``rope_core.claims.MARKER`` followed by any
    indented continuation lines (its "because ..." explanation).
    """
    from rope_core.claims import MARKER

    left, inside = [], False
    for line in text.splitlines():
        if line.startswith(MARKER):
            inside = True
        elif inside and (line.startswith((" ", "\t")) or not line.strip()):
            pass
        else:
            inside = False
            left.append(line)
    return "\n".join(left).strip()


@pytest.fixture(scope="module")
def variant_runs(request):
    """Start every selected variant run in the worker pool; map (chapter, index) → future."""
    import multiprocessing

    wanted = [
        (item.callspec.params["chapter"], item.callspec.params["index"])
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_chapter_runs_with_variant" and hasattr(item, "callspec")
    ]
    # "spawn": a pool process starts clean, not as a copy of this pytest process.
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=max(1, min(WORKERS, len(wanted))), mp_context=multiprocessing.get_context("spawn"))
    try:
        yield {case: pool.submit(run_variant, *case) for case in wanted}
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.book  # runs the book's chapters: not part of the fast `make unit`
@pytest.mark.parametrize(("chapter", "index"), _variant_cases())
def test_chapter_runs_with_variant(chapter, index, variant_runs):
    run = variant_runs[(chapter, index)].result(timeout=RUN_TIMEOUT)
    variant = variants_of(BOOK / chapter)[index]
    assert run["error"] is None, f"{chapter} with {variant} stops at a cell:\n{run['error']}"
    stray = [
        f"cell {entry['cell']}: {left}"
        for entry in run["stderr"]
        if (left := not_claim_messages(entry["text"]))
    ]
    assert not stray, (
        f"{chapter} with {variant} writes to stderr something other than a claim message:\n"
        + "\n".join(stray)[:4000]
    )


def test_claim_message_filter_keeps_anything_else():
    """The stderr filter above lets claim messages through and nothing else."""
    from rope_core.claims import MARKER

    claim_only = f"{MARKER} for these values: every pair turns\n  because pair 3 is at 1.2 rad\n"
    assert not_claim_messages(claim_only) == ""
    assert not_claim_messages(claim_only + "RuntimeWarning: overflow\n") == "RuntimeWarning: overflow"
    assert not_claim_messages("Traceback (most recent call last):\n  File x") != ""
    assert re.search("warn", not_claim_messages(f"UserWarning: warn\n{MARKER}: x\n"))
