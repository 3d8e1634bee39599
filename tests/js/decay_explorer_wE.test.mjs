// DecayExplorer's pure helpers: the content slider's words and the logarithmic y axis.
import assert from "node:assert/strict";
import { test } from "node:test";

import { contentLabel, logFraction } from "../../rope_core/widgets/decay_explorer.js";

test("contentLabel names the ends and the mixes between them", () => {
  assert.equal(contentLabel(0), "aligned (k = q)");
  assert.equal(contentLabel(1), "random");
  assert.equal(contentLabel(0.25), "25 % random");
  assert.equal(contentLabel(0.5), "50 % random");
});

test("logFraction puts each decade at the same height and a score's sign does not matter", () => {
  const lo = 1e-3, hi = 1e2;   // five decades
  assert.equal(logFraction(lo, lo, hi), 0);
  assert.equal(logFraction(hi, lo, hi), 1);
  for (let e = -3; e <= 2; e++) assert.ok(Math.abs(logFraction(10 ** e, lo, hi) - (e + 3) / 5) < 1e-12, e);
  assert.equal(logFraction(-0.1, lo, hi), logFraction(0.1, lo, hi));
});

test("logFraction clamps what lies outside the axis to its ends", () => {
  assert.equal(logFraction(0, 1e-3, 1e2), 0);
  assert.equal(logFraction(1e-9, 1e-3, 1e2), 0);
  assert.equal(logFraction(1e6, 1e-3, 1e2), 1);
});
