"""Names every docstring example of rope_core may use without importing them.

``pytest`` runs the examples in rope_core's docstrings (``--doctest-modules``, ``testpaths``
in pyproject.toml), so ``make unit`` and ``make test`` fail on an example that no longer holds.
This file sits at the root because pytest looks for the ``doctest_namespace`` fixture in the
conftest files above the collected module (``rope_core/``), not in ``tests/``. Being the
first file pytest imports, it also sets the BLAS thread count before numpy is loaded.
"""

import os

# One BLAS thread per process, set before numpy loads (this conftest is the first file pytest
# imports): the test files run on one pytest-xdist worker per core and the chapters' kernels
# run side by side, so more threads only contend (the tiny model's tests took ten times the CPU).
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import rope_core  # noqa: E402


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace):
    doctest_namespace["np"] = np
    doctest_namespace["rope_core"] = rope_core
