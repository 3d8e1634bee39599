"""A chapter renamed or removed does not leave its old page in the built site."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import site_assets  # noqa: E402


def test_pages_without_a_source_are_removed_and_the_rest_kept(tmp_path):
    for name in ("book/02-rotations.html", "book/06-computing-fast.html", "book/sub/old.html",
                 "index.html", "search.html", "genindex.html"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("<html></html>")
    removed = site_assets.remove_stale_pages(tmp_path, {"book/02-rotations", "index"})
    assert removed == ["book/06-computing-fast.html", "book/sub/old.html"]
    left = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.html"))
    assert left == ["book/02-rotations.html", "genindex.html", "index.html", "search.html"]
