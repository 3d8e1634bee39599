// Direct manipulation for the widgets whose vectors the reader turns: a draggable handle on a
// vector's tip (mouse, pen, touch and keyboard). Number formats, labels and the play button
// are common.js's (fmt3, typeset, player). Imported by rotation_explorer.js and
// relative_invariance.js. The page computes only elementary 2-D rotations here (cos, sin of one
// angle); the browser tests check every number it shows against rope_core.
import { svgEl, fmt3, typeset, player, frame } from "./common.js";

const DRAG_CSS = `
.rope-w-svg .rope-w-handle { cursor: grab; touch-action: none; outline: none; }
.rope-w-svg .rope-w-handle.rope-w-dragging { cursor: grabbing; }
/* The dashed ring is the handle's focus mark (common.css's square outline would hide the label). */
.rope-w-svg g.rope-w-handle:focus-visible { outline: none; }
.rope-w-svg .rope-w-handle .rope-w-hit { fill: transparent; stroke: none; pointer-events: all; }
.rope-w-svg .rope-w-handle .rope-w-knob { stroke: var(--rope-w-bg); stroke-width: 2; }
.rope-w-svg .rope-w-handle .rope-w-ring { fill: none; stroke: var(--rope-w-fg); stroke-width: 2; stroke-dasharray: 3 2; visibility: hidden; }
.rope-w-svg .rope-w-handle:focus-visible .rope-w-ring, .rope-w-svg .rope-w-handle.rope-w-dragging .rope-w-ring { visibility: visible; }
.rope-w-svg .q .rope-w-knob { fill: var(--rope-w-q); }
.rope-w-svg .k .rope-w-knob { fill: var(--rope-w-k); }
.rope-w-svg .rot .rope-w-knob { fill: var(--rope-w-rot); }
.rope-w-hint { color: var(--rope-w-muted); font-size: 12px; }
`;

function dragStyles(el) {
  // Once per document (or JupyterLab output): scoped to the widget classes above.
  const doc = el.ownerDocument || document;
  if (doc.getElementById("rope-w-drag-css")) return;
  const style = doc.createElement("style");
  style.id = "rope-w-drag-css";
  style.textContent = DRAG_CSS;
  (doc.head || doc.documentElement).appendChild(style);
}

// The frame both widgets draw in: a 340-unit square with the unit circle (radius `scale`) and
// the two axes about its centre. The range inputs come first in the DOM (and in tab order); the
// drawing is shown first. Returns the frame's parts and the data → drawing maps px, py.
export function dial(el, { title, label, scale }) {
  dragStyles(el);
  const size = 340, centre = size / 2;
  const { svg, controls } = frame(el, { title, width: size, height: size });
  svg.setAttribute("aria-label", label);
  svg.parentNode.appendChild(svg);
  svg.style.order = "-1";
  svgEl("circle", { cx: centre, cy: centre, r: scale, class: "rope-w-axis" }, svg);
  svgEl("line", { x1: 10, y1: centre, x2: size - 10, y2: centre, class: "rope-w-axis" }, svg);
  svgEl("line", { x1: centre, y1: 10, x2: centre, y2: size - 10, class: "rope-w-axis" }, svg);
  return { svg, controls, size, centre, px: (x) => centre + scale * x, py: (y) => centre - scale * y };
}

// Angles in degrees, in [0, 360).
export function wrapDeg(deg) {
  const wrapped = deg % 360;
  return wrapped < 0 ? wrapped + 360 : wrapped;
}

// R(angle) v, angle in radians: the one rotation the page does itself.
export function rotate(v, angle) {
  const c = Math.cos(angle), s = Math.sin(angle);
  return [c * v[0] - s * v[1], s * v[0] + c * v[1]];
}

// length · (cos α, sin α), α in degrees.
export function polar(length, deg) {
  const a = (deg * Math.PI) / 180;
  return [length * Math.cos(a), length * Math.sin(a)];
}

// fmt3 (common.js) of a number, with round-off (|v| < 1e-12, e.g. cos 90°) shown as 0.
export function num(value) {
  return fmt3(Math.abs(value) < 1e-12 ? 0 : value);
}

// A vector's label in the drawing, typeset ("R_{5} q"), centred on (x, y).
export function vectorLabel(parent, x, y, label) {
  return typeset(svgEl("text", { x, y, class: "rope-w-label", "text-anchor": "middle", "dominant-baseline": "middle" }, parent), label);
}

// Drawing units a label's text takes per character: a generous 13 px font's average, so that
// an estimate keeps labels clear without measuring text (a forced layout on every frame).
const LABEL_CHAR_WIDTH = 8;

// Where a vector's label goes: `pad` beyond its tip, along it, plus half the text's width
// along the vector (estimated from `text`), so that the text clears the arrow and the handle
// at the tip; kept inside the 340 px drawing. Where that edge would push it back towards the
// tip (a long vector pointing at the edge), it goes `pad` beside the tip, a quarter turn on.
export function labelAt(px, py, v, pad = 0.28, text = "", size = 340) {
  const norm = Math.hypot(v[0], v[1]) || 1, u = [v[0] / norm, v[1] / norm];
  const clamp = (value, margin) => Math.min(size - margin, Math.max(margin, value));
  const halfWidth = (LABEL_CHAR_WIDTH * String(text).length) / 2 / (px(1) - px(0));
  const out = pad + Math.abs(u[0]) * halfWidth;
  const x = px(v[0] + out * u[0]), y = py(v[1] + out * u[1]);
  if (x === clamp(x, 30) && y === clamp(y, 10)) return [x, y];
  return [clamp(px(v[0] - pad * u[1]), 30), clamp(py(v[1] + pad * u[0]), 10)];
}

// A grip that turns about a centre: `node` (in `svg`) follows a mouse, pen or finger round
// (cx, cy), in the drawing's units. `grab(event)` runs on the press; `turn(turned, distance)`
// on each move, with the angle turned since the press in radians (counter-clockwise positive,
// unwrapped across ±π so that several turns add up) and the pointer's distance from the
// centre; `release()` when it lets go. The one place the widgets read a turning pointer.
export function turnGrip(svg, node, { cx, cy, grab = () => {}, turn, release = () => {} }) {
  const pointerPolar = (event) => {
    const point = svg.createSVGPoint();
    point.x = event.clientX; point.y = event.clientY;
    const local = point.matrixTransform(svg.getScreenCTM().inverse());
    return [Math.atan2(-(local.y - cy), local.x - cx), Math.hypot(local.x - cx, local.y - cy)];
  };
  // touch-action on SVG children is not honoured by every browser: a non-passive touchstart
  // on the grip alone stops the page from panning (and cancelling the drag), while a swipe
  // anywhere else on the drawing still scrolls the page.
  node.addEventListener("touchstart", (event) => event.preventDefault(), { passive: false });
  let drag = null;
  node.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 && event.pointerType === "mouse") return;
    event.preventDefault();
    node.setPointerCapture(event.pointerId);
    const [angle, distance] = pointerPolar(event);
    drag = { id: event.pointerId, last: angle, turned: 0, distance };
    grab(event, distance);
  });
  node.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    event.preventDefault();
    const [now, distance] = pointerPolar(event);
    let delta = now - drag.last;
    if (delta > Math.PI) delta -= 2 * Math.PI;
    if (delta < -Math.PI) delta += 2 * Math.PI;
    drag.last = now;
    drag.turned += delta;
    turn(drag.turned, distance);
  });
  const end = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    drag = null;
    release();
  };
  node.addEventListener("pointerup", end);
  node.addEventListener("pointercancel", end);
}

// A handle's group at a vector's tip: a slider for assistive technology and the keyboard, a
// 44 px touch target, its focus ring and its knob; grabbing it focuses it and shows the ring.
// `turn` and `keys` are the handle's own: what a turn of the pointer and a key press set.
function tipHandle(svg, parent, { name, label, cls, cx, cy, max, grab, turn, release, keys }) {
  // A drawing that holds a slider is a group, not an image (an img's children are presentational).
  svg.setAttribute("role", "group");
  const group = svgEl("g", {
    class: `rope-w-handle ${cls}`, tabindex: 0, role: "slider", "data-handle": name,
    "aria-label": label, "aria-valuemin": 0, "aria-valuemax": max, "aria-orientation": "horizontal",
  }, parent);
  svgEl("circle", { r: 22, class: "rope-w-hit" }, group);        // 44 px touch target
  svgEl("circle", { r: 12, class: "rope-w-ring" }, group);
  svgEl("circle", { r: 6, class: "rope-w-knob" }, group);
  turnGrip(svg, group, {
    cx, cy, turn,
    grab: (event, distance) => {
      group.focus({ preventScroll: true });
      group.classList.add("rope-w-dragging");
      grab(distance);
    },
    release: () => {
      group.classList.remove("rope-w-dragging");
      release();
    },
  });
  group.addEventListener("keydown", (event) => {
    if (!keys(event)) return;
    event.preventDefault();
    event.stopPropagation();   // notebook front ends use the arrow keys themselves
  });
  return group;
}

// What the arrow keys and Page Up/Down step by.
const KEY_STEPS = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };

// A draggable handle at a vector's tip, in `parent`: a group drawn above the arrows and never
// cleared (removing the node under the pointer would release its pointer capture). The tip
// follows the pointer: the vector turns about (cx, cy) by exactly the angle the pointer turns
// about it (so dragging by 47° turns it by 47°, wherever it was grabbed), and its length
// changes by the pointer's change of distance from (cx, cy) (`scale` drawing units per unit
// length), clamped to `range`. `get()` → the current angle (deg), `length()` → the length;
// `set(deg, done, length)` gets the new angle in [0, 360) and length (undefined: unchanged,
// as from the arrow keys; + and − change the length by 0.1).
export function dragHandle(svg, parent, { name, label, cls, cx, cy, get, set, length, scale, range }) {
  const clampLength = (value) => Math.min(range[1], Math.max(range[0], value));
  let start = null;
  const group = tipHandle(svg, parent, {
    name, label, cls, cx, cy, max: 360,
    grab: (distance) => { start = { value: get(), distance, length: length() }; },
    turn: (turned, distance) => set(wrapDeg(start.value + (turned * 180) / Math.PI), false,
      clampLength(start.length + (distance - start.distance) / scale)),
    release: () => set(get(), true),
    keys: (event) => {
      // + and − lengthen and shorten by 0.1 (clamped): the keyboard's way to stretch the vector.
      const stretch = { "+": 0.1, "=": 0.1, "-": -0.1, "_": -0.1 };
      if (event.key in stretch) {
        set(get(), true, clampLength(Number((length() + stretch[event.key]).toFixed(12))));
        return true;
      }
      if (!(event.key in KEY_STEPS)) return false;
      const step = KEY_STEPS[event.key] * (event.shiftKey && Math.abs(KEY_STEPS[event.key]) === 1 ? 10 : 1);
      set(wrapDeg(get() + step), true);
      return true;
    },
  });
  return {
    node: group,
    place(x, y, deg) {
      group.setAttribute("transform", `translate(${x} ${y})`);
      group.setAttribute("aria-valuenow", Number(deg.toFixed(6)));
      group.setAttribute("aria-valuetext", `${num(deg)}°, length ${num(length())}`);
    },
  };
}

// The animations of the two dials: common.js's player (it stops at the slider's last stop and
// when the reader takes over), at a pace the eye can follow.
export function playToEnd(parent, control, label) {
  return player(parent, control, { label, interval: 220 });
}

// A handle that turns a vector by whole positions: on the tip of R(mθ)q, dragging it about the
// centre (cx, cy) sets m to the whole number nearest m₀ + (the angle turned since the press) / θ,
// the turned angle unwrapped so that several turns add up; so the arrow snaps to the angles
// mθ a position can have. The arrow keys step m by one, Page Up/Down by ten, Home/End to the
// ends. `get()` → m, `set(m, done)` gets the new whole m (the caller clamps it); `stepDeg()` is
// θ in degrees. place(x, y, m, text) moves it and says m.
export function stepHandle(svg, parent, { name, label, cls, cx, cy, stepDeg, get, set, last }) {
  let start = null;
  const group = tipHandle(svg, parent, {
    name, label, cls, cx, cy, max: last(),
    grab: () => { start = get(); },
    turn: (turned) => {
      const m = Math.round(start + (turned * 180) / Math.PI / stepDeg());
      if (m !== get()) set(m, false);
    },
    release: () => set(get(), true),
    keys: (event) => {
      let m = null;
      if (event.key in KEY_STEPS) m = get() + KEY_STEPS[event.key];
      else if (event.key === "Home") m = 0;
      else if (event.key === "End") m = last();
      if (m === null) return false;
      set(m, true);
      return true;
    },
  });
  return {
    node: group,
    place(x, y, m, text) {
      group.setAttribute("transform", `translate(${x} ${y})`);
      group.setAttribute("aria-valuemax", last());
      group.setAttribute("aria-valuenow", m);
      group.setAttribute("aria-valuetext", text);
    },
  };
}

// Where a label centred at (x, y) with `text` goes so that it covers none of `handles`
// ([x, y] centres of drag handles, whose ring is 12 units): (x, y) if it is clear, else the
// nearest clear spot on rings of growing radius about it, inside the 340-unit drawing.
// Estimated like labelAt (no text measured), with 3 units to spare.
const HANDLE_CLEARANCE = 15;
export function clearOfHandles(x, y, text, handles, size = 340) {
  const halfWidth = (LABEL_CHAR_WIDTH * String(text).length) / 2 + 3, halfHeight = 11;
  const covers = (cx, cy) => handles.some(([hx, hy]) => {
    const dx = Math.max(Math.abs(hx - cx) - halfWidth, 0), dy = Math.max(Math.abs(hy - cy) - halfHeight, 0);
    return Math.hypot(dx, dy) < HANDLE_CLEARANCE;
  });
  if (!covers(x, y)) return [x, y];
  const inside = (cx, cy) => cx - halfWidth >= 0 && cx + halfWidth <= size && cy - halfHeight >= 0 && cy + halfHeight <= size;
  for (let radius = 8; radius <= 120; radius += 8) {
    for (let k = 0; k < 16; k++) {
      const a = (k * Math.PI) / 8, cx = x + radius * Math.cos(a), cy = y + radius * Math.sin(a);
      if (inside(cx, cy) && !covers(cx, cy)) return [cx, cy];
    }
  }
  return [x, y];
}

// The handles' stylesheet for a widget that draws its handles in a drawing of its own (not
// dial's): call once with the widget's element before making handles.
export function handleStyles(el) {
  dragStyles(el);
}
