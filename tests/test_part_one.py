"""The way in and Part I: one home per idea, one sign convention, one meaning per symbol, a
15-minute page a reader can implement from, and a landing page whose two ways in are on the
first screen.

The source checks read the chapter files; the built-page checks read ``_build/html`` (built by
``tests/conftest.py``, reused with ``ROPE_BOOK_REUSE_BUILD=1``); the browser checks open it in
chromium at a desktop's and a phone's size.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

import rope_core
from rope_core import widgets

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages  # noqa: E402  (the chapters, in the toc's order)

PART_ONE = book_pages.part_one(ROOT)
WAY_IN = [BOOK / "index.md", BOOK / "rope-in-15-minutes.md"]
NOTATION = BOOK / "notation.md"


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def maths(text: str) -> list[str]:
    """The TeX of every display (``$$ … $$``) and inline (``$ … $``) formula of a page."""
    display = re.findall(r"\$\$(.*?)\$\$", text, flags=re.S)
    inline = re.findall(r"(?<![\\$])\$([^$\n]+?)\$", re.sub(r"\$\$(.*?)\$\$", " ", text, flags=re.S))
    return display + inline


def code_cells(text: str) -> list[str]:
    return re.findall(r"^```\{code-cell\}[^\n]*\n(.*?)^```", text, flags=re.M | re.S)


# ---- one home per idea ----------------------------------------------------------------------

def homes() -> list[tuple[str, str, str]]:
    """``[(idea, file stem, heading)]`` from CONTRIBUTING's "Ideas and their homes" table."""
    text = read(ROOT / "CONTRIBUTING.md")
    section = text.split("## Ideas and their homes", 1)[1]
    rows = re.findall(r"^\| (.+?) \| `([\w-]+)` § (.+?) \| .+ \|$", section, flags=re.M)
    return rows


def test_every_idea_of_part_one_has_a_home_that_exists():
    rows = homes()
    assert len(rows) >= 20, rows
    for idea, stem, heading in rows:
        headings = re.findall(r"^#{2,3} (.+)$", read(BOOK / f"{stem}.md"), flags=re.M)
        assert heading in headings, (idea, stem, heading, headings)


def test_each_widget_is_built_in_one_chapter_only():
    chapters = book_pages.chapters(ROOT)
    for cls in widgets.REGISTRY:
        built_in = [path.stem for path in chapters for cell in code_cells(read(path))
                    if re.search(rf"\b{cls.__name__}\(", cell)]
        assert len(built_in) <= 1, (cls.__name__, built_in)
    landing = [cell for cell in code_cells(read(BOOK / "index.md")) if "widgets" in cell]
    assert len(landing) <= 1, landing


def test_the_way_in_does_not_repeat_the_landing_widget():
    landing = {name for cell in code_cells(read(BOOK / "index.md")) for name in re.findall(r"\b([A-Z]\w+)\(", cell)}
    fifteen = {name for cell in code_cells(read(BOOK / "rope-in-15-minutes.md"))
               for name in re.findall(r"\b([A-Z]\w+)\(", cell)}
    shown = {cls.__name__ for cls in widgets.REGISTRY}
    assert landing & shown and fifteen & shown and not (landing & fifteen & shown)


# ---- one sign convention ---------------------------------------------------------------------

# g, h and the parts of h are functions of the relative position: the book writes it n - m.
RELATIVE_FUNCTION = re.compile(r"(?<![A-Za-z\\])(?:g|h|r_h|\\psi_h)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)")


def relative_arguments(tex: str) -> list[str]:
    """The last argument of every g(…), h(…), r_h(…), ψ_h(…) in a formula, spaces removed."""
    return [call.split(",")[-1].replace(" ", "") for call in RELATIVE_FUNCTION.findall(tex)
            if call.count(",") >= 2]


def test_relative_arguments_are_read():
    assert relative_arguments(r"g(\mathbf{x}_m, \mathbf{x}_n, n - m) = h(q, k, m-n)") == ["n-m", "m-n"]
    assert relative_arguments(r"\psi_h(q,k,n-m) + r_h(q, k, -1)") == ["n-m", "-1"]


@pytest.mark.parametrize("path", WAY_IN + PART_ONE + [NOTATION], ids=lambda p: p.stem)
def test_the_relative_position_is_written_n_minus_m(path):
    """Every function of the relative position (the wish's g, the complex wish's h and its
    length and angle) takes it as n − m, the key's position minus the query's."""
    wrong = [(tex.strip()[:80], arg) for tex in maths(read(path)) for arg in relative_arguments(tex)
             if "m-n" in arg]
    assert not wrong, wrong


def test_the_other_sign_is_named_once_in_its_home():
    chapter_1 = read(BOOK / "01-why-positions.md")
    assert re.search(r"the \*relative position\* is \$n - m\$", chapter_1)
    assert "§3.1 writes $g$ as a function of $m - n$" in chapter_1
    named = [p.stem for p in PART_ONE + WAY_IN if "writes $g$ as a function of $m - n$" in read(p)]
    assert named == ["01-why-positions"], named


def test_the_book_convention_is_what_rope_core_computes():
    """The score of a query at m and a key at n is qᵀR((n − m)θ)k, not qᵀR((m − n)θ)k."""
    rng = np.random.default_rng(3)
    q, k = rng.standard_normal((2, 2))
    theta, m, n = 0.7, 9, 2
    # with d = 2 the one pair turns by 1 rad per position, so position p * theta turns by p * theta
    score = rope_core.apply_rope(q[None], [m * theta])[0] @ rope_core.apply_rope(k[None], [n * theta])[0]
    assert np.isclose(score, q @ rope_core.rotation_matrix((n - m) * theta) @ k, rtol=1e-12)
    assert not np.isclose(score, q @ rope_core.rotation_matrix((m - n) * theta) @ k, rtol=1e-3)


# ---- notation: every symbol, one meaning --------------------------------------------------------

GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi "
         "pi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma "
         "Upsilon Phi Psi Omega").split()
# Latin symbols that several chapters use with one meaning (a letter used in one section only
# is defined where it appears, as the notation page says).
SHARED_LATIN = [r"g(", r"h(", r"A_m", r"O^m", r"F = \operatorname{diag}(1, -1)", r"J = R(\pi/2)",
                r"r_f", r"\psi_f", r"\varphi(m)", r"\mathbf{e}_0", r"\mathbf{e}_1", r"\alpha'",
                r"R_m", r"\theta_i", r"\Delta", r"f_q", r"\Pi"]


def greek_used(text: str) -> set[str]:
    return {name for tex in maths(text) for name in re.findall(r"\\(" + "|".join(GREEK) + r")(?![A-Za-z])", tex)}


def test_every_greek_letter_of_part_one_is_on_the_notation_page():
    notation = greek_used(read(NOTATION))
    for path in WAY_IN + PART_ONE:
        missing = greek_used(read(path)) - notation
        assert not missing, (path.stem, sorted(missing))


def test_the_shared_latin_symbols_are_on_the_notation_page():
    notation = "".join(maths(read(NOTATION)))
    missing = [symbol for symbol in SHARED_LATIN if symbol not in notation]
    assert not missing, missing


def test_beta_has_one_meaning():
    """β is base^(2/d) (chapter 5's digits); an arbitrary angle is α or α′, never β."""
    for path in WAY_IN + PART_ONE:
        if path.stem == "05-d-dimensions":
            continue
        assert r"\beta" not in read(path) and "β" not in read(path), path.stem
    chapter_5 = read(BOOK / "05-d-dimensions.md")
    assert r"\beta = \text{base}^{2/d}" in chapter_5
    for tex in maths(chapter_5):
        assert not re.search(r"R\(\\beta|\\alpha\s*[+-]\s*\\beta", tex), tex
    entries = [line for line in read(NOTATION).splitlines() if line.startswith("$") and r"\beta" in line]
    assert len(entries) == 1, entries


def test_the_notation_page_defines_each_symbol_once():
    terms = [line for line in read(NOTATION).splitlines() if line.startswith("$")]
    symbols = [symbol for line in terms for symbol in re.findall(r"\$([^$]+)\$", line)]
    singles = [s for s in symbols if "," not in s]
    assert len(singles) == len(set(singles)), sorted({s for s in singles if singles.count(s) > 1})


# ---- the glossary ----------------------------------------------------------------------------

PART_ONE_TERMS = ["rotation matrix", "orthogonal matrix", "determinant", "mirror", "Euler's formula",
                  "conjugate", "sign bridge", "wish", "complex wish", "boundary condition",
                  "parity encoding", "permutation equivariance", "sinusoidal position embedding",
                  "block-diagonal rotation", "frequency", "wavelength", "clock hands", "Toeplitz matrix",
                  "relative position", "attention score", "attention weight", "rotary position embedding"]


def glossary_entries() -> dict[str, str]:
    text = read(BOOK / "appendix-glossary.md").split("```{glossary}", 1)[1].rsplit("```", 1)[0]
    entries = re.split(r"\n\n(?=\S)", text.split(":sorted:", 1)[1].strip("\n"))
    return {entry.split("\n", 1)[0]: entry for entry in entries}


def test_the_glossary_covers_part_one_and_links_every_entry_to_its_home():
    entries = glossary_entries()
    missing = [term for term in PART_ONE_TERMS if term not in entries]
    assert not missing, missing
    unlinked = [term for term, entry in entries.items() if not re.search(r"\{(doc|numref)\}`", entry)]
    assert not unlinked, unlinked
    part_one = [label for label, page in book_pages.chapter_labels().items() if page.path in book_pages.part_one()]
    for term in PART_ONE_TERMS:
        assert re.search(rf"Taught in\s+\{{numref\}}`[^`<]*<({'|'.join(part_one)})>`", entries[term]), term


def test_the_glossary_has_llama_4_temperature_as_transformers_computes_it():
    entry = glossary_entries()["attention temperature"]
    assert r"\lfloor (p + 1)/L\rfloor" in entry
    from rope_core import wiring
    positions = np.array([0, 8190, 8191, 8192, 3 * 8192 - 1])
    # 1 + β ln(1 + ⌊(p + 1)/L⌋) with β = 0.1, L = 8192
    expected = 1 + 0.1 * np.log(1 + np.floor((positions + 1) / 8192))
    assert np.allclose(wiring.llama4_attention_temperature(positions, floor_scale=8192, attn_scale=0.1), expected)


# ---- a section's claims: one line --------------------------------------------------------------

def _teach_first():
    import sys
    sys.path.insert(0, str(BOOK / "_ext"))
    import teach_first
    return teach_first


def _claim_rows(*failed: bool) -> list[str]:
    mark = '<span class="rope-claim-mark{}">{}</span>'
    return [f'<div class="rope-claim">{mark.format(" rope-claim-failed" if bad else "", "✗" if bad else "✓")} '
            f"claim {i}</div>" for i, bad in enumerate(failed)]


def _summarised(rows, cells=()):
    from docutils import nodes

    teach_first = _teach_first()
    section = nodes.section("", nodes.title("", "A section"), nodes.paragraph("", "Prose."))
    subsection = nodes.section("", nodes.title("", "Its subsection"))
    section += subsection
    for cell in cells:
        section.insert(2, cell)
    teach_first.ClaimsPerSection.summarise_section(section, rows, list(cells))
    (results,) = [child for child in section.children if "rope-check-results" in child.get("classes", [])]
    return section, subsection, results[0]


def test_a_sections_claims_are_one_line_at_its_end_with_the_list_and_code_folded():
    from docutils import nodes

    cell = nodes.container("", nodes.literal_block("", "claim('x', True)"), classes=["cell"])
    section, subsection, box = _summarised(_claim_rows(False, False, False), [cell])
    assert box["summary"] == "✓ 3 claims of this section hold" and not box.get("open")
    assert section.index(box.parent) == section.index(subsection) - 1  # before the subsection
    assert box.astext().count("claim ") == 3
    (code,) = [child for child in box.children if "rope-check" in child.get("classes", [])]
    assert cell.parent is code  # the check's code went into the box
    assert _summarised(_claim_rows(False))[2]["summary"] == "✓ 1 claim of this section holds"


def test_a_failed_claim_opens_its_sections_line_and_says_so():
    box = _summarised(_claim_rows(False, True, False))[2]
    assert box["summary"] == "✗ 1 of 3 claims of this section does not hold" and box["open"]
    assert "rope-claims-fails" in box["box_classes"]


@pytest.mark.book
def test_each_section_shows_its_claims_as_one_line(built_book):
    """On the way in and Part I, every claim line is a section's line, one per section."""
    from bs4 import BeautifulSoup

    lines = 0
    for page in ["index", "rope-in-15-minutes", *(p.stem for p in PART_ONE)]:
        soup = BeautifulSoup(read(built_book / "book" / f"{page}.html"), "html.parser")
        boxes = soup.select("details.rope-claims")
        assert all("rope-section-claims" in box["class"] for box in boxes), page
        sections = [box.find_parent("section") for box in boxes]
        assert len(sections) == len(set(map(id, sections))), f"{page}: a section with two claim lines"
        for box in boxes:
            said = re.fullmatch(r"✓ (\d+) claims? of this section holds?", box.summary.get_text(" ", strip=True))
            assert said and int(said.group(1)) == len(box.select(":scope > .rope-claim")), page
        lines += len(boxes)
    assert lines >= 8


# ---- the built pages -----------------------------------------------------------------------

@pytest.mark.book
def test_the_15_minute_page_says_how_long_it_takes(built_book):
    html = read(built_book / "book" / "rope-in-15-minutes.html")
    said = re.search(r'class="rope-reading-time">Reading time: about (\d+) min \(([\d\u202f]+) words', html)
    assert said, "the page states its reading time"
    minutes, words = int(said.group(1)), int(said.group(2).replace("\u202f", ""))
    assert minutes <= 15 and words > 300, (minutes, words)


def test_the_15_minute_page_ends_with_what_a_reader_needs_to_write_rope():
    text = read(BOOK / "rope-in-15-minutes.md")
    for needed in ("x'_{a} &= x_{a}\\cos m\\theta_i - x_{b}\\sin m\\theta_i",   # the element-wise form
                   "$(2i, 2i + 1)$", "$(i, i + d/2)$",                           # both layouts
                   'atlas.entry("llama-3-8b")', "values are not rotated"):
        assert needed in text, needed
    for assumption in ("ex-ch04-xpos", "04-deriving-rope.md#the-wish-as-an-equation", "ex-ch04-offset",
                       "ex-ch04-fractional"):
        assert assumption in text, assumption
    cells = code_cells(text)
    (recipe,) = [cell for cell in cells if cell.startswith("def rope(")]
    assert len(recipe.strip().splitlines()) <= 12, recipe
    (check,) = [cell for cell in cells if "rope(x, positions)" in cell and "apply_rope" in cell]
    assert check.startswith("---\ntags: [hide-input]"), "the check is folded"


def test_the_15_minute_recipe_is_rope():
    """Run the page's recipe as a reader would copy it: it is apply_rope, and relative."""
    (recipe,) = [cell for cell in code_cells(read(BOOK / "rope-in-15-minutes.md")) if cell.startswith("def rope(")]
    namespace = {"np": np}
    exec(recipe, namespace)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 16))
    positions = np.array([0, 3, 77, 1000, 123_456])
    assert np.allclose(namespace["rope"](x, positions), rope_core.apply_rope(x, positions, layout="interleaved"),
                       atol=1e-9)


# ---- the landing page in the browser ----------------------------------------------------------

def overlap(a, b) -> bool:
    """Whether two boxes ``[left, top, right, bottom]`` share more than a pixel's edge."""
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


LANDING_VIEWS = [("desktop", {"width": 1280, "height": 800}, "light"), ("phone", {"width": 390, "height": 844}, "dark")]


@pytest.mark.browser
@pytest.mark.parametrize("name, viewport, scheme", LANDING_VIEWS, ids=[v[0] for v in LANDING_VIEWS])
def test_the_two_ways_in_are_on_the_first_screen(chromium, book_server, screenshot_dir, name, viewport, scheme):
    from _browser import open_book_page

    context, page, log = open_book_page(chromium, book_server, "index.html", scheme, viewport=viewport)
    try:
        buttons = page.locator("article a.sd-btn")
        assert buttons.count() == 2
        texts = [buttons.nth(i).inner_text() for i in range(2)]
        assert "15 minutes" in texts[0] and "chapter 1" in texts[1], texts
        for i in range(2):
            box = buttons.nth(i).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (name, texts[i], box)
        page.screenshot(path=str(screenshot_dir / f"landing-{name}-{scheme}.png"))
        assert not log.problems(), log.problems()
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("name, viewport, scheme", LANDING_VIEWS, ids=[v[0] for v in LANDING_VIEWS])
def test_every_chapter_on_the_map_has_a_readable_label(chromium, book_server, built_book, name, viewport, scheme):
    """Each chapter's node has a label of at least 11 px, inside the map and clear of every
    other label and node."""
    from _browser import open_book_page

    context, page, log = open_book_page(chromium, book_server, "index.html", scheme, viewport=viewport)
    try:
        (svg,) = [s for s in page.locator("svg.rope-map").all() if s.is_visible()]
        boxes = svg.evaluate("""svg => {
            const frame = svg.getBoundingClientRect();
            const rect = el => { const r = el.getBoundingClientRect();
                                 return [r.left, r.top, r.right, r.bottom]; };
            return {frame: [frame.left, frame.top, frame.right, frame.bottom],
                    labels: [...svg.querySelectorAll('text.rope-map-label')].map(t => ({
                        text: t.textContent, box: rect(t),
                        size: parseFloat(getComputedStyle(t).fontSize) * frame.width / svg.viewBox.baseVal.width})),
                    nodes: [...svg.querySelectorAll('circle.rope-map-node')].map(rect)};
        }""")
        chapters = len(svg.locator("a").all())
        assert len(boxes["labels"]) == chapters == len(boxes["nodes"]), (len(boxes["labels"]), chapters)
        left, top, right, bottom = boxes["frame"]
        for i, label in enumerate(boxes["labels"]):
            box = label["box"]
            assert label["size"] >= 11, (name, label["text"], label["size"])
            assert box[0] >= left - 1 and box[2] <= right + 1 and box[1] >= top - 1 and box[3] <= bottom + 1, label
            assert not label["text"].endswith("…"), label
            for other in boxes["labels"][i + 1:] + [{"text": "node", "box": n} for n in boxes["nodes"]]:
                assert not overlap(box, other["box"]), (name, label["text"], other["text"])
        assert not log.problems(), log.problems()
    finally:
        context.close()
