// Shared drawing helpers for the book's widgets. They only draw numbers that Python
// computed with rope_core; no RoPE maths happens in the browser.
const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function htmlEl(name, attrs = {}, parent = null, text = null) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// A labelled range slider over the indices of `values`; `format` renders a value.
// Returns {input, set(index)}; `onInput(index)` runs on every change.
function slider(parent, { label, name, values, index, format = String, onInput }) {
  const row = htmlEl("div", { class: "rope-w-control" }, parent);
  const id = `rope-w-${name}-${Math.random().toString(36).slice(2, 9)}`;
  htmlEl("label", { for: id }, row, label);
  const input = htmlEl("input", {
    type: "range", id, min: 0, max: values.length - 1, step: 1, value: index,
    "aria-label": label, "data-name": name,
  }, row);
  const shown = htmlEl("output", { for: id, "data-name": name }, row, format(values[index]));
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
  const control = { input, set: (i) => { input.value = i; update(); } };
  if (onInput.follow) onInput.follow(control);
  return control;
}

// A read-out line: <span data-readout=name>.
function readout(parent, name, label) {
  const row = htmlEl("div", { class: "rope-w-readout" }, parent);
  htmlEl("span", { class: "rope-w-readout-label" }, row, label);
  return htmlEl("span", { "data-readout": name }, row, "");
}

function fmt(value, digits = 4) {
  return Number(value).toFixed(digits);
}

function frame(el, { title, width = 360, height = 360, viewBox = null }) {
  const root = htmlEl("div", { class: "rope-w" }, el);
  if (title) htmlEl("div", { class: "rope-w-title" }, root, title);
  const body = htmlEl("div", { class: "rope-w-body" }, root);
  const svg = svgEl("svg", {
    viewBox: viewBox || `0 0 ${width} ${height}`, width, height, role: "img",
    class: "rope-w-svg", "aria-label": title || "widget drawing",
  }, body);
  const controls = htmlEl("div", { class: "rope-w-controls" }, body);
  return { root, svg, controls };
}

function arrow(parent, x0, y0, x1, y1, cls) {
  const group = svgEl("g", { class: cls }, parent);
  svgEl("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "rope-w-stroke" }, group);
  const angle = Math.atan2(y1 - y0, x1 - x0);
  const size = 9;
  const p1 = [x1 - size * Math.cos(angle - 0.4), y1 - size * Math.sin(angle - 0.4)];
  const p2 = [x1 - size * Math.cos(angle + 0.4), y1 - size * Math.sin(angle + 0.4)];
  svgEl("polygon", { points: `${x1},${y1} ${p1[0]},${p1[1]} ${p2[0]},${p2[1]}`, class: "rope-w-fill" }, group);
  return group;
}

// Slider callback factory: remember the index, tell the kernel (if any), redraw.
// Without a kernel save_changes() does nothing, so one module serves both settings.
// With a kernel, a change of the trait made in Python moves the slider and redraws too.
function syncer(model, state, draw) {
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
