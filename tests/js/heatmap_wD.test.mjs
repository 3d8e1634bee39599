// The heat map's pure helpers (rotation_matrix_heatmap.js): the entries of R_m's blocks, the arc
// drawn inside a block and the wedge that trails a dial's hand while m plays.
import assert from "node:assert/strict";
import { test } from "node:test";

import { blockEntries, sweptWedge, turnArc, wrapTurn } from "../../rope_core/widgets/rotation_matrix_heatmap.js";

const close = (actual, expected, tolerance = 1e-12) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected} ± ${tolerance}`);
// "M x y A r r 0 large sweep x y [Z]" -> numbers in order.
const numbers = (path) => path.replace(/[MALZ]/g, " ").trim().split(/\s+/).map(Number);

test("blockEntries puts cos on each block's diagonal, −sin above it and sin below it", () => {
  // d = 4: the entries of two blocks, row-major, block by block (matrix_table's rows, cols).
  const rows = [0, 0, 1, 1, 2, 2, 3, 3], cols = [0, 1, 0, 1, 2, 3, 2, 3];
  const angles = [1.3, -0.4];
  const want = [Math.cos(1.3), -Math.sin(1.3), Math.sin(1.3), Math.cos(1.3),
    Math.cos(-0.4), -Math.sin(-0.4), Math.sin(-0.4), Math.cos(-0.4)];
  blockEntries(rows, cols, angles).forEach((v, e) => close(v, want[e]));
});

test("wrapTurn keeps an angle in [0, 2π)", () => {
  close(wrapTurn(32), 32 - 10 * Math.PI);
  close(wrapTurn(-1), 2 * Math.PI - 1);
  assert.equal(wrapTurn(0), 0);
  close(wrapTurn(2 * Math.PI + 0.5), 0.5, 1e-12);
});

test("turnArc runs counter-clockwise on the page from 3 o'clock to the wrapped angle", () => {
  for (const angle of [0.5, 2, 4, 32, -1]) {
    const [x0, y0, r, r2, , large, sweep, x1, y1] = numbers(turnArc(10, 20, 5, angle));
    const a = wrapTurn(angle);
    assert.deepEqual([x0, y0, r, r2, sweep], [15, 20, 5, 5, 0]);
    assert.equal(large, a > Math.PI ? 1 : 0);
    close(Math.atan2(20 - y1, x1 - 10), Math.atan2(Math.sin(a), Math.cos(a)), 1e-9);
  }
  assert.equal(turnArc(0, 0, 5, 2 * Math.PI * 3), "");
});

test("sweptWedge is a sector ending at the hand, a full disc from one turn on", () => {
  const [cx, cy, x0, y0, r, , , large, sweep, x1, y1] = numbers(sweptWedge(10, 20, 5, 1, 2.5));
  assert.deepEqual([cx, cy, r, large, sweep], [10, 20, 5, 0, 0]);
  close(Math.atan2(20 - y0, x0 - 10), 1.5, 1e-9);
  close(Math.atan2(20 - y1, x1 - 10), 2.5, 1e-9);
  assert.equal(sweptWedge(0, 0, 5, 0, 1), "");
  assert.match(sweptWedge(0, 0, 5, 7, 1), /A 5 5 0 1 0 -5 0 A 5 5 0 1 0 5 0 Z/);
});
