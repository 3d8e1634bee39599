"""Chapter 5's sentences about RotationMatrixHeatmap state what the widget's Python class ships:
its base stops, the x it multiplies, and the wedge that trails each hand while m plays (the
module's SWEEP_POSITIONS positions of turn, one, so the wedge spans θ_i)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from test_widgets_prose_browser import prose_before

import rope_core as rc
from rope_core import widgets as W

MODULE = Path(rc.__file__).parent / "widgets" / "rotation_matrix_heatmap.js"


def test_chapter_5_heat_map_sentences_match_the_widget():
    prose = prose_before("05-d-dimensions.md", "RotationMatrixHeatmap")
    widget = W.RotationMatrixHeatmap()
    bases = np.array(widget.data["bases"])
    stops = re.search(r"The base slider has (\w+) stops a decade from \$(\d+)\$ to \$10\^(\d)\$, "
                      r"([\d ]+) and ([\d ]+) among them\.", prose)
    assert stops, prose
    per_decade = {"ten": 10, "five": 5, "twenty": 20}[stops.group(1)]
    np.testing.assert_allclose(np.diff(np.log10(bases)), 1 / per_decade, atol=1e-12)
    assert bases[0] == int(stops.group(2)) and bases[-1] == np.float64(10.0) ** int(stops.group(3))
    for named in (stops.group(4), stops.group(5)):
        assert float(named.replace(" ", "")) in widget.data["bases"], named
    assert "pairs all start at $(1, 0)$" in prose
    for layout, dim in zip(widget.data["layouts"], widget.data["dims"]):
        assert layout["x"] == np.tile([1.0, 0.0], dim // 2).tolist()
    # "a shaded wedge trails each dial's hand over θ_i, the angle its pair turns through each
    # time m grows by one": the wedge covers SWEEP_POSITIONS positions of turn.
    assert "trails each dial's hand over $\\theta_i$" in prose
    assert "export const SWEEP_POSITIONS = 1;" in MODULE.read_text()
