"""Dragging q (and k) on the static page, with the mouse, with touch and with the keyboard.

Opens the built book's gallery in Debian's chromium (no kernel) and checks that
dragging q on the rotation explorer's drawing by 47° turns q by 47° ± 3° as read from its
read-out, at 1280 px with the mouse and at 390 px with touch; the arrow keys turn it by 1° and
10°. Then it drives each of the two widgets to many random states (drags, keys and sliders) and
checks every number shown — the read-out text (3 significant digits) and its data attributes
(the page's own float64 numbers) — against rope_core: to 1e-9 where the page computes the
rotation itself, 1e-6 where it shows Python's rounded table. At each state it also reads where
every arrow, handle, trail dot and the arc are drawn (the SVG's own coordinates, mapped back to
data units through the drawn unit circle) and compares them with rope_core to 1e-6.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from _browser import (
    PHONE,
    drag_along,
    gallery_widget,
    goto,
    open_gallery,
    readout_number,
    readout_numbers,
    set_slider,
)

import rope_core as rc
from rope_core import widgets as W
from rope_core.demos.rotation import (
    relative_state,
    relative_strips,
    rotation_state,
    rotation_table,
    unit_vector,
)

pytestmark = [pytest.mark.book, pytest.mark.browser]
DRAG_DEG = 47.0


def data_float(locator, key):
    return float(locator.get_attribute(f"data-{key}"))


# Everything a widget writes for its reader, read in one call: each read-out's data attributes
# and text, each slider's value, each drag handle's aria-valuenow.
WIDGET_STATE = """(root) => ({
  readouts: Object.fromEntries([...root.querySelectorAll('[data-readout]')].map(
    (e) => [e.dataset.readout, {data: {...e.dataset}, text: e.innerText}])),
  inputs: Object.fromEntries([...root.querySelectorAll('input[data-name]')].map((e) => [e.dataset.name, e.value])),
  handles: Object.fromEntries([...root.querySelectorAll('[data-handle]')].map(
    (e) => [e.dataset.handle, e.getAttribute('aria-valuenow')])),
})"""


def widget_state(root):
    """``(readouts, inputs, handles)`` of WIDGET_STATE; a read-out is ``{"data": {...}, "text": str}``."""
    state = root.evaluate(WIDGET_STATE)
    return state["readouts"], state["inputs"], state["handles"]


def number(readout, key):
    """A read-out's ``data-<key>`` as a float."""
    return float(readout["data"][key])


def turned(before, after):
    """Signed turn from ``before`` to ``after`` in degrees, in (-180, 180]."""
    delta = (after - before) % 360.0
    return delta - 360.0 if delta > 180 else delta


UNIT_PX = """(root) => { const svg = root.querySelector("svg.rope-w-svg");
  return Number(svg.querySelector("circle.rope-w-axis").getAttribute("r")) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; }"""


def drag(page, root, handle_name, degrees, *, stretch=0.0, touch=False, steps=12):
    """Drag a handle about the drawing's centre by ``degrees`` (counter-clockwise) while moving it
    ``stretch`` data units away from the centre (0: along its circle)."""
    svg = root.locator("svg").first.bounding_box()
    centre = (svg["x"] + svg["width"] / 2, svg["y"] + svg["height"] / 2)
    box = root.locator(f'[data-handle="{handle_name}"]').bounding_box()
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    radius = math.hypot(start[0] - centre[0], start[1] - centre[1])
    angle0 = math.atan2(-(start[1] - centre[1]), start[0] - centre[0])
    unit = root.evaluate(UNIT_PX)          # screen pixels per unit of length
    path = [(centre[0] + (radius + stretch * unit * t) * math.cos(angle0 + math.radians(degrees) * t),
             centre[1] - (radius + stretch * unit * t) * math.sin(angle0 + math.radians(degrees) * t))
            for t in np.linspace(0, 1, steps + 1)]
    drag_along(page, path, touch=touch)


def q_angle(root):
    return data_float(root.locator('[data-readout="q"]'), "angle")


def q_length(root):
    return data_float(root.locator('[data-readout="q"]'), "length")


# Where the marks are drawn, read back from the SVG's own attributes and mapped to data units
# through the drawn unit circle (its centre and radius are the axis mapping): each arrow's line
# end and arrowhead tip, each drag handle's position, the trail's dots and the arc's path.
DRAWN = r"""(root) => {
  const svg = root.querySelector("svg.rope-w-svg");
  const axis = svg.querySelector("circle.rope-w-axis");
  const cx = Number(axis.getAttribute("cx")), cy = Number(axis.getAttribute("cy")), unit = Number(axis.getAttribute("r"));
  const data = (x, y) => [(Number(x) - cx) / unit, (cy - Number(y)) / unit];
  const arrows = {};
  const shown = (node) => !node.closest('[style*="display: none"]');   // a hidden layer draws nothing
  for (const g of [...svg.querySelectorAll("g[data-vector]")].filter(shown)) {
    const line = g.querySelector("line");
    const head = g.querySelector("polygon").getAttribute("points").trim().split(/\s+/)[0].split(",");
    arrows[g.dataset.vector] = {
      start: data(line.getAttribute("x1"), line.getAttribute("y1")),
      end: data(line.getAttribute("x2"), line.getAttribute("y2")),
      head: data(head[0], head[1]),
    };
  }
  const handles = {};
  for (const h of svg.querySelectorAll("[data-handle]")) {
    const [, x, y] = h.getAttribute("transform").match(/translate\(\s*([^\s,]+)[\s,]+([^\s,)]+)\s*\)/);
    handles[h.dataset.handle] = data(x, y);
  }
  // Labels stay in drawing units: labelAt clamps them inside the drawing, in those units.
  const labels = {};
  for (const t of [...svg.querySelectorAll("text[data-vector]")].filter(shown)) {
    const box = t.getBBox();
    labels[t.dataset.vector] = { at: [Number(t.getAttribute("x")), Number(t.getAttribute("y"))], characters: t.textContent.length,
                                 box: [box.x, box.y, box.width, box.height] };
  }
  const trail = [...svg.querySelectorAll("[data-mark=trail] circle.rope-w-muted-text")].filter((c) => c.style.display !== "none").map((c) => data(c.getAttribute("cx"), c.getAttribute("cy")));
  const path = svg.querySelector("path.rope-w-arc");
  let arc = null;
  if (path && path.getAttribute("d")) {
    const n = path.getAttribute("d").replace(/[MA]/g, " ").trim().split(/[\s,]+/).map(Number);
    arc = { start: data(n[0], n[1]), radii: [n[2] / unit, n[3] / unit], large: n[5], sweep: n[6], end: data(n[7], n[8]) };
  }
  return { arrows, handles, trail, arc, labels, frame: [cx, cy, unit], size: svg.viewBox.baseVal.width };
}"""


def predicted_widget(page, name):
    """The gallery's widget ``name`` after the reader's prediction: these tests read every number
    it shows, and the ones that answer its question are hidden until a prediction
    (test_widgets_questions_browser.py checks that part)."""
    root = gallery_widget(page, name)
    choice = root.locator('.rope-w-question button[data-answer="0"]')
    if root.locator('.rope-w-question button[aria-pressed="true"]').count() == 0:
        choice.click()
    # RotationExplorer folds its secondary numbers: these tests read them, as a reader would after
    # opening the fold.
    if name == "RotationExplorer":
        root.locator('details[data-part="numbers"]').evaluate("(d) => { d.open = true; }")
    # The click scrolled to the question: the drawing back in the middle of the screen.
    root.locator("svg").first.evaluate("(svg) => svg.scrollIntoView({block: 'center', behavior: 'instant'})")
    return root


LABEL_CHAR_WIDTH = 8  # drag.js: drawing units a label's text is taken to need per character
HANDLE_RING = 12      # drag.js dragHandle: the radius of the ring drawn at a vector's tip


def clear_of_handles(spot, characters, handles, size):
    """drag.js clearOfHandles: ``spot`` if a label of ``characters`` there covers no handle,
    else the first clear spot on rings of 8, 16, ... 120 units about it (16 directions each)."""
    half_width, half_height = LABEL_CHAR_WIDTH * characters / 2 + 3, 11

    def covers(x, y):
        return any(math.hypot(max(abs(hx - x) - half_width, 0), max(abs(hy - y) - half_height, 0)) < 15 for hx, hy in handles)

    x, y = spot
    if not covers(x, y):
        return [x, y]
    for radius in range(8, 121, 8):
        for k in range(16):
            cx, cy = x + radius * math.cos(k * math.pi / 8), y + radius * math.sin(k * math.pi / 8)
            inside = cx - half_width >= 0 and cx + half_width <= size and cy - half_height >= 0 and cy + half_height <= size
            if inside and not covers(cx, cy):
                return [cx, cy]
    return [x, y]


def handles_in_units(drawn):
    cx, cy, unit = drawn["frame"]
    return [(cx + unit * x, cy - unit * y) for x, y in drawn["handles"].values()]


def assert_labelled(drawn, name, tip, pad, exact=True):
    """The vector's label sits ``pad`` beyond its tip along it, plus half its estimated width
    (drag.js labelAt) along it, or, where that is closer than 30 (x) or 10 (y) drawing units
    to the drawing's edges, ``pad`` beside the tip a quarter turn on, kept that far inside; to
    1e-6 drawing units. Where that spot would put it under a drag handle it moves to the
    nearest clear spot (clear_of_handles). Either way the text stays clear of the handle's ring."""
    cx, cy, unit = drawn["frame"]
    label = drawn["labels"][name]
    tip = np.asarray(tip, dtype=float)
    u = tip / (np.hypot(*tip) or 1.0)
    size = drawn["size"]

    def inside(point):
        return [min(size - 30, max(30, cx + unit * point[0])), min(size - 10, max(10, cy - unit * point[1]))]

    beyond = tip + (pad + abs(u[0]) * LABEL_CHAR_WIDTH * label["characters"] / 2 / unit) * u
    expected = inside(beyond)
    if not np.allclose(expected, [cx + unit * beyond[0], cy - unit * beyond[1]], atol=1e-9):
        expected = inside(tip + pad * np.array([-u[1], u[0]]))
    # exact=False (RotationExplorer, whose placeApart keeps a label off the handles and off the
    # labels placed before it by its own search and box estimate): its real box is checked for
    # clearance of the handle below and, against the other labels, by test_widgets_K_browser.py.
    if exact:
        expected = clear_of_handles(expected, label["characters"], handles_in_units(drawn), size)
        np.testing.assert_allclose(label["at"], expected, atol=1e-6, err_msg=f"{name}'s label")
    x, y, width, height = label["box"]
    tip_x, tip_y = cx + unit * tip[0], cy - unit * tip[1]
    gap = np.hypot(max(x - tip_x, tip_x - (x + width), 0.0), max(y - tip_y, tip_y - (y + height), 0.0))
    assert gap >= HANDLE_RING, (name, tip, label, gap)


def assert_drawn_at(arrow, tip, name):
    """An arrow drawn from the origin to ``tip`` (data units): its line and its head, to 1e-6."""
    np.testing.assert_allclose(arrow["start"], [0.0, 0.0], atol=1e-6, err_msg=f"{name} starts off the origin")
    np.testing.assert_allclose(arrow["end"], tip, atol=1e-6, err_msg=f"{name}'s line ends off its tip")
    np.testing.assert_allclose(arrow["head"], tip, atol=1e-6, err_msg=f"{name}'s arrowhead is off its tip")


def check_rotation_explorer(root, data):
    """Every number the rotation explorer shows, against rope_core."""
    reads, inputs, handles = widget_state(root)
    t, m = int(inputs["theta"]), int(inputs["position"])
    theta = data["thetas"][t]
    shown_q = reads["q"]
    angle, length = number(shown_q, "angle"), number(shown_q, "length")
    low, high = data["length_range"]
    assert low <= length <= high, (length, data["length_range"])
    assert abs(float(handles["q"]) - angle) < 1e-6
    expected = rotation_state(length * unit_vector(angle), m, theta)    # rope_core's numbers
    # The page's own numbers (continuous q): 1e-9.
    np.testing.assert_allclose([number(shown_q, "x"), number(shown_q, "y")], expected["q"], atol=1e-9)
    shown_r = reads["rotated"]
    np.testing.assert_allclose([number(shown_r, "x"), number(shown_r, "y")], expected["rotated"], atol=1e-9)
    shown_c = reads["complex"]
    np.testing.assert_allclose([number(shown_c, "cos"), number(shown_c, "sin")],
                               [np.cos(m * theta), np.sin(m * theta)], atol=1e-9)
    # Python's table, rounded to 6 decimals: 1e-6.
    shown_a = reads["angle"]
    assert abs(number(shown_a, "value") - expected["angle"]) < 1e-6
    assert abs(number(shown_a, "deg") - expected["angle_deg"]) < 1e-6
    # The text: 3 significant digits of the same numbers.
    q_text = shown_q["text"]   # "(x, y) at a°"
    xy, at = q_text.split(" at ")
    assert_sig3([readout_number(v) for v in xy.strip("()").split(", ")], expected["q"])
    assert_sig3([readout_number(at.rstrip("°"))], [angle])
    assert_sig3([readout_number(v) for v in shown_r["text"].strip("()").split(", ")], expected["rotated"])
    rad, deg = shown_a["text"].split(" rad (")
    assert_sig3([readout_number(rad), readout_number(deg.split("°")[0])], [expected["angle"], expected["angle_deg"]])
    complex_text = shown_c["text"].replace(" − ", " -").replace(" + ", " ")
    parts = [readout_number(p.rstrip("i")) for p in complex_text.replace("(", " ").replace(")", " ").replace("=", " ").split()]
    assert_sig3(parts, [*expected["q"], np.cos(m * theta), np.sin(m * theta), *expected["rotated"]])
    # The rotation keeps the length: |q| = |R(mθ)q| = the length the page holds.
    shown_l = reads["lengths"]
    np.testing.assert_allclose([number(shown_l, "q"), number(shown_l, "rotated")], [length, length], atol=1e-9)
    q_text, r_text = shown_l["text"].split(", ")     # "|q| = a, |R(mθ) q| = b"
    assert_sig3([readout_number(q_text.split(" = ")[1]), readout_number(r_text.split(" = ")[1])], [length, length])
    # The drawing: q, R(mθ)q, the handle, the trail R(jθ)q (j < m) and the arc of mθ.
    drawn = root.evaluate(DRAWN)
    assert set(drawn["arrows"]) == {"q", "rotated", "e0", "e1"}, drawn["arrows"]
    # The rotated axis vectors are the columns of R(mθ), shown live beside the drawing.
    c, s = np.cos(m * theta), np.sin(m * theta)
    assert_drawn_at(drawn["arrows"]["e0"], [c, s], "R e0")
    assert_drawn_at(drawn["arrows"]["e1"], [-s, c], "R e1")
    cells = root.locator('[data-readout="matrix"] td').evaluate_all(
        "(tds) => tds.map((td) => [td.dataset.value, td.innerText, getComputedStyle(td).color])")
    assert len(cells) == 4, cells
    shown = np.array([float(value) for value, _, _ in cells]).reshape(2, 2)
    np.testing.assert_allclose(shown, rc.rotation_matrix(m * theta), atol=1e-6)
    assert_sig3([readout_number(text) for _, text, _ in cells], shown.ravel())
    colours = [colour for _, _, colour in cells]
    e0, e1 = root.evaluate("""(root) => ['e0', 'e1'].map(
        (v) => getComputedStyle(root.querySelector(`g[data-vector=${v}] polygon`)).fill)""")
    assert colours[0] == colours[2] == e0 and colours[1] == colours[3] == e1 and e0 != e1, (colours, e0, e1)
    # The closest return so far past half a turn (Python's table), ringed on the trail at R(jθ)q.
    closest = reads["closest"]
    best = int(closest["data"]["position"])
    table = rotation_table(data["thetas"], len(data["positions"]) - 1)
    assert best == table["closest"][t, m]
    ring = root.locator("[data-mark=closest]")
    if best < 0:
        assert ring.evaluate("(c) => c.style.display") == "none" and closest["text"] == "not past half a turn yet"
    else:
        assert abs(number(closest, "offset") - table["closest_offset"][t, m]) < 1e-6
        assert closest["text"].startswith(f"m = {best}, ")
        cx, cy, unit = drawn["frame"]
        at = rc.rotate_2d(expected["q"], best * theta)
        np.testing.assert_allclose([(float(ring.get_attribute("cx")) - cx) / unit, (cy - float(ring.get_attribute("cy"))) / unit], at, atol=1e-6)
    # The arc's label says mθ in place: halfway along the arc, at radius 0.55.
    label = root.locator("text[data-label=arc]")
    if m:
        cx, cy, unit = drawn["frame"]
        middle = rc.rotate_2d(0.55 * unit_vector(angle), np.radians(expected["angle_deg"]) / 2)
        spot = clear_of_handles([cx + unit * middle[0], cy - unit * middle[1]], 2, handles_in_units(drawn), drawn["size"])
        at = [float(label.get_attribute("x")), float(label.get_attribute("y"))]
        # Moved only off a handle, or off a label placed before it (placeApart; the labels'
        # overlap is test_widgets_K_browser.py's): in place whenever its own spot is free.
        if np.allclose(at, [cx + unit * middle[0], cy - unit * middle[1]], atol=1e-6):
            np.testing.assert_allclose(at, spot, atol=1e-6)
        assert label.text_content() == "mθ"
    assert_drawn_at(drawn["arrows"]["q"], expected["q"], "q")
    assert_drawn_at(drawn["arrows"]["rotated"], expected["rotated"], "R(mθ)q")
    np.testing.assert_allclose(drawn["handles"]["q"], expected["q"], atol=1e-6)
    assert_labelled(drawn, "q", expected["q"], 0.28, exact=False)
    assert_labelled(drawn, "rotated", expected["rotated"], 0.3, exact=False)
    trail = [rc.rotate_2d(expected["q"], j * theta) for j in range(m)]
    np.testing.assert_allclose(np.reshape(drawn["trail"], (-1, 2)), np.reshape(trail, (-1, 2)), atol=1e-6)
    if m == 0:
        assert drawn["arc"] is None
    else:
        start = 0.35 * unit_vector(angle)
        arc = drawn["arc"]
        np.testing.assert_allclose(arc["start"], start, atol=1e-6)
        np.testing.assert_allclose(arc["end"], rc.rotate_2d(start, m * theta), atol=1e-6)
        np.testing.assert_allclose(arc["radii"], [0.35, 0.35], atol=1e-6)
        assert (arc["large"], arc["sweep"]) == (int(expected["angle_deg"] > 180), 0), arc
    return angle


def assert_sig3(shown, expected):
    """``shown`` is ``expected`` written with 3 significant digits (half a unit of the last one)."""
    for got, want in zip(shown, expected, strict=True):
        if abs(want) < 5e-4:
            assert abs(got) < 5e-4, (shown, expected)
            continue
        unit = 10.0 ** (math.floor(math.log10(abs(want))) - 2) if abs(want) < 1000 else 1.0
        assert abs(got - want) <= 0.5 * unit * (1 + 1e-9) + 1e-12, (shown, list(expected))


def check_relative_invariance(root, python_widget):
    reads, inputs, handles = widget_state(root)
    m, n, s = (int(inputs[k]) for k in ("m", "n", "shift"))
    vectors = reads["vectors"]
    qa, ka = number(vectors, "q"), number(vectors, "k")
    for key, value in (("q", qa), ("k", ka)):
        assert abs(float(handles[key]) - value) < 1e-6
    shown_l = reads["lengths"]
    q_len, k_len = number(shown_l, "q"), number(shown_l, "k")
    low, high = python_widget.data["length_range"]
    assert low - 1e-12 <= min(q_len, k_len) and max(q_len, k_len) <= high + 1e-12, (q_len, k_len)
    q = q_len * unit_vector(qa)
    k = k_len * unit_vector(ka)
    expected = relative_state(q, k, m, n, s, python_widget._theta)
    np.testing.assert_allclose([number(vectors, "qx"), number(vectors, "qy")], expected["rotated_q"], atol=1e-9)
    np.testing.assert_allclose([number(vectors, "kx"), number(vectors, "ky")], expected["rotated_k"], atol=1e-9)
    score, reference = reads["score"], reads["reference"]
    assert abs(number(score, "value") - expected["score"]) < 1e-9
    assert abs(number(reference, "value") - expected["reference"]) < 1e-9
    # The claim the widget makes: the score depends on n - m only (q^T R_{n-m} k).
    assert abs(number(score, "value") - q @ rc.rotate_2d(k, (n - m) * python_widget._theta)) < 1e-9
    assert_sig3([readout_number(score["text"]), readout_number(reference["text"])], [expected["score"], expected["reference"]])
    assert reads["positions"]["text"] == \
        f"m + Δ = {m + s}, n + Δ = {n + s}, n − m = {n - m}".replace("= -", "= −")
    text = vectors["text"]   # "q at a°, k at b°, angle γ between them c°"
    q_text, k_text = text.split(", ")[:2]
    assert abs(number(vectors, "gamma") - np.degrees(expected["angle"])) < 1e-6
    assert_sig3([readout_number(q_text[5:-1]), readout_number(k_text[5:-1])], [qa, ka])
    between = (ka + (n + s) * np.degrees(python_widget._theta)) - (qa + (m + s) * np.degrees(python_widget._theta))
    assert_sig3([readout_number(text.rsplit(" ", 1)[1].rstrip("°"))], [between % 360.0])
    shown = [readout_number(part.split(" = ")[1]) for part in shown_l["text"].split(", ")]   # |q|, |k|, |q||k|
    assert_sig3(shown, [q_len, k_len, q_len * k_len])
    # The drawing: R_{m+Δ}q and R_{n+Δ}k, the ghosts before the shift (R_m q, R_n k; only when
    # Δ > 0), the handles on the rotated tips, the arc of γ, and the two strip charts.
    drawn = root.evaluate(DRAWN)
    names = {"rotated_q", "rotated_k"} | ({"ghost_q", "ghost_k"} if s else set())
    assert set(drawn["arrows"]) == names, drawn["arrows"]
    for name in names:
        assert_drawn_at(drawn["arrows"][name], expected[name], name)
    # A label whose own spot covers a label placed before it is moved clear (data-moved); the
    # others sit where assert_labelled says.
    moved = root.evaluate(GHOST_MOVED)
    for name in names:
        if moved.get(name):
            assert_clear_of_labels_and_handles(drawn, name, expected[name])
        else:
            assert_labelled(drawn, name, expected[name], 0.3)
    check_relative_marks(root, python_widget, expected, m, n, s)
    np.testing.assert_allclose(drawn["handles"]["q"], expected["rotated_q"], atol=1e-6)
    np.testing.assert_allclose(drawn["handles"]["k"], expected["rotated_k"], atol=1e-6)
    return qa, ka


GHOST_MOVED = r"""(root) => Object.fromEntries([...root.querySelector("svg.rope-w-svg").querySelectorAll("text[data-vector]")]
  .map((t) => [t.dataset.vector, t.dataset.moved === "1"]))"""


def assert_clear_of_labels_and_handles(drawn, name, tip):
    """A label moved off another: its text covers no other label and no handle's ring, inside
    the drawing, and still near its arrow's tip (within the 120-unit search plus its own spot)."""
    cx, cy, unit = drawn["frame"]
    x, y, width, height = drawn["labels"][name]["box"]
    for other, label in drawn["labels"].items():
        if other == name:
            continue
        ox, oy, ow, oh = label["box"]
        assert x + width <= ox + 1 or ox + ow <= x + 1 or y + height <= oy + 1 or oy + oh <= y + 1, (name, other, drawn["labels"])
    for hx, hy in handles_in_units(drawn):
        gap = np.hypot(max(x - hx, hx - (x + width), 0.0), max(y - hy, hy - (y + height), 0.0))
        assert gap >= HANDLE_RING, (name, gap)
    assert 0 <= x and x + width <= drawn["size"] and 0 <= y and y + height <= drawn["size"], (name, x, y)
    tip_x, tip_y = cx + unit * tip[0], cy - unit * tip[1]
    assert np.hypot(x + width / 2 - tip_x, y + height / 2 - tip_y) <= 200, (name, tip, drawn["labels"][name])


# The arcs of γ (drawing units → data units through the unit circle) and the strip charts' points.
RELATIVE_MARKS = r"""(root) => {
  const svg = root.querySelector("svg.rope-w-svg");
  const axis = svg.querySelector("circle.rope-w-axis");
  const cx = Number(axis.getAttribute("cx")), cy = Number(axis.getAttribute("cy")), unit = Number(axis.getAttribute("r"));
  const arcs = {};
  for (const path of [...svg.querySelectorAll("path[data-arc]")].filter((node) => !node.closest('[style*="display: none"]'))) {
    const n = path.getAttribute("d").replace(/[MA]/g, " ").trim().split(/[\s,]+/).map(Number);
    arcs[path.dataset.arc] = { start: [(n[0] - cx) / unit, (cy - n[1]) / unit], radius: n[2] / unit, large: n[5], sweep: n[6],
                               end: [(n[7] - cx) / unit, (cy - n[8]) / unit] };
  }
  const strips = root.querySelector("svg.rope-w-strips");
  const lines = {}, dots = {};
  for (const l of strips.querySelectorAll("polyline[data-strip]")) lines[l.dataset.strip] = l.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
  for (const d of strips.querySelectorAll("circle[data-strip-dot]")) dots[d.dataset.stripDot] = [Number(d.getAttribute("cx")), Number(d.getAttribute("cy")), getComputedStyle(d).visibility];
  return { arcs, lines, dots };
}"""


def check_relative_marks(root, python_widget, expected, m, n, s):
    """The one arc, of γ from R_{m+Δ}q to R_{n+Δ}k, and the strip
    charts: the score at every Δ (flat, the dot at Δ) and at every n − m (a cosine, the dot at n − m)."""
    marks = root.evaluate(RELATIVE_MARKS)
    gamma = expected["angle"]
    # One arc, γ between the arrows drawn now; the dashed pair's equal γ is not drawn again.
    assert set(marks["arcs"]) == {"gamma"}, marks["arcs"]
    for name, a, radius in (("gamma", expected["rotated_q"], 0.3),):
        arc = marks["arcs"][name]
        start = radius * np.asarray(a) / np.linalg.norm(a)
        np.testing.assert_allclose(arc["start"], start, atol=1e-6)
        np.testing.assert_allclose(arc["end"], rc.rotate_2d(start, gamma), atol=1e-6)
        assert abs(arc["radius"] - radius) < 1e-6 and (arc["large"], arc["sweep"]) == (int(gamma > np.pi), 0)
    strips = relative_strips(expected["q"], expected["k"], m, n, python_widget._theta, python_widget._max_position)
    shift_line, dots = np.array(marks["lines"]["shift"]), marks["dots"]
    # Same y for every Δ (flat) and for the dots on it; the pixel map is the chart's own.
    ys = shift_line[:, 1]
    assert ys.size == strips["shifts"].size and np.ptp(ys) < 0.02, ys
    assert abs(dots["shift"][1] - ys[s]) < 0.01 and abs(dots["shift"][0] - shift_line[s, 0]) < 0.01
    assert dots["ghost"][2] == ("visible" if s else "hidden")
    if "offset" in marks["lines"]:
        offset_line = np.array(marks["lines"]["offset"])
        # A cosine: its drawn y is one affine map of rope_core's scores (points written to 0.01).
        values = strips["by_offset"]
        slope, intercept = np.polyfit(values, offset_line[:, 1], 1)
        np.testing.assert_allclose(offset_line[:, 1], intercept + slope * values, atol=0.02)
        np.testing.assert_allclose(ys, intercept + slope * strips["by_shift"], atol=0.02)
        j = list(strips["offsets"]).index(n - m)
        assert abs(dots["offset"][0] - offset_line[j, 0]) < 0.01 and abs(dots["offset"][1] - offset_line[j, 1]) < 0.01


@pytest.mark.parametrize("mode", ["mouse-1280-light", "touch-390-dark"])
def test_dragging_q_by_47_degrees_turns_it_by_47(chromium, book_server, mode, screenshot_dir):
    touch = mode.startswith("touch")
    options = {"viewport": PHONE, "touch": True, "color_scheme": "dark"} if touch else {}
    context, page, log = open_gallery(chromium, book_server, **options)
    try:
        root, data = predicted_widget(page, "RotationExplorer"), W.RotationExplorer().data
        page.screenshot(path=str(screenshot_dir / f"drag-rotation-{mode}-before.png"))
        before = check_rotation_explorer(root, data)
        drag(page, root, "q", DRAG_DEG, touch=touch)
        after = check_rotation_explorer(root, data)
        assert abs(turned(before, after) - DRAG_DEG) <= 3.0, (before, after)
        drag(page, root, "q", -2 * DRAG_DEG, touch=touch)   # back past the start: clockwise too
        again = check_rotation_explorer(root, data)
        assert abs(turned(after, again) + 2 * DRAG_DEG) <= 3.0, (after, again)
        # Out from the centre by 0.4: q is 0.4 longer, same direction (R(mθ)q as long: checked).
        length = q_length(root)
        drag(page, root, "q", 0.0, stretch=0.4, touch=touch)
        longer = check_rotation_explorer(root, data)
        assert abs(q_length(root) - length - 0.4) <= 0.02 and abs(turned(again, longer)) <= 1.0, (length, q_length(root))
        low, high = data["length_range"]
        drag(page, root, "q", 0.0, stretch=3.0, touch=touch)     # far out: clamped
        check_rotation_explorer(root, data)
        assert q_length(root) == high
        drag(page, root, "q", 0.0, stretch=-1.5, touch=touch)    # nearly to the centre: clamped
        check_rotation_explorer(root, data)
        assert q_length(root) == low
        drag(page, root, "q", 20.0, stretch=0.5, touch=touch)    # turn and stretch at once
        check_rotation_explorer(root, data)
        assert abs(q_length(root) - low - 0.5) <= 0.02, q_length(root)
        page.screenshot(path=str(screenshot_dir / f"drag-rotation-{mode}-after.png"))

        rel_root = predicted_widget(page, "RelativeInvariance")
        python_widget = W.RelativeInvariance()
        qa, ka = check_relative_invariance(rel_root, python_widget)
        drag(page, rel_root, "k", DRAG_DEG, touch=touch)
        qa2, ka2 = check_relative_invariance(rel_root, python_widget)
        assert qa2 == qa and abs(turned(ka, ka2) - DRAG_DEG) <= 3.0, (ka, ka2)
        drag(page, rel_root, "q", -DRAG_DEG, touch=touch)
        qa3, _ = check_relative_invariance(rel_root, python_widget)
        assert abs(turned(qa2, qa3) + DRAG_DEG) <= 3.0, (qa2, qa3)
        # Shorten q by 0.3: the score scales with |q| (score / |q| = |k| cos(angle) stays put).
        lengths, score = rel_root.locator('[data-readout="lengths"]'), rel_root.locator('[data-readout="score"]')
        q_before, score_before = data_float(lengths, "q"), data_float(score, "value")
        drag(page, rel_root, "q", 0.0, stretch=-0.3, touch=touch)
        qa4, _ = check_relative_invariance(rel_root, python_widget)
        q_after, score_after = data_float(lengths, "q"), data_float(score, "value")
        assert abs(q_after - q_before + 0.3) <= 0.02 and abs(turned(qa3, qa4)) <= 1.0, (q_before, q_after, qa3, qa4)
        assert abs(score_after / q_after - score_before / q_before) <= 0.02, (score_before, score_after)
        page.screenshot(path=str(screenshot_dir / f"drag-relative-{mode}-after.png"))
        assert not log.page_errors and not log.console_errors, (log.page_errors, log.console_errors)
    finally:
        context.close()


def test_arrow_keys_turn_q_by_1_and_10_degrees_and_plus_minus_stretch_it(chromium, book_server):
    context, page, log = open_gallery(chromium, book_server)
    try:
        root, data = predicted_widget(page, "RotationExplorer"), W.RotationExplorer().data
        handle = root.get_by_role("slider", name="direction of q", exact=False)
        handle.focus()
        start = check_rotation_explorer(root, data)
        for key, expected in (("ArrowRight", 1), ("ArrowUp", 1), ("ArrowLeft", -1), ("Shift+ArrowRight", 10),
                              ("Shift+ArrowDown", -10), ("ArrowDown", -1), ("ArrowDown", -1)):
            before = q_angle(root)
            page.keyboard.press(key)
            assert abs(turned(before, q_angle(root)) - expected) < 1e-9, key
        assert abs(turned(start, check_rotation_explorer(root, data)) + 1) < 1e-9
        # + and − stretch q by 0.1, within its range, and leave its direction alone.
        low, high = data["length_range"]
        for key, change in (("+", 0.1), ("+", 0.1), ("-", -0.1), ("-", -0.1), ("-", -0.1)):
            before, angle = q_length(root), q_angle(root)
            page.keyboard.press(key)
            expected = min(high, max(low, before + change))
            assert abs(q_length(root) - expected) < 1e-9 and q_angle(root) == angle, (key, before, q_length(root))
        check_rotation_explorer(root, data)
        for _ in range(20):
            page.keyboard.press("+")
        assert q_length(root) == high
        # The focus ring shows while the handle has the keyboard focus.
        ring = handle.locator(".rope-w-ring")
        assert ring.evaluate("(node) => getComputedStyle(node).visibility") == "visible"
        assert handle.get_attribute("tabindex") == "0" and "q" in handle.get_attribute("aria-label")
        assert not log.page_errors, log.page_errors
    finally:
        context.close()


def test_random_states_show_rope_core_numbers(chromium, book_server, rng):
    context, page, log = open_gallery(chromium, book_server)
    try:
        root, data = predicted_widget(page, "RotationExplorer"), W.RotationExplorer().data
        sliders = {"position": len(data["positions"]), "theta": len(data["thetas"])}
        assert root.locator('input[data-name="q_angle"], input[data-name="length"]').count() == 0   # the handle does it
        for _ in range(60):
            action = rng.integers(3)
            if action == 0:
                name = rng.choice(list(sliders))
                set_slider(root, name, int(rng.integers(sliders[name])))
            elif action == 1:
                drag(page, root, "q", float(rng.uniform(-170, 170)), steps=int(rng.integers(3, 10)))
            else:
                root.locator('[data-handle="q"]').focus()
                page.keyboard.press(rng.choice(["ArrowLeft", "ArrowRight", "Shift+ArrowUp", "Shift+ArrowDown"]))
            check_rotation_explorer(root, data)

        rel_root, python_widget = predicted_widget(page, "RelativeInvariance"), W.RelativeInvariance()
        top = python_widget._max_position + 1
        for _ in range(60):
            action = rng.integers(3)
            if action == 0:
                set_slider(rel_root, str(rng.choice(["m", "n", "shift"])), int(rng.integers(top)))
            elif action == 1:
                drag(page, rel_root, str(rng.choice(["q", "k"])), float(rng.uniform(-170, 170)), steps=int(rng.integers(3, 10)))
            else:
                rel_root.locator(f'[data-handle="{rng.choice(["q", "k"])}"]').focus()
                page.keyboard.press(rng.choice(["ArrowLeft", "ArrowRight", "Shift+ArrowUp"]))
            check_relative_invariance(rel_root, python_widget)
        assert not log.page_errors and not log.console_errors, (log.page_errors, log.console_errors)
    finally:
        context.close()


def test_trail_dots_read_out_their_own_position(chromium, book_server, rng):
    # Pointing at trail dot j writes dot j's numbers (the same words go into the phone's tap
    # bubble): jθ from rotation_table, how far that is from q, and R(jθ)q, at random states.
    context, page, log = open_gallery(chromium, book_server)
    try:
        root, data = predicted_widget(page, "RotationExplorer"), W.RotationExplorer().data
        idle = root.locator('[data-readout="trail"]').inner_text()
        assert "tap" in idle
        for _ in range(8):
            t, m = int(rng.integers(len(data["thetas"]))), int(rng.integers(2, len(data["positions"])))
            set_slider(root, "theta", t)
            set_slider(root, "position", m)
            j = int(rng.integers(m))
            root.locator(f'circle.rope-w-hit-dot[data-position="{j}"]').dispatch_event("pointerover")
            shown = root.locator('[data-readout="trail"]')
            table = rotation_table([data["thetas"][t]], m)
            q = [data_float(root.locator('[data-readout="q"]'), k) for k in ("x", "y")]
            want = rotation_state(q, j, data["thetas"][t])["rotated"]
            assert int(shown.get_attribute("data-position")) == j
            label = root.locator('text[data-label="trail"]')  # the number beside the dot itself
            assert label.get_attribute("data-position") == str(j) and label.text_content() == f"m = {j}"
            np.testing.assert_allclose([data_float(shown, "angle"), data_float(shown, "offset")],
                                       [table["angle"][0, j], table["offset"][0, j]], atol=1e-9)
            np.testing.assert_allclose([data_float(shown, "x"), data_float(shown, "y")], want, atol=1e-9)
            numbers = readout_numbers(shown.inner_text())
            assert numbers[0] == j and numbers[1] == j  # "m = j: R(jθ) q = …"
            assert_sig3(numbers[2:4], want)
            assert_sig3([numbers[5], numbers[6]], [table["angle"][0, j], table["offset"][0, j]])
            root.locator(f'circle.rope-w-hit-dot[data-position="{j}"]').dispatch_event("pointerout")
            assert root.locator('[data-readout="trail"]').inner_text() == idle
        assert not log.page_errors and not log.console_errors, (log.page_errors, log.console_errors)
    finally:
        context.close()


def test_play_animates_m_and_the_shift_and_stops_at_the_end(chromium, book_server):
    context, page, log = open_gallery(chromium, book_server)
    try:
        root = predicted_widget(page, "RotationExplorer")
        position = root.locator('input[data-name="position"]')
        last = int(position.get_attribute("max"))
        set_slider(root, "position", last - 4)
        play = root.get_by_role("button", name="play m")
        assert play.get_attribute("aria-pressed") == "false"
        play.focus()
        page.keyboard.press("Enter")            # keyboard starts it
        assert play.get_attribute("aria-pressed") == "true"
        page.wait_for_function("(input) => Number(input.value) === Number(input.max)",
                               arg=position.element_handle(), timeout=10000)
        page.wait_for_function("(b) => b.getAttribute('aria-pressed') === 'false'",
                               arg=play.element_handle(), timeout=5000)   # stopped at the end
        assert int(position.input_value()) == last

        rel_root, python_widget = predicted_widget(page, "RelativeInvariance"), W.RelativeInvariance()
        shift = rel_root.locator('input[data-name="shift"]')
        read = ("(root) => [Number(root.querySelector('input[data-name=shift]').value),"
                " Number(root.querySelector('[data-readout=score]').dataset.value)]")   # one frame, atomically
        start_shift, start_score = rel_root.evaluate(read)
        rel_root.get_by_role("button", name="play Δ").click()
        seen = set()
        for _ in range(4):   # watch a few frames: s moves, the score does not
            value = int(shift.input_value())
            page.wait_for_function("([input, v]) => Number(input.value) > v", arg=[shift.element_handle(), value])
            s, score = rel_root.evaluate(read)
            seen.add(s)
            assert abs(score - start_score) < 1e-9, (s, score, start_shift, start_score)
        rel_root.get_by_role("button", name="play Δ").click()     # pause
        paused = int(shift.input_value())
        page.wait_for_timeout(700)
        assert int(shift.input_value()) == paused, "pause stops the animation"
        assert len(seen) >= 3 and int(shift.input_value()) >= 4
        check_relative_invariance(rel_root, python_widget)   # paused: every number, as in a still state
        assert not log.page_errors, log.page_errors
    finally:
        context.close()


def test_reduced_motion_plays_one_step_a_second(chromium, book_server):
    """common.js's player under prefers-reduced-motion: one step a second, not five."""
    context, page, log = open_gallery(chromium, book_server)
    try:
        page.emulate_media(reduced_motion="reduce")
        goto(page)  # reload
        root = predicted_widget(page, "RotationExplorer")
        position = root.locator('input[data-name="position"]')
        start = int(position.input_value())
        play = root.get_by_role("button", name="play m")
        play.click()
        page.wait_for_timeout(700)
        assert int(position.input_value()) == start, "no step within 0.7 s"
        page.wait_for_function("([input, v]) => Number(input.value) === v + 1",
                               arg=[position.element_handle(), start], timeout=3000)
        play.click()
        assert play.get_attribute("aria-pressed") == "false"
        assert not log.page_errors, log.page_errors
    finally:
        context.close()
