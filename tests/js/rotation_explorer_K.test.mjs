// RotationExplorer's label placer: each label at its own spot if free, otherwise the nearest
// spot clear of the handles, of the labels placed before it and of the drawing's edge.
import assert from "node:assert/strict";
import { test } from "node:test";

import { placeApart } from "../../rope_core/widgets/rotation_explorer.js";

const fakeNode = () => {
  const attributes = {};
  return { attributes, setAttribute: (name, value) => { attributes[name] = value; } };
};
const overlap = (a, b) => Math.abs(a.x - b.x) < a.halfWidth + b.halfWidth && Math.abs(a.y - b.y) < a.halfHeight + b.halfHeight;

test("a label whose spot is free stays there", () => {
  const node = fakeNode();
  const [box] = placeApart([{ node, text: "q", at: [100, 120] }], [[300, 300]]);
  assert.deepEqual([box.x, box.y], [100, 120]);
  assert.deepEqual(node.attributes, { x: 100, y: 120 });
});

test("labels that all want one spot end apart, off the handles and inside the drawing", () => {
  for (const textScale of [1, 1.3]) {
    const labels = ["q", "R(mθ) q", "25", "Re0", "Re1", "mθ"].map((text) => ({ node: fakeNode(), text, at: [200, 150] }));
    const handles = [[200, 150], [215, 140]];
    const boxes = placeApart(labels, handles, { textScale });
    for (let i = 0; i < boxes.length; i++) {
      const b = boxes[i];
      assert.ok(b.x - b.halfWidth >= 0 && b.x + b.halfWidth <= 340 && b.y - b.halfHeight >= 0 && b.y + b.halfHeight <= 340, labels[i].text);
      for (const [hx, hy] of handles) {
        const gap = Math.hypot(Math.max(Math.abs(hx - b.x) - b.halfWidth, 0), Math.max(Math.abs(hy - b.y) - b.halfHeight, 0));
        assert.ok(gap >= 15, `${labels[i].text} is ${gap} px from a handle`);
      }
      for (let j = 0; j < i; j++) assert.ok(!overlap(b, boxes[j]), `${labels[i].text} over ${labels[j].text}`);
    }
  }
});

test("a label with its own spots takes the first free one, in their order", () => {
  const first = fakeNode(), second = fakeNode();
  const boxes = placeApart([
    { node: first, text: "q", at: [100, 100] },
    { node: second, text: "25", at: [100, 100], spots: [[100, 100], [104, 100], [160, 100], [100, 160]] },
  ], []);
  assert.deepEqual([boxes[1].x, boxes[1].y], [160, 100]);
});
