// The block-diagonal matrix R_m as a heat map, times a vector x whose pairs all start at
// (1, 0): R_m x holds each pair turned by m·θ_i. Inside each 2 × 2 block an arrow and an arc
// show that turn (mod 2π); beside it a dial shows the pair of x (dashed) and of R_m x. Play runs
// m smoothly, so fast blocks spin (a shaded wedge trails each hand over θ_i, its turn per
// position) while slow ones stand; it halts at the question's m, and runs on along the slider's
// log steps when pressed again, far enough for the slow blocks to turn too. θ_i, λ_i, where the
// entries sit and x come from Python (matrix_table); the page turns each block by m·θ_i, at
// whole m and between them.
import { svgEl, htmlEl, slider, readout, fmt3, typeset, hoverable, colourScale, frame, arrow, moveArrow, syncer, showTip, hideTip, setText, announcer, keepInReach, scrollClearOfReach } from "./common.js";
import { question } from "./lesson.js";
const TAU_HEAT = 2 * Math.PI;
// Play: slider stops per second up to the question's m (one token a stop there), stops per
// second past it (log steps: the slow blocks need thousands of tokens), and how many positions
// of turning a dial's wedge trails over.
export const PLAY_SPEED = 4;
export const PLAY_SPEED_PAST = 8;
export const SWEEP_POSITIONS = 1;
// "Nearly the identity": a block turned by less than this (cos > 0.995). Each block's ring
// carries a tick at this angle.
export const NEARLY = 0.1;

/**
 * The position at a fractional slider stop `at` (0 … positions.length − 1): positions[k] at a
 * whole k, and on the straight line between two stops in between, so that play runs m
 * smoothly across log steps as across single tokens.
 */
export function positionAt(positions, at) {
  const last = positions.length - 1;
  if (!(at > 0)) return positions[0];
  if (at >= last) return positions[last];
  const k = Math.floor(at);
  return positions[k] + (at - k) * (positions[k + 1] - positions[k]);
}

/**
 * The first pair i whose angle m·θ_i is below NEARLY (the pairs after it are slower, so
 * below it too), or −1 when every block has turned by NEARLY or more.
 */
export function firstStill(theta, m) {
  return theta.findIndex((t) => m * t < NEARLY);
}

/**
 * The non-zero entries of R_m: entry e sits at (rows[e], cols[e]) in the block of pair
 * i = rows[e] / 2 (floored), and is cos(a_i) on the block's diagonal, −sin(a_i) above it and
 * sin(a_i) below it, where a_i = angles[i] = m·θ_i. Returns an array as long as rows.
 */
export function blockEntries(rows, cols, angles) {
  return rows.map((r, e) => {
    const c = cols[e], a = angles[Math.floor(r / 2)];
    if (r % 2 === c % 2) return Math.cos(a);
    return r % 2 === 0 ? -Math.sin(a) : Math.sin(a);
  });
}

/** angle mod 2π, in [0, 2π). */
export function wrapTurn(angle) {
  const a = angle % TAU_HEAT;
  return a < 0 ? a + TAU_HEAT : a;
}

/**
 * SVG path of the arc of radius r about (cx, cy) from angle 0 (3 o'clock) counter-clockwise to
 * angle mod 2π (SVG's y points down, so counter-clockwise on the page is sweep-flag 0); ""
 * for no visible arc.
 */
export function turnArc(cx, cy, r, angle) {
  const a = wrapTurn(angle);
  if (a < 1e-3) return "";
  const at = (t) => `${cx + r * Math.cos(t)} ${cy - r * Math.sin(t)}`;
  return `M ${at(0)} A ${r} ${r} 0 ${a > Math.PI ? 1 : 0} 0 ${at(a)}`;
}

/**
 * SVG path of the wedge a hand at `angle` swept through in its last `swept` radians: a sector
 * of radius r ending at the hand, the whole disc once swept is a full turn or more (a blur).
 */
export function sweptWedge(cx, cy, r, swept, angle) {
  if (!(swept > 1e-3)) return "";
  if (swept >= TAU_HEAT) return `M ${cx + r} ${cy} A ${r} ${r} 0 1 0 ${cx - r} ${cy} A ${r} ${r} 0 1 0 ${cx + r} ${cy} Z`;
  const at = (t) => `${cx + r * Math.cos(t)} ${cy - r * Math.sin(t)}`;
  return `M ${cx} ${cy} L ${at(angle - swept)} A ${r} ${r} 0 ${swept > Math.PI ? 1 : 0} 0 ${at(angle)} Z`;
}

function render({ model, el }) {
  const data = model.get("data");
  const size = 470, left = 34, top = 44, span = 270;
  const { root, svg, controls } = frame(el, { title: "R_m: one 2 × 2 rotation per pair of features", width: size, height: span + top + 102 });
  const say = announcer(root);
  let prompt = null;   // the question's prompt line (made once the sliders exist)
  const state = { d: model.get("dim_index"), b: model.get("base_index"), m: model.get("position"), p: model.get("pair") };
  const out = {};
  let pairSlider = null;
  // While play runs: the real m drawn (between whole positions) and where this run started;
  // null when stopped (everything is drawn at the slider's whole m).
  let smooth = null;
  const drawnM = () => (smooth !== null ? smooth : data.positions[state.m]);
  // Diverging scale mixed into the page's own background, so 0 is the background in light and
  // dark mode alike: blue (q colour) for −1, orange (k colour) for +1.
  const colour = (v) => {
    const t = Math.max(-1, Math.min(1, v));
    const share = Math.round(Math.abs(t) * 1000) / 10;
    return `color-mix(in srgb, var(${t >= 0 ? "--rope-w-k" : "--rope-w-q"}) ${share}%, var(--rope-w-bg))`;
  };
  function showPair(i, text) {
    out.hover.textContent = "";
    typeset(htmlEl("span", {}, out.hover), text);
    hoverBox.setAttribute("x", left + 2 * i * (span / data.dims[state.d]));
    hoverBox.setAttribute("y", top + 2 * i * (span / data.dims[state.d]));
    hoverBox.setAttribute("visibility", "visible");
    hoverBox.dataset.pair = i;
    drawn.dials.forEach((dial, k) => dial.group.classList.toggle("rope-w-hover-clock", k === i));
  }
  function showCell(e) {
    const { layout, values, angles, tab } = drawn;
    const r = layout.rows[e], c = layout.cols[e], i = Math.floor(r / 2);
    const what = (r % 2 === c % 2) ? "cos" : (r % 2 === 0 ? "−sin" : "sin");
    showPair(i, `row ${r}, column ${c}: ${what}(m·θ_{${i}}) = ${fmt3(values[e])}; m·θ_{${i}} = ${fmt3(angles[i])} rad, λ_{${i}} = ${fmt3(tab.wavelength[i])}`);
    Object.assign(out.hover.dataset, { row: r, col: c, pair: i, value: values[e], angle: angles[i], wavelength: tab.wavelength[i] });
  }
  function showDial(i) {
    const { angles, tab } = drawn, x = Math.cos(angles[i]), y = Math.sin(angles[i]);
    showPair(i, `pair ${i}: x's (1, 0) becomes (R_m x)_{${2 * i}, ${2 * i + 1}} = (${fmt3(x)}, ${fmt3(y)}), turned by m·θ_{${i}} = ${fmt3(angles[i])} rad (${fmt3(angles[i] / TAU_HEAT)} turns)`);
    Object.assign(out.hover.dataset, { pair: i, angle: angles[i], x, y, wavelength: tab.wavelength[i] });
  }
  let hoverBox = null;
  // The drawing of each d, made once and kept: a new position, base or pair only recolours the
  // cells, turns the arrows and moves the pair's outline, in place; a d seen before puts its
  // drawing back (the per-slider redraw budget is 4 ms, a phone's CPU is ~4x slower).
  const drawings = new Map();
  let drawn = null;
  function hide() {
    hideTip(root);
    setText(out.hover, "hover, tap or focus a cell or a dial for its numbers");
    for (const key of Object.keys(out.hover.dataset)) if (key !== "readout") delete out.hover.dataset[key];
    if (hoverBox && hoverBox.getAttribute("visibility") !== "hidden") { hoverBox.setAttribute("visibility", "hidden"); delete hoverBox.dataset.pair; }
    if (drawn) for (const dial of drawn.dials) dial.group.classList.remove("rope-w-hover-clock");
  }
  function draw() {
    const dim = data.dims[state.d], tab = data.tables[state.d][state.b], layout = data.layouts[state.d];
    if (pairSlider) state.p = pairSlider.setCount(dim / 2);
    const cell = span / dim, m = drawnM();
    if (!drawn || drawn.dim !== dim) {
      if (!drawings.has(dim)) drawings.set(dim, drawMatrix(dim, layout, cell));
      drawn = drawings.get(dim);
      svg.replaceChildren(...drawn.nodes, ...fixed);
      hoverBox = drawn.hoverBox;
    }
    // Colours and arrows only when d, the base or m changed (a new pair keeps them).
    const key = `${state.d} ${state.b} ${m}`;
    if (drawn.painted !== key) {
      drawn.painted = key;
      const angles = tab.theta.map((theta) => m * theta), values = blockEntries(layout.rows, layout.cols, angles);
      Object.assign(drawn, { tab, layout, angles, values });
      svg.dataset.m = m;
      drawn.marks.forEach((rect, e) => {
        rect.setAttribute("style", `fill: ${colour(values[e])}`);
        rect.setAttribute("data-value", values[e]);
        rect.setAttribute("aria-label", `row ${layout.rows[e]}, column ${layout.cols[e]}: ${fmt3(values[e])}`);
      });
      // While playing, a wedge trails each hand over the turn of its last SWEEP_POSITIONS
      // positions: wide for a fast pair, nothing to see for a slow one.
      const swept = smooth === null ? 0 : SWEEP_POSITIONS;
      drawn.dials.forEach(({ group, hand, wedge, cx, cy, radius }, i) => {
        const a = angles[i], x = Math.cos(a), y = Math.sin(a);
        drawn.vector[2 * i].setAttribute("style", `fill: ${colour(x)}`);
        drawn.vector[2 * i].setAttribute("data-value", x);
        drawn.vector[2 * i + 1].setAttribute("style", `fill: ${colour(y)}`);
        drawn.vector[2 * i + 1].setAttribute("data-value", y);
        moveArrow(hand, cx, cy, cx + radius * x, cy - radius * y);
        wedge.setAttribute("d", sweptWedge(cx, cy, radius, swept * tab.theta[i], a));
        wedge.dataset.swept = swept * tab.theta[i];
        // The same turn inside the block itself: the block is this rotation.
        const inside = drawn.turns[i];
        moveArrow(inside.hand, inside.cx, inside.cy, inside.cx + inside.radius * x, inside.cy - inside.radius * y);
        inside.arc.setAttribute("d", turnArc(inside.cx, inside.cy, 0.55 * inside.radius, a));
        Object.assign(inside.group.dataset, { angle: a, wrapped: wrapTurn(a) });
        Object.assign(group.dataset, { angle: a, x, y });
        group.setAttribute("aria-label", `pair ${i}: turned by ${fmt3(a)} rad`);
      });
    }
    const p = state.p, values = drawn.values, angle = drawn.angles[p];
    if (drawn.selected.dataset.pair !== String(p)) {
      for (const [k, value] of Object.entries({ x: left + 2 * p * cell, y: top + 2 * p * cell, "data-pair": p })) drawn.selected.setAttribute(k, value);
    }
    // Tab enters the matrix at the highlighted pair's first cell.
    drawn.marks.forEach((rect, e) => {
      const stop = e === 4 * p ? "0" : "-1";
      if (rect.getAttribute("tabindex") !== stop) rect.setAttribute("tabindex", stop);
    });
    const base = 4 * p;
    blockMatrix(out.block, [values[base], values[base + 1], values[base + 2], values[base + 3]]);
    Object.assign(out.block.dataset, { cos: values[base], sin: values[base + 2], pair: p, angle });
    typeset(out.blockLabel, `R(m·θ_{${p}}) =`);
    typeset(out.theta, `θ_{${p}} = ${fmt3(tab.theta[p])}, m·θ_{${p}} = ${fmt3(angle)} rad, λ_{${p}} = ${fmt3(tab.wavelength[p])}`);
    Object.assign(out.theta.dataset, { theta: tab.theta[p], wavelength: tab.wavelength[p] });
    ask(tab);
    hide();
  }
  // The question: which blocks are still nearly the identity at the question's m? Its answer
  // (the first such block, -1 for none) from θ_i, judged at that m wherever the slider is;
  // shown once the reader predicted and took m there or past it.
  const askedM = data.question ?? data.positions[data.positions.length - 1];
  const askedIndex = data.positions.indexOf(askedM);
  const stillFrom = (tab) => firstStill(tab.theta, askedM);
  const blocksFrom = (first, pairs) => (first === pairs - 1 ? `block ${first}` : `blocks ${first}–${pairs - 1}`);
  function answerText(tab) {
    const still = stillFrom(tab), pairs = tab.theta.length;
    let text = still < 0
      ? `At m = ${askedM} every block has turned by more than ${NEARLY} rad; at base ${fmt3(data.bases[state.b])} even the slowest pair turns ${fmt3(askedM * tab.theta[pairs - 1])} rad.`
      : `At m = ${askedM}, ${blocksFrom(still, pairs)} ${still === pairs - 1 ? "has" : "have"} turned by less than ${NEARLY} rad (cos > 0.995): still nearly the identity, while block 0 has gone round ${fmt3(askedM * tab.theta[0] / TAU_HEAT)} times.`;
    // Past the question's m, what the slider shows now: the slow blocks turn too, later.
    const m = data.positions[state.m];
    if (m > askedM) {
      const now = firstStill(tab.theta, m);
      text += ` (The slider is past ${askedM}, at m = ${m}: `
        + (now < 0 ? `there every block has turned by ${NEARLY} rad or more; the slowest by ${fmt3(m * tab.theta[pairs - 1])} rad.)`
          : `there ${blocksFrom(now, pairs)} still ${now === pairs - 1 ? "turns" : "turn"} by less than ${NEARLY} rad.)`);
    }
    return text;
  }
  function ask(tab) {
    if (!prompt) return;
    const answered = data.positions[state.m] >= askedM && smooth === null;
    Object.assign(prompt.dataset, { answered: answered && quiz.predicted() ? "1" : "0", still: stillFrom(tab) });
    // Frames of play are not announced: the result is, once m stands still.
    if (smooth !== null) return;
    const m = data.positions[state.m];
    if (quiz.predicted()) say(`m = ${m}; block 0 turned ${fmt3(m * tab.theta[0])} rad, the last block ${fmt3(m * tab.theta[tab.theta.length - 1])} rad`);
    quiz.refresh();
  }
  // A 2 × 2 matrix written as one: brackets around two rows.
  function blockMatrix(node, entries) {
    if (!node.firstChild) {
      node.classList.add("rope-w-heat-matrix");
      for (let k = 0; k < 4; k++) htmlEl("span", {}, node, "");
    }
    entries.forEach((v, k) => setText(node.children[k], fmt3(v)));
  }
  // Everything of a d that does not change with m, the base or the pair: the cells (coloured
  // by draw()), the vector columns, the dials, the ticks, the outlines. Returns its nodes, not
  // yet in the drawing (draw() puts them there, before the parts every d shares).
  function drawMatrix(dim, layout, cell) {
    svg.replaceChildren();
    // Zeros outside the blocks: the background colour, inside an outline (>= 3:1).
    svgEl("rect", { x: left, y: top, width: span, height: span, style: `fill: ${colour(0)}`, class: "rope-w-outline" }, svg);
    const marks = [];
    for (let e = 0; e < layout.rows.length; e++) {
      const r = layout.rows[e], c = layout.cols[e];
      marks.push(svgEl("rect", { x: left + c * cell, y: top + r * cell, width: cell, height: cell, "data-row": r, "data-col": c }, svg));
    }
    // Tick labels: every column and row while they fit, else every other / every fourth.
    const every = dim <= 8 ? 1 : dim <= 16 ? 2 : 4;
    for (let j = 0; j < dim; j += every) {
      svgEl("text", { x: left + (j + 0.5) * cell, y: top - 6, "text-anchor": "middle", class: "rope-w-muted-text", "data-tick-x": j }, svg).textContent = String(j);
      svgEl("text", { x: left - 5, y: top + (j + 0.5) * cell + 4, "text-anchor": "end", class: "rope-w-muted-text", "data-tick-y": j }, svg).textContent = String(j);
    }
    // x and R_m x, as columns of cells beside the matrix.
    const strip = Math.min(cell, 20), xs = left + span + 22, rx = xs + strip + 26, middle = top + span / 2;
    const vector = [];
    for (let j = 0; j < dim; j++) {
      svgEl("rect", { x: xs, y: top + j * cell, width: strip, height: cell, style: `fill: ${colour(layout.x[j])}`, class: "rope-w-outline", "data-x": j, "data-value": layout.x[j] }, svg);
      vector.push(svgEl("rect", { x: rx, y: top + j * cell, width: strip, height: cell, class: "rope-w-outline", "data-rotated": j }, svg));
    }
    svgEl("text", { x: xs + strip / 2, y: top - 6, "text-anchor": "middle" }, svg).textContent = "x";
    // R_m · x = R_m x: the operators drawn as shapes, a dot of radius 3.5 and two 14 px bars,
    // so that they read at any text size.
    const ink = "fill: var(--rope-w-fg)";
    svgEl("circle", { cx: left + span + 11, cy: middle, r: 3.5, style: ink, "data-operator": "times" }, svg);
    const equals = svgEl("g", { "data-operator": "equals" }, svg);
    for (const dy of [-5, 2]) svgEl("rect", { x: xs + strip + 6, y: middle + dy, width: 14, height: 3, style: ink }, equals);
    typeset(svgEl("text", { x: rx + strip / 2, y: top - 6, "text-anchor": "middle" }, svg), "R_m x");
    // One dial per pair, centred on its block's rows: x's pair (dashed, (1, 0)) and the pair
    // of R_m x (solid), with the wedge play shades.
    const radius = Math.max(6, Math.min(cell - 3, 30)), dx = rx + strip + 8 + radius;
    const dials = [];
    for (let i = 0; i < dim / 2; i++) {
      const cy = top + (2 * i + 1) * cell, group = svgEl("g", { "data-dial": i }, svg);
      svgEl("circle", { cx: dx, cy, r: radius + 3, class: "rope-w-clock-hit" }, group);
      svgEl("circle", { cx: dx, cy, r: radius, class: "rope-w-meaning" }, group);
      const wedge = svgEl("path", { class: "rope-w-clock-sweep", "data-sweep": i, d: "" }, group);
      const before = arrow(group, dx, cy, dx + radius * layout.x[2 * i], cy - radius * layout.x[2 * i + 1], "ghost");
      before.dataset.before = i;
      dials.push({ group, wedge, hand: arrow(group, dx, cy, dx + radius, cy, "q"), cx: dx, cy, radius });
    }
    // Inside each 2 × 2 block, an arrow from its centre turned by m·θ_i and the arc from 0 to
    // that angle (mod 2π): what the block does to its pair, seen where its four entries are
    // (no pointer events: the cells keep hover).
    const turns = [];
    for (let i = 0; i < dim / 2; i++) {
      const cx = left + (2 * i + 1) * cell, cy = top + (2 * i + 1) * cell, group = svgEl("g", { class: "rope-w-block-turn", "data-block-turn": i, "pointer-events": "none" }, svg);
      svgEl("circle", { cx, cy, r: 0.8 * cell, class: "rope-w-block-ring" }, group);
      // A tick across the ring at NEARLY rad: a hand still between 3 o'clock and the tick is a
      // block still nearly the identity.
      const [inner, outer] = [0.8 * cell - 4, 0.8 * cell + 4];
      const tick = (r) => `${cx + r * Math.cos(NEARLY)} ${cy - r * Math.sin(NEARLY)}`;
      svgEl("path", { d: `M ${tick(inner)} L ${tick(outer)}`, class: "rope-w-block-tick", "data-block-tick": i }, group);
      const arc = svgEl("path", { d: "", style: "fill: none; stroke: var(--rope-w-fg); stroke-width: 1.6", "data-block-arc": i }, group);
      turns.push({ group, arc, hand: arrow(group, cx, cy, cx + 0.8 * cell, cy, "rope-w-block-hand"), cx, cy, radius: 0.8 * cell });
    }
    const selected = svgEl("rect", { width: 2 * cell, height: 2 * cell, class: "rope-w-selected" }, svg);
    const hovered = svgEl("rect", { x: left, y: top, width: 2 * cell, height: 2 * cell, class: "rope-w-hovered", visibility: "hidden" }, svg);
    const result = { dim, marks, vector, dials, turns, selected, hoverBox: hovered, values: null, angles: null, nodes: [...svg.children] };
    // Hover reads the entries of the moment (draw() keeps them on `drawn`), not the first ones.
    hoverable(marks, { columns: 2, onShow: (e) => { showCell(e); showTip(marks[e], out.hover); }, onHide: hide });
    hoverable(dials.map((dial) => dial.group), { columns: 1, onShow: (i) => { showDial(i); showTip(dials[i].group, out.hover); }, onHide: hide });
    svg.replaceChildren();
    return result;
  }
  // The parts every d shares: title line, legends and the colour scale (drawn once).
  const fixed = (() => {
    svg.replaceChildren();
    typeset(svgEl("text", { x: left + span / 2, y: 14, "text-anchor": "middle", class: "rope-w-muted-text" }, svg), "R_m: rows and columns are features");
    svgEl("text", { x: left, y: top + span + 56, class: "rope-w-muted-text" }, svg).textContent = "x: every pair (1, 0), dashed on the dials";
    typeset(svgEl("text", { x: left, y: top + span + 74, class: "rope-w-muted-text" }, svg), "arrows and arcs: each pair turned by m·θ_i");
    svgEl("text", { x: left, y: top + span + 92, class: "rope-w-muted-text", "data-legend": "tick" }, svg).textContent = `tick on each ring: ${NEARLY} rad from the start`;
    colourScale(svg, { x: left, y: top + span + 12, width: 180, colour, ticks: [-1, 0, 1], label: "entry value" });
    return [...svg.children];
  })();
  const sync = syncer(model, state, draw);
  out.hover = readout(controls, "hover", "");
  out.hover.parentElement.classList.add("rope-w-hover");
  out.hover.setAttribute("aria-live", "polite");
  const position = slider(controls, { label: "position m", name: "position", values: data.positions, index: state.m, onInput: sync("m", "position") });
  playButton(controls, position);
  scrollClearOfReach(keepInReach(position));
  slider(controls, { label: "base", name: "base", values: data.bases, index: state.b, format: fmt3, onInput: sync("b", "base_index") });
  slider(controls, { label: "dimension d", name: "dim", values: data.dims, index: state.d, onInput: sync("d", "dim_index") });
  const pairs = Array.from({ length: Math.max(...data.dims) / 2 }, (_, i) => i);
  pairSlider = slider(controls, { label: "highlight pair i", name: "pair", values: pairs, index: state.p, onInput: sync("p", "pair") });
  const tabNow = () => data.tables[state.d][state.b];
  const quiz = question(htmlEl("div", {}, null), {
    prompt: `At m = ${askedM}, which blocks will still be nearly the identity (turned by less than ${NEARLY} rad)?`,
    choices: [
      { label: "the top blocks (the fast pairs)" },
      { label: "the bottom blocks (the slow pairs)", correct: () => stillFrom(tabNow()) >= 0 },
      { label: "none of them", correct: () => stillFrom(tabNow()) < 0 },
    ],
    reached: () => data.positions[state.m] >= askedM && smooth === null,
    task: `press ▶ (or move m) to m = ${askedM} and watch the arrows in the blocks.`,
    explain: () => answerText(tabNow()),
  });
  root.insertBefore(quiz.node, root.children[1]);
  prompt = quiz.node.querySelector(".rope-w-question-prompt");
  prompt.dataset.readout = "question";
  quiz.node.querySelector(".rope-w-answers").addEventListener("click", () => draw());
  const blockRow = htmlEl("div", { class: "rope-w-readout" }, controls);
  out.blockLabel = htmlEl("span", { class: "rope-w-readout-label" }, blockRow);
  out.block = htmlEl("span", { "data-readout": "block" }, blockRow);
  out.theta = readout(controls, "theta", "");
  draw();

  // Play: m runs smoothly from where it stands (from 0 at the end) along the slider's stops,
  // PLAY_SPEED stops a second below the question's m, where it halts (the frame the question
  // asks about), and PLAY_SPEED_PAST stops a second from there to the last position, where it
  // halts again. The slider follows the stop passed; any move of the reader's own (a slider, a
  // key, a press) stops it, and the drawing settles on the slider's stop. Reduced motion: one
  // stop a second, no motion in between.
  function playButton(parent, control) {
    const button = htmlEl("button", { type: "button", class: "rope-w-play", "aria-pressed": "false",
      "data-name": "play", "aria-label": "play position m" }, parent, "▶ play");
    const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    let frameId = null, timer = null, start = null, fromIndex = 0;
    // Where this run halts: the question's stop when it started below it, else the last.
    const haltIndex = () => (fromIndex < askedIndex ? askedIndex : lastIndex);
    const running = () => frameId !== null || timer !== null;
    const lastIndex = data.positions.length - 1;
    const stop = () => {
      if (frameId !== null) cancelAnimationFrame(frameId);
      if (timer !== null) clearInterval(timer);
      frameId = timer = null;
      button.setAttribute("aria-pressed", "false");
      button.setAttribute("aria-label", "play position m");
      button.textContent = "▶ play";
      if (smooth !== null) { smooth = null; if (button.isConnected) draw(); }
    };
    const tick = (now) => {
      if (!button.isConnected) { stop(); return; }
      if (start === null) start = now;
      const halt = haltIndex(), speed = halt === askedIndex ? PLAY_SPEED : PLAY_SPEED_PAST;
      const at = fromIndex + speed * (now - start) / 1000;
      if (at >= halt) {
        smooth = null;
        control.set(halt);
        stop();
        return;
      }
      const real = positionAt(data.positions, at);
      smooth = real;
      const whole = Math.floor(at);
      if (whole !== state.m) control.set(whole); else draw();
      frameId = requestAnimationFrame(tick);
    };
    button.addEventListener("click", () => {
      if (running()) { stop(); return; }
      if (state.m >= lastIndex) control.set(0);
      fromIndex = state.m;
      button.setAttribute("aria-pressed", "true");
      button.setAttribute("aria-label", "pause position m");
      button.textContent = "❚❚ pause";
      start = null;
      if (reduced()) {
        timer = setInterval(() => {
          if (!button.isConnected) { stop(); return; }
          control.set(Math.min(haltIndex(), state.m + 1));
          if (state.m >= haltIndex()) stop();
        }, 1000);
      } else {
        frameId = requestAnimationFrame(tick);
      }
    });
    button.addEventListener("keydown", (event) => event.stopPropagation());
    const takeOver = (event) => {
      if (!running() || button.contains(event.target)) return;
      if (event.type === "keydown" && !(event.target instanceof Element && event.target.closest("input, [role=slider], button"))) return;
      stop();
    };
    requestAnimationFrame(() => {
      const widget = button.closest(".rope-w") || parent;
      for (const type of ["input", "pointerdown", "keydown"]) widget.addEventListener(type, takeOver, true);
    });
    return { button, stop };
  }
}
export default { render };
