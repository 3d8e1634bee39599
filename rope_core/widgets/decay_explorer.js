// Decay: one query/key pair's score against distance under RoFormer's bound on it, from aligned
// to random content, at one base; after the reader's prediction, many random pairs on the same
// axis; under it the bound at the chosen distance against the base. Every number comes from
// Python (rope_core.demos.decay); the page looks values up and draws.
import { svgEl, htmlEl, slider, readout, fmt3, frame, keepTextSize, syncer, stepButtons, showTip, setText, announcer, keepInReach } from "./common.js";
import { lesson, question } from "./lesson.js";

const DECAY_SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

// A base as the book writes it: 10⁴ for a power of ten, else with thin spaces.
function baseLabel(value) {
  const e = Math.log10(value);
  if (Math.abs(e - Math.round(e)) < 1e-9) return "10" + String(Math.round(e)).split("").map((c) => DECAY_SUPERSCRIPT[c]).join("");
  return Number(value).toLocaleString("en-US").replace(/,/g, "\u2009");
}

// How random the pair's key is, as the content slider says it.
export function contentLabel(mix) {
  if (mix === 0) return "aligned (k = q)";
  if (mix === 1) return "random";
  return `${Math.round(mix * 100)} % random`;
}

// The y axis: |score| ÷ |q||k| and the bounds on one logarithmic scale, from LOG_Y.lo (a score
// closer to 0 is drawn there) to LOG_Y.hi. Exposed on the drawing (data-y-map) so a test can
// read the drawn curves back into numbers.
const LOG_Y = { lo: 1e-3, hi: 200 };
export function logFraction(value, lo = LOG_Y.lo, hi = LOG_Y.hi) {
  const v = Math.min(hi, Math.max(lo, Math.abs(value)));
  return (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
}

// A ratio as a reader says it: "28×", "370×".
function times(ratio) {
  return `${ratio >= 10 ? Math.round(ratio) : Number(ratio.toPrecision(2))}×`;
}

// Boxes {x, y, width, height} (x, y: top left) overlap when both their spans do.
export function boxesOverlap(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

// How much of the segment (x1, y1)–(x2, y2) lies inside `box` {x, y, width, height}: the
// length of the part the box clips from it (Liang–Barsky), 0 when it passes outside.
export function segmentLengthInBox(x1, y1, x2, y2, box) {
  const dx = x2 - x1, dy = y2 - y1;
  let t0 = 0, t1 = 1;
  for (const [p, q] of [[-dx, x1 - box.x], [dx, box.x + box.width - x1], [-dy, y1 - box.y], [dy, box.y + box.height - y1]]) {
    if (p === 0) { if (q < 0) return 0; continue; }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t); else t1 = Math.min(t1, t);
    if (t0 > t1) return 0;
  }
  return (t1 - t0) * Math.hypot(dx, dy);
}

// Where to put labels beside their points so that no two overlap and none covers an obstacle
// (a dot, a tick label, the title) or a drawn line, or leaves `bounds`. labels:
// [{x, y, width, height}] with (x, y) the point and the size of its text; obstacles: boxes;
// lines: polylines as [[x, y], ...]. Each label tries above, below, right, left, then the four
// corners, at `gap` from the point and then a label's height further, each slid inside
// `bounds` (an end label moves inwards rather than off the drawing), and takes the first free
// place. Where no place is free it takes the one that covers least: area for a box, length
// times the label's height for a line. Returns [{x, box}]: x the text's middle (for
// text-anchor "middle") and box the place taken, in the labels' units.
export function placeLabels(labels, obstacles = [], bounds = null, gap = 9, lines = []) {
  const placed = [];
  const overlapArea = (a, b) => Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
    Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const segments = lines.flatMap((line) => line.slice(1).map((end, i) => [...line[i], ...end]));
  const inside = (box) => (bounds ? {
    ...box,
    x: Math.min(Math.max(box.x, bounds.x), bounds.x + bounds.width - box.width),
    y: Math.min(Math.max(box.y, bounds.y), bounds.y + bounds.height - box.height),
  } : box);
  return labels.map(({ x, y, width, height }) => {
    const w = width, h = height;
    // Two rings of places: at `gap` from the point, then one label height further out.
    const candidates = [0, h].flatMap((far) => [[0, -gap - far - h / 2], [0, gap + far + h / 2], [gap + w / 2, 0],
      [-gap - w / 2, 0], [gap + w / 2, -gap - far - h / 2], [-gap - w / 2, -gap - far - h / 2], [gap + w / 2, gap + far + h / 2],
      [-gap - w / 2, gap + far + h / 2]])
      .map(([dx, dy]) => inside({ x: x + dx - w / 2, y: y + dy - h / 2, width: w, height: h }));
    let best = null, bestCost = Infinity;
    for (const box of candidates) {
      let cost = 0;
      if (bounds) cost += w * h - overlapArea(box, bounds);
      for (const other of [...obstacles, ...placed]) cost += overlapArea(box, other);
      for (const [x1, y1, x2, y2] of segments) cost += h * segmentLengthInBox(x1, y1, x2, y2, box);
      if (cost < bestCost) { best = box; bestCost = cost; }
      if (cost === 0) break;
    }
    placed.push(best);
    return { x: best.x + w / 2, box: best };
  });
}

function render({ model, el }) {
  const data = model.get("data");
  const width = 460, height = 330, left = 54, right = 12, top = 14, bottom = 44;
  const { root, svg, controls } = frame(el, { title: "One pair's score and RoFormer's bound on it", width, height });
  svg.classList.add("rope-w-large");
  // The plot and the by-base panel stack in one column: beside the controls the panel sits
  // directly under the plot, however tall the controls grow (a question, its verdict). Once
  // the controls wrap under the plot (a phone), the panel follows them, so that the question
  // comes before it.
  const body = svg.parentNode;
  const plots = htmlEl("div", { class: "rope-w-decay-plots" });
  body.insertBefore(plots, controls);
  plots.append(svg);
  // A horizontal drag on the plot sets the distance; a vertical swipe still scrolls the page
  // (touch-action on the drawing itself: its child elements' own value is not honoured everywhere).
  svg.style.touchAction = "pan-y";
  svg.dataset.yMap = JSON.stringify({ log: true, ...LOG_Y, top, bottom: height - bottom });
  lesson(root, "Every curve is |score| ÷ |q||k| or RoFormer's bound on it, on one logarithmic scale. The pair's score is drawn from r = 0 up to the distance you choose.");
  const say = announcer(root);
  const last = data.mixes.length - 1;
  let furthestRandom = -1;   // the furthest distance r seen with a random key
  const state = { b: model.get("base_index"), r: model.get("distance_index"), m: model.get("content_index"), crowd: false };
  const out = {};
  const xmax = data.distances[data.distances.length - 1];
  const px = (x) => left + (width - left - right) * x / xmax;
  const py = (y) => top + (height - top - bottom) * (1 - logFraction(y));
  const at = (i) => data.stops[i];  // slider stop -> index into the curves

  // Axes, drawn once: y ticks (decades), x ticks, both axis titles.
  const axes = svgEl("g", {}, svg);
  for (const y of [0.001, 0.01, 0.1, 1, 10, 100]) {
    svgEl("line", { x1: left, x2: width - right, y1: py(y), y2: py(y), class: "rope-w-axis", "data-y-tick": y }, axes);
    svgEl("text", { x: left - 4, y: py(y) + 4, "text-anchor": "end", class: "rope-w-muted-text" }, axes).textContent = y === 0.001 ? "≤0.001" : String(y);
  }
  for (const [x, anchor] of [[0, "start"], [xmax / 4, "middle"], [xmax / 2, "middle"], [3 * xmax / 4, "middle"], [xmax, "end"]]) {
    svgEl("line", { x1: px(x), x2: px(x), y1: height - bottom, y2: height - bottom + 4, class: "rope-w-axis", "data-x-tick": x }, axes);
    svgEl("text", { x: px(x), y: height - bottom + 16, class: "rope-w-muted-text", "text-anchor": anchor }, axes).textContent = String(Math.round(x));
  }
  svgEl("text", { x: left + (width - left - right) / 2, y: height - 6, "text-anchor": "middle", "data-axis": "x" }, axes).textContent = "distance r = m − n (tokens)";
  const yTitle = svgEl("text", { x: 0, y: 0, "text-anchor": "middle", "data-axis": "y",
    transform: `translate(14 ${top + (height - top - bottom) / 2}) rotate(-90)` }, axes);
  yTitle.textContent = "|score| ÷ |q||k|, log scale";

  // The random pairs (behind), then the pair's bound and score, then the marks at r.
  const crowd = svgEl("g", { "data-group": "random" }, svg);
  const crowdBand = svgEl("polygon", { class: "rope-w-band", style: "fill: var(--rope-w-k)", "data-series": "random-band" }, crowd);
  const crowdMedian = svgEl("polyline", { class: "rope-w-line", style: "stroke: var(--rope-w-k)", "data-series": "random-median" }, crowd);
  const pairBound = svgEl("polyline", { class: "rope-w-line rope-w-dashed", style: "stroke: var(--rope-w-q)", "data-series": "pair-bound" }, svg);
  const pairScore = svgEl("polyline", { class: "rope-w-line", style: "stroke: var(--rope-w-q); stroke-width: 2", "data-series": "pair-score" }, svg);
  const marks = svgEl("g", {}, svg);
  const cursor = svgEl("line", { class: "rope-w-context", "stroke-dasharray": "4 3", "data-mark": "cursor", y1: top, y2: height - bottom }, marks);
  const crowdDot = svgEl("circle", { r: 3.5, style: "fill: var(--rope-w-k)", "data-mark": "random-median" }, marks);
  const boundDot = svgEl("circle", { r: 3.5, style: "fill: var(--rope-w-q)", "data-mark": "pair-bound" }, marks);
  const scoreDot = svgEl("circle", { r: 4.5, style: "fill: var(--rope-w-q)", "data-mark": "pair-score" }, marks);
  const gap = svgEl("path", { class: "rope-w-gap", "data-mark": "gap" }, marks);
  const gapLabel = svgEl("text", { class: "rope-w-halo", "data-mark": "gap-label" }, marks);
  // The plot is a control too: press or drag along it to choose the distance (pan-y: a vertical
  // swipe still scrolls the page on a phone).
  const scrub = svgEl("rect", { x: left, y: top, width: width - left - right, height: height - top - bottom, class: "rope-w-scrub", "data-scrub": "" }, svg);

  const points = (values, count = values.length) => values.slice(0, count).map((v, i) => `${px(data.distances[i]).toFixed(2)},${py(v).toFixed(2)}`).join(" ");

  // The per-base story as one line: B(r), the bound for k = q at the distance chosen, against
  // the base (log axis), with its average over 0 … r (dotted). As r moves, the line wiggles (B
  // oscillates) while the dotted one keeps rising with the base. A base's dot picks that base.
  const fw = 460, fh = 214, fl = 54, fr = 12, ft = 54, fb = 30;
  const section = htmlEl("div", { class: "rope-w-family" }, plots);
  const familySvg = svgEl("svg", { viewBox: `0 0 ${fw} ${fh}`, width: fw, height: fh, role: "group", class: "rope-w-svg rope-w-large",
    "data-plot": "family", "aria-label": "the bound for k = q at the chosen distance, against the base" }, section);
  keepTextSize(familySvg);
  const familyNote = htmlEl("p", { class: "rope-w-hint", "data-readout": "family" }, section);
  const logs = data.bases.map(Math.log10), lmin = Math.min(...logs), lmax = Math.max(...logs);
  const fpx = (b) => fl + (fw - fl - fr) * (logs[b] - lmin) / Math.max(lmax - lmin, 1e-9);
  const fymax = 35;
  const fpy = (y) => ft + (fh - ft - fb) * (1 - y / fymax);
  for (const y of [0, 10, 20, 30]) {
    svgEl("line", { x1: fl, x2: fw - fr, y1: fpy(y), y2: fpy(y), class: "rope-w-axis" }, familySvg);
    svgEl("text", { x: fl - 4, y: fpy(y) + 4, "text-anchor": "end", class: "rope-w-muted-text", "data-family-tick": y }, familySvg).textContent = String(y);
  }
  data.bases.forEach((base, b) => {
    svgEl("text", { x: fpx(b), y: fh - 8, "text-anchor": b === 0 ? "start" : b === data.bases.length - 1 ? "end" : "middle",
      class: "rope-w-muted-text", "data-base-tick": base }, familySvg).textContent = baseLabel(base);
  });
  // The title in two short lines: one long line runs off a phone's narrow drawing.
  const familyTitle = svgEl("text", { x: fl, y: 16, "data-label": "family" }, familySvg);
  svgEl("text", { x: fl, y: 34, class: "rope-w-muted-text", "data-label": "family-average" }, familySvg).textContent = "dotted: its mean over 0 … r";
  const baseTicks = [...familySvg.querySelectorAll("[data-base-tick]")];
  const boundLine = svgEl("polyline", { class: "rope-w-line", style: "stroke: var(--rope-w-q); stroke-width: 2", "data-series": "bound-by-base" }, familySvg);
  const averageLine = svgEl("polyline", { class: "rope-w-line rope-w-dotted", style: "stroke: var(--rope-w-fg)", "data-series": "average-by-base" }, familySvg);
  const baseDots = data.bases.map((base, b) => {
    const group = svgEl("g", { "data-pick-base": b, role: "button", tabindex: -1, "aria-label": `show base ${baseLabel(base)}` }, familySvg);
    svgEl("circle", { r: 14, class: "rope-w-clock-hit" }, group);
    svgEl("circle", { r: 3.5, style: "fill: var(--rope-w-q)" }, group);
    const ring = svgEl("circle", { r: 7, class: "rope-w-outline", style: "stroke: var(--rope-w-fg); stroke-width: 1.5" }, group);
    const label = svgEl("text", { "text-anchor": "middle", class: "rope-w-halo", "data-base": base }, familySvg);
    group.addEventListener("click", () => baseControl.set(b));
    return { group, ring, label };
  });

  // Each value beside its dot where it overlaps no other value, dot, tick label or title line
  // and stays inside the drawing: text keeps its size on a phone (keepTextSize), so the
  // labels take more of a narrow drawing and must find room.
  const textBox = (node) => {
    const box = node.getBBox();
    return { x: box.x, y: box.y, width: box.width, height: box.height };
  };
  function placeFamilyLabels(values, averages) {
    const dots = values.map((v, b) => ({ x: fpx(b) - 7, y: fpy(v) - 7, width: 14, height: 14 }));
    // The bound's line and its average's: a label on either is struck through.
    const lines = [values, averages].map((series) => series.map((v, b) => [fpx(b), fpy(v)]));
    const fixed = [...familySvg.querySelectorAll("[data-label], [data-family-tick]"), ...baseTicks].map(textBox);
    const sizes = baseDots.map(({ label }) => {
      label.setAttribute("x", 0);
      label.setAttribute("y", 0);
      return textBox(label);   // y: the text's top above its baseline (negative)
    });
    const places = placeLabels(values.map((v, b) => ({ x: fpx(b), y: fpy(v), width: sizes[b].width + 2, height: sizes[b].height })),
      [...dots, ...fixed], { x: 0, y: 0, width: fw, height: fh }, 9, lines);
    places.forEach(({ x, box }, b) => {
      const label = baseDots[b].label;
      label.setAttribute("x", x.toFixed(1));
      label.setAttribute("y", (box.y - sizes[b].y).toFixed(1));
    });
  }

  // Text keeps its size when the drawing narrows, so the labels are placed again on a resize.
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => drawFamily()).observe(familySvg);
  // Beside: the body's flex row holds the drawings' width, its gap and the controls' least
  // width (what the row itself wraps at; measured from widths, not from where the controls
  // landed, which the moves below change). Stacked, the question also comes straight after the
  // plot, before the sliders: the plot, the question and the pinned distance bar then share a
  // phone's first screen.
  const placeSection = () => {
    const style = getComputedStyle(body), least = parseFloat(getComputedStyle(controls).minWidth) || 0;
    const room = body.clientWidth - parseFloat(style.paddingLeft || 0) - parseFloat(style.paddingRight || 0);
    if (room <= 0) return;   // not laid out yet: the ResizeObserver calls again
    const beside = room >= svg.width.baseVal.value + (parseFloat(style.columnGap) || 0) + least;
    const home = beside ? plots : body;
    if (section.parentNode !== home) home.append(section);
    if (beside && ask.node.parentNode !== controls) controls.append(ask.node);
    if (!beside && ask.node.nextSibling !== controls) body.insertBefore(ask.node, controls);
    plots.dataset.layout = beside ? "beside" : "stacked";
  };

  function drawFamily() {
    const r = at(state.r);
    const values = data.series.map((series) => series.bound[r]);
    const averages = data.series.map((series) => series.bound_average[state.r]);
    boundLine.setAttribute("points", values.map((v, b) => `${fpx(b).toFixed(1)},${fpy(v).toFixed(1)}`).join(" "));
    averageLine.setAttribute("points", averages.map((v, b) => `${fpx(b).toFixed(1)},${fpy(v).toFixed(1)}`).join(" "));
    baseDots.forEach(({ group, ring, label }, b) => {
      group.setAttribute("transform", `translate(${fpx(b)} ${fpy(values[b])})`);
      ring.setAttribute("visibility", b === state.b ? "visible" : "hidden");
      label.setAttribute("font-weight", b === state.b ? 600 : 400);
      setText(label, fmt3(values[b]));
      Object.assign(label.dataset, { value: values[b], average: averages[b] });
    });
    setText(familyTitle, `B(r) for k = q at r = ${data.distances[r]}, by base`);
    placeFamilyLabels(values, averages);
    // Where B(r) itself is lower at a larger base, say so: it oscillates; its average does not.
    const dips = [];
    for (let b = 1; b < values.length; b++) if (values[b] < values[b - 1]) dips.push(b);
    const rText = `r = ${data.distances[r]}`;
    if (Math.max(...values) - Math.min(...values) < 1e-9) {
      setText(familyNote, `At ${rText} the bound is ${fmt3(values[0])} at every base: every term starts at angle 0, whatever its frequency. Move r to see the bases part.`);
    } else if (dips.length) {
      const b = dips[0];
      setText(familyNote, `At ${rText} the bound is lower at base ${baseLabel(data.bases[b])} (${fmt3(values[b])}) than at ${baseLabel(data.bases[b - 1])} (${fmt3(values[b - 1])}): B(r) oscillates, so one distance can catch a dip. Its average over 0 … r (dotted) still grows with the base.`);
    } else {
      setText(familyNote, `At ${rText} the bound grows with the base, and so does its average over 0 … r (dotted).`);
    }
    familyNote.dataset.dips = dips.join(",");
  }

  // What would answer the question for a key that is not aligned: hidden until the prediction.
  const pairNodes = () => [pairScore, scoreDot, gap, gapLabel, out.pair.parentNode];

  function draw() {
    const series = data.series[state.b], pair = series.pair, crowdSeries = series.random;
    const i = at(state.r), r = data.distances[i], x = px(r);
    const score = pair.score[state.m], bound = pair.bound[state.m];
    pairBound.setAttribute("points", points(bound));
    // The score from r = 0 to the chosen distance: the reader's hand draws it.
    pairScore.setAttribute("points", points(score, i + 1));
    crowd.setAttribute("visibility", state.crowd ? "visible" : "hidden");
    crowdDot.setAttribute("visibility", state.crowd ? "visible" : "hidden");
    if (state.crowd) {
      crowdBand.setAttribute("points", `${points(crowdSeries.high)} ${points(crowdSeries.low).split(" ").reverse().join(" ")}`);
      crowdMedian.setAttribute("points", points(crowdSeries.median));
    }
    cursor.setAttribute("x1", x);
    cursor.setAttribute("x2", x);
    for (const [dot, value] of [[scoreDot, score[i]], [boundDot, bound[i]], [crowdDot, crowdSeries.median[i]]]) {
      dot.setAttribute("cx", x);
      dot.setAttribute("cy", py(value));
    }
    // The gap between the pair's |score| and its bound, bracketed and labelled with the ratio.
    const tiny = Math.abs(score[i]) < 0.001;
    const gx = r > xmax * 0.7 ? x - 8 : x + 8;
    gap.setAttribute("d", `M ${gx} ${py(bound[i])} h ${gx > x ? 4 : -4} V ${py(score[i])} h ${gx > x ? -4 : 4}`);
    gapLabel.setAttribute("x", gx + (gx > x ? 8 : -8));
    // Nearer the score than the bound: half-way (in decades) would sit on the bound's own line.
    gapLabel.setAttribute("y", py(score[i]) + 0.3 * (py(bound[i]) - py(score[i])) + 4);
    gapLabel.setAttribute("text-anchor", gx > x ? "start" : "end");
    setText(gapLabel, tiny ? "score ≈ 0" : `bound = ${times(bound[i] / Math.abs(score[i]))} |score|`);

    setText(out.distance, String(r));
    out.distance.dataset.value = r;
    setText(out.pair, `score ${fmt3(score[i])}, bound ${fmt3(bound[i])}${tiny ? "" : ` (${times(bound[i] / Math.abs(score[i]))})`}`);
    Object.assign(out.pair.dataset, { score: score[i], bound: bound[i] });
    out.random.parentNode.hidden = !state.crowd;
    setText(out.random, `median |score| ${fmt3(crowdSeries.median[i])} (10–90 %: ${fmt3(crowdSeries.low[i])} to ${fmt3(crowdSeries.high[i])}), median bound ${fmt3(crowdSeries.bound[i])}`);
    Object.assign(out.random.dataset, { low: crowdSeries.low[i], median: crowdSeries.median[i], high: crowdSeries.high[i], bound: crowdSeries.bound[i] });
    drawFamily();
    if (state.m === last) furthestRandom = Math.max(furthestRandom, r);
    // Before the prediction only the aligned pair's score is shown.
    if (!ask.predicted() && state.m === 0) for (const node of pairNodes()) node.removeAttribute("data-concealed");
    if (ask.predicted()) say(`r = ${r}, ${contentLabel(data.mixes[state.m])} key: score ${fmt3(score[i])}, bound ${fmt3(bound[i])}`);
    ask.refresh();
  }

  const sync = syncer(model, state, draw);
  slider(controls, { label: "key k", name: "content", values: data.mixes, index: state.m, format: contentLabel, onInput: sync("m", "content_index") });
  const distanceControl = slider(controls, { label: "distance r", name: "distance", values: data.stops.map((s) => data.distances[s]), index: state.r, onInput: sync("r", "distance_index") });
  stepButtons(distanceControl, "distance r");
  keepInReach(distanceControl);
  const baseControl = slider(controls, { label: "base", name: "base", values: data.bases, index: state.b, format: baseLabel, onInput: sync("b", "base_index") });
  // Many random pairs on the same axes: offered once the reader has predicted.
  const crowdButton = htmlEl("button", { type: "button", class: "rope-w-play", "aria-pressed": "false", "data-toggle": "random" }, controls, `show ${data.samples} random pairs`);
  crowdButton.addEventListener("click", () => {
    state.crowd = !state.crowd;
    crowdButton.setAttribute("aria-pressed", String(state.crowd));
    draw();
    if (state.crowd) {
      const series = data.series[state.b].random, end = series.median.length - 1;
      say(`${data.samples} random pairs: median |score| ${fmt3(series.median[0])} at r = 0 and ${fmt3(series.median[end])} at r = ${xmax}`);
    }
  });
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
  // On a phone the read-outs are a screen below the plot: a bubble under the score's dot repeats
  // them, one line each (distance, the pair, the random pairs when shown) while a finger scrubs.
  const tipSource = htmlEl("div");
  const bubble = () => {
    const keys = ["distance", "pair", ...(state.crowd ? ["random"] : [])].filter((key) => !out[key].parentElement.hasAttribute("data-concealed"));
    tipSource.replaceChildren(...keys.map((key) => {
      const row = out[key].parentElement;
      return htmlEl("div", { "data-tip-line": key }, null, `${row.firstChild.textContent} ${out[key].textContent}`);
    }));
    showTip(scoreDot, tipSource);
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

  // One legend entry per line style: the pair's score (solid) and its bound (dashed), and the
  // random pairs' band in their own colour. Their bounds are only read out: drawn, they would
  // lie on the random key's bound.
  const legend = htmlEl("div", { class: "rope-w-legend" }, controls);
  const swatch = (css, label, key) => {
    const item = htmlEl("span", { class: "rope-w-legend-item", "data-legend": key }, legend);
    htmlEl("span", { class: "rope-w-swatch", style: css }, item);
    item.append(label);
    return item;
  };
  swatch("background: var(--rope-w-q)", "this pair's |score|", "pair-score");
  swatch("background: repeating-linear-gradient(90deg, var(--rope-w-q) 0 4px, transparent 4px 7px)", "its bound", "pair-bound");
  const crowdLegend = [swatch("background: var(--rope-w-k); opacity: 0.6", "random pairs: 10–90 % of |score|, median", "random-band")];
  // While the question conceals them, the button and the band's legend take no room:
  // concealed content keeps its place, which left empty rows between the controls on a phone.
  for (const node of [crowdButton, ...crowdLegend]) {
    new MutationObserver(() => { node.hidden = node.hasAttribute("data-concealed"); })
      .observe(node, { attributes: true, attributeFilter: ["data-concealed"] });
  }
  out.distance = readout(controls, "distance", "at distance r =");
  out.pair = readout(controls, "pair", "this pair:");
  out.random = readout(controls, "random", "random pairs:");
  // The steps of the task the reader has not yet done, in order: a prompt never asks for one
  // already done (k already random, r already past the middle, the random pairs already shown).
  function stepsLeft() {
    const steps = [];
    if (state.m !== last) steps.push("slide k to random");
    // r already past the middle counts: sliding k to random there draws the random key that far.
    if (Math.max(furthestRandom, data.distances[at(state.r)]) < xmax / 2) steps.push(`drag along the plot (or move r) past r = ${xmax / 2}`);
    if (!state.crowd) steps.push(`show the ${data.samples} random pairs`);
    return `${steps.join(", then ")}.`;
  }
  const ask = question(controls, {
    prompt: "The dashed line, RoFormer's bound on this pair, falls as r grows. Slide k from aligned to random: will a random pair's score fall with r too?",
    // The random key's score and the random pairs would answer it: hidden until the prediction;
    // answered once the reader has drawn a random key's score past half the axis.
    conceal: () => [...(state.m > 0 ? pairNodes() : []), crowdButton, ...crowdLegend],
    reached: () => state.m === last && furthestRandom >= xmax / 2,
    task: () => stepsLeft(),
    choices: [{ label: "yes, it falls with its bound" }, { label: "no, it does not fall", correct: true }],
    explain: () => {
      const series = data.series[state.b], pair = series.pair, crowdSeries = series.random, end = crowdSeries.median.length - 1;
      return `With a random key the score averages ${fmt3(pair.early[last])} in size below r = ${xmax / 2} and ${fmt3(pair.late[last])} from there on, wandering up and down, while its bound falls from ${fmt3(pair.bound[last][0])} to ${fmt3(pair.bound[last][end])}. ${state.crowd ? `The ${data.samples} random pairs settle it: their median |score| is ${fmt3(crowdSeries.median[0])} at r = 0 and ${fmt3(crowdSeries.median[end])} at r = ${xmax}.` : `One random key could be luck: show the ${data.samples} random pairs to see many at once.`} Only the aligned pair, whose terms all start in step, falls on average (${fmt3(pair.early[0])} → ${fmt3(pair.late[0])}).`;
    },
  });
  ask.node.classList.add("rope-w-decay-question");
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(placeSection).observe(body);
  // The pinned distance bar covers the bottom of a phone's screen: while the question's prompt,
  // answers or verdict would lie under it, the bar goes back to its place at the widget's end.
  const bar = distanceControl.input.closest(".rope-w-control");
  const questionParts = [...ask.node.querySelectorAll(".rope-w-question-prompt, .rope-w-answers, [data-readout=feedback]")];
  const stepAside = () => {
    if (!bar.classList.contains("rope-w-in-reach")) { bar.classList.remove("rope-w-decay-aside"); return; }
    const band = window.innerHeight - bar.offsetHeight;
    const under = questionParts.some((node) => {
      const box = node.getBoundingClientRect();
      return box.height > 0 && box.bottom > band && box.top < window.innerHeight;
    });
    bar.classList.toggle("rope-w-decay-aside", under);
  };
  for (const name of ["scroll", "resize"]) window.addEventListener(name, stepAside, { passive: true });
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(stepAside).observe(body);
  draw();
  placeSection();
  stepAside();
}
export default { render };
