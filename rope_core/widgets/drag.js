// Direct manipulation for the widgets whose vectors the reader turns: a draggable handle on a
// vector's tip (mouse, pen, touch and keyboard), a play button, and 3-significant-digit
// read-outs. Appended to rotation_explorer.js and relative_invariance.js (function
// declarations, hoisted). The page computes only elementary 2-D rotations here (cos, sin of one
// angle); the browser tests check every number it shows against rope_core.

const DRAG_CSS = `
.rope-w-svg .rope-w-handle { cursor: grab; touch-action: none; outline: none; }
.rope-w-svg .rope-w-handle.rope-w-dragging { cursor: grabbing; }
.rope-w-svg .rope-w-handle .rope-w-hit { fill: transparent; stroke: none; pointer-events: all; }
.rope-w-svg .rope-w-handle .rope-w-knob { stroke: var(--rope-w-bg); stroke-width: 2; }
.rope-w-svg .rope-w-handle .rope-w-ring { fill: none; stroke: var(--rope-w-fg); stroke-width: 2; stroke-dasharray: 3 2; visibility: hidden; }
.rope-w-svg .rope-w-handle:focus-visible .rope-w-ring, .rope-w-svg .rope-w-handle.rope-w-dragging .rope-w-ring { visibility: visible; }
.rope-w-svg .q .rope-w-knob { fill: var(--rope-w-q); }
.rope-w-svg .k .rope-w-knob { fill: var(--rope-w-k); }
.rope-w-svg text.rope-w-label { font-size: 13px; }
.rope-w-play { min-height: 44px; min-width: 44px; padding: 0 14px; font: inherit; border-radius: 6px;
  color: var(--rope-w-fg); background: var(--rope-w-bg); border: 1px solid var(--rope-w-muted); cursor: pointer; align-self: flex-start; }
.rope-w-play[aria-pressed="true"] { border-color: var(--rope-w-q); box-shadow: inset 0 0 0 1px var(--rope-w-q); }
.rope-w-play:focus-visible { outline: 2px solid var(--rope-w-q); outline-offset: 2px; }
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

// Angles in degrees, in [0, 360).
function wrapDeg(deg) {
  const wrapped = deg % 360;
  return wrapped < 0 ? wrapped + 360 : wrapped;
}

// R(angle) v, angle in radians: the one rotation the page does itself.
function rotate(v, angle) {
  const c = Math.cos(angle), s = Math.sin(angle);
  return [c * v[0] - s * v[1], s * v[0] + c * v[1]];
}

// length · (cos α, sin α), α in degrees.
function polar(length, deg) {
  const a = (deg * Math.PI) / 180;
  return [length * Math.cos(a), length * Math.sin(a)];
}

// A number with 3 significant digits (a real minus sign; integers ≥ 1000 in full).
function sig(value, digits = 3) {
  const v = Number(value);
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  const text = a < 0.5 * 10 ** -digits ? (0).toFixed(digits - 1)
    : a >= 10 ** digits ? a.toFixed(0) : a.toPrecision(digits);
  return (v < 0 && Number(text) !== 0 ? "−" : "") + text;
}

// Read-out label with sub/superscripts: parts are strings or ["sub"|"sup", text].
function richLabel(node, parts) {
  node.replaceChildren();
  for (const part of parts) {
    if (typeof part === "string") node.appendChild(document.createTextNode(part));
    else htmlEl(part[0], {}, node, part[1]);
  }
}

// SVG text with a subscript (tspan), e.g. R_{m+s} q: svgLabel(g, x, y, ["R", ["sub", "5"], " q"]).
function svgLabel(parent, x, y, parts, cls = "rope-w-label") {
  const text = svgEl("text", { x, y, class: cls, "text-anchor": "middle", "dominant-baseline": "middle" }, parent);
  for (const part of parts) {
    if (typeof part === "string") { svgEl("tspan", {}, text).textContent = part; continue; }
    const shift = part[0] === "sub" ? 4 : -5;
    svgEl("tspan", { dy: shift, "font-size": "0.78em" }, text).textContent = part[1];
    svgEl("tspan", { dy: -shift }, text).textContent = "\u200a";
  }
  return text;
}

// Where a vector's label goes: beyond its tip, along it, clear of the arrow and the handle.
// Kept inside the 340 px drawing (a long q near the edge would push it out).
function labelAt(px, py, v, pad = 0.28, size = 340) {
  const norm = Math.hypot(v[0], v[1]) || 1;
  const clamp = (value, margin) => Math.min(size - margin, Math.max(margin, value));
  return [clamp(px(v[0] + (pad * v[0]) / norm), 30), clamp(py(v[1] + (pad * v[1]) / norm), 10)];
}

// A draggable handle at a vector's tip, in `parent`: a group drawn above the arrows and never
// cleared (removing the node under the pointer would release its pointer capture). The vector turns about (cx, cy) by exactly the angle
// the pointer turns about it (so dragging by 47° turns it by 47°, wherever it was grabbed).
// `get()` → the current angle (deg); `set(deg, done)` is called with the new angle in [0, 360).
function dragHandle(svg, parent, { name, label, cls, cx, cy, get, set }) {
  // A drawing that holds a slider is a group, not an image (an img's children are presentational).
  svg.setAttribute("role", "group");
  const group = svgEl("g", {
    class: `rope-w-handle ${cls}`, tabindex: 0, role: "slider", "data-handle": name,
    "aria-label": label, "aria-valuemin": 0, "aria-valuemax": 360, "aria-orientation": "horizontal",
  }, parent);
  svgEl("circle", { r: 22, class: "rope-w-hit" }, group);        // 44 px touch target
  svgEl("circle", { r: 12, class: "rope-w-ring" }, group);
  svgEl("circle", { r: 6, class: "rope-w-knob" }, group);
  const pointerAngle = (event) => {
    const point = svg.createSVGPoint();
    point.x = event.clientX; point.y = event.clientY;
    const local = point.matrixTransform(svg.getScreenCTM().inverse());
    return (Math.atan2(-(local.y - cy), local.x - cx) * 180) / Math.PI;
  };
  // touch-action on SVG children is not honoured by every browser: a non-passive touchstart
  // on the handle alone stops the page from panning (and cancelling the drag), while a swipe
  // anywhere else on the drawing still scrolls the page.
  group.addEventListener("touchstart", (event) => event.preventDefault(), { passive: false });
  let drag = null;
  group.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 && event.pointerType === "mouse") return;
    event.preventDefault();
    group.setPointerCapture(event.pointerId);
    group.focus({ preventScroll: true });
    group.classList.add("rope-w-dragging");
    drag = { id: event.pointerId, last: pointerAngle(event), value: get() };
  });
  group.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    event.preventDefault();
    const now = pointerAngle(event);
    let delta = now - drag.last;                 // unwrap across ±180°
    if (delta > 180) delta -= 360;
    if (delta < -180) delta += 360;
    drag.last = now;
    drag.value += delta;
    set(wrapDeg(drag.value), false);
  });
  const end = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    drag = null;
    group.classList.remove("rope-w-dragging");
    set(get(), true);
  };
  group.addEventListener("pointerup", end);
  group.addEventListener("pointercancel", end);
  group.addEventListener("keydown", (event) => {
    const steps = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };
    if (!(event.key in steps)) return;
    event.preventDefault();
    event.stopPropagation();   // notebook front ends use the arrow keys themselves
    const step = steps[event.key] * (event.shiftKey && Math.abs(steps[event.key]) === 1 ? 10 : 1);
    set(wrapDeg(get() + step), true);
  });
  return {
    node: group,
    place(x, y, deg) {
      group.setAttribute("transform", `translate(${x} ${y})`);
      group.setAttribute("aria-valuenow", Number(deg.toFixed(6)));
      group.setAttribute("aria-valuetext", `${sig(deg)}°`);
    },
  };
}

const REDUCED_MOTION = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

// A play/pause button that calls `step()` every `interval` ms until it returns false (the end)
// or the reader pauses; `rewind()` runs first when play is pressed at the end. With
// prefers-reduced-motion there is no animation: the button steps once per press.
function playButton(parent, { label, step, atEnd, rewind, interval = 220 }) {
  const button = htmlEl("button", { type: "button", class: "rope-w-play", "aria-pressed": "false", "data-name": "play" }, parent);
  let timer = null;
  const show = () => {
    const playing = timer !== null;
    button.setAttribute("aria-pressed", String(playing));
    button.textContent = REDUCED_MOTION ? `Step ${label} ▸` : playing ? `❚❚ Pause ${label}` : `▶ Play ${label}`;
    button.setAttribute("aria-label", REDUCED_MOTION ? `step ${label}` : `play ${label}`);
  };
  const stop = () => { if (timer !== null) clearTimeout(timer); timer = null; show(); };
  const tick = () => {
    if (!step()) { stop(); return; }
    timer = setTimeout(tick, interval);
  };
  button.addEventListener("click", () => {
    if (REDUCED_MOTION) { if (atEnd()) rewind(); else step(); return; }
    if (timer !== null) { stop(); return; }
    if (atEnd()) rewind();
    timer = setTimeout(tick, interval);
    show();
  });
  button.addEventListener("keydown", (event) => event.stopPropagation());
  show();
  return { button, stop, playing: () => timer !== null };
}
