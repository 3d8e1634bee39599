// The block-diagonal matrix R_m as a heat map, times a vector x whose pairs all start at
// (1, 0): R_m x holds each pair turned by m·θ_i, drawn as a dial beside its 2×2 block (the
// frequency clocks' glyph and colours) and as an arrow inside the block itself. Hovering a
// block or a dial marks both. Every entry
// comes from Python (matrix_table); the page only looks values up.
import { svgEl, htmlEl, slider, readout, fmt3, typeset, player, hoverable, colourScale, frame, arrow, moveArrow, syncer, showTip, hideTip, setText, announcer, keepInReach } from "./common.js";
import { question } from "./lesson.js";
const TAU_HEAT = 2 * Math.PI;

function render({ model, el }) {
  const data = model.get("data");
  const size = 470, left = 34, top = 44, span = 270;
  const { root, svg, controls } = frame(el, { title: "R_m: one 2 × 2 rotation per pair of features", width: size, height: span + top + 84 });
  const say = announcer(root);
  let prompt = null;   // the question's prompt line (made once the sliders exist)
  const state = { d: model.get("dim_index"), b: model.get("base_index"), m: model.get("position"), p: model.get("pair") };
  const out = {};
  let pairSlider = null;
  // Diverging scale mixed into the page's own background, so 0 is the background in light and
  // dark mode alike: blue (q colour) for −1, orange (k colour) for +1.
  const colour = (v) => {
    const t = Math.max(-1, Math.min(1, v));
    const share = Math.round(Math.abs(t) * 1000) / 10;
    return `color-mix(in srgb, var(${t >= 0 ? "--rope-w-k" : "--rope-w-q"}) ${share}%, var(--rope-w-bg))`;
  };
  function showPair(tab, i, text) {
    out.hover.textContent = "";
    typeset(htmlEl("span", {}, out.hover), text);
    hoverBox.setAttribute("x", left + 2 * i * (span / data.dims[state.d]));
    hoverBox.setAttribute("y", top + 2 * i * (span / data.dims[state.d]));
    hoverBox.setAttribute("visibility", "visible");
    hoverBox.dataset.pair = i;
    drawn.dials.forEach((dial, k) => dial.group.classList.toggle("rope-w-hover-clock", k === i));
  }
  function showCell(tab, values, e) {
    const r = tab.rows[e], c = tab.cols[e], i = Math.floor(r / 2);
    const angle = tab.angle[state.m][i];
    const what = (r % 2 === c % 2) ? "cos" : (r % 2 === 0 ? "−sin" : "sin");
    showPair(tab, i, `row ${r}, column ${c}: ${what}(m·θ_{${i}}) = ${fmt3(values[e])}; m·θ_{${i}} = ${fmt3(angle)} rad, λ_{${i}} = ${fmt3(tab.wavelength[i])}`);
    Object.assign(out.hover.dataset, { row: r, col: c, pair: i, value: values[e], angle, wavelength: tab.wavelength[i] });
  }
  function showDial(tab, i) {
    const angle = tab.angle[state.m][i], v = tab.rotated[state.m];
    showPair(tab, i, `pair ${i}: (R_m x)_{${2 * i}, ${2 * i + 1}} = (${fmt3(v[2 * i])}, ${fmt3(v[2 * i + 1])}), turned by m·θ_{${i}} = ${fmt3(angle)} rad (${fmt3(angle / TAU_HEAT)} turns)`);
    Object.assign(out.hover.dataset, { pair: i, angle, x: v[2 * i], y: v[2 * i + 1], wavelength: tab.wavelength[i] });
  }
  let hoverBox = null;
  // The drawing of each d, made once and kept: a new position, base or pair only recolours the
  // cells, turns the dials and moves the pair's outline, in place; a d seen before puts its
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
    const dim = data.dims[state.d], tab = data.tables[state.d][state.b];
    if (pairSlider) state.p = pairSlider.setCount(dim / 2);
    const cell = span / dim, values = tab.blocks[state.m];
    if (!drawn || drawn.dim !== dim) {
      if (!drawings.has(dim)) drawings.set(dim, drawMatrix(dim, tab, cell));
      drawn = drawings.get(dim);
      svg.replaceChildren(...drawn.nodes, ...fixed);
      hoverBox = drawn.hoverBox;
    }
    drawn.tab = tab;
    drawn.values = values;
    // Colours and hands only when the entries changed (a new pair keeps them).
    if (drawn.painted !== values) {
      drawn.painted = values;
      drawn.marks.forEach((rect, e) => {
        rect.setAttribute("style", `fill: ${colour(values[e])}`);
        rect.setAttribute("data-value", values[e]);
        rect.setAttribute("aria-label", `row ${tab.rows[e]}, column ${tab.cols[e]}: ${fmt3(values[e])}`);
      });
      // R_m x: its entries coloured on the same scale; each pair as a dial's hand.
      const rotated = tab.rotated[state.m];
      drawn.vector.forEach((rect, j) => {
        rect.setAttribute("style", `fill: ${colour(rotated[j])}`);
        rect.setAttribute("data-value", rotated[j]);
      });
      drawn.dials.forEach(({ group, hand, cx, cy, radius }, i) => {
        const x = rotated[2 * i], y = rotated[2 * i + 1];
        moveArrow(hand, cx, cy, cx + radius * x, cy - radius * y);
        // The same turn inside the block itself: the block is this rotation.
        const inside = drawn.turns[i];
        moveArrow(inside.hand, inside.cx, inside.cy, inside.cx + inside.radius * x, inside.cy - inside.radius * y);
        inside.hand.dataset.angle = tab.angle[state.m][i];
        Object.assign(group.dataset, { angle: tab.angle[state.m][i], x, y });
        group.setAttribute("aria-label", `pair ${i}: turned by ${fmt3(tab.angle[state.m][i])} rad`);
      });
    }
    const p = state.p;
    if (drawn.selected.dataset.pair !== String(p)) {
      for (const [key, value] of Object.entries({ x: left + 2 * p * cell, y: top + 2 * p * cell, "data-pair": p })) drawn.selected.setAttribute(key, value);
    }
    // Tab enters the matrix at the highlighted pair's first cell.
    drawn.marks.forEach((rect, e) => {
      const stop = e === 4 * p ? "0" : "-1";
      if (rect.getAttribute("tabindex") !== stop) rect.setAttribute("tabindex", stop);
    });
    const base = 4 * p;
    blockMatrix(out.block, [values[base], values[base + 1], values[base + 2], values[base + 3]]);
    Object.assign(out.block.dataset, { cos: values[base], sin: values[base + 2], pair: p, angle: tab.angle[state.m][p] });
    typeset(out.blockLabel, `R(m·θ_{${p}}) =`);
    typeset(out.theta, `θ_{${p}} = ${fmt3(tab.theta[p])}, m·θ_{${p}} = ${fmt3(tab.angle[state.m][p])} rad, λ_{${p}} = ${fmt3(tab.wavelength[p])}`);
    Object.assign(out.theta.dataset, { theta: tab.theta[p], wavelength: tab.wavelength[p] });
    ask(tab);
    hide();
  }
  // The question: which blocks are still nearly the identity at the last position? Its answer
  // (the first such block, -1 for none) from the table; shown once the reader predicted and
  // took m there.
  const stillFrom = (tab) => tab.angle[data.positions.length - 1].map((a) => a < 0.1).indexOf(true);
  function answerText(tab) {
    const last = data.positions.length - 1, m = data.positions[last];
    const still = stillFrom(tab), pairs = tab.theta.length;
    return still < 0
      ? `At m = ${m} every block has turned by more than 0.1 rad; at base ${fmt3(data.bases[state.b])} even the slowest pair turns ${fmt3(tab.angle[last][pairs - 1])} rad.`
      : `At m = ${m}, ${still === pairs - 1 ? `block ${still} has` : `blocks ${still}–${pairs - 1} have`} turned by less than 0.1 rad (cos > 0.995): still nearly the identity, while block 0 has gone round ${fmt3(tab.angle[last][0] / TAU_HEAT)} times.`;
  }
  function ask(tab) {
    if (!prompt) return;
    const answered = state.m === data.positions.length - 1;
    Object.assign(prompt.dataset, { answered: answered && quiz.predicted() ? "1" : "0", still: stillFrom(tab) });
    if (quiz.predicted()) say(`m = ${data.positions[state.m]}; block 0 turned ${fmt3(tab.angle[state.m][0])} rad, the last block ${fmt3(tab.angle[state.m][tab.theta.length - 1])} rad`);
    quiz.refresh();
  }
  // A 2 × 2 matrix written as one: brackets around two rows.
  function blockMatrix(node, entries) {
    if (!node.firstChild) {
      node.classList.add("rope-w-matrix");
      for (let k = 0; k < 4; k++) htmlEl("span", {}, node, "");
    }
    entries.forEach((v, k) => setText(node.children[k], fmt3(v)));
  }
  // Everything of a d that does not change with m, the base or the pair: the cells (coloured
  // by draw()), the vector columns, the dials, the ticks, the outlines. Returns its nodes, not
  // yet in the drawing (draw() puts them there, before the parts every d shares).
  function drawMatrix(dim, tab, cell) {
    svg.replaceChildren();
    // Zeros outside the blocks: the background colour, inside an outline (>= 3:1).
    svgEl("rect", { x: left, y: top, width: span, height: span, style: `fill: ${colour(0)}`, class: "rope-w-outline" }, svg);
    const marks = [];
    for (let e = 0; e < tab.rows.length; e++) {
      const r = tab.rows[e], c = tab.cols[e];
      marks.push(svgEl("rect", { x: left + c * cell, y: top + r * cell, width: cell, height: cell, "data-row": r, "data-col": c }, svg));
    }
    // Tick labels: every column and row while they fit, else every other / every fourth.
    const every = dim <= 8 ? 1 : dim <= 16 ? 2 : 4;
    for (let j = 0; j < dim; j += every) {
      svgEl("text", { x: left + (j + 0.5) * cell, y: top - 6, "text-anchor": "middle", class: "rope-w-muted-text", "data-tick-x": j }, svg).textContent = String(j);
      svgEl("text", { x: left - 5, y: top + (j + 0.5) * cell + 4, "text-anchor": "end", class: "rope-w-muted-text", "data-tick-y": j }, svg).textContent = String(j);
    }
    // x (every pair (1, 0)) and R_m x, as columns of cells beside the matrix.
    const strip = Math.min(cell, 20), xs = left + span + 12, rx = xs + strip + 22;
    const vector = [];
    for (let j = 0; j < dim; j++) {
      svgEl("rect", { x: xs, y: top + j * cell, width: strip, height: cell, style: `fill: ${colour(j % 2 === 0 ? 1 : 0)}`, class: "rope-w-outline", "data-x": j }, svg);
      vector.push(svgEl("rect", { x: rx, y: top + j * cell, width: strip, height: cell, class: "rope-w-outline", "data-rotated": j }, svg));
    }
    svgEl("text", { x: xs + strip / 2, y: top - 6, "text-anchor": "middle" }, svg).textContent = "x";
    // R_m · x = R_m x, its operators large enough to read between the columns.
    svgEl("text", { x: xs + strip + 11, y: top + span / 2 + 7, "text-anchor": "middle", class: "rope-w-operator", "data-operator": "equals" }, svg).textContent = "=";
    svgEl("text", { x: xs - 6, y: top + span / 2 + 7, "text-anchor": "middle", class: "rope-w-operator", "data-operator": "times" }, svg).textContent = "·";
    typeset(svgEl("text", { x: rx + strip / 2, y: top - 6, "text-anchor": "middle" }, svg), "R_m x");
    // One dial per pair, centred on its block's rows: the pair of R_m x as a hand.
    const radius = Math.max(6, Math.min(cell - 3, 30)), dx = rx + strip + 8 + radius;
    const dials = [];
    for (let i = 0; i < dim / 2; i++) {
      const cy = top + (2 * i + 1) * cell, group = svgEl("g", { "data-dial": i }, svg);
      svgEl("circle", { cx: dx, cy, r: radius + 3, class: "rope-w-clock-hit" }, group);
      svgEl("circle", { cx: dx, cy, r: radius, class: "rope-w-meaning" }, group);
      dials.push({ group, hand: arrow(group, dx, cy, dx + radius, cy, "q"), cx: dx, cy, radius });
    }
    // Inside each 2 × 2 block, an arrow from its centre turned by m·θ_i: what the block does
    // to its pair, seen where its four entries are (no pointer events: the cells keep hover).
    const turns = [];
    for (let i = 0; i < dim / 2; i++) {
      const cx = left + (2 * i + 1) * cell, cy = top + (2 * i + 1) * cell, group = svgEl("g", { class: "rope-w-block-turn", "data-block-turn": i, "pointer-events": "none" }, svg);
      svgEl("circle", { cx, cy, r: 0.8 * cell, class: "rope-w-block-ring" }, group);
      turns.push({ hand: arrow(group, cx, cy, cx + 0.8 * cell, cy, "rope-w-block-hand"), cx, cy, radius: 0.8 * cell });
    }
    const selected = svgEl("rect", { width: 2 * cell, height: 2 * cell, class: "rope-w-selected" }, svg);
    const hovered = svgEl("rect", { x: left, y: top, width: 2 * cell, height: 2 * cell, class: "rope-w-hovered", visibility: "hidden" }, svg);
    const result = { dim, tab, marks, vector, dials, turns, selected, hoverBox: hovered, values: null, nodes: [...svg.children] };
    // Hover reads the table and entries of the moment, not the ones the cells were drawn with.
    hoverable(marks, { columns: 2, onShow: (e) => { showCell(result.tab, result.values, e); showTip(marks[e], out.hover); }, onHide: hide });
    hoverable(dials.map((dial) => dial.group), { columns: 1, onShow: (i) => { showDial(result.tab, i); showTip(dials[i].group, out.hover); }, onHide: hide });
    svg.replaceChildren();
    return result;
  }
  // The parts every d shares: title line, legends and the colour scale (drawn once).
  const fixed = (() => {
    svg.replaceChildren();
    typeset(svgEl("text", { x: left + span / 2, y: 14, "text-anchor": "middle", class: "rope-w-muted-text" }, svg), "R_m: rows and columns are features");
    svgEl("text", { x: left, y: top + span + 56, class: "rope-w-muted-text" }, svg).textContent = "x: every pair (1, 0)";
    typeset(svgEl("text", { x: left, y: top + span + 74, class: "rope-w-muted-text" }, svg), "dials: the pairs of R_m x (turned by m·θ_i)");
    colourScale(svg, { x: left, y: top + span + 12, width: 180, colour, ticks: [-1, 0, 1], label: "entry value" });
    return [...svg.children];
  })();
  const sync = syncer(model, state, draw);
  out.hover = readout(controls, "hover", "");
  out.hover.parentElement.classList.add("rope-w-hover");
  out.hover.setAttribute("aria-live", "polite");
  const position = slider(controls, { label: "position m", name: "position", values: data.positions, index: state.m, onInput: sync("m", "position") });
  player(controls, position, { label: "play position m", interval: 250 });
  keepInReach(position);
  slider(controls, { label: "base", name: "base", values: data.bases, index: state.b, format: fmt3, onInput: sync("b", "base_index") });
  slider(controls, { label: "dimension d", name: "dim", values: data.dims, index: state.d, onInput: sync("d", "dim_index") });
  const pairs = Array.from({ length: Math.max(...data.dims) / 2 }, (_, i) => i);
  pairSlider = slider(controls, { label: "highlight pair i", name: "pair", values: pairs, index: state.p, onInput: sync("p", "pair") });
  const last = data.positions[data.positions.length - 1];
  const tabNow = () => data.tables[state.d][state.b];
  const quiz = question(htmlEl("div", {}, null), {
    prompt: `At m = ${last}, which blocks will still be nearly the identity (turned by less than 0.1 rad)?`,
    choices: [
      { label: "the top blocks (the fast pairs)" },
      { label: "the bottom blocks (the slow pairs)", correct: () => stillFrom(tabNow()) >= 0 },
      { label: "none of them", correct: () => stillFrom(tabNow()) < 0 },
    ],
    reached: () => state.m === data.positions.length - 1,
    task: `press ▶ (or move m) to m = ${last} and watch the dials beside the blocks.`,
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
}
export default { render };
