// DecayExplorer's label placement: beside each point, clear of the other labels, the obstacles
// (dots, tick labels, title) and inside the drawing.
import assert from "node:assert/strict";
import { test } from "node:test";

import { boxesOverlap, placeLabels } from "../../rope_core/widgets/decay_explorer.js";

const inside = (box, bounds) => box.x >= bounds.x && box.y >= bounds.y &&
  box.x + box.width <= bounds.x + bounds.width && box.y + box.height <= bounds.y + bounds.height;

test("boxesOverlap is true for shared area only, not for touching edges", () => {
  const a = { x: 0, y: 0, width: 10, height: 10 };
  assert.equal(boxesOverlap(a, { x: 5, y: 5, width: 10, height: 10 }), true);
  assert.equal(boxesOverlap(a, { x: 10, y: 0, width: 5, height: 5 }), false);
  assert.equal(boxesOverlap(a, { x: 0, y: 10, width: 5, height: 5 }), false);
  assert.equal(boxesOverlap(a, { x: 2, y: 2, width: 1, height: 1 }), true);
});

test("five equal values in a row (every bound equal at r = 0) get five separate labels under a title", () => {
  const bounds = { x: 0, y: 0, width: 460, height: 214 };
  const title = { x: 54, y: 2, width: 380, height: 40 };
  const xs = [54, 152, 251, 349, 448];
  const dots = xs.map((x) => ({ x: x - 7, y: 54 - 7, width: 14, height: 14 }));
  const places = placeLabels(xs.map((x) => ({ x, y: 54, width: 48, height: 20 })), [title, ...dots], bounds);
  places.forEach(({ box }, i) => {
    assert.ok(inside(box, bounds), `label ${i} leaves the drawing`);
    for (const other of [title, ...dots, ...places.slice(0, i).map((p) => p.box)]) assert.ok(!boxesOverlap(box, other), `label ${i}`);
  });
  assert.equal(places[4].box.x + places[4].box.width <= 460, true);   // the last one moved in, not off the edge
});

test("at random points with room to spare no label overlaps another label, a dot or a tick label", () => {
  let seed = 7;
  const random = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
  const bounds = { x: 0, y: 0, width: 460, height: 214 };
  for (let trial = 0; trial < 500; trial++) {
    const xs = [54, 152, 251, 349, 448];
    const ys = xs.map(() => 54 + random() * 130);
    const scale = 1 + random() * 0.6;   // a phone's text scale
    const ticks = xs.map((x) => ({ x: x - 14 * scale, y: 214 - 8 - 12 * scale, width: 28 * scale, height: 14 * scale }));
    const titles = [{ x: 54, y: 16 - 12 * scale, width: 260 * scale, height: 15 * scale }, { x: 54, y: 34 - 12 * scale, width: 200 * scale, height: 15 * scale }];
    const dots = xs.map((x, i) => ({ x: x - 7, y: ys[i] - 7, width: 14, height: 14 }));
    const labels = xs.map((x, i) => ({ x, y: ys[i], width: 30 * scale, height: 15 * scale }));
    const places = placeLabels(labels, [...dots, ...ticks, ...titles], bounds);
    places.forEach(({ box }, i) => {
      const others = [...dots, ...ticks, ...titles, ...places.filter((_, j) => j !== i).map((p) => p.box)];
      for (const other of others) assert.ok(!boxesOverlap(box, other), `trial ${trial}, label ${i}: ${JSON.stringify([box, other])}`);
      assert.ok(inside(box, bounds), `trial ${trial}, label ${i} outside`);
      // beside its own point: the box's nearest edge within the gap (9) and one label height
      const dx = Math.max(box.x - labels[i].x, 0, labels[i].x - box.x - box.width);
      const dy = Math.max(box.y - labels[i].y, 0, labels[i].y - box.y - box.height);
      assert.ok(Math.hypot(dx, dy) <= Math.hypot(9, 9 + labels[i].height) + 1e-9, `trial ${trial}, label ${i} far from its dot`);
    });
  }
});
