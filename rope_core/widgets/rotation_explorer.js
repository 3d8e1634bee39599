import { svgEl, htmlEl, slider, readout, arrow, syncer } from "./common.js";
import { dial, wrapDeg, rotate, polar, num, vectorLabel, labelAt, dragHandle, playToEnd } from "./drag.js";

function render({ model, el }) {
  const data = model.get("data");
  const scale = 95;
  const { svg, controls, size, centre, px, py } = dial(el, {
    title: "Rotate q by mθ",
    label: "q and its rotation R(mθ)q; drag the tip of q to turn it", scale,
  });
  const trail = svgEl("g", { "data-mark": "trail" }, svg);
  const arc = svgEl("path", { class: "rope-w-arc" }, svg);
  const layer = svgEl("g", {}, svg);
  const handleLayer = svgEl("g", {}, svg);
  const arcLabel = svgEl("text", { class: "rope-w-muted-text", x: 8, y: size - 8 }, svg);

  const state = {
    t: model.get("theta_index"), l: model.get("length_index"), m: model.get("position"),
    angle: model.get("q_angle"), length: model.get("q_length"),
  };
  const out = {};
  const controlsOf = {};
  const handle = dragHandle(svg, handleLayer, {
    name: "q", label: "direction of q (degrees; drag its tip to turn and stretch it, arrow keys turn it by 1°, shift+arrow by 10°, + and − change its length)",
    cls: "q", cx: centre, cy: centre, get: () => state.angle, length: () => state.length,
    scale, range: data.length_range, set: (deg, done, length) => setVector(deg, done, length),
  });

  function draw() {
    const { t, m } = state;
    const theta = data.thetas[t];
    const q = polar(state.length, state.angle);
    const r = rotate(q, m * theta);          // R(mθ) q, computed here for continuous q
    trail.replaceChildren();
    for (let j = 0; j < m; j++) {
      const p = rotate(q, j * theta);
      svgEl("circle", { cx: px(p[0]), cy: py(p[1]), r: 2, class: "rope-w-muted-text" }, trail);
    }
    layer.replaceChildren();
    // data-vector names each arrow for the tests, which read its drawn tip back into data units.
    arrow(layer, centre, centre, px(r[0]), py(r[1]), "rot").dataset.vector = "rotated";
    arrow(layer, centre, centre, px(q[0]), py(q[1]), "q").dataset.vector = "q";
    vectorLabel(layer, ...labelAt(px, py, q), "q").dataset.vector = "q";
    vectorLabel(layer, ...labelAt(px, py, r, 0.42), "R(mθ) q").dataset.vector = "rotated";
    handle.place(px(q[0]), py(q[1]), state.angle);
    // The arc of angle mθ at radius 0.35 of the unit circle, from q's direction.
    const rad = 0.35, deg = data.angle_deg[t][m];
    const start = polar(rad, state.angle), end = rotate(start, m * theta);
    arc.setAttribute("d", m === 0 ? "" :
      `M ${px(start[0])} ${py(start[1])} A ${scale * rad} ${scale * rad} 0 ${deg > 180 ? 1 : 0} 0 ${px(end[0])} ${py(end[1])}`);
    arcLabel.textContent = `m = ${m}, θ = ${num(theta)} rad: mθ = ${num(data.angle[t][m])} rad`;
    out.angle.textContent = `${num(data.angle[t][m])} rad (${num(deg)}° mod 360°)`;
    Object.assign(out.angle.dataset, { value: data.angle[t][m], deg });
    out.q.textContent = `(${num(q[0])}, ${num(q[1])}) at ${num(state.angle)}°`;
    Object.assign(out.q.dataset, { x: q[0], y: q[1], angle: state.angle, length: state.length });
    // The rotation keeps the length: both numbers from the drawn vectors.
    const lengths = [Math.hypot(q[0], q[1]), Math.hypot(r[0], r[1])];
    out.lengths.textContent = `|q| = ${num(lengths[0])}, |R(mθ) q| = ${num(lengths[1])}`;
    Object.assign(out.lengths.dataset, { q: lengths[0], rotated: lengths[1] });
    out.rotated.textContent = `(${num(r[0])}, ${num(r[1])})`;
    Object.assign(out.rotated.dataset, { x: r[0], y: r[1] });
    const c = Math.cos(m * theta), s = Math.sin(m * theta);
    const plus = (v) => (v < 0 ? " − " : " + ") + num(Math.abs(v));
    out.complex.textContent = `(${num(q[0])}${plus(q[1])}i)(${num(c)}${plus(s)}i) = ${num(r[0])}${plus(r[1])}i`;
    Object.assign(out.complex.dataset, { cos: c, sin: s });
  }

  // Drag, keys or a preset slider: redraw, show the presets nearest, tell the kernel.
  function setVector(deg, done, length = state.length) {
    state.angle = wrapDeg(deg);
    state.length = length;
    draw();
    const nearest = (values, gap) => values.reduce((best, v, i) => (gap(v) < gap(values[best]) ? i : best), 0);
    controlsOf.q_angle.input.value = nearest(data.q_angles_deg, (a) => Math.abs(((a - state.angle + 540) % 360) - 180));
    controlsOf.q_angle.output.textContent = `${num(state.angle)}°`;
    controlsOf.length.input.value = nearest(data.lengths, (l) => Math.abs(l - state.length));
    controlsOf.length.output.textContent = num(state.length);
    let changed = false;
    for (const [trait, value] of [["q_angle", state.angle], ["q_length", state.length]]) {
      if (model.get(trait) !== value) { model.set(trait, value); changed = true; }
    }
    if (changed || done) model.save_changes();
  }
  model.on("change:q_angle", () => {
    const deg = model.get("q_angle");
    if (deg !== state.angle) setVector(deg, false);
  });
  model.on("change:q_length", () => {
    const length = model.get("q_length");
    if (length !== state.length) setVector(state.angle, false, length);
  });

  const sync = syncer(model, state, draw);
  controlsOf.position = slider(controls, { label: "position m", name: "position", values: data.positions, index: state.m, onInput: sync("m", "position") });
  // The play button comes first, as before the sliders.
  controls.insertBefore(playToEnd(controls, controlsOf.position, "play m").button, controls.firstChild);
  controlsOf.theta = slider(controls, { label: "frequency θ", name: "theta", values: data.thetas, index: state.t, format: (v) => `${v} rad`, onInput: sync("t", "theta_index") });
  controlsOf.q_angle = slider(controls, {
    label: "angle of q", name: "q_angle", values: data.q_angles_deg, index: 0, format: (v) => `${num(v)}°`,
    onInput: (i) => setVector(data.q_angles_deg[i], true),
  });
  controlsOf.q_angle.output = controlsOf.q_angle.input.parentNode.querySelector("output");
  // The length stops set q's length (the kernel's length_index sets its q_length too).
  controlsOf.length = slider(controls, {
    label: "length of q", name: "length", values: data.lengths, index: model.get("length_index"),
    onInput: (i) => { model.set("length_index", i); setVector(state.angle, true, data.lengths[i]); },
  });
  out.angle = readout(controls, "angle", "mθ =");
  out.q = readout(controls, "q", "q =");
  out.q.setAttribute("aria-live", "polite");
  out.rotated = readout(controls, "rotated", "R(mθ) q =");
  out.lengths = readout(controls, "lengths", "lengths:");
  out.complex = readout(controls, "complex", "q·e^{imθ} =");
  htmlEl("div", { class: "rope-w-hint" }, controls, "Drag the tip of q to turn it and change its length (or focus it and press the arrow keys, + or −).");
  setVector(state.angle, false);
}
export default { render };
