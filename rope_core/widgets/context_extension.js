// Context extension: every pair's wavelength under five schemes at one factor (with the chosen
// scheme's bands), the chosen scheme at every factor (small multiples on one axis), and a real
// model's spectrum. Hovering or focusing a pair on any plot shows its numbers and marks the same
// pair on the others. Every number comes from Python (rope_core.demos.context); this only draws.
import { svgEl, htmlEl, slider, readout, fmt, frame, keepTextSize, arrow, syncer } from "./common.js";

const SCHEME_COLOURS = ["var(--rope-w-muted)", "var(--rope-w-q)", "var(--rope-w-k)", "var(--rope-w-rot)", "var(--rope-w-accent)"];
const BAND_NAMES = ["kept", "blended", "scaled"];
const BAND_COLOURS = ["var(--rope-w-q)", "var(--rope-w-accent)", "var(--rope-w-k)"];
const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

// 10 to an integer power, typeset: 10⁴.
function pow10(n) {
  return "10" + String(n).split("").map((c) => SUPERSCRIPT[c]).join("");
}

// Thousands separated by a thin space, as the book writes them.
function count(value) {
  return Number(value).toLocaleString("en-US").replace(/,/g, "\u2009");
}

// Three significant digits; whole numbers from 1000 on, with thin spaces.
function num(value) {
  const v = Number(value);
  if (v === 0 || !Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1000) return count(Math.round(v));
  if (Math.abs(v) < 1e-3) return v.toExponential(2).replace(/e([+-]\d+)/, (_, e) => `×${pow10(Number(e))}`);
  return String(Number(v.toPrecision(3)));
}

// The chosen scheme's band of a pair, by shape (the colours name the schemes): kept ○,
// blended ◆, scaled ●, in the text colour.
function bandMark(parent, x, y, band, attrs = {}) {
  const style = band === 0 ? "fill: var(--rope-w-bg); stroke: var(--rope-w-fg); stroke-width: 1.3" : "fill: var(--rope-w-fg)";
  if (band === 1) {
    return svgEl("rect", { x: x - 2.8, y: y - 2.8, width: 5.6, height: 5.6, transform: `rotate(45 ${x} ${y})`, style, ...attrs }, parent);
  }
  return svgEl("circle", { cx: x, cy: y, r: band === 0 ? 2.8 : 3, style, ...attrs }, parent);
}

// Log-scale y axis (decades) and a linear pair axis with tick labels.
function pairAxes(svg, { left, right, top, bottom, width, height, ymin, ymax, pairs, px, py }) {
  for (let y = ymin; y <= ymax; y++) {
    svgEl("line", { x1: left, x2: width - right, y1: py(y), y2: py(y), class: "rope-w-axis", "data-y-tick": y }, svg);
    svgEl("text", { x: left - 4, y: py(y) + 4, "text-anchor": "end", class: "rope-w-muted-text" }, svg).textContent = pow10(y);
  }
  const step = pairs > 40 ? 16 : pairs > 16 ? 8 : pairs > 8 ? 4 : 1;
  const ticks = [];
  for (let i = 0; i < pairs - step / 2; i += step) ticks.push(i);
  ticks.push(pairs - 1);
  for (const i of ticks) {
    svgEl("line", { x1: px(i), x2: px(i), y1: height - bottom, y2: height - bottom + 4, class: "rope-w-axis", "data-x-tick": i }, svg);
    svgEl("text", { x: px(i), y: height - bottom + 15, "text-anchor": "middle", class: "rope-w-muted-text", "data-tick": i }, svg).textContent = String(i);
  }
  svgEl("text", { x: left + (width - left - right) / 2, y: height - 4, "text-anchor": "middle" }, svg).textContent = "pair index i";
  const label = svgEl("text", { x: 12, y: top + (height - top - bottom) / 2, "text-anchor": "middle",
    transform: `rotate(-90 12 ${top + (height - top - bottom) / 2})` }, svg);
  label.textContent = "wavelength λᵢ (tokens)";
}

// `name` tells the lines apart (data-line on the line, data-label on its label).
function hline(svg, geometry, log10value, label, dash, anchorX, name) {
  const { left, right, width } = geometry;
  const line = svgEl("line", { x1: left, x2: width - right, class: "rope-w-context", "stroke-dasharray": dash, "data-line": name }, svg);
  // A halo of the background keeps the label legible where a curve passes behind it.
  const text = svgEl("text", { class: "rope-w-muted-text rope-w-halo", "data-label": name }, svg);
  return moveHline({ line, text }, geometry, log10value, label, anchorX);
}

// Places a line made by hline() (a redraw that changes only where it is and what it says).
function moveHline({ line, text }, { py }, log10value, label, anchorX) {
  line.setAttribute("y1", py(log10value));
  line.setAttribute("y2", py(log10value));
  text.setAttribute("x", anchorX);
  text.setAttribute("y", py(log10value) - 4);
  setText(text, label);
  return { line, text };
}

// Text that did not change is left alone: rewriting it costs a layout pass all the same.
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// Transparent columns, one per pair, that report hover and touch; the SVG itself takes the
// keyboard (one tab stop; ← → move the pair, Home/End jump).
function pairTargets(svg, { px, top, height, bottom, pairs }, onPair, getPair) {
  const stepX = pairs > 1 ? px(1) - px(0) : 20;
  const group = svgEl("g", { class: "rope-w-targets" }, svg);
  for (let i = 0; i < pairs; i++) {
    const r = svgEl("rect", { x: px(i) - stepX / 2, y: top, width: stepX, height: height - top - bottom,
      fill: "transparent", "data-target": i }, group);
    r.addEventListener("pointerenter", () => onPair(i));
    r.addEventListener("pointerdown", () => onPair(i));
  }
  return group;
}

function keyboardPairs(svg, pairsOf, onPair, getPair) {
  svg.setAttribute("tabindex", "0");
  svg.addEventListener("keydown", (event) => {
    const n = pairsOf(), i = getPair();
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, ArrowUp: i + 1, ArrowDown: i - 1, Home: 0, End: n - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    onPair(Math.max(0, Math.min(n - 1, next)));
  });
}

function render({ model, el }) {
  const data = model.get("data");
  const width = 440, height = 320, left = 50, right = 10, top = 12, bottom = 40;
  const { root, svg, controls } = frame(el, { title: "Stretch the context: wavelength λᵢ of every pair", width, height });
  svg.classList.add("rope-w-large");
  svg.setAttribute("aria-label", "wavelength of every pair under five context-extension schemes; arrow keys pick a pair");
  const pairs = data.theta.length;
  const state = { f: model.get("factor_index"), p: model.get("position_index"), s: model.get("scheme_index"), pair: pairs - 1 };
  const views = [];  // every plot that marks the chosen pair: {mark(i)}
  const setPair = (i) => { state.pair = i; for (const v of views) v.mark(i); };
  // The y range covers every method and factor (values computed in Python).
  let ymin = Infinity, ymax = -Infinity;
  for (const perMethod of data.per_factor) for (const m of data.methods) for (const v of perMethod[m].log10_wavelength) { ymin = Math.min(ymin, v); ymax = Math.max(ymax, v); }
  ymin = Math.floor(ymin); ymax = Math.ceil(ymax);
  const px = (i) => left + (width - left - right) * i / (pairs - 1);
  const py = (v) => top + (height - top - bottom) * (1 - (v - ymin) / (ymax - ymin));
  const geometry = { left, right, top, bottom, width, height, ymin, ymax, pairs, px, py };
  const out = {};
  let mark = null;

  // Static layers are drawn once; a redraw touches only what the changed control changes.
  const layers = {};
  function draw() {
    const perMethod = data.per_factor[state.f];
    const position = data.positions[state.p];
    if (!layers.axes) {
      layers.position = svgEl("g", {}, svg);  // under the L label's halo when the two lines are close
      layers.axes = svgEl("g", {}, svg);
      pairAxes(layers.axes, geometry);
      hline(layers.axes, geometry, Math.log10(data.training_length), `L = ${count(data.training_length)}`, "6 4", left + 6, "training");
      layers.curves = svgEl("g", {}, svg);
      layers.bands = svgEl("g", {}, svg);
      mark = svgEl("g", { class: "rope-w-mark", "pointer-events": "none" }, svg);
      pairTargets(svg, geometry, setPair);
    }
    // A pair whose wavelength exceeds the read-out position has not completed a turn by then.
    // The p label sits at the left, where every curve is still low (at the right it sat on the
    // curves); beside the L label when the two lines are close. Moved in place when it is there.
    const nearL = Math.abs(Math.log10(position / data.training_length)) < 0.45;
    const log10p = Math.log10(position), pLabel = `p = ${count(position)}`, pAnchor = left + (nearL ? 100 : 6);
    if (log10p > ymax) {
      layers.position.replaceChildren();
      layers.pLine = null;
    } else if (layers.pLine) {
      moveHline(layers.pLine, geometry, log10p, pLabel, pAnchor);
    } else {
      layers.pLine = hline(layers.position, geometry, log10p, pLabel, "2 3", pAnchor, "position");
    }
    const key = `${state.f} ${state.s}`;
    if (layers.key !== key) {
      layers.key = key;
      layers.curves.replaceChildren();
      data.methods.forEach((method, j) => {
        const values = perMethod[method].log10_wavelength;
        const points = values.map((v, i) => `${px(i)},${py(v)}`).join(" ");
        svgEl("polyline", { points, class: "rope-w-line", style: `stroke: ${SCHEME_COLOURS[j]}; stroke-width: ${j === state.s ? 2.6 : 1.6}`,
          "data-method": method }, layers.curves);
      });
      // The chosen scheme's bands: kept, blended, scaled by the largest ratio.
      const chosen = perMethod[data.methods[state.s]];
      layers.bands.replaceChildren();
      chosen.log10_wavelength.forEach((v, i) => bandMark(layers.bands, px(i), py(v), chosen.band[i], { "data-pair": i, "data-band": data.bands[chosen.band[i]] }));
      legend();
      family.draw();
    }
    markPair(state.pair);
    fillTable(perMethod);
    setText(out.caption, `At position p = ${count(position)}: turns of the slowest pair (in training it reached ${num(data.slowest_turns_in_training)}), `
      + `and how many of the ${data.slow_pairs} slow pairs (less than one turn in L = ${count(data.training_length)}) turn further than in training (⚠), with the worst ratio.`);
  }

  // The table: rows built once, cells refilled.
  function fillTable(perMethod) {
    if (!out.cells) {
      out.cells = data.methods.map((method, j) => {
        const row = htmlEl("tr", {}, out.table);
        const name = htmlEl("td", {}, row);
        htmlEl("span", { class: "rope-w-swatch", style: `background: ${SCHEME_COLOURS[j]}` }, name);
        name.append(data.labels[j]);
        const cell = (field) => htmlEl("td", { "data-method": method, "data-field": field }, row);
        return { row, factor: cell("attention_factor"), turns: cell("slowest_turns"), beyond: cell("beyond") };
      });
    }
    data.methods.forEach((method, j) => {
      const entry = perMethod[method], cells = out.cells[j];
      cells.row.toggleAttribute("data-chosen", j === state.s);
      setText(cells.factor, num(entry.attention_factor));
      cells.factor.dataset.value = entry.attention_factor;
      setText(cells.turns, num(entry.slowest_turns[state.p]));
      cells.turns.dataset.value = entry.slowest_turns[state.p];
      // Every slow pair, counted in Python: how many turn further than in training, and by how much.
      const n = entry.beyond_count[state.p], worst = entry.worst_ratio[state.p];
      setText(cells.beyond, n === 0 ? `none of ${data.slow_pairs}` : `⚠ ${n} of ${data.slow_pairs}, worst ${num(worst)}×`);
      cells.beyond.dataset.count = n;
      cells.beyond.dataset.worst = worst;
    });
  }

  // Legend of the schemes (the chosen one bold), the chosen scheme's bands and the two lines.
  function legend() {
    out.legend.replaceChildren();
    data.labels.forEach((label, j) => {
      const item = htmlEl("span", { class: "rope-w-legend-item", "data-method": data.methods[j] }, out.legend);
      htmlEl("span", { class: "rope-w-swatch", style: `background: ${SCHEME_COLOURS[j]}` }, item);
      item.append(label);
      if (j === state.s) item.style.fontWeight = "600";
    });
    const chosen = data.per_factor[state.f][data.methods[state.s]];
    [0, 1, 2].filter((b) => chosen.band.includes(b)).forEach((b) => {
      const item = htmlEl("span", { class: "rope-w-legend-item", "data-band": data.bands[b] }, out.legend);
      bandMark(svgEl("svg", { width: 12, height: 12, viewBox: "0 0 12 12", "aria-hidden": "true" }, item), 6, 6, b);
      item.append(`${data.labels[state.s]}: ${data.bands[b]}`);
    });
    for (const [dash, label] of [["6 4", "training length L"], ["2 3", "read-out position p"]]) {
      const item = htmlEl("span", { class: "rope-w-legend-item" }, out.legend);
      const s = svgEl("svg", { width: 22, height: 8, "aria-hidden": "true" }, item);
      svgEl("line", { x1: 0, x2: 22, y1: 4, y2: 4, style: "stroke: var(--rope-w-fg); stroke-width: 1.2", "stroke-dasharray": dash }, s);
      item.append(label);
    }
  }

  // The read-out's lines: the first is a label; lines are rewritten only where they changed.
  function pairLines(lines) {
    const shown = out.pair.children;
    if (shown.length !== lines.length) {
      out.pair.replaceChildren();
      lines.forEach((text, k) => htmlEl("div", k === 0 ? { class: "rope-w-readout-label" } : {}, out.pair, text));
    } else {
      lines.forEach((text, k) => setText(shown[k], text));
    }
  }
  // The chosen pair: a column on the plot and its numbers (all from Python).
  function markPair(i) {
    if (!mark) return;
    if (i >= pairs) {
      mark.replaceChildren();
      pairLines([`pair i = ${i}: the example head has ${pairs} pairs (d = ${data.dim}).`]);
      Object.assign(out.pair.dataset, { pair: i, method: "", theta: "", wavelength: "", turns: "", band: "", ratio: "" });
      return;
    }
    const perMethod = data.per_factor[state.f];
    const method = data.methods[state.s];
    const entry = perMethod[method];
    if (mark.children.length !== 2) {
      mark.replaceChildren();
      svgEl("line", { y1: top, y2: height - bottom, class: "rope-w-context", "stroke-dasharray": "1 2" }, mark);
      svgEl("circle", { r: 5.5, fill: "none", style: "stroke: var(--rope-w-fg); stroke-width: 1.6" }, mark);
    }
    const [column, ring] = mark.children;
    column.setAttribute("x1", px(i));
    column.setAttribute("x2", px(i));
    ring.setAttribute("cx", px(i));
    ring.setAttribute("cy", py(entry.log10_wavelength[i]));
    const position = data.positions[state.p];
    const wavelength = 10 ** entry.log10_wavelength[i];
    const ratio = position * entry.reach_per_token[i];
    const turns = data.turns_in_training[i];
    const band = data.bands[entry.band[i]];
    pairLines([
      `pair i = ${i} under ${data.labels[state.s]}, s = ${data.factors[state.f]}`,
      `θᵢ = ${num(data.theta[i])} rad/token; λᵢ = ${num(wavelength)} tokens (${band})`,
      `${num(turns)} turns in training (L = ${count(data.training_length)})${data.slow.includes(i) ? ": slow" : ""}`,
      // reach_per_token carries 7 significant digits: a pair brought back to 1x must not read as past it.
      `at p = ${count(position)}: ${num(ratio)}× its largest trained angle${ratio > 1 + 1e-6 && turns < 1 ? " ⚠" : ""}`,
    ]);
    Object.assign(out.pair.dataset, { pair: i, method, factor: data.factors[state.f], position, theta: data.theta[i],
      wavelength, turns, band, ratio });
  }
  views.push({ mark: markPair });

  // Small multiples on one axis: the chosen scheme at every factor, the current one bold.
  const family = (() => {
    const fw = 440, fh = 260, fl = 50, fr = 86, ft = 12, fb = 40;
    const section = htmlEl("div", { class: "rope-w-family" }, root);
    const title = htmlEl("div", { class: "rope-w-title", style: "width: 100%; margin: 8px 0 0" }, section);
    const fsvg = svgEl("svg", { viewBox: `0 0 ${fw} ${fh}`, width: fw, height: fh, role: "img", class: "rope-w-svg rope-w-large",
      "data-plot": "family" }, section);
    keepTextSize(fsvg);
    const fpx = (i) => fl + (fw - fl - fr) * i / (pairs - 1);
    const fpy = (v) => ft + (fh - ft - fb) * (1 - (v - ymin) / (ymax - ymin));
    const g = { left: fl, right: fr, top: ft, bottom: fb, width: fw, height: fh, ymin, ymax, pairs, px: fpx, py: fpy };
    let fmark = null, layer = null;
    const markFamily = (i) => {
      if (!fmark) return;
      fmark.replaceChildren();
      if (i >= pairs) return;
      svgEl("line", { x1: fpx(i), x2: fpx(i), y1: ft, y2: fh - fb, class: "rope-w-context", "stroke-dasharray": "1 2" }, fmark);
      data.per_factor.forEach((perMethod) => {
        const v = perMethod[data.methods[state.s]].log10_wavelength[i];
        svgEl("circle", { cx: fpx(i), cy: fpy(v), r: 3, style: "fill: var(--rope-w-fg)" }, fmark);
      });
    };
    views.push({ mark: markFamily });
    return {
      draw() {
        const method = data.methods[state.s];
        title.textContent = `${data.labels[state.s]} at every scale factor s (the chosen s bold)`;
        fsvg.setAttribute("aria-label", `wavelength of every pair under ${data.labels[state.s]} for s = ${data.factors.join(", ")}`);
        if (!layer) {
          pairAxes(fsvg, g);
          hline(fsvg, g, Math.log10(data.training_length), `L = ${count(data.training_length)}`, "6 4", fl + 6, "training");
          layer = svgEl("g", {}, fsvg);
          fmark = svgEl("g", { class: "rope-w-mark", "pointer-events": "none" }, fsvg);
          pairTargets(fsvg, g, setPair);
        }
        layer.replaceChildren();
        // End labels, merged where curves end within 12 px of each other (e.g. no scaling: one curve).
        const ends = [];
        data.per_factor.forEach((perMethod, f) => {
          const values = perMethod[method].log10_wavelength;
          const points = values.map((v, i) => `${fpx(i).toFixed(1)},${fpy(v).toFixed(1)}`).join(" ");
          const last = values[values.length - 1];
          svgEl("polyline", { points, class: "rope-w-line", style: `stroke: ${SCHEME_COLOURS[state.s]}; stroke-width: ${f === state.f ? 3 : 1.2}`,
            "data-factor": data.factors[f], "data-end": last }, layer);
          ends.push({ y: fpy(last), s: data.factors[f] });
        });
        ends.sort((a, b) => a.y - b.y);
        const groups = [];
        for (const e of ends) {
          const lastGroup = groups[groups.length - 1];
          if (lastGroup && e.y - lastGroup.y < 12) lastGroup.s.push(e.s); else groups.push({ y: e.y, s: [e.s] });
        }
        for (const grp of groups) {
          svgEl("text", { x: fw - fr + 4, y: grp.y + 4, class: "rope-w-muted-text" }, layer).textContent =
            `s = ${grp.s.sort((a, b) => a - b).join(", ")}`;
        }
        markFamily(state.pair);
      },
      svg: fsvg,
    };
  })();
  keyboardPairs(svg, () => pairs, setPair, () => state.pair);
  keyboardPairs(family.svg, () => pairs, setPair, () => state.pair);

  const sync = syncer(model, state, draw);
  slider(controls, { label: "scale factor s", name: "factor", values: data.factors, index: state.f, onInput: sync("f", "factor_index") });
  slider(controls, { label: "position p", name: "position", values: data.positions, index: state.p, format: count, onInput: sync("p", "position_index") });
  const pick = htmlEl("div", { class: "rope-w-control rope-w-select" }, controls);
  const id = `rope-w-scheme-${Math.random().toString(36).slice(2, 9)}`;
  htmlEl("label", { for: id }, pick, "scheme");
  const select = htmlEl("select", { id, "data-name": "scheme" }, pick);
  data.labels.forEach((label, j) => htmlEl("option", { value: j }, select, label));
  select.selectedIndex = state.s;
  select.addEventListener("keydown", (event) => event.stopPropagation());
  const onScheme = sync("s", "scheme_index");
  select.addEventListener("change", () => onScheme(select.selectedIndex));
  onScheme.follow({ input: { get value() { return select.selectedIndex; } }, set: (i) => { select.selectedIndex = i; onScheme(i); } });
  out.pair = htmlEl("div", { class: "rope-w-readout", "data-readout": "pair", "aria-live": "polite" }, controls);
  out.legend = htmlEl("div", { class: "rope-w-legend" }, controls);
  const tableEl = htmlEl("table", { class: "rope-w-table" }, controls);
  const head = htmlEl("tr", {}, htmlEl("thead", {}, tableEl));
  for (const h of ["scheme", "attention factor", "slowest pair, turns at p", "slow pairs beyond training"]) htmlEl("th", {}, head, h);
  out.table = htmlEl("tbody", {}, tableEl);
  out.caption = htmlEl("div", { class: "rope-w-readout-label" }, controls, "");
  draw();
  if (data.models && data.models.length) renderModels(model, data, state, root, views, setPair);
}

// The model menu: one real model's spectrum (every pair's wavelength as the model ships it,
// and as trained when scaling changed it) against its training and extended context.
// Every number, band and mark comes from Python (rope_core.atlas.specs); this only draws.
function renderModels(model, data, state, root, views, setPair) {
  const section = htmlEl("div", { class: "rope-w-section" }, root);
  htmlEl("div", { class: "rope-w-title" }, section, "A real model: wavelength λᵢ of every pair against its context");
  const pick = htmlEl("div", { class: "rope-w-control rope-w-select" }, section);
  const id = `rope-w-model-${Math.random().toString(36).slice(2, 9)}`;
  htmlEl("label", { for: id }, pick, "model");
  const select = htmlEl("select", { id, "data-name": "model" }, pick);
  data.models.forEach((entry, i) => htmlEl("option", { value: i }, select, entry.label));
  state.m = model.get("model_index");
  select.selectedIndex = state.m;
  select.addEventListener("keydown", (event) => event.stopPropagation());
  const width = 440, height = 300, left = 50, right = 10, top = 12, bottom = 40;
  const body = htmlEl("div", { class: "rope-w-body" }, section);
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    class: "rope-w-svg rope-w-large", "aria-label": "wavelength of every pair of the chosen model; arrow keys pick a pair" }, body);
  keepTextSize(svg);
  const panel = htmlEl("div", { class: "rope-w-controls" }, body);
  const shown = htmlEl("div", { class: "rope-w-readout", "data-readout": "model", "aria-live": "polite" }, panel);
  const pairShown = htmlEl("div", { class: "rope-w-readout", "data-readout": "model-pair" }, panel);
  let mark = null, geometry = null;

  function markPair(i) {
    const m = data.models[state.m];
    if (!mark) return;
    mark.replaceChildren();
    pairShown.replaceChildren();
    const n = m.log10_wavelength.length;
    if (i >= n || m.log10_wavelength[i] === null) {
      htmlEl("div", { class: "rope-w-readout-label" }, pairShown, i >= n ? `${m.label} has ${n} pairs (no pair ${i}).` : `pair ${i} never turns (no RoPE on it).`);
      Object.assign(pairShown.dataset, { pair: i, wavelength: "", trained: "", band: "" });
      return;
    }
    const { px, py } = geometry;
    svgEl("line", { x1: px(i), x2: px(i), y1: top, y2: height - bottom, class: "rope-w-context", "stroke-dasharray": "1 2" }, mark);
    svgEl("circle", { cx: px(i), cy: py(m.log10_wavelength[i]), r: 5.5, fill: "none", style: "stroke: var(--rope-w-fg); stroke-width: 1.6" }, mark);
    const wavelength = 10 ** m.log10_wavelength[i];
    const trained = m.log10_wavelength_trained ? 10 ** m.log10_wavelength_trained[i] : wavelength;
    const band = BAND_NAMES[m.band[i]];
    htmlEl("div", { class: "rope-w-readout-label" }, pairShown, `pair i = ${i} of ${m.label}`);
    htmlEl("div", {}, pairShown, `λᵢ = ${num(wavelength)} tokens as shipped (${band})`
      + (m.log10_wavelength_trained ? `, ${num(trained)} as trained` : ""));
    htmlEl("div", {}, pairShown, m.slow.includes(i) ? "less than one turn in training (slow)" : "at least one turn in training");
    Object.assign(pairShown.dataset, { pair: i, wavelength, trained, band, slow: m.slow.includes(i) ? "1" : "0" });
  }
  views.push({ mark: markPair });

  function draw() {
    const m = data.models[state.m];
    const n = m.log10_wavelength.length;
    const lines = [m.training, m.context].filter((v) => v !== null && v !== undefined);
    const values = m.log10_wavelength.filter((v) => v !== null)
      .concat((m.log10_wavelength_trained || []).filter((v) => v !== null), lines.map(Math.log10));
    const ymin = Math.floor(Math.min(...values)), ymax = Math.max(Math.ceil(Math.max(...values)), ymin + 1);
    const px = (i) => left + (width - left - right) * (n > 1 ? i / (n - 1) : 0.5);
    const py = (v) => top + (height - top - bottom) * (1 - (v - ymin) / (ymax - ymin));
    geometry = { left, right, top, bottom, width, height, ymin, ymax, pairs: n, px, py };
    const step = (width - left - right) / Math.max(n - 1, 1);
    svg.replaceChildren();
    // Pairs that never complete a turn in training: shaded columns.
    for (const i of m.slow) {
      svgEl("rect", { x: px(i) - step / 2, y: top, width: step, height: height - top - bottom,
        class: "rope-w-slow", "data-pair": i }, svg);
    }
    pairAxes(svg, geometry);
    if (m.training !== null) hline(svg, geometry, Math.log10(m.training), `trained: ${count(m.training)}`, "6 4", left + 150, "trained");
    if (m.context !== null && m.context !== m.training) {
      hline(svg, geometry, Math.log10(m.context), `max positions: ${count(m.context)}`, "2 3", left + 150, "context");
    }
    const curve = (vals, cls) => {
      const points = [];
      vals.forEach((v, i) => { if (v !== null) points.push(`${px(i).toFixed(1)},${py(v).toFixed(1)}`); });
      return svgEl("polyline", { points: points.join(" "), class: cls }, svg);
    };
    if (m.log10_wavelength_trained) curve(m.log10_wavelength_trained, "rope-w-line rope-w-trained");
    curve(m.log10_wavelength, "rope-w-line rope-w-shipped");
    m.log10_wavelength.forEach((v, i) => {
      if (v === null) return;
      const dot = svgEl("circle", { cx: px(i), cy: py(v), r: n > 80 ? 1.8 : 2.6, style: `fill: ${BAND_COLOURS[m.band[i]]}`,
        "data-pair": i, "data-band": BAND_NAMES[m.band[i]] }, svg);
      svgEl("title", {}, dot).textContent = `pair ${i}: λ = ${count(Math.round(10 ** v))} tokens (${BAND_NAMES[m.band[i]]})`;
    });
    // Legend: the bands present, the unscaled curve, the shading.
    const legend = [];
    for (const b of [0, 1, 2]) if (m.band.includes(b)) legend.push([BAND_NAMES[b] === "scaled" ? `scaled ×${num(m.largest_ratio)}` : BAND_NAMES[b], BAND_COLOURS[b]]);
    legend.forEach(([label, colour], j) => {
      svgEl("circle", { cx: left + 12, cy: top + 8 + 15 * j, r: 4, style: `fill: ${colour}` }, svg);
      svgEl("text", { x: left + 20, y: top + 12 + 15 * j }, svg).textContent = label;
    });
    let row = legend.length;
    if (m.log10_wavelength_trained) {
      svgEl("line", { x1: left + 6, x2: left + 18, y1: top + 8 + 15 * row, y2: top + 8 + 15 * row, class: "rope-w-trained" }, svg);
      svgEl("text", { x: left + 20, y: top + 12 + 15 * row }, svg).textContent = "as trained";
      row += 1;
    }
    if (m.slow.length) {
      svgEl("rect", { x: left + 8, y: top + 3 + 15 * row, width: 8, height: 10, class: "rope-w-slow" }, svg);
      svgEl("text", { x: left + 20, y: top + 12 + 15 * row }, svg).textContent = "< 1 turn in training";
    }
    mark = svgEl("g", { class: "rope-w-mark", "pointer-events": "none" }, svg);
    pairTargets(svg, geometry, setPair);
    markPair(state.pair);

    shown.replaceChildren();
    const line = (text) => htmlEl("div", {}, shown, text);
    line(`${m.rope_type}, base ${count(m.base)}${m.factor ? `, factor ${m.factor}` : ""}; ${m.rotated_pairs} of ${m.pairs} pairs turn `
      + `(rotary ${m.rotary_dim} of head ${m.head_dim})`);
    line(m.training === null
      ? `The config gives no training length; max positions ${count(m.context)}.`
      : `Trained to ${count(m.training)} tokens; max positions ${count(m.context)}.`);
    line(`${m.slow.length} of ${m.rotated_pairs} pairs never complete a turn in ${m.training === null ? "max positions" : "training"} (shaded).`);
    if (m.beyond !== null) {
      line(m.beyond === 0
        ? `At ${count(m.context)} tokens no slow pair turns further than in training.`
        : `⚠ At ${count(m.context)} tokens ${m.beyond} of ${m.slow.length} slow pairs turn further than in training, worst ${fmt(m.worst, 2)}×.`);
    }
    Object.assign(shown.dataset, { name: m.name, layerType: m.layer_type ?? "", ropeType: m.rope_type, base: m.base,
      training: m.training ?? "", context: m.context ?? "", slow: m.slow.length, rotated: m.rotated_pairs,
      beyond: m.beyond ?? "", worst: m.worst ?? "",
      longest: Math.max(...m.log10_wavelength.filter((v) => v !== null)) });
  }
  keyboardPairs(svg, () => data.models[state.m].log10_wavelength.length, setPair, () => state.pair);
  select.addEventListener("change", () => {
    state.m = select.selectedIndex;
    model.set("model_index", state.m);
    model.save_changes();
    draw();
  });
  model.on("change:model_index", () => {
    const i = model.get("model_index");
    if (i !== state.m) { state.m = i; select.selectedIndex = i; draw(); }
  });
  draw();
}
export default { render };
