"""Live widgets of the book (anywidget): Python computes with rope_core, the browser draws.

Each widget works in JupyterLab, Notebook 7, VS Code and on the static pages of the book,
where its state (the precomputed tables) is embedded in the HTML.
"""

from .._extras import require

require("widgets", ["anywidget", "ipywidgets", "traitlets"], part="rope_core.widgets")

from .explorers import (  # noqa: E402
    ContextExtension,
    DecayExplorer,
    FrequencyClocks,
    LayoutExplorer,
    RelativeInvariance,
    RotationExplorer,
    RotationMatrixHeatmap,
)

__all__ = [
    "ContextExtension",
    "DecayExplorer",
    "FrequencyClocks",
    "LayoutExplorer",
    "RelativeInvariance",
    "RotationExplorer",
    "RotationMatrixHeatmap",
]
