"""Matplotlib views of RoPE: every function takes ``ax=`` and returns it.

Importing this module changes no global matplotlib state; figures are created with
:func:`new_figure`, which gives them an opaque face for the dark theme.
"""

from . import attention as _attention
from . import basics as _basics
from . import extension as _extension
from . import multimodal as _multimodal
from . import views as _views
from ._style import PALETTE, axes_or_new, new_figure
from .attention import *  # noqa: F401,F403
from .basics import *  # noqa: F401,F403
from .extension import *  # noqa: F401,F403
from .multimodal import *  # noqa: F401,F403
from .views import *  # noqa: F401,F403

__all__ = ["PALETTE", "axes_or_new", "new_figure", *_basics.__all__, *_attention.__all__, *_views.__all__, *_multimodal.__all__, *_extension.__all__]
