"""Matplotlib views of RoPE: every function takes ``ax=`` and returns it.

Importing this module changes no global matplotlib state; figures are created with
:func:`new_figure`, which gives them an opaque face for the dark theme.
"""

from .._extras import require

require("plots", ["matplotlib"], part="rope_core.plots")

from . import attention as _attention  # noqa: E402
from . import basics as _basics  # noqa: E402
from . import extension as _extension  # noqa: E402
from . import multimodal as _multimodal  # noqa: E402
from . import part_two as _part_two  # noqa: E402
from . import summaries as _summaries  # noqa: E402
from . import views as _views  # noqa: E402
from ._style import PALETTE, axes_or_new, new_figure  # noqa: E402
from .attention import *  # noqa: E402, F403
from .basics import *  # noqa: E402, F403
from .extension import *  # noqa: E402, F403
from .multimodal import *  # noqa: E402, F403
from .part_two import *  # noqa: E402, F403
from .summaries import *  # noqa: E402, F403
from .views import *  # noqa: E402, F403

__all__ = ["PALETTE", "axes_or_new", "new_figure", *_basics.__all__, *_attention.__all__, *_views.__all__, *_multimodal.__all__, *_extension.__all__, *_part_two.__all__,
           *_summaries.__all__]
