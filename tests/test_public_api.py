"""rope_core's public API: exactly the announced names, each function with an Examples section.

The examples themselves run as doctests (``--doctest-modules`` in pyproject.toml).
"""

from __future__ import annotations

import inspect
import types

import pytest

import rope_core

PUBLIC_FUNCTIONS = sorted(name for name in rope_core.__all__ if inspect.isfunction(getattr(rope_core, name)))


@pytest.mark.parametrize("name", PUBLIC_FUNCTIONS)
def test_every_public_function_has_an_example(name):
    function = getattr(rope_core, name)
    assert ">>> " in (function.__doc__ or ""), f"rope_core.{name} has no Examples"


#: rope_core's top-level API. Adding or removing a name is an API change: update this set in
#: the same commit and announce the change in the coordination API notes.
EXPECTED_PUBLIC_API = {
    "ROPE_TYPES", "RopeSpec", "apply_rope", "apply_rope_complex",
    "apply_rope_elementwise", "apply_rope_matrix", "attention_factor", "clear_table_cache",
    "cos_sin_tables", "default_inverse_frequencies", "from_config",
    "half_to_interleaved", "interleaved_to_half", "interleaved_to_half_permutation",
    "inverse_frequencies", "layer_plan", "linear_attention_with_rope", "long_term_decay_bound",
    "min_base_for_context", "permute_for_half_layout", "published_config", "relative_scores",
    "rope_angles",
    "rope_attention", "rope_matrix", "rotate_2d", "rotate_every_two", "rotate_half",
    "rotation_matrix", "softmax_attention", "wavelengths", "yarn_correction_range", "yarn_ramp",
}


def test_all_is_exactly_the_public_api():
    assert len(rope_core.__all__) == len(set(rope_core.__all__)), "a name is listed twice in __all__"
    assert set(rope_core.__all__) == EXPECTED_PUBLIC_API
    # Every public name the package binds (submodules aside) is listed, and nothing else.
    bound = {name for name, value in vars(rope_core).items()
             if not name.startswith("_") and not isinstance(value, types.ModuleType)}
    assert bound == set(rope_core.__all__)
