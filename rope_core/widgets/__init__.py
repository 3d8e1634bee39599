"""Live widgets of the book (anywidget): Python computes with rope_core, the browser draws.

Each widget works in JupyterLab, Notebook 7, VS Code and on the static pages of the book,
where its state (the precomputed tables) is embedded in the HTML.
"""

from .._extras import require

require("widgets", ["anywidget", "ipywidgets", "traitlets"], part="rope_core.widgets")

from .explorers import (  # noqa: E402
    CandidateExplorer,
    ContextExtension,
    DecayExplorer,
    FrequencyClocks,
    LayoutExplorer,
    RelativeInvariance,
    RotationExplorer,
    RotationMatrixHeatmap,
)

# The one widget registry, in the gallery's order: the tests, the gallery check and the
# benchmark iterate it (adding a widget = one class + one entry here + its gallery section).
REGISTRY = (RotationExplorer, CandidateExplorer, RelativeInvariance, FrequencyClocks, RotationMatrixHeatmap,
            DecayExplorer, ContextExtension, LayoutExplorer)

__all__ = [
    "REGISTRY",
    "CandidateExplorer",
    "ContextExtension",
    "DecayExplorer",
    "FrequencyClocks",
    "LayoutExplorer",
    "RelativeInvariance",
    "RotationExplorer",
    "RotationMatrixHeatmap",
]
