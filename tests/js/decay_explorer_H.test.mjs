// DecayExplorer's label placement against drawn lines: segmentLengthInBox measures how much of
// a segment a box covers, and placeLabels keeps every label off the lines it is given.
import assert from "node:assert/strict";
import { test } from "node:test";

import { placeLabels, segmentLengthInBox } from "../../rope_core/widgets/decay_explorer.js";

const box = { x: 0, y: 0, width: 10, height: 10 };

test("segmentLengthInBox is the length of the part inside the box", () => {
  assert.equal(segmentLengthInBox(-5, 5, 15, 5, box), 10);               // straight across
  assert.ok(Math.abs(segmentLengthInBox(-5, -5, 15, 15, box) - Math.hypot(10, 10)) < 1e-9);  // corner to corner
  assert.equal(segmentLengthInBox(2, 2, 4, 2, box), 2);                  // wholly inside
  assert.equal(segmentLengthInBox(-5, 12, 15, 12, box), 0);              // under it
  assert.equal(segmentLengthInBox(-5, 25, 25, -5, box), 0);              // past its corner
  assert.equal(segmentLengthInBox(20, 5, 30, 5, box), 0);                // beside it, on its line
});

test("five equal values on one flat line: no label sits on the line, the last one stays inside", () => {
  // B(r) at r = 0 is the same at every base: the bound's line and its average's run flat
  // through every dot, and the right-end label has no room to the right.
  const bounds = { x: 0, y: 0, width: 460, height: 214 };
  const xs = [54, 152, 251, 349, 448];
  const y = 63;
  const dots = xs.map((x) => ({ x: x - 7, y: y - 7, width: 14, height: 14 }));
  const line = xs.map((x) => [x, y]);
  const places = placeLabels(xs.map((x) => ({ x, y, width: 30, height: 15 })), dots, bounds, 9, [line, line]);
  places.forEach(({ box: placed }, i) => {
    for (let j = 1; j < line.length; j++) {
      assert.equal(segmentLengthInBox(...line[j - 1], ...line[j], placed), 0, `label ${i} on the line`);
    }
    assert.ok(placed.x >= 0 && placed.x + placed.width <= 460, `label ${i} leaves the drawing`);
    for (const dot of dots) {
      const apart = placed.x >= dot.x + dot.width || dot.x >= placed.x + placed.width || placed.y >= dot.y + dot.height || dot.y >= placed.y + placed.height;
      assert.ok(apart, `label ${i} on a dot`);
    }
  });
});

test("at random rising and falling lines no label is struck through where a free place exists", () => {
  let seed = 11;
  const random = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
  const bounds = { x: 0, y: 0, width: 460, height: 214 };
  const xs = [54, 152, 251, 349, 448];
  for (let trial = 0; trial < 300; trial++) {
    const ys = xs.map(() => 60 + random() * 120);
    const averages = xs.map(() => 60 + random() * 120);
    const lines = [xs.map((x, i) => [x, ys[i]]), xs.map((x, i) => [x, averages[i]])];
    const dots = xs.map((x, i) => ({ x: x - 7, y: ys[i] - 7, width: 14, height: 14 }));
    const places = placeLabels(xs.map((x, i) => ({ x, y: ys[i], width: 30, height: 15 })), dots, bounds, 9, lines);
    places.forEach(({ box: placed }, i) => {
      const struck = lines.some((line) => line.slice(1).some((end, j) => segmentLengthInBox(...line[j], ...end, placed) > 0));
      assert.ok(!struck, `trial ${trial}, label ${i}: ${JSON.stringify(placed)}`);
    });
  }
});
