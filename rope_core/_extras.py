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


# The subpackages the second distribution, rope-book, installs into rope_core (its
# pyproject.toml, rope-book/pyproject.toml, lists the same four; a test keeps them equal).
BOOK_PARTS = ("rope_core.demos", "rope_core.plots", "rope_core.widgets", "rope_core.tinymodel")
BOOK_INSTALL = ('pip install "rope-core[plots,widgets] @ git+https://github.com/rope-book/rope-book" '
                '"rope-book @ git+https://github.com/rope-book/rope-book#subdirectory=rope-book"')


class MissingBookPart:
    """The last finder on ``sys.meta_path``: says what to install for a book part not installed.

    Every other finder has already looked for the module when this one is asked, so a
    ``rope_core.widgets`` (or ``.demos``, ``.plots``, ``.tinymodel``) that reaches it is not
    installed: ``pip install rope-core`` is the library alone. It raises a
    ``ModuleNotFoundError`` that names the distribution and the command, instead of Python's
    bare "No module named 'rope_core.widgets'". A module inside a part
    (``rope_core.tinymodel.train``) needs its part imported first, which raises the same;
    a module missing from an installed part is left to Python's own message.
    """

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if fullname not in BOOK_PARTS:
            return None
        part = fullname
        raise ModuleNotFoundError(
            f"{part} is part of the RoPE book, not of the library: it comes with the "
            f"distribution rope-book, which is not installed here (pip install rope-core "
            f"gives the maths, the configs, check_rope and the CLI only). Install both with: "
            f"{BOOK_INSTALL}",
            name=fullname,
        )


def report_missing_book_parts():
    """Put :class:`MissingBookPart` last on ``sys.meta_path``, once per interpreter."""
    import sys

    if not any(isinstance(finder, type) and finder.__name__ == MissingBookPart.__name__
               and finder.__module__ == __name__ for finder in sys.meta_path):
        sys.meta_path.append(MissingBookPart)
