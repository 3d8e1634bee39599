// A KV cache of rotated keys through prefill, decode, eviction and re-rotation. Each slot is a
// dial: the solid hand is pair 0's rotation as cached, the dashed hand the rotation a fresh key
// would have at the token's current position. Python computed every number
// (rope_core.demos.kv_cache); this module only draws them.
import { announcer, fmt3, frame, hoverable, htmlEl, keepInReach, readout, setText, slider, svgEl, syncer } from "./common.js";
import { question } from "./lesson.js";

const WIDTH = 388, HEIGHT = 150;
const SLOT = 40, LEFT = 64, TOP = 8, RADIUS = 15;

function render({ model, el }) {
  const data = model.get("data");
  const state = { stage: model.get("stage"), rerotate_index: model.get("rerotate_index") };
  const { root, svg, controls } = frame(el, { title: "A KV cache, event by event", width: WIDTH, height: HEIGHT });
  root.dataset.widget = "kv-cache-timeline";
  const evictAt = data.tracks[0].findIndex((s) => s.event === "evict");
  // No mode is chosen until the reader picks one: up to the eviction both tracks are the same
  // cache; past it, an unchosen mode shows the cache as the eviction left it and asks.
  let modeChosen = false;
  const pending = (i) => !modeChosen && i > evictAt;
  const stageAt = (i) => (pending(i) ? data.tracks[0][evictAt] : data.tracks[state.rerotate_index][i]);
  // Unchosen means unanswered: the buttons that choose a mode are hidden until the prediction
  // (they would name two of the question's answers), and the answer chooses one. So past the
  // eviction the cache only asks.
  const labelAt = (i) => (pending(i) ? "the kept keys: what must the cache do with them? (the question above)" : stageAt(i).label);
  // The error a mode leaves at its worst event after the choice takes effect (the eviction's
  // own event comes before any rotation, so it is the same in both modes and stays out).
  const worstAfterChoice = (track) => data.tracks[track].slice(evictAt + 1)
    .reduce((best, s, k) => (s.error > best.error ? { error: s.error, event: evictAt + 2 + k } : best),
      { error: -Infinity, event: evictAt + 2 });
  const rotated = worstAfterChoice(0), leftAlone = worstAfterChoice(1);

  // The question first: what must happen to the kept keys after renumbering? Every number the
  // answer states is one the widget draws at the event it names, in the mode it names.
  const row = htmlEl("div", { class: "rope-w-choices", role: "group", "aria-label": "after renumbering" });
  const ask = question(htmlEl("div"), {
    conceal: [row],
    prompt: `The cache is full: it drops its ${data.evict} oldest tokens and renumbers the rest from 0, so positions `
      + "stay inside the trained range. What must it do to the keys it keeps?",
    choices: [
      { label: "nothing: a cached key is final" },
      { label: `rotate each once more, by −${data.evict}`, correct: true },
      { label: "recompute each from its token" },
    ],
    explain: () => `At event ${evictAt + 1}, the eviction, the kept keys are still rotated for their old positions: `
      + `the next query's scores qᵀk/√d are off by up to ${fmt3(data.tracks[0][evictAt].error)}. Left alone they stay wrong `
      + `(up to ${fmt3(leftAlone.error)}, at event ${leftAlone.event}); rotated once by −${data.evict}, the error is `
      + (rotated.error === 0 ? `0 at every event from ${evictAt + 2} on` : `at most ${fmt3(rotated.error)}`)
      + `: R(−${data.evict}) R(n) k = R(n − ${data.evict}) k, the key a fresh pass gives. Recomputing would need each `
      + "token's input to the layer, which the cache does not keep.",
  });
  root.insertBefore(ask.node, root.querySelector(".rope-w-body"));
  const stageLine = htmlEl("p", { class: "rope-w-stage", "data-readout": "stage" });
  root.insertBefore(stageLine, root.querySelector(".rope-w-body"));

  // Row names on the left; one column per slot of the cache.
  const rows = { token: TOP + 16, dial: TOP + 42, cached: TOP + 84, now: TOP + 106 };
  const rowNames = { token: "token", dial: "pair 0", cached: "cached", now: "now" };
  for (const [row, yRow] of Object.entries(rows)) {
    svgEl("text", { x: LEFT - 6, y: yRow + (row === "dial" ? 4 : 0), "text-anchor": "end", class: "rope-w-muted-text" }, svg).textContent = rowNames[row];
  }
  const slots = [];
  for (let j = 0; j < data.capacity; j++) {
    const cx = LEFT + SLOT * j + SLOT / 2, cy = rows.dial;
    const g = svgEl("g", { "data-slot": j }, svg);
    const box = svgEl("rect", { x: cx - SLOT / 2 + 1, y: TOP, width: SLOT - 2, height: 112, rx: 4, class: "rope-w-slot" }, g);
    const token = svgEl("text", { x: cx, y: rows.token, "text-anchor": "middle" }, g);
    svgEl("circle", { cx, cy, r: RADIUS, class: "rope-w-dial" }, g);
    const should = svgEl("line", { x1: cx, y1: cy, class: "rope-w-hand-should" }, g);
    const hand = svgEl("line", { x1: cx, y1: cy, class: "rope-w-hand" }, g);
    const cachedAt = svgEl("text", { x: cx, y: rows.cached, "text-anchor": "middle" }, g);
    const now = svgEl("text", { x: cx, y: rows.now, "text-anchor": "middle" }, g);
    slots.push({ g, box, token, hand, should, cachedAt, now, cx, cy });
  }
  const legend = svgEl("text", { x: 4, y: HEIGHT - 8, class: "rope-w-muted-text" }, svg);
  legend.textContent = "solid: as cached · dashed: as it should be";

  const sync = syncer(model, state, () => draw());
  const stageNames = data.tracks[0].map((_, i) => i);
  const sayStage = (i) => `${i + 1} of ${stageNames.length}: ${labelAt(i)}`;
  const stageSlider = slider(controls, { label: "event", name: "stage", values: stageNames, index: state.stage,
    format: sayStage, onInput: sync("stage", "stage") });
  stageSlider.output.setAttribute("aria-hidden", "true");  // the slider says its value itself, once
  keepInReach(stageSlider);  // on a phone, the main control stays in sight with the cache
  stageSlider.output.textContent = `${state.stage + 1} / ${stageNames.length}`;
  stageSlider.input.addEventListener("input", () => { stageSlider.output.textContent = `${Number(stageSlider.input.value) + 1} / ${stageNames.length}`; });

  controls.appendChild(row);
  htmlEl("span", { class: "rope-w-choices-label", "aria-hidden": "true" }, row, "kept keys:");
  const modes = [`rotate by −${data.evict}`, "leave them"].map((name, i) => {
    const b = htmlEl("button", { type: "button", class: "rope-w-choice-button", "data-choice": i, "aria-pressed": "false" }, row, name);
    b.addEventListener("click", () => { modeChosen = true; modes.forEach((m, k) => m.setAttribute("aria-pressed", String(k === i))); sync("rerotate_index", "rerotate_index")(i); });
    b.addEventListener("keydown", (event) => event.stopPropagation());
    return b;
  });
  model.on("change:rerotate_index", () => {
    if (state.rerotate_index === model.get("rerotate_index")) return;
    state.rerotate_index = model.get("rerotate_index");
    modeChosen = true;  // set from the kernel: a choice too
    modes.forEach((m, k) => m.setAttribute("aria-pressed", String(k === state.rerotate_index)));
    draw();
  });

  // The error is an absolute difference of scores qᵀk/√d (attention's logits, before softmax):
  // the cached key's score minus a freshly rotated key's.
  const result = readout(controls, "error", "");
  result.previousElementSibling.replaceChildren("next query's largest score error, |cached − fresh| in ",
    htmlEl("span", { style: "white-space: nowrap" }, null, "qᵀk/√d:"));
  result.classList.add("rope-w-result");
  // The result is said through the widget's one live region (common.js announcer), which the
  // question shares, once the reader pauses.
  let say = null;
  const hover = readout(controls, "slot", "");
  hover.parentElement.classList.add("rope-w-hover");
  let hovered = null;

  const describe = (s, j) => `slot ${j}: token ${s.tokens[j]}, key rotated at position ${s.positions[j]}, `
    + `token now at ${s.should[j]}; score ${fmt3(s.scores[j])} (fresh key: ${fmt3(s.fresh_scores[j])})`;
  hoverable(slots.map((s) => s.g), { onShow: (j) => { hovered = j; showHover(); }, onHide: () => { hovered = null; showHover(); } });
  function showHover() {
    const s = stageAt(state.stage);
    setText(hover, hovered === null || hovered >= s.tokens.length ? "point at a slot (or Tab to it, then arrows) for its numbers" : describe(s, hovered));
  }

  const tip = (cx, cy, angle, r) => [cx + r * Math.cos(angle), cy - r * Math.sin(angle)];
  function draw() {
    const s = stageAt(state.stage);
    setText(stageLine, labelAt(state.stage));
    slots.forEach((slot, j) => {
      const used = j < s.tokens.length;
      slot.g.style.visibility = used ? "visible" : "hidden";
      if (!used) { slot.g.setAttribute("aria-label", `slot ${j}: empty`); return; }
      const stale = s.positions[j] !== s.should[j];
      const [hx, hy] = tip(slot.cx, slot.cy, s.angle[j], RADIUS - 2);
      const [sx, sy] = tip(slot.cx, slot.cy, s.should_angle[j], RADIUS);
      slot.hand.setAttribute("x2", hx); slot.hand.setAttribute("y2", hy);
      slot.should.setAttribute("x2", sx); slot.should.setAttribute("y2", sy);
      setText(slot.token, `t${s.tokens[j]}`);
      setText(slot.cachedAt, String(s.positions[j]));
      setText(slot.now, String(s.should[j]));
      slot.cachedAt.setAttribute("class", stale ? "rope-w-stale-text" : "");
      slot.box.setAttribute("class", stale ? "rope-w-slot rope-w-slot-stale" : "rope-w-slot");
      slot.g.setAttribute("aria-label", describe(s, j));
    });
    const stale = s.positions.filter((p, j) => p !== s.should[j]).length;
    const said = pending(state.stage) ? "answer the question above"
      : `${fmt3(s.error)} at position ${s.query_position}` + (stale ? ` (${stale} keys rotated for another position)` : "");
    setText(result, said);
    result.toggleAttribute("data-pending", pending(state.stage));
    (say = say || announcer(result.closest(".rope-w") || controls))(pending(state.stage) ? said : `largest score error (absolute, in qᵀk/√d) ${said}`);
    // A chosen mode renames the events past the eviction; the slider says the new name.
    stageSlider.input.setAttribute("aria-valuetext", sayStage(state.stage));
    svg.setAttribute("aria-label", `The cache after: ${labelAt(state.stage)}. ${s.tokens.length} of ${data.capacity} slots used; `
      + `${stale} keys rotated for a position their token no longer has.`);
    showHover();
    ask.refresh();
  }
  // Once answered, the widget goes to what the answer is about. Right: the re-rotated cache at
  // the first event after the eviction, where the error the verdict promises (0) is drawn, with
  // "leave them" one press away. "nothing": the cache left alone at its worst event. "recompute":
  // the same re-rotated cache, which already equals a fresh pass without recomputing anything.
  const CONSEQUENCE = [
    { mode: 1, event: leftAlone.event },
    { mode: 0, event: evictAt + 2 },
    { mode: 0, event: evictAt + 2 },
  ];
  ask.buttons.forEach((button, i) => button.addEventListener("click", () => {
    const { mode, event } = CONSEQUENCE[i];
    modes[mode].click();
    stageSlider.set(event - 1);
    stageSlider.output.textContent = `${event} / ${stageNames.length}`;
    // On a phone the event slider is pinned to the screen's foot, over whatever is there: the
    // read-out with the number the verdict promises is brought up just above it.
    const bar = stageSlider.input.closest(".rope-w-control");
    const foot = bar && bar.classList.contains("rope-w-in-reach") ? bar.getBoundingClientRect().top : window.innerHeight;
    const below = result.parentElement.getBoundingClientRect().bottom + 8 - foot;
    if (below > 0) window.scrollBy({ top: below });
  }));
  draw();
}

export default { render };
