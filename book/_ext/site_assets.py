"""The site's own CSS and JS on every page, and what first paint must not wait for.

- ``book/_site/rope-site``: ``rope-site.css`` (phones, focus rings, contrast, print) and
  ``rope-site.js`` (keyboard access to boxes that scroll sideways, deferred) on every page.
- Icons: the theme's ``fontawesome.js`` (1.5 MB of script, in ``<head>``, on every page) turns
  each ``<i class="fa-...">`` into an SVG. It is dropped; ``_static/rope-site/rope-icons.css``
  (~12 KB, written at build time from the same Font Awesome paths, taken from the installed
  theme) draws the few icons the pages use as CSS masks. ``ICONS`` lists them; a browser test
  fails on any icon class a page uses that is not in it. The theme's style sheets also draw
  some icons (admonition titles, download links, breadcrumbs) as characters of the Font
  Awesome font (157 KB): they get a subset of it with just those characters (~4 KB WOFF).
- Maths: typeset at build time (``prerender_math.js``, MathJax in node): no page loads MathJax.
- Widget state (MyST-NB puts it in ``<head>``, half a megabyte on the gallery) leaves the
  page: each model a view shows goes to a JSON file of its own, and the end of ``<body>``
  keeps a small manifest of their URLs (``widget_state.py``); ``rope-widgets.js`` fetches the
  first widget's file first and draws each widget as its file arrives. The widgets' ES
  modules and their shared stylesheet are files written once (``_static/rope-widgets/``),
  which every page with widgets shares and the browser caches.
- The other scripts in ``<head>`` (doctools, copy buttons, toggles, tabs, the book theme's,
  the search page's) are deferred and moved to the end of ``<body>``: none is needed to draw
  the page, and each held the parser or took bandwidth from the style sheet until it arrived
  (:func:`move_deferred_scripts`). ``documentation_options.js`` (300 bytes) is put inline in
  its place: an inline script uses it while the page is parsed (``DOCUMENTATION_OPTIONS.pagename``). Deferred scripts run in
  document order, so ``doctools.js`` still runs before the scripts that call its ``_ready``.
- The theme's style sheet carries Font Awesome's ``.fa-*:before`` rule for each of its
  ~1900 icons (86 KB of the 391 KB that first paint waits for); the pages use the ones in
  ``rope-icons.css``, so the copy in ``_build/html`` drops the others.
- Third-party style sheets (the theme's, sphinx-design's, MyST-NB's, Sphinx's): cut to the
  rules the built pages and their scripts can use (``purge_css.mjs``, PurgeCSS), 453 KB to
  about 150 KB; the originals stay in ``_build/unpurged-css`` for the test that compares
  pages drawn with each.
- They are then joined into three files (:func:`bundle_style_sheets`), and each page carries
  the rules its first screen uses inline and links the three files at the end of ``<body>``,
  without blocking its first paint (:func:`inline_critical_css`, ``critical_css.mjs``).

Rebuilds: Sphinx copies static files only while it writes pages, and writes none when no document is
out of date: an edit to ``rope-site.css`` alone would never reach ``_build/html``. The hash
of ``book/_site`` is a config value that needs an HTML rebuild, so a change re-renders the
pages (from the execution cache: nothing is re-executed) and copies the new files.
"""

from __future__ import annotations

import hashlib
import json
import logging
import posixpath
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote

import widget_state
from internals import add_template_filter
from sphinx.errors import ExtensionError

SITE = Path(__file__).resolve().parents[1] / "_site"
ROOT = SITE.parents[1]
THEME_ICONS = "scripts/fontawesome.js"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
PARSE_TIME_SCRIPTS = ("documentation_options.js",)
WIDGET_LOADER = "rope-site/rope-widgets.js"

# (Font Awesome pack, icon name): every icon the theme and the book's buttons show.
ICONS = [
    ("fas", "magnifying-glass"), ("fas", "list"), ("fas", "sun"), ("fas", "moon"),
    ("fas", "circle-half-stroke"), ("fas", "file-pdf"), ("fas", "file"), ("fas", "expand"),
    ("fas", "download"), ("fab", "github"), ("fas", "bars"), ("fas", "arrow-up"),
    ("fas", "angle-right"), ("fas", "angle-left"), ("fas", "rocket"), ("fas", "code"),
    ("fas", "chevron-down"), ("fas", "chevron-right"), ("fas", "xmark"),
]


def site_hash() -> str:
    digest = hashlib.sha256()
    # The extensions too: a change here (how pages are rewritten) must rebuild every page.
    for folder in (SITE, Path(__file__).parent):
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _record_hash(app, config):
    config.rope_site_assets_hash = site_hash()


def icon_paths(fontawesome_js: str) -> dict[tuple[str, str], tuple[int, int, str]]:
    """``{(pack, name): (width, height, svg_path)}`` for ``ICONS``, read from Font Awesome's JS.

    The bundle defines each pack with ``("fab", ...)``, ``("far", ...)``, ``("fas", ...)``
    after its icons, as ``name: [width, height, aliases, unicode, path]``.
    """
    ends = [(m.start(), m.group(1)) for m in re.finditer(r'\("(fa[a-z])",\w+\)', fontawesome_js)]
    found = {}
    for pack, name in ICONS:
        pattern = r'(?<![\w-])"?%s"?:\[(\d+),(\d+),\[[^\]]*\],"[0-9a-f]+","(M[^"]+)"\]' % re.escape(name)
        for match in re.finditer(pattern, fontawesome_js):
            owner = next((p for end, p in ends if end > match.start()), None)
            if owner == pack:
                found[pack, name] = (int(match.group(1)), int(match.group(2)), match.group(3))
                break
        else:
            raise ExtensionError(f"site_assets: no {pack} icon {name!r} in the theme's fontawesome.js")
    return found


def icons_css(paths) -> str:
    names = ", ".join(f".fa-{name}::before" for _, name in paths)
    elements = ", ".join(f".fa-{name}" for _, name in paths)
    lines = [
        "/* Generated by book/_ext/site_assets.py from the theme's Font Awesome 6 Free icons",
        "   (CC BY 4.0, https://fontawesome.com/license/free): the icons the pages use, as CSS",
        "   masks, instead of the 1.5 MB fontawesome.js. */",
        f"{names} {{",
        '  content: "" !important; display: inline-block; height: 1em; vertical-align: -0.125em;',
        "  background-color: currentColor; -webkit-mask: var(--rope-icon) center / contain no-repeat;",
        "  mask: var(--rope-icon) center / contain no-repeat;",
        "}",
        f"@media (forced-colors: active) {{ {names} {{ background-color: CanvasText; }} }}",
        "/* No icon font for these: an element set in it makes the browser fetch the font. */",
        f"{elements} {{ font-family: inherit !important; }}",
    ]
    for (_, name), (width, height, path) in paths.items():
        svg = f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}'><path d='{path}'/></svg>"
        url = svg.replace("<", "%3C").replace(">", "%3E").replace("#", "%23")
        lines.append(f'.fa-{name}::before {{ width: {width / height:.4g}em; --rope-icon: url("data:image/svg+xml,{url}"); }}')
    return "\n".join(lines) + "\n"


def icon_font_codepoints(style_sheets: list[str]) -> list[int]:
    """Font Awesome characters the theme's style sheets draw: the values of its
    ``--pst-icon-*`` / ``--pst-breadcrumb-divider`` variables and ``content: "\\fxxx"``."""
    points = set()
    for css in style_sheets:
        for value in re.findall(r'--pst-(?:icon-[a-z-]+|breadcrumb-divider):"([^"]+)"', css):
            points.update(ord(c) for c in value if 0xE000 <= ord(c) <= 0xF8FF)
        # (not Font Awesome's own ".fa-name:before" rules: those are its whole alphabet)
        for selector, body in re.findall(r"([^{}]*)\{([^{}]*)\}", css):
            if ".fa-" not in selector:
                points.update(int(h, 16) for h in re.findall(r'content:\s*"\\(f[0-9a-f]{3})"', body))
    return sorted(points)


def subset_icon_font(source: Path, codepoints: list[int], target: Path) -> None:
    """Write a WOFF of ``source`` (a Font Awesome TTF) holding only ``codepoints``."""
    from fontTools import subset

    # fontTools logs every pruned table at INFO: most of a build's output, none of it news.
    logging.getLogger("fontTools").setLevel(logging.WARNING)
    options = subset.Options()
    options.flavor = "woff"  # (woff2 needs brotli, which the book does not install)
    options.layout_features = []
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codepoints)
    subsetter.subset(font)
    subset.save_font(font, str(target), options)


ICON_FONT_FACE = """
/* The theme's CSS icons (admonition titles, download links, breadcrumbs): the same Font
   Awesome font, cut to the characters the style sheets use (this face comes after the
   theme's, so it is the one used). Icons, not text: "block" keeps a missing glyph's box
   from flashing; first paint does not wait for it. */
@font-face {
  font-family: "Font Awesome 6 Free"; font-style: normal; font-weight: 900; font-display: block;
  src: url(fa-solid-subset.woff) format("woff");
}
"""


ICON_RULE = re.compile(r"(?:\.fa-[a-z0-9-]+:(?:before|after),?)+\{content:[^{}]*\}")


def drop_icon_rules(css: str) -> str:
    """``css`` without Font Awesome's one-rule-per-icon ``.fa-name:before{content:...}`` list."""
    return ICON_RULE.sub("", css)


FONT_FACE_RULE = re.compile(r"@font-face\s*\{[^{}]*\}")


def drop_icon_font_faces(css: str) -> str:
    """``css`` without the ``@font-face`` rules that fetch Font Awesome's whole fonts.

    The subset face in ``rope-icons.css`` has the same family and weight. Two such faces make
    one composite font, and the one declared last is tried first: once the bundle that
    repeats the theme's face arrives at the end of ``<body>``, the next icon laid out would
    fetch the whole 150 KB font. Without the theme's faces the subset is the only one.
    """
    return FONT_FACE_RULE.sub(lambda rule: "" if "/webfonts/fa-" in rule.group(0) else rule.group(0), css)


def _theme_static(app, name):
    for directory in app.builder.theme.get_theme_dirs():
        candidate = Path(directory) / "static" / name
        if candidate.exists():
            return candidate
    raise ExtensionError(f"site_assets: the theme has no static/{name}")


def _drop_head_scripts(html: str) -> str:
    """The theme's ``<head>`` without fontawesome.js and without its script preloads.

    (bootstrap.js and the theme's JS still load, deferred, at the end of ``<body>``; preloading
    them only took bandwidth from the style sheets that first paint waits for.)
    """
    html = re.sub(r'\s*<script src="[^"]*/fontawesome\.js[^"]*"></script>', "", html)
    return re.sub(r'\s*<link rel="preload" as="script" href="[^"]*"\s*/>', "", html)


# ---- A chapter's first screen on a phone --------------------------------------------------
# Each chapter opens with a box right under its title ("What you will learn"): on a 390 x 844
# phone it filled the first screen, and the chapter's first idea or picture came only after
# a scroll. The box becomes a disclosure: open as before on wider screens and without
# scripts; on a phone a script just after it (inline: it must run before the first paint,
# or the page would draw the box open and then jump) closes it to its one-line title.
PHONE_QUERY = "(max-width: 600px)"
OPENING_CLASS = "rope-opening"
_OPENING = re.compile(r'(</h1>\s*)<div class="([^"]*\badmonition\b[^"]*)">\s*<p class="admonition-title">(.*?)</p>', re.S)
_FOLD_ON_PHONES = ('<script>matchMedia("%s").matches && (document.currentScript.previousElementSibling.open = false)'
                   "</script>" % PHONE_QUERY)


def _matching_div_end(html: str, start: int) -> int:
    """Index just past the ``</div>`` that closes the ``<div`` opened at ``start``."""
    depth = 0
    for tag in re.finditer(r"<(/?)div\b[^>]*>", html[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return start + tag.end()
    raise ExtensionError("site_assets: an admonition's <div> is never closed")


def fold_opening_box(body: str) -> str:
    """``body`` with the box that directly follows the page's ``<h1>`` (its opening
    admonition) as a ``<details open>`` whose ``<summary>`` is the box's title, followed by
    the script that closes it on a phone; a page without such a box is returned as it is."""
    found = _OPENING.search(body)
    if not found:
        return body
    box_start = found.start() + len(found.group(1))
    box_end = _matching_div_end(body, box_start)
    inside = body[found.end():box_end - len("</div>")]
    details = (f'<details class="{found.group(2)} {OPENING_CLASS}" open>\n'
               f'<summary class="admonition-title">{found.group(3)}</summary>{inside}</details>{_FOLD_ON_PHONES}')
    return body[:box_start] + details + body[box_end:]


# ---- Images keep their place before they arrive ---------------------------------------------
# The article's images are lazy: each arrives as the reader scrolls near it, and an image
# without a size is a box of height 0 until then, so the text under it jumped by the image's
# height (a layout shift of 0.27-0.38 while scrolling a chapter). Each image of the article
# gets the width and height of its file; rope-site.css scales it down with its aspect ratio.
_ARTICLE = re.compile(r"<article\b.*?</article>", re.S)


def image_size(path: Path) -> tuple[int, int] | None:
    """``(width, height)`` in pixels of a PNG, JPEG or GIF file (its header), or of an SVG
    (its ``width``/``height`` in px or unitless, else its ``viewBox``); ``None`` if unknown."""
    path = Path(path)
    if not path.is_file():
        return None
    if path.suffix.lower() == ".svg":
        root = re.search(r"<svg\b[^>]*>", path.read_text(encoding="utf-8", errors="replace"))
        if not root:
            return None
        sizes = [re.search(rf'\b{name}="([\d.]+)(px)?"', root.group(0)) for name in ("width", "height")]
        if all(sizes):
            return round(float(sizes[0].group(1))), round(float(sizes[1].group(1)))
        box = re.search(r'\bviewBox="[-\d.]+[ ,]+[-\d.]+[ ,]+([\d.]+)[ ,]+([\d.]+)"', root.group(0))
        return (round(float(box.group(1))), round(float(box.group(2)))) if box else None
    from PIL import Image

    try:
        with Image.open(path) as image:
            return image.size
    except OSError:
        return None


def add_image_sizes(page: Path) -> int:
    """Give each ``<img>`` of ``page`` 's ``<article>`` that has no ``width`` the ``width``
    and ``height`` of its file; return how many got them."""
    page = Path(page)
    html = page.read_text(encoding="utf-8")
    added = 0

    def sized(match):
        nonlocal added
        tag = match.group(0)
        src = re.search(r'\bsrc="([^"]+)"', tag)
        if re.search(r"\bwidth=", tag) or not src or not _local(src.group(1)):
            return tag
        size = image_size(page.parent / unquote(src.group(1).split("?")[0]))
        if not size:
            return tag
        added += 1
        return tag.replace("<img ", f'<img width="{size[0]}" height="{size[1]}" ', 1)

    article = _ARTICLE.search(html)
    if article:
        html = html[:article.start()] + re.sub(r"<img\b[^>]*>", sized, article.group(0)) + html[article.end():]
        if added:
            page.write_text(html, encoding="utf-8")
    return added


# ---- Deferred scripts after the page -------------------------------------------------------
# A deferred script runs once the page is parsed, in document order, wherever it stands; but
# in <head> it is fetched at once, and on a slow link the seven of them (about 50 KB: copy
# buttons, toggles, tabs, the theme's) shared the bandwidth with the style sheet and the page
# that first paint waits for. At the end of <body> the browser asks for them after the page:
# they still run in the same order, after the page is parsed. The widget loader stays in
# <head>, async (the first slider waits for it); it needs none of them.
_DEFERRED = re.compile(r'[ \t]*<script\b(?=[^>]*\bsrc=")(?=[^>]*\bdefer\b)(?![^>]*type="module")[^>]*></script>\n?')


_CLASSIC_SCRIPT = re.compile(r'<script\b(?=[^>]*\bsrc="([^"]+)")(?![^>]*\b(?:defer|async)\b)(?![^>]*type="module")')


def inline_parse_time_scripts(page: Path) -> int:
    """Put the text of each ``PARSE_TIME_SCRIPTS`` file (``documentation_options.js``: 300
    bytes that an inline script needs while the page is parsed) in ``page`` 's ``<head>`` in
    place of its ``<script src>``: one file fewer for first paint to wait for. Returns how many."""
    page = Path(page)
    html = page.read_text(encoding="utf-8")
    if "</head>" not in html:
        return 0
    head, body = html.split("</head>", 1)
    done = 0

    def inline(match):
        nonlocal done
        path = page.parent / unquote(match.group(1).split("?")[0])
        if not path.is_file() or "</script" in (text := path.read_text(encoding="utf-8")):
            return match.group(0)
        done += 1
        return f"<script>{text}</script>"

    names = "|".join(re.escape(name) for name in PARSE_TIME_SCRIPTS)
    head = re.sub(rf'<script src="([^"]*(?:{names})(?:\?[^"]*)?)"></script>', inline, head)
    if done:
        page.write_text(head + "</head>" + body, encoding="utf-8")
    return done


def move_deferred_scripts(page: Path) -> int:
    """Defer every script of ``page`` 's ``<head>`` that is not in ``PARSE_TIME_SCRIPTS`` (the
    search page's template adds its own, undeferred), and move the deferred ones to the end
    of its ``<body>``, in their order, before the scripts already there; return how many moved."""
    page = Path(page)
    html = page.read_text(encoding="utf-8")
    if "</head>" not in html or "</body>" not in html:
        return 0
    head, body = html.split("</head>", 1)
    head = _CLASSIC_SCRIPT.sub(
        lambda m: m.group(0) if m.group(1).split("?")[0].endswith(PARSE_TIME_SCRIPTS) else m.group(0) + " defer", head)
    moved = _DEFERRED.findall(head)
    if not moved:
        return 0
    head = _DEFERRED.sub("", head)
    # Before the theme's own deferred scripts at the end of <body>: the order they had.
    first_there = _DEFERRED.search(body)
    at = first_there.start() if first_there else body.rindex("</body>")
    body = body[:at] + "".join(tag.strip() + "\n" for tag in moved) + body[at:]
    page.write_text(head + "</head>" + body, encoding="utf-8")
    return len(moved)


# {a widget's _esm: its module file}, written once per build (widget_state.write_front_end).
_WIDGET_MODULES: dict[str, str] = {}


def _builder_inited(app):
    if app.builder.format != "html":
        return
    add_template_filter(app, "rope_drop_head_scripts", _drop_head_scripts)
    # Before any page is written: the pages' links carry the stylesheet's checksum.
    _WIDGET_MODULES.update(widget_state.write_front_end(app.outdir))


def _page_context(app, pagename, templatename, context, doctree):
    """No MathJax (maths is typeset at build time); widget state in files of its own; the
    scripts in ``<head>`` deferred; the article's images lazy."""
    widget_state.clear(app.outdir, pagename)  # this page's files of an earlier build

    # ``script_files`` is the page's list, which ``app.add_js_file`` appends to during this
    # event: it is emptied and every script added again in the same order (deferred scripts
    # run in that order), the ones to defer with ``defer``.
    scripts = context["script_files"]
    originals = list(scripts)
    scripts.clear()
    for script in originals:
        attributes = dict(script.attributes)
        filename = str(script.filename or "")
        if (filename and not {"defer", "async"} & set(attributes) and attributes.get("type") != "module"
                and not filename.endswith(PARSE_TIME_SCRIPTS)):
            attributes["defer"] = "defer"
        if filename.endswith(WIDGET_LOADER) and attributes.get("type") == "module":
            # Async, not deferred until the page is parsed: it draws each widget as the parser
            # reaches it, so the first slider works while the rest of the page still arrives.
            attributes["async"] = "async"
        if filename and "://" not in filename:
            filename = filename.removeprefix("_static/")
        app.add_js_file(filename or None, priority=script.priority, **attributes)
    if "body" in context:
        # Figures wait until the reader scrolls near them (Chromium still loads those in
        # view at once, and before printing): they no longer take the slow link's bandwidth
        # from the style sheets and widget code that first paint and the first slider need.
        context["body"] = re.sub(r"<img (?![^>]*\bloading=)", '<img loading="lazy" decoding="async" ',
                                 context["body"])
        # MyST-NB names each folded cell's summary "Toggle hidden content" while it shows
        # "Show code cell source": a voice-control user says what they see (WCAG 2.5.3,
        # label in name), so the summary's name is its visible text.
        context["body"] = context["body"].replace('<summary aria-label="Toggle hidden content">', "<summary>")
        context["body"] = fold_opening_box(context["body"])
    for script in list(scripts):
        filename = str(script.filename or "")
        body = script.attributes.get("body", "")
        if "mathjax" in filename or body.startswith("window.MathJax"):
            scripts.remove(script)
        elif script.attributes.get("type") == WIDGET_STATE and "body" in context:
            scripts.remove(script)
            manifest = widget_state.publish(body, context["body"], app.outdir, pagename, context["pathto"],
                                            _WIDGET_MODULES)
            context["body"] += f"\n{manifest}\n"
            app.add_css_file(widget_state.STYLESHEET)


def _build_finished(app, exception):
    if exception or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    source = _theme_static(app, THEME_ICONS).read_text(encoding="utf-8")
    target = outdir / "_static" / "rope-site" / "rope-icons.css"
    target.parent.mkdir(parents=True, exist_ok=True)
    styles = [(outdir / "_static" / name).read_text(encoding="utf-8") for name in
              ("styles/pydata-sphinx-theme.css", "styles/sphinx-book-theme.css", "exercise.css")]
    subset_icon_font(_theme_static(app, "vendor/fontawesome/webfonts/fa-solid-900.ttf"),
                     icon_font_codepoints(styles), target.with_name("fa-solid-subset.woff"))
    target.write_text(icons_css(icon_paths(source)) + ICON_FONT_FACE, encoding="utf-8")
    # Nothing loads it any more: keep it out of the published site.
    for unused in (THEME_ICONS, THEME_ICONS + ".map"):
        (outdir / "_static" / unused).unlink(missing_ok=True)
    theme_css = outdir / "_static" / "styles" / "pydata-sphinx-theme.css"
    theme_css.write_text(drop_icon_font_faces(drop_icon_rules(theme_css.read_text(encoding="utf-8"))),
                         encoding="utf-8")
    pages = sorted(str(p) for p in outdir.rglob("*.html"))
    for page in pages:  # a page an earlier build wrote and this one did not: as Sphinx wrote it
        undo_critical_css(Path(page))
    # Each widget's print figure, hidden before its view: what a page opened as a file shows.
    from rope_core.widgets import REGISTRY
    figures = widget_state.print_figures(outdir, [cls.__name__ for cls in REGISTRY])
    for page in pages:
        widget_state.add_print_figures(Path(page), figures)
        add_image_sizes(Path(page))
        move_deferred_scripts(Path(page))
        inline_parse_time_scripts(Path(page))
        widget_state.add_first_widget_preloads(Path(page))
    node = shutil.which("node")
    if node is None:
        raise ExtensionError("site_assets: the book's maths are typeset with node (Node.js 20)")
    done = subprocess.run([node, str(Path(__file__).with_name("prerender_math.js")), *pages],
                          cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise ExtensionError(f"site_assets: typesetting the maths failed:\n{done.stderr[-3000:]}")
    # Last, once every page and script is final: it decides which rules the pages can use.
    done = subprocess.run([node, str(Path(__file__).with_name("purge_css.mjs")), str(outdir),
                           str(unpurged_css_dir(outdir))], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise ExtensionError(f"site_assets: cutting the style sheets failed:\n{done.stderr[-3000:]}")
    bundle_style_sheets(outdir, pages, unpurged_css_dir(outdir))
    inline_critical_css(outdir, pages)


# ---- One style sheet per page -------------------------------------------------------------
# Each page linked 13 style sheets in <head> (the theme's two, Sphinx's, pygments', MyST-NB's,
# sphinx-design's, the toggles' and copy buttons', the book's four), and first paint waits for
# every one: on a slow link each costs a round trip of its own, six at a time. At the end of the
# build they are joined, in the pages' order, and cut into BUNDLE_PARTS files of about equal
# size that every page links instead, in that order (so every rule keeps its place in the
# cascade). Three, not one: over HTTP/1.1 a slow link is shared about equally between the
# files in flight, and the page itself is one of them; one 200 KB file got half the link
# while the page arrived, three get three quarters (ch. 2's first paint 2.9 s with one).
BUNDLE_PARTS = 3
BUNDLE = "_static/rope-site/rope-book.css"  # the parts are rope-book-1.css, rope-book-2.css, ...


def bundle_files() -> list[str]:
    """The parts of the joined style sheet, relative to the site, in cascade order."""
    stem = BUNDLE.removesuffix(".css")
    return [f"{stem}-{i}.css" for i in range(1, BUNDLE_PARTS + 1)]


def split_css(css: str, parts: int) -> list[str]:
    """``css`` cut into ``parts`` pieces of about equal length, only between top-level rules
    (never inside a block, a comment or a string), so that the pieces linked in order are
    the same style sheet."""
    cuts, depth, i, quote = [], 0, 0, None
    while i < len(css):
        char = css[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = None
        elif css.startswith("/*", i):
            end = css.find("*/", i + 2)
            i = len(css) if end < 0 else end + 1
        elif char in "\"'":
            quote = char
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                cuts.append(i + 1)
        i += 1
    chosen = [0]
    for k in range(1, parts):
        goal = len(css) * k / parts
        later = [c for c in cuts if c > chosen[-1]]
        chosen.append(min(later, key=lambda c: abs(c - goal)) if later else len(css))
    chosen.append(len(css))
    return [css[a:b] for a, b in zip(chosen, chosen[1:])]
_STYLESHEET_LINK = re.compile(r"<link\b[^>]*\brel=\"stylesheet\"[^>]*>")
_IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?["']?([^"')\s]+)["']?\s*\)?[^;]*;""")
_URL = re.compile(r"""url\(\s*(["']?)([^"')]*)\1\s*\)""")


def _local(href: str) -> bool:
    return not re.match(r"([a-z]+:)?//|data:|#|/", href, re.I)


def head_style_sheets(html: str) -> list[tuple[str, str]]:
    """``[(link tag, href)]`` of the style sheets a page's ``<head>`` links for the screen (a
    ``media="print"`` sheet blocks no paint), in order."""
    head = html.split("</head>", 1)[0]
    found = []
    for tag in _STYLESHEET_LINK.findall(head):
        href = re.search(r'\bhref="([^"]+)"', tag)
        if href and 'media="print"' not in tag:
            found.append((tag, href.group(1)))
    return found


def inline_style_sheet(path: Path, target_dir: Path, seen=None) -> str:
    """The text of the style sheet ``path`` as it must read from a file in ``target_dir``: its
    ``@import`` s put in their place and every relative ``url()`` made relative to ``target_dir``;
    no ``@charset`` (legal only at a file's start) and no source-map comment (it names a map
    of the file alone)."""
    seen = set() if seen is None else seen
    path = path.resolve()
    if path in seen:
        return ""
    seen.add(path)
    css = path.read_text(encoding="utf-8")
    css = re.sub(r"/\*# sourceMappingURL=[^*]*\*/", "", css)
    css = re.sub(r"@charset\s+[^;]+;", "", css)

    def imported(match):
        href = match.group(1)
        if not _local(href):
            return match.group(0)
        return inline_style_sheet(path.parent / href.split("?")[0], target_dir, seen)

    def moved(match):
        quote, href = match.groups()
        if not _local(href):
            return match.group(0)
        relative = posixpath.relpath((path.parent / href).resolve().as_posix(), target_dir.resolve().as_posix())
        return f"url({quote}{relative}{quote})"

    return _URL.sub(moved, _IMPORT.sub(imported, css))


def _merge_in_order(lists: list[list[str]]) -> list[str]:
    """One list holding every item of ``lists`` once: an item new to it goes just before the
    next item of its own list that is there already, else at the end (the pages link the
    same sheets in the same order; some add one)."""
    merged: list[str] = []
    for items in lists:
        for i, item in enumerate(items):
            if item not in merged:
                known = [later for later in items[i + 1:] if later in merged]
                merged.insert(merged.index(known[0]) if known else len(merged), item)
    return merged


def bundle_style_sheets(outdir: Path, pages: list[str], stash: Path) -> list[str]:
    """Join every style sheet the pages' ``<head>`` s link, cut the join into
    :func:`bundle_files` (:func:`split_css`) and link those alone, in order.

    The sheets are joined in page order (:func:`inline_style_sheet`); a page that links the
    parts already (an earlier build) counts for the sheets they were made of, which
    ``<stash>/bundle-sources.json`` keeps. The same join of the uncut originals (``stash``,
    from ``purge_css.mjs``), cut the same way, goes to ``stash``, for the test that compares both.
    Returns the sheets joined, relative to ``outdir``.
    """
    outdir = Path(outdir).resolve()
    target = outdir / BUNDLE
    targets = [outdir / name for name in bundle_files()]
    record = Path(stash) / "bundle-sources.json"
    earlier = json.loads(record.read_text(encoding="utf-8")) if record.is_file() else []
    per_page = {}
    for name in pages:
        page = Path(name)
        sheets = []
        for _, href in head_style_sheets(page.read_text(encoding="utf-8")):
            if not _local(href):
                continue
            path = (page.parent / href.split("?")[0]).resolve()
            if path in targets:
                sheets += [] if set(earlier) <= set(sheets) else earlier
            elif path.is_file():
                sheets.append(path.relative_to(outdir).as_posix())
        per_page[page] = sheets
    sources = _merge_in_order(list(per_page.values()))
    if not sources:
        return []
    for root in (outdir, Path(stash)):
        joined = []
        for source in sources:
            # URLs relative to where the join will be in the same tree, so that the stash's
            # join, served in place of the site's, names the site's files.
            base = root if (root / source).is_file() else outdir
            joined.append(f"/* {source} */\n" + inline_style_sheet(base / source, (base / BUNDLE).parent))
        for name, text in zip(bundle_files(), split_css("\n".join(joined), BUNDLE_PARTS)):
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps(sources), encoding="utf-8")
    target.unlink(missing_ok=True)  # the one-file join of an earlier build
    for page, sheets in per_page.items():
        if not sheets:
            continue  # (a page that links no style sheet: a redirect)
        html = page.read_text(encoding="utf-8")
        link = "\n".join(
            f'<link rel="stylesheet" type="text/css" href="{posixpath.relpath(part.as_posix(), page.parent.as_posix())}'
            f'?v={hashlib.sha256(part.read_bytes()).hexdigest()[:8]}" />' for part in targets)
        head, rest = html.split("</head>", 1)
        tags = [tag for tag, h in head_style_sheets(html) if _local(h)]
        head = head.replace(tags[0], "\0rope-bundle\0", 1)
        for tag in tags:
            head = head.replace(tag, "", 1)
        head = re.sub(r"\n[ \t]*(?=\n)", "", head.replace("\0rope-bundle\0", link))
        page.write_text(head + "</head>" + rest, encoding="utf-8")
    return sources


# ---- First paint from the page alone ------------------------------------------------------
# The joined sheet is about 200 KB, and first paint waited for all of it: about a second on a
# slow link. Each page now carries, in a <style> in its <head>, the rules its first screen uses
# (critical_css.mjs: 60-75 KB), and asks for the whole sheet without waiting for it: a script
# at the end of <body> links the three files right after that <style>, where they were, for
# print only (which blocks no paint), and each becomes a screen sheet once it has loaded;
# without scripts, a <noscript> links them as plain sheets. Not in <head> from the start: there
# the 200 KB took the slow link from the page's own markup and the first widget's files
# (chapter 2's first slider worked at 3.9 s instead of 2.4 s). In <head> once linked: a sheet
# at the end of <body> would come after the styles a widget adds to <head> as it is drawn, and
# the shared rules would win over the widget's own. The whole sheet holds every inline rule
# again, in the same order, so a page looks the same once it is in; until then, what lies
# below the first screen has the first screen's rules only.
CRITICAL_ID = "rope-critical"
REST_ATTRIBUTE = "data-rope-rest"
# How much of the article's markup counts as the first screen: chapter 2's first screen
# (1280 x 900, or a phone's, where a screen holds less) ends within its first 25 KB.
CRITICAL_FIRST_BYTES = 40_000
_CRITICAL_STYLE = re.compile(rf'<style id="{CRITICAL_ID}">.*?</style>\n?', re.S)
_REST = re.compile(rf"<(script|noscript) {REST_ATTRIBUTE}>.*?</\1>\n?", re.S)
_REST_SCRIPT = """<script {attribute}>
  for (const href of {hrefs}.reverse()) {{
    const link = Object.assign(document.createElement("link"), {{rel: "stylesheet", href, media: "print"}});
    link.setAttribute("{attribute}", "");
    link.onload = () => {{ link.media = "all"; }};
    document.getElementById("{style}").after(link);
  }}
</script>
"""


def rest_links(hrefs: list[str]) -> str:
    """The script that links the style sheets ``hrefs`` after the first-screen ``<style>``
    without blocking the paint, and its ``<noscript>`` fallback."""
    script = _REST_SCRIPT.format(attribute=REST_ATTRIBUTE, style=CRITICAL_ID, hrefs=json.dumps(hrefs))
    return f"{script}<noscript {REST_ATTRIBUTE}>{_blocking_links(hrefs)}</noscript>\n"


def _blocking_links(hrefs: list[str]) -> str:
    return "".join(f'<link rel="stylesheet" type="text/css" href="{href}" />' for href in hrefs)


def undo_critical_css(page: Path) -> bool:
    """Put back ``page`` 's blocking links in its ``<head>`` in place of what
    :func:`inline_critical_css` wrote (a rebuild that writes no page must start from the page
    as Sphinx wrote it); return whether the page had changed."""
    page = Path(page)
    html = page.read_text(encoding="utf-8")
    if f'<style id="{CRITICAL_ID}">' not in html:
        return False
    fallback = re.search(rf"<noscript {REST_ATTRIBUTE}>(.*?)</noscript>", html, re.S).group(1)
    hrefs = re.findall(r'\bhref="([^"]+)"', fallback)
    html = _REST.sub("", html)
    html = _CRITICAL_STYLE.sub(lambda _: _blocking_links(hrefs) + "\n", html, count=1)
    page.write_text(html, encoding="utf-8")
    return True


def move_urls(css: str, sheet_dir: str, page_dir: str) -> str:
    """``css`` written for a file in ``sheet_dir`` with each relative ``url()`` made relative
    to ``page_dir`` instead (both relative to the site's root)."""

    def moved(match):
        quote, href = match.groups()
        if not _local(href):
            return match.group(0)
        target = posixpath.normpath(posixpath.join(sheet_dir, href))
        return f"url({quote}{posixpath.relpath(target, page_dir or '.')}{quote})"

    return _URL.sub(moved, css)


def inline_critical_css(outdir: Path, pages: list[str]) -> int:
    """In each of ``pages`` that links :func:`bundle_files` (and nothing else) from its
    ``<head>``: the rules of its first screen (``critical_css.mjs``) in a
    ``<style id="rope-critical">`` where the first part's link was, and at the end of its
    ``<body>`` what links the parts (:func:`rest_links`); returns how many pages changed."""
    outdir = Path(outdir).resolve()
    parts = [(outdir / name).as_posix() for name in bundle_files()]
    linking = {}
    for name in pages:
        page = Path(name).resolve()
        html = page.read_text(encoding="utf-8")
        sheets = head_style_sheets(html)
        hrefs = [href for _, href in sheets]
        if [posixpath.normpath(posixpath.join(page.parent.as_posix(), h.split("?")[0])) for h in hrefs] == parts:
            linking[page] = (html, sheets)
    if not linking:
        return 0
    done = subprocess.run([shutil.which("node") or "node", str(Path(__file__).with_name("critical_css.mjs")),
                           str(outdir), str(CRITICAL_FIRST_BYTES), *map(str, linking)],
                          cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise ExtensionError(f"site_assets: choosing each page's first-screen CSS failed:\n{done.stderr[-3000:]}")
    critical = json.loads(done.stdout)
    sheet_dir = posixpath.dirname(BUNDLE)
    for page, (html, sheets) in linking.items():
        css = critical[str(page)]
        if "</style" in css.lower():
            raise ExtensionError(f"site_assets: the first-screen CSS of {page} would end its <style> early")
        page_dir = page.parent.relative_to(outdir).as_posix()
        css = move_urls(css, sheet_dir, "" if page_dir == "." else page_dir)
        head, body = html.split("</head>", 1)
        for tag, _ in sheets[1:]:
            head = head.replace(tag, "", 1)
        head = head.replace(sheets[0][0], f'<style id="{CRITICAL_ID}">{css}</style>', 1)
        end = body.rindex("</body>")
        body = body[:end] + rest_links([href for _, href in sheets]) + body[end:]
        page.write_text(head + "</head>" + body, encoding="utf-8")
    return len(linking)


def unpurged_css_dir(outdir: Path) -> Path:
    """Where the build keeps the third-party style sheets as they were before
    ``purge_css.mjs`` cut them (same relative paths; outside the published site)."""
    return Path(outdir).parent / "unpurged-css"


def setup(app):
    app.add_css_file("rope-site/rope-site.css")
    app.add_css_file("rope-site/rope-icons.css")
    app.add_js_file("rope-site/rope-site.js", defer="defer")
    app.add_config_value("rope_site_assets_hash", "", "html")
    app.connect("config-inited", _record_hash)
    app.connect("config-inited", _add_templates)
    app.connect("builder-inited", _builder_inited)
    app.connect("html-page-context", _page_context, priority=900)
    # After the other extensions' build-finished steps (MyST-NB copies its CSS there).
    app.connect("build-finished", _build_finished, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def _add_templates(app, config):
    config.templates_path = [*config.templates_path, str(Path(__file__).with_name("templates"))]
