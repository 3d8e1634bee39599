import { svgEl, htmlEl, slider, readout, fmt3, typeset, player, hoverable, frame, arrow, moveArrow, syncer } from "./common.js";

function render({ model, el }) {
  const { svg, controls } = frame(el, { title: "Every pair is a clock hand turning at θ_i", width: 400, height: 570 });
  const state = {
    d: model.get("dim_index"), b: model.get("base_index"),
    c: model.get("context_index"), m: model.get("position"),
  };
  const out = {};
  let data = model.get("data"), positionSlider = null;
  // What the last full drawing was for: a new position only turns the hands and moves the m
  // line; a new base or context restyles the same marks; only a new d (another number of
  // pairs) draws afresh (the per-slider redraw budget is 4 ms).
  let drawn = null;
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
    if (!drawn || drawn.clocks.length !== pairs) drawn = drawClocks(pairs);
    if (drawn.tab !== tab || drawn.c !== state.c) restyle(tab);
    drawn.m = m;
    let beyond = 0;
    drawn.clocks.forEach(({ group, hand: pointer, cx, cy, radius }, i) => {
      const far = tab.beyond_context[state.c][i];
      if (far) beyond++;
      const angle = hand(m, tab.theta[i]);
      group.setAttribute("data-angle", angle);
      group.setAttribute("aria-label", `pair ${i}: angle ${fmt3(angle)} rad${far ? ", does not complete a turn within the context" : ""}`);
      // Angles are counter-clockwise from 3 o'clock, as in the rotation explorer.
      moveArrow(pointer, cx, cy, cx + radius * Math.cos(angle), cy - radius * Math.sin(angle));
    });
    drawPositionLine(m);
    typeset(out.summary, `${pairs} pairs at m = ${m}; ${beyond} with λ_i > L = ${data.contexts[state.c]} (dashed: not one turn within the context)`);
    Object.assign(out.summary.dataset, { pairs, beyond, context: data.contexts[state.c], position: m });
    const last = pairs - 1, slowAngle = m * tab.theta[last];
    typeset(out.fastest, `θ_0 = ${fmt3(tab.theta[0])}, m·θ_0 = ${fmt3(m * tab.theta[0])} rad (${fmt3(m * tab.theta[0] / TAU)} turns)`);
    typeset(out.slowest, `θ_${last} = ${fmt3(tab.theta[last])}, m·θ_${last} = ${fmt3(slowAngle)} rad (${fmt3(slowAngle / TAU)} turns), λ_${last} = ${fmt3(tab.wavelength[last])}`);
    Object.assign(out.fastest.dataset, { angle: hand(m, tab.theta[0]), theta: tab.theta[0] });
    Object.assign(out.slowest.dataset, { angle: slowAngle, turns: slowAngle / TAU, theta: tab.theta[last], wavelength: tab.wavelength[last] });
    hide();
  }
  // Everything that depends only on the number of pairs: the clock faces (hands pointing
  // anywhere until draw() turns them) and the wavelength view's bars and axis; restyle() then
  // dresses them for a table and a context.
  function drawClocks(pairs) {
    const cols = Math.ceil(Math.sqrt(pairs)), rows = Math.ceil(pairs / cols);
    const cell = Math.min(400 / cols, 380 / rows), radius = cell * 0.34;
    svg.replaceChildren();
    const clocks = [];
    for (let i = 0; i < pairs; i++) {
      const cx = (i % cols + 0.5) * cell, cy = (Math.floor(i / cols) + 0.45) * cell;
      const group = svgEl("g", { "data-pair": i }, svg);
      svgEl("circle", { cx, cy, r: radius + 4, class: "rope-w-clock-hit" }, group);
      const face = svgEl("circle", { cx, cy, r: radius, class: "rope-w-meaning" }, group);
      const pointer = arrow(group, cx, cy, cx + radius, cy, "q");
      typeset(svgEl("text", { x: cx, y: cy + radius + 14, "text-anchor": "middle", class: "rope-w-muted-text" }, group), cell > 60 ? `θ_${i}` : `${i}`);
      clocks.push({ group, face, hand: pointer, cx, cy, radius });
    }
    const result = { tab: null, c: null, m: null, clocks };
    // Hover reads the table and position of the moment, not those the faces were drawn for.
    hoverable(clocks.map((clock) => clock.group), { columns: cols, onShow: (i) => showPair(result.tab, result.m, i), onHide: hide });
    Object.assign(result, drawWavelengths(pairs, result));
    return result;
  }
  // The second view: every pair's wavelength λ_i on a log axis, against the context L and the
  // position m (a hand whose bar rises above m has not yet made one turn). Linked by hover.
  function drawWavelengths(pairs, current) {
    const left = 46, right = 370, top = 412, bottom = 530, lmax = 7;
    const py = (l) => bottom - (Math.max(0, Math.min(lmax, l)) / lmax) * (bottom - top);
    const width = (right - left) / pairs;
    svgEl("line", { x1: left, y1: bottom, x2: right, y2: bottom, class: "rope-w-outline", "data-line": "baseline" }, svg);
    for (const k of [1, 3, 5, 7]) {
      svgEl("line", { x1: left - 4, y1: py(k), x2: left, y2: py(k), class: "rope-w-outline", "data-tick-line": k }, svg);
      typeset(svgEl("text", { x: left - 6, y: py(k) + 4, "text-anchor": "end", class: "rope-w-muted-text", "data-tick-y": k }, svg), `10^${k}`);
    }
    const bars = [];
    for (let i = 0; i < pairs; i++) {
      bars.push(svgEl("rect", { x: left + i * width + 1, width: Math.max(1, width - 2), "data-bar": i }, svg));
    }
    const bar = (rect, i, tab) => {
      const l = Math.log10(tab.wavelength[i]), far = tab.beyond_context[state.c][i];
      for (const [key, value] of Object.entries({ y: py(l), height: bottom - py(l),
        class: far ? "rope-w-bar rope-w-bar-far" : "rope-w-bar", "data-log10-wavelength": l,
        "aria-label": `pair ${i}: wavelength ${fmt3(tab.wavelength[i])} tokens` })) rect.setAttribute(key, value);
    };
    const every = pairs <= 8 ? 1 : pairs <= 16 ? 3 : 5;
    for (let i = 0; i < pairs; i += every) {
      svgEl("text", { x: left + (i + 0.5) * width, y: bottom + 15, "text-anchor": "middle", class: "rope-w-muted-text", "data-tick-x": i }, svg).textContent = String(i);
    }
    typeset(svgEl("text", { x: left, y: bottom + 32, class: "rope-w-muted-text" }, svg), "pair i; bars: λ_i (log); lines: L, m");
    const contextLine = svgEl("line", { x1: left, x2: right, class: "rope-w-context", "data-line": "context" }, svg);
    const contextLabel = svgEl("text", { x: right + 4, "data-label": "context" }, svg);
    contextLabel.textContent = "L";
    const positionAxis = { left, right, py, yContext: null };
    const placeContext = () => {
      const y = py(Math.log10(data.contexts[state.c]));
      positionAxis.yContext = y;
      contextLine.setAttribute("y1", y);
      contextLine.setAttribute("y2", y);
      contextLabel.setAttribute("y", y + 4);
    };
    hoverable(bars, { columns: pairs, onShow: (i) => showPair(current.tab, current.m, i), onHide: hide });
    const positionLayer = svgEl("g", { "data-layer": "position" }, svg);
    // A table and a context (a new base or context keeps the same bars and lines).
    const redrawBars = (newTab) => { bars.forEach((rect, i) => bar(rect, i, newTab)); placeContext(); };
    return { positionLayer, positionAxis, redrawBars };
  }
  // What the table and the context decide: dashed faces and k-coloured hands for the pairs
  // that do not turn once within the context, bar heights, the L line.
  function restyle(tab) {
    drawn.clocks.forEach(({ group, face, hand: pointer }, i) => {
      const far = tab.beyond_context[state.c][i];
      group.setAttribute("data-beyond", far ? "1" : "0");
      face.setAttribute("stroke-dasharray", far ? "4 3" : "none");
      pointer.setAttribute("class", far ? "k" : "q");
    });
    drawn.redrawBars(tab);
    Object.assign(drawn, { tab, c: state.c });
  }
  function drawPositionLine(m) {
    const { left, right, py, yContext } = drawn.positionAxis;
    drawn.positionLayer.replaceChildren();
    if (m < 1) return;
    const y = py(Math.log10(m));
    svgEl("line", { x1: left, y1: y, x2: right, y2: y, class: "rope-w-position-line", "data-line": "position" }, drawn.positionLayer);
    const apart = Math.abs(y - yContext) < 15 ? (y >= yContext ? 15 : -15) : 0;
    typeset(svgEl("text", { x: right + 4, y: (apart ? yContext + apart : y) + 4, "data-label": "position", class: "rope-w-position-text" }, drawn.positionLayer), "m");
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
