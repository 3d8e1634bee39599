function render({ model, el }) {
  const data = model.get("data");
  const size = 340, centre = size / 2, scale = 120;
  const { svg, controls } = frame(el, { title: "Shift both positions: the score does not move", width: size, height: size });
  const px = (x) => centre + scale * x;
  const py = (y) => centre - scale * y;
  svgEl("circle", { cx: centre, cy: centre, r: scale, class: "rope-w-axis" }, svg);
  svgEl("line", { x1: 10, y1: centre, x2: size - 10, y2: centre, class: "rope-w-axis" }, svg);
  svgEl("line", { x1: centre, y1: 10, x2: centre, y2: size - 10, class: "rope-w-axis" }, svg);
  const layer = svgEl("g", {}, svg);
  const state = { m: model.get("m"), n: model.get("n"), s: model.get("shift") };
  const positions = Array.from({ length: data.max_position + 1 }, (_, i) => i);
  const out = {};
  function draw() {
    const pm = state.m + state.s, pn = state.n + state.s;
    const rq = data.rotated_q[pm], rk = data.rotated_k[pn];
    layer.replaceChildren();
    arrow(layer, centre, centre, px(data.q[0]), py(data.q[1]), "ghost");
    arrow(layer, centre, centre, px(data.k[0]), py(data.k[1]), "ghost");
    arrow(layer, centre, centre, px(rq[0]), py(rq[1]), "q");
    arrow(layer, centre, centre, px(rk[0]), py(rk[1]), "k");
    svgEl("text", { x: px(rq[0]) + 6, y: py(rq[1]) - 4 }, layer).textContent = `R_${pm} q`;
    svgEl("text", { x: px(rk[0]) + 6, y: py(rk[1]) - 4 }, layer).textContent = `R_${pn} k`;
    const score = data.scores[pm][pn];
    out.positions.textContent = `m + s = ${pm}, n + s = ${pn}, n − m = ${state.n - state.m}`;
    out.score.textContent = fmt(score, 6);
    out.score.dataset.value = score;
    out.reference.textContent = state.n >= state.m ? fmt(data.scores[0][state.n - state.m], 6) : fmt(data.scores[state.m - state.n][0], 6);
  }
  const sync = syncer(model, state, draw);
  slider(controls, { label: "query position m", name: "m", values: positions, index: state.m, onInput: sync("m", "m") });
  slider(controls, { label: "key position n", name: "n", values: positions, index: state.n, onInput: sync("n", "n") });
  slider(controls, { label: "shift both by s", name: "shift", values: positions, index: state.s, onInput: sync("s", "shift") });
  out.positions = readout(controls, "positions", "");
  out.score = readout(controls, "score", "⟨R_{m+s} q, R_{n+s} k⟩ =");
  out.reference = readout(controls, "reference", "same offset from 0 =");
  draw();
}
export default { render };
