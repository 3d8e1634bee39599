"""book/gallery.md is generated from rope_core.widgets.REGISTRY (scripts/make_gallery.py)."""

import importlib.util
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("anywidget")

from rope_core import widgets

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("make_gallery", ROOT / "scripts" / "make_gallery.py")
make_gallery = sys.modules["make_gallery"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_gallery)


def test_gallery_file_is_the_generated_one():
    # A registry (or gallery text) change without `python scripts/make_gallery.py` fails here.
    assert make_gallery.main(["--check"]) == 0, "run: python scripts/make_gallery.py"


def test_gallery_shows_every_registered_widget_once_in_book_order():
    text = (ROOT / "book" / "gallery.md").read_text()
    calls = re.findall(r"^widgets\.(\w+)\(\)$", text, flags=re.M)
    taught = make_gallery.taught_in(widgets.REGISTRY)
    assert sorted(calls) == sorted(cls.__name__ for cls in widgets.REGISTRY)
    places = [(taught[name].number, taught[name].offset) for name in calls if name in taught]
    assert places == sorted(places), "the gallery follows the chapters"
    headings = re.findall(r"^### (.+)$", text, flags=re.M)
    assert len(headings) == len(widgets.REGISTRY) == len(set(headings))


def test_every_widget_has_one_card_linking_to_the_section_that_teaches_it():
    text = (ROOT / "book" / "gallery.md").read_text()
    cards = re.findall(r"^:::\{grid-item-card\} ([^\n]+)\n(.*?)^:::$", text, flags=re.M | re.S)
    assert len(cards) == len(widgets.REGISTRY)
    taught = make_gallery.taught_in(widgets.REGISTRY)
    assert taught["RotationExplorer"].page == "02-rotations"
    for cls in widgets.REGISTRY:
        card = next(body for title, body in cards if f"#gallery-{make_gallery._kebab(cls.__name__)})" in body)
        if cls.__name__ in taught:
            where = taught[cls.__name__]
            assert f"[chapter {where.number}, " in card and f"]({where.target})" in card
            chapter = (ROOT / "book" / f"{where.page}.md").read_text()
            assert re.search(rf"^#{{2,3}} {re.escape(where.heading)}$", chapter, flags=re.M)


def test_print_twins_are_print_only_and_cells_show_no_construction_code():
    text = (ROOT / "book" / "gallery.md").read_text()
    figures = re.findall(r"^tags: \[(.*)\]\nmystnb:\n  figure:", text, flags=re.M)
    assert figures and all("print-only" in tags for tags in figures)


def test_a_heading_slug_is_mysts():
    assert make_gallery._slug("Shift both, the score stays") == "shift-both-the-score-stays"
    assert make_gallery._slug("The same argument in $d$ dimensions") == "the-same-argument-in--dimensions"


def test_a_new_widget_needs_only_its_class_and_a_registry_entry():
    class PhaseWheel(widgets.RotationExplorer):
        r"""Every pair's phase :math:`m\theta_i` on one wheel, see :func:`rope_core.rope_angles`.

        Parameters
        ----------
        dim : int
        """

    text = make_gallery.render((*widgets.REGISTRY, PhaseWheel))
    section = text.split("## Phase wheel\n\n", 1)[1]
    assert section.startswith(r"Every pair's phase {math}`m\theta_i` on one wheel, see `rope_core.rope_angles`.")
    assert "Parameters" not in section
    assert re.findall(r"^widgets\.(\w+)\(\)$", text, flags=re.M)[-1] == "PhaseWheel"  # not taught yet: last
    card = text.split(":::{grid-item-card} Phase wheel\n", 1)[1].split(":::", 1)[0]
    assert "Every pair's phase" in card and "taught in" not in card


def test_a_registry_out_of_book_order_is_refused():
    with pytest.raises(ValueError, match="book order"):
        make_gallery.render(widgets.REGISTRY[::-1])


def test_text_for_a_widget_that_is_not_registered_is_refused():
    texts = make_gallery.sections()
    last = max(i for i, cls in enumerate(widgets.REGISTRY) if cls.__name__ in texts)
    with pytest.raises(ValueError, match=widgets.REGISTRY[last].__name__):
        make_gallery.render(widgets.REGISTRY[:last], texts)


def test_the_score_quoted_in_the_alt_text_is_the_widgets():
    widget = widgets.RelativeInvariance()
    alt = make_gallery.sections()["RelativeInvariance"].alt
    quoted = float(re.search(r"score, (-?\d+\.\d+),", alt).group(1))
    shown = widget.state()["score"]  # the score the page reads out (rope_core.demos.rotation)
    assert quoted == pytest.approx(shown, abs=5e-5)


def test_every_card_comes_before_the_first_widget_grouped_by_its_question():
    # The page opens on its index: all cards, under the question their group answers; the
    # widgets follow in the same groups, each section with a way back to the cards.
    text = (ROOT / "book" / "gallery.md").read_text()
    first_widget = re.search(r"^widgets\.\w+\(\)$", text, flags=re.M).start()
    cards = [match.start() for match in re.finditer(r"^:::\{grid-item-card\}", text, flags=re.M)]
    assert len(cards) == len(widgets.REGISTRY) and max(cards) < first_widget
    questions = [question for question, _ in make_gallery.GROUPS]
    assert re.findall(r"^\*\*(.+)\*\*$", text[:first_widget], flags=re.M) == questions
    assert re.findall(r"^## (.+)$", text[first_widget:], flags=re.M) == questions[1:]
    assert re.findall(r"^## (.+)$", text, flags=re.M)[1:] == questions  # after "The widgets by question"
    groups = make_gallery.grouped(widgets.REGISTRY)
    assert [cls for _, members in groups for cls in members] == list(widgets.REGISTRY)
    assert all(question.endswith("?") for question, _ in groups)
    assert text.count("[↑ Back to the cards](#gallery-cards)") == len(widgets.REGISTRY)


def test_every_group_starts_at_a_registered_widget():
    names = {cls.__name__ for cls in widgets.REGISTRY}
    assert all(first in names for _, first in make_gallery.GROUPS), "a group starts at a widget that is gone"
