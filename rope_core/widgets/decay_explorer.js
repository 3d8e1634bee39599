// Decay: RoFormer's bound and two actual scores at one base, and beside it the bound for every
// base at once (one labelled family). Every number comes from Python (rope_core.demos.decay).
import { svgEl, htmlEl, slider, readout, frame, keepTextSize, syncer } from "./common.js";

const DECAY_SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

// A base as the book writes it: 10⁴ for a power of ten, else with thin spaces.
function baseLabel(value) {
  const e = Math.log10(value);
  if (Math.abs(e - Math.round(e)) < 1e-9) return "10" + String(Math.round(e)).split("").map((c) => DECAY_SUPERSCRIPT[c]).join("");
  return Number(value).toLocaleString("en-US").replace(/,/g, "\u2009");
}

// Three significant digits (read-outs teach with three; data-value keeps every digit).
function sig3(value) {
  const v = Number(value);
  if (v === 0) return "0";
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString("en-US").replace(/,/g, "\u2009");
  return String(Number(v.toPrecision(3))).replace("-", "−");
}

function distanceAxes(svg, { left, right, top, bottom, width, height, px, py, xmax, yticks }) {
  for (const y of yticks) {
    svgEl("line", { x1: left, x2: width - right, y1: py(y), y2: py(y), class: "rope-w-axis", "data-y-tick": y }, svg);
    svgEl("text", { x: left - 4, y: py(y) + 4, "text-anchor": "end", class: "rope-w-muted-text" }, svg).textContent = sig3(y);
  }
  for (const [x, anchor] of [[0, "start"], [xmax / 4, "middle"], [xmax / 2, "middle"], [3 * xmax / 4, "middle"], [xmax, "end"]]) {
    svgEl("line", { x1: px(x), x2: px(x), y1: height - bottom, y2: height - bottom + 4, class: "rope-w-axis", "data-x-tick": x }, svg);
    svgEl("text", { x: px(x), y: height - bottom + 15, class: "rope-w-muted-text", "text-anchor": anchor }, svg).textContent = String(Math.round(x));
  }
  svgEl("text", { x: left + (width - left - right) / 2, y: height - 4, "text-anchor": "middle" }, svg).textContent = "relative distance r = n − m (tokens)";
}

function render({ model, el }) {
  const data = model.get("data");
  const width = 440, height = 300, left = 40, right = 10, top = 12, bottom = 40;
  const { root, svg, controls } = frame(el, { title: "Decay bound and actual scores against distance", width, height });
  svg.classList.add("rope-w-large");
  const state = { b: model.get("base_index"), r: model.get("distance_index") };
  const out = {};
  const xmax = data.distances[data.distances.length - 1];
  const px = (x) => left + (width - left - right) * x / xmax;
  const py = (y) => top + (height - top - bottom) * (1 - (y + 1) / 2);  // y in [-1, 1]
  const geometry = { left, right, top, bottom, width, height, px, py, xmax, yticks: [-1, -0.5, 0, 0.5, 1] };
  const names = [["bound", "rope-w-accent", "bound B(r) / B(0)"], ["aligned", "rope-w-q", "aligned q = k"], ["random", "rope-w-k", "random q, k"]];

  // Small multiples: the bound for every base, one panel each on the same axes, the chosen base framed.
  const fw = 210, fh = 140, fl = 30, fr = 8, ft = 22, fb = 22;
  const section = htmlEl("div", { class: "rope-w-family" }, root);
  htmlEl("div", { class: "rope-w-title", style: "margin: 8px 0 4px" }, section, "The bound B(r) / B(0) for every base at once, read at the distance r chosen above");
  const grid = htmlEl("div", { class: "rope-w-multiples", "data-plot": "family" }, section);
  const fpx = (x) => fl + (fw - fl - fr) * x / xmax;
  const fpy = (y) => ft + (fh - ft - fb) * (1 - y);  // y in [0, 1]
  const panels = data.bases.map((base) => svgEl("svg", { viewBox: `0 0 ${fw} ${fh}`, role: "img", class: "rope-w-svg rope-w-multiple",
    "aria-label": `decay bound against distance for base ${baseLabel(base)}` }, grid));
  panels.forEach(keepTextSize);

  // Static parts (axes, the curves of the family) are drawn once; a redraw moves the marks.
  const parts = { panels: [] };
  function drawFamily() {
    const r = data.distances[state.r];
    data.series.forEach((series, b) => {
      const panel = panels[b];
      if (!parts.panels[b]) {
        for (const y of [0, 0.5, 1]) {
          svgEl("line", { x1: fl, x2: fw - fr, y1: fpy(y), y2: fpy(y), class: "rope-w-axis" }, panel);
          svgEl("text", { x: fl - 3, y: fpy(y) + 4, "text-anchor": "end", class: "rope-w-muted-text" }, panel).textContent = sig3(y);
        }
        for (const [x, anchor] of [[0, "start"], [xmax, "end"]]) {
          svgEl("text", { x: fpx(x), y: fh - 6, "text-anchor": anchor, class: "rope-w-muted-text" }, panel).textContent = `r = ${x}`;
        }
        const points = series.bound.map((v, i) => `${fpx(data.distances[i]).toFixed(1)},${fpy(v).toFixed(1)}`).join(" ");
        const last = series.bound[series.bound.length - 1];
        parts.panels[b] = {
          curve: svgEl("polyline", { points, class: "rope-w-line", style: "stroke: var(--rope-w-accent)", "data-base": data.bases[b], "data-end": last }, panel),
          line: svgEl("line", { y1: ft, y2: fh - fb, class: "rope-w-context", "stroke-dasharray": "3 3" }, panel),
          dot: svgEl("circle", { r: 3.2, style: "fill: var(--rope-w-fg)" }, panel),
          title: svgEl("text", { x: fl, y: 14, "data-base": data.bases[b] }, panel),
        };
      }
      const part = parts.panels[b], chosen = b === state.b;
      panel.toggleAttribute("data-chosen", chosen);
      part.curve.style.strokeWidth = chosen ? 2 : 1.3;
      for (const [k, v] of [["x1", fpx(r)], ["x2", fpx(r)]]) part.line.setAttribute(k, v);
      part.dot.setAttribute("cx", fpx(r));
      part.dot.setAttribute("cy", fpy(series.bound[state.r]));
      part.title.setAttribute("font-weight", chosen ? 600 : 400);
      part.title.textContent = `base ${baseLabel(data.bases[b])} · ${sig3(series.bound[state.r])}`;
      part.title.dataset.value = series.bound[state.r];
    });
  }

  function draw() {
    const series = data.series[state.b];
    if (!parts.axes) {
      parts.axes = svgEl("g", {}, svg);
      distanceAxes(parts.axes, geometry);
      parts.curves = svgEl("g", {}, svg);
      parts.marks = svgEl("g", {}, svg);
    }
    if (parts.base !== state.b) {
      parts.base = state.b;
      parts.curves.replaceChildren();
      names.forEach(([key, colourVar]) => {
        const points = series[key].map((v, i) => `${px(data.distances[i])},${py(v)}`).join(" ");
        svgEl("polyline", { points, class: "rope-w-line", style: `stroke: var(--${colourVar})`, "data-series": key }, parts.curves);
      });
    }
    const x = px(data.distances[state.r]);
    parts.marks.replaceChildren();
    svgEl("line", { x1: x, x2: x, y1: top, y2: height - bottom, class: "rope-w-context", "stroke-dasharray": "4 3" }, parts.marks);
    for (const [key, colourVar] of names) {
      svgEl("circle", { cx: x, cy: py(series[key][state.r]), r: 3.5, style: `fill: var(--${colourVar})` }, parts.marks);
    }
    out.distance.textContent = String(data.distances[state.r]);
    out.distance.dataset.value = data.distances[state.r];
    for (const [key] of names) {
      out[key].textContent = sig3(series[key][state.r]);
      out[key].dataset.value = series[key][state.r];
    }
    drawFamily();
  }
  const sync = syncer(model, state, draw);
  slider(controls, { label: "base", name: "base", values: data.bases, index: state.b, format: baseLabel, onInput: sync("b", "base_index") });
  slider(controls, { label: "distance r", name: "distance", values: data.distances, index: state.r, onInput: sync("r", "distance_index") });
  const legend = htmlEl("div", { class: "rope-w-legend" }, controls);
  for (const [, colourVar, label] of names) {
    const item = htmlEl("span", { class: "rope-w-legend-item" }, legend);
    htmlEl("span", { class: "rope-w-swatch", style: `background: var(--${colourVar})` }, item);
    item.append(label);
  }
  out.distance = readout(controls, "distance", "at distance r =");
  out.bound = readout(controls, "bound", "B(r) / B(0):");
  out.aligned = readout(controls, "aligned", "aligned cosine:");
  out.random = readout(controls, "random", "random cosine:");
  draw();
}
export default { render };
