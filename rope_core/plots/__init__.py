"""Matplotlib views of RoPE: every function takes ``ax=`` and returns it.

Importing this module changes no global matplotlib state; figures are created with
:func:`new_figure`, which gives them an opaque face for the dark theme.
"""

from ._style import PALETTE, axes_or_new, new_figure

__all__ = ["PALETTE", "axes_or_new", "new_figure"]
