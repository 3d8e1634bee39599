"""The pages of the book, in reading order, as listed in ``_toc.yml``."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def toc_pages(root: Path = ROOT) -> list[Path]:
    """Paths of the ``.md`` files named in ``root/_toc.yml`` (root page first)."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    names = [toc["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                names.append(entry["file"])
            walk(entry.get("sections"))
            walk(entry.get("chapters"))

    walk(toc.get("parts"))
    walk(toc.get("chapters"))
    return [root / f"{name}.md" for name in names]


def is_notebook(path: Path) -> bool:
    """True for MyST-markdown notebooks (a jupytext header), false for plain pages."""
    return path.read_text().startswith("---\njupytext:")
