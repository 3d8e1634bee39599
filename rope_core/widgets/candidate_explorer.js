// The wish as a picture: the score matrix S[m][n] of a candidate encoding f, constant along every
// diagonal n − m (Toeplitz) exactly when the score depends on n − m only. Every number is
// Python's (rope_core.demos.candidates); the page picks a table and draws it. Every candidate's
// matrix is drawn small at once, and the reader taps those predicted to be one colour along
// every diagonal before any verdict shows; one of them is drawn large with a diagonal's strip.
// A button steps through a few contents (q, k), each with its own tables from Python: the wish
// is asked of every content. After the prediction the candidate shown gets its line of algebra.
import { svgEl, htmlEl, slider, readout, fmt3, typeset, frame, keepTextSize, syncer, stepButtons, showTip, hideTip, setText, announcer, keepInReach } from "./common.js";
import { lesson, question } from "./lesson.js";

// a + bi, as the read-outs write numbers.
const complexText = ([re, im]) => `${fmt3(re)} ${im < 0 ? "−" : "+"} ${fmt3(Math.abs(im))}i`;

function render({ model, el }) {
  const data = model.get("data");
  const size = data.positions.length;
  const cell = Math.min(18, Math.floor(288 / size));
  const left = 40, top = 40, width = left + size * cell + 12, height = top + size * cell + 12;
  const { root, svg, controls } = frame(el, { title: "Is the score a function of n − m only?", width, height });
  lesson(root, "A score that depends on the positions only through n − m is the same all along each diagonal of the (m, n) matrix: every diagonal is one colour (a Toeplitz matrix). Here are seven candidates f side by side; point at one to see it large.");
  const say = announcer(root);
  const state = { c: model.get("candidate_index"), p: model.get("part_index"), d: model.get("diagonal_index"), x: model.get("content_index") ?? 0 };
  // Every content (q, k) the page can show: the first is the widget's own, then Python's others.
  const contents = [{ q: data.q, k: data.k, tables: data.tables }, ...(data.more ?? [])];
  const tables = () => contents[state.x].tables;
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
  // its real part is constant, as Python measured (largest spread below 1e-6).
  // A verdict is about the content shown; the wish holds only if it holds for every content.
  const largestOf = (content, c, part) => Math.max(...content.tables[c][`${part}_spread`]);
  const largest = (c, part) => largestOf(contents[state.x], c, part);
  const meetsWish = (c) => contents.every((content) => largestOf(content, c, "real") < 1e-6);

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
      setText(mini.badge, spread < 1e-6 ? "✓ constant" : `✗ spread ${fmt3(spread)}`);
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
    typeset(out.why, data.algebra[state.c]);
    out.why.dataset.candidate = state.c;
    const { q, k } = contents[state.x];
    out.setting.textContent = `positions 0 … ${size - 1}, θ = ${data.theta}, q = ${complexText(q)}, k = ${complexText(k)} (content ${state.x + 1} of ${contents.length})`;
    Object.assign(out.setting.dataset, { content: state.x, q: q.join(","), k: k.join(",") });
    setText(out.diagonal, `from ${fmt3(Math.min(...along.map((a) => a[1])))} to ${fmt3(Math.max(...along.map((a) => a[1])))}: ${spread < 1e-6 ? "constant" : `spread ${fmt3(spread)}`}`);
    Object.assign(out.diagonal.dataset, { offset: delta, spread });
    let worst = 0;
    spreads.forEach((v, i) => { if (v > spreads[worst]) worst = i; });
    const toeplitz = spreads[worst] < 1e-6;
    setText(out.verdict, toeplitz
      ? `every diagonal is constant: Toeplitz, the ${part === "real" ? "score" : "imaginary part"} depends on n − m only`
      : `largest spread ${fmt3(spreads[worst])} (on n − m = ${String(data.offsets[worst]).replace("-", "−")}): not Toeplitz`);
    Object.assign(out.verdict.dataset, { toeplitz, worst: spreads[worst], offset: data.offsets[worst] });
    partButtons.forEach((b, i) => b.setAttribute("aria-checked", String(i === state.p)));
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
  // The next content: the same candidates for another q and k (the last one wraps round).
  const another = htmlEl("button", { type: "button", class: "rope-w-step-button", "data-name": "content",
    "aria-label": "another q, k: the same candidates for the next content" }, controls, "another q, k");
  another.addEventListener("click", () => {
    state.x = (state.x + 1) % contents.length;
    model.set("content_index", state.x);
    model.save_changes();
    draw();
  });
  another.addEventListener("keydown", (event) => event.stopPropagation());
  model.on("change:content_index", () => { if (model.get("content_index") !== state.x) { state.x = model.get("content_index"); draw(); } });
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
  hideCell();
  // A candidate that passes for some contents and not others (by content, when |q| = |k|).
  const contentOnly = () => data.names.map((name, c) => {
    const passing = contents.map((content, x) => (largestOf(content, c, "real") < 1e-6 ? x : null)).filter((x) => x !== null);
    if (!passing.length || passing.length === contents.length) return "";
    const lengths = passing.map((x) => `|q| = ${fmt3(Math.hypot(...contents[x].q))}, |k| = ${fmt3(Math.hypot(...contents[x].k))}`);
    return ` ${name} keeps every diagonal one colour only for content ${passing.map((x) => x + 1).join(", ")} (${lengths.join("; ")}); the wish asks it of every q and k.`;
  }).join("");
  const ask = question(root, {
    prompt: "Which candidates make every diagonal of the score one colour? Tap each one you expect to, then check.",
    several: "check my prediction",
    // The verdicts (under each small matrix, and for the whole large one) would answer it:
    // hidden until the reader commits to a set.
    conceal: [out.verdict.parentNode, out.why.parentNode, ...minis.map((mini) => mini.badge)],
    choices: minis.map((mini, c) => ({ label: mini.name, picture: mini.picture, correct: () => meetsWish(c) })),
    explain: (picked) => {
      const list = (cs) => (cs.length ? cs.map((c) => data.names[c]).join(", ") : "none");
      const right = data.names.map((_, c) => c).filter(meetsWish);
      const missed = right.filter((c) => !picked.includes(c)), extra = picked.filter((c) => !meetsWish(c));
      // How far a candidate misses the wish: its largest spread over every content.
      const worst = (c) => fmt3(Math.max(...contents.map((content) => largestOf(content, c, "real"))));
      return `Every diagonal of the score is constant for ${list(right)}.`
        + (missed.length ? ` You left out ${list(missed)}.` : "")
        + (extra.length ? ` ${extra.map((c) => `${data.names[c]} changes along a diagonal by up to ${worst(c)}`).join("; ")}.` : "")
        + ` Parity passes this real wish; its imaginary part (the complex wish) does not: spread ${fmt3(largest(data.names.indexOf("parity"), "imag"))}.`
        + contentOnly();
    },
  });
  // The question and its small matrices go above the large drawing, across the widget's width.
  ask.node.classList.add("rope-w-candidates");
  root.insertBefore(ask.node, root.querySelector(".rope-w-body"));
  ask.buttons.forEach((button, c) => {
    button.setAttribute("aria-label", `${data.names[c]}: ${data.formulas[c].replace(/[_^{}]/g, "")}`);
    for (const type of ["pointerenter", "focus", "click"]) button.addEventListener(type, () => show(c));
  });
  draw();
}
export default { render };
