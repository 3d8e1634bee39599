// Shift both positions by Δ: both vectors turn, the angle between them and the score do not.
// The dial shows R((m+Δ)θ)q and R((n+Δ)θ)k over the dashed state before the shift (Δ = 0) and
// one arc, the angle γ between the vectors drawn now; the dashed pair has the same γ, which the
// small pair of dials below shows rather than a second arc on the dial. A sentence strip above
// puts the two words at their positions, before and after Δ tokens are put in front of them,
// with a drag target for Δ and one for n − m; the pair of small dials shows both pairs turned
// so that q points right, where the same γ and the same projection of k on q (the score is |q|
// times its signed length) are seen side by side. Two strip charts show the score against
// Δ (flat) and against n − m (a cosine). The page does the elementary 2-D rotations (drag.js's
// rotate); the browser tests check every number and mark against rope_core.
import { svgEl, htmlEl, slider, readout, typeset, keepTextSize, arrow, syncer, hoverable, showTip, hideTip, announcer, keepInReach } from "./common.js";
import { dial, wrapDeg, rotate, polar, num, vectorLabel, labelAt, dragHandle, playToEnd, clearOfHandles } from "./drag.js";
import { lesson, question } from "./lesson.js";

// The two words the strip puts at the query's and the key's positions.
const WORDS = { q: "dog", k: "man" };

function render({ model, el }) {
  const data = model.get("data");
  const compact = Boolean(data.compact);
  const scale = 120;
  const { svg, controls, centre, px, py } = dial(el, {
    title: "Shift both positions by Δ: what does the score do?",
    label: "R((m+Δ)θ)q and R((n+Δ)θ)k over the state before the shift; drag either tip to turn q or k", scale,
  });
  const root = svg.closest(".rope-w");
  if (compact) root.classList.add("rope-w-compact");
  lesson(root, "The query q sits at position m and the key k at position n; their score is ⟨R(mθ)q, R(nθ)k⟩. Shifting both positions by Δ turns both arrows.");
  const say = announcer(root);
  // What the reader has tried: the question is answered once Δ and n − m have both been moved.
  const seen = { shift: new Set(), offset: new Set() };
  const ghostLayer = svgEl("g", {}, svg);
  const arcLayer = svgEl("g", {}, svg);
  const layer = svgEl("g", {}, svg);
  const handleLayer = svgEl("g", {}, svg);
  const state = {
    m: model.get("m"), n: model.get("n"), s: model.get("shift"),
    q: model.get("q_angle"), k: model.get("k_angle"),
    qLength: model.get("q_length"), kLength: model.get("k_length"),
  };
  const positions = Array.from({ length: data.max_position + 1 }, (_, i) => i);
  const theta = data.theta;
  const degOf = (rad) => (rad * 180) / Math.PI;
  const out = {};
  const controlsOf = {};
  // The handles sit on the rotated tips: dragging R((m+Δ)θ)q by α turns q by α, and moving it
  // out by Δr lengthens q by Δr (the rotation keeps lengths).
  const handles = {};
  for (const key of ["q", "k"]) {
    handles[key] = dragHandle(svg, handleLayer, {
      name: key, cls: key, cx: centre, cy: centre, scale, range: data.length_range,
      label: `direction of ${key} (degrees; drag its tip to turn and stretch it, arrow keys turn it by 1°, shift+arrow by 10°, + and − change its length)`,
      get: () => state[key], length: () => state[`${key}Length`],
      set: (deg, done, length) => setVector(key, deg, done, length),
    });
  }

  // The strip charts: score against Δ (0 … max) and against n − m (−max … max), same y scale.
  const sw = 340, sh = 130, gap = 16, half = (sw - gap) / 2, st = 22, sb = 26, sl = 8;
  const strips = svgEl("svg", { viewBox: `0 0 ${sw} ${sh}`, width: sw, height: sh, role: "img", class: "rope-w-svg rope-w-strips",
    "aria-label": "the score against the shift Δ (flat) and against n − m (a cosine)" }, svg.parentNode);
  keepTextSize(strips);
  // The dial, its legend and the strips in one column, shown before the controls and put
  // before them in the page's order too: Tab reaches the drawing's handles, then play and Δ,
  // and the answers last (the question's own words come with them). The legend sits under the
  // dial, where no vector's label can reach it.
  const column = htmlEl("div", { class: "rope-w-column" }, null);
  controls.before(column);
  const legend = htmlEl("div", { class: "rope-w-hint", "data-label": "ghost-legend" }, null, "dashed: before the shift (Δ = 0)");
  const sentence = sentenceStrip();
  const compare = comparePanels();
  // As wide as the drawings (a long line would widen the column and push the controls below).
  const compareKey = htmlEl("div", { class: "rope-w-hint", "data-label": "compare-legend", style: "max-width: 340px" }, null,
    "below: each pair turned so that q points right; the bar is |k| cos γ, the projection of k on q, and the score is |q| times it");
  // The dial stays first in the page's order (the strip is shown above it by its CSS order).
  column.append(svg, sentence.svg, legend, compareKey, compare.svg, strips);
  const ymax = data.length_range[1] * data.length_range[1];
  const sy = (v) => st + (sh - st - sb) * (1 - (v + ymax) / (2 * ymax));
  const chart = (x0, lo, hi, title, axis, w = half) => {
    const sx = (v) => x0 + sl + (w - 2 * sl) * (v - lo) / (hi - lo);
    svgEl("line", { x1: sx(lo), x2: sx(hi), y1: sy(0), y2: sy(0), class: "rope-w-axis" }, strips);
    typeset(svgEl("text", { x: x0 + sl, y: 14, "data-strip-title": axis }, strips), title);
    for (const v of [lo, hi]) {
      svgEl("text", { x: sx(v), y: sh - 8, "text-anchor": v === lo ? "start" : "end", class: "rope-w-muted-text" }, strips).textContent = String(v).replace("-", "−");
    }
    svgEl("text", { x: sx((lo + hi) / 2), y: sh - 8, "text-anchor": "middle", class: "rope-w-muted-text" }, strips).textContent = axis;
    return sx;
  };
  const top = data.max_position;
  const sxShift = chart(0, 0, top, "score against Δ", "Δ", compact ? sw : half);   // compact: the one strip, full width
  const sxOffset = compact ? null : chart(half + gap, -top, top, "score against n − m", "n − m");
  const shiftLine = svgEl("polyline", { class: "rope-w-line", style: "stroke: var(--rope-w-accent)", "data-strip": "shift" }, strips);
  const shiftDot = svgEl("circle", { r: 4.5, style: "fill: var(--rope-w-accent)", "data-strip-dot": "shift" }, strips);
  const ghostDot = svgEl("circle", { r: 4, class: "rope-w-outline", "data-strip-dot": "ghost" }, strips);
  const offsetLine = compact ? null : svgEl("polyline", { class: "rope-w-line", style: "stroke: var(--rope-w-accent)", "data-strip": "offset" }, strips);
  const offsetDot = compact ? null : svgEl("circle", { r: 4.5, style: "fill: var(--rope-w-accent)", "data-strip-dot": "offset" }, strips);
  // Each dot has a larger invisible target for a pointer, a finger or the keyboard (one tab
  // stop, arrow keys between them): its numbers go to the strip read-out, and on a phone into
  // a bubble under the dot.
  const dotKinds = compact ? ["shift", "ghost"] : ["shift", "ghost", "offset"];
  const hits = dotKinds.map((kind) => svgEl("circle", { r: 12, class: "rope-w-hit-dot", "data-strip-hit": kind }, strips));
  let pointed = null;
  // reopen = false (a redraw): refresh the bubble only if it is still open, since a tap outside
  // the drawing closes it without unpointing the dot.
  function showDot(i, reopen = true) {
    pointed = i;
    const kind = dotKinds[i], { pm, pn, score, reference } = numbers();
    const minus = (v) => String(v).replace("-", "−");
    const text = {
      shift: `Δ = ${state.s}: ⟨R(${pm}θ)q, R(${pn}θ)k⟩ = ${num(score)}`,
      ghost: `Δ = 0 (dashed, before the shift): ⟨R(${state.m}θ)q, R(${state.n}θ)k⟩ = ${num(reference)}`,
      offset: `n − m = ${minus(state.n - state.m)}: score ${num(score)}; another n − m moves this dot along the cosine`,
    }[kind];
    typeset(out.strip, text);
    Object.assign(out.strip.dataset, { dot: kind, value: kind === "ghost" ? reference : score });
    const tip = root.querySelector(":scope > .rope-w-tip");
    if (reopen || (tip && !tip.hidden)) showTip(hits[i], out.strip);
  }
  function hideDot() {
    pointed = null;
    hideTip(root);
    out.strip.textContent = "point at, tap or focus a dot of the strips for its numbers";
    for (const k of ["dot", "value"]) delete out.strip.dataset[k];
  }
  hits.forEach((hit, i) => hit.setAttribute("aria-label", `${dotKinds[i]} dot of the strip chart`));
  hoverable(hits, { onShow: showDot, onHide: hideDot });

  const dot = (a, b) => a[0] * b[0] + a[1] * b[1];
  // Each arrow is a named picture for a screen reader (data-vector names it for the tests).
  const named = (group, vector, label) => {
    Object.assign(group.dataset, { vector });
    group.setAttribute("role", "img");
    group.setAttribute("aria-label", label);
    return group;
  };
  let drawnFor = null;   // the q, k, m, n the Δ-independent parts were last drawn for
  const ghostLabels = [];   // the dashed arrows' labels, kept clear of the handles
  function numbers() {
    const pm = state.m + state.s, pn = state.n + state.s;
    const q = polar(state.qLength, state.q), k = polar(state.kLength, state.k);
    const rq = rotate(q, pm * theta), rk = rotate(k, pn * theta);
    const gq = rotate(q, state.m * theta), gk = rotate(k, state.n * theta);
    return { pm, pn, q, k, rq, rk, gq, gk, score: dot(rq, rk), reference: dot(gq, gk) };
  }

  // The sentence strip: one cell per token position 0 … 2·max, in two rows, before the shift
  // and after Δ tokens were put in front. The query's word sits at m (m + Δ), the key's at
  // n (n + Δ); a bracket joins them (its length is n − m on both rows), and a second bracket on
  // the lower row spans the Δ tokens put in front. The end of each bracket is a drag target:
  // the Δ bracket's end moves both words, the n − m bracket's end moves the key's word.
  function sentenceStrip() {
    const W = 340, H = 136, left = 8, cells = 2 * data.max_position + 1, pitch = (W - 2 * left) / cells;
    const strip = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "rope-w-svg rope-w-sentence",
      role: "group", "aria-label": "the two words in the text, before and after the shift" }, null);
    keepTextSize(strip);
    const cellX = (i) => left + (i + 0.5) * pitch;   // the centre of position i's cell
    const rows = {};
    for (const [name, y0] of [["before", 0], ["after", 66]]) {
      const g = svgEl("g", { "data-row": name }, strip);
      const caption = svgEl("text", { x: left, y: y0 + 11, class: "rope-w-muted-text", "data-part": "caption", style: "font-size: calc(12px * var(--rope-w-scale, 1))" }, g);
      const cellLayer = svgEl("g", {}, g);
      for (let i = 0; i < cells; i++) {
        svgEl("rect", { x: left + i * pitch + 0.6, y: y0 + 30, width: Math.max(pitch - 1.2, 1), height: 9, rx: 1.5,
          class: "rope-w-outline", "data-cell": i }, cellLayer);
      }
      const chip = (cls) => svgEl("rect", { y: y0 + 27, width: Math.max(pitch + 2, 8), height: 15, rx: 2,
        style: `fill: var(--rope-w-${cls})`, "data-word": cls }, g);
      // The words in the text colour (q's and k's colours are too light for text), over chips in them.
      const word = (cls) => svgEl("text", { y: y0 + 24, "text-anchor": "middle", class: "rope-w-label", style: "font-weight: 600; font-size: calc(12px * var(--rope-w-scale, 1))", "data-word-label": cls }, g);
      const bracket = svgEl("path", { class: "rope-w-outline", style: "stroke-width: 1.5", "data-bracket": "offset" }, g);
      const offsetText = svgEl("text", { y: y0 + 61, "text-anchor": "middle", class: "rope-w-muted-text", style: "font-size: calc(12px * var(--rope-w-scale, 1))", "data-bracket-label": "offset" }, g);
      rows[name] = { y0, caption, chips: { q: chip("q"), k: chip("k") }, words: { q: word("q"), k: word("k") }, bracket, offsetText };
    }
    rows.after.front = svgEl("path", { style: "stroke: var(--rope-w-accent); stroke-width: 2; fill: none", "data-bracket": "shift" }, rows.after.caption.parentNode);
    const handleLayer = svgEl("g", {}, strip);
    const makeHandle = (name, label, valueOf, stepTo) => {
      const g = svgEl("g", { tabindex: 0, role: "slider", focusable: "true", "aria-label": label, "aria-valuemin": 0,
        "aria-valuemax": data.max_position, "data-strip-handle": name, style: "cursor: ew-resize; touch-action: none" }, handleLayer);
      svgEl("circle", { r: 22, style: "fill: transparent" }, g);   // a 44 px target for a finger
      svgEl("circle", { r: 7, style: "fill: var(--rope-w-bg, #fff); stroke: var(--rope-w-accent); stroke-width: 2.5" }, g);
      // The pointer's x, in the strip's own units, picks the whole position nearest to it.
      const fromPointer = (event) => {
        const point = strip.createSVGPoint();
        point.x = event.clientX; point.y = event.clientY;
        return point.matrixTransform(strip.getScreenCTM().inverse()).x;
      };
      let dragging = false;
      // Not every browser honours touch-action on an SVG child: a finger on the handle must not
      // scroll the page instead of dragging it.
      g.addEventListener("touchstart", (event) => event.preventDefault(), { passive: false });
      g.addEventListener("pointerdown", (event) => {
        dragging = true;
        g.setPointerCapture(event.pointerId);
        event.preventDefault();
      });
      g.addEventListener("pointermove", (event) => { if (dragging) stepTo(valueOf(fromPointer(event))); });
      for (const type of ["pointerup", "pointercancel"]) g.addEventListener(type, () => { dragging = false; });
      g.addEventListener("keydown", (event) => {
        const steps = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 5, PageDown: -5 };
        const now = Number(g.getAttribute("aria-valuenow"));
        let next = null;
        if (event.key in steps) next = now + steps[event.key];
        else if (event.key === "Home") next = 0;
        else if (event.key === "End") next = data.max_position;
        if (next === null) return;
        event.preventDefault();
        event.stopPropagation();
        stepTo(next);
      });
      return g;
    };
    // Both go through their slider, so the slider, the kernel and play hear of it as of a slider move.
    const moveSlider = (name, index) => {
      const control = controlsOf[name], i = Math.min(data.max_position, Math.max(0, Math.round(index)));
      if (Number(control.input.value) === i) return;
      control.input.value = i;
      control.input.dispatchEvent(new Event("input", { bubbles: true }));
    };
    const handles = {
      shift: makeHandle("shift", "shift Δ: tokens put in front of both words (drag the end of the lower bracket; arrow keys step by one)",
        (x) => (x - left) / pitch, (v) => moveSlider("shift", v)),
    };
    if (!compact) {
      handles.offset = makeHandle("offset", "distance n − m: moves the key's word and leaves the query's (drag the end of the upper bracket; arrow keys step by one)",
        (x) => (x - left) / pitch - 0.5 - state.m, (v) => moveSlider("n", state.m + v));
    }
    const minus = (v) => String(v).replace("-", "−");
    function place() {
      const { m, n, s } = state;
      const at = { before: { q: m, k: n }, after: { q: m + s, k: n + s } };
      for (const [name, row] of Object.entries(rows)) {
        const { y0 } = row;
        for (const who of ["q", "k"]) {
          const x = cellX(at[name][who]);
          row.chips[who].setAttribute("x", x - Number(row.chips[who].getAttribute("width")) / 2);
          row.chips[who].dataset.position = at[name][who];
          row.words[who].textContent = WORDS[who];
        }
        // Words closer than their own width would print over each other: each then leans away
        // from the other, from either side of the point halfway between them.
        const xq = cellX(at[name].q), xk = cellX(at[name].k), yb = y0 + 47;
        const apart = Math.abs(xq - xk) >= 34;
        for (const [who, x, other] of [["q", xq, xk], ["k", xk, xq]]) {
          const lean = apart ? "middle" : (x < other || (x === other && who === "q") ? "end" : "start");
          row.words[who].setAttribute("text-anchor", lean);
          row.words[who].setAttribute("x", apart ? x : (xq + xk) / 2 + (lean === "end" ? -1.5 : 1.5));
        }
        row.bracket.setAttribute("d", `M ${xq} ${yb - 4} V ${yb} H ${xk} V ${yb - 4}`);
        Object.assign(row.bracket.dataset, { from: at[name].q, to: at[name].k });
        // The bracket's label on its line, past its right end and clear of the handle there; near
        // the right edge, under the bracket, below every handle's ring.
        const text = `n − m = ${minus(n - m)}`, right = Math.max(xq, xk), fits = right + 14 + 8 * text.length <= W;
        row.offsetText.setAttribute("x", fits ? right + 14 : Math.min(W - 40, Math.max(40, (xq + xk) / 2)));
        row.offsetText.setAttribute("y", yb + (fits ? 4 : 20));
        row.offsetText.setAttribute("text-anchor", fits ? "start" : "middle");
        row.offsetText.textContent = text;
      }
      rows.before.caption.textContent = `before the shift: “${WORDS.q}” (q) at m = ${m}, “${WORDS.k}” (k) at n = ${n}`;
      rows.after.caption.textContent = s === 0 ? "after the shift: nothing put in front (Δ = 0)"
        : `after ${s} token${s === 1 ? "" : "s"} put in front: the same words at ${m + s} and ${n + s}`;
      // The lower row: the Δ tokens put in front are shaded; its bracket ends where the text now starts.
      rows.after.caption.parentNode.querySelectorAll("rect[data-cell]").forEach((cell) => {
        cell.style.fill = Number(cell.dataset.cell) < s ? "var(--rope-w-accent)" : "";
        cell.style.fillOpacity = Number(cell.dataset.cell) < s ? "0.35" : "";
      });
      const yShift = rows.after.y0 + 47, xShift = left + s * pitch;
      rows.after.front.setAttribute("d", `M ${left} ${yShift - 4} V ${yShift} H ${xShift}`);
      rows.after.front.dataset.to = s;
      handles.shift.setAttribute("transform", `translate(${xShift} ${yShift})`);
      handles.shift.setAttribute("aria-valuenow", s);
      handles.shift.setAttribute("aria-valuetext", `Δ = ${s}: the words at ${m + s} and ${n + s}`);
      if (handles.offset) {
        handles.offset.setAttribute("transform", `translate(${cellX(n)} ${rows.before.y0 + 47})`);
        // Its value is n − m, which can be negative: the range is the n that the slider allows.
        handles.offset.setAttribute("aria-valuemin", -m);
        handles.offset.setAttribute("aria-valuemax", data.max_position - m);
        handles.offset.setAttribute("aria-valuenow", n - m);
        handles.offset.setAttribute("aria-valuetext", `n − m = ${minus(n - m)} (key at n = ${n})`);
      }
    }
    strip.style.order = "-2";   // above the dial (which is -1): the text first, then its arrows
    return { svg: strip, place, handles };
  }

  // The two pairs turned so that q points right, side by side: before the shift and after it.
  // Each shows γ as an arc and the projection of k on q's direction, |k| cos γ, as a thick
  // segment along q (a dotted drop from k's tip): the score is |q| times its signed length.
  function comparePanels() {
    const W = 340, H = 160, half = W / 2, unit = 46, cy = 78;
    const box = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "rope-w-svg rope-w-compare",
      role: "img", "aria-label": "both pairs turned so that q points right: the angle γ and the projection of k on q, before and after the shift" }, null);
    keepTextSize(box);
    const panels = {};
    for (const [name, x0] of [["before", 0], ["after", half]]) {
      const g = svgEl("g", { "data-compare": name }, box);
      const cx = x0 + half / 2;
      svgEl("line", { x1: x0 + 8, x2: x0 + half - 8, y1: cy, y2: cy, class: "rope-w-axis" }, g);
      panels[name] = {
        g, cx,
        title: svgEl("text", { x: x0 + 8, y: 13, class: "rope-w-muted-text", style: "font-size: calc(12px * var(--rope-w-scale, 1))", "data-part": "title" }, g),
        projection: svgEl("line", { style: "stroke: var(--rope-w-accent); stroke-width: 6; stroke-linecap: butt; opacity: 0.8", "data-part": "projection" }, g),
        drop: svgEl("line", { class: "rope-w-outline", style: "stroke-dasharray: 2 3", "data-part": "drop" }, g),
        arrows: svgEl("g", {}, g),
        arc: svgEl("path", { class: "rope-w-arc", "data-part": "gamma" }, g),
        gammaText: svgEl("text", { y: H - 22, x: x0 + 8, style: "font-size: calc(12px * var(--rope-w-scale, 1))", "data-part": "gamma-text" }, g),
        scoreText: svgEl("text", { y: H - 6, x: x0 + 8, style: "font-size: calc(12px * var(--rope-w-scale, 1))", "data-part": "score-text" }, g),
      };
    }
    svgEl("line", { x1: half, x2: half, y1: 4, y2: H - 4, class: "rope-w-axis" }, box);
    function place(pairs) {
      for (const [name, [a, b]] of Object.entries(pairs)) {
        const p = panels[name];
        const lq = Math.hypot(a[0], a[1]), lk = Math.hypot(b[0], b[1]);
        let gamma = Math.atan2(b[1], b[0]) - Math.atan2(a[1], a[0]);
        gamma = ((gamma % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
        const X = (v) => p.cx + unit * v, Y = (v) => cy - unit * v;
        const kx = lk * Math.cos(gamma), ky = lk * Math.sin(gamma);
        p.arrows.replaceChildren();
        arrow(p.arrows, X(0), Y(0), X(lq), Y(0), "q").dataset.part = "q";
        arrow(p.arrows, X(0), Y(0), X(kx), Y(ky), "k").dataset.part = "k";
        for (const [node, attrs] of [[p.projection, { x1: X(0), y1: Y(0), x2: X(kx), y2: Y(0) }], [p.drop, { x1: X(kx), y1: Y(ky), x2: X(kx), y2: Y(0) }]]) {
          for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
        }
        const r = 0.32, end = [r * Math.cos(gamma), r * Math.sin(gamma)];
        p.arc.setAttribute("d", `M ${X(r)} ${Y(0)} A ${unit * r} ${unit * r} 0 ${gamma > Math.PI ? 1 : 0} 0 ${X(end[0])} ${Y(end[1])}`);
        const score = lq * kx;
        Object.assign(p.g.dataset, { gamma: (gamma * 180) / Math.PI, projection: kx, q: lq, score });
        p.title.textContent = name === "before" ? "before the shift (Δ = 0)" : `after the shift (Δ = ${state.s})`;
        p.gammaText.textContent = `γ = ${num(wrapDeg((gamma * 180) / Math.PI))}°, bar ${num(kx)}`;
        p.scoreText.textContent = `score = ${num(score)}`;
      }
    }
    return { svg: box, place };
  }

  // The arc of γ from a to b (counter-clockwise), radius r; its label at the middle, further out.
  function angleArc(a, b, r, cls, name, parent = arcLayer) {
    const start = Math.atan2(a[1], a[0]);
    let gamma = Math.atan2(b[1], b[0]) - start;
    gamma = ((gamma % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    const p0 = [r * Math.cos(start), r * Math.sin(start)], p1 = [r * Math.cos(start + gamma), r * Math.sin(start + gamma)];
    svgEl("path", { d: `M ${px(p0[0])} ${py(p0[1])} A ${scale * r} ${scale * r} 0 ${gamma > Math.PI ? 1 : 0} 0 ${px(p1[0])} ${py(p1[1])}`,
      class: cls, "data-arc": name }, parent);
    return gamma;
  }

  function draw() {
    const { pm, pn, q, k, rq, rk, gq, gk, score, reference } = numbers();
    // What does not depend on Δ (the ghosts, both strips' curves) is redrawn only when q, k, m
    // or n change: playing Δ moves the arrows, the arc and the dots only.
    const key = [state.m, state.n, state.q, state.k, state.qLength, state.kLength].join(",");
    const fixedChanged = key !== drawnFor;
    drawnFor = key;
    if (fixedChanged) { ghostLayer.replaceChildren(); ghostLabels.length = 0; }
    arcLayer.replaceChildren();
    layer.replaceChildren();
    // data-vector names each arrow for the tests, which read its drawn tip back into data units.
    const ghosts = state.s !== 0;
    ghostLayer.style.display = ghosts ? "" : "none";
    if (fixedChanged) {
      named(arrow(ghostLayer, centre, centre, px(gq[0]), py(gq[1]), "ghost"), "ghost_q", `R(${state.m}θ) q, before the shift (dashed)`);
      named(arrow(ghostLayer, centre, centre, px(gk[0]), py(gk[1]), "ghost"), "ghost_k", `R(${state.n}θ) k, before the shift (dashed)`);
      for (const [name, v, text] of [["ghost_q", gq, `R(${state.m}θ) q`], ["ghost_k", gk, `R(${state.n}θ) k`]]) {
        const label = vectorLabel(ghostLayer, ...labelAt(px, py, v, 0.3, text), text);
        label.dataset.vector = name;
        ghostLabels.push(label);
        label.classList.add("rope-w-muted-text");
      }
    }
    const gamma = angleArc(rq, rk, 0.3, "rope-w-arc", "gamma");
    const mid = Math.atan2(rq[1], rq[0]) + gamma / 2;
    const gammaLabel = svgEl("text", { x: px(0.17 * Math.cos(mid)), y: py(0.17 * Math.sin(mid)), "text-anchor": "middle", "dominant-baseline": "middle",
      class: "rope-w-halo", "data-label": "gamma" }, arcLayer);
    gammaLabel.textContent = "γ";
    named(arrow(layer, centre, centre, px(rq[0]), py(rq[1]), "q"), "rotated_q", `R(${pm}θ) q, the query at position m + Δ = ${pm}`);
    named(arrow(layer, centre, centre, px(rk[0]), py(rk[1]), "k"), "rotated_k", `R(${pn}θ) k, the key at position n + Δ = ${pn}`);
    const labels = { q: `R(${pm}θ) q`, k: `R(${pn}θ) k` };
    vectorLabel(layer, ...labelAt(px, py, rq, 0.3, labels.q), labels.q).dataset.vector = "rotated_q";
    vectorLabel(layer, ...labelAt(px, py, rk, 0.3, labels.k), labels.k).dataset.vector = "rotated_k";
    handles.q.place(px(rq[0]), py(rq[1]), state.q);
    handles.k.place(px(rk[0]), py(rk[1]), state.k);
    // No label under a handle and none over another: each goes where it was meant to, or the
    // nearest clear spot (under a handle only: clearOfHandles). Where that spot would cover a
    // label placed before it (q's and k's labels when the two arrows point alike, γ's when the
    // arc is small, a dashed arrow's), the label goes to the nearest spot on rings about it
    // that is clear of both; data-moved says so.
    const tips = [[px(rq[0]), py(rq[1])], [px(rk[0]), py(rk[1])]];
    const placed = [];   // [x, y, half width, half height] of the labels placed so far
    const boxOf = (x, y, text) => [x, y, 4 * String(text).length + 3, 9];
    const apart = ([x, y, w, h]) => placed.every(([x2, y2, w2, h2]) => Math.abs(x - x2) >= w + w2 || Math.abs(y - y2) >= h + h2);
    const free = (x, y, text) => {
      const [cx, cy] = clearOfHandles(x, y, text, tips);
      const box = boxOf(x, y, text);
      return cx === x && cy === y && apart(box) && x - box[2] >= 0 && x + box[2] <= 340 && y - box[3] >= 0 && y + box[3] <= 340;
    };
    for (const node of [...layer.querySelectorAll("text"), gammaLabel, ...(ghosts ? ghostLabels : [])]) {
      if (!node.dataset.anchor) node.dataset.anchor = `${node.getAttribute("x")},${node.getAttribute("y")}`;
      const [x, y] = node.dataset.anchor.split(",").map(Number);
      const text = node.ropeLabel ?? node.textContent;
      let spot = clearOfHandles(x, y, text, tips);
      let found = null;
      if (!apart(boxOf(...spot, text))) {
        for (let radius = 8; !found && radius <= 160; radius += 8) {
          for (let k = 0; !found && k < 16; k++) {
            const a = (k * Math.PI) / 8, cx = spot[0] + radius * Math.cos(a), cy = spot[1] + radius * Math.sin(a);
            if (free(cx, cy, text)) found = [cx, cy];
          }
        }
        if (found) spot = found;
      }
      node.dataset.moved = found ? "1" : "";
      node.setAttribute("x", spot[0]);
      node.setAttribute("y", spot[1]);
      placed.push(boxOf(spot[0], spot[1], text));
    }

    // Strip charts: the page's own rotations at every Δ and every n − m (checked in the tests).
    if (fixedChanged) {
      const byShift = positions.map((s) => dot(rotate(q, (state.m + s) * theta), rotate(k, (state.n + s) * theta)));
      shiftLine.setAttribute("points", byShift.map((v, s) => `${sxShift(s).toFixed(2)},${sy(v).toFixed(2)}`).join(" "));
    }
    shiftDot.setAttribute("cx", sxShift(state.s));
    shiftDot.setAttribute("cy", sy(score));
    ghostDot.setAttribute("cx", sxShift(0));
    ghostDot.setAttribute("cy", sy(reference));
    ghostDot.style.visibility = ghosts ? "visible" : "hidden";
    if (!compact && fixedChanged) {
      const offsets = Array.from({ length: 2 * top + 1 }, (_, j) => j - top);
      const rqm = rotate(q, state.m * theta);
      const byOffset = offsets.map((o) => dot(rqm, rotate(k, (state.m + o) * theta)));
      offsetLine.setAttribute("points", byOffset.map((v, j) => `${sxOffset(offsets[j]).toFixed(2)},${sy(v).toFixed(2)}`).join(" "));
      offsetDot.setAttribute("cx", sxOffset(state.n - state.m));
      offsetDot.setAttribute("cy", sy(score));
    }

    const place = { shift: shiftDot, ghost: ghostDot, offset: offsetDot };
    hits.forEach((hit, i) => {
      const source = place[dotKinds[i]];
      hit.setAttribute("cx", source.getAttribute("cx"));
      hit.setAttribute("cy", source.getAttribute("cy"));
      hit.style.display = dotKinds[i] === "ghost" && !ghosts ? "none" : "";
    });
    if (pointed !== null) showDot(pointed, false);
    sentence.place();
    compare.place({ before: [gq, gk], after: [rq, rk] });
    const minus = (v) => String(v).replace("-", "−");
    out.positions.textContent = `m + Δ = ${pm}, n + Δ = ${pn}, n − m = ${minus(state.n - state.m)}`;
    const between = wrapDeg(state.k - state.q + degOf((pn - pm) * theta));
    out.vectors.textContent = `q at ${num(state.q)}°, k at ${num(state.k)}°, angle γ between them ${num(between)}°`;
    Object.assign(out.vectors.dataset, { q: state.q, k: state.k, qx: rq[0], qy: rq[1], kx: rk[0], ky: rk[1], gamma: degOf(gamma) });
    // The lengths, read off the rotated vectors (the rotation keeps them; the score scales with both).
    const lengths = [Math.hypot(rq[0], rq[1]), Math.hypot(rk[0], rk[1])];
    out.lengths.textContent = `|q| = ${num(lengths[0])}, |k| = ${num(lengths[1])}, |q||k| = ${num(lengths[0] * lengths[1])}`;
    Object.assign(out.lengths.dataset, { q: lengths[0], k: lengths[1] });
    out.score.textContent = num(score);
    out.score.dataset.value = score;
    out.reference.textContent = num(reference);
    out.reference.dataset.value = reference;
    seen.shift.add(state.s);
    seen.offset.add(state.n - state.m);
    if (ask.predicted()) say(`at Δ = ${state.s}: score ${num(score)}; before the shift ${num(reference)}`);
    ask.refresh();
  }

  function setVector(key, deg, done, length = state[`${key}Length`]) {
    state[key] = wrapDeg(deg);
    state[`${key}Length`] = length;
    draw();
    let changed = false;
    for (const [trait, value] of [[`${key}_angle`, state[key]], [`${key}_length`, length]]) {
      if (model.get(trait) !== value) { model.set(trait, value); changed = true; }
    }
    if (changed || done) model.save_changes();
  }
  for (const key of ["q", "k"]) {
    model.on(`change:${key}_angle`, () => {
      const deg = model.get(`${key}_angle`);
      if (deg !== state[key]) setVector(key, deg, false);
    });
    model.on(`change:${key}_length`, () => {
      const length = model.get(`${key}_length`);
      if (length !== state[`${key}Length`]) setVector(key, state[key], false, length);
    });
  }

  const sync = syncer(model, state, draw);
  const hidden = htmlEl("div", { hidden: "" }, null);   // compact: m and n stay as set, out of sight
  controlsOf.shift = slider(controls, { label: "shift both by Δ", name: "shift", values: positions, index: state.s, onInput: sync("s", "shift") });
  controlsOf.m = slider(compact ? hidden : controls, { label: "query position m", name: "m", values: positions, index: state.m, onInput: sync("m", "m") });
  controlsOf.n = slider(compact ? hidden : controls, { label: "key position n", name: "n", values: positions, index: state.n, onInput: sync("n", "n") });
  controls.insertBefore(playToEnd(controls, controlsOf.shift, "play Δ").button, controls.firstChild);
  keepInReach(controlsOf.shift);
  pinWhileClear(controlsOf.shift, column, () => [root.querySelector(":scope > .rope-w-title"), root.querySelector(":scope > .rope-w-lesson"),
    controls.querySelector(".rope-w-question")]);
  out.score = readout(controls, "score", "score ⟨R((m+Δ)θ)q, R((n+Δ)θ)k⟩ =");
  out.reference = readout(controls, "reference", "before the shift (Δ = 0):");
  out.strip = readout(controls, "strip", "strips:");
  out.strip.setAttribute("aria-live", "polite");
  hideDot();
  const details = compact ? hidden : controls;
  out.positions = readout(details, "positions", "");
  out.vectors = readout(details, "vectors", "");
  out.lengths = readout(details, "lengths", "");
  // Until the reader predicts, what shows the answer is hidden: the score, the dashed state
  // before the shift and the strips of the score.
  const conceal = [out.score.parentNode, out.reference.parentNode, out.strip.parentNode, ghostLayer, legend, compareKey, compare.svg, strips];
  const ask = question(controls, compact ? {
    prompt: "Δ can run up to " + top + ". Will the score move?",
    reached: () => seen.shift.size >= 3, conceal,
    task: "press play or move Δ, and watch the score.",
    choices: [{ label: "it will change" }, { label: "it will stay", correct: true }],
    explain: () => `At Δ = ${state.s} it is ${num(numbers().score)}, as at Δ = 0 (${num(numbers().reference)}): the strip is flat because both arrows turn by the same angle.`,
  } : {
    prompt: "Which one moves the score: shifting both by Δ, or changing n − m?",
    reached: () => seen.shift.size >= 3 && seen.offset.size >= 2, conceal,
    task: "move Δ (or press play), then move m or n, and watch the score and its strips.",
    choices: [{ label: "shifting both" }, { label: "changing n − m", correct: true }, { label: "both do" }],
    explain: () => {
      const { score } = numbers();
      return `The score is ${num(score)} at every Δ (the flat strip), but changing n − m slides the dot along the cosine on the right: the score depends on the positions only through n − m.`;
    },
  });
  questionUnderTheDrawingOnAPhone(controls);
  htmlEl("div", { class: "rope-w-hint" }, controls, "Drag the tip of q or k to turn it or change its length (or focus it and press the arrow keys, + or −); play moves Δ.");
  draw();
}
// On a phone (the narrow screens keepInReach pins a slider on) the question and its answers
// come first among the controls, right under the drawing and before play and the sliders: with
// the drawing at the top of the screen the reader sees the question beside it, and the Δ slider
// pinned to the screen's foot does not lie over the answers.
function questionUnderTheDrawingOnAPhone(controls) {
  const box = controls.querySelector(".rope-w-question");
  if (!box || !window.matchMedia) return;
  const home = document.createComment("question");
  box.before(home);
  const narrow = window.matchMedia("(max-width: 600px)");
  const place = () => {
    if (narrow.matches) controls.prepend(box);
    else home.after(box);
  };
  place();
  narrow.addEventListener("change", place);
}

// On a phone the main slider is pinned to the foot of the screen while its widget is in view
// (keepInReach). There it would cover whatever passes under it: the widget's title and lesson
// line on the first screen, then the question and its answers. So it is pinned only while
// some of `drawing` is above it (the slider is then worth having at hand) and none of
// `keepClear()`'s nodes reaches under it; otherwise it stays at the widget's foot, in the flow,
// where it covers nothing. Whether it is pinned is data-pinned on its row.
function pinWhileClear(control, drawing, keepClear) {
  const row = control.input.closest(".rope-w-control") || control.input.parentElement;
  const root = row.closest(".rope-w");
  if (!root) return;
  let queued = false;
  const update = () => {
    queued = false;
    if (!row.classList.contains("rope-w-in-reach")) {
      row.style.position = "";
      delete row.dataset.pinned;
      return;
    }
    const screen = window.innerHeight, band = screen - row.getBoundingClientRect().height;
    const under = (node) => {
      if (!node) return false;
      const box = node.getBoundingClientRect();
      return box.height > 0 && box.bottom > band && box.top < screen;
    };
    const seen = drawing.getBoundingClientRect();
    const pinned = seen.top < band && seen.bottom > 0 && !keepClear().some(under);
    row.style.position = pinned ? "" : "static";
    row.dataset.pinned = pinned ? "1" : "";
  };
  const queue = () => {
    if (!queued) { queued = true; requestAnimationFrame(update); }
  };
  window.addEventListener("scroll", queue, { passive: true });
  window.addEventListener("resize", queue);
  // An answer shows the score and the strips, which moves the question down.
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(queue).observe(root);
  queue();
}

export default { render };
