function render({ model, el }) {
  const data = model.get("data");
  const width = 460, height = 250;
  const { svg, controls } = frame(el, { title: "Which features rotate together?", width, height });
  const state = { d: model.get("dim_index"), p: model.get("pair") };
  const out = {};
  let pairSlider;
  function row(y, label, dim, pairOf, highlight) {
    const cell = (width - 100) / dim;
    svgEl("text", { x: 4, y: y + cell / 2 + 4 }, svg).textContent = label;
    const centres = [];
    for (let j = 0; j < dim; j++) {
      const x = 96 + j * cell;
      const on = highlight.includes(j);
      svgEl("rect", { x, y, width: cell - 3, height: 26, rx: 3, class: "rope-w-axis",
        style: on ? "fill: var(--rope-w-q); fill-opacity: 0.35" : "fill: none", "data-feature": j, "data-highlight": on ? "1" : "0" }, svg);
      svgEl("text", { x: x + cell / 2 - 7, y: y + 17 }, svg).textContent = String(j);
      centres.push(x + cell / 2 - 1);
    }
    return centres;
  }
  function draw() {
    const dim = data.dims[state.d], tab = data.tables[state.d];
    state.p = Math.min(state.p, dim / 2 - 1);
    svg.replaceChildren();
    const inter = tab.interleaved_pairs[state.p], half = tab.half_pairs[state.p];
    const top = row(20, "interleaved", dim, tab.interleaved_pairs, inter);
    const bottom = row(190, "half", dim, tab.half_pairs, half);
    // Lines: interleaved feature perm[j] lands at position j of the half layout.
    tab.interleaved_to_half.forEach((source, target) => {
      const on = inter.includes(source);
      svgEl("line", { x1: top[source], y1: 48, x2: bottom[target], y2: 188, class: "rope-w-axis",
        style: on ? "stroke: var(--rope-w-q); stroke-width: 2.5" : "" }, svg);
    });
    svgEl("text", { x: 96, y: 118, class: "rope-w-muted-text" }, svg).textContent = "permutation [0, 2, 4, …, 1, 3, 5, …]";
    out.pairs.textContent = `interleaved (${inter[0]}, ${inter[1]}) ↔ half (${half[0]}, ${half[1]})`;
    out.pairs.dataset.interleaved = inter.join(",");
    out.pairs.dataset.half = half.join(",");
    out.theta.textContent = `θ_${state.p} = ${Number(tab.theta[state.p]).toExponential(4)}`;
    out.perm.textContent = `[${tab.interleaved_to_half.join(", ")}]`;
    if (pairSlider) pairSlider.input.max = dim / 2 - 1;
  }
  const sync = syncer(model, state, draw);
  slider(controls, { label: "dimension d", name: "dim", values: data.dims, index: state.d, onInput: sync("d", "dim_index") });
  const pairs = Array.from({ length: Math.max(...data.dims) / 2 }, (_, i) => i);
  pairSlider = slider(controls, { label: "pair i", name: "pair", values: pairs, index: state.p, onInput: sync("p", "pair") });
  out.pairs = readout(controls, "pairs", "pair i:");
  out.theta = readout(controls, "theta", "frequency:");
  out.perm = readout(controls, "perm", "interleaved → half:");
  draw();
}
export default { render };
