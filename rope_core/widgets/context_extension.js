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
  if (data.models && data.models.length) renderModels(model, data, state, frameRoot(el));
}

function frameRoot(el) {
  return el.querySelector(".rope-w");
}

// Thousands separated by a thin space, as the book writes them.
function count(value) {
  return Number(value).toLocaleString("en-US").replace(/,/g, "\u2009");
}

const BAND_NAMES = ["kept", "blended", "scaled"];
const BAND_COLOURS = ["var(--rope-w-q)", "var(--rope-w-accent)", "var(--rope-w-k)"];

// The model menu: one real model's spectrum (every pair's wavelength as the model ships it,
// and as trained when scaling changed it) against its training and extended context.
// Every number, band and mark comes from Python (rope_core.atlas.specs); this only draws.
function renderModels(model, data, state, root) {
  const section = htmlEl("div", { class: "rope-w-section" }, root);
  htmlEl("div", { class: "rope-w-title" }, section, "A real model: wavelength of every pair against its context");
  const pick = htmlEl("div", { class: "rope-w-control rope-w-select" }, section);
  const id = `rope-w-model-${Math.random().toString(36).slice(2, 9)}`;
  htmlEl("label", { for: id }, pick, "model");
  const select = htmlEl("select", { id, "data-name": "model" }, pick);
  data.models.forEach((entry, i) => htmlEl("option", { value: i }, select, entry.label));
  state.m = model.get("model_index");
  select.selectedIndex = state.m;
  select.addEventListener("keydown", (event) => event.stopPropagation());
  const width = 440, height = 300, left = 46, right = 10, top = 12, bottom = 40;
  const body = htmlEl("div", { class: "rope-w-body" }, section);
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    class: "rope-w-svg", "aria-label": "wavelength of every pair of the chosen model" }, body);
  const panel = htmlEl("div", { class: "rope-w-controls" }, body);
  const shown = htmlEl("div", { class: "rope-w-readout", "data-readout": "model", "aria-live": "polite" }, panel);

  function draw() {
    const m = data.models[state.m];
    const n = m.rotated_pairs;
    const lines = [m.training, m.context].filter((v) => v !== null && v !== undefined);
    const values = m.log10_wavelength.filter((v) => v !== null)
      .concat((m.log10_wavelength_trained || []).filter((v) => v !== null), lines.map(Math.log10));
    const ymin = Math.floor(Math.min(...values)), ymax = Math.max(Math.ceil(Math.max(...values)), ymin + 1);
    const px = (i) => left + (width - left - right) * (n > 1 ? i / (n - 1) : 0.5);
    const py = (v) => top + (height - top - bottom) * (1 - (v - ymin) / (ymax - ymin));
    const step = (width - left - right) / Math.max(n - 1, 1);
    svg.replaceChildren();
    // Pairs that never complete a turn in training: shaded columns.
    for (const i of m.slow) {
      svgEl("rect", { x: px(i) - step / 2, y: top, width: step, height: height - top - bottom,
        class: "rope-w-slow", "data-pair": i }, svg);
    }
    for (let y = ymin; y <= ymax; y++) {
      svgEl("line", { x1: left, x2: width - right, y1: py(y), y2: py(y), class: "rope-w-axis" }, svg);
      svgEl("text", { x: 2, y: py(y) + 4, class: "rope-w-muted-text" }, svg).textContent = `1e${y}`;
    }
    for (const i of [0, Math.round((n - 1) / 2), n - 1]) {
      svgEl("text", { x: px(i), y: height - bottom + 14, "text-anchor": "middle", class: "rope-w-muted-text" }, svg).textContent = String(i);
    }
    svgEl("text", { x: left + (width - left - right) / 2, y: height - 6, "text-anchor": "middle" }, svg)
      .textContent = "pair index i → wavelength λᵢ (tokens)";
    const hline = (value, label, dash) => {
      svgEl("line", { x1: left, x2: width - right, y1: py(Math.log10(value)), y2: py(Math.log10(value)),
        class: "rope-w-context", "stroke-dasharray": dash }, svg);
      svgEl("text", { x: left + 140, y: py(Math.log10(value)) - 4, class: "rope-w-muted-text" }, svg).textContent = label;
    };
    if (m.training !== null) hline(m.training, `trained: ${count(m.training)}`, "6 4");
    if (m.context !== null && m.context !== m.training) {
      hline(m.context, `max positions: ${count(m.context)}`, "2 3");
    }
    const curve = (values, cls) => {
      const points = [];
      values.forEach((v, i) => { if (v !== null) points.push(`${px(i).toFixed(1)},${py(v).toFixed(1)}`); });
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
    for (const b of [0, 1, 2]) if (m.band.includes(b)) legend.push([BAND_NAMES[b] === "scaled" ? `scaled ×${fmt(m.largest_ratio, 2)}` : BAND_NAMES[b], BAND_COLOURS[b]]);
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
