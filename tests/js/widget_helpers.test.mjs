// Unit tests of the widgets' pure helpers (no DOM): number formats and the 2-D geometry the
// pages compute themselves. `make test-js` (part of `make check`) runs them with `node --test`;
// the browser tests check the same numbers on the built pages, at seconds per case.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fmt, fmt3 } from "../../rope_core/widgets/common.js";
import { labelAt, num, polar, rotate, wrapDeg } from "../../rope_core/widgets/drag.js";

const close = (actual, expected, tolerance = 1e-12) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected} ± ${tolerance}`);

test("fmt rounds to a fixed number of decimals", () => {
  assert.equal(fmt(Math.PI), "3.1416");
  assert.equal(fmt(2, 1), "2.0");
  assert.equal(fmt("0.5", 2), "0.50");
});

test("fmt3 shows three significant digits, a true minus sign and powers of ten", () => {
  assert.equal(fmt3(0), "0");
  assert.equal(fmt3(0.5403023), "0.540");
  assert.equal(fmt3(-0.8414709), "−0.841");  // U+2212, not a hyphen
  assert.equal(fmt3(1234.5), "1230");
  assert.equal(fmt3(99999), "100000");
  assert.equal(fmt3(2.3716e-6), "2.37×10⁻⁶");
  assert.equal(fmt3(5e5), "5.00×10⁵");
  assert.equal(fmt3(0.001), "0.00100");
  assert.equal(fmt3(Infinity), "Infinity");
  assert.equal(fmt3(Number.NaN), "NaN");
});

test("wrapDeg brings any angle into [0, 360)", () => {
  for (const [angle, wrapped] of [[0, 0], [360, 0], [370, 10], [-10, 350], [-720, 0], [359.5, 359.5]]) {
    close(wrapDeg(angle), wrapped);
  }
});

test("rotate turns a vector by the angle and keeps its length", () => {
  const [x, y] = rotate([1, 0], Math.PI / 2);
  close(x, 0);
  close(y, 1);
  const v = [0.3, -1.7], turned = rotate(v, 2.1);
  close(Math.hypot(...turned), Math.hypot(...v));
  // R(a) R(b) = R(a + b): rotations about the origin compose by adding angles.
  const twice = rotate(rotate(v, 0.4), 0.9), once = rotate(v, 1.3);
  close(twice[0], once[0]);
  close(twice[1], once[1]);
});

test("polar is length times (cos, sin) of the angle in degrees", () => {
  const [x, y] = polar(2, 30);
  close(x, Math.sqrt(3));
  close(y, 1);
  for (const coordinate of polar(0, 123)) close(coordinate, 0);
});

test("num shows round-off as 0 and everything else as fmt3 does", () => {
  assert.equal(num(Math.cos(Math.PI / 2)), "0");
  assert.equal(num(-1e-13), "0");
  assert.equal(num(1e-11), fmt3(1e-11));
  assert.equal(num(-0.5), "−0.500");
});

test("labelAt puts a label beyond the tip, inside the drawing", () => {
  const size = 340, centre = 170, scale = 100;
  const px = (x) => centre + scale * x, py = (y) => centre - scale * y;
  // A short vector to the right: the label sits further right on the same line.
  const [x, y] = labelAt(px, py, [1, 0], 0.28, "q");
  assert.ok(x > px(1), `${x} is not beyond the tip`);
  close(y, py(0));
  // A long vector into the right edge: the label moves beside the tip, still inside.
  const [edgeX, edgeY] = labelAt(px, py, [1.65, 0], 0.28, "R_{5} q", size);
  assert.ok(edgeX >= 30 && edgeX <= size - 30 && edgeY >= 10 && edgeY <= size - 10, `${edgeX}, ${edgeY}`);
  close(edgeY, py(0.28));
});
