function render({ model, el }) {
  const { svg, controls } = frame(el, { title: "Every pair is a clock hand turning at θ_i", width: 400, height: 400 });
  const state = {
    d: model.get("dim_index"), b: model.get("base_index"),
    c: model.get("context_index"), m: model.get("position"),
  };
  const out = {};
  let data = model.get("data"), positionSlider = null;
  const TAU = 2 * Math.PI;
  // The one computation on the page: pair i's hand at m·θ_i mod 2π (θ_i unrounded from
  // Python's clock_table; the browser tests check every shown angle against rope_core).
  const hand = (m, theta) => { const a = (m * theta) % TAU; return a < 0 ? a + TAU : a; };
  function showPair(tab, m, i) {
    const angle = m * tab.theta[i], shown = hand(m, tab.theta[i]);
    out.hover.textContent = "";
    typeset(htmlEl("span", {}, out.hover),
      `pair ${i}: θ_${i} = ${fmt3(tab.theta[i])}, m·θ_${i} = ${fmt3(angle)} rad (${fmt3(angle / TAU)} turns), λ_${i} = ${fmt3(tab.wavelength[i])}, cos = ${fmt3(Math.cos(angle))}, sin = ${fmt3(Math.sin(angle))}`);
    Object.assign(out.hover.dataset, { pair: i, theta: tab.theta[i], angle, hand: shown, wavelength: tab.wavelength[i],
      cos: Math.cos(angle), sin: Math.sin(angle), beyond: tab.beyond_context[state.c][i] ? "1" : "0" });
    for (const g of svg.querySelectorAll("g[data-pair]")) g.classList.toggle("rope-w-hover-clock", Number(g.dataset.pair) === i);
    for (const b of svg.querySelectorAll("rect[data-bar]")) b.classList.toggle("rope-w-hover-bar", Number(b.dataset.bar) === i);
  }
  function hide() {
    out.hover.textContent = "hover or focus a clock for its numbers";
    for (const key of Object.keys(out.hover.dataset)) if (key !== "readout") delete out.hover.dataset[key];
    for (const n of svg.querySelectorAll(".rope-w-hover-clock, .rope-w-hover-bar")) n.classList.remove("rope-w-hover-clock", "rope-w-hover-bar");
  }
  function draw() {
    const tab = data.tables[state.d][state.b], m = data.positions[state.m];
    const pairs = tab.theta.length;
    const cols = Math.ceil(Math.sqrt(pairs)), rows = Math.ceil(pairs / cols);
    const cell = Math.min(400 / cols, 380 / rows), radius = cell * 0.34;
    svg.replaceChildren();
    let beyond = 0;
    const marks = [];
    for (let i = 0; i < pairs; i++) {
      const cx = (i % cols + 0.5) * cell, cy = (Math.floor(i / cols) + 0.45) * cell;
      const far = tab.beyond_context[state.c][i];
      if (far) beyond++;
      const angle = hand(m, tab.theta[i]);
      const group = svgEl("g", { "data-pair": i, "data-angle": angle, "data-beyond": far ? "1" : "0",
        "aria-label": `pair ${i}: angle ${fmt3(angle)} rad${far ? ", does not complete a turn within the context" : ""}` }, svg);
      svgEl("circle", { cx, cy, r: radius + 4, class: "rope-w-clock-hit" }, group);
      svgEl("circle", { cx, cy, r: radius, class: "rope-w-meaning", "stroke-dasharray": far ? "4 3" : "none" }, group);
      // Angles are counter-clockwise from 3 o'clock, as in the rotation explorer.
      arrow(group, cx, cy, cx + radius * Math.cos(angle), cy - radius * Math.sin(angle), far ? "k" : "q");
      typeset(svgEl("text", { x: cx, y: cy + radius + 14, "text-anchor": "middle", class: "rope-w-muted-text" }, group), cell > 60 ? `θ_${i}` : `${i}`);
      marks.push(group);
    }
    hoverable(marks, { columns: cols, onShow: (i) => showPair(tab, m, i), onHide: hide });
    out.summary.textContent = `${pairs} pairs; ${beyond} with wavelength > ${data.contexts[state.c]} (dashed: not one turn within the context)`;
    Object.assign(out.summary.dataset, { pairs, beyond, context: data.contexts[state.c], position: m });
    const last = pairs - 1, slowAngle = m * tab.theta[last];
    typeset(out.fastest, `θ_0 = ${fmt3(tab.theta[0])}, m·θ_0 = ${fmt3(m * tab.theta[0])} rad (${fmt3(m * tab.theta[0] / TAU)} turns)`);
    typeset(out.slowest, `θ_${last} = ${fmt3(tab.theta[last])}, m·θ_${last} = ${fmt3(slowAngle)} rad (${fmt3(slowAngle / TAU)} turns), λ_${last} = ${fmt3(tab.wavelength[last])}`);
    Object.assign(out.fastest.dataset, { angle: hand(m, tab.theta[0]), theta: tab.theta[0] });
    Object.assign(out.slowest.dataset, { angle: slowAngle, turns: slowAngle / TAU, theta: tab.theta[last], wavelength: tab.wavelength[last] });
    hide();
  }
  const sync = syncer(model, state, draw);
  function build() {
    controls.replaceChildren();
    state.d = Math.min(state.d, data.dims.length - 1);
    state.b = Math.min(state.b, data.bases.length - 1);
    state.m = Math.min(state.m, data.positions.length - 1);
    positionSlider = slider(controls, { label: "position m", name: "position", values: data.positions, index: state.m, onInput: sync("m", "position") });
    player(controls, positionSlider, { label: "play position m" });
    slider(controls, { label: "base", name: "base", values: data.bases, index: state.b, format: fmt3, onInput: sync("b", "base_index") });
    slider(controls, { label: "dimension d", name: "dim", values: data.dims, index: state.d, onInput: sync("d", "dim_index") });
    slider(controls, { label: "context length", name: "context", values: data.contexts, index: state.c, onInput: sync("c", "context_index") });
    out.summary = readout(controls, "summary", "");
    out.fastest = readout(controls, "fastest", "fastest:");
    out.slowest = readout(controls, "slowest", "slowest:");
    out.hover = readout(controls, "hover", "");
    out.hover.parentElement.classList.add("rope-w-hover");
    out.hover.setAttribute("aria-live", "polite");
    draw();
  }
  // With a kernel, new dims or bases arrive as a new table: rebuild the controls.
  model.on("change:data", () => { data = model.get("data"); build(); });
  build();
}
export default { render };
