"""A chapter's figure cell as the build runs it: its caption, alt text and drawn figure.

Tests of the widgets' print twins use it to check that a caption's numbers are the numbers the
figure draws, by running the cell's own code (not a copy of it).
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

BOOK = Path(__file__).resolve().parents[1] / "book"


def figure_cell(chapter, name):
    """``(caption, alt, tags, code)`` of the code cell whose figure is named ``name`` in
    ``book/<chapter>`` (caption and alt with their line breaks joined by spaces)."""
    text = (BOOK / chapter).read_text()
    for match in re.finditer(r"```\{code-cell\} ipython3\n---\n(.*?)\n---\n(.*?)```", text, re.S):
        meta = yaml.safe_load(match.group(1))
        figure = (meta.get("mystnb") or {}).get("figure") or {}
        if figure.get("name") == name:
            alt = meta["mystnb"].get("image", {}).get("alt", "")
            return " ".join(figure["caption"].split()), " ".join(alt.split()), meta.get("tags", []), match.group(2)
    raise LookupError(f"no figure named {name!r} in {chapter}")


def draw_figure(chapter, name, **names):
    """Run the figure cell's code (with ``np``, ``plots``, ``plt`` and ``names``, the values the
    chapter's earlier cells give the names it uses) and return the current matplotlib figure,
    with the caption, alt text and tags."""
    import matplotlib.pyplot as plt
    import numpy as np

    from rope_core import plots

    caption, alt, tags, code = figure_cell(chapter, name)
    plt.close("all")
    exec(compile(code, f"{chapter}:{name}", "exec"), {"np": np, "plots": plots, "plt": plt, **names})
    return plt.gcf(), caption, alt, tags
