// The wish as a picture: the score matrix S[m][n] of a candidate encoding f, constant along every
// diagonal n − m (Toeplitz) exactly when the score depends on n − m only. Every number is
// Python's (rope_core.demos.candidates); the page picks a table and draws it.
import { svgEl, htmlEl, slider, readout, fmt3, typeset, frame, keepTextSize, syncer, stepButtons, showTip, hideTip, setText, announcer, keepInReach } from "./common.js";
import { lesson, question } from "./lesson.js";

function render({ model, el }) {
  const data = model.get("data");
  const size = data.positions.length;
  const cell = Math.min(18, Math.floor(288 / size));
  const left = 40, top = 40, width = left + size * cell + 12, height = top + size * cell + 12;
  const { root, svg, controls } = frame(el, { title: "Is the score a function of n − m only?", width, height });
  lesson(root, "A score that depends on the positions only through n − m is the same all along each diagonal of the (m, n) matrix: every diagonal is one colour (a Toeplitz matrix). Pick a candidate f and look at its diagonals.");
  const say = announcer(root);
  const seen = new Set();   // the candidates the reader has looked at
  const state = { c: model.get("candidate_index"), p: model.get("part_index"), d: model.get("diagonal_index") };
  const out = {};
  svg.setAttribute("role", "group");

  // Axes: key position n across the top, query position m down the left.
  const x = (n) => left + n * cell, y = (m) => top + m * cell;
  for (const v of [0, size - 1]) {
    svgEl("text", { x: x(v) + cell / 2, y: top - 6, "text-anchor": "middle", class: "rope-w-muted-text" }, svg).textContent = String(v);
    svgEl("text", { x: left - 5, y: y(v) + cell / 2 + 4, "text-anchor": "end", class: "rope-w-muted-text" }, svg).textContent = String(v);
  }
  svgEl("text", { x: left + (size * cell) / 2, y: 14, "text-anchor": "middle", "data-axis": "x" }, svg).textContent = "key position n →";
  svgEl("text", { x: 0, y: 0, "text-anchor": "middle", "data-axis": "y", transform: `translate(14 ${top + (size * cell) / 2}) rotate(-90)` }, svg).textContent = "query position m →";
  const cellsLayer = svgEl("g", { "data-plot": "matrix" }, svg);
  const cells = data.positions.map((m) => data.positions.map((n) =>
    svgEl("rect", { x: x(n), y: y(m), width: cell, height: cell, "data-m": m, "data-n": n, class: "rope-w-cell" }, cellsLayer)));
  const outline = svgEl("polygon", { class: "rope-w-diagonal", "data-mark": "diagonal" }, svg);
  // Colour: q's colour for positive, k's for negative, opacity ∝ |value| (one scale for every candidate).
  const paint = (rect, v) => {
    rect.style.fill = v >= 0 ? "var(--rope-w-q)" : "var(--rope-w-k)";
    rect.style.fillOpacity = (Math.abs(v) / data.scale).toFixed(4);
  };

  // The chosen diagonal as a strip: the score against m along n − m = δ (flat when constant).
  const sw = 300, sh = 120, sl = 40, sr = 10, st = 26, sb = 24;
  const strip = svgEl("svg", { viewBox: `0 0 ${sw} ${sh}`, width: sw, height: sh, role: "img", class: "rope-w-svg", "data-plot": "strip",
    "aria-label": "the scores along the chosen diagonal against m" }, svg.parentNode);
  keepTextSize(strip);
  const column = htmlEl("div", { class: "rope-w-column" }, svg.parentNode);
  column.append(svg, strip);
  const spx = (m) => sl + (sw - sl - sr) * m / (size - 1);
  const spy = (v) => st + (sh - st - sb) * (1 - (v + data.scale) / (2 * data.scale));
  for (const v of [-data.scale, 0, data.scale]) {
    svgEl("line", { x1: sl, x2: sw - sr, y1: spy(v), y2: spy(v), class: "rope-w-axis" }, strip);
    svgEl("text", { x: sl - 4, y: spy(v) + 4, "text-anchor": "end", class: "rope-w-muted-text" }, strip).textContent = fmt3(v);
  }
  svgEl("text", { x: sl + (sw - sl - sr) / 2, y: sh - 6, "text-anchor": "middle", class: "rope-w-muted-text" }, strip).textContent = "m (along the diagonal)";
  const stripTitle = svgEl("text", { x: sl, y: 16, "data-strip-title": "" }, strip);
  const stripLine = svgEl("polyline", { class: "rope-w-line", style: "stroke: var(--rope-w-accent)", "data-strip": "diagonal" }, strip);
  const stripDots = svgEl("g", {}, strip);

  let painted = null;
  // One cell's numbers: its positions, its value in the part shown, the diagonal it lies on.
  let pointed = null;
  function showCell(m, n) {
    pointed = [m, n];
    const part = state.p === 0 ? "real" : "imag", v = data.tables[state.c][part][m][n];
    out.cell.textContent = `m = ${m}, n = ${n} (n − m = ${String(n - m).replace("-", "−")}): ${part === "real" ? "score" : "imaginary part"} ${fmt3(v)}`;
    Object.assign(out.cell.dataset, { m, n, value: v });
  }
  function hideCell() {
    pointed = null;
    hideTip(root);
    out.cell.textContent = "point at or tap a cell for its numbers";
    for (const k of ["m", "n", "value"]) delete out.cell.dataset[k];
  }
  function draw() {
    const tab = data.tables[state.c];
    if (pointed) showCell(...pointed);
    const part = state.p === 0 ? "real" : "imag";
    const matrix = tab[part], spreads = tab[`${part}_spread`];
    // The cells only when the matrix changed (a new diagonal keeps them).
    if (painted !== matrix) {
      painted = matrix;
      matrix.forEach((row, m) => row.forEach((v, n) => { paint(cells[m][n], v); cells[m][n].dataset.value = v; }));
    }
    // The outline around the cells with n − m = δ.
    const delta = data.offsets[state.d];
    const m0 = Math.max(0, -delta), m1 = Math.min(size - 1, size - 1 - delta);
    const pts = [[x(m0 + delta), y(m0)], [x(m0 + delta + 1), y(m0)], [x(m1 + delta + 1), y(m1 + 1)], [x(m1 + delta), y(m1 + 1)]];
    outline.setAttribute("points", pts.map((p) => p.join(",")).join(" "));
    outline.dataset.offset = delta;
    const along = [];
    for (let m = m0; m <= m1; m++) along.push([m, matrix[m][m + delta]]);
    stripLine.setAttribute("points", along.map(([m, v]) => `${spx(m).toFixed(2)},${spy(v).toFixed(2)}`).join(" "));
    // One dot per cell on the diagonal: the dots there are moved, the missing ones added.
    while (stripDots.children.length > along.length) stripDots.lastChild.remove();
    while (stripDots.children.length < along.length) svgEl("circle", { r: 3, style: "fill: var(--rope-w-accent)" }, stripDots);
    along.forEach(([m, v], k) => {
      const dot = stripDots.children[k];
      for (const [key, value] of [["cx", spx(m)], ["cy", spy(v)], ["data-m", m], ["data-value", v]]) dot.setAttribute(key, value);
    });
    setText(stripTitle, `${part === "real" ? "score" : "imaginary part"} along n − m = ${String(delta).replace("-", "−")}`);
    const spread = spreads[state.d];
    typeset(out.formula, data.formulas[state.c]);
    setText(out.diagonal, `from ${fmt3(Math.min(...along.map((a) => a[1])))} to ${fmt3(Math.max(...along.map((a) => a[1])))}: ${spread < 1e-6 ? "constant" : `spread ${fmt3(spread)}`}`);
    Object.assign(out.diagonal.dataset, { offset: delta, spread });
    let worst = 0;
    spreads.forEach((v, i) => { if (v > spreads[worst]) worst = i; });
    const toeplitz = spreads[worst] < 1e-6;
    setText(out.verdict, toeplitz
      ? `every diagonal is constant: Toeplitz, the ${part === "real" ? "score" : "imaginary part"} depends on n − m only`
      : `largest spread ${fmt3(spreads[worst])} (on n − m = ${String(data.offsets[worst]).replace("-", "−")}): not Toeplitz`);
    Object.assign(out.verdict.dataset, { toeplitz, worst: spreads[worst], offset: data.offsets[worst] });
    candidateButtons.forEach((b, i) => b.setAttribute("aria-checked", String(i === state.c)));
    partButtons.forEach((b, i) => b.setAttribute("aria-checked", String(i === state.p)));
    seen.add(state.c);
    if (ask.predicted()) say(`${data.names[state.c]}: ${out.verdict.textContent}`);
    ask.refresh();
  }

  // A row of choices (a radio group): click, Enter or Space picks one; arrow keys move along it.
  function choices(parent, label, names, trait, key) {
    const group = htmlEl("div", { class: "rope-w-answers", role: "radiogroup", "aria-label": label, "data-name": trait }, parent);
    const buttons = names.map((name, i) => {
      const b = htmlEl("button", { type: "button", role: "radio", class: "rope-w-answer rope-w-choice", "aria-checked": "false", "data-index": i }, group, name);
      b.addEventListener("click", () => pick(i));
      b.addEventListener("keydown", (event) => {
        const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
        event.stopPropagation();
        if (!step) return;
        event.preventDefault();
        const next = (i + step + names.length) % names.length;
        pick(next);
        buttons[next].focus();
      });
      return b;
    });
    function pick(i) {
      state[key] = i;
      model.set(trait, i);
      model.save_changes();
      draw();
    }
    model.on(`change:${trait}`, () => { if (model.get(trait) !== state[key]) { state[key] = model.get(trait); draw(); } });
    return buttons;
  }
  htmlEl("div", { class: "rope-w-readout-label" }, controls, "candidate f:");
  const candidateButtons = choices(controls, "candidate f", data.names, "candidate_index", "c");
  out.formula = readout(controls, "formula", "");
  out.setting = readout(controls, "setting", "");
  out.setting.textContent = `positions 0 … ${size - 1}, θ = ${data.theta}, q = ${fmt3(data.q[0])} + ${fmt3(data.q[1])}i, k = ${fmt3(data.k[0])} + ${fmt3(data.k[1])}i`;
  Object.assign(out.setting.dataset, { theta: data.theta, size });
  const partButtons = choices(controls, "part of the product", ["real part (the score)", "imaginary part"], "part_index", "p");
  const sync = syncer(model, state, draw);
  const diagonal = slider(controls, { label: "diagonal n − m", name: "diagonal", values: data.offsets, index: state.d,
    format: (v) => String(v).replace("-", "−"), onInput: sync("d", "diagonal_index") });
  stepButtons(diagonal, "diagonal n − m");
  keepInReach(diagonal);
  // Pointing at a cell (or tapping it) picks its diagonal and reads the cell out; on a phone
  // the read-out's words also appear in a bubble under the cell.
  const pointAt = (event) => {
    const target = event.target;
    if (!target.dataset || target.dataset.m === undefined) return;
    const m = Number(target.dataset.m), n = Number(target.dataset.n);
    const index = data.offsets.indexOf(n - m);
    if (index !== state.d) diagonal.set(index);
    showCell(m, n);
    showTip(target, out.cell);
  };
  cellsLayer.addEventListener("pointerover", pointAt);
  cellsLayer.addEventListener("pointerdown", pointAt);
  cellsLayer.addEventListener("pointerleave", (event) => { if (event.pointerType !== "touch") hideCell(); });
  out.cell = readout(controls, "cell", "cell:");
  out.cell.setAttribute("aria-live", "polite");
  out.diagonal = readout(controls, "diagonal", "on this diagonal:");
  out.verdict = readout(controls, "verdict", "the whole matrix:");
  hideCell();
  const ask = question(controls, {
    prompt: "Which candidates make every diagonal of the score one colour?",
    // The whole-matrix verdict would answer it for each candidate: hidden until the prediction,
    // and the question is answered once the reader has looked at every candidate.
    reached: () => seen.size === data.names.length,
    task: `pick each of the ${data.names.length} candidates f in turn and read the line “the whole matrix”.`,
    conceal: [out.verdict.parentNode],
    choices: [{ label: "only the rotation" }, { label: "rotation and no position" }, { label: "rotation, no position and parity", correct: true }],
    explain: () => {
      const worst = (i, part) => Math.max(...data.tables[i][`${part}_spread`]);
      const list = (part) => data.names.map((name, i) => `${name} ${fmt3(worst(i, part) < 1e-6 ? 0 : worst(i, part))}`).join(", ");
      return `Largest spread on a diagonal of the score: ${list("real")}. Parity passes this real wish; its imaginary part (the complex wish) does not: ${fmt3(worst(data.names.indexOf("parity"), "imag"))}.`;
    },
  });
  draw();
}
export default { render };
