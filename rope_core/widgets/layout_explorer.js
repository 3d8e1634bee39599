import { svgEl, htmlEl, slider, readout, fmt3, typeset, hoverable, frame, syncer } from "./common.js";

function render({ model, el }) {
  const data = model.get("data");
  const width = 400, height = 290, x0 = 8, span = width - 16, rowTop = 34, rowBottom = 190, box = 28;
  const { svg, controls } = frame(el, { title: "Which features rotate together?", width, height });
  const state = { d: model.get("dim_index"), p: model.get("pair") };
  const out = {};
  let pairSlider = null, hovered = null;
  function row(y, label, dim, members, layout) {
    const cell = span / dim;
    // The top row's label above it, the bottom row's below it: away from the lines.
    const labelY = layout === "interleaved" ? y - 8 : y + box + 18;
    typeset(svgEl("text", { x: x0, y: labelY, class: "rope-w-muted-text" }, svg), label);
    // Label every feature while the numbers fit at 13 px on screen, else every other one.
    const scale = Number(svg.style.getPropertyValue("--rope-w-scale") || 1);
    const every = cell >= 13 * scale * 1.3 ? 1 : 2;
    const marks = [];
    for (let j = 0; j < dim; j++) {
      const x = x0 + j * cell, on = members.includes(j);
      const rect = svgEl("rect", { x: x + 1, y, width: cell - 3, height: box, rx: 3, class: "rope-w-outline",
        style: on ? "fill: var(--rope-w-q); fill-opacity: 0.35" : "fill: var(--rope-w-bg)",
        "data-feature": j, "data-layout": layout, "data-highlight": on ? "1" : "0", "aria-label": `${layout} feature ${j}` }, svg);
      marks.push(rect);
      if (j % every === 0) svgEl("text", { x: x + cell / 2 - 1, y: y + 19, "text-anchor": "middle", "pointer-events": "none" }, svg).textContent = String(j);
    }
    return marks;
  }
  function pairOf(layout, j, dim) {
    return layout === "interleaved" ? Math.floor(j / 2) : j % (dim / 2);
  }
  function showFeature(tab, dim, layout, j) {
    const i = pairOf(layout, j, dim);
    const inter = tab.interleaved_pairs[i], half = tab.half_pairs[i];
    hovered = i;
    out.hover.textContent = "";
    typeset(htmlEl("span", {}, out.hover), `${layout} feature ${j} is in pair ${i}: interleaved (${inter[0]}, ${inter[1]}) ↔ half (${half[0]}, ${half[1]}); θ_${i} = ${fmt3(tab.theta[i])}, λ_${i} = ${fmt3(tab.wavelength[i])}`);
    Object.assign(out.hover.dataset, { layout, feature: j, pair: i, interleaved: inter.join(","), half: half.join(","),
      theta: tab.theta[i], wavelength: tab.wavelength[i] });
    // The same pair in the other layout (and the lines between them).
    for (const rect of svg.querySelectorAll("rect[data-feature]")) {
      const same = pairOf(rect.dataset.layout, Number(rect.dataset.feature), dim) === i;
      rect.classList.toggle("rope-w-hover-mark", same);
    }
    for (const line of svg.querySelectorAll("line[data-source]")) {
      line.classList.toggle("rope-w-hover-line", Math.floor(Number(line.dataset.source) / 2) === i);
    }
  }
  function hide() {
    hovered = null;
    out.hover.textContent = "hover or focus a feature: its pair in both layouts";
    for (const key of Object.keys(out.hover.dataset)) if (key !== "readout") delete out.hover.dataset[key];
    for (const node of svg.querySelectorAll(".rope-w-hover-mark, .rope-w-hover-line")) {
      node.classList.remove("rope-w-hover-mark", "rope-w-hover-line");
    }
  }
  function draw() {
    const dim = data.dims[state.d], tab = data.tables[state.d];
    if (pairSlider) state.p = pairSlider.setCount(dim / 2);
    const cell = span / dim;
    svg.replaceChildren();
    const inter = tab.interleaved_pairs[state.p], half = tab.half_pairs[state.p];
    const centre = (j) => x0 + j * cell + cell / 2 - 1;
    // Lines first, under the boxes: half feature `target` is interleaved feature perm[target].
    tab.interleaved_to_half.forEach((source, target) => {
      const on = inter.includes(source);
      svgEl("line", { x1: centre(source), y1: rowTop + box, x2: centre(target), y2: rowBottom, class: on ? "rope-w-perm-on" : "rope-w-perm",
        "data-source": source, "data-target": target }, svg);
    });
    const top = row(rowTop, "interleaved: pair i = (2i, 2i+1)", dim, inter, "interleaved");
    const bottom = row(rowBottom, "half: pair i = (i, i + d/2)", dim, half, "half");
    svgEl("text", { x: x0, y: rowBottom + box + 40, class: "rope-w-muted-text" }, svg).textContent = "permutation: [0, 2, 4, …, 1, 3, 5, …]";
    hoverable([...top, ...bottom], { columns: dim, start: inter[0], onShow: (k) => showFeature(tab, dim, k < dim ? "interleaved" : "half", k % dim), onHide: hide });
    out.pairs.textContent = `interleaved (${inter[0]}, ${inter[1]}) ↔ half (${half[0]}, ${half[1]})`;
    out.pairs.dataset.interleaved = inter.join(",");
    out.pairs.dataset.half = half.join(",");
    out.pairs.dataset.pair = state.p;
    typeset(out.theta, `θ_${state.p} = ${fmt3(tab.theta[state.p])} rad per position, λ_${state.p} = ${fmt3(tab.wavelength[state.p])} tokens`);
    Object.assign(out.theta.dataset, { theta: tab.theta[state.p], wavelength: tab.wavelength[state.p] });
    out.perm.textContent = `[${tab.interleaved_to_half.join(", ")}]`;
    hide();
  }
  const sync = syncer(model, state, draw);
  slider(controls, { label: "dimension d", name: "dim", values: data.dims, index: state.d, onInput: sync("d", "dim_index") });
  const pairs = Array.from({ length: Math.max(...data.dims) / 2 }, (_, i) => i);
  pairSlider = slider(controls, { label: "pair i", name: "pair", values: pairs, index: state.p, onInput: sync("p", "pair") });
  out.pairs = readout(controls, "pairs", "pair i:");
  out.theta = readout(controls, "theta", "frequency:");
  out.perm = readout(controls, "perm", "interleaved → half:");
  out.hover = readout(controls, "hover", "");
  out.hover.parentElement.classList.add("rope-w-hover");
  out.hover.setAttribute("aria-live", "polite");
  draw();
  // The text scale is known once the drawing is on screen: redraw the labels for it.
  requestAnimationFrame(() => requestAnimationFrame(draw));
}
export default { render };
