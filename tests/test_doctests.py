"""Run the Examples sections of the core modules' docstrings, and require one per public function."""

from __future__ import annotations

import doctest
import importlib
import inspect

import numpy as np
import pytest

import rope_core

MODULES = ["rotation", "frequencies", "apply", "layouts", "analysis", "timing"]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = importlib.import_module(f"rope_core.{name}")
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = finder.find(module, globs={"np": np, **vars(module)})
    assert tests, f"rope_core.{name} has no doctests"
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in rope_core.{name}"


PUBLIC_FUNCTIONS = sorted(name for name in rope_core.__all__ if inspect.isfunction(getattr(rope_core, name)))


@pytest.mark.parametrize("name", PUBLIC_FUNCTIONS)
def test_every_public_function_has_an_example(name):
    function = getattr(rope_core, name)
    assert ">>> " in (function.__doc__ or ""), f"rope_core.{name} has no Examples"


def test_all_is_exactly_the_public_api():
    brief = {
        "rotation_matrix", "rotate_2d", "inverse_frequencies", "attention_factor", "rope_angles", "rope_matrix",
        "apply_rope", "apply_rope_matrix", "apply_rope_complex", "interleaved_to_half", "half_to_interleaved",
        "permute_for_half_layout", "relative_scores", "long_term_decay_bound", "min_base_for_context",
        "wavelengths", "softmax_attention", "rope_attention", "linear_attention_with_rope",
    }
    assert brief <= set(rope_core.__all__)
    for name in rope_core.__all__:
        assert hasattr(rope_core, name)
