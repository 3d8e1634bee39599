"""Live widgets of the book (anywidget): Python computes with rope_core, the browser draws.

Each widget works in JupyterLab, Notebook 7, VS Code and on the static pages of the book,
where its state (the precomputed tables) is embedded in the HTML.
"""

from .explorers import (
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
