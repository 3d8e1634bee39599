// Layouts: which features rotate together, and what happens to a vector's numbers. A sample
// x = (1, 2, …, d) in the interleaved layout travels through the permutation P into the half
// layout, then through rotate_half (halves swapped, the new first half negated). Below, a
// head that attends to the previous token, and what its scores become when its weights are
// run through the other layout's code. Every number comes from Python (layout_table,
// layout_scores); this only draws.
// A sample entry: whole numbers as they are (−2, not −2.00), others to three digits.
import { svgEl, htmlEl, slider, readout, fmt3, typeset, hoverable, frame, syncer, showTip, hideTip, setText, announcer, keepInReach } from "./common.js";
import { question } from "./lesson.js";
function value(v) {
  return Number.isInteger(v) ? String(v).replace("-", "−") : fmt3(v);
}

function render({ model, el }) {
  const data = model.get("data");
  const width = 400, height = 512, x0 = 8, span = width - 16, box = 28;
  const rows = { interleaved: 54, half: 150, rotated: 246 };
  const { root, svg, controls } = frame(el, { title: "Which features rotate together, and where a vector's numbers go", width, height });
  const say = announcer(root);
  // The question (made below, once the controls exist): predict, then switch the layout.
  let quiz = null, prompt = null, wrongPeak = null;
  const state = { d: model.get("dim_index"), p: model.get("pair"), wrong: model.get("wrong_layout") };
  const out = {};
  let pairSlider = null;
  const motion = () => !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  // A row of boxes holding a vector's numbers; pair members highlighted.
  function row(y, label, dim, values, members, layout, labelBelow) {
    const cell = span / dim;
    svgEl("text", { x: x0, y: labelBelow ? y + box + 16 : y - 8, class: "rope-w-muted-text rope-w-label-halo", "data-row-label": layout }, svg).textContent = label;
    const marks = [];
    for (let j = 0; j < dim; j++) {
      const x = x0 + j * cell, on = members.includes(j);
      const rect = svgEl("rect", { x: x + 1, y, width: cell - 3, height: box, rx: 3, class: "rope-w-outline",
        style: on ? "fill: var(--rope-w-q); fill-opacity: 0.35" : "fill: var(--rope-w-bg)",
        "data-feature": j, "data-layout": layout, "data-highlight": on ? "1" : "0", role: "img", "aria-label": `${layout} feature ${j}: ${fmt3(values[j])}` }, svg);
      marks.push(rect);
      const negative = values[j] < 0;
      const text = svgEl("text", { x: x + cell / 2 - 1, y: y + 19, "text-anchor": "middle", "pointer-events": "none", "data-value": values[j],
        "data-value-of": `${layout} ${j}`, class: negative ? "rope-w-negative" : "" }, svg);
      text.textContent = value(values[j]);
      fitInBox(text, cell - 6);
    }
    return marks;
  }
  // A number wider than its box (−16 in a 16-feature row, or 13 px text on a phone) is
  // squeezed to the box's width, measured once it is drawn; one that fits is left alone.
  function fitInBox(text, width) {
    requestAnimationFrame(() => {
      if (!text.isConnected) return;
      text.removeAttribute("textLength");
      if (text.getComputedTextLength() > width) {
        text.setAttribute("textLength", width);
        text.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    });
  }
  function pairOf(layout, j, dim) {
    return layout === "interleaved" ? Math.floor(j / 2) : j % (dim / 2);
  }
  function showFeature(tab, dim, layout, j) {
    const i = pairOf(layout, j, dim);
    const inter = tab.interleaved_pairs[i], half = tab.half_pairs[i];
    out.hover.textContent = "";
    typeset(htmlEl("span", {}, out.hover), `${layout} feature ${j} is in pair ${i}: interleaved (${inter[0]}, ${inter[1]}) ↔ half (${half[0]}, ${half[1]}); θ_{${i}} = ${fmt3(tab.theta[i])}, λ_{${i}} = ${fmt3(tab.wavelength[i])}`);
    Object.assign(out.hover.dataset, { layout, feature: j, pair: i, interleaved: inter.join(","), half: half.join(","),
      theta: tab.theta[i], wavelength: tab.wavelength[i] });
    // The same pair in the other layouts (and the lines between them).
    for (const rect of svg.querySelectorAll("rect[data-feature]")) {
      const same = pairOf(rect.dataset.layout === "interleaved" ? "interleaved" : "half", Number(rect.dataset.feature), dim) === i;
      rect.classList.toggle("rope-w-hover-mark", same);
    }
    for (const line of svg.querySelectorAll("line[data-source]")) {
      line.classList.toggle("rope-w-hover-line", Math.floor(Number(line.dataset.source) / 2) === i);
    }
  }
  function hide() {
    hideTip(root);
    setText(out.hover, "hover, tap or focus a feature: its pair in every row");
    for (const key of Object.keys(out.hover.dataset)) if (key !== "readout") delete out.hover.dataset[key];
    for (const node of svg.querySelectorAll(".rope-w-hover-mark, .rope-w-hover-line")) {
      node.classList.remove("rope-w-hover-mark", "rope-w-hover-line");
    }
  }
  // What the last full drawing was for (d, the layout toggle): a new pair only restyles the
  // highlighted boxes and lines, in place; a (d, toggle) seen before puts its drawing, made
  // once and kept, back (the per-slider redraw budget is 4 ms, a phone's CPU is ~4x slower).
  let drawn = null;
  const drawings = new Map();
  function draw() {
    const dim = data.dims[state.d], tab = data.tables[state.d];
    if (pairSlider) state.p = pairSlider.setCount(dim / 2);
    const inter = tab.interleaved_pairs[state.p], half = tab.half_pairs[state.p];
    const key = `${state.d} ${state.wrong}`;
    if (!drawn || drawn.key !== key) {
      if (!drawings.has(key)) drawings.set(key, { key, ...build(dim, tab, inter) });
      // Numbers still travelling land at once: the drawing they belong to leaves the page.
      if (landing) landing();
      drawn = drawings.get(key);
      svg.replaceChildren(...drawn.nodes);
      drawn.say();
    }
    // The pair: its boxes in every row and its lines (only those whose look changes).
    const look = (node, on) => {
      const cls = on ? "rope-w-perm-on" : "rope-w-perm";
      if (node.getAttribute("class") !== cls) node.setAttribute("class", cls);
    };
    for (const line of drawn.permLines) look(line, inter.includes(Number(line.dataset.source)));
    for (const line of drawn.swapLines) look(line, half.includes(Number(line.dataset.rhSource)));
    for (const rect of drawn.boxes) {
      const on = (rect.dataset.layout === "interleaved" ? inter : half).includes(Number(rect.dataset.feature));
      if (rect.dataset.highlight === (on ? "1" : "0")) continue;
      rect.setAttribute("style", on ? "fill: var(--rope-w-q); fill-opacity: 0.35" : "fill: var(--rope-w-bg)");
      rect.dataset.highlight = on ? "1" : "0";
    }
    setText(out.pairs, `interleaved (${inter[0]}, ${inter[1]}) ↔ half (${half[0]}, ${half[1]})`);
    out.pairs.dataset.interleaved = inter.join(",");
    out.pairs.dataset.half = half.join(",");
    out.pairs.dataset.pair = state.p;
    typeset(out.theta, `θ_{${state.p}} = ${fmt3(tab.theta[state.p])} rad per position, λ_{${state.p}} = ${fmt3(tab.wavelength[state.p])} tokens`);
    Object.assign(out.theta.dataset, { theta: tab.theta[state.p], wavelength: tab.wavelength[state.p] });
    setText(out.perm, `[${tab.interleaved_to_half.join(", ")}]`);
    hide();
  }
  // Everything but the pair: the three rows, the lines, the indices, the scores.
  function build(dim, tab, inter) {
    const cell = span / dim;
    svg.replaceChildren();
    const centre = (j) => x0 + j * cell + cell / 2 - 1;
    // Lines first, under the boxes: half feature `target` is interleaved feature perm[target].
    const permLines = tab.interleaved_to_half.map((source, target) => svgEl("line", { x1: centre(source), y1: rows.interleaved + box,
      x2: centre(target), y2: rows.half, "data-source": source, "data-target": target }, svg));
    // rotate_half: output j < d/2 is −(input j + d/2); output j ≥ d/2 is input j − d/2.
    const swapLines = [];
    for (let target = 0; target < dim; target++) {
      const source = target < dim / 2 ? target + dim / 2 : target - dim / 2;
      swapLines.push(svgEl("line", { x1: centre(source), y1: rows.half + box, x2: centre(target), y2: rows.rotated,
        "data-rh-source": source, "data-rh-target": target }, svg));
    }
    const top = row(rows.interleaved, "interleaved x: pair i = (2i, 2i+1)", dim, tab.x, [], "interleaved", false);
    const middle = row(rows.half, "half layout P x: pair i = (i, i + d/2)", dim, tab.permuted, [], "half", false);
    const bottom = row(rows.rotated, "rotate_half(P x): halves swapped, one negated", dim, tab.rotated_half, [], "rotated", true);
    // Feature indices above the first row.
    const every = cell >= 20 ? 1 : 2;
    for (let j = 0; j < dim; j += every) {
      svgEl("text", { x: centre(j), y: rows.interleaved - 28, "text-anchor": "middle",
        class: "rope-w-muted-text rope-w-index", "data-index": j }, svg).textContent = String(j);
    }
    const marks = [...top, ...middle];
    hoverable(marks, { columns: dim, start: inter[0], onShow: (k) => { showFeature(tab, dim, k < dim ? "interleaved" : "half", k % dim); showTip(marks[k], out.hover); }, onHide: hide });
    const say = drawScores(dim);
    return { permLines, swapLines, boxes: [...top, ...middle, ...bottom], nodes: [...svg.children], say };
  }
  // The score of a previous-token head against n − m, as trained and (when the toggle is on)
  // through the other layout's code.
  function drawScores() {
    const tab = data.tables[state.d], scores = tab.scores;
    const left = 44, right = 390, ytop = 332, ybottom = 454, lo = -1, hi = 1;
    const r = scores.distances, n = r.length;
    const px = (v) => left + (right - left) * (v - r[0]) / (r[n - 1] - r[0]);
    const py = (v) => ybottom - (ybottom - ytop) * (v - lo) / (hi - lo);
    svgEl("text", { x: left - 36, y: ytop - 12, class: "rope-w-muted-text" }, svg).textContent = "score of a head that looks one token back";
    for (const v of [-1, 0, 1]) {
      svgEl("line", { x1: left, x2: right, y1: py(v), y2: py(v), class: "rope-w-axis", "data-score-tick": v }, svg);
      svgEl("text", { x: left - 6, y: py(v) + 4, "text-anchor": "end", class: "rope-w-muted-text" }, svg).textContent = String(v).replace("-", "−");
    }
    for (const v of [r[0], -1, r[n - 1]]) {
      svgEl("line", { x1: px(v), x2: px(v), y1: ybottom, y2: ybottom + 4, class: "rope-w-axis", "data-distance-tick": v }, svg);
      svgEl("text", { x: px(v), y: ybottom + 17, "text-anchor": "middle", class: "rope-w-muted-text" }, svg).textContent = String(v).replace("-", "−");
    }
    svgEl("text", { x: (left + right) / 2, y: ybottom + 34, "text-anchor": "middle", class: "rope-w-muted-text" }, svg).textContent = "n − m";
    const curve = (values, name, cls) => svgEl("polyline", { points: values.map((v, k) => `${px(r[k])},${py(v)}`).join(" "),
      class: `rope-w-line ${cls}`, "data-curve": name }, svg);
    curve(scores.trained, "trained", state.wrong ? "rope-w-ghost-line" : "rope-w-score-line");
    if (state.wrong) curve(scores.wrong, "wrong", "rope-w-wrong-line");
    const shown = state.wrong ? scores.wrong : scores.trained;
    let best = 0;
    shown.forEach((v, k) => { if (v > shown[best]) best = k; });
    svgEl("circle", { cx: px(r[best]), cy: py(shown[best]), r: 4, class: state.wrong ? "rope-w-wrong-dot" : "rope-w-score-dot", "data-peak": r[best] }, svg);
    const trainedBest = scores.trained.indexOf(Math.max(...scores.trained));
    // The read-out and the question of this drawing (again whenever it is put back).
    const wrong = state.wrong;
    return () => {
      setText(out.scores, wrong
        ? `Wrong layout: the peak moves to n − m = ${String(r[best]).replace("-", "−")} (score ${fmt3(shown[best])}); at n − m = −1 the score is ${fmt3(scores.wrong[r.indexOf(-1)])}. Still the same for every shift of both positions, but not the curve the head learned.`
        : `As trained: the peak is at n − m = ${String(r[trainedBest]).replace("-", "−")} (score ${fmt3(scores.trained[trainedBest])}): this head looks one token back.`);
      Object.assign(out.scores.dataset, { wrong: wrong ? "1" : "0", peak: r[best], value: shown[best] });
      // Where the wrong layout puts the peak, for the verdict (the same numbers the toggle draws).
      const wrongScores = scores.wrong, top = wrongScores.indexOf(Math.max(...wrongScores));
      wrongPeak = r[top];
      if (quiz) {
        prompt.dataset.answered = wrong && quiz.predicted() ? "1" : "0";
        if (quiz.predicted()) say(out.scores.textContent);
        quiz.refresh();
      }
    };
  }
  // The numbers travel: each value of x moves along its permutation line into the half row,
  // then along its rotate_half line into the last row (where half of them change sign).
  let landing = null;
  function travel() {
    const dim = data.dims[state.d], tab = data.tables[state.d], cell = span / dim;
    const centre = (j) => x0 + j * cell + cell / 2 - 1;
    const layer = svgEl("g", { class: "rope-w-travel", "pointer-events": "none" }, svg);
    const hidden = [...svg.querySelectorAll('text[data-value-of^="half"], text[data-value-of^="rotated"]')];
    hidden.forEach((t) => t.setAttribute("opacity", "0"));
    const movers = tab.interleaved_to_half.map((source, target) => {
      const t = svgEl("text", { x: centre(source), y: rows.interleaved + 19, "text-anchor": "middle", class: "rope-w-mover" }, layer);
      t.textContent = value(tab.x[source]);
      return { t, target, dx: centre(target) - centre(source) };
    });
    const steps = [
      () => movers.forEach(({ t, dx }) => t.setAttribute("transform", `translate(${dx} ${rows.half - rows.interleaved})`)),
      () => {
        hidden.filter((t) => t.dataset.valueOf.startsWith("half")).forEach((t) => t.setAttribute("opacity", "1"));
        movers.forEach(({ t, target }) => {
          const to = target < dim / 2 ? target + dim / 2 : target - dim / 2;
          t.setAttribute("transform", `translate(${centre(to) - Number(t.getAttribute("x"))} ${rows.rotated - rows.interleaved})`);
        });
      },
      () => { layer.remove(); hidden.forEach((t) => t.setAttribute("opacity", "1")); },
    ];
    landing = steps[2];
    if (!motion()) { steps.forEach((f) => f()); return; }
    requestAnimationFrame(() => { steps[0](); setTimeout(steps[1], 1100); setTimeout(steps[2], 2200); });
  }
  const sync = syncer(model, state, draw);
  out.hover = readout(controls, "hover", "");
  out.hover.parentElement.classList.add("rope-w-hover");
  out.hover.setAttribute("aria-live", "polite");
  const go = htmlEl("button", { type: "button", class: "rope-w-play", "data-name": "travel" }, controls, "▶ move the numbers");
  go.addEventListener("click", travel);
  go.addEventListener("keydown", (event) => event.stopPropagation());
  const toggleRow = htmlEl("label", { class: "rope-w-toggle" }, controls);
  const toggle = htmlEl("input", { type: "checkbox", "data-name": "wrong" }, toggleRow);
  toggle.checked = state.wrong;
  toggleRow.append("load these weights with the wrong (half) layout");
  toggle.addEventListener("keydown", (event) => event.stopPropagation());
  toggle.addEventListener("change", () => {
    state.wrong = toggle.checked;
    model.set("wrong_layout", state.wrong);
    model.save_changes();
    draw();
  });
  model.on("change:wrong_layout", () => { if (model.get("wrong_layout") !== toggle.checked) { toggle.checked = model.get("wrong_layout"); state.wrong = toggle.checked; draw(); } });
  out.scores = readout(controls, "scores", "");
  quiz = question(htmlEl("div", {}, null), {
    prompt: "This head's weights were trained in the interleaved layout. What happens to its scores if they are loaded into half-layout code?",
    choices: [
      { label: "nothing: the same scores" },
      { label: "they change, but it still looks one token back", correct: () => wrongPeak === -1 },
      { label: "it no longer looks one token back", correct: () => wrongPeak !== -1 },
    ],
    reached: () => state.wrong,
    task: "tick “load these weights with the wrong (half) layout” and compare the two curves.",
    explain: () => (wrongPeak === -1
      ? "With the wrong layout the features are rotated with the wrong partners at the wrong speeds: the scores change, though the best one stays at n − m = −1."
      : `With the wrong layout the features are rotated with the wrong partners at the wrong speeds: the head no longer looks one token back (its best score is now at n − m = ${String(wrongPeak).replace("-", "−")}).`),
  });
  root.insertBefore(quiz.node, root.querySelector(".rope-w-body"));
  prompt = quiz.node.querySelector(".rope-w-question-prompt");
  prompt.dataset.readout = "question";
  quiz.node.querySelector(".rope-w-answers").addEventListener("click", () => { if (drawn) drawn.say(); });
  slider(controls, { label: "dimension d", name: "dim", values: data.dims, index: state.d, onInput: sync("d", "dim_index") });
  const pairs = Array.from({ length: Math.max(...data.dims) / 2 }, (_, i) => i);
  pairSlider = slider(controls, { label: "pair i", name: "pair", values: pairs, index: state.p, onInput: sync("p", "pair") });
  keepInReach(pairSlider);
  out.pairs = readout(controls, "pairs", "pair i:");
  out.theta = readout(controls, "theta", "frequency:");
  out.perm = readout(controls, "perm", "interleaved → half:");
  draw();
}
export default { render };
