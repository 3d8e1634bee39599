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
