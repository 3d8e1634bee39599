function render({ model, el }) {
  const data = model.get("data");
  const size = 340;
  const { svg, controls } = frame(el, { title: "The block-diagonal matrix R(d, m)", width: size, height: size });
  const state = { d: model.get("dim_index"), b: model.get("base_index"), m: model.get("position"), p: model.get("pair") };
  const out = {};
  let pairSlider = null;
  // Colour scale: blue for -1, white for 0, orange for +1 (values come from Python).
  const colour = (v) => {
    const t = Math.max(-1, Math.min(1, v));
    const mix = (a, b) => Math.round(a + (b - a) * Math.abs(t));
    return t >= 0 ? `rgb(${mix(255, 213)},${mix(255, 94)},${mix(255, 0)})` : `rgb(${mix(255, 0)},${mix(255, 114)},${mix(255, 178)})`;
  };
  function draw() {
    const dim = data.dims[state.d], tab = data.tables[state.d][state.b];
    const cell = (size - 20) / dim, values = tab.blocks[state.m];
    state.p = Math.min(state.p, dim / 2 - 1);
    svg.replaceChildren();
    // The zeros outside the blocks get the colour of 0 (white), like zeros inside them.
    svgEl("rect", { x: 10, y: 10, width: cell * dim, height: cell * dim, style: `fill: ${colour(0)}; stroke: var(--rope-w-grid)` }, svg);
    for (let e = 0; e < values.length; e++) {
      const r = tab.rows[e], c = tab.cols[e];
      const rect = svgEl("rect", { x: 10 + c * cell, y: 10 + r * cell, width: cell, height: cell, fill: colour(values[e]),
        "data-row": r, "data-col": c, "data-value": values[e] }, svg);
      if (Math.floor(r / 2) === state.p) rect.setAttribute("stroke", "currentColor");
    }
    const base = 4 * state.p;
    out.block.textContent = `[[${fmt(values[base], 4)}, ${fmt(values[base + 1], 4)}], [${fmt(values[base + 2], 4)}, ${fmt(values[base + 3], 4)}]]`;
    out.block.dataset.cos = values[base];
    out.theta.textContent = `θ_${state.p} = ${Number(tab.theta[state.p]).toExponential(4)}`;
    if (pairSlider) pairSlider.input.max = dim / 2 - 1;
  }
  const sync = syncer(model, state, draw);
  slider(controls, { label: "position m", name: "position", values: data.positions, index: state.m, onInput: sync("m", "position") });
  slider(controls, { label: "dimension d", name: "dim", values: data.dims, index: state.d, onInput: sync("d", "dim_index") });
  slider(controls, { label: "base", name: "base", values: data.bases, index: state.b, format: (v) => Number(v).toExponential(0), onInput: sync("b", "base_index") });
  const pairs = Array.from({ length: Math.max(...data.dims) / 2 }, (_, i) => i);
  pairSlider = slider(controls, { label: "highlight pair i", name: "pair", values: pairs, index: state.p, onInput: sync("p", "pair") });
  out.block = readout(controls, "block", "block R(mθ_i) =");
  out.theta = readout(controls, "theta", "");
  draw();
}
export default { render };
