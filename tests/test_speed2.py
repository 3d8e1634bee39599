"""First paint from the page alone: each page's first-screen rules inline, the whole style
sheet linked without blocking (``book/_ext/site_assets.py``, ``book/_ext/critical_css.mjs``).

The functions on a small site made here (Beasties runs in node, as in the build);
``test_speed2_browser.py`` checks the built book in a browser.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
sys.path.insert(0, str(ROOT / "benchmarks"))
import site_assets  # noqa: E402
from bench_pages import render_blocking  # noqa: E402

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (ROOT / "node_modules" / "beasties").is_dir(),
    reason="needs node and node_modules (make vendor)")

# The joined sheet of the small site, cut into the three parts the pages link.
PARTS = [
    "@font-face{font-family:Icons;src:url(../fonts/icons.woff2)}\n"
    ":root{--text:#222}\n"
    "html[data-theme=light]{--bg:#fff}\n"
    "html[data-theme=dark]{--bg:#111}\n",
    ".bd-header{color:var(--text)}\n"
    ":not(li) > ul > li:first-child > :first-child{margin-top:0}\n"
    ".far-below{color:red}\n",
    "@media print{.bd-header{display:none}}\n"
    ".opening{background:url(bg.svg)}\n"
    "html[data-theme=dark] .opening{color:#eee}\n"
    ".later-wins{color:blue}\n"
    ".bd-header{border:1px solid}\n",
]


def _site(tmp_path: Path) -> tuple[Path, Path]:
    """A built site of one chapter whose first screen (a header and an opening box) uses some
    rules, and whose article, far below, uses ``.far-below``."""
    out = tmp_path / "html"
    for name, text in zip(site_assets.bundle_files(), PARTS):
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    (out / "book").mkdir()
    links = "".join(f'<link rel="stylesheet" type="text/css" href="../{name}?v={i}" />\n'
                    for i, name in enumerate(site_assets.bundle_files()))
    filler = "<p>" + "words " * 2000 + "</p>\n"
    page = out / "book" / "chapter.html"
    page.write_text(
        f'<!DOCTYPE html>\n<html lang="en" data-theme="auto"><head><title>t</title>\n{links}</head>\n'
        '<body><header class="bd-header">Book</header><main><article class="bd-article">'
        '<div class="opening"><ul><li><p>first</p></li></ul></div>\n'
        f'{filler * 5}<p class="far-below">late</p></article></main>\n'
        '<script defer src="../_static/theme.js"></script>\n</body></html>\n')
    return out, page


def _critical(html: str) -> str:
    return re.search(r'<style id="rope-critical">(.*?)</style>', html, re.S).group(1)


def test_the_first_screen_rules_are_inline_and_the_rest_does_not_block(tmp_path, monkeypatch):
    monkeypatch.setattr(site_assets, "CRITICAL_FIRST_BYTES", 2_000)
    out, page = _site(tmp_path)
    assert site_assets.inline_critical_css(out, [str(page)]) == 1
    html = page.read_text()
    head, body = html.split("</head>")
    css = _critical(head)
    # What the header and the opening box use, both palettes, and the rule that begins with a
    # pseudo-class; nothing for print, nothing that only the end of the article uses.
    for rule in (".bd-header", ".opening", "html[data-theme=\"light\"]", "html[data-theme=\"dark\"]",
                 "--text:#222", ":not(li)>ul>li:first-child>:first-child"):
        assert rule in css.replace(" > ", ">").replace("> :", ">:"), rule
    assert ".far-below" not in css and "@media print" not in css and "display:none" not in css
    # In the joined sheet's order (the whole sheet, arriving later, repeats it).
    assert css.index("--text") < css.index(".bd-header{color") < css.index(".opening{") < css.index("border:1px")
    # Relative URLs now name the same files from the page's folder.
    assert "url(../_static/fonts/icons.woff2)" in css and "url(../_static/rope-site/bg.svg)" in css
    # No style sheet blocks the first paint; a script at the end of <body> links the three
    # parts after the inline rules, for print until each has loaded.
    sheets, scripts = render_blocking(html)
    assert sheets == [] and scripts == []
    hrefs = [f"../{name}?v={i}" for i, name in enumerate(site_assets.bundle_files())]
    script = re.search(r"<script data-rope-rest>(.*?)</script>", body, re.S).group(1)
    assert json.loads(re.search(r"for \(const href of (\[.*?\])\.reverse\(\)\)", script).group(1)) == hrefs
    assert 'media: "print"' in script and 'link.media = "all"' in script
    assert 'getElementById("rope-critical").after(link)' in script
    assert body.index('<p class="far-below">') < body.index("<script data-rope-rest>") < body.index("</body>")
    noscript = re.search(r"<noscript data-rope-rest>(.*?)</noscript>", body).group(1)
    assert re.findall(r'href="([^"]+)"', noscript) == hrefs and 'media="print"' not in noscript


def test_a_rebuild_starts_from_the_blocking_links_and_gives_the_same_page(tmp_path):
    out, page = _site(tmp_path)
    original = page.read_text()
    site_assets.inline_critical_css(out, [str(page)])
    once = page.read_text()
    assert site_assets.undo_critical_css(page)
    undone = page.read_text()
    assert re.sub(r"\s+", "", undone) == re.sub(r"\s+", "", original)
    assert site_assets.undo_critical_css(page) is False  # nothing left to undo
    site_assets.inline_critical_css(out, [str(page)])
    assert page.read_text() == once


def test_a_page_that_links_other_sheets_is_left_as_it_is(tmp_path):
    out, page = _site(tmp_path)
    html = page.read_text().replace("</head>", '<link rel="stylesheet" href="extra.css" />\n</head>')
    page.write_text(html)
    redirect = out / "index.html"
    redirect.write_text('<meta http-equiv="Refresh" content="0; url=book/chapter.html" />')
    assert site_assets.inline_critical_css(out, [str(page), str(redirect)]) == 0
    assert page.read_text() == html


@pytest.mark.parametrize(("href", "page_dir", "expected"), [
    ("fa.woff2", "book", "url(../_static/rope-site/fa.woff2)"),
    ("../vendor/f.woff2", "", "url(_static/vendor/f.woff2)"),
    ("data:image/svg+xml,x", "book", "url(data:image/svg+xml,x)"),
    ("https://example.org/a.png", "book", "url(https://example.org/a.png)"),
])
def test_urls_move_from_the_sheet_to_the_page(href, page_dir, expected):
    assert site_assets.move_urls(f"a{{b:url({href})}}", "_static/rope-site", page_dir) == f"a{{b:{expected}}}"
