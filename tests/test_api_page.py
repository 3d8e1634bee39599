"""Everything a chapter calls from rope_core is documented on the API page.

The chapters' code cells are the reader's examples: a function or class they call and the
reference page (``book/appendix-api.md``) does not document is a name the reader cannot look
up. The scan reads each chapter's code cells (not the ``show_code(...)`` arguments, which show
source rather than call it), follows ``import`` aliases such as ``from rope_core import atlas``,
resolves each dotted name to its object, and looks for that object among what the page's
``auto*`` directives document. Modules and data constants are left out: a reader calls
functions and classes.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
import types
from pathlib import Path

import pytest

import rope_core

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import book_pages as toc  # the chapters, in the toc's order

BOOK = Path(__file__).resolve().parent.parent / "book"
CODE_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.S | re.M)
SHOWN_SOURCE = re.compile(r"show_code\([^)]*\)")
FROM_IMPORT = re.compile(r"^\s*from (rope_core[\w.]*) import \(?([^)\n]+)\)?", re.M)
PLAIN_IMPORT = re.compile(r"^\s*import (rope_core[\w.]*)(?: as (\w+))?", re.M)
DIRECTIVE = re.compile(r"^\.\. (auto\w+):: ([\w.]+)\n((?:   :[\w-]+:.*\n(?: {6,}\S.*\n)*)*)", re.M)


def resolve(dotted):
    """Follow ``dotted`` from ``rope_core`` while it names modules; return (name, object).

    The walk stops at the first object that is not a module, so ``atlas.FAMILIES.items``
    resolves to ``rope_core.atlas.FAMILIES``.
    """
    parts = dotted.split(".")
    if parts[0] != "rope_core":
        raise ValueError(f"dotted must start with 'rope_core', got {dotted!r}")
    obj, name = rope_core, "rope_core"
    for part in parts[1:]:
        if not isinstance(obj, types.ModuleType):
            break
        try:
            obj = getattr(obj, part)
        except AttributeError:
            obj = importlib.import_module(f"{name}.{part}")
        name += "." + part
    return name, obj


def chapter_references(text):
    """``{dotted name: object}`` for what one chapter's code cells use (private names left out)."""
    code = SHOWN_SOURCE.sub("", "\n".join(CODE_CELL.findall(text)))
    aliases = {"rope_core": "rope_core"}  # one kernel runs the whole chapter
    for module, names in FROM_IMPORT.findall(code):
        for item in filter(None, (part.strip() for part in names.split(","))):
            name, _, alias = item.partition(" as ")
            aliases[(alias or name).strip()] = f"{module}.{name.strip()}"
    for module, alias in PLAIN_IMPORT.findall(code):
        aliases[alias or module] = module
    found = {}
    for alias, target in aliases.items():
        for match in re.finditer(r"(?<![\w.])" + re.escape(alias) + r"((?:\.\w+)*)", code):
            name, obj = resolve(target + match.group(1))
            if not any(part.startswith("_") for part in name.split(".")):
                found[name] = obj
    return found


def documented_objects(text):
    """Objects the API page's ``auto*`` directives document, as Sphinx's autodoc picks them."""
    objects = []
    for kind, target, options in DIRECTIVE.findall(text + "\n"):
        objects.append(resolve(target)[1])
        members = re.search(r":members:(.*(?:\n {6,}\S.*)*)", options)
        if kind != "automodule" or members is None:
            continue
        module = importlib.import_module(target)
        listed = [name.strip() for name in members.group(1).replace("\n", " ").split(",")
                  if name.strip()]
        if not listed:  # a bare :members: takes __all__, else what the module itself defines
            listed = getattr(module, "__all__", None) or [
                name for name, value in vars(module).items()
                if not name.startswith("_") and getattr(value, "__module__", None) == target]
        objects.extend(getattr(module, name) for name in listed)
    return objects


def is_callable_api(obj):
    return inspect.isfunction(obj) or inspect.isclass(obj)


CHAPTERS = toc.chapters()


def test_the_scan_sees_the_chapters_calls():
    """The scan is not vacuous: it finds calls made through each import style."""
    found = {name for chapter in CHAPTERS for name in chapter_references(chapter.read_text())}
    assert {"rope_core.apply_rope", "rope_core.atlas.table_rows",
            "rope_core.multimodal.mrope", "rope_core.tinymodel.model.ModelConfig"} <= found


def test_a_call_missing_from_the_page_is_reported():
    chapter = "```{code-cell} ipython3\nfrom rope_core import atlas\natlas.names()\n```\n"
    page = "```{eval-rst}\n.. autofunction:: rope_core.atlas.entry\n```\n"
    used = {name: obj for name, obj in chapter_references(chapter).items() if is_callable_api(obj)}
    documented = {id(obj) for obj in documented_objects(page)}
    assert used == {"rope_core.atlas.names": rope_core.atlas.names}
    assert id(rope_core.atlas.names) not in documented
    assert id(rope_core.atlas.entry) in documented


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda path: path.stem)
def test_every_function_a_chapter_calls_is_on_the_api_page(chapter):
    documented = {id(obj) for obj in documented_objects((BOOK / "appendix-api.md").read_text())}
    missing = sorted(name for name, obj in chapter_references(chapter.read_text()).items()
                     if is_callable_api(obj) and id(obj) not in documented)
    assert not missing, f"{chapter.name} calls {missing}, which book/appendix-api.md does not document"
