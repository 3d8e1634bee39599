"""No check gives an answer away: what a page shows by default above an answer (a solution or
"Answer" dropdown, or a widget's quiz) does not already hold that answer.

Read from the built pages (``make book``). An answer's numbers that the prose above has not
already given must not be in what a check of the answer's own section, above it, shows a
reader (its claim line, any output it keeps visible). A quiz's right answer must not be in
anything a cell shows a reader on its page.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import measure_pages  # noqa: E402

NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")
# A label in double quotes, or a template literal whose text up to its first ${...} is searched.
QUIZ_ANSWER = re.compile(r'label:\s*(?:"([^"]+)"|`([^`$]+)[^`]*`),\s*correct:\s*true')


def quiz_answers(text: str) -> list[str]:
    """The correct choices' labels in a widget's source (a template literal's fixed start)."""
    return [plain or template for plain, template in QUIZ_ANSWER.findall(text)]
WIDGET_SOURCES = sorted((ROOT / "rope_core" / "widgets").glob("*.js"))


def _is_answer(element) -> bool:
    classes = set(element.get("class") or [])
    if "dropdown" not in classes:
        return False
    if "solution" in classes:
        return True
    title = element.find(class_="admonition-title")
    return title is not None and title.get_text().strip().lower().startswith("answer")


def _answer_numbers(answer) -> set[str]:
    """Numbers an answer's prose states (not its code or formulas), of two characters or more."""
    from bs4 import BeautifulSoup

    prose = BeautifulSoup(str(answer), "html.parser")
    for code in prose.select("pre, .cell, mjx-container, .math"):
        code.decompose()
    return {number for number in NUMBER.findall(prose.get_text(" ")) if len(number) >= 2}


def _shown(cells) -> str:
    """What a reader sees of ``cells`` without opening anything, their code aside."""
    seen = []
    for cell in cells:
        for text in cell.find_all(string=True):
            if text.find_parent(class_="cell_input") is None and not measure_pages.is_hidden(text.parent):
                seen.append(str(text))
    return " ".join(seen)


def spoilers(page_html: str, quiz_answers: list[str]) -> tuple[list[str], int]:
    """``(what gives an answer away, how many answers were looked at)`` for one built page."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page_html, "html.parser")
    found, answers = [], 0
    cells = soup.find_all("div", class_="cell")
    everything = _shown(cells).lower()
    found += [f"the quiz answer {quiz!r} is shown" for quiz in quiz_answers if quiz.lower() in everything]
    elements = soup.find_all(True)  # in reading order
    for index, answer in enumerate(elements):
        if not _is_answer(answer):
            continue
        answers += 1
        above = elements[:index]
        prose = " ".join(element.get_text(" ") for element in above
                         if element.name in {"p", "li"} and not measure_pages.is_hidden(element))
        secret = {number for number in _answer_numbers(answer) if number not in NUMBER.findall(prose)}
        section = answer.find_parent("section")
        checks = [element for element in above
                  if {"rope-check-cell", "rope-check-results"} & set(element.get("class") or [])
                  and element.find_parent("section") is section]
        shown = secret & set(NUMBER.findall(_shown(checks)))
        if shown:
            found.append(f"{sorted(shown)} shown by a check above the answer {answer.get_text(' ')[:60]!r}")
    return found, answers


def _page(section_body: str) -> str:
    return f"<html><body><section><h2>Turn it</h2><p>Is it always 13?</p>{section_body}</section></body></html>"


CHECK = ('<div class="cell rope-check-cell"><div class="rope-check-results"><details class="rope-claims">'
         '<summary><span class="rope-claim-mark">✓</span> {summary}</summary>'
         '<div class="rope-claim"><span class="rope-claim-mark">✓</span> 25 is the first return</div>'
         '</details></div><details class="rope-fold rope-check"><summary>Show the check</summary>'
         '<div class="cell_input"><pre>claim("25 is the first return", True)</pre></div></details></div>')
ANSWER = ('<div class="admonition dropdown"><p class="admonition-title">Answer</p>'
          '<p>No: the first return is at 25.</p></div>')


# A section's line (book/_ext/teach_first.py): the count on the page, the claims folded.
SECTION_CHECK = ('<div class="rope-check-results"><details class="rope-claims rope-section-claims">'
                 '<summary><span class="rope-claim-mark">✓</span> {summary}</summary>'
                 '<div class="rope-claim"><span class="rope-claim-mark">✓</span> 25 is the first return</div>'
                 '</details></div>')


@pytest.mark.parametrize(("body", "spoiled"), [
    (SECTION_CHECK.format(summary="1 claim of this section holds") + ANSWER, False),
    (SECTION_CHECK.format(summary="25 is the first return") + ANSWER, True),
    (CHECK.format(summary="25 is the first return") + ANSWER, True),   # a one-claim line
    (CHECK.format(summary="1 claim holds") + ANSWER, False),            # the statement folded
    (ANSWER + CHECK.format(summary="25 is the first return"), False),  # checked after the answer
    ('<div class="cell"><div class="cell_output"><p>rotation and parity</p></div></div>' + ANSWER, True),
])
def test_an_answer_shown_before_its_dropdown_is_found(body, spoiled):
    found, answers = spoilers(_page(body), ["rotation and parity"])
    assert answers == 1 and bool(found) is spoiled, found


@pytest.mark.parametrize("widget_source", WIDGET_SOURCES, ids=lambda path: path.name)
def test_the_quiz_answers_are_found(widget_source):
    # The book test below reads quiz answers from the widgets' sources: it must find them all.
    text = widget_source.read_text(encoding="utf-8")
    assert len(quiz_answers(text)) == text.count("correct: true")


@pytest.mark.book
def test_no_check_gives_an_answer_away(built_book):
    answers_of_quizzes = [answer for path in WIDGET_SOURCES
                          for answer in quiz_answers(path.read_text(encoding="utf-8"))]
    assert answers_of_quizzes
    pages = [built_book / "book" / "index.html", built_book / "book" / "rope-in-15-minutes.html",
             *measure_pages.chapter_pages(built_book)]
    spoiled, answers = [], 0
    for page in pages:
        found, count = spoilers(page.read_text(encoding="utf-8"), answers_of_quizzes)
        spoiled += [f"{page.name}: {what}" for what in found]
        answers += count
    assert answers >= 40, answers
    assert not spoiled, "\n".join(spoiled)


# --- The gallery: each card and section asks its widget's question and does not answer it. ---

def _gallery_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_gallery", ROOT / "scripts" / "make_gallery.py")
    module = sys.modules.setdefault("make_gallery", importlib.util.module_from_spec(spec))
    if not hasattr(module, "render"):
        spec.loader.exec_module(module)
    return module


def gallery_spoilers(widget_entries, gallery) -> list[str]:
    """What the gallery's on-screen text of each widget (card title and line, section intro)
    gives away: its own quiz's right answer, or a card line that states instead of asks.

    ``widget_entries`` are :class:`rope_core.widgets.registry.Widget` entries, ``gallery`` the
    ``make_gallery`` module (its ``complete`` and ``lesson`` give the text the page shows)."""
    found = []
    for widget in widget_entries:
        card = gallery.complete(widget.card, widget.cls)
        line = gallery.lesson(card)
        shown = " ".join((card.title, line, card.intro)).lower()
        source = (ROOT / "rope_core" / "widgets" / widget.js).read_text(encoding="utf-8")
        found += [f"{widget.name}: its quiz answer {answer!r} is on the gallery"
                  for answer in quiz_answers(source) if answer.lower() in shown]
        if not line.rstrip().endswith("?"):
            found.append(f"{widget.name}: the card line states instead of asking: {line!r}")
    return found


def test_the_gallery_asks_each_widgets_question_without_answering_it():
    pytest.importorskip("anywidget")
    from rope_core.widgets.registry import WIDGETS

    gallery = _gallery_module()
    assert not gallery_spoilers(WIDGETS, gallery), "\n".join(gallery_spoilers(WIDGETS, gallery))


def test_a_gallery_card_that_answers_is_found():
    pytest.importorskip("anywidget")
    from dataclasses import replace

    from rope_core.widgets.registry import entry

    gallery = _gallery_module()
    relative = entry("RelativeInvariance")
    answered = replace(relative, card=replace(relative.card, lesson="Shift both: it will stay."))
    found = gallery_spoilers([answered], gallery)
    assert any("'it will stay'" in what for what in found) and any("states instead" in what for what in found)


@pytest.mark.book
def test_the_built_gallery_shows_no_quiz_answer(built_book):
    from bs4 import BeautifulSoup

    answers = [answer for path in WIDGET_SOURCES for answer in quiz_answers(path.read_text(encoding="utf-8"))]
    soup = BeautifulSoup((built_book / "book" / "gallery.html").read_text(encoding="utf-8"), "html.parser")
    article = soup.find("article") or soup
    shown = " ".join(element.get_text(" ") for element in article.find_all(["p", "li", "h1", "h2", "h3"])
                     if not measure_pages.is_hidden(element)).lower()
    shown += " " + _shown(soup.find_all("div", class_="cell")).lower()
    assert len(shown) > 2000
    assert not [answer for answer in answers if answer.lower() in shown]
