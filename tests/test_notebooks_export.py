"""`make notebooks`: every chapter becomes an .ipynb whose first cell sets up rope_core.

The set-up cell must install nothing when rope_core is importable (a local `make lab`) and,
in a Python without rope_core (a fresh Colab or Binder kernel), print how to install it
instead of failing with a traceback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"


def _notebook_sources() -> list[Path]:
    """The MyST-markdown notebooks in book/ (chapters and gallery), as the exporter sees them."""
    return sorted(p for p in BOOK.glob("*.md") if p.read_text().startswith("---\njupytext:"))


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """Run the exporter exactly as `make notebooks` does, into a temporary directory."""
    output = tmp_path_factory.mktemp("notebooks")
    result = subprocess.run(
        [sys.executable, "scripts/export_notebooks.py", "book", str(output)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return output


def test_every_chapter_and_the_gallery_is_exported(exported):
    chapters = sorted(BOOK.glob("[0-9][0-9]-*.md"))
    assert chapters, "no chapters found in book/"
    expected = {p.stem for p in chapters} | {"gallery"}
    written = {p.stem for p in exported.glob("*.ipynb")}
    assert expected <= written, f"not exported: {sorted(expected - written)}"
    assert written == {p.stem for p in _notebook_sources()}


def test_exported_notebooks_are_valid_and_keep_every_cell(exported):
    for source in _notebook_sources():
        notebook = nbformat.read(exported / f"{source.stem}.ipynb", as_version=4)
        nbformat.validate(notebook)
        original = jupytext.read(source)
        setup, *rest = notebook.cells
        assert setup.cell_type == "code" and "rope_core" in setup.source, source.name
        assert [c.source for c in rest] == [c.source for c in original.cells], source.name
        assert notebook.metadata["kernelspec"]["name"] == "python3", source.name
        assert all(not c.get("outputs") for c in notebook.cells if c.cell_type == "code")


def _setup_cell(exported) -> str:
    notebook = nbformat.read(next(exported.glob("*.ipynb")), as_version=4)
    return notebook.cells[0].source


def test_setup_cell_installs_nothing_when_rope_core_is_importable(exported, tmp_path):
    source = _setup_cell(exported)
    # No shell escapes or pip calls that would run unconditionally in a notebook.
    for line in source.splitlines():
        stripped = line.strip()
        assert not stripped.startswith(("%", "!")), line
        assert "subprocess" not in stripped and "pip.main" not in stripped, line
    result = subprocess.run(
        [sys.executable, "-c", source], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and result.stderr == ""


def test_setup_cell_without_rope_core_prints_how_to_install_it(exported, tmp_path):
    source = _setup_cell(exported)
    # -S: no site-packages, so neither rope_core nor its dependencies are importable; the
    # working directory is empty so the repository's own rope_core/ is not found either.
    probe = subprocess.run(
        [sys.executable, "-S", "-c", "import rope_core"], cwd=tmp_path, capture_output=True, text=True
    )
    assert probe.returncode != 0, "rope_core is importable even without site-packages"
    result = subprocess.run(
        [sys.executable, "-S", "-c", source], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "rope_core" in result.stdout and "pip install" in result.stdout
    assert "make lab" in result.stdout
