"""The gallery's card pictures (rope_core.plots.thumbnails): drawn for the card, legible at the
size the card shows them, one for every card, each with alt text that says what it draws."""

import importlib.util
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("anywidget")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from rope_core import plots, widgets  # noqa: E402
from rope_core.plots import thumbnails  # noqa: E402
from rope_core.widgets.registry import WIDGETS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("make_gallery", ROOT / "scripts" / "make_gallery.py")
make_gallery = sys.modules.setdefault("make_gallery", importlib.util.module_from_spec(_spec))
if not hasattr(make_gallery, "render"):
    _spec.loader.exec_module(make_gallery)

# The smallest line a reader can follow at the shown size: 2 CSS px. A point is dpi / 72 drawn
# pixels; the page stores the 408 px drawing with a 0.1 inch margin (435 px) and a card shows it
# at least 200 px wide (the built-page test below holds it to that): 0.46 of its pixels.
THINNEST_SHOWN_PX = 2.0
SMALLEST_SCALE = 200 / 435


def draw_thumbnails():
    """``{widget name: figure}``: every card's picture, drawn as the gallery page draws it."""
    drawn = {}
    scope = {"plots": plots, "plt": plt, "np": np, "widgets": widgets, "thumbnails": thumbnails,
             "glue": lambda name, fig, display=False: drawn.setdefault(name, fig)}
    exec(make_gallery.THUMBNAIL_CODE, scope)
    for widget in WIDGETS:
        setup, _, call = widget.card.thumbnail.rpartition("\n")
        exec(setup, scope)
        # Keep the figure open: the gallery's helper closes it after gluing.
        scope["plt"] = type("NoClose", (), {"close": staticmethod(lambda fig: None)})
        scope["thumbnail"](widget.name, eval(f"lambda ax: {call}", scope))
        scope["plt"] = plt
    return drawn


@pytest.fixture(scope="module")
def drawn():
    figures = draw_thumbnails()
    yield figures
    for figure in figures.values():
        plt.close(figure)


def test_every_card_has_a_picture_drawn_by_the_thumbnails_module():
    text = make_gallery.render()
    for widget in WIDGETS:
        assert widget.card.thumbnail.startswith("thumbnails."), (widget.name, "draw it for the card")
        assert f"{{glue:figure}} gallery-thumb-{widget.kebab}\n:alt: {widget.card.thumb_alt}\n" in text, widget.name


def test_every_picture_is_the_card_size_and_has_no_text(drawn):
    assert set(drawn) == {widget.name for widget in WIDGETS}
    for name, figure in drawn.items():
        figure.canvas.draw()
        width, height = figure.get_size_inches() * figure.dpi
        assert (round(width), round(height)) == (408, 272), name
        shown = [text.get_text() for text in figure.findobj(Text) if text.get_visible() and text.get_text().strip()]
        assert shown == [], (name, shown)  # no text to be too small at any shown size


def test_every_line_is_thick_enough_at_the_shown_size(drawn):
    for name, figure in drawn.items():
        figure.canvas.draw()
        for line in figure.findobj(Line2D):
            if not line.get_visible() or len(line.get_xdata()) < 2 or line.get_linestyle() in ("None", ""):
                continue
            shown_px = line.get_linewidth() * figure.dpi / 72 * SMALLEST_SCALE
            assert shown_px >= THINNEST_SHOWN_PX, (name, line.get_label(), round(shown_px, 2))


def test_every_picture_has_marks_in_it(drawn):
    # A blank picture would pass the text and line checks: each draws marks or an image.
    for name, figure in drawn.items():
        ax = figure.axes[0]
        assert len(ax.patches) + len(ax.lines) + len(ax.images) + len(ax.collections) >= 1, name


def test_every_alt_text_describes_the_drawing_not_the_answer():
    for widget in WIDGETS:
        alt = widget.card.thumb_alt
        assert len(alt.split()) >= 10, (widget.name, alt)
        assert alt != widget.card.alt, widget.name  # not the print figure's description
        # It names what is drawn: an arrow, a hand, a dial, a grid or matrix of cells, bars, boxes.
        assert re.search(r"arrow|vector|hand|dial|clock|grid|matrix|bars?\b|boxes|line|band|slots?", alt), widget.name


@pytest.mark.parametrize(("function", "arguments", "argument"), [
    (thumbnails.candidate_thumbnail, {"candidate": "cubic"}, "candidate"),
    (thumbnails.context_thumbnail, {"factor": 3}, "factor"),
    (thumbnails.kv_cache_thumbnail, {"stage": 99}, "stage"),
    (thumbnails.kv_cache_thumbnail, {"stage": True}, "stage"),
    (thumbnails.trained_attention_thumbnail, {"attention": np.zeros(5)}, "attention"),
    (thumbnails.trained_attention_thumbnail, {"attention": np.zeros((4, 9)), "distances": 1}, "distances"),
])
def test_bad_arguments_are_refused_by_name(function, arguments, argument):
    with pytest.raises(ValueError, match=argument):
        function(**arguments)
    plt.close("all")


def test_a_picture_drawn_without_ax_makes_its_own_card_sized_figure():
    ax = thumbnails.rotation_thumbnail()
    assert tuple(ax.figure.get_size_inches()) == thumbnails.THUMBNAIL_INCHES
    assert ax.get_xticks().size == 0 and ax.get_yticks().size == 0
    plt.close(ax.figure)


@pytest.mark.book
def test_the_built_cards_show_their_pictures_at_a_legible_size(book_server, chromium):
    # Measured in the built page: each card's picture, its shown size at 1280 and 390 px, and
    # that its file holds at least as many pixels as it shows (sharp on a 1x screen).
    from _browser import open_gallery

    from rope_core.widgets import REGISTRY

    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        context, page, _ = open_gallery(chromium, book_server, viewport=viewport)
        try:
            cards = page.evaluate("""async () => Promise.all(
                [...document.querySelectorAll('.rope-gallery-card')].map(async card => {
                  const img = card.querySelector('img'); if (!img) return null;
                  img.loading = "eager";  // a lazy picture loads only when its card is reached
                  await img.decode();
                  const box = img.getBoundingClientRect();
                  return {alt: img.alt, width: box.width, height: box.height,
                          natural: [img.naturalWidth, img.naturalHeight]}; }))""")
        finally:
            context.close()
        assert len(cards) == len(REGISTRY) and all(cards), cards
        assert [card["alt"] for card in cards] == [widget.card.thumb_alt for widget in WIDGETS]
        assert len({tuple(card["natural"]) for card in cards}) == 1, "every picture is drawn the same size"
        for card in cards:
            natural_width, natural_height = card["natural"]
            # Shown at least 200 px wide (about half the drawn width: lines 3-4 px, as measured
            # by test_every_line_is_thick_enough_at_the_shown_size), undistorted and never enlarged.
            assert 200 <= card["width"] <= natural_width, (viewport, card)
            assert card["height"] == pytest.approx(card["width"] * natural_height / natural_width, abs=2), card
