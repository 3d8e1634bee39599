// Shared drawing helpers for the book's widgets, an ES module each widget imports
// (`import { slider } from "./common.js"`). They only draw numbers that Python computed with
// rope_core; no RoPE maths happens in the browser.
const SVG_NS = "http://www.w3.org/2000/svg";

export function svgEl(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export function htmlEl(name, attrs = {}, parent = null, text = null) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// A labelled range slider over the indices of `values`; `format` renders a value.
// Returns {input, set(index)}; `onInput(index)` runs on every change.
export function slider(parent, { label, name, values, index, format = String, onInput }) {
  const row = htmlEl("div", { class: "rope-w-control" }, parent);
  const id = `rope-w-${name}-${Math.random().toString(36).slice(2, 9)}`;
  htmlEl("label", { for: id }, row, label);
  const input = htmlEl("input", {
    type: "range", id, min: 0, max: values.length - 1, step: 1, value: index,
    "aria-label": label, "data-name": name,
  }, row);
  // The slider itself says its value (aria-valuetext); an <output> is a live region of its own
  // and would say it a second time, so it is shown to the eye only.
  const shown = htmlEl("output", { for: id, "data-name": name, "aria-hidden": "true" }, row, format(values[index]));
  const update = () => {
    const i = Number(input.value);
    shown.textContent = format(values[i]);
    input.setAttribute("aria-valuetext", format(values[i]));
    onInput(i);
  };
  input.addEventListener("input", update);
  // Notebook front ends use the arrow keys themselves; keep them for the slider.
  input.addEventListener("keydown", (event) => event.stopPropagation());
  input.setAttribute("aria-valuetext", format(values[index]));
  const control = {
    input, output: shown,
    set: (i) => { input.value = i; update(); },
    // Fewer stops (e.g. fewer pairs after a smaller dimension): clamp the thumb, and say the
    // clamped value in the output and to a screen reader, and to the kernel through onInput.
    setCount: (count) => {
      input.max = count - 1;
      const i = Math.min(Number(input.value), count - 1);
      if (String(i) !== input.value || shown.textContent !== format(values[i])) { input.value = i; update(); }
      return i;
    },
  };
  if (onInput.follow) onInput.follow(control);
  return control;
}

// A read-out line: <span data-readout=name>.
export function readout(parent, name, label) {
  const row = htmlEl("div", { class: "rope-w-readout" }, parent);
  typeset(htmlEl("span", { class: "rope-w-readout-label" }, row), label);
  return htmlEl("span", { "data-readout": name }, row, "");
}

export function fmt(value, digits = 4) {
  return Number(value).toFixed(digits);
}

// Three significant digits, as a reader reads them: 0.540, 1230, 2.37×10⁻⁶, −0.841 (U+2212).
const SUPERSCRIPT_DIGITS = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };
export function fmt3(value) {
  const v = Number(value);
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return "0";
  const a = Math.abs(v);
  let text;
  if (a >= 1e-3 && a < 1e5) {
    text = a >= 1000 ? String(Math.round(Number(a.toPrecision(3)))) : a.toPrecision(3);
  } else {
    const [mantissa, exponent] = a.toExponential(2).split("e");
    text = `${mantissa}×10${String(Number(exponent)).replace(/[-0-9]/g, (c) => SUPERSCRIPT_DIGITS[c])}`;
  }
  return (v < 0 ? "−" : "") + text;
}

// Typeset a label: "θ_i", "λ_{i}", "m·θ_{12}", "10^{5}" become base text with <sub>/<sup> in
// HTML and <tspan> (smaller, shifted) in SVG; "_"/"^" before anything else ("e^(imθ)") stay
// as they are. Returns the node. A node already showing the same label is left alone: on a
// slider step most labels do not change, and rewritten text costs a layout pass all the same.
export function typeset(node, label) {
  if (node.ropeLabel === String(label) && node.textContent === node.ropeText) return node;
  node.replaceChildren();
  const svg = node.namespaceURI === SVG_NS;
  const parts = String(label).split(/([_^](?:\{[^}]*\}|[A-Za-z0-9\u0370-\u03ff]))/);
  for (const part of parts) {
    if (!part) continue;
    const script = /^[_^]/.test(part) ? part[0] : null;
    const text = script ? part.slice(1).replace(/^\{|\}$/g, "") : part;
    if (!script) { node.appendChild(document.createTextNode(text)); continue; }
    if (svg) {
      const shift = script === "_" ? "0.3em" : "-0.45em";
      const span = svgEl("tspan", { dy: shift, "font-size": "85%" }, node);
      span.textContent = text;
      // Back to the baseline for what follows (an empty tspan carries the reverse shift).
      svgEl("tspan", { dy: script === "_" ? "-0.3em" : "0.45em" }, node).textContent = "\u200b";
    } else {
      htmlEl(script === "_" ? "sub" : "sup", {}, node, text);
    }
  }
  node.ropeLabel = String(label);
  node.ropeText = node.textContent;
  return node;
}

// Plain text, written only when it changed (same reason as typeset's).
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
  return node;
}

// A play button for a slider: steps it forward while pressed and stops at its last stop (a
// press there starts again from the first). aria-pressed says the state; Space/Enter toggle it
// (a <button>). The reader's own hand wins: any slider move, press or drag inside the widget
// other than on this button stops the play. Readers who ask for reduced motion get one step a
// second instead of eight. Stops when the widget leaves the page.
export function player(parent, control, { label = "play", interval = 125 } = {}) {
  // The accessible name starts with the visible word (play / pause), then says what is played.
  const named = (word) => (label.startsWith(word) ? label : `${word}: ${label}`);
  const button = htmlEl("button", { type: "button", class: "rope-w-play", "aria-pressed": "false",
    "data-name": "play", "aria-label": named("play") }, parent, "▶ play");
  let timer = null;
  const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const stop = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    button.setAttribute("aria-pressed", "false");
    button.setAttribute("aria-label", named("play"));
    button.textContent = "▶ play";
  };
  const last = () => Number(control.input.max);
  const step = () => {
    if (!button.isConnected) { stop(); return; }
    const next = Number(control.input.value) + 1;
    if (next > last()) { stop(); return; }
    control.set(next);
    if (next >= last()) stop();
  };
  button.addEventListener("click", () => {
    if (timer !== null) { stop(); return; }
    if (Number(control.input.value) >= last()) control.set(0);
    button.setAttribute("aria-pressed", "true");
    button.setAttribute("aria-label", named("pause"));
    button.textContent = "❚❚ pause";
    timer = setInterval(step, reduced() ? 1000 : interval);
  });
  button.addEventListener("keydown", (event) => event.stopPropagation());
  // The widget's root is found once the button is in the page (the caller may move it).
  const takeOver = (event) => {
    if (timer === null || button.contains(event.target)) return;
    if (event.type === "keydown" && !(event.target instanceof Element && event.target.closest("input, [role=slider], button"))) return;
    stop();
  };
  requestAnimationFrame(() => {
    const root = button.closest(".rope-w") || parent;
    for (const type of ["input", "pointerdown", "keydown"]) root.addEventListener(type, takeOver, true);
  });
  return { button, stop, step };
}

// One polite live region per widget for the result it exists to show (a score, a count, a
// verdict): `say(text)` speaks it once the reader pauses (700 ms), and only when it changed, so
// that a slider's steps are not read out twice. Returns say.
export function announcer(root) {
  let region = root.querySelector(":scope > [data-readout=announce]");
  if (!region) {
    region = htmlEl("div", { class: "rope-w-sr-only", role: "status", "aria-live": "polite", "aria-atomic": "true", "data-readout": "announce" }, root);
  }
  // What is said within 700 ms of the last call is said once, when the reader pauses; a later
  // call replaces an earlier one (a slider's passing values), except one said with `keep`
  // (a question's verdict), which later ones follow instead of replacing.
  // `text` may be a function: it is read again when spoken, so a verdict kept while a slider
  // plays says the numbers on the screen when play stops, not those of the moment it was reached.
  // The state lives on the region: a widget and its question each make an announcer for it.
  region.ropeKept = region.ropeKept || [];
  const textOf = (part) => (typeof part === "function" ? part() : part);
  const parts = () => [...region.ropeKept, ...(region.ropeLast == null ? [] : [region.ropeLast])].map(textOf).join(" ");
  return (text, { keep = false } = {}) => {
    if (keep) region.ropeKept.push(text);
    region.ropeLast = keep ? null : text;
    region.dataset.pending = parts();
    clearTimeout(region.ropeTimer);
    region.ropeTimer = setTimeout(() => {
      const spoken = parts();
      region.ropeKept = [];
      region.ropeLast = null;
      region.dataset.pending = spoken;
      setText(region, spoken);
    }, 700);
  };
}

// Hover and keyboard focus of one of many marks (cells, clocks, boxes) show its numbers:
// `marks` are SVG elements; one is a tab stop at a time (roving tabindex), the arrow keys move
// between them (`columns` wide), Escape leaves. onShow(index) / onHide() do the rest.
export function hoverable(marks, { columns = marks.length, start = 0, onShow, onHide }) {
  let current = Math.min(start, marks.length - 1);
  marks.forEach((mark, i) => {
    // An aria-label is allowed only on an element with a role: each mark is a labelled picture.
    if (!mark.hasAttribute("role")) mark.setAttribute("role", "img");
    mark.setAttribute("tabindex", i === current ? "0" : "-1");
    mark.setAttribute("focusable", "true");
    mark.addEventListener("mouseenter", () => onShow(i));
    mark.addEventListener("mouseleave", () => { if (document.activeElement !== mark) onHide(); });
    mark.addEventListener("focus", () => { current = i; onShow(i); });
    mark.addEventListener("blur", () => onHide());
    mark.addEventListener("keydown", (event) => {
      const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns };
      if (event.key === "Escape") { mark.blur(); event.stopPropagation(); return; }
      if (!(event.key in moves)) return;
      event.preventDefault();
      event.stopPropagation();
      const next = i + moves[event.key];
      if (next < 0 || next >= marks.length) return;
      mark.setAttribute("tabindex", "-1");
      marks[next].setAttribute("tabindex", "0");
      marks[next].focus();
    });
  });
}

// A horizontal colour scale: `colour(v)` for v from lo to hi, ticks at `ticks`.
export function colourScale(parent, { x, y, width, height = 10, lo = -1, hi = 1, ticks = [-1, 0, 1], colour, label = "" }) {
  const group = svgEl("g", { class: "rope-w-scale", "data-legend": "colour" }, parent);
  const steps = 40;
  for (let s = 0; s < steps; s++) {
    const v = lo + (hi - lo) * (s + 0.5) / steps;
    svgEl("rect", { x: x + (width * s) / steps, y, width: width / steps + 0.5, height, style: `fill: ${colour(v)}` }, group);
  }
  svgEl("rect", { x, y, width, height, class: "rope-w-outline" }, group);
  for (const t of ticks) {
    const tx = x + ((t - lo) / (hi - lo)) * width;
    svgEl("line", { x1: tx, y1: y + height, x2: tx, y2: y + height + 4, class: "rope-w-outline" }, group);
    svgEl("text", { x: tx, y: y + height + 18, "text-anchor": "middle", "data-tick": t }, group).textContent = String(t).replace("-", "−");
  }
  if (label) typeset(svgEl("text", { x: x + width + 8, y: y + height, "data-label": "scale" }, group), label);
  return group;
}

export function frame(el, { title, width = 360, height = 360, viewBox = null }) {
  const root = htmlEl("div", { class: "rope-w" }, el);
  if (title) typeset(htmlEl("div", { class: "rope-w-title" }, root), title);
  const body = htmlEl("div", { class: "rope-w-body" }, root);
  const svg = svgEl("svg", {
    viewBox: viewBox || `0 0 ${width} ${height}`, width, height, role: "img",
    class: "rope-w-svg", "aria-label": title ? title.replace(/[_^{}]/g, "") : "widget drawing",
  }, body);
  const controls = htmlEl("div", { class: "rope-w-controls" }, body);
  keepTextSize(svg);
  watchOnScreen(root);
  return { root, svg, controls };
}

// An SVG scales with the page: on a 390 px phone a 400-unit drawing is ~320 px wide and its
// text would shrink to ~9 px. --rope-w-scale (units per CSS pixel) keeps text 13 px on screen.
export function keepTextSize(svg) {
  const apply = () => {
    const shown = svg.getBoundingClientRect().width;
    const units = svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
    if (shown > 0 && units > 0) svg.style.setProperty("--rope-w-scale", Math.ceil(1000 * Math.max(1, units / shown)) / 1000);  // up: never under size
  };
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(apply).observe(svg);
  requestAnimationFrame(apply);
}

export function arrow(parent, x0, y0, x1, y1, cls) {
  const group = svgEl("g", { class: cls }, parent);
  svgEl("line", { class: "rope-w-stroke" }, group);
  svgEl("polygon", { class: "rope-w-fill" }, group);
  return moveArrow(group, x0, y0, x1, y1);
}
// Moves an arrow made by the function above in place (a redraw that changes only where it points).
export function moveArrow(group, x0, y0, x1, y1) {
  const [line, head] = group.children;
  for (const [key, value] of Object.entries({ x1: x0, y1: y0, x2: x1, y2: y1 })) line.setAttribute(key, value);
  const angle = Math.atan2(y1 - y0, x1 - x0);
  const size = 9;
  const p1 = [x1 - size * Math.cos(angle - 0.4), y1 - size * Math.sin(angle - 0.4)];
  const p2 = [x1 - size * Math.cos(angle + 0.4), y1 - size * Math.sin(angle + 0.4)];
  head.setAttribute("points", `${x1},${y1} ${p1[0]},${p1[1]} ${p2[0]},${p2[1]}`);
  return group;
}

// Slider callback factory: remember the index, tell the kernel (if any), redraw.
// Without a kernel save_changes() does nothing, so one module serves both settings.
// With a kernel, a change of the trait made in Python moves the slider and redraws too.
export function syncer(model, state, draw) {
  return (key, trait) => {
    const onInput = (index) => {
      state[key] = index;
      model.set(trait, index);
      model.save_changes();
      draw();
    };
    onInput.follow = (control) => model.on(`change:${trait}`, () => {
      const index = model.get(trait);
      if (Number(control.input.value) !== index) control.set(index);
    });
    return onInput;
  };
}

// The shared stylesheet (common.css), once per document, first in <head> so that a widget's own
// rules (added by its front end) win over it. The book's pages link the file in <head> instead;
// a notebook receives this module as a data: URL that ends with a call of this function
// (rope_core/widgets/_base.py).
export function shareStyles(css) {
  if (document.querySelector("style[data-rope-w-shared]")) return;
  const style = document.createElement("style");
  style.dataset.ropeWShared = "";
  style.textContent = css;
  document.head.prepend(style);
}

// Narrow screens: a bubble beside the tapped mark repeating its read-out, since the read-out
// line itself may be a screen below. `source` is the read-out element (it keeps aria-live, so
// the bubble is hidden from screen readers); a tap outside the drawings or hideTip() removes it.
export function showTip(mark, source) {
  const root = mark.closest(".rope-w");
  if (!root || !(window.matchMedia && window.matchMedia("(max-width: 600px)").matches)) return;
  let tip = root.querySelector(":scope > .rope-w-tip");
  if (!tip) {
    tip = htmlEl("div", { class: "rope-w-tip", "aria-hidden": "true" }, root);
    document.addEventListener("pointerdown", (event) => {
      if (!(event.target instanceof Element) || !root.contains(event.target) || !event.target.closest("svg")) tip.hidden = true;
    }, true);
  }
  tip.replaceChildren(...source.cloneNode(true).childNodes);
  tip.hidden = false;
  const at = mark.getBoundingClientRect(), box = root.getBoundingClientRect();
  const left = Math.max(8, Math.min(box.width - tip.offsetWidth - 8, at.left - box.left + at.width / 2 - tip.offsetWidth / 2));
  tip.style.left = `${left}px`;
  tip.style.top = `${at.bottom - box.top + 6}px`;
}

export function hideTip(root) {
  const tip = root && root.querySelector(":scope > .rope-w-tip");
  if (tip) tip.hidden = true;
}

// The theme's floating "Back to top" pill would cover sliders: the page hides it while any
// widget is on screen (html[data-rope-widget-on-screen], see common.css).
const onScreen = new Set();
const screenWatcher = typeof IntersectionObserver === "undefined" ? null : new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (entry.isIntersecting) onScreen.add(entry.target); else onScreen.delete(entry.target);
  }
  document.documentElement.toggleAttribute("data-rope-widget-on-screen", [...onScreen].some((node) => node.isConnected));
});
export function watchOnScreen(root) {
  if (screenWatcher) screenWatcher.observe(root);
}

// Step buttons (−, +) either side of a long slider's track: one stop per press, 44 px
// targets, for fingers that cannot place a thumb on a track with under a pixel per stop.
export function stepButtons(control, label) {
  const { input } = control;
  const track = htmlEl("div", { class: "rope-w-track" });
  input.replaceWith(track);
  const button = (text, delta, name) => {
    const b = htmlEl("button", { type: "button", class: "rope-w-step-button", "data-step-of": input.dataset.name,
      "data-delta": delta, "aria-label": `${label}: ${name}` }, track, text);
    b.addEventListener("click", () => {
      const i = Math.max(0, Math.min(Number(input.max), Number(input.value) + delta));
      if (String(i) !== input.value) control.set(i);
    });
    b.addEventListener("keydown", (event) => event.stopPropagation());
    return b;
  };
  button("−", -1, "one stop down");
  track.appendChild(input);
  button("+", 1, "one stop up");
  return control;
}

// Phone first: on a narrow screen the widget's main control (a slider's row) moves to the end of
// the widget and sticks to the bottom of the screen while the widget is in view, so the reader
// moves it with the drawing in sight; on a wide screen it stays with the other controls.
const NARROW_SCREEN = "(max-width: 600px)";
export function keepInReach(control) {
  const row = control.input.closest(".rope-w-control") || control.input.parentElement;
  const root = row.closest(".rope-w");
  if (!root || !window.matchMedia) return control;
  const home = document.createComment("main control");
  row.before(home);
  const narrow = window.matchMedia(NARROW_SCREEN);
  const place = () => {
    if (narrow.matches) { root.appendChild(row); row.classList.add("rope-w-in-reach"); }
    else { home.after(row); row.classList.remove("rope-w-in-reach"); }
  };
  place();
  narrow.addEventListener("change", place);
  return control;
}

// While a widget's main control is kept in reach (pinned to the bottom of a phone's screen), what
// the page itself scrolls into view (a focused control, a found word, a link's target,
// scrollIntoView) stops above the pinned bar, not under it: the document's scroll-padding-bottom
// follows the tallest bar on screen. Call it with the control keepInReach was given.
export function scrollClearOfReach(control) {
  const row = control.input.closest(".rope-w-control") || control.input.parentElement;
  if (typeof ResizeObserver === "undefined") return control;
  const fit = () => {
    const bars = [...document.querySelectorAll(".rope-w-in-reach")].filter((bar) => bar.isConnected);
    const height = Math.max(0, ...bars.map((bar) => bar.getBoundingClientRect().height));
    document.documentElement.style.scrollPaddingBottom = height ? `${Math.ceil(height) + 8}px` : "";
  };
  new ResizeObserver(fit).observe(row);
  fit();
  return control;
}
