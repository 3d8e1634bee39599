"""Live widgets of the book (anywidget): Python computes with rope_core, the browser draws.

Each widget works in JupyterLab, Notebook 7, VS Code and on the static pages of the book,
where its state (the precomputed tables) is embedded in the HTML.

The widgets are the entries of :data:`rope_core.widgets.registry.WIDGETS`, in book order; each
class is exported here under its name (``rope_core.widgets.RotationExplorer``), and
``REGISTRY`` is the tuple of the classes. A new widget is its class, its ES module and its
registry entry: nothing here changes.
"""

from .._extras import require

require("widgets", ["anywidget", "ipywidgets", "traitlets"], part="rope_core.widgets")

from .registry import WIDGETS  # noqa: E402

REGISTRY = tuple(widget.cls for widget in WIDGETS)
globals().update({cls.__name__: cls for cls in REGISTRY})

__all__ = ["REGISTRY", "WIDGETS", *(cls.__name__ for cls in REGISTRY)]
