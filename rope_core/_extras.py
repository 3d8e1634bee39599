"""Clear errors when an optional part of rope_core is imported without its extra installed."""

from __future__ import annotations

import importlib


def require(extra, modules, *, part):
    """Import each of ``modules`` or raise an ImportError naming the extra that installs it.

    ``part`` is the subpackage asking (``"rope_core.plots"``); ``extra`` the name in
    ``pyproject.toml``'s ``[project.optional-dependencies]``.
    """
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as error:
            raise ImportError(
                f"{part} needs {name}, which is not installed ({error}). Install the "
                f'"{extra}" extra: pip install "rope-core[{extra}]" (the maths in rope_core '
                f"itself needs only NumPy)"
            ) from error
