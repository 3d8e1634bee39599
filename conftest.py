"""Names every docstring example of rope_core may use without importing them.

``pytest`` runs the examples in rope_core's docstrings (``--doctest-modules``, ``testpaths``
in pyproject.toml), so ``make unit`` and ``make test`` fail on an example that no longer holds.
This file sits at the root because pytest looks for the ``doctest_namespace`` fixture in the
conftest files above the collected module (``rope_core/``), not in ``tests/``.
"""

import numpy as np
import pytest

import rope_core


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace):
    doctest_namespace["np"] = np
    doctest_namespace["rope_core"] = rope_core
