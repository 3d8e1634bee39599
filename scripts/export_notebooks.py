"""Write an .ipynb copy of every MyST-markdown chapter, for readers who want notebooks.

Usage: python scripts/export_notebooks.py SOURCE_DIR OUTPUT_DIR

Each copy starts with a set-up cell that installs nothing when ``rope_core`` is importable
and otherwise prints how to get it (for Colab and Binder): a plain message, not a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jupytext
import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
REPOSITORY = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]

SETUP_CELL = f'''\
# Set-up: this notebook needs the book's `rope_core` package. When it is importable (for
# example after `make lab`), this cell does nothing and installs nothing.
import importlib.util

if importlib.util.find_spec("rope_core") is None:
    print(
        "This notebook needs the book's rope_core package, which is not installed here.\\n"
        "Install it by running this in a new cell, then restart the kernel:\\n"
        "    %pip install 'rope-core[plots,widgets] @ git+{REPOSITORY}'\\n"
        "or clone the repository and run `make lab`."
    )
'''


def export(source_dir: Path, output_dir: Path) -> list[Path]:
    """Convert ``source_dir/*.md`` notebooks into ``output_dir/*.ipynb``; return the paths."""
    output_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for source in sorted(source_dir.glob("*.md")):
        if not source.read_text().startswith("---\njupytext:"):
            continue  # plain pages (glossary, references) are not notebooks
        notebook = jupytext.read(source)
        setup = nbformat.v4.new_code_cell(SETUP_CELL)
        setup.metadata["tags"] = ["remove-cell"]
        notebook.cells.insert(0, setup)
        target = output_dir / (source.stem + ".ipynb")
        nbformat.write(notebook, target)
        written.append(target)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    written = export(Path(argv[1]), Path(argv[2]))
    print(f"wrote {len(written)} notebooks to {argv[2]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
