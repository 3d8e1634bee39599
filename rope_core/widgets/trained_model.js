// The trained tiny model: each head's attention from the last token of one row under an
// extension scheme and length, and the accuracy with pairs switched off, layer by layer. Every
// number comes from Python (rope_core.tinymodel.analysis.explorer_tables); this only draws.
import { svgEl, htmlEl, slider, readout, frame, syncer } from "./common.js";

function render({ model, el }) {
  const data = model.get("data");
  const width = 400, stripW = 186, stripH = 40, gapX = 28, top = 26, rowH = 58;
  const height = top + rowH * data.n_heads + 6;
  const { svg, controls } = frame(el, { title: "Inside the trained model: attention of the last token", width, height });
  const state = { s: model.get("scheme"), n: model.get("length"), off: [model.get("off0"), model.get("off1")] };
  const out = {};
  const schemeLabels = { none: "no scaling", PI: "PI", NTK: "NTK-aware", YaRN: "YaRN" };
  // One strip per head: layer 0 on the left, layer 1 on the right.
  const strips = [];
  for (let layer = 0; layer < data.n_layers; layer++) {
    const x = 8 + layer * (stripW + gapX);
    svgEl("text", { x, y: 14, class: "rope-w-muted-text" }, svg).textContent = `layer ${layer}`;
    for (let head = 0; head < data.n_heads; head++) {
      const y = top + head * rowH;
      const g = svgEl("g", { "data-layer": layer, "data-head": head }, svg);
      svgEl("rect", { x, y, width: stripW, height: stripH, class: "rope-w-outline" }, g);
      const area = svgEl("path", { class: "rope-w-attention", style: "fill: var(--rope-w-q); fill-opacity: 0.75; stroke: none" }, g);
      const prev = svgEl("line", { y1: y, y2: y + stripH, class: "rope-w-meaning", style: "stroke: var(--rope-w-k); stroke-dasharray: 3 2" }, g);
      const target = svgEl("line", { y1: y, y2: y + stripH, class: "rope-w-meaning", style: "stroke: var(--rope-w-rot); stroke-dasharray: 3 2" }, g);
      const label = svgEl("text", { x, y: y + stripH + 13, class: "rope-w-muted-text" }, g);
      strips.push({ layer, head, x, y, area, prev, target, label });
    }
  }
  function draw() {
    const scheme = data.schemes[state.s], length = data.lengths[state.n];
    const rows = data.attention[scheme][String(length)];
    const last = length - 1, prevKey = last - 1, targetKey = last - data.period + 1;
    const xOf = (s, key) => s.x + (key + 0.5) * stripW / length;
    for (const s of strips) {
      const weights = rows[s.layer][s.head];
      let path = `M ${s.x} ${s.y + stripH}`;
      weights.forEach((w, key) => {
        const x0 = s.x + key * stripW / length, x1 = s.x + (key + 1) * stripW / length;
        const y = s.y + stripH * (1 - Math.min(1, w));
        path += ` L ${x0} ${y} L ${x1} ${y}`;
      });
      s.area.setAttribute("d", `${path} L ${s.x + stripW} ${s.y + stripH} Z`);
      for (const [line, key] of [[s.prev, prevKey], [s.target, targetKey]]) {
        line.setAttribute("x1", xOf(s, key));
        line.setAttribute("x2", xOf(s, key));
      }
      const onPrev = weights[prevKey], onTarget = weights[targetKey];
      s.label.textContent = `head ${s.head}: ${onPrev.toFixed(2)} on t−1, ${onTarget.toFixed(2)} on target`;
      Object.assign(s.label.dataset, { previous: onPrev, target: onTarget });
    }
    out.accuracy.textContent = `${data.accuracy[scheme][String(length)].toFixed(2)} (${schemeLabels[scheme]}, length ${length}, trained at ${data.training_length})`;
    out.accuracy.dataset.value = data.accuracy[scheme][String(length)];
    for (let layer = 0; layer < data.n_layers; layer++) {
      const bits = state.off[layer];
      const off = data.wavelengths.map((_, i) => i).filter((i) => bits >> i & 1);
      const value = data.ablation[layer][bits];
      out.ablation[layer].textContent = `${value.toFixed(2)} with ${off.length ? `pair${off.length > 1 ? "s" : ""} ${off.join(", ")}` : "no pair"} off`;
      Object.assign(out.ablation[layer].dataset, { value, bits });
      out.buttons[layer].forEach((button, i) => button.setAttribute("aria-pressed", bits >> i & 1 ? "true" : "false"));
    }
  }
  const sync = syncer(model, state, draw);
  slider(controls, { label: "scheme", name: "scheme", values: data.schemes, index: state.s, format: (s) => schemeLabels[s], onInput: sync("s", "scheme") });
  slider(controls, { label: "length", name: "length", values: data.lengths, index: state.n, format: (n) => `${n} (${n / data.training_length}×)`, onInput: sync("n", "length") });
  out.accuracy = readout(controls, "accuracy", "accuracy:");
  htmlEl("div", { class: "rope-w-readout-label" }, controls, `Switch pairs off in every query of a layer (length ${data.training_length}, period ${data.period}); pair i has wavelength λ_i:`);
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
  draw();
}
export default { render };
