"""rope_core: the tested numerical core of the RoPE book (NumPy only).

Figures live in :mod:`rope_core.plots` (matplotlib) and widgets in :mod:`rope_core.widgets`
(anywidget); neither is imported here, so the maths needs nothing but NumPy. Those two, with
:mod:`rope_core.demos` and :mod:`rope_core.tinymodel`, are installed by the second
distribution, rope-book; without it, importing one of them says what to install.
"""

from importlib import metadata as _metadata

# Submodules bound on import (not in __all__): the redundant aliases mark them as re-exported.
from . import atlas as atlas  # rope_core.atlas.names(), .entry(name), .specs(name)
from . import maths as maths  # Part I's formulas without argument checks: what the book shows
from . import testing as testing  # rope_core.testing.check_rope(fn, head_dim=...)
from ._extras import report_missing_book_parts as _report_missing_book_parts
from ._fast import clear_table_cache
from .apply import (
    apply_rope,
    apply_rope_complex,
    apply_rope_elementwise,
    apply_rope_matrix,
    cos_sin_tables,
    rope_angles,
    rope_matrix,
    rotate_every_two,
    rotate_half,
)
from .attention import (
    linear_attention_with_rope,
    relative_scores,
    rope_attention,
    softmax_attention,
)
from .bounds import long_term_decay_bound, min_base_for_context
from .config import RopeSpec, from_config, layer_plan, published_config
from .frequencies import (
    ROPE_TYPES,
    attention_factor,
    default_inverse_frequencies,
    inverse_frequencies,
    wavelengths,
    yarn_correction_range,
    yarn_ramp,
)
from .layouts import (
    half_to_interleaved,
    interleaved_to_half,
    interleaved_to_half_permutation,
    permute_for_half_layout,
)
from .rotation import rotate_2d, rotation_matrix

# Without the rope-book distribution, `import rope_core.widgets` (and .demos, .plots,
# .tinymodel) says what to install instead of only "No module named".
_report_missing_book_parts()

try:  # one source for the version: pyproject.toml, as installed
    __version__ = _metadata.version("rope-core")
except _metadata.PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "ROPE_TYPES",
    "RopeSpec",
    "apply_rope",
    "apply_rope_complex",
    "apply_rope_elementwise",
    "apply_rope_matrix",
    "attention_factor",
    "clear_table_cache",
    "cos_sin_tables",
    "default_inverse_frequencies",
    "from_config",
    "half_to_interleaved",
    "interleaved_to_half",
    "interleaved_to_half_permutation",
    "inverse_frequencies",
    "layer_plan",
    "linear_attention_with_rope",
    "long_term_decay_bound",
    "min_base_for_context",
    "permute_for_half_layout",
    "published_config",
    "relative_scores",
    "rope_angles",
    "rope_attention",
    "rope_matrix",
    "rotate_2d",
    "rotate_every_two",
    "rotate_half",
    "rotation_matrix",
    "softmax_attention",
    "wavelengths",
    "yarn_correction_range",
    "yarn_ramp",
]
