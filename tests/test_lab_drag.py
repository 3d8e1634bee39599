"""Dragging q in JupyterLab reaches Python: the trait changes by the angle dragged.

Starts JupyterLab exactly as ``make lab`` does (the ``lab_server`` fixture of
``test_lab.py``: autosave on, public ``window.jupyterapp`` hooks), opens the gallery, runs it,
then drags q on the rotation explorer by 47° and k on the relative-position widget by 47° with
the mouse. The kernel is asked for the traits (a cell executed beside the notebook) until they
change: each must have turned by 47° ± 3° and equal, to 1e-9, the angle the page shows; then
each is dragged 0.2 away from the centre and the kernel's length must follow the page's. Handles
are found by their ARIA role and name (``slider`` "direction of q"), not by JupyterLab's private classes.
"""

from __future__ import annotations

import re
import time

import pytest
import test_lab
from test_lab import (
    KERNEL_PROBE_JS,
    NOTEBOOK_JSON_JS,
    OPEN_DEFAULT_JS,
    RUN_ALL_JS,
    _errors_and_stderr,
    widget_chapter,
)
from test_widgets_drag_browser import DRAG_DEG, drag, turned

from conftest import _open_page

pytestmark = [pytest.mark.lab, pytest.mark.browser]
# The fixtures of test_lab.py: the same `make lab` server (one per module) and file guard.
lab_server = test_lab.lab_server
chapters_restored = test_lab.chapters_restored

PROBE = (
    "import rope_core.widgets as _W; "
    "_ws = [v for _, v in sorted(Out.items()) if isinstance(v, (_W.RotationExplorer, _W.RelativeInvariance))]; "
    "print([(type(v).__name__, k, repr(getattr(v, k))) for v in _ws"
    " for k in ('q_angle', 'k_angle', 'q_length', 'k_length') if v.has_trait(k)])"
)


def kernel_angles(page, path):
    """``{(widget class, trait): degrees}`` as the kernel holds them."""
    text = page.evaluate(KERNEL_PROBE_JS, [path, PROBE])
    return {(cls, trait): float(value) for cls, trait, value in re.findall(r"\('(\w+)', '(\w+)', '([-\d.e+]+)'\)", text)}


def wait_for_kernel(page, path, key, expected, timeout=60):
    """Poll the kernel until its trait equals the page's final angle (the drag sends every
    move, so earlier values arrive first), or the time is up; returns the last value."""
    deadline = time.monotonic() + timeout
    while True:
        now = kernel_angles(page, path)[key]
        if abs(now - expected) < 1e-6 or time.monotonic() > deadline:
            return now


def test_dragging_q_and_k_in_jupyterlab_turns_the_python_traits_by_47_degrees(
    lab_server, chromium, screenshot_dir, chapters_restored
):
    chapter = widget_chapter()
    if chapter.name != "gallery.md":
        pytest.fail(f"expected the gallery to be the widget page, got {chapter.name}")
    path = f"book/{chapter.name}"
    context, page, log = _open_page(chromium)
    try:
        page.set_default_timeout(180_000)   # bounds only: a run-all under load can take minutes
        page.goto(f"{lab_server.base_url}/lab?token={lab_server.token}")
        page.wait_for_function("() => window.jupyterapp !== undefined")
        assert page.evaluate(OPEN_DEFAULT_JS, path)["isNotebook"]
        assert page.evaluate(RUN_ALL_JS, path) is True
        errors, stray = _errors_and_stderr(page.evaluate(NOTEBOOK_JSON_JS, path))
        assert errors == [] and stray == [], (errors, stray)
        panel_id = page.evaluate("(p) => window.ropePanels[p].id", path)
        panel = page.locator(f"[id='{panel_id}']")

        # The page's length of the dragged vector: a read-out's data attribute.
        # the widgets' places on the page: the gallery's order (book order)
        order = re.findall(r"^widgets\.(\w+)\(\)$", chapter.read_text(encoding="utf-8"), flags=re.M)
        for cls, handle, trait, (length_of, key) in (
                ("RotationExplorer", "q", "q_angle", ('[data-readout="q"]', "length")),
                ("RelativeInvariance", "k", "k_angle", ('[data-readout="lengths"]', "k"))):
            index = order.index(cls)
            before = kernel_angles(page, path)[(cls, trait)]
            root = panel.locator(".rope-w").nth(index)   # our widget's own class, in gallery order
            knob = root.get_by_role("slider", name=f"direction of {handle}")
            knob.scroll_into_view_if_needed()
            drag(page, root, handle, DRAG_DEG)
            shown = float(knob.get_attribute("aria-valuenow"))   # the page's angle after the drag
            after = wait_for_kernel(page, path, (cls, trait), shown)
            assert abs(after - shown) < 1e-6, (after, shown)   # aria-valuenow has 6 decimals
            assert abs(turned(before, after) - DRAG_DEG) <= 3.0, (cls, before, after)
            # Out from the centre by 0.2: the kernel's length follows the page's.
            length_before = kernel_angles(page, path)[(cls, f"{handle}_length")]
            drag(page, root, handle, 0.0, stretch=0.2)
            shown = float(root.locator(length_of).get_attribute(f"data-{key}"))
            after = wait_for_kernel(page, path, (cls, f"{handle}_length"), shown)
            assert abs(after - shown) < 1e-6 and abs(after - length_before - 0.2) <= 0.02, (cls, length_before, after, shown)
        page.screenshot(path=str(screenshot_dir / "lab-drag.png"))
        assert log.page_errors == [], log.page_errors
    except Exception:
        page.screenshot(path=str(screenshot_dir / "lab-drag-failure.png"))
        raise
    finally:
        context.close()
    assert chapter.read_bytes() == chapters_restored[chapter], "dragging rewrote the chapter"
