function render({ model, el }) {
  const data = model.get("data");
  const size = 340, centre = size / 2, scale = 95;
  const { svg, controls } = frame(el, { title: "Rotate q by mθ", width: size, height: size });
  const px = (x) => centre + scale * x;
  const py = (y) => centre - scale * y;
  svgEl("circle", { cx: centre, cy: centre, r: scale, class: "rope-w-axis" }, svg);
  svgEl("line", { x1: 10, y1: centre, x2: size - 10, y2: centre, class: "rope-w-axis" }, svg);
  svgEl("line", { x1: centre, y1: 10, x2: centre, y2: size - 10, class: "rope-w-axis" }, svg);
  const trail = svgEl("g", {}, svg);
  const arc = svgEl("path", { class: "rope-w-arc" }, svg);
  const layer = svgEl("g", {}, svg);
  const arcLabel = svgEl("text", { class: "rope-w-muted-text" }, svg);

  const state = {
    t: model.get("theta_index"), a: model.get("q_angle_index"),
    l: model.get("length_index"), m: model.get("position"),
  };
  const out = {};
  function draw() {
    const { t, a, l, m } = state;
    const length = data.lengths[l];
    const q = data.q[a].map((v) => v * length);
    const r = data.rotated[t][a][m].map((v) => v * length);
    layer.replaceChildren();
    trail.replaceChildren();
    for (let j = 0; j < m; j++) {
      const p = data.rotated[t][a][j];
      svgEl("circle", { cx: px(p[0] * length), cy: py(p[1] * length), r: 2, class: "rope-w-muted-text" }, trail);
    }
    arrow(layer, centre, centre, px(q[0]), py(q[1]), "q");
    arrow(layer, centre, centre, px(r[0]), py(r[1]), "rot");
    svgEl("text", { x: px(q[0]) + 6, y: py(q[1]) - 6 }, layer).textContent = "q";
    svgEl("text", { x: px(r[0]) + 6, y: py(r[1]) - 6 }, layer).textContent = "R(mθ) q";
    // The arc of angle mθ at radius 0.35 (turn count shown when it exceeds one turn).
    const rad = 0.35, deg = data.angle_deg[t][m];
    const start = data.q[a], end = data.rotated[t][a][m];
    const large = deg > 180 ? 1 : 0;
    arc.setAttribute("d", m === 0 ? "" :
      `M ${px(rad * start[0])} ${py(rad * start[1])} A ${scale * rad} ${scale * rad} 0 ${large} 0 ${px(rad * end[0])} ${py(rad * end[1])}`);
    arcLabel.setAttribute("x", 8); arcLabel.setAttribute("y", size - 8);
    arcLabel.textContent = `mθ = ${fmt(data.angle[t][m], 3)} rad`;
    out.angle.textContent = `${fmt(data.angle[t][m], 6)} rad (${fmt(deg, 2)}° mod 360°)`;
    out.q.textContent = `(${fmt(q[0])}, ${fmt(q[1])})`;
    out.rotated.textContent = `(${fmt(r[0], 6)}, ${fmt(r[1], 6)})`;
    out.complex.textContent =
      `(${fmt(q[0], 3)} ${q[1] < 0 ? "−" : "+"} ${fmt(Math.abs(q[1]), 3)}i)·(${fmt(data.cos[t][m], 3)} ${data.sin[t][m] < 0 ? "−" : "+"} ${fmt(Math.abs(data.sin[t][m]), 3)}i) = ${fmt(r[0], 3)} ${r[1] < 0 ? "−" : "+"} ${fmt(Math.abs(r[1]), 3)}i`;
    out.rotated.dataset.x = r[0]; out.rotated.dataset.y = r[1];
  }
  const sync = syncer(model, state, draw);
  slider(controls, { label: "position m", name: "position", values: data.positions, index: state.m, onInput: sync("m", "position") });
  slider(controls, { label: "frequency θ", name: "theta", values: data.thetas, index: state.t, format: (v) => `${v} rad`, onInput: sync("t", "theta_index") });
  slider(controls, { label: "angle of q", name: "q_angle", values: data.q_angles_deg, index: state.a, format: (v) => `${v}°`, onInput: sync("a", "q_angle_index") });
  slider(controls, { label: "length of q", name: "length", values: data.lengths, index: state.l, onInput: sync("l", "length_index") });
  out.angle = readout(controls, "angle", "mθ =");
  out.q = readout(controls, "q", "q =");
  out.rotated = readout(controls, "rotated", "R(mθ) q =");
  out.complex = readout(controls, "complex", "q·e^(imθ) =");
  draw();
}
export default { render };
