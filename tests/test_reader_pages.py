"""What a reader sees by default on the built chapters: results, not the checks' code.

The counts come from ``scripts/measure_pages.py`` (what is inside a closed fold is not seen).
Cells fold by their MyST-NB tags (``scripts/cell_kinds.py`` says which a cell needs) and a
section's claims are one line (``book/_ext/teach_first.py``); the rules for where
the reader is (numbers, "chapter k of n", reading time) in ``book/_ext/book_map.py``.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
_spec = importlib.util.spec_from_file_location("measure_pages", ROOT / "scripts" / "measure_pages.py")
measure_pages = sys.modules["measure_pages"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(measure_pages)

import book_map  # noqa: E402  (book/_ext is not a package)

sys.path.insert(0, str(ROOT / "scripts"))
import cell_kinds  # noqa: E402

# ---- the rules, on source text (fast) ---------------------------------------------------


@pytest.mark.parametrize(("source", "check"), [
    ('claim("x", True)', True),
    ('ok = claim_close("x", a, b,\n                 rtol=1e-9)', True),
    ("for d in (64, 128):\n    claims.claim(f'{d}', d > 0)", True),
    ("assert np.all(x > 0)", True),
    ("print(claim)", False),
    ("x = rope_core.apply_rope(q, m)\nprint(x)", False),
    ("%timeit f()\nclaim('fast', True)", True),  # not Python (a magic): read line by line
])
def test_a_check_cell_is_one_that_calls_claim_or_asserts(source, check):
    assert cell_kinds.is_check(source) is check


@pytest.mark.parametrize(("source", "setup"), [
    ("import numpy as np\n\nimport rope_core\nfrom rope_core import plots", True),
    ("import numpy as np\nR = rope_core.rotation_matrix", True),
    ("rng = np.random.default_rng(seed)", False),
    ("", False),
])
def test_a_setup_cell_only_imports_and_names(source, setup):
    assert cell_kinds.is_setup(source) is setup


def test_glossary_tooltips_show_formulas_as_plain_text():
    assert book_map.plain_math(r"\lambda_i = 2\pi/\theta_i") == "λ_i = 2π/θ_i"
    assert book_map.plain_math(r"\theta_i = \text{base}^{-2i/d}") == "θ_i = base^-2i/d"
    assert "\\" not in book_map.plain_math(r"\langle \mathbf{q}, \mathbf{k}\rangle \unknown")
    euler = book_map.plain_math(r"e^{\mathrm{i}\alpha} = \cos\alpha + \mathrm{i}\sin\alpha")
    assert " ".join(euler.split()) == "e^iα = cos α + i sin α"  # function names kept


def test_measuring_counts_only_what_is_visible():
    from bs4 import BeautifulSoup

    page = BeautifulSoup(
        '<article><div class="highlight"><pre>claim("a", True)\nx = 1</pre></div>'
        '<details><summary>s</summary><div class="highlight"><pre>claim("b", True)</pre></div></details>'
        '<div class="dropdown"><p class="admonition-title">Solution</p><p>hidden words</p></div>'
        '<div class="cell_output"><div class="highlight"><pre>True</pre></div></div>'
        "<p>one two three</p></article>", "html.parser")
    pres = page.find_all("pre")
    assert [measure_pages.is_hidden(p) for p in pres] == [False, True, False]
    assert measure_pages.check_line_count('claim("a",\n      True)\nx = 1\nassert x') == 3
    assert measure_pages.docstring_line_count('def f():\n    """A.\n\n    B.\n    """\n    return 1') == 4


# ---- the built book ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def counts(built_book):
    return measure_pages.measure_book(built_book)


@pytest.mark.book
@pytest.mark.parametrize("key", ["check_lines", "docstring_lines", "bare_bools"])
def test_chapters_show_no_check_code_no_docstrings_and_no_bare_booleans(counts, key):
    pages = {name: c[key] for name, c in counts.items() if name != "total" and c[key]}
    assert not pages, f"visible {key.replace('_', ' ')} by default: {pages}"


@pytest.mark.book
def test_no_visible_code_line_is_wider_than_a_code_box(counts):
    # A code box holds 88 columns at 1280 px; a longer line scrolls sideways. Included
    # rope_core functions and chapter cells are wrapped at the source.
    pages = {name: c["long_code_lines"] for name, c in counts.items()
             if name != "total" and c["long_code_lines"]}
    assert not pages, f"visible code lines over {measure_pages.LONG} characters: {pages}"


# ASCII stand-ins for maths in a claim line: Greek names, ^T, x_i, <u, v>, conj(), sqrt(),
# and a hyphen used as a minus sign. (W_q, W_k stay: the weights' names in the code.)
ASCII_MATHS = re.compile(r"\b(theta|alpha|beta|omega|epsilon|lambda|phi|pi|sqrt|conj)\b|\^T\b"
                         r"|\b(?!W_[qkvo]\b)[A-Za-z]_(\{|[0-9a-z]\b)|<[A-Za-z]|\w - \w")
MATHS_PAGES = ["index", "rope-in-15-minutes", "01-why-positions", "02-rotations", "03-complex-form",
               "04-deriving-rope", "05-d-dimensions", "07-computing-fast", "06-relative-position"]


def claim_statements(html: str) -> list[str]:
    """The statements of a page's claim lines, without their numbers."""
    from bs4 import BeautifulSoup

    lines = BeautifulSoup(html, "html.parser").select(".rope-claim")
    for line in lines:
        for part in line.select(".rope-claim-mark, .rope-claim-numbers"):
            part.decompose()
    return [" ".join(line.get_text(" ").split()) for line in lines]


def test_ascii_maths_is_recognised():
    bad = ["R(m theta) = R(theta)^m", "q^T R k", "e^{i alpha}", "2 pi", "p_m . p_n", "<u, v>", "m - n"]
    good = ["R(mθ) = R(θ)ᵐ", "qᵀR((n − m)θ)k", "the off-by-one multiplies every frequency by base^(2/d)",
            "rope_core's production apply_rope equals the dense Rₘx too", "all offsets beyond rₘₐₓ = 4",
            "'permuted W_k with the query head count' changes the scores"]
    assert all(ASCII_MATHS.search(s) for s in bad)
    assert not any(ASCII_MATHS.search(s) for s in good)


@pytest.mark.book
def test_claim_lines_of_the_first_part_read_as_maths(built_book):
    seen, ascii_lines = 0, []
    for name in MATHS_PAGES:
        statements = claim_statements((built_book / "book" / f"{name}.html").read_text())
        seen += len(statements)
        ascii_lines += [f"{name}: {s}" for s in statements if ASCII_MATHS.search(s)]
    assert seen >= 100 and not ascii_lines, "\n".join(ascii_lines)


@pytest.mark.book
def test_every_claim_still_shows_its_result(built_book):
    # Folding must not lose a claim: every chapter shows at least one "✓" line, and every
    # check toggle holds code.
    for page in measure_pages.chapter_pages(built_book):
        html = page.read_text()
        assert html.count('class="rope-claim"') >= 1, f"{page.name} shows no claim results"
        for fold in re.findall(r"<details class=\"admonition hide [^\"]*\">(.*?)</details>", html, flags=re.S):
            assert 'class="highlight' in fold, f"{page.name}: a check toggle without its code"


@pytest.mark.book
def test_chapters_are_numbered_and_say_where_the_reader_is(built_book):
    pages = measure_pages.chapter_pages(built_book)
    for page in pages:
        html = page.read_text()
        where = re.search(r'<nav class="rope-where"[^>]*><span>Chapter (\d+) of (\d+)</span>.*?about (\d+) min', html)
        assert where, f"{page.name}: no 'Chapter k of n' line"
        assert int(where.group(2)) == len(pages) and 1 <= int(where.group(3)) <= 90
        number = int(where.group(1))
        # equations and exercises carry the chapter's number: (k.1), Exercise k.1
        assert re.search(rf'<span class="eqno">\({number}\.1\)', html), f"{page.name}: equations not numbered ({number}.n)"
        assert re.search(rf"Exercise {number}\.1\b", html), f"{page.name}: exercises not numbered {number}.n"


@pytest.mark.book
def test_links_to_chapters_read_chapter_k_not_the_title(built_book):
    # "as chapter 5 shows" rather than "as Fill d dimensions with clock hands turning at
    # different speeds shows": every link to a chapter reads the chapter's number in the toc
    # (Part II numbers on from Part I) and the page it leads to is headed by that number.
    from bs4 import BeautifulSoup

    sys.path.insert(0, str(ROOT / "scripts"))
    import book_pages

    numbers = {page.docname.rsplit("/", 1)[-1] + ".html": page.number
               for page in book_pages.pages(ROOT) if page.number is not None}
    pages = measure_pages.chapter_pages(built_book)
    headed = {}
    for page in pages:
        h1 = BeautifulSoup(page.read_text(), "html.parser").select_one("article h1")
        headed[page.name] = int(re.match(r"(\d+)\.", " ".join(h1.get_text(" ").split())).group(1))
    assert headed == {name: numbers[name] for name in headed}, "chapter headings numbered unlike the toc"
    numbered, by_title, wrong = 0, [], []
    for page in [built_book / f"{p.docname}.html" for p in book_pages.pages(ROOT)]:
        article = BeautifulSoup(page.read_text(), "html.parser").find("article")
        for link in article.select("a.reference.internal"):
            target = link.get("href", "").split("#")[0].rsplit("/", 1)[-1]
            if target in numbers and link.select_one("span.doc") is not None:
                by_title.append(f"{page.name} -> {target}: {link.get_text(' ', strip=True)}")
        for block in {id(a.parent): a.parent for a in article.select("a.reference.internal")}.values():
            prose, since_link, after_word = "", "", False
            for child in block.children:
                text = child.get_text() if hasattr(child, "get_text") else str(child)
                href = child.get("href", "") if hasattr(child, "get") else ""
                target = href.split("#")[0].rsplit("/", 1)[-1]
                if child.name != "a" or child.select_one("span.std-numref") is None or target not in numbers \
                        or not href.split("#")[-1].startswith("chapter-"):
                    prose, since_link = prose + text, since_link + text
                    continue
                numbered += 1
                # the number alone after the word "chapter(s)", and in the list it starts
                if re.search(r"\b[Cc]hapters?\s+$", since_link):
                    after_word = True
                elif not re.fullmatch(r"\s*(,|and|or|,\s*and)?\s*", since_link):
                    after_word = False
                starts = not prose.strip() or re.search(r"[.!?:]\s+$", prose)
                expected = str(numbers[target]) if after_word else (
                    f"{'Chapter' if starts else 'chapter'} {numbers[target]}")
                shown = " ".join(text.split())
                if shown != expected:
                    wrong.append(f"{page.name}: ...{prose[-30:]!r} {shown!r}, expected {expected!r}")
                prose, since_link = prose + text, ""
    # every chapter link of the sources (at least one per chapter) is built as a number
    assert not by_title and numbered >= 250, (by_title, numbered)
    assert not wrong, wrong  # the toc's number; "Chapter" starts a sentence; "9" after "chapters"


# ---- in the browser ----------------------------------------------------------------------

@pytest.mark.browser
def test_a_check_opens_to_its_code_and_the_claims_stay_above(book_server, browser_page, screenshot_dir):
    page, log = browser_page
    page.goto(f"{book_server}/book/02-rotations.html", wait_until="load")
    # a section's one line, with the checks that print nothing folded inside it
    claims = page.locator("details.rope-section-claims:has(details.rope-check)").first
    assert claims.locator(".rope-claim").count() >= 1
    claims.locator("summary").first.click()
    check = claims.locator("details.rope-check").first
    code = check.locator(".cell_input").first
    assert not code.is_visible()
    check.locator("summary").first.click()
    assert code.is_visible() and "claim" in code.inner_text()
    check.screenshot(path=str(screenshot_dir / "reader-check-open.png"))
    docstring = page.locator("details.rope-docstring").first
    docstring.locator("summary").click()
    assert '"""' in docstring.inner_text()


@pytest.mark.browser
def test_the_landing_page_starts_with_a_widget_and_a_way_in(built_book, book_server, browser_page):
    from _browser import axe_serious

    page, log = browser_page
    page.goto(f"{book_server}/book/index.html", wait_until="load")
    widget_top = page.locator(".rope-w").first.bounding_box()["y"]
    assert widget_top < 900, "the live figure is on the first screen"
    first_link = page.locator("article a.sd-btn").first
    assert "15 minutes" in first_link.inner_text()
    assert page.locator("article a.sd-btn", has_text="Start with chapter 1").count() == 1
    chapters = len(measure_pages.chapter_pages(built_book))
    assert page.locator(".rope-map-wide svg.rope-map a").count() == chapters
    assert page.locator("ol.rope-contents li").count() == chapters
    assert axe_serious(page) == []
    page.locator("article a.sd-btn", has_text="Start with chapter 1").click()
    page.wait_for_load_state()
    assert page.url.endswith("01-why-positions.html")
