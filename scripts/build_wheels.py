"""Build the two wheels of this tree: rope-core (the library) and rope-book (the book's part).

Both distributions install into the one import package ``rope_core``:

* ``rope-core`` (``pyproject.toml``): the maths, ``configs/`` (``from_config`` reads
  ``configs/transformers_survey.jsonl``), ``check_rope`` and the CLI; NumPy only.
* ``rope-book`` (``rope-book/pyproject.toml``): ``rope_core.demos``, ``.plots``, ``.widgets``
  (with their ES modules and CSS) and ``.tinymodel`` (with its corpus, checkpoints and
  results), read from the repository root.

The wheels are built from a fresh copy of the sources in a temporary folder, because
setuptools puts whatever an earlier build left in ``build/lib`` into the next wheel (a
leftover ``rope_core/widgets`` from before the split would land in the library's wheel).

Usage: ``python scripts/build_wheels.py [OUTPUT_FOLDER]`` (``make wheels``: ``dist/``).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What the two pyproject.toml files read: the library's metadata, the package, the book part's
# project folder.
SOURCES = ("pyproject.toml", "README.md", "rope_core", "rope-book")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "*.egg-info")


def uv_command() -> str:
    """The uv next to this Python (the venv's, pinned by the Makefile), else uv on PATH."""
    beside = Path(sys.executable).parent / "uv"
    found = str(beside) if beside.exists() else shutil.which("uv")
    if found is None:
        raise RuntimeError("building the wheels needs uv: run `make venv`, or `pip install uv`")
    return found


def build_wheels(output: Path, root: Path = ROOT) -> dict[str, Path]:
    """Build both wheels into ``output``; return ``{"rope-core": path, "rope-book": path}``.

    Parameters
    ----------
    output : Path
        Folder for the ``.whl`` files (created if missing; older wheels of the same names are
        replaced).
    root : Path
        The repository root whose sources are built.
    """
    output = Path(output).resolve()
    output.mkdir(parents=True, exist_ok=True)
    uv = uv_command()
    built = {}
    with tempfile.TemporaryDirectory(prefix="rope-wheels-") as scratch:
        copy = Path(scratch)
        for name in SOURCES:
            source = root / name
            if source.is_dir():
                shutil.copytree(source, copy / name, ignore=IGNORED)
            else:
                shutil.copy2(source, copy / name)
        for distribution, project in (("rope-core", copy), ("rope-book", copy / "rope-book")):
            into = copy / f"wheel-{distribution}"
            subprocess.run([uv, "build", "--quiet", "--wheel", "--out-dir", str(into), str(project)],
                           check=True)
            (wheel,) = into.glob("*.whl")
            built[distribution] = Path(shutil.copy2(wheel, output / wheel.name))
    return built


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", type=Path, default=ROOT / "dist",
                        help="folder for the wheels (default: dist/)")
    arguments = parser.parse_args(argv)
    for distribution, wheel in build_wheels(arguments.output).items():
        print(f"{distribution}: {wheel.relative_to(Path.cwd()) if wheel.is_relative_to(Path.cwd()) else wheel}"
              f" ({wheel.stat().st_size / 1000:.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
