import { svgEl, htmlEl, slider, readout, arrow, syncer } from "./common.js";
import { dial, wrapDeg, rotate, polar, num, vectorLabel, labelAt, dragHandle, playToEnd } from "./drag.js";

function render({ model, el }) {
  const data = model.get("data");
  const scale = 120;
  const { svg, controls, centre, px, py } = dial(el, {
    title: "Shift both positions: the score does not move",
    label: "R(m+s)q and R(n+s)k; drag either tip to turn q or k", scale,
  });
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
  // The handles sit on the rotated tips: dragging R(m+s)q by Δ turns q by Δ, and moving it
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

  function numbers() {
    const pm = state.m + state.s, pn = state.n + state.s;
    const q = polar(state.qLength, state.q), k = polar(state.kLength, state.k);
    const rq = rotate(q, pm * theta), rk = rotate(k, pn * theta);
    // The same pair moved so that the earlier position is 0: R(0)q, R(n−m)k (or R(m−n)q, R(0)k).
    const [a, b] = state.n >= state.m ? [0, state.n - state.m] : [state.m - state.n, 0];
    const ra = rotate(q, a * theta), rb = rotate(k, b * theta);
    return { pm, pn, rq, rk, score: rq[0] * rk[0] + rq[1] * rk[1], reference: ra[0] * rb[0] + ra[1] * rb[1] };
  }

  function draw() {
    const { pm, pn, rq, rk, score, reference } = numbers();
    layer.replaceChildren();
    const q = polar(state.qLength, state.q), k = polar(state.kLength, state.k);
    // data-vector names each arrow for the tests, which read its drawn tip back into data units.
    arrow(layer, centre, centre, px(q[0]), py(q[1]), "ghost").dataset.vector = "q";
    arrow(layer, centre, centre, px(k[0]), py(k[1]), "ghost").dataset.vector = "k";
    arrow(layer, centre, centre, px(rq[0]), py(rq[1]), "q").dataset.vector = "rotated_q";
    arrow(layer, centre, centre, px(rk[0]), py(rk[1]), "k").dataset.vector = "rotated_k";
    vectorLabel(layer, ...labelAt(px, py, rq, 0.3), `R_{${pm}} q`).dataset.vector = "rotated_q";
    vectorLabel(layer, ...labelAt(px, py, rk, 0.3), `R_{${pn}} k`).dataset.vector = "rotated_k";
    handles.q.place(px(rq[0]), py(rq[1]), state.q);
    handles.k.place(px(rk[0]), py(rk[1]), state.k);
    out.positions.textContent = `m + s = ${pm}, n + s = ${pn}, n − m = ${state.n - state.m}`;
    out.vectors.textContent = `q at ${num(state.q)}°, k at ${num(state.k)}°, angle between them ${num(wrapDeg(state.k - state.q + degOf((pn - pm) * theta)))}°`;
    Object.assign(out.vectors.dataset, { q: state.q, k: state.k, qx: rq[0], qy: rq[1], kx: rk[0], ky: rk[1] });
    // The lengths, read off the rotated vectors (the rotation keeps them; the score scales with both).
    const lengths = [Math.hypot(rq[0], rq[1]), Math.hypot(rk[0], rk[1])];
    out.lengths.textContent = `|q| = ${num(lengths[0])}, |k| = ${num(lengths[1])}, |q||k| = ${num(lengths[0] * lengths[1])}`;
    Object.assign(out.lengths.dataset, { q: lengths[0], k: lengths[1] });
    out.score.textContent = num(score);
    out.score.dataset.value = score;
    out.reference.textContent = num(reference);
    out.reference.dataset.value = reference;
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
  controlsOf.m = slider(controls, { label: "query position m", name: "m", values: positions, index: state.m, onInput: sync("m", "m") });
  controlsOf.n = slider(controls, { label: "key position n", name: "n", values: positions, index: state.n, onInput: sync("n", "n") });
  controlsOf.shift = slider(controls, { label: "shift both by s", name: "shift", values: positions, index: state.s, onInput: sync("s", "shift") });
  controls.insertBefore(playToEnd(controls, controlsOf.shift, "play s").button, controls.firstChild);
  out.positions = readout(controls, "positions", "");
  out.vectors = readout(controls, "vectors", "");
  out.vectors.setAttribute("aria-live", "polite");
  out.lengths = readout(controls, "lengths", "");
  out.score = readout(controls, "score", "⟨R_{m+s}q, R_{n+s}k⟩ =");
  out.reference = readout(controls, "reference", "same offset, earlier position at 0 =");
  htmlEl("div", { class: "rope-w-hint" }, controls, "Drag the tip of q or k to turn it or change its length (or focus it and press the arrow keys, + or −); play moves s.");
  draw();
}
export default { render };
