// Frequency clocks: every pair of a head as a clock hand at m·θ_i, with the turns it has made,
// its wavelength against the context L, and the position m written as the digits
// ⌊m/β^i⌋ mod β of an odometer's wheels. Every frequency comes from Python (clock_table); the page
// multiplies it by m, wraps it at 2π and takes its whole part modulo β, nothing else.
import { svgEl, htmlEl, slider, readout, fmt3, typeset, hoverable, frame, arrow, moveArrow, syncer, showTip, hideTip, stepButtons, setText, announcer, keepInReach, scrollClearOfReach } from "./common.js";
import { question } from "./lesson.js";
import { turnGrip } from "./drag.js";
const TAU = 2 * Math.PI;
// The time-lapse: log10(m + 1) grows at a constant rate, so the speed in tokens per second
// grows with m (about 1 token/s at the start, 10 000 near m = 10^5).
const DECADES_PER_SECOND = 0.4;
// The range input's thumb, in px: the track's ends are half of it in from the input's ends.
const THUMB = 16;

function render({ model, el }) {
  const { root, svg, controls } = frame(el, { title: "Every pair is a clock hand turning at θ_i", width: 400, height: 700 });
  const say = announcer(root);
  // The question comes first; until the reader predicts, no face is dashed, no L line is drawn
  // and no count is printed (they would answer it). Made below, once the table is known.
  let quiz = null, prompt = null;
  const predicted = () => Boolean(quiz && quiz.predicted());
  const state = {
    d: model.get("dim_index"), b: model.get("base_index"),
    c: model.get("context_index"), m: model.get("position"),
  };
  const out = {};
  let data = model.get("data"), positionSlider = null;
  // The time-lapse's position between stops (null: the slider's stop is shown).
  let lapse = null;
  // While the time-lapse runs, the hands turn at the unrounded m of the moment (so they move
  // smoothly, not a token at a time); the numbers say the whole m it has passed.
  let smooth = null;
  // What the last full drawing was for: a new position only turns the hands and moves the m
  // line; a new base or context restyles the same marks; a new d (another number of pairs)
  // puts that d's drawing in, made once and kept (the per-slider redraw budget is 4 ms, a
  // phone's CPU is ~4x slower).
  let drawn = null;
  const drawings = new Map();
  // The one computation on the page: pair i's hand at m·θ_i mod 2π (θ_i unrounded from
  // Python's clock_table; the browser tests check every shown angle against rope_core).
  const hand = (m, theta) => { const a = (m * theta) % TAU; return a < 0 ? a + TAU : a; };
  const position = () => (lapse !== null ? lapse : data.positions[state.m]);
  function showPair(tab, m, i) {
    const angle = m * tab.theta[i], shown = hand(m, tab.theta[i]);
    out.hover.textContent = "";
    typeset(htmlEl("span", {}, out.hover),
      `pair ${i}: θ_{${i}} = ${fmt3(tab.theta[i])}, m·θ_{${i}} = ${fmt3(angle)} rad (${fmt3(angle / TAU)} turns), λ_{${i}} = ${fmt3(tab.wavelength[i])}, cos = ${fmt3(Math.cos(angle))}, sin = ${fmt3(Math.sin(angle))}`);
    Object.assign(out.hover.dataset, { pair: i, theta: tab.theta[i], angle, hand: shown, wavelength: tab.wavelength[i],
      cos: Math.cos(angle), sin: Math.sin(angle), beyond: tab.beyond_context[state.c][i] ? "1" : "0" });
    for (const g of svg.querySelectorAll("g[data-pair]")) g.classList.toggle("rope-w-hover-clock", Number(g.dataset.pair) === i);
    for (const b of svg.querySelectorAll("rect[data-bar]")) b.classList.toggle("rope-w-hover-bar", Number(b.dataset.bar) === i);
  }
  function hide() {
    hideTip(root);
    setText(out.hover, "hover, tap or focus a clock for its numbers");
    for (const key of Object.keys(out.hover.dataset)) if (key !== "readout") delete out.hover.dataset[key];
    for (const n of svg.querySelectorAll(".rope-w-hover-clock, .rope-w-hover-bar")) n.classList.remove("rope-w-hover-clock", "rope-w-hover-bar");
  }
  function draw() {
    const tab = data.tables[state.d][state.b], m = position();
    const pairs = tab.theta.length, L = data.contexts[state.c];
    if (!drawn || drawn.clocks.length !== pairs) {
      if (!drawings.has(pairs)) drawings.set(pairs, drawClocks(pairs));
      drawn = drawings.get(pairs);
      svg.replaceChildren(...drawn.nodes);
    }
    if (drawn.tab !== tab || drawn.c !== state.c || drawn.predicted !== predicted()) restyle(tab);
    // The hands' m: the time-lapse's unrounded one, else the whole m shown.
    const turning = smooth !== null && smooth >= m && smooth < m + 1 ? smooth : m;
    const previous = drawn.handsAt;
    drawn.m = m;
    drawn.handsAt = turning;
    svg.dataset.handsAt = turning;
    let beyond = 0, turned = 0;
    drawn.clocks.forEach(({ group, hand: pointer, counter, cx, cy, radius, knob, sweep }, i) => {
      const far = tab.beyond_context[state.c][i] && predicted();
      if (tab.beyond_context[state.c][i]) beyond++;
      const angle = hand(m, tab.theta[i]), turns = m * tab.theta[i] / TAU;
      const drawnAngle = hand(turning, tab.theta[i]);
      if (turns >= 1) turned++;
      group.setAttribute("data-angle", angle);
      group.setAttribute("data-drawn-angle", drawnAngle);
      drawSweep(sweep, cx, cy, radius, smooth !== null && previous !== undefined ? (turning - previous) * tab.theta[i] : 0, drawnAngle);
      group.setAttribute("aria-label", `pair ${i}: angle ${fmt3(angle)} rad, ${fmt3(turns)} turns${far ? ", does not complete a turn within the context" : ""}`);
      // Angles are counter-clockwise from 3 o'clock, as in the rotation explorer.
      moveArrow(pointer, cx, cy, cx + radius * Math.cos(drawnAngle), cy - radius * Math.sin(drawnAngle));
      knob.setAttribute("cx", cx + radius * Math.cos(drawnAngle));
      knob.setAttribute("cy", cy - radius * Math.sin(drawnAngle));
      setText(counter, `${fmt3(turns)} turns`);
      counter.setAttribute("data-turns", turns);
    });
    drawPositionLine(m);
    drawOdometer(tab, m);
    placeContextMark();
    typeset(out.summary, `m = ${m}: ${turned} of ${pairs} hands have made a full turn; ${beyond} have λ_i > L = ${L} (grey, dashed: not one turn within L)`);
    Object.assign(out.summary.dataset, { pairs, beyond, turned, context: L, position: m });
    const last = pairs - 1, slowAngle = m * tab.theta[last];
    // A hand's speed: θ_i / 2π turns for each token m moves on.
    const fastSpeed = tab.theta[0] / TAU, slowSpeed = tab.theta[last] / TAU;
    typeset(out.fastest, `θ_{0} = ${fmt3(tab.theta[0])} (${fmt3(fastSpeed)} turns/token), m·θ_{0} = ${fmt3(m * tab.theta[0])} rad (${fmt3(m * tab.theta[0] / TAU)} turns)`);
    typeset(out.slowest, `θ_{${last}} = ${fmt3(tab.theta[last])} (${fmt3(slowSpeed)} turns/token), m·θ_{${last}} = ${fmt3(slowAngle)} rad (${fmt3(slowAngle / TAU)} turns), λ_{${last}} = ${fmt3(tab.wavelength[last])}`);
    Object.assign(out.fastest.dataset, { angle: hand(m, tab.theta[0]), theta: tab.theta[0], turnsPerToken: fastSpeed });
    Object.assign(out.slowest.dataset, { angle: slowAngle, turns: slowAngle / TAU, theta: tab.theta[last], wavelength: tab.wavelength[last], turnsPerToken: slowSpeed });
    ask(tab, m, L, turned);
    hide();
  }
  // The one question: its prompt names the L of the moment; its answer shows once the reader
  // has predicted and taken m to L or past it.
  const within = (tab) => tab.beyond_context[state.c].filter((far) => !far).length;
  // The verdict is about m = L, whatever the slider shows now: at L exactly the hands with
  // λ_i ≤ L have turned once, and no other has.
  function answerText() {
    const tab = data.tables[state.d][state.b], m = position(), L = data.contexts[state.c], pairs = tab.theta.length;
    const turned = tab.theta.filter((theta) => m * theta / TAU >= 1).length, n = within(tab);
    const never = pairs - n;
    let text = `At m = L = ${L}, ${n} of ${pairs} hands have made a full turn: `
      + (n === pairs ? "every face is solid (λ_i ≤ L)." : n ? `those with λ_i ≤ L, the solid faces.` : "no λ_i is ≤ L.");
    if (never) {
      text += ` The ${never} dashed ${never === 1 ? "one has λ_i > L: within the context it never turns" : "ones have λ_i > L: within the context they never turn"} once.`;
    }
    if (m > L && turned > n) text += ` (The slider is past L, at m = ${m}, where ${turned} have turned: positions a model trained on L tokens never saw.)`;
    return text;
  }
  function ask(tab, m, L, turned) {
    if (!quiz) return;
    const pairs = tab.theta.length;
    typeset(prompt, `When m reaches the context length L = ${L}, which of the ${pairs} hands will have made at least one full turn?`);
    Object.assign(prompt.dataset, { answered: m >= L && predicted() ? "1" : "0", within: within(tab), turned, context: L });
    if (predicted()) say(`m = ${m}: ${turned} of ${pairs} hands have made a full turn`);
    quiz.refresh();
  }
  // Everything that depends only on the number of pairs: the clock faces (hands pointing
  // anywhere until draw() turns them) and the wavelength view's bars and axis; restyle() then
  // dresses them for a table and a context.
  function drawClocks(pairs) {
    const cols = Math.ceil(Math.sqrt(pairs)), rows = Math.ceil(pairs / cols);
    const cell = Math.min(400 / cols, 380 / rows), radius = cell * 0.3;
    svg.replaceChildren();
    const clocks = [];
    for (let i = 0; i < pairs; i++) {
      const cx = (i % cols + 0.5) * cell, cy = (Math.floor(i / cols) + 0.47) * cell;
      const group = svgEl("g", { "data-pair": i }, svg);
      svgEl("circle", { cx, cy, r: radius + 4, class: "rope-w-clock-hit" }, group);
      const face = svgEl("circle", { cx, cy, r: radius, class: "rope-w-meaning" }, group);
      // The angle the hand swept since the last frame of the time-lapse: a thin wedge for a
      // slow hand, the whole face for one turning a full turn or more a frame (a blur).
      const sweep = svgEl("path", { class: "rope-w-clock-sweep", "data-sweep": i, d: "" }, group);
      const pointer = arrow(group, cx, cy, cx + radius, cy, "q");
      // The hand's tip is a grip: turning it turns m (see grabHand).
      const knob = svgEl("circle", { cx: cx + radius, cy, r: Math.max(14, radius * 0.35), class: "rope-w-hand-grip", "data-grip": i }, group);
      grabHand(knob, i, cx, cy);
      typeset(svgEl("text", { x: cx - radius - 2, y: cy - radius + 4, "text-anchor": "end", class: "rope-w-muted-text", "data-label": i }, group), cell > 60 ? `θ_{${i}}` : `${i}`);
      const counter = svgEl("text", { x: cx, y: cy + radius + 16, "text-anchor": "middle", "data-counter": i }, group);
      clocks.push({ group, face, hand: pointer, counter, cx, cy, radius, knob, sweep });
    }
    const result = { tab: null, c: null, m: null, clocks };
    // Hover reads the table and position of the moment, not those the faces were drawn for.
    hoverable(clocks.map((clock) => clock.group), { columns: cols, onShow: (i) => { showPair(result.tab, result.m, i); showTip(clocks[i].group, out.hover); }, onHide: hide });
    Object.assign(result, drawLegend(), drawWavelengths(pairs, result), makeOdometer(pairs));
    result.nodes = [...svg.children];
    return result;
  }
  // What the faces' two looks mean, in the drawing.
  function drawLegend() {
    const y = 402;
    const turning = svgEl("g", { "data-legend": "turning" }, svg);
    svgEl("circle", { cx: 14, cy: y, r: 8, class: "rope-w-meaning" }, turning);
    arrow(turning, 14, y, 22, y - 1, "q");
    svgEl("text", { x: 28, y: y + 4 }, turning).textContent = "turns within L";
    const slow = svgEl("g", { "data-legend": "slow" }, svg);
    // Far enough right that "turns within L" ends before it at a phone's larger text.
    svgEl("circle", { cx: 164, cy: y, r: 8, class: "rope-w-meaning", "stroke-dasharray": "4 3" }, slow);
    arrow(slow, 164, y, 172, y - 1, "slow");
    typeset(svgEl("text", { x: 178, y: y + 4 }, slow), "λ_i > L: not one turn within L");
    return {};
  }
  // The second view: every pair's wavelength λ_i on a log axis, against the context L and the
  // position m (a hand whose bar rises above m has not yet made one turn). Linked by hover.
  function drawWavelengths(pairs, current) {
    const left = 46, right = 370, top = 430, bottom = 540, lmax = 7;
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
      const l = Math.log10(tab.wavelength[i]), far = tab.beyond_context[state.c][i] && predicted();
      for (const [key, value] of Object.entries({ y: py(l), height: bottom - py(l),
        class: far ? "rope-w-bar rope-w-clock-bar rope-w-bar-far" : "rope-w-bar rope-w-clock-bar", "data-log10-wavelength": l,
        "aria-label": `pair ${i}: wavelength ${fmt3(tab.wavelength[i])} tokens` })) rect.setAttribute(key, value);
    };
    const every = pairs <= 8 ? 1 : pairs <= 16 ? 3 : 5;
    for (let i = 0; i < pairs; i += every) {
      svgEl("text", { x: left + (i + 0.5) * width, y: bottom + 15, "text-anchor": "middle", class: "rope-w-muted-text", "data-tick-x": i }, svg).textContent = String(i);
    }
    typeset(svgEl("text", { x: left, y: bottom + 30, class: "rope-w-muted-text" }, svg), "pair i; bars: wavelength λ_i (log)");
    const contextLine = svgEl("line", { x1: left, x2: right, class: "rope-w-context", "data-line": "context" }, svg);
    const contextLabel = svgEl("text", { x: right + 4, "data-label": "context" }, svg);
    contextLine.dataset.concealable = contextLabel.dataset.concealable = "";
    contextLabel.textContent = "L";
    const positionAxis = { left, right, py, yContext: null };
    const placeContext = () => {
      const y = py(Math.log10(data.contexts[state.c]));
      positionAxis.yContext = y;
      contextLine.setAttribute("y1", y);
      contextLine.setAttribute("y2", y);
      contextLabel.setAttribute("y", y + 4);
      for (const node of [contextLine, contextLabel]) node.toggleAttribute("data-concealed", !predicted());
    };
    hoverable(bars, { columns: pairs, onShow: (i) => { showPair(current.tab, current.m, i); showTip(bars[i], out.hover); }, onHide: hide });
    const positionLayer = svgEl("g", { "data-layer": "position" }, svg);
    // A table and a context (a new base or context keeps the same bars and lines).
    const redrawBars = (newTab) => { bars.forEach((rect, i) => bar(rect, i, newTab)); placeContext(); };
    return { positionLayer, positionAxis, redrawBars };
  }
  // The odometer: wheel i shows digit ⌊m/β^i⌋ mod β of m (β = base^{2/d}), highest wheel on
  // the left as on a counter, eight wheels a row. Hand i turns to the same quotient m/β^i.
  // It has as many wheels as m needs: one per pair, and where m needs more digits than there
  // are pairs, dashed wheels without a pair (the pairs alone see m mod β^{d/2}). Where β is not
  // whole there are no whole digits, and the wheels are hidden.
  function makeOdometer(pairs) {
    const top = 612;
    const title = svgEl("text", { x: 8, y: top - 22, "data-label": "odometer" }, svg);
    const note = svgEl("text", { x: 8, y: top - 7, class: "rope-w-muted-text", "data-label": "odometer-note" }, svg);
    // What the pairs miss, on its own line under the wheels (one line would overrun the
    // drawing's width).
    const more = svgEl("text", { x: 8, y: top + 58, class: "rope-w-muted-text", "data-label": "odometer-more" }, svg);
    const layer = svgEl("g", { "data-layer": "odometer" }, svg);
    const wheels = [];
    for (let i = 0; i < pairs; i++) wheels.push(makeWheel(layer, i, false));
    return { odometer: { title, note, more, layer, wheels, pairs, top } };
  }
  function makeWheel(layer, i, extra) {
    const group = svgEl("g", { "data-wheel-group": i }, layer);
    svgEl("rect", { x: 1, y: 0, width: 46, height: 24, rx: 3, class: "rope-w-outline", "stroke-dasharray": extra ? "4 3" : "none" }, group);
    const text = svgEl("text", { x: 24, y: 17, "text-anchor": "middle", "data-wheel": i }, group);
    svgEl("text", { x: 24, y: 38, "text-anchor": "middle", class: "rope-w-muted-text", "data-wheel-label": i }, group).textContent = extra ? "none" : `i=${i}`;
    return { group, text };
  }
  // Digit i of m, as rope_core.demos.spectrum.position_digits computes it: the whole part of
  // m·θ_i = m/β^i (a quotient within 1e-9 of a whole number counts as it), modulo β.
  const digit = (m, theta, beta) => {
    const q = m * theta;
    const d = Math.floor(q + 1e-9 * Math.max(1, q)) % beta;
    return Number.isInteger(beta) ? Math.round(d) : d;
  };
  function drawOdometer(tab, m) {
    const odo = drawn.odometer, { title, note, more, wheels, pairs } = odo;
    const beta = tab.digit_base, whole = Number.isInteger(beta);
    typeset(title, `odometer: digit i = ⌊m/β^i⌋ mod β, β = ${whole ? beta : fmt3(beta)}`);
    Object.assign(title.dataset, { beta: tab.beta, digitBase: beta, position: m });
    odo.layer.style.display = whole ? "" : "none";
    if (!whole) {
      typeset(note, `β = ${fmt3(beta)} is not whole, so m has no whole digits in base β: no wheels`);
      setText(more, "");
      return;
    }
    // The digits m needs in base β (one for m = 0); wheels past the pairs have no hand.
    let needed = 1;
    while (needed < 64 && beta ** needed <= m) needed++;
    const count = Math.max(pairs, needed);
    while (wheels.length > count) wheels.pop().group.remove();
    while (wheels.length < count) wheels.push(makeWheel(odo.layer, wheels.length, true));
    const perRow = 8;
    wheels.forEach(({ group, text }, i) => {
      const k = count - 1 - i;
      group.setAttribute("transform", `translate(${8 + (k % perRow) * 48} ${odo.top + Math.floor(k / perRow) * 44})`);
      // A pair's digit from its θ_i = β^(−i); a wheel past the pairs from β^i itself.
      const value = i < pairs ? digit(m, tab.theta[i], beta) : Math.floor(m / beta ** i) % beta;
      setText(text, String(value));
      text.dataset.value = i < pairs ? m * tab.theta[i] : m / beta ** i;
      text.dataset.digit = value;
    });
    typeset(note, `the wheels spell m = ${m} in base ${beta}`);
    // Under the last row of wheels.
    more.setAttribute("y", odo.top + Math.ceil(count / perRow) * 44 + 14);
    setText(more, needed <= pairs ? "" : `the ${pairs} pairs see only its last ${pairs} digits`);
  }
  // What the table and the context decide: dashed faces and grey hands for the pairs that do
  // not turn once within the context, bar heights, the L line.
  function restyle(tab) {
    drawn.clocks.forEach(({ group, face, hand: pointer }, i) => {
      const far = tab.beyond_context[state.c][i] && predicted();
      group.setAttribute("data-beyond", far ? "1" : "0");
      face.setAttribute("stroke-dasharray", far ? "4 3" : "none");
      pointer.setAttribute("class", far ? "slow" : "q");
    });
    drawn.redrawBars(tab);
    Object.assign(drawn, { tab, c: state.c, predicted: predicted() });
  }
  // The m line and its label, made once per drawing and moved; out of the drawing at m = 0.
  function drawPositionLine(m) {
    const { left, right, py, yContext } = drawn.positionAxis;
    const layer = drawn.positionLayer;
    if (m < 1) { if (layer.firstChild) layer.replaceChildren(); return; }
    if (!drawn.positionMarks) {
      drawn.positionMarks = [
        svgEl("line", { x1: left, x2: right, class: "rope-w-position-line", "data-line": "position" }),
        typeset(svgEl("text", { x: right + 4, "data-label": "position", class: "rope-w-position-text" }), "m"),
      ];
    }
    const [line, label] = drawn.positionMarks;
    if (!layer.firstChild) layer.replaceChildren(line, label);
    // At m = 1 (log 0) the line would sit on the baseline: lift it by 2 units to stay visible.
    const y = Math.min(py(Math.log10(m)), py(0) - 2);
    line.setAttribute("y1", y);
    line.setAttribute("y2", y);
    const apart = Math.abs(y - yContext) < 15 ? (y >= yContext ? 15 : -15) : 0;
    label.setAttribute("y", (apart ? yContext + apart : y) + 4);
  }
  // The wedge a hand swept in the last frame: `swept` radians counter-clockwise up to `angle`
  // (none when the hand stood still; the whole face from a full turn on).
  function drawSweep(path, cx, cy, radius, swept, angle) {
    path.dataset.swept = swept;
    if (!(swept > 1e-3)) { path.setAttribute("d", ""); return; }
    if (swept >= TAU) {
      path.setAttribute("d", `M ${cx + radius} ${cy} A ${radius} ${radius} 0 1 0 ${cx - radius} ${cy} A ${radius} ${radius} 0 1 0 ${cx + radius} ${cy} Z`);
      return;
    }
    const from = angle - swept, at = (a) => `${cx + radius * Math.cos(a)} ${cy - radius * Math.sin(a)}`;
    // SVG's y points down, so a counter-clockwise arc on the page has sweep-flag 0.
    path.setAttribute("d", `M ${cx} ${cy} L ${at(from)} A ${radius} ${radius} 0 ${swept > Math.PI ? 1 : 0} 0 ${at(angle)} Z`);
  }
  // Grab a hand and turn it: m follows, by the angle turned since the press over that pair's
  // θ_i (unwrapped, so several turns add up; counter-clockwise is forward), rounded to a
  // whole position and kept on the slider's range. A fast hand moves m a token at a time, a
  // slow one by hundreds: the same turn is a different number of tokens for each pair.
  function grabHand(knob, i, cx, cy) {
    let start = null;
    turnGrip(svg, knob, {
      cx, cy,
      grab: () => {
        if (lapseControl) lapseControl.stop();
        start = position();
      },
      turn: (turned) => {
        const theta = data.tables[state.d][state.b].theta[i];
        const last = data.positions[data.positions.length - 1];
        const m = Math.max(0, Math.min(last, Math.round(start + turned / theta)));
        if (m !== position()) setPosition(m, null);
      },
    });
  }
  // Show position m, on a stop of the slider or between two (a drag or the time-lapse): the
  // slider sits on the nearest stop and says m itself.
  const nearestStop = (m) => {
    let best = 0;
    data.positions.forEach((p, k) => { if (Math.abs(p - m) < Math.abs(data.positions[best] - m)) best = k; });
    return best;
  };
  let speed = null;
  function setPosition(m, rate) {
    lapse = data.positions[nearestStop(m)] === m ? null : m;
    state.m = nearestStop(m);
    positionSlider.input.value = state.m;
    positionSlider.output.textContent = String(m);
    positionSlider.input.setAttribute("aria-valuetext", String(m));
    if (speed) {
      speed.textContent = rate === null ? "" : `${fmt3(rate)} tokens/s`;
      speed.dataset.rate = rate ?? "";
    }
    model.set("position", state.m);
    model.save_changes();
    draw();
  }
  // The time-lapse: m runs on a log scale from where it is (from 0 at the end) to the last stop.
  function timeLapse(parent) {
    const button = htmlEl("button", { type: "button", class: "rope-w-play", "aria-pressed": "false",
      "data-name": "play", "aria-label": "time-lapse of position m" }, parent, "▶ time-lapse");
    speed = htmlEl("span", { class: "rope-w-readout-label", "data-readout": "speed", "aria-live": "off" }, parent, "");
    const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    let frameId = null, timer = null, start = null, from = 0;
    const last = () => data.positions[data.positions.length - 1];
    const show = (m, rate) => { setPosition(m, rate); lapse = m; };
    const stop = () => {
      if (frameId !== null) cancelAnimationFrame(frameId);
      if (timer !== null) clearInterval(timer);
      frameId = timer = null;
      button.setAttribute("aria-pressed", "false");
      button.textContent = "▶ time-lapse";
      // Stopped, the hands stand at the whole m the numbers say.
      if (smooth !== null) { smooth = null; if (button.isConnected) draw(); }
    };
    // The m the question names: a time-lapse that reaches the context length L halts on it
    // exactly, the frame the question asks about (▶ again runs on from there: only a run that
    // started below L halts on it).
    const held = (m) => {
      const L = data.contexts[state.c];
      return from < L && m >= L ? L : null;
    };
    const tick = (now) => {
      if (!button.isConnected) { stop(); return; }
      if (start === null) start = now;
      const x = Math.log10(from + 1) + DECADES_PER_SECOND * (now - start) / 1000;
      const real = Math.min(last(), 10 ** x - 1), m = Math.floor(real);
      const L = held(real);
      if (L !== null || m >= last()) {
        smooth = null;
        show(L ?? last(), null);
        stop();
        return;
      }
      smooth = real;
      show(m, Math.LN10 * DECADES_PER_SECOND * (m + 1));
      frameId = requestAnimationFrame(tick);
    };
    button.addEventListener("click", () => {
      if (frameId !== null || timer !== null) { stop(); return; }
      from = position() >= last() ? 0 : position();
      button.setAttribute("aria-pressed", "true");
      button.textContent = "❚❚ pause";
      start = null;
      if (reduced()) {
        // One step a second, each doubling m (a time-lapse without motion in between).
        timer = setInterval(() => {
          const doubled = Math.min(last(), Math.max(1, 2 * position())), m = held(doubled) ?? doubled;
          show(m, null);
          if (m >= last() || m !== doubled) stop();
        }, 1000);
      } else {
        frameId = requestAnimationFrame(tick);
      }
    });
    button.addEventListener("keydown", (event) => event.stopPropagation());
    // The reader's own move (a slider, a button, a hand) stops the time-lapse.
    const takeOver = (event) => {
      if ((frameId === null && timer === null) || button.contains(event.target)) return;
      if (event.type === "keydown" && !(event.target instanceof Element && event.target.closest("input, button"))) return;
      stop();
    };
    for (const type of ["input", "pointerdown", "keydown"]) root.addEventListener(type, takeOver, true);
    return { button, stop };
  }
  const sync = syncer(model, state, draw);
  let lapseControl = null;
  function build() {
    if (lapseControl) lapseControl.stop();
    controls.replaceChildren();
    lapse = null;
    state.d = Math.min(state.d, data.dims.length - 1);
    state.b = Math.min(state.b, data.bases.length - 1);
    state.m = Math.min(state.m, data.positions.length - 1);
    const onPosition = sync("m", "position");
    const onSlider = (index) => { lapse = null; onPosition(index); };
    onSlider.follow = onPosition.follow;
    out.hover = readout(controls, "hover", "");
    out.hover.parentElement.classList.add("rope-w-hover");
    out.hover.setAttribute("aria-live", "polite");
    positionSlider = slider(controls, { label: "position m", name: "position", values: data.positions, index: state.m, onInput: onSlider });
    scaleNote(positionSlider);
    stepButtons(positionSlider, "position m");
    scrollClearOfReach(keepInReach(positionSlider));
    const row = htmlEl("div", { class: "rope-w-play-row" }, controls);
    lapseControl = timeLapse(row);
    const digitsButton = htmlEl("button", { type: "button", class: "rope-w-play", "data-name": "decimal" }, row, "digits in base 10");
    slider(controls, { label: "context length L", name: "context", values: data.contexts, index: state.c, onInput: sync("c", "context_index") });
    const baseSlider = slider(controls, { label: "base", name: "base", values: data.bases, index: state.b, format: fmt3, onInput: sync("b", "base_index") });
    const dimSlider = slider(controls, { label: "dimension d", name: "dim", values: data.dims, index: state.d, onInput: sync("d", "dim_index") });
    // The chapter's toy head: d = 8 at base 10^4 has β = 10, and the odometer spells m in decimal.
    const toy = [data.dims.indexOf(8), data.bases.indexOf(10000)];
    if (toy.includes(-1)) digitsButton.remove();
    else digitsButton.addEventListener("click", () => { dimSlider.set(toy[0]); baseSlider.set(toy[1]); });
    digitsButton.addEventListener("keydown", (event) => event.stopPropagation());
    out.summary = readout(controls, "summary", "");
    out.fastest = readout(controls, "fastest", "fastest:");
    out.slowest = readout(controls, "slowest", "slowest:");
    makeQuestion();
    draw();
  }
  // The prediction: every hand, only some (the fast ones) or none, for the L and head shown.
  function makeQuestion() {
    if (quiz) { quiz.node.remove(); }
    const table = () => data.tables[state.d][state.b];
    const count = () => within(table()), all = () => table().theta.length;
    quiz = question(htmlEl("div", {}, null), {
      prompt: "",
      choices: [
        { label: "every hand", correct: () => count() === all() },
        { label: "only some: the fast ones", correct: () => count() > 0 && count() < all() },
        { label: "none of them", correct: () => count() === 0 },
      ],
      reached: () => position() >= data.contexts[state.c],
      task: "press ▶ time-lapse, move m, or drag a clock hand round, until m reaches L.",
      explain: answerText,
      conceal: [out.summary.parentNode],
    });
    root.insertBefore(quiz.node, root.querySelector(".rope-w-body"));
    prompt = quiz.node.querySelector(".rope-w-question-prompt");
    prompt.dataset.readout = "question";
    quiz.node.querySelector(".rope-w-answers").addEventListener("click", () => draw());
  }
  // Under the position slider: where its stops are one token apart (solid) and where they are
  // log-spaced (dotted), each part as wide as its share of the stops; one short caption; and
  // where L sits on the track, so that a phone reader sees it in the pinned bar without
  // scrolling to the L slider. The mark is not read aloud: the L slider says L.
  function scaleNote(control) {
    const linear = data.positions.findIndex((p, k) => k > 0 && p - data.positions[k - 1] > 1);
    const note = htmlEl("div", { class: "rope-w-scale-note", "data-readout": "scale" }, control.input.parentElement);
    const parts = htmlEl("div", { class: "rope-w-scale-parts" }, note);
    const row = htmlEl("div", { class: "rope-w-scale-row" }, note);
    const count = data.positions.length;
    htmlEl("span", { style: `flex: ${linear < 0 ? 1 : linear} 1 0` }, parts, "");
    if (linear > 0) htmlEl("span", { style: `flex: ${count - linear} 1 0` }, parts, "");
    scale = { input: control.input, row, caption: htmlEl("span", { class: "rope-w-scale-caption" }, row,
      linear < 0 ? "one token per step" : `log steps after ${data.positions[linear - 1]}`) };
    if (linear > 0) note.dataset.linearUpTo = data.positions[linear - 1];
    scale.mark = htmlEl("span", { class: "rope-w-context-mark", "data-mark": "context", "aria-hidden": "true" }, row, "");
    // The input's width changes with the screen (and when the row is pinned on a phone).
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => { scale.placed = null; placeContextMark(); }).observe(control.input);
  }
  // L's mark under the track, where the slider's thumb stands at m = L (the thumb's centre
  // runs from half a thumb in from one end of the input to half a thumb in from the other);
  // the caption keeps to the other half of the row, so that the two never meet.
  let scale = null;
  function placeContextMark() {
    if (!scale) return;
    const { input, row, caption, mark } = scale;
    const L = data.contexts[state.c], stop = data.positions.indexOf(L);
    // Measured again only for a new L or a new width (not on every move of m).
    if (scale.placed === L) return;
    scale.placed = L;
    const share = stop < 0 ? null : stop / (data.positions.length - 1);
    mark.hidden = share === null;
    if (share === null) return;
    // In the row's own width (the track's ends measured as offsets from the row's), so the
    // mark follows any later change of width at once, before the next measurement (print).
    const track = input.getBoundingClientRect(), home = row.getBoundingClientRect();
    const before = track.left - home.left, after = home.right - track.right;
    mark.style.left = `calc(${(before + THUMB / 2).toFixed(2)}px + ${share.toFixed(6)} * (100% - ${(before + after + THUMB).toFixed(2)}px))`;
    setText(mark, `L = ${L}`);
    caption.classList.toggle("rope-w-scale-caption-right", share < 0.5);
    Object.assign(mark.dataset, { context: L, share });
  }
  // With a kernel, new dims or bases arrive as a new table: rebuild the controls.
  model.on("change:data", () => { data = model.get("data"); build(); });
  build();
}
export default { render };
