// CandidateExplorer's pure helpers: each candidate's score matrix computed on the page, and the
// spread along each diagonal. The browser test checks the same numbers against rope_core.
import assert from "node:assert/strict";
import { test } from "node:test";

import { candidateTables, diagonalSpreads, encodeCandidate } from "../../rope_core/widgets/candidate_explorer.js";

const PARAMETERS = { growth: 1.01, additive_half: 0.5, quadratic_divisor: 8 };
const NAMES = ["rotation", "no position", "additive", "growing", "quadratic", "by content", "parity"];

test("diagonalSpreads measures max − min along each diagonal n − m, from −(N−1) to N−1", () => {
  assert.deepEqual(diagonalSpreads([[1, 2], [3, 1]]), [0, 0, 0]);
  assert.deepEqual(diagonalSpreads([[1, 2, 0], [5, 4, 2], [0, 0, 1]]), [0, 5, 3, 0, 0]);
});

test("encodeCandidate turns, grows and mirrors as the formulas say", () => {
  const close = (a, b) => a.every((v, i) => Math.abs(v - b[i]) < 1e-12);
  assert.ok(close(encodeCandidate("rotation", [1, 0], 1, Math.PI / 2, PARAMETERS), [0, 1]));
  assert.ok(close(encodeCandidate("parity", [1, 2], 3, 0.5, PARAMETERS), [1, -2]));
  assert.ok(close(encodeCandidate("growing", [1, 0], 2, 0, PARAMETERS), [1.01 ** 2, 0]));
  assert.ok(close(encodeCandidate("additive", [0, 0], 1, Math.PI, PARAMETERS), [-1, 0]));
  assert.throws(() => encodeCandidate("spiral", [1, 0], 0, 0.5, PARAMETERS), /name/);
});

test("the candidates the chapter keeps are Toeplitz for any content; by content only when |q| = |k|", () => {
  const toeplitz = (t) => Math.max(...t.real_spread) < 1e-12;
  for (const [q, k] of [[[0.3, -1.1], [0.7, 0.2]], [[-0.9, 0.1], [0.05, 1.2]]]) {
    const tables = candidateTables(NAMES, q, k, 0.5, 12, PARAMETERS);
    assert.deepEqual(tables.map(toeplitz), [true, true, false, false, false, false, true]);
    assert.equal(tables[0].real.length, 12);
    assert.equal(tables[0].imag[3].length, 12);
  }
  const equal = candidateTables(["by content"], [0.6, 0.8], [0, 1], 0.5, 12, PARAMETERS);
  assert.ok(toeplitz(equal[0]));
});
