// The context-extension widget's own arithmetic of the position p (no DOM): the slider's
// stops, the slow pairs past their arcs, and where a drag or Page Up / Page Down lands.
import assert from "node:assert/strict";
import { test } from "node:test";

import { nextNamedStop, pastArcs, positionStops, snapStop } from "../../rope_core/widgets/context_extension.js";

test("positionStops are round(first · 2^(k/n)), with every power of two a stop", () => {
  // rope_core.demos.context.octave_positions(1024, 4096, 2), its docstring's example.
  assert.deepEqual(positionStops({ first: 1024, last: 4096, per_octave: 2 }), [1024, 1448, 2048, 2896, 4096]);
  const stops = positionStops({ first: 1024, last: 131072, per_octave: 64 });
  assert.equal(stops.length, 64 * 7 + 1);
  for (let k = 0; k <= 7; k++) assert.equal(stops[64 * k], 1024 * 2 ** k);
  // Each step is 2^(1/64) - 1 = 1.09 % up to rounding to whole tokens.
  for (let k = 1; k < stops.length; k++) assert.ok(stops[k] > stops[k - 1] && stops[k] / stops[k - 1] < 1.012, `${k}`);
});

test("pastArcs counts the slow pairs with p·r_i beyond 1 and returns the largest p·r_i", () => {
  const reach = [10, 1 / 4096, 1 / 2048, 1 / 8192];
  // Pair 0 is not slow and is never counted, however far it turns.
  assert.deepEqual(pastArcs(4096, reach, [1, 2, 3]), { count: 1, worst: 2 });
  assert.deepEqual(pastArcs(8192, reach, [1, 2, 3]), { count: 2, worst: 4 });
  assert.deepEqual(pastArcs(1024, reach, [1, 2, 3]), { count: 0, worst: 0.5 });
  // A ratio of 1 within the 7 digits sent is at the end of the arc, not past it.
  assert.equal(pastArcs(1, [1 + 5e-7], [0]).count, 0);
  assert.equal(pastArcs(1, [1 + 2e-6], [0]).count, 1);
  assert.deepEqual(pastArcs(5000, reach, []), { count: 0, worst: 0 });
});

test("snapStop settles within reach on the nearest named stop and nowhere else", () => {
  const named = [0, 128, 192, 448];
  assert.equal(snapStop(126, named, 2), 128);
  assert.equal(snapStop(130, named, 2), 128);
  assert.equal(snapStop(131, named, 2), 131);
  assert.equal(snapStop(190, named, 2), 192);
  assert.equal(snapStop(300, named, 2), 300);
  assert.equal(snapStop(1, named, 0), 1);
});

test("nextNamedStop jumps to the next named stop either way, then to the ends", () => {
  const named = [128, 192, 256];
  assert.equal(nextNamedStop(0, named, 1, 448), 128);
  assert.equal(nextNamedStop(128, named, 1, 448), 192);
  assert.equal(nextNamedStop(150, named, -1, 448), 128);
  assert.equal(nextNamedStop(256, named, 1, 448), 448);
  assert.equal(nextNamedStop(100, named, -1, 448), 0);
});
