// Layouts: which features rotate together, and what happens to a vector's numbers. A sample
// x = (1, 2, …, d) in the interleaved layout travels through the permutation P into the half
// layout, then through rotate_half (halves swapped, the new first half negated). Below, a
// head that attends to the previous token: its attention over the words of a sentence, and
// its score against n − m, and what both become when its weights are run through the other
// layout's code. Every number comes from Python (layout_table, layout_scores,
// layout_sentence_attention); this only draws.
// A sample entry: whole numbers as they are (−2, not −2.00), others to three digits.
import { svgEl, htmlEl, slider, readout, fmt3, typeset, hoverable, frame, syncer, showTip, hideTip, setText, announcer, keepInReach } from "./common.js";
import { question } from "./lesson.js";
function value(v) {
  return Number.isInteger(v) ? String(v).replace("-", "−") : fmt3(v);
}

function render({ model, el }) {
  const data = model.get("data");
  const width = 400, height = 654, x0 = 8, span = width - 16, box = 28;
  const rows = { interleaved: 54, half: 160, rotated: 266 };
  // Each row's caption sits in a strip of its own just above the row; the lines between rows
  // stop at the strip's top, so that no line runs through a caption.
  const captionStrip = 24;
  // The sentence: each word's attention is a bar standing on `sentenceBase`, 1 = `barTall`.
  const sentenceBase = 440, barTall = 56;
  const { root, svg, controls } = frame(el, { title: "Which features rotate together, and where a vector's numbers go", width, height });
  const say = announcer(root);
  // The question (made below, once the controls exist): predict, then switch the layout.
  let quiz = null, prompt = null, wrongLook = null;
  // The question is asked from the sentence's last word.
  const last = data.words.length - 1, quote = (n) => `“${data.words[n]}”`;
  const state = { d: model.get("dim_index"), p: model.get("pair"), q: model.get("query"), wrong: model.get("wrong_layout") };
  const out = {};
  let pairSlider = null, querySlider = null;
  const motion = () => !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  // A row of boxes holding a vector's numbers; pair members highlighted.
  function row(y, label, dim, values, members, layout) {
    const cell = span / dim;
    svgEl("text", { x: x0, y: y - 8, class: "rope-w-muted-text", "data-row-label": layout }, svg).textContent = label;
    const marks = [];
    for (let j = 0; j < dim; j++) {
      const x = x0 + j * cell, on = members.includes(j);
      const rect = svgEl("rect", { x: x + 1, y, width: cell - 3, height: box, rx: 3, class: "rope-w-outline",
        style: boxStyle(on, layout),
        "data-feature": j, "data-layout": layout, "data-highlight": on ? "1" : "0", role: "img", "aria-label": `${layout} feature ${j}: ${fmt3(values[j])}` }, svg);
      marks.push(rect);
      // A box shows the number's size; the sign of a negated half is written once, by the
      // bracket under it (drawNegated): "−16" does not fit a 16-feature row at a readable size.
      const negative = values[j] < 0;
      const text = svgEl("text", { x: x + cell / 2 - 1, y: y + 19, "text-anchor": "middle", "pointer-events": "none", "data-value": values[j],
        "data-value-of": `${layout} ${j}`, class: negative ? "rope-w-negative" : "" }, svg);
      text.textContent = value(Math.abs(values[j]));
      fitInBox(text, cell - 6);
    }
    return marks;
  }
  // Each run of negative numbers in the last row gets a bracket under its boxes, "× (−1)".
  function drawNegated(values, cell) {
    const y = rows.rotated + box + 4;
    for (let j = 0; j < values.length;) {
      if (values[j] >= 0) { j++; continue; }
      let end = j;
      while (end + 1 < values.length && values[end + 1] < 0) end++;
      const left = x0 + j * cell + 1, right = x0 + (end + 1) * cell - 2;
      svgEl("path", { d: `M${left},${y} v5 H${right} v-5`, class: "rope-w-axis", style: "fill: none", "data-negated": `${j},${end}` }, svg);
      svgEl("text", { x: (left + right) / 2, y: y + 20, "text-anchor": "middle", class: "rope-w-negative" }, svg).textContent = "each × (−1)";
      j = end + 1;
    }
  }
  // A number wider than its box (13 px text on a narrow phone) is squeezed to the box's
  // width, measured once it is drawn; one that fits is left alone.
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
  // A box's fill (shaded when its pair is chosen); the boxes of x are handles to drag, so a
  // touch on them moves the number instead of scrolling the page.
  function boxStyle(on, layout) {
    return (on ? "fill: var(--rope-w-q); fill-opacity: 0.35" : "fill: var(--rope-w-bg)") + (layout === "interleaved" ? "; touch-action: none; cursor: grab" : "");
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
  // The number of x being followed through P and rotate_half (see followable), or null.
  let follow = null;
  const drawings = new Map();
  function draw() {
    const dim = data.dims[state.d], tab = data.tables[state.d];
    if (pairSlider) state.p = pairSlider.setCount(dim / 2);
    const inter = tab.interleaved_pairs[state.p], half = tab.half_pairs[state.p];
    const key = `${state.d} ${state.wrong}`;
    const fresh = !drawn || drawn.key !== key;
    if (fresh) {
      if (!drawings.has(key)) drawings.set(key, { key, ...build(dim, tab, inter) });
      // Numbers still travelling land at once: the drawing they belong to leaves the page.
      if (landing) landing();
      drawn = drawings.get(key);
      svg.replaceChildren(...drawn.nodes);
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
      rect.setAttribute("style", boxStyle(on, rect.dataset.layout));
      rect.dataset.highlight = on ? "1" : "0";
    }
    setText(out.pairs, `interleaved (${inter[0]}, ${inter[1]}) ↔ half (${half[0]}, ${half[1]})`);
    out.pairs.dataset.interleaved = inter.join(",");
    out.pairs.dataset.half = half.join(",");
    out.pairs.dataset.pair = state.p;
    typeset(out.theta, `θ_{${state.p}} = ${fmt3(tab.theta[state.p])} rad per position, λ_{${state.p}} = ${fmt3(tab.wavelength[state.p])} tokens`);
    Object.assign(out.theta.dataset, { theta: tab.theta[state.p], wavelength: tab.wavelength[state.p] });
    setText(out.perm, `[${tab.interleaved_to_half.join(", ")}]`);
    drawSentence(drawn.sentence, tab);
    renderFollow(false);
    if (fresh) drawn.say();
    hide();
  }
  // The head's attention over the sentence from the query word: one bar a word it can see
  // (itself and the words before it), as loaded now; with the wrong layout, the trained
  // weights stay as dashed outlines. Words after the query are greyed: causal attention
  // cannot see them.
  function drawSentence(group, tab) {
    const words = data.words, count = words.length, slot = span / count, m = state.q;
    const shown = tab.attention[state.wrong ? "wrong" : "trained"][m], trained = tab.attention.trained[m];
    group.replaceChildren();
    svgEl("text", { x: x0, y: sentenceBase - barTall - 30, class: "rope-w-muted-text" }, group).textContent =
      "attention from the query word (tap a word)";
    svgEl("line", { x1: x0, x2: x0 + span, y1: sentenceBase, y2: sentenceBase, class: "rope-w-axis" }, group);
    const bar = Math.min(26, slot - 10);
    for (let n = 0; n < count; n++) {
      const cx = x0 + n * slot + slot / 2;
      const seen = n <= m;
      const word = svgEl("text", { x: cx, y: sentenceBase + 18, "text-anchor": "middle", "data-word": n,
        class: n === m ? "rope-w-query-word" : seen ? "" : "rope-w-muted-text",
        style: n === m ? "font-weight: 700" : seen ? "" : "opacity: 0.55" }, group);
      word.textContent = words[n];
      if (n === m) {
        svgEl("line", { x1: cx - slot / 2 + 5, x2: cx + slot / 2 - 5, y1: sentenceBase + 25, y2: sentenceBase + 25,
          style: "stroke: currentColor; stroke-width: 2", "data-query-mark": n }, group);
      }
      if (!seen) continue;
      if (state.wrong) {
        svgEl("rect", { x: cx - bar / 2, y: sentenceBase - barTall * trained[n], width: bar, height: barTall * trained[n],
          style: "fill: none; stroke: var(--rope-w-line); stroke-dasharray: 3 2", "data-trained-bar": n }, group);
      }
      const w = shown[n];
      svgEl("rect", { x: cx - bar / 2, y: sentenceBase - barTall * w, width: bar, height: barTall * w,
        style: `fill: var(${state.wrong ? "--rope-w-k" : "--rope-w-q"})`, "data-bar": n, "data-weight": w }, group);
      // The share sits above its bar and above the dashed trained outline too, whichever is
      // taller, so it never sits inside either.
      if (w >= 0.05) {
        const tallest = Math.max(w, state.wrong ? trained[n] : 0);
        svgEl("text", { x: cx, y: sentenceBase - barTall * tallest - 4, "text-anchor": "middle", class: "rope-w-muted-text rope-w-label-halo",
          "data-percent": n }, group).textContent = `${Math.round(100 * w)}%`;
      }
    }
    // A word is a target for mouse and touch over its whole slot (bar and word).
    for (let n = 0; n < count; n++) {
      const hit = svgEl("rect", { x: x0 + n * slot, y: sentenceBase - barTall - 16, width: slot, height: barTall + 44,
        style: "fill: transparent; cursor: pointer", "data-ask": n }, group);
      hit.addEventListener("click", () => querySlider.set(n));
    }
    const top = shown.indexOf(Math.max(...shown.slice(0, m + 1)));
    const pct = (w) => `${Math.round(100 * w)}%`;
    const before = m > 0 ? `; “${words[m - 1]}”, the word before it, gets ${pct(shown[m - 1])}` : "";
    setText(out.sentence, m === 0
      ? `“${words[0]}” is the first word: it can only look at itself.`
      : `${state.wrong ? "Wrong layout: " : ""}“${words[m]}” looks most at “${words[top]}” (${pct(shown[top])})${top === m - 1 ? "" : before}.`);
    Object.assign(out.sentence.dataset, { query: m, top, weight: shown[top], wrong: state.wrong ? "1" : "0" });
  }
  // Everything but the pair: the three rows, the lines, the indices, the scores.
  function build(dim, tab, inter) {
    const cell = span / dim;
    svg.replaceChildren();
    const centre = (j) => x0 + j * cell + cell / 2 - 1;
    // Lines first, under the boxes: half feature `target` is interleaved feature perm[target].
    const permLines = tab.interleaved_to_half.map((source, target) => svgEl("line", { x1: centre(source), y1: rows.interleaved + box,
      x2: centre(target), y2: rows.half - captionStrip, "data-source": source, "data-target": target }, svg));
    // rotate_half: output j < d/2 is −(input j + d/2); output j ≥ d/2 is input j − d/2.
    const swapLines = [];
    for (let target = 0; target < dim; target++) {
      const source = target < dim / 2 ? target + dim / 2 : target - dim / 2;
      swapLines.push(svgEl("line", { x1: centre(source), y1: rows.half + box, x2: centre(target), y2: rows.rotated - captionStrip,
        "data-rh-source": source, "data-rh-target": target }, svg));
    }
    const trail = svgEl("g", { "data-trail": "" }, svg);
    const top = row(rows.interleaved, "interleaved x: pair i = (2i, 2i+1)", dim, tab.x, [], "interleaved");
    const middle = row(rows.half, "half layout P x: pair i = (i, i + d/2)", dim, tab.permuted, [], "half");
    const bottom = row(rows.rotated, "rotate_half(P x): halves swapped, one negated", dim, tab.rotated_half, [], "rotated");
    drawNegated(tab.rotated_half, cell);
    // Feature indices above the first row.
    const every = cell >= 20 ? 1 : 2;
    for (let j = 0; j < dim; j += every) {
      svgEl("text", { x: centre(j), y: rows.interleaved - 28, "text-anchor": "middle",
        class: "rope-w-muted-text rope-w-index", "data-index": j }, svg).textContent = String(j);
    }
    const marks = [...top, ...middle];
    hoverable(marks, { columns: dim, start: inter[0], onShow: (k) => { showFeature(tab, dim, k < dim ? "interleaved" : "half", k % dim); showTip(marks[k], out.hover); }, onHide: hide });
    followable(top, middle, tab);
    const sentence = svgEl("g", { "data-sentence": "" }, svg);
    const say = drawScores(dim);
    const ghost = svgEl("g", { "data-ghost-layer": "", "pointer-events": "none" }, svg);
    return { permLines, swapLines, boxes: [...top, ...middle, ...bottom], sentence, trail, ghost, nodes: [...svg.children], say };
  }
  // Following one number of x: where P puts it, then rotate_half. `follow` holds the feature j
  // of x and how far down it has gone, u from 0 (its box in x) through 0.5 (its box in P x) to
  // 1 (its box in rotate_half(P x)). Dragging a box of x moves u with the pointer (the rows are
  // equally spaced, so the number stays under the finger); a tap, or Enter or Space on a box,
  // moves it one row down, and from the last row back to the top.
  function stopsOf(j) {
    const dim = data.dims[state.d], tab = data.tables[state.d], cell = span / dim;
    const centre = (k) => x0 + k * cell + cell / 2 - 1;
    const half = tab.interleaved_to_half.indexOf(j), rotated = (half + dim / 2) % dim;
    // The two drawn lines the number travels along (each stops short of the next caption), and
    // its whole way, box middle to box middle, straight down through each caption's strip.
    const legs = [[[centre(j), rows.interleaved + box], [centre(half), rows.half - captionStrip]],
      [[centre(half), rows.half + box], [centre(rotated), rows.rotated - captionStrip]]];
    const way = [[centre(j), rows.interleaved + box / 2], ...legs[0], [centre(half), rows.half + box / 2], ...legs[1], [centre(rotated), rows.rotated + box / 2]];
    return { half, rotated, legs, way, radius: Math.min(13, cell / 2 - 1) };
  }
  function svgY(event) {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(svg.getScreenCTM().inverse()).y;
  }
  function step(j, from) {
    const same = follow && follow.d === state.d && follow.j === j;
    const at = same ? Math.round(follow.u * 2) / 2 : from;
    follow = { d: state.d, j, u: same && at >= 1 ? 0 : at + 0.5 };
    renderFollow(true);
  }
  function followable(top, middle, tab) {
    let drag = null, tapped = false;
    for (const rect of top) {
      const j = Number(rect.dataset.feature);
      rect.addEventListener("pointerdown", (event) => {
        const from = follow && follow.d === state.d && follow.j === j ? follow.u : 0;
        drag = { id: event.pointerId, y0: svgY(event), from, moved: false };
        try { rect.setPointerCapture(event.pointerId); } catch { /* a synthetic pointer cannot be captured */ }
      });
      rect.addEventListener("pointermove", (event) => {
        if (!drag || drag.id !== event.pointerId) return;
        const dy = svgY(event) - drag.y0;
        if (!drag.moved && Math.abs(dy) < 4) return;
        drag.moved = true;
        hideTip(root);   // the feature's tip would cover the rows the number moves through
        follow = { d: state.d, j, u: Math.min(1, Math.max(0, drag.from + dy / (rows.rotated - rows.interleaved))) };
        renderFollow(false);
      });
      const end = (event) => {
        if (!drag || drag.id !== event.pointerId) return;
        const moved = drag.moved;
        drag = null;
        // A tap steps on its click, which comes after the mouse events a touch also sends
        // (they focus the box and show its tip, which the landing then puts away).
        tapped = !moved;
        if (!moved) return;
        follow.u = Math.round(follow.u * 2) / 2;   // land in the nearest row
        renderFollow(true);
      };
      rect.addEventListener("pointerup", end);
      rect.addEventListener("pointercancel", end);
      rect.addEventListener("click", () => { if (tapped) { tapped = false; step(j, 0); } });
    }
    for (const rect of [...top, ...middle]) {
      rect.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        event.stopPropagation();
        const f = Number(rect.dataset.feature);
        if (rect.dataset.layout === "interleaved") step(f, 0);
        else step(tab.interleaved_to_half[f], 0.5);
      });
    }
  }
  // The followed number: its path through the three rows (dashed), its three boxes outlined,
  // the number itself at u on the path, and the read-out (said when it lands: `landed`).
  function renderFollow(landed) {
    const { trail, ghost } = drawn;
    trail.replaceChildren();
    ghost.replaceChildren();
    for (const rect of drawn.boxes) {
      if (!rect.dataset.followed) continue;
      delete rect.dataset.followed;
      rect.style.removeProperty("stroke");
      rect.style.removeProperty("stroke-width");
    }
    if (follow && follow.d !== state.d) follow = null;
    if (!follow) {
      setText(out.follow, "drag a number of x down, or tap it, or press Enter on it");
      for (const key of ["feature", "half", "rotated", "stop", "negated"]) delete out.follow.dataset[key];
      return;
    }
    const tab = data.tables[state.d], { half, rotated, radius, legs, way } = stopsOf(follow.j);
    for (const leg of legs) {
      svgEl("polyline", { points: leg.map((p) => p.join(",")).join(" "), "data-trail-of": follow.j,
        style: "fill: none; stroke: var(--rope-w-accent); stroke-width: 3; stroke-dasharray: 6 4" }, trail);
    }
    const on = { interleaved: follow.j, half, rotated };
    for (const rect of drawn.boxes) {
      if (Number(rect.dataset.feature) !== on[rect.dataset.layout]) continue;
      rect.dataset.followed = "1";
      rect.style.setProperty("stroke", "var(--rope-w-accent)");
      rect.style.setProperty("stroke-width", "3");
    }
    // The number's height is u along the rows; its x follows its way at that height.
    const gy = way[0][1] + follow.u * (way[way.length - 1][1] - way[0][1]);
    let k = 1;
    while (k < way.length - 1 && way[k][1] < gy) k++;
    const [a, b] = [way[k - 1], way[k]], t = b[1] > a[1] ? (gy - a[1]) / (b[1] - a[1]) : 1;
    const gx = a[0] + (b[0] - a[0]) * Math.min(1, Math.max(0, t));
    svgEl("circle", { cx: gx, cy: gy, r: radius, "data-ghost": follow.j, "data-u": follow.u,
      style: "fill: var(--rope-w-accent); fill-opacity: 0.85" }, ghost);
    svgEl("text", { x: gx, y: gy + 5, "text-anchor": "middle", style: "fill: var(--rope-w-bg); font-weight: 700" }, ghost)
      .textContent = value(tab.x[follow.j]);
    const negated = tab.rotated_half[rotated] < 0, stop = Math.round(follow.u * 2);
    const where = [`is feature ${follow.j} of x`, `is feature ${half} of P x`, `is feature ${rotated} of rotate_half(P x)${negated ? ", negated" : ""}`][stop];
    setText(out.follow, `${value(tab.x[follow.j])} ${where}: P moves feature ${follow.j} to ${half}, rotate_half moves ${half} to ${rotated}${negated ? " and negates it" : ""}.`);
    Object.assign(out.follow.dataset, { feature: follow.j, half, rotated, stop, negated: negated ? "1" : "0" });
    if (landed) {
      hideTip(root);   // a tap or a key also focuses the box, whose tip would cover where the number landed
      say(out.follow.textContent);
    }
  }
  // The score of a previous-token head against n − m, as trained and (when the toggle is on)
  // through the other layout's code.
  function drawScores() {
    const tab = data.tables[state.d], scores = tab.scores;
    // Text scales up on a phone (keepTextSize): the gaps between the labels allow for it.
    const left = 44, right = 390, ytop = 506, ybottom = 596, lo = -1, hi = 1;
    const r = scores.distances, n = r.length;
    const px = (v) => left + (right - left) * (v - r[0]) / (r[n - 1] - r[0]);
    const py = (v) => ybottom - (ybottom - ytop) * (v - lo) / (hi - lo);
    svgEl("text", { x: left - 36, y: ytop - 18, class: "rope-w-muted-text" }, svg).textContent = "score of a head that looks one token back";
    for (const v of [-1, 0, 1]) {
      svgEl("line", { x1: left, x2: right, y1: py(v), y2: py(v), class: "rope-w-axis", "data-score-tick": v }, svg);
      svgEl("text", { x: left - 6, y: py(v) + 4, "text-anchor": "end", class: "rope-w-muted-text" }, svg).textContent = String(v).replace("-", "−");
    }
    for (const v of [r[0], -1, r[n - 1]]) {
      svgEl("line", { x1: px(v), x2: px(v), y1: ybottom, y2: ybottom + 4, class: "rope-w-axis", "data-distance-tick": v }, svg);
      svgEl("text", { x: px(v), y: ybottom + 25, "text-anchor": "middle", class: "rope-w-muted-text" }, svg).textContent = String(v).replace("-", "−");
    }
    svgEl("text", { x: (left + right) / 2, y: ybottom + 47, "text-anchor": "middle", class: "rope-w-muted-text" }, svg).textContent = "n − m";
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
      // Where the wrongly loaded head looks from the last word, for the verdict (the same
      // numbers the toggle draws).
      const wrongRow = tab.attention.wrong[last], trainedRow = tab.attention.trained[last];
      const look = wrongRow.indexOf(Math.max(...wrongRow));
      wrongLook = { word: look, share: wrongRow[look], before: wrongRow[last - 1], trainedBefore: trainedRow[last - 1] };
      if (quiz) {
        prompt.dataset.answered = wrong && quiz.predicted() ? "1" : "0";
        if (quiz.predicted()) say(`${out.sentence.textContent} ${out.scores.textContent}`);
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
  out.follow = readout(controls, "follow", "");
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
  out.sentence = readout(controls, "sentence", "");
  out.scores = readout(controls, "scores", "");
  const sharp = () => Math.abs(wrongLook.before - wrongLook.trainedBefore) < 0.05;
  quiz = question(htmlEl("div", {}, null), {
    prompt: `This head was trained in the interleaved layout: in “${data.words.join(" ")}”, ${quote(last)} looks at ${quote(last - 1)}, the word before it. Load the same weights into half-layout code: where will ${quote(last)} look?`,
    choices: [
      { label: `at ${quote(last - 1)}, just as much`, correct: () => wrongLook.word === last - 1 && sharp() },
      { label: `still at ${quote(last - 1)} most, but less`, correct: () => wrongLook.word === last - 1 && !sharp() },
      { label: `most at another word`, correct: () => wrongLook.word !== last - 1 },
    ],
    reached: () => state.wrong,
    task: "tick “load these weights with the wrong (half) layout” and watch the bars over the words.",
    explain: () => {
      const share = `${Math.round(100 * wrongLook.share)}%`, before = `${Math.round(100 * wrongLook.before)}%`;
      const why = "With the wrong layout the features are rotated with the wrong partners at the wrong speeds";
      return wrongLook.word === last - 1
        ? `${why}: the weights change, though ${quote(last)} still looks most at ${quote(last - 1)} (${before}).`
        : `${why}: the head no longer looks one token back. ${quote(last)} puts ${share} on ${quote(wrongLook.word)} and ${before} on ${quote(last - 1)}.`;
    },
  });
  root.insertBefore(quiz.node, root.querySelector(".rope-w-body"));
  prompt = quiz.node.querySelector(".rope-w-question-prompt");
  prompt.dataset.readout = "question";
  quiz.node.querySelector(".rope-w-answers").addEventListener("click", () => { if (drawn) drawn.say(); });
  const askFrom = sync("q", "query");
  querySlider = slider(controls, { label: "query word", name: "query", values: data.words, index: state.q,
    onInput: Object.assign((i) => { askFrom(i); say(out.sentence.textContent); }, { follow: askFrom.follow }) });
  slider(controls, { label: "dimension d", name: "dim", values: data.dims, index: state.d, onInput: sync("d", "dim_index") });
  const pairs = Array.from({ length: Math.max(...data.dims) / 2 }, (_, i) => i);
  pairSlider = slider(controls, { label: "pair i", name: "pair", values: pairs, index: state.p, onInput: sync("p", "pair") });
  // On a phone the query-word slider stays in reach at the bottom of the screen, and the
  // layout toggle (the question's control) rides in the same row.
  keepInReach(querySlider);
  const reachRow = querySlider.input.closest(".rope-w-control"), toggleHome = document.createComment("layout toggle");
  toggleRow.before(toggleHome);
  const narrow = window.matchMedia ? window.matchMedia("(max-width: 600px)") : null;
  const placeToggle = () => {
    const inReach = Boolean(narrow && narrow.matches);
    if (inReach) reachRow.append(toggleRow); else toggleHome.after(toggleRow);
    // The row's grid puts a label on its first line; the toggle takes a line of its own.
    toggleRow.style.gridColumn = inReach ? "1 / -1" : "";
    toggleRow.style.gridRow = inReach ? "3" : "";
  };
  placeToggle();
  if (narrow) narrow.addEventListener("change", placeToggle);
  out.pairs = readout(controls, "pairs", "pair i:");
  out.theta = readout(controls, "theta", "frequency:");
  out.perm = readout(controls, "perm", "interleaved → half:");
  draw();
}
export default { render };
