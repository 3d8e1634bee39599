// The trained tiny model: each head's attention by distance (averaged over the last queries of
// rows of one period) under an extension scheme and length, and the accuracy with pairs switched
// off, layer by layer. Every
// number comes from Python (rope_core.tinymodel.analysis.explorer_tables); this only draws.
import { svgEl, htmlEl, slider, readout, frame, syncer, announcer, keepInReach } from "./common.js";
import { lesson, question } from "./lesson.js";

const SCHEME_LABELS = { none: "no scaling", PI: "PI", NTK: "NTK-aware", YaRN: "YaRN" };
// Below this width (CSS pixels) the heads stack in one column, each label under its strip.
const NARROW = 560;

function render({ model, el }) {
  const data = model.get("data");
  const { root, svg, controls } = frame(el, { title: "Inside the trained model: where each head looks", width: 640, height: 300 });
  const state = { s: model.get("scheme"), n: model.get("length"), off: [model.get("off0"), model.get("off1")] };
  const out = {};
  const fast = data.fast_head;
  // Weights by distance d = 0 .. length-1: the previous token is d = 1, the induction targets
  // (the tokens after the earlier copies of the current one) d = p - 1, 2p - 1, ...
  const rowsAt = (scheme, length) => data.attention[scheme][String(length)];
  const copies = (length) => Array.from({ length: Math.floor((length - data.period) / data.period) + 1 }, (_, j) => (j + 1) * data.period - 1).filter((d) => d < length);
  const onCopies = (weights) => copies(weights.length).reduce((sum, d) => sum + weights[d], 0);
  // The default frame (no scaling, the training length), quoted by the lesson.
  const train = data.training_length, first = rowsAt("none", train);
  const previousHeads = first[0].map((w, h) => [w[1], h]).filter(([w]) => w > 0.3).map(([, h]) => h);
  const layer1 = first[1].map(onCopies);
  const many = previousHeads.length > 1;
  lesson(root, `Each strip is one head's attention by distance, the query at its right edge (mean over the last ${train} queries of rows that repeat every ${data.period} tokens). At the training length, ${train}, layer 0's head${many ? "s" : ""} ${previousHeads.join(" and ")} ${many ? "put" : "puts"} ${many ? "their" : "its"} attention on the previous token (orange), and each head of layer 1 puts ${Math.min(...layer1).toFixed(2)} to ${Math.max(...layer1).toFixed(2)} of its attention on the induction targets (green): the two steps of the copy. Heights are √weight, so that thin spreads stay visible.`);

  // Strips are laid out again when the widget crosses NARROW (one column on a phone).
  let strips = [], columns = 0;
  function layout() {
    const shown = root.getBoundingClientRect().width || 640;
    const wanted = shown < NARROW ? 1 : 2;
    if (wanted === columns) return false;
    columns = wanted;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    strips = [];
    // Units per CSS pixel stay near 1 in both layouts, so 13 px labels fit under their strips.
    const width = columns === 2 ? 640 : 360, gapX = 24, stripH = columns === 2 ? 40 : 44, labelH = 20, gapY = 8;
    const stripW = columns === 2 ? (width - 16 - gapX) / 2 : width - 16;
    const rowH = stripH + labelH + gapY, headerH = 24;
    const legend = svgEl("g", {}, svg);
    svgEl("line", { x1: 8, x2: 26, y1: 10, y2: 10, class: "rope-w-meaning rope-w-prev-line" }, legend);
    svgEl("text", { x: 30, y: 14 }, legend).textContent = "t − 1";
    svgEl("line", { x1: 84, x2: 102, y1: 10, y2: 10, class: "rope-w-meaning rope-w-target-line" }, legend);
    svgEl("text", { x: 106, y: 14 }, legend).textContent = "induction targets";
    let height = 0;
    for (let layer = 0; layer < data.n_layers; layer++) {
      const x = columns === 2 ? 8 + layer * (stripW + gapX) : 8;
      const top = columns === 2 ? 24 + headerH : 24 + layer * (headerH + data.n_heads * rowH) + headerH;
      svgEl("text", { x, y: top - 8, class: "rope-w-layer-title" }, svg).textContent = `layer ${layer}`;
      for (let head = 0; head < data.n_heads; head++) {
        const y = top + head * rowH;
        const g = svgEl("g", { "data-layer": layer, "data-head": head }, svg);
        svgEl("rect", { x, y, width: stripW, height: stripH, class: "rope-w-outline" }, g);
        const area = svgEl("path", { class: "rope-w-attention" }, g);
        const prev = svgEl("line", { y1: y, y2: y + stripH, class: "rope-w-meaning rope-w-prev-line" }, g);
        const target = svgEl("path", { class: "rope-w-meaning rope-w-target-line" }, g);
        // Dots at the two keys' weights: a one-key spike is ~1 px wide at length 256 on a phone.
        const prevDot = svgEl("circle", { r: 3.5, class: "rope-w-prev-dot" }, g);
        const targetDot = svgEl("circle", { r: 3.5, class: "rope-w-target-dot" }, g);
        const label = svgEl("text", { x, y: y + stripH + 15, class: "rope-w-muted-text" }, g);
        strips.push({ layer, head, x, y, w: stripW, h: stripH, area, prev, target, prevDot, targetDot, label });
        height = Math.max(height, y + rowH);
      }
    }
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    root.dataset.columns = String(columns);
    return true;
  }

  function draw() {
    const scheme = data.schemes[state.s], length = data.lengths[state.n];
    const rows = rowsAt(scheme, length), targets = copies(length);
    for (const s of strips) {
      const weights = rows[s.layer][s.head];
      // Distance d sits at the d-th slot from the right edge.
      const left = (d) => s.x + s.w - (d + 1) * s.w / length, xOf = (d) => left(d) + 0.5 * s.w / length;
      const yOf = (w) => s.y + s.h * (1 - Math.sqrt(Math.min(1, Math.max(0, w))));
      let path = `M ${s.x + s.w} ${s.y + s.h}`;
      weights.forEach((w, d) => { path += ` L ${left(d) + s.w / length} ${yOf(w)} L ${left(d)} ${yOf(w)}`; });
      s.area.setAttribute("d", `${path} L ${s.x} ${s.y + s.h} Z`);
      s.prev.setAttribute("x1", xOf(1));
      s.prev.setAttribute("x2", xOf(1));
      s.target.setAttribute("d", targets.map((d) => `M ${xOf(d)} ${s.y} V ${s.y + s.h}`).join(" "));
      s.prevDot.setAttribute("cx", xOf(1));
      s.prevDot.setAttribute("cy", yOf(weights[1]));
      s.targetDot.setAttribute("cx", xOf(targets[0]));
      s.targetDot.setAttribute("cy", yOf(weights[targets[0]]));
      const onPrev = weights[1], onTarget = onCopies(weights);
      s.label.textContent = `head ${s.head}: ${onPrev.toFixed(2)} on t−1, ${onTarget.toFixed(2)} on targets`;
      Object.assign(s.label.dataset, { previous: onPrev, target: onTarget });
    }
    out.accuracy.textContent = `${data.accuracy[scheme][String(length)].toFixed(2)} (${SCHEME_LABELS[scheme]}, length ${length}, trained at ${data.training_length})`;
    out.accuracy.dataset.value = data.accuracy[scheme][String(length)];
    for (let layer = 0; layer < data.n_layers; layer++) {
      const bits = state.off[layer];
      const off = data.wavelengths.map((_, i) => i).filter((i) => bits >> i & 1);
      const value = data.ablation[layer][bits];
      out.ablation[layer].textContent = off.length ? `${value.toFixed(2)} with pair${off.length > 1 ? "s" : ""} ${off.join(", ")} off` : `${value.toFixed(2)}, every pair on`;
      Object.assign(out.ablation[layer].dataset, { value, bits });
      out.buttons[layer].forEach((button, i) => button.setAttribute("aria-pressed", bits >> i & 1 ? "true" : "false"));
    }
    schemeButtons.forEach((button, i) => button.setAttribute("aria-checked", String(i === state.s)));
    seen.add(`${scheme} ${length}`);
    if (out.ask) {
      if (out.ask.predicted()) say(`${SCHEME_LABELS[scheme]}, length ${length}: accuracy ${data.accuracy[scheme][String(length)].toFixed(2)}; head ${fast} of layer 0 puts ${rows[0][fast][1].toFixed(2)} on t − 1`);
      out.ask.refresh();
    }
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
  htmlEl("div", { class: "rope-w-readout-label", "data-readout": "ablation-intro" }, controls, `Switch pairs off in every query of a layer: accuracy on rows of period ${data.period} at length ${data.training_length}, ${data.ablation[0][0].toFixed(2)} with every pair on. Pair i has wavelength λᵢ:`);
  out.buttons = [];
  out.ablation = [];
  for (let layer = 0; layer < data.n_layers; layer++) {
    const row = htmlEl("div", { class: "rope-w-pairs", role: "group", "aria-label": `pairs of layer ${layer}` }, controls);
    htmlEl("span", { class: "rope-w-readout-label" }, row, `layer ${layer}`);
    out.buttons.push(data.wavelengths.map((lambda, i) => {
      const button = htmlEl("button", { type: "button", class: "rope-w-pair", "data-layer": layer, "data-pair": i,
        "aria-label": `layer ${layer} pair ${i} (wavelength ${lambda} tokens)`, title: `λ = ${lambda} tokens` }, row, String(i));
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
