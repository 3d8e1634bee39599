"""The theme's CSS icons use a subset of Font Awesome, and no page can fetch the whole font.

``site_assets`` writes a subset face (``fa-solid-subset.woff``) with the family and weight of
the theme's own Font Awesome faces. Two faces of one family and weight make one composite
font: a character the subset lacks (a letter, a space) falls through to the whole 150 KB
font, and whichever face the cascade declares last is tried first. So the theme's faces are
dropped from the built style sheets, not merely outranked.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from _browser import goto, open_page

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import site_assets  # noqa: E402

THEME_FACES = """\
:root{--fa-font-solid:normal 900 1em/1 "Font Awesome 6 Free"}\
@font-face{font-display:block;font-family:Font Awesome\\ 6 Free;font-style:normal;font-weight:900;\
src:url(../vendor/fontawesome/webfonts/fa-solid-900.woff2) format("woff2")}\
.note{color:red}\
@font-face { font-family: "Font Awesome 6 Brands"; src: url(../vendor/fontawesome/webfonts/fa-brands-400.woff2) }\
@font-face{font-family:Lato;src:url(../fonts/lato.woff2)}\
@media print{.x{color:blue}}"""


def test_only_the_font_awesome_faces_are_dropped():
    kept = site_assets.drop_icon_font_faces(THEME_FACES)
    assert "/webfonts/fa-" not in kept
    assert kept == (':root{--fa-font-solid:normal 900 1em/1 "Font Awesome 6 Free"}.note{color:red}'
                    "@font-face{font-family:Lato;src:url(../fonts/lato.woff2)}@media print{.x{color:blue}}")


FONT_FACE = re.compile(r"@font-face\s*\{[^{}]*\}")


@pytest.mark.book
def test_no_built_style_sheet_or_page_declares_the_whole_icon_font(built_book):
    """Every style sheet a page can load, and every page's inline first-screen rules."""
    sheets = [*built_book.joinpath("_static").rglob("*.css"), *built_book.rglob("*.html")]
    declaring = [str(path.relative_to(built_book)) for path in sheets
                 if any("/webfonts/fa-" in face for face in FONT_FACE.findall(path.read_text(encoding="utf-8")))]
    assert declaring == []
    icons = built_book.joinpath("_static", "rope-site", "rope-icons.css").read_text(encoding="utf-8")
    assert "fa-solid-subset.woff" in icons


# A character in the subset (the lightbulb of a tip's title), and two it lacks.
PROBES = ["\uf0eb", "A", " "]
LAY_OUT_IN_ICON_FONT_JS = """(text) => {
  const probe = document.createElement('span');
  probe.style.font = 'normal 900 20px/1 "Font Awesome 6 Free"';
  probe.textContent = text;
  document.body.appendChild(probe);
  return probe.getBoundingClientRect().width;
}"""


@pytest.mark.browser
@pytest.mark.book
@pytest.mark.parametrize("name", ["book/index.html", "book/02-rotations.html"])
def test_text_in_the_icon_font_never_fetches_the_whole_font(name, built_book, book_server, chromium):
    """Once every style sheet has arrived, any text laid out in the icons' font family (a
    character the subset has or lacks) loads no Font Awesome font file but the subset."""
    context, page, log = open_page(chromium)
    fetched = []
    page.on("request", lambda request: fetched.append(request.url))
    goto(page, f"{book_server}/{name}")
    for text in PROBES:
        page.evaluate(LAY_OUT_IN_ICON_FONT_JS, text)
    page.wait_for_timeout(500)
    page.evaluate("document.fonts.ready")
    fonts = [url.rsplit("/", 1)[-1] for url in fetched if re.search(r"\.(woff2?|ttf)(\?|$)", url)]
    assert [font for font in fonts if font.startswith("fa-") and font != "fa-solid-subset.woff"] == []
    assert log.problems() == []
    context.close()
