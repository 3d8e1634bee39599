// Context extension in the steps the chapter takes: (1) the problem: past the training length
// L each slow pair turns further than it ever did in training; (2) divide every frequency (PI,
// NTK-aware); (3) keep the fast pairs, divide the slow ones (YaRN, Llama 3.1); (4) real models.
// One dial per slow pair (its trained arc shaded, its hand at position p), every pair's
// wavelength with each line labelled at its end, and the numbers of all five schemes behind a
// toggle. The frequencies come from Python (rope_core.demos.context); what depends on the
// position p (each hand's angle, the count past their arcs) the page computes from them, so p
// can move in steps of 1 %.
import { svgEl, htmlEl, slider, fmt, keepTextSize, arrow, moveArrow, syncer, showTip, watchOnScreen, setText, announcer, keepInReach, player } from "./common.js";
const SCHEME_COLOURS = ["var(--rope-w-muted)", "var(--rope-w-q)", "var(--rope-w-k)", "var(--rope-w-rot)", "var(--rope-w-accent)"];
const BAND_NAMES = ["kept", "blended", "scaled"];
const BAND_COLOURS = ["var(--rope-w-q)", "var(--rope-w-accent)", "var(--rope-w-k)"];
const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };
// The steps: what each shows (schemes by their key in data.methods) and says.
const STEPS = [
  { key: "problem", tab: "1 · the problem", schemes: ["default"],
    title: "Past the training length L: what happens to the slow pairs?" },
  { key: "divide", tab: "2 · divide all", schemes: ["linear", "ntk"],
    title: "Two ways to rescale: divide every frequency by s (PI), or bend the base (NTK-aware)" },
  { key: "bands", tab: "3 · keep fast", schemes: ["yarn", "llama3"],
    title: "Rescale by band: YaRN and Llama 3.1" },
  { key: "models", tab: "4 · real models", schemes: [],
    title: "A real model: wavelength λᵢ of every pair against its context" },
];
const TAU = 2 * Math.PI;
// Each step's prediction: its choices (label(n) for n slow pairs) and which is right, from the
// numbers the step shows (entryOf(method): beyond = slow pairs outside their arc at p = sL).
const PREDICTIONS = {
  problem: [
    { label: () => "none of them", right: () => false },
    { label: () => "some of them", right: () => false },
    { label: (n) => `all ${n}`, right: () => true },
  ],
  divide: [
    { label: () => "PI", right: (at) => at("linear").beyond === 0 && at("ntk").beyond > 0 },
    { label: () => "NTK-aware", right: (at) => at("ntk").beyond === 0 && at("linear").beyond > 0 },
    { label: () => "both", right: (at) => at("ntk").beyond === 0 && at("linear").beyond === 0 },
  ],
  bands: [
    { label: () => "every slow pair is back inside its arc", right: (at) => at("yarn").beyond === 0 && at("llama3").beyond === 0 },
    { label: () => "some slow pairs stay outside", right: (at) => at("yarn").beyond > 0 || at("llama3").beyond > 0 },
  ],
};
// The question again, for a reader who has moved but not yet predicted.
const QUESTION_AGAIN = {
  problem: (n) => `Question: how many of the ${n} slow pairs leave their shaded arc once p is past L? Predict below first.`,
  divide: () => "Question: at p = sL, which scheme brings every slow pair back inside its arc? Predict below first.",
  bands: () => "Question: at p = sL, are the slow pairs back inside their arcs? Predict below first.",
};
// Short names for the end of a line.
const SHORT = { default: "unscaled", linear: "PI", ntk: "NTK", yarn: "YaRN", llama3: "Llama 3.1" };

// The position slider's stops: p_k = round(first · 2^(k / per_octave)), k = 0 … per_octave ·
// log2(last / first), as rope_core.demos.context.octave_positions computes them. Every power
// of two times `first` is a stop, exactly.
export function positionStops({ first, last, per_octave: perOctave }) {
  const steps = perOctave * Math.round(Math.log2(last / first));
  return Array.from({ length: steps + 1 }, (_, k) => Math.round(first * 2 ** (k / perOctave)));
}

// Ratios within 1e-6 of 1 are a hand at the end of its arc, not past it: reach_per_token
// carries 9 significant digits, and a scheme that brings a pair back to 1× does so up to
// round-off.
const PAST = 1 + 1e-6;

// The slow pairs at position p: how many have turned further than in training, p·r_i > 1
// with r_i = θ'_i / (L θ_i) (`reachPerToken`), and the largest p·r_i (0 without slow pairs).
export function pastArcs(position, reachPerToken, slow) {
  let count = 0, worst = 0;
  for (const i of slow) {
    const ratio = position * reachPerToken[i];
    if (ratio > PAST) count++;
    worst = Math.max(worst, ratio);
  }
  return { count, worst };
}

// The stop a dragged thumb settles on: a named stop when the thumb is within `reach` stops of
// one (so a pointer lands on p = sL exactly), else where it is.
export function snapStop(index, named, reach) {
  let best = index, distance = reach + 1;
  for (const k of named) {
    const d = Math.abs(k - index);
    if (d <= reach && d < distance) { best = k; distance = d; }
  }
  return best;
}

// The next named stop from `index` in direction `dir` (+1 or −1), or the slider's end.
export function nextNamedStop(index, named, dir, last) {
  const ahead = named.filter((k) => (dir > 0 ? k > index : k < index));
  if (!ahead.length) return dir > 0 ? last : 0;
  return dir > 0 ? Math.min(...ahead) : Math.max(...ahead);
}

// 10 to an integer power, typeset: 10⁴.
function pow10(n) {
  return "10" + String(n).split("").map((c) => SUPERSCRIPT[c]).join("");
}

// Thousands separated by a thin space, as the book writes them. One formatter for the page:
// toLocaleString builds a new one on every call, a quarter of a slider step's script.
const THOUSANDS = new Intl.NumberFormat("en-US");
function count(value) {
  return THOUSANDS.format(Number(value)).replace(/,/g, "\u202f");
}

// Three significant digits; whole numbers from 1000 on, with thin spaces.
function num(value) {
  const v = Number(value);
  if (v === 0 || !Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1000) return count(Math.round(v));
  if (Math.abs(v) < 1e-3) return v.toExponential(2).replace(/e([+-]\d+)/, (_, e) => `×${pow10(Number(e))}`);
  return String(Number(v.toPrecision(3)));
}

// A dial's ratio to its trained angle: three significant digits, or as many more (up to seven) as
// it takes to tell a ratio past the arc (over 1 + 10⁻⁶) from exactly 1.
export function ratioText(ratio) {
  let shown = num(ratio);
  for (let digits = 4; shown === "1" && ratio > PAST && digits <= 7; digits++) shown = String(Number(ratio.toPrecision(digits)));
  return shown;
}

// "turned 2.5 times its trained angle", "turned exactly its trained angle": never "1 times".
export function turnedPhrase(ratio) {
  const shown = ratioText(ratio);
  return shown === "1" ? "exactly its trained angle" : `${shown} times its trained angle`;
}

// The chosen scheme's band of a pair, by shape (the colours name the schemes): kept ○,
// blended ◆, scaled ●, in the text colour.
function bandMark(parent, x, y, band, attrs = {}) {
  const style = band === 0 ? "fill: var(--rope-w-bg); stroke: var(--rope-w-fg); stroke-width: 1.3" : "fill: var(--rope-w-fg)";
  if (band === 1) {
    return svgEl("rect", { x: x - 2.8, y: y - 2.8, width: 5.6, height: 5.6, transform: `rotate(45 ${x} ${y})`, style, ...attrs }, parent);
  }
  return svgEl("circle", { cx: x, cy: y, r: band === 0 ? 2.8 : 3, style, ...attrs }, parent);
}

// Log-scale y axis (decades) and a linear pair axis with tick labels.
function pairAxes(svg, { left, right, top, bottom, width, height, ymin, ymax, pairs, px, py }) {
  for (let y = ymin; y <= ymax; y++) {
    svgEl("line", { x1: left, x2: width - right, y1: py(y), y2: py(y), class: "rope-w-axis", "data-y-tick": y }, svg);
    svgEl("text", { x: left - 4, y: py(y) + 4, "text-anchor": "end", class: "rope-w-muted-text" }, svg).textContent = pow10(y);
  }
  const step = pairs > 40 ? 16 : pairs > 16 ? 8 : pairs > 8 ? 4 : 1;
  const ticks = [];
  for (let i = 0; i < pairs - step / 2; i += step) ticks.push(i);
  ticks.push(pairs - 1);
  for (const i of ticks) {
    svgEl("line", { x1: px(i), x2: px(i), y1: height - bottom, y2: height - bottom + 4, class: "rope-w-axis", "data-x-tick": i }, svg);
    svgEl("text", { x: px(i), y: height - bottom + 15, "text-anchor": "middle", class: "rope-w-muted-text", "data-tick": i }, svg).textContent = String(i);
  }
  svgEl("text", { x: left + (width - left - right) / 2, y: height - 4, "text-anchor": "middle" }, svg).textContent = "pair index i";
  const label = svgEl("text", { x: 12, y: top + (height - top - bottom) / 2, "text-anchor": "middle",
    transform: `rotate(-90 12 ${top + (height - top - bottom) / 2})` }, svg);
  label.textContent = "wavelength λᵢ (tokens)";
}

// End labels of lines that end at heights `ys`, spread to at least `gap` units apart (in
// order), so that no two overlap: returns the label heights, same order as `ys`.
function spreadLabels(ys, gap, lo, hi) {
  const order = ys.map((y, k) => [y, k]).sort((a, b) => a[0] - b[0]);
  const placed = order.map(([y]) => y);
  for (let k = 1; k < placed.length; k++) placed[k] = Math.max(placed[k], placed[k - 1] + gap);
  const overflow = placed.length ? placed[placed.length - 1] - hi : 0;
  if (overflow > 0) for (let k = 0; k < placed.length; k++) placed[k] -= overflow;
  for (let k = placed.length - 2; k >= 0; k--) placed[k] = Math.min(placed[k], placed[k + 1] - gap);
  if (placed.length && placed[0] < lo) { const up = lo - placed[0]; for (let k = 0; k < placed.length; k++) placed[k] += up; }
  const out = new Array(ys.length);
  order.forEach(([, k], j) => { out[k] = placed[j]; });
  return out;
}

// A horizontal line across the plot, labelled in the right margin (labels are placed by the
// caller with spreadLabels). `name` tells the lines apart (data-line, data-label).
function hline(svg, geometry, log10value, name) {
  const { left, right, width, py } = geometry;
  const line = svgEl("line", { x1: left, x2: width - right, y1: py(log10value), y2: py(log10value), class: "rope-w-context",
    "stroke-dasharray": name === "position" || name === "context" ? "2 3" : "6 4", "data-line": name }, svg);
  const text = svgEl("text", { x: width - right + 6, class: "rope-w-muted-text", "data-label": name }, svg);
  return { line, text };
}

// Transparent columns, one per pair, that report hover and touch.
function pairTargets(svg, { px, top, height, bottom, pairs }, onPair) {
  const stepX = pairs > 1 ? px(1) - px(0) : 20;
  const group = svgEl("g", { class: "rope-w-targets" }, svg);
  for (let i = 0; i < pairs; i++) {
    const r = svgEl("rect", { x: px(i) - stepX / 2, y: top, width: stepX, height: height - top - bottom,
      fill: "transparent", "data-target": i }, group);
    r.addEventListener("pointerenter", () => onPair(i, r, false));
    r.addEventListener("pointerdown", () => onPair(i, r, true));
  }
  return group;
}

// The SVG takes the keyboard (one tab stop; ← → move the pair, Home/End jump).
function keyboardPairs(svg, pairsOf, onPair, getPair) {
  svg.setAttribute("tabindex", "0");
  svg.addEventListener("keydown", (event) => {
    const n = pairsOf(), i = getPair();
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, ArrowUp: i + 1, ArrowDown: i - 1, Home: 0, End: n - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    onPair(Math.max(0, Math.min(n - 1, next)));
  });
}

// An arc of the circle (cx, cy, r) from angle 0 to `angle` (counter-clockwise from 3 o'clock,
// y down); a whole circle from one turn on. As a closed sector when `sector`.
function arcPath(cx, cy, r, angle, sector) {
  if (angle >= TAU - 1e-9) {
    const circle = `M ${cx + r} ${cy} A ${r} ${r} 0 1 0 ${cx - r} ${cy} A ${r} ${r} 0 1 0 ${cx + r} ${cy}`;
    return sector ? `${circle} Z` : circle;
  }
  const x = cx + r * Math.cos(angle), y = cy - r * Math.sin(angle), large = angle > Math.PI ? 1 : 0;
  const arc = `M ${cx + r} ${cy} A ${r} ${r} 0 ${large} 0 ${x} ${y}`;
  return sector ? `M ${cx} ${cy} L ${cx + r} ${cy} A ${r} ${r} 0 ${large} 0 ${x} ${y} Z` : arc;
}

function render({ model, el }) {
  const data = model.get("data");
  const pairs = data.theta.length;
  const positions = positionStops(data.position_grid);
  // The stops the questions and the chapter name: L, each sL, and both ends.
  const named = [...new Set([0, ...[1, ...data.factors].map((s) => positions.indexOf(s * data.training_length)), positions.length - 1])]
    .filter((k) => k >= 0).sort((a, b) => a - b);
  const root = htmlEl("div", { class: "rope-w rope-w-context-extension" }, el);
  watchOnScreen(root);
  const title = htmlEl("div", { class: "rope-w-title", "data-readout": "title" }, root);
  const tabs = htmlEl("div", { class: "rope-w-steps", role: "tablist", "aria-label": "steps" }, root);
  const question = htmlEl("p", { class: "rope-w-question", "data-readout": "question" }, root);
  // Each step's prediction, asked before its answer shows: buttons under the question.
  const predictionRow = htmlEl("div", { class: "rope-w-answers", role: "group", "aria-label": "your prediction" }, root);
  const say = announcer(root);
  const predictions = {};   // step key -> the index of the reader's prediction
  const state = { f: model.get("factor_index"), p: model.get("position_index"), s: model.get("scheme_index"),
    step: model.get("step_index"), pair: pairs - 1, seen: new Set() };
  const views = [];  // every plot that marks the chosen pair: {mark(i)}
  const setPair = (i) => { state.pair = i; for (const v of views) v.mark(i); };
  const out = {};

  // --- the schemes' part: dials, wavelengths, controls, numbers -------------------------
  const schemes = htmlEl("div", { class: "rope-w-body", "data-part": "schemes" }, root);
  const sync = syncer(model, state, draw);
  // Which of the step's schemes the dials' hands show: one hand a dial, so a 44 px dial stays
  // readable, and the reader finds the difference by switching. A radio group (one tab stop;
  // the arrow keys move the choice), drawn unlike the prediction buttons and set under the
  // dials it switches, so that it does not read as a second row of answers.
  const handRow = htmlEl("div", { class: "rope-w-choices rope-w-hand-choices", role: "radiogroup", "aria-label": "hands show", "data-name": "scheme" }, schemes);
  htmlEl("span", { class: "rope-w-hand-choices-label", "aria-hidden": "true" }, handRow, "hands show:");
  const onScheme = sync("s", "scheme_index");
  const handButtons = data.methods.map((key, j) => {
    const button = htmlEl("button", { type: "button", role: "radio", class: "rope-w-choice rope-w-hand-choice", "data-scheme": key,
      "aria-checked": "false", tabindex: "-1" }, handRow, data.labels[j]);
    button.addEventListener("click", () => { if (state.s !== j) onScheme(j); });
    button.addEventListener("keydown", (event) => {
      const move = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      event.stopPropagation();
      if (!move) return;
      event.preventDefault();
      const shown = handButtons.filter((b) => !b.hidden);
      const next = shown[(shown.indexOf(button) + move + shown.length) % shown.length];
      next.focus();
      next.click();
    });
    return button;
  });
  model.on("change:scheme_index", () => { const j = model.get("scheme_index"); if (j !== state.s) { state.s = j; draw(); } });
  const dials = makeDials(schemes);
  dials.svg.after(handRow);
  const plot = makeWavelengthPlot(schemes);
  const controls = htmlEl("div", { class: "rope-w-controls" }, schemes);
  const factorSlider = slider(controls, { label: "scale factor s", name: "factor", values: data.factors, index: state.f, onInput: sync("f", "factor_index") });
  // p moves in steps of 1 % (64 a doubling), and play sweeps it onward, so every hand is seen
  // passing the end of its shaded arc; the reader's own move stops it. A drag settles on L or
  // sL when it ends within 2 stops of one, and Page Up / Page Down jump between them.
  const onPosition = sync("p", "position_index");
  let dragging = false;
  const positionSlider = slider(controls, { label: "position p", name: "position", values: positions, index: state.p, format: count,
    onInput: (k) => {
      const settled = dragging ? snapStop(k, named, 2) : k;
      if (settled !== k) { positionSlider.set(settled); return; }
      onPosition(k);
    } });
  onPosition.follow(positionSlider);
  const positionInput = positionSlider.input;
  positionInput.addEventListener("pointerdown", () => { dragging = true; });
  for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) positionInput.addEventListener(type, () => { dragging = false; });
  positionInput.addEventListener("keydown", (event) => {
    const dir = { PageUp: 1, PageDown: -1 }[event.key];
    if (!dir) return;
    event.preventDefault();
    positionSlider.set(nextNamedStop(Number(positionInput.value), named, dir, positions.length - 1));
  });
  keepInReach(positionSlider);
  player(positionInput.parentElement, positionSlider, { label: "sweep p onward", interval: 25 });
  out.pair = htmlEl("div", { class: "rope-w-readout", "data-readout": "pair", "aria-live": "polite" }, controls);
  out.answer = htmlEl("div", { class: "rope-w-readout", "data-readout": "dials" }, controls);
  const details = htmlEl("details", { class: "rope-w-numbers", "data-part": "numbers" }, controls);
  htmlEl("summary", {}, details, "numbers: all five schemes at this s and p");
  const tableEl = htmlEl("table", { class: "rope-w-table" }, details);
  const head = htmlEl("tr", {}, htmlEl("thead", {}, tableEl));
  for (const h of ["scheme", "attention factor", "slowest pair, turns at p", "slow pairs beyond training"]) htmlEl("th", {}, head, h);
  out.table = htmlEl("tbody", {}, tableEl);
  out.caption = htmlEl("div", { class: "rope-w-readout-label" }, details, "");
  keyboardPairs(plot.svg, () => pairs, setPair, () => state.pair);

  // --- the models' part ----------------------------------------------------------------
  const models = data.models && data.models.length ? renderModels(model, data, state, root, views, setPair) : null;

  // --- the steps -------------------------------------------------------------------------
  const tabButtons = STEPS.map((step, k) => {
    if (step.key === "models" && !models) return null;
    const button = htmlEl("button", { type: "button", role: "tab", class: "rope-w-step", "data-step": step.key,
      "aria-selected": "false" }, tabs, step.tab);
    button.addEventListener("click", () => setStep(k));
    button.addEventListener("keydown", (event) => {
      // The WAI-ARIA tabs pattern: arrows move round the tabs, Home and End go to the ends.
      const move = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      event.stopPropagation();
      if (!move && event.key !== "Home" && event.key !== "End") return;
      event.preventDefault();
      const shown = tabButtons.filter(Boolean);
      const next = event.key === "Home" ? shown[0] : event.key === "End" ? shown[shown.length - 1]
        : shown[(shown.indexOf(button) + move + shown.length) % shown.length];
      next.focus();
      next.click();
    });
    return button;
  });
  function setStep(k) {
    state.step = k;
    model.set("step_index", k);
    // A scheme of the step (the first one, unless the chosen one belongs to it).
    const allowed = STEPS[k].schemes.map((key) => data.methods.indexOf(key));
    if (allowed.length && !allowed.includes(state.s)) { state.s = allowed[0]; model.set("scheme_index", allowed[0]); }
    // Step 2 asks about p = sL: it opens there, so its dials and its question agree.
    if (STEPS[k].key === "divide" && atSL(state.f) >= 0 && state.p !== atSL(state.f)) positionSlider.set(atSL(state.f));
    model.save_changes();
    draw();
  }
  model.on("change:step_index", () => { const k = model.get("step_index"); if (k !== state.step) setStep(k); });

  function draw() {
    const step = STEPS[state.step];
    tabButtons.forEach((button, k) => {
      if (!button) return;
      button.setAttribute("aria-selected", k === state.step ? "true" : "false");
      button.setAttribute("tabindex", k === state.step ? "0" : "-1");
    });
    setText(title, step.title);
    root.dataset.step = step.key;
    const onModels = step.key === "models";
    schemes.hidden = onModels;
    if (models) models.section.hidden = !onModels;
    if (onModels) { models.draw(); ask(); return; }
    // The step's schemes only, in the hand choice; the scale factor means nothing without scaling.
    handButtons.forEach((button, j) => {
      button.hidden = !step.schemes.includes(data.methods[j]);
      button.setAttribute("aria-checked", String(j === state.s));
      button.setAttribute("tabindex", j === state.s ? "0" : "-1");
    });
    handRow.hidden = step.schemes.length < 2;
    factorSlider.input.parentElement.hidden = step.key === "problem";
    state.seen.add(`${state.s} ${state.f} ${state.p}`);
    plot.draw();
    dials.draw();
    for (const v of views) v.mark(state.pair);
    fillTable(data.per_factor[state.f]);
    ask();
  }

  // Step 2 opens at p = sL, where the hands are its answer: hidden until the reader predicts.
  const handsConcealed = () => STEPS[state.step].key === "divide" && predictions.divide === undefined;
  // The method drawn: the chosen one (no scaling in the first step).
  const method = () => data.methods[state.step === 0 ? 0 : state.s];
  // Slow pair i at position p: its angle over the largest angle it reached in training.
  const reach = (entry, i) => positions[state.p] * entry.reach_per_token[i];
  // The slow pairs past their arc under `entry` at stop k: {count, worst}.
  const past = (entry, k = state.p) => pastArcs(positions[k], entry.reach_per_token, data.slow);

  // The position stop at p = sL for factor f (-1 when the slider has no such stop).
  const atSL = (f) => positions.indexOf(data.factors[f] * data.training_length);
  // One question per step, answered in place once the reader has done what it asks.
  function ask() {
    const step = STEPS[state.step];
    const L = data.training_length, position = positions[state.p], n = data.slow_pairs;
    const entry = data.per_factor[state.f][method()];
    const { count: beyond, worst } = past(entry);
    let text, answered;
    if (step.key === "problem") {
      answered = position > L;
      text = answered
        ? `Answer: all ${beyond} of ${n}. Without scaling every slow pair's angle grows with p: at p = ${count(position)} each has turned ${num(worst)}× as far as in training (p/L), past the shaded arc it learned.`
        : `Question: the shaded arc on each dial is the angle its slow pair covered in training (L = ${count(L)}). Move p past L: how many of the ${n} slow pairs leave their arc?`;
    } else if (step.key === "divide") {
      // Answered once both schemes were seen at p = sL for the same s.
      const both = data.factors.map((_, f) => ["linear", "ntk"].every((m) => state.seen.has(`${data.methods.indexOf(m)} ${f} ${atSL(f)}`)));
      const f = both[state.f] ? state.f : both.indexOf(true);
      answered = f >= 0;
      if (answered) {
        const factor = data.factors[f], p = atSL(f), linear = data.per_factor[f].linear;
        const pi = past(linear, p), ntk = past(data.per_factor[f].ntk, p);
        text = `Answer at s = ${factor}, p = sL = ${count(positions[p])}: PI brings back all ${n} slow pairs (${pi.count} outside), NTK-aware leaves ${ntk.count} outside, worst ${num(ntk.worst)}×. `
          + `PI pays on the fast pairs: pair 0's wavelength is ${num(10 ** linear.log10_wavelength[0])} tokens instead of ${num(10 ** data.per_factor[f].default.log10_wavelength[0])}; NTK-aware keeps it.`;
      } else {
        const there = state.p === atSL(state.f);
        text = `Question: ${there ? "p is at" : "set p to"} sL = ${count(data.factors[state.f] * L)} (s = ${data.factors[state.f]}). `
          + "Switch the hands between PI and NTK-aware: which brings every slow pair back inside its arc, and what does it do to pair 0?";
      }
    } else if (step.key === "bands") {
      const kept = entry.band.filter((b) => b === 0).length;
      answered = state.p === atSL(state.f);
      text = answered
        ? `Answer: at p = sL = ${count(position)}, ${data.labels[state.s]} keeps ${kept} fast pairs exactly as trained (○) and leaves ${beyond} of ${n} slow pairs outside their arc${beyond ? `, worst ${num(worst)}×` : ""}.`
        : `Question: set p = sL (${count(data.factors[state.f] * L)} for s = ${data.factors[state.f]}): how many fast pairs does ${data.labels[state.s]} leave untouched, and are the slow ones back inside their arcs?`;
    } else {
      answered = true;
      text = "Pick a model, and a second to compare: its pairs as shipped, the unscaled ones it started from (dashed), and whether it was trained with its scaling.";
    }
    // The answer shows only after the reader's prediction for this step, with its verdict.
    const choices = PREDICTIONS[step.key] || [];
    const guess = predictions[step.key];
    if (choices.length && guess === undefined) {
      answered = false;
      if (text.startsWith("Answer")) text = QUESTION_AGAIN[step.key](n);
    }
    if (answered && choices.length) {
      const right = choices[guess].right(entryOf);
      text = `${right ? "✓ Right." : "✗ Not quite."} ${text}`;
      question.dataset.correct = String(right);
    } else {
      delete question.dataset.correct;
    }
    if (predictionRow.dataset.step !== step.key) {
      predictionRow.dataset.step = step.key;
      predictionRow.replaceChildren(...choices.map((choice, i) => {
        const button = htmlEl("button", { type: "button", class: "rope-w-answer", "aria-pressed": "false", "data-answer": i }, null, choice.label(n));
        button.addEventListener("click", () => { predictions[step.key] = i; draw(); });
        button.addEventListener("keydown", (event) => event.stopPropagation());
        return button;
      }));
      predictionRow.hidden = !choices.length;
    }
    [...predictionRow.children].forEach((b, i) => b.setAttribute("aria-pressed", String(i === predictions[step.key])));
    // The count of pairs past their arc answers the question: out of sight until the prediction.
    if (out.answer) out.answer.toggleAttribute("data-concealed", Boolean(choices.length) && guess === undefined);
    const before = question.textContent;
    setText(question, text);
    if (answered && guess !== undefined && before !== text && !before.includes(" Yes.") && !before.includes("Not quite")) say(text);
    Object.assign(question.dataset, { answered: answered ? "1" : "0", step: step.key });
  }
  // What a step's scheme gives at p = sL for the factor shown (for the verdicts).
  function entryOf(method, f = state.f) {
    const e = data.per_factor[f][method], p = atSL(f) >= 0 ? atSL(f) : state.p;
    return { beyond: past(e, p).count, kept: e.band ? e.band.filter((b) => b === 0).length : 0 };
  }

  // One dial per slow pair: the trained arc L·θ_i shaded and one hand at p·θ'_i, in the warning
  // colour once it is past the arc. One hand and one arc only, so a dial stays readable at 44 px.
  function makeDials(parent) {
    const slow = data.slow, cols = Math.min(6, slow.length), rows = Math.ceil(slow.length / cols);
    const width = 440, cell = width / cols, radius = Math.min(cell * 0.3, 25), pitch = 2 * radius + 42, height = rows * pitch + 22;
    // A group of named pictures: each dial says its pair and how far it has turned.
    const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "group", class: "rope-w-svg rope-w-large",
      "data-plot": "dials", "aria-label": "one dial per slow pair: its trained arc and its angle at position p" }, parent);
    keepTextSize(svg);
    const legend = svgEl("text", { x: 4, y: 14, class: "rope-w-muted-text", "data-label": "dials" }, svg);
    const marks = slow.map((i, k) => {
      const cx = (k % cols + 0.5) * cell, cy = 22 + Math.floor(k / cols) * pitch + radius + 18;
      const group = svgEl("g", { "data-dial": i, role: "img" }, svg);
      svgEl("circle", { cx, cy, r: radius + 6, class: "rope-w-clock-hit" }, group);
      svgEl("circle", { cx, cy, r: radius, class: "rope-w-meaning" }, group);
      const trained = svgEl("path", { class: "rope-w-trained-arc" }, group);
      const hand = arrow(group, cx, cy, cx + radius, cy, "q");
      svgEl("text", { x: cx, y: cy - radius - 5, "text-anchor": "middle", class: "rope-w-muted-text", "data-dial-pair": i }, group).textContent = `i = ${i}`;
      const label = svgEl("text", { x: cx, y: cy + radius + 16, "text-anchor": "middle", "data-dial-label": i }, group);
      group.addEventListener("pointerenter", () => setPair(i));
      group.addEventListener("pointerdown", () => { setPair(i); showTip(group, out.pair); });
      return { i, cx, cy, group, trained, hand, label };
    });
    const ring = svgEl("circle", { r: radius + 4, class: "rope-w-hovered", visibility: "hidden" }, svg);
    views.push({ mark: (i) => {
      const dial = marks.find((d) => d.i === i);
      ring.setAttribute("visibility", dial ? "visible" : "hidden");
      if (dial) { ring.setAttribute("cx", dial.cx); ring.setAttribute("cy", dial.cy); ring.dataset.pair = i; }
    } });
    return {
      svg,
      draw() {
        const entry = data.per_factor[state.f][method()];
        const name = data.labels[data.methods.indexOf(method())];
        // The legend names the scheme the hands show once there is a choice of schemes.
        legend.textContent = `shaded: angle reached in training · hand: angle at p${STEPS[state.step].schemes.length > 1 ? ` under ${SHORT[method()] || name}` : ""}`;
        const concealed = handsConcealed();
        svg.toggleAttribute("data-hands-concealed", concealed);
        let outside = 0;
        for (const { i, cx, cy, trained, hand, label, group } of marks) {
          const arc = TAU * data.turns_in_training[i], ratio = reach(entry, i), angle = arc * ratio;
          const beyond = ratio > PAST;
          if (beyond) outside++;
          trained.setAttribute("d", arcPath(cx, cy, radius, arc, true));
          moveArrow(hand, cx, cy, cx + radius * Math.cos(angle), cy - radius * Math.sin(angle));
          hand.setAttribute("class", beyond ? "k" : "q");
          hand.setAttribute("visibility", concealed ? "hidden" : "visible");
          setText(label, concealed ? "?" : `${ratioText(ratio)}×`);
          Object.assign(group.dataset, { ratio, angle, arc, beyond: beyond ? "1" : "0", method: method() });
          group.setAttribute("aria-label", concealed ? `dial of pair ${i}: its trained arc; its hand shows once you predict`
            : `dial of pair ${i}: turned ${turnedPhrase(ratio)}${beyond ? ", past its trained arc" : ""}`);
        }
        setText(out.answer, `${outside} of ${marks.length} slow pairs past their trained arc at p = ${count(positions[state.p])} (${name})`);
        Object.assign(out.answer.dataset, { outside, slow: marks.length, method: method() });
        if (predictions[STEPS[state.step].key] !== undefined) say(out.answer.textContent);
      },
    };
  }

  // Every pair's wavelength: the step's schemes (and no scaling), each labelled at its end;
  // the chosen scheme's bands by shape; the L and p lines.
  function makeWavelengthPlot(parent) {
    const width = 440, height = 300, left = 50, right = 100, top = 12, bottom = 40;
    const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", class: "rope-w-svg rope-w-large",
      "data-plot": "wavelengths", "aria-label": "wavelength of every pair under the step's schemes; arrow keys pick a pair" }, parent);
    keepTextSize(svg);
    // The y range covers every method and factor (values computed in Python).
    let ymin = Infinity, ymax = -Infinity;
    for (const perMethod of data.per_factor) for (const m of data.methods) for (const v of perMethod[m].log10_wavelength) { ymin = Math.min(ymin, v); ymax = Math.max(ymax, v); }
    ymin = Math.floor(ymin); ymax = Math.ceil(ymax);
    const px = (i) => left + (width - left - right) * i / (pairs - 1);
    const py = (v) => top + (height - top - bottom) * (1 - (v - ymin) / (ymax - ymin));
    const geometry = { left, right, top, bottom, width, height, ymin, ymax, pairs, px, py };
    pairAxes(svg, geometry);
    const lines = { training: hline(svg, geometry, Math.log10(data.training_length), "training"),
      position: hline(svg, geometry, 0, "position") };
    const curves = svgEl("g", {}, svg), bands = svgEl("g", {}, svg), labels = svgEl("g", {}, svg);
    const legend = svgEl("g", { "data-legend": "bands" }, svg);
    const mark = svgEl("g", { class: "rope-w-mark", "pointer-events": "none" }, svg);
    svgEl("line", { y1: top, y2: height - bottom, class: "rope-w-context", "stroke-dasharray": "1 2" }, mark);
    svgEl("circle", { r: 5.5, fill: "none", style: "stroke: var(--rope-w-fg); stroke-width: 1.6" }, mark);
    pairTargets(svg, geometry, (i, rect, tapped) => { setPair(i); if (tapped) showTip(rect, out.pair); });
    let key = null, ends = null;
    views.push({ mark: (i) => {
      const [column, ring] = mark.children;
      // A pair picked on a model with more pairs than the example head: no mark here.
      mark.setAttribute("visibility", i < pairs ? "visible" : "hidden");
      if (i >= pairs) return;
      const entry = data.per_factor[state.f][method()];
      column.setAttribute("x1", px(i));
      column.setAttribute("x2", px(i));
      ring.setAttribute("cx", px(i));
      ring.setAttribute("cy", py(entry.log10_wavelength[i]));
    } });
    // The labels' spacing depends on the drawing's shown size: place them again when it changes.
    let drawn = false;
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => { if (drawn) view.draw(); }).observe(svg);
    const view = {
      svg, geometry,
      draw() {
        drawn = true;
        const position = positions[state.p], perMethod = data.per_factor[state.f];
        const log10p = Math.log10(position), onAxis = log10p <= ymax;
        lines.position.line.setAttribute("visibility", onAxis ? "visible" : "hidden");
        lines.position.text.setAttribute("visibility", onAxis ? "visible" : "hidden");
        if (onAxis) { lines.position.line.setAttribute("y1", py(log10p)); lines.position.line.setAttribute("y2", py(log10p)); }
        const shown = [...new Set(["default", ...STEPS[state.step].schemes])];
        const now = `${state.f} ${state.s} ${state.step}`;
        if (key !== now) {
          key = now;
          curves.replaceChildren();
          bands.replaceChildren();
          shown.forEach((m) => {
            const j = data.methods.indexOf(m), values = perMethod[m].log10_wavelength;
            svgEl("polyline", { points: values.map((v, i) => `${px(i)},${py(v)}`).join(" "), class: "rope-w-line",
              style: `stroke: ${SCHEME_COLOURS[j]}; stroke-width: ${m === method() ? 2.8 : 1.6}`, "data-method": m }, curves);
          });
          const chosen = perMethod[method()];
          chosen.log10_wavelength.forEach((v, i) => bandMark(bands, px(i), py(v), chosen.band[i], { "data-pair": i, "data-band": data.bands[chosen.band[i]] }));
          legend.replaceChildren();
          // The bands say nothing without scaling (every pair kept).
          [0, 1, 2].filter((b) => chosen.band.includes(b) && state.step > 0).forEach((b, k) => {
            bandMark(legend, left + 10, top + 10 + 15 * k, b);
            svgEl("text", { x: left + 18, y: top + 14 + 15 * k, "data-band-label": data.bands[b] }, legend).textContent = data.bands[b];
          });
        }
        // Labels in the right margin: each curve's at its end, the L and p lines' at theirs.
        const items = shown.map((m) => ({ y: py(perMethod[m].log10_wavelength[pairs - 1]), text: SHORT[m] ?? m, method: m }));
        items.push({ y: py(Math.log10(data.training_length)), text: `L = ${count(data.training_length)}`, line: lines.training });
        if (onAxis) items.push({ y: py(log10p), text: `p = ${count(position)}`, line: lines.position });
        // Labels at least a line of text apart, in drawing units: the text keeps its size on
        // screen (keepTextSize), so on a narrow screen a line takes more units than 14.
        const lineHeight = 1.2 * (parseFloat(getComputedStyle(lines.training.text).fontSize) || 13);
        const placed = spreadLabels(items.map((item) => item.y + 4), Math.max(14, lineHeight), top + 8, height - bottom + 4);
        // A leader and a label per curve, made when the curves shown change, moved otherwise.
        if (ends !== shown.join(" ")) {
          labels.replaceChildren();
          for (const m of shown) {
            svgEl("polyline", { class: "rope-w-line", style: `stroke: ${SCHEME_COLOURS[data.methods.indexOf(m)]}; stroke-width: 2.4`, "data-leader": m }, labels);
            svgEl("text", { "data-end-label": m, class: "rope-w-end-label" }, labels).textContent = SHORT[m] ?? m;
          }
          ends = shown.join(" ");
        }
        items.forEach((item, k) => {
          if (item.line) {
            item.line.text.setAttribute("y", placed[k]);
            setText(item.line.text, item.text);
            item.line.text.dataset.lineY = item.y;
            return;
          }
          // A leader in the line's colour from its end to its label (text in the text colour:
          // the scheme colours are lines, too light for small text).
          const x = width - right;
          labels.children[2 * k].setAttribute("points", `${x},${item.y} ${x + 6},${placed[k] - 4} ${x + 14},${placed[k] - 4}`);
          labels.children[2 * k + 1].setAttribute("x", x + 17);
          labels.children[2 * k + 1].setAttribute("y", placed[k]);
        });
      },
    };
    return view;
  }

  // The table: rows built once, cells refilled.
  function fillTable(perMethod) {
    if (!out.cells) {
      out.cells = data.methods.map((m, j) => {
        const row = htmlEl("tr", {}, out.table);
        const name = htmlEl("td", {}, row);
        htmlEl("span", { class: "rope-w-swatch", style: `background: ${SCHEME_COLOURS[j]}` }, name);
        name.append(data.labels[j]);
        const cell = (field) => htmlEl("td", { "data-method": m, "data-field": field }, row);
        return { row, factor: cell("attention_factor"), turns: cell("slowest_turns"), beyond: cell("beyond") };
      });
    }
    data.methods.forEach((m, j) => {
      const entry = perMethod[m], cells = out.cells[j];
      cells.row.toggleAttribute("data-chosen", m === method());
      setText(cells.factor, num(entry.attention_factor));
      cells.factor.dataset.value = entry.attention_factor;
      // The slowest pair's turns at p: p over its wavelength.
      const turns = positions[state.p] / 10 ** entry.log10_wavelength[pairs - 1];
      setText(cells.turns, num(turns));
      cells.turns.dataset.value = turns;
      // Every slow pair: how many turn further than in training, and by how much.
      const { count: n, worst } = past(entry);
      setText(cells.beyond, n === 0 ? `none of ${data.slow_pairs}` : `⚠ ${n} of ${data.slow_pairs}, worst ${num(worst)}×`);
      cells.beyond.dataset.count = n;
      cells.beyond.dataset.worst = worst;
    });
    const position = positions[state.p];
    setText(out.caption, `At p = ${count(position)}, s = ${data.factors[state.f]}: turns of the slowest pair (in training it reached ${num(data.slowest_turns_in_training)}), `
      + `and how many of the ${data.slow_pairs} slow pairs (less than one turn in L = ${count(data.training_length)}) turn further than in training (⚠), with the worst ratio.`);
  }

  // The read-out's lines: the first is a label; lines are rewritten only where they changed.
  function pairLines(lines) {
    const shown = out.pair.children;
    if (shown.length !== lines.length) {
      out.pair.replaceChildren();
      lines.forEach((text, k) => htmlEl("div", k === 0 ? { class: "rope-w-readout-label" } : {}, out.pair, text));
    } else {
      lines.forEach((text, k) => setText(shown[k], text));
    }
  }
  // The chosen pair's numbers (all from Python).
  function markPair(i) {
    if (i >= pairs) {
      pairLines([`pair i = ${i}: the example head has ${pairs} pairs (d = ${data.dim}).`]);
      Object.assign(out.pair.dataset, { pair: i, method: "", theta: "", wavelength: "", turns: "", band: "", ratio: "" });
      return;
    }
    const m = method(), entry = data.per_factor[state.f][m];
    const position = positions[state.p];
    const wavelength = 10 ** entry.log10_wavelength[i];
    const ratio = reach(entry, i);
    const turns = data.turns_in_training[i];
    const band = data.bands[entry.band[i]];
    const label = data.labels[data.methods.indexOf(m)];
    pairLines([
      `pair i = ${i} under ${label}${m === "default" ? "" : `, s = ${data.factors[state.f]}`}`,
      `θᵢ = ${num(data.theta[i])} rad/token; λᵢ = ${num(wavelength)} tokens (${band})`,
      `${num(turns)} turns in training (L = ${count(data.training_length)})${data.slow.includes(i) ? ": slow" : ""}`,
      handsConcealed() ? `at p = ${count(position)}: predict above to see how far it has turned`
        : `at p = ${count(position)}: ${num(ratio)}× its largest trained angle${ratio > PAST && turns < 1 ? " ⚠" : ""}`,
    ]);
    Object.assign(out.pair.dataset, { pair: i, method: m, factor: data.factors[state.f], position, theta: data.theta[i],
      wavelength, turns, band, ratio });
  }
  views.push({ mark: (i) => { if (STEPS[state.step].key !== "models") markPair(i); } });

  draw();
}

// The model menu: one real model's spectrum (every pair's wavelength as the model ships it,
// and as trained when scaling changed it) against its training and extended context, and
// whether the model was trained with its scaling (from rope_core.atlas, with the source).
function renderModels(model, data, state, root, views, setPair) {
  const section = htmlEl("div", { class: "rope-w-section", "data-part": "models" }, root);
  const pick = htmlEl("div", { class: "rope-w-control rope-w-select" }, section);
  const id = `rope-w-model-${Math.random().toString(36).slice(2, 9)}`;
  htmlEl("label", { for: id }, pick, "model");
  const select = htmlEl("select", { id, "data-name": "model" }, pick);
  data.models.forEach((entry, i) => htmlEl("option", { value: i }, select, entry.label));
  state.m = model.get("model_index");
  select.selectedIndex = state.m;
  select.addEventListener("keydown", (event) => event.stopPropagation());
  // A second model, drawn in its own panel under the first on its own axes, the same pair
  // marked on both: two models' spectra and training lengths compared in one view.
  const comparePick = htmlEl("div", { class: "rope-w-control rope-w-select" }, section);
  const compareId = `rope-w-compare-${Math.random().toString(36).slice(2, 9)}`;
  htmlEl("label", { for: compareId }, comparePick, "compare with");
  const compareSelect = htmlEl("select", { id: compareId, "data-name": "compare" }, comparePick);
  htmlEl("option", { value: -1 }, compareSelect, "no second model");
  data.models.forEach((entry, i) => htmlEl("option", { value: i }, compareSelect, entry.label));
  compareSelect.addEventListener("keydown", (event) => event.stopPropagation());
  state.compare = -1;
  // Compared, the two panels share one y axis, so heights compare across them.
  const both = () => (state.compare >= 0 ? [state.m, state.compare] : [state.m]);
  const main = modelPanel(section, data, state, () => state.m, "model", setPair, both);
  let second = null;
  compareSelect.addEventListener("change", () => {
    state.compare = Number(compareSelect.value);
    if (state.compare >= 0 && !second) second = modelPanel(section, data, state, () => state.compare, "compare", setPair, both);
    if (second) second.body.hidden = state.compare < 0;
    draw();
  });
  views.push({ mark: (i) => {
    if (section.hidden) return;
    main.markPair(i);
    if (second && state.compare >= 0) second.markPair(i);
  } });
  function draw() {
    main.draw();
    if (second && state.compare >= 0) second.draw();
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
  return { section, draw };
}
// One model's panel of the models step: its pairs' wavelengths (shaded where a pair turns less
// than once in training), the training and max-position lines, the chosen pair's numbers and
// the model's read-out. `index()` is the model shown; `name` names its read-outs.
// `shared()` lists the models whose wavelengths and lines share its y axis (both compared ones).
function modelPanel(section, data, state, index, name, setPair, shared = () => [index()]) {
  const width = 440, height = 300, left = 50, right = 114, top = 12, bottom = 40;
  const body = htmlEl("div", { class: "rope-w-body", "data-panel": name }, section);
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    class: "rope-w-svg rope-w-large", "aria-label": `wavelength of every pair of the ${name === "model" ? "chosen" : "compared"} model; arrow keys pick a pair` }, body);
  keepTextSize(svg);
  const panel = htmlEl("div", { class: "rope-w-controls" }, body);
  const pairShown = htmlEl("div", { class: "rope-w-readout", "data-readout": `${name}-pair` }, panel);
  const shown = htmlEl("div", { class: "rope-w-readout", "data-readout": name, "aria-live": "polite" }, panel);
  let mark = null, geometry = null, drawnFor = null;

  function markPair(i) {
    const m = data.models[index()];
    if (!mark) return;
    mark.replaceChildren();
    pairShown.replaceChildren();
    const n = m.log10_wavelength.length;
    if (i >= n || m.log10_wavelength[i] === null) {
      htmlEl("div", { class: "rope-w-readout-label" }, pairShown, i >= n ? `${m.label} has ${n} pairs (no pair ${i}).` : `pair ${i} never turns (no RoPE on it).`);
      Object.assign(pairShown.dataset, { pair: i, wavelength: "", trained: "", band: "" });
      return;
    }
    const { px, py } = geometry;
    svgEl("line", { x1: px(i), x2: px(i), y1: top, y2: height - bottom, class: "rope-w-context", "stroke-dasharray": "1 2" }, mark);
    svgEl("circle", { cx: px(i), cy: py(m.log10_wavelength[i]), r: 5.5, fill: "none", style: "stroke: var(--rope-w-fg); stroke-width: 1.6" }, mark);
    const wavelength = 10 ** m.log10_wavelength[i];
    const trained = m.log10_wavelength_trained ? 10 ** m.log10_wavelength_trained[i] : wavelength;
    const band = BAND_NAMES[m.band[i]];
    htmlEl("div", { class: "rope-w-readout-label" }, pairShown, `pair i = ${i} of ${m.label}`);
    htmlEl("div", {}, pairShown, `λᵢ = ${num(wavelength)} tokens as shipped (${band})`
      + (m.log10_wavelength_trained ? `, ${num(trained)} as trained` : ""));
    htmlEl("div", {}, pairShown, m.slow.includes(i) ? "less than one turn in training (slow)" : "at least one turn in training");
    Object.assign(pairShown.dataset, { pair: i, wavelength, trained, band, slow: m.slow.includes(i) ? "1" : "0" });
  }

  function draw() {
    const key = shared().join(" ");
    if (drawnFor === key) { markPair(state.pair); return; }
    drawnFor = key;
    const m = data.models[index()];
    const n = m.log10_wavelength.length;
    const values = shared().flatMap((j) => {
      const other = data.models[j];
      const lines = [other.training, other.context].filter((v) => v !== null && v !== undefined);
      return other.log10_wavelength.filter((v) => v !== null)
        .concat((other.log10_wavelength_trained || []).filter((v) => v !== null), lines.map(Math.log10));
    });
    const ymin = Math.floor(Math.min(...values)), ymax = Math.max(Math.ceil(Math.max(...values)), ymin + 1);
    const px = (i) => left + (width - left - right) * (n > 1 ? i / (n - 1) : 0.5);
    const py = (v) => top + (height - top - bottom) * (1 - (v - ymin) / (ymax - ymin));
    geometry = { left, right, top, bottom, width, height, ymin, ymax, pairs: n, px, py };
    const step = (width - left - right) / Math.max(n - 1, 1);
    svg.replaceChildren();
    // Pairs that never complete a turn in training: shaded columns.
    for (const i of m.slow) {
      svgEl("rect", { x: px(i) - step / 2, y: top, width: step, height: height - top - bottom,
        class: "rope-w-slow", "data-pair": i }, svg);
    }
    pairAxes(svg, geometry);
    // The training length and max positions: lines whose labels sit in the right margin,
    // apart from each other, never on the dots.
    const labelled = [];
    if (m.training !== null) labelled.push({ ...hline(svg, geometry, Math.log10(m.training), "trained"), y: py(Math.log10(m.training)), label: `trained ${count(m.training)}` });
    if (m.context !== null && m.context !== m.training) {
      labelled.push({ ...hline(svg, geometry, Math.log10(m.context), "context"), y: py(Math.log10(m.context)), label: `max ${count(m.context)}` });
    }
    spreadLabels(labelled.map((l) => l.y + 4), 15, top + 8, height - bottom).forEach((y, k) => {
      const l = labelled[k];
      l.text.setAttribute("y", y);
      l.text.textContent = l.label;
      l.text.dataset.lineY = l.y;
    });
    const curve = (vals, cls) => {
      const points = [];
      vals.forEach((v, i) => { if (v !== null) points.push(`${px(i).toFixed(1)},${py(v).toFixed(1)}`); });
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
    for (const b of [0, 1, 2]) if (m.band.includes(b)) legend.push([BAND_NAMES[b] === "scaled" ? `scaled ×${num(m.largest_ratio)}` : BAND_NAMES[b], BAND_COLOURS[b]]);
    legend.forEach(([label, colour], j) => {
      svgEl("circle", { cx: left + 12, cy: top + 8 + 15 * j, r: 4, style: `fill: ${colour}` }, svg);
      svgEl("text", { x: left + 20, y: top + 12 + 15 * j, class: "rope-w-halo" }, svg).textContent = label;
    });
    let row = legend.length;
    if (m.log10_wavelength_trained) {
      svgEl("line", { x1: left + 6, x2: left + 18, y1: top + 8 + 15 * row, y2: top + 8 + 15 * row, class: "rope-w-trained" }, svg);
      svgEl("text", { x: left + 20, y: top + 12 + 15 * row, class: "rope-w-halo" }, svg).textContent = "as trained";
      row += 1;
    }
    if (m.slow.length) {
      svgEl("rect", { x: left + 8, y: top + 3 + 15 * row, width: 8, height: 10, class: "rope-w-slow" }, svg);
      svgEl("text", { x: left + 20, y: top + 12 + 15 * row, class: "rope-w-halo" }, svg).textContent = "< 1 turn in training";
    }
    mark = svgEl("g", { class: "rope-w-mark", "pointer-events": "none" }, svg);
    pairTargets(svg, geometry, (i, rect, tapped) => { setPair(i); if (tapped) showTip(rect, pairShown); });
    markPair(state.pair);

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
        ? `At ${count(m.context)} tokens no slow pair turns further than in its first ${count(m.training)} tokens of training.`
        : `⚠ At ${count(m.context)} tokens ${m.beyond} of ${m.slow.length} slow pairs turn further than in its first ${count(m.training)} tokens of training, worst ${fmt(m.worst, 2)}×.`);
    }
    // Whether the model was trained with its scaling: what turns the ⚠ into a fact about
    // training rather than a fault.
    if (m.scaling_trained !== null) {
      const trainedLine = line(m.scaling_trained
        ? `${m.title} was trained on long inputs with this scaling, so it has seen these angles.`
        : `${m.title} was not trained with this scaling: it is added at deployment.`);
      trainedLine.dataset.scalingTrained = m.scaling_trained ? "1" : "0";
      htmlEl("div", { class: "rope-w-readout-label rope-w-source" }, shown, `Source: ${m.scaling_source}`);
    }
    Object.assign(shown.dataset, { name: m.name, layerType: m.layer_type ?? "", ropeType: m.rope_type, base: m.base,
      training: m.training ?? "", context: m.context ?? "", slow: m.slow.length, rotated: m.rotated_pairs,
      beyond: m.beyond ?? "", worst: m.worst ?? "", scalingTrained: m.scaling_trained === null ? "" : m.scaling_trained ? "1" : "0",
      longest: Math.max(...m.log10_wavelength.filter((v) => v !== null)) });
  }
  keyboardPairs(svg, () => data.models[index()].log10_wavelength.length, setPair, () => state.pair);
  return { body, draw, markPair };
}

export default { render };
