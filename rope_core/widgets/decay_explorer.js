// Decay: RoFormer's bound drawn above the scores it bounds, in one unit (score ÷ |q||k|), at one
// base; under it the bound at the chosen distance against the base, one line for every base. Every number comes from Python
// (rope_core.demos.decay); the page looks values up and draws.
import { svgEl, htmlEl, slider, readout, fmt3, frame, keepTextSize, syncer, stepButtons, showTip, setText, announcer, keepInReach } from "./common.js";
import { lesson, question } from "./lesson.js";

const DECAY_SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

// A base as the book writes it: 10⁴ for a power of ten, else with thin spaces.
function baseLabel(value) {
  const e = Math.log10(value);
  if (Math.abs(e - Math.round(e)) < 1e-9) return "10" + String(Math.round(e)).split("").map((c) => DECAY_SUPERSCRIPT[c]).join("");
  return Number(value).toLocaleString("en-US").replace(/,/g, "\u2009");
}

// The y axis: linear up to 1 (every cosine), logarithmic above (the bounds), continuous at 1.
// Exposed on the drawing (data-y-map) so a test can read the drawn curves back into numbers.
const Y_MAP = { lo: -0.5, hi: 300, linear: 1, decade: 0.6 };
function yUnits(y) {
  return y <= Y_MAP.linear ? y : Y_MAP.linear + Y_MAP.decade * Math.log10(y / Y_MAP.linear);
}

// A ratio as a reader says it: "28×", "370×".
function times(ratio) {
  return `${ratio >= 10 ? Math.round(ratio) : Number(ratio.toPrecision(2))}×`;
}

function render({ model, el }) {
  const data = model.get("data");
  const width = 460, height = 330, left = 54, right = 12, top = 14, bottom = 44;
  const { root, svg, controls } = frame(el, { title: "RoFormer's bound against the scores it bounds", width, height });
  svg.classList.add("rope-w-large");
  // A horizontal drag on the plot sets the distance; a vertical swipe still scrolls the page
  // (touch-action on the drawing itself: its child elements' own value is not honoured everywhere).
  svg.style.touchAction = "pan-y";
  svg.dataset.yMap = JSON.stringify({ ...Y_MAP, top, bottom: height - bottom });
  lesson(root, "Every curve is a score divided by |q||k|; each dashed line is RoFormer's bound on the scores of its colour, in the same unit.");
  const say = announcer(root);
  let furthest = 0;   // the furthest distance r the reader has looked at
  const state = { b: model.get("base_index"), r: model.get("distance_index") };
  const out = {};
  const xmax = data.distances[data.distances.length - 1];
  const px = (x) => left + (width - left - right) * x / xmax;
  const span = yUnits(Y_MAP.hi) - yUnits(Y_MAP.lo);
  const py = (y) => top + (height - top - bottom) * (1 - (yUnits(Math.max(Y_MAP.lo, Math.min(Y_MAP.hi, y))) - yUnits(Y_MAP.lo)) / span);
  const groups = [
    ["aligned", "rope-w-q", "q = k"],
    ["random", "rope-w-k", `random q, k (${data.samples} pairs)`],
    ["correlated", "rope-w-rot", `correlated, ρ = ${data.correlation} (${data.samples} pairs)`],
  ];
  const at = (i) => data.stops[i];  // slider stop -> index into the curves

  // Axes, drawn once: y ticks (linear to 1, decades above), the line where the scale changes,
  // x ticks, both axis titles.
  const axes = svgEl("g", {}, svg);
  for (const y of [-0.5, 0, 0.5, 1, 10, 100]) {
    svgEl("line", { x1: left, x2: width - right, y1: py(y), y2: py(y), class: "rope-w-axis", "data-y-tick": y }, axes);
    svgEl("text", { x: left - 4, y: py(y) + 4, "text-anchor": "end", class: "rope-w-muted-text" }, axes).textContent = String(y).replace("-", "−");
  }
  for (const y of [3, 30, 300]) svgEl("line", { x1: left - 3, x2: left, y1: py(y), y2: py(y), class: "rope-w-axis" }, axes);
  svgEl("line", { x1: left, x2: width - right, y1: py(1), y2: py(1), class: "rope-w-outline rope-w-dotted", "data-scale-change": 1 }, axes);
  svgEl("text", { x: width - right - 2, y: py(1) - 4, "text-anchor": "end", class: "rope-w-muted-text", "data-label": "scale" }, axes).textContent = "log scale above 1";
  for (const [x, anchor] of [[0, "start"], [xmax / 4, "middle"], [xmax / 2, "middle"], [3 * xmax / 4, "middle"], [xmax, "end"]]) {
    svgEl("line", { x1: px(x), x2: px(x), y1: height - bottom, y2: height - bottom + 4, class: "rope-w-axis", "data-x-tick": x }, axes);
    svgEl("text", { x: px(x), y: height - bottom + 16, class: "rope-w-muted-text", "text-anchor": anchor }, axes).textContent = String(Math.round(x));
  }
  svgEl("text", { x: left + (width - left - right) / 2, y: height - 6, "text-anchor": "middle", "data-axis": "x" }, axes).textContent = "distance r = m − n (tokens)";
  const yTitle = svgEl("text", { x: 0, y: 0, "text-anchor": "middle", "data-axis": "y",
    transform: `translate(14 ${top + (height - top - bottom) / 2}) rotate(-90)` }, axes);
  yTitle.textContent = "score ÷ |q||k|";
  const curves = svgEl("g", {}, svg);
  const marks = svgEl("g", {}, svg);
  // The plot is a control too: press or drag along it to choose the distance (pan-y: a vertical
  // swipe still scrolls the page on a phone).
  const scrub = svgEl("rect", { x: left, y: top, width: width - left - right, height: height - top - bottom, class: "rope-w-scrub", "data-scrub": "" }, svg);

  const points = (values) => values.map((v, i) => `${px(data.distances[i]).toFixed(2)},${py(v).toFixed(2)}`).join(" ");
  const parts = {};
  // Each base's curves, drawn once and kept (a base seen before is put back).
  const drawnCurves = new Map();
  function drawCurves(series) {
    if (drawnCurves.has(series)) { curves.replaceChildren(...drawnCurves.get(series)); return; }
    curves.replaceChildren();
    for (const [key, colourVar] of groups) {
      const colour = `var(--${colourVar})`;
      if (key === "aligned") {
        svgEl("polyline", { points: points(series.aligned), class: "rope-w-line", style: `stroke: ${colour}`, "data-series": "aligned" }, curves);
        svgEl("polyline", { points: points(series.bound), class: "rope-w-line rope-w-dashed", style: `stroke: ${colour}`, "data-series": "aligned-bound" }, curves);
        continue;
      }
      const band = series[key];
      const upper = band.mean.map((m, i) => m + band.sd[i]), lower = band.mean.map((m, i) => m - band.sd[i]);
      svgEl("polygon", { points: `${points(upper)} ${points(lower).split(" ").reverse().join(" ")}`, class: "rope-w-band",
        style: `fill: ${colour}`, "data-series": `${key}-band` }, curves);
      svgEl("polyline", { points: points(band.mean), class: "rope-w-line", style: `stroke: ${colour}`, "data-series": `${key}-mean` }, curves);
      svgEl("polyline", { points: points(band.bound), class: `rope-w-line ${key === "random" ? "rope-w-dashed" : "rope-w-dotted"}`,
        style: `stroke: ${colour}`, "data-series": `${key}-bound` }, curves);
    }
    drawnCurves.set(series, [...curves.children]);
  }

  // The per-base story as one line: B(r), the bound for q = k at the distance chosen, against
  // the base (log axis), with its average over 0 … r (dotted). As r moves, the line wiggles (B
  // oscillates) while the dotted one keeps rising with the base. A base's dot picks that base.
  const fw = 460, fh = 190, fl = 54, fr = 12, ft = 30, fb = 30;
  const section = htmlEl("div", { class: "rope-w-family" }, root);
  const familySvg = svgEl("svg", { viewBox: `0 0 ${fw} ${fh}`, width: fw, height: fh, role: "group", class: "rope-w-svg rope-w-large",
    "data-plot": "family", "aria-label": "the bound for q = k at the chosen distance, against the base" }, section);
  keepTextSize(familySvg);
  const familyNote = htmlEl("p", { class: "rope-w-hint", "data-readout": "family" }, section);
  const logs = data.bases.map(Math.log10), lmin = Math.min(...logs), lmax = Math.max(...logs);
  const fpx = (b) => fl + (fw - fl - fr) * (logs[b] - lmin) / Math.max(lmax - lmin, 1e-9);
  const fymax = 35;
  const fpy = (y) => ft + (fh - ft - fb) * (1 - y / fymax);
  for (const y of [0, 10, 20, 30]) {
    svgEl("line", { x1: fl, x2: fw - fr, y1: fpy(y), y2: fpy(y), class: "rope-w-axis" }, familySvg);
    svgEl("text", { x: fl - 4, y: fpy(y) + 4, "text-anchor": "end", class: "rope-w-muted-text" }, familySvg).textContent = String(y);
  }
  data.bases.forEach((base, b) => {
    svgEl("text", { x: fpx(b), y: fh - 8, "text-anchor": b === 0 ? "start" : b === data.bases.length - 1 ? "end" : "middle",
      class: "rope-w-muted-text", "data-base-tick": base }, familySvg).textContent = baseLabel(base);
  });
  const familyTitle = svgEl("text", { x: fl, y: 16, "data-label": "family" }, familySvg);
  const boundLine = svgEl("polyline", { class: "rope-w-line", style: "stroke: var(--rope-w-q); stroke-width: 2", "data-series": "bound-by-base" }, familySvg);
  const averageLine = svgEl("polyline", { class: "rope-w-line rope-w-dotted", style: "stroke: var(--rope-w-fg)", "data-series": "average-by-base" }, familySvg);
  parts.bases = data.bases.map((base, b) => {
    const group = svgEl("g", { "data-pick-base": b, role: "button", tabindex: -1, "aria-label": `show base ${baseLabel(base)}` }, familySvg);
    svgEl("circle", { r: 14, class: "rope-w-clock-hit" }, group);
    const dot = svgEl("circle", { r: 3.5, style: "fill: var(--rope-w-q)" }, group);
    const ring = svgEl("circle", { r: 7, class: "rope-w-outline", style: "stroke: var(--rope-w-fg); stroke-width: 1.5" }, group);
    const label = svgEl("text", { "text-anchor": "middle", class: "rope-w-halo", "data-base": base }, familySvg);
    group.addEventListener("click", () => baseControl.set(b));
    return { group, dot, ring, label };
  });

  function drawFamily() {
    const r = at(state.r);
    const values = data.series.map((series) => series.bound[r]);
    const averages = data.series.map((series) => series.bound_average[state.r]);
    boundLine.setAttribute("points", values.map((v, b) => `${fpx(b).toFixed(1)},${fpy(v).toFixed(1)}`).join(" "));
    averageLine.setAttribute("points", averages.map((v, b) => `${fpx(b).toFixed(1)},${fpy(v).toFixed(1)}`).join(" "));
    parts.bases.forEach(({ group, ring, label }, b) => {
      group.setAttribute("transform", `translate(${fpx(b)} ${fpy(values[b])})`);
      ring.setAttribute("visibility", b === state.b ? "visible" : "hidden");
      // The value above its dot, or below it where the average's line would cross the text.
      const above = averages[b] <= values[b] || fpy(averages[b]) - fpy(values[b]) > 18;
      label.setAttribute("x", fpx(b));
      label.setAttribute("y", fpy(values[b]) + (above ? -10 : 20));
      label.setAttribute("font-weight", b === state.b ? 600 : 400);
      setText(label, fmt3(values[b]));
      Object.assign(label.dataset, { value: values[b], average: averages[b] });
    });
    setText(familyTitle, `B(r) for q = k at r = ${data.distances[r]}, by base (dotted: its mean over 0 … r)`);
    // Where B(r) itself is lower at a larger base, say so: it oscillates; its average does not.
    const dips = [];
    for (let b = 1; b < values.length; b++) if (values[b] < values[b - 1]) dips.push(b);
    const rText = `r = ${data.distances[r]}`;
    if (dips.length) {
      const b = dips[0];
      setText(familyNote, `At ${rText} the bound is lower at base ${baseLabel(data.bases[b])} (${fmt3(values[b])}) than at ${baseLabel(data.bases[b - 1])} (${fmt3(values[b - 1])}): B(r) oscillates, so one distance can catch a dip. Its average over 0 … r (dotted) still grows with the base.`);
    } else {
      setText(familyNote, `At ${rText} the bound grows with the base, and so does its average over 0 … r (dotted).`);
    }
    familyNote.dataset.dips = dips.join(",");
  }

  function draw() {
    const series = data.series[state.b];
    if (parts.base !== state.b) { parts.base = state.b; drawCurves(series); }
    const i = at(state.r), r = data.distances[i], x = px(r);
    // The marks at the distance, made once and moved.
    if (!marks.firstChild) {
      svgEl("line", { class: "rope-w-context", "stroke-dasharray": "4 3", "data-mark": "cursor" }, marks);
      const dot = (colourVar, name) => svgEl("circle", { r: 3.5, style: `fill: var(--${colourVar})`, "data-mark": name }, marks);
      dot("rope-w-q", "aligned");
      dot("rope-w-q", "aligned-bound");
      for (const [key, colourVar] of groups.slice(1)) {
        dot(colourVar, `${key}-mean`);
        dot(colourVar, `${key}-bound`);
      }
      svgEl("path", { class: "rope-w-gap", "data-mark": "gap" }, marks);
      svgEl("text", { class: "rope-w-halo", "data-mark": "gap-label" }, marks);
    }
    const [cursor, ...rest] = marks.children;
    const label = rest.pop(), gap = rest.pop();
    for (const [key, value] of [["x1", x], ["x2", x], ["y1", top], ["y2", height - bottom]]) cursor.setAttribute(key, value);
    const heights = [series.aligned[i], series.bound[i]];
    for (const [key] of groups.slice(1)) heights.push(series[key].mean[i], series[key].bound[i]);
    rest.forEach((dot, k) => { dot.setAttribute("cx", x); dot.setAttribute("cy", py(heights[k])); });
    // The gap between the aligned score and its bound, bracketed and labelled with the ratio.
    const score = series.aligned[i], bound = series.bound[i];
    const gx = r > xmax * 0.7 ? x - 8 : x + 8;
    gap.setAttribute("d", `M ${gx} ${py(bound)} h ${gx > x ? 4 : -4} V ${py(score)} h ${gx > x ? -4 : 4}`);
    const gapText = Math.abs(score) < 0.01 ? "score ≈ 0" : `bound = ${times(bound / Math.abs(score))} |score|`;
    label.setAttribute("x", gx + (gx > x ? 8 : -8));
    label.setAttribute("y", (py(bound) + py(score)) / 2);
    label.setAttribute("text-anchor", gx > x ? "start" : "end");
    setText(label, gapText);

    setText(out.distance, String(r));
    out.distance.dataset.value = r;
    setText(out.aligned, `score ${fmt3(score)}, bound ${fmt3(bound)}${Math.abs(score) < 0.01 ? "" : ` (${times(bound / Math.abs(score))})`}`);
    Object.assign(out.aligned.dataset, { score, bound });
    for (const [key] of groups.slice(1)) {
      const band = series[key];
      setText(out[key], `score ${fmt3(band.mean[i])} ± ${fmt3(band.sd[i])}, bound ${fmt3(band.bound[i])} (each pair's own bound ≥ ${times(band.tightest[state.r])} its |score|)`);
      Object.assign(out[key].dataset, { mean: band.mean[i], sd: band.sd[i], bound: band.bound[i], tightest: band.tightest[state.r] });
    }
    drawFamily();
    furthest = Math.max(furthest, data.distances[i]);
    if (ask.predicted()) say(`r = ${data.distances[i]}: random pairs score ${fmt3(series.random.mean[i])} ± ${fmt3(series.random.sd[i])}`);
    ask.refresh();
  }

  const sync = syncer(model, state, draw);
  const baseControl = slider(controls, { label: "base", name: "base", values: data.bases, index: state.b, format: baseLabel, onInput: sync("b", "base_index") });
  const distanceControl = slider(controls, { label: "distance r", name: "distance", values: data.stops.map((s) => data.distances[s]), index: state.r, onInput: sync("r", "distance_index") });
  stepButtons(distanceControl, "distance r");
  keepInReach(distanceControl);
  // Press or drag on the plot: the nearest slider stop.
  let scrubbing = null;
  const scrubTo = (event) => {
    const point = svg.createSVGPoint();
    point.x = event.clientX; point.y = event.clientY;
    const local = point.matrixTransform(svg.getScreenCTM().inverse());
    const r = Math.max(0, Math.min(xmax, (local.x - left) / (width - left - right) * xmax));
    let best = 0;
    data.stops.forEach((s, j) => { if (Math.abs(data.distances[s] - r) < Math.abs(data.distances[data.stops[best]] - r)) best = j; });
    if (best !== state.r) distanceControl.set(best);
  };
  // On a phone the read-outs are a screen below the plot: a bubble under the q = k score's dot
  // repeats them, one line each (distance, q = k, random, correlated) while a finger scrubs.
  const tipSource = htmlEl("div");
  const bubble = () => {
    tipSource.replaceChildren(...["distance", "aligned", "random", "correlated"].map((key) => {
      const row = out[key].parentElement;
      return htmlEl("div", { "data-tip-line": key }, null, `${row.firstChild.textContent} ${out[key].textContent}`);
    }));
    showTip(marks.querySelector('[data-mark="aligned"]'), tipSource);
  };
  scrub.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 && event.pointerType === "mouse") return;
    scrubbing = event.pointerId;
    scrub.setPointerCapture(event.pointerId);
    scrubTo(event);
    bubble();
  });
  scrub.addEventListener("pointermove", (event) => { if (scrubbing === event.pointerId) { scrubTo(event); bubble(); } });
  for (const name of ["pointerup", "pointercancel"]) scrub.addEventListener(name, () => { scrubbing = null; });

  const legend = htmlEl("div", { class: "rope-w-legend" }, controls);
  for (const [, colourVar, label] of groups) {
    const item = htmlEl("span", { class: "rope-w-legend-item" }, legend);
    htmlEl("span", { class: "rope-w-swatch", style: `background: var(--${colourVar})` }, item);
    item.append(label);
  }
  const dashed = htmlEl("span", { class: "rope-w-legend-item" }, legend);
  htmlEl("span", { class: "rope-w-swatch", style: "background: repeating-linear-gradient(90deg, var(--rope-w-fg) 0 4px, transparent 4px 7px)" }, dashed);
  dashed.append("RoFormer's bound (bands: mean over the pairs)");
  out.distance = readout(controls, "distance", "at distance r =");
  out.aligned = readout(controls, "aligned", "q = k:");
  out.random = readout(controls, "random", "random:");
  out.correlated = readout(controls, "correlated", `correlated:`);
  const ask = question(controls, {
    prompt: "The dashed bounds fall with distance. Does the score of random pairs (the orange band) fall too?",
    // The random pairs' band and read-out would answer it: hidden until the prediction; answered
    // once the reader has taken r past half the axis.
    conceal: () => [...svg.querySelectorAll('[data-series="random-band"], [data-series="random-mean"], [data-mark="random-mean"]'), out.random.parentNode],
    reached: () => furthest >= xmax / 2,
    task: `drag along the plot (or move r) past r = ${xmax / 2} and watch the orange band.`,
    choices: [{ label: "yes, it falls" }, { label: "no, it stays", correct: true }],
    explain: () => {
      const band = data.series[state.b].random, corr = data.series[state.b].correlated, i = at(state.r), last = band.mean.length - 1;
      return `Random pairs score ${fmt3(band.mean[0])} ± ${fmt3(band.sd[0])} at r = 0 and ${fmt3(band.mean[i])} ± ${fmt3(band.sd[i])} at r = ${data.distances[i]} (${fmt3(band.mean[last])} ± ${fmt3(band.sd[last])} at r = ${data.distances[last]}): centred on 0, the same width, no decay. Only correlated pairs fall on average (${fmt3(corr.mean[0])} → ${fmt3(corr.mean[i])}), and every bound stays far above.`;
    },
  });
  draw();
}
export default { render };
