// The heat map's play and question helpers (rotation_matrix_heatmap.js): the position at a
// fractional slider stop (play runs m across log steps as across single tokens) and the first
// block still nearly the identity at a given m.
import assert from "node:assert/strict";
import { test } from "node:test";

import { NEARLY, firstStill, positionAt } from "../../rope_core/widgets/rotation_matrix_heatmap.js";

test("positionAt is the stop itself at a whole index and the straight line between stops", () => {
  const positions = [0, 1, 2, 64, 70, 4096];
  positions.forEach((p, k) => assert.equal(positionAt(positions, k), p));
  assert.equal(positionAt(positions, 2.5), 33);              // halfway from 2 to 64
  assert.equal(positionAt(positions, 4.25), 70 + 0.25 * 4026);
  // Before the first stop and past the last, it stays on the slider's ends.
  assert.equal(positionAt(positions, -1), 0);
  assert.equal(positionAt(positions, 7), 4096);
  assert.equal(positionAt(positions, Number.NaN), 0);
});

test("positionAt never goes backwards as the index grows", () => {
  const positions = [0, 1, 2, 3, 64, 70, 76, 4096];
  let previous = -1;
  for (let at = 0; at <= positions.length - 1; at += 0.01) {
    const m = positionAt(positions, at);
    assert.ok(m >= previous, `${m} after ${previous} at ${at}`);
    previous = m;
  }
});

test("firstStill finds the first pair turned by less than NEARLY rad at m, -1 for none", () => {
  assert.equal(NEARLY, 0.1);
  // d = 8, base 10^4: θ_i = 10^-i.
  const theta = [1, 0.1, 0.01, 0.001];
  assert.equal(firstStill(theta, 32), 3);     // 0.032 rad; block 2 turns 0.32
  assert.equal(firstStill(theta, 9), 2);      // 0.09 rad
  assert.equal(firstStill(theta, 100), -1);   // block 3 turns exactly 0.1: not less
  assert.equal(firstStill(theta, 4096), -1);
  assert.equal(firstStill(theta, 0), 0);      // m = 0: every block is the identity
});
