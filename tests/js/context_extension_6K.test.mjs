// ContextExtension's dial wording: a ratio past the trained arc never reads as "1", and a
// ratio of exactly 1 is never "1 times".
import assert from "node:assert/strict";
import test from "node:test";

import { ratioText, turnedPhrase } from "../../rope_core/widgets/context_extension.js";

test("three significant digits, more only to tell a ratio past the arc from 1", () => {
  assert.equal(ratioText(2.5), "2.5");
  assert.equal(ratioText(4.00012), "4");
  assert.equal(ratioText(0.12345), "0.123");
  assert.equal(ratioText(1), "1");
  assert.equal(ratioText(1 + 1e-7), "1");  // within the widget's tolerance: on the arc's end
  assert.equal(ratioText(1.0004), "1.0004");
  assert.equal(ratioText(1.00004), "1.00004");
  assert.equal(ratioText(1.03), "1.03");
  assert.equal(ratioText(1.0000021), "1.000002");  // just past the tolerance: still not "1"
});

test("a dial's phrase agrees in number and never says 1 times", () => {
  assert.equal(turnedPhrase(1), "exactly its trained angle");
  assert.equal(turnedPhrase(1 + 1e-7), "exactly its trained angle");
  assert.equal(turnedPhrase(2.5), "2.5 times its trained angle");
  assert.equal(turnedPhrase(1.0004), "1.0004 times its trained angle");
  for (const ratio of [0.5, 0.999, 1, 1.000002, 1.2, 3, 16]) assert.doesNotMatch(turnedPhrase(ratio), /^1 times/);
});
