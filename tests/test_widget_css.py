"""A widget's style sheet styles that widget only.

A page can hold several widgets (the gallery holds them all), and each widget brings its sheet
when it first renders. A sheet that restyles a selector another sheet already styles changes the
widgets drawn before it: on the gallery, the heat map's sheet once restyled every question box
above it, and the page jumped by 58 px while the reader scrolled. So a selector may be styled in
one sheet only, apart from custom properties (``--name: value``) that no other sheet sets.
"""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import pytest

from rope_core.widgets import _base, registry

WIDGETS_DIR = Path(__file__).resolve().parents[1] / "rope_core" / "widgets"
SHEETS = sorted(path.name for path in WIDGETS_DIR.glob("*.css"))


def rules(css):
    """``{(context, selector): {property: value}}`` of a sheet; ``context`` is the enclosing
    ``@media``/``@container`` prelude (``""`` at top level), selector lists are split."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found, context, position = {}, [], 0
    for match in re.finditer(r"[{}]", css):
        if match.start() < position:
            continue  # the brace that closes a rule already read
        token = match.group()
        if token == "{":
            prelude = css[position:match.start()].strip()
            if prelude.startswith("@"):
                context.append(prelude)
            else:
                end = css.index("}", match.end())
                body = css[match.end():end]
                declarations = dict(
                    (part.split(":", 1)[0].strip(), part.split(":", 1)[1].strip())
                    for part in body.split(";") if ":" in part)
                for selector in prelude.split(","):
                    key = (" ".join(context), " ".join(selector.split()))
                    found.setdefault(key, {}).update(declarations)
                position = end + 1
                continue
        elif context and css[position:match.start()].strip() == "":
            context.pop()
        position = match.end()
    return found


def test_the_parser_reads_selectors_properties_and_at_rules():
    parsed = rules("/* c */ .a, .b { color: red; --x: 1 }\n@media print { .a { display: none; } .c { color: blue } }\n.d { margin: 0 }")
    assert parsed == {("", ".a"): {"color": "red", "--x": "1"}, ("", ".b"): {"color": "red", "--x": "1"},
                      ("@media print", ".a"): {"display": "none"}, ("@media print", ".c"): {"color": "blue"},
                      ("", ".d"): {"margin": "0"}}


@pytest.mark.parametrize("first, second", list(combinations(SHEETS, 2)))
def test_no_sheet_restyles_what_another_sheet_styles(first, second):
    one, other = rules((WIDGETS_DIR / first).read_text()), rules((WIDGETS_DIR / second).read_text())
    for key in one.keys() & other.keys():
        custom_only = all(name.startswith("--") for name in one[key]) or all(
            name.startswith("--") for name in other[key])
        assert custom_only and not one[key].keys() & other[key].keys(), (
            f"{key[1]!r} {key[0]} is styled in both {first} and {second}: whichever loads "
            "second restyles the other's widgets on a page that has both")


def test_every_sheet_is_read():
    # the check above would pass vacuously on a sheet the parser cannot read
    for name in SHEETS:
        assert rules((WIDGETS_DIR / name).read_text()), name
    assert {sheet for widget in registry.WIDGETS for sheet in widget.css} <= set(SHEETS)


def _modules(js, seen=None):
    """``js`` and every sibling module it imports, transitively."""
    seen = set() if seen is None else seen
    if js not in seen:
        seen.add(js)
        for match in _base._SIBLING_IMPORT.finditer((WIDGETS_DIR / js).read_text()):
            _modules(match.group(2), seen)
    return seen


def _uses(modules, name):
    """Whether one of ``modules`` draws class ``name``: as a literal, or from a template such as
    ``rope-w-col${j}`` or ``rope-w-${cls}-line``, whose placeholder is read as any number or any
    one-word string literal of the module."""
    literal = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    for js in modules:
        text = (WIDGETS_DIR / js).read_text()
        if literal.search(text):
            return True
        words = "|".join(sorted(set(re.findall(r"[\"'](\w+)[\"']", text)) | {r"\d+"}, key=len, reverse=True))
        for template in re.findall(r"rope-w-[\w-]*(?:\$\{[^}]*\}[\w-]*)+", text):
            parts = re.split(r"\$\{[^}]*\}", template)
            if "".join(parts) == "rope-w-":
                continue  # rope-w-${kind}: too loose to say which class it draws
            if re.fullmatch(f"(?:{words})".join(map(re.escape, parts)), name):
                return True
    return False


OWN_SHEETS = sorted({sheet for widget in registry.WIDGETS for sheet in widget.css})


@pytest.mark.parametrize("sheet", OWN_SHEETS)
def test_each_rule_of_a_widget_sheet_is_held_by_a_class_only_its_widgets_draw(sheet):
    # A rule reaches only the widgets that load its sheet when one of its classes is drawn by
    # their modules and by no other widget's; a sheet may also give its widgets new custom
    # properties on the shared root.
    mine = set().union(*(_modules(w.js) for w in registry.WIDGETS if sheet in w.css))
    theirs = set().union(*(_modules(w.js) for w in registry.WIDGETS if sheet not in w.css))
    loose = []
    for (context, selector), declarations in rules((WIDGETS_DIR / sheet).read_text()).items():
        if all(name.startswith("--") for name in declarations):
            continue
        classes = re.findall(r"\.([\w-]+)", selector)
        if not any(_uses(mine, name) and not _uses(theirs - mine, name) for name in classes):
            loose.append(f"{selector} {context}".strip())
    assert not loose, (f"{sheet} styles what other widgets draw too, or what none draws: {loose}; "
                       "scope each rule by a class only this sheet's widgets draw")
