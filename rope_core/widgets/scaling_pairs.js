// Every pair of a model under a context-extension scheme: one bar per pair (its turns over the
// target length), a tick at the turns it made over the trained length. Python computed every
// number (rope_core.demos.scaling_pairs); this module only draws them.
import { announcer, fmt3, frame, hoverable, htmlEl, keepInReach, readout, setText, slider, svgEl, syncer } from "./common.js";
import { question } from "./lesson.js";

const WIDTH = 360, HEIGHT = 292;
const LEFT = 44, RIGHT = 8, TOP = 10, BOTTOM = 212;
const LOG_LO = -3, LOG_HI = 6;  // 0.001 to 10⁶ turns: every pair of the offered models fits
const TICKS = { "-2": "0.01", 0: "1", 2: "100", 4: "10⁴", 6: "10⁶" };

const y = (log) => BOTTOM - ((Math.max(LOG_LO, Math.min(LOG_HI, log)) - LOG_LO) / (LOG_HI - LOG_LO)) * (BOTTOM - TOP);
const turns = (log) => fmt3(10 ** log);
// 131072 -> "131 072" (a regex: toLocaleString costs ~0.1 ms a call, and a step labels 64 pairs).
const tokens = (n) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, " ");

// A row of buttons of which one is pressed: a categorical choice (never a range slider).
function choices(parent, { label, names, index, onChoose }) {
  // rope-w-choice-grid: on a phone the buttons line up in equal columns instead of wrapping raggedly.
  // rope-w-segmented: on a wider page the buttons join into one bar a row, model over scheme.
  const row = htmlEl("div", { class: "rope-w-choices rope-w-choice-grid rope-w-segmented", role: "group", "aria-label": label }, parent);
  htmlEl("span", { class: "rope-w-choices-label", "aria-hidden": "true" }, row, label);
  const buttons = names.map((name, i) => {
    const b = htmlEl("button", { type: "button", class: "rope-w-choice-button", "data-choice": i,
      "aria-pressed": String(i === index) }, row, name);
    b.addEventListener("click", () => { set(i); onChoose(i); });
    b.addEventListener("keydown", (event) => event.stopPropagation());
    return b;
  });
  const set = (i) => buttons.forEach((b, j) => b.setAttribute("aria-pressed", String(j === i)));
  return { row, buttons, set };
}

function render({ model, el }) {
  const data = model.get("data");
  const state = { model_index: model.get("model_index"), factor_index: model.get("factor_index"),
    scheme_index: model.get("scheme_index") };
  const { root, svg, controls } = frame(el, { title: "Every pair of a model, at a longer context", width: WIDTH, height: HEIGHT });
  root.dataset.widget = "scaling-pairs";

  // The question comes first, above the drawing: the reader commits before pressing schemes.
  const current = () => data.models[state.model_index];
  // The verdict waits until the reader's hand has pressed every scheme: its counts are theirs.
  const pressed = new Set();
  const unpressed = () => data.schemes.filter((s) => s !== "default" && !pressed.has(s));
  const ask = question(htmlEl("div"), {
    prompt: data.question.prompt,
    reached: () => unpressed().length === 0,
    task: () => `press ${unpressed().map((s) => data.names[data.schemes.indexOf(s)]).join(", ")} and count each one's orange bars.`,
    choices: data.question.choices.map((c) => ({ label: c.label, correct: sameSet(c.schemes, safeSchemes()) })),
    explain: () => {
      const m = current(), f = state.factor_index;
      const parts = data.schemes.filter((s) => s !== "default").map((s) =>
        `${data.names[data.schemes.indexOf(s)]}: ${m.cells[s][f].beyond.length}`);
      return `For ${m.title} at ${data.factors[f]}×, slow pairs still beyond training: ${parts.join(", ")}, of ${m.slow.length}. `
        + "NTK-aware raises the base: that slows the slowest pair by exactly the factor and the others less, so their bars "
      + "still end above their ticks in the shaded band.";
    },
  });
  root.insertBefore(ask.node, root.querySelector(".rope-w-body"));

  function safeSchemes() {
    const m = current();
    return data.schemes.filter((s) => s !== "default" && m.cells[s][state.factor_index].beyond.length === 0);
  }
  function sameSet(a, b) { return a.length === b.length && a.every((s) => b.includes(s)); }

  // Axes: log turns, a line at one full turn.
  for (const [log, text] of Object.entries(TICKS)) {
    svgEl("line", { x1: LEFT - 4, x2: WIDTH - RIGHT, y1: y(Number(log)), y2: y(Number(log)), class: "rope-w-axis" }, svg);
    svgEl("text", { x: LEFT - 6, y: y(Number(log)) + 4, "text-anchor": "end" }, svg).textContent = text;
  }
  svgEl("line", { x1: LEFT, x2: WIDTH - RIGHT, y1: y(0), y2: y(0), class: "rope-w-turn-line" }, svg);
  const turnLabel = svgEl("text", { x: WIDTH - RIGHT, y: y(0) - 4, "text-anchor": "end", class: "rope-w-muted-text" }, svg);
  turnLabel.textContent = "one turn";
  const axisLabel = svgEl("text", { x: (LEFT + WIDTH - RIGHT) / 2, y: BOTTOM + 30, "text-anchor": "middle" }, svg);
  // The y axis is named; the key says what a bar, its colour and a tick mean.
  const yName = svgEl("text", { x: 0, y: 0, "text-anchor": "middle", class: "rope-w-muted-text",
    transform: `translate(11 ${(TOP + BOTTOM) / 2}) rotate(-90)` }, svg);
  yName.textContent = "turns (log scale)";
  const key = svgEl("g", { class: "rope-w-pairs-key" }, svg);
  const keyRow = (yRow, entries) => entries.reduce((x, [swatch, text]) => {
    swatch(x, yRow);
    const label = svgEl("text", { x: x + 16, y: yRow + 4 }, key);
    label.textContent = text;
    return x + 16 + text.length * 6.6 + 14;
  }, 6);
  const barSwatch = (cls) => (x, yRow) => svgEl("rect", { x, y: yRow - 5, width: 10, height: 10, class: cls }, key);
  keyRow(BOTTOM + 50, [[barSwatch("rope-w-bar"), "turns over the target"],
    [(x, yRow) => svgEl("line", { x1: x, x2: x + 12, y1: yRow, y2: yRow, class: "rope-w-tick" }, key), "turns in training"]]);
  keyRow(BOTTOM + 72, [[barSwatch("rope-w-bar rope-w-bar-far"), "slow pair beyond training (above its tick)"]]);
  const slowBand = svgEl("rect", { y: TOP, height: BOTTOM - TOP, class: "rope-w-slow" }, svg);
  const bars = svgEl("g", {}, svg);
  const hits = svgEl("g", {}, svg);

  const pairs = current().log_trained.length;
  const step = (WIDTH - RIGHT - LEFT) / pairs;
  const barNodes = [], tickNodes = [], hitNodes = [];
  for (let i = 0; i < pairs; i++) {
    barNodes.push(svgEl("rect", { x: LEFT + i * step + step * 0.12, width: step * 0.76, class: "rope-w-bar", "data-pair": i }, bars));
    tickNodes.push(svgEl("line", { x1: LEFT + i * step, x2: LEFT + (i + 1) * step, class: "rope-w-tick", "data-tick": i }, bars));
    hitNodes.push(svgEl("rect", { x: LEFT + i * step, y: TOP, width: step, height: BOTTOM - TOP, class: "rope-w-pair-hit", "data-pair-hit": i }, hits));
  }

  // Controls: the model and the scheme as buttons, the target length as a slider.
  const sync = syncer(model, state, () => draw());
  const modelChoice = choices(controls, { label: "model", names: data.models.map((m) => m.title), index: state.model_index,
    onChoose: (i) => sync("model_index", "model_index")(i) });
  const schemeChoice = choices(controls, { label: "scheme", names: data.names, index: state.scheme_index,
    onChoose: (i) => { pressed.add(data.schemes[i]); sync("scheme_index", "scheme_index")(i); } });
  const target = slider(controls, { label: "target length", name: "factor", values: data.factors, index: state.factor_index,
    format: (s) => `${s}× L`, onInput: sync("factor_index", "factor_index") });
  target.output.setAttribute("aria-hidden", "true");  // the slider says its value itself, once
  keepInReach(target);  // on a phone, the main control stays in sight with the bars
  // A change made in a kernel (the buttons' own clicks have set the state already).
  for (const [key, control] of [["model_index", modelChoice], ["scheme_index", schemeChoice]]) {
    model.on(`change:${key}`, () => {
      if (state[key] === model.get(key)) return;
      state[key] = model.get(key);
      control.set(state[key]);
      draw();
    });
  }

  const result = readout(controls, "beyond", "slow pairs beyond training:");
  result.classList.add("rope-w-result");
  // The result is said through the widget's one live region (common.js announcer), which the
  // question shares, once the reader pauses.
  let say = null;
  const kept = readout(controls, "kept", "pairs the scheme left unchanged:");
  // The hint sits under the drawing it explains: on a phone the pinned slider at the bottom of
  // the screen would cover it at the end of the controls.
  const figure = htmlEl("div", { class: "rope-w-pairs-figure" });
  svg.before(figure);
  figure.append(svg);
  const hover = readout(figure, "pair", "");
  hover.parentElement.classList.add("rope-w-hover");
  let hovered = null;

  function describe(i) {
    const m = current(), cell = m.cells[data.schemes[state.scheme_index]][state.factor_index];
    const beyond = cell.beyond.includes(i) ? ", beyond training" : "";
    return `pair ${i}: ${turns(m.log_trained[i])} turns in training (${tokens(m.training_length)} tokens), `
      + `${turns(cell.log_target[i])} over ${tokens(cell.target)}${beyond}`;
  }

  hoverable(hitNodes, { onShow: (i) => { hovered = i; showHover(); }, onHide: () => { hovered = null; showHover(); } });
  function showHover() {
    hitNodes.forEach((n, i) => n.classList.toggle("rope-w-hover-pair", i === hovered));
    setText(hover, hovered === null ? "point at a pair (or Tab to it, then arrows) for its numbers" : describe(hovered));
  }

  let labelling = null;
  function labelPairs() {
    if (labelling !== null) return;
    const idle = window.requestIdleCallback || ((f) => setTimeout(f, 50));
    labelling = idle(() => {
      labelling = null;
      for (let i = 0; i < pairs; i++) hitNodes[i].setAttribute("aria-label", describe(i));
    });
  }

  function draw() {
    const m = current(), scheme = data.schemes[state.scheme_index];
    const cell = m.cells[scheme][state.factor_index];
    const beyond = new Set(cell.beyond);
    const slow = m.slow;
    if (slow.length) {
      slowBand.setAttribute("x", LEFT + slow[0] * step);
      slowBand.setAttribute("width", (slow[slow.length - 1] - slow[0] + 1) * step);
    }
    for (let i = 0; i < pairs; i++) {
      const top = y(cell.log_target[i]);
      barNodes[i].setAttribute("y", top);
      barNodes[i].setAttribute("height", Math.max(0, BOTTOM - top));
      barNodes[i].classList.toggle("rope-w-bar-far", beyond.has(i));
      const t = y(m.log_trained[i]);
      tickNodes[i].setAttribute("y1", t);
      tickNodes[i].setAttribute("y2", t);
    }
    // The pairs' names (their numbers) wait for an idle moment: a step paints first.
    labelPairs();
    setText(axisLabel, `pair i (shaded: < 1 turn in ${tokens(m.training_length)})`);
    const said = `${cell.beyond.length} of ${slow.length} (${data.names[state.scheme_index]}, ${tokens(cell.target)} tokens)`;
    setText(result, said);
    (say = say || announcer(result.closest(".rope-w") || controls))(`slow pairs beyond training: ${said}`);
    setText(kept, `${cell.kept.length} of ${pairs}`);
    svg.setAttribute("aria-label", `${m.title}, ${data.names[state.scheme_index]} at ${data.factors[state.factor_index]}× its `
      + `trained ${tokens(m.training_length)} tokens: a bar per pair for its turns over the target, a tick for its turns in training; `
      + `${cell.beyond.length} of ${slow.length} slow pairs end above their tick.`);
    showHover();
    ask.refresh();
  }
  draw();
}

export default { render };
