// The RTT distribution (src/stats.ts) against the cases of bench/net/rust/src/stats.rs.

import assert from "node:assert/strict";
import { test } from "node:test";
import { percentile, summarize } from "../src/stats.js";

test("percentiles by nearest rank, mean, a 100-point CDF", () => {
  const ns = Float64Array.from({ length: 1000 }, (_, i) => (1000 - i) * 1000);
  const l = summarize(ns);
  assert.ok(l !== undefined);
  assert.deepEqual([l.p50, l.p90, l.p99, l.p999, l.max], [500, 900, 990, 999, 1000]);
  assert.equal(l.mean, 500.5);
  assert.equal(l.cdf.length, 100);
  assert.deepEqual(l.cdf[0], [0.01, 10]);
  assert.deepEqual(l.cdf[99], [1, 1000]);
  assert.deepEqual(Object.keys(l), ["mean", "p50", "p90", "p99", "p999", "max", "cdf"]);
});

test("one sample, and none", () => {
  const l = summarize(Float64Array.of(1500));
  assert.deepEqual([l?.p50, l?.p999, l?.max, l?.mean], [1.5, 1.5, 1.5, 1.5]);
  assert.equal(summarize(new Float64Array(0)), undefined);
  assert.equal(percentile([3, 5], 0.0001), 3);
});
