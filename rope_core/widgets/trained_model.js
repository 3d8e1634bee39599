// The trained tiny model: the repeating row with arcs from a chosen query to where one head of
// each layer looks, each head's attention by distance (averaged over the last queries of rows of
// one period) under an extension scheme and length, and the accuracy with pairs switched off,
// layer by layer. Every number comes from Python (rope_core.tinymodel.analysis.explorer_tables
// and rope_core.widgets.trained.query_arcs); this only draws.
import { svgEl, htmlEl, slider, readout, frame, syncer, announcer, keepInReach } from "./common.js";
import { lesson, question } from "./lesson.js";

const SCHEME_LABELS = { none: "no scaling", PI: "PI", NTK: "NTK-aware", YaRN: "YaRN" };
// Below this width (CSS pixels) the drawing is 360 units wide (a phone), else 440: the width of
// the other widgets' drawings, so that the controls sit beside it in the book's column.
const NARROW = 560;

function render({ model, el }) {
  const data = model.get("data");
  const { root, svg, controls } = frame(el, { title: "Inside the trained model: where each head looks", width: 440, height: 300 });
  const state = { s: model.get("scheme"), n: model.get("length"), off: [model.get("off0"), model.get("off1")], q: model.get("query") };
  const out = {};
  const fast = data.fast_head;
  // Weights by distance d = 0 .. length-1: the previous token is d = 1, the induction targets
  // (the tokens after the earlier copies of the current one) d = p - 1, 2p - 1, ...
  const rowsAt = (scheme, length) => data.attention[scheme][String(length)];
  const copies = (length) => Array.from({ length: Math.floor((length - data.period) / data.period) + 1 }, (_, j) => (j + 1) * data.period - 1).filter((d) => d < length);
  const onCopies = (weights) => copies(weights.length).reduce((sum, d) => sum + weights[d], 0);
  // The default frame (no scaling, the training length): which heads are drawn first.
  const train = data.training_length, first = rowsAt("none", train);
  const layer1 = first[1].map(onCopies);
  // One line: the chapter's prose above the widget says what the circuit is, and each strip's
  // label gives its head's numbers.
  lesson(root, `Pick a query among the row's last ${data.arc_queries} tokens (tap or drag the row): arcs show where a head of layer 0 (above) and of layer 1 (below) looks from it, and each strip is a head's attention by distance.`);
  // The head whose arcs each layer draws: layer 0 the previous-token head built on pair 0, layer 1
  // the head most on the induction targets; a click on a strip or the head buttons picks another.
  const chosen = [fast, layer1.indexOf(Math.max(...layer1))];

  // The drawing is laid out again when the widget crosses NARROW; the strips are one column,
  // layer 0's heads above layer 1's.
  let strips = [], width = 0, row = null;
  function layout() {
    const shown = root.getBoundingClientRect().width || 640;
    const wanted = shown < NARROW ? 360 : 440;
    if (wanted === width) return false;
    width = wanted;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    strips = [];
    // A new layout has new nodes and coordinates: nothing drawn is kept.
    stripCache = new Map();
    stripsShown = null;
    cellsShown = 0;
    cellClasses.length = 0;
    // Units per CSS pixel stay near 1 in both layouts, so 13 px labels fit under their strips.
    const stripH = width === 360 ? 44 : 36, labelH = 20, gapY = 8, stripW = width - 16;
    const rowH = stripH + labelH + gapY, headerH = 24;
    // The row: arcs of layer 0 bulge up from it, those of layer 1 down; each half is archH tall.
    const archH = 70, cellH = 16;
    const rowTop = archH + 20;
    row = { x: 8, w: width - 16, y: rowTop, h: cellH, archH };
    row.title = [svgEl("text", { x: 8, y: 14, class: "rope-w-muted-text", "data-arc-title": 0 }, svg),
      svgEl("text", { x: 8, y: rowTop + cellH + archH + 14, class: "rope-w-muted-text", "data-arc-title": 1 }, svg)];
    row.marks = svgEl("g", {}, svg);
    row.prevTick = svgEl("path", { class: "rope-w-meaning rope-w-prev-line" }, row.marks);
    row.targetTicks = svgEl("path", { class: "rope-w-meaning rope-w-target-line" }, row.marks);
    row.cells = svgEl("g", {}, svg);
    row.band = svgEl("rect", { y: row.y - 3, height: row.h + 6, class: "rope-w-query-band" }, row.cells);
    row.cellNodes = [];
    row.arcs = [svgEl("g", { "data-arcs": 0 }, svg), svgEl("g", { "data-arcs": 1 }, svg)];
    row.arcNodes = [[], []];
    // A press anywhere on the row picks the query nearest to it among the last ones (a tall
    // band, the whole row wide: a finger finds it at every length).
    row.hit = svgEl("rect", { x: 8, width: width - 16, y: rowTop - 14, height: cellH + 28, class: "rope-w-row-hit" }, svg);
    const pick = (event) => {
      const box = svg.getBoundingClientRect(), scale = width / box.width;
      const x = (event.clientX - box.left) * scale, length = data.lengths[state.n];
      const first = length - data.arc_queries, at = Math.floor((x - row.x) / (row.w / length));
      const q = Math.min(data.arc_queries - 1, Math.max(0, at - first));
      if (q !== state.q) querySlider.set(q);
    };
    row.hit.addEventListener("pointerdown", (event) => { event.preventDefault(); row.hit.setPointerCapture?.(event.pointerId); pick(event); });
    row.hit.addEventListener("pointermove", (event) => { if (event.buttons) pick(event); });
    const legendTop = rowTop + cellH + 2 * archH - 8 + 24;
    const legend = svgEl("g", { transform: `translate(0 ${legendTop})` }, svg);
    // Legend entries run left to right and wrap to a second line in one column.
    let lx = 8, ly = 10;
    for (const [text, cls, chars] of [["t − 1", "prev", 5], ["induction targets", "target", 17], ["query", "query", 5], ["earlier copies of its token", "copy", 27]]) {
      const w = 26 + 7.2 * chars;
      if (lx + w > width) { lx = 8; ly += 20; }
      if (cls === "prev" || cls === "target") svgEl("line", { x1: lx, x2: lx + 18, y1: ly, y2: ly, class: `rope-w-meaning rope-w-${cls}-line` }, legend);
      else svgEl("rect", { x: lx + 4, y: ly - 6, width: 10, height: 12, class: `rope-w-token rope-w-${cls}-token` }, legend);
      svgEl("text", { x: lx + 22, y: ly + 4 }, legend).textContent = text;
      lx += w + 10;
    }
    const stripsTop = legendTop + ly + 14;
    let height = 0;
    for (let layer = 0; layer < data.n_layers; layer++) {
      const x = 8, top = stripsTop + layer * (headerH + data.n_heads * rowH) + headerH;
      svgEl("text", { x, y: top - 8, class: "rope-w-layer-title" }, svg).textContent = `layer ${layer}`;
      for (let head = 0; head < data.n_heads; head++) {
        const y = top + head * rowH;
        const g = svgEl("g", { "data-layer": layer, "data-head": head, class: "rope-w-strip" }, svg);
        const outline = svgEl("rect", { x, y, width: stripW, height: stripH, class: "rope-w-outline" }, g);
        // A click on a strip draws that head's arcs (the head buttons do it by keyboard).
        g.addEventListener("click", () => chooseHead(layer, head));
        const area = svgEl("path", { class: "rope-w-attention" }, g);
        const prev = svgEl("line", { y1: y, y2: y + stripH, class: "rope-w-meaning rope-w-prev-line" }, g);
        const target = svgEl("path", { class: "rope-w-meaning rope-w-target-line" }, g);
        // Dots at the two keys' weights: a one-key spike is ~1 px wide at length 256 on a phone.
        const prevDot = svgEl("circle", { r: 3.5, class: "rope-w-prev-dot" }, g);
        const targetDot = svgEl("circle", { r: 3.5, class: "rope-w-target-dot" }, g);
        const label = svgEl("text", { x, y: y + stripH + 15, class: "rope-w-muted-text" }, g);
        strips.push({ layer, head, x, y, w: stripW, h: stripH, g, outline, area, prev, target, prevDot, targetDot, label });
        height = Math.max(height, y + rowH);
      }
    }
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    root.dataset.columns = "1";  // columns of strips
    return true;
  }

  // What is on screen, so that a step redraws only what it changed: the strips' (scheme,
  // length), the row's cells' length and classes, and each text already written.
  let stripsShown = null, cellsShown = 0;
  const cellClasses = [];
  const writeText = (node, text) => { if (node.textContent !== text) node.textContent = text; };
  const writeAttribute = (node, name, value) => { if (node.getAttribute(name) !== String(value)) node.setAttribute(name, value); };
  // Each strip's drawing at one (scheme, length), computed once per layout: the strings and
  // numbers its nodes take.
  let stripCache = new Map();
  function stripDrawing(scheme, length) {
    const key = `${scheme} ${length}`;
    if (stripCache.has(key)) return stripCache.get(key);
    const rows = rowsAt(scheme, length), targets = copies(length);
    const drawing = strips.map((s) => {
      const weights = rows[s.layer][s.head];
      // Distance d sits at the d-th slot from the right edge.
      const left = (d) => s.x + s.w - (d + 1) * s.w / length, xOf = (d) => left(d) + 0.5 * s.w / length;
      const yOf = (w) => s.y + s.h * (1 - Math.sqrt(Math.min(1, Math.max(0, w))));
      const parts = [`M ${s.x + s.w} ${s.y + s.h}`];
      weights.forEach((w, d) => { parts.push(`L ${left(d) + s.w / length} ${yOf(w)} L ${left(d)} ${yOf(w)}`); });
      const onPrev = weights[1], onTarget = onCopies(weights);
      return {
        area: `${parts.join(" ")} L ${s.x} ${s.y + s.h} Z`,
        prevX: xOf(1), prevY: yOf(onPrev),
        target: targets.map((d) => `M ${xOf(d)} ${s.y} V ${s.y + s.h}`).join(" "),
        targetX: xOf(targets[0]), targetY: yOf(weights[targets[0]]),
        label: `head ${s.head}: ${onPrev.toFixed(2)} on t−1, ${onTarget.toFixed(2)} on targets`,
        onPrev, onTarget,
      };
    });
    stripCache.set(key, drawing);
    return drawing;
  }
  function drawStrips(scheme, length) {
    const key = `${scheme} ${length}`;
    if (stripsShown === key) return;
    stripsShown = key;
    stripDrawing(scheme, length).forEach((d, i) => {
      const s = strips[i];
      s.area.setAttribute("d", d.area);
      s.prev.setAttribute("x1", d.prevX);
      s.prev.setAttribute("x2", d.prevX);
      s.target.setAttribute("d", d.target);
      s.prevDot.setAttribute("cx", d.prevX);
      s.prevDot.setAttribute("cy", d.prevY);
      s.targetDot.setAttribute("cx", d.targetX);
      s.targetDot.setAttribute("cy", d.targetY);
      s.label.textContent = d.label;
      Object.assign(s.label.dataset, { previous: d.onPrev, target: d.onTarget });
    });
  }

  function draw() {
    const scheme = data.schemes[state.s], length = data.lengths[state.n];
    const rows = rowsAt(scheme, length);
    drawStrips(scheme, length);
    const accuracy = data.accuracy[scheme][String(length)];
    writeText(out.accuracy, `${accuracy.toFixed(2)} (${SCHEME_LABELS[scheme]}, length ${length}, trained at ${data.training_length})`);
    writeAttribute(out.accuracy, "data-value", accuracy);
    drawRow(scheme, length);
    // The query slider names a position, which moves with the length.
    const named = `token ${length - data.arc_queries + state.q} of ${length}`;
    writeText(querySlider.output, named);
    writeAttribute(querySlider.input, "aria-valuetext", named);
    for (let layer = 0; layer < data.n_layers; layer++) {
      const bits = state.off[layer];
      const off = data.wavelengths.map((_, i) => i).filter((i) => bits >> i & 1);
      const value = data.ablation[layer][bits];
      writeText(out.ablation[layer], off.length ? `${value.toFixed(2)} with pair${off.length > 1 ? "s" : ""} ${off.join(", ")} off` : `${value.toFixed(2)}, every pair on`);
      writeAttribute(out.ablation[layer], "data-value", value);
      writeAttribute(out.ablation[layer], "data-bits", bits);
      out.buttons[layer].forEach((button, i) => writeAttribute(button, "aria-pressed", bits >> i & 1 ? "true" : "false"));
    }
    schemeButtons.forEach((button, i) => writeAttribute(button, "aria-checked", String(i === state.s)));
    seen.add(`${scheme} ${length}`);
    if (out.ask) {
      if (out.ask.predicted()) say(`${SCHEME_LABELS[scheme]}, length ${length}: accuracy ${accuracy.toFixed(2)}; head ${fast} of layer 0 puts ${rows[0][fast][1].toFixed(2)} on t − 1`);
      out.ask.refresh();
    }
  }
  // The row of `length` tokens: a cell per token, the query's own token filled wherever it
  // occurs (its earlier copies), the query outlined, ticks at t − 1 and at the tokens after
  // the earlier copies (the induction targets), and one arc per key a chosen head looks at.
  // Its nodes are made once and kept: cells (one per token of the longest row, those past
  // the length taken out of the drawing) and arcs (as many as a query has had keys).
  function drawRow(scheme, length) {
    const tokens = data.tokens[String(length)], cell = row.w / length, first = length - data.arc_queries;
    const t = first + state.q, xOf = (s) => row.x + (s + 0.5) * cell;
    if (cellsShown !== length) {
      row.band.setAttribute("x", row.x + first * cell);
      row.band.setAttribute("width", data.arc_queries * cell);
      for (let s = 0; s < Math.max(length, cellsShown); s++) {
        if (s >= length) { row.cellNodes[s].remove(); continue; }
        if (s >= row.cellNodes.length) {
          row.cellNodes.push(svgEl("rect", { y: row.y, height: row.h, class: "rope-w-token", "data-position": s }));
          cellClasses.push("rope-w-token");
        }
        const node = row.cellNodes[s];
        node.setAttribute("x", row.x + s * cell + 0.5);
        node.setAttribute("width", Math.max(0.5, cell - 1));
        if (s >= cellsShown) row.cells.appendChild(node);
      }
      cellsShown = length;
    }
    for (let s = 0; s < length; s++) {
      const cls = s === t ? "rope-w-token rope-w-query-token" : tokens[s] === tokens[t] && s < t ? "rope-w-token rope-w-copy-token" : "rope-w-token";
      if (cellClasses[s] !== cls) { row.cellNodes[s].setAttribute("class", cls); cellClasses[s] = cls; }
    }
    const targets = tokens.map((id, s) => s).filter((s) => s > 0 && s <= t && tokens[s - 1] === tokens[t]);
    writeAttribute(row.prevTick, "d", `M ${xOf(t - 1)} ${row.y - 4} V ${row.y + row.h + 4}`);
    writeAttribute(row.targetTicks, "d", targets.map((s) => `M ${xOf(s)} ${row.y - 4} V ${row.y + row.h + 4}`).join(" "));
    const spoken = [];
    for (let layer = 0; layer < data.n_layers && layer < 2; layer++) {
      const head = chosen[layer], flat = data.arcs[scheme][String(length)][layer][head][state.q];
      const keys = [];
      for (let j = 0; j < flat.length; j += 2) keys.push([flat[j], flat[j + 1] / 100]);
      // Layer 0 bulges up, layer 1 down; an arc's height grows with its span, up to archH.
      const sign = layer === 0 ? -1 : 1, base = layer === 0 ? row.y - 2 : row.y + row.h + 2;
      const pool = row.arcNodes[layer];
      keys.forEach(([s, w], j) => {
        if (j >= pool.length) pool.push([svgEl("path", { class: "rope-w-attention-arc" }), svgEl("circle", { class: "rope-w-attention-arc-end" })]);
        const [arc, end] = pool[j];
        const x0 = xOf(t), x1 = xOf(s), span = Math.abs(x0 - x1);
        // At least 18 units high: an arc between neighbours stays an arch, not a dot-sized loop.
        const lift = Math.min(row.archH - 6, 18 + span / 2);
        // A quadratic curve peaks at half its control point's height.
        writeAttribute(arc, "d", `M ${x0} ${base} Q ${(x0 + x1) / 2} ${base + sign * 2 * lift} ${x1} ${base}`);
        writeAttribute(arc, "stroke-width", (1 + 6 * w).toFixed(2));
        writeAttribute(arc, "stroke-opacity", (0.35 + 0.65 * w).toFixed(2));
        writeAttribute(arc, "data-key", s);
        writeAttribute(arc, "data-weight", w);
        writeAttribute(end, "cx", x1);
        writeAttribute(end, "cy", base);
        writeAttribute(end, "r", 2 + 3 * w);
        if (arc.parentNode !== row.arcs[layer]) row.arcs[layer].append(arc, end);
      });
      for (let j = keys.length; j < pool.length; j++) { pool[j][0].remove(); pool[j][1].remove(); }
      const where = keys.length ? keys.map(([s, w]) => `${s} (${w.toFixed(2)})`).join(", ") : "no key over 0.10";
      writeText(row.title[layer], `layer ${layer}, head ${head} → ${where}`);
      writeAttribute(row.arcs[layer], "data-head", head);
      writeAttribute(row.arcs[layer], "data-keys", keys.map(([s]) => s).join(","));
      writeAttribute(row.arcs[layer], "data-weights", keys.map(([, w]) => w).join(","));
      spoken.push(`layer ${layer} head ${head} looks at ${where}`);
    }
    writeAttribute(row.cells, "data-query", t);
    writeAttribute(row.cells, "data-token", tokens[t]);
    writeAttribute(row.cells, "data-targets", targets.join(","));
    writeAttribute(row.cells, "data-previous", t - 1);
    for (const s of strips) {
      const isChosen = chosen[s.layer] === s.head;
      if (s.g.classList.contains("rope-w-chosen") !== isChosen) s.g.classList.toggle("rope-w-chosen", isChosen);
    }
    writeText(out.arcs, `token ${t} (id ${tokens[t]}), earlier copies at ${tokens.map((id, s) => s).filter((s) => s < t && tokens[s] === tokens[t]).join(", ") || "none"}; ${spoken.join("; ")}`);
    writeAttribute(out.arcs, "data-query", t);
    return spoken;
  }
  function chooseHead(layer, head) {
    if (chosen[layer] === head) return;
    chosen[layer] = head;
    out.heads[layer].forEach((b, j) => { b.setAttribute("aria-checked", String(j === head)); b.setAttribute("tabindex", j === head ? "0" : "-1"); });
    say(drawRow(data.schemes[state.s], data.lengths[state.n])[layer]);
  }
  const say = announcer(root);
  const seen = new Set();   // the "scheme length" settings the reader has looked at
  const sync = syncer(model, state, draw);
  // The scheme is a choice among four, not a quantity: a row of radio buttons (one tab stop;
  // the arrow keys move the choice).
  htmlEl("div", { class: "rope-w-readout-label", id: `${root.id || "rope-w"}-scheme-label` }, controls, "scheme:");
  const schemeRow = htmlEl("div", { class: "rope-w-choices", role: "radiogroup", "aria-label": "scheme", "data-name": "scheme" }, controls);
  const pickScheme = sync("s", "scheme");
  const schemeButtons = data.schemes.map((name, i) => {
    const button = htmlEl("button", { type: "button", role: "radio", class: "rope-w-answer rope-w-choice", "data-scheme": name,
      "aria-checked": String(i === state.s), tabindex: i === state.s ? "0" : "-1" }, schemeRow, SCHEME_LABELS[name]);
    button.addEventListener("click", () => { if (state.s !== i) pickScheme(i); });
    button.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      event.stopPropagation();
      if (!step) return;
      event.preventDefault();
      const next = (i + step + data.schemes.length) % data.schemes.length;
      schemeButtons.forEach((b, j) => b.setAttribute("tabindex", j === next ? "0" : "-1"));
      schemeButtons[next].focus();
      pickScheme(next);
    });
    return button;
  });
  model.on("change:scheme", () => {
    const i = model.get("scheme");
    if (i !== state.s) { state.s = i; draw(); }
    schemeButtons.forEach((b, j) => b.setAttribute("tabindex", j === state.s ? "0" : "-1"));
  });
  keepInReach(slider(controls, { label: "length", name: "length", values: data.lengths, index: state.n, format: (n) => `${n} (${n / data.training_length}×)`, onInput: sync("n", "length") }));
  // The query: one of the row's last tokens (its position depends on the length); the arcs
  // it moves are said once, after the slider has said its own value.
  const queryInput = sync("q", "query");
  const onQuery = (i) => { queryInput(i); say(out.arcs.textContent); };
  onQuery.follow = queryInput.follow;
  const querySlider = slider(controls, { label: "query", name: "query", values: Array.from({ length: data.arc_queries }, (_, i) => i), index: state.q,
    format: (i) => `token ${data.lengths[state.n] - data.arc_queries + i} of ${data.lengths[state.n]}`, onInput: onQuery });
  out.arcs = readout(controls, "arcs", "from the query:");
  // One row of head buttons per layer: which head's arcs the row draws.
  out.heads = [];
  for (let layer = 0; layer < Math.min(2, data.n_layers); layer++) {
    const group = htmlEl("div", { class: "rope-w-choices rope-w-heads", role: "radiogroup", "aria-label": `arcs of layer ${layer}: head`, "data-name": `head${layer}` }, controls);
    htmlEl("span", { class: "rope-w-readout-label", "aria-hidden": "true" }, group, `layer ${layer} arcs: head`);
    out.heads.push(Array.from({ length: data.n_heads }, (_, head) => {
      const button = htmlEl("button", { type: "button", role: "radio", class: "rope-w-answer rope-w-choice", "data-layer": layer, "data-head": head,
        "aria-label": `layer ${layer} head ${head}`, "aria-checked": String(head === chosen[layer]), tabindex: head === chosen[layer] ? "0" : "-1" }, group, String(head));
      button.addEventListener("click", () => chooseHead(layer, head));
      button.addEventListener("keydown", (event) => {
        const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
        event.stopPropagation();
        if (!step) return;
        event.preventDefault();
        const next = (head + step + data.n_heads) % data.n_heads;
        out.heads[layer][next].focus();
        chooseHead(layer, next);
      });
      return button;
    }));
  }
  // Two accuracies are shown, of two measurements: this one is the mean over every period the
  // run tested; the pair switches below use the rows of one period (their own baseline).
  out.accuracy = readout(controls, "accuracy", "accuracy (mean over the periods tested):");
  // The question: at the longest length, does the previous-token head built on pair 0 keep
  // t − 1 with no scaling, and what does each scheme do to it? The right answer is read off
  // the model's own attention: a head "keeps" t − 1 while its share there is at least half
  // of what it is at the training length.
  const longest = data.lengths[data.lengths.length - 1];
  const massOf = (scheme, length = longest) => rowsAt(scheme, length)[0][fast][1];
  const trained = massOf("none", train);
  const keeps = (scheme) => massOf(scheme) >= trained / 2;
  const scaled = data.schemes.filter((s) => s !== "none");
  out.ask = question(controls, {
    prompt: `Head ${fast} of layer 0 looks at t − 1 (${trained.toFixed(2)} of its attention at length ${train}) and puts ${Math.round(100 * data.fast_head_pair0)} % of its |q_i||k_i| on pair 0, the fastest (1 rad per token). At length ${longest}, what happens to its attention on t − 1?`,
    choices: [
      { label: "it keeps it unless a scheme rescales pair 0", correct: () => keeps("none") && !scaled.every(keeps) },
      { label: "it loses most of it even with no scaling", correct: () => !keeps("none") },
      { label: "it keeps it under every scheme", correct: () => data.schemes.every(keeps) },
    ],
    reached: () => seen.has(`none ${longest}`) && scaled.some((s) => seen.has(`${s} ${longest}`)),
    task: `set the length to ${longest}, then compare no scaling with a scheme or two: watch head ${fast}'s orange dot.`,
    explain: () => `Head ${fast} puts ${trained.toFixed(2)} on t − 1 at ${train}; at ${longest}: ${data.schemes.map((s) => `${massOf(s).toFixed(2)} with ${SCHEME_LABELS[s]}`).join(", ")}. `
      + (keeps("none") ? "With no scaling it keeps most of it." : `The fall starts with no scaling: positions past ${train} are angles the model never trained on, for every pair.`)
      + ` A scheme changes how far it falls, not whether the lengths are new.`,
  });
  // The question first among the controls: on a phone it follows the drawing at once.
  controls.prepend(out.ask.node);
  htmlEl("div", { class: "rope-w-readout-label", "data-readout": "ablation-intro" }, controls, `Switch pairs off in every query of a layer: accuracy on rows of period ${data.period} at length ${data.training_length}, ${data.ablation[0][0].toFixed(2)} with every pair on. Each button's bar is its pair's wavelength λᵢ (log scale); the dashed line is ${data.training_length} tokens, the training length:`);
  out.buttons = [];
  out.ablation = [];
  // Bar heights in CSS pixels, log λ from the fastest pair (BAR_LOW) to the slowest (BAR_LOW + BAR_SPAN).
  const BAR_LOW = 6, BAR_SPAN = 46;
  const lambdaLow = Math.min(...data.wavelengths), lambdaHigh = Math.max(...data.wavelengths);
  const barHeight = (lambda) => BAR_LOW + BAR_SPAN * Math.log(lambda / lambdaLow) / Math.log(lambdaHigh / lambdaLow);
  for (let layer = 0; layer < data.n_layers; layer++) {
    const row = htmlEl("div", { class: "rope-w-pairs", role: "group", "aria-label": `pairs of layer ${layer}` }, controls);
    htmlEl("span", { class: "rope-w-readout-label" }, row, `layer ${layer}`);
    const bars = htmlEl("div", { class: "rope-w-pair-bars" }, row);
    // The training length on the bars' scale: pairs under it turn once or more within 64 tokens.
    const trainedLine = htmlEl("div", { class: "rope-w-pair-trained", "aria-hidden": "true", "data-lambda": data.training_length }, bars);
    trainedLine.style.bottom = `calc(var(--rope-w-pair-base) + ${barHeight(data.training_length).toFixed(1)}px)`;
    out.buttons.push(data.wavelengths.map((lambda, i) => {
      const button = htmlEl("button", { type: "button", class: "rope-w-pair", "data-layer": layer, "data-pair": i,
        "aria-label": `layer ${layer} pair ${i} (wavelength ${lambda} tokens)`, title: `λ = ${lambda} tokens` }, bars);
      const bar = htmlEl("span", { class: "rope-w-pair-bar", "aria-hidden": "true", "data-lambda": lambda }, button);
      bar.style.height = `${barHeight(lambda).toFixed(1)}px`;
      htmlEl("span", { class: "rope-w-pair-index", "aria-hidden": "true" }, button, String(i));
      button.addEventListener("click", () => {
        state.off[layer] ^= 1 << i;
        model.set(`off${layer}`, state.off[layer]);
        model.save_changes();
        draw();
      });
      return button;
    }));
    out.ablation.push(readout(controls, `ablation${layer}`, `layer ${layer}:`));
    model.on(`change:off${layer}`, () => { state.off[layer] = model.get(`off${layer}`); draw(); });
  }
  layout();
  draw();
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => { if (layout()) draw(); }).observe(root);
}
export default { render };
