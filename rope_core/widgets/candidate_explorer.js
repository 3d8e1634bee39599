// The wish as a picture: the score matrix S[m][n] of a candidate encoding f, constant along every
// diagonal n − m (Toeplitz) exactly when the score depends on n − m only. Python sends each
// candidate's name and parameters (rope_core.demos.candidates); the page computes every matrix
// from the content (q, k) the reader drags, so the wish is asked of every content, not of a few.
// Every candidate's matrix is drawn small at once, and the reader taps those predicted to be one
// colour along every diagonal before any verdict shows; one of them is drawn large with a
// diagonal's strip. After the prediction the candidate shown gets its line of algebra.
import { svgEl, htmlEl, slider, readout, fmt3, typeset, frame, keepTextSize, syncer, stepButtons, showTip, hideTip, setText, announcer, keepInReach, arrow, moveArrow } from "./common.js";
import { clearOfHandles, dragHandle, handleStyles, polar, wrapDeg } from "./drag.js";
import { lesson, question } from "./lesson.js";

// a + bi, as the read-outs write numbers.
const complexText = ([re, im]) => `${fmt3(re)} ${im < 0 ? "−" : "+"} ${fmt3(Math.abs(im))}i`;

// Complex numbers as [re, im]: the product, the conjugate and e^{ia}.
const times = ([a, b], [c, d]) => [a * c - b * d, a * d + b * c];
const conj = ([a, b]) => [a, -b];
const turn = (angle) => [Math.cos(angle), Math.sin(angle)];

// f(x, m) of the candidate `name` for the complex x = [re, im] at position m, as
// rope_core.demos.candidates.encode computes it; `parameters` are its CANDIDATE_PARAMETERS.
export function encodeCandidate(name, x, m, theta, parameters) {
  switch (name) {
    case "rotation": return times(x, turn(m * theta));
    case "no position": return [x[0], x[1]];
    case "additive": {
      const [c, s] = turn(m * theta), h = parameters.additive_half;
      return [x[0] + h * (c - 1), x[1] + h * s];
    }
    case "growing": return times(x, turn(m * theta)).map((v) => v * parameters.growth ** m);
    case "quadratic": return times(x, turn((m * m * theta) / parameters.quadratic_divisor));
    case "by content": return times(x, turn(m * theta * Math.hypot(x[0], x[1])));
    case "parity": return m % 2 === 0 ? [x[0], x[1]] : conj(x);
    default: throw new Error(`name must be one of the candidates, got ${JSON.stringify(name)}`);
  }
}

// The spread (max − min) along each diagonal n − m = δ of a square matrix, δ = −(N−1) … N−1.
export function diagonalSpreads(matrix) {
  const size = matrix.length, spreads = [];
  for (let delta = -(size - 1); delta < size; delta++) {
    let lo = Infinity, hi = -Infinity;
    for (let m = Math.max(0, -delta); m < Math.min(size, size - delta); m++) {
      const v = matrix[m][m + delta];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    spreads.push(hi - lo);
  }
  return spreads;
}

// Every candidate's product f(q, m) conj(f(k, n)) over m, n = 0 … size − 1, as
// rope_core.demos.candidates.candidate_table gives it: per name, {real, imag} (rows m, columns
// n) and the spread along each diagonal of both.
export function candidateTables(names, q, k, theta, size, parameters) {
  return names.map((name) => {
    const fq = [], fk = [];
    for (let p = 0; p < size; p++) { fq.push(encodeCandidate(name, q, p, theta, parameters)); fk.push(conj(encodeCandidate(name, k, p, theta, parameters))); }
    const real = [], imag = [];
    for (let m = 0; m < size; m++) {
      const products = fk.map((b) => times(fq[m], b));
      real.push(products.map((v) => v[0]));
      imag.push(products.map((v) => v[1]));
    }
    return { real, imag, real_spread: diagonalSpreads(real), imag_spread: diagonalSpreads(imag) };
  });
}

function render({ model, el }) {
  const data = model.get("data");
  const size = data.positions.length;
  const cell = Math.min(18, Math.floor(288 / size));
  const left = 40, top = 40, width = left + size * cell + 12, height = top + size * cell + 12;
  const { root, svg, controls } = frame(el, { title: "Is the score a function of n − m only?", width, height });
  lesson(root, "A score that depends on the positions only through n − m is the same all along each diagonal of the (m, n) matrix: every diagonal is one colour (a Toeplitz matrix). Here are seven candidates f side by side; point at one to see it large.");
  const say = announcer(root);
  const state = { c: model.get("candidate_index"), p: model.get("part_index"), d: model.get("diagonal_index"), x: model.get("content_index") ?? 0 };
  // The content (q, k) shown, as complex numbers [re, im]; the reader drags both tips.
  const content = model.get("content");
  state.q = content.slice(0, 2);
  state.k = content.slice(2, 4);
  // Every candidate's matrices at the content shown, recomputed when q or k moves, and one
  // colour scale for all of them: the largest |value| of any candidate, either part.
  let tablesNow = null, scale = 1;
  const tables = () => tablesNow;
  function computeTables() {
    tablesNow = candidateTables(data.names, state.q, state.k, data.theta, size, data.parameters);
    scale = Math.max(1e-12, ...tablesNow.flatMap((t) => [...t.real.flat(), ...t.imag.flat()].map(Math.abs)));
  }
  computeTables();
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
  // A drag repaints 8 matrices (2 048 cells) a frame: a cell's style is written only when its
  // colour or its opacity, in steps of 1/200 (finer than the eye tells apart), changes.
  const paint = (rect, v) => {
    const fill = v >= 0 ? "var(--rope-w-q)" : "var(--rope-w-k)";
    const opacity = (Math.round((200 * Math.abs(v)) / scale) / 200).toFixed(3);
    if (rect.ropeFill !== fill) { rect.style.fill = fill; rect.ropeFill = fill; }
    if (rect.ropeOpacity !== opacity) { rect.style.fillOpacity = opacity; rect.ropeOpacity = opacity; }
  };

  // Every candidate small, as the buttons of the prediction: its matrix in 4-unit cells (no
  // gaps, so the stripes read at a glance), the chosen diagonal outlined, and a verdict that
  // stays out of sight until the reader has committed to a prediction.
  const miniCell = 4, miniSize = size * miniCell;
  const minis = data.names.map((name, c) => {
    const picture = htmlEl("span", { class: "rope-w-mini", "data-candidate": c }, null);
    const mini = svgEl("svg", { viewBox: `-1 -1 ${miniSize + 2} ${miniSize + 2}`, width: miniSize + 2, height: miniSize + 2,
      "aria-hidden": "true", class: "rope-w-svg rope-w-mini-matrix" }, picture);
    const rects = data.positions.map((m) => data.positions.map((n) =>
      svgEl("rect", { x: n * miniCell, y: m * miniCell, width: miniCell, height: miniCell }, mini)));
    const ring = svgEl("polygon", { class: "rope-w-diagonal rope-w-mini-diagonal" }, mini);
    const badge = htmlEl("span", { class: "rope-w-mini-verdict", "data-verdict": c }, picture);
    return { name, picture, rects, ring, badge, painted: null };
  });
  // The outline of the cells with n − m = δ, in cells of `unit` drawing units from (x0, y0).
  const diagonalPoints = (delta, unit, x0, y0) => {
    const m0 = Math.max(0, -delta), m1 = Math.min(size - 1, size - 1 - delta);
    return [[m0 + delta, m0], [m0 + delta + 1, m0], [m1 + delta + 1, m1 + 1], [m1 + delta, m1 + 1]]
      .map(([cx, cy]) => `${x0 + cx * unit},${y0 + cy * unit}`).join(" ");
  };
  // The wish is about the score (the real part): a candidate meets it when every diagonal of
  // its real part is constant for every content, as rope_core found over random contents.
  // A verdict on the page is about the content shown (largest spread below 1e-9 of the scale).
  const largest = (c, part) => Math.max(...tables()[c][`${part}_spread`]);
  const constant = (spread) => spread < 1e-9 * scale;
  const meetsWish = (c) => data.meets_wish[c];

  // The chosen diagonal as a strip: the score against m along n − m = δ (flat when constant).
  const sw = 300, sh = 120, sl = 40, sr = 10, st = 26, sb = 24;
  const strip = svgEl("svg", { viewBox: `0 0 ${sw} ${sh}`, width: sw, height: sh, role: "img", class: "rope-w-svg", "data-plot": "strip",
    "aria-label": "the scores along the chosen diagonal against m" }, svg.parentNode);
  keepTextSize(strip);
  const column = htmlEl("div", { class: "rope-w-column" }, svg.parentNode);
  column.append(svg, strip);
  const spx = (m) => sl + (sw - sl - sr) * m / (size - 1);
  const spy = (v) => st + (sh - st - sb) * (1 - (v + scale) / (2 * scale));
  // The strip's y axis: −scale, 0, +scale (its labels follow the scale as the content moves).
  const stripTicks = [-1, 0, 1].map((side) => {
    svgEl("line", { x1: sl, x2: sw - sr, y1: st + (sh - st - sb) * (1 - side) / 2, y2: st + (sh - st - sb) * (1 - side) / 2, class: "rope-w-axis" }, strip);
    return svgEl("text", { x: sl - 4, y: st + (sh - st - sb) * (1 - side) / 2 + 4, "text-anchor": "end", class: "rope-w-muted-text", "data-tick": side }, strip);
  });
  svgEl("text", { x: sl + (sw - sl - sr) / 2, y: sh - 6, "text-anchor": "middle", class: "rope-w-muted-text" }, strip).textContent = "m (along the diagonal)";
  const stripTitle = svgEl("text", { x: sl, y: 16, "data-strip-title": "" }, strip);
  const stripLine = svgEl("polyline", { class: "rope-w-line", style: "stroke: var(--rope-w-accent)", "data-strip": "diagonal" }, strip);
  const stripDots = svgEl("g", {}, strip);

  let painted = null;
  // One cell's numbers: its positions, its value in the part shown, the diagonal it lies on.
  let pointed = null;
  function showCell(m, n) {
    pointed = [m, n];
    const part = state.p === 0 ? "real" : "imag", v = tables()[state.c][part][m][n];
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
    stripTicks.forEach((tick, i) => setText(tick, fmt3((i - 1) * scale)));
    const tab = tables()[state.c];
    if (pointed) showCell(...pointed);
    const part = state.p === 0 ? "real" : "imag";
    const matrix = tab[part], spreads = tab[`${part}_spread`];
    // The cells only when the matrix changed (a new diagonal keeps them).
    if (painted !== matrix) {
      painted = matrix;
      matrix.forEach((row, m) => row.forEach((v, n) => { paint(cells[m][n], v); cells[m][n].dataset.value = v; }));
    }
    // The outline around the cells with n − m = δ, on the large matrix and on every small one.
    const delta = data.offsets[state.d];
    const m0 = Math.max(0, -delta), m1 = Math.min(size - 1, size - 1 - delta);
    outline.setAttribute("points", diagonalPoints(delta, cell, left, top));
    outline.dataset.offset = delta;
    minis.forEach((mini, c) => {
      const values = tables()[c][part];
      if (mini.painted !== values) {
        mini.painted = values;
        values.forEach((row, m) => row.forEach((v, n) => paint(mini.rects[m][n], v)));
      }
      mini.ring.setAttribute("points", diagonalPoints(delta, miniCell, 0, 0));
      mini.picture.toggleAttribute("data-shown", c === state.c);
      const spread = largest(c, part);
      setText(mini.badge, constant(spread) ? "✓ constant" : `✗ spread ${fmt3(spread)}`);
      mini.badge.dataset.spread = spread;
    });
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
    // The line of algebra, and for the candidate whose verdict turns on the content, the
    // lengths it turns on at the content shown.
    const lengths = data.names[state.c] === "by content"
      ? `; here |q| = ${fmt3(Math.hypot(...state.q))}, |k| = ${fmt3(Math.hypot(...state.k))}` : "";
    typeset(out.why, data.algebra[state.c] + lengths);
    out.why.dataset.candidate = state.c;
    setText(whyLabel, `why ${data.names[state.c]} ${meetsWish(state.c) ? "passes" : "fails"}:`);
    const { q, k } = state;
    out.setting.textContent = `positions 0 … ${size - 1}, θ = ${data.theta}, q = ${complexText(q)}, k = ${complexText(k)}`;
    Object.assign(out.setting.dataset, { content: state.x, q: q.join(","), k: k.join(",") });
    placeVectors();
    setText(out.diagonal, `from ${fmt3(Math.min(...along.map((a) => a[1])))} to ${fmt3(Math.max(...along.map((a) => a[1])))}: ${constant(spread) ? "constant" : `spread ${fmt3(spread)}`}`);
    Object.assign(out.diagonal.dataset, { offset: delta, spread });
    let worst = 0;
    spreads.forEach((v, i) => { if (v > spreads[worst]) worst = i; });
    const toeplitz = constant(spreads[worst]);
    setText(out.verdict, toeplitz
      ? `every diagonal is constant: Toeplitz, the ${part === "real" ? "score" : "imaginary part"} depends on n − m only`
      : `largest spread ${fmt3(spreads[worst])} (on n − m = ${String(data.offsets[worst]).replace("-", "−")}): not Toeplitz`);
    Object.assign(out.verdict.dataset, { toeplitz, worst: spreads[worst], offset: data.offsets[worst] });
    partButtons.forEach((b, i) => b.setAttribute("aria-checked", String(i === state.p)));
    // Once the answer shows, what the diagonal slider reads is part of what is heard.
    if (ask.revealed()) say(`${data.names[state.c]}, n − m = ${String(delta).replace("-", "−")}: ${out.diagonal.textContent}; ${out.verdict.textContent}`);
    else if (ask.predicted()) say(`${data.names[state.c]}: ${out.verdict.textContent}`);
    ask.refresh();
    afterDraw();
  }
  let afterDraw = () => {};

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
  // The candidate drawn large: the one last pointed at, focused or tapped among the small ones.
  function show(c) {
    if (c === state.c) return;
    state.c = c;
    model.set("candidate_index", c);
    model.save_changes();
    draw();
  }
  model.on("change:candidate_index", () => { if (model.get("candidate_index") !== state.c) { state.c = model.get("candidate_index"); draw(); } });
  out.formula = readout(controls, "formula", "");
  out.formula.setAttribute("data-name", "shown");
  out.setting = readout(controls, "setting", "");
  Object.assign(out.setting.dataset, { theta: data.theta, size });
  // The content (q, k) as two arrows from the centre of a small dial, each with a handle on its
  // tip: dragging turns and stretches it (lengths in data.length_range), the arrow keys turn it
  // by 1° (shift: 10°), + and − change its length. Every matrix follows at once.
  handleStyles(el);
  // Room round the longest arrow for its handle's ring and its name beyond the tip.
  const unit = 52, dialSize = 2 * Math.ceil(unit * data.length_range[1] + 30), mid = dialSize / 2;
  // First among the controls: on a phone it follows the drawing, on a wide page it sits beside it.
  const dialBox = htmlEl("div", { class: "rope-w-content-dial" }, null);
  controls.prepend(dialBox);
  const dial = svgEl("svg", { viewBox: `0 0 ${dialSize} ${dialSize}`, width: dialSize, height: dialSize, class: "rope-w-svg",
    "data-plot": "content", "aria-label": "q and k as arrows; drag either tip" }, dialBox);
  keepTextSize(dial);
  htmlEl("div", { class: "rope-w-hint" }, dialBox, "drag the tip of q or k: every matrix follows");
  svgEl("circle", { cx: mid, cy: mid, r: unit, class: "rope-w-axis" }, dial);
  svgEl("line", { x1: 4, x2: dialSize - 4, y1: mid, y2: mid, class: "rope-w-axis" }, dial);
  svgEl("line", { x1: mid, x2: mid, y1: 4, y2: dialSize - 4, class: "rope-w-axis" }, dial);
  const arrows = {}, names = {}, handles = {};
  const degOf = ([re, im]) => wrapDeg((Math.atan2(im, re) * 180) / Math.PI);
  for (const key of ["q", "k"]) {
    arrows[key] = arrow(dial, mid, mid, mid + 1, mid, key);
    names[key] = svgEl("text", { class: "rope-w-label", "text-anchor": "middle", "dominant-baseline": "middle", "data-label": key }, dial);
    names[key].textContent = key;
  }
  const handleLayer = svgEl("g", {}, dial);
  for (const key of ["q", "k"]) {
    handles[key] = dragHandle(dial, handleLayer, {
      name: key, cls: key, cx: mid, cy: mid, scale: unit, range: data.length_range,
      label: `direction of ${key} (degrees; drag its tip to turn and stretch it, arrow keys turn it by 1°, shift+arrow by 10°, + and − change its length)`,
      get: () => degOf(state[key]), length: () => Math.hypot(...state[key]),
      set: (deg, done, length) => moveContent(key, polar(length ?? Math.hypot(...state[key]), deg), done),
    });
  }
  // Each name sits just beyond its handle's ring, along the arrow: clear of both handles
  // unless q and k point the same way, when k's name steps a little further out.
  function placeVectors() {
    for (const key of ["q", "k"]) {
      const [re, im] = state[key], x1 = mid + unit * re, y1 = mid - unit * im;
      moveArrow(arrows[key], mid, mid, x1, y1);
      handles[key].place(x1, y1, degOf(state[key]));
    }
    const apart = Math.abs(wrapDeg(degOf(state.q) - degOf(state.k) + 180) - 180);
    // Either name can still fall on the other's handle (a short k under a long q): then it
    // moves to the nearest clear spot.
    const tips = ["q", "k"].map((key) => [mid + unit * state[key][0], mid - unit * state[key][1]]);
    for (const key of ["q", "k"]) {
      const [re, im] = state[key], norm = Math.hypot(re, im) || 1;
      const out = unit * norm + 20 + (key === "k" && apart < 20 ? 12 : 0);
      const [x, y] = clearOfHandles(mid + out * re / norm, mid - out * im / norm, key, tips, dialSize);
      names[key].setAttribute("x", x);
      names[key].setAttribute("y", y);
    }
  }
  function moveContent(key, vector, done) {
    state[key] = vector.map((v) => Number(v.toFixed(12)));
    computeTables();
    painted = null;
    for (const mini of minis) mini.painted = null;
    if (done) {
      model.set("content", [...state.q, ...state.k]);
      model.save_changes();
    }
    draw();
  }
  // A few contents to jump to (Python's): the next one on each press, the last wrapping round.
  const another = htmlEl("button", { type: "button", class: "rope-w-step-button", "data-name": "content",
    "aria-label": "another q, k: the same candidates for the next content" }, controls, "another q, k");
  function showPreset(x) {
    state.x = x;
    state.q = data.contents[x].slice(0, 2);
    state.k = data.contents[x].slice(2, 4);
    moveContent("q", state.q, false);
  }
  another.addEventListener("click", () => {
    showPreset((state.x + 1) % data.contents.length);
    model.set("content_index", state.x);
    model.set("content", [...state.q, ...state.k]);
    model.save_changes();
  });
  another.addEventListener("keydown", (event) => event.stopPropagation());
  model.on("change:content_index", () => { if (model.get("content_index") !== state.x) showPreset(model.get("content_index")); });
  model.on("change:content", () => {
    const now = model.get("content");
    if (now.some((v, i) => v !== [...state.q, ...state.k][i])) {
      state.q = now.slice(0, 2);
      moveContent("k", now.slice(2, 4), false);
    }
  });
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
  out.why = readout(controls, "why", "why:");
  const whyLabel = out.why.parentNode.querySelector(".rope-w-readout-label");
  hideCell();
  // A candidate that keeps every diagonal constant for the content shown but not for every one
  // (by content, when |q| = |k|): the feedback says so.
  const onlyHere = () => data.names.map((name, c) => {
    if (meetsWish(c) || !constant(largest(c, "real"))) return "";
    return ` ${name} keeps every diagonal one colour for this q, k (|q| = ${fmt3(Math.hypot(...state.q))}, |k| = ${fmt3(Math.hypot(...state.k))}), not for every q and k: drag one of them.`;
  }).join("");
  const ask = question(root, {
    prompt: "Which candidates make every diagonal of the score one colour? Tap each one you expect to, then check.",
    several: "check my prediction",
    // The verdicts (under each small matrix, for the whole large one, and the chosen diagonal's
    // range) would answer it: hidden until the reader commits to a set.
    conceal: [out.diagonal.parentNode, out.verdict.parentNode, out.why.parentNode, ...minis.map((mini) => mini.badge)],
    choices: minis.map((mini, c) => ({ label: mini.name, picture: mini.picture, correct: () => meetsWish(c) })),
    explain: (picked) => {
      const quoted = (c) => `“${data.names[c]}”`;
      const list = (cs) => (cs.length ? cs.map(quoted).join(", ") : "none");
      const right = data.names.map((_, c) => c).filter(meetsWish);
      const missed = right.filter((c) => !picked.includes(c)), extra = picked.filter((c) => !meetsWish(c));
      // How far a candidate misses the wish: its largest spread at this content, the one its tag
      // shows; where that is 0 (by content with |q| = |k|), its largest at the preset contents,
      // computed only then (the verdict is written again on every step of a drag).
      const atPresets = (c) => Math.max(...data.contents.map((x) =>
        Math.max(...candidateTables(data.names, x.slice(0, 2), x.slice(2, 4), data.theta, size, data.parameters)[c].real_spread)));
      const miss = (c) => (constant(largest(c, "real"))
        ? `by up to ${fmt3(atPresets(c))} at the other q, k`
        : `by up to ${fmt3(largest(c, "real"))} at this q, k`);
      return `Every diagonal of the score is constant for ${list(right)}.`
        + (missed.length ? ` You left out ${list(missed)}.` : "")
        + (extra.length ? ` ${extra.map((c) => `${quoted(c)} changes along a diagonal ${miss(c)}`).join("; ")}.` : "")
        + ` Parity passes this real wish; its imaginary part (the complex wish) does not: spread ${fmt3(largest(data.names.indexOf("parity"), "imag"))}.`
        + onlyHere();
    },
  });
  // The question and its small matrices go above the large drawing, across the widget's width.
  ask.node.classList.add("rope-w-candidates");
  root.insertBefore(ask.node, root.querySelector(".rope-w-body"));
  // Its line of algebra goes right under the feedback, beside the small matrices it explains.
  ask.node.append(out.why.parentNode);
  // Each toggle's name starts with the text it shows: the name, and once the verdicts are in
  // sight, the verdict under its picture before it.
  const nameToggles = () => ask.buttons.forEach((button, c) => {
    const verdict = minis[c].badge.closest("[data-concealed]") ? "" : `${minis[c].badge.textContent} `;
    const label = `${verdict}${data.names[c]}: ${data.formulas[c].replace(/[_^{}]/g, "")}`;
    if (button.getAttribute("aria-label") !== label) button.setAttribute("aria-label", label);
  });
  // A space between the verdict and the name, so that the text a toggle shows reads as words.
  for (const button of ask.buttons) button.insertBefore(document.createTextNode(" "), button.querySelector(".rope-w-answer-label"));
  afterDraw = nameToggles;
  // The check reveals the verdicts without a redraw: the names follow it.
  ask.node.querySelector("[data-commit]").addEventListener("click", nameToggles);
  ask.buttons.forEach((button, c) => {
    button.addEventListener("pointerenter", () => show(c));
    // Once the verdicts show, choosing a candidate that fails outlines the diagonal where it
    // fails most, so that the strip shows how far that diagonal's colour changes.
    for (const type of ["focus", "click"]) {
      button.addEventListener(type, () => {
        show(c);
        if (!ask.revealed() || meetsWish(c)) return;
        const spreads = tables()[c][state.p === 0 ? "real_spread" : "imag_spread"];
        const worst = spreads.indexOf(Math.max(...spreads));
        if (worst !== state.d) diagonal.set(worst);
      });
    }
  });
  draw();
}
export default { render };
