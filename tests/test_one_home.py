"""One home per idea: outside its home, an idea of Part I gets at most one sentence per
paragraph, and that paragraph links to the home.

CONTRIBUTING's table "Ideas and their homes" gives each idea its home (file and section) and
the signatures that recognise it in prose and formulas (key phrases, equation forms, widget
names), as regular expressions. This module reads the way in and Part I as a reader sees them
(prose, formulas, admonitions, exercises; not code cells) and, for each paragraph outside an
idea's home file, counts the sentences that match one of the idea's signatures:

- more than one such sentence: the idea is developed outside its home;
- one or more, and no link to the home in the paragraph: a mention the reader cannot follow.

A link to the home is ``{doc}`` or ``{ref}`` naming the home's file, a ``{numref}`` to the
label above the home's title (``chapter-d-dimensions``), an ``{eq}`` or ``{numref}`` label of
the home's chapter (``eq-ch05-…``, ``fig-ch05-…``), or a Markdown link to the file.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages  # noqa: E402  (Part I's chapters, in the toc's order)

SCANNED = ["index", "rope-in-15-minutes", *(path.stem for path in book_pages.chapters(ROOT)[:6]),
           "notation", "appendix-glossary"]


@dataclass(frozen=True)
class Idea:
    """One row of the table: what the idea is, where it lives, how it is recognised."""

    idea: str
    home: str  # file stem, e.g. "02-rotations"
    section: str
    signatures: tuple[re.Pattern, ...]

    @property
    def title_label(self) -> str:
        """The label above the home's title, as ``{numref}`` names it (``chapter-rotations``)."""
        return "chapter-" + self.home.split("-", 1)[1]

    @property
    def chapter(self) -> str:
        """The home's chapter number as its labels write it ("05" in ``eq-ch05-theta``)."""
        return self.home.split("-", 1)[0]


def ideas(contributing: str | None = None) -> list[Idea]:
    """The rows of CONTRIBUTING's "Ideas and their homes" table."""
    text = contributing if contributing is not None else (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Ideas and their homes", 1)[1].split("\n## ", 1)[0]
    found = []
    for idea, home, heading, signatures in re.findall(
            r"^\| (.+?) \| `([\w-]+)` § (.+?) \| (.+?) \|$", section, flags=re.M):
        # A table cell writes the pipe of a regular expression as "\\|".
        patterns = tuple(re.compile(s.replace("\\|", "|"), flags=re.I) for s in re.findall(r"`([^`]+)`", signatures))
        found.append(Idea(idea, home, heading, patterns))
    return found


def paragraphs(markdown: str) -> list[tuple[int, str]]:
    """``[(line number, text)]`` of the prose a reader reads: blank-line-separated blocks, with a
    display formula joined to the text around it, one block per table row; front matter, code
    cells, directive options, headings and MyST comments left out."""
    text = re.sub(r"\A---\n.*?\n---\n", lambda m: "\n" * m.group(0).count("\n"), markdown, flags=re.S)
    lines = text.split("\n")
    kept: list[str] = []
    in_code = False
    for line in lines:
        fence = re.match(r"^(`{3,}|~{3,})\s*(\{([\w-]+)\})?", line)
        if in_code:
            kept.append("")
            if fence and not fence.group(2) and line.strip() == in_code:
                in_code = False
            continue
        if fence and fence.group(3) in {"code-cell", "code-block", "code"}:
            in_code = fence.group(1)
            kept.append("")
        elif fence or re.match(r"^(:[\w-]+:|#|%|\(\S+\)=$|\|[-| :]+\|$)", line):
            kept.append("")  # a directive's fences and options, a heading, a comment, a label
        elif line.startswith("    ") and not kept[-1].strip() if kept else False:
            kept.append("")  # an indented code block after a blank line
        else:
            kept.append(line)
    blocks: list[tuple[int, str]] = []
    start, current, in_display = 0, [], False

    def flush():
        if not current:
            return
        if len(current) > 1 and DEFINITION.match(current[1]) and not re.match(r"[-*|]|\$\$", current[0]):
            # a definition list's term (glossary, notation page) is a name, not a sentence on it
            del current[0]
            current[0] = re.sub(r"^:\s*", "", current[0])
        blocks.append((start, " ".join(line.strip() for line in current)))
    for number, line in enumerate(kept, start=1):
        if line.strip().startswith("$$"):
            in_display = not in_display if line.strip() == "$$" or line.strip().count("$$") == 1 else in_display
        blank = not line.strip()
        row = line.lstrip().startswith("|")
        if (blank and not in_display) or row:
            flush()
            current = []
            if row:
                blocks.append((number, line))
            continue
        if not current:
            start = number
        current.append(line)
    flush()
    # A display formula continues the sentence around it: join it to its neighbours.
    joined: list[tuple[int, str]] = []
    for number, block in blocks:
        starts_display = block.startswith("$$")
        continues = joined and (starts_display or joined[-1][1].rstrip().endswith("$$") and block[:1].islower())
        if continues and not block.startswith("|") and not joined[-1][1].startswith("|"):
            joined[-1] = (joined[-1][0], joined[-1][1] + " " + block)
        else:
            joined.append((number, block))
    return joined


DEFINITION = re.compile(r"^(: |  \S)")


MASK = str.maketrans(".:-", "\x00\x01\x02")
UNMASK = str.maketrans("\x00\x01\x02", ".:-")


def sentences(paragraph: str) -> list[str]:
    """The sentences of a paragraph; a formula's inner dots do not end one, a list item does."""
    masked = re.sub(r"\$[^$]*\$", lambda m: m.group(0).translate(MASK), paragraph)
    masked = re.sub(r"\b(e\.g|i\.e|et al|cf|ch|eq|fig|ex|vs)\.", lambda m: m.group(0).translate(MASK), masked)
    masked = re.sub(r"\s[-*] ", "\n- ", masked)
    parts = [p for p in re.split(r"(?<=[.!?])\s+(?=[A-Z*\"“({$\[`])|\n- ", masked) if p.strip()]
    return [p.translate(UNMASK) for p in parts]


def links_to(idea: Idea, paragraph: str) -> bool:
    """Whether the paragraph links to the idea's home file."""
    home = re.escape(idea.home)
    chapter = re.escape(idea.chapter)
    return bool(
        re.search(rf"\{{(?:doc|ref)\}}`(?:[^`<]*<)?{home}\b", paragraph)
        or re.search(rf"\{{numref\}}`[^`<]*<{re.escape(idea.title_label)}>`", paragraph)
        or re.search(rf"\{{(?:eq|numref)\}}`(?:[^`<]*<)?(?:eq|fig)-(?:ch)?{chapter}-", paragraph)
        or re.search(rf"\]\({home}(?:\.md)?(?:#[^)]*)?\)", paragraph))


LINK_ROLE = re.compile(r"\{(?:doc|ref|eq|numref)\}`[^`]*`")


def mentions(idea: Idea, sentence: str) -> bool:
    """Whether the sentence speaks of the idea (a link's own text is a pointer, not a mention)."""
    prose = LINK_ROLE.sub("", sentence)
    return any(pattern.search(prose) for pattern in idea.signatures)


@dataclass(frozen=True)
class Finding:
    page: str
    line: int
    idea: str
    home: str
    problem: str
    text: str

    def __str__(self):
        return f"{self.page}.md:{self.line}: {self.problem} '{self.idea}' (home {self.home}): {self.text[:160]}"


def findings(page: str, markdown: str, table: list[Idea]) -> list[Finding]:
    """Where the page develops an idea of another page, or mentions it without a link."""
    found = []
    for line, paragraph in paragraphs(markdown):
        said = sentences(paragraph)
        for idea in table:
            if idea.home == page:
                continue
            hits = [s for s in said if mentions(idea, s)]
            if len(hits) > 1:
                found.append(Finding(page, line, idea.idea, idea.home,
                                     f"{len(hits)} sentences develop", " | ".join(hits)))
            elif hits and not links_to(idea, paragraph):
                found.append(Finding(page, line, idea.idea, idea.home, "no link to the home of", hits[0]))
    return found


# ---- the scanner itself ----------------------------------------------------------------------

def test_every_idea_has_signatures_that_compile_and_find_their_home():
    """Each idea is recognised by at least one signature, and its home section is where the
    signatures find it (else they recognise nothing)."""
    table = ideas()
    assert len(table) >= 22
    unrecognised = []
    for idea in table:
        assert idea.signatures, idea.idea
        page = (BOOK / f"{idea.home}.md").read_text(encoding="utf-8")
        home = page.split(f"\n## {idea.section}\n", 1)[1].split("\n## ", 1)[0]
        if not any(mentions(idea, s) for _, p in paragraphs(home) for s in sentences(p)):
            unrecognised.append(idea.idea)
    assert not unrecognised, unrecognised


def test_paragraphs_skip_code_and_join_display_formulas():
    page = ("---\nkernelspec: {}\n---\n# Title\n\nOne sentence. Two\nsentences.\n\n"
            "```{code-cell} ipython3\nshift both = 1\n```\n\nwhere\n\n$$\na = b.\n$$\n\nso it holds.\n\n"
            "| a | b |\n|---|---|\n| c | d |\n")
    blocks = [text for _, text in paragraphs(page)]
    assert blocks == ["One sentence. Two sentences.", "where $$ a = b. $$ so it holds.", "| a | b |", "| c | d |"]
    assert sentences("One $x. y$ here. Two, e.g. this. - item one - item two") == [
        "One $x. y$ here.", "Two, e.g. this.", "item one", "item two"]


SHIFT_BOTH = ("Move the query and the key along by the same number of places and the score stays. "
              "Shift both positions and the score stays, because $R(\\alpha)^\\top R(\\alpha') = R(\\alpha' - \\alpha)$.")


def test_a_planted_repeat_fails():
    """The check can fail: two sentences on shift-both in chapter 1, or one without a link."""
    table = ideas()
    clean = (BOOK / "01-why-positions.md").read_text(encoding="utf-8")
    assert not findings("01-why-positions", clean, table)
    planted = clean.replace("## The wish\n", "## The wish\n\n" + SHIFT_BOTH + "\n", 1)
    found = findings("01-why-positions", planted, table)
    assert [f.problem for f in found] == ["2 sentences develop"], found
    assert found[0].home == "02-rotations"
    unlinked = clean.replace("## The wish\n", "## The wish\n\n" + SHIFT_BOTH.split(". ")[0] + ".\n", 1)
    assert [f.problem for f in findings("01-why-positions", unlinked, table)] == ["no link to the home of"]
    linked = unlinked.replace("the score stays.", "the score stays ({doc}`02-rotations`).", 1)
    assert not findings("01-why-positions", linked, table)
    numbered = unlinked.replace("the score stays.", "the score stays ({numref}`chapter %s <chapter-rotations>`).", 1)
    assert not findings("01-why-positions", numbered, table)


# ---- the rule, on every page of the way in and Part I -----------------------------------------

@pytest.mark.parametrize("page", SCANNED)
def test_each_idea_is_taught_in_its_home_only(page):
    """Outside its home an idea gets one sentence per paragraph, with a link to the home."""
    found = findings(page, (BOOK / f"{page}.md").read_text(encoding="utf-8"), ideas())
    assert not found, "\n".join(map(str, found))
