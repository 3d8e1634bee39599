"""Where the reader is: chapter numbers, "chapter k of n", reading time, the map of the book.

Everything is derived from ``_toc.yml`` and the pages themselves, so a chapter added, moved or
lengthened updates every count and link at the next build:

- the chapters are the pages of the numbered parts of ``_toc.yml`` (``numbered: 1``), in order,
  as ``scripts/book_pages.py`` reads them;
  equations, figures and exercises are numbered per chapter ("(7.3)", "Exercise 7.2") by
  ``numfig_secnum_depth: 1`` in ``_config.yml``;
- each chapter page opens with a line "Chapter k of n · part · about m min" and a progress bar;
- ``{reading-time}`` says how long the page it stands on takes to read, by the same count;
- ``{book-contents}`` writes the list of chapters with their reading times, grouped by part,
  and ``{book-map}`` a picture of the parts: the chapters of the first part on one line, the
  others fanning out from its end. Both link to every chapter.
- Sections: ``{ref}`02-rotations#turn-it-yourself``` refers to a section of another page by
  its heading anchor (the gallery's cards link to where each widget is taught).
- Glossary links: an author writes ``{term}`` at the first use of a term on a page
  (``tests/test_page_layer.py`` checks it); the link shows its definition's first sentence
  on hover.

Reading time: prose words (paragraphs and list items outside code, figures and exercise
solutions) at ``WORDS_PER_MINUTE``, plus ``SECONDS_PER_EQUATION`` per display equation.
"""

from __future__ import annotations

import hashlib
import re
import sys
from html import escape
from pathlib import Path

from docutils import nodes
from internals import is_exercise_solution, nb_element
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

# The one reading of _toc.yml (pages, chapters, numbers, parts) that the build scripts,
# the exporter and the tests share.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import book_pages

WORDS_PER_MINUTE = 200  # technical prose read with attention
SECONDS_PER_EQUATION = 20


def _skipped(node) -> bool:
    """Text a reader does not read through: code cells, captions, solutions, tables of contents."""
    current = node.parent
    while current is not None:
        if isinstance(current, (nodes.literal_block, nodes.caption, nodes.figure, nodes.table)):
            return True
        if nb_element(current) or is_exercise_solution(current):
            return True
        current = current.parent
    return False


def page_stats(doctree) -> dict[str, int]:
    """``{"words": prose words, "equations": display equations}`` of one page."""
    words = 0
    for paragraph in doctree.findall(nodes.paragraph):
        if not _skipped(paragraph):
            words += len(paragraph.astext().split())
    equations = sum(1 for node in doctree.findall(nodes.math_block) if not _skipped(node))
    return {"words": words, "equations": equations}


def minutes(stats: dict[str, int]) -> int:
    return max(1, round(stats["words"] / WORDS_PER_MINUTE + stats["equations"] * SECONDS_PER_EQUATION / 60))


def _record_stats(app, doctree):
    app.env.rope_page_stats = getattr(app.env, "rope_page_stats", {})
    app.env.rope_page_stats[app.env.docname] = page_stats(doctree)


def _purge(app, env, docname):
    getattr(env, "rope_page_stats", {}).pop(docname, None)


def _merge(app, env, docnames, other):
    env.rope_page_stats = getattr(env, "rope_page_stats", {})
    for docname in docnames:
        if docname in getattr(other, "rope_page_stats", {}):
            env.rope_page_stats[docname] = other.rope_page_stats[docname]


def chapters(env) -> list[dict]:
    """The chapters in reading order: docname, number, title, part (index and caption), stats.

    The chapters and their numbers are ``book_pages.pages()``'s; ``part`` counts the numbered
    parts only (0 is "Part I").
    """
    stats = getattr(env, "rope_page_stats", {})
    numbered = [page for page in book_pages.pages(env.srcdir) if page.number is not None]
    part_index = {part: index for index, part in enumerate(dict.fromkeys(page.part for page in numbered))}
    result = []
    for chapter in numbered:
        docname = chapter.docname
        title = env.titles[docname].astext() if docname in env.titles else docname
        page = stats.get(docname, {"words": 0, "equations": 0})
        result.append({
            "docname": docname, "number": str(chapter.number), "title": title,
            "part": part_index[chapter.part], "caption": chapter.caption,
            "words": page["words"], "equations": page["equations"], "minutes": minutes(page),
        })
    return result


def _roman(n: int) -> str:
    return ["I", "II", "III", "IV", "V", "VI"][n] if n < 6 else str(n + 1)


def _thousands(n: int) -> str:
    return f"{n:,}".replace(",", "\N{NARROW NO-BREAK SPACE}")


class BookContents(nodes.General, nodes.Element):
    """Placeholder for the chapter list, filled when every page has been read."""


class BookMap(nodes.General, nodes.Element):
    """Placeholder for the picture of the book's parts."""


class ReadingTime(nodes.General, nodes.Element):
    """Placeholder for "about m min of reading" of the page it stands on."""


class ReadingTimeDirective(SphinxDirective):
    def run(self):
        return [ReadingTime()]


def reading_time_html(app, fromdoc: str) -> str:
    """One sentence: the page's own reading time, counted as every chapter's is."""
    stats = getattr(app.env, "rope_page_stats", {}).get(fromdoc, {"words": 0, "equations": 0})
    return (f'<p class="rope-reading-time">Reading time: about {minutes(stats)} min '
            f'({_thousands(stats["words"])} words at {WORDS_PER_MINUTE} a minute and '
            f'{stats["equations"]} displayed equations at {SECONDS_PER_EQUATION} s each), '
            "a few more to run the code.</p>")


class BookContentsDirective(SphinxDirective):
    def run(self):
        return [BookContents()]


class BookMapDirective(SphinxDirective):
    def run(self):
        return [BookMap()]


def contents_html(app, fromdoc: str) -> str:
    listed = chapters(app.env)
    total_minutes = sum(c["minutes"] for c in listed)
    total_words = sum(c["words"] for c in listed)
    hours, rest = divmod(total_minutes, 60)
    lines = [
        f'<p class="rope-book-length">{len(listed)} chapters, about {_thousands(total_words)} words of prose: '
        f"about {hours} h {rest:02d} min of reading, more with the code and the exercises.</p>"
    ]
    part = None
    for chapter in listed:
        if chapter["part"] != part:
            if part is not None:
                lines.append("</ol>")
            part = chapter["part"]
            lines.append(f'<p class="rope-part-title">Part {_roman(part)}: {escape(chapter["caption"])}</p>')
            lines.append(f'<ol class="rope-contents" start="{chapter["number"] or 1}">')
        uri = app.builder.get_relative_uri(fromdoc, chapter["docname"])
        lines.append(
            f'<li><a href="{uri}">{escape(chapter["title"])}</a>'
            f' <span class="rope-minutes">{chapter["minutes"]} min</span></li>'
        )
    if part is not None:
        lines.append("</ol>")
    return "\n".join(lines)


def map_html(app, fromdoc: str) -> str:
    """The map twice: across the page (wide screens) and down it (phones)."""
    return (f'<div class="rope-map-wide">{map_svg(app, fromdoc)}</div>'
            f'<div class="rope-map-narrow">{map_svg_narrow(app, fromdoc)}</div>')


LABEL_PX_PER_CHAR = 7.6    # 14 px text; generous, so that no label runs into its neighbour
CAPTION_PX_PER_CHAR = 8.2  # 14 px semi-bold


def short_label(docname: str) -> str:
    """A chapter's name on the map, from its file name: ``05-d-dimensions`` → ``d dimensions``.

    File names are short by convention (CONTRIBUTING), so the label is never truncated; the
    full title is the link's name and shows on hover.
    """
    words = docname.rsplit("/", 1)[-1].split("-")
    if words and words[0].isdigit():
        words = words[1:]
    fixed = {"rope": "RoPE", "1d": "1-D"}
    return " ".join(fixed.get(word, word) for word in words)


def _node(app, fromdoc, c, x, y, radius, part_class):
    uri = app.builder.get_relative_uri(fromdoc, c["docname"])
    label = escape(f'Chapter {c["number"]}: {c["title"]}, about {c["minutes"]} min')
    # The link holds the number only, so its visible text ("7") is part of its name.
    return (f'<a href="{uri}" aria-label="{label}"><title>{label}</title>'
            f'<circle class="rope-map-node {part_class}" cx="{x}" cy="{y}" r="{radius}"/>'
            f'<text class="rope-map-number" x="{x}" y="{y + 5}" text-anchor="middle">{c["number"]}</text></a>')


def _title(key, spine, fan):
    return (f'<title id="rope-map-title-{key}">The map of the book: chapters '
            f'{spine[0]["number"]} to {spine[-1]["number"]} build one argument in order; '
            + (f'chapters {fan[0]["number"]} to {fan[-1]["number"]} each start from it.' if fan else "")
            + "</title>")


def _label(x, y, text, anchor="start"):
    return (f'<text class="rope-map-label" x="{x}" y="{y}" text-anchor="{anchor}">'
            f"{escape(text)}</text>")


def map_svg(app, fromdoc: str, key: str = "wide") -> str:
    """The book across the page: the first part's chapters in a line, labelled above and below
    in turn, the rest fanning out with their labels to the right."""
    listed = chapters(app.env)
    if not listed:
        return ""
    spine = [c for c in listed if c["part"] == listed[0]["part"]]
    fan = [c for c in listed if c["part"] != listed[0]["part"]]
    step, radius = 70, 19
    # neighbours on one side of the line are two steps apart
    for c in spine:
        if len(short_label(c["docname"])) * LABEL_PX_PER_CHAR > 2 * step - 8:
            raise ValueError(f"docname: {c['docname']!r} is too long to label the map's first part "
                             f"(at most {int((2 * step - 8) / LABEL_PX_PER_CHAR)} characters after the number)")
    label_width = max((len(short_label(c["docname"])) for c in fan), default=0) * LABEL_PX_PER_CHAR
    fan_gap = 40
    height = max(150, 30 + len(fan) * fan_gap)
    spine_y = height / 2
    first_x = 10 + len(short_label(spine[0]["docname"])) * LABEL_PX_PER_CHAR / 2
    last_x = first_x + (len(spine) - 1) * step
    fan_x = last_x + 130
    width = fan_x + radius + 8 + label_width + 10 if fan else last_x + step
    items = [f'<svg class="rope-map" viewBox="0 0 {width:.0f} {height + 40}" role="group" '
             f'aria-labelledby="rope-map-title-{key}" xmlns="http://www.w3.org/2000/svg">',
             _title(key, spine, fan)]
    items.append(f'<line class="rope-map-edge" x1="{first_x}" y1="{spine_y}" x2="{last_x}" y2="{spine_y}"/>')
    for i in range(len(fan)):
        y = 25 + i * fan_gap
        items.append(f'<path class="rope-map-edge" d="M {last_x} {spine_y} C {last_x + 70} {spine_y}, '
                     f'{fan_x - 70} {y}, {fan_x - radius} {y}"/>')
    for i, c in enumerate(spine):
        x = first_x + i * step
        items.append(_node(app, fromdoc, c, x, spine_y, radius, "rope-map-spine"))
        label_y = spine_y - radius - 9 if i % 2 == 0 else spine_y + radius + 20
        items.append(_label(x, label_y, short_label(c["docname"]), "middle"))
    for i, c in enumerate(fan):
        y = 25 + i * fan_gap
        items.append(_node(app, fromdoc, c, fan_x, y, radius, "rope-map-fan"))
        items.append(_label(fan_x + radius + 8, y + 5, short_label(c["docname"])))
    items.append(f'<text class="rope-map-part" x="10" y="{spine_y + radius + 52}">'
                 f'Part I: {escape(spine[0]["caption"])}</text>')
    if fan:
        items.append(f'<text class="rope-map-part" x="{width - 4:.0f}" y="{height + 30}" text-anchor="end">'
                     f'Part II: {escape(fan[0]["caption"])}</text>')
    items.append("</svg>")
    return "\n".join(items)


def map_svg_narrow(app, fromdoc: str, key: str = "narrow") -> str:
    """The book down the page, for phones: the first part's chapters in a column, the rest
    branching off below its end; every node labelled to its right at the page's text size."""
    listed = chapters(app.env)
    if not listed:
        return ""
    spine = [c for c in listed if c["part"] == listed[0]["part"]]
    fan = [c for c in listed if c["part"] != listed[0]["part"]]
    step, radius, spine_x, fan_x = 44, 17, 28, 76
    captions = [f'Part I: {spine[0]["caption"]}'] + ([f'Part II: {fan[0]["caption"]}'] if fan else [])
    labels = [short_label(c["docname"]) for c in listed]
    caption_x = [10, spine_x + 12]  # the second clears the line running down to the fan
    width = max(fan_x + radius + 8 + max(map(len, labels)) * LABEL_PX_PER_CHAR,
                *(x + len(c) * CAPTION_PX_PER_CHAR for x, c in zip(caption_x, captions)))
    spine_top = 48
    spine_ys = [spine_top + i * step for i in range(len(spine))]
    fan_top = spine_ys[-1] + 40 + 36
    fan_ys = [fan_top + i * step for i in range(len(fan))]
    height = (fan_ys[-1] if fan else spine_ys[-1]) + radius + 10
    # The map is drawn at its own size (not stretched to the screen), so its text is the page's.
    items = [f'<svg class="rope-map" viewBox="0 0 {width:.0f} {height}" style="max-width: {width:.0f}px" '
             f'role="group" aria-labelledby="rope-map-title-{key}" xmlns="http://www.w3.org/2000/svg">',
             _title(key, spine, fan),
             f'<text class="rope-map-part" x="10" y="20">{escape(captions[0])}</text>',
             f'<line class="rope-map-edge" x1="{spine_x}" y1="{spine_ys[0]}" x2="{spine_x}" y2="{spine_ys[-1]}"/>']
    if fan:
        items.append(f'<text class="rope-map-part" x="{caption_x[1]}" y="{spine_ys[-1] + 48}">'
                     f'{escape(captions[1])}</text>')
    for y in fan_ys:
        items.append(f'<path class="rope-map-edge" d="M {spine_x} {spine_ys[-1]} C {spine_x} {y}, '
                     f'{spine_x} {y}, {fan_x - radius} {y}"/>')
    for c, y in zip(spine, spine_ys):
        items.append(_node(app, fromdoc, c, spine_x, y, radius, "rope-map-spine"))
        items.append(_label(spine_x + radius + 8, y + 5, short_label(c["docname"])))
    for c, y in zip(fan, fan_ys):
        items.append(_node(app, fromdoc, c, fan_x, y, radius, "rope-map-fan"))
        items.append(_label(fan_x + radius + 8, y + 5, short_label(c["docname"])))
    items.append("</svg>")
    return "\n".join(items)


def _fill_placeholders(app, doctree, docname):
    for node_type, render in ((BookContents, contents_html), (BookMap, map_html),
                              (ReadingTime, reading_time_html)):
        for node in list(doctree.findall(node_type)):
            if app.builder.format == "html":
                node.replace_self(nodes.raw("", render(app, docname), format="html"))
            else:
                node.replace_self([])


def where_html(app, docname: str) -> str:
    """"Chapter k of n · Part … · about m min" and a progress bar, for a chapter page."""
    listed = chapters(app.env)
    index = next((i for i, c in enumerate(listed) if c["docname"] == docname), None)
    if index is None:
        return ""
    c = listed[index]
    return (
        f'<nav class="rope-where" aria-label="Where you are in the book">'
        f'<span>Chapter {c["number"]} of {len(listed)}</span>'
        f' · <span>Part {_roman(c["part"])}: {escape(c["caption"])}</span>'
        f' · <span>about {c["minutes"]} min</span>'
        f'<span class="rope-progress" aria-hidden="true"><span style="width: {100 * (index + 1) / len(listed):.1f}%">'
        f"</span></span></nav>\n"
    )


def _page_context(app, pagename, templatename, context, doctree):
    if pagename == app.config.root_doc:
        # The tab reads "Home — <book title>", not the book's name twice in other words.
        context["title"] = "Home"
    if doctree is None or "body" not in context:
        return
    banner = where_html(app, pagename)
    if banner:
        body = context["body"]
        at = body.find("<h1")
        context["body"] = body[:at] + banner + body[at:] if at >= 0 else banner + body


GREEK = {name: chr(code) for name, code in (
    ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4), ("Delta", 0x394),
    ("theta", 0x3B8), ("Theta", 0x398), ("lambda", 0x3BB), ("pi", 0x3C0), ("omega", 0x3C9))}
SYMBOLS = {"langle": "⟨", "rangle": "⟩", "cdot": "·", "times": "×", "le": "≤", "ge": "≥", "to": "→",
           "infty": "∞", "sqrt": "√", ",": " ", "quad": " ",
           # functions keep their names: e^(iα) = cos α + i sin α
           **{name: f" {name} " for name in ("cos", "sin", "tan", "exp", "log", "ln", "arg", "det", "max", "min")}}


def plain_math(tex: str) -> str:
    """A formula as plain text for a tooltip (which cannot show maths): ``\\theta_i`` → ``θ_i``."""
    tex = re.sub(r"\\(?:mathbf|mathrm|text|operatorname|boldsymbol)\{([^{}]*)\}", r"\1", tex)
    tex = re.sub(r"\\([A-Za-z]+|,)", lambda m: GREEK.get(m.group(1), SYMBOLS.get(m.group(1), "")), tex)
    return tex.replace("{", "").replace("}", "").replace("\\", "")


def _hover_text(node) -> str:
    """A node's text with its maths as plain text."""
    copy = node.deepcopy()
    for math in list(copy.findall(nodes.math)):
        math.replace_self(nodes.Text(plain_math(math.astext())))
    return copy.astext()


def glossary_definitions(env) -> dict[str, str]:
    """``{anchor of a glossary term: first sentence of its definition}``, from the std domain's
    public ``get_objects()`` and the glossary page's doctree."""
    anchors_of = {}
    for _, _, kind, docname, anchor, _ in env.get_domain("std").get_objects():
        if kind == "term":
            anchors_of.setdefault(docname, set()).add(anchor)
    definitions = {}
    for docname, anchors in anchors_of.items():
        for item in env.get_doctree(docname).findall(nodes.definition_list_item):
            term = next(iter(item.findall(nodes.term)), None)
            definition = next(iter(item.findall(nodes.definition)), None)
            if term is None or definition is None or not term.get("ids") or term["ids"][0] not in anchors:
                continue
            text = " ".join(_hover_text(definition).split())
            definitions[term["ids"][0]] = re.split(r"(?<=[.;])\s", text, maxsplit=1)[0]
    return definitions


class GlossaryHover(SphinxPostTransform):
    """A ``{term}`` link shows its definition's first sentence on hover (an HTML ``title``)."""

    default_priority = 900  # after Sphinx has resolved the references (10)
    formats = ("html",)

    def run(self, **kwargs):
        if not hasattr(self.app, "rope_glossary_definitions"):  # once per build (and per process)
            self.app.rope_glossary_definitions = glossary_definitions(self.env)
        definitions = self.app.rope_glossary_definitions
        for reference in self.document.findall(nodes.reference):
            shown = reference.next_node(nodes.inline)
            if shown is None or "std-term" not in shown["classes"]:
                continue
            anchor = reference.get("refid") or reference.get("refuri", "").rpartition("#")[2]
            if anchor in definitions:
                reference["reftitle"] = definitions[anchor]
                reference["classes"].append("rope-term")


def setup(app):
    # The pages must be read again when this file changes (what it records while reading).
    app.add_config_value("rope_book_map_source", hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16], "env")
    app.add_post_transform(GlossaryHover)
    app.add_node(BookContents)
    app.add_node(BookMap)
    app.add_node(ReadingTime)
    app.add_directive("book-contents", BookContentsDirective)
    app.add_directive("book-map", BookMapDirective)
    app.add_directive("reading-time", ReadingTimeDirective)
    app.connect("doctree-read", _record_stats)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("doctree-resolved", _fill_placeholders)
    app.connect("html-page-context", _page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1", "env_version": 1}

