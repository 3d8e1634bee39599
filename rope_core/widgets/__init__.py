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
from .part_two import KVCacheTimeline, ScalingPairs  # noqa: E402
from .trained import TrainedModelExplorer  # noqa: E402

# The one widget registry, in book order (where a chapter first builds each widget; the
# gallery is in that order): the tests, the gallery check and the benchmark iterate it
# (adding a widget = one class + one entry here, at its chapter's place + its gallery section).
REGISTRY = (RelativeInvariance, RotationExplorer, CandidateExplorer, RotationMatrixHeatmap, FrequencyClocks,
            LayoutExplorer, DecayExplorer, ContextExtension, ScalingPairs, TrainedModelExplorer, KVCacheTimeline)

__all__ = [
    "REGISTRY",
    "CandidateExplorer",
    "ContextExtension",
    "DecayExplorer",
    "FrequencyClocks",
    "KVCacheTimeline",
    "LayoutExplorer",
    "RelativeInvariance",
    "RotationExplorer",
    "RotationMatrixHeatmap",
    "ScalingPairs",
    "TrainedModelExplorer",
]
