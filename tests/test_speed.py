"""What the build does so that pages paint early and keep still: one style sheet per page, a
chapter's opening box folded on phones, every image with its size (``book/_ext/site_assets.py``).

The functions on small inputs made here; ``test_speed_browser.py`` checks the built book.
"""

from __future__ import annotations

import re
import struct
import sys
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import site_assets  # noqa: E402


def _png(path: Path, width: int, height: int) -> Path:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\0" + b"\0\0\0" * width for _ in range(height))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    return path


def _site(tmp_path: Path) -> Path:
    """Two pages in two folders linking three style sheets in three folders (one imports a
    fourth, one names a font and an image by relative URL); the second page adds a sheet."""
    out = tmp_path / "html"
    (out / "_static" / "styles").mkdir(parents=True)
    (out / "_static" / "rope-site").mkdir(parents=True)
    (out / "book").mkdir()
    (out / "_static" / "basic.css").write_text("@charset \"utf-8\";\n.basic { background: url(file.png); }\n")
    (out / "_static" / "styles" / "theme.css").write_text(
        '@import "../basic.css";\n.theme { src: url("../fonts/a.woff2"); mask: url(data:image/svg+xml,x); }\n'
        "/*# sourceMappingURL=theme.css.map */\n")
    (out / "_static" / "rope-site" / "site.css").write_text(".site { background: url('icon.svg#i'); }\n")
    (out / "_static" / "widgets.css").write_text(".rope-w { color: red; }\n")
    head = ('<link href="{up}_static/styles/theme.css?digest=1" rel="stylesheet" />\n'
            '<link rel="stylesheet" type="text/css" href="{up}_static/rope-site/site.css?v=2" />\n'
            '<link rel="stylesheet" href="{up}_static/print.css" media="print" />\n{extra}')
    (out / "index.html").write_text(f"<html><head>{head.format(up='', extra='')}</head><body></body></html>")
    extra = '<link rel="stylesheet" type="text/css" href="../_static/widgets.css?v=3" />\n'
    (out / "book" / "page.html").write_text(f"<html><head>{head.format(up='../', extra=extra)}</head>"
                                            '<body><link rel="stylesheet" href="late.css"></body></html>')
    (out / "_static" / "print.css").write_text("")
    return out


def test_the_style_sheets_of_every_page_become_one_file_in_their_order(tmp_path):
    out = _site(tmp_path)
    pages = [str(out / "index.html"), str(out / "book" / "page.html")]
    sources = site_assets.bundle_style_sheets(out, pages, tmp_path / "stash")
    assert sources == ["_static/styles/theme.css", "_static/rope-site/site.css", "_static/widgets.css"]
    parts = [(out / name).read_text() for name in site_assets.bundle_files()]
    bundle = "".join(parts)
    assert len(parts) == site_assets.BUNDLE_PARTS and all(parts)
    # In order, the import in its place; every relative URL still names the same file.
    assert bundle.index(".basic") < bundle.index(".theme") < bundle.index(".site") < bundle.index(".rope-w")
    assert "url(../file.png)" in bundle and 'url("../fonts/a.woff2")' in bundle
    assert "url('icon.svg#i')" in bundle and "url(data:image/svg+xml,x)" in bundle
    assert "@import" not in bundle and "@charset" not in bundle and "sourceMappingURL" not in bundle
    for page, up in ((out / "index.html", ""), (out / "book" / "page.html", "../")):
        html = page.read_text()
        sheets = site_assets.head_style_sheets(html)
        assert [href.split("?")[0] for _, href in sheets] == [f"{up}{name}" for name in site_assets.bundle_files()]
        assert 'media="print"' in html  # (a print sheet does not hold up the first paint)
    assert 'href="late.css"' in (out / "book" / "page.html").read_text()  # nor one in <body>
    # The uncut originals get the same join (the stash has none of them here: the cut ones).
    assert "".join((tmp_path / "stash" / name).read_text() for name in site_assets.bundle_files()) == bundle


def test_a_page_left_from_an_earlier_build_keeps_every_sheet(tmp_path):
    """A second run, where one page was written again (its sheets linked one by one) and the
    other still links the joined sheet: the join still holds every sheet, once."""
    out = _site(tmp_path)
    pages = [str(out / "index.html"), str(out / "book" / "page.html")]
    site_assets.bundle_style_sheets(out, pages, tmp_path / "stash")
    _site(tmp_path / "again")
    (out / "index.html").write_text((tmp_path / "again" / "html" / "index.html").read_text())
    sources = site_assets.bundle_style_sheets(out, pages, tmp_path / "stash")
    assert sources == ["_static/styles/theme.css", "_static/rope-site/site.css", "_static/widgets.css"]
    assert "".join((out / name).read_text() for name in site_assets.bundle_files()).count(".rope-w") == 1


def test_sheets_merge_in_the_order_pages_link_them():
    merge = site_assets._merge_in_order
    assert merge([["a", "b", "d"], ["a", "b", "c", "d"]]) == ["a", "b", "c", "d"]
    assert merge([["a", "c"], ["b", "c"]]) == ["a", "b", "c"]
    assert merge([["a", "c"], ["c", "d"], ["a", "b"]]) == ["a", "c", "d", "b"]
    assert merge([]) == []


OPENING = ('<h1>2. Rotate<a class="headerlink" href="#r">#</a></h1>\n'
           '<div class="tip admonition">\n<p class="admonition-title">What you will learn</p>\n'
           '<ul class="simple"><li><p>one</p></li></ul>\n<div class="math-wrapper"><div>x</div></div>\n</div>\n'
           "<p>The first idea.</p>\n")


def test_a_chapters_opening_box_becomes_a_disclosure_closed_on_phones():
    html = site_assets.fold_opening_box(OPENING)
    assert '<details class="tip admonition rope-opening" open>' in html
    assert '<summary class="admonition-title">What you will learn</summary>' in html
    # All of the box inside it, nested <div>s too, and the first idea after it, untouched.
    details = html[html.index("<details"):html.index("</details>")]
    assert "<li><p>one</p></li>" in details and '<div class="math-wrapper"><div>x</div></div>' in details
    assert html.index("</details>") < html.index("<script>") < html.index("<p>The first idea.</p>")
    assert site_assets.PHONE_QUERY in html and "open = false" in html
    assert html.count("<div") == 2 and html.count("</div>") == 2


@pytest.mark.parametrize("body", [
    "<h1>Title</h1>\n<p>Prose first.</p>\n<div class=\"tip admonition\"><p class=\"admonition-title\">T</p></div>",
    "<p>No title</p>",
])
def test_a_page_without_an_opening_box_is_left_as_it_is(body):
    assert site_assets.fold_opening_box(body) == body


def test_every_image_of_the_article_gets_its_files_size(tmp_path):
    (tmp_path / "_images").mkdir()
    _png(tmp_path / "_images" / "wide.png", 40, 10)
    (tmp_path / "_images" / "box.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 30"></svg>')
    (tmp_path / "_images" / "pt.svg").write_text('<svg width="72pt" height="36pt" viewBox="0 0 72 36"></svg>')
    page = tmp_path / "book" / "page.html"
    page.parent.mkdir()
    page.write_text('<header><img src="../_images/wide.png" alt="logo"></header><article class="bd-article">'
                    '<img loading="lazy" alt="a" src="../_images/wide.png" />'
                    '<img alt="b" src="../_images/box.svg"><img alt="c" src="../_images/pt.svg">'
                    '<img alt="d" width="5" src="../_images/wide.png"><img alt="e" src="https://x.org/i.png">'
                    '<img alt="f" src="../_images/missing.png"></article>')
    assert site_assets.add_image_sizes(page) == 3
    html = page.read_text()
    assert '<img width="40" height="10" loading="lazy" alt="a"' in html
    assert '<img width="120" height="30" alt="b"' in html
    assert '<img width="72" height="36" alt="c"' in html  # pt: the viewBox
    assert '<img alt="d" width="5" ' in html and '<img alt="e" src' in html and '<img alt="f" src' in html
    assert html.startswith('<header><img src="../_images/wide.png" alt="logo">')  # the header's own


def test_the_first_widgets_files_are_asked_for_while_the_page_arrives(tmp_path):
    import json

    import widget_state

    folder = tmp_path / "_static" / "rope-widgets"
    (folder / "book" / "gallery").mkdir(parents=True)
    (folder / "first.js").write_text('import { a } from "./common.js?v=c1";\nimport { b } from "./drag.js";\n')
    (folder / "drag.js").write_text('import { a } from "./common.js";\n')
    (folder / "common.js").write_text("export const a = 1;\n")
    (folder / "second.js").write_text('import { a } from "./second_only.js";\n')
    for name, module in (("m1", "first.js"), ("m2", "second.js")):
        (folder / "book" / "gallery" / f"{name}.json").write_text(
            json.dumps({"state": {"_esm": f"../../{module}?v=abc"}}))
    page = tmp_path / "book" / "gallery.html"
    page.parent.mkdir()
    view = '<script type="{}">{{"model_id": "{}"}}</script>'
    urls = {m: f"../_static/rope-widgets/book/gallery/{m}.json" for m in ("m1", "m2")}
    page.write_text("<head><title>t</title></head><body>" + view.format(widget_state.VIEW_TYPE, "m1") + "<p>between</p>"
                    + view.format(widget_state.VIEW_TYPE, "m2")
                    + f'<script type="{widget_state.URLS_TYPE}">{json.dumps(urls)}</script></body>')
    assert widget_state.add_first_widget_preloads(page) == 4
    html = page.read_text()
    # In <head>, where the browser meets them before the page's first bytes of text.
    links = html[html.index("</title>") + len("</title>"):html.index("</head>")]
    assert links == ('<link rel="preload" as="fetch" crossorigin href="../_static/rope-widgets/book/gallery/m1.json" '
                     'data-rope-model="m1" fetchpriority="low" data-rope-first-widget>'
                     '<link rel="modulepreload" href="../_static/rope-widgets/first.js?v=abc" fetchpriority="low" data-rope-first-widget>'
                     '<link rel="modulepreload" href="../_static/rope-widgets/common.js?v=c1" fetchpriority="low" data-rope-first-widget>'
                     '<link rel="modulepreload" href="../_static/rope-widgets/drag.js" fetchpriority="low" data-rope-first-widget>\n')
    assert "second" not in links
    assert widget_state.add_first_widget_preloads(page) == 0  # once


def test_deferred_scripts_leave_the_head_for_the_end_of_the_body_in_their_order(tmp_path):
    page = tmp_path / "search.html"
    page.write_text(
        '<html><head>\n<script src="_static/documentation_options.js?v=1"></script>\n'
        '<script src="_static/doctools.js?v=2"></script>\n'
        '<script defer="defer" src="_static/copybutton.js"></script>\n<script>let hint = 1;</script>\n'
        '<script type="module" src="_static/rope-site/rope-widgets.js"></script>\n'
        '<script src="_static/searchtools.js"></script>\n<script src="searchindex.js"></script>\n'
        '</head><body><p>text</p>\n<script defer src="_static/scripts/bootstrap.js"></script>\n</body></html>')
    assert site_assets.move_deferred_scripts(page) == 4
    html = page.read_text()
    head, body = html.split("</head>")
    # What the page's inline scripts need while it is parsed stays, as does the widget loader.
    assert '<script src="_static/documentation_options.js?v=1"></script>' in head
    assert "let hint = 1;" in head and "rope-widgets.js" in head
    order = ["doctools.js", "copybutton.js", "searchtools.js", "searchindex.js", "bootstrap.js"]
    assert [body.index(name) for name in order] == sorted(body.index(name) for name in order)
    assert body.index("<p>text</p>") < body.index("doctools.js")
    assert not any(name in head for name in order)
    for tag in [t for t in body.split("\n") if "<script" in t]:
        assert "defer" in tag, tag
    assert site_assets.move_deferred_scripts(page) == 0


def test_the_joined_sheet_is_cut_only_between_top_level_rules():
    css = ('a{color:red}/* } { */@media (min-width: 1px){b{content:"}"}c{d:e}}'
           ".f{g:h}\n@font-face{font-family:x}" + ".i{j:k}" * 20)
    parts = site_assets.split_css(css, 3)
    assert "".join(parts) == css and len(parts) == 3
    for part in parts:  # every block it opens it closes (braces in comments and strings aside)
        bare = re.sub(r'/\*.*?\*/|"[^"]*"', "", part, flags=re.S)
        assert bare.count("{") == bare.count("}"), part
    assert all(part for part in parts)
    assert site_assets.split_css("a{b:c}", 3)[0] == "a{b:c}"


def test_documentation_options_goes_inline(tmp_path):
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "documentation_options.js").write_text("const DOCUMENTATION_OPTIONS = {VERSION: ''};")
    page = tmp_path / "index.html"
    page.write_text('<html><head><script src="_static/documentation_options.js?v=9"></script>'
                    "<script>DOCUMENTATION_OPTIONS.pagename = 'index';</script></head><body></body></html>")
    assert site_assets.inline_parse_time_scripts(page) == 1
    assert page.read_text().startswith(
        "<html><head><script>const DOCUMENTATION_OPTIONS = {VERSION: ''};</script><script>DOCUMENTATION_OPTIONS.pagename")
