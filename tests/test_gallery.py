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


def test_gallery_shows_every_registered_widget_once_in_order():
    text = (ROOT / "book" / "gallery.md").read_text()
    calls = re.findall(r"^widgets\.(\w+)\(\)$", text, flags=re.M)
    assert calls == [cls.__name__ for cls in widgets.REGISTRY]
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert len(headings) == len(widgets.REGISTRY) == len(set(headings))


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
    assert re.findall(r"^widgets\.(\w+)\(\)$", text, flags=re.M)[-1] == "PhaseWheel"


def test_text_for_a_widget_that_is_not_registered_is_refused():
    texts = make_gallery.sections()
    with pytest.raises(ValueError, match="LayoutExplorer"):
        make_gallery.render(widgets.REGISTRY[:-1], texts)


def test_the_score_quoted_in_the_alt_text_is_the_widgets():
    widget = widgets.RelativeInvariance()
    alt = make_gallery.sections()["RelativeInvariance"].alt
    quoted = float(re.search(r"score, (-?\d+\.\d+),", alt).group(1))
    shown = widget.state()["score"]  # the score the page reads out (rope_core.demos.rotation)
    assert quoted == pytest.approx(shown, abs=5e-5)
