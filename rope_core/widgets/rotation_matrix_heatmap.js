import { svgEl, htmlEl, slider, readout, fmt3, typeset, hoverable, colourScale, frame, syncer } from "./common.js";

function render({ model, el }) {
  const data = model.get("data");
  const size = 360, left = 34, top = 44, span = 270;
  const { svg, controls } = frame(el, { title: "The block-diagonal matrix R^{d}_{Θ,m}", width: size, height: size + 34 });
  const state = { d: model.get("dim_index"), b: model.get("base_index"), m: model.get("position"), p: model.get("pair") };
  const out = {};
  let pairSlider = null;
  // Diverging scale mixed into the page's own background, so 0 is the background in light and
  // dark mode alike: blue (q colour) for −1, orange (k colour) for +1.
  const colour = (v) => {
    const t = Math.max(-1, Math.min(1, v));
    const share = Math.round(Math.abs(t) * 1000) / 10;
    return `color-mix(in srgb, var(${t >= 0 ? "--rope-w-k" : "--rope-w-q"}) ${share}%, var(--rope-w-bg))`;
  };
  function showCell(tab, values, e) {
    const r = tab.rows[e], c = tab.cols[e], i = Math.floor(r / 2);
    const angle = tab.angle[state.m][i];
    const what = (r % 2 === c % 2) ? "cos" : (r % 2 === 0 ? "−sin" : "sin");
    out.hover.textContent = "";
    typeset(htmlEl("span", {}, out.hover), `row ${r}, column ${c}: ${what}(m·θ_${i}) = ${fmt3(values[e])}; `);
    typeset(htmlEl("span", {}, out.hover), `m·θ_${i} = ${fmt3(angle)} rad, λ_${i} = ${fmt3(tab.wavelength[i])}`);
    Object.assign(out.hover.dataset, { row: r, col: c, pair: i, value: values[e], angle, wavelength: tab.wavelength[i] });
    hoverBox.setAttribute("x", left + 2 * i * (span / data.dims[state.d]));
    hoverBox.setAttribute("y", top + 2 * i * (span / data.dims[state.d]));
    hoverBox.setAttribute("visibility", "visible");
    hoverBox.dataset.pair = i;
  }
  let hoverBox = null;
  // What the last full drawing was for (d, b): a new position or pair only recolours the cells
  // and moves the pair's outline, in place (the per-slider redraw budget is 4 ms).
  let drawn = null;
  function hide() {
    out.hover.textContent = "hover or focus a cell for its numbers";
    for (const key of Object.keys(out.hover.dataset)) if (key !== "readout") delete out.hover.dataset[key];
    if (hoverBox) { hoverBox.setAttribute("visibility", "hidden"); delete hoverBox.dataset.pair; }
  }
  function draw() {
    const dim = data.dims[state.d], tab = data.tables[state.d][state.b];
    if (pairSlider) state.p = pairSlider.setCount(dim / 2);
    const cell = span / dim, values = tab.blocks[state.m];
    if (!drawn || drawn.tab !== tab) drawn = drawMatrix(dim, tab, cell);
    drawn.values = values;
    drawn.marks.forEach((rect, e) => {
      rect.setAttribute("style", `fill: ${colour(values[e])}`);
      rect.setAttribute("data-value", values[e]);
      rect.setAttribute("aria-label", `row ${tab.rows[e]}, column ${tab.cols[e]}: ${fmt3(values[e])}`);
    });
    const p = state.p;
    for (const [key, value] of Object.entries({ x: left + 2 * p * cell, y: top + 2 * p * cell, "data-pair": p })) drawn.selected.setAttribute(key, value);
    // Tab enters the matrix at the highlighted pair's first cell.
    drawn.marks.forEach((rect, e) => rect.setAttribute("tabindex", e === 4 * p ? "0" : "-1"));
    const base = 4 * p;
    out.block.textContent = `[[${fmt3(values[base])}, ${fmt3(values[base + 1])}], [${fmt3(values[base + 2])}, ${fmt3(values[base + 3])}]]`;
    Object.assign(out.block.dataset, { cos: values[base], sin: values[base + 2], pair: p, angle: tab.angle[state.m][p] });
    typeset(out.theta, `θ_${p} = ${fmt3(tab.theta[p])}, m·θ_${p} = ${fmt3(tab.angle[state.m][p])} rad, λ_${p} = ${fmt3(tab.wavelength[p])}`);
    Object.assign(out.theta.dataset, { theta: tab.theta[p], wavelength: tab.wavelength[p] });
    hide();
  }
  // Everything that does not change with m or the pair: the cells (coloured by draw()), the
  // ticks, the outlines and the colour scale.
  function drawMatrix(dim, tab, cell) {
    svg.replaceChildren();
    // Zeros outside the blocks: the background colour, inside an outline (>= 3:1).
    svgEl("rect", { x: left, y: top, width: span, height: span, style: `fill: ${colour(0)}`, class: "rope-w-outline" }, svg);
    const marks = [];
    for (let e = 0; e < tab.rows.length; e++) {
      const r = tab.rows[e], c = tab.cols[e];
      marks.push(svgEl("rect", { x: left + c * cell, y: top + r * cell, width: cell, height: cell, "data-row": r, "data-col": c }, svg));
    }
    // Tick labels: every column and row while they fit, else every other / every fourth.
    const every = dim <= 8 ? 1 : dim <= 16 ? 2 : 4;
    for (let j = 0; j < dim; j += every) {
      svgEl("text", { x: left + (j + 0.5) * cell, y: top - 6, "text-anchor": "middle", class: "rope-w-muted-text", "data-tick-x": j }, svg).textContent = String(j);
      svgEl("text", { x: left - 5, y: top + (j + 0.5) * cell + 4, "text-anchor": "end", class: "rope-w-muted-text", "data-tick-y": j }, svg).textContent = String(j);
    }
    svgEl("text", { x: left + span / 2, y: 14, "text-anchor": "middle", class: "rope-w-muted-text" }, svg).textContent = "rows and columns: feature index";
    const selected = svgEl("rect", { width: 2 * cell, height: 2 * cell, class: "rope-w-selected" }, svg);
    hoverBox = svgEl("rect", { x: left, y: top, width: 2 * cell, height: 2 * cell, class: "rope-w-hovered", visibility: "hidden" }, svg);
    colourScale(svg, { x: left, y: top + span + 14, width: 180, colour, ticks: [-1, 0, 1], label: "entry value" });
    const result = { tab, marks, selected, values: null };
    // Hover reads the entries of the moment, not the ones the cells were drawn with.
    hoverable(marks, { columns: 2, onShow: (e) => showCell(tab, result.values, e), onHide: hide });
    return result;
  }
  const sync = syncer(model, state, draw);
  slider(controls, { label: "position m", name: "position", values: data.positions, index: state.m, onInput: sync("m", "position") });
  slider(controls, { label: "dimension d", name: "dim", values: data.dims, index: state.d, onInput: sync("d", "dim_index") });
  slider(controls, { label: "base", name: "base", values: data.bases, index: state.b, format: fmt3, onInput: sync("b", "base_index") });
  const pairs = Array.from({ length: Math.max(...data.dims) / 2 }, (_, i) => i);
  pairSlider = slider(controls, { label: "highlight pair i", name: "pair", values: pairs, index: state.p, onInput: sync("p", "pair") });
  out.block = readout(controls, "block", "block R(m·θ_i) =");
  out.theta = readout(controls, "theta", "");
  out.hover = readout(controls, "hover", "");
  out.hover.parentElement.classList.add("rope-w-hover");
  out.hover.setAttribute("aria-live", "polite");
  draw();
}
export default { render };
