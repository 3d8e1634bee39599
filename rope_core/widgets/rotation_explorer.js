// Rotate q by mθ: q, R(mθ)q, the rotated axis vectors R e₀ and R e₁ (the columns of the live
// 2×2 matrix, drawn in the matrix's colours) over a faint grid of the plane turned with them,
// the arc mθ labelled in place, and the trail of earlier positions (numbered on hover, the
// closest return so far ringed). A matrix entry pointed at or focused draws its leg. The page turns q with
// cos mθ, sin mθ (drag.js's rotate); the table (angles, offsets, closest returns) is Python's.
// Under it, a second question: two positions a and b, and the one rotation R(aθ)ᵀR(bθ).
import { svgEl, htmlEl, slider, readout, typeset, setText, arrow, moveArrow, syncer, showTip as showBubble, hideTip as hideBubble, announcer, keepInReach, keepTextSize } from "./common.js";
import { dial, wrapDeg, rotate, polar, num, vectorLabel, labelAt, dragHandle, stepHandle, playToEnd, clearOfHandles } from "./drag.js";
import { lesson, question } from "./lesson.js";

// Labels placed in turn, each at its own spot or, if that is taken, the nearest free one: a
// spot is free if the label's box stays in the drawing, covers no handle and no label placed
// before it. `spots` (optional) lists a label's own candidates; otherwise rings of 6 px round
// `at` are tried. Boxes are estimated from the text (8 px a character at the drawing's text
// scale), not measured: a play frame has no time for layout; two labels keep LABEL_GAP apart.
// Returns the boxes placed.
const CHAR_WIDTH = 8, HANDLE_CLEARANCE = 15, LABEL_GAP = 4;
export function placeApart(labels, handles, { textScale = 1, size = 340 } = {}) {
  const taken = [];
  for (const { node, text, at, spots } of labels) {
    const halfWidth = (CHAR_WIDTH * textScale * [...text].length) / 2 + 2, halfHeight = 8 * textScale;
    const free = ([x, y]) => x - halfWidth >= 0 && x + halfWidth <= size && y - halfHeight >= 0 && y + halfHeight <= size
      && taken.every((b) => Math.abs(b.x - x) >= b.halfWidth + halfWidth + LABEL_GAP || Math.abs(b.y - y) >= b.halfHeight + halfHeight + LABEL_GAP)
      && handles.every(([hx, hy]) => Math.hypot(Math.max(Math.abs(hx - x) - halfWidth, 0), Math.max(Math.abs(hy - y) - halfHeight, 0)) >= HANDLE_CLEARANCE);
    const rings = function* () {
      yield at;
      for (let radius = 6; radius <= 120; radius += 6) {
        for (let k = 0; k < 16; k++) yield [at[0] + radius * Math.cos((k * Math.PI) / 8), at[1] + radius * Math.sin((k * Math.PI) / 8)];
      }
    };
    let spot = at;
    for (const candidate of spots ?? rings()) if (free(candidate)) { spot = candidate; break; }
    node.setAttribute("x", spot[0]);
    node.setAttribute("y", spot[1]);
    taken.push({ x: spot[0], y: spot[1], halfWidth, halfHeight });
  }
  return taken;
}

function render({ model, el }) {
  const data = model.get("data");
  const scale = 95;
  const { svg, controls, centre, px, py } = dial(el, {
    title: "Rotate q by mθ",
    label: "q and its rotation R(mθ)q; drag the tip of q to turn it, or the tip of R(mθ)q to move m", scale,
  });
  const root = svg.closest(".rope-w");
  lesson(root, "R(mθ) turns q by mθ and keeps its length; its columns are where it sends the axis vectors e₀ and e₁ (dashed). Drag the rotated arrow round: it snaps to the angles mθ of whole positions m. Point at an entry of the matrix to see which leg of its column's arrow it is.");
  const say = announcer(root);
  // The furthest position the reader has reached, per θ: the question is answered past its return.
  const furthest = {};
  // A faint grid of the whole plane, turned by mθ with q: the matrix moves every point, not one
  // arrow. One transform per frame turns it; the lines through the centre are R e₀'s and R e₁'s.
  const clip = `rope-w-grid-clip-${Math.random().toString(36).slice(2, 9)}`;
  svgEl("circle", { cx: centre, cy: centre, r: 1.75 * scale }, svgEl("clipPath", { id: clip }, svg));
  const gridClip = svgEl("g", { "clip-path": `url(#${clip})`, "aria-hidden": "true" }, svg);
  const grid = svgEl("g", { "data-mark": "grid" }, gridClip);
  for (let v = -1.5; v <= 1.5; v += 0.5) {
    const style = `stroke: var(--rope-w-rot); stroke-width: ${v === 0 ? 1.2 : 0.8}; opacity: ${v === 0 ? 0.4 : 0.22}`;
    svgEl("line", { x1: px(v), y1: py(-1.75), x2: px(v), y2: py(1.75), style, "data-grid": `x=${v}` }, grid);
    svgEl("line", { x1: px(-1.75), y1: py(v), x2: px(1.75), y2: py(v), style, "data-grid": `y=${v}` }, grid);
  }
  // The leg of R e₀ or R e₁ that a hovered or focused matrix entry is: its cos or its sin.
  const legLayer = svgEl("g", { "data-mark": "legs" }, svg);
  let legShown = null;   // [row, column] of the entry pointed at or focused, or null
  const axes = svgEl("g", { "data-mark": "axes" }, svg);
  const trail = svgEl("g", { "data-mark": "trail" }, svg);
  const ring = svgEl("circle", { r: 6, class: "rope-w-closest", "data-mark": "closest" }, svg);
  const ringLabel = svgEl("text", { class: "rope-w-halo rope-w-muted-text", "text-anchor": "middle", "dominant-baseline": "middle", "data-mark": "closest-label" }, svg);
  const dots = [];   // [visible dot, pointer target] per earlier position, reused across redraws
  const arc = svgEl("path", { class: "rope-w-arc" }, svg);
  const arcLabel = svgEl("text", { class: "rope-w-halo", "text-anchor": "middle", "dominant-baseline": "middle", "data-label": "arc" }, svg);
  const layer = svgEl("g", {}, svg);
  const tip = svgEl("text", { class: "rope-w-halo", "data-label": "trail", visibility: "hidden" }, svg);
  // The trail's pointer targets sit above the arrows, below the handle: one listener for all.
  const hits = svgEl("g", { "data-mark": "trail-targets" }, svg);
  const handleLayer = svgEl("g", {}, svg);
  const tipAt = (event) => {
    const j = Number(event.target.dataset.position);
    if (!Number.isInteger(j)) return;
    showTip(j, Number(event.target.getAttribute("cx")), Number(event.target.getAttribute("cy")));
    // On a phone the read-out line is a screen below: its words in a bubble by the dot.
    showBubble(event.target, out.trail);
  };
  hits.addEventListener("pointerover", tipAt);
  hits.addEventListener("pointerdown", tipAt);
  // A finger's tap ends with pointerout: its numbers stay until the next tap elsewhere.
  hits.addEventListener("pointerout", (event) => { if (event.pointerType !== "touch") hideTip(); });

  const state = { t: model.get("theta_index"), m: model.get("position"), angle: model.get("q_angle"), length: model.get("q_length") };
  const out = {};
  const controlsOf = {};
  // The rotated arrow's own handle sets m: its angle snaps to whole multiples of θ.
  // Under the trail's pointer targets: a tap on an earlier position's dot reads that dot out.
  const stepLayer = svgEl("g", {}, null);
  svg.insertBefore(stepLayer, hits);
  const positionHandle = stepHandle(svg, stepLayer, {
    name: "position", cls: "rot", cx: centre, cy: centre,
    label: "position m (drag the tip of R(mθ) q round the circle; arrow keys step m by one)",
    stepDeg: () => (data.thetas[state.t] * 180) / Math.PI, get: () => state.m, last: () => data.positions.length - 1,
    set: (m) => {
      const clamped = Math.max(0, Math.min(data.positions.length - 1, m));
      if (clamped !== state.m) controlsOf.position.set(clamped);
    },
  });
  const handle = dragHandle(svg, handleLayer, {
    name: "q", label: "direction of q (degrees; drag its tip to turn and stretch it, arrow keys turn it by 1°, shift+arrow by 10°, + and − change its length)",
    cls: "q", cx: centre, cy: centre, get: () => state.angle, length: () => state.length,
    scale, range: data.length_range, set: (deg, done, length) => setVector(deg, done, length),
  });

  // A trail dot's number, beside it, while the pointer is on it (or a finger taps it).
  // The trail read-out says where dot j is: the angle jθ (Python's), how far that is from q
  // (jθ wrapped to the nearest whole turn) and the dot's coordinates.
  const showTip = (j, x, y) => {
    tip.textContent = `m = ${j}`;
    tip.setAttribute("x", x + 8);
    tip.setAttribute("y", y - 8);
    tip.setAttribute("visibility", "visible");
    tip.dataset.position = j;
    const angle = data.angle[state.t][j], turn = 2 * Math.PI;
    const off = Math.abs(angle - turn * Math.round(angle / turn));
    const p = rotate(polar(state.length, state.angle), angle);
    out.trail.textContent = `m = ${j}: R(${j}θ) q = (${num(p[0])}, ${num(p[1])}), ${j}θ = ${num(angle)} rad, ${num(off)} rad (${num((off * 180) / Math.PI)}°) from q`;
    Object.assign(out.trail.dataset, { position: j, angle, offset: off, x: p[0], y: p[1] });
  };
  const hideTip = () => {
    tip.setAttribute("visibility", "hidden");
    hideBubble(root);
    out.trail.textContent = "point at or tap a grey trail dot for its numbers";
    for (const k of ["position", "angle", "offset", "x", "y"]) delete out.trail.dataset[k];
  };

  // The arrows and their labels are made once and moved in place: a play frame changes only
  // attributes (the redraw budget of a frame is 4 ms, most of it style and layout).
  const axisArrows = [arrow(axes, centre, centre, centre, centre, "e0 ghost-axis"), arrow(axes, centre, centre, centre, centre, "e1 ghost-axis")];
  axisArrows[0].dataset.vector = "e0";
  axisArrows[1].dataset.vector = "e1";
  const axisLabels = ["e0", "e1"].map((name, j) => {
    const label = typeset(svgEl("text", { "text-anchor": "middle", "dominant-baseline": "middle", class: `rope-w-${name}-text`, "data-vector": name }, axes), `Re_${j}`);
    return label;
  });
  const rotatedArrow = arrow(layer, centre, centre, centre, centre, "rot");
  rotatedArrow.dataset.vector = "rotated";
  const qArrow = arrow(layer, centre, centre, centre, centre, "q");
  qArrow.dataset.vector = "q";
  const qLabel = vectorLabel(layer, centre, centre, "q");
  qLabel.dataset.vector = "q";
  const rotatedLabel = vectorLabel(layer, centre, centre, "R(mθ) q");
  rotatedLabel.dataset.vector = "rotated";
  const place = (node, [x, y]) => { node.setAttribute("x", x); node.setAttribute("y", y); };
  // What the trail dots were last placed for (q and θ): a new m alone shows or hides dots.
  let trailFor = null, shownDots = 0;
  // The two-positions part (made last, drawn with every redraw: it shares q and θ).
  let two = null, stepOpened = false;

  // Entry (i, j) of R(mθ) is coordinate i of column j's arrow: R e₀ = (cos mθ, sin mθ) is the
  // walk cos mθ along x then sin mθ up; R e₁ = (−sin mθ, cos mθ) the walk −sin mθ, then cos mθ.
  // The entry's leg of that walk is drawn thick in its column's colour, with its name.
  const LEG_NAMES = [["cos mθ", "−sin mθ"], ["sin mθ", "cos mθ"]];
  function showLeg(cell) {
    legShown = cell;
    legLayer.replaceChildren();
    matrixCells.flat().forEach((td) => {
      td.style.outline = cell && td === matrixCells[cell[0]][cell[1]] ? "2px solid currentColor" : "";
    });
    if (!cell) { delete legLayer.dataset.entry; return; }
    const [i, j] = cell, angle = state.m * data.thetas[state.t];
    const c = Math.cos(angle), s = Math.sin(angle);
    const column = j === 0 ? [c, s] : [-s, c];
    const from = i === 0 ? [0, 0] : [column[0], 0], to = i === 0 ? [column[0], 0] : column;
    const colour = `var(--rope-w-e${j})`;
    svgEl("line", { x1: px(from[0]), y1: py(from[1]), x2: px(to[0]), y2: py(to[1]), "data-leg": `${i},${j}`,
      style: `stroke: ${colour}; stroke-width: 5; stroke-linecap: round; opacity: 0.85` }, legLayer);
    // The other leg of the same walk, thin, so that the two legs and the arrow close a triangle.
    const other = i === 0 ? [[column[0], 0], column] : [[0, 0], [column[0], 0]];
    svgEl("line", { x1: px(other[0][0]), y1: py(other[0][1]), x2: px(other[1][0]), y2: py(other[1][1]),
      class: "rope-w-outline", style: "stroke-dasharray: 2 3" }, legLayer);
    // The name beside the middle of the leg, on the side away from the arrow, clear of the handles.
    const mid = [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2];
    const away = i === 0 ? [0, column[1] > 0 ? -0.13 : 0.13] : [column[0] > 0 ? 0.3 : -0.3, 0];
    const q = polar(state.length, state.angle), r = rotate(q, angle);
    const tips = [[px(q[0]), py(q[1])], [px(r[0]), py(r[1])]];
    // Of a few spots beside the leg (either side, then further out), the first that covers no
    // handle and no other label; the labels are measured only while an entry is shown.
    const others = [qLabel, rotatedLabel, arcLabel, ringLabel, ...axisLabels].filter((node) => node.textContent && node.style.display !== "none")
      .map((node) => node.getBBox());
    const halfWidth = 4 * LEG_NAMES[i][j].length + 3, halfHeight = 9;
    // Nor the column's own arrow, nor q's, nor R(mθ)q's (points along each).
    const along = [column, q, r].flatMap((v) => [0.2, 0.4, 0.6, 0.8, 1].map((f) => [px(f * v[0]), py(f * v[1])]));
    const covers = (x, y, [ax, ay]) => Math.abs(ax - x) < halfWidth && Math.abs(ay - y) < halfHeight;
    const clear = ([x, y]) => others.every((b) => x + halfWidth < b.x || x - halfWidth > b.x + b.width || y + halfHeight < b.y || y - halfHeight > b.y + b.height)
      && !along.some((point) => covers(x, y, point)) && clearOfHandles(x, y, LEG_NAMES[i][j], tips)[0] === x
      && x - halfWidth >= 0 && x + halfWidth <= 340 && y - halfHeight >= 0 && y + halfHeight <= 340;
    const aside = [away, [away[1] * 2.3, away[0] / 2.3]];   // beside the leg, or across it
    const spots = aside.flatMap((a) => [1, -1, 2, -2, 3, -3].map((k) => [px(mid[0] + k * a[0]), py(mid[1] + k * a[1])]));
    const [x, y] = spots.find(clear) ?? clearOfHandles(...spots[0], LEG_NAMES[i][j], tips);
    const label = svgEl("text", { x, y, "text-anchor": "middle", "dominant-baseline": "middle",
      class: `rope-w-halo rope-w-e${j}-text`, "data-leg-label": `${i},${j}` }, legLayer);
    label.textContent = LEG_NAMES[i][j];
    Object.assign(legLayer.dataset, { entry: `${i},${j}`, value: i === 0 ? column[0] : column[1] });
  }

  function draw() {
    const { t, m } = state;
    const theta = data.thetas[t];
    const q = polar(state.length, state.angle);
    const r = rotate(q, m * theta);          // R(mθ) q, computed here for continuous q
    const c = Math.cos(m * theta), s = Math.sin(m * theta);   // the same turn as r
    // R e₀ = (cos, sin) and R e₁ = (−sin, cos): the matrix's columns, dashed, unit length.
    // SVG's rotate turns clockwise on the screen (y points down): −mθ turns the plane by +mθ.
    grid.setAttribute("transform", `rotate(${-data.angle_deg[t][m]} ${centre} ${centre})`);
    grid.dataset.angle = data.angle_deg[t][m];
    showLeg(legShown);
    moveArrow(axisArrows[0], centre, centre, px(c), py(s));
    moveArrow(axisArrows[1], centre, centre, px(-s), py(c));
    place(axisLabels[0], [px(1.14 * c), py(1.14 * s)]);
    place(axisLabels[1], [px(-1.14 * s), py(1.14 * c)]);

    // The trail R(jθ)q, j < m: a visible dot and a 9-unit target for the pointer per position,
    // placed again only when q or θ changed; the closest return past half a turn (j ≤ m)
    // ringed and numbered.
    // The closest return so far: the last change of it at or before m (Python's list).
    let best = -1, bestOffset = null;
    for (const [j, offset] of data.returns[t]) if (j <= m) { best = j; bestOffset = offset; }
    while (dots.length < m) {
      const j = dots.length;
      dots.push([svgEl("circle", { r: 2.2, class: "rope-w-muted-text", "data-position": j }, trail),
                 svgEl("circle", { r: 9, class: "rope-w-hit-dot", "data-position": j }, hits)]);
      trailFor = null;
    }
    const key = `${t},${state.angle},${state.length}`;
    if (key !== trailFor) {
      trailFor = key;
      shownDots = -1;
      dots.forEach(([dot, hit], j) => {
        const p = rotate(q, j * theta);
        for (const node of [dot, hit]) { node.setAttribute("cx", px(p[0])); node.setAttribute("cy", py(p[1])); }
      });
    }
    if (shownDots !== m) {
      dots.forEach(([dot, hit], j) => {
        const display = j < m ? "" : "none";
        if (dot.style.display !== display) dot.style.display = hit.style.display = display;
      });
      shownDots = m;
    }
    ring.style.display = ringLabel.style.display = best >= 0 ? "" : "none";
    // The ringed return's number goes outside the trail's circle, beside its ring: inside it
    // would crowd q's tip, which the return is close to by definition.
    let ringSpots = [];
    if (best >= 0) {
      const p = rotate(q, best * theta), direction = Math.atan2(p[1], p[0]);
      Object.assign(ring.dataset, { position: best });
      ring.setAttribute("cx", px(p[0]));
      ring.setAttribute("cy", py(p[1]));
      setText(ringLabel, String(best));
      const outside = [18, 30, 42].flatMap((gap) => [0, 1, -1, 2, -2, 3, -3, 4, -4, 6, -6, 8, -8].map((k) => {
        const a = direction + k * 0.07, radius = scale * state.length + gap;
        return [centre + radius * Math.cos(a), centre - radius * Math.sin(a)];
      }));
      // A long q leaves no room outside near the edge: then just inside the circle.
      const inside = [0, 1, -1, 2, -2, 3, -3].map((k) => {
        const a = direction + k * 0.1, radius = scale * state.length - 18;
        return [centre + radius * Math.cos(a), centre - radius * Math.sin(a)];
      });
      ringSpots = [...outside, ...inside];
    }
    // data-vector names each arrow for the tests, which read its drawn tip back into data units.
    moveArrow(rotatedArrow, centre, centre, px(r[0]), py(r[1]));
    moveArrow(qArrow, centre, centre, px(q[0]), py(q[1]));
    // Each arrow is a named picture for a screen reader.
    const names = [[qArrow, `q, at ${num(state.angle)}°`], [rotatedArrow, `R(mθ) q, q turned by mθ = ${num(m * theta)} rad`],
      [axisArrows[0], "R e₀, the first column of R(mθ) (dashed)"], [axisArrows[1], "R e₁, the second column of R(mθ) (dashed)"]];
    for (const [group, label] of names) {
      group.setAttribute("role", "img");
      if (group.getAttribute("aria-label") !== label) group.setAttribute("aria-label", label);
    }
    // No label under either handle (the tips of q and R(mθ) q).
    const tips = [[px(q[0]), py(q[1])], [px(r[0]), py(r[1])]];
    handle.place(px(q[0]), py(q[1]), state.angle);
    positionHandle.place(px(r[0]), py(r[1]), m, `m = ${m}, mθ = ${num(data.angle[t][m])} rad`);
    // The arc of angle mθ at radius 0.35 of the unit circle, from q's direction, labelled "mθ"
    // in place at radius 0.55 halfway along it (for more than a turn, halfway along its last turn).
    const rad = 0.35, deg = data.angle_deg[t][m];
    const start = polar(rad, state.angle), end = rotate(start, m * theta);
    arc.setAttribute("d", m === 0 ? "" :
      `M ${px(start[0])} ${py(start[1])} A ${scale * rad} ${scale * rad} 0 ${deg > 180 ? 1 : 0} 0 ${px(end[0])} ${py(end[1])}`);
    const middle = rotate(polar(0.55, state.angle), (deg * Math.PI) / 360);
    setText(arcLabel, m === 0 ? "" : "mθ");
    // Every label clear of the handles and of each other, the arrows' names first.
    const textScale = Number(svg.style.getPropertyValue("--rope-w-scale")) || 1;
    placeApart([
      { node: qLabel, text: "q", at: labelAt(px, py, q, 0.28, "q") },
      { node: rotatedLabel, text: "R(mθ) q", at: labelAt(px, py, r, 0.3, "R(mθ) q") },
      ...(best >= 0 ? [{ node: ringLabel, text: String(best), at: ringSpots[0], spots: ringSpots }] : []),
      { node: axisLabels[0], text: "Re0", at: [px(1.14 * c), py(1.14 * s)] },
      { node: axisLabels[1], text: "Re1", at: [px(-1.14 * s), py(1.14 * c)] },
      ...(m === 0 ? [] : [{ node: arcLabel, text: "mθ", at: [px(middle[0]), py(middle[1])] }]),
    ], tips, { textScale });

    setText(out.angle, `${num(data.angle[t][m])} rad (${num(deg)}° mod 360°)`);
    Object.assign(out.angle.dataset, { value: data.angle[t][m], deg });
    setText(out.q, `(${num(q[0])}, ${num(q[1])}) at ${num(state.angle)}°`);
    Object.assign(out.q.dataset, { x: q[0], y: q[1], angle: state.angle, length: state.length });
    // The rotation keeps the length: both numbers from the drawn vectors.
    const lengths = [Math.hypot(q[0], q[1]), Math.hypot(r[0], r[1])];
    setText(out.lengths, `|q| = ${num(lengths[0])}, |R(mθ) q| = ${num(lengths[1])}`);
    Object.assign(out.lengths.dataset, { q: lengths[0], rotated: lengths[1] });
    setText(out.rotated, `(${num(r[0])}, ${num(r[1])})`);
    Object.assign(out.rotated.dataset, { x: r[0], y: r[1] });
    const plus = (v) => (v < 0 ? " − " : " + ") + num(Math.abs(v));
    setText(out.complex, `(${num(q[0])}${plus(q[1])}i)(${num(c)}${plus(s)}i) = ${num(r[0])}${plus(r[1])}i`);
    Object.assign(out.complex.dataset, { cos: c, sin: s });
    // The live matrix: column 0 is R e₀, column 1 is R e₁, in their arrows' colours.
    [[c, -s], [s, c]].forEach((row, i) => row.forEach((v, j) => {
      setText(matrixCells[i][j], num(v));
      matrixCells[i][j].dataset.value = v;
      matrixCells[i][j].setAttribute("aria-label", `row ${i + 1}, column ${j + 1}: ${LEG_NAMES[i][j]} = ${num(v)}, the ${i === 0 ? "x" : "y"} part of R e${j === 0 ? "₀" : "₁"}`);
    }));
    if (best >= 0) {
      setText(out.closest, `m = ${best}, ${num(bestOffset)} rad (${num((bestOffset * 180) / Math.PI)}°) from q`);
    } else {
      setText(out.closest, "not past half a turn yet");
    }
    Object.assign(out.closest.dataset, { position: best, offset: best >= 0 ? bestOffset : "" });
    furthest[t] = Math.max(furthest[t] ?? -1, m);
    if (ask.predicted()) say(best >= 0 ? `m = ${m}; closest return so far m = ${best}, ${num(bestOffset)} rad from q` : `m = ${m}; not past half a turn yet`);
    ask.refresh();
    // The first answer shown opens step 2, once: a reader who folds it again keeps it folded.
    if (two && ask.revealed() && !stepOpened) { stepOpened = true; two.open(); }
    if (two) two.draw();
  }

  // Drag or keys: redraw, tell the kernel.
  function setVector(deg, done, length = state.length) {
    state.angle = wrapDeg(deg);
    state.length = length;
    draw();
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
  keepInReach(controlsOf.position);
  controlsOf.theta = slider(controls, { label: "frequency θ", name: "theta", values: data.thetas, index: state.t, format: (v) => `${v} rad`, onInput: sync("t", "theta_index") });
  // The matrix R(mθ), live, its columns coloured like R e₀ and R e₁. Pointing at an entry (or
  // focusing it, or tapping it) draws the leg of its column's arrow that the entry is.
  const matrixRow = htmlEl("div", { class: "rope-w-readout rope-w-matrix-row" }, controls);
  typeset(htmlEl("span", { class: "rope-w-readout-label" }, matrixRow), "R(mθ) =");
  const matrix = htmlEl("table", { class: "rope-w-matrix", "data-readout": "matrix", "aria-label": "the rotation matrix R(mθ); focus an entry to see it in the drawing" }, matrixRow);
  const matrixCells = [0, 1].map((i) => {
    const tr = htmlEl("tr", {}, matrix);
    return [0, 1].map((j) => {
      const cell = htmlEl("td", { class: `rope-w-col${j}`, "data-col": j, "data-row": i, tabindex: 0 }, tr);
      cell.addEventListener("mouseenter", () => showLeg([i, j]));
      cell.addEventListener("focus", () => showLeg([i, j]));
      cell.addEventListener("pointerdown", () => showLeg([i, j]));
      cell.addEventListener("mouseleave", () => { if (document.activeElement !== cell) showLeg(null); });
      cell.addEventListener("blur", () => showLeg(null));
      return cell;
    });
  });
  out.angle = readout(controls, "angle", "mθ =");
  // What the question needs stays in view (and is said); the rest of the numbers fold away,
  // so that the drawing, m and the question read as one thing.
  out.closest = readout(controls, "closest", "closest return so far (past half a turn):");
  const numbers = htmlEl("details", { class: "rope-w-rot-numbers", "data-part": "numbers" }, null);
  typeset(htmlEl("summary", {}, numbers), "numbers: q, R(mθ) q, lengths, q·e^{imθ}, trail");
  out.q = readout(numbers, "q", "q =");
  out.rotated = readout(numbers, "rotated", "R(mθ) q =");
  out.lengths = readout(numbers, "lengths", "lengths:");
  out.complex = readout(numbers, "complex", "q·e^{imθ} =");
  out.trail = readout(numbers, "trail", "trail:");
  out.trail.setAttribute("aria-live", "polite");
  out.trail.textContent = "point at or tap a grey trail dot for its numbers";
  const ask = question(controls, {
    prompt: "After about 2π/θ positions the arrow has gone once round. Is it first back within 0.1 rad (6°) of q at the whole number nearest 2π/θ?",
    // Answered once the reader has taken m past that whole number and past the first return.
    reached: () => {
      const t = state.t, near = data.nearest_turn[t], first = data.first_return[t], end = data.positions.length - 1;
      return furthest[t] >= Math.min(end, Math.max(near, first ?? end));
    },
    task: "drag the tip of R(mθ) q round (or move m, or press play) past 2π/θ, and watch the ringed closest return.",
    conceal: [ring, ringLabel, out.closest.parentNode],
    choices: [{ label: "yes, always" }, { label: "no, not always", correct: true }],
    explain: () => {
      const t = state.t, theta = data.thetas[t], near = data.nearest_turn[t], first = data.first_return[t];
      const nearText = data.nearest_turn_offset[t] === null ? `${near} is past the slider` : `${near} is ${num(data.nearest_turn_offset[t])} rad away`;
      const firstText = first === null ? "no position on the slider is" : `the first within 0.1 rad is m = ${first} (${num(data.first_return_offset[t])} rad)`;
      return `For θ = ${theta} rad, 2π/θ = ${num((2 * Math.PI) / theta)}: ${nearText}; ${firstText}. Try the other θ: one step of θ rarely lands exactly back on q.`;
    },
  });
  controls.appendChild(numbers);
  htmlEl("div", { class: "rope-w-hint" }, controls, "Drag the tip of q to turn it and change its length (or focus it and press the arrow keys, + or −). Point at a trail dot for its position.");
  two = twoPositions(root, model, data, { theta: () => data.thetas[state.t], q: () => polar(state.length, state.angle) });
  setVector(state.angle, false);
}
// The second question, under the first: what RoPE does with two positions. A query at position
// a is turned by aθ, a key at b by bθ, and the score (R(aθ)q)ᵀ(R(bθ)k) = qᵀ R(aθ)ᵀR(bθ) k has
// one matrix between them. Both arrows start from the same q, so the angle from R(aθ)q to
// R(bθ)q is the angle that product turns by. The reader drags either tip (a or b alone) or
// the grip on the arc between them (both by the same number of positions). The page multiplies
// the two 2×2 matrices itself; the browser tests check the product against rope_core.
function twoPositions(root, model, data, shared) {
  // A second step with its own heading, folded until the first question's answer shows (the
  // reader may open it sooner): one question on screen at a time.
  const step = htmlEl("details", { class: "rope-w-rot-step", "data-part": "step-2" }, root);
  htmlEl("summary", {}, step, "Step 2 · two positions, one matrix");
  const section = htmlEl("div", { class: "rope-w-section", "data-part": "two-positions" }, step);
  // Its own lesson line, feedback and answers carry their own names (data-part-lesson,
  // two-feedback, data-choice): the first question's stay the widget's only ones.
  typeset(htmlEl("p", { class: "rope-w-lesson", "data-part-lesson": "" }, section),
    "Attention turns the query at position a by aθ and the key at position b by bθ, so its score is (R(aθ)q)ᵀ(R(bθ)k) = qᵀ R(aθ)ᵀR(bθ) k: one matrix between q and k. "
    + "To show the turn that matrix makes, both arrows here start from the same q: R(aθ)q and R(bθ)q.");
  const body = htmlEl("div", { class: "rope-w-body" }, section);
  const size = 340, centre = size / 2, scale = 95;
  const px = (x) => centre + scale * x, py = (y) => centre - scale * y;
  const svg = svgEl("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, role: "group", class: "rope-w-svg",
    "data-plot": "two-positions", "aria-label": "R(aθ)q and R(bθ)q; drag either tip to move a or b, or the grip between them to move both" }, body);
  keepTextSize(svg);
  const controls = htmlEl("div", { class: "rope-w-controls" }, body);
  svgEl("circle", { cx: centre, cy: centre, r: scale, class: "rope-w-axis" }, svg);
  svgEl("line", { x1: 10, y1: centre, x2: size - 10, y2: centre, class: "rope-w-axis" }, svg);
  svgEl("line", { x1: centre, y1: 10, x2: centre, y2: size - 10, class: "rope-w-axis" }, svg);
  const arc = svgEl("path", { class: "rope-w-arc", "data-mark": "between" }, svg);
  const arcLabel = svgEl("text", { class: "rope-w-halo", "text-anchor": "middle", "dominant-baseline": "middle", "data-label": "between" }, svg);
  // A key at the drawing's foot says what the grip between the arrows does (its aria-label says
  // it to a screen reader); a label beside the grip would cross an arrow when they are close.
  const key = svgEl("g", { class: "rot", "data-legend": "both", "aria-hidden": "true" }, svg);
  svgEl("circle", { cx: 16, cy: size - 14, r: 6, class: "rope-w-knob" }, key);
  svgEl("text", { x: 28, y: size - 14, "dominant-baseline": "middle", class: "rope-w-muted-text rope-w-halo" }, key).textContent = "moves a and b together";
  const keyClear = [16, 56, 96, 136].map((x) => [x, size - 14]);   // labels keep off the key
  const layer = svgEl("g", {}, svg);
  const arrows = { a: arrow(layer, centre, centre, centre, centre, "q"), b: arrow(layer, centre, centre, centre, centre, "k") };
  arrows.a.dataset.vector = "a";
  arrows.b.dataset.vector = "b";
  const labels = { a: vectorLabel(layer, centre, centre, "R(aθ) q"), b: vectorLabel(layer, centre, centre, "R(bθ) q") };
  const handles = svgEl("g", {}, svg);
  const last = data.positions.length - 1;
  const state = { a: model.get("a_position"), b: model.get("b_position") };
  const seen = new Set();   // "a b" pairs drawn since the prediction: the answer needs two with one b − a
  const stepDeg = () => (shared.theta() * 180) / Math.PI;
  const clamp = (m) => Math.max(0, Math.min(last, m));
  const controlsOf = {};
  const grips = {};
  for (const name of ["a", "b"]) {
    grips[name] = stepHandle(svg, handles, {
      name: `position-${name}`, cls: name === "a" ? "q" : "k", cx: centre, cy: centre,
      label: `position ${name} (drag the tip of R(${name}θ) q round the circle; arrow keys step ${name} by one)`,
      stepDeg, get: () => state[name], last: () => last,
      set: (m) => { const v = clamp(m); if (v !== state[name]) controlsOf[name].set(v); },
    });
  }
  // The grip between the arrows moves a and b together: it sits on the arc, halfway.
  grips.both = stepHandle(svg, handles, {
    name: "both", cls: "rot", cx: centre, cy: centre,
    label: "both positions (drag the grip between the arrows to move a and b by the same number; arrow keys by one)",
    stepDeg, get: () => state.a, last: () => last,
    set: (m) => shiftBoth(m - state.a),
  });
  function shiftBoth(delta) {
    // Both stay on the slider: the shift is clamped so that neither leaves it.
    const d = Math.max(-Math.min(state.a, state.b), Math.min(delta, last - Math.max(state.a, state.b)));
    if (d === 0) return;
    state.a += d;
    state.b += d;
    controlsOf.a.input.value = state.a;
    controlsOf.b.input.value = state.b;
    for (const name of ["a", "b"]) {
      controlsOf[name].input.setAttribute("aria-valuetext", String(state[name]));
      controlsOf[name].output.textContent = String(state[name]);
      model.set(`${name}_position`, state[name]);
    }
    model.save_changes();
    draw();
  }
  const onPosition = (name) => (m) => {
    state[name] = m;
    model.set(`${name}_position`, m);
    model.save_changes();
    draw();
  };
  controlsOf.a = slider(controls, { label: "position a (query)", name: "a_position", values: data.positions, index: state.a, onInput: onPosition("a") });
  controlsOf.b = slider(controls, { label: "position b (key)", name: "b_position", values: data.positions, index: state.b, onInput: onPosition("b") });
  for (const name of ["a", "b"]) {
    model.on(`change:${name}_position`, () => {
      const m = model.get(`${name}_position`);
      if (m !== state[name]) controlsOf[name].set(m);
    });
  }
  const matrixRow = htmlEl("div", { class: "rope-w-readout rope-w-matrix-row" }, controls);
  typeset(htmlEl("span", { class: "rope-w-readout-label" }, matrixRow), "R(aθ)ᵀR(bθ) =");
  const matrix = htmlEl("table", { class: "rope-w-matrix", "data-readout": "product", "aria-label": "the product R(aθ)ᵀR(bθ)" }, matrixRow);
  const cells = [0, 1].map((i) => {
    const tr = htmlEl("tr", {}, matrix);
    return [0, 1].map((j) => htmlEl("td", { class: `rope-w-col${j}`, "data-row": i, "data-col": j }, tr));
  });
  const between = readout(controls, "between", "from R(aθ)q to R(bθ)q:");
  const ask = question(controls, {
    prompt: "By what angle does R(aθ)ᵀR(bθ), the matrix between q and k, turn?",
    choices: [{ label: "(a + b)θ" }, { label: "(b − a)θ", correct: true }, { label: "bθ: a does not matter" }],
    // Answered once two pairs with the same b − a and different a have been drawn.
    reached: () => {
      const byGap = new Map();
      for (const key of seen) {
        const [a, b] = key.split(" ").map(Number);
        byGap.set(b - a, (byGap.get(b - a) ?? 0) + 1);
      }
      return [...byGap.values()].some((n) => n > 1);
    },
    task: "drag the grip between the arrows to move a and b together (or move one slider, then the other by as much), and watch the angle between the arrows.",
    // What gives the answer away is hidden here (not by the question's own data-concealed,
    // which names the first question's hidden parts), until the prediction.
    explain: () => {
      const gap = state.b - state.a, angle = gap * shared.theta();
      return `At a = ${state.a}, b = ${state.b} the arrows are (b − a)θ = ${gap} × ${shared.theta()} = ${num(angle)} rad apart, and they stay so while both move together: `
        + "R(aθ)ᵀR(bθ) = R(−aθ)R(bθ) = R((b − a)θ). The score sees only b − a, the relative position.";
    },
  });

  ask.node.querySelector('[data-readout="feedback"]').dataset.readout = "two-feedback";
  for (const button of ask.buttons) {
    button.dataset.choice = button.dataset.answer;
    button.removeAttribute("data-answer");
  }

  function draw() {
    const theta = shared.theta(), q = shared.q();
    const ra = rotate(q, state.a * theta), rb = rotate(q, state.b * theta);
    moveArrow(arrows.a, centre, centre, px(ra[0]), py(ra[1]));
    moveArrow(arrows.b, centre, centre, px(rb[0]), py(rb[1]));
    const tips = [[px(ra[0]), py(ra[1])], [px(rb[0]), py(rb[1])]];
    // R(aθ)ᵀ R(bθ), multiplied out entry by entry (not from the answer's formula).
    const ca = Math.cos(state.a * theta), sa = Math.sin(state.a * theta), cb = Math.cos(state.b * theta), sb = Math.sin(state.b * theta);
    const at = [[ca, sa], [-sa, ca]], rbm = [[cb, -sb], [sb, cb]];
    const product = [0, 1].map((i) => [0, 1].map((j) => at[i][0] * rbm[0][j] + at[i][1] * rbm[1][j]));
    product.forEach((row, i) => row.forEach((v, j) => { setText(cells[i][j], num(v)); cells[i][j].dataset.value = v; }));
    // The angle from R(aθ)q to R(bθ)q, read off the drawn vectors, in (−π, π].
    const turned = Math.atan2(ra[0] * rb[1] - ra[1] * rb[0], ra[0] * rb[0] + ra[1] * rb[1]);
    const gap = state.b - state.a, expected = gap * theta;
    setText(between, `${num(turned)} rad; (b − a)θ = ${gap} × ${theta} = ${num(expected)} rad${Math.abs(expected) > Math.PI ? " (the same direction, whole turns apart)" : ""}`);
    Object.assign(between.dataset, { angle: turned, gap, expected });
    // The arc from R(aθ)q to R(bθ)q at radius 0.4, the short way round; its grip halfway.
    const rad = 0.4, start = rotate([rad, 0], Math.atan2(ra[1], ra[0])), end = rotate(start, turned);
    arc.setAttribute("d", Math.abs(turned) < 1e-9 ? "" :
      `M ${px(start[0])} ${py(start[1])} A ${scale * rad} ${scale * rad} 0 0 ${turned > 0 ? 0 : 1} ${px(end[0])} ${py(end[1])}`);
    const middle = rotate(start, turned / 2), labelSpot = rotate(rotate([0.62, 0], Math.atan2(ra[1], ra[0])), turned / 2);
    setText(arcLabel, "(b − a)θ");
    const grip = [px(middle[0]), py(middle[1])];
    placeApart([
      { node: labels.a, text: "R(aθ) q", at: labelAt(px, py, ra, 0.3, "R(aθ) q") },
      { node: labels.b, text: "R(bθ) q", at: labelAt(px, py, rb, 0.3, "R(bθ) q") },
      { node: arcLabel, text: "(b − a)θ", at: [px(labelSpot[0]), py(labelSpot[1])] },
    ], [...tips, grip, ...keyClear], { textScale: Number(svg.style.getPropertyValue("--rope-w-scale")) || 1 });
    grips.a.place(...tips[0], state.a, `a = ${state.a}`);
    grips.b.place(...tips[1], state.b, `b = ${state.b}`);
    grips.both.place(...grip, state.a, `a = ${state.a}, b = ${state.b}, b − a = ${gap}`);
    arrows.a.setAttribute("role", "img");
    arrows.a.setAttribute("aria-label", `R(aθ) q, q turned by aθ = ${num(state.a * theta)} rad`);
    arrows.b.setAttribute("role", "img");
    arrows.b.setAttribute("aria-label", `R(bθ) q, q turned by bθ = ${num(state.b * theta)} rad`);
    if (ask.predicted()) seen.add(`${state.a} ${state.b}`);
    for (const node of [arcLabel, matrixRow, between.parentNode]) node.style.visibility = ask.predicted() ? "" : "hidden";
    ask.refresh();
  }
  // The seen pairs count from the prediction on: the one drawn then is the first.
  ask.buttons.forEach((button) => button.addEventListener("click", () => { seen.add(`${state.a} ${state.b}`); draw(); }));
  draw();
  return { draw, open: () => { step.open = true; } };
}

export default { render };
