"""Print the test files (and rope_core modules, for their doctests) that need numpy only.

CI's "oldest" job runs them on the oldest Python and NumPy pyproject.toml allows, with
nothing else installed but pytest and hypothesis: the promise that ``pip install rope-core``
gives working maths on those versions. A file is in when every module it imports is from the
standard library, numpy, pytest, hypothesis, or rope_core outside the book's extras
(demos, plots, widgets, tinymodel), and when it does not name those parts in a string either
(a test that imports them in a subprocess, or skips without them, is not a core test).

Usage: python .ci/core_tests.py    (prints one path per line, relative to the root)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {"numpy", "pytest", "hypothesis", "rope_core", "__future__"}
BOOK_PARTS = ("demos", "plots", "widgets", "tinymodel")


def needs_numpy_only(path: Path) -> bool:
    """Whether every import in ``path`` (inside functions too) is core or standard library."""
    text = path.read_text(encoding="utf-8")
    if "importorskip" in text or any(f"rope_core.{part}" in text for part in BOOK_PARTS):
        return False
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative, inside rope_core: "from ..plots import" climbs to a book part
                names = [f"rope_core.{node.module or ''}"] if any(
                    part in (node.module or "").split(".") for part in BOOK_PARTS) else []
            else:
                names = [node.module or ""]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] in sys.stdlib_module_names:
                continue
            if parts[0] not in ALLOWED or (parts[0] == "rope_core" and set(parts[1:2]) & set(BOOK_PARTS)):
                return False
    return True


def core_paths(root: Path = ROOT) -> list[str]:
    library = [path for path in sorted((root / "rope_core").glob("*.py")) if needs_numpy_only(path)]
    tests = [path for path in sorted((root / "tests").glob("test_*.py")) if needs_numpy_only(path)]
    return [str(path.relative_to(root)) for path in library + tests]


if __name__ == "__main__":
    print("\n".join(core_paths()))
