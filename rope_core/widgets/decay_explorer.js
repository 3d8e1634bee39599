function render({ model, el }) {
  const data = model.get("data");
  const width = 440, height = 300, left = 44, right = 10, top = 12, bottom = 34;
  const { svg, controls } = frame(el, { title: "Decay bound and actual scores against distance", width, height });
  const state = { b: model.get("base_index"), r: model.get("distance_index") };
  const out = {};
  const xmax = data.distances[data.distances.length - 1];
  const px = (x) => left + (width - left - right) * x / xmax;
  const py = (y) => top + (height - top - bottom) * (1 - (y + 1) / 2);  // y in [-1, 1]
  const names = [["bound", "rope-w-accent", "bound / bound(0)"], ["aligned", "rope-w-q", "aligned q = k"], ["random", "rope-w-k", "random q, k"]];
  function draw() {
    const series = data.series[state.b];
    svg.replaceChildren();
    for (const y of [-1, -0.5, 0, 0.5, 1]) {
      svgEl("line", { x1: left, x2: width - right, y1: py(y), y2: py(y), class: "rope-w-axis" }, svg);
      svgEl("text", { x: 4, y: py(y) + 4, class: "rope-w-muted-text" }, svg).textContent = y.toFixed(1);
    }
    for (const [x, anchor] of [[0, "start"], [xmax / 2, "middle"], [xmax, "end"]]) {
      svgEl("text", { x: px(x), y: height - 16, class: "rope-w-muted-text", "text-anchor": anchor }, svg).textContent = String(x);
    }
    svgEl("text", { x: width / 2 - 60, y: height - 2 }, svg).textContent = "relative distance n − m";
    names.forEach(([key, colourVar, label], j) => {
      const points = series[key].map((v, i) => `${px(data.distances[i]).toFixed(1)},${py(v).toFixed(1)}`).join(" ");
      svgEl("polyline", { points, class: "rope-w-line", style: `stroke: var(--${colourVar})` }, svg);
      svgEl("rect", { x: width - 150, y: top + 4 + 15 * j, width: 10, height: 10, style: `fill: var(--${colourVar})` }, svg);
      svgEl("text", { x: width - 135, y: top + 13 + 15 * j }, svg).textContent = label;
    });
    const x = px(data.distances[state.r]);
    svgEl("line", { x1: x, x2: x, y1: top, y2: height - bottom, class: "rope-w-axis", "stroke-dasharray": "4 3" }, svg);
    out.distance.textContent = String(data.distances[state.r]);
    for (const [key] of names) {
      out[key].textContent = fmt(series[key][state.r], 6);
      out[key].dataset.value = series[key][state.r];
    }
  }
  const sync = syncer(model, state, draw);
  slider(controls, { label: "base", name: "base", values: data.bases, index: state.b, format: (v) => Number(v).toExponential(0), onInput: sync("b", "base_index") });
  slider(controls, { label: "distance", name: "distance", values: data.distances, index: state.r, onInput: sync("r", "distance_index") });
  out.distance = readout(controls, "distance", "at distance");
  out.bound = readout(controls, "bound", "bound / bound(0):");
  out.aligned = readout(controls, "aligned", "aligned cosine:");
  out.random = readout(controls, "random", "random cosine:");
  draw();
}
export default { render };
