"""Regenerate _toc.yml from the chapters present in book/ (used while chapters land)."""
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRACKED = set(subprocess.run(["git", "ls-files", "book"], cwd=ROOT, capture_output=True, text=True).stdout.split())
PARTS = [
    ("Foundations: from a rotation to RoPE", ["01-why-positions", "02-rotations", "03-complex-form", "04-deriving-rope"]),
    ("RoPE in d dimensions", ["05-relative-position", "06-d-dimensions", "07-computing-fast", "08-rope-in-attention"]),
    ("RoPE in today's models", ["09-longer-contexts", "10-pitfalls", "11-beyond-1d"]),
    ("Explore", ["gallery"]),
    ("Appendix", ["appendix-api", "appendix-glossary", "appendix-references"]),
]
lines = ["# Table of contents (https://jupyterbook.org/en/stable/structure/toc.html)", "format: jb-book", "root: book/index", "parts:"]
for caption, names in PARTS:
    present = [n for n in names if f"book/{n}.md" in TRACKED]
    if present:
        lines += [f'  - caption: "{caption}"', "    chapters:"] + [f"      - file: book/{n}" for n in present]
(ROOT / "_toc.yml").write_text("\n".join(lines) + "\n")
print((ROOT / "_toc.yml").read_text())
