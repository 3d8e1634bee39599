"""Undocumented internals of Sphinx, MyST-NB and the theme are used in one named place only.

``book/_ext/internals.py`` wraps each one in a named, documented function. Everywhere else in
``book/_ext`` and ``scripts`` the code must use those functions (or public API): no import of
a private (underscore) name or module from another package, no private attribute of another
package's object (``manager._get_os_path``), and none of the internal attribute or context
names or undocumented modules listed below.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLACE = ROOT / "book" / "_ext" / "internals.py"
# Internals known to be used by the book, as attribute names or string keys.
INTERNAL_NAMES = {
    "nb_element": "MyST-NB's cell-part marker (internals.nb_element)",
    "hide_mode": "MyST-NB's folding attribute (internals.leave_folding_to_us)",
    "mystnb_config": "MyST-NB's configuration on the environment (internals.execution_cache_path)",
    "header_buttons": "sphinx-book-theme's template context (internals.header_buttons)",
    "templates": "the HTML builder's Jinja loader (internals.add_template_filter)",
    "external_site_map": "sphinx-external-toc's parsed toc on the environment (use book_pages)",
    "toc_secnumbers": "Sphinx's section numbers on the environment (use book_pages)",
    "labels": "the std domain's label table (link a section with MyST's page.md#anchor)",
    "anonlabels": "the std domain's label table (link a section with MyST's page.md#anchor)",
}
# Names that are also ordinary words as strings ("templates" is a folder name): attributes only.
COMMON_WORDS = {"templates", "labels"}
# Not part of the book: the survey runs in a venv of its own, against transformers' internals.
NOT_THE_BOOK = {ROOT / "scripts" / "survey_transformers.py"}
# Modules a package does not document as API: importing them is an internal use.
INTERNAL_MODULES = {
    "sphinx_exercise.nodes": "sphinx-exercise's node classes (internals.is_exercise_solution)",
}


def local_modules() -> set[str]:
    """The modules of book/_ext and scripts, and rope_core: ours, not another package's."""
    local = {path.stem for folder in ("book/_ext", "scripts") for path in (ROOT / folder).glob("*.py")}
    return local | {"rope_core"}


def private_attribute(node: ast.Attribute, local: set[str]) -> bool:
    """``obj._name`` on anything but ``self``, ``cls`` or one of our own modules."""
    if not node.attr.startswith("_") or node.attr.startswith("__"):
        return False
    return not (isinstance(node.value, ast.Name) and node.value.id in {"self", "cls", *local})


def internal_uses(path: Path, local: set[str]) -> list[str]:
    """``"file:line what"`` for every private import and internal name in one Python file."""
    found = []
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            module = node.module or "" if isinstance(node, ast.ImportFrom) else ""
            top = module.split(".")[0]
            if isinstance(node, ast.ImportFrom) and (node.level or top in local or top in sys.stdlib_module_names):
                continue
            names = [module, *(alias.name for alias in node.names)]
            private = [name for name in names for part in name.split(".") if part.startswith("_")
                       and part != "__future__"]
            if private:
                found.append(f"{where}:{node.lineno} imports private {', '.join(private)}")
            for name in names:
                if name in INTERNAL_MODULES:
                    found.append(f"{where}:{node.lineno} imports {name}: {INTERNAL_MODULES[name]}")
        elif isinstance(node, ast.Attribute) and private_attribute(node, local):
            found.append(f"{where}:{node.lineno} .{node.attr}: a private attribute of another package's object")
        elif isinstance(node, ast.Attribute) and node.attr in INTERNAL_NAMES:
            found.append(f"{where}:{node.lineno} .{node.attr}: {INTERNAL_NAMES[node.attr]}")
        elif isinstance(node, ast.Constant) and node.value in INTERNAL_NAMES and node.value not in COMMON_WORDS:
            found.append(f"{where}:{node.lineno} {node.value!r}: {INTERNAL_NAMES[node.value]}")
    return found


def files() -> list[Path]:
    return sorted([*(ROOT / "book" / "_ext").glob("*.py"), *(ROOT / "scripts").glob("*.py")])


def test_internals_are_used_only_in_the_named_place():
    local = local_modules()
    problems = [use for path in files() if path != PLACE and path not in NOT_THE_BOOK
                for use in internal_uses(path, local)]
    assert not problems, "move these into book/_ext/internals.py:\n" + "\n".join(problems)


def test_the_named_place_holds_each_internal_it_names():
    uses = "\n".join(internal_uses(PLACE, local_modules()))
    for name in ("nb_element", "hide_mode", "mystnb_config", "header_buttons", "templates",
                 "sphinx_exercise.nodes", "._get_os_path"):
        assert name in uses, name


def test_book_map_is_covered():
    # The extension that once read the toc, the section numbers and the label tables itself.
    assert ROOT / "book" / "_ext" / "book_map.py" in files()


@pytest.mark.parametrize("code, expected", [
    ("from sphinx.util._pathlib import _StrPath", "imports private"),
    ("import myst_nb._compat", "imports private"),
    ("def f(env):\n    return env.mystnb_config", ".mystnb_config"),
    ("def f(context):\n    return context.get('header_buttons')", "'header_buttons'"),
    ("def f(app):\n    app.builder.templates.environment.filters['x'] = len", ".templates"),
    ("def f(env):\n    return env.external_site_map", ".external_site_map"),
    ("def f(env):\n    return env.toc_secnumbers['book/x']", ".toc_secnumbers"),
    ("def f(std):\n    std.labels['x'] = ('d', 'a', 't')", ".labels"),
    ("from sphinx_exercise.nodes import solution_node", "imports sphinx_exercise.nodes"),
    ("def f(manager, path):\n    return manager._get_os_path(path)", "._get_os_path"),
])
def test_a_private_use_is_caught(tmp_path, code, expected):
    path = tmp_path / "extension.py"
    path.write_text(code + "\n")
    uses = internal_uses(path, local_modules())
    assert any(expected in use for use in uses), uses


def test_public_imports_and_local_modules_are_not_flagged(tmp_path):
    path = tmp_path / "script.py"
    path.write_text("from __future__ import annotations\nfrom sphinx.util.docutils import SphinxDirective\n"
                    "import book_pages\nfrom export_notebooks import _split_options\n"
                    "TEMPLATES = 'templates'\nimport export_notebooks\nexport_notebooks._split_options('')\n"
                    "class A:\n    def f(self):\n        return self._cache\n")
    assert internal_uses(path, local_modules()) == []
