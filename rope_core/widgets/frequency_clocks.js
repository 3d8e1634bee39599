function render({ model, el }) {
  const { svg, controls } = frame(el, { title: "Every pair is a clock hand turning at θ_i", width: 400, height: 400 });
  const state = {
    d: model.get("dim_index"), b: model.get("base_index"),
    c: model.get("context_index"), m: model.get("position"),
  };
  const out = {};
  let data = model.get("data");
  function draw() {
    const tab = data.tables[state.d][state.b];
    const pairs = tab.theta.length;
    const cols = Math.ceil(Math.sqrt(pairs)), rows = Math.ceil(pairs / cols);
    const cell = Math.min(400 / cols, 380 / rows), radius = cell * 0.36;
    svg.replaceChildren();
    let beyond = 0;
    for (let i = 0; i < pairs; i++) {
      const cx = (i % cols + 0.5) * cell, cy = (Math.floor(i / cols) + 0.5) * cell;
      const far = tab.beyond_context[state.c][i];
      if (far) beyond++;
      svgEl("circle", { cx, cy, r: radius, class: "rope-w-axis", "stroke-dasharray": far ? "3 3" : "none" }, svg);
      const angle = tab.angle[state.m][i];
      // Angles are counter-clockwise from 3 o'clock, as in the rotation explorer.
      arrow(svg, cx, cy, cx + radius * Math.cos(angle), cy - radius * Math.sin(angle), far ? "k" : "q");
      svgEl("text", { x: cx - radius, y: cy + radius + 11, class: "rope-w-muted-text" }, svg).textContent = `i=${i}`;
    }
    out.summary.textContent = `${pairs} pairs; ${beyond} with wavelength > ${data.contexts[state.c]} (dashed)`;
    out.fastest.textContent = `θ_0 = ${fmt(tab.theta[0], 6)}, angle ${fmt(tab.angle[state.m][0], 6)} rad`;
    out.slowest.textContent = `θ_${pairs - 1} = ${tab.theta[pairs - 1].toExponential(4)}, λ = ${Number(tab.wavelength[pairs - 1]).toExponential(3)}`;
    out.fastest.dataset.angle = tab.angle[state.m][0];
  }
  const sync = syncer(model, state, draw);
  function build() {
    controls.replaceChildren();
    state.d = Math.min(state.d, data.dims.length - 1);
    state.b = Math.min(state.b, data.bases.length - 1);
    slider(controls, { label: "position m", name: "position", values: data.positions, index: state.m, onInput: sync("m", "position") });
    slider(controls, { label: "base", name: "base", values: data.bases, index: state.b, format: (v) => Number(v).toExponential(0), onInput: sync("b", "base_index") });
    slider(controls, { label: "dimension d", name: "dim", values: data.dims, index: state.d, onInput: sync("d", "dim_index") });
    slider(controls, { label: "context length", name: "context", values: data.contexts, index: state.c, onInput: sync("c", "context_index") });
    out.summary = readout(controls, "summary", "");
    out.fastest = readout(controls, "fastest", "fastest:");
    out.slowest = readout(controls, "slowest", "slowest:");
    draw();
  }
  // With a kernel, new dims or bases arrive as a new table: rebuild the controls.
  model.on("change:data", () => { data = model.get("data"); build(); });
  build();
}
export default { render };
