"""Each widget is its class, its ES module and one entry of rope_core/widgets/registry.py.

Everything else about a widget is derived from the entry: the package's exports, the
gallery's card, thumbnail, section and print figure, the print figure of the static pages.
These tests check each entry against the class it names, so an entry cannot drift from the
widget, and that no file of the widgets' folder is left out of the registry.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import rope_core.widgets as W
from rope_core.widgets import _base, registry

ROOT = Path(__file__).resolve().parents[1]
WIDGETS_DIR = ROOT / "rope_core" / "widgets"
# The helpers the widgets' ES modules import ("./common.js", "./lesson.js", ...) and the
# stylesheet common.js brings to every widget: shared, not one widget's.
SHARED = {"common.css"} | {match.group(2) for path in WIDGETS_DIR.glob("*.js")
                           for match in _base._SIBLING_IMPORT.finditer(path.read_text())}
ENTRIES = registry.WIDGETS
IDS = [widget.name for widget in ENTRIES]


@pytest.mark.parametrize("widget", ENTRIES, ids=IDS)
def test_the_entry_names_a_widget_class_of_its_module(widget):
    cls = widget.cls
    assert cls.__name__ == widget.name and cls.__module__ == f"rope_core.widgets.{widget.module}"
    assert issubclass(cls, _base.RopeWidget)


@pytest.mark.parametrize("widget", ENTRIES, ids=IDS)
def test_the_entry_names_the_es_module_and_stylesheets_the_class_loads(widget):
    assert widget.js.endswith(".js") and (WIDGETS_DIR / widget.js).is_file()
    assert widget.cls._esm == _base.module(widget.js.removesuffix(".js"))
    assert widget.cls._css == "".join((WIDGETS_DIR / name).read_text() for name in widget.css)


def _imported_from(path: Path) -> set[str]:
    """The rope_core modules a module of rope_core/widgets/ imports (``..demos.x`` → ``demos.x``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("widget", ENTRIES, ids=IDS)
def test_the_entry_names_the_demo_module_its_class_reads(widget):
    importlib.import_module(f"rope_core.{widget.demo}")
    assert widget.demo in _imported_from(WIDGETS_DIR / f"{widget.module}.py")


@pytest.mark.parametrize("widget", ENTRIES, ids=IDS)
def test_every_widget_has_a_thumbnail_and_a_print_figure(widget):
    assert widget.card.thumbnail, "the gallery card needs a thumbnail: a plotting function or thumbnail_code"
    if widget.print_figure is None:
        assert widget.card.figure, "no print figure: give the card a figure, or print_figure=(page, id)"
        assert widget.print_figure_place == ("gallery", f"fig-gallery-{widget.kebab}")
    else:
        page, figure_id = widget.print_figure
        assert not widget.card.figure, "a gallery figure and another print figure: keep one"
        assert f"name: {figure_id}\n" in (ROOT / "book" / f"{page}.md").read_text(), widget.print_figure


def test_every_es_module_and_stylesheet_of_the_folder_belongs_to_a_widget():
    modules = {path.name for path in WIDGETS_DIR.glob("*.js")} - SHARED
    assert sorted(widget.js for widget in ENTRIES) == sorted(modules)
    sheets = {path.name for path in WIDGETS_DIR.glob("*.css")} - SHARED
    assert {name for widget in ENTRIES for name in widget.css} == sheets


def test_the_package_exports_the_registry_in_book_order():
    assert W.REGISTRY == tuple(widget.cls for widget in ENTRIES)
    assert W.__all__ == ["REGISTRY", "WIDGETS", *IDS]
    for widget in ENTRIES:
        assert getattr(W, widget.name) is widget.cls
    assert len(set(IDS)) == len(IDS)


def test_every_widget_is_documented_on_the_api_page():
    api = (ROOT / "book" / "appendix-api.md").read_text()
    missing = [name for name in IDS if f".. autoclass:: rope_core.widgets.{name}\n" not in api]
    assert not missing, f"add these to book/appendix-api.md: {missing}"


def test_an_unknown_widget_name_is_refused_by_name():
    assert registry.entry("RotationExplorer").cls is W.RotationExplorer
    with pytest.raises(KeyError, match="'PhaseWheel' is not a widget.*RotationExplorer"):
        registry.entry("PhaseWheel")
