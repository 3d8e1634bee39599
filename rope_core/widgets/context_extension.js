function render({ model, el }) {
  const data = model.get("data");
  const width = 440, height = 320, left = 46, right = 10, top = 12, bottom = 34;
  const { svg, controls } = frame(el, { title: "Stretch the context: wavelength of every pair", width, height });
  const state = { f: model.get("factor_index"), p: model.get("position_index") };
  const colours = ["var(--rope-w-muted)", "var(--rope-w-q)", "var(--rope-w-k)", "var(--rope-w-rot)", "var(--rope-w-accent)"];
  const out = {};
  const pairs = data.per_factor[0].default.log10_wavelength.length;
  // The y range covers every method and factor (values computed in Python).
  let ymin = Infinity, ymax = -Infinity;
  for (const perMethod of data.per_factor) for (const m of data.methods) for (const v of perMethod[m].log10_wavelength) { ymin = Math.min(ymin, v); ymax = Math.max(ymax, v); }
  ymin = Math.floor(ymin); ymax = Math.ceil(ymax);
  const px = (i) => left + (width - left - right) * i / (pairs - 1);
  const py = (v) => top + (height - top - bottom) * (1 - (v - ymin) / (ymax - ymin));
  function draw() {
    const perMethod = data.per_factor[state.f];
    svg.replaceChildren();
    for (let y = ymin; y <= ymax; y++) {
      svgEl("line", { x1: left, x2: width - right, y1: py(y), y2: py(y), class: "rope-w-axis" }, svg);
      svgEl("text", { x: 2, y: py(y) + 4, class: "rope-w-muted-text" }, svg).textContent = `1e${y}`;
    }
    const trained = Math.log10(data.training_length);
    svgEl("line", { x1: left, x2: width - right, y1: py(trained), y2: py(trained), class: "rope-w-axis", "stroke-dasharray": "5 4" }, svg);
    svgEl("text", { x: left + 4, y: py(trained) - 4, class: "rope-w-muted-text" }, svg).textContent = `L = ${data.training_length}`;
    svgEl("text", { x: width / 2 - 70, y: height - 4 }, svg).textContent = "pair index i → wavelength λ_i";
    data.methods.forEach((method, j) => {
      const values = perMethod[method].log10_wavelength;
      const points = values.map((v, i) => `${px(i).toFixed(1)},${py(v).toFixed(1)}`).join(" ");
      svgEl("polyline", { points, class: "rope-w-line", style: `stroke: ${colours[j]}`, "data-method": method }, svg);
      svgEl("rect", { x: left + 8, y: top + 6 + 15 * j, width: 10, height: 10, style: `fill: ${colours[j]}` }, svg);
      svgEl("text", { x: left + 22, y: top + 15 + 15 * j }, svg).textContent = data.labels[j];
    });
    const position = data.positions[state.p];
    // Mark the read-out position's wavelength scale: a pair whose wavelength exceeds it has
    // not completed a turn by then.
    if (Math.log10(position) <= ymax) {
      svgEl("line", { x1: left, x2: width - right, y1: py(Math.log10(position)), y2: py(Math.log10(position)),
        style: "stroke: var(--rope-w-warn); stroke-width: 1.2", "stroke-dasharray": "2 3" }, svg);
      svgEl("text", { x: width - right - 110, y: py(Math.log10(position)) - 4, class: "rope-w-muted-text" }, svg).textContent = `position ${position}`;
    }
    out.table.replaceChildren();
    data.methods.forEach((method, j) => {
      const row = htmlEl("tr", {}, out.table);
      const entry = perMethod[method];
      htmlEl("td", {}, row, data.labels[j]);
      htmlEl("td", { "data-method": method, "data-field": "attention_factor" }, row, fmt(entry.attention_factor, 4));
      const cell = htmlEl("td", { "data-method": method, "data-field": "slowest_turns" }, row,
        fmt(entry.slowest_turns[state.p], 4));
      cell.dataset.value = entry.slowest_turns[state.p];
      // Every slow pair, counted in Python: how many turn further than in training, and by how much.
      const count = entry.beyond_count[state.p], worst = entry.worst_ratio[state.p];
      const beyond = htmlEl("td", { "data-method": method, "data-field": "beyond" }, row,
        count === 0 ? `none of ${data.slow_pairs}` : `⚠ ${count} of ${data.slow_pairs}, worst ${fmt(worst, 2)}×`);
      beyond.dataset.count = count;
      beyond.dataset.worst = worst;
    });
    out.caption.textContent = `At position ${position}: turns of the slowest pair (in training it reached ${fmt(data.slowest_turns_in_training, 4)}), `
      + `and how many of the ${data.slow_pairs} slow pairs (less than one turn in L = ${data.training_length}) turn further than in training (⚠), with the worst ratio.`;
  }
  const sync = syncer(model, state, draw);
  slider(controls, { label: "scale factor s", name: "factor", values: data.factors, index: state.f, onInput: sync("f", "factor_index") });
  slider(controls, { label: "position", name: "position", values: data.positions, index: state.p, onInput: sync("p", "position_index") });
  const tableEl = htmlEl("table", { class: "rope-w-table" }, controls);
  const head = htmlEl("tr", {}, htmlEl("thead", {}, tableEl));
  for (const h of ["method", "attention factor", "slowest pair, turns", "slow pairs beyond training"]) htmlEl("th", {}, head, h);
  out.table = htmlEl("tbody", {}, tableEl);
  out.caption = htmlEl("div", { class: "rope-w-readout-label" }, controls, "");
  draw();
}
export default { render };
